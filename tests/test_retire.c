/* test_retire.c — retiring transactions (frontend/online/retire.h) against
 * batch checks of the whole history.
 *
 * Histories: executions of the workload simulator with fence transactions
 * (every level it runs, every injected fault), written in the text format
 * and streamed in chunks of lines through a retire_stream, which checks and
 * retires after each chunk.  Asserted, per level (SI, SER):
 *   - the final verdict (a batch check of the live part at the end) equals
 *     a batch check of the whole history: no false PASS, no false FAIL;
 *   - a violation reported while streaming is a FAIL of the whole history;
 *   - on fault-free runs retirement happens (a count), and the live part
 *     stays well below the history.
 * Hand-written streams: a stale read of a retired version still fails
 * (reported as a thin-air read); a session first seen after a retirement
 * is refused; the fence key is the generator's. */
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
#include "frontend/online/retire.h"
#include "frontend/run_check.h"

/* ---- a simulator run as text ------------------------------------------ */

typedef struct text_sink { vec_char buf; } text_sink;

static int put_txn(void *ctx, uint32_t session, uint32_t pos, int64_t txn_id, int committed, const sim_op *ops,
                   uint32_t n_ops, ic_error *err) {
    (void)pos; (void)err;
    text_sink *ts = ctx;
    if (!committed) return 1;                 /* the text format has no aborts */
    for (uint32_t i = 0; i < n_ops; i++) {
        char line[128];
        int n = snprintf(line, sizeof line, "%c(%lld,%lld,%u,%lld)\n", ops[i].write ? 'w' : 'r', (long long)ops[i].key,
                         (long long)ops[i].value, session + 1, (long long)txn_id);
        for (int j = 0; j < n; j++) vec_push(ts->buf, line[j]);
    }
    return 1;
}

static void run_sim(const workload_params *p, vec_char *out) {
    text_sink ts;
    vec_init(ts.buf);
    sim_sink sink = { &ts, put_txn };
    sim_truth truth;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(sim_run(p, &sink, &truth, NULL, NULL, &err), 1);
    *out = ts.buf;
}

/* Verdict per level (UNKNOWN: no answer) of a batch check; the
 * anomaly kind of the first item (or -1) into *first_kind. */
static void batch(const history *h, verdict out[2], int *first_kind) {
    report rep;
    report_init(&rep, h, "all");
    run_check_options o;
    run_check_options_default(&o);
    o.want[LEVEL_SI] = o.want[LEVEL_SER] = 1;
    int cert_level;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(run_check(h, &o, &rep, NULL, &cert_level, &err), 1);
    out[LEVEL_SI] = out[LEVEL_SER] = rep.axiom_violations ? VERDICT_FAIL : VERDICT_UNKNOWN;   /* axioms: every level fails */
    for (int i = 0; i < rep.num_levels; i++) out[rep.levels[i].level] = rep.levels[i].verdict;
    if (first_kind) *first_kind = rep.items.len ? (int)rep.items.data[0].kind : -1;
    report_free(&rep);
}

typedef struct stream_result {
    verdict verdict[2];          /* final, per level */
    int violation;               /* a violation was reported while streaming */
    uint64_t retired;
    uint32_t peak_live;
} stream_result;

/* Stream text through a retire_stream in chunks of `lines` lines,
 * checking after each; 0 if the stream refused the input (err set). */
static int stream(const char *text, size_t n, size_t lines, stream_result *r, ic_error *err) {
    retire_stream rs;
    retire_stream_init(&rs, "test", 1, 1, 10);
    memset(r, 0, sizeof *r);
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
        assert_non_null(h);
        batch(h, r->verdict, NULL);
        history_free(h);
    }
    r->retired = rs.retired;
    r->peak_live = rs.peak_live;
    retire_stream_free(&rs);
    return ok;
}

