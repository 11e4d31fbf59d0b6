/* depgraph.c — graph type, Kahn, cycle search, shortest cycles (contract
 * in depgraph.h). */
#include "frontend/checking/depgraph.h"

#include <stdlib.h>
#include <string.h>

void dg_build(dg_graph *g, uint32_t n, const dg_arc *arcs, size_t m, int with_ids) {
    g->n = n;
    g->start = xcalloc((size_t)n + 1, sizeof *g->start);
    g->adj = xmalloc((m + 1) * sizeof *g->adj);
    g->eid = with_ids ? xmalloc((m + 1) * sizeof *g->eid) : NULL;
    for (size_t i = 0; i < m; i++) g->start[arcs[i].from + 1]++;
    for (uint32_t u = 0; u < n; u++) g->start[u + 1] += g->start[u];
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, g->start, ((size_t)n + 1) * sizeof *fill);
    for (size_t i = 0; i < m; i++) {           /* stable: each node's arcs keep their order */
        uint32_t j = fill[arcs[i].from]++;
        g->adj[j] = arcs[i].to;
        if (with_ids) g->eid[j] = arcs[i].id;
    }
    free(fill);
}

void dg_free(dg_graph *g) {
    free(g->start); free(g->adj); free(g->eid);
    g->start = g->adj = g->eid = NULL;
    g->n = 0;
}

/* ---- a binary min-heap of (key, node), smaller node on equal keys ---- */

typedef struct heap_item { uint64_t key; uint32_t node; } heap_item;
typedef VEC(heap_item) heap_vec;

static int heap_less(heap_item a, heap_item b) { return a.key < b.key || (a.key == b.key && a.node < b.node); }

static void heap_push(heap_vec *h, uint64_t key, uint32_t node) {
    heap_item it = { key, node };
    vec_push(*h, it);
    size_t i = h->len - 1;
    while (i > 0 && heap_less(h->data[i], h->data[(i - 1) / 2])) {
        heap_item t = h->data[i]; h->data[i] = h->data[(i - 1) / 2]; h->data[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static heap_item heap_pop(heap_vec *h) {
    heap_item top = h->data[0];
    h->data[0] = h->data[--h->len];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->len && heap_less(h->data[l], h->data[m])) m = l;
        if (r < h->len && heap_less(h->data[r], h->data[m])) m = r;
        if (m == i) break;
        heap_item t = h->data[i]; h->data[i] = h->data[m]; h->data[m] = t;
        i = m;
    }
    return top;
}

/* ---- Kahn ------------------------------------------------------------ */

/* A node is placed when its in-degree drops to 0 (or a cycle is broken
 * at it), and every node at 0 is placed before the ready nodes run out, so
 * when they do "not placed" is "in-degree above 0": no separate marks, and
 * one random access an arc fewer (at 10M transactions SI, 54M arcs). */

/* In-degrees, each arc's target asked for some arcs ahead (the targets
 * are met at random over the nodes).  Hints only. */
#define TOPO_AHEAD 16
static uint32_t *in_degrees(const dg_graph *g) {
    uint32_t n = g->n, m = g->start[n];
    uint32_t *indeg = xcalloc(n ? n : 1, sizeof *indeg);
    for (uint32_t j = 0; j < m; j++) {
        if (j + TOPO_AHEAD < m) __builtin_prefetch(&indeg[g->adj[j + TOPO_AHEAD]], 1);
        indeg[g->adj[j]]++;
    }
    return indeg;
}

/* First come first served: the ready nodes are queued in order itself (a
 * node leaves the queue where it is placed), so that the nodes a few
 * places ahead are known: their arcs and their targets' in-degrees are
 * asked for before their turn.  Node v's in-degree is deg[v * S]; with
 * S == 2 its depth is kept beside it, in the same cache line, at
 * deg[2 v + 1] (the longest path to v from a node of in-degree 0: an arc
 * u -> v gives v at least u's depth + 1). */
static inline __attribute__((always_inline)) int topo_core(const dg_graph *g, int break_cycles, uint32_t *order,
                                                         uint32_t *deg, const unsigned S) {
    uint32_t n = g->n, head = 0, tail = 0, scan = 0;   /* nodes below scan are placed */
    int acyclic = 1;
    if (S == 2) for (uint32_t u = 0; u < n; u++) deg[2 * u + 1] = 0;
    for (uint32_t u = 0; u < n; u++) if (!deg[u * S]) order[tail++] = u;
    while (head < n) {
        if (head == tail) {
            acyclic = 0;
            while (scan < n && !deg[scan * S]) scan++;
            if (!break_cycles) {               /* the rest in index order */
                for (uint32_t u = scan; u < n; u++) if (deg[u * S]) order[tail++] = u;
                break;
            }
            deg[scan * S] = 0;
            order[tail++] = scan;
        }
        if (head + TOPO_AHEAD < tail) {
            uint32_t w = order[head + TOPO_AHEAD];
            __builtin_prefetch(&g->start[w]);
            __builtin_prefetch(&g->adj[g->start[w]]);
        }
        if (head + TOPO_AHEAD / 2 < tail) {
            uint32_t w = order[head + TOPO_AHEAD / 2];
            for (uint32_t j = g->start[w]; j < g->start[w + 1]; j++) __builtin_prefetch(&deg[g->adj[j] * S], 1);
        }
        uint32_t u = order[head++], du = S == 2 ? deg[2 * u + 1] + 1 : 0;
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
            uint32_t v = g->adj[j];
            if (S == 2 && deg[2 * v + 1] < du) deg[2 * v + 1] = du;
            if (deg[v * S] && --deg[v * S] == 0) order[tail++] = v;
        }
    }
    return acyclic;
}

