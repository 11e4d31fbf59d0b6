/* pk_order.h — an incremental topological order of a directed graph
 * (Pearce & Kelly, "A dynamic topological sort algorithm for directed
 * acyclic graphs", JEA 2006), plus the adjacency of the enabled edges.
 *
 * Contract:
 *  - Nodes are 0..num_nodes-1; pk_add_nodes appends nodes at the end of the
 *    order.  ord[n] is node n's position, node_at[p] the node at position p;
 *    for every enabled edge a->b, ord[a] < ord[b].
 *  - pk_insert(a, b, e) enables edge e = a->b.  If ord[a] < ord[b] this is
 *    O(1).  Otherwise the nodes reachable from b with position < ord[a]
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
 *  - Always-on arcs may be frozen (pk_freeze_fixed) into two arrays by
 *    node (CSR, 4 bytes an arc each way, no edge id): they are never
 *    removed and cost 0, and a node's frozen arcs come before its list.
 *    Their edge id in searches and paths is PK_FIXED.  Unfrozen always-on
 *    arcs (pk_insert_cost with edge PK_FIXED) live on the lists until the
 *    next freeze.
 * Searches are iterative with explicit stacks; visited marks are stamps,
 * so nothing is cleared per search. */
#ifndef GSAT_PK_ORDER_H
#define GSAT_PK_ORDER_H

#include <stdint.h>
#include "vec.h"

typedef struct pk_arc { int node; unsigned edge : 31, cost : 1; } pk_arc;   /* other end, edge id */
#define PK_FIXED 0x7FFFFFFF       /* the edge id of an always-on arc (no record of its own) */
/* A node's arcs: arena[at .. at + len), room for 1 << lcap (one arena for all
 * nodes: no allocation per node; a list that outgrows its room moves to the
 * arena's end, and a full arena is compacted when a quarter of it was left
 * behind). */
typedef struct pk_adj { uint32_t at; uint32_t len : 27, lcap : 5; } pk_adj;   /* room: 0, or 1 << lcap */
#define PK_MAX_DEGREE ((1u << 27) - 1)

typedef struct pk_order {
    int num_nodes, cap_nodes;
    int *ord, *node_at;
    pk_adj *out, *in;             /* enabled edges, per node, in insertion order */
    pk_arc *arena;
    size_t arena_len, arena_cap, arena_dead;   /* used (dead included), allocated, left behind */
    /* frozen always-on arcs of nodes < fix_nodes: node v's heads are
     * fix_out[fix_out_start[v] .. fix_out_start[v+1]), tails likewise */
    uint32_t *fix_out_start, *fix_in_start;
    int *fix_out, *fix_in;
    int fix_nodes;
    uint32_t *mark;               /* visit stamps */
    uint32_t stamp;
    uint32_t fwd_stamp;           /* the stamp of the last forward search */
    int *par_node, *par_edge;     /* forward search tree: arc into each node */
    vec_int stack, next, fwd, bwd, pos_buf, sort_buf;
    int searched;                 /* last insert needed a search */
    int cycle_from, cycle_to;     /* the last insertion's edge (pk_cycle_path) */
    int64_t inserts, searches, visited, cycles;
} pk_order;

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
/* The arcs of list a (valid until the next insertion). */
static inline pk_arc *pk_arcs(const pk_order *pk, const pk_adj *a) { return pk->arena + a->at; }
/* Freeze the always-on edges: ends holds (from, to) of every one, in the
 * order they were added (self-loops skipped); they replace the frozen
 * arrays, and the PK_FIXED arcs on the lists are dropped.  Every one must
 * already respect the order (inserted before, or added forward since
 * without an order change).  0 if one does not, or there are too many
 * (nothing changes). */
int  pk_freeze_fixed(pk_order *pk, const int *ends, size_t n);
/* The same for the always-on arcs added since the last freeze only: ends
 * lists just those; they join the frozen arrays in place (each node's
 * frozen arcs, then its new ones in the order of ends: the arrays
 * pk_freeze_fixed would build from all of them), which grow without a
 * second copy.  With nothing frozen yet it is pk_freeze_fixed.  0 if one
 * does not respect the order, or there are too many (nothing changes). */
int  pk_freeze_more(pk_order *pk, const int *ends, size_t n);
/* Node v's frozen heads (out) or tails (in); *n their count. */
static inline const int *pk_fixed_out(const pk_order *pk, int v, int *n) {
    if (v >= pk->fix_nodes) { *n = 0; return NULL; }
    *n = (int)(pk->fix_out_start[v + 1] - pk->fix_out_start[v]);
    return pk->fix_out + pk->fix_out_start[v];
}
static inline const int *pk_fixed_in(const pk_order *pk, int v, int *n) {
    if (v >= pk->fix_nodes) { *n = 0; return NULL; }
    *n = (int)(pk->fix_in_start[v + 1] - pk->fix_in_start[v]);
    return pk->fix_in + pk->fix_in_start[v];
}
/* A fresh stamp for callers that search the graph with pk->mark. */
uint32_t pk_new_stamp(pk_order *pk);
/* Sort n ints ascending (used for the window; exposed for tests). */
void pk_sort_ints(int *a, int n, int *tmp);

#endif
