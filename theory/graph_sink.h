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

typedef struct graph_sink_ops {
    int  (*new_var)(void *t);
    void (*reserve_vars)(void *t, int n);            /* variables 1..n exist */
    int  (*num_vars)(void *t);
    void (*add_clause)(void *t, const int *lits, int n);
    int  (*graph_new)(void *t, int num_nodes);        /* returns the graph id */
    int  (*add_edge)(void *t, int graph, int from, int to, int lit);
    void (*name_vars)(void *t, int first, int count, const char *text);
    void (*comment)(void *t, const char *text);
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
static inline int  gs_wants_names(const graph_sink *k) { return k->ops->name_vars != NULL; }
static inline void gs_name_vars(const graph_sink *k, int first, int count, const char *text) {
    if (k->ops->name_vars) k->ops->name_vars(k->t, first, count, text);
}
static inline void gs_comment(const graph_sink *k, const char *text) {
    if (k->ops->comment) k->ops->comment(k->t, text);
}

#endif
