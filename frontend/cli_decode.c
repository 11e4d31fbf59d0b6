/* cli_decode.c — `isocheck decode HISTORY MODEL`: a SAT solver's answer to
 * an `isocheck encode` instance turned into a verdict; a model becomes a
 * certificate that `isocheck verify` checks (frontend/certificate.h). */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "frontend/certificate.h"
#include "frontend/check_report.h"
#include "frontend/cli.h"
#include "frontend/export.h"
#include "frontend/parse.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: isocheck decode [--format text|dbcop|cobra|elle] [--level si|ser] [--no-prune]\n"
            "                       [-o CERTIFICATE] HISTORY MODEL\n"
            "Read a solver's answer (competition 's'/'v' lines, MiniSat's result file, or bare\n"
            "literals) to the instance 'isocheck encode' wrote with the same --level/--no-prune.\n"
            "SAT: the model's version order is re-checked and written as a certificate (to -o, else\n"
            "stdout; 'isocheck verify HISTORY CERTIFICATE' checks it).  UNSAT: the confirmed cycle.\n"
            "exit: 0 the history satisfies the level, 1 it does not, 2 bad input or a wrong answer.\n");
}

int cli_decode(int argc, char **argv) {
    const char *paths[2] = { NULL, NULL }, *fmt_name = NULL, *level = "si", *out_path = NULL;
    int np = 0, no_prune = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--no-prune")) no_prune = 1;
        else if (!strcmp(a, "-o") && i + 1 < argc) out_path = argv[++i];
        else if (!strcmp(a, "--format") && i + 1 < argc) fmt_name = argv[++i];
        else if (!strncmp(a, "--format=", 9)) fmt_name = a + 9;
        else if (!strcmp(a, "--level") && i + 1 < argc) level = argv[++i];
        else if (!strncmp(a, "--level=", 8)) level = a + 8;
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "isocheck decode: unknown option '%s'\n", a); usage(stderr); return 2; }
        else if (np < 2) paths[np++] = a;
        else { fprintf(stderr, "isocheck decode: too many arguments\n"); usage(stderr); return 2; }
    }
    if (np != 2) { usage(stderr); return 2; }
    export_options o = { LEVEL_SI, no_prune };
    if (!strcmp(level, "ser")) o.level = LEVEL_SER;
    else if (strcmp(level, "si")) { fprintf(stderr, "isocheck decode: unknown level '%s' (si or ser)\n", level); return 2; }
    int fmt = history_format_from_name(fmt_name);
    if (fmt < 0) { fprintf(stderr, "isocheck decode: unknown format '%s'\n", fmt_name); return 2; }

    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(paths[0], (history_format)fmt, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    sat_model m;
    sat_model_init(&m);
    input r;
    if (!input_open(&r, paths[1], &err)) { ic_error_print(stderr, "isocheck", &err); history_free(h); return 2; }
    int ok = sat_model_read(&r, &m, &err);
    input_close(&r);
    if (!ok) { ic_error_print(stderr, "isocheck", &err); history_free(h); return 2; }

    check_result res;
    memset(&res, 0, sizeof res);
    int rc;
    if (!export_decode(h, &o, &m, &res, &err)) { ic_error_print(stderr, "isocheck", &err); rc = 2; goto done; }
    if (res.verdict == CHECK_PASS) {
        certificate c;
        cert_init(&c);
        if (cert_build(h, &res.vo, o.level == LEVEL_SI, &c, &err) != CERT_OK) {
            fprintf(stderr, "isocheck decode: internal error: no certificate from the model's version order: %s\n", err.msg);
            rc = 2;
        } else {
            FILE *out = out_path ? fopen(out_path, "w") : stdout;
            if (!out) { fprintf(stderr, "isocheck decode: cannot write '%s'\n", out_path); rc = 2; }
            else {
                cert_write(out, h, &c);
                int bad = out_path ? fclose(out) != 0 : fflush(out) != 0;
                if (bad) { fprintf(stderr, "isocheck decode: write error\n"); rc = 2; }
                else {
                    fprintf(out_path ? stdout : stderr, "PASS %s: the model gives a version order that satisfies %s%s%s\n",
                            check_level_name(o.level), check_level_title(o.level),
                            out_path ? "; certificate in " : "", out_path ? out_path : "");
                    rc = 0;
                }
            }
        }
        cert_free(&c);
    } else if (res.verdict == CHECK_FAIL) {
        if (!strcmp(res.stage, "axioms"))
            printf("FAIL %s: %s is violated: %s\n", check_level_name(o.level), check_level_title(o.level), res.msg);
        else check_print_text(stdout, h, &res);
        rc = 1;
    } else {
        fprintf(stderr, "isocheck decode: %s%s%s\n", res.stage ? res.stage : "", res.stage ? ": " : "", res.msg);
        rc = 2;
    }
done:
    check_result_free(&res);
    sat_model_free(&m);
    history_free(h);
    return rc;
}
