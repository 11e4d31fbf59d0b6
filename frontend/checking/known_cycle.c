/* known_cycle.c — a cycle of the known graph (contract in known_cycle.h).
 *
 * Kahn's algorithm strips every node no cycle reaches back to; each node
 * left has a predecessor left, so walking predecessors from one repeats a
 * node x on a cycle; a breadth-first search from x gives a shortest cycle
 * through x.  A FAIL at stage "known graph" under a choice of writers shows
 * this cycle (check.c): every edge of it holds whichever write each read of
 * a repeated value saw, where the version order's cycle may use a chosen
 * writer or a WW edge only that order gives. */
#include "frontend/checking/known_cycle.h"

#include <stdlib.h>
#include <string.h>

int pg_known_cycle(const polygraph *g, dep_edge_vec *out) {
    if (g->split || !g->num_nodes) return 0;
    uint32_t n = g->num_nodes;
    size_t m = g->known.len;
    uint32_t *start = xcalloc((size_t)n + 2, sizeof *start), *deg = xcalloc(n, sizeof *deg);
    uint32_t *adj = xmalloc((m ? m : 1) * sizeof *adj), *queue = xmalloc((size_t)n * sizeof *queue);
    for (size_t i = 0; i < m; i++) { start[g->known.data[i].from + 2]++; deg[g->known.data[i].to]++; }
    for (uint32_t v = 0; v < n; v++) start[v + 2] += start[v + 1];
    for (size_t i = 0; i < m; i++) adj[start[g->known.data[i].from + 1]++] = (uint32_t)i;   /* start[v]..start[v+1]: v's edges */
    uint32_t qh = 0, qt = 0;
    for (uint32_t v = 0; v < n; v++) if (!deg[v]) queue[qt++] = v;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint32_t j = start[u]; j < start[u + 1]; j++)
            if (--deg[g->known.data[adj[j]].to] == 0) queue[qt++] = g->known.data[adj[j]].to;
    }
    int found = 0;
    if (qt < n) {
        uint32_t *pred = deg, x = 0;                   /* deg > 0: left by Kahn; reused as a predecessor edge */
        uint8_t *left = xcalloc(n, 1), *seen = xcalloc(n, 1);
        for (uint32_t v = 0; v < n; v++) left[v] = deg[v] > 0;
        for (size_t i = 0; i < m; i++) {
            const pg_edge *e = &g->known.data[i];
            if (left[e->from] && left[e->to]) pred[e->to] = (uint32_t)i;
        }
        for (x = 0; !left[x]; x++) {}
        while (!seen[x]) { seen[x] = 1; x = g->known.data[pred[x]].from; }   /* x: on a cycle */
        uint32_t *via = xmalloc((size_t)n * sizeof *via), last = UINT32_MAX;
        memset(seen, 0, n);
        qh = qt = 0;
        queue[qt++] = x;
        seen[x] = 1;
        while (qh < qt && last == UINT32_MAX) {
            uint32_t u = queue[qh++];
            for (uint32_t j = start[u]; j < start[u + 1] && last == UINT32_MAX; j++) {
                uint32_t to = g->known.data[adj[j]].to;
                if (!left[to]) continue;
                if (to == x) last = adj[j];
                else if (!seen[to]) { seen[to] = 1; via[to] = adj[j]; queue[qt++] = to; }
            }
        }
        if (last != UINT32_MAX) {                      /* x -> ... -> from(last) -> x, collected backwards */
            size_t at = out->len;
            for (uint32_t e = last;;) {
                const pg_edge *p = &g->known.data[e];
                dep_edge d = { pg_node_txn(g, p->from), pg_node_txn(g, p->to), PG_KEY(p->meta), (uint8_t)PG_KIND(p->meta) };
                vec_push(*out, d);
                if (p->from == x) break;
                e = via[p->from];
            }
            for (size_t a = at, b = out->len - 1; a < b; a++, b--) {
                dep_edge t = out->data[a]; out->data[a] = out->data[b]; out->data[b] = t;
            }
            found = 1;
        }
        free(via); free(left); free(seen);
    }
    free(start); free(deg); free(adj); free(queue);
    return found;
}
