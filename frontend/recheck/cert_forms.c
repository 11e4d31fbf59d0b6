/* cert_forms.c — what each level's certificate is (the table below,
 * contract in certificate.h, argument in doc/certificate.md) and the two
 * checks that are more than one comparison an edge: real time against a
 * commit order, and psi's graph check (rr's: cert_rr.c).
 *
 * A level gets a certificate by a row here (and, for a new kind of check,
 * a branch in cert_verify_level): rc, ra and cc are orders of transactions
 * checked by cert_weak_verify (cert_weak.c). */
#include "frontend/recheck/certificate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/recheck/cert_internal.h"

static const cert_form forms[] = {
    /* level            events ordered so rt ww_commit weak */
    { LEVEL_SI,         1,     1,      1, 0, 0,        0 },
    { LEVEL_SER,        0,     1,      1, 0, 0,        0 },
    { LEVEL_PC,         1,     1,      1, 0, 1,        0 },
    { LEVEL_PSI,        0,     0,      1, 0, 0,        0 },
    { LEVEL_SI_PLAIN,   1,     1,      0, 0, 0,        0 },
    { LEVEL_SER_PLAIN,  0,     1,      0, 0, 0,        0 },
    { LEVEL_STRONG_SI,  1,     1,      1, 1, 0,        0 },
    { LEVEL_SSER,       0,     1,      1, 1, 0,        0 },
    { LEVEL_RC,         0,     1,      1, 0, 0,        1 },
    { LEVEL_RA,         0,     1,      1, 0, 0,        1 },
    { LEVEL_CC,         0,     1,      1, 0, 0,        1 },
    { LEVEL_RR,         0,     0,      0, 0, 0,        0 },
};

const cert_form *cert_form_of(check_level_id level) {
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        if (forms[i].level == level) return &forms[i];
    return NULL;
}

typedef struct by_done { int64_t t; uint32_t txn; } by_done;
static int cmp_done(const void *a, const void *b) {
    const by_done *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return (x->txn > y->txn) - (x->txn < y->txn);
}

/* Sorted by completion, with a running maximum of the commit positions,
 * each transaction's latest-committing real-time predecessor is found by
 * one binary search: n log n for up to n^2 edges. */
int cert_check_rt(const history *h, const certificate *c, const uint8_t *part, const uint32_t *pc, const uint32_t *ps,
                  ic_error *err) {
    const int64_t *inv = h->times[TIME_INVOKE], *cmp = h->times[TIME_COMPLETE];
    if (!inv) {
        ic_error_at(err, c->file, 0, "level %s needs invocation and completion times; this history has none", level_name(c->level));
        return 0;
    }
    VEC(by_done) d; vec_init(d);
    for (uint32_t t = 1; t < h->num_txns && cmp; t++)
        if (part[t] && h->txns[t].status == TXN_COMMITTED && cmp[t] != HISTORY_TIME_NONE) {
            by_done x = { cmp[t], t };
            vec_push(d, x);
        }
    if (d.len > 1) qsort(d.data, d.len, sizeof *d.data, cmp_done);
    uint32_t *best = xmalloc((d.len ? d.len : 1) * sizeof *best);      /* argmax of pc over d[0..j] */
    for (size_t j = 0; j < d.len; j++)
        best[j] = j && pc[d.data[best[j - 1]].txn] > pc[d.data[j].txn] ? best[j - 1] : (uint32_t)j;
    int ok = 1;
    for (uint32_t b = 1; b < h->num_txns && ok; b++) {
        if (!part[b] || inv[b] == HISTORY_TIME_NONE) continue;
        size_t lo = 0, hi = d.len;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (d.data[mid].t < inv[b]) lo = mid + 1; else hi = mid;
        }
        if (!lo) continue;
        uint32_t a = d.data[best[lo - 1]].txn;
        if (pc[a] < ps[b]) continue;
        char an[96], bn[96];
        ic_error_at(err, c->file, 0, "RT: %s completed (at %" PRId64 ") before %s was invoked (at %" PRId64 "); so %s must %s %s%s, "
                    "but the commit order does not put it first", cert_txn_name(h, a, an, sizeof an), cmp[a],
                    cert_txn_name(h, b, bn, sizeof bn), inv[b], an, c->si ? "commit before" : "come before", bn,
                    c->si ? " starts" : "");
        ok = 0;
    }
    free(best);
    vec_free(d);
    return ok;
}

