/* weak.c — rc, ra and cc decided by saturation (weak.h): the index, the
 * premise edges, the sort; on FAIL the cycle's causal paths, its name in
 * Plume's terms and a one-line reason. */
#include "frontend/checking/weak_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"

void weak_result_free(weak_result *r) {
    free(r->order);
    r->order = NULL;
    r->order_len = 0;
    vec_free(r->cycle);
    vec_free(r->paths);
}

static const char *txn_str(const history *h, uint32_t t, char *buf, size_t n) {
    if (t == 0) snprintf(buf, n, "the initial state");
    else snprintf(buf, n, "txn %" PRId64, h->txns[t].ext_id);
    return buf;
}

static const char *via_str(const history *h, const weak_edge *e, char *buf, size_t n) {
    char kb[64], wb[128];
    switch (e->via) {
    case WV_EARLIER:
        snprintf(buf, n, "it read key %s from it earlier (%s)", history_key_str(h, h->op_key[e->vis_op], kb, sizeof kb),
                 history_op_where(h, e->vis_op, wb, sizeof wb));
        break;
    case WV_READ:
        snprintf(buf, n, "it read key %s from it (%s)", history_key_str(h, h->op_key[e->vis_op], kb, sizeof kb),
                 history_op_where(h, e->vis_op, wb, sizeof wb));
        break;
    case WV_SESSION: snprintf(buf, n, "it precedes it in its session"); break;
    case WV_CAUSAL: snprintf(buf, n, "a chain of %" PRIu32 " session-order and read edges leads to it", e->path_len); break;
    default: snprintf(buf, n, "?");
    }
    return buf;
}

void weak_edge_describe(const history *h, const weak_result *r, const weak_edge *e, char *buf, size_t n) {
    (void)r;
    char a[48], b[48], c[48], kb[64], wb[128], vb[200];
    txn_str(h, e->from, a, sizeof a);
    txn_str(h, e->to, b, sizeof b);
    switch (e->basis) {
    case WB_SO: snprintf(buf, n, "%s precedes %s in a session (SO)", a, b); break;
    case WB_WR:
        snprintf(buf, n, "%s reads key %s from %s (WR, %s)", b, history_key_str(h, e->key, kb, sizeof kb), a,
                 history_op_where(h, e->read_op, wb, sizeof wb));
        break;
    case WB_LIST:
        snprintf(buf, n, "list key %s as read at %s puts %s's appends before %s's", history_key_str(h, e->key, kb, sizeof kb),
                 history_op_where(h, e->read_op, wb, sizeof wb), a, b);
        break;
    case WB_PREMISE:
        snprintf(buf, n, "%s read key %s from %s (%s) while %s, which also wrote it, was visible to it (%s): "
                 "%s's version is older (premise)", txn_str(h, e->reader, c, sizeof c), history_key_str(h, e->key, kb, sizeof kb),
                 b, history_op_where(h, e->read_op, wb, sizeof wb), a, via_str(h, e, vb, sizeof vb), a);
        break;
    default: snprintf(buf, n, "the initial state precedes %s (its version of key %s is first)", b, history_key_str(h, e->key, kb, sizeof kb));
    }
}

void weak_cycle_deps(const weak_result *r, dep_edge_vec *out) {
    vec_foreach(const weak_edge, e, r->cycle) {
        dep_edge d = { e->from, e->to, e->key, (uint8_t)(e->basis == WB_SO ? DEP_SO : e->basis == WB_WR ? DEP_WR : DEP_WW) };
        vec_push(*out, d);
    }
}

/* cc: how t2 is visible to t3 — directly (a read or the session) or by a path. */
static void causal_visibility(const wk *w, weak_edge *e, weak_result *res) {
    const history *h = w->h;
    uint32_t t2 = e->from, t3 = e->reader;
    if (h->txns[t2].session == h->txns[t3].session && t2 < t3) { e->via = WV_SESSION; return; }
    for (uint32_t r = w->rd_start[t3]; r < w->rd_start[t3 + 1]; r++)
        if (w->rd[r].src == t2) { e->via = WV_READ; e->vis_op = w->rd[r].op; return; }
    wk_causal_path(w, t2, t3, res, &e->path_first, &e->path_len);
}

/* The anomaly the cycle shows: its most demanding premise edge decides. */
static void name_cycle(const history *h, weak_result *res) {
    int rank = 0;
    res->anomaly = "CyclicCO"; res->tap = "TAP-g";
    vec_foreach(const weak_edge, e, res->cycle) {
        if (e->basis != WB_PREMISE) continue;
        int r = 1;
        const char *name = "non-monotonic read", *tap = "TAP-h/i";
        if (e->via == WV_CAUSAL) { r = 5; name = "causality violation"; tap = "TAP-m/n"; }
        else if (e->via == WV_SESSION) { r = 4; name = "stale read of the session's own write"; tap = "TAP-o"; }
        else if (e->via == WV_READ && h->op_key[e->vis_op] == e->key) { r = 2; name = "non-repeatable read"; tap = "TAP-j"; }
        else if (e->via == WV_READ && e->vis_op > e->read_op) { r = 3; name = "fractured read"; tap = "TAP-k/l"; }
        if (r > rank) { rank = r; res->anomaly = name; res->tap = tap; }
    }
    if (rank) return;
    /* No premise edge: a list's order (its WW) in the cycle makes it Elle's G0
     * (with no read edge) or G1c, -process through session order; without one
     * it is Plume's CyclicCO, a cycle of SO and WR alone. */
    int so = 0, wr = 0, ww = 0;
    vec_foreach(const weak_edge, e, res->cycle) {
        if (e->basis == WB_SO) so = 1;
        else if (e->basis == WB_WR) wr = 1;
        else ww = 1;
    }
    if (!ww) return;
    res->anomaly = wr ? "circular information flow" : "write cycle";
    res->tap = wr ? (so ? "G1c-process" : "G1c") : (so ? "G0-process" : "G0");
}

