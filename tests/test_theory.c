/* test_theory.c — the theory interface (solver/theory.h), proven with a
 * small test theory "at most K of these literals are true" against brute
 * force.  Three modes exercise the three ways a theory can act:
 *   PROPAGATE  conflicts in assigned(), implied literals with lazy reasons;
 *   CONFLICT   conflicts in assigned() only;
 *   FINAL      only final_check() on full assignments (its conflicts may
 *              lie entirely below the current decision level). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "cnf_util.h"
#include "gsat.h"
#include "solver/solver.h"
#include "solver/theory.h"

enum { PROPAGATE, CONFLICT, FINAL };

typedef struct amk {
    gsat *s;
    int k, mode;
    int members[32], n;
    vec_int true_trail;        /* member literals that became true, in order */
    vec_int level_lim;         /* true_trail length when each level opened */
    long propagated, reasons, conflicts, destroyed_flag;
    long *destroyed;
} amk;

static int amk_is_member(const amk *a, int lit) {
    for (int i = 0; i < a->n; i++) if (a->members[i] == lit) return 1;
    return 0;
}

static int amk_assigned(void *t, int lit) {
    amk *a = t;
    /* the engine reports either polarity of a watched variable */
    if (!amk_is_member(a, lit)) return 0;
    for (size_t i = 0; i < a->true_trail.len; i++) assert_int_not_equal(a->true_trail.data[i], lit);
    vec_push(a->true_trail, lit);
    return a->mode != FINAL && (int)a->true_trail.len > a->k;
}

static void amk_new_level(void *t) {
    amk *a = t;
    vec_push(a->level_lim, (int)a->true_trail.len);
    assert_int_equal((int)a->level_lim.len, gsat_decision_level(a->s));
}

static void amk_backtrack(void *t, int level) {
    amk *a = t;
    assert_true(level <= (int)a->level_lim.len);
    if ((int)a->level_lim.len > level) {
        a->true_trail.len = (size_t)a->level_lim.data[level];
        a->level_lim.len = (size_t)level;
    }
}

static int amk_propagate(void *t, vec_int *out) {
    amk *a = t;
    if (a->mode != PROPAGATE || (int)a->true_trail.len != a->k) return 0;
    int n = 0;
    for (int i = 0; i < a->n; i++)
        if (gsat_lit_value_now(a->s, a->members[i]) == 0) { vec_push(*out, -a->members[i]); n++; }
    a->propagated += n;
    return n;
}

/* -m because the first k true members (all assigned before -m was implied,
 * and still true while -m is) */
static void amk_reason(void *t, int lit, vec_int *out) {
    amk *a = t;
    a->reasons++;
    assert_true(amk_is_member(a, -lit));
    assert_true((int)a->true_trail.len >= a->k);
    vec_push(*out, lit);
    for (int i = 0; i < a->k; i++) vec_push(*out, -a->true_trail.data[i]);
}

static void amk_conflict(void *t, vec_int *out) {
    amk *a = t;
    a->conflicts++;
    assert_true((int)a->true_trail.len > a->k);
    for (int i = 0; i <= a->k; i++) vec_push(*out, -a->true_trail.data[i]);
}

static int amk_final_check(void *t) {
    amk *a = t;
    return (int)a->true_trail.len > a->k;
}

static void amk_destroy(void *t) {
    amk *a = t;
    (*a->destroyed)++;
    vec_free(a->true_trail);
    vec_free(a->level_lim);
    free(a);
}

/* Partial backtracking took lit back alone: drop it from the trail of
 * true members, the level marks after it move down. */
static void amk_unassign(void *t, int lit) {
    amk *a = t;
    if (!lit) return;                    /* a partial backtrack starts */
    size_t i = 0;
    while (i < a->true_trail.len && a->true_trail.data[i] != lit) i++;
    if (i == a->true_trail.len) { assert_false(amk_is_member(a, lit)); return; }
    memmove(&a->true_trail.data[i], &a->true_trail.data[i + 1], (a->true_trail.len - i - 1) * sizeof(int));
    a->true_trail.len--;
    for (size_t k = 0; k < a->level_lim.len; k++)
        if ((size_t)a->level_lim.data[k] > i) a->level_lim.data[k]--;
}

