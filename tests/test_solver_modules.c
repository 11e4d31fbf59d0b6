/* test_solver_modules.c — unit tests of the engine's modules through its
 * internal header: the EVSIDS heap, the clause arena and its compaction,
 * watch lists and BCP (binary fast path, blockers, watch replacement),
 * conflict analysis (1UIP, minimization, LBD, backjump level) and
 * analyze_final; the lazy attachment of original clauses (one counting
 * pass for many, one by one for a few); the one clause clean-up
 * (clause_clean.h) against a set-based reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "solver/clause_clean.h"
#include "solver/solver.h"

static void add(gsat *s, int a, int b, int c, int d) {
    int lits[4] = {a, b, c, d}, n = 0;
    while (n < 4 && lits[n]) n++;
    assert_int_equal(gsat_add_clause(s, lits, n), 1);
}

static void decide(gsat *s, int d) {
    solver_new_level(s);
    enqueue(s, lit_from_dimacs(d), CREF_NONE);
}

static int val(gsat *s, int d) { return s->vals[lit_from_dimacs(d)]; }

static void heap_orders_by_activity(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_reserve_vars(s, 50);
    for (uint32_t v = 1; v <= 50; v++) s->activity[v] = (double)((v * 37) % 50);
    /* rebuild: pop everything, push back */
    while (heap_pop(s)) {}
    for (uint32_t v = 1; v <= 50; v++) heap_insert(s, v);
    heap_insert(s, 7);                      /* already present: no-op */
    assert_int_equal(s->heap.len, 50);
    s->activity[3] = 1000;                  /* bump: moves to the top */
    solver_var_bump(s, 3);
    assert_int_equal(heap_pop(s), 3);
    double last = 1e300;
    int count = 1;
    uint32_t v;
    while ((v = heap_pop(s))) {
        assert_true(s->activity[v] <= last);
        last = s->activity[v];
        assert_int_equal(s->heap_index[v], -1);
        count++;
    }
    assert_int_equal(count, 50);
    /* var_bump rescales without changing the order */
    s->var_inc = 1e99;
    for (uint32_t u = 1; u <= 50; u++) heap_insert(s, u);
    solver_var_bump(s, 10);
    solver_var_bump(s, 10);
    assert_true(s->activity[10] < 1e100);
    assert_int_equal(heap_pop(s), 10);
    gsat_free(s);
}

static void arena_alloc_free_compact(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_reserve_vars(s, 10);
    lit_t a[3] = {2, 5, 7}, b[4] = {3, 4, 9, 11}, c[2] = {6, 8};
    cref_t ra = arena_alloc(s, a, 3, 0);
    cref_t rb = arena_alloc(s, b, 4, CL_LEARNT);
    cref_t rc = arena_alloc(s, c, 2, CL_LEARNT);
    vec_push(s->originals, ra);
    vec_push(s->learnts, rb);
    vec_push(s->learnts, rc);
    cl_set_lbd(CL(s, rb), 3);
    cl_set_activity(CL(s, rb), 2.5f);
    assert_int_equal(CL(s, rb)->size, 4);
    assert_memory_equal(CL(s, rb)->lits, b, sizeof b);
    assert_int_equal(cl_lbd(CL(s, rb)), 3);
    assert_true(CL(s, rb)->flags & CL_LEARNT);
    size_t len = s->ca.len;
    assert_int_equal(len, (2 + 3) + (2 + 4 + 1) + (2 + 2 + 1));
    /* free the first, compact (5 of 17 words garbage: over 1 %): the others
     * survive, moved and intact */
    arena_free_clause(s, ra);
    assert_int_equal(s->ca.wasted, 5);
    s->originals.len = 0;
    assert_int_equal(gsat_set_option(s, "gc_percent", 1), 1);
    arena_collect(s);
    assert_int_equal(s->st.gcs, 1);
    assert_int_equal(s->ca.len, len - 5);
    assert_int_equal(s->ca.wasted, 0);
    cref_t nb = s->learnts.data[0], nc = s->learnts.data[1];
    assert_int_equal(nb, 0);
    assert_memory_equal(CL(s, nb)->lits, b, sizeof b);
    assert_int_equal(cl_lbd(CL(s, nb)), 3);
    assert_true(cl_activity(CL(s, nb)) == 2.5f);
    assert_memory_equal(CL(s, nc)->lits, c, sizeof c);
    /* and the watches were rebuilt for the moved clauses */
    assert_int_equal(watch_of(s, 6)->len, 1);
    assert_int_equal(watch_of(s, 6)->data[0].cref, nc | WATCH_BIN);
    assert_int_equal(watch_of(s, 3)->data[0].cref, nb);
    gsat_free(s);
}

