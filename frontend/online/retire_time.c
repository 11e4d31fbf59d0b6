/* frontend/online/retire_time.c — retiring by real time: the input's
 * promises checked as the #@time lines arrive, the watermark, the check of
 * the settled part at a real-time level, and the plan (contract in
 * frontend/online/retire_time.h; the proof: doc/checker.md, "Retiring by
 * time"). */
#include "frontend/online/retire_time.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/formats/text_times.h"
#include "frontend/online/retire.h"
#include "frontend/history/levels.h"
#include "frontend/run_check.h"

#define NONE HISTORY_TIME_NONE

/* ---- the #@time lines ---------------------------------------------------- */

char *retire_time_strip(const char *name, const char *text, size_t n, long base_line, retire_time_notes *notes,
                        ic_error *err) {
    char *copy = xmalloc(n + 1);
    memcpy(copy, text, n);
    copy[n] = 0;
    long line = base_line + 1;
    for (size_t at = 0; at < n; line++) {
        size_t end = at;
        while (end < n && copy[end] != '\n') end++;
        size_t p = at;
        while (p < end && (copy[p] == ' ' || copy[p] == '\t')) p++;
        if (end - p >= 6 && copy[p] == '#' && copy[p + 1] == '@') {
            char save = copy[end];
            copy[end] = 0;
            if (text_is_times(copy + p)) {
                if (end > p && copy[end - 1] == '\r') copy[end - 1] = 0;
                text_times tt;
                if (text_lex_times(copy + p, &tt, name, line, err) < 0) { free(copy); return NULL; }
                if (notes && (tt.t[TIME_INVOKE] == NONE || tt.t[TIME_COMPLETE] == NONE)) {
                    ic_error_at(err, name, line, "the #@time line of transaction %" PRId64 " lacks invoke= or complete= "
                                "(--retire by time needs both)", tt.txn);
                    free(copy);
                    return NULL;
                }
                if (notes && tt.t[TIME_COMPLETE] < tt.t[TIME_INVOKE]) {
                    ic_error_at(err, name, line, "transaction %" PRId64 " completes before it is invoked", tt.txn);
                    free(copy);
                    return NULL;
                }
                retire_time_note z = { tt.txn, tt.t[TIME_INVOKE], tt.t[TIME_COMPLETE], NONE, line, 0 };
                if (notes) vec_push(*notes, z);
                copy[p + 1] = ' ';                     /* "# time ...": a comment to the loader */
                if (end > p && copy[end - 1] == 0) copy[end - 1] = '\r';
            }
            copy[end] = save;
        }
        at = end < n ? end + 1 : n;
    }
    return copy;
}

void retire_time_seen(retire_stream *rs, retire_time_notes *notes) {
    int64_t seen = rs->time_seen;
    vec_foreach(retire_time_note, z, *notes) {
        z->seen = seen;
        if (seen == NONE || z->complete > seen) seen = z->complete;
    }
    rs->time_seen = seen;
}

/* T4 (--max-lag T) for note z of transaction x: 1, or 0 with err set. */
static int within_lag(retire_stream *rs, const retire_txn *x, const retire_time_note *z, ic_error *err) {
    if (rs->max_lag < 0) return 1;
    if (x->last_line > z->line) {
        ic_error_at(err, rs->name, (long)x->last_line, "transaction %" PRId64 " gets an operation after its #@time "
                    "line (line %ld; with --max-lag a transaction's #@time line is its last)", z->txn, z->line);
        return 0;
    }
    /* seen > invoke + T, without overflow */
    if (z->seen != NONE && z->seen > z->invoke && (uint64_t)z->seen - (uint64_t)z->invoke > (uint64_t)rs->max_lag) {
        ic_error_at(err, rs->name, z->line, "transaction %" PRId64 " is invoked at %" PRId64 ", but its #@time line "
                    "comes after one that completes at %" PRId64 ", more than --max-lag %" PRId64 " later (the promise: "
                    "every transaction's #@time line comes before any time more than T after its invocation)",
                    z->txn, z->invoke, z->seen, rs->max_lag);
        return 0;
    }
    return 1;
}

