/* test_retire_time.c — retiring by real time (frontend/online/retire_time.h)
 * against batch checks at sser and strong-si.
 *
 * Histories: executions of the workload simulator with times (every level
 * it runs, every injected fault), written as text the way `isocheck gen
 * --times` writes them (a transaction's lines, then its #@time line, in
 * completion order), and streamed in chunks of lines through a
 * retire_stream retiring by time, which checks and retires after each
 * chunk.  Asserted at each real-time level:
 *   - every prefix (cut after a transaction's #@time line) streamed in
 *     chunks of 1, 5 and 40 lines: the final verdict (a batch check of the
 *     live part at the end) equals the batch check of the prefix, and a
 *     violation reported while streaming is a FAIL of the prefix;
 *   - whole runs in chunks of 1, 7, 60 and 400 lines: the same, and on
 *     fault-free runs most transactions retire and the live part stays
 *     small;
 *   - tiny random histories (8 transactions, times obeying T2, reads of
 *     mostly the latest value written, else any or 0) streamed a line at a time: the
 *     final verdict equals the brute-force oracle's (tests/brute_levels.h,
 *     which shares no code with the checker);
 *   - hand-written streams: a stale read of a retired version (named
 *     thin-air-read) and of a live one (named as a real-time violation)
 *     fail, whatever the chunks; the input's promises (T1, T2, T3) are
 *     refused at their file line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "workload/workload.h"
#include "frontend/formats/parse.h"
#include "frontend/history/levels.h"
#include "frontend/online/retire.h"
#include "frontend/run_check.h"
#include "tests/brute_levels.h"
#include "tests/retire_time_stream.h"

static const int rt_levels[2] = { LEVEL_SSER, LEVEL_STRONG_SI };

static int refusals_t3, agreements, failing;

static void agree(const char *text, size_t n, size_t lines, int level, const char *what, uint64_t *retired) {
    verdict want = batch_text(text, n, level);
    stream_result r;
    ic_error err;
    ic_error_clear(&err);
    if (!stream(text, n, lines, level, &r, &err)) {
        /* T3: a session first seen after a retirement, invoked before a
         * retired transaction completed (a short run: checks after every
         * chunk retire before every session has begun) */
        if (strstr(err.msg, "not after every retired transaction completed")) { refusals_t3++; return; }
        fail_msg("%s: refused: %s (line %ld)", what, err.msg, err.line);
    }
    if (r.verdict != want)
        fail_msg("%s, %s, chunks of %zu lines: streamed %d, batch %d (%llu retired)", what,
                 level_name((check_level_id)level), lines, r.verdict, want, (unsigned long long)r.retired);
    if (r.violation && want != VERDICT_FAIL) fail_msg("%s: a violation reported while streaming, batch PASS", what);
    if (retired) *retired += r.retired;
    agreements++;
    failing += want == VERDICT_FAIL;
}

/* Every prefix, cut after a #@time line, several chunkings. */
static void test_every_prefix(void **state) {
    (void)state;
    agreements = failing = 0;
    for (int f = 0; f < FAULT_COUNT; f++)
        for (uint64_t seed = 1; seed <= 1; seed++) {
            workload_params p;
            sim_params(&p, f % 2 ? SIM_SER : SIM_SI, (sim_fault)f, seed + 100 * (uint64_t)f, 3, 14);
            vec_char text;
            run_sim(&p, &text);
            for (size_t at = 0; at < text.len; at++) {
                if (text.data[at] != '\n' || at < 6) continue;
                size_t start = at;
                while (start > 0 && text.data[start - 1] != '\n') start--;
                if (strncmp(text.data + start, "#@time", 6)) continue;
                char what[96];
                snprintf(what, sizeof what, "fault %s seed %llu prefix of %zu bytes", sim_fault_name((sim_fault)f),
                         (unsigned long long)seed, at + 1);
                for (int l = 0; l < 2; l++) {
                    agree(text.data, at + 1, 1, rt_levels[l], what, NULL);
                    agree(text.data, at + 1, 5, rt_levels[l], what, NULL);
                    agree(text.data, at + 1, 40, rt_levels[l], what, NULL);
                }
            }
            vec_free(text);
        }
    print_message("%d prefix streams agree with batch (%d of them FAIL), %d refused (T3)\n", agreements, failing,
                  refusals_t3);
    assert_true(refusals_t3 * 20 < agreements);
    assert_true(failing * 10 > agreements);        /* the faults make violations: both verdicts are tested */
}

