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
 * Searches are iterative with explicit stacks; visited marks are stamps,
 * so nothing is cleared per search. */
#ifndef GSAT_PK_ORDER_H
#define GSAT_PK_ORDER_H

#include <stdint.h>
#include "vec.h"

typedef struct pk_arc { int node, edge; } pk_arc;     /* other end, edge id */
typedef struct pk_adj { pk_arc *arcs; int len, cap; } pk_adj;

typedef struct pk_order {
    int num_nodes, cap_nodes;
    int *ord, *node_at;
    pk_adj *out, *in;             /* enabled edges, per node, in insertion order */
    uint32_t *mark;               /* visit stamps */
    uint32_t stamp;
    uint32_t fwd_stamp;           /* the stamp of the last forward search */
    vec_int stack, fwd, bwd, pos_buf, sort_buf;
    int searched;                 /* last insert needed a search */
    int64_t inserts, searches, visited, cycles;
} pk_order;

void pk_init(pk_order *pk);
void pk_free(pk_order *pk);
/* Append count nodes; returns the id of the first. */
int  pk_add_nodes(pk_order *pk, int count);
/* 1: edge inserted; 0: it would close a cycle (nothing changed). */
int  pk_insert(pk_order *pk, int from, int to, int edge);
void pk_remove(pk_order *pk, int from, int to, int edge);
/* A fresh stamp for callers that search the graph with pk->mark. */
uint32_t pk_new_stamp(pk_order *pk);
/* Sort n ints ascending (used for the window; exposed for tests). */
void pk_sort_ints(int *a, int n, int *tmp);

#endif
