/* test_reach_reuse.c — the reachability table renewed over reused memory
 * holds the same facts as one built on fresh memory (reach.c, prune.c).
 *
 * pg_prune renews the table into the rows of the last one and builds the
 * known graph's adjacency and order into the arrays of the call before
 * (pg_reach_keep_scratch).  Here a polygraph keeps those arrays from its
 * first table on, through the scan and every pruning round, and after each
 * renewal its table is compared, row by row as positions, with a table
 * built on fresh memory from the same edges (a new polygraph given the
 * known edges the renewal saw), and its topological order with a fresh
 * one over all its edges.  Before each full renewal the old rows (and the
 * wide rows' pool) are overwritten with garbage: a row the renewal did not
 * write, or a stale count in the reused adjacency, shows as a difference
 * (or as an out-of-range frame under ASan).  SER, the split graph and its
 * half table; narrow rows and many wide ones; one thread and two; full
 * and automatic (incremental where it pays) renewals.  Also: pg_prune
 * frees the table before its last order unless asked to keep it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim_history.h"
#include "frontend/checking/polygraph.h"
#include "par.h"

static history *simulate(sim_level level, sim_fault fault, uint32_t sessions, uint64_t keys, uint64_t seed) {
    return sim_history(level, fault, (sim_shape){ sessions, 14, 6, keys }, seed);
}

/* A new polygraph for a's index and shape whose known edges are a's first
 * `edges` ones (pg_init's base edges are the same prefix). */
static void fresh_like(polygraph *b, const polygraph *a, size_t edges) {
    pg_init(b, a->ix, a->split);
    assert_true(b->known.len <= edges);
    pg_known_reserve(b, edges - b->known.len);
    memcpy(b->known.data, a->known.data, edges * sizeof *b->known.data);
    b->known.len = edges;
}

/* a's table against one built on fresh memory from the edges it was
 * renewed for; returns the entries compared. */
static uint64_t same_as_fresh(const polygraph *a) {
    polygraph b;
    fresh_like(&b, a, a->reach_edges);
    assert_int_equal(pg_reach(&b), 1);
    assert_int_equal(a->reach_half, b.reach_half);
    assert_int_equal(a->num_chains, b.num_chains);
    uint32_t rows = a->reach_half ? a->num_nodes / 2 : a->num_nodes, S = a->num_chains;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < S; c++)
            assert_int_equal(pg_reach_row_at(a, a->reach + (size_t)r * a->reach_stride, c),
                             pg_reach_row_at(&b, b.reach + (size_t)r * b.reach_stride, c));
    pg_free(&b);
    return (uint64_t)rows * S;
}

/* a's order (from its last pg_reach or pg_order, over all its edges)
 * against a fresh one. */
static void same_order_as_fresh(const polygraph *a) {
    polygraph b;
    fresh_like(&b, a, a->known.len);
    assert_int_equal(pg_order(&b), a->acyclic);
    assert_memory_equal(a->topo_pos, b.topo_pos, a->num_nodes * sizeof *a->topo_pos);
    pg_free(&b);
}

/* Garbage over every row and the wide rows' pool (a full renewal writes
 * every row anew). */
static void poison_table(polygraph *g) {
    uint32_t rows = g->reach_half ? g->num_nodes / 2 : g->num_nodes;
    for (size_t i = 0; i < (size_t)rows * g->reach_stride; i++) g->reach[i] = (uint8_t)(0xA5 ^ (i * 7));
    for (uint32_t k = 0; k < g->reach_wide_chunks; k++) {
        uint16_t *w = atomic_load(&g->reach_wide[k]);
        if (w) for (size_t i = 0; i < (size_t)PG_REACH_WIDE_CHUNK * g->reach_wstride; i++) w[i] = (uint16_t)(0x5A5A + i);
    }
}

static void knobs_default(void) {
    pg_reach_mode = PG_REACH_AUTO;
    pg_reach_half_mode = PG_REACH_HALF_AUTO;
    pg_reach_narrow_max = 0xFE;
    pg_par_min_work = 1u << 15;
}

typedef struct tally { uint64_t entries; int renewals, poisoned, wide; } tally;

/* One polygraph through its first table and up to three pruning rounds,
 * its arrays kept throughout, each table against a fresh one. */
