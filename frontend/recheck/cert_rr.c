/* cert_rr.c — the certificate check of the level rr (Adya's PL-2.99;
 * doc/levels.md "rr", doc/certificate.md "rr"): the version orders alone,
 * and a graph check of the dependencies they give.
 *
 * cert_edges (cert_replay.c) replays every participant's reads against the
 * version orders and gives the edges WR, WW (consecutive versions) and RW
 * (reader of a version -> the writer of the next); SO is ignored (rr has no
 * session order).  An RW edge is a predicate anti-dependency when its
 * reader reads the key by predicate only: every read of the key before its
 * own first write is a lowered predicate read op that did not return the
 * key (its tag's returned bit 0); every other RW edge is an item
 * anti-dependency.  The check, by definition:
 *   G1c      D = WR ∪ WW is acyclic (Kahn's algorithm);
 *   G2-item  no item RW edge r -> c lies on a cycle of D ∪ RW, i.e. r and
 *            c are in different strongly connected components of it
 *            (Tarjan's algorithm, iterative).
 * A predicate read's view (below) adds its own WR and predicate RW edges.
 * Linear in the edges (a view: in its key's versions).  The predicate test is this file's own scan of the
 * raw operations; nothing of the checker (frontend/checking/pred_rw.c) or
 * of the re-checker's graph (vm_graph.c) is used. */
#include "frontend/recheck/certificate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/history/predicate.h"
#include "frontend/recheck/cert_internal.h"

typedef struct rr_ctx {
    const history *h;
    vec_u32 from, to, key;       /* every edge but SO */
    VEC(uint8_t) kind;           /* 0 D, 1 item RW, 2 predicate RW */
    vec_u32 rop, wop;            /* RW edges: the read showing the version, the next version's write */
    uint64_t edges;
} rr_ctx;

/* Whether t reads key k by predicate only (the contract above). */
static int by_predicate_only(const history *h, uint32_t t, uint32_t k) {
    if (!h->op_pred || t == 0 || t >= h->num_txns) return 0;
    const history_txn *tx = &h->txns[t];
    int pred = 0;
    for (uint32_t o = tx->first_op; o < tx->first_op + tx->num_ops; o++) {
        if (h->op_key[o] != k || (h->op_kind[o] & OP_FAILED) || preds_is_rc_view_op(h, o)) continue;   /* rc's own view: inert */
        op_kind kd = (op_kind)(h->op_kind[o] & OP_KIND_MASK);
        if (kd == OP_WRITE || kd == OP_APPEND) break;
        uint32_t tag = h->op_pred[o];
        if (tag == PRED_TAG_NONE || pred_tag_returned(tag)) return 0;
        pred = 1;
    }
    return pred;
}

static int rr_edge(void *vctx, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt) {
    (void)wf;
    rr_ctx *P = vctx;
    if (e->kind == DEP_SO) return 1;
    P->edges++;
    uint8_t kind = e->kind != DEP_RW ? 0 : by_predicate_only(P->h, e->from, e->key) ? 2 : 1;
    vec_push(P->from, e->from); vec_push(P->to, e->to); vec_push(P->key, e->key); vec_push(P->kind, kind);
    vec_push(P->rop, r); vec_push(P->wop, wt);
    return 1;
}

/* ---- rr's views (predicate.h: pred_fact_is_view) --------------------------
 * A predicate read that left out a key its transaction saw in a matching
 * version q has, in Adya's model, a version set of its own: under the
 * certificate's orders its view is the latest of the view's versions (those
 * of the key it does not match) before q, or the first after q when none
 * precedes it (doc/levels.md "rr", "Adya's model, reduced"); a view of kind
 * (b) (q another predicate read's version) is one choice among several:
 * when the rule's views leave a forbidden cycle, the others are tried (at
 * most CERT_VIEW_TRIES combinations), and one that passes proves rr.  Its edges, by
 * Adya's definition: WR (a predicate read-dependency, D) from every version
 * up to the view that changes the read's matches, RW (a predicate
 * anti-dependency) to every later one that does; none to or from the
 * reader itself.  A view after the reader's own version adds WR from its
 * writer (a cycle with the reader's WW edges: no such view in Adya's
 * model).  This file's own reading of the raw operations. */

/* The value t's version of key k installs: its last successful write
 * (INIT: VALUE_INIT); 0 when t writes no register value of k. */
