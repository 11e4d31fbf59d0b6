/* test_repeat_diff.c — histories whose written values repeat (issue 35):
 * the checker (resolved form, axioms, index, check_level with the choice
 * encoding of frontend/checking/choice.h) against the brute-force oracle
 * of tests/brute_repeat.h on thousands of tiny random histories with 1 to
 * 50 % repeated values, SER and SI.  Every PASS must come with a choice and
 * version order that vo_check() accepts on the chosen history; every FAIL
 * of the solver with a cycle that cycle_holds() confirms under the choice
 * it assumes.  Also: the model (every writer of a repeated value, the
 * unique case untouched) and the candidates' pruning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <string.h>

#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/recheck/verify_model.h"
#include "tests/brute_repeat.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

typedef struct gop { int write, key, txn; int64_t value; } gop;

/* ntx transactions on up to 3 sessions; a write's value is one already
 * written to the key with probability pct %, else new (or, rarely, the
 * initial value); a read sees an own earlier op, else any value written to
 * the key (aborted and overwritten writes too) or the initial one. */
static history *random_history(int pct) {
    int nsess = 1 + (int)rnd(3), ntx = 2 + (int)rnd(5), nkeys = 1 + (int)rnd(2);
    gop ops[64]; int nops = 0;
    int sess_of[8], aborted[8], first[8], count[8];
    int64_t vals[4][32]; int nv[4] = {0};
    int64_t next = 1;
    for (int t = 0; t < ntx; t++) {
        sess_of[t] = (int)rnd((uint32_t)nsess);
        aborted[t] = rnd(12) == 0;
        first[t] = nops; count[t] = 1 + (int)rnd(4);
        for (int i = 0; i < count[t]; i++) {
            gop o = { (int)rnd(2), (int)rnd((uint32_t)nkeys), t, 0 };
            if (o.write) {
                if (nv[o.key] && (int)rnd(100) < pct) o.value = vals[o.key][rnd((uint32_t)nv[o.key])];
                else o.value = rnd(20) == 0 ? VALUE_INIT : next++;
                vals[o.key][nv[o.key]++] = o.value;
            }
            ops[nops++] = o;
        }
    }
    for (int t = 0; t < ntx; t++)
        for (int i = first[t]; i < first[t] + count[t]; i++) {
            if (ops[i].write) continue;
            int k = ops[i].key, done = 0;
            for (int j = i - 1; j >= first[t] && !done; j--)
                if (ops[j].key == k) { ops[i].value = ops[j].value; done = rnd(10) != 0; }
            if (done) continue;
            uint32_t c = rnd((uint32_t)nv[k] + 1);
            ops[i].value = c == (uint32_t)nv[k] ? VALUE_INIT : vals[k][c];
        }
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "repeat");
    uint32_t keys[4];
    for (int k = 0; k < nkeys; k++) keys[k] = hb_key(b, k);
    for (int t = 0; t < ntx; t++) {
        uint32_t bt = hb_txn(b, hb_session(b, sess_of[t], NULL), t + 1, 0);
        for (int i = first[t]; i < first[t] + count[t]; i++)
            hb_op(b, bt, ops[i].write ? OP_WRITE : OP_READ, keys[ops[i].key], ops[i].value, 0);
        if (aborted[t]) hb_txn_status(b, bt, TXN_ABORTED);
    }
    ic_error err;
    ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

/* The pipeline as run_check runs it: resolved form, axioms, index, level. */
static verdict pipeline(const history *h, int si, int *solver_fail) {
    ic_error err;
    ic_error_clear(&err);
    const history *r = history_resolved(h, &err);
    assert_non_null(r);
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t found = axioms_check(r, &al, 4);
    anomaly_list_free(&al);
    if (found) return VERDICT_FAIL;
    pg_index ix;
    assert_true(pg_index_build(&ix, r, &err));
    check_result res;
    verdict v = check_level(&ix, si ? LEVEL_SI : LEVEL_SER, NULL, &res);
    const history *chosen = res.chosen ? res.chosen : r;
    /* a cycle of known edges needs no choice (known_cycle.h): it is checked on r itself */
    int known = v == VERDICT_FAIL && strstr(res.msg, "; the cycle shown is of known edges") != NULL;
    if (r->num_amb && !res.chosen && !known) fprintf(stderr, "no choice: %s (%s)\n", res.msg, verdict_name(v));
    if (r->num_amb && !known) assert_non_null(res.chosen);
    if (known) assert_null(res.chosen);
    char why[300];
    if (v == VERDICT_PASS) assert_int_equal(vo_check(chosen, &res.vo, si, NULL, why, sizeof why), 1);
    if (v == VERDICT_FAIL) {
        assert_true(cycle_holds(chosen, &res.vo, si, res.cycle.data, res.cycle.len, why, sizeof why));
        *solver_fail += res.chosen != NULL;
    }
    check_result_free(&res);
    pg_index_free(&ix);
    return v;
}

