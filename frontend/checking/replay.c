/* replay.c — a commit order checked by replaying it: session order, SER
 * in that order, the version order it implies; the order made from the
 * history's commit timestamps (contract in replay.h; the SI check by the
 * timestamps is replay_si.c). */
#include "frontend/checking/replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/checking/replay_internal.h"

void commit_hint_free(commit_hint *ch) {
    free(ch->order);
    free(ch->pos);
    free(ch->line);
    memset(ch, 0, sizeof *ch);
}

const char *replay_txn(const history *h, uint32_t t, char *buf, size_t n) {
    if (t == 0) snprintf(buf, n, "INIT");
    else snprintf(buf, n, "txn %" PRId64, h->txns[t].ext_id);
    return buf;
}

const char *replay_value(const history *h, uint32_t op, char *buf, size_t n) {
    if (op == HISTORY_NONE) { snprintf(buf, n, "?"); return buf; }
    if (history_op_kind(h, op) != OP_LIST_READ) return history_value_str(h, history_op_value(h, op), buf, n);
    uint32_t len;
    const int64_t *l = history_list(h, op, &len);
    size_t at = (size_t)snprintf(buf, n, "[");
    for (uint32_t i = 0; i < len && at + 40 < n; i++) {
        char v[64];
        at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? " " : "", history_value_str(h, l[i], v, sizeof v));
        if (i == 7 && len > 9) { at += (size_t)snprintf(buf + at, n - at, " ... (%u elements)", len); break; }
    }
    snprintf(buf + at, n - at, "]");
    return buf;
}

/* Where a and b are in the order: "commit order FILE: txn A at line L,
 * txn B at line M" or "commit timestamps: txn A at C, txn B at D". */
static const char *pair_where(const history *h, const commit_hint *ch, uint32_t a, uint32_t b, char *buf, size_t n) {
    char x[64], y[64];
    replay_txn(h, a, x, sizeof x);
    replay_txn(h, b, y, sizeof y);
    if (ch->source && ch->line)
        snprintf(buf, n, "commit order %s: %s at line %u, %s at line %u", ch->source, x, ch->line[a], y, ch->line[b]);
    else
        snprintf(buf, n, "commit timestamps: %s at %" PRId64 ", %s at %" PRId64, x, history_time(h, TIME_DB_COMMIT, a), y,
                 history_time(h, TIME_DB_COMMIT, b));
    return buf;
}

static const char *order_name(const commit_hint *ch) { return ch->source ? "commit order" : "commit timestamps"; }

int replay_session_order(const history *h, const commit_hint *ch, char *msg, size_t cap) {
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = HISTORY_NONE;
        for (uint32_t t = h->sessions[s].first_txn; t < h->sessions[s].first_txn + h->sessions[s].num_txns; t++) {
            if (!ch->part[t]) continue;
            if (prev != HISTORY_NONE && ch->pos[prev] > ch->pos[t]) {
                char a[64], b[64], wp[800];
                snprintf(msg, cap, "%s contradict%s session order: %s commits after %s, which follows it in its session (%s)",
                         order_name(ch), ch->source ? "s" : "", replay_txn(h, prev, a, sizeof a),
                         replay_txn(h, t, b, sizeof b), pair_where(h, ch, prev, t, wp, sizeof wp));
                return 0;
            }
            prev = t;
        }
    }
    return 1;
}

/* The finding for t's external read op of key k, which showed the version
 * of write src where the order says cur (register keys). */
static void stale_read(const history *h, const commit_hint *ch, uint32_t t, uint32_t op, uint32_t src, uint32_t cur,
                       char *msg, size_t cap) {
    char tn[64], wn[64], cn[64], kn[128], v[256], cv[256], where[600], ow[800];
    uint32_t k = h->op_key[op], w = src == HISTORY_NONE ? HISTORY_NONE : history_op_txn(h, src), c = history_op_txn(h, cur);
    replay_txn(h, t, tn, sizeof tn);
    history_key_str(h, k, kn, sizeof kn);
    replay_value(h, op, v, sizeof v);
    history_op_where(h, op, where, sizeof where);
    if (w != HISTORY_NONE && w != 0 && ch->pos[w] != HISTORY_NONE && ch->pos[w] > ch->pos[t]) {
        snprintf(msg, cap, "%s read %s=%s (%s), written by %s, which commits after it (%s): by the %s it read from the "
                 "future", tn, kn, v, where, replay_txn(h, w, wn, sizeof wn), pair_where(h, ch, t, w, ow, sizeof ow),
                 order_name(ch));
        return;
    }
    if (c == 0)
        snprintf(msg, cap, "%s read %s=%s (%s), but by the %s nothing wrote %s before it: it should read the initial value",
                 tn, kn, v, where, order_name(ch), kn);
    else
        snprintf(msg, cap, "%s read %s=%s (%s), but by the %s the last write of %s before it is %s's %s=%s (%s)", tn, kn, v,
                 where, order_name(ch), kn, replay_txn(h, c, cn, sizeof cn), kn, replay_value(h, cur, cv, sizeof cv),
                 pair_where(h, ch, c, t, ow, sizeof ow));
}

