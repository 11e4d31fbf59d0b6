/* cli_hints.h — `isocheck check --version-order FILE`: the white-box answer
 * beside the black-box one (frontend/reports/hint_check.h; doc/cli.md). */
#ifndef ISOCHECK_CLI_HINTS_H
#define ISOCHECK_CLI_HINTS_H

#include <stdio.h>

#include "frontend/reports/hint_check.h"
#include "frontend/reports/report.h"

/* Read the hint file; 1, or 0 with the error printed (exit 2). */
int cli_hint_load(const char *path, version_hint *vh);
/* The white-box check of the levels asked (level: 0 si, 1 ser, 2 all);
 * -v prints each level's statistics.  1, or 0 with the error printed. */
int cli_whitebox_run(const history *h, const version_hint *vh, int level, unsigned threads, double time_limit,
                     int verbose, whitebox *wb);
/* Print both answers (text: the black-box report, then the white-box
 * lines; JSON: {"black_box": ..., "white_box": ...}) and return the
 * exit code: 1 if either answer is FAIL, else 2 if either has none, else 0. */
int cli_print_both(FILE *out, const report *rep, const whitebox *wb, int json, int verbose);

#endif
