/* frontend/online/retire.c — the retirable set of a live history (behind
 * fences), and the stream's state: made, checked, and shrunk when a plan
 * retires (its input side: retire_feed.c; contract in
 * frontend/online/retire.h; why retiring keeps every verdict:
 * doc/checker.md, "Retiring transactions"). */
#include "frontend/online/retire.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/formats/parse.h"
#include "frontend/history/levels.h"
#include "frontend/history/load_report.h"
#include "frontend/online/follow_repeat.h"
#include "frontend/online/retire_free.h"
#include "frontend/online/retire_time.h"

#define NO_POS INT64_MAX         /* no chain fence at or after a transaction */

/* ---- the plan ---------------------------------------------------------- */

/* What the retired past left (R1's fence positions). */
typedef struct retire_input {
    int64_t fence_base;          /* chain position of INIT's fence version */
    const int64_t *prior_fence;  /* per session of h: its latest retired fence's position, -1 none */
    int64_t others_min;          /* least latest-fence position over known sessions absent from h
                                  * (INT64_MAX: none; -1: one has no fence) */
} retire_input;

/* Which transactions retire, and what the stream keeps of them. */
typedef struct retire_plan {
    uint8_t *retire;             /* per txn of h (INIT 0) */
    uint32_t count;              /* transactions retired */
    uint32_t *last_write;        /* per key of h: the last retired version's op, HISTORY_NONE if no
                                  * retired writer */
    int64_t fence_top;           /* position of the last retired fence (fence_base if none) */
    int64_t *session_fence;      /* per session of h: its latest retired chain fence's position
                                  * (the prior one if it retires nothing), -1 none */
    int64_t frontier;            /* q of R1 (-1: none) */
    uint32_t nfree;              /* retiring by time: keys freed (retire_free.h) */
    int64_t free_key[RETIRE_MAX_FREE];       /* each one's ext id, */
    int64_t free_values[RETIRE_MAX_FREE][RETIRE_MAX_CANDS];   /* its admitted candidates' values */
    uint32_t free_n[RETIRE_MAX_FREE];        /* and how many (>= 2: undecided) */
} retire_plan;

typedef struct plan_ctx {
    const history *h;
    int64_t *up, *down;          /* per txn: first chain fence at/after it, last at/before it */
    uint32_t ns;                 /* sessions */
    uint32_t *vc;                /* per txn, per session: 1 + the last position of that session
                                  * that reaches the txn by SO/WR edges (itself included) */
    uint32_t *own_before;        /* per txn: its own session's component before itself */
    uint32_t *reader_start, *readers;   /* per write op: the other txns that read its version */
    uint32_t *cut;               /* per session: its first transaction not retired (position) */
    const uint8_t *settled;      /* per txn: in the checked part */
} plan_ctx;

static int in_r(const plan_ctx *c, uint32_t t) {
    if (t == 0) return 1;
    const history_txn *x = &c->h->txns[t];
    return x->pos < c->cut[x->session];
}

/* Does a reach b by SO/WR edges (which every extension keeps)? */
static int reaches(const plan_ctx *c, uint32_t a, uint32_t b) {
    if (a == b || b == 0) return 0;
    if (a == 0) return 1;
    const history_txn *x = &c->h->txns[a];
    return c->vc[(size_t)b * c->ns + x->session] > x->pos;
}

/* Does a reach b strictly before b (through b's predecessors)? */
static int reaches_before(const plan_ctx *c, uint32_t a, uint32_t b) {
    if (a == b || b == 0) return 0;
    if (a == 0) return 1;
    const history_txn *x = &c->h->txns[a];
    uint32_t v = x->session == c->h->txns[b].session ? c->own_before[b] : c->vc[(size_t)b * c->ns + x->session];
    return v > x->pos;
}

/* Vector clocks over SO and WR in a topological order (Kahn); 0 if the
 * graph has a cycle (then the check has failed and nothing retires). */
