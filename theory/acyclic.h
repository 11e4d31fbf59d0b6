/* acyclic.h — the graph acyclicity theory (doc/architecture.md, "Engine and theory").
 *
 * One theory instance per solver holds every graph of that solver: graphs
 * are disjoint node ranges of one Pearce–Kelly order, so "each graph is
 * acyclic" is "the union is acyclic" and one order serves them all.
 *
 * Edges are guarded by a DIMACS literal (0: always on).  When a guard
 * becomes true its edges are inserted into the order; an edge that would
 * close a cycle is a conflict whose clause is "not all the guards on one
 * cycle", the cycle the failed insertion's search found, one with the
 * fewest guarded edges (0-1 BFS: edges that are always on or on since level
 * 0 cost nothing).  Backtracking pops edges off a per-level edge trail.
 *
 * Theory propagation (option theory_propagate): an unassigned guard whose
 * edge u->v has a path v ~> u is implied false, the path being its lazy
 * reason (searched later among the edges enabled before the implication).
 *   0: off
 *   1: candidates from the Pearce–Kelly window: after an insertion that
 *      reordered, guarded edges from the forward set into the backward set
 *   2: as 1, plus a forward/backward search bounded by
 *      theory_propagate_budget nodes after every insertion
 *
 * Branching (option theory_phase): see acyclic_phase.c.
 *
 * The theory uses the engine only through solver/theory.h and gsat.h.
 * The public face is gsat_graph_* in include/gsat.h (theory/graph.c). */
#ifndef GSAT_ACYCLIC_H
#define GSAT_ACYCLIC_H

#include <stdint.h>
#include "gsat.h"
#include "vec.h"
#include "solver/theory.h"
#include "theory/pk_order.h"

typedef struct acyclic acyclic;

/* A graph of the public API: its node ids map onto the theory's nodes. */
typedef struct acyclic_graph { vec_int node; int num_edges; } acyclic_graph;
typedef VEC(acyclic_graph) acyclic_graph_vec;

/* The theory's counters, one X-macro table: X(name, help), as the
 * engine's solver/stats.h.  It defines acyclic_stats and what `gsat -v`
 * prints after the engine's counters. */
#define ACYCLIC_STATS(X)                                                                  \
    X(edges, "edges added, always-on and guarded")                                        \
    X(guarded_edges, "guarded edges added")                                               \
    X(inserts, "edges put into the topological order")                                   \
    X(pk_searches, "insertions against the order (Pearce-Kelly searches)")                \
    X(pk_visited, "nodes those searches visited")                                         \
    X(conflicts, "cycles closed: conflict clauses")                                       \
    X(conflict_lits, "literals in conflict clauses")                                      \
    X(implied, "guards implied false by theory propagation")                              \
    X(reasons, "lazy reasons built for them")                                             \
    X(reason_lits, "literals in lazy reasons")                                            \
    X(prop_scans, "guarded edges theory propagation looked at")                           \
    X(presorts, "re-sorts of the order at a solve's start (theory_presort)")              \
    X(block_merges, "blocks of the order's frozen always-on arcs merged")                 \
    X(block_builds, "blocks of the guarded edges' arrays built")                          \
    X(pool_compactions, "compactions of the guarded arrays' pool of fresh edges")

typedef struct acyclic_stats {
#define X(name, help) int64_t name;
    ACYCLIC_STATS(X)
#undef X
} acyclic_stats;

/* Register the theory's options (the table in theory/acyclic_options.h)
 * with s; gsat_new() does, so they can be set before the first graph.
 * Returns their values (solver/theory.h, gsat_add_options). */
const int64_t *acyclic_add_options(gsat *s);
/* The solver's acyclicity theory, created and attached on first use. */
acyclic *acyclic_of(gsat *s);
/* The same without creating it: NULL if the solver has no graph. */
const acyclic *acyclic_find(const gsat *s);

/* Nodes are global to the theory; graphs map their own ids onto them. */
int  acyclic_add_nodes(acyclic *a, int count);
/* Add edge from->to guarded by lit (0: always on); returns its global id.
 * The caller has made sure the solver is at decision level 0. */
int  acyclic_add_edge(acyclic *a, int from, int to, int lit);
/* Ask the cache for what acyclic_add_edge(a, from, to, lit != 0) will
 * read at random (the nodes' fresh lists); performance only. */
void acyclic_prefetch_guarded(const acyclic *a, int from, int to);
/* n always-on edges at once (batch loading at level 0): edge i from
 * map[ends[2i]] to map[ends[2i + 1]] (map: a graph's node ids), the same
 * as n calls of acyclic_add_edge(a, from, to, 0). */
void acyclic_add_fixed_edges(acyclic *a, const int *map, const int *ends, size_t n);
/* The same for n edges a producer gives in chunks (pk_freeze_each), when
 * they can go straight into the order's frozen arrays: a new graph (map
 * the identity on the theory's first `nodes` nodes, the order untouched),
 * ends not kept, every edge forward.  1: added; 0: not that case, nothing
 * added (the caller adds them chunk by chunk); -1: a node id out of
 * [0, nodes), nothing added. */
int  acyclic_add_fixed_each(acyclic *a, const int *map, int nodes, size_t n,
                            void (*each)(void *, size_t, size_t, int *), void *ctx, int *buf, size_t chunk);
/* Room for more edges, always_on and guarded ones, allocated once (a
 * reader that knows them). */
void acyclic_reserve_edges(acyclic *a, int always_on, int guarded);
/* For tests (the library keeps the default): blocks of 1 << shift nodes
 * (default 4096) for the order's frozen arcs and the arrays of guarded
 * edges, so that small graphs merge and rebuild them often.  Only before
 * the first node. */
void acyclic_set_block_shift(acyclic *a, int shift);
/* Where the theory's bulk passes run their two sides (pk_run_fn, the
 * caller's pool): NULL, the default, one after the other. */
void acyclic_set_runner(acyclic *a, pk_run_fn run, void *ctx);
int  acyclic_num_nodes(const acyclic *a);
int  acyclic_num_edges(const acyclic *a);
acyclic_graph_vec *acyclic_graphs(acyclic *a);
void acyclic_get_stats(const acyclic *a, acyclic_stats *out);

#ifdef GSAT_DEBUG
/* Debug builds (the engine's final check, tests): 1 if the enabled edges
 * form a DAG (independent DFS), and every edge whose guard is true now is
 * enabled. */
int  acyclic_verify(const acyclic *a);
/* The enabled edges respect the topological order (no engine needed). */
int  acyclic_verify_order(const acyclic *a);
#endif
void acyclic_edge_ends(const acyclic *a, int e, int *from, int *to, int *lit);

#endif
