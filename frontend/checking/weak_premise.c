/* weak_premise.c — the premise edges of rc, ra and cc (weak_internal.h):
 * for every external read α of key x by t3 from t1 and every writer t2 of x
 * (t2 ∉ {INIT, t1, t3}) that the level makes visible to t3, the edge
 * t2 → t1 — only those no SO or B edge already implies.
 *
 *   rc  t2 is the source of one of t3's earlier external reads of another
 *       key: per read, t3's distinct sources, gathered once per
 *       transaction (O(Σ r_t·d_t·log w) for r_t reads from d_t sources);
 *   ra  t2 is a source of t3's reads (any key) or precedes t3 in its
 *       session: of the session predecessors only the latest writer of x,
 *       the others precede it (the same, plus O(ops));
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

#include "par.h"

void wk_push_extra(wk *w, uint32_t from, uint32_t to, uint32_t read_op, uint32_t vis_op, weak_basis b, weak_via v) {
    wk_extra e = { from, to, read_op, vis_op, (uint8_t)b, (uint8_t)v };
    if (to == 0 && w->init_edge < 0) w->init_edge = (int)w->extra.len;
    vec_push(w->extra, e);
}

/* a precedes b in a session (so a → b is implied). */
static int so_before(const history *h, uint32_t a, uint32_t b) {
    return a && b && h->txns[a].session == h->txns[b].session && a < b;
}

/* The distinct sources of one transaction's external reads (INIT aside),
 * each with its written keys, its session, its first read (index f1, key
 * k1) and its first read of another key than k1 (f2): what rc and ra ask
 * per read, gathered once per transaction so that the reads' questions
 * touch only this table (the sources' data are scattered in memory). */
typedef struct src_info { uint32_t t, sess, kb, ke, f1, k1, f2; } src_info;
typedef VEC(src_info) src_vec;

static void sources_of(const wk *w, uint32_t t3, src_vec *d) {
    const history *h = w->h;
    vec_clear(*d);
    for (uint32_t j = w->rd_start[t3]; j < w->rd_start[t3 + 1]; j++) {
        uint32_t t2 = w->rd[j].src, key = h->op_key[w->rd[j].op];
        if (t2 == 0) continue;
        size_t q = 0;
        while (q < d->len && d->data[q].t != t2) q++;
        if (q == d->len) {
            src_info e = { t2, h->txns[t2].session, w->wk_start[t2], w->wk_start[t2 + 1], j, key, UINT32_MAX };
#if defined(__GNUC__)
            __builtin_prefetch(&w->wk_key[e.kb]);     /* asked for by every read below: fetch them all at once */
#endif
            vec_push(*d, e);
        } else if (d->data[q].f2 == UINT32_MAX && d->data[q].k1 != key) d->data[q].f2 = j;
    }
}