static int clocks(plan_ctx *c) {
    const history *h = c->h;
    uint32_t n = h->num_txns;
    c->vc = xcalloc((size_t)n * c->ns + 1, sizeof *c->vc);
    c->own_before = xcalloc(n, sizeof *c->own_before);
    uint32_t *indeg = xcalloc(n, sizeof *indeg), *start = xcalloc(n + 1, sizeof *start);
    /* successors: the SO successor, and every reader of a txn's writes */
    for (uint32_t t = 1; t < n; t++) {
        const history_txn *x = &h->txns[t];
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            if (!history_op_is_read(h, op)) continue;
            uint32_t src = history_read_source(h, op);
            if (src == HISTORY_NONE || history_op_txn(h, src) == t || history_op_txn(h, src) == 0) continue;
            start[history_op_txn(h, src)]++;
            indeg[t]++;
        }
        if (x->pos) { start[t - 1]++; indeg[t]++; }
    }
    for (uint32_t t = 0, sum = 0; t <= n; t++) { uint32_t k = start[t]; start[t] = sum; sum += k; }
    uint32_t *succ = xmalloc((start[n] + 1) * sizeof *succ), *fill = xmalloc((n + 1) * sizeof *fill);
    memcpy(fill, start, (n + 1) * sizeof *fill);
    for (uint32_t t = 1; t < n; t++) {
        const history_txn *x = &h->txns[t];
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            if (!history_op_is_read(h, op)) continue;
            uint32_t src = history_read_source(h, op);
            if (src == HISTORY_NONE || history_op_txn(h, src) == t || history_op_txn(h, src) == 0) continue;
            succ[fill[history_op_txn(h, src)]++] = t;
        }
        if (x->pos) succ[fill[t - 1]++] = t;
    }
    uint32_t *queue = xmalloc(n * sizeof *queue), qh = 0, qt = 0;
    for (uint32_t t = 1; t < n; t++) if (!indeg[t]) queue[qt++] = t;
    while (qh < qt) {
        uint32_t t = queue[qh++];
        uint32_t *v = c->vc + (size_t)t * c->ns, s = h->txns[t].session;
        c->own_before[t] = v[s];
        v[s] = h->txns[t].pos + 1;
        for (uint32_t i = start[t]; i < start[t + 1]; i++) {
            uint32_t u = succ[i];
            uint32_t *w = c->vc + (size_t)u * c->ns;
            for (uint32_t j = 0; j < c->ns; j++) if (v[j] > w[j]) w[j] = v[j];
            if (--indeg[u] == 0) queue[qt++] = u;
        }
    }
    int acyclic = qt == n - 1;
    free(indeg); free(start); free(succ); free(fill); free(queue);
    return acyclic;
}

/* Readers of each write op's version (other transactions), CSR. */
void retire_readers_of(const history *h, uint32_t **start, uint32_t **readers) {
    uint32_t *rs = xcalloc(h->num_ops + 1, sizeof *rs);
    for (uint32_t op = 0; op < h->num_ops; op++) {
        if (!history_op_is_read(h, op)) continue;
        uint32_t src = history_read_source(h, op);
        if (src != HISTORY_NONE && history_op_txn(h, src) != history_op_txn(h, op)) rs[src]++;
    }
    for (uint32_t op = 0, sum = 0; op <= h->num_ops; op++) { uint32_t k = rs[op]; rs[op] = sum; sum += k; }
    uint32_t *rd = xmalloc((rs[h->num_ops] + 1) * sizeof *rd);
    uint32_t *fill = xmalloc((h->num_ops + 1) * sizeof *fill);
    memcpy(fill, rs, (h->num_ops + 1) * sizeof *fill);
    for (uint32_t op = 0; op < h->num_ops; op++) {
        if (!history_op_is_read(h, op)) continue;
        uint32_t src = history_read_source(h, op);
        if (src != HISTORY_NONE && history_op_txn(h, src) != history_op_txn(h, op)) rd[fill[src]++] = history_op_txn(h, op);
    }
    free(fill);
    *start = rs;
    *readers = rd;
}

static void reader_index(plan_ctx *c) { retire_readers_of(c->h, &c->reader_start, &c->readers); }

/* Is transaction a's version of a key before version op b in every
 * admissible order?  a reaches b's transaction, or a reaches a settled
 * reader of b's version (else that reader would miss a's overwrite: a
 * cycle with one RW edge, which SER and SI both forbid).  A reader outside
 * the checked part is not used: its edge could pick a last retired version
 * that the checked part's orders need not have (retire_time.c's
 * ordered_before, where review found that false PASS). */
static int ordered_before(const plan_ctx *c, uint32_t a, uint32_t b) {
    if (reaches(c, a, history_op_txn(c->h, b))) return 1;
    for (uint32_t i = c->reader_start[b]; i < c->reader_start[b + 1]; i++)
        if (c->settled[c->readers[i]] && reaches_before(c, a, c->readers[i])) return 1;
    return 0;
}

