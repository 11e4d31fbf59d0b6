/* replay_si.c — SI checked by the database's start and commit timestamps
 * (replay_si_times, contract in replay.h), and distinct commit timestamps
 * for the writers of a key. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/checking/replay_internal.h"

int replay_writers_distinct(const history *h, const commit_hint *ch, char *msg, size_t cap) {
    uint32_t *last = xmalloc((size_t)h->num_keys * sizeof *last);
    for (uint32_t k = 0; k < h->num_keys; k++) last[k] = HISTORY_NONE;
    int ok = 1;
    for (uint32_t i = 0; i < ch->n && ok; i++) {
        uint32_t t = ch->order[i];
        int64_t c = history_time(h, TIME_DB_COMMIT, t);
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops && ok; op++) {
            if (!history_op_is_write(h, op) || history_op_overwritten(h, op)) continue;
            uint32_t k = h->op_key[op], p = last[k];
            if (p != HISTORY_NONE && history_time(h, TIME_DB_COMMIT, p) == c) {
                char a[64], b[64], kn[128];
                snprintf(msg, cap, "%s and %s both write %s and commit at the same timestamp %" PRId64 ": the commit "
                         "timestamps do not order their versions", replay_txn(h, p, a, sizeof a),
                         replay_txn(h, t, b, sizeof b), history_key_str(h, k, kn, sizeof kn), c);
                ok = 0;
            }
            last[k] = t;
        }
    }
    free(last);
    return ok;
}

typedef struct wver { int64_t c; uint32_t op, t; } wver;     /* t: op's transaction */

static int cmp_wver(const void *a, const void *b) {
    const wver *x = a, *y = b;
    return x->c < y->c ? -1 : x->c > y->c;
}

/* Per key, its versions by commit timestamp: v[vs[k] .. vs[k+1]); for list
 * keys the elements in that order, el[es[i] .. es[i+1]) for version i. */
typedef struct sitab {
    uint32_t *vs;
    wver *v;
    uint64_t *es;                /* per version + 1 (lists only) */
    vec_i64 el;
} sitab;

static int64_t ts(const history *h, history_time_kind k, uint32_t t) { return history_time(h, k, t); }

/* Timestamps present, start <= commit, session order.  1, 0, -1. */
static int si_txns(const history *h, const uint8_t *part, char *msg, size_t cap) {
    char a[64], b[64], w[600];
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!part[t]) continue;
        int64_t s = ts(h, TIME_DB_START, t), c = ts(h, TIME_DB_COMMIT, t);
        if (s == HISTORY_TIME_NONE || c == HISTORY_TIME_NONE) {
            snprintf(msg, cap, "%s (%s) has no %s timestamp: the history's timestamps do not cover every committed "
                     "transaction", replay_txn(h, t, a, sizeof a), history_txn_where(h, t, w, sizeof w),
                     s == HISTORY_TIME_NONE ? "start" : "commit");
            return -1;
        }
    }
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!part[t]) continue;
        int64_t s = ts(h, TIME_DB_START, t), c = ts(h, TIME_DB_COMMIT, t);
        if (s > c) {
            snprintf(msg, cap, "%s (%s) starts at %" PRId64 ", after it commits at %" PRId64, replay_txn(h, t, a, sizeof a),
                     history_txn_where(h, t, w, sizeof w), s, c);
            return 0;
        }
    }
    for (uint32_t se = 0; se < h->num_sessions; se++) {
        uint32_t prev = HISTORY_NONE;
        for (uint32_t t = h->sessions[se].first_txn; t < h->sessions[se].first_txn + h->sessions[se].num_txns; t++) {
            if (!part[t]) continue;
            if (prev != HISTORY_NONE && ts(h, TIME_DB_COMMIT, prev) > ts(h, TIME_DB_START, t)) {
                snprintf(msg, cap, "timestamps contradict session order: %s follows %s in its session (%s) but starts at %"
                         PRId64 ", before %s commits at %" PRId64, replay_txn(h, t, a, sizeof a),
                         replay_txn(h, prev, b, sizeof b), history_txn_where(h, t, w, sizeof w),
                         ts(h, TIME_DB_START, t), b, ts(h, TIME_DB_COMMIT, prev));
                return 0;
            }
            prev = t;
        }
    }
    return 1;
}

/* Each key's versions sorted by commit; ties and overlapping writers are
 * findings.  1 or 0. */