static int topo_fifo(const dg_graph *g, int break_cycles, uint32_t *order, uint32_t *indeg) {
    return topo_core(g, break_cycles, order, indeg, 1);
}

int dg_topo_order_depth(const dg_graph *g, uint32_t *deg, uint32_t *order) {
    return topo_core(g, 0, order, deg, 2);
}

int dg_topo_order_from(const dg_graph *g, uint32_t *indeg, uint32_t *order) {
    return topo_fifo(g, 0, order, indeg);
}

int dg_topo_order(const dg_graph *g, int by_index, int break_cycles, uint32_t *order) {
    uint32_t n = g->n, placed = 0;
    uint32_t *indeg = in_degrees(g);
    if (!by_index) {
        int acyclic = topo_fifo(g, break_cycles, order, indeg);
        free(indeg);
        return acyclic;
    }
    heap_vec ready; vec_init(ready);
    for (uint32_t u = 0; u < n; u++) if (!indeg[u]) heap_push(&ready, 0, u);
    int acyclic = 1;
    uint32_t scan = 0;                         /* nodes below it are placed */
    while (placed < n) {
        if (!ready.len) {
            acyclic = 0;
            while (scan < n && !indeg[scan]) scan++;
            if (!break_cycles) {               /* the rest in index order */
                for (uint32_t u = scan; u < n; u++) if (indeg[u]) order[placed++] = u;
                break;
            }
            indeg[scan] = 0;
            heap_push(&ready, 0, scan);
        }
        uint32_t u = heap_pop(&ready).node;
        order[placed++] = u;
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
            uint32_t v = g->adj[j];
            if (indeg[v] && --indeg[v] == 0) heap_push(&ready, 0, v);
        }
    }
    free(indeg); vec_free(ready);
    return acyclic;
}

/* ---- cycles ------------------------------------------------------------ */

static int skipped(dg_mask m, uint32_t v) { return m.skip && m.skip[v >> m.shift]; }