/* Give t the times of note z, checking T2, T3 and T4. */
static int take(retire_stream *rs, uint32_t t, retire_time_note *z, ic_error *err) {
    retire_txn *x = &rs->txns.data[t];
    retire_session *s = &rs->sessions.data[x->session];
    if (x->invoke != NONE) {
        ic_error_at(err, rs->name, z->line, "times for transaction %" PRId64 " given twice (a second #@time line)", z->txn);
        return 0;
    }
    if (!within_lag(rs, x, z, err)) return 0;
    if (s->latest_complete != NONE && z->invoke < s->latest_complete) {
        ic_error_at(err, rs->name, z->line, "transaction %" PRId64 " is invoked at %" PRId64 ", before its session's "
                    "previous transaction completed (at %" PRId64 "): --retire by time needs each session to run one "
                    "transaction at a time", z->txn, z->invoke, s->latest_complete);
        return 0;
    }
    if (rs->time_frontier != NONE && z->invoke <= rs->time_frontier) {
        ic_error_at(err, rs->name, z->line, "transaction %" PRId64 " is invoked at %" PRId64 ", not after every retired "
                    "transaction completed (the latest at %" PRId64 "): --retire by time needs every transaction "
                    "invoked after those", z->txn, z->invoke, rs->time_frontier);
        return 0;
    }
    x->invoke = z->invoke;
    x->complete = z->complete;
    s->latest_complete = z->complete;
    z->used = 1;
    return 1;
}

int retire_time_complete(retire_stream *rs, uint32_t t, long at, retire_time_notes *notes, ic_error *err) {
    retire_txn *x = &rs->txns.data[t];
    if (x->invoke != NONE) return 1;
    vec_foreach(retire_time_note, z, *notes)
        if (!z->used && z->txn == x->ext_id && z->line > (long)x->line && (at < 0 || z->line < at)) return take(rs, t, z, err);
    if (at < 0) ic_error_at(err, rs->name, rs->lines + 1, "transaction %" PRId64 " has no #@time line with invoke= and "
                            "complete= by the end of input (--retire by time needs every transaction's times)", x->ext_id);
    else ic_error_at(err, rs->name, at, "transaction %" PRId64 " has no #@time line with invoke= and complete= before "
                     "its session's next transaction begins here (--retire by time needs each transaction's times "
                     "after its operations, before its session goes on)", x->ext_id);
    return 0;
}

int retire_time_rest(retire_stream *rs, retire_time_notes *notes, ic_error *err) {
    vec_foreach(retire_time_note, z, *notes) {
        if (z->used) continue;
        uint32_t t = u64map_get(&rs->txn_index, (uint64_t)z->txn);
        if ((t == UINT32_MAX && rs->retirements && retire_ids_has(&rs->retired_ids, z->txn)) ||
            (t != UINT32_MAX && rs->txns.data[t].invoke != NONE)) {
            ic_error_at(err, rs->name, z->line, "times for transaction %" PRId64 " given twice (a second #@time line%s)",
                        z->txn, t == UINT32_MAX ? "; its first came before it was retired" : "");
            return 0;
        }
        if (t == UINT32_MAX || rs->sessions.data[rs->txns.data[t].session].last_txn != t ||
            z->line <= (long)rs->txns.data[t].line) {
            ic_error_at(err, rs->name, z->line, "the #@time line of transaction %" PRId64 " is not between its first "
                        "operation and its session's next transaction (--retire by time needs it there)", z->txn);
            return 0;
        }
        if (!take(rs, t, z, err)) return 0;
        if (rs->max_lag >= 0) {              /* T4: its last line; its session holds nothing open */
            rs->sessions.data[rs->txns.data[t].session].last_txn = HISTORY_NONE;
            rs->fresh++;
        }
    }
    return 1;
}

