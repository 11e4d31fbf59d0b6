/* cert_verify.c — check a certificate against a history (contract in
 * certificate.h, soundness argument in doc/certificate.md): the commit
 * order's positions, then every edge cert_edges() enumerates against
 * them, one comparison each. */
#include "frontend/recheck/certificate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/history/predicate.h"
#include "frontend/recheck/cert_internal.h"

void cert_init(certificate *c) {
    memset(c, 0, sizeof *c);
    vec_init(c->vo.txns);
    vec_init(c->order);
    vec_init(c->order_line);
    vec_init(c->reads_from);
    vec_init(c->reads_from_line);
    vec_init(c->views);
    vec_init(c->views_line);
}

uint32_t cert_read_from(const certificate *c, uint32_t t, uint32_t k) {
    size_t lo = 0, hi = c->reads_from.len / 3;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uint32_t *e = c->reads_from.data + 3 * mid;
        if (e[0] < t || (e[0] == t && e[1] < k)) lo = mid + 1; else hi = mid;
    }
    const uint32_t *e = c->reads_from.data + 3 * lo;
    return lo < c->reads_from.len / 3 && e[0] == t && e[1] == k ? e[2] : HISTORY_NONE;
}

void cert_free(certificate *c) {
    version_order_free(&c->vo);
    free(c->key_line);
    vec_free(c->order);
    vec_free(c->order_line);
    vec_free(c->reads_from);
    vec_free(c->reads_from_line);
    vec_free(c->views);
    vec_free(c->views_line);
    c->key_line = NULL;
}

typedef struct verify_ctx {
    const history *h;
    const certificate *c;
    const cert_form *f;
    int si;
    uint32_t *ps, *pc;       /* SI: positions of start / commit; SER: pc only */
    uint32_t *idx_s, *idx_c; /* order index of each event (for line numbers) */
    ic_error *err;
    uint64_t edges;
} verify_ctx;

static void edge_text(const history *h, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt, char *buf, size_t n) {
    char a[96], b[96], kb[128], v1[160], v2[160];
    cert_txn_name(h, e->from, a, sizeof a);
    cert_txn_name(h, e->to, b, sizeof b);
    if (e->kind != DEP_SO) history_key_str(h, e->key, kb, sizeof kb);
    switch (e->kind) {
    case DEP_SO: snprintf(buf, n, "SO: %s precedes %s in session %" PRId64, a, b, h->sessions[h->txns[e->to].session].ext_id); break;
    case DEP_WR: snprintf(buf, n, "WR %s: %s reads %s=%s written by %s", kb, b, kb, cert_value_str(h, r, v1, sizeof v1), a); break;
    case DEP_WW: snprintf(buf, n, "WW %s: %s's %s=%s is the version right before %s's %s=%s", kb, a, kb,
                          cert_value_str(h, wf, v1, sizeof v1), b, kb, cert_value_str(h, wt, v2, sizeof v2)); break;
    case DEP_RW: snprintf(buf, n, "RW %s: %s reads %s=%s, which %s's %s=%s overwrites next", kb, a, kb,
                          cert_value_str(h, r, v1, sizeof v1), b, kb, cert_value_str(h, wt, v2, sizeof v2)); break;
    default: snprintf(buf, n, "?");
    }
}

static int check_edge(void *vctx, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt) {
    verify_ctx *V = vctx;
    if (e->kind == DEP_SO && !V->f->so) return 1;   /* the plain levels: no session order */
    V->edges++;
    if (e->from == 0) return 1;            /* INIT precedes everything */
    uint32_t x, y, ix;
    int cc = V->si && e->kind == DEP_WW && V->f->ww_commit;   /* pc: commit before commit */
    if (!V->si) { x = V->pc[e->from]; y = V->pc[e->to]; ix = V->idx_c[e->to]; }
    else if (e->kind == DEP_RW || cc) { x = V->ps[e->from]; y = V->pc[e->to]; ix = V->idx_c[e->to]; if (cc) x = V->pc[e->from]; }
    else { x = V->pc[e->from]; y = V->ps[e->to]; ix = V->idx_s[e->to]; }
    if (x < y) return 1;
    char a[96], b[96], et[700];
    cert_txn_name(V->h, e->from, a, sizeof a);
    cert_txn_name(V->h, e->to, b, sizeof b);
    edge_text(V->h, e, r, wf, wt, et, sizeof et);
    long line = V->c->order_line.len > ix ? (long)V->c->order_line.data[ix] : 0;
    if (!V->si)
        ic_error_at(V->err, V->c->file, line, "%s; so %s must come before %s, but the commit order puts %s first", et, a, b, b);
    else if (cc)
        ic_error_at(V->err, V->c->file, line, "%s; so %s must commit before %s commits, but the order has c%" PRId64 " first",
                    et, a, b, V->h->txns[e->to].ext_id);
    else if (e->kind == DEP_RW)
        ic_error_at(V->err, V->c->file, line, "%s; so %s must start before %s commits, but the order has c%" PRId64 " first",
                    et, a, b, V->h->txns[e->to].ext_id);
    else
        ic_error_at(V->err, V->c->file, line, "%s; so %s must commit before %s starts, but the order has s%" PRId64 " first",
                    et, a, b, V->h->txns[e->to].ext_id);
    return 0;
}

