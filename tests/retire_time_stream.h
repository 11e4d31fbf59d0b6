/* retire_time_stream.h — shared by the retire-by-time suites
 * (test_retire_time.c, test_retire_lag.c): a simulator run written as a
 * text stream with #@time lines, a batch check, streaming text through a
 * retire_stream that retires by time and checks after each chunk, and
 * tiny random timed histories for the oracle.  Header-only (static). */
#ifndef ISOCHECK_TESTS_RETIRE_TIME_STREAM_H
#define ISOCHECK_TESTS_RETIRE_TIME_STREAM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "workload/workload.h"
#include "frontend/formats/parse.h"
#include "frontend/history/levels.h"
#include "frontend/online/retire.h"
#include "frontend/run_check.h"

/* ---- a simulator run as text with times -------------------------------- */

typedef struct text_sink { vec_char buf; sim_times t; } text_sink;

static void append(vec_char *b, const char *s) { while (*s) vec_push(*b, *s++); }

static void put_times(void *ctx, const sim_times *t) { ((text_sink *)ctx)->t = *t; }

static int put_txn(void *ctx, uint32_t session, uint32_t pos, int64_t txn_id, int committed, const sim_op *ops,
                   uint32_t n_ops, ic_error *err) {
    (void)pos; (void)err;
    text_sink *ts = ctx;
    if (!committed || !n_ops) return 1;       /* the text format has no aborts */
    char line[160];
    for (uint32_t i = 0; i < n_ops; i++) {
        snprintf(line, sizeof line, "%c(%lld,%lld,%u,%lld)\n", ops[i].write ? 'w' : 'r', (long long)ops[i].key,
                 (long long)ops[i].value, session + 1, (long long)txn_id);
        append(&ts->buf, line);
    }
    snprintf(line, sizeof line, "#@time %lld invoke=%lld complete=%lld\n", (long long)txn_id, (long long)ts->t.invoke,
             (long long)ts->t.complete);
    append(&ts->buf, line);
    return 1;
}

static void run_sim(const workload_params *p, vec_char *out) {
    text_sink ts;
    vec_init(ts.buf);
    sim_sink sink = { &ts, put_txn };
    sim_times_sink tsink = { &ts, put_times };
    sim_truth truth;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(sim_run_timed(p, &sink, &tsink, &truth, NULL, NULL, &err), 1);
    vec_push(ts.buf, 0);
    ts.buf.len--;
    *out = ts.buf;
}

/* The batch verdict of h at level; the first anomaly's kind into *kind. */
static verdict batch(const history *h, int level, int *kind) {
    report rep;
    report_init(&rep, h, level_name((check_level_id)level));
    run_check_options o;
    run_check_options_default(&o);
    for (int l = 0; l < LEVEL_COUNT; l++) o.want[l] = l == level;
    int cert_level;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(run_check(h, &o, &rep, NULL, &cert_level, &err), 1);
    verdict v = report_verdict(&rep);
    if (kind) *kind = rep.items.len ? (int)rep.items.data[0].kind : -1;
    report_free(&rep);
    return v;
}

typedef struct stream_result {
    verdict verdict;             /* final */
    int kind;                    /* its first anomaly's kind, -1 none */
    int violation;               /* a violation was reported while streaming */
    uint64_t retired;
    uint32_t peak_live;
    int freed_key;               /* a key two unordered writes left undecided was freed (retire_free.c) */
    uint64_t freed_together;     /* keys freed with another at the same retirement (retire.c) */
} stream_result;

/* Stream text[0..n) in chunks of `lines` lines retiring by time at level,
 * checking after each; 0 if the stream refused the input (err set). */
static int stream_lag(const char *text, size_t n, size_t lines, int level, int64_t max_lag, stream_result *r,
                      ic_error *err) {
    retire_stream rs;
    retire_stream_init(&rs, "test", 1, 1, 10);
    retire_stream_by_time(&rs, level, max_lag);
    memset(r, 0, sizeof *r);
    r->kind = -1;
    size_t at = 0;
    int ok = 1;
    while (at < n && ok) {
        size_t end = at, seen = 0;
        while (end < n && seen < lines) if (text[end++] == '\n') seen++;
        ok = retire_stream_feed(&rs, text + at, end - at, end == n, err);
        at = end;
        if (ok && at < n && retire_stream_check(&rs) == ONLINE_VIOLATION) r->violation = 1;
    }
    if (ok) {
        history *h = retire_stream_history(&rs, 1, err);
        if (h) {
            r->verdict = batch(h, level, &r->kind);
            history_free(h);
        } else if (err->set) ok = 0;
        else r->verdict = VERDICT_PASS;
    }
    r->retired = rs.retired;
    r->peak_live = rs.peak_live;
    r->freed_key = rs.cands.len > 0;
    r->freed_together = rs.freed_together;
    retire_stream_free(&rs);
    return ok;
}

/* The simulator's small shapes the streams are made of: sessions x txns
 * transactions of 4 operations on 12 keys, 70 % reads, the fault at 5 %. */
static inline void sim_params(workload_params *p, sim_level level, sim_fault fault, uint64_t seed, uint32_t sessions,
                              uint32_t txns) {
    workload_defaults(p);
    p->sessions = sessions;
    p->txns_per_session = txns;
    p->ops_per_txn = 4;
    p->keys = 12;
    p->dist = KEYDIST_UNIFORM;
    p->read_fraction = 0.7;
    p->level = level;
    p->fault = fault;
    p->fault_rate = 0.05;
    p->seed = seed;
}