static int version_value(const history *h, uint32_t t, uint32_t k, int64_t *v) {
    if (t == 0) { *v = VALUE_INIT; return 1; }
    const history_txn *tx = &h->txns[t];
    for (uint32_t i = tx->num_ops; i-- > 0;) {
        uint32_t o = tx->first_op + i;
        if (h->op_key[o] != k || (h->op_kind[o] & OP_FAILED)) continue;
        if ((op_kind)(h->op_kind[o] & OP_KIND_MASK) != OP_WRITE) continue;
        *v = history_op_value(h, o);
        return 1;
    }
    return 0;
}

static int view_matches(const history *h, const pred_read *rd, uint32_t k, int64_t v) {
    int64_t data = 0;
    return preds_version_data(h->preds, k, v, &data) && pred_match(&rd->p, data);
}

static void add_edge(rr_ctx *P, uint32_t from, uint32_t to, uint32_t key, uint8_t kind) {
    P->edges++;
    vec_push(P->from, from); vec_push(P->to, to); vec_push(P->key, key); vec_push(P->kind, kind);
    vec_push(P->rop, HISTORY_NONE); vec_push(P->wop, HISTORY_NONE);
}

/* One view's edges; 0 with err when none of its versions is in the order. */
static int view_edges(rr_ctx *P, const certificate *c, const version_order *vo, const pred_fact *f, uint32_t t, uint32_t pick,
                      ic_error *err) {
    const history *h = P->h;
    const history_preds *pp = h->preds;
    const pred_read *rd = &pp->reads.data[f->read];
    uint32_t a = vo->start[f->key], b = vo->start[f->key + 1], q = UINT32_MAX, before = UINT32_MAX, after = UINT32_MAX;
    int64_t *val = xmalloc(((size_t)(b - a) + 1) * sizeof *val);
    uint8_t *has = xcalloc((size_t)(b - a) + 1, 1);
    for (uint32_t g = a; g < b; g++) has[g - a] = (uint8_t)version_value(h, vo->txns.data[g], f->key, &val[g - a]);
    for (uint32_t g = a; g < b; g++) if (has[g - a] && val[g - a] == f->value) q = g;
    for (uint32_t j = 0; j < f->vn && q != UINT32_MAX; j++)
        for (uint32_t g = a; g < b; g++) {
            if (!has[g - a] || val[g - a] != pp->view_vals.data[f->vfirst + j] || g == q) continue;
            if (g < q && (before == UINT32_MAX || g > before)) before = g;
            if (g > q && (after == UINT32_MAX || g < after)) after = g;
        }
    uint32_t v = before != UINT32_MAX ? before : after;
    for (uint32_t g = a; g < b && q != UINT32_MAX && pick < f->vn; g++)   /* kind (b): the version picked instead */
        if (g != q && has[g - a] && val[g - a] == pp->view_vals.data[f->vfirst + pick]) v = g;
    if (v == UINT32_MAX) {
        free(val); free(has);
        ic_error_at(err, c->file, 0, "the predicate read at line %u sees the key in none of the versions it could under the "
                    "certificate's order", rd->line);
        return 0;
    }
    for (uint32_t g = a; g < v; g++)             /* a view after the reader's own version: it read before it wrote */
        if (vo->txns.data[g] == t) add_edge(P, vo->txns.data[v], t, f->key, 0);
    int prev = has[0] && view_matches(h, rd, f->key, val[0]);
    for (uint32_t g = a + 1; g < b; g++) {
        int cur = has[g - a] && view_matches(h, rd, f->key, val[g - a]);
        uint32_t w = vo->txns.data[g];
        if (cur != prev && w != t) { if (g <= v) add_edge(P, w, t, f->key, 0); else add_edge(P, t, w, f->key, 2); }
        prev = cur;
    }
    free(val); free(has);
    return 1;
}

/* Every view's edges; pick (NULL: the rule for each) per view of kind (b)
 * (pred_fact.by_pred: the version its transaction saw is another predicate
 * read's, so its view is one choice among several), in fact order, the
 * index of its version to take instead (vn or more: the rule).  *nb: how
 * many such views, their numbers of versions into nv when not NULL. */
