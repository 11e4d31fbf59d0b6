/* weak_premise.c — the premise edges of rc, ra and cc (weak_internal.h):
 * for every external read α of key x by t3 from t1 and every writer t2 of x
 * (t2 ∉ {INIT, t1, t3}) that the level makes visible to t3, the edge
 * t2 → t1 — only those no SO or B edge already implies.
 *
 *   rc  t2 is the source of one of t3's earlier external reads of another
 *       key: per read, the reads before it (O(Σ reads² per transaction));
 *   ra  t2 is a source of t3's reads (any key) or precedes t3 in its
 *       session: of the session predecessors only the latest writer of x,
 *       the others precede it (O(Σ reads² per transaction + ops));
 *   cc  t2 reaches t3 in B: per session s, only the latest writer of x
 *       that reaches t3, found from t3's vector clock (per session, the
 *       last transaction that reaches t3) in x's writers of s; it is
 *       skipped when t1's clock already covers it (it then reaches t1).
 *       O(n·k) clocks, O(k_x log w) per read (k_x: the sessions writing x).
 * An edge into INIT (t1 = INIT) is a cycle at once: the first one ends the
 * search (w->init_edge). */
#include "frontend/checking/weak_internal.h"

#include <stdlib.h>
#include <string.h>

void wk_push_extra(wk *w, uint32_t from, uint32_t to, uint32_t read_op, uint32_t vis_op, weak_basis b, weak_via v) {
    wk_extra e = { from, to, read_op, vis_op, (uint8_t)b, (uint8_t)v };
    if (to == 0 && w->init_edge < 0) w->init_edge = (int)w->extra.len;
    vec_push(w->extra, e);
}

/* a precedes b in a session (so a → b is implied). */
static int so_before(const history *h, uint32_t a, uint32_t b) {
    return a && b && h->txns[a].session == h->txns[b].session && a < b;
}

void wk_premise_rc(wk *w) {
    const history *h = w->h;
    uint32_t *seen = xcalloc(w->n, sizeof *seen), stamp = 0;
    for (uint32_t t3 = 1; t3 < w->n && w->init_edge < 0; t3++) {
        for (uint32_t i = w->rd_start[t3]; i < w->rd_start[t3 + 1]; i++) {
            uint32_t x = h->op_key[w->rd[i].op], t1 = w->rd[i].src;
            stamp++;
            for (uint32_t j = w->rd_start[t3]; j < i; j++) {
                uint32_t t2 = w->rd[j].src;
                if (t2 == 0 || t2 == t1 || seen[t2] == stamp || h->op_key[w->rd[j].op] == x) continue;
                seen[t2] = stamp;
                if (so_before(h, t2, t1) || !wk_writes(w, t2, x)) continue;
                wk_push_extra(w, t2, t1, w->rd[i].op, w->rd[j].op, WB_PREMISE, WV_EARLIER);
            }
        }
    }
    free(seen);
}

/* ra, one transaction t3: lw[x] (valid when lw_stamp[x] is its session + 1)
 * is the latest earlier participant of its session writing x. */
static void ra_txn(wk *w, uint32_t t3, const uint32_t *lw, const uint32_t *lw_stamp, uint32_t *seen, uint32_t *stamp) {
    const history *h = w->h;
    uint32_t sess = h->txns[t3].session + 1;
    for (uint32_t i = w->rd_start[t3]; i < w->rd_start[t3 + 1]; i++) {
        uint32_t x = h->op_key[w->rd[i].op], t1 = w->rd[i].src;
        if (lw_stamp[x] == sess && lw[x] != t1 && !so_before(h, lw[x], t1))
            wk_push_extra(w, lw[x], t1, w->rd[i].op, HISTORY_NONE, WB_PREMISE, WV_SESSION);
        (*stamp)++;
        for (uint32_t j = w->rd_start[t3]; j < w->rd_start[t3 + 1]; j++) {
            uint32_t t2 = w->rd[j].src;
            if (t2 == 0 || t2 == t1 || seen[t2] == *stamp) continue;
            seen[t2] = *stamp;
            if (so_before(h, t2, t1) || !wk_writes(w, t2, x)) continue;
            wk_push_extra(w, t2, t1, w->rd[i].op, w->rd[j].op, WB_PREMISE, WV_READ);
        }
    }
}

void wk_premise_ra(wk *w) {
    const history *h = w->h;
    size_t nk = h->num_keys ? h->num_keys : 1;
    uint32_t *lw = xcalloc(nk, sizeof *lw), *lw_stamp = xcalloc(nk, sizeof *lw_stamp);
    uint32_t *seen = xcalloc(w->n, sizeof *seen), stamp = 0;
    for (uint32_t s = 0; s < h->num_sessions && w->init_edge < 0; s++) {
        const history_session *se = &h->sessions[s];
        for (uint32_t t3 = se->first_txn; t3 < se->first_txn + se->num_txns && w->init_edge < 0; t3++) {
            if (!w->part[t3]) continue;
            ra_txn(w, t3, lw, lw_stamp, seen, &stamp);
            for (uint32_t k = w->wk_start[t3]; k < w->wk_start[t3 + 1]; k++) {
                lw[w->wk_key[k]] = t3;
                lw_stamp[w->wk_key[k]] = s + 1;
            }
        }
    }
    free(lw); free(lw_stamp); free(seen);
}