int cert_check_graph(const history *h, const certificate *c, const version_order *vo, const uint8_t *part,
                     ic_error *err, uint64_t *edges) {
    return c->level == LEVEL_RR ? cert_check_rr(h, c, vo, part, err, edges) : cert_check_psi(h, c, vo, part, err, edges);
}

/* ---- psi ---------------------------------------------------------------- */

typedef struct psi_ctx { vec_u32 dfrom, dto, rfrom, rto; uint64_t edges; } psi_ctx;

static int psi_edge(void *vctx, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt) {
    (void)r; (void)wf; (void)wt;
    psi_ctx *P = vctx;
    P->edges++;
    if (e->kind == DEP_RW) { vec_push(P->rfrom, e->from); vec_push(P->rto, e->to); }
    else { vec_push(P->dfrom, e->from); vec_push(P->dto, e->to); }
    return 1;
}

int cert_check_psi(const history *h, const certificate *c, const version_order *vo, const uint8_t *part,
                   ic_error *err, uint64_t *edges) {
    psi_ctx P; memset(&P, 0, sizeof P);
    if (!cert_edges(h, vo, c, part, psi_edge, &P, err)) { vec_free(P.dfrom); vec_free(P.dto); vec_free(P.rfrom); vec_free(P.rto); return 0; }
    if (edges) *edges = P.edges;
    uint32_t n = h->num_txns;
    uint32_t *start = xcalloc((size_t)n + 1, sizeof *start), *adj = xmalloc((P.dto.len ? P.dto.len : 1) * sizeof *adj);
    for (size_t i = 0; i < P.dfrom.len; i++) start[P.dfrom.data[i] + 1]++;
    for (uint32_t u = 0; u < n; u++) start[u + 1] += start[u];
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, start, ((size_t)n + 1) * sizeof *fill);
    for (size_t i = 0; i < P.dfrom.len; i++) adj[fill[P.dfrom.data[i]]++] = P.dto.data[i];
    /* Kahn: D must be acyclic */
    uint32_t *indeg = fill, *queue = xmalloc((n ? n : 1) * sizeof *queue), *topo = xmalloc((n ? n : 1) * sizeof *topo);
    memset(indeg, 0, ((size_t)n + 1) * sizeof *indeg);
    for (size_t i = 0; i < P.dto.len; i++) indeg[P.dto.data[i]]++;
    uint32_t qh = 0, qt = 0;
    for (uint32_t u = 0; u < n; u++) { topo[u] = UINT32_MAX; if (!indeg[u]) queue[qt++] = u; }
    while (qh < qt) {
        uint32_t u = queue[qh];
        topo[u] = qh++;
        for (uint32_t j = start[u]; j < start[u + 1]; j++) if (--indeg[adj[j]] == 0) queue[qt++] = adj[j];
    }
    int ok = qt == n;
    char an[96], bn[96];
    if (!ok) {
        uint32_t t = 0;
        while (t < n && topo[t] != UINT32_MAX) t++;
        ic_error_at(err, c->file, 0, "the version orders leave a cycle of SO, WR and WW edges (through %s), which psi forbids",
                    cert_txn_name(h, t, an, sizeof an));
    }
    /* every RW edge r -> w: w must not reach r by D edges (a cycle with one RW edge) */
    uint32_t *stamp = xcalloc(n ? n : 1, sizeof *stamp);
    for (size_t i = 0; i < P.rfrom.len && ok; i++) {
        uint32_t rd = P.rfrom.data[i], w = P.rto.data[i], lim = topo[rd];
        if (topo[w] > lim) continue;
        uint32_t mark = (uint32_t)i + 1;
        qh = qt = 0; queue[qt++] = w; stamp[w] = mark;
        while (qh < qt && ok) {
            uint32_t u = queue[qh++];
            if (u == rd) {
                ic_error_at(err, c->file, 0, "RW: %s reads a version that %s overwrites, and %s reaches %s by SO, WR and WW "
                            "edges: a cycle with one RW edge, which psi forbids", cert_txn_name(h, rd, an, sizeof an),
                            cert_txn_name(h, w, bn, sizeof bn), bn, an);
                ok = 0;
                break;
            }
            for (uint32_t j = start[u]; j < start[u + 1]; j++)
                if (stamp[adj[j]] != mark && topo[adj[j]] <= lim) { stamp[adj[j]] = mark; queue[qt++] = adj[j]; }
        }
    }
    free(stamp); free(start); free(adj); free(fill); free(queue); free(topo);
    vec_free(P.dfrom); vec_free(P.dto); vec_free(P.rfrom); vec_free(P.rto);
    return ok;
}
