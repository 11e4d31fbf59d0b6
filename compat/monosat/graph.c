/* graph.c — MonoSAT's graphs, nodes, edges and acyclic_directed over the
 * layer (include/monosat.h), and handing graphs to gsat before a solve.
 *
 * An edge is a new variable; the graph is only recorded until a solve in
 * which its acyclicity literal holds.  Then it becomes a gsat graph whose
 * edges are guarded by the representatives of their literals (msat.h);
 * an edge literal tied to another literal stops being a decision variable
 * and its representative becomes one, as in the GNF reader, so decisions
 * on an alternative go through the theory's phase advice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compat/monosat/msat.h"

#define BV_HANDLE ((BVTheoryPtr)(uintptr_t)0xb17)

static msat_graph *graph_of(msat *m, GraphTheorySolver_long G, const char *func) {
    uintptr_t id = (uintptr_t)G;
    if (id - 1 >= m->graphs.len) {                   /* one compare: 0 wraps */
        msat_error(m, func, "not a graph of this solver (handle %p)", G);
        return NULL;
    }
    return &m->graphs.data[id - 1];
}

/* The edge record and its variable, with room for both. */
static inline int add_edge(msat *m, msat_graph *g, int from, int to, Weight weight) {
    g->edges.data[g->edges.len] = (msat_edge){from, to, 2 * msat_nvars(m), weight};
    return msat_push_var_in_room(m, (int)g->edges.len++);
}

#define GRAPH_OR(ret) \
    msat *m = msat_of(S, __func__); if (!m) return ret; \
    msat_graph *g = graph_of(m, G, __func__); if (!g) return ret

void msat_graphs_free(msat *m) {
    for (size_t i = 0; i < m->graphs.len; i++) {
        free(m->graphs.data[i].name);
        vec_free(m->graphs.data[i].edges);
    }
    vec_free(m->graphs);
}

GraphTheorySolver_long newGraph(SolverPtr S) { return newGraph_Named(S, "", -1); }

GraphTheorySolver_long newGraph_Named(SolverPtr S, const char *name, int bitwidth) {
    msat *m = msat_of(S, __func__);
    if (!m) return NULL;
    if (bitwidth >= 0) {
        msat_error(m, __func__, "bit-vector weighted graphs (bitwidth %d) are not supported by gsat", bitwidth);
        return NULL;
    }
    if (name && *name && getGraph(S, name)) {
        msat_error(m, __func__, "there is already a graph named '%s'", name);
        return NULL;
    }
    msat_graph g;
    memset(&g, 0, sizeof g);
    size_t len = name ? strlen(name) : 0;
    g.name = xmalloc(len + 1);
    memcpy(g.name, name ? name : "", len + 1);
    g.acyclic_lit = -1;
    g.gsat_id = -1;
    vec_push(m->graphs, g);
    return (GraphTheorySolver_long)(uintptr_t)m->graphs.len;
}

GraphTheorySolver_long getGraph(SolverPtr S, const char *name) {
    msat *m = msat_of(S, __func__);
    if (!m || !name || !*name) return NULL;
    for (size_t i = 0; i < m->graphs.len; i++)
        if (strcmp(m->graphs.data[i].name, name) == 0) return (GraphTheorySolver_long)(uintptr_t)(i + 1);
    return NULL;
}

const char *getGraphName(SolverPtr S, GraphTheorySolver_long G) { GRAPH_OR(""); return g->name; }
int getGraphWidth(SolverPtr S, GraphTheorySolver_long G) { GRAPH_OR(-1); return -1; }

int newNode(SolverPtr S, GraphTheorySolver_long G) { GRAPH_OR(-1); return g->nodes++; }

int newNode_Named(SolverPtr S, GraphTheorySolver_long G, const char *name) {
    GRAPH_OR(-1);
    if (name && *name) { msat_error(m, __func__, "node names ('%s') are not supported by gsat", name); return -1; }
    return g->nodes++;
}

bool hasNamedNode(SolverPtr S, GraphTheorySolver_long G, const char *name) { GRAPH_OR(false); (void)name; return false; }

const char *getNodeName(SolverPtr S, GraphTheorySolver_long G, int nodeID) {
    GRAPH_OR("");
    if (nodeID < 0 || nodeID >= g->nodes) msat_error(m, __func__, "no node %d (the graph has %d)", nodeID, g->nodes);
    return "";
}

/* Room for one more edge of g and one more variable; then the edge. */
MSAT_COLD static int grow_and_add_edge(msat *m, msat_graph *g, int from, int to, Weight weight) {
    size_t first = MSAT_FIRST_ROOM / sizeof *g->edges.data;
    vec_reserve(g->edges, g->edges.len < first ? first : g->edges.len + 1);
    if (m->vars.len == m->vars.cap) msat_grow_vars(m);
    return add_edge(m, g, from, to, weight);
}

/* The common way: the checks cost a compare each, room was there. */
int newEdge(SolverPtr S, GraphTheorySolver_long G, int from, int to, Weight weight) {
    GRAPH_OR(-1);
    if ((unsigned)from >= (unsigned)g->nodes || (unsigned)to >= (unsigned)g->nodes) {   /* negatives wrap */
        msat_error(m, __func__, "edge %d -> %d: no such node (the graph has %d)", from, to, g->nodes);
        return -1;
    }
    if (g->edges.len == g->edges.cap || m->vars.len == m->vars.cap) return grow_and_add_edge(m, g, from, to, weight);
    return add_edge(m, g, from, to, weight);
}

