/* test_simp.c — preprocessing (solver/simp*.c) against brute force:
 * random CNFs built to give every technique work (gate definitions for
 * elimination, equivalence chains for substitution, supersets for
 * subsumption), with every option combination; incremental solving with
 * assumptions and clauses that bring removed variables back, with
 * preprocessing once and before every solve; graphs with guarded edges
 * (guards must never be removed); freezing; the answers, the models
 * (against the original clauses) and the failed assumptions are all
 * checked, and the counters must show that each technique really ran. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "cnf_util.h"
#include "solver/solver.h"
#include "solver/simp.h"

/* A formula with structure: AND gates y = a & b (eliminable), equivalent
 * pairs (substitutable), random clauses and some supersets of them. */
static void structured_cnf(cnf *f, rng *r, int n) {
    int m = rng_int(r, 3 * n + 2);
    for (int i = 0; i < m; i++) {
        int kind = rng_int(r, 10);
        if (kind < 2 && n >= 3) {
            int y = 1 + rng_int(r, n), a = 1 + rng_int(r, n), b = 1 + rng_int(r, n);
            if (y == a || y == b || a == b) continue;
            if (rng_int(r, 2)) a = -a;
            cnf_add2(f, -y, a); cnf_add2(f, -y, b); cnf_add3(f, y, -a, -b);
        } else if (kind < 4 && n >= 2) {
            int x = 1 + rng_int(r, n), y = 1 + rng_int(r, n);
            if (x == y) continue;
            if (rng_int(r, 2)) y = -y;
            cnf_add2(f, -x, y); cnf_add2(f, x, -y);
        } else if (kind < 5 && f->nclauses) {
            /* a superset of the last clause (subsumed), maybe one literal flipped */
            size_t end = f->lits.len - 1, start = end;
            while (start > 0 && f->lits.data[start - 1] != 0) start--;
            int c[16], k = 0;
            for (size_t i2 = start; i2 < end && k < 14; i2++) c[k++] = f->lits.data[i2];
            if (k && rng_int(r, 3) == 0) c[0] = -c[0];
            c[k++] = (1 + rng_int(r, n)) * (rng_int(r, 2) ? 1 : -1);
            cnf_add(f, c, k);
        } else {
            cnf_random_clause(f, r, 1 + rng_int(r, 4), rng_int(r, 10) == 0);
        }
    }
}

static gsat *load_with(const cnf *f, const char *const *names, const int64_t *values, int nopt) {
    gsat *s = gsat_new();
    for (int i = 0; i < nopt; i++) assert_int_equal(gsat_set_option(s, names[i], values[i]), 1);
    gsat_reserve_vars(s, f->nvars);
    size_t start = 0;
    for (size_t i = 0; i < f->lits.len; i++)
        if (f->lits.data[i] == 0) {
            gsat_add_clause(s, f->lits.data + start, (int)(i - start));
            start = i + 1;
        }
    return s;
}

typedef struct totals { int64_t eliminated, substituted, subsumed, strengthened, restored, resolvents, units; } totals;

static void add_totals(totals *t, const gsat *s) {
    t->eliminated += s->st.simp_eliminated;
    t->substituted += s->st.simp_substituted;
    t->subsumed += s->st.simp_subsumed;
    t->strengthened += s->st.simp_strengthened;
    t->restored += s->st.simp_restored;
    t->resolvents += s->st.simp_resolvents;
    t->units += s->st.simp_units;
}

/* Every variable has a value after SAT, removed or not. */
static void assert_total_model(const gsat *s, int n) {
    for (int v = 1; v <= n; v++) assert_true(gsat_value(s, v) == 1 || gsat_value(s, v) == -1);
}

/* Solve f under the assumptions as[0..na) and check the answer against brute
 * force: a SAT model satisfies f and the assumptions and is total; an UNSAT
 * answer's failed-assumption core is exact (its size in *nfailed). */
