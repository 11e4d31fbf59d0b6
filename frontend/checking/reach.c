/* reach.c — reachability summary of a polygraph's known graph.
 *
 * Almost every transaction lies on a session chain (session order makes
 * each session a path of the graph, in the split graph T'0 T0 T'1 T1 ...),
 * so reachability is summarized per node as the earliest position it
 * reaches on every chain: reach[u][c] = min position on chain c reachable
 * from u.  Since a chain is a path, u reaches v iff reach[u][chain v] <=
 * pos v.  Computed in reverse topological order (depgraph.h): O((V + E) * chains)
 * time and V * chains words — linear in the history, unlike PolySI's full
 * transitive closure.
 *
 * When the known graph has a cycle, acyclic is 0 and topo_pos orders the
 * nodes Kahn could not place after the others (an approximate order, used
 * only to pick a version order for the failure report). */
#include "frontend/checking/polygraph.h"
#include "frontend/checking/depgraph.h"

#include <stdlib.h>
#include <string.h>

static int compute(polygraph *g, int want_reach) {
    const pg_index *ix = g->ix;
    uint32_t N = g->num_nodes, S = g->num_chains;
    size_t E = g->known.len;
    /* the known edges, then the fixed ones: start(t) -> commit(t) */
    dg_arc_vec arcs; vec_init(arcs);
    vec_reserve(arcs, E + (g->split ? ix->h->num_txns : 0));
    for (size_t i = 0; i < E; i++) { dg_arc a = { g->known.data[i].from, g->known.data[i].to, DG_NONE }; vec_push(arcs, a); }
    if (g->split)
        for (uint32_t t = 0; t < ix->h->num_txns; t++)
            if (ix->in_graph[t]) { dg_arc a = { dg_start(t), dg_commit(t), DG_NONE }; vec_push(arcs, a); }
    dg_graph dg;
    dg_build(&dg, N, arcs.data, arcs.len, 0);
    vec_free(arcs);
    const uint32_t *start = dg.start, *adj = dg.adj;
    uint32_t *order = xmalloc((N ? N : 1) * sizeof *order);
    g->acyclic = dg_topo_order(&dg, 0, 0, order);
    if (!g->topo_pos) g->topo_pos = xmalloc((N ? N : 1) * sizeof *g->topo_pos);
    for (uint32_t i = 0; i < N; i++) g->topo_pos[order[i]] = i;

    if (g->acyclic && want_reach) {
        if (!g->reach) g->reach = xmalloc(((size_t)N * S + 1) * sizeof *g->reach);
        for (uint32_t i = N; i-- > 0;) {
            uint32_t u = order[i];
            uint32_t *row = g->reach + (size_t)u * S;
            memset(row, 0xff, (size_t)S * sizeof *row);
            uint32_t c = pg_node_chain(g, u);
            if (c != HISTORY_NONE) row[c] = pg_node_pos(g, u);
            for (uint32_t j = start[u]; j < start[u + 1]; j++) {
                const uint32_t *rv = g->reach + (size_t)adj[j] * S;
                for (uint32_t x = 0; x < S; x++) if (rv[x] < row[x]) row[x] = rv[x];
            }
        }
    }
    dg_free(&dg);
    free(order);
    return g->acyclic;
}

int pg_reach(polygraph *g) { return compute(g, 1); }
int pg_order(polygraph *g) { return compute(g, 0); }
