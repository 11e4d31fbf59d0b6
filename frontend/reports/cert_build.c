/* cert_build.c — a certificate from a version order (contract in
 * cert_build.h): the verifier's edges (cert_edges()) sorted topologically
 * with the checker's graph toolkit (depgraph.h); and the lines that name
 * a chosen version (view lines, read lines) from the history under the
 * checker's choice. */
#include "frontend/reports/cert_build.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/checking/depgraph.h"
#include "frontend/checking/weak.h"
#include "frontend/history/predicate.h"

typedef struct build_ctx { int si; const cert_form *f; vec_u32 from, to; } build_ctx;

/* Nodes: SER txn; SI 2t (start), 2t+1 (commit). */
static int collect_edge(void *vctx, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt) {
    (void)r; (void)wf; (void)wt;
    build_ctx *b = vctx;
    uint32_t x, y;
    if (e->kind == DEP_SO && !b->f->so) return 1;
    if (!b->si) { x = e->from; y = e->to; }
    else if (e->kind == DEP_RW) { x = CERT_START(e->from); y = CERT_COMMIT(e->to); }
    else if (e->kind == DEP_WW && b->f->ww_commit) { x = CERT_COMMIT(e->from); y = CERT_COMMIT(e->to); }
    else { x = CERT_COMMIT(e->from); y = CERT_START(e->to); }
    vec_push(b->from, x);
    vec_push(b->to, y);
    return 1;
}

typedef struct by_done { int64_t t; uint32_t txn; } by_done;
static int cmp_done(const void *a, const void *b) {
    const by_done *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return (x->txn > y->txn) - (x->txn < y->txn);
}

/* Real time as arcs through clock nodes n0, n0 + 1, ... (doc/checker.md,
 * "Real time"): the j-th committed participant by completion into tick j,
 * tick j into tick j + 1, the last tick completed before b's invocation
 * into b.  Returns the number of ticks. */
static uint32_t clock_arcs(const history *h, const uint8_t *part, int si, uint32_t n0, build_ctx *b) {
    VEC(by_done) d; vec_init(d);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        int64_t c = history_time(h, TIME_COMPLETE, t);
        if (part[t] && h->txns[t].status == TXN_COMMITTED && c != HISTORY_TIME_NONE) { by_done x = { c, t }; vec_push(d, x); }
    }
    if (d.len > 1) qsort(d.data, d.len, sizeof *d.data, cmp_done);
    uint32_t m = (uint32_t)d.len;
    for (uint32_t j = 0; j < m; j++) {
        vec_push(b->from, si ? CERT_COMMIT(d.data[j].txn) : d.data[j].txn); vec_push(b->to, n0 + j);
        if (j + 1 < m) { vec_push(b->from, n0 + j); vec_push(b->to, n0 + j + 1); }
    }
    for (uint32_t t = 1; t < h->num_txns; t++) {
        int64_t inv = history_time(h, TIME_INVOKE, t);
        if (!part[t] || inv == HISTORY_TIME_NONE) continue;
        uint32_t lo = 0, hi = m;
        while (lo < hi) { uint32_t mid = lo + (hi - lo) / 2; if (d.data[mid].t < inv) lo = mid + 1; else hi = mid; }
        if (lo) { vec_push(b->from, n0 + lo - 1); vec_push(b->to, si ? CERT_START(t) : t); }
    }
    vec_free(d);
    return m;
}

cert_status cert_build(const history *h, const version_order *vo, int si, certificate *c, ic_error *err) {
    return cert_build_level(h, vo, si ? LEVEL_SI : LEVEL_SER, c, err);
}

