/* reach.c — reachability summary of a polygraph's known graph.
 *
 * Almost every transaction lies on a session chain (session order makes
 * each session a path of the graph, in the split graph T'0 T0 T'1 T1 ...),
 * so reachability is summarized per node as the earliest position it
 * reaches on every chain: reach[u][c] = min position on chain c reachable
 * from u.  Since a chain is a path, u reaches v iff reach[u][chain v] <=
 * pos v.  Computed in reverse topological order (Kahn): O((V + E) * chains)
 * time and V * chains words — linear in the history, unlike PolySI's full
 * transitive closure.
 *
 * When the known graph has a cycle, acyclic is 0 and topo_pos orders the
 * nodes Kahn could not place after the others (an approximate order, used
 * only to pick a version order for the failure report). */
#include "frontend/checking/polygraph.h"

#include <stdlib.h>
#include <string.h>

static int compute(polygraph *g, int want_reach) {
    const pg_index *ix = g->ix;
    uint32_t N = g->num_nodes, S = g->num_chains;
    size_t E = g->known.len;
    uint32_t *start = xcalloc((size_t)N + 1, sizeof *start);
    uint32_t *indeg = xcalloc(N ? N : 1, sizeof *indeg);
    for (size_t i = 0; i < E; i++) { start[g->known.data[i].from + 1]++; indeg[g->known.data[i].to]++; }
    if (g->split)
        for (uint32_t t = 0; t < ix->h->num_txns; t++)
            if (ix->in_graph[t]) { start[2 * t + 1 + 1]++; indeg[2 * t]++; }
    for (uint32_t u = 0; u < N; u++) start[u + 1] += start[u];
    uint32_t *adj = xmalloc(((size_t)start[N] ? start[N] : 1) * sizeof *adj);
    {
        uint32_t *fill = xmalloc(((size_t)N + 1) * sizeof *fill);
        memcpy(fill, start, ((size_t)N + 1) * sizeof *fill);
        for (size_t i = 0; i < E; i++) adj[fill[g->known.data[i].from]++] = g->known.data[i].to;
        if (g->split)
            for (uint32_t t = 0; t < ix->h->num_txns; t++)
                if (ix->in_graph[t]) adj[fill[2 * t + 1]++] = 2 * t;
        free(fill);
    }
    /* Kahn */
    uint32_t *order = xmalloc((N ? N : 1) * sizeof *order);
    uint32_t head = 0, tail = 0;
    for (uint32_t u = 0; u < N; u++) if (!indeg[u]) order[tail++] = u;
    while (head < tail) {
        uint32_t u = order[head++];
        for (uint32_t j = start[u]; j < start[u + 1]; j++)
            if (--indeg[adj[j]] == 0) order[tail++] = adj[j];
    }
    g->acyclic = tail == N;
    if (!g->acyclic)
        for (uint32_t u = 0; u < N; u++) if (indeg[u]) order[tail++] = u;
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
    free(start); free(indeg); free(adj); free(order);
    return g->acyclic;
}

int pg_reach(polygraph *g) { return compute(g, 1); }
int pg_order(polygraph *g) { return compute(g, 0); }