/* Remove t and its session successors from R; 1 if R changed. */
static int drop(plan_ctx *c, uint32_t t) {
    if (t == 0 || !in_r(c, t)) return 0;
    const history_txn *x = &c->h->txns[t];
    c->cut[x->session] = x->pos;
    return 1;
}

/* The fence key's id in h, HISTORY_NONE if absent. */
static uint32_t fence_key_of(const history *h) {
    for (uint32_t k = 0; k < h->num_keys; k++)
        if (h->key_name[k] == HISTORY_NONE && h->key_ext[k] == RETIRE_FENCE_KEY) return k;
    return HISTORY_NONE;
}

/* Chain positions per txn (-1: not in the chain). */
static int64_t *chain_positions(const history *h, const uint8_t *settled, uint32_t fk, int64_t base) {
    int64_t *pos = xmalloc(h->num_txns * sizeof *pos);
    for (uint32_t t = 0; t < h->num_txns; t++) pos[t] = -1;
    if (fk == HISTORY_NONE) return pos;
    u64map next;                 /* version op -> the fence that read it (UINT32_MAX - 1: two) */
    u64map_init(&next);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!settled[t] || h->txns[t].status != TXN_COMMITTED) continue;
        uint32_t rd = history_txn_external_read(h, t, fk);
        if (rd == HISTORY_NONE || history_txn_final_write(h, t, fk) == HISTORY_NONE) continue;
        uint32_t src = history_external_source(h, rd);
        if (src == HISTORY_NONE) continue;
        uint32_t had = u64map_get(&next, src);
        u64map_put(&next, src, had == UINT32_MAX ? t : UINT32_MAX - 1);
    }
    uint32_t cur = fk;           /* INIT's op for key fk */
    for (int64_t p = base;;) {
        uint32_t f = u64map_get(&next, cur);
        if (f >= UINT32_MAX - 1) break;            /* the end, or a fork: the chain stops */
        pos[f] = ++p;
        cur = history_txn_final_write(h, f, fk);
    }
    u64map_free(&next);
    return pos;
}

/* The plan R of the contract (retire.h): always succeeds, count 0 when
 * nothing may retire. */
