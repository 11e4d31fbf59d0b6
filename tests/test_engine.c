/* test_engine.c — the CDCL engine through its public API: differential
 * testing against brute force on thousands of random small CNFs, incremental
 * solving under random assumptions (failed assumptions checked to be a
 * refutation), structured UNSAT (pigeonhole, parity) and SAT instances,
 * limits, options and statistics; the differential suites again with
 * chronological backtracking forced on every conflict and switched off,
 * with local search for phases after every few conflicts, with focused/
 * stable mode switches and rephasing after every conflict or so, and with
 * preprocessing and partial backtracking together, incrementally. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cnf_util.h"
#include "gsat.h"
#include "solver/solver.h"

/* How often the solvers of a suite backtracked chronologically and met
 * conflicts with a single literal on their level (internal counters). */
static int64_t chrono_total, missed_total, walks_total, switches_total, rephases_total;
static void tally_and_free(gsat *s) {
    chrono_total += s->st.chrono_backtracks;
    switches_total += s->st.mode_switches;
    rephases_total += s->st.rephases;
    walks_total += s->st.walks;
    missed_total += s->st.missed_implications;
    gsat_free(s);
}

static void check_against_brute(const cnf *f, int *sat_count) {
    gsat *s = cnf_load(f);
    int res = gsat_solve(s, NULL, 0);
    int expect = brute_force(f, NULL, NULL, NULL);
    assert_int_equal(res, expect ? GSAT_SAT : GSAT_UNSAT);
    if (res == GSAT_SAT) {
        assert_true(cnf_satisfied_by_solver(f, s));
        (*sat_count)++;
    }
    tally_and_free(s);
}

static void random_3sat_near_threshold(void **state) {
    (void)state;
    rng r = {0x9e3779b97f4a7c15ull};
    int sat = 0, total = 0;
    for (int iter = 0; iter < 2500; iter++) {
        int n = 4 + rng_int(&r, iter < 2300 ? 11 : 17);   /* mostly <= 14, some up to 20 */
        int m = (int)(4.26 * n) + rng_int(&r, 5) - 2;
        cnf f; cnf_init(&f, n);
        for (int i = 0; i < m; i++) cnf_random_clause(&f, &r, 3, 0);
        check_against_brute(&f, &sat);
        total++;
        cnf_free(&f);
    }
    /* near the threshold both answers must occur often (small formulas
     * lean satisfiable) */
    assert_true(sat > total / 10);
    assert_true(total - sat > total / 10);
}

static void random_mixed_lengths(void **state) {
    (void)state;
    rng r = {12345};
    int sat = 0;
    for (int iter = 0; iter < 1500; iter++) {
        int n = 1 + rng_int(&r, 16);
        int m = rng_int(&r, 5 * n + 3);
        cnf f; cnf_init(&f, n);
        for (int i = 0; i < m; i++) {
            int k = 1 + rng_int(&r, 6);
            if (rng_int(&r, 4) == 0) k = 2;
            /* duplicates and tautologies on purpose now and then */
            cnf_random_clause(&f, &r, k, rng_int(&r, 8) == 0);
        }
        if (rng_int(&r, 50) == 0) cnf_add(&f, NULL, 0);   /* empty clause */
        check_against_brute(&f, &sat);
        cnf_free(&f);
    }
    assert_true(sat > 100);
}

/* Incremental: clauses arrive in batches, each solve under random
 * assumptions.  UNSAT must come with failed assumptions that (with the
 * formula) are unsatisfiable on their own. */