static int si_versions(const history *h, const uint8_t *part, sitab *tb, char *msg, size_t cap) {
    uint32_t nk = h->num_keys;
    tb->vs = xmalloc(((size_t)nk + 1) * sizeof *tb->vs);
    tb->v = xmalloc(((size_t)h->key_write_start[nk] + 1) * sizeof *tb->v);
    uint32_t n = 0;
    for (uint32_t k = 0; k < nk; k++) {
        tb->vs[k] = n;
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t op = h->key_writes[i], t = history_op_txn(h, op);
            if (t == 0 || !part[t] || history_op_overwritten(h, op)) continue;
            tb->v[n++] = (wver){ ts(h, TIME_DB_COMMIT, t), op, t };
        }
        qsort(tb->v + tb->vs[k], n - tb->vs[k], sizeof *tb->v, cmp_wver);
        for (uint32_t i = tb->vs[k] + 1; i < n; i++) {
            uint32_t a = history_op_txn(h, tb->v[i - 1].op), b = history_op_txn(h, tb->v[i].op);
            if (tb->v[i].c != tb->v[i - 1].c && ts(h, TIME_DB_START, b) >= tb->v[i - 1].c) continue;
            char an[64], bn[64], kn[128];              /* a finding: named */
            history_key_str(h, k, kn, sizeof kn);
            replay_txn(h, a, an, sizeof an);
            replay_txn(h, b, bn, sizeof bn);
            if (tb->v[i].c == tb->v[i - 1].c) {
                snprintf(msg, cap, "%s and %s both write %s and commit at the same timestamp %" PRId64 ": the commit "
                         "timestamps do not order their versions", an, bn, kn, tb->v[i].c);
                return 0;
            }
            if (ts(h, TIME_DB_START, b) < tb->v[i - 1].c) {
                snprintf(msg, cap, "lost update (write conflict): %s and %s both write %s and run concurrently (%s: start "
                         "%" PRId64 ", commit %" PRId64 "; %s: start %" PRId64 ", commit %" PRId64 "): under SI the first "
                         "committer wins, and %s should have aborted", an, bn, kn, an, ts(h, TIME_DB_START, a), tb->v[i - 1].c,
                         bn, ts(h, TIME_DB_START, b), tb->v[i].c, bn);
                return 0;
            }
        }
    }
    tb->vs[nk] = n;
    if (!h->has_lists) return 1;
    tb->es = xmalloc(((size_t)n + 1) * sizeof *tb->es);
    vec_init(tb->el);
    for (uint32_t i = 0; i < n; i++) {
        tb->es[i] = tb->el.len;
        uint32_t op = tb->v[i].op, t = history_op_txn(h, op), k = h->op_key[op];
        if (history_op_kind(h, op) != OP_APPEND) continue;
        for (uint32_t o = h->txns[t].first_op; o < h->txns[t].first_op + h->txns[t].num_ops; o++)
            if (h->op_key[o] == k && history_op_is_write(h, o)) vec_push(tb->el, history_op_value(h, o));
    }
    tb->es[n] = tb->el.len;
    return 1;
}

/* The index of the version t's snapshot shows on key k (the last committed
 * at or before t's start, t's own excluded), or -1: the initial value. */
static long si_visible(const history *h, const sitab *tb, uint32_t k, uint32_t t) {
    int64_t s = ts(h, TIME_DB_START, t);
    long lo = tb->vs[k], hi = (long)tb->vs[k + 1];        /* first with c > s */
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (tb->v[mid].c <= s) lo = mid + 1; else hi = mid;
    }
    long i = lo - 1;
    if (i >= (long)tb->vs[k] && tb->v[i].t == t) i--;
    return i >= (long)tb->vs[k] ? i : -1;
}