/* Whether source e writes key (its keys are ascending). */
static int src_writes(const wk *w, const src_info *e, uint32_t key) {
    uint32_t lo = e->kb, hi = e->ke;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (w->wk_key[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo < e->ke && w->wk_key[lo] == key;
}

/* rc (earlier: only sources read before α, of another key) or ra (every
 * source) for the reads of t3. */
static void read_premises(wk *w, uint32_t t3, const src_vec *d, int earlier) {
    const history *h = w->h;
    for (uint32_t i = w->rd_start[t3]; i < w->rd_start[t3 + 1]; i++) {
        uint32_t x = h->op_key[w->rd[i].op], t1 = w->rd[i].src, s1 = t1 ? h->txns[t1].session : HISTORY_NONE;
        vec_foreach(const src_info, e, *d) {
            uint32_t j = !earlier ? e->f1 : e->k1 != x ? e->f1 : e->f2;
            if (e->t == t1 || (earlier && (j == UINT32_MAX || j >= i || (w->rank && w->rank[j] >= w->rank[i])))) continue;
            if ((e->sess == s1 && e->t < t1) || !src_writes(w, e, x)) continue;   /* implied by SO, or not a writer */
            wk_push_extra(w, e->t, t1, w->rd[i].op, w->rd[j].op, WB_PREMISE, earlier ? WV_EARLIER : WV_READ);
        }
    }
}

void wk_premise_rc(wk *w) {
    src_vec d; vec_init(d);
    for (uint32_t t3 = 1; t3 < w->n && w->init_edge < 0; t3++) {
        if (w->rd_start[t3 + 1] - w->rd_start[t3] < 2) continue;
        sources_of(w, t3, &d);
        read_premises(w, t3, &d, 1);
    }
    vec_free(d);
}

/* ra, one transaction t3: lw[x] (valid when lw_stamp[x] is its session + 1)
 * is the latest earlier participant of its session writing x. */
static void ra_txn(wk *w, uint32_t t3, const uint32_t *lw, const uint32_t *lw_stamp, src_vec *d) {
    const history *h = w->h;
    uint32_t sess = h->txns[t3].session + 1;
    for (uint32_t i = w->rd_start[t3]; i < w->rd_start[t3 + 1]; i++) {
        uint32_t x = h->op_key[w->rd[i].op], t1 = w->rd[i].src;
        if (lw_stamp[x] == sess && lw[x] != t1 && !so_before(h, lw[x], t1))
            wk_push_extra(w, lw[x], t1, w->rd[i].op, HISTORY_NONE, WB_PREMISE, WV_SESSION);
    }
    sources_of(w, t3, d);
    read_premises(w, t3, d, 0);
}

void wk_premise_ra(wk *w) {
    const history *h = w->h;
    size_t nk = h->num_keys ? h->num_keys : 1;
    uint32_t *lw = xcalloc(nk, sizeof *lw), *lw_stamp = xcalloc(nk, sizeof *lw_stamp);
    src_vec d; vec_init(d);
    for (uint32_t s = 0; s < h->num_sessions && w->init_edge < 0; s++) {
        const history_session *se = &h->sessions[s];
        for (uint32_t t3 = se->first_txn; t3 < se->first_txn + se->num_txns && w->init_edge < 0; t3++) {
            if (!w->part[t3]) continue;
            ra_txn(w, t3, lw, lw_stamp, &d);
            for (uint32_t k = w->wk_start[t3]; k < w->wk_start[t3 + 1]; k++) {
                lw[w->wk_key[k]] = t3;
                lw_stamp[w->wk_key[k]] = s + 1;
            }
        }
    }
    free(lw); free(lw_stamp);
    vec_free(d);
}

/* cc.  Clocks: vc[t * k + s] is the last transaction of session s that
 * reaches t in B or is t (0: none; INIT is in no session).  Runs: key x's
 * writers (ascending, so grouped by session) split by session. */
typedef struct cc_state {
    uint32_t k;
    uint32_t *vc;
    uint32_t *run_start;         /* num_keys + 1 into run_pos */
    uint32_t *run_pos;           /* each run's first index in kw_txn, then one past the last run's end */
    uint32_t *run_sess;          /* each run's session (read per run and read: kept beside, not looked up) */
    uint32_t *kw_sess;           /* beside w->kw_txn: each writer's session */
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
            for (uint32_t s = 0; s < k; s++) row[s] = o[s] > row[s] ? o[s] : row[s];   /* a store per entry: vectorizes */
        }
        row[h->txns[t].session] = t;
    }
}

