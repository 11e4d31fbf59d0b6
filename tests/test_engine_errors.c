/* test_engine_errors.c — misuse and allocation failure through gsat.h:
 * literals that are no literals (0, INT_MIN, beyond GSAT_MAX_VARS), bad
 * counts and arrays, variables beyond the limit in every call that takes
 * one, and an allocation failing inside a solve.  Each puts the solver in
 * its error state: the call returns its error value, gsat_error() names
 * the call and the cause, every later change or solve is refused, and the
 * process goes on (no exit, no abort: a library never ends its caller). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "gsat.h"
#include "solver/theory.h"

/* A satisfiable formula: (1 or 2), (-1 or 2). */
static gsat *small_sat(void) {
    gsat *s = gsat_new();
    assert_non_null(s);
    assert_int_equal(gsat_add_clause(s, (int[]){1, 2}, 2), 1);
    assert_int_equal(gsat_add_clause(s, (int[]){-1, 2}, 2), 1);
    return s;
}

/* s is in the error state, the first error from func and naming what: the
 * solver refuses to change and to answer from now on. */
static void assert_refuses(gsat *s, const char *func, const char *what) {
    const char *e = gsat_error(s);
    assert_non_null(e);
    assert_int_equal(strncmp(e, func, strlen(func)), 0);
    assert_int_equal(e[strlen(func)], ':');
    if (what) assert_non_null(strstr(e, what));
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_ERROR);
    assert_int_equal(gsat_solve(s, (int[]){2}, 1), GSAT_ERROR);
    assert_int_equal(gsat_add_clause(s, (int[]){2}, 1), -1);
    assert_int_equal(gsat_new_var(s), 0);
    assert_int_equal(gsat_graph_new(s, 2), -1);
    assert_int_equal(gsat_value(s, 2), 0);
    assert_int_equal(gsat_fixed(s, 2), 0);
    assert_int_equal(strncmp(gsat_error(s), func, strlen(func)), 0);   /* the first error stays */
}

/* INT_MIN has no negation in int: it must never reach the engine (it
 * overflowed and the clause vanished, so the solver answered SAT). */
static void int_min_is_refused(void **state) {
    (void)state;
    gsat *s = small_sat();
    assert_int_equal(gsat_add_clause(s, (int[]){INT_MIN}, 1), -1);
    assert_refuses(s, "gsat_add_clause", "-2147483648");
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_add_clause(s, (int[]){-2, INT_MIN}, 2), -1);   /* with -2 it would be UNSAT */
    assert_refuses(s, "gsat_add_clause", "position 1");
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_solve(s, (int[]){INT_MIN}, 1), GSAT_ERROR);
    assert_refuses(s, "gsat_solve", "-2147483648");
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_graph_new(s, 2), 0);
    assert_int_equal(gsat_graph_add_edge(s, 0, 0, 1, INT_MIN), -1);
    assert_refuses(s, "gsat_graph_add_edge", "-2147483648");
    gsat_free(s);
}

/* Variables above GSAT_MAX_VARS ended the process ("out of memory"). */
static void variables_beyond_the_limit_are_refused(void **state) {
    (void)state;
    const int big = GSAT_MAX_VARS + 1;
    gsat *s = small_sat();
    assert_int_equal(gsat_add_clause(s, (int[]){1, -big}, 2), -1);
    assert_refuses(s, "gsat_add_clause", "134217729");
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_add_clause(s, (int[]){INT_MAX}, 1), -1);
    assert_refuses(s, "gsat_add_clause", NULL);
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_solve(s, (int[]){big}, 1), GSAT_ERROR);
    assert_refuses(s, "gsat_solve", NULL);
    gsat_free(s);

    s = small_sat();
    gsat_reserve_vars(s, big);
    assert_refuses(s, "gsat_reserve_vars", NULL);
    gsat_free(s);

    s = small_sat();
    gsat_reserve_vars(s, -1);
    assert_refuses(s, "gsat_reserve_vars", NULL);
    gsat_free(s);

    s = small_sat();
    gsat_set_decision_var(s, big, 0);
    assert_refuses(s, "gsat_set_decision_var", NULL);
    gsat_free(s);

    s = small_sat();
    gsat_set_phase(s, INT_MAX, 1);
    assert_refuses(s, "gsat_set_phase", NULL);
    gsat_free(s);

    s = small_sat();
    gsat_freeze(s, big);
    assert_refuses(s, "gsat_freeze", NULL);
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_graph_new(s, 2), 0);
    assert_int_equal(gsat_graph_add_edge(s, 0, 0, 1, -big), -1);
    assert_refuses(s, "gsat_graph_add_edge", NULL);
    gsat_free(s);

}

