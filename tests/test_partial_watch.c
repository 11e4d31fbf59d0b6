/* test_partial_watch.c — partial backtracking keeps every clause watched
 * so that a clause it leaves unit unnoticed is still found false
 * (solver/unassign.c, rewatch; issue 35).
 *
 * The bug: two-watched-literal propagation skips a clause whose blocker
 * is true even when that blocker is no longer one of its watches, so a
 * clause can have both watches false and be satisfied only by a literal
 * nobody watches.  Partial backtracking took that literal back and kept
 * the two false watches: assigning it false later visited nothing, and
 * gsat answered SAT with a model that broke the clause (the repeated-value
 * histories' at-least-one clauses, which check.c's re-check refused).
 *
 * - blocker_taken_back_is_watched builds exactly that state through the
 *   engine's own steps (decide, propagate, backtrack, unassign_dependents)
 *   and asserts that falsifying the last literal is a conflict.
 * - random_choice_problems: random SAT-modulo-acyclicity problems shaped
 *   like the checker's choice encoding (exactly-one groups whose members
 *   guard edges, orientation pairs, random 3- and 4-literal clauses),
 *   solved with partial backtracking after every conflict below the
 *   current level (chrono_levels 0); every model is checked against every
 *   clause and the acyclicity of its edges, here and by the debug build's
 *   own model check.  Before the fix the debug build's model check
 *   stopped this suite on one of them (a model breaking a 4-literal
 *   clause), and the deterministic test's last propagation found nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gsat.h"
#include "solver/solver.h"

static void decide(gsat *s, int d) {
    solver_new_level(s);
    enqueue(s, lit_from_dimacs(d), CREF_NONE);
    assert_int_equal(solver_propagate(s), CREF_NONE);
}

static void blocker_taken_back_is_watched(void **state) {
    (void)state;
    enum { W0 = 1, W1 = 2, T = 3 };
    gsat *s = gsat_new();
    int c[3] = {W0, W1, T};
    assert_int_equal(gsat_add_clause(s, c, 3), 1);
    /* watches (w0, w1); move one to t, make w0's blocker t, move t's
     * watch to w1: watches (w0, w1) again, w0's watcher blocked by t */
    decide(s, -W1);                      /* w1's watch moves to t */
    solver_backtrack(s, 0);
    decide(s, T);
    decide(s, -W0);                      /* t true: w0 stays, blocker t */
    solver_backtrack(s, 0);
    decide(s, -T);                       /* t's watch moves to w1 */
    solver_backtrack(s, 0);
    const clause *cl = CL(s, s->originals.data[0]);
    assert_int_equal(lit_to_dimacs(cl->lits[0]), W0);
    assert_int_equal(lit_to_dimacs(cl->lits[1]), W1);
    /* t, w0, then -w1 (skipped: its blocker w0 is true) */
    decide(s, T);
    decide(s, W0);
    decide(s, -W1);
    /* take w0 back alone, falsify it: skipped through its blocker t */
    unassign_dependents(s, lit_from_dimacs(W0));
    enqueue(s, lit_from_dimacs(-W0), CREF_NONE);
    assert_int_equal(solver_propagate(s), CREF_NONE);
    assert_true(s->vals[cl->lits[0]] < 0 && s->vals[cl->lits[1]] < 0);
    /* take t back alone: the clause's only true literal, not a watch */
    unassign_dependents(s, lit_from_dimacs(T));
    assert_int_equal(s->vals[lit_from_dimacs(T)], 0);
    /* falsifying t must find the clause false */
    enqueue(s, lit_from_dimacs(-T), CREF_NONE);
    assert_int_equal(solver_propagate(s), s->originals.data[0]);
    assert_int_equal(s->st.partial_rewatched, 1);
    gsat_free(s);
}

/* A non-decision variable (the GNF reader's tied edge variables) gets its
 * value from propagation alone: taken back with the reason that implied
 * it, it may be left in a clause that is now unit unnoticed, and before
 * the fix nothing assigned it again: the search ended with it unassigned
 * and the model broke the clause. */
static void non_decision_taken_back_is_decided(void **state) {
    (void)state;
    enum { A = 1, X = 2, D = 3 };
    gsat *s = gsat_new();
    int ax[2] = {A, X}, dx[2] = {-D, X};
    assert_int_equal(gsat_add_clause(s, ax, 2), 1);
    assert_int_equal(gsat_add_clause(s, dx, 2), 1);
    gsat_set_decision_var(s, X, 0);
    decide(s, D);                        /* implies x */
    decide(s, -A);                       /* (a x) holds through x */
    unassign_dependents(s, lit_from_dimacs(D));   /* d and x go, -a stays */
    assert_int_equal(s->vals[lit_from_dimacs(X)], 0);
    s->polarity[D] = 1;                  /* d is decided false again: nothing implies x */
    assert_int_equal(solver_search(s), GSAT_SAT);
    assert_int_equal(s->vals[lit_from_dimacs(A)], -1);
    assert_int_equal(s->vals[lit_from_dimacs(X)], 1);   /* decided, or implied by (a x) */
    assert_int_equal(s->st.partial_owed, 1);
    gsat_free(s);
}

/* ---- random choice problems ------------------------------------------- */

static uint64_t rng;
static uint32_t rnd(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}
static int pick(int n) { return (int)(rnd() % (unsigned)n); }

