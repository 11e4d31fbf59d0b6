/* test_online_text.c — `check --follow` on text parsed in increments
 * (frontend/online/text_stream.h through frontend/online/follow.h) against the batch
 * parser and against a one-shot read.
 *
 * Random text histories (sessions whose lines interleave, comments, blank
 * lines, CRLF line ends, sometimes IsoVista's initial-state transaction;
 * reads mostly of the latest value, sometimes of an older one, so some
 * histories violate SI/SER) are fed whole and in odd-sized chunks cut
 * anywhere (inside lines, inside transactions).  Asserted:
 *   - the transactions handed out as complete are, over all calls, exactly
 *     the batch history's transactions but the last of each session, with
 *     the same session, operations, key ids, values and lines;
 *   - the checks driven as cli_follow drives them (online_check_delta,
 *     and online_check with the batch parser's history when asked) end
 *     with the same verdict for the chunked and the one-shot feed, and,
 *     when every completed transaction is settled, the batch verdict of
 *     the completed part; a violation reported online is a batch FAIL;
 *   - a syntax error gives the batch parser's error (file, line, message),
 *     and an input the batch builder refuses (a transaction in two
 *     sessions) is worded by the batch parser;
 *   - a value written twice (followed since issue 35) leaves the reader at
 *     the piece that holds its line: the batch parser's history of the
 *     completed transactions then shows it, which starts cli_follow's
 *     batch re-checks (follow_repeat.h);
 *   - the reader's own rules, fed directly: a transaction reopened in its
 *     session before it completed gets the new operations; one that
 *     completed and grows, or reappears in another session, is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"
#include "frontend/online/checker.h"
#include "frontend/online/follow.h"
#include "frontend/online/text_stream.h"
#include "batch_verdict.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {          /* xorshift64*, uniform-ish in [0, n) */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static void put(vec_char *t, const char *fmt, ...) {
    char line[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (int i = 0; i < n; i++) vec_push(*t, line[i]);
}

/* A random text history: sessions run transactions of 1-4 ops whose lines
 * interleave with other sessions' lines. */
static void gen_text(vec_char *t, int crlf) {
    const char *eol = crlf ? "\r\n" : "\n";
    uint32_t sessions = 1 + rnd(4), keys = 1 + rnd(6), txns = 3 + rnd(30);
    int64_t last[8] = { 0 }, older[8] = { 0 };
    int64_t next_val = 1, next_txn = 1;
    if (rnd(3) == 0) {                                      /* the initial state, IsoVista's way */
        for (uint32_t k = 0; k < keys; k++) put(t, "w(%u,0,0,0)%s", k, eol);
        next_txn = 1;
    }
    if (rnd(2)) put(t, "# a comment%s%s", eol, eol);
    int64_t cur[4] = { 0 };                                 /* a session's open transaction (0: none) */
    uint32_t left[4] = { 0 };
    for (uint32_t made = 0; made < txns;) {
        uint32_t s = rnd(sessions);
        if (!cur[s]) { cur[s] = next_txn++; left[s] = 1 + rnd(4); made++; }
        uint32_t k = rnd(keys);
        if (rnd(2)) {
            int64_t v = rnd(6) == 0 ? older[k] : last[k];   /* sometimes a stale read */
            put(t, "r(%u,%" PRId64 ",%u,%" PRId64 ")%s", k, v, s + 1, cur[s], eol);
        } else {
            older[k] = last[k];
            last[k] = next_val++;
            put(t, "w(%u,%" PRId64 ",%u,%" PRId64 ")%s", k, last[k], s + 1, cur[s], eol);
        }
        if (rnd(9) == 0) put(t, "%s", eol);
        if (--left[s] == 0) cur[s] = 0;
    }
}

/* A completed transaction as handed out: session and operations. */
typedef struct seen_txn { int64_t ext, sess; uint32_t first, n; } seen_txn;
typedef struct feed_result {
    VEC(seen_txn) txns;
    VEC(incr_op) ops;
    int rc;                      /* 1 fed, -1 bad input */
    ic_error err;
    int failed, reported;        /* the online checker's verdict; a violation was reported */
    int witnesses;               /* reported from a witness (not S) */
    size_t at;                   /* rc -1: at which piece (SIZE_MAX: the final batch check); repeated: where */
    int repeated;                /* the completed transactions showed a value written twice: from then on
                                  * cli_follow re-checks in batch (follow_repeat.h), not modelled here */
    int scratch;                 /* the checker left the incremental path */
    uint32_t settled, completed;
} feed_result;

/* What the tests' text readers are told about the writes handed out: all
 * of them, kept here (a flat list: the histories are small); asked counts
 * the questions. */
typedef struct test_known { VEC(incr_op) w; int asked, cannot; } test_known;

static int test_written(void *ctx, uint32_t key, int64_t value) {
    test_known *k = ctx;
    k->asked++;
    if (k->cannot) return -1;
    vec_foreach(const incr_op, o, k->w) if (o->key == key && o->value == value) return 1;
    return 0;
}

/* The transactions ts handed out: their writes are the oracle's now. */
static void known_add(test_known *k, const text_stream *ts) {
    vec_foreach(const incr_txn, t, ts->done)
        for (uint32_t i = 0; i < t->num_ops; i++)
            if (t->ops[i].kind == OP_WRITE) vec_push(k->w, t->ops[i]);
}

/* Feed data[0..n) in pieces ending at cuts[0..nc) (the last is n):
 *   - to a text reader alone, told of the writes handed out (test_known):
 *     the transactions it hands out, and how many (r->txns, ops,
 *     completed; a text input only);
 *   - driving the checks as cli_follow does (old: as it did before, the
 *     batch parser re-reading everything each time): the reader asks the
 *     checker about the writes handed out, nothing is fed once a violation
 *     is reported (only the final batch check matters then). */
static void feed(const char *data, const size_t *cuts, size_t nc, feed_result *r, int old) {
    memset(r, 0, sizeof *r);
    ic_error_clear(&r->err);
    r->rc = 1;
    text_stream ts;
    text_stream_init(&ts, "t.txt");
    test_known known;
    memset(&known, 0, sizeof known);
    text_stream_set_written(&ts, test_written, &known);
    for (size_t c = 0; c < nc; c++) {
        size_t base = ts.consumed;
        ic_error e;
        ic_error_clear(&e);
        if (text_stream_feed(&ts, data + base, base, cuts[c] - base, &e) <= 0) break;
        vec_foreach(const incr_txn, t, ts.done) {
            seen_txn x = { t->ext_id, t->session, (uint32_t)r->ops.len, t->num_ops };
            for (uint32_t i = 0; i < t->num_ops; i++) vec_push(r->ops, t->ops[i]);
            vec_push(r->txns, x);
        }
        known_add(&known, &ts);
    }
    r->completed = ts.completed;
    text_stream_free(&ts);
    vec_free(known.w);

    follow_parse fp;
    follow_parse_init(&fp, FORMAT_AUTO);
    if (old) fp.delta = -1;
    online_checker oc;
    online_init(&oc, 1, 1, 10);
    oc.source = "t.txt";
    follow_parse_checker(&fp, &oc);
    for (size_t c = 0; c < nc && r->rc > 0; c++) {
        if (oc.failed) continue;
        history *h = NULL;
        /* only the bytes not parsed yet, as cli_follow keeps them once the rest is spilled */
        size_t base = fp.delta == 1 ? fp.ts.consumed : 0;
        int st = follow_delta(&fp, data + base, base, cuts[c] - base, "t.txt", &r->err), out = ONLINE_NO_VIOLATION;
        if (st > 0) {
            if (!fp.ts.done.len) continue;
            out = online_check_delta(&oc, fp.ts.key_ext.data, (uint32_t)fp.ts.key_ext.len, fp.ts.done.data,
                                     fp.ts.done.len, fp.completed);
            if (out == ONLINE_NEED_HISTORY) {
                st = follow_completed(&fp, data, cuts[c], "t.txt", 0, &h, &r->err);
                if (st < 0) { r->rc = -1; r->at = c; break; }
                if (h && h->num_repeated) { r->repeated = 1; r->at = c; history_free(h); break; }
                out = st > 0 && h ? online_check(&oc, h) : ONLINE_NO_VIOLATION;
            }
        } else {
            if (st == 0) st = follow_completed(&fp, data, cuts[c], "t.txt", 0, &h, &r->err);
            if (st < 0) { r->rc = -1; r->at = c; break; }
            if (h && h->num_repeated) { r->repeated = 1; r->at = c; history_free(h); break; }
            if (st > 0 && h) out = online_check(&oc, h);
        }
        assert_int_not_equal(out, ONLINE_UNKNOWN);
        if (out == ONLINE_VIOLATION) {
            assert_false(r->reported);
            r->reported = 1;
            assert_true(batch_fails_any(oc.proof));                 /* what it reports fails in batch */
            /* final: every history holding the settled part fails, the input so far first
             * (the report may be of a witness: the last transactions to settle) */
            size_t upto = cuts[c];
            while (upto > 0 && data[upto - 1] != '\n') upto--;
            ic_error e2;
            ic_error_clear(&e2);
            history *all = load_history_mem(data, upto, FORMAT_TEXT, "t.txt", &e2);
            assert_non_null(all);
            assert_true(batch_fails_any(all));
            history_free(all);
            r->witnesses += oc.witness_txns > 0;
        }
        history_free(h);
    }
    r->failed = oc.failed;
    r->scratch = oc.from_scratch;
    r->settled = oc.settled;
    online_free(&oc);
    follow_parse_free(&fp);
}

/* cli_follow's final phase, after an input read to its end without an
 * error: the batch check of every byte, whose parse error is the run's
 * (repeated values are followed since issue 35: no error). */
static void feed_end(const char *data, size_t n, feed_result *r) {
    if (r->rc < 0) return;
    history *h = load_history_mem(data, n, FORMAT_TEXT, "t.txt", &r->err);
    if (h) history_free(h);
    else r->rc = -1, r->at = SIZE_MAX;
}

static void feed_free(feed_result *r) { vec_free(r->txns); vec_free(r->ops); }

static int by_ext(const void *a, const void *b) {
    int64_t x = ((const seen_txn *)a)->ext, y = ((const seen_txn *)b)->ext;
    return x < y ? -1 : x > y;
}

/* Cut points: odd-sized pieces (1..max bytes), anywhere. */
static size_t make_cuts(size_t n, size_t max, size_t **out) {
    size_t *c = malloc((n + 1) * sizeof *c), k = 0, at = 0;
    while (at < n) {
        at += 1 + rnd((uint32_t)max);
        if (at > n) at = n;
        c[k++] = at;
    }
    *out = c;
    return k;
}

/* The completed transactions handed out are the batch history's but the
 * last of each session, operation for operation. */
static void assert_matches_batch(const char *data, size_t n, feed_result *r) {
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(data, n, FORMAT_TEXT, "t.txt", &err);
    if (!h) { assert_int_equal(r->txns.len, 0); return; }   /* nothing but comments and the initial state */
    if (r->txns.len) qsort(r->txns.data, r->txns.len, sizeof *r->txns.data, by_ext);
    size_t expect = 0;
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        const history_session *hs = &h->sessions[s];
        for (uint32_t p = 0; p + 1 < hs->num_txns; p++) {
            const history_txn *x = &h->txns[hs->first_txn + p];
            seen_txn key = { x->ext_id, 0, 0, 0 };
            seen_txn *got = r->txns.len ? bsearch(&key, r->txns.data, r->txns.len, sizeof key, by_ext) : NULL;
            assert_non_null(got);
            assert_int_equal(got->sess, hs->ext_id);
            assert_int_equal(got->n, x->num_ops);
            for (uint32_t i = 0; i < x->num_ops; i++) {
                const incr_op *o = &r->ops.data[got->first + i];
                uint32_t op = x->first_op + i;
                assert_int_equal(o->kind, h->op_kind[op] & OP_KIND_MASK);
                assert_int_equal(o->key, h->op_key[op]);
                assert_true(o->value == history_op_value(h, op));
                assert_int_equal(o->line, history_op_line(h, op));
            }
            expect++;
        }
    }
    assert_int_equal(r->txns.len, expect);
    history_free(h);
}