static int views(rr_ctx *P, const certificate *c, const version_order *vo, const uint8_t *part, const uint32_t *pick,
                 vec_u32 *nv, ic_error *err) {
    const history *h = P->h;
    size_t nb = 0;
    if (!h->preds) return 1;
    for (size_t i = 0; i < h->preds->facts.len; i++) {
        const pred_fact *f = &h->preds->facts.data[i];
        if (!pred_fact_is_view(f) || f->key >= vo->num_keys) continue;
        uint32_t t = h->preds->reads.data[f->read].txn;
        if (t == HISTORY_NONE || t >= h->num_txns || !part[t]) continue;
        if (!view_edges(P, c, vo, f, t, f->by_pred && pick ? pick[nb] : UINT32_MAX, err)) return 0;
        if (f->by_pred && nv) vec_push(*nv, f->vn);
        nb += f->by_pred;
    }
    return 1;
}

static void truncate_edges(rr_ctx *P, size_t n) {
    P->from.len = P->to.len = P->key.len = P->kind.len = P->rop.len = P->wop.len = n;
}

/* CSR of the edges with kind <= maxkind (D only: 0; everything: 2). */
static void csr(const rr_ctx *P, uint32_t n, int maxkind, uint32_t **start_out, uint32_t **adj_out) {
    uint32_t *start = xcalloc((size_t)n + 1, sizeof *start);
    for (size_t i = 0; i < P->from.len; i++) if (P->kind.data[i] <= maxkind) start[P->from.data[i] + 1]++;
    for (uint32_t u = 0; u < n; u++) start[u + 1] += start[u];
    uint32_t *adj = xmalloc(((size_t)start[n] + 1) * sizeof *adj), *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, start, ((size_t)n + 1) * sizeof *fill);
    for (size_t i = 0; i < P->from.len; i++) if (P->kind.data[i] <= maxkind) adj[fill[P->from.data[i]]++] = P->to.data[i];
    free(fill);
    *start_out = start;
    *adj_out = adj;
}

/* Kahn on D: UINT32_MAX when acyclic, else a node on or behind a cycle
 * that is left over (one with an in-edge from a cycle). */
static uint32_t d_cycle_node(const rr_ctx *P, uint32_t n) {
    uint32_t *start, *adj;
    csr(P, n, 0, &start, &adj);
    uint32_t *indeg = xcalloc((size_t)n + 1, sizeof *indeg), *queue = xmalloc(((size_t)n + 1) * sizeof *queue);
    for (uint32_t j = 0; j < start[n]; j++) indeg[adj[j]]++;
    uint32_t qh = 0, qt = 0;
    for (uint32_t u = 0; u < n; u++) if (!indeg[u]) queue[qt++] = u;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint32_t j = start[u]; j < start[u + 1]; j++) if (--indeg[adj[j]] == 0) queue[qt++] = adj[j];
    }
    uint32_t left = UINT32_MAX;
    for (uint32_t u = 0; u < n && left == UINT32_MAX; u++) if (indeg[u]) left = u;
    free(indeg); free(queue); free(start); free(adj);
    return left;
}

/* Tarjan's strongly connected components of D ∪ RW, iteratively: comp[u]. */
static uint32_t *components(const rr_ctx *P, uint32_t n) {
    uint32_t *start, *adj;
    csr(P, n, 2, &start, &adj);
    uint32_t *idx = xmalloc(((size_t)n + 1) * sizeof *idx), *low = xmalloc(((size_t)n + 1) * sizeof *low);
    uint32_t *comp = xmalloc(((size_t)n + 1) * sizeof *comp), *next = xmalloc(((size_t)n + 1) * sizeof *next);
    uint32_t *stack = xmalloc(((size_t)n + 1) * sizeof *stack), *call = xmalloc(((size_t)n + 1) * sizeof *call);
    uint8_t *on = xcalloc((size_t)n + 1, 1);
    for (uint32_t u = 0; u < n; u++) idx[u] = comp[u] = UINT32_MAX;
    uint32_t counter = 0, sp = 0, ncomp = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (idx[root] != UINT32_MAX) continue;
        uint32_t cp = 0;
        call[cp++] = root;
        idx[root] = low[root] = counter++; next[root] = start[root]; stack[sp++] = root; on[root] = 1;
        while (cp) {
            uint32_t u = call[cp - 1];
            if (next[u] < start[u + 1]) {
                uint32_t v = adj[next[u]++];
                if (idx[v] == UINT32_MAX) {
                    idx[v] = low[v] = counter++; next[v] = start[v]; stack[sp++] = v; on[v] = 1;
                    call[cp++] = v;
                } else if (on[v] && idx[v] < low[u]) low[u] = idx[v];
                continue;
            }
            cp--;
            if (cp && low[u] < low[call[cp - 1]]) low[call[cp - 1]] = low[u];
            if (low[u] != idx[u]) continue;
            uint32_t v;
            do { v = stack[--sp]; on[v] = 0; comp[v] = ncomp; } while (v != u);
            ncomp++;
        }
    }
    free(idx); free(low); free(next); free(stack); free(call); free(on); free(start); free(adj);
    return comp;
}

