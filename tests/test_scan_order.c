/* test_scan_order.c — the writer-unit pair scan by transitivity
 * (scan_order.c) against the group-by-group scan and a search.
 *
 * Simulated histories with many sessions and every fault, indexed for
 * every searched level (pc, psi, si, ser, rr and their plain and
 * real-time kin), every session tracked or only 1 or 3 of them (the
 * others untracked: their pairs are tested one by one), few keys (many
 * units a key: bit sets of several words) and many:
 *   - the level's graph built with every key scanned group by group
 *     (pg_scan_order_max 0, the reference), by transitivity, and mixed
 *     (keys over 5 units group by group): the same verdict, failure
 *     reason, constraints, known edges (the covering ones) in the same
 *     order, and counts; by transitivity and group by group again on a
 *     half table (rows for the commits only: the split levels' start
 *     nodes asked through their class and their commit's row);
 *   - the constraints against a depth-first search of the known graph the
 *     scan started from: a pair of units on two sessions is a constraint
 *     exactly when neither side is blocked and either one of them is
 *     untracked or neither's WW entry node reaches the other's.
 * The tally asserts that failures, untracked sessions, multi-word keys
 * and rejected sides were all met. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim_history.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/checking/polygraph.h"

typedef struct tally { int graphs, failed, untracked, wide_keys, window_decided, cons, half; } tally;

typedef struct built {
    polygraph g;
    int ok;
    size_t known0;               /* known edges before the scan */
} built;

static void build(built *b, const pg_index *ix, check_level_id level, uint32_t order_max) {
    uint32_t saved = pg_scan_order_max;
    pg_scan_order_max = order_max;
    pg_init_level(&b->g, ix, level);
    b->known0 = b->g.known.len;
    b->ok = pg_build_constraints(&b->g);
    pg_scan_order_max = saved;
}

static void assert_same_graph(const built *a, const built *b) {
    assert_int_equal(a->ok, b->ok);
    if (!a->ok) assert_string_equal(a->g.fail_reason, b->g.fail_reason);
    assert_int_equal(a->g.cons.len, b->g.cons.len);
    for (size_t i = 0; i < a->g.cons.len; i++) {
        assert_int_equal(a->g.cons.data[i].u, b->g.cons.data[i].u);
        assert_int_equal(a->g.cons.data[i].v, b->g.cons.data[i].v);
    }
    assert_int_equal(a->g.known.len, b->g.known.len);
    assert_memory_equal(a->g.known.data, b->g.known.data, a->g.known.len * sizeof *a->g.known.data);
    assert_int_equal(a->g.pairs_total, b->g.pairs_total);
    assert_int_equal(a->g.pairs_decided_scan, b->g.pairs_decided_scan);
    assert_int_equal(a->g.edges_covering, b->g.edges_covering);
    assert_int_equal(a->g.cons_initial, b->g.cons_initial);
}

/* Nodes reachable from x over known[0 .. known0) and the fixed T' -> T
 * arcs (psi's RW edges are no arcs), into seen (1). */
static void search(const polygraph *g, const vec_u32 *out, uint32_t x, uint8_t *seen, uint32_t *stack) {
    memset(seen, 0, g->num_nodes);
    uint32_t sp = 0;
    stack[sp++] = x; seen[x] = 1;
    while (sp) {
        uint32_t y = stack[--sp];
        vec_foreach(const uint32_t, z, out[y]) if (!seen[*z]) { seen[*z] = 1; stack[sp++] = *z; }
    }
}