static void test_chunks_match_one_shot(void **state) {
    (void)state;
    rng_state = 0x9e3779b97f4a7c15ULL;
    int fails = 0, all_settled = 0, witnesses = 0;
    for (int it = 0; it < 300; it++) {
        vec_char t;
        vec_init(t);
        gen_text(&t, it % 5 == 4);
        if (it % 7 == 3) {                       /* a byte-order mark first: skipped, as batch skips it */
            vec_reserve(t, t.len + 4);
            memmove(t.data + 3, t.data, t.len);
            memcpy(t.data, "\xEF\xBB\xBF", 3);
            t.len += 3;
        }
        size_t whole = t.len;
        feed_result one, many;
        feed(t.data, &whole, 1, &one, 0);
        size_t *cuts;
        size_t nc = make_cuts(t.len, 1 + rnd(40), &cuts);
        feed(t.data, cuts, nc, &many, 0);
        free(cuts);
        assert_int_equal(one.rc, 1);
        assert_int_equal(many.rc, 1);
        assert_matches_batch(t.data, t.len, &one);
        assert_matches_batch(t.data, t.len, &many);
        assert_int_equal(one.completed, many.completed);
        assert_int_equal(one.failed, many.failed);             /* same settled part at the end: same verdict */
        if (one.settled == one.completed && one.completed > 0) {
            /* every completed transaction settled: the batch verdict of the completed part */
            follow_parse fp;
            follow_parse_init(&fp, FORMAT_TEXT);
            history *h = NULL;
            ic_error err;
            ic_error_clear(&err);
            assert_int_equal(follow_completed(&fp, t.data, t.len, "t.txt", 0, &h, &err), 1);
            assert_non_null(h);
            assert_int_equal(one.failed, batch_fails_any(h));
            all_settled++;
            history_free(h);
            follow_parse_free(&fp);
        }
        fails += one.failed;
        witnesses += one.witnesses + many.witnesses;
        feed_free(&one);
        feed_free(&many);
        vec_free(t);
    }
    print_message("online text: 300 histories, %d with a violation reported, %d all settled at the end, %d reports "
                  "from a witness\n", fails, all_settled, witnesses);
    assert_true(witnesses > 10);
    assert_true(fails > 10);
    assert_true(all_settled > 100);
}