cert_status cert_build_level(const history *h, const version_order *vo, check_level_id level, certificate *c, ic_error *err) {
    cert_free(c);
    cert_init(c);
    const cert_form *f = cert_form_of(level);
    if (!f) {
        ic_error_at(err, "", 0, "level %s has no certificate form", level_name(level));
        return CERT_REJECT;
    }
    int si = f->events;
    c->si = si;
    c->level = level;
    c->vo.num_keys = vo->num_keys;
    c->vo.start = xmalloc(((size_t)vo->num_keys + 1) * sizeof *c->vo.start);
    memcpy(c->vo.start, vo->start, ((size_t)vo->num_keys + 1) * sizeof *c->vo.start);
    vec_reserve(c->vo.txns, vo->txns.len);
    for (size_t i = 0; i < vo->txns.len; i++) vec_push(c->vo.txns, vo->txns.data[i]);

    /* participants: INIT, the committed transactions and the indeterminate
     * ones the version order lists (they committed in this witness) */
    uint8_t *part = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    part[0] = 1;
    for (uint32_t t = 1; t < h->num_txns; t++) part[t] = h->txns[t].status == TXN_COMMITTED;
    for (size_t i = 0; i < vo->txns.len; i++) {
        uint32_t t = vo->txns.data[i];
        if (t < h->num_txns && h->txns[t].status == TXN_INDETERMINATE) part[t] = 1;
    }
    build_ctx b = { si, f, { 0 }, { 0 } };
    vec_init(b.from); vec_init(b.to);
    cert_status rc = CERT_OK;
    if (!f->ordered) {                            /* psi, rr: the version orders are the certificate */
        if (!cert_check_graph(h, c, vo, part, err, NULL)) rc = CERT_REJECT;
        goto out;
    }
    if (!cert_edges(h, vo, NULL, part, collect_edge, &b, err)) { rc = CERT_REJECT; goto out; }
    uint32_t n = si ? 2 * h->num_txns : h->num_txns, nreal = n;
    if (f->rt) n += clock_arcs(h, part, si, n, &b);
    if (si)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (part[t]) { vec_push(b.from, CERT_START(t)); vec_push(b.to, CERT_COMMIT(t)); }
    /* any topological order will do (depgraph.h; nodes outside part have
     * no edges, and are left out of the order) */
    dg_arc_vec arcs; vec_init(arcs);
    vec_reserve(arcs, b.from.len);
    for (size_t i = 0; i < b.from.len; i++) { dg_arc a = { b.from.data[i], b.to.data[i], DG_NONE }; vec_push(arcs, a); }
    dg_graph g;
    dg_build(&g, n, arcs.data, arcs.len, 0);
    vec_free(arcs);
    uint32_t *order = xmalloc((n ? n : 1) * sizeof *order);
    if (dg_topo_order(&g, 0, 0, order)) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t u = order[i], t = si ? u >> 1 : u;
            if (u >= nreal) continue;              /* a clock tick */
            if (part[t] && t != 0) { vec_push(c->order, u); vec_push(c->order_line, 0); }
        }
    } else {
        ic_error_at(err, "", 0, "the version order leaves a dependency cycle (%s); no commit order exists", level_name(level));
        rc = CERT_REJECT;
    }
    dg_free(&g);
    free(order);
out:
    vec_free(b.from); vec_free(b.to);
    free(part);
    return rc;
}

cert_status cert_build_weak(const history *h, const uint32_t *order, uint32_t len, check_level_id level, certificate *c,
                            ic_error *err) {
    cert_free(c);
    cert_init(c);
    const cert_form *f = cert_form_of(level);
    if (!f || !f->weak || !len || order[0] != 0) {
        ic_error_at(err, "", 0, "level %s has no commit-order certificate, or the order does not start with INIT", level_name(level));
        return CERT_REJECT;
    }
    (void)h;
    c->level = level;
    c->si = 0;
    vec_reserve(c->order, len - 1);
    for (uint32_t i = 1; i < len; i++) vec_push(c->order, order[i]);
    return CERT_OK;
}