int nNodes(SolverPtr S, GraphTheorySolver_long G) { GRAPH_OR(0); return g->nodes; }
int nEdges(SolverPtr S, GraphTheorySolver_long G) { GRAPH_OR(0); return (int)g->edges.len; }

int getEdgeLiteralN(SolverPtr S, GraphTheorySolver_long G, int n) {
    GRAPH_OR(-1);
    if (n < 0 || (size_t)n >= g->edges.len) { msat_error(m, __func__, "no edge %d (the graph has %zu)", n, g->edges.len); return -1; }
    return g->edges.data[n].lit;
}

static msat_edge *edge_of(msat *m, msat_graph *g, int edgeLit, const char *func) {
    if (!msat_check_lit(m, func, edgeLit)) return NULL;
    size_t e = (size_t)m->vars.data[edgeLit >> 1].edge;      /* -1 wraps */
    if (e >= g->edges.len || g->edges.data[e].lit != edgeLit) {
        msat_error(m, func, "literal %d is not an edge of this graph", edgeLit);
        return NULL;
    }
    return &g->edges.data[e];
}

int getEdge_to(SolverPtr S, GraphTheorySolver_long G, int edgeLit) {
    GRAPH_OR(-1);
    msat_edge *e = edge_of(m, g, edgeLit, __func__);
    return e ? e->to : -1;
}

int getEdge_from(SolverPtr S, GraphTheorySolver_long G, int edgeLit) {
    GRAPH_OR(-1);
    msat_edge *e = edge_of(m, g, edgeLit, __func__);
    return e ? e->from : -1;
}

Weight getEdge_weight_const(SolverPtr S, GraphTheorySolver_long G, int edgeLit) {
    GRAPH_OR(0);
    msat_edge *e = edge_of(m, g, edgeLit, __func__);
    return e ? e->weight : 0;
}

bool edgeHasBVWeight(SolverPtr S, GraphTheorySolver_long G, int edgeLit) {
    GRAPH_OR(false);
    (void)edge_of(m, g, edgeLit, __func__);
    return false;
}

int acyclic_directed(SolverPtr S, GraphTheorySolver_long G) {
    GRAPH_OR(-1);
    if (g->acyclic_lit < 0) g->acyclic_lit = msat_new_var(m);
    return g->acyclic_lit;
}

BVTheoryPtr initBVTheory(SolverPtr S) { return msat_of(S, __func__) ? BV_HANDLE : NULL; }

int nBitvectors(SolverPtr S, BVTheoryPtr bv) {
    msat *m = msat_of(S, __func__);
    if (m && bv != BV_HANDLE) msat_error(m, __func__, "not this layer's bit-vector handle");
    return 0;
}

int msat_is_acyclic_lit(const msat *m, int lit) {
    for (size_t i = 0; i < m->graphs.len; i++)
        if (m->graphs.data[i].acyclic_lit == lit) return 1;
    return 0;
}

/* The guard of the edge whose literal lit is not its class's
 * representative: the representative, which the theory then decides on
 * in place of lit's variable. */
MSAT_COLD static int tied_guard(msat *m, int lit) {
    int rep = msat_find_slow(m, lit);
    if ((rep >> 1) != (lit >> 1)) {
        gsat_set_decision_var(m->s, (lit >> 1) + 1, 0);
        gsat_set_decision_var(m->s, (rep >> 1) + 1, 1);
    }
    return rep;
}

/* Hand graph g's new nodes and edges to gsat (creating the gsat graph on
 * first use). */
static void to_gsat(msat *m, msat_graph *g) {
    if (g->gsat_id < 0) { g->gsat_id = gsat_graph_new(m->s, g->nodes); g->gsat_nodes = g->nodes; }
    if (g->nodes > g->gsat_nodes) { gsat_graph_add_nodes(m->s, g->gsat_id, g->nodes - g->gsat_nodes); g->gsat_nodes = g->nodes; }
    /* local copies: gsat's calls cannot change the layer's records */
    gsat *s = m->s;
    int id = g->gsat_id;
    const msat_var *vars = m->vars.data;
    const msat_edge *e = g->edges.data + g->gsat_edges, *end = g->edges.data + g->edges.len;
    for (; e < end; e++) {
        int v = e->lit >> 1;            /* an edge literal is positive: DIMACS v + 1 */
        int guard = vars[v].parent == v ? v + 1 : msat_dimacs(tied_guard(m, e->lit));
        gsat_graph_add_edge(s, id, e->from, e->to, guard);
    }
    g->gsat_edges = g->edges.len;
}

int msat_graphs_ready(msat *m, const char *func, const int *assumptions, int n) {
    for (size_t i = 0; i < m->graphs.len; i++) {
        msat_graph *g = &m->graphs.data[i];
        if (g->acyclic_lit < 0) continue;                 /* no constraint on this graph */
        int a = g->acyclic_lit, holds = msat_fixed(m, a);
        for (int k = 0; k < n && holds == 0; k++)
            if (assumptions[k] == a) holds = 1;
        if (holds <= 0) {
            msat_error(m, func, "the acyclicity literal %d of graph %zu%s%s%s is %s; gsat keeps acyclicity only as a "
                       "hard constraint: assert it (Assert/addUnitClause) or assume it in every solve",
                       a, i + 1, *g->name ? " ('" : "", g->name, *g->name ? "')" : "",
                       holds < 0 ? "false (reified acyclicity is not supported)" : "neither asserted nor assumed");
            return 0;
        }
        to_gsat(m, g);
    }
    return 1;
}