/* A bad line anywhere: the batch parser's error, whatever the chunks. */
static void test_errors_as_batch(void **state) {
    (void)state;
    rng_state = 12345;
    static const char *bad[] = { "r(1,2,3)", "w(1,-2,1,5)", "x(1,2,3,4)", "w(1,2,1,5) junk" };
    int empty_before = 0, undetected = 0, after_violation = 0;
    for (int it = 0; it < 120; it++) {
        vec_char t;
        vec_init(t);
        gen_text(&t, 0);
        /* break one line: replace a random line by a bad one, or add a refused one */
        size_t lines = 0;
        for (size_t i = 0; i < t.len; i++) lines += t.data[i] == '\n';
        size_t target = rnd((uint32_t)lines), at = 0;
        for (size_t l = 0; l < target; at++) l += t.data[at] == '\n';
        size_t end = at;
        while (t.data[end] != '\n') end++;
        vec_char u;
        vec_init(u);
        for (size_t i = 0; i < at; i++) vec_push(u, t.data[i]);
        int kind = it % 6;
        if (kind < 4) put(&u, "%s", bad[kind]);
        else if (kind == 4) put(&u, "w(0,1000001,3,994)\nr(0,1000001,4,994)");   /* in two sessions (as long as the
                                                                                  * old case: the same cuts) */
        else put(&u, "r(0,0,1,997)\nr(0,0,2,997)");                                   /* a transaction in two sessions */
        for (size_t i = end; i < t.len; i++) vec_push(u, t.data[i]);
        vec_push(u, 0);                                  /* sscanf below reads a string: terminate it */
        u.len--;
        ic_error want;
        ic_error_clear(&want);
        history *h = load_history_mem(u.data, u.len, FORMAT_TEXT, "t.txt", &want);
        assert_null(h);
        size_t *cuts;
        size_t nc = make_cuts(u.len, 1 + rnd(30), &cuts);
        /* the first piece reaches the first operation line (the old reader refused a piece without one) */
        size_t first = 0;
        for (size_t at2 = 0; at2 < u.len;) {
            const char *nl = memchr(u.data + at2, '\n', u.len - at2);
            size_t e = nl ? (size_t)(nl - u.data) + 1 : u.len;
            long a, b2, c2, d;
            if (sscanf(u.data + at2, "%*1[rw](%ld,%ld,%ld,%ld)", &a, &b2, &c2, &d) == 4 && b2 != 0) { first = e; break; }
            at2 = e;
        }
        size_t skip = 0;
        while (skip + 1 < nc && cuts[skip] < first) skip++;
        memmove(cuts, cuts + skip, (nc - skip) * sizeof *cuts);
        nc -= skip;
        feed_result r, ref;
        feed(u.data, cuts, nc, &r, 0);
        feed(u.data, cuts, nc, &ref, 1);                /* the batch parser on every prefix, as before */
        free(cuts);
        assert_int_equal(r.rc, ref.rc);   /* -1; or both wait (a bad first line: no format detected) */
        if (r.rc == -1) assert_int_equal(r.at, ref.at);               /* refused with the same piece */
        if (r.rc != -1 && r.reported) after_violation++;    /* the stream ended there: the final check says it */
        else if (r.rc != -1) undetected++;
        else if (!strstr(ref.err.msg, "empty history")) {     /* before: a first piece without operations was an error */
            assert_int_equal(r.err.line, ref.err.line);
            assert_string_equal(r.err.msg, ref.err.msg);
            assert_string_equal(r.err.file, ref.err.file);
        } else empty_before++;
        /* refused before the end: the batch parser's error of the input so far, as before (not always
         * the whole file's: it reports a value written twice after a later line's syntax error);
         * else the run's end says it: the batch parser's error of the whole file */
        if (r.rc != -1) {
            feed_end(u.data, u.len, &r);
            assert_int_equal(r.rc, -1);
            assert_int_equal(r.err.line, want.line);
            assert_string_equal(r.err.msg, want.msg);
        }
        feed_free(&r);
        feed_free(&ref);
        vec_free(u);
        vec_free(t);
    }
    print_message("online text: 120 bad inputs, %d of which the old reader refused early (a first piece with "
                  "no operation), %d not known as text, %d after a violation reported (refused at the end)\n",
                  empty_before, undetected, after_violation);
    assert_true(undetected < 20);
}