static void rr_free(rr_ctx *P) {
    vec_free(P->from); vec_free(P->to); vec_free(P->key); vec_free(P->kind); vec_free(P->rop); vec_free(P->wop);
}

static int rr_graph_ok(const rr_ctx *P, const certificate *c, ic_error *err);

/* The views of kind (b) under every other choice (at most CERT_VIEW_TRIES in
 * all, in mixed radix) until one passes: 1, else 0 (err untouched). */
#define CERT_VIEW_TRIES 256
static int other_views_ok(rr_ctx *P, const certificate *c, const version_order *vo, const uint8_t *part, size_t base,
                          const vec_u32 *nv) {
    uint32_t *pick = xcalloc(nv->len + 1, sizeof *pick);
    int ok = 0;
    ic_error scratch;
    for (int tries = 0; tries < CERT_VIEW_TRIES && !ok; tries++) {
        truncate_edges(P, base);
        ic_error_clear(&scratch);
        ok = views(P, c, vo, part, pick, NULL, &scratch) && rr_graph_ok(P, c, &scratch);
        size_t i = 0;
        while (i < nv->len && ++pick[i] >= nv->data[i]) pick[i++] = 0;
        if (i == nv->len) break;
    }
    free(pick);
    return ok;
}

int cert_check_rr(const history *h, const certificate *c, const version_order *vo, const uint8_t *part,
                  ic_error *err, uint64_t *edges) {
    rr_ctx P;
    memset(&P, 0, sizeof P);
    P.h = h;
    vec_u32 nv; vec_init(nv);
    int ok = cert_edges(h, vo, c, part, rr_edge, &P, err);
    size_t base = P.from.len;
    ok = ok && views(&P, c, vo, part, NULL, &nv, err);
    if (ok && edges) *edges = P.edges;
    if (ok && !rr_graph_ok(&P, c, err)) {
        ok = nv.len && other_views_ok(&P, c, vo, part, base, &nv);   /* kind (b): another view proves it */
        if (ok) ic_error_clear(err);
    }
    vec_free(nv);
    rr_free(&P);
    return ok;
}

/* G1c and G2-item on P's edges: 1, or 0 with err set. */
static int rr_graph_ok(const rr_ctx *P, const certificate *c, ic_error *err) {
    const history *h = P->h;
    uint32_t n = h->num_txns;
    char an[96], bn[96], kb[128], v1[160], v2[160];
    int ok = 1;
    uint32_t left = d_cycle_node(P, n);
    if (left != UINT32_MAX) {
        ic_error_at(err, c->file, 0, "the version orders leave a cycle of WR and WW edges (G1c, through or behind %s), which rr forbids",
                    cert_txn_name(h, left, an, sizeof an));
        ok = 0;
    }
    uint32_t *comp = ok ? components(P, n) : NULL;
    for (size_t i = 0; ok && i < P->from.len; i++) {
        if (P->kind.data[i] != 1 || comp[P->from.data[i]] != comp[P->to.data[i]]) continue;
        history_key_str(h, P->key.data[i], kb, sizeof kb);
        ic_error_at(err, c->file, 0, "G2-item: RW %s: %s reads %s=%s, which %s's %s=%s overwrites next (an item anti-dependency), "
                    "and %s reaches %s by dependencies: a cycle with an item anti-dependency, which rr forbids",
                    kb, cert_txn_name(h, P->from.data[i], an, sizeof an), kb, cert_value_str(h, P->rop.data[i], v1, sizeof v1),
                    cert_txn_name(h, P->to.data[i], bn, sizeof bn), kb, cert_value_str(h, P->wop.data[i], v2, sizeof v2), bn, an);
        ok = 0;
    }
    free(comp);
    return ok;
}