static void differential(sim_level level, sim_fault fault, uint64_t seed, uint64_t *retired_sum, uint64_t *txns_sum) {
    workload_params p;
    workload_defaults(&p);
    p.sessions = 5;
    p.txns_per_session = 240;
    p.ops_per_txn = 5;
    p.keys = 40;
    p.dist = KEYDIST_UNIFORM;
    p.read_fraction = 0.85;
    p.level = level;
    p.fault = fault;
    p.fault_rate = 0.05;
    p.fence_every = 4;
    p.seed = seed;
    vec_char text;
    run_sim(&p, &text);
    ic_error err;
    ic_error_clear(&err);
    history *whole = load_history_mem(text.data, text.len, FORMAT_TEXT, "whole", &err);
    assert_non_null(whole);
    verdict want[2];
    batch(whole, want, NULL);
    stream_result r;
    assert_int_equal(stream(text.data, text.len, 120, &r, &err), 1);
    for (int l = 0; l < 2; l++) {
        if (r.verdict[l] != want[l])
            fail_msg("level %s fault %s seed %llu, %s: streamed with retirement %d, batch %d (%llu retired)",
                     sim_level_name(level), sim_fault_name(fault), (unsigned long long)seed, l == LEVEL_SI ? "si" : "ser",
                     r.verdict[l], want[l], (unsigned long long)r.retired);
    }
    if (r.violation) assert_true(want[LEVEL_SI] == 1 || want[LEVEL_SER] == 1);
    *retired_sum += r.retired;
    *txns_sum += whole->num_txns - 1;
    history_free(whole);
    vec_free(text);
}

static void test_differential_faults(void **state) {
    (void)state;
    for (int f = 0; f < FAULT_COUNT; f++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            uint64_t retired = 0, txns = 0;
            differential(SIM_SI, (sim_fault)f, seed, &retired, &txns);
            differential(SIM_SER, (sim_fault)f, seed + 10, &retired, &txns);
        }
}

/* Retirement must actually happen, or the tests above prove nothing. */
static void test_fault_free_retires(void **state) {
    (void)state;
    uint64_t retired = 0, txns = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        differential(SIM_SI, FAULT_NONE, seed, &retired, &txns);
        differential(SIM_SER, FAULT_NONE, seed, &retired, &txns);
    }
    /* measured: 4,526 of 9,600 (chunks of 120 lines, a check after each) */
    assert_true(retired * 3 > txns);
}

static void test_fence_key_agrees(void **state) {
    (void)state;
    assert_true(WORKLOAD_FENCE_KEY == RETIRE_FENCE_KEY);
}

/* Two sessions, fences every transaction; session 1 writes key 1 twice
 * (v=1, then v=2); many rounds later session 2 reads the overwritten v=1
 * (stale 1), or key 1's initial value (stale 2), or v=2 (stale 0).
 * The batch check fails it (a stale read: a cycle through the fences); with
 * retirement both writers are gone and the read has no writer: still a
 * FAIL, named thin-air-read. */
static void append(vec_char *b, const char *s) { while (*s) vec_push(*b, *s++); }

static void fence(vec_char *b, int session, long long *txn, long long *fv) {
    char line[160];
    snprintf(line, sizeof line, "r(%lld,%lld,%d,%lld)\nw(%lld,%lld,%d,%lld)\n", RETIRE_FENCE_KEY, *fv, session, *txn,
             RETIRE_FENCE_KEY, *fv + 1000, session, *txn);
    append(b, line);
    *fv += 1000;
    (*txn)++;
}

static void stale_history(vec_char *b, int stale) {
    long long txn = 1, fv = 0, val = 1;
    char line[160];
    vec_init(*b);
    for (int round = 0; round < 30; round++) {
        for (int s = 1; s <= 2; s++) {
            /* session 1 writes key 1 in rounds 0 and 1; session 2 reads key 2 */
            if (s == 1 && round < 2) snprintf(line, sizeof line, "w(1,%d,1,%lld)\n", round + 1, txn++);
            else if (s == 2 && round == 25)
                snprintf(line, sizeof line, "r(1,%d,2,%lld)\n", stale == 1 ? 1 : stale == 2 ? 0 : 2, txn++);
            else snprintf(line, sizeof line, "w(2,%lld,%d,%lld)\n", 5000 + val++, s, txn++);
            append(b, line);
            fence(b, s, &txn, &fv);
        }
    }
}