static void si_bad_read(const history *h, const sitab *tb, uint32_t t, uint32_t op, long want, char *msg, size_t cap) {
    char tn[64], wn[64], xn[64], kn[128], v[600], xv[256], where[600];
    uint32_t k = h->op_key[op];
    uint32_t src = history_op_kind(h, op) == OP_LIST_READ ? HISTORY_NONE : history_read_source(h, op);
    uint32_t w = src == HISTORY_NONE ? HISTORY_NONE : history_op_txn(h, src);
    int64_t s = ts(h, TIME_DB_START, t);
    replay_txn(h, t, tn, sizeof tn);
    history_key_str(h, k, kn, sizeof kn);
    replay_value(h, op, v, sizeof v);
    history_op_where(h, op, where, sizeof where);
    if (w != HISTORY_NONE && w != 0 && ts(h, TIME_DB_COMMIT, w) > s) {
        snprintf(msg, cap, "%s read %s=%s (%s), written by %s, which commits at %" PRId64 ", after %s's start at %" PRId64,
                 tn, kn, v, where, replay_txn(h, w, wn, sizeof wn), ts(h, TIME_DB_COMMIT, w), tn, s);
        return;
    }
    if (want < 0) {
        snprintf(msg, cap, "%s read %s=%s (%s), but no version of %s committed at or before its start at %" PRId64
                 ": it should read the initial value", tn, kn, v, where, kn, s);
        return;
    }
    uint32_t x = history_op_txn(h, tb->v[want].op);
    snprintf(msg, cap, "%s read %s=%s (%s), but %s's %s=%s, committed at %" PRId64 ", is the last version committed at "
             "or before %s's start at %" PRId64 ": a stale read", tn, kn, v, where, replay_txn(h, x, xn, sizeof xn), kn,
             history_value_str(h, history_op_value(h, tb->v[want].op), xv, sizeof xv), tb->v[want].c, tn, s);
}

/* The versions of the keys the ops ahead of op read, fetched early (the
 * ops are visited in order, the keys' versions are all over the table):
 * the key's bounds, then the middle of its versions, where the binary
 * search starts. */
HISTORY_PREFETCH_FN void prefetch_versions(const history *h, const sitab *tb, uint32_t op) {
    uint32_t a = op + HISTORY_PREFETCH_AHEAD, b = op + HISTORY_PREFETCH_AHEAD / 2;
    if (a < h->num_ops) HISTORY_PREFETCH(&tb->vs[h->op_key[a]]);
    if (b < h->num_ops) {
        uint32_t k = h->op_key[b];
        HISTORY_PREFETCH(&tb->v[tb->vs[k] + (tb->vs[k + 1] - tb->vs[k]) / 2]);
    }
}

/* Every participant's external reads against the versions.  1 or 0. */
static int si_reads(const history *h, const uint8_t *part, const sitab *tb, char *msg, size_t cap) {
    uint32_t *stamp = xcalloc(h->num_keys, sizeof *stamp), *own = xcalloc(h->num_keys, sizeof *own);
    int ok = 1;
    for (uint32_t t = 1; t < h->num_txns && ok; t++) {
        if (!part[t]) continue;
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops && ok; op++) {
            prefetch_versions(h, tb, op);
            if (history_op_failed(h, op)) continue;
            uint32_t k = h->op_key[op];
            op_kind kind = history_op_kind(h, op);
            if (kind == OP_WRITE) { stamp[k] = t; continue; }
            if (kind == OP_APPEND) { if (stamp[k] != t) { stamp[k] = t; own[k] = 0; } own[k]++; continue; }
            if (kind == OP_READ && stamp[k] == t) continue;                 /* INT: the axioms */
            long want = si_visible(h, tb, k, t);
            if (kind == OP_READ) {
                uint32_t exp = want < 0 ? k : tb->v[want].op;      /* values are unique per key */
                if (history_op_value(h, op) != history_op_value(h, exp)) { si_bad_read(h, tb, t, op, want, msg, cap); ok = 0; }
                continue;
            }
            uint32_t len, mine = stamp[k] == t ? own[k] : 0;
            const int64_t *l = history_list(h, op, &len);
            uint64_t plen = len >= mine ? len - mine : 0, e0 = tb->es[tb->vs[k]];
            uint64_t n = want < 0 ? 0 : tb->es[want + 1] - e0;
            if (plen != n || (n && memcmp(l, tb->el.data + e0, n * sizeof *l) != 0)) {
                si_bad_read(h, tb, t, op, want, msg, cap);
                ok = 0;
            }
        }
    }
    free(stamp); free(own);
    return ok;
}

int replay_si_times(const history *h, const uint8_t *part, char *msg, size_t cap) {
    int ok = si_txns(h, part, msg, cap);
    if (ok != 1) return ok;
    sitab tb;
    memset(&tb, 0, sizeof tb);
    ok = si_versions(h, part, &tb, msg, cap) && si_reads(h, part, &tb, msg, cap);
    free(tb.vs); free(tb.v); free(tb.es); vec_free(tb.el);
    return ok;
}