cert_status cert_verify(const history *h, const certificate *c, int si, ic_error *err, uint64_t *edges_checked) {
    if (c->level != LEVEL_SI && c->level != LEVEL_SER) return cert_verify_level(h, c, si ? LEVEL_SI : LEVEL_SER, err, edges_checked);
    certificate k = *c;                          /* si and ser certificates: the form says the level */
    k.level = c->si ? LEVEL_SI : LEVEL_SER;
    return cert_verify_level(h, &k, si ? LEVEL_SI : LEVEL_SER, err, edges_checked);
}

cert_status cert_verify_level(const history *h, const certificate *c, check_level_id level, ic_error *err,
                              uint64_t *edges_checked) {
    if (edges_checked) *edges_checked = 0;
    const pred_fact *pf = NULL;              /* what a predicate read returned contradicts every version (predicate.h); */
    for (size_t i = 0; h->preds && i < h->preds->facts.len && !pf; i++) {  /* but a view of the level's own (rr: */
        const pred_fact *x = &h->preds->facts.data[i];                     /* cert_rr.c; rc: cert_view.c) */
        if (!(level == LEVEL_RR && pred_fact_is_view(x)) && !(level == LEVEL_RC && x->kind == PF_MISS_READ && x->rc_view))
            pf = x;
    }
    if (pf) {
        const pred_read *pr = pf->read < h->preds->reads.len ? &h->preds->reads.data[pf->read] : NULL;
        ic_error_at(err, c->file, 0, "the history's predicate read (line %u) %s: no certificate proves a level with it",
                    pr ? pr->line : 0u, pf->kind == PF_MISMATCH ? "returned a version that does not match it"
                                                               : "left out a key whose version matches it");
        return CERT_REJECT;
    }
    if (level == LEVEL_SER && c->level == LEVEL_SI) {
        ic_error_at(err, c->file, 0, "the certificate orders start and commit events (level si); it does not prove serializability");
        return CERT_REJECT;
    }
    const cert_form *f = cert_form_of(c->level);
    if (!f || (c->level != level && !(c->level == LEVEL_SER && level == LEVEL_SI))) {
        ic_error_at(err, c->file, 0, "the certificate is for level %s; it does not prove %s (%s)",
                    (unsigned)c->level < LEVEL_COUNT ? level_name(c->level) : "?", level_name(level), level_title(level));
        return CERT_REJECT;
    }
    if (c->si != f->events) {
        ic_error_at(err, c->file, 0, "a certificate of level %s orders %s", level_name(c->level), f->events ? "events" : "transactions");
        return CERT_REJECT;
    }
    if (f->weak) {                           /* rc, ra, cc: the commit order alone (cert_weak.c) */
        uint32_t *order = xmalloc((c->order.len + 1) * sizeof *order);
        order[0] = 0;
        for (size_t i = 0; i < c->order.len; i++) order[i + 1] = c->order.data[i];
        cert_status st = cert_weak_verify_cert(h, (int)c->level, order, (uint32_t)c->order.len + 1, c, err);
        free(order);
        if (st != CERT_OK && !err->file[0]) snprintf(err->file, sizeof err->file, "%s", c->file);
        if (st == CERT_OK && edges_checked) *edges_checked = c->order.len;
        return st == CERT_OK ? CERT_OK : CERT_REJECT;
    }
    if (!f->ordered) {                       /* psi, rr: the version orders and a graph check */
        uint8_t *part = xcalloc(h->num_txns ? h->num_txns : 1, 1);
        part[0] = 1;
        for (uint32_t t = 1; t < h->num_txns; t++) part[t] = h->txns[t].status == TXN_COMMITTED;
        for (size_t i = 0; i < c->vo.txns.len; i++) {
            uint32_t t = c->vo.txns.data[i];
            if (t < h->num_txns && h->txns[t].status == TXN_INDETERMINATE) part[t] = 1;
        }
        int ok = cert_check_graph(h, c, &c->vo, part, err, edges_checked);
        free(part);
        return ok ? CERT_OK : CERT_REJECT;
    }
    /* Participants: INIT, the committed transactions, and the indeterminate
     * ones the certificate puts in its commit order (it claims they
     * committed; then all their writes and reads count).  No axiom check
     * is needed first: replaying every participant's reads against the
     * version order (cert_edges) covers INT and aborted, intermediate and
     * thin-air reads. */
    uint8_t *part = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    part[0] = 1;
    for (uint32_t t = 1; t < h->num_txns; t++) part[t] = h->txns[t].status == TXN_COMMITTED;
    for (size_t i = 0; i < c->order.len; i++) {
        uint32_t t = c->si ? c->order.data[i] >> 1 : c->order.data[i];
        if (t < h->num_txns && h->txns[t].status == TXN_INDETERMINATE) part[t] = 1;
    }
    verify_ctx V = { h, c, f, c->si, NULL, NULL, NULL, NULL, err, 0 };
    V.ps = xmalloc(h->num_txns * sizeof *V.ps);
    V.pc = xmalloc(h->num_txns * sizeof *V.pc);
    V.idx_s = xmalloc(h->num_txns * sizeof *V.idx_s);
    V.idx_c = xmalloc(h->num_txns * sizeof *V.idx_c);
    for (uint32_t t = 0; t < h->num_txns; t++) V.ps[t] = V.pc[t] = V.idx_s[t] = V.idx_c[t] = UINT32_MAX;
    V.ps[0] = 0; V.pc[0] = 1;
    cert_status rc = CERT_REJECT;
    char a[96];
    /* positions: SER txns at 2i+2 (start and commit coincide), SI events at i+2 */
    for (size_t i = 0; i < c->order.len; i++) {
        uint32_t x = c->order.data[i], t = c->si ? x >> 1 : x, is_commit = c->si ? (x & 1) : 2;
        long line = c->order_line.len > i ? (long)c->order_line.data[i] : 0;
        if (t == 0 || t >= h->num_txns) { ic_error_at(err, c->file, line, "unknown transaction in the commit order"); goto out; }
        if (!part[t]) {
            ic_error_at(err, c->file, line, "%s did not commit (%s) but is in the commit order", cert_txn_name(h, t, a, sizeof a),
                        "aborted");
            goto out;
        }
        uint32_t pos = (uint32_t)(c->si ? i + 2 : 2 * i + 2);
        if (is_commit != 0 && V.pc[t] != UINT32_MAX) {
            ic_error_at(err, c->file, line, "%s%s appears twice in the commit order", c->si ? "the commit of " : "", cert_txn_name(h, t, a, sizeof a));
            goto out;
        }
        if (is_commit != 1 && V.ps[t] != UINT32_MAX) {
            ic_error_at(err, c->file, line, "the start of %s appears twice in the order", cert_txn_name(h, t, a, sizeof a));
            goto out;
        }
        if (is_commit == 1 && V.ps[t] == UINT32_MAX) {
            ic_error_at(err, c->file, line, "%s commits before it starts (c%" PRId64 " before s%" PRId64 ")", cert_txn_name(h, t, a, sizeof a),
                        h->txns[t].ext_id, h->txns[t].ext_id);
            goto out;
        }
        if (is_commit != 0) { V.pc[t] = pos; V.idx_c[t] = (uint32_t)i; }
        if (is_commit != 1) { V.ps[t] = pos; V.idx_s[t] = (uint32_t)i; }
    }
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!part[t] || V.pc[t] != UINT32_MAX) continue;
        if (c->si && V.ps[t] != UINT32_MAX) ic_error_at(err, c->file, 0, "%s starts but never commits in the order", cert_txn_name(h, t, a, sizeof a));
        else ic_error_at(err, c->file, 0, "%s is missing from the commit order", cert_txn_name(h, t, a, sizeof a));
        goto out;
    }
    if (cert_edges(h, &c->vo, c, part, check_edge, &V, err) && (!f->rt || cert_check_rt(h, c, part, V.pc, c->si ? V.ps : V.pc, err)))
        rc = CERT_OK;
    if (edges_checked) *edges_checked = V.edges;
out:
    free(part);
    free(V.ps); free(V.pc); free(V.idx_s); free(V.idx_c);
    return rc;
}