static int cmp_view(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    for (int i = 0; i < 3; i++) if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int cmp_view2(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    for (int i = 0; i < 2; i++) if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

int cert_add_views(const history *orig, const history *chosen, certificate *c) {
    uint32_t *num = cert_pred_numbers(orig);
    int ok = 1;
    for (uint32_t op = 0; op < orig->num_ops && op < chosen->num_ops; op++) {
        if (!(orig->op_kind[op] & OP_AMBIGUOUS) || history_op_failed(orig, op)) continue;
        if (history_op_failed(chosen, op)) continue;    /* set aside under the choice (rr: rc's own view) */
        uint32_t t = history_op_txn(orig, op), tag = history_op_pred(orig, op), k = orig->op_key[op];
        if (orig->txns[t].status == TXN_ABORTED) continue;
        int nil = preds_is_nil_choice(orig->preds, op);
        if (!nil && (tag == PRED_TAG_NONE || pred_tag_returned(tag) || !num)) { ok = 0; break; }
        int64_t v = history_op_value(chosen, op);
        uint32_t w = v == VALUE_INIT ? 0 : history_writer_of(chosen, k, v);
        if (w == HISTORY_NONE) { ok = 0; break; }
        w = v == VALUE_INIT ? 0 : history_op_txn(chosen, w);
        if (nil) {                                 /* a read of nil: a read line, once per (reader, key) */
            size_t n = c->reads_from.len;
            if (n >= 3 && c->reads_from.data[n - 3] == t && c->reads_from.data[n - 2] == k) continue;
            vec_push(c->reads_from, t); vec_push(c->reads_from, k); vec_push(c->reads_from, w);
            continue;
        }
        vec_push(c->views, t); vec_push(c->views, num[pred_tag_read(tag)]); vec_push(c->views, k); vec_push(c->views, w);
    }
    free(num);
    if (!ok) { vec_clear(c->views); vec_clear(c->reads_from); return 0; }
    if (c->views.len > 4) qsort(c->views.data, c->views.len / 4, 4 * sizeof *c->views.data, cmp_view);
    if (c->reads_from.len > 3) qsort(c->reads_from.data, c->reads_from.len / 3, 3 * sizeof *c->reads_from.data, cmp_view2);
    return 1;
}

static int cmp_read_pos(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    for (int i = 0; i < 3; i++) if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* Per (reader, key) with a read of a repeated value, the writer each
 * external register read of the key saw under the model's choice
 * (`chosen`), in program order: one triple when they agree, else one per
 * read (rc: a non-repeatable read of repeated values; the certificate's
 * read line lists them all). */
void cert_add_reads_from(const history *orig, const history *chosen, certificate *c) {
    vec_u32 ws; vec_init(ws);
    for (uint32_t t = 1; t < orig->num_txns; t++) {
        if (orig->txns[t].status == TXN_ABORTED) continue;    /* an observed indeterminate one takes part too */
        const history_txn *tx = &orig->txns[t];
        for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
            if (history_op_kind(orig, op) != OP_READ || history_op_failed(orig, op)) continue;
            uint32_t k = orig->op_key[op];
            if (history_txn_external_read(orig, t, k) != op) continue;   /* its key's first read: the key's line */
            int repeated = 0;
            vec_clear(ws);
            for (uint32_t o = op; o < tx->first_op + tx->num_ops; o++) {
                if (orig->op_key[o] != k || history_op_failed(orig, o)) continue;
                if (history_op_kind(orig, o) != OP_READ) break;     /* an own write: the reads after it are its */
                uint32_t w = history_writer_of(orig, k, history_op_value(orig, o)), src = history_read_source(chosen, o);
                repeated |= w != HISTORY_NONE && (orig->op_kind[w] & OP_REPEATED);
                vec_push(ws, src == HISTORY_NONE ? HISTORY_NONE : history_op_txn(chosen, src));
            }
            int same = 1, known = 1;
            for (size_t i = 0; i < ws.len; i++) { same &= ws.data[i] == ws.data[0]; known &= ws.data[i] != HISTORY_NONE; }
            if (!repeated || !known || !ws.len) continue;
            for (size_t i = 0; i < (same ? 1 : ws.len); i++) { vec_push(c->reads_from, t); vec_push(c->reads_from, k); vec_push(c->reads_from, ws.data[i]); }
        }
    }
    vec_free(ws);
    /* cert_read_from searches them by (reader, key): a transaction's reads are in op order, not key order (stable: a
     * key's writers keep their order) */
    size_t n = c->reads_from.len / 3;
    if (n < 2) return;
    uint32_t *q = xmalloc(4 * n * sizeof *q);    /* (reader, key, position, writer): a stable sort */
    for (size_t i = 0; i < n; i++) {
        q[4 * i] = c->reads_from.data[3 * i]; q[4 * i + 1] = c->reads_from.data[3 * i + 1];
        q[4 * i + 2] = (uint32_t)i; q[4 * i + 3] = c->reads_from.data[3 * i + 2];
    }
    qsort(q, n, 4 * sizeof *q, cmp_read_pos);
    for (size_t i = 0; i < n; i++) {
        c->reads_from.data[3 * i] = q[4 * i]; c->reads_from.data[3 * i + 1] = q[4 * i + 1];
        c->reads_from.data[3 * i + 2] = q[4 * i + 3];
    }
    free(q);
}

/* A PASS's certificate (cert_build.h; run_check's levels). */
int cert_of_result(const history *orig, const history *h, const check_result *res, certificate *c, char *msg, size_t cap) {
    if (res->chosen) h = res->chosen;
    ic_error cerr;
    ic_error_clear(&cerr);
    cert_status built = res->weak ? cert_build_weak(h, res->weak->order, res->weak->order_len, res->level, c, &cerr)
                                  : cert_build_level(h, &res->vo, res->level, c, &cerr);
    if (built == CERT_OK &&
        cert_verify_level(h, c, res->level, &cerr, NULL) == CERT_OK) {
        if (orig == h) return 1;
        if (orig->preds && orig->preds->choices_attached && orig->num_amb) {
            /* a predicate read's chosen views: view lines, verified against
             * the history as loaded; a nil read's choice has no line (2) */
            if (!cert_add_views(orig, h, c)) return 2;
            if (cert_verify_level(orig, c, res->level, &cerr, NULL) == CERT_OK) return 1;
            snprintf(msg, cap, "internal error: the certificate does not verify: %.400s", cerr.msg);
            return 0;
        }
        if (!orig->num_repeated) return 1;
        cert_add_reads_from(orig, h, c);
        if (cert_verify_level(orig, c, res->level, &cerr, NULL) == CERT_OK) return 1;
    }
    snprintf(msg, cap, "internal error: the certificate does not verify: %.400s", cerr.msg);
    return 0;
}