static void watches_and_bcp(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_reserve_vars(s, 8);
    add(s, 1, 2, 0, 0);          /* binary */
    add(s, -2, 3, 4, 5);         /* long */
    assert_int_equal(watch_of(s, lit_from_dimacs(1))->len, 0);   /* attached lazily */
    /* a literal without a list reads the shared empty one, whose data is
     * not NULL: propagate's end pointer, data + len, is then defined (clang's
     * UBSan stops on NULL + 0; gcc's does not see it) */
    assert_non_null(watch_of(s, lit_from_dimacs(7))->data);
    assert_int_equal(watch_of(s, lit_from_dimacs(7))->len, 0);
    watch_flush(s);
    /* binary clauses are flagged, both literals watched */
    watch_list *w1 = watch_of(s, lit_from_dimacs(1));
    assert_int_equal(w1->len, 1);
    assert_true(w1->data[0].cref & WATCH_BIN);
    assert_int_equal(w1->data[0].blocker, lit_from_dimacs(2));
    cref_t long_ref = s->originals.data[1];
    clause *c = CL(s, long_ref);
    lit_t w0 = c->lits[0], wl1 = c->lits[1];
    assert_int_equal(watch_of(s, w0)->len, 1);
    assert_int_equal(watch_of(s, wl1)->len, 1);
    assert_false(watch_of(s, w0)->data[0].cref & WATCH_BIN);

    /* -1 implies 2 through the binary clause */
    decide(s, -1);
    assert_int_equal(solver_propagate(s), CREF_NONE);
    assert_int_equal(val(s, 2), 1);
    assert_int_equal(s->vinfo[2].reason, s->originals.data[0]);
    /* -3, -4: the long clause moves its watches, then implies 5 */
    decide(s, -3);
    assert_int_equal(solver_propagate(s), CREF_NONE);
    decide(s, -4);
    assert_int_equal(solver_propagate(s), CREF_NONE);
    assert_int_equal(val(s, 5), 1);
    assert_int_equal(s->vinfo[5].reason, long_ref);
    c = CL(s, long_ref);
    assert_int_equal(c->lits[0], lit_from_dimacs(5));    /* implied literal first */
    for (uint32_t k = 1; k < c->size; k++) assert_int_equal(s->vals[c->lits[k]], -1);
    /* backtracking undoes exactly the levels above */
    solver_backtrack(s, 1);
    assert_int_equal(val(s, 2), 1);
    assert_int_equal(val(s, 3), 0);
    assert_int_equal(val(s, 5), 0);
    assert_int_equal(s->trail_n, 2);
    assert_int_equal(s->polarity[3], 1);                  /* phase saved: negative */
    /* a falsified clause is a conflict */
    decide(s, -3);
    decide(s, -4);
    enqueue(s, lit_from_dimacs(-5), CREF_NONE);
    assert_int_equal(solver_propagate(s), long_ref);
    solver_backtrack(s, 0);
    assert_int_equal(s->trail_n, 0);
    gsat_free(s);
}

/* Level 1: x1.  Level 2: x2 -> x3 -> x4 (with x1) -> x5 (with x6, implied
 * by x1) -> conflict on (-x4 | -x5).  1UIP is x3; the learned clause is
 * (-x3 | -x1 | -x6) and minimization drops -x6 (its reason is x1). */
static gsat *analysis_setup(int minimize) {
    gsat *s = gsat_new();
    gsat_set_option(s, "minimize", minimize);
    gsat_reserve_vars(s, 7);
    add(s, -1, 6, 0, 0);
    add(s, -2, 3, 0, 0);
    add(s, -3, -1, 4, 0);
    add(s, -3, -4, -6, 5);
    add(s, -4, -5, 0, 0);
    add(s, 7, 1, 0, 0);
    decide(s, 1);
    assert_int_equal(solver_propagate(s), CREF_NONE);
    assert_int_equal(val(s, 6), 1);
    decide(s, 2);
    return s;
}

/* Every live original clause watched exactly on lits[0] and lits[1], with
 * the other one as blocker and the binary flag right, and nothing else. */
