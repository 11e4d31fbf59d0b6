/* weak_internal.h — the state of one weak-level check (weak.h), shared by
 * its files:
 *   weak_index.c    the history read once: external reads and their
 *                   sources, each participant's written keys, each key's
 *                   writers, the list order L;
 *   weak_premise.c  the premise edges of rc, ra and cc (cc: vector clocks
 *                   over the sessions);
 *   weak_graph.c    the saturated graph: adjacency, topological sort, the
 *                   shortest cycle;
 *   weak.c          the entry point, the result, names and descriptions. */
#ifndef ISOCHECK_WEAK_INTERNAL_H
#define ISOCHECK_WEAK_INTERNAL_H

#include "frontend/checking/weak.h"

typedef struct wk_read { uint32_t op, src; } wk_read;   /* an external read, its source transaction */

/* An edge besides SO and WR: a list order edge or a premise edge. */
typedef struct wk_extra {
    uint32_t from, to;
    uint32_t read_op;        /* LIST: the read showing it; PREMISE: α */
    uint32_t vis_op;         /* PREMISE: t3's read from t2 (WV_EARLIER, WV_READ), else HISTORY_NONE */
    uint8_t basis, via;
} wk_extra;
typedef VEC(wk_extra) wk_extra_vec;

typedef struct wk {
    const history *h;
    const uint8_t *part;
    check_level_id level;
    uint32_t n;                  /* transactions (INIT included) */
    uint32_t *rd_start;          /* n + 1: txn t's external reads rd[rd_start[t] .. rd_start[t + 1]) */
    wk_read *rd;
    uint32_t *rank;              /* with predicate reads: per rd entry its place in its transaction (preds_op_rank;
                                    rd sorted by it), else NULL (the op order) */
    uint32_t *wk_start, *wk_key; /* n + 1: txn t's written keys, ascending (participants) */
    uint32_t *kw_start, *kw_txn; /* num_keys + 1: key k's participant writers but INIT, ascending */
    uint32_t *prev_so;           /* per txn: the previous participant of its session, or HISTORY_NONE */
    wk_extra_vec extra;          /* LIST and PREMISE edges */
    int init_edge;               /* index in extra of a premise edge into INIT, or -1 */
    char why[256];               /* UNKNOWN: what broke */
} wk;

/* weak_index.c */
int  wk_index_build(wk *w);      /* 0: an axiom is broken (w->why says which) */
void wk_index_free(wk *w);
int  wk_writes(const wk *w, uint32_t t, uint32_t key);
void wk_list_edges(wk *w);

/* weak_premise.c: adds the premise edges; cc needs the order of B (topo:
 * every participant, INIT first). */
void wk_premise_rc(wk *w);
void wk_premise_ra(wk *w);
struct par_pool;
void wk_premise_cc(wk *w, const uint32_t *topo, uint32_t len, struct par_pool *pool);
void wk_push_extra(wk *w, uint32_t from, uint32_t to, uint32_t read_op, uint32_t vis_op, weak_basis b, weak_via v);

/* weak_graph.c.  with_extra: 0 the graph B alone, 1 B with the extra edges.
 * Sorts it: 1 and order[0 .. *len) (INIT first) when acyclic; else 0 and
 * res->cycle holds a short cycle. */
int  wk_sort(wk *w, int with_extra, uint32_t *order, uint32_t *len, weak_result *res);
/* A path of SO and WR edges from a to b (a reaches b in B), into res->paths. */
void wk_causal_path(const wk *w, uint32_t a, uint32_t b, weak_result *res, uint32_t *first, uint32_t *len);

#endif
