/* set_aside.h — the history without the reads that break the read axioms,
 * so that the cycles among the rest can be shown beside the read anomalies
 * (`isocheck check`, as Elle reports both; doc/anomalies.md, "Read
 * anomalies and cycles").
 *
 * What is set aside: every successful read of a participant named by an
 * axiom violation (axioms.h: the thin-air, aborted, intermediate or
 * internally inconsistent read, both list reads of an incompatible order,
 * a list read with a bad element).  Such a read is marked failed (OP_FAILED)
 * in a copy of the op kinds: to every later stage it never happened.  Writes
 * and transactions stay (an aborted writer stays aborted; a writer whose
 * value nobody reads any more simply installs it).  The axioms are checked
 * again on the result, and the step repeats (at most a few rounds) while
 * new violations appear.
 *
 * Why this is sound as extra information: the reduced history's every
 * observation is one of the original history's, so a dependency cycle that
 * every version order of the reduced history has (a FAIL of a level on it)
 * rests only on reads that happened and is a real anomaly of the original;
 * the original's verdict is FAIL anyway, because of the read anomalies.  A
 * PASS of the reduced history says only that no cycle appears once those
 * reads are ignored — never that the history satisfies the level. */
#ifndef ISOCHECK_SET_ASIDE_H
#define ISOCHECK_SET_ASIDE_H

#include "vec.h"
#include "frontend/history/history.h"

/* Fill *view: h with the reads above set aside (it shares all of h's
 * arrays but op_kind, its own), their op indices in *ops (sorted).  1 when
 * the view satisfies the axioms; 0 when it still does not after the
 * rounds allowed (view and ops are then released).  Free a view with
 * set_aside_free, never history_free. */
int set_aside_reads(const history *h, history *view, vec_u32 *ops);
void set_aside_free(history *view);

#endif