static void retire_plan_compute(const history *h, const uint8_t *settled, const retire_input *in, retire_plan *p) {
    memset(p, 0, sizeof *p);
    p->retire = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    p->last_write = xmalloc((h->num_keys ? h->num_keys : 1) * sizeof *p->last_write);
    for (uint32_t k = 0; k < h->num_keys; k++) p->last_write[k] = HISTORY_NONE;
    p->session_fence = xmalloc((h->num_sessions ? h->num_sessions : 1) * sizeof *p->session_fence);
    p->fence_top = in->fence_base;
    p->frontier = -1;
    uint32_t fk = fence_key_of(h);
    int64_t *chain = chain_positions(h, settled, fk, in->fence_base);
    plan_ctx c;
    c.h = h;
    c.settled = settled;
    c.up = xmalloc(h->num_txns * sizeof *c.up);
    c.down = xmalloc(h->num_txns * sizeof *c.down);
    c.cut = xcalloc(h->num_sessions ? h->num_sessions : 1, sizeof *c.cut);
    /* up/down per session, and each session's latest fence */
    int64_t q = in->others_min;
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        const history_session *ss = &h->sessions[s];
        int64_t last = in->prior_fence ? in->prior_fence[s] : -1;
        for (uint32_t i = 0; i < ss->num_txns; i++) {
            uint32_t t = ss->first_txn + i;
            if (chain[t] >= 0) last = chain[t];
            c.down[t] = last;
        }
        int64_t next = NO_POS;
        for (uint32_t i = ss->num_txns; i-- > 0;) {
            uint32_t t = ss->first_txn + i;
            if (chain[t] >= 0) next = chain[t];
            c.up[t] = next;
        }
        if (last < q) q = last;
    }
    p->frontier = q == INT64_MAX ? -1 : q;
    c.ns = h->num_sessions ? h->num_sessions : 1;
    int acyclic = clocks(&c);
    reader_index(&c);
    /* R1 and R0: each session's prefix of settled, committed, frozen transactions */
    if (q >= 0 && !h->has_lists && acyclic)
        for (uint32_t s = 0; s < h->num_sessions; s++) {
            const history_session *ss = &h->sessions[s];
            uint32_t i = 0;
            while (i < ss->num_txns) {
                uint32_t t = ss->first_txn + i;
                if (!settled[t] || h->txns[t].status != TXN_COMMITTED || c.up[t] > q) break;
                i++;
            }
            c.cut[s] = i;
        }
    /* R2-R4 to a fixpoint: each pass only shrinks R */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t t = 1; t < h->num_txns; t++) {                 /* R2 */
            if (!in_r(&c, t)) continue;
            const history_txn *x = &h->txns[t];
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                if (!history_op_is_read(h, op)) continue;
                uint32_t src = history_read_source(h, op);
                if (src == HISTORY_NONE || !in_r(&c, history_op_txn(h, src))) { changed |= drop(&c, t); break; }
            }
        }
        for (uint32_t k = 0; k < h->num_keys; k++) {                 /* R3 */
            uint32_t best = HISTORY_NONE;        /* the latest-looking retired version */
            for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
                uint32_t w = h->key_writes[i], t = history_op_txn(h, w);
                if (t == 0 || !in_r(&c, t) || history_op_overwritten(h, w)) continue;
                if (best == HISTORY_NONE || ordered_before(&c, history_op_txn(h, best), w)) best = w;
            }
            p->last_write[k] = best;
            if (best == HISTORY_NONE) continue;
            uint32_t bt = history_op_txn(h, best);
            for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
                uint32_t w = h->key_writes[i], t = history_op_txn(h, w);
                if (t == 0 || t == bt || h->txns[t].status == TXN_ABORTED || history_op_overwritten(h, w)) continue;
                if (in_r(&c, t)) { if (!ordered_before(&c, t, best)) changed |= drop(&c, t); }
                else if (!ordered_before(&c, bt, w)) changed |= drop(&c, bt);
            }
        }
        if (changed) continue;
        for (uint32_t t = 1; t < h->num_txns; t++) {                 /* R4 */
            if (in_r(&c, t)) continue;
            const history_txn *x = &h->txns[t];
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                if (!history_op_is_read(h, op)) continue;
                uint32_t src = history_read_source(h, op), k = h->op_key[op];
                if (src == HISTORY_NONE || !in_r(&c, history_op_txn(h, src))) continue;
                uint32_t last = p->last_write[k] == HISTORY_NONE ? k : p->last_write[k];   /* INIT's op k */
                if (src != last) changed |= drop(&c, history_op_txn(h, last));
            }
        }
    }
    /* the plan; the fence key's last retired version must be a chain fence */
    if (fk != HISTORY_NONE && p->last_write[fk] != HISTORY_NONE) {
        int64_t top = chain[history_op_txn(h, p->last_write[fk])];
        if (top < 0) memset(c.cut, 0, h->num_sessions * sizeof *c.cut);
        else p->fence_top = top;
    }
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (in_r(&c, t)) { p->retire[t] = 1; p->count++; }
    for (uint32_t s = 0; s < h->num_sessions; s++)   /* live fences stay out: they follow live transactions */
        p->session_fence[s] = c.cut[s] ? c.down[h->sessions[s].first_txn + c.cut[s] - 1]
                                       : in->prior_fence ? in->prior_fence[s] : -1;
    if (!p->count) {
        for (uint32_t k = 0; k < h->num_keys; k++) p->last_write[k] = HISTORY_NONE;
        p->fence_top = in->fence_base;
    }
    free(chain);
    free(c.vc);
    free(c.own_before);
    free(c.reader_start);
    free(c.readers);
    free(c.up);
    free(c.down);
    free(c.cut);
}

static void retire_plan_free(retire_plan *p) {
    free(p->retire);
    free(p->last_write);
    free(p->session_fence);
    memset(p, 0, sizeof *p);
}

/* ---- the stream -------------------------------------------------------- */

void retire_stream_init(retire_stream *rs, const char *name, int want_si, int want_ser, size_t max_anomalies) {
    memset(rs, 0, sizeof *rs);
    rs->name = xmalloc(strlen(name) + 1);
    strcpy(rs->name, name);
    online_init(&rs->oc, want_si, want_ser, max_anomalies);
    /* the live part shrinks when transactions retire (ids change): every
     * check is from scratch, never the incremental path, which needs growth */
    rs->oc.from_scratch = 1;
    vec_init(rs->txns);
    vec_init(rs->ops);
    vec_init(rs->sessions);
    vec_init(rs->summary);
    u64map_init(&rs->txn_index);
    u64map_init(&rs->session_index);
    u64map_init(&rs->summary_index);
    rs->time_level = LEVEL_COUNT;
    rs->time_frontier = HISTORY_TIME_NONE;
    rs->max_lag = -1;
    rs->time_seen = HISTORY_TIME_NONE;
    retire_ids_init(&rs->retired_ids);
    vec_init(rs->cands);
    u64map_init(&rs->cand_index);
}