static const theory_ops amk_ops = {
    "at-most-k", amk_assigned, amk_new_level, amk_backtrack, amk_propagate,
    amk_reason, amk_conflict, amk_final_check, amk_destroy, NULL, NULL, NULL,
};
/* the same with partial backtracking supported */
static const theory_ops amk_ops_partial = {
    "at-most-k", amk_assigned, amk_new_level, amk_backtrack, amk_propagate,
    amk_reason, amk_conflict, amk_final_check, amk_destroy, amk_unassign, NULL, NULL,
};
static int use_partial;

typedef struct amk_spec { int k, n, members[32]; } amk_spec;
typedef struct amk_specs { amk_spec c[4]; int n; } amk_specs;

static int amk_holds(void *ctx, uint32_t x) {
    const amk_specs *sp = ctx;
    for (int j = 0; j < sp->n; j++) {
        int cnt = 0;
        for (int i = 0; i < sp->c[j].n; i++) {
            int l = sp->c[j].members[i], v = l < 0 ? -l : l;
            cnt += (((x >> (v - 1)) & 1) != 0) == (l > 0);
        }
        if (cnt > sp->c[j].k) return 0;
    }
    return 1;
}

static amk *attach_amk(gsat *s, const amk_spec *sp, int mode, long *destroyed) {
    amk *a = xcalloc(1, sizeof *a);
    a->s = s; a->k = sp->k; a->mode = mode; a->n = sp->n; a->destroyed = destroyed;
    memcpy(a->members, sp->members, sizeof a->members);
    vec_init(a->true_trail); vec_init(a->level_lim);
    int th = gsat_add_theory(s, use_partial ? &amk_ops_partial : &amk_ops, a);
    assert_true(th >= 0);
    for (int i = 0; i < sp->n; i++) gsat_theory_watch(s, th, abs(sp->members[i]));
    return a;
}

static void random_spec(rng *r, int nvars, amk_spec *sp) {
    sp->n = 2 + rng_int(r, nvars - 1 < 8 ? nvars - 1 : 8);
    sp->k = rng_int(r, sp->n);
    int used[32] = {0};
    for (int i = 0; i < sp->n; i++) {
        int v;
        do v = 1 + rng_int(r, nvars); while (used[v]);
        used[v] = 1;
        sp->members[i] = rng_int(r, 3) ? v : -v;
    }
}

static int64_t chrono_backtracks, partial_backtracks;

