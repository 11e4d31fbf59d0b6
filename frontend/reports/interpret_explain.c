/* interpret_explain.c — why a version order fact behind a WW or RW edge is
 * forced: the cycle its opposite would close (interpret_internal.h). */
#include "frontend/reports/interpret_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- why a version order fact is forced ----------------------------------- */

typedef struct xedge { uint32_t x, y; dep_edge e; } xedge;
typedef VEC(xedge) xedge_vec;

static int cmp_xedge(const void *a, const void *b) {
    const xedge *p = a, *q = b;
    return (p->x > q->x) - (p->x < q->x);
}

static void add_x(const ictx *c, xedge_vec *v, dep_kind kind, uint32_t key, uint32_t from, uint32_t to) {
    if (from == to) return;
    xedge xe;
    xe.e = (dep_edge){ from, to, key, (uint8_t)kind };
    interp_node_pair(c->si, &xe.e, &xe.x, &xe.y);
    vec_push(*v, xe);
}

/* Would "b's version of key precedes a's" close a violating cycle with what
 * the history fixes?  If so, put that cycle (starting with its hypothetical
 * edge) in alt and return 1. */
static int opposite_cycle(const ictx *c, int maxcls, uint32_t a, uint32_t b, uint32_t key, dep_edge_vec *alt) {
    const history *h = c->h;
    xedge_vec ex; vec_init(ex);
    add_x(c, &ex, DEP_WW, key, b, a);
    uint32_t gb = ictx_vidx(c, key, b);
    if (gb != NONE)
        for (uint32_t i = c->rd_start[gb]; i < c->rd_start[gb + 1]; i++) add_x(c, &ex, DEP_RW, key, c->rd.data[i], a);
    /* b's read-modify-write ancestors s are before b, hence before a: their
     * other readers read a version older than their successor's */
    uint32_t v = b;
    for (int steps = 0; steps < 64 && v != 0; steps++) {
        uint32_t s = ictx_read_src(c, v, key);
        if (s == NONE || history_txn_final_write(h, v, key) == NONE) break;
        uint32_t gs = ictx_vidx(c, key, s);
        if (gs == NONE) break;
        for (uint32_t i = c->rd_start[gs]; i < c->rd_start[gs + 1]; i++)
            if (c->rd.data[i] != v) add_x(c, &ex, DEP_RW, key, c->rd.data[i], v);
        v = s;
    }
    if (ex.len) qsort(ex.data, ex.len, sizeof *ex.data, cmp_xedge);
    const dg_graph *g = &c->g;
    uint32_t *par = xmalloc((size_t)g->n * sizeof *par);        /* parent node */
    uint32_t *pe = xmalloc((size_t)g->n * sizeof *pe);          /* arc into node: its index, NONE-1-i extra i */
    uint32_t *queue = xmalloc((size_t)g->n * sizeof *queue);
    vec_u32 stamp_nodes; vec_init(stamp_nodes);
    for (uint32_t u = 0; u < g->n; u++) par[u] = NONE;
    int found = 0;
    size_t best_len = SIZE_MAX;
    for (size_t ti = 0; ti < ex.len; ti++) {
        uint32_t y = ex.data[ti].y;
        int dup = 0;
        for (size_t tj = 0; tj < ti; tj++) if (ex.data[tj].y == y) { dup = 1; break; }
        if (dup) continue;
        /* BFS from y over known + extra edges until a source x of an extra edge x->y */
        for (size_t i = 0; i < stamp_nodes.len; i++) par[stamp_nodes.data[i]] = NONE;
        vec_clear(stamp_nodes);
        uint32_t qh = 0, qt = 0, hit = NONE, hit_edge = NONE;
        queue[qt++] = y; par[y] = y; pe[y] = NONE; vec_push(stamp_nodes, y);
        while (qh < qt && hit == NONE) {
            uint32_t u = queue[qh++];
            /* does an extra edge u -> y close it? */
            size_t lo = 0, hi = ex.len;
            while (lo < hi) { size_t mid = (lo + hi) / 2; if (ex.data[mid].x < u) lo = mid + 1; else hi = mid; }
            for (size_t j = lo; j < ex.len && ex.data[j].x == u; j++)
                if (ex.data[j].y == y) { hit = u; hit_edge = (uint32_t)j; break; }
            if (hit != NONE) break;
            for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
                uint32_t w = g->adj[j];
                if (c->cls[j] > maxcls || par[w] != NONE) continue;
                par[w] = u; pe[w] = j; queue[qt++] = w; vec_push(stamp_nodes, w);
            }
            for (size_t j = lo; j < ex.len && ex.data[j].x == u; j++) {
                uint32_t w = ex.data[j].y;
                if (par[w] != NONE) continue;
                par[w] = u; pe[w] = NONE - 1 - (uint32_t)j; queue[qt++] = w; vec_push(stamp_nodes, w);
            }
        }
        if (hit == NONE) continue;
        /* path y ~> hit, then the extra edge hit -> y */
        dep_edge_vec cyc; vec_init(cyc);
        for (uint32_t w = hit; w != y; w = par[w]) {
            uint32_t id = pe[w];
            dep_edge d;
            if (id >= NONE - ex.len) vec_push(cyc, ex.data[NONE - 1 - id].e);
            else if (ictx_arc_edge(c, par[w], id, &d)) vec_push(cyc, d);      /* else a fixed arc */
        }
        /* cyc holds the path backwards; the cycle is extra edge, then the path forwards */
        if (cyc.len + 1 < best_len) {
            best_len = cyc.len + 1;
            vec_clear(*alt);
            vec_push(*alt, ex.data[hit_edge].e);
            for (size_t i = cyc.len; i-- > 0;) vec_push(*alt, cyc.data[i]);
            /* start at the opposite WW edge b -> a when the cycle uses it */
            for (size_t r = 0; r < alt->len; r++) {
                const dep_edge *e = &alt->data[r];
                if (e->kind != DEP_WW || e->from != b || e->to != a || e->key != key || r == 0) continue;
                dep_edge_vec tmp; vec_init(tmp);
                for (size_t i = 0; i < alt->len; i++) vec_push(tmp, alt->data[(r + i) % alt->len]);
                vec_clear(*alt);
                for (size_t i = 0; i < tmp.len; i++) vec_push(*alt, tmp.data[i]);
                vec_free(tmp);
                break;
            }
            found = 1;
        }
        vec_free(cyc);
        if (best_len <= 2) break;
    }
    free(par); free(pe); free(queue); vec_free(stamp_nodes); vec_free(ex);
    return found;
}