void retire_stream_by_time(retire_stream *rs, int level, int64_t max_lag) {
    rs->time_level = level;
    rs->max_lag = max_lag < 0 ? -1 : max_lag;
}

void retire_stream_free(retire_stream *rs) {
    online_free(&rs->oc);
    vec_free(rs->txns);
    vec_free(rs->ops);
    vec_free(rs->sessions);
    vec_free(rs->summary);
    u64map_free(&rs->txn_index);
    u64map_free(&rs->session_index);
    u64map_free(&rs->summary_index);
    retire_ids_free(&rs->retired_ids);
    vec_free(rs->cands);
    u64map_free(&rs->cand_index);
    free(rs->name);
    rs->name = NULL;
}

/* Drop the live transactions h's plan retires; record the summary. */
static void apply(retire_stream *rs, const history *h, const retire_plan *p) {
    for (uint32_t k = 0; k < h->num_keys; k++) {
        if (p->last_write[k] == HISTORY_NONE) continue;
        int64_t key = h->key_ext[k], v = history_op_value(h, p->last_write[k]);
        uint32_t i = u64map_get(&rs->summary_index, (uint64_t)key);
        if (i == UINT32_MAX) {
            u64map_put(&rs->summary_index, (uint64_t)key, (uint32_t)rs->summary.len);
            vec_push(rs->summary, v);
        } else rs->summary.data[i] = v;
        retire_free_drop(rs, key);                   /* a later version decides an undecided key */
    }
    for (uint32_t i = 0; i < p->nfree; i++)
        if (p->free_n[i] >= 2) retire_free_record(rs, p->free_key[i], p->free_values[i], p->free_n[i]);
    rs->fence_base = p->fence_top;
    int64_t *ids = xmalloc((p->count ? p->count : 1) * sizeof *ids);
    size_t nid = 0;
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (p->retire[t]) ids[nid++] = h->txns[t].ext_id;
    retire_ids_add(&rs->retired_ids, ids, nid);
    free(ids);
    for (uint32_t t = 1; t < h->num_txns; t++) {     /* retiring by time: the latest completion retired */
        int64_t done = p->retire[t] ? history_time(h, TIME_COMPLETE, t) : HISTORY_TIME_NONE;
        if (done != HISTORY_TIME_NONE && (rs->time_frontier == HISTORY_TIME_NONE || done > rs->time_frontier))
            rs->time_frontier = done;
    }
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t ls = u64map_get(&rs->session_index, (uint64_t)h->sessions[s].ext_id);
        if (p->session_fence[s] > rs->sessions.data[ls].latest_fence) rs->sessions.data[ls].latest_fence = p->session_fence[s];
    }
    uint32_t nt = (uint32_t)rs->txns.len;
    uint8_t *gone = xcalloc(nt ? nt : 1, 1);
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (p->retire[t]) gone[u64map_get(&rs->txn_index, (uint64_t)h->txns[t].ext_id)] = 1;
    uint32_t *to = xmalloc((nt ? nt : 1) * sizeof *to), m = 0;
    u64map_free(&rs->txn_index);
    u64map_init(&rs->txn_index);
    for (uint32_t t = 0; t < nt; t++) {
        retire_session *ss = &rs->sessions.data[rs->txns.data[t].session];
        if (gone[t]) { to[t] = HISTORY_NONE; ss->live--; continue; }
        to[t] = m;
        rs->txns.data[m] = rs->txns.data[t];
        u64map_put(&rs->txn_index, (uint64_t)rs->txns.data[m].ext_id, m);
        m++;
    }
    vec_shrink(rs->txns, m);
    vec_foreach(retire_session, ss, rs->sessions)
        if (ss->last_txn != HISTORY_NONE) ss->last_txn = to[ss->last_txn];
    size_t k = 0;
    vec_foreach(retire_op, o, rs->ops) {
        if (to[o->txn] == HISTORY_NONE) continue;
        retire_op c = *o;
        c.txn = to[o->txn];
        rs->ops.data[k++] = c;
    }
    vec_shrink(rs->ops, k);
    retire_free_collapse(rs, 0);         /* a live read may decide a key freed now */
    free(gone);
    free(to);
    rs->retired += p->count;
    rs->retirements++;
}

