/* timekiller.h — TimeKiller's JSON histories (Chronos/Aion, ICDE 2025):
 * one array of committed transactions, each with the database's own start
 * and commit timestamps as hybrid logical clocks,
 *
 *   [{"tid": 67, "sid": 19, "sts": {"p": 1691420095436341, "l": 61},
 *     "cts": {"p": 1691420095659914, "l": 18},
 *     "ops": [{"t": "w", "k": 7, "v": 2}, {"t": "r", "k": 8, "v": 3}]}]
 *
 * read as is (parse_json.c tells it from an Elle history by its first
 * object: "ops" and no "type").  "t" is w/write, r/read, a/append (any
 * case); "k" an integer; "v" an integer, a list (list reads) or null /
 * absent (the initial value; an empty list on a list key).  A read of 0
 * is a read of the initial value when no transaction writes 0 (TimeKiller's
 * --initial_value 0, which its own key-value example needs).  "tid" and
 * "sid" are integers or strings; a transaction without an integer "tid"
 * is numbered by its position.  Session order is file order.
 *
 * sts and cts become TIME_DB_START and TIME_DB_COMMIT, in one order-
 * preserving integer: p when every l is 0, else p * 2^b + l (b the bits of
 * the largest l) when that fits in 63 bits, else the rank of (p, l) among
 * all the file's timestamps (a note says which).  They are the database's
 * clock, not the client's: no real time (TIME_INVOKE/TIME_COMPLETE) is
 * derived from them.  sts after cts is bad input (TimeKiller refuses it
 * too).  Other fields ("rtts", ...) are ignored. */
#ifndef ISOCHECK_TIMEKILLER_H
#define ISOCHECK_TIMEKILLER_H

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/load_report.h"
#include "frontend/formats/optree.h"

typedef struct tk_reader tk_reader;

/* Whether the object at root is a TimeKiller transaction. */
int tk_is_txn(const optree *t, uint32_t root);
tk_reader *tk_new(const char *source, load_report *rep);
/* One transaction object; 0 with err set on bad input. */
int tk_txn(tk_reader *r, const optree *t, uint32_t root, ic_error *err);
/* The history (or NULL with err set); frees r. */
history *tk_finish(tk_reader *r, ic_error *err);
void tk_free(tk_reader *r);

#endif