static void incremental_random_assumptions(void **state) {
    (void)state;
    rng r = {777};
    int unsat_assumed = 0, sat = 0;
    for (int inst = 0; inst < 150; inst++) {
        int n = 6 + rng_int(&r, 9);
        cnf f; cnf_init(&f, n);
        gsat *s = cnf_new_solver();
        for (int round = 0; round < 12; round++) {
            int add = 1 + rng_int(&r, n / 2 + 1);
            for (int i = 0; i < add; i++) {
                size_t start = f.lits.len;
                cnf_random_clause(&f, &r, 2 + rng_int(&r, 3), 0);
                gsat_add_clause(s, f.lits.data + start, (int)(f.lits.len - start - 1));
            }
            int na = rng_int(&r, 5), as[8];
            for (int i = 0; i < na; i++) as[i] = (1 + rng_int(&r, n)) * (rng_int(&r, 2) ? 1 : -1);
            int res = gsat_solve(s, as, na);
            cnf g; cnf_init(&g, n);
            for (size_t i = 0; i < f.lits.len; i++) vec_push(g.lits, f.lits.data[i]);
            for (int i = 0; i < na; i++) cnf_add(&g, &as[i], 1);
            int expect = brute_force(&g, NULL, NULL, NULL);
            assert_int_equal(res, expect ? GSAT_SAT : GSAT_UNSAT);
            if (res == GSAT_SAT) {
                sat++;
                assert_true(cnf_satisfied_by_solver(&g, s));
            } else {
                /* failed assumptions: a subset of the assumptions that refutes */
                int nfailed;
                assert_true(failed_core_ok(&f, s, as, na, n, &nfailed));
                if (nfailed) unsat_assumed++;
            }
            cnf_free(&g);
        }
        tally_and_free(s);
        cnf_free(&f);
    }
    assert_true(unsat_assumed > 50);
    assert_true(sat > 100);
}

