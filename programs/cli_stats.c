/* cli_stats.c — `isocheck stats [--format F] [--json] FILE|DIR|-`. */
#include <stdio.h>

#include "error.h"
#include "programs/cli.h"
#include "frontend/reports/history_stats.h"
#include "frontend/formats/parse.h"

int cli_stats(int argc, char **argv) {
    int json = 0, fmt_choice = -1;
    load_options lopt = { 0 };
    cmd_opt opts[] = {
        CMD_CHOICE("format", 0, &fmt_choice, cli_format_names(), "F", "history format (default: detected)"),
        CMD_FLAG("json", 0, &json, "one JSON object"),
        CMD_FLAG("failed-ops-abort", 0, &lopt.failed_ops_abort, "dbcop: a committed transaction with a failed operation is aborted"),
        CMD_END
    };
    cmd_spec spec = {
        "isocheck stats", "[options] FILE|DIR|-",
        "Print the size and shape of a history: sessions, transactions by status,\n"
        "operations, reads/writes, keys, read fraction, most writers of one key;\n"
        "then what the reader read, skipped and merged (the load report).\n",
        opts, "one history: FILE, DIR or -", 1, 1, NULL
    };
    const char *path;
    int n, rc = cli_parse(&spec, argc, argv, &path, &n);
    if (rc >= 0) return rc;
    ic_error err;
    ic_error_clear(&err);
    load_report lrep;
    load_report_init(&lrep);
    history *h = load_history_ex(path, (history_format)cli_format(fmt_choice), &lopt, &lrep, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); load_report_free(&lrep); return 2; }
    history_stats s;
    history_stats_compute(h, &s);
    history_stats_print(stdout, h, &s, json, &lrep);
    load_report_print_notes(stderr, &lrep, "isocheck", path);
    load_report_free(&lrep);
    history_free(h);
    return 0;
}