/* The constraints of b (a whole scan) against the search, key by key. */
static void cons_match_search(const built *b, tally *tl) {
    const polygraph *g = &b->g;
    const pg_index *ix = g->ix;
    uint32_t N = g->num_nodes;
    vec_u32 *out = calloc(N, sizeof *out);
    for (size_t i = 0; i < b->known0; i++) {
        const pg_edge *e = &g->known.data[i];
        if (g->rw_lazy && PG_KIND(e->meta) == DEP_RW && pg_rw_lazy(g, e->from, PG_KEY(e->meta))) continue;
        vec_push(out[e->from], e->to);
    }
    if (g->split)
        for (uint32_t t = 0; t < N / 2; t++) vec_push(out[pg_node_tp(g, t)], pg_node_t(g, t));
    uint8_t *reach = NULL, *in_cons = NULL;
    uint32_t *stack = malloc((size_t)N * sizeof *stack);
    size_t ci = 0;
    for (uint32_t k = 0; k < ix->num_keys; k++) {
        uint32_t s = ix->key_unit_start[k], n = ix->key_unit_start[k + 1] - s;
        if (n > 65) tl->wide_keys++;
        in_cons = realloc(in_cons, (size_t)n * n + 1);
        memset(in_cons, 0, (size_t)n * n);
        for (; ci < g->cons.len && g->cons.data[ci].u < s + n; ci++) {
            const pg_cons *c = &g->cons.data[ci];
            assert_true(c->u > s && c->v > c->u);
            in_cons[(size_t)(c->u - s) * n + (c->v - s)] = 1;
        }
        /* what each unit's WW entry node reaches */
        reach = realloc(reach, (size_t)n * N + 1);
        for (uint32_t u = s + 1; u < s + n; u++)
            search(g, out, pg_node_ww_in(g, ix->units.data[u].head), reach + (size_t)(u - s) * N, stack);
        for (uint32_t u = s + 1; u < s + n; u++) {
            uint32_t hu = ix->units.data[u].head, cu = pg_txn_session(ix, hu), xu = pg_node_ww_in(g, hu);
            for (uint32_t v = u + 1; v < s + n; v++) {
                uint32_t hv = ix->units.data[v].head, cv = pg_txn_session(ix, hv), xv = pg_node_ww_in(g, hv);
                int is_cons = in_cons[(size_t)(u - s) * n + (v - s)];
                if (cu == cv) { assert_false(is_cons); continue; }
                int untracked = g->chain_of_session[cu] == UINT32_MAX || g->chain_of_session[cv] == UINT32_MAX;
                tl->untracked += untracked;
                int uv = reach[(size_t)(u - s) * N + xv], vu = reach[(size_t)(v - s) * N + xu];
                int window = untracked || (!uv && !vu);
                int blocked = pg_side_blocked(g, u, v) || pg_side_blocked(g, v, u);
                tl->window_decided += window && blocked;
                if (is_cons != (window && !blocked))
                    fail_msg("key %u units %u %u: constraint %d, untracked %d, reach %d %d, blocked %d", k, u, v, is_cons,
                             untracked, uv, vu, blocked);
            }
        }
    }
    assert_int_equal(ci, g->cons.len);
    tl->cons += (int)g->cons.len;
    for (uint32_t x = 0; x < N; x++) vec_free(out[x]);
    free(out); free(reach); free(stack); free(in_cons);
}

static void check_history(history *h, tally *tl) {
    if (!(h = sim_clean(h))) return;
    for (int l = 0; l < LEVEL_COUNT; l++) {
        level_shape sh = level_shape_of((check_level_id)l);
        if (sh < SHAPE_PC) continue;
        pg_index ix;
        ic_error err; ic_error_clear(&err);
        if (!pg_index_build_opts(&ix, h, &err, NULL, pg_index_opts_for((check_level_id)l))) continue;
        for (uint32_t limit = 0; limit <= 3; limit += limit ? 2 : 1) {   /* 0 (all), 1, 3 */
            pg_chain_limit = limit;
            built ref, ord, mixed;
            build(&ref, &ix, (check_level_id)l, 0);
            build(&ord, &ix, (check_level_id)l, UINT32_MAX);
            build(&mixed, &ix, (check_level_id)l, 5);
            assert_same_graph(&ref, &ord);
            assert_same_graph(&ref, &mixed);
            tl->graphs++;
            if (!ord.ok) tl->failed++;
            else cons_match_search(&ord, tl);
            pg_free(&ref.g); pg_free(&ord.g); pg_free(&mixed.g);
            if (limit) continue;
            pg_reach_half_mode = PG_REACH_HALF_ALWAYS;   /* split levels: rows for the commits only */
            build(&ref, &ix, (check_level_id)l, 0);
            build(&ord, &ix, (check_level_id)l, UINT32_MAX);
            pg_reach_half_mode = PG_REACH_HALF_AUTO;
            assert_same_graph(&ref, &ord);
            tl->half += ord.ok && ord.g.reach_half;
            pg_free(&ref.g); pg_free(&ord.g);
        }
        pg_chain_limit = 0;
        pg_index_free(&ix);
    }
    history_free(h);
}

static void scan_order_same_as_groups_and_search(void **state) {
    (void)state;
    tally tl = { 0 };
    for (uint64_t seed = 1; seed <= 4; seed++)
        for (int f = 0; f < FAULT_COUNT; f++) {
            sim_level lv = seed % 2 ? SIM_SI : SIM_SER;
            check_history(sim_history(lv, (sim_fault)f, (sim_shape){ 24, 10, 5, 6 }, seed), &tl);      /* hot keys */
            check_history(sim_history(lv, (sim_fault)f, (sim_shape){ 30, 8, 5, 60 }, seed + 10), &tl);
        }
    fprintf(stderr, "scan order: %d graphs (%d failing), %d untracked pairs, %d keys over 64 units, "
            "%d window pairs decided, %d constraints, %d passing on a half table\n", tl.graphs, tl.failed, tl.untracked,
            tl.wide_keys, tl.window_decided, tl.cons, tl.half);
    assert_true(tl.graphs > 50 && tl.failed > 5 && tl.graphs - tl.failed > 20);
    assert_true(tl.untracked > 100 && tl.wide_keys > 5 && tl.window_decided > 5 && tl.cons > 100 && tl.half > 10);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scan_order_same_as_groups_and_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
