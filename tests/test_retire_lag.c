/* test_retire_lag.c — retiring by time (frontend/online/retire_time.h):
 * a retired transaction id that comes back, and --max-lag T (a session
 * that stops does not hold retirement back), against batch and the oracle.
 *
 * Asserted:
 *   - retire_ids: membership after random batches equals a plain set; dense
 *     ids collapse into one run;
 *   - a stream whose retired transaction comes back (new operations and a
 *     #@time line, a #@time line alone, operations alone) is refused at
 *     its line in every chunking (batch refuses the first two: "times for
 *     transaction N given twice"), at both levels and behind fences too;
 *   - --max-lag T with the least T the stream keeps (and a larger one):
 *     every prefix (cut after a #@time line) of simulator runs whose first
 *     session stops early, in chunks of 1, 5 and 40 lines, ends with the
 *     batch verdict of the prefix, and a violation reported while streaming
 *     is a FAIL of it; whole runs with a stopped session retire nearly
 *     everything with --max-lag and little without;
 *   - tiny random streams with --max-lag: the final verdict equals the
 *     brute-force oracle's (tests/brute_levels.h);
 *   - a stream that breaks the promise (a #@time line after a time more
 *     than T past its invocation, an operation after its #@time line) is
 *     refused at its line whatever the chunks, and only with --max-lag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/online/retire_ids.h"
#include "tests/brute_levels.h"
#include "tests/retire_time_stream.h"

static const int rt_levels[2] = { LEVEL_SSER, LEVEL_STRONG_SI };

/* ---- the set of retired ids --------------------------------------------- */

static void test_ids_set(void **state) {
    (void)state;
    unsigned seed = 7;
    for (int round = 0; round < 60; round++) {   /* against a plain set, lists, bitmaps and full chunks */
        retire_ids s;
        retire_ids_init(&s);
        enum { SPAN = 3 * RETIRE_ID_CHUNK };
        static uint8_t in[SPAN];
        memset(in, 0, sizeof in);
        int64_t base = round % 3 == 0 ? -RETIRE_ID_CHUNK - 17 : round % 3 == 1 ? 5 : INT64_MAX - SPAN + 1;
        size_t per = round % 2 ? 40 : 900;
        for (int b = 0; b < 20; b++) {
            int64_t ids[900];
            size_t n = rand_r(&seed) % per;
            for (size_t i = 0; i < n; i++) {
                uint32_t at = (uint32_t)(rand_r(&seed) % (SPAN - 40)) + (b > 10 ? 0 : 20);
                ids[i] = base + at;
                in[at] = 1;
            }
            retire_ids_add(&s, ids, n);
        }
        int64_t dense[RETIRE_ID_CHUNK];                 /* and one whole chunk, in any order */
        uint32_t start = RETIRE_ID_CHUNK - (uint32_t)((uint64_t)base % RETIRE_ID_CHUNK);
        for (uint32_t i = 0; i < RETIRE_ID_CHUNK && start + i < SPAN; i++) {
            dense[i] = base + start + (i * 2749) % RETIRE_ID_CHUNK;
            in[start + (i * 2749) % RETIRE_ID_CHUNK] = 1;
        }
        if (start + RETIRE_ID_CHUNK <= SPAN) retire_ids_add(&s, dense, RETIRE_ID_CHUNK);
        else for (uint32_t i = start; i < SPAN; i++) in[i] = 0;
        for (int64_t x = 0; x < SPAN; x++) assert_int_equal(retire_ids_has(&s, base + x), in[x]);
        if (base > INT64_MIN + 10) assert_false(retire_ids_has(&s, base - 1));
        retire_ids_free(&s);
    }
    retire_ids s;                                /* 400k dense ids, shuffled within batches: no list, no bitmap */
    retire_ids_init(&s);
    for (int64_t b = 0; b < 4000; b++) {
        int64_t ids[100];
        for (int i = 0; i < 100; i++) ids[i] = b * 100 + (i * 37) % 100;
        retire_ids_add(&s, ids, 100);
    }
    assert_true(retire_ids_has(&s, 0) && retire_ids_has(&s, 399999) && !retire_ids_has(&s, 400000) &&
                !retire_ids_has(&s, -1));
    assert_true(retire_ids_bytes(&s) < 10000);
    retire_ids_free(&s);
}

/* ---- a retired transaction that comes back --------------------------- */