/* A list read whose prefix is not the list the order installed. */
static void list_mismatch(const history *h, const commit_hint *ch, uint32_t t, uint32_t op, uint32_t plen,
                          const vec_i64 *want, uint32_t cur, char *msg, size_t cap) {
    char tn[64], cn[64], kn[128], v[600], where[600], ow[800];
    uint32_t k = h->op_key[op], c = history_op_txn(h, cur);
    replay_txn(h, t, tn, sizeof tn);
    history_key_str(h, k, kn, sizeof kn);
    replay_value(h, op, v, sizeof v);
    history_op_where(h, op, where, sizeof where);
    snprintf(msg, cap, "%s read %s=%s (%s; %u elements of the snapshot), but by the %s %s holds %zu elements before it, "
             "the last appended by %s (%s)", tn, kn, v, where, plen, order_name(ch), kn, want->len,
             replay_txn(h, c, cn, sizeof cn), pair_where(h, ch, c, t, ow, sizeof ow));
}

int replay_ser(const history *h, const commit_hint *ch, char *msg, size_t cap) {
    uint32_t nk = h->num_keys;
    uint32_t *cur = xmalloc((size_t)nk * sizeof *cur), *stamp = xcalloc(nk, sizeof *stamp);
    uint32_t *own = xcalloc(nk, sizeof *own);
    vec_i64 *lists = h->has_lists ? xcalloc(nk, sizeof *lists) : NULL;
    for (uint32_t k = 0; k < nk; k++) cur[k] = k;                 /* INIT's op k */
    int ok = 1;
    for (uint32_t i = 0; i < ch->n && ok; i++) {
        uint32_t t = ch->order[i], first = h->txns[t].first_op, end = first + h->txns[t].num_ops;
        for (uint32_t op = first; op < end && ok; op++) {
            if (history_op_failed(h, op)) continue;
            uint32_t k = h->op_key[op];
            switch (history_op_kind(h, op)) {
            case OP_READ:
                if (stamp[k] == i + 1) break;                    /* after an own write: INT (the axioms) */
                /* values are unique per key: the same value is the same write, no lookup */
                if (history_op_value(h, op) != history_op_value(h, cur[k])) {
                    stale_read(h, ch, t, op, history_read_source(h, op), cur[k], msg, cap);
                    ok = 0;
                }
                break;
            case OP_LIST_READ: {
                uint32_t len, mine = stamp[k] == i + 1 ? own[k] : 0;
                const int64_t *l = history_list(h, op, &len);
                uint32_t plen = len >= mine ? len - mine : 0;
                if (plen != lists[k].len || (plen && memcmp(l, lists[k].data, plen * sizeof *l) != 0)) {
                    list_mismatch(h, ch, t, op, plen, &lists[k], cur[k], msg, cap);
                    ok = 0;
                }
                break;
            }
            case OP_WRITE:
                stamp[k] = i + 1;
                break;
            case OP_APPEND:
                if (stamp[k] != i + 1) { stamp[k] = i + 1; own[k] = 0; }
                own[k]++;
                break;
            }
        }
        if (!ok) break;
        for (uint32_t op = first; op < end; op++) {                /* installed at commit */
            if (!history_op_is_write(h, op)) continue;
            uint32_t k = h->op_key[op];
            if (history_op_kind(h, op) == OP_APPEND) vec_push(lists[k], history_op_value(h, op));
            if (!history_op_overwritten(h, op)) cur[k] = op;
        }
    }
    if (lists) { for (uint32_t k = 0; k < nk; k++) vec_free(lists[k]); free(lists); }
    free(cur); free(stamp); free(own);
    return ok;
}

