/* cli_hints.c — the white-box part of `isocheck check` (contract in
 * cli_hints.h). */
#include "programs/cli_hints.h"

#include "monotonic.h"
#include "frontend/reports/check_report.h"
#include "programs/cli.h"

int cli_hint_any(const cli_hint *hint) { return hint->version_order || hint->commit_order || hint->db_times; }

int cli_hint_usage_ok(const cli_hint *hint, int follow) {
    int n = (hint->version_order != NULL) + (hint->commit_order != NULL) + (hint->db_times != 0);
    if (n > 1) {
        fprintf(stderr, "isocheck check: --version-order, --commit-order and --db-timestamps are three hints: give one\n");
        return 0;
    }
    if (n && follow) {
        fprintf(stderr, "isocheck check: --%s is not available with --follow\n",
                hint->version_order ? "version-order" : hint->commit_order ? "commit-order" : "db-timestamps");
        return 0;
    }
    return 1;
}

int cli_hint_load(cli_hint *hint) {
    ic_error err;
    ic_error_clear(&err);
    if (hint->version_order) {
        if (version_hint_load(hint->version_order, &hint->vh, &err)) return 1;
        ic_error_print(stderr, "isocheck check: --version-order", &err);
    } else if (hint->commit_order) {
        if (commit_order_load(hint->commit_order, &hint->co, &err)) return 1;
        ic_error_print(stderr, "isocheck check: --commit-order", &err);
    } else return 1;
    cli_hint_free(hint);
    return 0;
}

void cli_hint_free(cli_hint *hint) {
    version_hint_free(&hint->vh);
    commit_order_free(&hint->co);
}

int cli_whitebox_run(const history *h, const cli_hint *hint, int level, unsigned threads, double time_limit,
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
    double t0 = monotonic_seconds();
    int ok = hint->version_order ? whitebox_run(h, &hint->vh, want, &copt, wb, &err)
                                 : whitebox_run_commit(h, hint->commit_order ? &hint->co : NULL, want, &copt, wb, &err);
    if (!ok) {
        ic_error_print(stderr, "isocheck", &err);
        return 0;
    }
    if (verbose) {
        fprintf(stderr, "white-box: %.3fs (every level asked)\n", monotonic_seconds() - t0);
        whitebox_print_stages(stderr, wb);
    }
    if (verbose && !wb->finding[0] && !wb->axioms_fail && !wb->no_answer[0])
        for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--)
            if (want[lv]) {
                if (hint->version_order)
                    fprintf(stderr, "white-box %s (version order hint: %llu pairs, %s%llu known edges added):\n",
                            check_level_name((check_level_id)lv), (unsigned long long)wb->hint_pairs,
                            wb->complete ? "complete, " : "", (unsigned long long)wb->edges_added);
                else
                    fprintf(stderr, "white-box %s (%s, %llu transactions):\n", check_level_name((check_level_id)lv),
                            wb->method[lv] ? wb->method[lv] : "commit order", (unsigned long long)wb->hint_txns);
                check_print_stats(stderr, &wb->res[lv]);
            }
    return 1;
}

int cli_print_both(FILE *out, const report *rep, const whitebox *wb, int json, int verbose) {
    if (json) {
        fputs("{", out);
        if (rep) { fputs("\"black_box\": ", out); report_print_json(out, rep); fputs(", ", out); }
        fputs("\"white_box\": ", out);
        whitebox_print_json(out, wb);
        fputs("}\n", out);
    } else {
        if (rep) report_print_text(out, rep, verbose);
        whitebox_print_text(out, wb);
    }
    return cli_exit_code(rep ? verdict_worse(report_verdict(rep), whitebox_verdict(wb)) : whitebox_verdict(wb));
}