static int solve_checked(const cnf *f, gsat *s, int *as, int na, int n, int *nfailed) {
    int res = gsat_solve(s, as, na);
    cnf g; cnf_init(&g, n);
    for (size_t i = 0; i < f->lits.len; i++) vec_push(g.lits, f->lits.data[i]);
    for (int i = 0; i < na; i++) cnf_add(&g, &as[i], 1);
    int expect = brute_force(&g, NULL, NULL, NULL);
    assert_int_equal(res, expect ? GSAT_SAT : GSAT_UNSAT);
    *nfailed = 0;
    if (res == GSAT_SAT) {
        assert_true(cnf_satisfied_by_solver(&g, s));
        assert_total_model(s, n);
    } else {
        assert_true(failed_core_ok(f, s, as, na, n, nfailed));
    }
    cnf_free(&g);
    return res;
}

static void cnf_all_option_sets(void **state) {
    (void)state;
    static const char *const names[] = {"equiv", "subsume", "elim", "elim_bound", "elim_clause_limit"};
    static const int64_t sets[][5] = {
        {1, 1, 1, 0, 20}, {0, 0, 1, 0, 20}, {1, 0, 0, 0, 20}, {0, 1, 0, 0, 20}, {1, 1, 1, 8, 3}, {1, 1, 1, 1000, 1000},
    };
    rng r = {0xC0FFEE};
    totals t = {0};
    int sat = 0, total = 0;
    for (int iter = 0; iter < 1200; iter++) {
        int n = 2 + rng_int(&r, 13);
        cnf f; cnf_init(&f, n);
        structured_cnf(&f, &r, n);
        int expect = brute_force(&f, NULL, NULL, NULL);
        int set = iter % 6;
        gsat *s = load_with(&f, names, sets[set], 5);
        int res = gsat_solve(s, NULL, 0);
        assert_int_equal(res, expect ? GSAT_SAT : GSAT_UNSAT);
        if (res == GSAT_SAT) {
            assert_true(cnf_satisfied_by_solver(&f, s));
            assert_total_model(s, n);
            sat++;
        }
        total++;
        add_totals(&t, s);
        gsat_free(s);
        cnf_free(&f);
    }
    assert_true(sat > total / 10 && total - sat > total / 10);
    assert_true(t.eliminated > 1000 && t.substituted > 200 && t.subsumed > 70 && t.strengthened > 100);
    assert_true(t.resolvents > 60 && t.units > 120);
}

/* Incremental: clause batches (often on removed variables), assumptions
 * (often removed variables), with preprocessing once (1) or before every
 * solve after new clauses (2). */
static void incremental_restore(int mode, uint64_t seed) {
    rng r = {seed};
    totals t = {0};
    int unsat_assumed = 0, sat = 0;
    for (int inst = 0; inst < 120; inst++) {
        int n = 6 + rng_int(&r, 9);
        cnf f; cnf_init(&f, n);
        structured_cnf(&f, &r, n);
        static const char *const names[] = {"preprocess"};
        int64_t value = mode;
        gsat *s = load_with(&f, names, &value, 1);
        for (int round = 0; round < 8; round++) {
            int na = rng_int(&r, 4), as[8];
            for (int i = 0; i < na; i++) as[i] = (1 + rng_int(&r, n)) * (rng_int(&r, 2) ? 1 : -1);
            int nfailed, res = solve_checked(&f, s, as, na, n, &nfailed);
            if (res == GSAT_SAT) sat++;
            else if (nfailed) unsat_assumed++;
            /* new clauses, preferably on variables preprocessing removed */
            int add = rng_int(&r, 3);
            for (int i = 0; i < add; i++) {
                int c[3], k = 1 + rng_int(&r, 3);
                for (int j = 0; j < k; j++) {
                    int v = 1 + rng_int(&r, n);
                    for (int tries = 0; tries < 4 && !gsat_is_removed(s, v); tries++) v = 1 + rng_int(&r, n);
                    c[j] = rng_int(&r, 2) ? v : -v;
                }
                cnf_add(&f, c, k);
                gsat_add_clause(s, c, k);
            }
        }
        add_totals(&t, s);
        gsat_free(s);
        cnf_free(&f);
    }
    assert_true(sat > 100 && unsat_assumed > 30);
    assert_true(t.eliminated > 150 && t.restored > 150);
}

/* Most variables frozen (as under thousands of assumptions): the run
 * leaves the clauses of frozen variables only out of its lists.  Units it
 * finds must still reach those clauses; answers, models and failed
 * assumptions against brute force. */
