/* encode.c — the pruned polygraph as one acyclicity constraint of the
 * engine: known edges are unguarded, and constraint i's variable x guards
 * the edges of side u<v with x and those of side v<u with -x.  No clauses
 * and no composition variables: under SI the graph is the split graph
 * (design.md §3), whose cycles are exactly those of D ; RW?.
 *
 * Nodes are numbered by the known graph's topological order (topo_pos of
 * the last pg_reach, which pruning leaves current), so every unguarded
 * edge goes forward in the engine's initial order and costs nothing to
 * insert into its Pearce–Kelly order. */
#include "frontend/check.h"

static void add_deps(const polygraph *g, gsat *s, int graph, const dep_edge_vec *deps, int lit, uint64_t *count) {
    vec_foreach(const dep_edge, e, *deps) {
        uint32_t a, b;
        if (e->kind == DEP_RW) { a = pg_node_tp(g, e->from); b = pg_node_t(g, e->to); }
        else { a = pg_node_t(g, e->from); b = pg_node_tp(g, e->to); }
        gsat_graph_add_edge(s, graph, (int)g->topo_pos[a], (int)g->topo_pos[b], lit);
        (*count)++;
    }
}

int pg_encode(const polygraph *g, gsat *s, uint64_t *guarded_edges) {
    const pg_index *ix = g->ix;
    int graph = gsat_graph_new(s, (int)g->num_nodes);
    const uint32_t *ord = g->topo_pos;
    vec_foreach(const pg_edge, e, g->known) gsat_graph_add_edge(s, graph, (int)ord[e->from], (int)ord[e->to], 0);
    if (g->split)
        for (uint32_t t = 0; t < ix->h->num_txns; t++)
            if (ix->in_graph[t]) gsat_graph_add_edge(s, graph, (int)ord[2 * t + 1], (int)ord[2 * t], 0);
    int first = gsat_num_vars(s) + 1;
    if (g->cons.len) gsat_reserve_vars(s, first - 1 + (int)g->cons.len);
    dep_edge_vec deps; vec_init(deps);
    uint64_t count = 0;
    for (size_t i = 0; i < g->cons.len; i++) {
        int x = first + (int)i;
        vec_clear(deps);
        pg_side_deps(g, g->cons.data[i].u, g->cons.data[i].v, &deps);
        add_deps(g, s, graph, &deps, x, &count);
        vec_clear(deps);
        pg_side_deps(g, g->cons.data[i].v, g->cons.data[i].u, &deps);
        add_deps(g, s, graph, &deps, -x, &count);
    }
    vec_free(deps);
    if (guarded_edges) *guarded_edges = count;
    return first;
}