int64_t retire_time_watermark(const retire_stream *rs) {
    if (rs->max_lag >= 0) {                  /* T4: M - T */
        if (rs->time_seen == NONE) return NONE;
        if (rs->time_seen < INT64_MIN + 1 + rs->max_lag) return INT64_MIN + 1;
        return rs->time_seen - rs->max_lag;
    }
    int64_t w = INT64_MAX;
    vec_foreach(retire_session, s, rs->sessions) {
        int64_t ws = s->latest_complete;
        if (s->last_txn != HISTORY_NONE && rs->txns.data[s->last_txn].invoke != NONE) ws = rs->txns.data[s->last_txn].invoke;
        if (ws == NONE) return NONE;
        if (ws < w) w = ws;
    }
    return w == INT64_MAX ? NONE : w;
}

/* ---- the check ------------------------------------------------------------ */

int retire_time_check_settled(retire_stream *rs, const history *h, uint8_t **settled) {
    online_checker *oc = &rs->oc;
    uint32_t num;
    *settled = online_settled(h, &num);
    oc->seen = h->num_txns - 1;
    /* the same S as the last check, which passed (oc->settled is set only then) */
    if (num == 0 || (num == oc->settled && oc->checks > 0)) return num ? ONLINE_NO_VIOLATION : ONLINE_UNKNOWN;
    ic_error err;
    ic_error_clear(&err);
    history *s = history_subset(h, *settled, &err);
    if (!s) {
        snprintf(oc->unknown_msg, sizeof oc->unknown_msg, "%s", err.msg);
        return ONLINE_UNKNOWN;
    }
    oc->checks++;
    oc->scratch_checks++;
    report_init(&oc->rep, s, level_name((check_level_id)rs->time_level));
    run_check_options o;
    run_check_options_default(&o);
    for (int l = 0; l < LEVEL_COUNT; l++) o.want[l] = l == rs->time_level;
    o.max_anomalies = oc->max_anomalies;
    o.check.stop = oc->stop;
    o.check.stop_ctx = oc->stop_ctx;
    int cert_level;
    verdict v = VERDICT_UNKNOWN;
    if (!run_check(s, &o, &oc->rep, NULL, &cert_level, &err)) snprintf(oc->unknown_msg, sizeof oc->unknown_msg, "%s", err.msg);
    else {
        v = report_verdict(&oc->rep);
        for (int i = 0; v == VERDICT_UNKNOWN && i < oc->rep.num_levels; i++)
            if (oc->rep.levels[i].verdict == VERDICT_UNKNOWN)
                snprintf(oc->unknown_msg, sizeof oc->unknown_msg, "%s", oc->rep.levels[i].msg);
    }
    if (v == VERDICT_FAIL) {
        if (oc->on_detect) oc->on_detect(oc->detect_ctx, oc);
        oc->failed = 1;
        oc->proof = s;
        return ONLINE_VIOLATION;
    }
    report_free(&oc->rep);
    history_free(s);
    if (v != VERDICT_PASS) return ONLINE_UNKNOWN;       /* nothing retires on it; the next call checks again */
    oc->settled = num;
    return ONLINE_NO_VIOLATION;
}

/* ---- the plan ------------------------------------------------------------- */

typedef struct tplan {
    const history *h;
    int so;                      /* the level orders a session's transactions */
    int64_t tau;                 /* R: the completed transactions with complete < tau */
    uint32_t *reader_start, *readers;   /* per write op: the other transactions that read its version */
    const uint8_t *settled;      /* per txn: in the checked part S */
    const retire_time_free *f;   /* the keys that may be freed (NULL: none) */
    uint32_t stall;              /* the key of the last unordered pair that lowered the cut (what followed
                                  * may be its consequence), or HISTORY_NONE */
} tplan;

static int in_r(const tplan *c, uint32_t t) {
    if (t == 0) return 1;
    int64_t done = history_time(c->h, TIME_COMPLETE, t);
    return done != NONE && done < c->tau;
}

/* Lower the cut to t's completion (t and every later completion leave R). */
static int lower(tplan *c, uint32_t t) {
    if (t == 0 || !in_r(c, t)) return 0;
    c->tau = history_time(c->h, TIME_COMPLETE, t);
    return 1;
}

