/* pred_report.h — dependency edges that come from a predicate read, told
 * as such (issue 34): a WR or RW edge whose reader's version of the key was
 * seen by a predicate read (its lowered read: frontend/history/predicate.h).
 * One that did not return the key, e.g.
 *   phantom: txn 4's predicate read of `value < 5` missed txn 7's insert of key 12 = 3
 *            (it saw key 12 unborn, which does not match)
 * An edge of a returned pair is an item read's, named with its predicate:
 *   txn 4's predicate read of `value < 5` returned key 12 = 3, which txn 7's write of key 12 = 9 overwrote */
#ifndef ISOCHECK_PRED_REPORT_H
#define ISOCHECK_PRED_REPORT_H

#include <stddef.h>

#include "frontend/history/dep_edge.h"
#include "frontend/history/history.h"

/* The sentence for e into buf, and 1; 0 (buf untouched) when e is not a
 * predicate read's edge.  assumed: the reader's version is the check's
 * choice (report_assumed.h: a read of a repeated value, a predicate read's
 * choice of version), told so. */
int pred_edge_sentence(const history *h, const dep_edge *e, int assumed, char *buf, size_t n);

#endif