/* Whole runs, every level and fault, several chunkings; retirement must
 * happen on the fault-free ones, or the agreement proves little. */
static void test_whole_runs(void **state) {
    (void)state;
    const size_t chunks[] = { 1, 7, 60, 400 };
    uint64_t retired = 0, txns = 0;
    for (int f = 0; f < FAULT_COUNT; f++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            workload_params p;
            sim_params(&p, seed == 1 ? SIM_SER : SIM_SI, (sim_fault)f, seed + 7, 4, 150);
            vec_char text;
            run_sim(&p, &text);
            char what[64];
            snprintf(what, sizeof what, "fault %s seed %llu", sim_fault_name((sim_fault)f), (unsigned long long)seed);
            for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
                for (int l = 0; l < 2; l++) {
                    uint64_t got = 0;
                    agree(text.data, text.len, chunks[c], rt_levels[l], what, &got);
                    if (f == FAULT_NONE) { retired += got; txns += 600; }
                }
            vec_free(text);
        }
    /* measured: 3,888 of 9,600 (the chunks of one line retire less: a check per line) */
    print_message("fault-free: %llu of %llu retired\n", (unsigned long long)retired, (unsigned long long)txns);
    assert_true(retired * 3 > txns);
}

/* A big fault-free run stays small: the live part is bounded. */
static void test_live_part_bounded(void **state) {
    (void)state;
    workload_params p;
    sim_params(&p, SIM_SER, FAULT_NONE, 3, 8, 1500);
    vec_char text;
    run_sim(&p, &text);
    stream_result r;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(stream(text.data, text.len, 200, LEVEL_SSER, &r, &err), 1);
    assert_int_equal(r.verdict, VERDICT_PASS);
    print_message("12000 transactions: %llu retired, at most %u live\n", (unsigned long long)r.retired, r.peak_live);
    assert_true(r.retired > 11000);
    assert_true(r.peak_live < 2000);
    vec_free(text);
}

/* Two sessions; session 1 writes key 1 (v=1) at round 0 and v=2 at round
 * 1, and key 2 otherwise; session 2 writes key 2, and at round `at` reads
 * key 1 = `val` (1: overwritten, 0: overwritten initial value, 2: the last
 * one).  Each transaction runs alone in real time. */
static void stale_history(vec_char *b, int val, int at) {
    long long txn = 1, v = 5000, clock = 0;
    char line[160];
    vec_init(*b);
    for (int round = 0; round < 30; round++)
        for (int s = 1; s <= 2; s++) {
            if (s == 1 && round < 2) snprintf(line, sizeof line, "w(1,%d,1,%lld)\n", round + 1, txn);
            else if (s == 2 && round == at) snprintf(line, sizeof line, "r(1,%d,2,%lld)\n", val, txn);
            else snprintf(line, sizeof line, "w(2,%lld,%d,%lld)\n", v++, s, txn);
            append(b, line);
            snprintf(line, sizeof line, "#@time %lld invoke=%lld complete=%lld\n", txn, clock + 1, clock + 2);
            append(b, line);
            clock += 3;
            txn++;
        }
}

/* R3's order of two retired versions comes from the settled part only:
 * A and B write key 1, C (settled) reads A after B completed (B before A),
 * r reads B after A completed (A before B) but waits for a write of key 2
 * that comes last, so r is not settled when A, B and C retire.  The
 * history fails; taking r's edge for "A before B" made B the retired key's
 * last version, and the stream passed (a false PASS, found in review). */
