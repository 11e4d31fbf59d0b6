/* weak_graph.c — the saturated graph of a weak-level check
 * (weak_internal.h): SO and WR edges read off the index, the list and
 * premise edges of w->extra; its topological sort (Kahn, INIT first) and,
 * when it has a cycle, a short one: the nodes left by the sort are closed
 * under successors and each has a predecessor among them, so a walk back
 * along them repeats a node, which lies on a cycle; a breadth-first search from it (and from a few more nodes of that
 * cycle) gives a shortest cycle through each, the shortest is kept.
 * Linear in the graph per search. */
#include "frontend/checking/weak_internal.h"

#include <stdlib.h>
#include <string.h>

#include "fatal.h"

enum { TAG_SO = 0u, TAG_WR = 1u, TAG_EXTRA = 2u };
#define TAG(kind, i) ((uint32_t)(kind) << 30 | (uint32_t)(i))
#define TAG_KIND(t) ((t) >> 30)
#define TAG_INDEX(t) ((t) & 0x3fffffffu)
#define MAX_STARTS 8

typedef struct csr { uint32_t *start; uint32_t *to, *tag; } csr;

/* Calls f(ctx, from, to, tag) for every edge. */
#define FOR_EDGES(w, with_extra, BODY)                                                              \
    do {                                                                                            \
        for (uint32_t t_ = 1; t_ < (w)->n; t_++) {                                                  \
            if (!(w)->part[t_]) continue;                                                           \
            if ((w)->prev_so[t_] != HISTORY_NONE) { uint32_t F = (w)->prev_so[t_], T = t_, G = TAG(TAG_SO, 0); BODY; } \
            for (uint32_t r_ = (w)->rd_start[t_]; r_ < (w)->rd_start[t_ + 1]; r_++)                \
                if ((w)->rd[r_].src != 0 && (w)->rd[r_].src != t_) {                               \
                    uint32_t F = (w)->rd[r_].src, T = t_, G = TAG(TAG_WR, r_); BODY;               \
                }                                                                                   \
        }                                                                                           \
        if (with_extra)                                                                             \
            for (uint32_t e_ = 0; e_ < (w)->extra.len; e_++) {                                     \
                uint32_t F = (w)->extra.data[e_].from, T = (w)->extra.data[e_].to, G = TAG(TAG_EXTRA, e_); \
                if (F != 0 && T != 0) { BODY; }                                                     \
            }                                                                                       \
    } while (0)

static void csr_build(const wk *w, int with_extra, csr *g) {
    g->start = xcalloc((size_t)w->n + 1, sizeof *g->start);
    FOR_EDGES(w, with_extra, { (void)T; (void)G; g->start[F + 1]++; });
    for (uint32_t t = 0; t < w->n; t++) g->start[t + 1] += g->start[t];
    size_t m = g->start[w->n];
    g->to = xmalloc((m ? m : 1) * sizeof *g->to);
    g->tag = xmalloc((m ? m : 1) * sizeof *g->tag);
    uint32_t *fill = xmalloc(((size_t)w->n + 1) * sizeof *fill);
    memcpy(fill, g->start, ((size_t)w->n + 1) * sizeof *fill);
    FOR_EDGES(w, with_extra, { g->to[fill[F]] = T; g->tag[fill[F]++] = G; });
    free(fill);
}

static void csr_free(csr *g) { free(g->start); free(g->to); free(g->tag); }

static void edge_of(const wk *w, uint32_t from, uint32_t to, uint32_t tag, weak_edge *e) {
    const history *h = w->h;
    memset(e, 0, sizeof *e);
    e->from = from; e->to = to;
    e->key = HISTORY_NONE; e->read_op = e->reader = e->vis_op = HISTORY_NONE;
    uint32_t i = TAG_INDEX(tag);
    if (TAG_KIND(tag) == TAG_SO) { e->basis = WB_SO; return; }
    if (TAG_KIND(tag) == TAG_WR) {
        e->basis = WB_WR; e->read_op = w->rd[i].op; e->key = h->op_key[e->read_op];
        return;
    }
    const wk_extra *x = &w->extra.data[i];
    e->basis = x->basis; e->via = x->via;
    e->read_op = x->read_op; e->key = h->op_key[x->read_op];
    e->vis_op = x->vis_op;
    if (x->basis == WB_PREMISE) e->reader = history_op_txn(h, x->read_op);
}

