/* cli_verify.c — `isocheck verify [--level si|ser] HISTORY CERT`: check a
 * certificate (frontend/certificate.h) without any solver.
 * exit 0: the certificate proves the level; 1: it does not (the first
 * broken condition is named); 2: bad usage, history or certificate syntax. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "frontend/certificate.h"
#include "frontend/cli.h"
#include "frontend/parse.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: isocheck verify [--format text|dbcop|cobra|elle|json] [--level si|ser] [--failed-ops-abort]\n"
            "                       HISTORY CERTIFICATE\n"
            "Check a certificate written by 'isocheck check --certificate FILE' against the history,\n"
            "without any solver (format: doc/certificate.md).  The level defaults to the certificate's.\n"
            "--failed-ops-abort: read the history as 'check --failed-ops-abort' did.\n"
            "exit: 0 the certificate proves the level, 1 it does not, 2 bad input or usage.\n");
}

int cli_verify(int argc, char **argv) {
    const char *paths[2] = { NULL, NULL }, *level = NULL, *fmt_name = NULL;
    int np = 0;
    load_options lopt = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--level") && i + 1 < argc) level = argv[++i];
        else if (!strncmp(a, "--level=", 8)) level = a + 8;
        else if (!strcmp(a, "--format") && i + 1 < argc) fmt_name = argv[++i];
        else if (!strncmp(a, "--format=", 9)) fmt_name = a + 9;
        else if (!strcmp(a, "--failed-ops-abort")) lopt.failed_ops_abort = 1;
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "isocheck verify: unknown option '%s'\n", a); usage(stderr); return 2; }
        else if (np < 2) paths[np++] = a;
        else { fprintf(stderr, "isocheck verify: too many arguments\n"); usage(stderr); return 2; }
    }
    if (np != 2) { usage(stderr); return 2; }
    if (level && strcmp(level, "si") && strcmp(level, "ser")) {
        fprintf(stderr, "isocheck verify: unknown level '%s' (si or ser)\n", level);
        return 2;
    }
    int fmt = history_format_from_name(fmt_name);
    if (fmt < 0) { fprintf(stderr, "isocheck verify: unknown format '%s'\n", fmt_name); return 2; }
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_ex(paths[0], (history_format)fmt, &lopt, NULL, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    input r;
    if (!input_open(&r, paths[1], &err)) { ic_error_print(stderr, "isocheck", &err); history_free(h); return 2; }
    certificate c;
    cert_init(&c);
    cert_status st = cert_read(&r, h, &c, &err);
    input_close(&r);
    int rc;
    if (st == CERT_MALFORMED) { ic_error_print(stderr, "isocheck", &err); rc = 2; }
    else {
        int si = level ? !strcmp(level, "si") : c.si;
        uint64_t edges = 0;
        if (st == CERT_OK) st = cert_verify(h, &c, si, &err, &edges);
        if (st == CERT_OK) {
            printf("VALID %s: the certificate proves %s for %s (%u transactions, %u keys, %llu edges checked)\n",
                   si ? "si" : "ser", si ? "snapshot isolation" : "serializability", paths[0], h->num_txns - 1, h->num_keys,
                   (unsigned long long)edges);
            rc = 0;
        } else {
            printf("INVALID %s: ", si ? "si" : "ser");
            ic_error_print(stdout, "certificate", &err);
            rc = 1;
        }
    }
    cert_free(&c);
    history_free(h);
    return rc;
}
