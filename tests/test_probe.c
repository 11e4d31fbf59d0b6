/* test_probe.c — the probe (solver/probe.c): a short first search of a pure
 * CNF formula as given, whose model becomes the saved phases.
 *   (a) against brute force on small random formulas, satisfiable and not:
 *       the answers and the models (checked against the clauses) with the
 *       probe on, and the counters show that probes found models;
 *   (b) a probe that finds a model: the search that follows makes no
 *       conflict (it decides along the model);
 *   (c) a probe that finds none (pigeonhole, hard random 3-SAT): the
 *       search that follows is exactly the one without a probe (same
 *       conflicts, decisions and propagations);
 *   (d) no probe where it must not replace anything: phases set by the
 *       caller, assumptions, preprocessing off, a theory attached, after
 *       the first solve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "cnf_util.h"
#include "solver/solver.h"

static gsat *load_probe(const cnf *f, int64_t probe) {
    gsat *s = cnf_load(f);
    assert_true(gsat_set_option(s, "probe", probe));
    return s;
}

static void random3(cnf *f, rng *r, int n, double ratio) {
    cnf_init(f, n);
    for (int i = 0; i < (int)(ratio * n); i++) cnf_random_clause(f, r, 3, 0);
}

static void against_brute_force(void **state) {
    (void)state;
    rng r = { 0x5eed5eedULL };
    int sat = 0, unsat = 0, models = 0;
    for (int i = 0; i < 400; i++) {
        cnf f;
        random3(&f, &r, 8 + rng_int(&r, 12), 3.6 + 0.05 * rng_int(&r, 20));
        int want = brute_force(&f, NULL, NULL, NULL);
        gsat *s = load_probe(&f, 1000);
        int got = gsat_solve(s, NULL, 0);
        assert_int_equal(got, want ? GSAT_SAT : GSAT_UNSAT);
        if (got == GSAT_SAT) assert_true(cnf_satisfied_by_solver(&f, s));
        sat += want; unsat += !want;
        models += (int)s->st.probe_models;
        gsat_free(s);
        cnf_free(&f);
    }
    print_message("probe: %d satisfiable (%d found by the probe), %d not\n", sat, models, unsat);
    assert_true(sat > 50 && unsat > 50 && models > 20);
}

static void found_model_means_no_conflict(void **state) {
    (void)state;
    rng r = { 4711 };
    int checked = 0;
    for (int i = 0; i < 20; i++) {
        cnf f;
        random3(&f, &r, 150, 3.9);
        gsat *s = load_probe(&f, 1000);
        int got = gsat_solve(s, NULL, 0);
        if (s->st.probe_models) {
            assert_int_equal(got, GSAT_SAT);
            assert_true(cnf_satisfied_by_solver(&f, s));
            assert_int_equal(s->st.conflicts, 0);
            assert_true(s->st.probe_conflicts <= 1000);
            checked++;
        }
        gsat_free(s);
        cnf_free(&f);
    }
    assert_true(checked >= 5);
}

static void same_search_without_a_model(const cnf *f) {
    gsat *a = load_probe(f, 1000), *b = load_probe(f, 0);
    int ra = gsat_solve(a, NULL, 0), rb = gsat_solve(b, NULL, 0);
    assert_int_equal(ra, rb);
    assert_int_equal(a->st.probe_models, 0);
    assert_int_equal(a->st.probe_conflicts, 1000);
    assert_int_equal(b->st.probe_conflicts, 0);
    assert_int_equal(a->st.conflicts, b->st.conflicts);
    assert_int_equal(a->st.decisions, b->st.decisions);
    assert_int_equal(a->st.propagations, b->st.propagations);
    gsat_free(a);
    gsat_free(b);
}

static void no_model_same_search(void **state) {
    (void)state;
    cnf f;
    cnf_init(&f, 0);
    cnf_pigeonhole(&f, 8);
    same_search_without_a_model(&f);
    cnf_free(&f);
    rng r = { 99 };
    random3(&f, &r, 200, 4.26);
    same_search_without_a_model(&f);
    cnf_free(&f);
}

static void where_no_probe_runs(void **state) {
    (void)state;
    rng r = { 7 };
    cnf f;
    random3(&f, &r, 60, 3.0);
    gsat *s = load_probe(&f, 1000);               /* the caller's phase */
    gsat_set_phase(s, 1, 1);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(s->st.probe_conflicts + s->st.probe_models, 0);
    gsat_free(s);
    s = load_probe(&f, 1000);                     /* assumptions */
    int a = 2;
    gsat_solve(s, &a, 1);
    assert_int_equal(s->st.probe_models, 0);
    gsat_free(s);
    s = load_probe(&f, 1000);                     /* no preprocessing: the search is the probe */
    assert_true(gsat_set_option(s, "preprocess", 0));
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(s->st.probe_models, 0);
    gsat_free(s);
    s = load_probe(&f, 1000);                     /* a theory: an edge guarded by variable 1 */
    int g = gsat_graph_new(s, 2);
    assert_true(gsat_graph_add_edge(s, g, 0, 1, 1) >= 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(s->st.probe_models, 0);
    gsat_free(s);
    s = load_probe(&f, 1000);                     /* once: the first solve */
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(s->st.probe_models, 1);
    int c = 3;
    gsat_add_clause(s, &c, 1);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(s->st.probe_models, 1);
    gsat_free(s);
    cnf_free(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(against_brute_force),
        cmocka_unit_test(found_model_means_no_conflict),
        cmocka_unit_test(no_model_same_search),
        cmocka_unit_test(where_no_probe_runs),
    };
    return cmocka_run_group_tests_name("probe", tests, NULL, NULL);
}