/* Feed one text to a fresh reader; the transactions completed (ext, ops). */
static int feed_text(text_stream *ts, const char *text) {
    ic_error err;
    ic_error_clear(&err);
    return text_stream_feed(ts, text, 0, strlen(text), &err);
}

static void test_reader_rules(void **state) {
    (void)state;
    text_stream ts;
    /* txn 1 is open when it reappears after txn 2 of its session: it grows */
    text_stream_init(&ts, "t.txt");
    assert_int_equal(feed_text(&ts, "w(1,1,1,1)\nw(2,1,1,2)\nw(3,1,1,1)\nw(1,2,1,3)\n"), 1);
    assert_int_equal(ts.done.len, 2);
    assert_int_equal(ts.done.data[0].ext_id, 1);
    assert_int_equal(ts.done.data[0].num_ops, 2);
    assert_int_equal(ts.done.data[0].ops[1].key, 2);            /* key 3 is the third key seen: id 2 */
    assert_int_equal(ts.done.data[0].ops[1].line, 3);
    assert_int_equal(ts.done.data[1].ext_id, 2);
    assert_int_equal(ts.done.data[1].num_ops, 1);
    assert_int_equal(text_stream_read(&ts), 3);
    assert_int_equal(ts.completed, 2);
    /* then txn 1, complete, grows: refused, and the stream stays failed */
    const char *more = "w(1,1,1,1)\nw(2,1,1,2)\nw(3,1,1,1)\nw(1,2,1,3)\nr(2,1,1,1)\n";
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(text_stream_feed(&ts, more, 0, strlen(more), &err), 0);
    assert_int_equal(text_stream_feed(&ts, more, 0, strlen(more), &err), 0);
    text_stream_free(&ts);
    /* a complete transaction in another session; an open one in another session */
    text_stream_init(&ts, "t.txt");
    assert_int_equal(feed_text(&ts, "w(1,1,1,1)\nw(1,2,1,2)\nr(1,1,2,1)\n"), 0);
    text_stream_free(&ts);
    text_stream_init(&ts, "t.txt");
    assert_int_equal(feed_text(&ts, "w(1,1,1,1)\nw(1,2,2,2)\nr(1,1,1,2)\n"), 0);
    text_stream_free(&ts);
    /* the transactions completed by one feed, in the order of their first
     * lines (sessions interleaved; listed session after session, the
     * checker's write index would see most writes out of order) */
    text_stream_init(&ts, "t.txt");
    assert_int_equal(feed_text(&ts, "w(1,1,1,1)\nw(1,2,2,2)\nw(1,3,1,3)\nw(1,4,2,4)\nw(1,5,1,5)\nw(1,6,2,6)\n"), 1);
    assert_int_equal(ts.done.len, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(ts.done.data[i].ext_id, (int64_t)i + 1);
        assert_int_equal(ts.done.data[i].ops[0].value, (int64_t)i + 1);
        assert_int_equal(ts.done.data[i].session, (int64_t)(i % 2) + 1);
    }
    text_stream_free(&ts);
    /* at the end every open transaction completes, in session order */
    text_stream_init(&ts, "t.txt");
    assert_int_equal(feed_text(&ts, "w(1,1,1,1)\nw(1,2,2,2)\nw(1,3,1,3)\nr(1,2,2,2)\n"), 1);
    assert_int_equal(ts.done.len, 1);
    assert_int_equal(ts.done.data[0].ext_id, 1);
    assert_int_equal(text_stream_finish(&ts), 1);
    assert_int_equal(ts.done.len, 2);
    assert_int_equal(ts.done.data[0].ext_id, 3);
    assert_int_equal(ts.done.data[1].ext_id, 2);
    assert_int_equal(ts.done.data[1].num_ops, 2);
    assert_int_equal(ts.completed, 3);
    text_stream_free(&ts);
}

