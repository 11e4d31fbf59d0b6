/* text_times.h — the time annotation of the text format (doc/formats.md,
 * "Times"): a comment line that gives one transaction its times,
 *     #@time TXN invoke=I complete=C start=S commit=K
 * with any non-empty subset of the four fields, in any order, each at most
 * once; values are decimal integers (a '-' allowed; not -2^63).  invoke
 * and complete are the client's real time (TIME_INVOKE, TIME_COMPLETE),
 * start and commit the database's timestamps (TIME_DB_START,
 * TIME_DB_COMMIT).  complete < invoke and commit < start are bad input.
 * Readers that do not know it (an older isocheck) skip it as a comment;
 * `check --follow` (frontend/online, through text_lex_line, which returns
 * 0 for it) checks its syntax and does not use the times; retiring by time
 * (frontend/online/retire_time.c) lexes the lines itself and uses them. */
#ifndef ISOCHECK_TEXT_TIMES_H
#define ISOCHECK_TEXT_TIMES_H

#include <stdint.h>

#include "error.h"
#include "frontend/history/history.h"

typedef struct text_times {
    int64_t txn;
    int64_t t[TIME_KINDS];   /* HISTORY_TIME_NONE where not given */
} text_times;

/* Whether the line at p (blanks skipped) is a time annotation. */
int text_is_times(const char *p);
/* Lex the annotation at p: 1, or -1 with err set at name:line. */
int text_lex_times(const char *p, text_times *tt, const char *name, long line, ic_error *err);
/* The annotation's line as written (for writers): into buf, with '\n'. */
int text_format_times(char *buf, size_t n, int64_t txn, const int64_t t[TIME_KINDS]);

#endif