static void order_gadget(vec_char *b, size_t *head_lines) {
    char line[160];
    vec_init(*b);
    append(b, "w(1,10,3,1)\n#@time 1 invoke=0 complete=4\n");              /* A */
    append(b, "w(1,20,1,2)\n#@time 2 invoke=0 complete=1\n");              /* B */
    append(b, "r(1,10,2,3)\n#@time 3 invoke=2 complete=3\n");              /* C */
    append(b, "r(1,20,4,4)\nr(2,99,4,4)\n#@time 4 invoke=5 complete=6\n");  /* r */
    *head_lines = 9;
    long long txn = 5;
    for (int j = 0; j < 300; j++)
        for (int s = 1; s <= 4; s++, txn++) {
            snprintf(line, sizeof line, "w(%d,%d,%d,%lld)\n#@time %lld invoke=%d complete=%d\n", 1000 + s * 1000 + j,
                     j + 1, s, txn, txn, 10 + 2 * j, 11 + 2 * j);
            append(b, line);
            *head_lines += 2;
        }
    append(b, "w(2,99,5,10000)\n#@time 10000 invoke=5 complete=7\n");
}

static void test_order_from_settled(void **state) {
    (void)state;
    vec_char text;
    size_t head;
    order_gadget(&text, &head);
    for (int l = 0; l < 2; l++) {
        assert_int_equal(batch_text(text.data, text.len, rt_levels[l]), VERDICT_FAIL);
        stream_result r;
        ic_error err;
        ic_error_clear(&err);
        assert_int_equal(stream(text.data, text.len, head, rt_levels[l], &r, &err), 1);
        assert_true(r.retired > 0);                  /* something retires: the case is exercised */
        assert_int_equal(r.verdict, VERDICT_FAIL);
    }
    vec_free(text);
}

/* A stale read in real time fails at both levels, whatever the chunks:
 * named thin-air-read when its version retired before it arrived, a
 * real-time violation when the version is still live. */
static void test_stale_reads(void **state) {
    (void)state;
    for (int val = 0; val <= 2; val++)
        for (int at = 2; at <= 25; at += 23)
            for (int l = 0; l < 2; l++) {
                vec_char text;
                stale_history(&text, val, at);
                verdict want = batch_text(text.data, text.len, rt_levels[l]);
                assert_int_equal(want, val == 2 ? VERDICT_PASS : VERDICT_FAIL);
                const size_t chunks[] = { 1, 4, 10, 1000 };
                for (size_t c = 0; c < 4; c++) {
                    stream_result r;
                    ic_error err;
                    ic_error_clear(&err);
                    assert_int_equal(stream(text.data, text.len, chunks[c], rt_levels[l], &r, &err), 1);
                    assert_int_equal(r.verdict, want);
                    if (val == 2) continue;
                    /* read at round 25 in small chunks: key 1's writers retired long before */
                    if (at == 25 && chunks[c] <= 10) assert_int_equal(r.kind, AN_THIN_AIR_READ);
                    if (chunks[c] == 1000) assert_int_not_equal(r.kind, AN_THIN_AIR_READ);   /* nothing retired: a cycle */
                }
                vec_free(text);
            }
}

/* The input's promises, refused at their line whatever the chunks. */
static void refused(const char *text, long line, const char *msg) {
    for (size_t lines = 1; lines <= 8; lines *= 2) {
        stream_result r;
        ic_error err;
        ic_error_clear(&err);
        if (stream(text, strlen(text), lines, LEVEL_SSER, &r, &err)) fail_msg("accepted: %s", msg);
        if (!strstr(err.msg, msg) || err.line != line)
            fail_msg("chunks of %zu: expected line %ld '%s', got line %ld '%s'", lines, line, msg, err.line, err.msg);
    }
}

static void test_promises_refused(void **state) {
    (void)state;
    /* T1: no #@time line before the session's next transaction */
    refused("w(1,1,1,1)\nw(1,2,1,2)\n#@time 2 invoke=5 complete=6\n", 2, "has no #@time line");
    refused("w(1,1,1,1)\nw(1,2,1,2)\n#@time 1 invoke=1 complete=2\n#@time 2 invoke=5 complete=6\n", 2,
            "has no #@time line");
    /* T1: by the end of input */
    refused("w(1,1,1,1)\n#@time 1 invoke=1 complete=2\nw(1,2,2,2)\n", 3, "by the end of input");
    /* T1: before the transaction's operations */
    refused("#@time 1 invoke=1 complete=2\nw(1,1,1,1)\n", 1, "is not between its first operation");
    /* T1: both times */
    refused("w(1,1,1,1)\n#@time 1 invoke=1\n", 2, "lacks invoke= or complete=");
    /* T2: invoked before the session's previous transaction completed */
    refused("w(1,1,1,1)\n#@time 1 invoke=1 complete=9\nw(1,2,1,2)\n#@time 2 invoke=5 complete=12\n", 4,
            "before its session's previous transaction completed");
}

