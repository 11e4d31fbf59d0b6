/* check_levels.h — `isocheck check --level`: which levels a run checks.
 *
 * The argument is a level's name (frontend/history/levels.def), a comma
 * list of names (`rc,si,sser`), `all` (si and ser, as always) or `ladder`
 * (every level, and the ladder's summary: doc/cli.md).  The help lists the
 * names from the same table, one line each, so it never differs from what
 * is accepted.  Levels that need real time (strong-si, sser) asked by name
 * on a history without invocation and completion times are refused (exit
 * 2); in a ladder they are reported as not checked. */
#ifndef ISOCHECK_CHECK_LEVELS_H
#define ISOCHECK_CHECK_LEVELS_H

#include <stddef.h>

#include "frontend/history/history.h"
#include "frontend/history/levels.h"

typedef struct level_choice {
    int want[LEVEL_COUNT];       /* check_level_id -> asked */
    int named[LEVEL_COUNT];      /* asked by its own name (not only through all or ladder) */
    int ladder;                  /* --level ladder: every level, with the summary */
    const char *arg;             /* as written (the report's "level") */
} level_choice;

/* Parse arg into c; 1, or 0 with a message (after "option --level: ") in err. */
int check_levels_parse(const char *arg, level_choice *c, char *err, size_t n);
/* The --help lines about --level's values: one per level, from levels.def. */
const char *check_levels_help(void);
/* 0 si, 1 ser, 2 si and ser: the levels --follow and --version-order
 * check; -1 when c asks for another level or the ladder. */
int check_levels_si_ser(const level_choice *c);
/* `--follow --retire` by time: the one real-time level asked (LEVEL_SSER or
 * LEVEL_STRONG_SI, by its own name, no ladder), else -1. */
int check_levels_retire_by_time(const level_choice *c);
/* After loading h: 1 to go on; 0 after printing why a level asked by name
 * cannot be checked on h (it needs times h does not carry): exit 2. */
int check_levels_times_ok(const level_choice *c, const history *h, const char *prog);

#endif