/* Two sessions taking turns, each transaction alone in real time, writing
 * key 2 (fresh values) and reading key 2's latest: transaction 1 (session
 * 1) retires early.  Fences (si behind fences) when fenced. */
static void turns_history(vec_char *b, int rounds, int fenced) {
    long long txn = 1, v = 5000, clock = 0, fv = 0;
    char line[200];
    vec_init(*b);
    for (int round = 0; round < rounds; round++)
        for (int s = 1; s <= 2; s++) {
            snprintf(line, sizeof line, "r(2,%lld,%d,%lld)\nw(2,%lld,%d,%lld)\n", v == 5000 ? 0 : v - 1, s, txn, v, s, txn);
            append(b, line);
            v++;
            if (fenced) {
                snprintf(line, sizeof line, "r(%lld,%lld,%d,%lld)\nw(%lld,%lld,%d,%lld)\n", (long long)RETIRE_FENCE_KEY, fv,
                         s, txn, (long long)RETIRE_FENCE_KEY, fv + 1, s, txn);
                append(b, line);
                fv++;
            }
            snprintf(line, sizeof line, "#@time %lld invoke=%lld complete=%lld\n", txn, clock + 1, clock + 2);
            append(b, line);
            clock += 3;
            txn++;
        }
    vec_push(*b, 0);
    b->len--;
}

static long count_lines(const vec_char *b) {
    long n = 0;
    for (size_t i = 0; i < b->len; i++) n += b->data[i] == '\n';
    return n;
}

/* Stream at level (LEVEL_COUNT: behind fences, si) in chunks of `lines`. */
static int stream_any(const vec_char *t, size_t lines, int level, ic_error *err) {
    if (level != LEVEL_COUNT) {
        stream_result r;
        return stream(t->data, t->len, lines, level, &r, err);
    }
    retire_stream rs;
    retire_stream_init(&rs, "test", 1, 0, 10);
    int ok = 1;
    for (size_t at = 0; at < t->len && ok;) {
        size_t end = at, seen = 0;
        while (end < t->len && seen < lines) if (t->data[end++] == '\n') seen++;
        ok = retire_stream_feed(&rs, t->data + at, end - at, end == t->len, err);
        at = end;
        if (ok) retire_stream_check(&rs);
    }
    assert_true(!ok || rs.retired > 0);
    retire_stream_free(&rs);
    return ok;
}

static void test_retired_id_comes_back(void **state) {
    (void)state;
    const char *tails[3] = { "w(9,77777,1,1)\n#@time 1 invoke=100000 complete=100001\n",   /* operations and times */
                             "#@time 1 invoke=100000 complete=100001\n",                   /* times alone */
                             "r(9,0,1,1)\n" };                                             /* operations alone */
    const char *want[3] = { "comes back after it was retired", "times for transaction 1 given twice",
                            "comes back after it was retired" };
    for (int fenced = 0; fenced <= 1; fenced++)
        for (int k = 0; k < 3; k++) {
            if (fenced && k == 1) continue;      /* behind fences #@time lines are only checked for syntax */
            vec_char t;
            turns_history(&t, 30, fenced);
            long line = count_lines(&t) + 1;
            append(&t, tails[k]);
            if (k < 2 && !fenced) {              /* batch refuses the same bytes */
                ic_error err;
                ic_error_clear(&err);
                history *h = load_history_mem(t.data, t.len, FORMAT_TEXT, "whole", &err);
                assert_null(h);
                assert_non_null(strstr(err.msg, "times for transaction 1 given twice"));
            }
            for (int l = 0; l < 3; l++) {
                int level = fenced ? LEVEL_COUNT : l < 2 ? rt_levels[l] : -1;
                if (level < 0) continue;
                for (size_t lines = 1; lines <= 16; lines *= 2) {
                    ic_error err;
                    ic_error_clear(&err);
                    if (stream_any(&t, lines, level, &err)) fail_msg("fenced %d, tail %d, chunks of %zu: accepted", fenced, k, lines);
                    if (!strstr(err.msg, want[k]) || err.line != line)
                        fail_msg("fenced %d, tail %d, chunks of %zu: got line %ld '%s'", fenced, k, lines, err.line, err.msg);
                }
            }
            vec_free(t);
        }
}

/* ---- --max-lag ------------------------------------------------------------ */


static int agreements, failing;

