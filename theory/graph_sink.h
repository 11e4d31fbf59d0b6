/* graph_sink.h — where an encoder sends a SAT-modulo-acyclicity problem:
 * the live engine (gsat) or a recorder (graph_problem) that exports it.
 *
 * A sink is an ops table plus its target, in the style of redis' module
 * structs: the checker's encoder calls only these operations, so the same
 * code either solves a problem or writes it out as GNF / CNF with the same
 * variable numbering.  name_vars may be a no-op (the engine has no use for
 * names).  Literals are DIMACS integers; edge literal 0 means always on. */
#ifndef GSAT_GRAPH_SINK_H
#define GSAT_GRAPH_SINK_H

#include "gsat.h"
#include "theory/graph_problem.h"
#include "theory/pk_order.h"

/* An edge from -> to guarded by lit (0: always on), for add_arcs. */
typedef struct gs_arc { int from, to, lit; } gs_arc;

/* n edges at once into s's graph: the same as n calls of
 * gsat_graph_add_edge in order, faster (theory/graph.c; not in the public
 * API).  Returns the first one's id; -1 and nothing added if a node is out
 * of the graph or a literal is not one (then s is in error, as there). */
int gsat_graph_add_arcs(gsat *s, int graph, const gs_arc *arcs, size_t n);

/* The theory's bulk passes (loading the always-on edges, the guarded
 * edges' arrays at the solve's start) run their two sides as two tasks of
 * run (fn(fctx, i) for each i < ntasks, at once on the caller's pool):
 * the same result as one after the other, which NULL (the default)
 * gives.  Tasks neither allocate nor fail.  0, or -1 if s has no graph. */
typedef pk_run_fn gs_run_fn;                     /* theory/pk_order.h */
int gsat_graph_set_runner(gsat *s, gs_run_fn run, void *ctx);

typedef struct graph_sink_ops {
    int  (*new_var)(void *t);
    void (*reserve_vars)(void *t, int n);            /* variables 1..n exist */
    int  (*num_vars)(void *t);
    void (*add_clause)(void *t, const int *lits, int n);
    int  (*graph_new)(void *t, int num_nodes);        /* returns the graph id */
    int  (*add_edge)(void *t, int graph, int from, int to, int lit);
    void (*name_vars)(void *t, int first, int count, const char *text);
    void (*comment)(void *t, const char *text);
    void (*add_arcs)(void *t, int graph, const gs_arc *arcs, size_t n);   /* NULL: add_edge each */
} graph_sink_ops;

typedef struct graph_sink { const graph_sink_ops *ops; void *t; } graph_sink;

graph_sink graph_sink_gsat(gsat *s);
graph_sink graph_sink_problem(graph_problem *p);

/* Shorthands. */
static inline int  gs_new_var(const graph_sink *k) { return k->ops->new_var(k->t); }
static inline void gs_reserve_vars(const graph_sink *k, int n) { k->ops->reserve_vars(k->t, n); }
static inline int  gs_num_vars(const graph_sink *k) { return k->ops->num_vars(k->t); }
static inline void gs_add_clause(const graph_sink *k, const int *l, int n) { k->ops->add_clause(k->t, l, n); }
static inline int  gs_graph_new(const graph_sink *k, int n) { return k->ops->graph_new(k->t, n); }
static inline int  gs_add_edge(const graph_sink *k, int g, int a, int b, int lit) { return k->ops->add_edge(k->t, g, a, b, lit); }
static inline void gs_add_arcs(const graph_sink *k, int g, const gs_arc *arcs, size_t n) {
    if (k->ops->add_arcs) k->ops->add_arcs(k->t, g, arcs, n);
    else for (size_t i = 0; i < n; i++) k->ops->add_edge(k->t, g, arcs[i].from, arcs[i].to, arcs[i].lit);
}
static inline int  gs_wants_names(const graph_sink *k) { return k->ops->name_vars != NULL; }
static inline void gs_name_vars(const graph_sink *k, int first, int count, const char *text) {
    if (k->ops->name_vars) k->ops->name_vars(k->t, first, count, text);
}
static inline void gs_comment(const graph_sink *k, const char *text) {
    if (k->ops->comment) k->ops->comment(k->t, text);
}

#endif