static void fail_message(const history *h, weak_result *res) {
    size_t at = (size_t)snprintf(res->msg, sizeof res->msg, "%s (%s): a cycle of %zu edges: ", res->anomaly, res->tap, res->cycle.len);
    vec_foreach(const weak_edge, e, res->cycle) {
        if (at >= sizeof res->msg - 1) break;
        char d[400];
        weak_edge_describe(h, res, e, d, sizeof d);
        at += (size_t)snprintf(res->msg + at, sizeof res->msg - at, "%s%s", e == res->cycle.data ? "" : "; ", d);
    }
}

/* One level on the index w (its list edges, extra[0 .. base), kept). */
static verdict weak_level(wk *w, size_t base, check_level_id level, struct par_pool *pool, weak_result *out) {
    const history *h = w->h;
    w->level = level;
    w->extra.len = base;
    w->init_edge = -1;
    level_shape shape = level_shape_of(level);
    for (uint32_t t = 0; t < h->num_txns; t++) out->participants += w->part[t] != 0;
    uint32_t *order = xmalloc(((size_t)w->n + 1) * sizeof *order), len = 0;
    int ok = 1;
    double t0 = monotonic_seconds();
    if (shape == SHAPE_WEAK_CC) {
        ok = wk_sort(w, 0, order, &len, out);           /* B must be acyclic for the clocks */
        if (ok) wk_premise_cc(w, order, len, pool);
    } else if (shape == SHAPE_WEAK_RA) wk_premise_ra(w);
    else wk_premise_rc(w);
    vec_foreach(const wk_extra, x, w->extra) out->premise_edges += x->basis == WB_PREMISE;
    out->edges = w->extra.len + w->rd_start[w->n];
    out->t_premise = monotonic_seconds() - t0;
    if (w->rd_start[w->n] >= 1u << 30 || w->extra.len >= 1u << 30) {   /* weak_graph.c tags edges with 30 bits */
        snprintf(out->msg, sizeof out->msg, "not decided: more than 2^30 reads or edges (an internal limit of the weak check)");
        free(order);
        return out->verdict = VERDICT_UNKNOWN;
    }
    t0 = monotonic_seconds();
    if (ok) ok = wk_sort(w, 1, order, &len, out);
    out->t_sort = monotonic_seconds() - t0;
    if (ok) {
        out->order = order;
        out->order_len = len;
        snprintf(out->msg, sizeof out->msg, "the saturated graph is acyclic: a commit order of %" PRIu32 " transactions", len);
        return out->verdict = VERDICT_PASS;
    }
    free(order);
    vec_foreach(weak_edge, e, out->cycle)
        if (e->basis == WB_PREMISE && e->via == WV_CAUSAL) causal_visibility(w, e, out);
    name_cycle(h, out);
    fail_message(h, out);
    return out->verdict = VERDICT_FAIL;
}

void weak_check_levels(const history *h, const uint8_t *part, const check_level_id *levels, size_t n,
                       struct par_pool *pool, weak_result *out) {
    int valid = 1;
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].level = levels[i];
        vec_init(out[i].cycle);
        vec_init(out[i].paths);
        level_shape shape = level_shape_of(levels[i]);
        if (shape != SHAPE_WEAK_RC && shape != SHAPE_WEAK_RA && shape != SHAPE_WEAK_CC) {
            snprintf(out[i].msg, sizeof out[i].msg, "internal error: %s is not decided by saturation", level_name(levels[i]));
            out[i].verdict = VERDICT_UNKNOWN;
            valid = 0;
        }
    }
    if (!valid || !n) return;
    wk w;
    memset(&w, 0, sizeof w);
    w.h = h; w.part = part; w.level = levels[0];
    double t0 = monotonic_seconds();
    int indexed = wk_index_build(&w);
    double t_index = monotonic_seconds() - t0;
    size_t base = w.extra.len;                      /* the list edges, every level's */
    for (size_t i = 0; i < n; i++) {
        out[i].t_index = i ? 0 : t_index;
        if (!indexed) {
            snprintf(out[i].msg, sizeof out[i].msg, "not decided: %s (the axioms stage reports it)", w.why);
            out[i].verdict = VERDICT_UNKNOWN;
        } else weak_level(&w, base, levels[i], pool, &out[i]);
    }
    wk_index_free(&w);
}

verdict weak_check(const history *h, const uint8_t *part, check_level_id level, struct par_pool *pool, weak_result *out) {
    weak_check_levels(h, part, &level, 1, pool, out);
    return out->verdict;
}