/* Shortest cycle through v among nodes reachable from it: its edges into
 * cyc (cleared first); 0 if none. */
static uint32_t bfs_cycle(const wk *w, const csr *g, uint32_t v, uint32_t *par, uint32_t *ptag, uint32_t *seen,
                          uint32_t mark, uint32_t *queue, weak_edge_vec *cyc) {
    uint32_t qh = 0, qt = 0, last = HISTORY_NONE, last_tag = 0;
    queue[qt++] = v;
    seen[v] = mark;
    while (qh < qt && last == HISTORY_NONE) {
        uint32_t u = queue[qh++];
        for (uint32_t i = g->start[u]; i < g->start[u + 1]; i++) {
            uint32_t t = g->to[i];
            if (t == v) { last = u; last_tag = g->tag[i]; break; }
            if (seen[t] == mark) continue;
            seen[t] = mark; par[t] = u; ptag[t] = g->tag[i];
            queue[qt++] = t;
        }
    }
    if (last == HISTORY_NONE) return 0;
    vec_clear(*cyc);
    weak_edge e;
    edge_of(w, last, v, last_tag, &e);
    vec_push(*cyc, e);
    for (uint32_t u = last; u != v; u = par[u]) {
        edge_of(w, par[u], u, ptag[u], &e);
        vec_push(*cyc, e);
    }
    for (size_t i = 0, j = cyc->len - 1; i < j; i++, j--) { weak_edge t = cyc->data[i]; cyc->data[i] = cyc->data[j]; cyc->data[j] = t; }
    return (uint32_t)cyc->len;
}

static void find_cycle(const wk *w, const csr *g, const uint32_t *indeg, weak_result *res) {
    uint32_t *par = xmalloc((size_t)w->n * sizeof *par), *ptag = xmalloc((size_t)w->n * sizeof *ptag);
    uint32_t *seen = xcalloc(w->n, sizeof *seen), *queue = xmalloc((size_t)w->n * sizeof *queue);
    /* every node the sort left has a predecessor it left: walk back until one repeats */
    uint32_t m = g->start[w->n], *pstart = xcalloc((size_t)w->n + 1, sizeof *pstart), *pred = xmalloc((m ? m : 1) * sizeof *pred);
    for (uint32_t i = 0; i < m; i++) pstart[g->to[i] + 1]++;
    for (uint32_t t = 0; t < w->n; t++) pstart[t + 1] += pstart[t];
    for (uint32_t f = 0; f < w->n; f++)
        for (uint32_t i = g->start[f]; i < g->start[f + 1]; i++) pred[pstart[g->to[i]]++] = f;   /* pstart[t] ends at t's end */
    uint32_t u = 1;
    while (u < w->n && (!w->part[u] || indeg[u] == 0)) u++;
    if (u == w->n) internal_error("weak_graph", "the sort stopped early but left no node");
    for (uint32_t step = 1; seen[u] == 0; step++) {
        seen[u] = step;
        uint32_t i = u ? pstart[u - 1] : 0;
        while (indeg[pred[i]] == 0) i++;
        u = pred[i];
    }
    free(pstart); free(pred);
    memset(seen, 0, (size_t)w->n * sizeof *seen);
    weak_edge_vec cyc; vec_init(cyc);
    vec_clear(res->cycle);
    uint32_t best = bfs_cycle(w, g, u, par, ptag, seen, 1, queue, &res->cycle);
    uint32_t starts = best < MAX_STARTS ? best : MAX_STARTS;
    for (uint32_t i = 1; i < starts && best > 2; i++) {
        uint32_t len = bfs_cycle(w, g, res->cycle.data[i].from, par, ptag, seen, i + 1, queue, &cyc);
        if (len && len < best) {
            best = len;
            vec_clear(res->cycle);
            vec_foreach(weak_edge, e, cyc) vec_push(res->cycle, *e);
            i = 0;
            starts = best < MAX_STARTS ? best : MAX_STARTS;
        }
    }
    vec_free(cyc);
    free(par); free(ptag); free(seen); free(queue);
}

