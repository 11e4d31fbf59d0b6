/* cli_stats.c — `isocheck stats [--format F] [--json] FILE|DIR|-`. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "frontend/cli.h"
#include "frontend/history_stats.h"
#include "frontend/parse.h"

static void usage(FILE *out) {
    fprintf(out, "usage: isocheck stats [--format text|dbcop|cobra|elle|json] [--json] [--failed-ops-abort] FILE|DIR|-\n"
                 "Print the size and shape of a history: sessions, transactions by status,\n"
                 "operations, reads/writes, keys, read fraction, most writers of one key;\n"
                 "then what the reader read, skipped and merged (the load report).\n");
}

int cli_stats(int argc, char **argv) {
    const char *path = NULL, *fmt_name = NULL;
    int json = 0;
    load_options lopt = { 0 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { usage(stdout); return 0; }
        else if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--failed-ops-abort")) lopt.failed_ops_abort = 1;
        else if (!strcmp(argv[i], "--format") && i + 1 < argc) fmt_name = argv[++i];
        else if (!strncmp(argv[i], "--format=", 9)) fmt_name = argv[i] + 9;
        else if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "isocheck stats: unknown option '%s'\n", argv[i]); usage(stderr); return 2; }
        else if (!path) path = argv[i];
        else { fprintf(stderr, "isocheck stats: more than one history given\n"); return 2; }
    }
    if (!path) { usage(stderr); return 2; }
    int fmt = history_format_from_name(fmt_name);
    if (fmt < 0) { fprintf(stderr, "isocheck stats: unknown format '%s'\n", fmt_name); return 2; }
    ic_error err;
    ic_error_clear(&err);
    load_report lrep;
    load_report_init(&lrep);
    history *h = load_history_ex(path, (history_format)fmt, &lopt, &lrep, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); load_report_free(&lrep); return 2; }
    history_stats s;
    history_stats_compute(h, &s);
    history_stats_print_load(stdout, h, &s, json, &lrep);
    load_report_print_notes(stderr, &lrep, "isocheck", path);
    load_report_free(&lrep);
    history_free(h);
    return 0;
}
