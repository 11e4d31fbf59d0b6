/* test_known_aside.c — a level's base edges out of its known graph while
 * the engine solves (check.h, pg_known_aside / pg_known_back): they come
 * back the same, in front of the edges added after them; nothing goes when
 * the index no longer holds its base edges or the prefix is not exactly
 * them; a regenerated prefix that differs from the one that went is
 * reported.  Then whole checks that reach the solver (simulated histories,
 * no pruning, PASS and FAIL) give the same verdict, version order, cycle
 * and counts as with an index whose base edges were freed at its first copy
 * (where nothing goes aside). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <string.h>

#include "workload/gen_writer.h"
#include "workload/workload.h"
#include "sim_history.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"
#include "parse_helpers.h"

static history *text(const char *s) { return load_text(s); }

/* r-m-w chains (edges inside units), a reader of an older version, two
 * sessions: every kind of base edge. */
static const char *const small =
    "r(1,0,1,1)\nw(1,10,1,1)\nr(1,10,2,2)\nw(1,20,2,2)\nw(2,5,1,3)\nr(2,5,2,4)\nw(1,40,3,5)\nr(1,10,4,6)\nr(2,5,3,7)\n";

static void aside_and_back_same(void **state) {
    (void)state;
    history *h = text(small);
    pg_index ix; ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    for (int split = 0; split < 2; split++) {
        polygraph g;
        pg_init(&g, &ix, split);
        size_t initial = g.known.len;
        assert_int_equal(initial, pg_index_num_base(&ix));
        assert_true(initial > 0);
        pg_add_dep(&g, DEP_WW, 0, 1, 3);         /* edges after the base ones (as decided by the scan) */
        pg_add_dep(&g, DEP_RW, 1, 2, 4);
        pg_edge_vec before; vec_init(before);
        vec_foreach(const pg_edge, e, g.known) vec_push(before, *e);
        known_aside a;
        pg_known_aside(&g, initial, &a);
        assert_true(a.aside);
        assert_int_equal(g.known.len, 2);        /* the two added ones, at the front */
        assert_memory_equal(g.known.data, before.data + initial, 2 * sizeof *g.known.data);
        assert_true(pg_known_back(&g, &a));
        assert_false(a.aside);
        assert_int_equal(g.known.len, before.len);
        assert_memory_equal(g.known.data, before.data, before.len * sizeof *before.data);
        assert_true(pg_known_back(&g, &a));      /* nothing aside: nothing done */
        assert_int_equal(g.known.len, before.len);
        /* a prefix that comes back different is reported */
        pg_known_aside(&g, initial, &a);
        assert_true(a.aside);
        a.hash ^= 1;
        assert_false(pg_known_back(&g, &a));
        /* not the base edges' count: nothing goes */
        pg_known_aside(&g, initial - 1, &a);
        assert_false(a.aside);
        assert_int_equal(g.known.len, before.len);
        vec_free(before);
        pg_free(&g);
    }
    pg_index_free(&ix);
    history_free(h);
}

static void nothing_aside_once_released(void **state) {
    (void)state;
    history *h = text(small);
    pg_index ix; ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    pg_index_release_base_after(&ix, 1);
    polygraph g;
    pg_init(&g, &ix, 1);                         /* the last copy: base freed */
    assert_true(ix.base_released);
    size_t n = g.known.len;
    known_aside a;
    pg_known_aside(&g, n, &a);
    assert_false(a.aside);
    assert_int_equal(g.known.len, n);
    assert_true(pg_known_back(&g, &a));
    pg_free(&g);
    pg_index_free(&ix);
    history_free(h);
}

static history *simulate(sim_fault fault, uint64_t seed) {
    return sim_history(SIM_SI, fault, (sim_shape){ 6, 40, 5, 25 + seed % 20 }, seed);
}

static void same_result(const check_result *a, const check_result *b) {
    assert_int_equal(a->verdict, b->verdict);
    assert_string_equal(a->msg, b->msg);
    assert_int_equal(a->st.known_edges_final, b->st.known_edges_final);
    assert_int_equal(a->st.solver.conflicts, b->st.solver.conflicts);
    assert_int_equal(a->cycle.len, b->cycle.len);
    if (a->cycle.len) assert_memory_equal(a->cycle.data, b->cycle.data, a->cycle.len * sizeof *a->cycle.data);
    assert_int_equal(a->vo.start != NULL, b->vo.start != NULL);
    if (!a->vo.start) return;
    assert_int_equal(a->vo.num_keys, b->vo.num_keys);
    assert_memory_equal(a->vo.start, b->vo.start, (a->vo.num_keys + 1) * sizeof *a->vo.start);
    assert_int_equal(a->vo.txns.len, b->vo.txns.len);
    assert_memory_equal(a->vo.txns.data, b->vo.txns.data, a->vo.txns.len * sizeof *a->vo.txns.data);
}

static void checks_same_as_without(void **state) {
    (void)state;
    int solved[2] = { 0, 0 };                    /* PASS, FAIL from the solver */
    for (uint64_t seed = 1; seed <= 30; seed++) {
        history *h = simulate(seed % 3 ? FAULT_NONE : FAULT_LOST_UPDATE, seed);
        anomaly_list al;
        anomaly_list_init(&al);
        uint64_t broken = axioms_check(h, &al, 1);
        anomaly_list_free(&al);
        if (broken) { history_free(h); continue; }
        pg_index keep, rel; ic_error err; ic_error_clear(&err);
        assert_true(pg_index_build(&keep, h, &err));
        assert_true(pg_index_build(&rel, h, &err));
        check_level_id levels[2] = { LEVEL_SI, LEVEL_SER };
        for (int i = 0; i < 2; i++) {
            check_options o;
            check_options_default(&o);
            o.max_prune_rounds = 0;
            pg_index_release_base_after(&rel, 1);   /* freed at the level's copy: nothing aside */
            check_result a, b;
            check_level(&keep, levels[i], &o, &a);
            check_level(&rel, levels[i], &o, &b);
            assert_true(rel.base_released);
            assert_false(keep.base_released);
            same_result(&a, &b);
            if (a.st.solver_called && a.verdict == VERDICT_PASS) solved[0]++;
            if (a.st.solver_called && a.verdict == VERDICT_FAIL) solved[1]++;
            check_result_free(&a); check_result_free(&b);
            pg_index_free(&rel);
            assert_true(pg_index_build(&rel, h, &err));
        }
        pg_index_free(&keep); pg_index_free(&rel);
        history_free(h);
    }
    assert_true(solved[0] >= 5);
    assert_true(solved[1] >= 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aside_and_back_same),
        cmocka_unit_test(nothing_aside_once_released),
        cmocka_unit_test(checks_same_as_without),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
