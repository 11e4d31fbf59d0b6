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
#include <stdint.h>

#include "gsat.h"
#include "solver/theory.h"
#include "theory/acyclic.h"
#include "theory/graph_sink.h"

static int with_options(gsat *s, void *ctx) {
    (void)ctx;
    acyclic_add_options(s);
    return 0;
}

gsat *gsat_new(void) {
    gsat *s = gsat_engine_new();
    if (!s) return NULL;
    if (gsat_guard_call(s, __func__, with_options, NULL, -1) < 0) { gsat_free(s); return NULL; }
    return s;
}

static acyclic_graph *graph_of(gsat *s, int graph, acyclic **a) {
    *a = acyclic_of(s);
    if (!*a) return NULL;
    acyclic_graph_vec *gv = acyclic_graphs(*a);
    if (graph < 0 || (size_t)graph >= gv->len) return NULL;
    return &gv->data[graph];
}

/* The arguments of a guarded call (gsat_guard_call). */
typedef struct graph_args { int graph, a, b, lit; const int *ends; size_t n; } graph_args;

static int add_nodes(gsat *s, int graph, int count) {
    acyclic *a;
    acyclic_graph *g = graph_of(s, graph, &a);
    if (!g || count < 0) return -1;
    if (count > INT32_MAX - acyclic_num_nodes(a)) {     /* node ids are ints */
        gsat_fail(s, "gsat_graph_add_nodes", "%d more nodes than the %d there are: beyond %d", count,
                  acyclic_num_nodes(a), INT32_MAX);
        return -1;
    }
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

static int add_nodes_call(gsat *s, void *ctx) { graph_args *x = ctx; return add_nodes(s, x->graph, x->a); }

static int graph_new(gsat *s, void *ctx) {
    int num_nodes = ((graph_args *)ctx)->a;
    acyclic *a = acyclic_of(s);
    if (!a) return -1;
    acyclic_graph_vec *gv = acyclic_graphs(a);
    acyclic_graph g = {{0}, 0};
    vec_push(*gv, g);
    int id = (int)gv->len - 1;
    if (num_nodes > 0 && add_nodes(s, id, num_nodes) < 0) return -1;
    return id;
}

int gsat_graph_new(gsat *s, int num_nodes) {
    if (gsat_error(s) || num_nodes < 0) return -1;
    graph_args x = {.a = num_nodes};
    return gsat_guard_call(s, __func__, graph_new, &x, -1);
}

int gsat_graph_add_nodes(gsat *s, int graph, int count) {
    if (gsat_error(s)) return -1;
    graph_args x = {.graph = graph, .a = count};
    return gsat_guard_call(s, __func__, add_nodes_call, &x, -1);
}

static int reserve_edges(gsat *s, void *ctx) {
    graph_args *x = ctx;
    acyclic *a = acyclic_of(s);
    if (a) acyclic_reserve_edges(a, x->a, x->b);
    return 0;
}

void gsat_graph_reserve_edges(gsat *s, int always_on, int guarded) {
    if (gsat_error(s) || always_on < 0 || guarded < 0) return;
    graph_args x = {.a = always_on, .b = guarded};
    (void)gsat_guard_call(s, __func__, reserve_edges, &x, -1);
}

static int add_edges(gsat *s, void *ctx) {
    graph_args *x = ctx;
    acyclic *a;
    acyclic_graph *g = graph_of(s, x->graph, &a);
    size_t n = x->n;
    if (!g || (uint64_t)g->num_edges + n > INT32_MAX || (n && !x->ends)) return -1;
    for (size_t i = 0; i < 2 * n; i++)
        if (x->ends[i] < 0 || (size_t)x->ends[i] >= g->node.len) return -1;
    gsat_backtrack_root(s);
    int first = g->num_edges;
    if (n) acyclic_add_fixed_edges(a, g->node.data, x->ends, n);
    g->num_edges += (int)n;
    return first;
}

typedef struct each_args { int graph; size_t n, chunk; gsat_ends_fn each; void *ctx; } each_args;

/* Straight into the order's frozen arrays when it can (acyclic_add_fixed_each),
 * else every chunk checked, then added chunk by chunk (add_edges). */
static int add_edges_each(gsat *s, void *ctx) {
    each_args *x = ctx;
    acyclic *a;
    acyclic_graph *g = graph_of(s, x->graph, &a);
    if (!g || (uint64_t)g->num_edges + x->n > INT32_MAX || (x->n && (!x->each || !x->chunk))) return -1;
    if (!x->n) return g->num_edges;
    size_t chunk = x->chunk < x->n ? x->chunk : x->n;
    int *buf = xmalloc(2 * chunk * sizeof *buf);
    gsat_backtrack_root(s);
    int first = g->num_edges;
    int r = acyclic_add_fixed_each(a, g->node.data, (int)g->node.len, x->n, x->each, x->ctx, buf, chunk);
    for (size_t f = 0; r == 0 && f < x->n; f += chunk) {          /* the ids, before anything is added */
        size_t c = x->n - f < chunk ? x->n - f : chunk;
        x->each(x->ctx, f, c, buf);
        for (size_t i = 0; i < 2 * c && r == 0; i++)
            if (buf[i] < 0 || (size_t)buf[i] >= g->node.len) r = -1;
    }
    for (size_t f = 0; r == 0 && f < x->n; f += chunk) {
        size_t c = x->n - f < chunk ? x->n - f : chunk;
        x->each(x->ctx, f, c, buf);
        acyclic_add_fixed_edges(a, g->node.data, buf, c);
    }
    free(buf);
    if (r < 0) return -1;
    g->num_edges += (int)x->n;
    return first;
}

int gsat_graph_add_edges_each(gsat *s, int graph, size_t n, size_t chunk, gsat_ends_fn each, void *ctx) {
    if (gsat_error(s)) return -1;
    each_args x = { graph, n, chunk, each, ctx };
    return gsat_guard_call(s, __func__, add_edges_each, &x, -1);
}

int gsat_graph_set_runner(gsat *s, gs_run_fn run, void *ctx) {
    if (!acyclic_find(s)) return -1;             /* no graph: nothing would be created here */
    acyclic_set_runner(acyclic_of(s), run, ctx);
    return 0;
}

int gsat_graph_add_edges(gsat *s, int graph, const int *ends, size_t n) {
    if (gsat_error(s)) return -1;
    graph_args x = {.graph = graph, .ends = ends, .n = n};
    return gsat_guard_call(s, __func__, add_edges, &x, -1);
}

static int add_edge(gsat *s, void *ctx) {
    graph_args *x = ctx;
    acyclic *a;
    acyclic_graph *g = graph_of(s, x->graph, &a);
    int from = x->a, to = x->b;
    if (!g || from < 0 || to < 0 || (size_t)from >= g->node.len || (size_t)to >= g->node.len) return -1;
    if (g->num_edges == INT32_MAX) return -1;
    gsat_backtrack_root(s);
    acyclic_add_edge(a, g->node.data[from], g->node.data[to], x->lit);
    return g->num_edges++;
}

/* n edges in a row (gsat_graph_add_arcs, graph_sink.h): while one is
 * added, the node ids of the one 16 ahead and the fresh-list heads of the
 * one 8 ahead are asked for (a guarded edge's random reads: at 1M SI's
 * 1.4M edges, misses were most of the time of one call each). */
typedef struct arcs_args { int graph; const gs_arc *arcs; size_t n; } arcs_args;
static int add_arcs(gsat *s, void *ctx) {
    const arcs_args *x = ctx;
    acyclic *a;
    acyclic_graph *g = graph_of(s, x->graph, &a);
    if (!g) return -1;
    const gs_arc *arc = x->arcs;
    const size_t n = x->n, nodes = g->node.len;
    for (size_t i = 0; i < n; i++)
        if (arc[i].from < 0 || arc[i].to < 0 || (size_t)arc[i].from >= nodes || (size_t)arc[i].to >= nodes) return -1;
    if ((size_t)(INT32_MAX - g->num_edges) < n) return -1;
    gsat_backtrack_root(s);
    const int *node = g->node.data;
    int first = g->num_edges;
    for (size_t i = 0; i < n; i++) {
        if (i + 16 < n) { __builtin_prefetch(&node[arc[i + 16].from]); __builtin_prefetch(&node[arc[i + 16].to]); }
        if (i + 8 < n) acyclic_prefetch_guarded(a, node[arc[i + 8].from], node[arc[i + 8].to]);
        acyclic_add_edge(a, node[arc[i].from], node[arc[i].to], arc[i].lit);
        g->num_edges++;
    }
    return first;
}

int gsat_graph_add_arcs(gsat *s, int graph, const gs_arc *arcs, size_t n) {
    if (gsat_error(s)) return -1;
    for (size_t i = 0; i < n; i++)
        if (arcs[i].lit == INT32_MIN || arcs[i].lit > GSAT_MAX_VARS || arcs[i].lit < -GSAT_MAX_VARS) {
            gsat_fail(s, __func__, "guard %d is not a literal: |literal| <= GSAT_MAX_VARS (%d)", arcs[i].lit, GSAT_MAX_VARS);
            return -1;
        }
    arcs_args x = { graph, arcs, n };
    return gsat_guard_call(s, __func__, add_arcs, &x, -1);
}

int gsat_graph_add_edge(gsat *s, int graph, int from, int to, int lit) {
    if (gsat_error(s)) return -1;
    if (lit == INT32_MIN || lit > GSAT_MAX_VARS || lit < -GSAT_MAX_VARS) {
        gsat_fail(s, __func__, "guard %d is not a literal: |literal| <= GSAT_MAX_VARS (%d)", lit, GSAT_MAX_VARS);
        return -1;
    }
    graph_args x = {.graph = graph, .a = from, .b = to, .lit = lit};
    return gsat_guard_call(s, __func__, add_edge, &x, -1);
}