static void assumption_contradiction_and_level0(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int c1[] = {1, 2};
    gsat_add_clause(s, c1, 2);
    int as[] = {-1, 3, -2};
    assert_int_equal(gsat_solve(s, as, 3), GSAT_UNSAT);
    assert_true(gsat_failed(s, -1));
    assert_true(gsat_failed(s, -2));
    assert_false(gsat_failed(s, 3));
    /* both polarities assumed */
    int both[] = {4, -4};
    assert_int_equal(gsat_solve(s, both, 2), GSAT_UNSAT);
    assert_true(gsat_failed(s, 4) && gsat_failed(s, -4));
    /* still satisfiable without assumptions, and the solver stays usable */
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    int u[] = {-1};
    gsat_add_clause(s, u, 1);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(gsat_value(s, 2), 1);
    assert_int_equal(gsat_value(s, -1), 1);
    int u2[] = {-2};
    assert_int_equal(gsat_add_clause(s, u2, 1), 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_free(s);
}

static void pigeonhole_unsat(void **state) {
    (void)state;
    for (int h = 6; h <= 8; h++) {
        cnf f; cnf_pigeonhole(&f, h);
        gsat *s = cnf_load(&f);
        assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
        gsat_stats st; gsat_get_stats(s, &st);
        assert_true(st.conflicts > 0 && st.decisions > 0 && st.propagations > 0 && st.learned > 0);
        gsat_free(s);
        cnf_free(&f);
        /* n pigeons in n holes is satisfiable */
        cnf g; cnf_init(&g, h * h);
        int c[16];
        for (int i = 0; i < h; i++) { for (int j = 0; j < h; j++) c[j] = i * h + j + 1; cnf_add(&g, c, h); }
        for (int j = 0; j < h; j++)
            for (int a = 0; a < h; a++)
                for (int b = a + 1; b < h; b++) cnf_add2(&g, -(a * h + j + 1), -(b * h + j + 1));
        s = cnf_load(&g);
        assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
        assert_true(cnf_satisfied_by_solver(&g, s));
        gsat_free(s);
        cnf_free(&g);
    }
}

/* Two XOR chains over the same variables, in different orders, forced to
 * different parities: unsatisfiable.  Forced to the same parity: SAT. */
static void build_parity(cnf *f, int n, int same, rng *r) {
    cnf_init(f, 3 * n);
    int perm[64];
    for (int i = 0; i < n; i++) perm[i] = i + 1;
    for (int i = n - 1; i > 0; i--) { int j = rng_int(r, i + 1); int t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
    int prev = 1, aux = n + 1;
    for (int i = 2; i <= n; i++) { cnf_xor(f, aux, prev, i); prev = aux++; }
    int p1 = prev;
    prev = perm[0];
    for (int i = 1; i < n; i++) { cnf_xor(f, aux, prev, perm[i]); prev = aux++; }
    int p2 = prev;
    int u1[] = {p1}, u2[] = {same ? p2 : -p2};
    cnf_add(f, u1, 1);
    cnf_add(f, u2, 1);
    f->nvars = aux - 1;
}

static void parity_chains(void **state) {
    (void)state;
    rng r = {4242};
    for (int n = 4; n <= 14; n += 2) {
        for (int same = 0; same <= 1; same++) {
            cnf f; build_parity(&f, n, same, &r);
            gsat *s = cnf_load(&f);
            int res = gsat_solve(s, NULL, 0);
            assert_int_equal(res, same ? GSAT_SAT : GSAT_UNSAT);
            if (res == GSAT_SAT) {
                assert_true(cnf_satisfied_by_solver(&f, s));
                int parity = 0;
                for (int v = 1; v <= n; v++) parity ^= gsat_value(s, v) > 0;
                assert_int_equal(parity, 1);
            }
            gsat_free(s);
            cnf_free(&f);
        }
    }
}

/* Planted models: clauses satisfied by a hidden assignment; and a formula
 * with exactly one model, which the solver must find. */
static void planted_and_unique_models(void **state) {
    (void)state;
    rng r = {99};
    for (int inst = 0; inst < 20; inst++) {
        int n = 150;
        uint8_t hidden[151];
        for (int v = 1; v <= n; v++) hidden[v] = (uint8_t)rng_int(&r, 2);
        cnf f; cnf_init(&f, n);
        while (f.nclauses < 4 * n) {
            int c[3];
            for (int i = 0; i < 3; i++) { int v = 1 + rng_int(&r, n); c[i] = rng_int(&r, 2) ? v : -v; }
            int ok = 0;
            for (int i = 0; i < 3; i++) ok |= (c[i] > 0) == hidden[abs(c[i])];
            if (ok) cnf_add(&f, c, 3);
        }
        gsat *s = cnf_load(&f);
        assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
        assert_true(cnf_satisfied_by_solver(&f, s));
        gsat_free(s);
        cnf_free(&f);
    }
    /* unique model: x1, and x(i+1) <-> not x(i), plus noise satisfied by it */
    int n = 60;
    cnf f; cnf_init(&f, n);
    int u[] = {1};
    cnf_add(&f, u, 1);
    for (int i = 1; i < n; i++) { cnf_add2(&f, i, i + 1); cnf_add2(&f, -i, -(i + 1)); }
    gsat *s = cnf_load(&f);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    for (int v = 1; v <= n; v++) assert_int_equal(gsat_value(s, v), (v % 2) ? 1 : -1);
    gsat_free(s);
    cnf_free(&f);
}

static void limits_give_unknown(void **state) {
    (void)state;
    cnf f; cnf_pigeonhole(&f, 11);
    gsat *s = cnf_load(&f);
    gsat_set_conflict_limit(s, 200);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNKNOWN);
    gsat_stats st; gsat_get_stats(s, &st);
    assert_true(st.conflicts >= 200 && st.conflicts <= 201);
    gsat_set_conflict_limit(s, -1);
    gsat_set_time_limit(s, 0.2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNKNOWN);
    gsat_get_stats(s, &st);
    assert_true(st.seconds >= 0.2 && st.seconds < 5);
    gsat_free(s);
    cnf_free(&f);
}

static void options_by_name(void **state) {
    (void)state;
    gsat *s = gsat_new();
    assert_int_equal(gsat_set_option(s, "restart", 0), 1);
    assert_int_equal(gsat_set_option(s, "restart", 2), 0);
    assert_int_equal(gsat_set_option(s, "no_such_option", 1), 0);
    assert_int_equal(gsat_set_option(s, "minimize", 0), 1);
    assert_int_equal(gsat_set_option(s, "var_decay", 1000), 0);
    /* every policy still solves correctly */
    rng r = {5};
    cnf f; cnf_init(&f, 14);
    for (int i = 0; i < 60; i++) cnf_random_clause(&f, &r, 3, 0);
    int expect = brute_force(&f, NULL, NULL, NULL);
    gsat_free(s);
    const char *names[] = {"restart", "minimize", "phase", "phase_saving", "simplify", "reduce_first"};
    int64_t values[] = {0, 1, 1, 0, 0, 100};
    for (int k = 0; k < 6; k++) {
        s = gsat_new();
        assert_int_equal(gsat_set_option(s, names[k], values[k]), 1);
        gsat_reserve_vars(s, f.nvars);
        size_t start = 0;
        for (size_t i = 0; i < f.lits.len; i++)
            if (f.lits.data[i] == 0) { gsat_add_clause(s, f.lits.data + start, (int)(i - start)); start = i + 1; }
        assert_int_equal(gsat_solve(s, NULL, 0), expect ? GSAT_SAT : GSAT_UNSAT);
        gsat_free(s);
    }
    cnf_free(&f);
}

static void decision_vars_and_new_var(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int a = gsat_new_var(s), b = gsat_new_var(s), c = gsat_new_var(s);
    assert_int_equal(a, 1); assert_int_equal(b, 2); assert_int_equal(c, 3);
    assert_int_equal(gsat_num_vars(s), 3);
    /* c <-> a and b; c is not a decision variable */
    int c1[] = {-c, a}, c2[] = {-c, b}, c3[] = {c, -a, -b};
    gsat_add_clause(s, c1, 2); gsat_add_clause(s, c2, 2); gsat_add_clause(s, c3, 3);
    gsat_set_decision_var(s, c, 0);
    int as[] = {a, b};
    assert_int_equal(gsat_solve(s, as, 2), GSAT_SAT);
    assert_int_equal(gsat_value(s, c), 1);
    gsat_reserve_vars(s, 10);
    assert_int_equal(gsat_num_vars(s), 10);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    gsat_free(s);
}

/* Variables reserved in jumps (one large reserve, as the readers do, then
 * small steps and a second large jump) start unassigned and free, and
 * watch lists outgrow their first block: a chain of implications over
 * the whole range with one literal in many clauses, solved twice. */
static void reserve_in_jumps_and_long_watch_lists(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_reserve_vars(s, 5000);
    assert_int_equal(gsat_num_vars(s), 5000);
    for (int v = 1; v < 5000; v++) { int c[] = {-v, v + 1}; gsat_add_clause(s, c, 2); }
    for (int i = 0; i < 10; i++) assert_int_equal(gsat_new_var(s), 5001 + i);
    gsat_reserve_vars(s, 60000);                  /* more than 4x: fresh memory */
    for (int v = 5001; v < 60000; v++) { int c[] = {-v, v + 1}; gsat_add_clause(s, c, 2); }
    for (int k = 0; k < 40; k++) { int c[] = {-1, 60000, 100 + k}; gsat_add_clause(s, c, 3); }
    int c[] = {-5000, 5001}; gsat_add_clause(s, c, 2);
    int as[] = {1};
    assert_int_equal(gsat_solve(s, as, 1), GSAT_SAT);
    for (int v = 1; v <= 60000; v++) assert_int_equal(gsat_value(s, v), 1);
    int nas[] = {-60000};
    assert_int_equal(gsat_solve(s, nas, 1), GSAT_SAT);
    for (int v = 1; v <= 60000; v++) assert_int_equal(gsat_value(s, v), -1);
    int both[] = {1, -60000};
    assert_int_equal(gsat_solve(s, both, 2), GSAT_UNSAT);
    assert_true(gsat_failed(s, 1) && gsat_failed(s, -60000));
    gsat_free(s);
}

/* The same differential suites with every backjump of more than one level
 * replaced by going back one level (chrono_levels=0): the trail then holds
 * literals below the current level, conflicts may lie below it or have a
 * single literal on their level.  Both mechanisms must really have run. */
static void always_chronological(void **state) {
    cnf_options[0] = (cnf_option){"chrono_levels", 0};
    cnf_noptions = 1;
    chrono_total = missed_total = 0;
    random_3sat_near_threshold(state);
    random_mixed_lengths(state);
    incremental_random_assumptions(state);
    cnf_noptions = 0;
    assert_true(chrono_total > 300);
    assert_true(missed_total > 50);
}

/* Formulas too big for brute force, where backjumps span many levels:
 * always-chronological and classic backtracking must give the same
 * answers, and every model is checked. */
static void chronological_agrees_on_larger(void **state) {
    (void)state;
    rng r = {31337};
    int sat = 0, unsat = 0;
    chrono_total = 0;
    for (int inst = 0; inst < 60; inst++) {
        int n = 60 + rng_int(&r, 40);
        cnf f; cnf_init(&f, n);
        int m = (int)(4.26 * n);
        for (int i = 0; i < m; i++) cnf_random_clause(&f, &r, 3, 0);
        int answer[2];
        for (int cfg = 0; cfg < 2; cfg++) {
            cnf_options[0] = (cnf_option){cfg ? "chrono_levels" : "chrono", 0};
            cnf_noptions = 1;
            gsat *s = cnf_load(&f);
            answer[cfg] = gsat_solve(s, NULL, 0);
            if (answer[cfg] == GSAT_SAT) assert_true(cnf_satisfied_by_solver(&f, s));
            tally_and_free(s);
        }
        cnf_noptions = 0;
        assert_int_equal(answer[0], answer[1]);
        if (answer[0] == GSAT_SAT) sat++; else unsat++;
        cnf_free(&f);
    }
    assert_true(sat > 10 && unsat > 10);
    assert_true(chrono_total > 1000);
}

/* And with chronological backtracking off: classic backjumping only. */
static void never_chronological(void **state) {
    cnf_options[0] = (cnf_option){"chrono", 0};
    cnf_noptions = 1;
    chrono_total = 0;
    random_3sat_near_threshold(state);
    incremental_random_assumptions(state);
    cnf_noptions = 0;
    assert_int_equal(chrono_total, 0);
}

/* Many assumptions on formulas too big for brute force, solved with
 * backtracking forced chronological (so partial backtracking runs below the
 * current level) and classic: same answers, models satisfy the
 * assumptions, and the failed ones alone are refuted by a fresh solver. */
static void assumptions_with_partial_backtracking(void **state) {
    (void)state;
    rng r = {2718};
    int sat = 0, unsat = 0;
    int64_t partial = 0;
    for (int inst = 0; inst < 40; inst++) {
        int n = 60 + rng_int(&r, 40);
        cnf f; cnf_init(&f, n);
        int m = (int)(3.8 * n);
        for (int i = 0; i < m; i++) cnf_random_clause(&f, &r, 3, 0);
        gsat *fast = cnf_load(&f);
        gsat_set_option(fast, "chrono_levels", 0);
        cnf_options[0] = (cnf_option){"chrono", 0};
        cnf_options[1] = (cnf_option){"partial_backtrack", 0};
        cnf_noptions = 2;
        gsat *classic = cnf_load(&f);
        for (int round = 0; round < 6; round++) {
            int na = 2 + rng_int(&r, 12), as[32];
            for (int i = 0; i < na; i++) as[i] = (1 + rng_int(&r, n)) * (rng_int(&r, 2) ? 1 : -1);
            int res = gsat_solve(fast, as, na);
            assert_int_equal(res, gsat_solve(classic, as, na));
            if (res == GSAT_SAT) {
                sat++;
                assert_true(cnf_satisfied_by_solver(&f, fast));
                for (int i = 0; i < na; i++) assert_int_equal(gsat_value(fast, as[i]), 1);
            } else {
                unsat++;
                int failed[32], nf = 0;
                for (int i = 0; i < na; i++) if (gsat_failed(fast, as[i])) failed[nf++] = as[i];
                gsat *check = cnf_load(&f);
                assert_int_equal(gsat_solve(check, failed, nf), GSAT_UNSAT);
                gsat_free(check);
            }
        }
        cnf_noptions = 0;
        partial += fast->st.partial_backtracks;
        gsat_free(fast);
        gsat_free(classic);
        cnf_free(&f);
    }
    assert_true(sat > 20 && unsat > 20);
    assert_true(partial > 100);
}

/* Preprocessing (elimination, substitution) and partial backtracking
 * together, incrementally: random 3-SAT plus AND gates and equivalences on
 * fresh variables (which preprocessing removes), solved under assumptions
 * (often on removed variables, which come back) with preprocessing before
 * every solve and backtracking forced chronological, against a solver with
 * neither: same answers, models checked, failed assumptions refuted. */
static void preprocessing_with_partial_backtracking(void **state) {
    (void)state;
    rng r = {1618};
    int sat = 0, unsat = 0;
    int64_t partial = 0, eliminated = 0, substituted = 0, restored = 0;
    for (int inst = 0; inst < 30; inst++) {
        int base = 50 + rng_int(&r, 30), n = base + 30;
        cnf f; cnf_init(&f, n);
        for (int i = 0; i < (int)(3.7 * base); i++) {
            int c[3];
            for (int k = 0; k < 3; k++) { int v = 1 + rng_int(&r, base); c[k] = rng_int(&r, 2) ? v : -v; }
            cnf_add(&f, c, 3);
        }
        for (int x = base + 1; x <= n; x++) {            /* x = a AND b, or x <-> a */
            int a = (1 + rng_int(&r, x - 1)) * (rng_int(&r, 2) ? 1 : -1);
            int b = (1 + rng_int(&r, x - 1)) * (rng_int(&r, 2) ? 1 : -1);
            if (rng_int(&r, 2)) {
                int c1[2] = {-x, a}, c2[2] = {-x, b}, c3[3] = {x, -a, -b};
                cnf_add(&f, c1, 2); cnf_add(&f, c2, 2); cnf_add(&f, c3, 3);
            } else {
                int c1[2] = {-x, a}, c2[2] = {x, -a};
                cnf_add(&f, c1, 2); cnf_add(&f, c2, 2);
            }
        }
        cnf_options[0] = (cnf_option){"chrono_levels", 0};
        cnf_options[1] = (cnf_option){"preprocess", 2};
        cnf_noptions = 2;
        gsat *fast = cnf_load(&f);
        cnf_options[0] = (cnf_option){"chrono", 0};
        cnf_options[1] = (cnf_option){"partial_backtrack", 0};
        cnf_options[2] = (cnf_option){"preprocess", 0};
        cnf_noptions = 3;
        gsat *classic = cnf_load(&f);
        cnf_noptions = 0;
        for (int round = 0; round < 6; round++) {
            int na = 2 + rng_int(&r, 10), as[16];
            for (int i = 0; i < na; i++) as[i] = (1 + rng_int(&r, n)) * (rng_int(&r, 2) ? 1 : -1);
            int res = gsat_solve(fast, as, na);
            assert_int_equal(res, gsat_solve(classic, as, na));
            if (res == GSAT_SAT) {
                sat++;
                assert_true(cnf_satisfied_by_solver(&f, fast));
                for (int i = 0; i < na; i++) assert_int_equal(gsat_value(fast, as[i]), 1);
            } else {
                unsat++;
                int failed[16], nf = 0;
                for (int i = 0; i < na; i++) if (gsat_failed(fast, as[i])) failed[nf++] = as[i];
                gsat *check = cnf_load(&f);
                assert_int_equal(gsat_solve(check, failed, nf), GSAT_UNSAT);
                gsat_free(check);
            }
            /* a new clause between solves, on a gate variable (maybe removed) */
            int c[2] = {(base + 1 + rng_int(&r, n - base)) * (rng_int(&r, 2) ? 1 : -1),
                        (1 + rng_int(&r, base)) * (rng_int(&r, 2) ? 1 : -1)};
            cnf_add(&f, c, 2);
            gsat_add_clause(fast, c, 2);
            gsat_add_clause(classic, c, 2);
        }
        partial += fast->st.partial_backtracks;
        eliminated += fast->st.simp_eliminated;
        substituted += fast->st.simp_substituted;
        restored += fast->st.simp_restored;
        gsat_free(fast);
        gsat_free(classic);
        cnf_free(&f);
    }
    assert_true(sat > 20 && unsat > 20);
    assert_true(partial > 100 && eliminated > 100 && substituted > 100 && restored > 20);
}

/* Local search for phases: on planted 3-SAT too big for brute force the
 * walks run, find models, and the search answers with a checked model;
 * walking after every few conflicts keeps small formulas (with level-0
 * facts and empty clauses) exact against brute force. */
static void walks_for_phases(void **state) {
    rng r = {8080};
    int64_t walks = 0, models = 0;
    for (int inst = 0; inst < 10; inst++) {
        int n = 400;
        uint8_t hidden[401];
        for (int v = 1; v <= n; v++) hidden[v] = (uint8_t)rng_int(&r, 2);
        cnf f; cnf_init(&f, n);
        while (f.nclauses < (int)(4.2 * n)) {
            int c[3];
            for (int i = 0; i < 3; i++) { int v = 1 + rng_int(&r, n); c[i] = rng_int(&r, 2) ? v : -v; }
            int ok = 0;
            for (int i = 0; i < 3; i++) ok |= (c[i] > 0) == hidden[abs(c[i])];
            if (ok) cnf_add(&f, c, 3);
        }
        gsat *s = cnf_load(&f);
        gsat_set_option(s, "walk_interval", 50);
        assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
        assert_true(cnf_satisfied_by_solver(&f, s));
        walks += s->st.walks;
        models += s->st.walk_models;
        gsat_free(s);
        cnf_free(&f);
    }
    assert_true(walks > 0 && models > 0);
    cnf_options[0] = (cnf_option){"walk_interval", 1};
    cnf_noptions = 1;
    walks_total = 0;
    random_3sat_near_threshold(state);
    cnf_noptions = 0;
    assert_true(walks_total > 100);
}

/* Focused/stable mode switches (target phases) and rephasing, as often as
 * the options allow: the small formulas stay exact against brute force
 * (models checked), pigeonhole stays UNSAT, and both mechanisms ran. */
static void modes_and_rephasing(void **state) {
    cnf_options[0] = (cnf_option){"stable_init", 1};
    cnf_options[1] = (cnf_option){"stable_luby_unit", 1};
    cnf_options[2] = (cnf_option){"rephase", 1};
    cnf_options[3] = (cnf_option){"rephase_interval", 1};
    cnf_noptions = 4;
    switches_total = rephases_total = 0;
    random_3sat_near_threshold(state);
    random_mixed_lengths(state);
    assert_true(switches_total > 100 && rephases_total > 100);
    switches_total = 0;
    for (int h = 7; h <= 8; h++) {
        cnf f; cnf_pigeonhole(&f, h);
        gsat *s = cnf_load(&f);
        assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
        tally_and_free(s);
        cnf_free(&f);
    }
    assert_true(switches_total > 10);
    /* stable mode alone */
    cnf_options[0] = (cnf_option){"stable", 2};
    cnf_noptions = 2;
    random_3sat_near_threshold(state);
    cnf_noptions = 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_3sat_near_threshold),
        cmocka_unit_test(random_mixed_lengths),
        cmocka_unit_test(incremental_random_assumptions),
        cmocka_unit_test(assumption_contradiction_and_level0),
        cmocka_unit_test(pigeonhole_unsat),
        cmocka_unit_test(parity_chains),
        cmocka_unit_test(planted_and_unique_models),
        cmocka_unit_test(limits_give_unknown),
        cmocka_unit_test(options_by_name),
        cmocka_unit_test(decision_vars_and_new_var),
        cmocka_unit_test(reserve_in_jumps_and_long_watch_lists),
        cmocka_unit_test(always_chronological),
        cmocka_unit_test(never_chronological),
        cmocka_unit_test(chronological_agrees_on_larger),
        cmocka_unit_test(assumptions_with_partial_backtracking),
        cmocka_unit_test(preprocessing_with_partial_backtracking),
        cmocka_unit_test(walks_for_phases),
        cmocka_unit_test(modes_and_rephasing),
    };
    return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