static void partial_runs(void **state) {
    (void)state;
    rng r = {0xA55E};
    totals t = {0};
    int partial = 0, sat = 0, unsat = 0;
    for (int inst = 0; inst < 600; inst++) {
        int n = 6 + rng_int(&r, 9);
        cnf f; cnf_init(&f, n);
        structured_cnf(&f, &r, n);
        gsat *s = load_with(&f, NULL, NULL, 0);
        int keep = 1 + rng_int(&r, 3), as[16], na = 0;
        for (int v = keep + 1; v <= n; v++) {
            if (rng_int(&r, 2)) gsat_freeze(s, v);
            else if (rng_int(&r, 3) == 0) as[na++] = rng_int(&r, 2) ? v : -v;
            else gsat_freeze(s, v);
        }
        int nfailed;
        if (solve_checked(&f, s, as, na, n, &nfailed) == GSAT_SAT) sat++;
        else unsat++;
        partial += s->st.simp_partial_runs > 0;
        add_totals(&t, s);
        gsat_free(s);
        cnf_free(&f);
    }
    assert_true(partial > 100 && sat > 60 && unsat > 60);
    assert_true(t.eliminated > 50 && t.units > 20);
}

static void incremental_preprocess_once(void **state) { (void)state; incremental_restore(1, 4711); }
static void incremental_preprocess_every_solve(void **state) { (void)state; incremental_restore(2, 815); }

/* Guarded edges on a small graph plus clauses over guards and auxiliary
 * variables: guards are never removed; answers match brute force (the
 * clauses hold and the edges whose guard is true form a DAG).  Then new
 * edges guarded by removed variables, which must come back, and solves
 * under assumptions. */
typedef struct gproblem { int nodes, nedges, from[24], to[24], lit[24]; } gproblem;

static int acyclic_under(void *ctx, uint32_t a) {
    const gproblem *g = ctx;
    uint32_t adj[8] = {0};
    for (int e = 0; e < g->nedges; e++) {
        int l = g->lit[e], v = l < 0 ? -l : l;
        int on = !l || ((a >> (v - 1) & 1) == (l > 0));
        if (on) adj[g->from[e]] |= 1u << g->to[e];
    }
    for (int k = 0; k < g->nodes; k++)
        for (int i = 0; i < g->nodes; i++)
            if (adj[i] >> k & 1) adj[i] |= adj[k];
    for (int i = 0; i < g->nodes; i++) if (adj[i] >> i & 1) return 0;
    return 1;
}

