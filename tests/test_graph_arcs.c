/* test_graph_arcs.c — gsat_graph_add_arcs (theory/graph_sink.h, the
 * checker's encoder adds the constraints' sides with it) against one
 * gsat_graph_add_edge each: random graphs with guarded and always-on
 * edges, self-loops and backward edges, batches long enough for the
 * lookahead (16 edges) and shorter ones, two graphs, solves between the
 * batches: the same first edge id, answers, models and engine counters;
 * a node out of the graph adds nothing; a bad literal puts the engine in
 * error; the encoding sink's shorthand falls back to one call each.  The
 * second engine runs its bulk passes' two sides on a runner
 * (gsat_graph_set_runner: the last task first, or two threads): after
 * each solve its guarded edges' arrays (gcsr) are the first's, entry for
 * entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>

#include <string.h>

#include "gsat.h"
#include "par.h"
#include "tests/task_runners.h"
#include "theory/acyclic.h"
#include "theory/acyclic_internal.h"
#include "theory/graph_problem.h"
#include "theory/graph_sink.h"

static uint64_t rng;
static int pick(int n) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (int)(((rng * 2685821657736338717ULL) >> 32) % (uint64_t)n);
}

static void random_arcs(gs_arc *arcs, int n, int nodes, int vars) {
    for (int i = 0; i < n; i++) {
        int x = pick(nodes), y = pick(nodes), v = 1 + pick(vars);
        if (x > y && pick(6)) { int t = x; x = y; y = t; }   /* mostly forward */
        if (x == y && pick(4)) y = (x + 1) % nodes;
        arcs[i] = (gs_arc){ x, y, pick(5) ? (pick(2) ? v : -v) : 0 };
    }
}

/* The guarded edges' arrays of both engines, block by block. */
static void same_gcsr(gsat *s0, gsat *s1) {
    const acyclic *a = acyclic_find(s0), *b = acyclic_find(s1);
    assert_int_equal(a->sides, b->sides);
    for (int side = 0; side < a->sides; side++) {
        const gcsr *x = &a->gc[side], *y = &b->gc[side];
        assert_int_equal(x->nblk, y->nblk);
        assert_int_equal(x->built, y->built);
        assert_int_equal(x->fresh, y->fresh);
        size_t slots = ((size_t)1 << x->shift) + 1;
        if (x->nblk) assert_memory_equal(x->start, y->start, (size_t)x->nblk * slots * sizeof *x->start);
        for (int k = 0; k < x->nblk; k++) {
            assert_int_equal(x->blk[k].len, y->blk[k].len);
            if (x->blk[k].len) assert_memory_equal(x->blk[k].arcs, y->blk[k].arcs, x->blk[k].len * sizeof *x->blk[k].arcs);
        }
        for (int v = 0; v < a->pk.num_nodes; v++) assert_int_equal(x->head[v] < 0, y->head[v] < 0);
    }
}