/* The time plan into p (allocated for h); f as retire_time_plan's. */
static void time_plan(retire_stream *rs, const history *h, const uint8_t *settled, retire_plan *p, retire_time_free *f) {
    memset(p, 0, sizeof *p);
    p->retire = xmalloc(h->num_txns);
    p->last_write = xmalloc((h->num_keys ? h->num_keys : 1) * sizeof *p->last_write);
    p->session_fence = xmalloc((h->num_sessions ? h->num_sessions : 1) * sizeof *p->session_fence);
    for (uint32_t s = 0; s < h->num_sessions; s++) p->session_fence[s] = -1;
    p->fence_top = rs->fence_base;
    p->count = retire_time_plan(h, settled, rs->time_level, retire_time_watermark(rs), p->retire, p->last_write, f);
}

/* q, the plan made with g's keys free: is it taken over p?  When it retires
 * more, every key it frees has 2 to RETIRE_MAX_CANDS candidates, and S
 * admits, for every combination of the admitted candidates (one per freed
 * key), those versions last together (retire_free_admit; at least one
 * admitted per key; every check answered); then q's freed keys are set. */
static int take_freed(retire_stream *rs, const history *h, const uint8_t *settled, const retire_time_free *g,
                      retire_plan *q, const retire_plan *p) {
    uint32_t freed = 0;
    for (uint32_t i = 0; i < g->nkeys; i++) {
        if (g->n[i] == 1 || g->n[i] > RETIRE_MAX_CANDS) return 0;
        freed += g->n[i] != 0;
    }
    retire_admitted adm[RETIRE_MAX_FREE];
    if (q->count <= p->count || !freed || !retire_free_admit(h, settled, rs->time_level, g, adm)) return 0;
    q->nfree = 0;
    for (uint32_t i = 0; i < g->nkeys; i++) {
        if (!g->n[i]) continue;
        uint32_t f = q->nfree++;
        q->last_write[g->key[i]] = adm[i].op[adm[i].n - 1];
        q->free_key[f] = h->key_ext[g->key[i]];
        q->free_n[f] = adm[i].n;
        for (uint32_t c = 0; c < adm[i].n; c++) q->free_values[f][c] = history_op_value(h, adm[i].op[c]);
    }
    return 1;
}

static int listed(const retire_time_free *g, uint32_t k) {
    for (uint32_t i = 0; i < g->nkeys; i++)
        if (g->key[i] == k) return 1;
    return 0;
}

/* A signature of g's freed keys and their candidates (ext ids, values). */
static uint64_t free_signature(const history *h, const retire_time_free *g) {
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (uint32_t i = 0; i < g->nkeys; i++)
        for (uint32_t c = 0; c < g->n[i] && c < RETIRE_MAX_CANDS; c++) {
            uint32_t op = g->cand[i][c];
            uint64_t v[3] = { (uint64_t)h->key_ext[g->key[i]], (uint64_t)h->txns[history_op_txn(h, op)].ext_id,
                              (uint64_t)history_op_value(h, op) };
            for (int j = 0; j < 3; j++) x = (x ^ v[j]) * 0x100000001b3u + (x >> 29);
        }
    return x ? x : 1;
}

/* When two unordered retired writes of a key set the cut (f->stall), the
 * plan again with that key freed, then with the key that stalls that plan
 * freed too, and so on (up to RETIRE_MAX_FREE keys: two keys stalled at the
 * same time would each hold the cut alone); taken when it retires more and
 * S admits the candidates kept (take_freed; doc/checker.md, "Two writes no
 * read orders"), else the plan with the first key alone.  1: *p replaced. */