/* Lower the cut for two retired writers of k that no edge orders. */
static int lower_unordered(tplan *c, uint32_t t, uint32_t k) {
    if (!lower(c, t)) return 0;
    c->stall = k;
    return 1;
}

/* Is every transaction of h that accesses key k (reads or writes it) in R? */
static int accessors_in_r(const tplan *c, uint32_t k) {
    const history *h = c->h;
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (h->op_key[op] == k && !in_r(c, history_op_txn(h, op))) return 0;
    return 1;
}

/* Is k one of the keys that may be freed? */
static int may_free(const tplan *c, uint32_t k) {
    for (uint32_t i = 0; c->f && i < c->f->nkeys; i++)
        if (c->f->key[i] == k) return 1;
    return 0;
}

/* An edge a -> x that every admissible order keeps at sser and strong-si:
 * RT, SO, or x reads a write of a. */
static int edge(const tplan *c, uint32_t a, uint32_t x) {
    const history *h = c->h;
    if (a == x) return 0;
    if (a == 0) return 1;
    int64_t done = history_time(h, TIME_COMPLETE, a), inv = history_time(h, TIME_INVOKE, x);
    if (done != NONE && inv != NONE && done < inv) return 1;
    if (c->so && h->txns[a].session == h->txns[x].session && h->txns[a].pos < h->txns[x].pos) return 1;
    const history_txn *y = &h->txns[x];
    for (uint32_t op = y->first_op; op < y->first_op + y->num_ops; op++) {
        if (!history_op_is_read(h, op)) continue;
        uint32_t src = history_read_source(h, op);
        if (src != HISTORY_NONE && history_op_txn(h, src) == a) return 1;
    }
    return 0;
}

/* Is a's version of the key before version op b in every admissible
 * order?  An edge into b's writer, or into a settled reader of b's version
 * (which would otherwise miss a's overwrite: a cycle with one RW edge).
 * Only a reader in S: S's check passed under some order of its versions,
 * and the retired summary must agree with it; an unsettled reader's edge
 * would pick a last version that S's orders need not have, and retiring
 * would drop the contradiction (a false PASS; test_order_from_settled). */
static int ordered_before(const tplan *c, uint32_t a, uint32_t b) {
    if (edge(c, a, history_op_txn(c->h, b))) return 1;
    for (uint32_t i = c->reader_start[b]; i < c->reader_start[b + 1]; i++)
        if (c->settled[c->readers[i]] && edge(c, a, c->readers[i])) return 1;
    return 0;
}

static void reader_index(tplan *c) { retire_readers_of(c->h, &c->reader_start, &c->readers); }

/* R0, R2 and the basic conditions: one pass; 1 if the cut moved. */
static int pass_basic(tplan *c, const uint8_t *settled) {
    const history *h = c->h;
    int changed = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!in_r(c, t)) continue;
        const history_txn *x = &h->txns[t];
        if (!settled[t] || x->status != TXN_COMMITTED || history_time(h, TIME_INVOKE, t) == NONE ||
            (x->pos && !in_r(c, t - 1))) { changed |= lower(c, t); continue; }
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            if (!history_op_is_read(h, op)) continue;
            uint32_t src = history_read_source(h, op);
            if (src == HISTORY_NONE || !in_r(c, history_op_txn(h, src))) { changed |= lower(c, t); break; }
        }
    }
    return changed;
}

