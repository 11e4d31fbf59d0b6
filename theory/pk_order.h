/* pk_order.h — an incremental topological order of a directed graph
 * (Pearce & Kelly, "A dynamic topological sort algorithm for directed
 * acyclic graphs", JEA 2006), plus the adjacency of the enabled edges.
 *
 * Contract:
 *  - Nodes are 0..num_nodes-1; pk_add_nodes appends nodes at the end of the
 *    order.  ord[n] is node n's position, node_at[p] the node at position p;
 *    for every enabled edge a->b, ord[a] < ord[b].
 *  - pk_insert(a, b, e) enables edge e = a->b.  If ord[a] < ord[b] this is
 *    O(1) (amortized for an always-on arc: see below).  Otherwise the nodes reachable from b with position < ord[a]
 *    (fwd) and the nodes reaching a with position > ord[b] (bwd) are
 *    searched and only that window is reordered.  If b reaches a, the edge
 *    would close a cycle: the graph is left unchanged and 0 is returned.
 *  - pk_remove(a, b, e) disables edge e.  Removal never invalidates the
 *    order; in the reverse order of insertion (a stack, as a SAT trail
 *    unwinds) it costs O(1), out of that order O(degree).
 *  - After pk_insert, pk->fwd / pk->bwd hold the searched node sets (empty
 *    when no search was needed) until the next call; the theory uses them
 *    for cheap propagation.
 *  - Every arc has a cost, 0 or 1 (pk_insert_cost; pk_insert gives 1).  The
 *    forward search is a 0-1 breadth-first search (Dial's layers), so when
 *    an insertion fails, pk_cycle_path gives a path b ~> a of least total
 *    cost: the caller's explanation of the cycle, without a second search.
 *  - Always-on arcs (edge id PK_FIXED, cost 0) are never removed.  They
 *    reach the order one at a time (pk_insert_cost with edge PK_FIXED: onto
 *    the lists) or many at once (pk_freeze: straight into the frozen
 *    arrays).  The frozen arrays hold them by node, 4 bytes an arc each way
 *    and no edge id, in blocks of 1 << blk_shift nodes, each block its own
 *    CSR: a node's frozen arcs come before its list, each side in the order
 *    the arcs arrived.  When the always-on arcs waiting on a block's lists
 *    (one side) exceed a quarter of its frozen ones plus a quarter of its
 *    nodes, that block alone is merged (O(block), amortized O(1) an arc):
 *    no step ever touches the whole graph, so no call is slow because the
 *    graph is large.  Every always-on arc is, at every moment, either on a
 *    list or in the frozen arrays: searches see all of them.
 *  - The lists share one arena of rooms of 2^k arcs; a room left behind
 *    goes to a stack of free rooms of its size (a larger one is split to
 *    serve a smaller one), so the arena is never compacted (no pass over
 *    every node).  pk_arcs pointers are valid until the next insertion.
 * Searches are iterative with explicit stacks; visited marks are stamps,
 * so nothing is cleared per search. */
#ifndef GSAT_PK_ORDER_H
#define GSAT_PK_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include "vec.h"

typedef struct pk_arc { int node; unsigned edge : 31, cost : 1; } pk_arc;   /* other end, edge id */
#define PK_FIXED 0x7FFFFFFF       /* the edge id of an always-on arc (no record of its own) */
/* A node's arcs: arena[at .. at + len), room for 1 << lcap (one arena for all
 * nodes: no allocation per node; a list that outgrows its room moves to a
 * room twice as large, from the free lists or the arena's end). */
typedef struct pk_adj { uint32_t at; uint32_t len : 27, lcap : 5; } pk_adj;   /* room: 0, or 1 << lcap */
#define PK_MAX_DEGREE ((1u << 27) - 1)
#define PK_BLOCK_SHIFT 12         /* frozen arcs in blocks of 4096 nodes */

/* One side (out or in) of the frozen always-on arcs.  Block b holds nodes
 * b << shift .. ((b + 1) << shift) - 1; its arcs are blk[b].arcs, node v's
 * arcs[start[v + b] .. start[v + b + 1]) (a block has one slot more than
 * nodes, for its end; blocks past nblk hold nothing).  pending: the
 * always-on arcs of the block's nodes on this side still on the lists. */
typedef struct pk_fblock { int *arcs; uint32_t len, pending; } pk_fblock;
typedef struct pk_frozen {
    pk_fblock *blk;
    uint32_t *start;
    uint64_t *listed;             /* bit v: node v has always-on arcs on its list (merges read only those lists) */
    int nblk, cap_blk;
    size_t total;                 /* arcs in every block */
} pk_frozen;

/* Runs fn(fctx, i) once for each i in [0, ntasks), possibly at once on
 * other threads (the caller's pool, gsat_graph_set_runner); the call
 * returns when all have returned.  The order's tasks (pk_freeze_each, the
 * theory's gcsr_sync) neither allocate nor fail, and each writes only its
 * own side: the same result on any number of threads. */
typedef void (*pk_run_fn)(void *ctx, size_t ntasks, void (*fn)(void *fctx, size_t task), void *fctx);