static void run_mode(int mode, int instances, uint64_t seed) {
    rng r = {seed};
    long destroyed = 0, attached = 0, propagated = 0, reasons = 0, conflicts = 0;
    int sat = 0, unsat = 0, unsat_assumed = 0;
    for (int inst = 0; inst < instances; inst++) {
        int n = 4 + rng_int(&r, 11);
        cnf f; cnf_init(&f, n);
        int m = rng_int(&r, 3 * n);
        for (int i = 0; i < m; i++) cnf_random_clause(&f, &r, 2 + rng_int(&r, 2), 0);
        amk_specs sp; sp.n = 1 + rng_int(&r, 3);
        for (int j = 0; j < sp.n; j++) random_spec(&r, n, &sp.c[j]);
        gsat *s = cnf_load(&f);
        amk *th[4];
        for (int j = 0; j < sp.n; j++) { th[j] = attach_amk(s, &sp.c[j], mode, &destroyed); attached++; }
        /* several solves: plain, then under random assumptions */
        for (int round = 0; round < 4; round++) {
            int na = round ? rng_int(&r, 4) : 0, as[4];
            for (int i = 0; i < na; i++) as[i] = (1 + rng_int(&r, n)) * (rng_int(&r, 2) ? 1 : -1);
            int res = gsat_solve(s, as, na);
            cnf g; cnf_init(&g, n);
            for (size_t i = 0; i < f.lits.len; i++) vec_push(g.lits, f.lits.data[i]);
            for (int i = 0; i < na; i++) cnf_add(&g, &as[i], 1);
            int expect = brute_force(&g, amk_holds, &sp, NULL);
            assert_int_equal(res, expect ? GSAT_SAT : GSAT_UNSAT);
            if (res == GSAT_SAT) {
                sat++;
                assert_true(cnf_satisfied_by_solver(&g, s));
                uint32_t x = 0;
                for (int v = 1; v <= n; v++) if (gsat_value(s, v) > 0) x |= 1u << (v - 1);
                assert_true(amk_holds(&sp, x));
            } else {
                unsat++;
                cnf h; cnf_init(&h, n);
                for (size_t i = 0; i < f.lits.len; i++) vec_push(h.lits, f.lits.data[i]);
                int nf = 0;
                for (int i = 0; i < na; i++) if (gsat_failed(s, as[i])) { cnf_add(&h, &as[i], 1); nf++; }
                assert_false(brute_force(&h, amk_holds, &sp, NULL));
                unsat_assumed += nf > 0;
                cnf_free(&h);
            }
            cnf_free(&g);
            /* the engine is back at level 0 and the theories with it */
            for (int j = 0; j < sp.n; j++) assert_int_equal((int)th[j]->level_lim.len, 0);
        }
        for (int j = 0; j < sp.n; j++) {
            propagated += th[j]->propagated; reasons += th[j]->reasons; conflicts += th[j]->conflicts;
        }
        chrono_backtracks += s->st.chrono_backtracks;
        partial_backtracks += s->st.partial_backtracks;
        gsat_free(s);
        cnf_free(&f);
    }
    assert_int_equal(destroyed, attached);
    assert_true(sat > instances / 4);
    assert_true(unsat > instances / 4);
    assert_true(conflicts > 0);
    if (mode == PROPAGATE) {
        assert_true(propagated > 0);
        /* lazy: far from every implied literal needs its reason */
        assert_true(reasons < propagated);
    } else {
        assert_int_equal(propagated, 0);
    }
    (void)unsat_assumed;
}

static void at_most_k_propagating(void **state) { (void)state; run_mode(PROPAGATE, 700, 1001); }

/* Chronological backtracking on every conflict: the theory is told kept
 * literals again after it backtracked.  A theory without unassign() keeps
 * the engine from backtracking partially; one with it sees single
 * literals taken back (amk_reason reads its trail of true members, so a
 * wrong trail gives wrong reasons). */
static void at_most_k_always_chronological(void **state) {
    (void)state;
    cnf_options[0] = (cnf_option){"chrono_levels", 0};
    cnf_noptions = 1;
    for (use_partial = 0; use_partial <= 1; use_partial++) {
        chrono_backtracks = partial_backtracks = 0;
        run_mode(PROPAGATE, 700, 4004);
        run_mode(CONFLICT, 300, 6006);
        run_mode(FINAL, 300, 5005);
        assert_true(chrono_backtracks > 100);
        if (use_partial) assert_true(partial_backtracks > 50);
        else assert_int_equal(partial_backtracks, 0);
    }
    use_partial = 0;
    cnf_noptions = 0;
}
static void at_most_k_conflicts_only(void **state) { (void)state; run_mode(CONFLICT, 500, 2002); }
static void at_most_k_final_check_only(void **state) { (void)state; run_mode(FINAL, 500, 3003); }

/* A theory added after level-0 facts exist learns them; a watch added for
 * a variable already assigned at level 0 is delivered on the next solve. */
