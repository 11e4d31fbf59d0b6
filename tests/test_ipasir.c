/* test_ipasir.c — include/ipasir.h over gsat: incremental solving under
 * assumptions against brute force (answers, models, failed assumptions),
 * assumptions lasting one solve, the terminate and learn callbacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ipasir.h"
#include "cnf_util.h"

static void signature_names_gsat(void **state) {
    (void)state;
    assert_non_null(strstr(ipasir_signature(), "gsat"));
}

typedef struct assumed { int lits[8]; int n; } assumed;

/* brute_force's extra condition: every assumption holds in assignment a. */
static int assumptions_hold(void *ctx, uint32_t a) {
    const assumed *as = ctx;
    for (int i = 0; i < as->n; i++) {
        int l = as->lits[i], v = l < 0 ? -l : l;
        if ((((a >> (v - 1)) & 1) != 0) != (l > 0)) return 0;
    }
    return 1;
}

static void add_clause_both(void *S, cnf *f, const int *c, int n) {
    for (int i = 0; i < n; i++) ipasir_add(S, c[i]);
    ipasir_add(S, 0);
    cnf_add(f, c, n);
}

/* Clauses arrive in rounds; each round solves under fresh assumptions. */
static void incremental_solving_matches_brute_force(void **state) {
    (void)state;
    int sat_seen = 0, unsat_assumption_seen = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        rng r = {seed * 0x9e3779b97f4a7c15ull};
        const int nvars = 12;
        cnf f;
        cnf_init(&f, nvars);
        void *S = ipasir_init();
        for (int round = 0; round < 8; round++) {
            for (int k = 0; k < 5; k++) {
                int len = 1 + rng_int(&r, 10) / 3, c[4];   /* lengths 1..4, mostly 2-3 */
                if (len == 1 && rng_int(&r, 3)) len = 3;
                for (int i = 0; i < len; i++) { int v = 1 + rng_int(&r, nvars); c[i] = rng_int(&r, 2) ? v : -v; }
                add_clause_both(S, &f, c, len);
            }
            assumed as = {{0}, rng_int(&r, 5)};
            for (int i = 0; i < as.n; i++) { int v = 1 + rng_int(&r, nvars); as.lits[i] = rng_int(&r, 2) ? v : -v; }
            for (int i = 0; i < as.n; i++) ipasir_assume(S, as.lits[i]);
            int res = ipasir_solve(S);
            int expect = brute_force(&f, assumptions_hold, &as, NULL);
            assert_int_equal(res, expect ? 10 : 20);
            if (res == 10) {
                sat_seen++;
                for (int v = 1; v <= nvars; v++) {
                    int32_t pv = ipasir_val(S, v), nv = ipasir_val(S, -v);
                    assert_int_equal(nv, pv);        /* both name the true literal */
                    if (pv == 0) {                   /* allowed only for a variable never used */
                        for (size_t i = 0; i < f.lits.len; i++) assert_true(f.lits.data[i] != v && f.lits.data[i] != -v);
                        for (int i = 0; i < as.n; i++) assert_true(as.lits[i] != v && as.lits[i] != -v);
                    } else {
                        assert_true(pv == v || pv == -v);
                    }
                }
                /* the model satisfies every clause and assumption */
                int sat = 0;
                for (size_t i = 0; i < f.lits.len; i++) {
                    int l = f.lits.data[i];
                    if (l == 0) { assert_true(sat); sat = 0; continue; }
                    if (ipasir_val(S, l) == l) sat = 1;
                }
                for (int i = 0; i < as.n; i++) assert_int_equal(ipasir_val(S, as.lits[i]), as.lits[i]);
            } else {
                /* failed assumptions are assumptions, and they alone refute */
                assumed failed = {{0}, 0};
                for (int i = 0; i < as.n; i++)
                    if (ipasir_failed(S, as.lits[i])) failed.lits[failed.n++] = as.lits[i];
                for (int v = 1; v <= nvars; v++)
                    for (int sgn = -1; sgn <= 1; sgn += 2) {
                        int l = sgn * v, is_assumed = 0;
                        for (int i = 0; i < as.n; i++) is_assumed |= as.lits[i] == l;
                        if (!is_assumed) assert_int_equal(ipasir_failed(S, l), 0);
                    }
                assert_false(brute_force(&f, assumptions_hold, &failed, NULL));
                if (failed.n) unsat_assumption_seen++;
            }
        }
        ipasir_release(S);
        cnf_free(&f);
    }
    /* the random mix exercised both answers and assumption refutations */
    assert_true(sat_seen > 20);
    assert_true(unsat_assumption_seen > 5);
}