int wk_sort(wk *w, int with_extra, uint32_t *order, uint32_t *len, weak_result *res) {
    if (with_extra && w->init_edge >= 0) {               /* t2 → INIT, and INIT precedes t2 */
        const wk_extra *x = &w->extra.data[w->init_edge];
        weak_edge e;
        edge_of(w, x->from, 0, TAG(TAG_EXTRA, (uint32_t)w->init_edge), &e);
        vec_clear(res->cycle);
        vec_push(res->cycle, e);
        memset(&e, 0, sizeof e);
        e.from = 0; e.to = x->from; e.key = w->h->op_key[x->read_op]; e.basis = WB_INIT;
        e.read_op = e.reader = e.vis_op = HISTORY_NONE;
        vec_push(res->cycle, e);
        return 0;
    }
    csr g;
    csr_build(w, with_extra, &g);
    uint32_t *indeg = xcalloc(w->n, sizeof *indeg);
    for (size_t i = 0; i < g.start[w->n]; i++) indeg[g.to[i]]++;
    uint32_t qt = 0, total = 0;
    order[qt++] = 0;
    for (uint32_t t = 1; t < w->n; t++)
        if (w->part[t]) { total++; if (indeg[t] == 0) order[qt++] = t; }
    for (uint32_t qh = 1; qh < qt; qh++) {
        uint32_t u = order[qh];
        for (uint32_t i = g.start[u]; i < g.start[u + 1]; i++)
            if (--indeg[g.to[i]] == 0) order[qt++] = g.to[i];
    }
    *len = qt;
    int ok = qt == total + 1;
    if (!ok) find_cycle(w, &g, indeg, res);
    free(indeg);
    csr_free(&g);
    return ok;
}

void wk_causal_path(const wk *w, uint32_t a, uint32_t b, weak_result *res, uint32_t *first, uint32_t *len) {
    /* backwards from b over B's in-edges (session predecessor, read sources) */
    uint32_t *next = xmalloc((size_t)w->n * sizeof *next), *ntag = xmalloc((size_t)w->n * sizeof *ntag);
    uint32_t *queue = xmalloc((size_t)w->n * sizeof *queue);
    uint8_t *seen = xcalloc(w->n, 1);
    uint32_t qh = 0, qt = 0;
    queue[qt++] = b; seen[b] = 1;
    while (qh < qt && !seen[a]) {
        uint32_t v = queue[qh++];
        if (w->prev_so[v] != HISTORY_NONE && !seen[w->prev_so[v]]) {
            uint32_t p = w->prev_so[v];
            seen[p] = 1; next[p] = v; ntag[p] = TAG(TAG_SO, 0); queue[qt++] = p;
        }
        for (uint32_t r = w->rd_start[v]; r < w->rd_start[v + 1]; r++) {
            uint32_t p = w->rd[r].src;
            if (p == 0 || seen[p]) continue;
            seen[p] = 1; next[p] = v; ntag[p] = TAG(TAG_WR, r); queue[qt++] = p;
        }
    }
    *first = (uint32_t)res->paths.len;
    *len = 0;
    for (uint32_t u = a; seen[a] && u != b; u = next[u]) {
        weak_edge e;
        edge_of(w, u, next[u], ntag[u], &e);
        vec_push(res->paths, e);
        (*len)++;
    }
    free(next); free(ntag); free(queue); free(seen);
}
