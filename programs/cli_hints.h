/* cli_hints.h — `isocheck check --version-order FILE`, `--commit-order
 * FILE`, `--db-timestamps`: the white-box answer beside the black-box one
 * (frontend/reports/hint_check.h; doc/cli.md). */
#ifndef ISOCHECK_CLI_HINTS_H
#define ISOCHECK_CLI_HINTS_H

#include <stdio.h>

#include "frontend/reports/hint_check.h"
#include "frontend/reports/report.h"

/* The hint a check was given: at most one of the three. */
typedef struct cli_hint {
    const char *version_order, *commit_order;   /* the files, or NULL */
    int db_times;                               /* the history's own database timestamps */
    version_hint vh;
    commit_order_file co;
} cli_hint;

/* Any hint asked for? */
int cli_hint_any(const cli_hint *hint);
/* More than one asked for, or one with --follow: the message printed, 0. */
int cli_hint_usage_ok(const cli_hint *hint, int follow);
/* Read the hint file; 1, or 0 with the error printed (exit 2). */
int cli_hint_load(cli_hint *hint);
void cli_hint_free(cli_hint *hint);
/* The white-box check of the levels asked (level: 0 si, 1 ser, 2 all);
 * -v prints each level's statistics.  1, or 0 with the error printed. */
int cli_whitebox_run(const history *h, const cli_hint *hint, int level, unsigned threads, double time_limit,
                     int verbose, whitebox *wb);
/* Print both answers (text: the black-box report, then the white-box
 * lines; JSON: {"black_box": ..., "white_box": ...}) and return the
 * exit code: 1 if either answer is FAIL, else 2 if either has none, else 0.
 * rep NULL (--white-box-only): the white-box answer alone. */
int cli_print_both(FILE *out, const report *rep, const whitebox *wb, int json, int verbose);

#endif