/* Feed text to ts, told of its writes handed out by k (and k told of them). */
static int feed_known(text_stream *ts, test_known *k, const char *text) {
    ic_error err;
    ic_error_clear(&err);
    size_t base = ts->consumed;
    int r = text_stream_feed(ts, text + base, base, strlen(text) - base, &err);
    if (r > 0) known_add(k, ts);
    return r;
}

/* A value written twice: the reader's own set holds the writes not handed
 * out, the rest it asks about; a write it cannot check is refused. */
static void test_written_asked(void **state) {
    (void)state;
    text_stream ts;
    test_known k;
    memset(&k, 0, sizeof k);
    /* in one transaction; in two open ones: refused without asking */
    const char *cases[] = { "w(1,5,1,1)\nw(1,5,1,1)\n", "w(1,5,1,1)\nw(1,5,2,2)\n",
                            "w(1,5,1,1)\nw(1,6,1,2)\nw(1,5,1,2)\n" };   /* txn 1 completes at the end of the feed only */
    for (int c = 0; c < 3; c++) {
        text_stream_init(&ts, "t.txt");
        text_stream_set_written(&ts, test_written, &k);
        assert_int_equal(feed_known(&ts, &k, cases[c]), 0);
        assert_int_equal(ts.line, c == 2 ? 3 : 2);                 /* at the second write's line */
        assert_int_equal(k.asked, 0);
        text_stream_free(&ts);
    }
    /* against a transaction handed out in an earlier call: asked, refused at its line */
    const char *text = "w(1,5,1,1)\nw(2,7,1,1)\nr(1,5,1,2)\n" "w(2,8,1,2)\nw(1,5,2,3)\n";
    text_stream_init(&ts, "t.txt");
    text_stream_set_written(&ts, test_written, &k);
    char first[64];
    size_t cut = strlen("w(1,5,1,1)\nw(2,7,1,1)\nr(1,5,1,2)\n");
    memcpy(first, text, cut);
    first[cut] = 0;
    assert_int_equal(feed_known(&ts, &k, first), 1);
    assert_int_equal(ts.done.len, 1);                               /* txn 1: its writes are k's now */
    assert_int_equal(k.w.len, 2);
    assert_int_equal(ts.open_len, 0);                               /* and not the reader's any more */
    assert_int_equal(feed_known(&ts, &k, text), 0);
    assert_int_equal(ts.line, 5);
    assert_int_equal(k.asked, 1);                                   /* w(1,5); not w(2,8): above key 2's values */
    text_stream_free(&ts);
    /* the same, with a caller that knows nothing: accepted (the reader kept no more) */
    vec_clear(k.w);
    k.asked = 0;
    text_stream_init(&ts, "t.txt");
    text_stream_set_written(&ts, test_written, &k);
    assert_int_equal(feed_known(&ts, &k, first), 1);
    vec_clear(k.w);
    assert_int_equal(feed_known(&ts, &k, text), 1);
    assert_int_equal(k.asked, 1);
    text_stream_free(&ts);
    /* a caller that cannot say, or none: a write after a transaction was handed out is refused if
     * its value is within those written to its key (reads, writes before any transaction was handed
     * out, and values beyond the key's are not: nothing to ask) */
    const char *gap = "w(1,5,1,1)\nw(1,9,1,1)\nr(1,5,1,2)\n" "r(1,9,1,2)\nw(1,10,1,2)\nw(2,1,1,3)\nw(1,4,1,3)\n"
                      "w(1,7,1,3)\n";
    for (int c = 0; c < 2; c++) {
        vec_clear(k.w);
        k.cannot = 1;
        k.asked = 0;
        text_stream_init(&ts, "t.txt");
        if (!c) text_stream_set_written(&ts, test_written, &k);
        size_t upto[3] = { 3, 7, 8 };                          /* lines */
        for (int part = 0; part < 3; part++) {
            const char *e = gap;
            for (size_t l = 0; l < upto[part]; l++) e = strchr(e, '\n') + 1;
            char buf[256];
            memcpy(buf, gap, (size_t)(e - gap));
            buf[e - gap] = 0;
            assert_int_equal(feed_known(&ts, &k, buf), part < 2 ? 1 : 0);
        }
        assert_int_equal(ts.line, 8);
        assert_int_equal(k.asked, c ? 0 : 1);
        text_stream_free(&ts);
    }
    vec_free(k.w);
}

