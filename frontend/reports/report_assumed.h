/* report_assumed.h — which facts of an explained anomaly rest on a writer
 * chosen for a read of a repeated value (doc/checker.md, "Repeated values":
 * what the report states).
 *
 * A read of a value that several transactions wrote to its key, when more
 * than one of them remains possible (an OP_AMBIGUOUS read of the resolved
 * history, history.h), has no writer the history establishes.  A searched
 * level's interpretation runs under the writers its check chose
 * (check_result.chosen), so an edge or a proof's premise that rests on such
 * a read holds under that choice only.  The text report says so, reading
 * the resolved history it prints from: such an edge's sentence says its
 * writer is assumed, a proof that rests on one (directly or through a fact
 * it cites) is "forced given the writers assumed", and each anomaly lists
 * the reads it assumes.  A history without such reads gets no byte of it.
 *
 * A list history with repeated appends (list_repeat.h) has the same kind
 * of resolved form (history_set_list_assumed, run_list.c): a list read
 * carries OP_AMBIGUOUS when an element of its external prefix has no
 * established appender, and such an element reads VALUE_INIT there.  Its
 * version (WR, RW, read-modify-write) is assumed when its prefix's last
 * element is one; a version order it lists (WHY_LISTED, BASIS_LISTED) is
 * assumed when either transaction appended a value found at one (else
 * where each of them sits in the list is the same under every choice). */
#ifndef ISOCHECK_REPORT_ASSUMED_H
#define ISOCHECK_REPORT_ASSUMED_H

#include <stdio.h>

#include "frontend/reports/report.h"

/* Has h (or its resolved form) reads whose writer the history does not establish? */
int report_has_assumed(const history *h);
/* reader's external read of key, when it is a read whose writer the history
 * does not establish (several possible), else HISTORY_NONE. */
uint32_t report_assumed_read(const history *h, uint32_t reader, uint32_t key);
/* Does "list read op lists before's version before after's (or after's
 * not at all)" rest on a chosen appender (see above)? */
int report_listed_assumed(const history *h, uint32_t op, uint32_t before, uint32_t after);
/* Does dependency e (of a cycle, or of a proof with its basis bs; bs may be
 * NULL) rest on such a read: WR and RW on their reader's, a WW or RW edge
 * whose version order is a read-modify-write (BASIS_RMW) on the
 * overwriter's read? */
int report_edge_assumed(const history *h, const dep_edge *e, const edge_basis *bs);
/* Does basis bs of e (a read-modify-write: bs->after read bs->before's
 * version and overwrote it) rest on such a read, bs->after's? */
int report_basis_assumed(const history *h, const dep_edge *e, const edge_basis *bs);
/* Does proof w of anomaly a rest on such a read: an edge of its cycle, or a
 * fact of a->facts it cites (below index lim: facts cite earlier facts)? */
int report_why_assumed(const history *h, const report_anomaly *a, const edge_why *w, size_t lim);
/* The same over a list of facts of its own (facts[0 .. nfacts): the
 * interpretation's proofs under way, interpret_explain.c). */
int report_why_assumed_in(const history *h, const report_fact *facts, size_t nfacts, const edge_why *w, size_t lim);
/* The reads a's cycle and explanations rest on whose writer is the choice,
 * in the order the report names them (edges of the cycle, each with its
 * proof, then the facts): reader's external read of key, and the writer
 * the edge or proof assumes (HISTORY_NONE: not named there).  Cleared
 * first; empty when none. */
typedef struct report_assumption { uint32_t reader, key, writer; } report_assumption;
typedef VEC(report_assumption) report_assumption_vec;
void report_assumptions(const history *h, const report_anomaly *a, report_assumption_vec *out);
/* Is x a predicate read's version of a key (no value of its own to name)? */
int report_assumption_predicate(const history *h, const report_assumption *x);
/* "     assumes: txn 4 read 1=5 from txn 1, ..." — the reads a's cycle and
 * explanations rest on whose writer is the choice; nothing when none. */
void report_print_assumed(FILE *out, const history *h, const report_anomaly *a);

#endif
