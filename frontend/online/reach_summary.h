/* frontend/online/reach_summary.h — the reachability summaries of the incremental online
 * check (frontend/online/incr.c): for each graph node d and each tracked session
 * chain c, the highest sequence number on c of an ancestor of d over SO
 * and WR edges (or of d itself), 0 if none.
 *
 * Contract
 *   - Nodes are added in id order (0, INIT, exists from reach_new), each
 *     once, from the nodes it has edges from when it arrives: its session
 *     predecessor and the writers it reads from.  Its summary is fixed
 *     then: the max of theirs, and its own (chain, seq).  It is an
 *     underestimate of the true ancestry (later edges into old nodes are
 *     not propagated), which is sound for the caller: an answer "e reaches
 *     d" is always a path of the graph, and it never changes later.
 *   - reach_get(d, c) >= seq(e) for e on chain c means e reaches d.  A
 *     node's summary never holds a node that arrived after it (its entry
 *     on a chain is below the sequence number of any later node there).
 *   - Chains are the first ANC_MAX sessions to ask (reach_new_chain); a
 *     session without one is never reported as an ancestor.
 *   - Never prints, never exits (but on out-of-memory, as vec.h). */
#ifndef ISOCHECK_ONLINE_REACH_H
#define ISOCHECK_ONLINE_REACH_H

#include <stddef.h>
#include <stdint.h>

#define REACH_NONE UINT32_MAX

typedef struct online_reach online_reach;

online_reach *reach_new(void);
void reach_free(online_reach *r);

/* A chain for a new session: the next chain id, REACH_NONE once all are
 * given out. */
uint32_t reach_new_chain(online_reach *r);
/* Chains given out so far (reach_row's length). */
uint32_t reach_chains(const online_reach *r);

/* Add the next node (its id is the number of nodes so far): its session
 * sess (the caller's id), that session's chain (or REACH_NONE), its
 * sequence number on the session (0: none, a late arrival), its session
 * predecessor prev (REACH_NONE if none) and the nodes it reads from
 * (duplicates and INIT allowed).  Returns its id. */
uint32_t reach_add_node(online_reach *r, uint32_t sess, uint32_t chain, uint32_t seq, uint32_t prev,
                        const uint32_t *src, size_t nsrc);

/* The highest sequence number on chain c of an ancestor of d, or of d
 * itself; 0 if none. */
uint32_t reach_get(const online_reach *r, uint32_t d, uint32_t c);

/* "The node numbered q on chain c reaches d" (reach_get(d, c) >= q) for a
 * node d the caller added with (sess, seq); mostly answered from the
 * bases of d's block, without d's own row. */
int reach_reaches(const online_reach *r, uint32_t d, uint32_t sess, uint32_t seq, uint32_t c, uint32_t q);

/* Every node with a sequence number so far came next on its session, so
 * reach_reaches answers from (sess, seq) alone: d is not read (the caller
 * may pass REACH_NONE when seq is set). */
int reach_in_order(const online_reach *r);

/* reach_get(d, c) for every chain c < reach_chains(r), into out. */
void reach_row(const online_reach *r, uint32_t d, uint32_t *out);

/* What the summaries hold and cost.  For tests (which paths of the row
 * encoding a stream exercised): the library itself never reads them. */
typedef struct reach_stats {
    uint64_t bytes;          /* allocated for the summaries (without the allocator's own overhead) */
    uint64_t blocks;         /* blocks of rows */
    uint64_t escapes;        /* entries kept outside their row's bytes */
    uint64_t solo;           /* nodes with a full row of their own */
    uint64_t merged;         /* source rows merged into a new row */
    uint64_t skipped;        /* source rows not read: dominated by the row being built */
} reach_stats;
const reach_stats *reach_get_stats(const online_reach *r);

#endif