static void graphs_with_guards(void **state) {
    (void)state;
    rng r = {99991};
    totals t = {0};
    int sat = 0, unsat = 0, readded = 0;
    for (int inst = 0; inst < 600; inst++) {
        int guards = 2 + rng_int(&r, 5), n = guards + 2 + rng_int(&r, 8);
        gproblem g;
        g.nodes = 3 + rng_int(&r, 5);
        g.nedges = 2 + rng_int(&r, 12);
        for (int e = 0; e < g.nedges; e++) {
            g.from[e] = rng_int(&r, g.nodes);
            g.to[e] = rng_int(&r, g.nodes);
            if (g.to[e] == g.from[e]) g.to[e] = (g.to[e] + 1) % g.nodes;
            int v = 1 + rng_int(&r, guards);
            g.lit[e] = rng_int(&r, 8) == 0 ? 0 : rng_int(&r, 2) ? v : -v;
        }
        cnf f; cnf_init(&f, n);
        structured_cnf(&f, &r, n);
        int expect = brute_force(&f, acyclic_under, &g, NULL);
        gsat *s = gsat_new();
        if (inst % 2) gsat_set_option(s, "preprocess", 2);
        gsat_reserve_vars(s, n);
        int id = gsat_graph_new(s, g.nodes);
        for (int e = 0; e < g.nedges; e++) gsat_graph_add_edge(s, id, g.from[e], g.to[e], g.lit[e]);
        size_t start = 0;
        for (size_t i = 0; i < f.lits.len; i++)
            if (f.lits.data[i] == 0) { gsat_add_clause(s, f.lits.data + start, (int)(i - start)); start = i + 1; }
        int res = gsat_solve(s, NULL, 0);
        assert_int_equal(res, expect ? GSAT_SAT : GSAT_UNSAT);
        for (int e = 0; e < g.nedges; e++)
            if (g.lit[e]) assert_false(gsat_is_removed(s, g.lit[e] < 0 ? -g.lit[e] : g.lit[e]));
        if (res == GSAT_SAT) {
            sat++;
            assert_true(cnf_satisfied_by_solver(&f, s));
            uint32_t a = 0;
            for (int v = 1; v <= n; v++) if (gsat_value(s, v) > 0) a |= 1u << (v - 1);
            assert_true(acyclic_under(&g, a));
        } else {
            unsat++;
        }
        /* incremental: edges guarded by removed variables (they must come
         * back), then a solve under assumptions */
        for (int round = 0; round < 2 && g.nedges < 22; round++) {
            for (int v = 1; v <= n && g.nedges < 22; v++) {
                if (!gsat_is_removed(s, v) || rng_int(&r, 2)) continue;
                int e = g.nedges++;
                g.from[e] = rng_int(&r, g.nodes);
                g.to[e] = (g.from[e] + 1 + rng_int(&r, g.nodes - 1)) % g.nodes;
                g.lit[e] = rng_int(&r, 2) ? v : -v;
                gsat_graph_add_edge(s, id, g.from[e], g.to[e], g.lit[e]);
                assert_false(gsat_is_removed(s, v));
                readded++;
            }
            int na = rng_int(&r, 3), as[4];
            cnf h; cnf_init(&h, n);
            for (size_t i = 0; i < f.lits.len; i++) vec_push(h.lits, f.lits.data[i]);
            for (int i = 0; i < na; i++) { as[i] = (1 + rng_int(&r, n)) * (rng_int(&r, 2) ? 1 : -1); cnf_add(&h, &as[i], 1); }
            int want = brute_force(&h, acyclic_under, &g, NULL);
            int got = gsat_solve(s, as, na);
            assert_int_equal(got, want ? GSAT_SAT : GSAT_UNSAT);
            if (got == GSAT_SAT) {
                assert_true(cnf_satisfied_by_solver(&h, s));
                uint32_t a = 0;
                for (int v = 1; v <= n; v++) if (gsat_value(s, v) > 0) a |= 1u << (v - 1);
                assert_true(acyclic_under(&g, a));
            }
            cnf_free(&h);
        }
        add_totals(&t, s);
        gsat_free(s);
        cnf_free(&f);
    }
    assert_true(sat > 100 && unsat > 100);
    assert_true(t.eliminated > 500 && readded > 200);
}

/* A variable removed with no clause left to record still gets a value
 * (regression: the model was left at 0 when the stack was empty). */