/* Counts and arrays: a negative count made an empty clause (UNSAT). */
static void bad_counts_and_arrays_are_refused(void **state) {
    (void)state;
    gsat *s = small_sat();
    assert_int_equal(gsat_add_clause(s, (int[]){1}, -1), -1);
    assert_refuses(s, "gsat_add_clause", "-1 literals");
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_add_clause(s, NULL, 3), -1);
    assert_refuses(s, "gsat_add_clause", "NULL");
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_add_clause(s, (int[]){1, 0, 2}, 3), -1);      /* 0 ends nothing here */
    assert_refuses(s, "gsat_add_clause", "literal 0");
    gsat_free(s);

    s = small_sat();
    assert_int_equal(gsat_solve(s, (int[]){1}, -2), GSAT_ERROR);
    assert_refuses(s, "gsat_solve", NULL);
    gsat_free(s);

    /* what stays allowed: the empty clause, NULL with 0, 0 among assumptions */
    s = small_sat();
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(gsat_solve(s, (int[]){0, -2}, 2), GSAT_UNSAT);
    assert_int_equal(gsat_add_clause(s, NULL, 0), 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    assert_null(gsat_error(s));
    gsat_free(s);
}

/* A theory whose propagation runs out of memory at its first call: the
 * allocation failure inside gsat_solve comes back as GSAT_ERROR. */
static int oom_propagate(void *t, vec_int *out) {
    (void)t; (void)out;
    xalloc_fail(12345);                  /* as xrealloc does when realloc fails */
    return 0;
}
static int no_conflict(void *t, int lit) { (void)t; (void)lit; return 0; }
static void nothing(void *t) { (void)t; }
static void no_backtrack(void *t, int level) { (void)t; (void)level; }
static int consistent(void *t) { (void)t; return 0; }
static const theory_ops oom_ops = {
    "oom", no_conflict, nothing, no_backtrack, oom_propagate, NULL, NULL, consistent, nothing, NULL, NULL, NULL,
};

static void allocation_failure_in_a_solve_is_an_error(void **state) {
    (void)state;
    gsat *s = small_sat();
    assert_true(gsat_add_theory(s, &oom_ops, NULL) >= 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_ERROR);
    assert_refuses(s, "gsat_solve", "out of memory (allocating 12345 bytes)");
    gsat_free(s);                        /* and the process goes on, leak-free (ASan) */
}

/* The caller's callbacks run outside the engine's guard: their own
 * allocation failure is theirs (here: the process would exit), and the
 * engine's guard is back after them. */
static int calls, guarded_calls;
static int count_calls(void *state) {
    (void)state;
    calls++;
    guarded_calls += xalloc_catch != NULL;
    return 0;
}
static void callbacks_run_unguarded(void **state) {
    (void)state;
    assert_null(xalloc_catch);
    gsat *s = small_sat();
    gsat_set_terminate(s, NULL, count_calls);
    /* 6 pigeons in 5 holes (variables from 3): conflicts, so terminate is polled */
    for (int p = 0; p < 6; p++) {
        int c[5];
        for (int h = 0; h < 5; h++) c[h] = 3 + 5 * p + h;
        gsat_add_clause(s, c, 5);
    }
    for (int h = 0; h < 5; h++)
        for (int p = 0; p < 6; p++)
            for (int q = p + 1; q < 6; q++) gsat_add_clause(s, (int[]){-(3 + 5 * p + h), -(3 + 5 * q + h)}, 2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    assert_true(calls > 0);
    assert_int_equal(guarded_calls, 0);
    assert_null(xalloc_catch);           /* no guard left behind */
    gsat_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(int_min_is_refused),
        cmocka_unit_test(variables_beyond_the_limit_are_refused),
        cmocka_unit_test(bad_counts_and_arrays_are_refused),
        cmocka_unit_test(allocation_failure_in_a_solve_is_an_error),
        cmocka_unit_test(callbacks_run_unguarded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