static void agree_lag(const char *text, size_t n, size_t lines, int level, int64_t lag, const char *what,
                      uint64_t *retired) {
    verdict want = batch_text(text, n, level);
    stream_result r;
    ic_error err;
    ic_error_clear(&err);
    if (!stream_lag(text, n, lines, level, lag, &r, &err))
        fail_msg("%s: refused with --max-lag %lld: %s (line %ld)", what, (long long)lag, err.msg, err.line);
    if (r.verdict != want)
        fail_msg("%s, %s, chunks of %zu, --max-lag %lld: streamed %d, batch %d (%llu retired)", what,
                 level_name((check_level_id)level), lines, (long long)lag, r.verdict, want, (unsigned long long)r.retired);
    if (r.violation && want != VERDICT_FAIL) fail_msg("%s: a violation reported while streaming, batch PASS", what);
    if (retired) *retired += r.retired;
    agreements++;
    failing += want == VERDICT_FAIL;
}

static void stopping_params(workload_params *p, sim_fault fault, uint64_t seed, uint32_t sessions, uint32_t txns,
                            uint32_t first) {
    sim_params(p, seed % 2 ? SIM_SER : SIM_SI, fault, seed, sessions, txns);
    p->first_session_txns = first;
}

static void test_lag_every_prefix(void **state) {
    (void)state;
    agreements = failing = 0;
    uint64_t retired = 0;
    for (int f = 0; f < FAULT_COUNT; f++) {
        workload_params p;
        stopping_params(&p, (sim_fault)f, 300 + (uint64_t)f, 3, 14, 3);
        vec_char text;
        run_sim(&p, &text);
        for (size_t at = 0; at < text.len; at++) {
            if (text.data[at] != '\n' || at < 6) continue;
            size_t start = at;
            while (start > 0 && text.data[start - 1] != '\n') start--;
            if (strncmp(text.data + start, "#@time", 6)) continue;
            char what[96];
            snprintf(what, sizeof what, "fault %s, prefix of %zu bytes", sim_fault_name((sim_fault)f), at + 1);
            int64_t lag = least_lag(text.data, at + 1);
            for (int l = 0; l < 2; l++)
                for (size_t lines = 1; lines <= 40; lines = lines == 1 ? 5 : lines * 8) {
                    agree_lag(text.data, at + 1, lines, rt_levels[l], lag, what, &retired);
                    if (lines == 5) agree_lag(text.data, at + 1, lines, rt_levels[l], lag + 7, what, NULL);
                }
        }
        vec_free(text);
    }
    print_message("%d prefix streams with --max-lag agree with batch (%d of them FAIL), %llu retired\n", agreements,
                  failing, (unsigned long long)retired);
    assert_true(failing * 10 > agreements && retired > 0);
}

/* A run whose first session stops after 10 transactions: without
 * --max-lag almost nothing retires after that; with it nearly everything. */
static void test_lag_stopped_session(void **state) {
    (void)state;
    workload_params p;
    stopping_params(&p, FAULT_NONE, 5, 6, 1500, 10);
    p.keys = 40;
    vec_char text;
    run_sim(&p, &text);
    int64_t lag = least_lag(text.data, text.len);
    uint64_t total = 5 * 1500 + 10;
    for (int l = 0; l < 2; l++) {
        stream_result r, q;
        ic_error err;
        ic_error_clear(&err);
        assert_int_equal(stream_lag(text.data, text.len, 300, rt_levels[l], -1, &r, &err), 1);
        assert_int_equal(stream_lag(text.data, text.len, 300, rt_levels[l], lag, &q, &err), 1);
        assert_int_equal(r.verdict, VERDICT_PASS);
        assert_int_equal(q.verdict, VERDICT_PASS);
        print_message("%s, %llu transactions, session 1 stops after 10: %llu retired (at most %u live) without "
                      "--max-lag, %llu (at most %u live) with --max-lag %lld\n", level_name((check_level_id)rt_levels[l]),
                      (unsigned long long)total, (unsigned long long)r.retired, r.peak_live,
                      (unsigned long long)q.retired, q.peak_live, (long long)lag);
        assert_true(r.retired * 10 < total);
        assert_true(q.retired * 10 > total * 9 && q.peak_live * 5 < total);
    }
    vec_free(text);
}

