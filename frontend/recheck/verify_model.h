/* verify_model.h — check a version order against a history by definition,
 * independently of the polygraph, pruning and solver.
 *
 * A version order lists, per key, INIT (transaction 0) and then every
 * participating transaction that writes the key, once each.  Participating
 * transactions are INIT, the committed ones and, to a fixpoint, the
 * indeterminate ones whose write a participant read.  From the history and
 * the version order alone this module rebuilds the dependency graph:
 *   SO  consecutive participating transactions of a session,
 *   WR  writer -> reader of every external read: the version a
 *       transaction's reads of a key show (a register read before its own
 *       write; a list read's prefix without its own appends so far),
 *   WW  consecutive versions of a key,
 *   RW  reader of version v -> the writer of the version right after v,
 * which has the same reachability as the full relations (WW and RW to all
 * later versions follow through the WW chain), and checks SER (D ∪ RW
 * acyclic) or SI (the split graph: a D edge a->b is a->b', RW b->c is
 * b'->c, fixed b'->b; its cycles are those of D ; RW?) with its own DFS.
 * Every read of a participant must be consistent with the version order
 * (INT, values and lists exactly as installed), else the order is invalid.
 *
 * It derives all of that from the raw operations itself and shares no code
 * with the pipeline it re-checks: it includes nothing of it, only the
 * history model and the version-order and dependency types, and calls none
 * of the history model's interpretation of reads (tests/layering.sh, part
 * "recheck"; the files: vm_internal.h).
 *
 * On a cycle it returns a short one (shortest through the nodes of the first
 * cycle found) as transaction-level dependencies. */
#ifndef ISOCHECK_VERIFY_MODEL_H
#define ISOCHECK_VERIFY_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/history/dep_edge.h"
#include "frontend/history/history.h"
#include "frontend/history/levels.h"
#include "frontend/history/version_order.h"

/* 1: acyclic (the version order is a witness for the level);
 * 0: a cycle (put in *cycle when non-NULL);
 * -1: the version order is malformed or a read is inconsistent with it
 *     (message in why). */
int vo_check(const history *h, const version_order *vo, int si,
             dep_edge_vec *cycle, char *why, size_t whylen);
/* The same, the per-key replay split into tasks on pool at priority prio
 * (par.h; pool NULL: inline): the same answer, cycle and message for every
 * pool. */
struct par_pool;
int vo_check_on(const history *h, const version_order *vo, int si, dep_edge_vec *cycle, char *why, size_t whylen,
                struct par_pool *pool, int prio);

/* A closed chain of dependencies that all hold, and under SI no two
 * adjacent RW edges (cyclically). */
int cycle_holds(const history *h, const version_order *vo, int si,
                const dep_edge *c, size_t n, char *why, size_t whylen);

/* The same for any level of shape PC, PSI, SI, SER or RR (levels.def): its
 * graph is built with SO only when the level has session order, with RT
 * edges (a committed, complete(a) < invoke(b), through clock nodes of its
 * own) only at the real-time levels; SER levels: D ∪ RW acyclic; SI
 * levels: the split graph; pc: the split graph with WW a -> b as
 * commit(a) -> commit(b); psi: D acyclic and no RW edge r -> c with c D+ r
 * (a cycle found is then c's D path to r and the RW edge); rr: the graph
 * without predicate anti-dependencies (RW edges of reads lowered from
 * predicate reads that did not return the key, and of no other read of it)
 * acyclic, and no other RW edge on a cycle of the whole graph (a cycle
 * found is then that edge and a path back; doc/checker.md "The level rr").
 * vo_check_on(.., si, ..) is vo_check_level_on(.., si ? LEVEL_SI : LEVEL_SER, ..). */
int vo_check_level_on(const history *h, const version_order *vo, check_level_id level, dep_edge_vec *cycle,
                      char *why, size_t whylen, struct par_pool *pool, int prio);
/* The same with a proposed rank per node of the level's graph (SER
 * levels: transaction t is node t; SI levels and pc: its commit 2t and
 * its start 2t + 1; nrank nodes): a hint, trusted for nothing.  The
 * graph is rebuilt as above, and each of its arcs is tested against the
 * rank: when every arc goes up it (rank[x] < rank[y]), rank strictly
 * increases along every path, so there is no cycle and the search is not
 * run.  Otherwise (an arc against it, a wrong count, and at the levels
 * whose answer is more than its arcs: real time's clock nodes, psi, rr)
 * the search runs as without it: for any rank the answer, the cycle and
 * the message are vo_check_level_on's.  The checker passes the positions
 * of its final graph's topological order (check.c, confirm_success).
 * *by_rank (when non-NULL): 1 when the rank gave the answer (tests). */
int vo_check_level_ranked_on(const history *h, const version_order *vo, check_level_id level, const uint32_t *rank,
                             size_t nrank, int *by_rank, dep_edge_vec *cycle, char *why, size_t whylen,
                             struct par_pool *pool, int prio);
/* vo_check_level_on at each of levels[0 .. n) (shapes PC and up), the
 * history read under vo once for all: out[i] is level i's answer (1, 0 or
 * -1; no cycle returned). */
void vo_check_levels_on(const history *h, const version_order *vo, const check_level_id *levels, size_t n, int *out,
                        struct par_pool *pool, int prio);
/* A cycle the level forbids: every edge holds (RT: by the times), the
 * edges meet, only kinds of the level's graph (no SO without session
 * order, RT only with real time), and SI levels: no two adjacent RW edges,
 * not all RW; pc: no RW edge right after a WW or RW edge; psi: at most
 * one RW edge; SER levels: any; rr: not every RW edge a predicate
 * anti-dependency. */
int cycle_holds_level(const history *h, const version_order *vo, check_level_id level,
                      const dep_edge *c, size_t n, char *why, size_t whylen);
/* The same, the pass that gathers the cycle's keys' ops in transaction
 * ranges on pool at priority prio (NULL: inline): the same answer and
 * message for every pool. */
int cycle_holds_level_on(const history *h, const version_order *vo, check_level_id level, const dep_edge *c, size_t n,
                         char *why, size_t whylen, struct par_pool *pool, int prio);

#endif
