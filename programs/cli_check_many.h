/* cli_check_many.h — `isocheck check A B C` and `isocheck check DIR` (a
 * directory of histories): many histories in one run (doc/cli.md, "Many
 * histories").
 *
 * The operands are expanded: a directory that is itself one history (it
 * holds a `*.log` file: Cobra logs; or `history.bincode`: a dbcop run; or
 * --format cobra names it so) stays one history, any other directory
 * stands for its regular files whose names do not start with '.', sorted
 * by name (bytes), not recursively.  Each history is loaded and checked in
 * turn (only one is in memory at a time) and gets one line:
 *
 *   FAIL galera.txt: si FAIL: lost-update (G-single)
 *   PASS ok.txt: si PASS
 *   ERROR bad.txt: bad.txt:3: expected ...
 *
 * then a summary line `N histories: P PASS, F FAIL, U UNKNOWN, E ERROR`.
 * A history that cannot be read is reported on its line and the run goes
 * on.  With --json every line is one JSON object: a history's report
 * (doc/json-schema.md), or {"isocheck": 1, "history", "error"} for one
 * that could not be read, then {"isocheck": 1, "summary": {...}, "exit"}.
 * A history with no answer names why on its line (the level's reason).
 * -v prints each history's load report on stderr.
 * With --report DIR: DIR/index.html lists the histories, and each has its
 * pages in DIR/NNN-NAME/ (cli_report.h).
 *
 * Exit code, the worst over the histories in verdict.h's order: 1 if any
 * history fails, else 2 if any has no answer or could not be read (or the
 * report could not be written), else 0. */
#ifndef ISOCHECK_CLI_CHECK_MANY_H
#define ISOCHECK_CLI_CHECK_MANY_H

#include <stddef.h>

#include "frontend/formats/parse.h"
#include "frontend/run_check.h"

typedef struct check_many {
    const char *const *paths;    /* the operands as given */
    size_t num_paths;
    int fmt;                     /* history_format (FORMAT_AUTO: detected) */
    const load_options *lopt;
    run_check_options ro;        /* levels, limits, threads (no certificate) */
    const char *level_arg;       /* --level as asked */
    int ladder;                  /* --level ladder */
    int need_times;              /* a level asked by name needs real time: a history without it is an error */
    int json, verbose;
    const char *report_dir;      /* --report DIR, or NULL */
} check_many;

/* Whether the operands are many histories: more than one, or one
 * directory that is not itself a history (see above). */
int cli_check_is_many(const char *const *paths, size_t n, int fmt);

/* Check them all; the exit code. */
int cli_check_many(const check_many *m);

#endif