int replay_reads_from(const history *h, const commit_hint *ch, char *msg, size_t cap) {
    uint32_t *stamp = xcalloc(h->num_keys, sizeof *stamp);
    vec_u32 reads;                      /* the external register reads, then their writers looked up ahead */
    vec_init(reads);
    int ok = 1;
    for (uint32_t i = 0; i < ch->n; i++) {
        uint32_t t = ch->order[i];
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            if (history_op_failed(h, op)) continue;
            uint32_t k = h->op_key[op];
            op_kind kind = history_op_kind(h, op);
            if (kind == OP_WRITE || kind == OP_APPEND) stamp[k] = i + 1;
            else if (kind == OP_LIST_READ || stamp[k] != i + 1) vec_push(reads, op);
        }
    }
    for (size_t r = 0; r < reads.len && ok; r++) {
        if (r + HISTORY_PREFETCH_AHEAD < reads.len) {
            uint32_t q = reads.data[r + HISTORY_PREFETCH_AHEAD];
            history_writer_prefetch_slot(h, h->op_key[q], history_read_value(h, q));
        }
        if (r + HISTORY_PREFETCH_AHEAD / 2 < reads.len) {
            uint32_t q = reads.data[r + HISTORY_PREFETCH_AHEAD / 2];
            history_writer_prefetch_op(h, h->op_key[q], history_read_value(h, q));
        }
        uint32_t op = reads.data[r], t = history_op_txn(h, op), k = h->op_key[op];
        uint32_t src = history_op_kind(h, op) == OP_READ ? history_read_source(h, op) : history_external_source(h, op);
        uint32_t w = src == HISTORY_NONE ? HISTORY_NONE : history_op_txn(h, src);
        if (w == HISTORY_NONE || w == 0 || w == t || ch->pos[w] == HISTORY_NONE || ch->pos[w] < ch->pos[t]) continue;
        char tn[64], wn[64], kn[128], v[600], where[600], ow[800];
        snprintf(msg, cap, "%s read %s=%s (%s), written by %s, which commits after it (%s): a transaction reads what "
                 "committed before it started", replay_txn(h, t, tn, sizeof tn), history_key_str(h, k, kn, sizeof kn),
                 replay_value(h, op, v, sizeof v), history_op_where(h, op, where, sizeof where),
                 replay_txn(h, w, wn, sizeof wn), pair_where(h, ch, t, w, ow, sizeof ow));
        ok = 0;
    }
    vec_free(reads);
    free(stamp);
    return ok;
}

void replay_version_order(const history *h, const commit_hint *ch, version_order *vo) {
    uint32_t nk = h->num_keys;
    vo->num_keys = nk;
    vo->start = xcalloc((size_t)nk + 1, sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t i = 0; i < ch->n; i++) {                        /* count each key's versions */
        uint32_t t = ch->order[i];
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
            if (history_op_is_write(h, op) && !history_op_overwritten(h, op)) vo->start[h->op_key[op] + 1]++;
    }
    for (uint32_t k = 0; k < nk; k++) vo->start[k + 1] += vo->start[k] + 1;   /* + INIT */
    vec_reserve(vo->txns, vo->start[nk]);
    vo->txns.len = vo->start[nk];
    uint32_t *at = xmalloc((size_t)nk * sizeof *at);
    for (uint32_t k = 0; k < nk; k++) { vo->txns.data[vo->start[k]] = 0; at[k] = vo->start[k] + 1; }
    for (uint32_t i = 0; i < ch->n; i++) {
        uint32_t t = ch->order[i];
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
            if (history_op_is_write(h, op) && !history_op_overwritten(h, op)) vo->txns.data[at[h->op_key[op]]++] = t;
    }
    free(at);
}

/* Sorting the participants by commit timestamp. */
typedef struct cts { int64_t c; uint32_t t; } cts;

static int cmp_cts(const void *a, const void *b) {
    const cts *x = a, *y = b;
    if (x->c != y->c) return x->c < y->c ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

int commit_hint_from_times(const history *h, const uint8_t *part, commit_hint *ch, char *msg, size_t cap) {
    memset(ch, 0, sizeof *ch);
    ch->part = part;
    uint32_t n = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!part[t]) continue;
        if (history_time(h, TIME_DB_COMMIT, t) == HISTORY_TIME_NONE) {
            char tn[64], w[600];
            snprintf(msg, cap, "%s (%s) has no commit timestamp: the history's timestamps do not order every committed "
                     "transaction", replay_txn(h, t, tn, sizeof tn), history_txn_where(h, t, w, sizeof w));
            return -1;
        }
        n++;
    }
    cts *a = xmalloc(((size_t)n + 1) * sizeof *a);
    n = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!part[t]) continue;
        a[n++] = (cts){ history_time(h, TIME_DB_COMMIT, t), t };
    }
    qsort(a, n, sizeof *a, cmp_cts);
    ch->n = n;
    ch->order = xmalloc(((size_t)n + 1) * sizeof *ch->order);
    ch->pos = xmalloc((size_t)h->num_txns * sizeof *ch->pos);
    for (uint32_t t = 0; t < h->num_txns; t++) ch->pos[t] = HISTORY_NONE;
    for (uint32_t i = 0; i < n; i++) { ch->order[i] = a[i].t; ch->pos[a[i].t] = i; }
    free(a);
    return replay_writers_distinct(h, ch, msg, cap);
}