/* Random streams of many sessions with long open transactions (the set of
 * open writes is large and crowded, its entries come and go), or of a few,
 * cut anywhere,
 * sometimes with a value written again: the reader refuses exactly at the
 * first such line, wherever the first write is, and hands out every
 * transaction of a clean one. */
static void test_open_writes_random(void **state) {
    (void)state;
    rng_state = 0x5eed;
    int refused = 0, clean = 0;
    for (int it = 0; it < 40; it++) {
        /* few sessions in big pieces: most of the set leaves at once (it is made again of the rest);
         * many in small ones: writes leave one by one */
        uint32_t sessions = it % 2 ? 2 + rnd(5) : 50 + rnd(300), keys = 1 + rnd(50), txns = 400 + rnd(1500);
        vec_char t;
        vec_init(t);
        VEC(incr_op) ws;                                        /* every write so far (key, value) */
        vec_init(ws);
        int64_t *cur = calloc(sessions, sizeof *cur), next_txn = 1, next_val = 1;
        uint32_t *left = calloc(sessions, sizeof *left);
        long line = 0, dup_line = 0, want = rnd(3) ? 1 + (long)rnd(txns * 3) : 0;   /* 0: clean */
        for (uint32_t made = 0; made < txns || line < want;) {
            uint32_t s = rnd(sessions);
            if (!cur[s]) { cur[s] = next_txn++; left[s] = 1 + rnd(12); made++; }
            uint32_t k = rnd(keys);
            int64_t v = (int64_t)((uint64_t)next_val++ * 2654435761u % 4294967291u) + 1;   /* distinct, in no order */
            line++;
            if (line == want && ws.len) {                       /* a value written before, anywhere */
                incr_op o = ws.data[rnd((uint32_t)ws.len)];
                k = o.key;
                v = o.value;
                dup_line = line;
            }
            put(&t, "w(%u,%" PRId64 ",%u,%" PRId64 ")\n", k, v, s + 1, cur[s]);
            incr_op o = { OP_WRITE, k, v, 0 };
            vec_push(ws, o);
            if (--left[s] == 0) cur[s] = 0;
        }
        size_t *cuts;
        size_t nc = make_cuts(t.len, 1 + rnd(it % 3 ? 40000 : 60), &cuts);
        text_stream ts;
        test_known k;
        memset(&k, 0, sizeof k);
        text_stream_init(&ts, "t.txt");
        text_stream_set_written(&ts, test_written, &k);
        int r = 1;
        for (size_t c = 0; c < nc && r > 0; c++) {
            ic_error err;
            ic_error_clear(&err);
            size_t base = ts.consumed;
            r = text_stream_feed(&ts, t.data + base, base, cuts[c] - base, &err);
            if (r <= 0) break;
            known_add(&k, &ts);
            /* the open set: the writes of the open transactions, each once (a lookup finds each) */
            size_t open_w = 0;
            vec_foreach(const ts_sess, ss, ts.sess)
                vec_foreach(const ts_open, x, ss->open)
                    for (uint32_t i = 0; i < x->num_ops; i++) {
                        uint64_t h = u64_mix((uint64_t)x->ops[i].value ^ u64_mix((uint64_t)x->ops[i].key + 0x9e3779b97f4a7c15ULL));
                        h = h ? h : 1;
                        size_t j = h & (ts.open_cap - 1);
                        while (ts.open_w[j] && ts.open_w[j] != h) j = (j + 1) & (ts.open_cap - 1);
                        assert_true(ts.open_w[j] == h);
                        open_w++;
                    }
            assert_int_equal(ts.open_len, open_w);
        }
        /* the key ids are the order of first appearance: the values alone tell the writes apart here */
        if (dup_line) {
            assert_int_equal(r, 0);
            assert_int_equal(ts.line, dup_line);
            refused++;
        } else {
            assert_int_equal(r, 1);
            assert_int_equal(text_stream_finish(&ts), 1);
            known_add(&k, &ts);
            assert_int_equal(ts.completed, txns);
            assert_int_equal(k.w.len, ws.len);                  /* every write handed out once */
            assert_int_equal(ts.open_len, 0);
            clean++;
        }
        text_stream_free(&ts);
        vec_free(k.w);
        free(cuts);
        free(cur);
        free(left);
        vec_free(ws);
        vec_free(t);
    }
    print_message("online text: open writes: %d streams refused at their value written twice, %d clean\n", refused, clean);
    assert_true(refused > 10 && clean > 5);
}