/* T3: a session first seen after a retirement, invoked before a retired
 * transaction completed. */
static void test_late_session_refused(void **state) {
    (void)state;
    vec_char text;
    stale_history(&text, 2, 25);
    append(&text, "w(3,99999,7,99999)\n#@time 99999 invoke=10 complete=200\n");
    stream_result r;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(stream(text.data, text.len, 4, LEVEL_SSER, &r, &err), 0);
    assert_non_null(strstr(err.msg, "not after every retired transaction completed"));
    assert_int_equal(err.line, 122);
    /* invoked after them: accepted, and it passes */
    text.len -= strlen("#@time 99999 invoke=10 complete=200\n");
    append(&text, "#@time 99999 invoke=1000 complete=1001\n");
    assert_int_equal(stream(text.data, text.len, 4, LEVEL_SSER, &r, &err), 1);
    assert_int_equal(r.verdict, VERDICT_PASS);
    vec_free(text);
}

static void test_brute_oracle(void **state) {
    (void)state;
    unsigned seed = 41;
    int compared = 0, fails = 0, retired = 0, refused = 0;
    for (int i = 0; i < 1500; i++) {
        vec_char text;
        tiny_history(&text, &seed);
        ic_error err;
        ic_error_clear(&err);
        history *h = load_history_mem(text.data, text.len, FORMAT_TEXT, "tiny", &err);
        if (!h) { vec_free(text); continue; }      /* e.g. an empty transaction list */
        int64_t inv[16], cmp[16];
        for (uint32_t t = 0; t < h->num_txns && t < 16; t++) {
            inv[t] = history_time(h, TIME_INVOKE, t);
            cmp[t] = history_time(h, TIME_COMPLETE, t);
        }
        for (int l = 0; l < 2 && h->num_txns <= 16; l++) {
            int want = bv_check(h, rt_levels[l] == LEVEL_SSER ? BV_SSER : BV_STRONG_SI, inv, cmp);
            if (want < 0) continue;
            for (size_t lines = 1; lines <= 3; lines += 2) {
                stream_result r;
                if (!stream(text.data, text.len, lines, rt_levels[l], &r, &err)) {
                    /* T3: a session first seen after a retirement, invoked before it */
                    if (!strstr(err.msg, "not after every retired transaction completed"))
                        fail_msg("refused: %s\n%s", err.msg, text.data);
                    refused++;
                    continue;
                }
                if ((r.verdict == VERDICT_PASS) != (want == 1))
                    fail_msg("%s, chunks of %zu: streamed %d, oracle %d (%llu retired):\n%s",
                             level_name((check_level_id)rt_levels[l]), lines, r.verdict, want,
                             (unsigned long long)r.retired, text.data);
                compared++;
                fails += want == 0;
                retired += r.retired > 0;
            }
        }
        history_free(h);
        vec_free(text);
    }
    print_message("%d streams agree with the oracle (%d FAIL), %d retired something; %d refused (T3)\n", compared,
                  fails, retired, refused);
    assert_true(compared > 2000 && fails * 5 > compared && (compared - fails) * 5 > compared && retired * 4 > compared);
}

/* brute_levels.h serves other suites too */
static void (*const unused_helpers[])(void) = { (void (*)(void))bv_acyclic, (void (*)(void))bv_anomaly };

int main(void) {
    (void)unused_helpers;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_promises_refused),
        cmocka_unit_test(test_brute_oracle),
        cmocka_unit_test(test_late_session_refused),
        cmocka_unit_test(test_stale_reads),
        cmocka_unit_test(test_order_from_settled),
        cmocka_unit_test(test_live_part_bounded),
        cmocka_unit_test(test_whole_runs),
        cmocka_unit_test(test_every_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