typedef struct pk_order {
    int num_nodes, cap_nodes;
    int *ord, *node_at;
    pk_adj *out, *in;             /* enabled edges, per node, in insertion order */
    pk_arc *arena;
    size_t arena_len, arena_cap, arena_dead;   /* used (free rooms included), allocated, in free rooms */
    vec_u32 free_room[32];        /* per room size 2^k: the free rooms (a stack: no cache miss to pop) */
    uint32_t free_mask;           /* bit k: free_room[k] is not empty */
    pk_frozen fix[2];             /* frozen always-on arcs: 0 out (heads), 1 in (tails) */
    int blk_shift;                /* PK_BLOCK_SHIFT; tests may set less before the first always-on arc */
    uint32_t *mark;               /* visit stamps */
    uint32_t stamp;
    uint32_t fwd_stamp;           /* the stamp of the last forward search */
    int *par_node, *par_edge;     /* forward search tree: arc into each node */
    vec_int stack, next, fwd, bwd, pos_buf, sort_buf;
    int searched;                 /* last insert needed a search */
    int cycle_from, cycle_to;     /* the last insertion's edge (pk_cycle_path) */
    int64_t inserts, searches, visited, cycles, block_merges;
    pk_run_fn run;                /* NULL: tasks in order on the caller's thread */
    void *run_ctx;
} pk_order;

/* fn(fctx, 0 .. ntasks - 1) on pk's runner (pk_run_fn). */
static inline void pk_run(const pk_order *pk, size_t ntasks, void (*fn)(void *, size_t), void *fctx) {
    if (pk->run && ntasks > 1) pk->run(pk->run_ctx, ntasks, fn, fctx);
    else for (size_t i = 0; i < ntasks; i++) fn(fctx, i);
}

void pk_init(pk_order *pk);
void pk_free(pk_order *pk);
/* Append count nodes; returns the id of the first. */
int  pk_add_nodes(pk_order *pk, int count);
/* 1: edge inserted; 0: it would close a cycle (nothing changed). */
int  pk_insert(pk_order *pk, int from, int to, int edge);
/* The same with the arc's cost (0 or 1) for the forward search. */
int  pk_insert_cost(pk_order *pk, int from, int to, int edge, int cost);
/* After pk_insert(a, b, ...) returned 0: push onto path the edge ids of a
 * least-cost path b ~> a through enabled edges (from a back to b). */
void pk_cycle_path(const pk_order *pk, vec_int *path);
void pk_remove(pk_order *pk, int from, int to, int edge);
/* The arcs of list a (valid until the next insertion; never NULL, also
 * for an empty list of an order without arcs). */
static inline pk_arc *pk_arcs(const pk_order *pk, const pk_adj *a) { return pk->arena + a->at; }
/* Add always-on arcs that are not in the order yet, straight into the
 * frozen arrays: ends holds (from, to) of each, in the order they were
 * added (self-loops skipped).  Every one must respect the order.  Each
 * block they touch is merged (its frozen arcs, then those waiting on its
 * lists, then the new ones in the order of ends); the cost is O(n + the
 * touched blocks), for bulk loading.  0 if one does not respect the
 * order, or a block would hold too many (nothing changes). */
int  pk_freeze(pk_order *pk, const int *ends, size_t n);
/* pk_freeze of n arcs a producer gives in chunks: each(ctx, first, count,
 * buf) writes the ends of arcs first .. first + count - 1 into buf (room
 * for 2 * chunk ints), the same ends every time; it is called for first =
 * 0, chunk, 2 chunk, ... in order, two passes over the n arcs.  The
 * arrays are those of one pk_freeze of all n, in O(n + nodes) (pk_freeze
 * chunk by chunk merges every block a chunk touches: quadratic when each
 * chunk touches them all).  Every arc must go from a lower node id to a
 * higher one below lim, and the order must be the identity on them (the
 * caller checked): else -1 for an id out of [0, lim), 0 for an arc not
 * forward, and nothing changes. */
int  pk_freeze_each(pk_order *pk, size_t n, int lim, void (*each)(void *, size_t, size_t, int *), void *ctx,
                    int *buf, size_t chunk);
/* Always-on arcs in the order: frozen and on the lists. */
size_t pk_fixed_count(const pk_order *pk);
/* Node v's frozen heads (out) or tails (in); *n their count. */
static inline const int *pk_fixed_side(const pk_frozen *f, int shift, int v, int *n) {
    int b = v >> shift;
    if (b >= f->nblk) { *n = 0; return NULL; }
    const uint32_t *st = f->start + v + b;
    *n = (int)(st[1] - st[0]);
    return *n ? f->blk[b].arcs + st[0] : NULL;
}
static inline const int *pk_fixed_out(const pk_order *pk, int v, int *n) { return pk_fixed_side(&pk->fix[0], pk->blk_shift, v, n); }
static inline const int *pk_fixed_in(const pk_order *pk, int v, int *n) { return pk_fixed_side(&pk->fix[1], pk->blk_shift, v, n); }
/* A fresh stamp for callers that search the graph with pk->mark. */
uint32_t pk_new_stamp(pk_order *pk);
/* Sort n ints ascending (used for the window; exposed for tests). */
void pk_sort_ints(int *a, int n, int *tmp);

#endif