static void cc_runs(wk *w, cc_state *c) {
    const history *h = w->h;
    vec_u32 pos, sess; vec_init(pos); vec_init(sess);
    c->run_start = xmalloc(((size_t)h->num_keys + 1) * sizeof *c->run_start);
    c->kw_sess = xmalloc(((size_t)w->kw_start[h->num_keys] + 1) * sizeof *c->kw_sess);
    for (uint32_t i = 0; i < w->kw_start[h->num_keys]; i++) c->kw_sess[i] = h->txns[w->kw_txn[i]].session;
    for (uint32_t x = 0; x < h->num_keys; x++) {
        c->run_start[x] = (uint32_t)pos.len;
        for (uint32_t i = w->kw_start[x]; i < w->kw_start[x + 1]; i++)
            if (i == w->kw_start[x] || c->kw_sess[i] != c->kw_sess[i - 1]) {
                vec_push(pos, i);
                vec_push(sess, c->kw_sess[i]);
            }
    }
    c->run_start[h->num_keys] = (uint32_t)pos.len;
    vec_push(pos, 0);
    c->run_pos = pos.data;
    c->run_sess = sess.data;
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

static _Atomic int scan_slack = 16;   /* scan x's writers when they are at most 2 per run + this */
void weak_set_scan_slack(int slack) { scan_slack = slack; }

/* The writer of each session to order before t1 when x has few writers
 * per session: one pass over x's writers (two contiguous arrays), each
 * session's last writer not beyond t3's clock. */
static int cc_read_scan(const wk *w, const cc_state *c, uint32_t t3, uint32_t r, const uint32_t *v3, const uint32_t *v1,
                        wk_extra_vec *out) {
    uint32_t x = w->h->op_key[w->rd[r].op], t1 = w->rd[r].src, a = w->kw_start[x], b = w->kw_start[x + 1];
    const uint32_t *wt = w->kw_txn, *ws = c->kw_sess;
    for (uint32_t i = a; i < b; i++) {
        uint32_t s = ws[i], lim = v3[s];
        if (wt[i] > lim || (i + 1 < b && ws[i + 1] == s && wt[i + 1] <= lim)) continue;   /* not the last one <= lim */
        uint32_t t2 = wt[i];
        if (t2 == t3) t2 = i > a && ws[i - 1] == s ? wt[i - 1] : 0;
        if (t2 == 0 || t2 <= (v1 ? v1[s] : 0) || t2 == t1) continue;
        wk_extra e = { t2, t1, w->rd[r].op, HISTORY_NONE, WB_PREMISE, WV_CAUSAL };
        vec_push(*out, e);
        if (t1 == 0) return 1;
    }
    return 0;
}

/* The same, per session run with a binary search (x has many writers per session). */
static int cc_read(const wk *w, const cc_state *c, uint32_t t3, uint32_t r, wk_extra_vec *out) {
    uint32_t x = w->h->op_key[w->rd[r].op], t1 = w->rd[r].src, k = c->k;
    const uint32_t *v3 = c->vc + (size_t)t3 * k, *v1 = t1 ? c->vc + (size_t)t1 * k : NULL;
    uint32_t runs = c->run_start[x + 1] - c->run_start[x];
    if ((int64_t)(w->kw_start[x + 1] - w->kw_start[x]) <= 2 * (int64_t)runs + scan_slack) return cc_read_scan(w, c, t3, r, v3, v1, out);
    for (uint32_t q = c->run_start[x]; q < c->run_start[x + 1]; q++) {
        uint32_t s = c->run_sess[q], lim = v3[s], have = v1 ? v1[s] : 0;
        if (lim <= have) continue;                             /* nothing t1 does not already follow */
        uint32_t a = c->run_pos[q], b = q + 1 < c->run_start[x + 1] ? c->run_pos[q + 1] : w->kw_start[x + 1];
        uint32_t t2 = latest_upto(w, a, b, lim, t3);
        if (t2 <= have || t2 == t1) continue;
        wk_extra e = { t2, t1, w->rd[r].op, HISTORY_NONE, WB_PREMISE, WV_CAUSAL };
        vec_push(*out, e);
        if (t1 == 0) return 1;
    }
    return 0;
}

#define CC_AHEAD 8
static void cc_prefetch(const wk *w, const cc_state *c, uint32_t r) {
#if defined(__GNUC__)
    uint32_t x = w->h->op_key[w->rd[r].op], t1 = w->rd[r].src;
    __builtin_prefetch(&c->run_sess[c->run_start[x]]);
    __builtin_prefetch(&c->run_pos[c->run_start[x]]);
    for (uint32_t i = w->kw_start[x]; i < w->kw_start[x + 1] && i < w->kw_start[x] + 64; i += 16) {
        __builtin_prefetch(&w->kw_txn[i]);
        __builtin_prefetch(&c->kw_sess[i]);
    }
    if (t1) {
        const char *row = (const char *)(c->vc + (size_t)t1 * c->k);
        for (size_t b = 0; b < (size_t)c->k * sizeof *c->vc; b += 64) __builtin_prefetch(row + b);
    }
#else
    (void)w; (void)c; (void)r;
#endif
}

/* The reads in ranges, one task each, on the pool: task i's edges go to
 * out[i], appended in task order (the same edges for every pool).  A task
 * stops at its first edge into INIT, and so does every later task once an
 * earlier one has one (first: the lowest such task): the first such edge in
 * read order is found whatever the schedule. */
#define CC_TASKS 64
typedef struct cc_job {
    const wk *w;
    const cc_state *c;
    uint32_t nr;
    wk_extra_vec out[CC_TASKS];
    atomic_uint first;
} cc_job;

static void cc_task(void *ctx, size_t task) {
    cc_job *j = ctx;
    uint32_t lo = (uint32_t)((uint64_t)j->nr * task / CC_TASKS), hi = (uint32_t)((uint64_t)j->nr * (task + 1) / CC_TASKS);
    for (uint32_t r = lo; r < hi && atomic_load(&j->first) > task; r++) {
        if (r + CC_AHEAD < hi) cc_prefetch(j->w, j->c, r + CC_AHEAD);
        if (cc_read(j->w, j->c, history_op_txn(j->w->h, j->w->rd[r].op), r, &j->out[task])) {
            unsigned cur = atomic_load(&j->first);
            while (cur > task && !atomic_compare_exchange_weak(&j->first, &cur, (unsigned)task)) {}
            return;
        }
    }
}

void wk_premise_cc(wk *w, const uint32_t *topo, uint32_t len, struct par_pool *pool) {
    cc_state c;
    c.k = w->h->num_sessions ? w->h->num_sessions : 1;
    cc_clocks(w, &c, topo, len);
    cc_runs(w, &c);
    cc_job *j = xcalloc(1, sizeof *j);
    j->w = w; j->c = &c; j->nr = w->rd_start[w->n];
    atomic_init(&j->first, CC_TASKS);
    par_pool_run(pool, CC_TASKS, cc_task, j);
    for (unsigned i = 0; i < CC_TASKS; i++) {
        if (i <= atomic_load(&j->first))
            vec_foreach(const wk_extra, e, j->out[i]) wk_push_extra(w, e->from, e->to, e->read_op, e->vis_op, (weak_basis)e->basis, (weak_via)e->via);
        vec_free(j->out[i]);
    }
    free(j);
    free(c.vc); free(c.run_start); free(c.run_pos); free(c.run_sess); free(c.kw_sess);
}
