/* commit_order.h — reading a database's commit order (an "expected
 * serialization order", Clark et al.'s Enne; `isocheck check --commit-order
 * FILE`; doc/formats.md, "Commit order hints").
 *
 * The file lists transaction ids (the history's own ids, as reports print
 * them: "txn 7" is 7), oldest commit first, separated by blanks and
 * newlines; '#' starts a comment to the end of its line.
 *     # commit order of run 12
 *     1 3 2
 *     5
 * An id is a decimal integer (optional sign); anything else, or an id
 * listed twice, is malformed (file:line, exit 2).  What the ids mean (which
 * transactions they name, whether every committed one is listed) is the
 * checker's (frontend/checking/replay.h, frontend/reports/hint_check.h). */
#ifndef ISOCHECK_COMMIT_ORDER_H
#define ISOCHECK_COMMIT_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "vec.h"

typedef struct co_entry { int64_t id; uint32_t line; } co_entry;

typedef struct commit_order_file {
    char *source;               /* the path it was read from */
    VEC(co_entry) ids;          /* in commit order */
} commit_order_file;

/* Read path ("-": standard input).  1, or 0 with err naming file and line. */
int commit_order_load(const char *path, commit_order_file *co, ic_error *err);
/* The same from memory (tests); name is used in messages. */
int commit_order_parse(const char *name, const char *data, size_t len, commit_order_file *co, ic_error *err);
void commit_order_free(commit_order_file *co);

#endif