static void check_watches(gsat *s) {
    size_t total = 0, live = 0;
    for (uint32_t l = 2; l < 2 * (s->nvars + 1); l++) total += watch_of(s, l)->len;
    for (size_t i = 0; i < s->originals.len; i++) {
        cref_t r = s->originals.data[i];
        const clause *c = CL(s, r);
        if (c->flags & CL_GARBAGE) continue;
        live++;
        for (int k = 0; k < 2; k++) {
            const watch_list *w = watch_of(s, c->lits[k]);
            int found = 0;
            for (uint32_t j = 0; j < w->len; j++)
                if ((w->data[j].cref & ~WATCH_BIN) == r) {
                    found++;
                    assert_int_equal(w->data[j].blocker, c->lits[1 - k]);
                    assert_int_equal(!!(w->data[j].cref & WATCH_BIN), c->size == 2);
                }
            assert_int_equal(found, 1);
        }
    }
    assert_int_equal(total, 2 * live);
    /* the shared empty list is never written; each list has one literal */
    assert_non_null(s->wl.data[0].data);        /* a static room (watch.c), never NULL */
    assert_int_equal(s->wl.data[0].len, 0);
    assert_int_equal(s->wl.data[0].cap, 0);
    size_t named = 0;
    for (uint32_t l = 0; l < 2 * (s->nvars + 1); l++) {
        assert_true(s->watch_at[l] < s->wl.len);
        named += s->watch_at[l] != 0;
    }
    assert_int_equal(named, s->wl.len - 1);
}

static void lazy_attach_bulk_and_few(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_reserve_vars(s, 30);
    /* many clauses at once: the counting pass; literal 1 gets exactly 8
     * watchers (a power of two: its piece must still not pass for memory
     * of its own when it grows) */
    for (int i = 0; i < 8; i++) add(s, 1, 2 + i, 20 + i, 0);
    for (int v = 2; v < 30; v++) add(s, -v, v + 1 <= 30 ? v + 1 : 2, 0, 0);
    assert_true((s->originals.len - s->unwatched) * 8 >= 2 * (size_t)(s->nvars + 1));
    watch_flush(s);
    assert_int_equal(s->unwatched, s->originals.len);
    check_watches(s);
    /* a few more, one by one */
    add(s, 1, -29, 0, 0);
    add(s, -1, 5, 9, 0);
    watch_flush(s);
    check_watches(s);
    /* lists cut from the block grow into memory of their own, contents kept */
    watch_list *w = watch_of(s, lit_from_dimacs(1));
    uint32_t before = w->len;
    for (uint32_t k = 0; k < 40; k++) watch_push(s, lit_from_dimacs(1), lit_from_dimacs(3), 7);
    assert_int_equal(w->len, before + 40);
    for (uint32_t k = before; k < w->len; k++) assert_int_equal(w->data[k].cref, 7);
    w->len = before;
    check_watches(s);
    /* a unit propagates through the lazily attached clauses: -2 forces,
     * along the chain -v | v+1 read backwards, nothing; 2 forces 3..30 */
    add(s, 2, 0, 0, 0);
    for (int v = 2; v <= 30; v++) assert_int_equal(val(s, v), 1);
    /* rebuilding after compaction uses the counting pass too */
    watch_rebuild(s);
    check_watches(s);
    gsat_free(s);                        /* ASan: pieces freed once, owned lists freed */
}

static void analysis_1uip_minimize_lbd(void **state) {
    (void)state;
    for (int minimize = 0; minimize <= 2; minimize++) {
        gsat *s = analysis_setup(minimize);
        cref_t confl = solver_propagate(s);
        assert_int_not_equal(confl, CREF_NONE);
        uint32_t bt, lbd;
        solver_analyze(s, confl, &bt, &lbd);
        vec_uint *l = &s->learnt;
        assert_int_equal(l->data[0], lit_from_dimacs(-3));      /* the UIP, negated */
        assert_int_equal(bt, 1);
        assert_int_equal(lbd, 2);
        if (minimize) {
            assert_int_equal(l->len, 2);
            assert_int_equal(l->data[1], lit_from_dimacs(-1));
        } else {
            assert_int_equal(l->len, 3);
            int has6 = l->data[1] == lit_from_dimacs(-6) || l->data[2] == lit_from_dimacs(-6);
            assert_true(has6);
        }
        /* analysis leaves no marks behind */
        for (uint32_t v = 0; v <= s->nvars; v++) assert_int_equal(s->seen[v], 0);
        /* variables in the conflict were bumped */
        assert_true(s->activity[3] > 0 && s->activity[4] > 0 && s->activity[5] > 0);
        assert_true(s->activity[7] == 0);
        gsat_free(s);
    }
}

static void analysis_final_assumptions(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_reserve_vars(s, 5);
    add(s, -1, 3, 0, 0);
    add(s, -2, 4, 0, 0);
    add(s, -3, -4, -5, 0);
    /* assumptions 1, 2, 5: 5 is false; the refutation uses 1, 2 (and 5) */
    int as[] = {1, 2, 5};
    assert_int_equal(gsat_solve(s, as, 3), GSAT_UNSAT);
    assert_true(gsat_failed(s, 1) && gsat_failed(s, 2) && gsat_failed(s, 5));
    /* -4 implies -2 at level 1; assumption 1 plays no part */
    int as2[] = {-4, 1, 2};
    assert_int_equal(gsat_solve(s, as2, 3), GSAT_UNSAT);
    assert_true(gsat_failed(s, -4) && gsat_failed(s, 2));
    assert_false(gsat_failed(s, 1));
    assert_false(gsat_failed(s, 5));
    gsat_free(s);
}