/* R3 for key k: last_write[k] set; 1 if the cut moved. */
static int pass_key(tplan *c, uint32_t k, uint32_t *last_write) {
    const history *h = c->h;
    uint32_t best = HISTORY_NONE;
    for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
        uint32_t w = h->key_writes[i], t = history_op_txn(h, w);
        if (t == 0 || !in_r(c, t) || history_op_overwritten(h, w)) continue;
        if (best == HISTORY_NONE || ordered_before(c, history_op_txn(h, best), w)) best = w;
    }
    last_write[k] = best;
    if (best == HISTORY_NONE) return 0;
    if (may_free(c, k) && accessors_in_r(c, k)) return 0;      /* undecided: its candidates, after the loop */
    uint32_t bt = history_op_txn(h, best);
    int changed = 0;
    for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
        uint32_t w = h->key_writes[i], t = history_op_txn(h, w);
        if (t == 0 || t == bt || h->txns[t].status == TXN_ABORTED || history_op_overwritten(h, w)) continue;
        if (in_r(c, t)) { if (!ordered_before(c, t, best)) changed |= lower_unordered(c, t, k); }
        else if (!ordered_before(c, bt, w)) changed |= lower(c, bt);
        if (!in_r(c, bt)) return 1;
    }
    return changed;
}

/* R4: every live read of a retired or initial version reads w_k's. */
static int pass_reads(tplan *c, const uint32_t *last_write) {
    const history *h = c->h;
    int changed = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (in_r(c, t)) continue;
        const history_txn *x = &h->txns[t];
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            if (!history_op_is_read(h, op)) continue;
            uint32_t src = history_read_source(h, op), k = h->op_key[op];
            if (src == HISTORY_NONE || history_op_txn(h, src) == t || !in_r(c, history_op_txn(h, src))) continue;
            uint32_t last = last_write[k] == HISTORY_NONE ? k : last_write[k];     /* INIT's op for k is k */
            if (src != last) changed |= lower(c, history_op_txn(h, last));
        }
    }
    return changed;
}

/* The retired writes of freed key f->key[i] that no other retired write
 * is ordered after (each is last in some order the edges allow). */
static void candidates(const tplan *c, retire_time_free *f, uint32_t i) {
    const history *h = c->h;
    uint32_t k = f->key[i], n = 0;
    for (uint32_t a = h->key_write_start[k]; a < h->key_write_start[k + 1]; a++) {
        uint32_t w = h->key_writes[a], t = history_op_txn(h, w), top = 1;
        if (t == 0 || !in_r(c, t) || history_op_overwritten(h, w)) continue;
        for (uint32_t j = h->key_write_start[k]; j < h->key_write_start[k + 1] && top; j++) {
            uint32_t u = h->key_writes[j], tu = history_op_txn(h, u);
            if (tu != t && tu != 0 && in_r(c, tu) && !history_op_overwritten(h, u) && ordered_before(c, t, u)) top = 0;
        }
        if (top && n++ < RETIRE_MAX_CANDS) f->cand[i][n - 1] = w;
    }
    f->n[i] = n;
}

uint32_t retire_time_plan(const history *h, const uint8_t *settled, int level, int64_t w, uint8_t *retire,
                          uint32_t *last_write, retire_time_free *f) {
    for (uint32_t k = 0; k < h->num_keys; k++) last_write[k] = HISTORY_NONE;
    memset(retire, 0, h->num_txns);
    if (f) {
        f->stall = HISTORY_NONE;
        memset(f->n, 0, sizeof f->n);
    }
    if (w == NONE || h->has_lists) return 0;
    tplan c = { h, level_session_order((check_level_id)level), w, NULL, NULL, settled,
                f, HISTORY_NONE };
    reader_index(&c);
    for (int changed = 1; changed;) {
        changed = pass_basic(&c, settled);
        if (changed) continue;
        for (uint32_t k = 0; k < h->num_keys; k++) changed |= pass_key(&c, k, last_write);
        if (changed) continue;
        changed = pass_reads(&c, last_write);
    }
    uint32_t count = 0;
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (in_r(&c, t)) { retire[t] = 1; count++; }
    if (f) {
        f->stall = c.stall;
        for (uint32_t i = 0; i < f->nkeys; i++)
            if (last_write[f->key[i]] != HISTORY_NONE && accessors_in_r(&c, f->key[i])) candidates(&c, f, i);
    }
    if (!count)
        for (uint32_t k = 0; k < h->num_keys; k++) last_write[k] = HISTORY_NONE;
    free(c.reader_start);
    free(c.readers);
    return count;
}
