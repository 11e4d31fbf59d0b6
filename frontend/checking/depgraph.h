/* depgraph.h — the checker's one dependency-graph toolkit: a graph in
 * compressed adjacency form, the split-node numbering of SI, topological
 * order (Kahn), cycle search and shortest cycles.  Used by reachability
 * (reach.c), the polygraph (constraints.c), interpretation (interpret.c)
 * and certificate building (reports/cert_build.c).
 *
 * Not used, on purpose, by the re-checkers (frontend/recheck/: the model's
 * re-check and the certificate verifier): they re-check what this code
 * computes and must share none of it (tests/layering.sh).
 *
 * Split graph (SI, design in doc/checker.md): transaction t has a commit
 * node 2t and a start node 2t+1 (polygraph.h's T and T').  A WR, WW or SO
 * dependency a -> b is commit(a) -> start(b); an RW dependency a -> b is
 * start(a) -> commit(b); the fixed edge start(t) -> commit(t) says a
 * transaction starts before it commits.  Every cycle of the split graph is
 * an SI violation and vice versa.  Without splitting (SER) node t is
 * transaction t. */
#ifndef ISOCHECK_DEPGRAPH_H
#define ISOCHECK_DEPGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"
#include "frontend/checking/polygraph.h"

#define DG_NONE UINT32_MAX

static inline uint32_t dg_commit(uint32_t t) { return 2 * t; }
static inline uint32_t dg_start(uint32_t t) { return 2 * t + 1; }
static inline uint32_t dg_num_nodes(int split, uint32_t num_txns) { return split ? 2 * num_txns : num_txns; }
static inline uint32_t dg_node_txn(int split, uint32_t node) { return split ? node >> 1 : node; }
/* The node edge of dependency from -> to of kind (DEP_FIXED: from's own). */
static inline void dg_dep_nodes(int split, dep_kind kind, uint32_t from, uint32_t to, uint32_t *x, uint32_t *y) {
    if (!split) { *x = from; *y = to; }
    else if (kind == DEP_RW) { *x = dg_start(from); *y = dg_commit(to); }
    else if (kind == DEP_FIXED) { *x = dg_start(from); *y = dg_commit(from); }
    else { *x = dg_commit(from); *y = dg_start(to); }
}

/* An arc for dg_build: id is the caller's (an index into its edges;
 * DG_NONE for an arc with none). */
typedef struct dg_arc { uint32_t from, to, id; } dg_arc;
typedef VEC(dg_arc) dg_arc_vec;

/* Node u's arcs are adj[start[u] .. start[u+1]), in the order given to
 * dg_build; eid[j] is arc j's id (NULL when built without ids). */
typedef struct dg_graph {
    uint32_t n;
    uint32_t *start, *adj, *eid;
} dg_graph;

void dg_build(dg_graph *g, uint32_t n, const dg_arc *arcs, size_t m, int with_ids);
void dg_free(dg_graph *g);

/* Kahn's algorithm: all n nodes into order; 1 if the graph is acyclic.
 * by_index: of the ready nodes the smallest first, else first come first
 * served.  When only nodes on or behind cycles remain: break_cycles takes
 * the smallest of them as if it were ready and goes on; otherwise they are
 * appended in index order. */
int dg_topo_order(const dg_graph *g, int by_index, int break_cycles, uint32_t *order);
/* dg_topo_order(g, 0, 0, order) with every node's in-degree given
 * (indeg: n entries, counted by the caller; consumed). */
int dg_topo_order_from(const dg_graph *g, uint32_t *indeg, uint32_t *order);
/* The same order, node v's in-degree given at deg[2 v] (2 n entries);
 * deg[2 v + 1] is set to v's depth, the longest path to v from a node of
 * in-degree 0 (when the graph is acyclic): an arc u -> v has u's depth
 * below v's, so the nodes of one depth have no arc between them. */
int dg_topo_order_depth(const dg_graph *g, uint32_t *deg, uint32_t *order);

/* Nodes are skipped when skip is not NULL and skip[node >> skip_shift] is
 * set (shift 1: a per-transaction mask over a split graph). */
typedef struct dg_mask { const uint8_t *skip; unsigned shift; } dg_mask;

/* Some cycle (depth first), as its nodes in order; 0 if none. */
int dg_find_cycle(const dg_graph *g, dg_mask mask, vec_u32 *cyc);
/* A shortest cycle through s (breadth first), as nodes ending with s; 0
 * if none.  par and queue: scratch of n entries each. */
int dg_shortest_cycle_through(const dg_graph *g, dg_mask mask, uint32_t s, uint32_t *par, uint32_t *queue,
                              vec_u32 *out);
/* A cycle of least total weight (weight[j] for arc j; a cycle must weigh
 * more than 0), as arc indices in order; 0 if none.  Dijkstra with a
 * binary heap from every node; ties go to the smaller node, then the
 * earlier arc, so the answer is deterministic. */
int dg_min_weight_cycle(const dg_graph *g, const uint32_t *weight, vec_u32 *arcs);

#endif