enum { NODES = 100, MAX_EDGES = 4096, MAX_LITS = 8192, MAX_CLAUSES = 2048 };
typedef struct problem {
    int from[MAX_EDGES], to[MAX_EDGES], guard[MAX_EDGES], ne;
    int lits[MAX_LITS], end[MAX_CLAUSES], nc, nl;
} problem;

static void add_edge(gsat *s, problem *p, int g, int u, int v, int lit) {
    assert_true(p->ne < MAX_EDGES);
    p->from[p->ne] = u; p->to[p->ne] = v; p->guard[p->ne] = lit; p->ne++;
    assert_true(gsat_graph_add_edge(s, g, u, v, lit) >= 0);
}

static void add_clause(gsat *s, problem *p, const int *l, int n) {
    assert_true(p->nc < MAX_CLAUSES && p->nl + n <= MAX_LITS);
    for (int i = 0; i < n; i++) p->lits[p->nl++] = l[i];
    p->end[p->nc++] = p->nl;
    gsat_add_clause(s, l, n);
}

static int other_node(int u) { int v = pick(NODES); return v == u ? (u + 1) % NODES : v; }

static void generate(gsat *s, problem *p) {
    memset(p, 0, sizeof *p);
    int g = gsat_graph_new(s, NODES);
    for (int i = 0; i + 1 < NODES; i++)         /* always-on edges forward */
        if (pick(3) == 0) { int t = i + 1 + pick(3); add_edge(s, p, g, i, t < NODES ? t : i + 1, 0); }
    for (int i = 0; i < 2 * NODES; i++) {       /* orientation pairs */
        int c = gsat_new_var(s), u = pick(NODES), v = other_node(u);
        add_edge(s, p, g, u, v, c);
        add_edge(s, p, g, v, u, -c);
    }
    int ncons = 2 * NODES;
    for (int i = 0; i < NODES; i++) {           /* exactly one writer for a reader */
        int m = 2 + pick(3), x[4], r = pick(NODES);
        for (int k = 0; k < m; k++) {
            x[k] = gsat_new_var(s);
            add_edge(s, p, g, other_node(r), r, x[k]);
            if (pick(2)) add_edge(s, p, g, r, other_node(r), x[k]);
        }
        add_clause(s, p, x, m);
        for (int a = 0; a < m; a++)
            for (int b = a + 1; b < m; b++) { int l[2] = {-x[a], -x[b]}; add_clause(s, p, l, 2); }
        if (pick(2)) {
            int c = 1 + pick(ncons), l[3] = {-x[pick(m)], pick(2) ? c : -c, x[pick(m)]};
            add_clause(s, p, l, 3);
        }
    }
    int nv = gsat_num_vars(s);
    for (int i = 0; i < 200; i++) {
        int l[4];
        for (int k = 0; k < 4; k++) { int v = 1 + pick(nv); l[k] = pick(2) ? v : -v; }
        add_clause(s, p, l, 3 + pick(2));
    }
}

static void check_model(gsat *s, const problem *p) {
    for (int c = 0, b = 0; c < p->nc; b = p->end[c++]) {
        int sat = 0;
        for (int k = b; k < p->end[c]; k++) sat |= gsat_value(s, p->lits[k]) > 0;
        assert_true(sat);
    }
    static int indeg[NODES], head[NODES], next[MAX_EDGES], queue[NODES];
    memset(indeg, 0, sizeof indeg);
    for (int v = 0; v < NODES; v++) head[v] = -1;
    for (int i = 0; i < p->ne; i++)
        if (!p->guard[i] || gsat_value(s, p->guard[i]) > 0) { next[i] = head[p->from[i]]; head[p->from[i]] = i; indeg[p->to[i]]++; }
    int qh = 0, qt = 0;
    for (int v = 0; v < NODES; v++) if (!indeg[v]) queue[qt++] = v;
    while (qh < qt)
        for (int i = head[queue[qh++]]; i >= 0; i = next[i]) if (--indeg[p->to[i]] == 0) queue[qt++] = p->to[i];
    assert_int_equal(qt, NODES);                /* the enabled edges are acyclic */
}

static void random_choice_problems(void **state) {
    (void)state;
    static problem p;
    int64_t partial = 0, rewatched = 0;
    int sat = 0;
    for (int seed = 1; seed <= 70; seed++) {
        rng = 0x9E3779B97F4A7C15ull * (uint64_t)seed + 1;
        gsat *s = gsat_new();
        assert_int_equal(gsat_set_option(s, "chrono_levels", 0), 1);
        generate(s, &p);
        int r = gsat_solve(s, NULL, 0);
        if (r == GSAT_SAT) { sat++; check_model(s, &p); }
        else assert_int_equal(r, GSAT_UNSAT);
        partial += s->st.partial_backtracks;
        rewatched += s->st.partial_rewatched;
        gsat_free(s);
    }
    printf("partial backtracks %lld, clauses rewatched %lld, %d of 70 satisfiable\n",
           (long long)partial, (long long)rewatched, sat);
    assert_true(sat > 50);
    assert_true(partial > 1000 && rewatched > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blocker_taken_back_is_watched),
        cmocka_unit_test(non_decision_taken_back_is_decided),
        cmocka_unit_test(random_choice_problems),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