static void test_stale_read_of_retired_version(void **state) {
    (void)state;
    for (int stale = 0; stale <= 2; stale++) {
        vec_char text;
        stale_history(&text, stale);
        ic_error err;
        ic_error_clear(&err);
        history *whole = load_history_mem(text.data, text.len, FORMAT_TEXT, "whole", &err);
        assert_non_null(whole);
        verdict want[2];
        batch(whole, want, NULL);
        assert_int_equal(want[LEVEL_SI], stale ? VERDICT_FAIL : VERDICT_PASS);
        assert_int_equal(want[LEVEL_SER], stale ? VERDICT_FAIL : VERDICT_PASS);
        /* stream it; the writers of key 1 retire before the read arrives */
        retire_stream rs;
        retire_stream_init(&rs, "stale", 1, 1, 10);
        size_t at = 0, cut = 0;
        const char *mark = stale == 1 ? "r(1,1,2," : stale == 2 ? "r(1,0,2," : "r(1,2,2,";
        const char *where = strstr(text.data, mark);
        assert_non_null(where);
        cut = (size_t)(where - text.data);
        while (at < cut) {
            size_t end = at;
            int seen = 0;
            while (end < cut && seen < 8) if (text.data[end++] == '\n') seen++;
            assert_int_equal(retire_stream_feed(&rs, text.data + at, end - at, 0, &err), 1);
            at = end;
            assert_int_equal(retire_stream_check(&rs), ONLINE_NO_VIOLATION);
        }
        assert_true(rs.retired >= 4);          /* both writes of key 1 (rounds 0, 1) are gone */
        assert_int_equal(retire_stream_feed(&rs, text.data + at, text.len - at, 1, &err), 1);
        history *h = retire_stream_history(&rs, 1, &err);
        assert_non_null(h);
        verdict got[2];
        int kind;
        batch(h, got, &kind);
        assert_int_equal(got[LEVEL_SI], stale ? VERDICT_FAIL : VERDICT_PASS);
        assert_int_equal(got[LEVEL_SER], stale ? VERDICT_FAIL : VERDICT_PASS);
        if (stale) assert_int_equal(kind, AN_THIN_AIR_READ);
        history_free(h);
        retire_stream_free(&rs);
        history_free(whole);
        vec_free(text);
    }
}

static void test_new_session_after_retirement_refused(void **state) {
    (void)state;
    vec_char text;
    stale_history(&text, 0);
    append(&text, "w(3,99999,7,99999)\n");
    stream_result r;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(stream(text.data, text.len, 8, &r, &err), 0);
    assert_true(err.set);
    assert_non_null(strstr(err.msg, "session 7 first appears after transactions were retired"));
    assert_true(err.line > 0);
    vec_free(text);
}

/* A transaction with a line after its session's next one began is refused
 * wherever the feeds are cut: in one feed as in two (the batch parser reads
 * it as one transaction; --retire does not keep the bytes to hand over). */
static void test_late_line_refused_whatever_the_feeds(void **state) {
    (void)state;
    const char *text = "w(1,1,0,1)\nw(1,2,0,2)\nr(1,1,0,1)\nw(2,5,0,3)\n";
    size_t n = strlen(text);
    for (size_t cut = 0; cut <= 3; cut++) {                /* the first feed ends after `cut` lines (0: one feed) */
        size_t at = 0;
        for (size_t l = 0; l < cut; l++) at = (size_t)(strchr(text + at, '\n') - text) + 1;
        retire_stream rs;
        retire_stream_init(&rs, "late", 1, 1, 10);
        ic_error err;
        ic_error_clear(&err);
        int ok = 1;
        if (at) ok = retire_stream_feed(&rs, text, at, 0, &err);
        if (ok) ok = retire_stream_feed(&rs, text + at, n - at, 1, &err);
        if (ok) fail_msg("first feed of %zu lines: accepted", cut);
        assert_non_null(strstr(err.msg, "transaction 1 gets an operation after its session went on"));
        assert_int_equal(err.line, 3);
        retire_stream_free(&rs);
    }
}

/* Without fences nothing retires (and the verdict is still the batch one). */
static void test_no_fences_no_retirement(void **state) {
    (void)state;
    workload_params p;
    workload_defaults(&p);
    p.sessions = 4; p.txns_per_session = 100; p.ops_per_txn = 4; p.keys = 30; p.dist = KEYDIST_UNIFORM;
    vec_char text;
    run_sim(&p, &text);
    stream_result r;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(stream(text.data, text.len, 50, &r, &err), 1);
    assert_int_equal(r.retired, 0);
    assert_int_equal(r.verdict[LEVEL_SI], VERDICT_PASS);
    vec_free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fence_key_agrees),
        cmocka_unit_test(test_fault_free_retires),
        cmocka_unit_test(test_differential_faults),
        cmocka_unit_test(test_stale_read_of_retired_version),
        cmocka_unit_test(test_new_session_after_retirement_refused),
        cmocka_unit_test(test_no_fences_no_retirement),
        cmocka_unit_test(test_late_line_refused_whatever_the_feeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
