/* graph_sink.c — the two sinks, the engine and the recorder (contract in graph_sink.h). */
#include "theory/graph_sink.h"

static int  sg_new_var(void *t) { return gsat_new_var(t); }
static void sg_reserve(void *t, int n) { gsat_reserve_vars(t, n); }
static int  sg_num_vars(void *t) { return gsat_num_vars(t); }
static void sg_add_clause(void *t, const int *l, int n) { (void)gsat_add_clause(t, l, n); }
static int  sg_graph_new(void *t, int n) { return gsat_graph_new(t, n); }
static int  sg_add_edge(void *t, int g, int a, int b, int lit) { return gsat_graph_add_edge(t, g, a, b, lit); }

static void sg_add_arcs(void *t, int g, const gs_arc *a, size_t n) { (void)gsat_graph_add_arcs(t, g, a, n); }

static const graph_sink_ops gsat_ops = {
    sg_new_var, sg_reserve, sg_num_vars, sg_add_clause, sg_graph_new, sg_add_edge, NULL, NULL, sg_add_arcs,
};

graph_sink graph_sink_gsat(gsat *s) { return (graph_sink){ &gsat_ops, s }; }

static int  sp_new_var(void *t) { return gp_new_var(t); }
static void sp_reserve(void *t, int n) { gp_reserve_vars(t, n); }
static int  sp_num_vars(void *t) { return ((graph_problem *)t)->num_vars; }
static void sp_add_clause(void *t, const int *l, int n) { gp_add_clause(t, l, n); }
static int  sp_graph_new(void *t, int n) { return gp_graph_new(t, n); }
static int  sp_add_edge(void *t, int g, int a, int b, int lit) { return gp_add_edge(t, g, a, b, lit); }
static void sp_name(void *t, int first, int count, const char *text) { gp_name_vars(t, first, count, "%s", text); }
static void sp_comment(void *t, const char *text) { gp_comment(t, "%s", text); }

static const graph_sink_ops problem_ops = {
    sp_new_var, sp_reserve, sp_num_vars, sp_add_clause, sp_graph_new, sp_add_edge, sp_name, sp_comment, NULL,
};

graph_sink graph_sink_problem(graph_problem *p) { return (graph_sink){ &problem_ops, p }; }