/* The least T the stream keeps: the most, over its #@time lines, by which
 * the latest complete= before a line passes that line's invoke=. */
static inline int64_t least_lag(const char *text, size_t n) {
    int64_t seen = INT64_MIN, lag = 0;
    for (size_t at = 0; at < n;) {
        long long txn, inv, cmp;
        if (sscanf(text + at, "#@time %lld invoke=%lld complete=%lld", &txn, &inv, &cmp) == 3) {
            if (seen != INT64_MIN && seen - inv > lag) lag = seen - inv;
            if (cmp > seen) seen = cmp;
        }
        while (at < n && text[at] != '\n') at++;
        at++;
    }
    return lag;
}

/* The same with no --max-lag. */
static int stream(const char *text, size_t n, size_t lines, int level, stream_result *r, ic_error *err) {
    return stream_lag(text, n, lines, level, -1, r, err);
}


static verdict batch_text(const char *text, size_t n, int level) {
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(text, n, FORMAT_TEXT, "whole", &err);
    if (!h) fail_msg("%s", err.msg);
    verdict v = batch(h, level, NULL);
    history_free(h);
    return v;
}

/* The retire gadgets' filler (test_retire_free*.c): ROUNDS rounds of one
 * write of a fresh key by each of sessions 1-4 (transactions from 10 on,
 * invoked and completed at 20 + 2j and 21 + 2j), then TAIL; NUL-ended. */
static inline void filler_then(vec_char *b, int rounds, const char *tail) {
    char line[200];
    long long txn = 10;
    for (int j = 0; j < rounds; j++)
        for (int s = 1; s <= 4; s++, txn++) {
            snprintf(line, sizeof line, "w(%lld,1,%d,%lld)\n#@time %lld invoke=%d complete=%d\n", 1000 + txn, s, txn,
                     txn, 20 + 2 * j, 21 + 2 * j);
            append(b, line);
        }
    append(b, tail);
    vec_push(*b, 0);
    b->len--;
}

/* TEXT streamed in chunks of LINES lines at LEVEL must end with WANT (the
 * batch verdict) and print no violation when WANT is not FAIL; WHAT names
 * the case in a failure; the stream's result in *r. */
static inline void stream_as_batch(const char *text, size_t n, size_t lines, int level, verdict want, const char *what,
                                   stream_result *r) {
    ic_error err;
    ic_error_clear(&err);
    if (!stream(text, n, lines, level, r, &err)) fail_msg("%s: refused: %s", what, err.msg);
    if (r->verdict != want)
        fail_msg("%s, %s, chunks of %zu: streamed %d, batch %d (%llu retired)", what,
                 level_name((check_level_id)level), lines, r->verdict, want, (unsigned long long)r->retired);
    if (r->violation && want != VERDICT_FAIL)
        fail_msg("%s, chunks of %zu: a violation while streaming, batch PASS", what, lines);
}

/* A tiny random history as the stream gives it: sessions run one
 * transaction at a time, each written when it completes (its lines, then
 * its #@time line), reads of 0 or of any value written before. */
static void tiny_history(vec_char *b, unsigned *seed) {
    enum { NT = 8 };
    int sessions = 2 + (int)(rand_r(seed) % 2), keys = 2 + (int)(rand_r(seed) % 2);
    long long inv[NT], cmp[NT], next_free[3] = { 0, 0, 0 };
    int sess[NT], order[NT];
    for (int t = 0; t < NT; t++) {                 /* times: each session sequential */
        sess[t] = (int)(rand_r(seed) % (unsigned)sessions);
        inv[t] = next_free[sess[t]] + (long long)(rand_r(seed) % 6);
        cmp[t] = inv[t] + (long long)(rand_r(seed) % 8);
        next_free[sess[t]] = cmp[t] + (long long)(rand_r(seed) % 2);
        order[t] = t;
    }
    for (int i = 1; i < NT; i++)                   /* completion order (a session's own is kept) */
        for (int j = i; j > 0 && (cmp[order[j]] < cmp[order[j - 1]] ||
                                  (cmp[order[j]] == cmp[order[j - 1]] && order[j] < order[j - 1])); j--) {
            int x = order[j]; order[j] = order[j - 1]; order[j - 1] = x;
        }
    long long written[NT * 3][2];
    int nw = 0, value = 1;
    vec_init(*b);
    for (int i = 0; i < NT; i++) {
        int t = order[i], ops = 1 + (int)(rand_r(seed) % 3);
        char line[128];
        for (int o = 0; o < ops; o++) {
            int key = (int)(rand_r(seed) % (unsigned)keys);
            if (rand_r(seed) % 2) {
                snprintf(line, sizeof line, "w(%d,%d,%d,%d)\n", key, value, sess[t] + 1, t + 1);
                written[nw][0] = key; written[nw][1] = value++; nw++;
            } else {
                long long v = 0;                   /* mostly the latest value written so far, else any */
                int pick = nw ? (int)(rand_r(seed) % (unsigned)(nw + 1)) : 0;
                if (rand_r(seed) % 8) for (pick = nw - 1; pick >= 0 && written[pick][0] != key; pick--) {}
                if (pick >= 0 && pick < nw && written[pick][0] == key) v = written[pick][1];
                snprintf(line, sizeof line, "r(%d,%lld,%d,%d)\n", key, v, sess[t] + 1, t + 1);
            }
            append(b, line);
        }
        snprintf(line, sizeof line, "#@time %d invoke=%lld complete=%lld\n", t + 1, inv[t], cmp[t]);
        append(b, line);
    }
    vec_push(*b, 0);
    b->len--;
}

#endif