static void simplify_and_reduce(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_reserve_vars(s, 6);
    add(s, 1, 2, 3, 0);
    add(s, -1, 4, 5, 6);
    add(s, 2, 5, 0, 0);
    int u[] = {1};
    gsat_add_clause(s, u, 1);
    assert_int_equal(val(s, 1), 1);
    solver_simplify_level0(s);
    /* (1|2|3) is gone, (-1|4|5|6) lost -1 */
    assert_int_equal(s->originals.len, 2);
    int found = 0;
    for (size_t i = 0; i < s->originals.len; i++) {
        clause *c = CL(s, s->originals.data[i]);
        if (c->size == 3) {
            found = 1;
            for (uint32_t k = 0; k < 3; k++) assert_int_not_equal(c->lits[k], lit_from_dimacs(-1));
        }
    }
    assert_true(found);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);

    /* reduction keeps core clauses and drops half of the rest */
    assert_int_equal(s->learnts.len, 0);
    lit_t l4[4] = {2, 4, 6, 8};
    for (int i = 0; i < 10; i++) {
        cref_t r = arena_alloc(s, l4, 4, CL_LEARNT);
        cl_set_lbd(CL(s, r), i < 2 ? 2 : 9);
        cl_set_activity(CL(s, r), (float)i);
        vec_push(s->learnts, r);
    }
    solver_reduce_db(s);
    assert_int_equal(s->learnts.len, 2 + 4);
    int core = 0;
    for (size_t i = 0; i < s->learnts.len; i++) {
        clause *c = CL(s, s->learnts.data[i]);
        if (cl_lbd(c) == 2) core++;
        else assert_true(cl_activity(c) >= 6.0f);   /* the most active survive */
    }
    assert_int_equal(core, 2);
    gsat_free(s);
}

/* Values for clause_clean: table[l] per literal (1, -1, 0). */
static int table_value(const void *ctx, lit_t l) { return ((const int8_t *)ctx)[l]; }

/* Random clauses (1..40 literals over 6 variables, so duplicates and
 * tautologies are common; lengths above 16 take the qsort path) under
 * random level-0 values, against the definition: holds if a literal is
 * true or a variable occurs both ways; else the open literals, as a set,
 * in increasing order. */
static void clause_clean_matches_its_definition(void **state) {
    (void)state;
    uint64_t x = 88172645463325252ull;
    int holds = 0, empty = 0, long_ones = 0;
    for (int round = 0; round < 20000; round++) {
        int8_t table[2 * 7 + 2] = {0};
        for (uint32_t v = 1; v <= 6; v++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            int val = (int)(x % 5) - 2;                   /* mostly open */
            if (val == 1 || val == -1) { table[mklit(v, 0)] = (int8_t)val; table[mklit(v, 1)] = (int8_t)-val; }
        }
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        size_t n = 1 + x % 40;
        lit_t d[40];
        int in[2 * 7 + 2] = {0};
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            d[i] = mklit(1 + (uint32_t)(x % 6), round % 2 ? (int)((x >> 8) & 1) : 0);   /* half: one sign each */
            in[d[i]] = 1;
        }
        int want_holds = 0;
        for (lit_t l = 2; l < 14; l++)
            if (in[l] && (table[l] > 0 || (table[l] == 0 && in[l ^ 1u]))) want_holds = 1;
        size_t got = clause_clean(d, n, table_value, table);
        if (want_holds) { assert_true(got == CLAUSE_HOLDS); holds++; continue; }
        assert_true(got != CLAUSE_HOLDS);
        size_t k = 0;
        for (lit_t l = 2; l < 14; l++)
            if (in[l] && table[l] == 0) { assert_true(k < got); assert_int_equal(d[k], l); k++; }
        assert_int_equal(got, k);
        empty += got == 0;
        long_ones += n > 16;
    }
    assert_true(holds > 1000);
    assert_true(empty > 100);
    assert_true(long_ones > 1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(heap_orders_by_activity),
        cmocka_unit_test(arena_alloc_free_compact),
        cmocka_unit_test(watches_and_bcp),
        cmocka_unit_test(lazy_attach_bulk_and_few),
        cmocka_unit_test(analysis_1uip_minimize_lbd),
        cmocka_unit_test(analysis_final_assumptions),
        cmocka_unit_test(simplify_and_reduce),
        cmocka_unit_test(clause_clean_matches_its_definition),
    };
    return cmocka_run_group_tests_name("engine modules", tests, NULL, NULL);
}