static void run_diff(int pct, int rounds, uint64_t seed) {
    rng_state = seed;
    int compared = 0, amb = 0, fails = 0, passes = 0, choice_fail = 0;
    for (int i = 0; i < rounds; i++) {
        history *h = random_history(pct);
        for (int si = 0; si < 2; si++) {
            int want = brute_repeat_check(h, si);
            if (want < 0) continue;
            verdict got = pipeline(h, si, &choice_fail);
            if ((got == VERDICT_PASS) != (want == 1) || got == VERDICT_UNKNOWN) {
                fprintf(stderr, "seed %llu round %d %s: oracle %d, checker %s\n", (unsigned long long)seed, i,
                        si ? "SI" : "SER", want, verdict_name(got));
                for (uint32_t op = 0; op < h->num_ops; op++)
                    fprintf(stderr, "  op %u txn %u (T%lld s%u %s) %s k%u = %lld%s\n", op, history_op_txn(h, op),
                            (long long)h->txns[history_op_txn(h, op)].ext_id, h->txns[history_op_txn(h, op)].session,
                            h->txns[history_op_txn(h, op)].status == TXN_ABORTED ? "aborted" : "",
                            history_op_kind(h, op) == OP_WRITE ? "w" : "r", h->op_key[op], (long long)history_op_value(h, op),
                            h->op_kind[op] & OP_REPEATED ? " (repeated)" : "");
                fail();
            }
            compared++;
            passes += want == 1;
            fails += want == 0;
        }
        const history *r = history_resolved(h, NULL);
        amb += r && r->num_amb;
        history_free(h);
    }
    fprintf(stderr, "repeat %d%%: %d compared (%d pass, %d fail), %d histories with ambiguous reads, %d failures under a choice\n",
            pct, compared, passes, fails, amb, choice_fail);
    assert_true(compared > rounds);
    assert_true(amb > 0 || pct < 10);
}

static void test_diff_1(void **s) { (void)s; run_diff(1, 1500, 11); }
static void test_diff_10(void **s) { (void)s; run_diff(10, 1500, 12); }
static void test_diff_30(void **s) { (void)s; run_diff(30, 1500, 13); }
static void test_diff_50(void **s) { (void)s; run_diff(50, 2000, 14); }

/* The model: every writer of a repeated value; a unique value's lookup. */
static void test_writers_of(void **s) {
    (void)s;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "m");
    uint32_t k = hb_key(b, 1), s1 = hb_session(b, 1, NULL);
    uint32_t t1 = hb_txn(b, s1, 1, 0), t2 = hb_txn(b, s1, 2, 0), t3 = hb_txn(b, s1, 3, 0);
    hb_op(b, t1, OP_WRITE, k, 5, 0);
    hb_op(b, t2, OP_WRITE, k, 6, 0);
    hb_op(b, t3, OP_WRITE, k, 5, 0);
    ic_error err;
    ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    uint32_t one[1];
    const uint32_t *ws;
    assert_int_equal(history_writers_of(h, 0, 5, one, &ws), 2);
    assert_int_equal(history_op_txn(h, ws[0]), 1);
    assert_int_equal(history_op_txn(h, ws[1]), 3);
    assert_int_equal(history_writers_of(h, 0, 6, one, &ws), 1);
    assert_int_equal(history_op_txn(h, ws[0]), 2);
    assert_false(h->op_kind[ws[0]] & OP_REPEATED);
    assert_int_equal(history_writers_of(h, 0, 7, one, &ws), 0);
    assert_int_equal(h->num_repeated, 2);
    history_free(h);
}

/* One candidate left (the other aborted): the read names it, no choice;
 * none left: an anomaly naming why each was ruled out. */
static void test_pruned_candidates(void **s) {
    (void)s;
    for (int none = 0; none < 2; none++) {
        history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "p");
        uint32_t k = hb_key(b, 1), s1 = hb_session(b, 1, NULL), s2 = hb_session(b, 2, NULL);
        uint32_t t1 = hb_txn(b, s1, 1, 0), t2 = hb_txn(b, s1, 2, 0), t3 = hb_txn(b, s2, 3, 0);
        hb_op(b, t1, OP_WRITE, k, 5, 0);
        hb_txn_status(b, t1, TXN_ABORTED);
        hb_op(b, t2, OP_WRITE, k, 5, 0);
        if (none) hb_op(b, t2, OP_WRITE, k, 6, 0);
        hb_op(b, t3, OP_READ, k, 5, 0);
        ic_error err;
        ic_error_clear(&err);
        history *h = hb_finish(b, &err);
        const history *r = history_resolved(h, &err);
        assert_non_null(r);
        assert_int_equal(r->num_amb, none ? 1 : 0);
        anomaly_list al;
        anomaly_list_init(&al);
        uint64_t found = axioms_check(r, &al, 4);
        assert_int_equal(found, none ? 1 : 0);
        if (none) {
            const char *d = al.items.data[0].detail;
            assert_non_null(strstr(d, "aborted"));
            assert_non_null(strstr(d, "overwritten later in its own transaction"));
        } else {
            uint32_t rop = r->txns[3].first_op;
            assert_int_equal(history_op_txn(r, history_read_source(r, rop)), 2);
        }
        anomaly_list_free(&al);
        history_free(h);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writers_of),
        cmocka_unit_test(test_pruned_candidates),
        cmocka_unit_test(test_diff_1),
        cmocka_unit_test(test_diff_10),
        cmocka_unit_test(test_diff_30),
        cmocka_unit_test(test_diff_50),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