/* Driven as cli_follow drives it: a value written again long after the
 * first write settled in the incremental state, or in a transaction still
 * open at the end, leaves the incremental path with the piece that holds
 * its line — once it completes, the history of the completed transactions
 * shows it there (follow_repeat.h re-checks in batch from then on); while
 * it is open, the batch parser reads the rest and the end decides. */
static void test_refused_as_it_arrives(void **state) {
    (void)state;
    vec_char t;
    vec_init(t);
    int64_t last[16] = { 0 }, next = 1;
    uint32_t txn = 1;
    for (; txn <= 3000; txn++) {                             /* 4 sessions, reads of the latest values */
        uint32_t k = txn % 16, k2 = (txn * 7) % 16;
        put(&t, "r(%u,%" PRId64 ",%u,%u)\n", k2, last[k2], txn % 4 + 1, txn);
        last[k] = next++;
        put(&t, "w(%u,%" PRId64 ",%u,%u)\n", k, last[k], txn % 4 + 1, txn);
    }
    size_t clean = t.len;
    long lines = 6000;
    /* the first write of all, (key 1, value 1), again: in a transaction that then completes, or
     * in one still open at the end */
    for (int open = 0; open < 2; open++) {
        t.len = clean;
        put(&t, "w(1,1,9,%u)\n", txn);
        if (!open) put(&t, "r(2,0,9,%u)\n", txn + 1);
        size_t cuts[32], nc = 0;
        for (size_t at = 0; at < clean; at += clean / 16) cuts[nc++] = at + clean / 16 < clean ? at + clean / 16 : clean;
        while (cuts[nc - 1] != clean) nc--;                   /* the clean part in pieces of whole lines or not */
        cuts[nc++] = t.len;                                   /* the write again: a piece of its own */
        feed_result r;
        feed(t.data, cuts, nc, &r, 0);
        assert_false(r.failed);
        assert_false(r.scratch);                              /* the incremental state was asked, and knew */
        assert_int_equal(r.rc, 1);                            /* no error: followed */
        assert_int_equal(r.repeated, !open);                  /* completed: seen with its piece */
        if (!open) assert_int_equal(r.at, nc - 1);
        feed_end(t.data, t.len, &r);
        assert_int_equal(r.rc, 1);
        (void)lines;
        feed_free(&r);
    }
    vec_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunks_match_one_shot),
        cmocka_unit_test(test_errors_as_batch),
        cmocka_unit_test(test_reader_rules),
        cmocka_unit_test(test_written_asked),
        cmocka_unit_test(test_open_writes_random),
        cmocka_unit_test(test_refused_as_it_arrives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