int dg_find_cycle(const dg_graph *g, dg_mask mask, vec_u32 *cyc) {
    uint8_t *color = xcalloc(g->n ? g->n : 1, 1);        /* 1: on the stack, 2: finished */
    uint32_t *it = xmalloc((g->n ? g->n : 1) * sizeof *it);
    vec_u32 st; vec_init(st);
    int found = 0;
    for (uint32_t s = 0; s < g->n && !found; s++) {
        if (color[s] || skipped(mask, s)) continue;
        vec_push(st, s); color[s] = 1; it[s] = g->start[s];
        while (st.len && !found) {
            uint32_t u = vec_last(st);
            if (it[u] < g->start[u + 1]) {
                uint32_t v = g->adj[it[u]++];
                if (skipped(mask, v)) continue;
                if (!color[v]) { color[v] = 1; it[v] = g->start[v]; vec_push(st, v); }
                else if (color[v] == 1) {                /* back edge: the stack from v is a cycle */
                    size_t i = st.len;
                    while (st.data[--i] != v) {}
                    for (; i < st.len; i++) vec_push(*cyc, st.data[i]);
                    found = 1;
                }
            } else { color[u] = 2; st.len--; }
        }
        vec_clear(st);
    }
    vec_free(st); free(color); free(it);
    return found;
}

int dg_shortest_cycle_through(const dg_graph *g, dg_mask mask, uint32_t s, uint32_t *par, uint32_t *queue,
                              vec_u32 *out) {
    for (uint32_t u = 0; u < g->n; u++) par[u] = DG_NONE;
    uint32_t qh = 0, qt = 0;
    queue[qt++] = s; par[s] = s;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
            uint32_t v = g->adj[j];
            if (v == s) {
                vec_clear(*out);
                for (uint32_t x = u;; x = par[x]) { vec_push(*out, x); if (x == s) break; }
                return 1;
            }
            if (par[v] == DG_NONE && !skipped(mask, v)) { par[v] = u; queue[qt++] = v; }
        }
    }
    return 0;
}

int dg_min_weight_cycle(const dg_graph *g, const uint32_t *weight, vec_u32 *arcs) {
    uint32_t n = g->n;
    uint64_t *dist = xmalloc((n ? n : 1) * sizeof *dist);
    uint32_t *pl = xmalloc((n ? n : 1) * sizeof *pl);     /* arc (CSR index) into the node */
    uint32_t *tail = xmalloc((g->start[n] + 1) * sizeof *tail);
    uint8_t *done = xmalloc(n ? n : 1);
    for (uint32_t u = 0; u < n; u++) for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) tail[j] = u;
#define W(j) (g->eid[j] == DG_NONE ? 0 : (uint64_t)weight[g->eid[j]])
    uint64_t best = UINT64_MAX;
    vec_u32 best_path; vec_init(best_path);              /* CSR arcs, closing arc first, backwards */
    heap_vec heap; vec_init(heap);
    for (uint32_t s = 0; s < n; s++) {
        for (uint32_t u = 0; u < n; u++) { dist[u] = UINT64_MAX; done[u] = 0; pl[u] = DG_NONE; }
        dist[s] = 0;
        vec_clear(heap);
        heap_push(&heap, 0, s);
        while (heap.len) {
            heap_item top = heap_pop(&heap);
            uint32_t u = top.node;
            if (done[u] || top.key != dist[u]) continue;
            if (dist[u] >= best) break;
            done[u] = 1;
            for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
                uint32_t v = g->adj[j];
                uint64_t d = dist[u] + W(j);
                if (v == s) {
                    if (d < best && d > 0) {
                        best = d;
                        vec_clear(best_path);
                        vec_push(best_path, j);
                        for (uint32_t x = u; x != s; x = tail[pl[x]]) vec_push(best_path, pl[x]);
                    }
                    continue;
                }
                if (d < dist[v]) { dist[v] = d; pl[v] = j; heap_push(&heap, d, v); }
            }
        }
    }
#undef W
    vec_clear(*arcs);
    for (size_t i = best_path.len; i-- > 0;) vec_push(*arcs, g->eid[best_path.data[i]]);
    free(dist); free(pl); free(tail); free(done);
    vec_free(best_path); vec_free(heap);
    return best != UINT64_MAX;
}