static void same_as_one_by_one(void **state) {
    (void)state;
    rng = 0xA2C5ULL;
    int sat = 0, unsat = 0, long_batches = 0;
    for (int r = 0; r < 300; r++) {
        int graphs = 1 + pick(2), nodes[2] = { 4 + pick(60), 4 + pick(60) }, vars = 2 + pick(40);
        gsat *s[2] = { gsat_new(), gsat_new() };
        int gid[2][2];
        for (int k = 0; k < 2; k++) {
            gsat_reserve_vars(s[k], vars);
            for (int g = 0; g < graphs; g++) gid[k][g] = gsat_graph_new(s[k], nodes[g]);
        }
        assert_int_equal(gsat_graph_set_runner(s[1], r % 2 ? run_threads : run_reversed, NULL), 0);
        int a0 = GSAT_SAT;
        for (int stage = 0; stage < 3 && a0 == GSAT_SAT; stage++) {
            for (int b = 1 + pick(3); b > 0; b--) {
                int g = pick(graphs), n = pick(4) ? pick(12) : 17 + pick(100);
                gs_arc arcs[128];
                random_arcs(arcs, n, nodes[g], vars);
                long_batches += n > 16;
                int id0 = -2;
                for (int i = 0; i < n; i++) {
                    int id = gsat_graph_add_edge(s[0], gid[0][g], arcs[i].from, arcs[i].to, arcs[i].lit);
                    if (i == 0) id0 = id;
                }
                int id1 = gsat_graph_add_arcs(s[1], gid[1][g], arcs, (size_t)n);
                if (n) assert_int_equal(id1, id0);
            }
            gs_arc bad = { 0, nodes[0], 1 };
            assert_int_equal(gsat_graph_add_arcs(s[1], gid[1][0], &bad, 1), -1);
            a0 = gsat_solve(s[0], NULL, 0);
            assert_int_equal(gsat_solve(s[1], NULL, 0), a0);
            same_gcsr(s[0], s[1]);
            if (a0 == GSAT_SAT)
                for (int v = 1; v <= vars; v++) assert_int_equal(gsat_value(s[1], v), gsat_value(s[0], v));
        }
        sat += a0 == GSAT_SAT; unsat += a0 == GSAT_UNSAT;
        /* the next edge gets the same id: the bad batch added nothing */
        if (a0 == GSAT_SAT)
            assert_int_equal(gsat_graph_add_edge(s[1], gid[1][0], 0, 1, 1), gsat_graph_add_edge(s[0], gid[0][0], 0, 1, 1));
        acyclic_stats t0, t1;
        acyclic_get_stats(acyclic_of(s[0]), &t0);
        acyclic_get_stats(acyclic_of(s[1]), &t1);
        assert_int_equal(t1.edges, t0.edges);
        assert_int_equal(t1.guarded_edges, t0.guarded_edges);
        assert_int_equal(t1.inserts, t0.inserts);
        assert_int_equal(t1.pk_searches, t0.pk_searches);
        assert_int_equal(t1.block_builds, t0.block_builds);
        gsat_stats g0, g1;
        gsat_get_stats(s[0], &g0);
        gsat_get_stats(s[1], &g1);
        assert_int_equal(g1.conflicts, g0.conflicts);
        assert_int_equal(g1.decisions, g0.decisions);
        gsat_free(s[0]); gsat_free(s[1]);
    }
    assert_true(sat > 30 && unsat > 30 && long_batches > 100);
    assert_true(runner_calls > 300);               /* both passes of a sync, in most rounds */
}

static void bad_literal_is_an_error(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int g = gsat_graph_new(s, 3);
    gs_arc arcs[2] = { { 0, 1, 1 }, { 1, 2, INT32_MIN } };
    assert_int_equal(gsat_graph_add_arcs(s, g, arcs, 2), -1);
    assert_non_null(gsat_error(s));
    gsat_free(s);
}

/* The recorder has no add_arcs: gs_add_arcs adds them one by one, in order. */
static void recorder_gets_each_edge(void **state) {
    (void)state;
    graph_problem p;
    gp_init(&p);
    graph_sink k = graph_sink_problem(&p);
    gs_reserve_vars(&k, 2);
    int g = gs_graph_new(&k, 4);
    gs_arc arcs[3] = { { 0, 1, 1 }, { 1, 2, -2 }, { 2, 3, 0 } };
    gs_add_arcs(&k, g, arcs, 3);
    assert_int_equal(gs_add_edge(&k, g, 3, 0, 2), 3);      /* the fourth edge: three came before */
    const gp_edge *e = p.graphs.data[g].edges.data;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(e[i].from, arcs[i].from);
        assert_int_equal(e[i].to, arcs[i].to);
        assert_int_equal(e[i].lit, arcs[i].lit);
    }
    gp_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_one_by_one),
        cmocka_unit_test(bad_literal_is_an_error),
        cmocka_unit_test(recorder_gets_each_edge),
    };
    return cmocka_run_group_tests_name("graph_arcs", tests, NULL, NULL);
}