/* An assumption lasts one solve only. */
static void assumptions_last_one_solve(void **state) {
    (void)state;
    void *S = ipasir_init();
    ipasir_add(S, 1); ipasir_add(S, 2); ipasir_add(S, 0);
    ipasir_assume(S, -1);
    ipasir_assume(S, -2);
    assert_int_equal(ipasir_solve(S), 20);
    assert_int_equal(ipasir_failed(S, -1) + ipasir_failed(S, -2), 2);
    assert_int_equal(ipasir_solve(S), 10);
    assert_true(ipasir_val(S, 1) == 1 || ipasir_val(S, 2) == 2);
    ipasir_release(S);
}

typedef struct counter { int calls, stop_after; } counter;
static int stop_after_n(void *data) {
    counter *c = data;
    return ++c->calls >= c->stop_after;
}

/* A terminate callback that says stop ends the search with 0; one that
 * never does lets it finish. */
static void terminate_callback_stops_the_search(void **state) {
    (void)state;
    cnf f;
    cnf_pigeonhole(&f, 10);        /* far beyond 20 conflicts */
    void *S = ipasir_init();
    size_t start = 0;
    for (size_t i = 0; i < f.lits.len; i++)
        if (f.lits.data[i] == 0) { for (size_t k = start; k < i; k++) ipasir_add(S, f.lits.data[k]); ipasir_add(S, 0); start = i + 1; }
    counter c = {0, 20};
    ipasir_set_terminate(S, &c, stop_after_n);
    assert_int_equal(ipasir_solve(S), 0);
    assert_int_equal(c.calls, 20);
    ipasir_release(S);
    cnf_free(&f);

    void *T = ipasir_init();
    counter never = {0, INT32_MAX};
    ipasir_set_terminate(T, &never, stop_after_n);
    cnf_pigeonhole(&f, 4);
    start = 0;
    for (size_t i = 0; i < f.lits.len; i++)
        if (f.lits.data[i] == 0) { for (size_t k = start; k < i; k++) ipasir_add(T, f.lits.data[k]); ipasir_add(T, 0); start = i + 1; }
    assert_int_equal(ipasir_solve(T), 20);
    assert_true(never.calls > 0);
    ipasir_release(T);
    cnf_free(&f);
}

typedef struct learned { const cnf *f; int max_len, count, longest; } learned;

/* Every clause handed to the learn callback is short enough and follows
 * from the formula (brute force: the formula and its negation clash). */
static void check_learned(void *data, int32_t *clause) {
    learned *L = data;
    assumed neg = {{0}, 0};
    int n = 0;
    while (clause[n]) { assert_true(n < 8); neg.lits[neg.n++] = -clause[n]; n++; }
    assert_true(n <= L->max_len);
    if (n > L->longest) L->longest = n;
    assert_false(brute_force(L->f, assumptions_hold, &neg, NULL));
    L->count++;
}