static int free_stalled(retire_stream *rs, const history *h, const uint8_t *settled, const retire_time_free *f,
                        retire_plan *p) {
    if (f->stall == HISTORY_NONE) return 0;
    retire_time_free g;
    memset(&g, 0, sizeof g);
    g.key[g.nkeys++] = f->stall;
    retire_plan q;
    time_plan(rs, h, settled, &q, &g);
    while (g.stall != HISTORY_NONE && g.nkeys < RETIRE_MAX_FREE && !listed(&g, g.stall)) {
        retire_time_free t = g;
        t.key[t.nkeys++] = g.stall;
        retire_plan r;
        time_plan(rs, h, settled, &r, &t);
        if (r.count < q.count) { retire_plan_free(&r); break; }
        retire_plan_free(&q);
        q = r;
        g = t;
    }
    /* keys refused together with the same candidates are not checked again
     * at every later check (S only grew: what it did not admit it does not
     * admit now); refusing is always sound, it only retires less */
    uint64_t sig = g.nkeys > 1 ? free_signature(h, &g) : 0;
    int ok = (g.nkeys == 1 || sig != rs->free_refused) && take_freed(rs, h, settled, &g, &q, p);
    if (!ok && g.nkeys > 1) {                    /* the first key alone */
        if (q.count > p->count) rs->free_refused = sig;
        retire_plan_free(&q);
        memset(&g, 0, sizeof g);
        g.key[g.nkeys++] = f->stall;
        time_plan(rs, h, settled, &q, &g);
        ok = take_freed(rs, h, settled, &g, &q, p);
    }
    if (!ok) { retire_plan_free(&q); return 0; }
    rs->freed_keys += q.nfree;
    rs->freed_together += q.nfree > 1 ? q.nfree : 0;
    retire_plan_free(p);
    *p = q;
    return 1;
}

/* Retiring by time (retire_time.h): check the settled part at the level,
 * then retire what the plan allows. */
static int check_by_time(retire_stream *rs, history *h) {
    uint8_t *settled;
    int out = retire_time_check_settled(rs, h, &settled);
    if (out == ONLINE_NO_VIOLATION && !rs->oc.failed && rs->oc.checks) {
        retire_plan p;
        retire_time_free f;
        memset(&f, 0, sizeof f);
        time_plan(rs, h, settled, &p, &f);
        free_stalled(rs, h, settled, &f, &p);
        if (p.count) {
            apply(rs, h, &p);
            rs->oc.settled = 0;     /* the live part shrank: the next call must check again */
        }
        retire_plan_free(&p);
    }
    free(settled);
    history_free(h);
    return out;
}

int retire_stream_check(retire_stream *rs) {
    if (rs->oc.failed) return ONLINE_NO_VIOLATION;
    rs->fresh = 0;
    ic_error err;
    ic_error_clear(&err);
    history *h = retire_stream_history(rs, 0, &err);
    if (!h) {
        if (!err.set) return ONLINE_NO_VIOLATION;
        snprintf(rs->oc.unknown_msg, sizeof rs->oc.unknown_msg, "%s", err.msg);
        return ONLINE_UNKNOWN;
    }
    rs->checks++;
    if (rs->time_level != LEVEL_COUNT) return check_by_time(rs, h);
    int out = online_check(&rs->oc, h);
    if (out != ONLINE_NO_VIOLATION || rs->oc.failed || rs->oc.checks == 0) { history_free(h); return out; }
    uint32_t num;
    uint8_t *settled = online_settled(h, &num);
    int64_t *prior = xmalloc((h->num_sessions ? h->num_sessions : 1) * sizeof *prior);
    for (uint32_t s = 0; s < h->num_sessions; s++)
        prior[s] = rs->sessions.data[u64map_get(&rs->session_index, (uint64_t)h->sessions[s].ext_id)].latest_fence;
    /* known sessions with no completed live transaction still bound the frontier */
    uint8_t *present = xcalloc(rs->sessions.len ? rs->sessions.len : 1, 1);
    for (uint32_t s = 0; s < h->num_sessions; s++) present[u64map_get(&rs->session_index, (uint64_t)h->sessions[s].ext_id)] = 1;
    int64_t others = INT64_MAX;
    for (size_t s = 0; s < rs->sessions.len; s++)
        if (!present[s] && rs->sessions.data[s].latest_fence < others) others = rs->sessions.data[s].latest_fence;
    retire_input in = { rs->fence_base, prior, others };
    retire_plan p;
    retire_plan_compute(h, settled, &in, &p);
    if (p.count) {
        apply(rs, h, &p);
        rs->oc.settled = 0;     /* the live part shrank: the next call must check again */
    }
    retire_plan_free(&p);
    free(present);
    free(prior);
    free(settled);
    history_free(h);
    return ONLINE_NO_VIOLATION;
}