/* cc.  Clocks: vc[t * k + s] is the last transaction of session s that
 * reaches t in B or is t (0: none; INIT is in no session).  Runs: key x's
 * writers (ascending, so grouped by session) split by session. */
typedef struct cc_state {
    uint32_t k;
    uint32_t *vc;
    uint32_t *run_start;         /* num_keys + 1 into run_pos */
    uint32_t *run_pos;           /* each run's first index in kw_txn, then one past the last run's end */
} cc_state;

static void cc_clocks(wk *w, cc_state *c, const uint32_t *topo, uint32_t len) {
    const history *h = w->h;
    uint32_t k = c->k;
    c->vc = xcalloc((size_t)w->n * k, sizeof *c->vc);
    for (uint32_t i = 0; i < len; i++) {
        uint32_t t = topo[i];
        if (t == 0) continue;
        uint32_t *row = c->vc + (size_t)t * k;
        if (w->prev_so[t] != HISTORY_NONE) memcpy(row, c->vc + (size_t)w->prev_so[t] * k, k * sizeof *row);
        for (uint32_t r = w->rd_start[t]; r < w->rd_start[t + 1]; r++) {
            uint32_t src = w->rd[r].src;
            if (src == 0 || src == w->prev_so[t]) continue;
            const uint32_t *o = c->vc + (size_t)src * k;
            for (uint32_t s = 0; s < k; s++) if (o[s] > row[s]) row[s] = o[s];
        }
        row[h->txns[t].session] = t;
    }
}

static void cc_runs(wk *w, cc_state *c) {
    const history *h = w->h;
    vec_u32 pos; vec_init(pos);
    c->run_start = xmalloc(((size_t)h->num_keys + 1) * sizeof *c->run_start);
    for (uint32_t x = 0; x < h->num_keys; x++) {
        c->run_start[x] = (uint32_t)pos.len;
        for (uint32_t i = w->kw_start[x]; i < w->kw_start[x + 1]; i++)
            if (i == w->kw_start[x] || h->txns[w->kw_txn[i]].session != h->txns[w->kw_txn[i - 1]].session) vec_push(pos, i);
    }
    c->run_start[h->num_keys] = (uint32_t)pos.len;
    vec_push(pos, 0);
    c->run_pos = pos.data;
}

/* The latest writer in kw_txn[a .. b) that is <= lim and != self, or 0. */
static uint32_t latest_upto(const wk *w, uint32_t a, uint32_t b, uint32_t lim, uint32_t self) {
    uint32_t lo = a, hi = b;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (w->kw_txn[mid] <= lim) lo = mid + 1; else hi = mid;
    }
    if (lo > a && w->kw_txn[lo - 1] == self) lo--;
    return lo > a ? w->kw_txn[lo - 1] : 0;
}

static void cc_read(wk *w, const cc_state *c, uint32_t t3, uint32_t r) {
    const history *h = w->h;
    uint32_t x = h->op_key[w->rd[r].op], t1 = w->rd[r].src, k = c->k;
    const uint32_t *v3 = c->vc + (size_t)t3 * k, *v1 = t1 ? c->vc + (size_t)t1 * k : NULL;
    for (uint32_t q = c->run_start[x]; q < c->run_start[x + 1]; q++) {
        uint32_t a = c->run_pos[q], b = q + 1 < c->run_start[x + 1] ? c->run_pos[q + 1] : w->kw_start[x + 1];
        uint32_t s = h->txns[w->kw_txn[a]].session, lim = v3[s], have = v1 ? v1[s] : 0;
        if (lim <= have || lim < w->kw_txn[a]) continue;       /* nothing t1 does not already follow */
        uint32_t t2 = latest_upto(w, a, b, lim, t3);
        if (t2 <= have || t2 == t1) continue;
        wk_push_extra(w, t2, t1, w->rd[r].op, HISTORY_NONE, WB_PREMISE, WV_CAUSAL);
        if (w->init_edge >= 0) return;
    }
}

void wk_premise_cc(wk *w, const uint32_t *topo, uint32_t len) {
    cc_state c;
    c.k = w->h->num_sessions ? w->h->num_sessions : 1;
    cc_clocks(w, &c, topo, len);
    cc_runs(w, &c);
    for (uint32_t t3 = 1; t3 < w->n && w->init_edge < 0; t3++) {
        if (!w->part[t3]) continue;
        for (uint32_t r = w->rd_start[t3]; r < w->rd_start[t3 + 1] && w->init_edge < 0; r++) cc_read(w, &c, t3, r);
    }
    free(c.vc); free(c.run_start); free(c.run_pos);
}
