/* interpret.h — from "the level fails" to minimal, named, explained
 * anomalies.
 *
 * Input: the history, the level, a version order under which the
 * dependency graph has a violating cycle (the checker's res->vo),
 * optionally the checker's cycle, and the WW/RW edges the checker knows to
 * be forced (res->forced: read off the history or decided by pruning; may
 * be empty).  The version order lists, per key, transactions that write it
 * (as the checker's do; one that does not is ignored).  It is first
 * reordered per key to agree with the forced WW edges.  For each anomaly:
 *   1. find a violating cycle under the version order (the given one
 *      first, then on transactions not used so far: independent ones);
 *   2. shrink it: among all dependencies between its transactions (by
 *      definition under the version order), the shortest violating cycle
 *      (ties: fewer RW, then WW edges) — no smaller subset of those
 *      dependencies is still a violation;
 *   3. name it (classify.h);
 *   4. explain every WW and RW edge: the version order fact behind it
 *      (a's version before b's) is forced when the opposite order closes a
 *      violating cycle (PolySI Algorithm 3's "restore") each of whose other
 *      edges holds without the fact: read off the history (SO, WR, own-write
 *      order, list reads, the initial version), or resting on a fact proven
 *      first the same way — the checker's forced edges and the RW edges
 *      derived from WW facts are used only so, never on trust.  Those facts
 *      go to the anomaly's facts in the order proven; each edge of an
 *      explanation records its basis (report.h).  Failing that, a fact the
 *      checker's forced edges hold is marked decided, else the version
 *      order's choice, and an anomaly with a chosen fact is marked chosen
 *      and named a cycle (the shape it would have kept aside).
 * Anomalies after the first are reported only when all their WW/RW facts
 * are forced, so every extra report holds under every version order the
 * explanation considers. */
#ifndef ISOCHECK_INTERPRET_H
#define ISOCHECK_INTERPRET_H

#include <stdatomic.h>
#include <stddef.h>

#include "frontend/history/history.h"
#include "frontend/reports/report.h"
#include "frontend/history/version_order.h"

/* One candidate the search considered, for a command's debugging output:
 * the size of its transaction set, its minimal cycle, and the first
 * transaction whose version order fact was merely chosen (HISTORY_NONE:
 * every fact forced, so it was reported). */
typedef struct interpret_candidate {
    uint32_t num_txns;
    dep_edge_vec cycle;
    uint32_t unforced;
} interpret_candidate;
typedef VEC(interpret_candidate) interpret_trace;
void interpret_trace_free(interpret_trace *t);

/* Append up to max anomalies for level (LEVEL_SI 0 / LEVEL_SER 1 as in
 * check.h: si = level == 0) to r.  cycle may be NULL.  When trace is not
 * NULL, every candidate is appended to it.  The whole-history passes (the
 * set-up of the fact graph, the version positions, the lost-update scan,
 * the repair of the version order) and the explanations of a candidate
 * cycle's edges are split into tasks on pool at priority prio (par.h;
 * NULL: on the caller's thread); the answer does not depend on the pool:
 * every pass's parts are combined in order, and an edge explained ahead
 * of the edges before it is kept only when that is what explaining them
 * in order gives (interpret.c, explain_cycle).  Returns the number appended (0 if the
 * version order has no violating cycle). */
struct par_pool;
size_t interpret_failure(report *r, int level, const version_order *vo, const dep_edge *cycle, size_t n,
                         const dep_edge *forced, size_t nforced, size_t max, interpret_trace *trace,
                         struct par_pool *pool, int prio);
/* A testing knob: > 0 cuts every pass into that many parts whatever the
 * pool (0, the default: a few per pool thread on large histories, else one). */
extern unsigned interpret_ranges;
/* A testing knob: transactions of at most this many ops (default 32) find
 * their external reads by comparing their ops pairwise, larger ones with
 * per-key arrays (0: every transaction). */
extern uint32_t interpret_small_txn;
/* A testing knob: a key's versions are sorted by writer in place when it
 * has at most this many (default 32), else through a buffer. */
extern uint32_t interpret_vsort_small;
/* Counters for tests: a cycle's edges explained ahead on a pool and kept,
 * and those explained again in order (their explanation looked up facts
 * that the edges before them had proven). */
extern _Atomic uint64_t interpret_spec_kept, interpret_spec_redone;
/* A counter for tests: searches of the forced edges' classes (a fact's
 * proof's first search of each, begun at once on a pool:
 * interpret_explain.c, pre_search) that the proof took as its own. */
extern _Atomic uint64_t interpret_pre_taken;

#endif