static void late_theory_and_late_watch(void **state) {
    (void)state;
    long destroyed = 0;
    gsat *s = gsat_new();
    int u[] = {1};
    gsat_add_clause(s, u, 1);
    amk_spec sp = {.k = 0, .n = 1, .members = {2}};
    amk *a = attach_amk(s, &sp, CONFLICT, &destroyed);
    int c[] = {2, 3};
    gsat_add_clause(s, c, 2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(gsat_value(s, 2), -1);
    assert_int_equal(gsat_value(s, 3), 1);
    /* now make x1 a member too: x1 is true at level 0, so k=0 fails */
    a->members[a->n++] = 1;
    gsat_theory_watch(s, 0, 1);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_stats st; gsat_get_stats(s, &st);
    assert_true(st.theory_conflicts >= 1);
    gsat_free(s);
    assert_int_equal(destroyed, 1);

    /* a second engine: a theory attached after units were propagated */
    s = gsat_new();
    int u1[] = {4}, u2[] = {-5};
    gsat_add_clause(s, u1, 1); gsat_add_clause(s, u2, 1);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    amk_spec sp2 = {.k = 1, .n = 3, .members = {4, -5, 6}};
    attach_amk(s, &sp2, PROPAGATE, &destroyed);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_free(s);
    assert_int_equal(destroyed, 2);
}

/* Statistics report theory activity. */
static void theory_statistics(void **state) {
    (void)state;
    long destroyed = 0;
    gsat *s = gsat_new();
    gsat_reserve_vars(s, 12);
    amk_spec sp = {.k = 2, .n = 12, .members = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
    attach_amk(s, &sp, PROPAGATE, &destroyed);
    /* at least 3 of 1..6 true (all 3-subsets' complements ... simply: pairs) */
    for (int i = 1; i <= 6; i += 2) { int c[] = {i, i + 1}; gsat_add_clause(s, c, 2); }
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_stats st; gsat_get_stats(s, &st);
    assert_true(st.theory_propagations > 0);
    assert_true(st.theory_conflicts + st.conflicts > 0);
    assert_true(st.theory_explanation_lits > 0);
    gsat_free(s);
}

/* A theory that only watches solves begin: solve_start() gets each solve's
 * assumptions once, before any watched literal of that solve; its options
 * are the engine's to keep and set. */
typedef struct spy { int starts, assigned_before_start; vec_int last; long *destroyed; } spy;
static int spy_assigned(void *t, int lit) { spy *p = t; (void)lit; if (!p->starts) p->assigned_before_start++; return 0; }
static void spy_level(void *t) { (void)t; }
static void spy_backtrack(void *t, int level) { (void)t; (void)level; }
static int spy_propagate(void *t, vec_int *out) { (void)t; (void)out; return 0; }
static void spy_clause(void *t, vec_int *out) { (void)t; (void)out; }
static void spy_reason(void *t, int lit, vec_int *out) { (void)t; (void)lit; (void)out; }
static int spy_final(void *t) { (void)t; return 0; }
static void spy_destroy(void *t) { spy *p = t; vec_free(p->last); (*p->destroyed)++; }
static void spy_start(void *t, const int *assumptions, int n) {
    spy *p = t;
    p->starts++;
    vec_clear(p->last);
    for (int i = 0; i < n; i++) vec_push(p->last, assumptions[i]);
}
static const theory_ops spy_ops = {
    .name = "spy", .assigned = spy_assigned, .new_level = spy_level, .backtrack = spy_backtrack,
    .propagate = spy_propagate, .reason = spy_reason, .conflict = spy_clause, .final_check = spy_final,
    .destroy = spy_destroy, .solve_start = spy_start,
};
static const gsat_option spy_options[] = {
    {"spy_depth", 3, 1, 9, "a test option"},
    {"spy_mode", 0, 0, 1, "another"},
};

static void solve_start_and_options(void **state) {
    (void)state;
    long destroyed = 0;
    gsat *s = gsat_new();
    int engine = 0;
    gsat_option o;
    while (gsat_option_at(s, engine, &o)) engine++;
    const int64_t *val = gsat_add_options(s, spy_options, 2);
    assert_non_null(val);
    assert_ptr_equal(gsat_add_options(s, spy_options, 2), val);       /* same table: same values */
    assert_null(gsat_add_options(s, (gsat_option[]){{"phase", 0, 0, 1, "taken"}}, 1));
    assert_int_equal(val[0], 3);
    assert_int_equal(gsat_set_option(s, "spy_depth", 7), 1);
    assert_int_equal(gsat_set_option(s, "spy_depth", 10), 0);          /* out of range */
    assert_int_equal(val[0], 7);
    assert_true(gsat_option_at(s, engine + 1, &o));
    assert_string_equal(o.name, "spy_mode");
    assert_false(gsat_option_at(s, engine + 2, &o));

    spy p = {0, 0, {0}, &destroyed};
    vec_init(p.last);
    int th = gsat_add_theory(s, &spy_ops, &p);
    assert_ptr_equal(gsat_theory_find(s, &spy_ops), &p);
    gsat_reserve_vars(s, 3);
    gsat_theory_watch(s, th, 1);
    gsat_add_clause(s, (int[]){1}, 1);            /* a level-0 fact, reported during the solve */
    assert_int_equal(gsat_solve(s, (int[]){-2, 3}, 2), GSAT_SAT);
    assert_int_equal(p.starts, 1);
    assert_int_equal(p.assigned_before_start, 0);
    assert_int_equal((int)p.last.len, 2);
    assert_int_equal(p.last.data[0], -2);
    assert_int_equal(p.last.data[1], 3);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(p.starts, 2);
    assert_int_equal((int)p.last.len, 0);
    gsat_free(s);
    assert_int_equal(destroyed, 1);
}

/* At most MAX_THEORIES (8) theories: theory_mask keeps a byte a variable.
 * The eighth attaches and is told about its variable; a ninth is refused. */
static void theory_limit(void **state) {
    (void)state;
    long destroyed = 0;
    gsat *s = gsat_new();
    spy p[9];
    for (int i = 0; i < 9; i++) { p[i] = (spy){0, 0, {0}, &destroyed}; vec_init(p[i].last); }
    for (int i = 0; i < 8; i++) assert_int_equal(gsat_add_theory(s, &spy_ops, &p[i]), i);
    assert_int_equal(gsat_add_theory(s, &spy_ops, &p[8]), -1);
    vec_free(p[8].last);
    gsat_theory_watch(s, 7, 2);
    gsat_theory_watch(s, 0, 2);
    assert_int_equal(s->theory_mask[2], 0x81);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    for (int i = 0; i < 8; i++) assert_int_equal(p[i].starts, 1);
    gsat_free(s);
    assert_int_equal(destroyed, 8);
}

/* gsat_clauses(): units for the level-0 facts, then the kept clauses; the
 * empty clause alone once the formula is unsatisfiable; early stop. */
typedef struct seen_clauses { vec_int lits; int count, stop_at; } seen_clauses;
static int collect(void *state, const int *lits, int n) {
    seen_clauses *c = state;
    for (int i = 0; i < n; i++) vec_push(c->lits, lits[i]);
    vec_push(c->lits, 0);
    return ++c->count == c->stop_at ? 42 : 0;
}

static void clause_iterator(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_set_option(s, "preprocess", 0);
    gsat_add_clause(s, (int[]){1, 2, 3}, 3);
    gsat_add_clause(s, (int[]){-4}, 1);
    gsat_add_clause(s, (int[]){4, 5, -6}, 3);     /* shrinks to 5 -6 at level 0 */
    seen_clauses c = {{0}, 0, 0};
    vec_init(c.lits);
    assert_int_equal(gsat_clauses(s, &c, collect), 0);
    int want[] = {-4, 0, 1, 2, 3, 0};
    assert_int_equal(c.count, 3);
    assert_memory_equal(c.lits.data, want, sizeof want);
    assert_int_equal(gsat_inconsistent(s), 0);
    vec_clear(c.lits); c.count = 0; c.stop_at = 2;
    assert_int_equal(gsat_clauses(s, &c, collect), 42);
    assert_int_equal(c.count, 2);
    gsat_add_clause(s, (int[]){4}, 1);
    assert_int_equal(gsat_inconsistent(s), 1);
    vec_clear(c.lits); c.count = 0; c.stop_at = 0;
    assert_int_equal(gsat_clauses(s, &c, collect), 0);
    assert_int_equal(c.count, 1);
    assert_int_equal((int)c.lits.len, 1);
    vec_free(c.lits);
    gsat_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(at_most_k_propagating),
        cmocka_unit_test(at_most_k_conflicts_only),
        cmocka_unit_test(at_most_k_final_check_only),
        cmocka_unit_test(at_most_k_always_chronological),
        cmocka_unit_test(late_theory_and_late_watch),
        cmocka_unit_test(theory_statistics),
        cmocka_unit_test(solve_start_and_options),
        cmocka_unit_test(theory_limit),
        cmocka_unit_test(clause_iterator),
    };
    return cmocka_run_group_tests_name("theory interface", tests, NULL, NULL);
}