static void renew_and_compare(const pg_index *ix, int split, par_pool *pool, tally *tl) {
    polygraph a;
    pg_init(&a, ix, split);
    a.reach_keep = 1;
    a.pool = pool;
    a.threads = pool ? par_pool_threads(pool) : 1;
    pg_reach_keep_scratch(&a, 1);              /* the first table's arrays, for the renewal */
    int ok = pg_build_constraints(&a);
    if (ok && a.reach_valid) tl->entries += same_as_fresh(&a);
    for (int r = 0; ok && r < 3 && a.cons.len; r++) {
        int poison = pg_reach_mode == PG_REACH_FULL && a.reach;
        if (poison) poison_table(&a);
        ok = pg_prune(&a, (int)a.prune_rounds + 1);
        pg_reach_keep_scratch(&a, 1);          /* pg_prune let them go: keep the next ones */
        if (!a.reach_valid) break;
        tl->entries += same_as_fresh(&a);
        same_order_as_fresh(&a);
        tl->renewals++;
        tl->poisoned += poison;
        tl->wide += atomic_load(&a.reach_wide_len) > 0;
    }
    pg_reach_keep_scratch(&a, 0);
    pg_free(&a);
}

static void renewal_over_reused_memory_same_as_fresh(void **state) {
    (void)state;
    tally tl = { 0, 0, 0, 0 };
    for (uint64_t seed = 81; seed <= 86; seed++)
        for (int f = 0; f < FAULT_COUNT; f += 2) {
            history *h = simulate(seed % 2 ? SIM_SI : SIM_SER, (sim_fault)f, seed % 3 ? 24 : 6, 30 + 4 * seed, seed);
            pg_index ix;
            ic_error err; ic_error_clear(&err);
            if (!pg_index_build(&ix, h, &err)) { history_free(h); continue; }
            for (int mode = 0; mode < 4; mode++)          /* SER, SI whole, SI half, SI half mostly wide */
                for (int full = 0; full < 2; full++)
                    for (unsigned th = 1; th <= 2; th++) {
                        pg_reach_half_mode = mode >= 2 ? PG_REACH_HALF_ALWAYS : PG_REACH_HALF_NEVER;
                        pg_reach_narrow_max = mode == 3 ? 1 : 0xFE;
                        pg_reach_mode = full ? PG_REACH_FULL : PG_REACH_AUTO;
                        pg_par_min_work = th > 1 ? 0 : 1u << 15;
                        par_pool *pool = th > 1 ? par_pool_new(th) : NULL;
                        renew_and_compare(&ix, mode != 0, pool, &tl);
                        if (pool) par_pool_free(pool);
                    }
            knobs_default();
            pg_index_free(&ix);
            history_free(h);
        }
    fprintf(stderr, "reach reuse: %d renewals over reused memory (%d over garbage rows, %d with wide rows), "
            "%llu entries compared\n", tl.renewals, tl.poisoned, tl.wide, (unsigned long long)tl.entries);
    assert_true(tl.renewals > 100 && tl.poisoned > 50 && tl.wide > 10);
}

/* pg_prune frees the table and the reader summaries before its last
 * order when nothing after reads them, keeps them when asked, and decides
 * the same either way. */
static void prune_frees_the_table_before_its_last_order(void **state) {
    (void)state;
    int freed = 0;
    for (uint64_t seed = 91; seed <= 96; seed++) {
        history *h = simulate(seed % 2 ? SIM_SI : SIM_SER, FAULT_NONE, 24, 200, seed);
        pg_index ix;
        ic_error err; ic_error_clear(&err);
        assert_true(pg_index_build(&ix, h, &err));
        for (int split = 0; split < 2; split++) {
            polygraph a, k;
            pg_init(&a, &ix, split);
            pg_init(&k, &ix, split);
            k.reach_keep = 1;
            int oka = pg_build_constraints(&a), okk = pg_build_constraints(&k);
            assert_int_equal(oka, okk);
            if (oka) {
                pg_prune_stop = PG_PRUNE_STOP_ALWAYS;      /* a last order without a table renewal */
                oka = pg_prune(&a, 100);
                okk = pg_prune(&k, 100);
                pg_prune_stop = PG_PRUNE_STOP_AUTO;
                assert_int_equal(oka, okk);
                assert_int_equal(a.cons.len, k.cons.len);
                assert_int_equal(a.known.len, k.known.len);
                assert_int_equal(a.prune_rounds, k.prune_rounds);
                assert_memory_equal(a.topo_pos, k.topo_pos, a.num_nodes * sizeof *a.topo_pos);
                assert_non_null(k.reach);
                if (!a.reach) {
                    assert_false(a.reach_valid);
                    assert_null(a.rsum_start);
                    freed++;
                }
            }
            pg_free(&a); pg_free(&k);
        }
        pg_index_free(&ix);
        history_free(h);
    }
    fprintf(stderr, "prune: %d tables freed before the last order\n", freed);
    assert_true(freed >= 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(renewal_over_reused_memory_same_as_fresh),
        cmocka_unit_test(prune_frees_the_table_before_its_last_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