static void test_lag_oracle(void **state) {
    (void)state;
    unsigned seed = 42;
    int compared = 0, fails = 0, retired = 0;
    for (int i = 0; i < 1500; i++) {
        vec_char text;
        tiny_history(&text, &seed);
        ic_error err;
        ic_error_clear(&err);
        history *h = load_history_mem(text.data, text.len, FORMAT_TEXT, "tiny", &err);
        if (!h) { vec_free(text); continue; }
        int64_t inv[16], cmp[16];
        for (uint32_t t = 0; t < h->num_txns && t < 16; t++) {
            inv[t] = history_time(h, TIME_INVOKE, t);
            cmp[t] = history_time(h, TIME_COMPLETE, t);
        }
        int64_t lag = least_lag(text.data, text.len) + (int64_t)(rand_r(&seed) % 3);
        for (int l = 0; l < 2 && h->num_txns <= 16; l++) {
            int want = bv_check(h, rt_levels[l] == LEVEL_SSER ? BV_SSER : BV_STRONG_SI, inv, cmp);
            if (want < 0) continue;
            for (size_t lines = 1; lines <= 3; lines += 2) {
                stream_result r;
                if (!stream_lag(text.data, text.len, lines, rt_levels[l], lag, &r, &err))
                    fail_msg("refused with --max-lag %lld: %s\n%s", (long long)lag, err.msg, text.data);
                if ((r.verdict == VERDICT_PASS) != (want == 1))
                    fail_msg("%s, chunks of %zu, --max-lag %lld: streamed %d, oracle %d (%llu retired):\n%s",
                             level_name((check_level_id)rt_levels[l]), lines, (long long)lag, r.verdict, want,
                             (unsigned long long)r.retired, text.data);
                compared++;
                fails += want == 0;
                retired += r.retired > 0;
            }
        }
        history_free(h);
        vec_free(text);
    }
    print_message("%d streams with --max-lag agree with the oracle (%d FAIL), %d retired something\n", compared, fails,
                  retired);
    assert_true(compared > 2000 && fails * 5 > compared && (compared - fails) * 5 > compared && retired * 4 > compared);
}

/* Refused at line `line` with msg in every chunking with --max-lag lag;
 * accepted without it. */
static void lag_refused(const char *text, int64_t lag, long line, const char *msg) {
    for (size_t lines = 1; lines <= 8; lines *= 2) {
        stream_result r;
        ic_error err;
        ic_error_clear(&err);
        if (stream_lag(text, strlen(text), lines, LEVEL_SSER, lag, &r, &err)) fail_msg("accepted: %s", msg);
        if (!strstr(err.msg, msg) || err.line != line)
            fail_msg("chunks of %zu: expected line %ld '%s', got line %ld '%s'", lines, line, msg, err.line, err.msg);
        ic_error_clear(&err);
        if (!stream(text, strlen(text), lines, LEVEL_SSER, &r, &err)) fail_msg("refused without --max-lag: %s", err.msg);
    }
}

static void test_lag_promise_refused(void **state) {
    (void)state;
    const char *late = "w(1,1,1,1)\n#@time 1 invoke=1 complete=2\nw(1,2,2,2)\n#@time 2 invoke=50 complete=60\n"
                       "r(1,2,3,3)\n#@time 3 invoke=%d complete=70\n";
    char text[256];
    snprintf(text, sizeof text, late, 49);               /* 60 - 49 = 11 > 10 */
    lag_refused(text, 10, 6, "more than --max-lag 10 later");
    snprintf(text, sizeof text, late, 50);               /* exactly T: kept */
    stream_result r;
    ic_error err;
    ic_error_clear(&err);
    for (size_t lines = 1; lines <= 8; lines *= 2)
        assert_int_equal(stream_lag(text, strlen(text), lines, LEVEL_SSER, 10, &r, &err), 1);
    lag_refused("w(1,1,1,1)\n#@time 1 invoke=1 complete=2\nw(2,1,1,1)\nw(1,2,2,2)\n#@time 2 invoke=3 complete=4\n", 100, 3,
                "gets an operation after its #@time line");
    lag_refused("w(1,1,1,1)\n#@time 1 invoke=1 complete=2\nw(2,1,1,1)\n", 0, 3, "gets an operation after its #@time line");
}

/* brute_levels.h serves other suites too */
static void (*const unused_helpers[])(void) = { (void (*)(void))bv_acyclic, (void (*)(void))bv_anomaly };

int main(void) {
    (void)unused_helpers;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_set),
        cmocka_unit_test(test_retired_id_comes_back),
        cmocka_unit_test(test_lag_promise_refused),
        cmocka_unit_test(test_lag_oracle),
        cmocka_unit_test(test_lag_stopped_session),
        cmocka_unit_test(test_lag_every_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
