/* cli_hints.c — the white-box part of `isocheck check` (contract in
 * cli_hints.h). */
#include "programs/cli_hints.h"

#include "frontend/reports/check_report.h"
#include "programs/cli.h"

int cli_hint_load(const char *path, version_hint *vh) {
    ic_error err;
    ic_error_clear(&err);
    if (version_hint_load(path, vh, &err)) return 1;
    ic_error_print(stderr, "isocheck check: --version-order", &err);
    version_hint_free(vh);
    return 0;
}

int cli_whitebox_run(const history *h, const version_hint *vh, int level, unsigned threads, double time_limit,
                     int verbose, whitebox *wb) {
    check_options copt;
    check_options_default(&copt);
    copt.threads = threads;
    copt.time_limit = time_limit;
    int want[2];
    want[LEVEL_SI] = level != 1;
    want[LEVEL_SER] = level != 0;
    ic_error err;
    ic_error_clear(&err);
    if (!whitebox_run(h, vh, want, &copt, wb, &err)) {
        ic_error_print(stderr, "isocheck", &err);
        return 0;
    }
    if (verbose && !wb->finding[0] && !wb->axioms_fail)
        for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--)
            if (want[lv]) {
                fprintf(stderr, "white-box %s (version order hint: %llu pairs, %llu known edges added):\n",
                        check_level_name((check_level_id)lv), (unsigned long long)wb->hint_pairs,
                        (unsigned long long)wb->edges_added);
                check_print_stats(stderr, &wb->res[lv]);
            }
    return 1;
}

int cli_print_both(FILE *out, const report *rep, const whitebox *wb, int json, int verbose) {
    if (json) {
        fputs("{\"black_box\": ", out);
        report_print_json(out, rep);
        fputs(", \"white_box\": ", out);
        whitebox_print_json(out, wb);
        fputs("}\n", out);
    } else {
        report_print_text(out, rep, verbose);
        whitebox_print_text(out, wb);
    }
    return cli_exit_code(verdict_worse(report_verdict(rep), whitebox_verdict(wb)));
}
