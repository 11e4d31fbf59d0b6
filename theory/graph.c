/* graph.c — the public graph API of include/gsat.h (gsat_graph_*).
 *
 * Graph ids index the acyclicity theory's graph table; a graph's node ids
 * map onto the theory's global nodes, and its edge ids count its own edges.
 * Changing the problem happens at decision level 0, so every call first
 * takes the solver back there (like adding a clause).
 *
 * gsat_new() is here too: libgsat's solver is the engine with the
 * acyclicity theory's options registered from the start, so that they can
 * be set (and `gsat --help` lists them) before the first graph attaches
 * the theory itself. */
#include "gsat.h"
#include "solver/theory.h"
#include "theory/acyclic.h"

gsat *gsat_new(void) {
    gsat *s = gsat_engine_new();
    acyclic_add_options(s);
    return s;
}

static acyclic_graph *graph_of(gsat *s, int graph, acyclic **a) {
    *a = acyclic_of(s);
    if (!*a) return NULL;
    acyclic_graph_vec *gv = acyclic_graphs(*a);
    if (graph < 0 || (size_t)graph >= gv->len) return NULL;
    return &gv->data[graph];
}

int gsat_graph_new(gsat *s, int num_nodes) {
    if (num_nodes < 0) return -1;
    acyclic *a = acyclic_of(s);
    if (!a) return -1;
    acyclic_graph_vec *gv = acyclic_graphs(a);
    acyclic_graph g = {{0}, 0};
    vec_push(*gv, g);
    int id = (int)gv->len - 1;
    if (num_nodes > 0) gsat_graph_add_nodes(s, id, num_nodes);
    return id;
}

int gsat_graph_add_nodes(gsat *s, int graph, int count) {
    acyclic *a;
    acyclic_graph *g = graph_of(s, graph, &a);
    if (!g || count < 0) return -1;
    int first_local = (int)g->node.len;
    int first = acyclic_add_nodes(a, count);
    size_t need = g->node.len + (size_t)count;
    if (need > g->node.cap) {        /* doubling, but a whole graph at once at its exact size */
        size_t cap = 2 * g->node.cap > need ? 2 * g->node.cap : need;
        g->node.data = xrealloc(g->node.data, cap * sizeof *g->node.data);
        g->node.cap = cap;
    }
    for (int i = 0; i < count; i++) vec_push(g->node, first + i);
    return first_local;
}

void gsat_graph_reserve_edges(gsat *s, int always_on, int guarded) {
    acyclic *a = acyclic_of(s);
    if (a) acyclic_reserve_edges(a, always_on, guarded);
}

int gsat_graph_add_edges(gsat *s, int graph, const int *ends, size_t n) {
    acyclic *a;
    acyclic_graph *g = graph_of(s, graph, &a);
    if (!g || (uint64_t)g->num_edges + n > INT32_MAX) return -1;
    for (size_t i = 0; i < 2 * n; i++)
        if (ends[i] < 0 || (size_t)ends[i] >= g->node.len) return -1;
    gsat_backtrack_root(s);
    int first = g->num_edges;
    if (n) acyclic_add_fixed_edges(a, g->node.data, ends, n);
    g->num_edges += (int)n;
    return first;
}

int gsat_graph_add_edge(gsat *s, int graph, int from, int to, int lit) {
    acyclic *a;
    acyclic_graph *g = graph_of(s, graph, &a);
    if (!g || from < 0 || to < 0 || (size_t)from >= g->node.len || (size_t)to >= g->node.len) return -1;
    if (lit == INT32_MIN) return -1;
    gsat_backtrack_root(s);
    acyclic_add_edge(a, g->node.data[from], g->node.data[to], lit);
    return g->num_edges++;
}