static void learn_callback_gets_implied_clauses(void **state) {
    (void)state;
    int total = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        rng r = {seed * 7919 + 3};
        cnf f;
        cnf_init(&f, 16);
        for (int k = 0; k < 72; k++) cnf_random_clause(&f, &r, 3, 0);   /* near the threshold */
        void *S = ipasir_init();
        learned L = {&f, 3, 0, 0};
        ipasir_set_learn(S, &L, 3, check_learned);
        size_t start = 0;
        for (size_t i = 0; i < f.lits.len; i++)
            if (f.lits.data[i] == 0) { for (size_t k = start; k < i; k++) ipasir_add(S, f.lits.data[k]); ipasir_add(S, 0); start = i + 1; }
        int res = ipasir_solve(S);
        assert_int_equal(res, brute_force(&f, NULL, NULL, NULL) ? 10 : 20);
        total += L.count;
        ipasir_release(S);
        cnf_free(&f);
    }
    assert_true(total > 0);
}

/* Switching the callback off stops the calls. */
static void learn_callback_can_be_removed(void **state) {
    (void)state;
    cnf f;
    cnf_pigeonhole(&f, 5);
    void *S = ipasir_init();
    learned L = {&f, 100, 0, 0};
    ipasir_set_learn(S, &L, 100, check_learned);
    ipasir_set_learn(S, NULL, 0, NULL);
    size_t start = 0;
    for (size_t i = 0; i < f.lits.len; i++)
        if (f.lits.data[i] == 0) { for (size_t k = start; k < i; k++) ipasir_add(S, f.lits.data[k]); ipasir_add(S, 0); start = i + 1; }
    assert_int_equal(ipasir_solve(S), 20);
    assert_int_equal(L.count, 0);
    ipasir_release(S);
    cnf_free(&f);
}

/* (1 or 2), (-1 or 2): satisfiable, 2 true in every model. */
static void *small_sat(void) {
    void *S = ipasir_init();
    assert_non_null(S);
    ipasir_add(S, 1); ipasir_add(S, 2); ipasir_add(S, 0);
    ipasir_add(S, -1); ipasir_add(S, 2); ipasir_add(S, 0);
    return S;
}

/* After an error no solve answers (0, never 10 or 20), none of the model
 * or failed queries either, and later clauses change nothing. */
static void assert_no_answers(void *S) {
    assert_int_equal(ipasir_solve(S), 0);
    assert_int_equal(ipasir_val(S, 2), 0);
    assert_int_equal(ipasir_failed(S, 2), 0);
    ipasir_add(S, 3); ipasir_add(S, 0);
    ipasir_assume(S, 3);
    assert_int_equal(ipasir_solve(S), 0);
}

/* INT32_MIN has no negation: the clause (-2 or INT32_MIN) overflowed,
 * vanished, and the solver answered 10; a literal beyond GSAT_MAX_VARS
 * ended the whole process with "out of memory". */
static void bad_literals_give_no_answer(void **state) {
    (void)state;
    const int32_t bad[] = {INT32_MIN, INT32_MAX, (1 << 27) + 1, -(1 << 27) - 1};
    for (int i = 0; i < 4; i++) {
        void *S = small_sat();
        ipasir_add(S, -2); ipasir_add(S, bad[i]); ipasir_add(S, 0);
        assert_no_answers(S);
        ipasir_release(S);

        S = small_sat();                          /* as an assumption */
        ipasir_assume(S, bad[i]);
        assert_no_answers(S);
        ipasir_release(S);
    }
    void *S = small_sat();                        /* a good clause after bad ones elsewhere */
    ipasir_add(S, -1000); ipasir_add(S, 2); ipasir_add(S, 0);
    ipasir_assume(S, -2);
    assert_int_equal(ipasir_solve(S), 20);
    assert_int_equal(ipasir_failed(S, -2), 1);
    assert_int_equal(ipasir_solve(S), 10);
    ipasir_release(S);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(signature_names_gsat),
        cmocka_unit_test(incremental_solving_matches_brute_force),
        cmocka_unit_test(assumptions_last_one_solve),
        cmocka_unit_test(terminate_callback_stops_the_search),
        cmocka_unit_test(learn_callback_gets_implied_clauses),
        cmocka_unit_test(learn_callback_can_be_removed),
        cmocka_unit_test(bad_literals_give_no_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