/* Is e one of the checker's forced edges (one in the fact graph)?  A scan:
 * asked only for a fact no cycle explains, and no dearer than one search of
 * the fact graph, where a sorted copy would cost 16 bytes an edge. */
static int is_forced(const ictx *c, const dep_edge *e) {
    for (size_t i = 0; i < c->nforced; i++) {
        const dep_edge *f = &c->forced[i];
        if (f->from == e->from && f->to == e->to && f->key == e->key && f->kind == e->kind && interp_forced_in_facts(c->h, f))
            return 1;
    }
    return 0;
}

void ictx_explain_edge(const ictx *c, const dep_edge *e, edge_why *w) {
    memset(w, 0, sizeof *w);
    vec_init(w->alt);
    w->before = w->after = w->read_op = NONE;
    if (e->kind == DEP_SO || e->kind == DEP_WR) { w->status = WHY_OBSERVED; return; }
    uint32_t a, b = e->to;
    if (e->kind == DEP_WW) a = e->from;
    else a = ictx_read_src(c, e->from, e->key);
    w->before = a; w->after = b;
    if (a == 0) { w->status = WHY_INIT; return; }
    if (a == NONE) { w->status = WHY_CHOSEN; return; }
    /* a list read that shows the order is the plainest reason */
    uint32_t lop = ictx_list_shows(c, e->key, a, b);
    if (lop != NONE) { w->status = WHY_LISTED; w->read_op = lop; return; }
    w->status = opposite_cycle(c, CLS_KNOWN, a, b, e->key, &w->alt) ? WHY_FORCED : WHY_CHOSEN;
    /* with the checker's forced edges (each decided because its other side
     * closed a cycle) the opposite order may close a cycle too: first those
     * that hold under the version order, then all */
    if (w->status == WHY_CHOSEN && c->has_forced)
        w->status = opposite_cycle(c, CLS_HOLDS, a, b, e->key, &w->alt) ? WHY_FORCED : WHY_CHOSEN;
    if (w->status == WHY_CHOSEN && c->has_forced)
        w->status = opposite_cycle(c, CLS_FORCED, a, b, e->key, &w->alt) ? WHY_FORCED : WHY_CHOSEN;
    if (w->status == WHY_CHOSEN && is_forced(c, e)) w->status = WHY_DECIDED;
}
