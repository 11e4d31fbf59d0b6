/* cli_verify.c — `isocheck verify [--level si|ser] HISTORY CERT`: check a
 * certificate (frontend/recheck/certificate.h) without any solver.
 * exit 0: the certificate proves the level; 1: it does not (the first
 * broken condition is named); 2: bad usage, history or certificate syntax. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "frontend/recheck/certificate.h"
#include "frontend/reports/cert_file.h"
#include "programs/cli.h"
#include "frontend/formats/parse.h"

int cli_verify(int argc, char **argv) {
    int level = -1, fmt_choice = -1;
    load_options lopt = { 0 };
    cmd_opt opts[] = {
        CMD_CHOICE("format", 0, &fmt_choice, cli_format_names(), "F", "history format (default: detected)"),
        CMD_CHOICE("level", 0, &level, cli_level_names, "L", "level to prove (default: the certificate's)"),
        CMD_FLAG("failed-ops-abort", 0, &lopt.failed_ops_abort, "read the history as 'check --failed-ops-abort' did"),
        CMD_END
    };
    cmd_spec spec = {
        "isocheck verify", "[options] HISTORY CERTIFICATE",
        "Check a certificate written by 'isocheck check --certificate FILE' against the history,\n"
        "without any solver (format: doc/certificate.md).\n",
        opts, "HISTORY CERTIFICATE", 2, 2,
        "exit: 0 the certificate proves the level, 1 it does not, 2 bad input or usage.\n"
    };
    const char *paths[2];
    int np, rc = cli_parse(&spec, argc, argv, paths, &np);
    if (rc >= 0) return rc;
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_ex(paths[0], (history_format)cli_format(fmt_choice), &lopt, NULL, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    input r;
    if (!input_open(&r, paths[1], &err)) { ic_error_print(stderr, "isocheck", &err); history_free(h); return 2; }
    certificate c;
    cert_init(&c);
    cert_status st = cert_read(&r, h, &c, &err);
    input_close(&r);
    if (st == CERT_MALFORMED) { ic_error_print(stderr, "isocheck", &err); rc = 2; }
    else {
        int si = level >= 0 ? level == 0 : c.si;
        uint64_t edges = 0;
        if (st == CERT_OK) st = cert_verify(h, &c, si, &err, &edges);
        if (st == CERT_OK) {
            printf("VALID %s: the certificate proves %s for %s (%u transactions, %u keys, %llu edges checked)\n",
                   si ? "si" : "ser", si ? "snapshot isolation" : "serializability", paths[0], h->num_txns - 1, h->num_keys,
                   (unsigned long long)edges);
            rc = cli_exit_code(VERDICT_PASS);
        } else {
            printf("INVALID %s: ", si ? "si" : "ser");
            ic_error_print(stdout, "certificate", &err);
            rc = cli_exit_code(VERDICT_FAIL);
        }
    }
    cert_free(&c);
    history_free(h);
    return rc;
}