static void removed_without_records_has_value(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int c1[] = {1, -2}, c2[] = {1, 2};
    gsat_add_clause(s, c1, 2);
    gsat_add_clause(s, c2, 2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_true(gsat_is_removed(s, 2));
    assert_int_equal(gsat_value(s, 1), 1);
    assert_int_equal(gsat_value(s, 2) * gsat_value(s, -2), -1);
    gsat_free(s);
}

/* y = a & b: y is eliminated; a clause on y brings it back with its
 * definition, which must then constrain the answer. */
static void restored_definition_still_holds(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int a = 1, b = 2, y = 3;
    int d1[] = {-y, a}, d2[] = {-y, b}, d3[] = {y, -a, -b}, other[] = {a, b, 4};
    gsat_add_clause(s, d1, 2); gsat_add_clause(s, d2, 2); gsat_add_clause(s, d3, 3);
    gsat_add_clause(s, other, 3);
    gsat_freeze(s, a); gsat_freeze(s, b);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_true(gsat_is_removed(s, y));
    assert_false(gsat_is_removed(s, a));
    assert_true(gsat_is_frozen(s, a));
    /* y must follow a & b in the model */
    assert_int_equal(gsat_value(s, y) > 0, gsat_value(s, a) > 0 && gsat_value(s, b) > 0);
    /* y true: then a and b are forced true */
    int uy[] = {y};
    gsat_add_clause(s, uy, 1);
    assert_false(gsat_is_removed(s, y));
    int na[] = {-a};
    assert_int_equal(gsat_solve(s, na, 1), GSAT_UNSAT);
    assert_true(gsat_failed(s, -a));
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(gsat_value(s, a), 1);
    assert_int_equal(gsat_value(s, b), 1);
    gsat_melt(s, a);
    assert_false(gsat_is_frozen(s, a));
    gsat_free(s);
}

/* An assumption on a removed variable brings it back before the solve. */
static void assumption_on_removed_variable(void **state) {
    (void)state;
    gsat *s = gsat_new();
    /* x = a (equivalence) and x -> c, c -> -a: a and x must be false */
    int e1[] = {-1, 2}, e2[] = {1, -2}, c1[] = {-1, 3}, c2[] = {-3, -2};
    gsat_add_clause(s, e1, 2); gsat_add_clause(s, e2, 2);
    gsat_add_clause(s, c1, 2); gsat_add_clause(s, c2, 2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(gsat_value(s, 1), -1);
    assert_int_equal(gsat_value(s, 2), -1);
    for (int v = 1; v <= 3; v++) {
        if (!gsat_is_removed(s, v)) continue;
        int as[] = {v};
        int res = gsat_solve(s, as, 1);
        assert_false(gsat_is_removed(s, v));
        /* 1 and 2 are false in every model; 3 may be true */
        assert_int_equal(res, v == 3 ? GSAT_SAT : GSAT_UNSAT);
        if (res == GSAT_UNSAT) assert_true(gsat_failed(s, v));
    }
    gsat_free(s);
}

/* x = -x through a cycle of binary clauses is found by substitution. */
static void equivalence_contradiction(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int c[][2] = {{-1, 2}, {-2, 3}, {-3, -1}, {1, -3}, {3, -2}, {2, 1}};
    for (int i = 0; i < 6; i++) gsat_add_clause(s, c[i], 2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_free(s);
}

/* Frozen variables and edge guards stay; with preprocessing off nothing
 * is removed; non-decision variables are not eliminated. */
static void what_stays(void **state) {
    (void)state;
    for (int frozen = 0; frozen < 2; frozen++) {
        gsat *s = gsat_new();
        int d1[] = {-3, 1}, d2[] = {-3, 2}, d3[] = {3, -1, -2}, o[] = {3, 4};
        gsat_add_clause(s, d1, 2); gsat_add_clause(s, d2, 2); gsat_add_clause(s, d3, 3); gsat_add_clause(s, o, 2);
        if (frozen) gsat_freeze(s, 3);
        assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
        assert_int_equal(gsat_is_removed(s, 3), !frozen);
        gsat_free(s);
    }
    gsat *s = gsat_new();
    gsat_set_option(s, "preprocess", 0);
    int c[] = {1, 2};
    gsat_add_clause(s, c, 2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_false(gsat_is_removed(s, 1));
    assert_false(gsat_is_removed(s, 2));
    assert_int_equal(s->st.simp_runs, 0);
    gsat_free(s);

    s = gsat_new();
    int g = gsat_graph_new(s, 2);
    gsat_graph_add_edge(s, g, 0, 1, 5);
    int c2[] = {5, 6}, c3[] = {-6, 7};
    gsat_add_clause(s, c2, 2); gsat_add_clause(s, c3, 2);
    gsat_set_decision_var(s, 7, 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_false(gsat_is_removed(s, 5));                 /* guard */
    assert_false(gsat_is_removed(s, 7));                 /* not a decision variable */
    assert_false(gsat_is_removed(s, 6));                 /* shares a clause with 7 */
    gsat_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cnf_all_option_sets),
        cmocka_unit_test(incremental_preprocess_once),
        cmocka_unit_test(incremental_preprocess_every_solve),
        cmocka_unit_test(partial_runs),
        cmocka_unit_test(graphs_with_guards),
        cmocka_unit_test(removed_without_records_has_value),
        cmocka_unit_test(restored_definition_still_holds),
        cmocka_unit_test(assumption_on_removed_variable),
        cmocka_unit_test(equivalence_contradiction),
        cmocka_unit_test(what_stays),
    };
    return cmocka_run_group_tests_name("simp", tests, NULL, NULL);
}
