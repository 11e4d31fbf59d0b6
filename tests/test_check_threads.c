/* test_check_threads.c — the checking stages give the same result for
 * every thread count (check_options.threads; polygraph.h, reach.c,
 * constraints.c, prune.c).
 *
 * Histories from the workload simulator (40 sessions), with every fault,
 * are checked at SI and SER with 1, 2 and 3 threads, one level at a time
 * and both levels at once on one shared pool (as run_check does), with
 * pg_par_min_work = 0 (every stage split even on tiny problems).  The whole
 * result must agree: verdict, stage, message, version order, cycle, forced
 * edges and every count.  The tally asserts that both verdicts and the
 * solver are exercised, and the single-threaded verdict is checked against
 * the simulator's ground truth where it is certain (correct executions
 * pass).  Likewise the incremental renewal of the reachability table
 * against recomputing it, the 16-bit table with offsets too small to hold
 * every fact (same verdicts, same for every thread count), the table
 * itself against a search of the known graph (exact while offsets fit;
 * otherwise every fact it keeps is true), and its narrow rows against
 * wide ones (the same table); and a pruning round against the plain loop
 * over the constraints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "workload/gen_writer.h"
#include "workload/workload.h"
#include "sim_history.h"
#include "parse_helpers.h"
#include "same_stats.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "par.h"

static history *simulate_shape(sim_level level, sim_fault fault, uint32_t sessions, uint32_t txns, uint64_t keys, uint64_t seed) {
    return sim_history(level, fault, (sim_shape){ sessions, txns, 6, keys }, seed);
}

static history *simulate(sim_level level, sim_fault fault, uint32_t sessions, uint64_t keys, uint64_t seed) {
    return simulate_shape(level, fault, sessions, 12, keys, seed);
}

/* The index of h, or 0 (h freed) when h breaks an axiom: the checker
 * would not get that far. */
static int index_if_clean(history *h, pg_index *ix) {
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t found = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    if (found) { history_free(h); return 0; }
    ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(ix, h, &err));
    return 1;
}

static void assert_same_deps(const dep_edge_vec *a, const dep_edge_vec *b) {
    assert_int_equal(a->len, b->len);
    for (size_t i = 0; i < a->len; i++) {
        assert_int_equal(a->data[i].from, b->data[i].from);
        assert_int_equal(a->data[i].to, b->data[i].to);
        assert_int_equal(a->data[i].key, b->data[i].key);
        assert_int_equal(a->data[i].kind, b->data[i].kind);
    }
}

/* Every knob of the table's layout back to its default (each test that
 * turns some sets them all at each step, and resets them when done). */
static void reach_knobs_default(void) {
    pg_reach_mode = PG_REACH_AUTO;
    pg_reach_half_mode = PG_REACH_HALF_AUTO;
    pg_reach_narrow_mode = PG_REACH_NARROW_AUTO;
    pg_reach_narrow_max = 0xFE;
    pg_reach_delta_max = 0xFFFE;
    pg_reach_frame_near = 0;
    pg_reach_frame_shift = 0;
    pg_chain_limit = 0;
    pg_reach_skip = 1;
}

static void assert_same_result(const check_result *a, const check_result *b) {
    assert_same_verdict_and_counts(a, b);
    assert_int_equal(a->vo.num_keys, b->vo.num_keys);
    if (a->vo.start) {
        assert_memory_equal(a->vo.start, b->vo.start, ((size_t)a->vo.num_keys + 1) * sizeof *a->vo.start);
        assert_int_equal(a->vo.txns.len, b->vo.txns.len);
        if (a->vo.txns.len) assert_memory_equal(a->vo.txns.data, b->vo.txns.data, a->vo.txns.len * sizeof *a->vo.txns.data);
    }
    assert_same_deps(&a->cycle, &b->cycle);
    assert_same_deps(&a->forced, &b->forced);
    assert_int_equal(a->st.solver_called, b->st.solver_called);
}

typedef struct tally { int pass, fail, solved, pruned, scanned_fail; } tally;

/* Both levels at once on one shared pool, as run_check checks them. */
typedef struct levels_job { const pg_index *ix; par_pool *pool; check_result res[2]; } levels_job;
static void level_task(void *ctx, size_t i) {
    levels_job *j = ctx;
    check_options opt;
    check_options_default(&opt);
    opt.pool = j->pool;
    opt.priority = i ? 1 : 2;                    /* as run_check: SI first */
    check_level(j->ix, i ? LEVEL_SER : LEVEL_SI, &opt, &j->res[i]);
}

/* Check h at both levels with 1, 2 and 3 threads, one level at a time and
 * both at once on one pool; all must agree.  (Both levels at once run once
 * a pool size, each level's result compared: until stop 52 they ran once
 * a level and a pool size, comparing only that level's.) */
static void compare_threads(history *h, int expect_pass_level, tally *tl) {
    pg_index ix;
    if (!index_if_clean(h, &ix)) return;
    check_result one[2];
    for (int l = 0; l < 2; l++) {
        check_options opt;
        check_options_default(&opt);
        opt.threads = 1;
        verdict v = check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &one[l]);
        assert_int_not_equal(v, VERDICT_UNKNOWN);
        if (l == expect_pass_level) assert_int_equal(v, VERDICT_PASS);
        if (v == VERDICT_PASS) tl->pass++; else tl->fail++;
        if (v == VERDICT_FAIL && one[l].stage && !strcmp(one[l].stage, "pruning") && one[l].st.prune_rounds == 0)
            tl->scanned_fail++;
        tl->solved += one[l].st.solver_called;
        tl->pruned += one[l].st.cons_pruned > 0;
        for (unsigned th = 2; th <= 3; th++) {
            opt.threads = th;
            check_result many;
            check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &many);
            assert_same_result(&one[l], &many);
            check_result_free(&many);
        }
    }
    for (unsigned th = 2; th <= 3; th++) {
        levels_job j = { &ix, par_pool_new(th), { { 0 } } };
        par_pool_run(j.pool, 2, level_task, &j);
        for (int l = 0; l < 2; l++) assert_same_result(&one[l], &j.res[l]);
        check_result_free(&j.res[0]); check_result_free(&j.res[1]);
        par_pool_free(j.pool);
    }
    check_result_free(&one[0]); check_result_free(&one[1]);
    pg_index_free(&ix);
    history_free(h);
}

static void simulated_histories_same_for_every_thread_count(void **state) {
    (void)state;
    pg_par_min_work = 0;
    tally tl; memset(&tl, 0, sizeof tl);
    for (uint64_t seed = 1; seed <= 8; seed++)
        for (int f = 0; f < FAULT_COUNT; f++) {
            sim_level lv = seed % 2 ? SIM_SI : SIM_SER;
            history *h = simulate(lv, (sim_fault)f, 40, 30 + 10 * seed, seed);
            /* a correct execution passes its own level (SI: level 0, SER: 1) */
            compare_threads(h, f == FAULT_NONE ? (lv == SIM_SI ? 0 : 1) : -1, &tl);
        }
    fprintf(stderr, "threads: %d pass, %d fail (%d at the scan), %d solver calls, %d with pruning\n",
            tl.pass, tl.fail, tl.scanned_fail, tl.solved, tl.pruned);
    pg_par_min_work = 1u << 15;
    assert_true(tl.pass > 10 && tl.fail > 10);
    assert_true(tl.solved > 5 && tl.pruned > 5);
}

/* Fewer chains than sessions: the untracked sessions' pairs are tested one
 * by one, and the reachability table is narrow. */
static void few_chains_same_for_every_thread_count(void **state) {
    (void)state;
    pg_par_min_work = 0;
    pg_chain_limit = 3;
    tally tl; memset(&tl, 0, sizeof tl);
    for (uint64_t seed = 11; seed <= 14; seed++)
        for (int f = 0; f < FAULT_COUNT; f++)
            compare_threads(simulate(SIM_SI, (sim_fault)f, 12, 40, seed), f == FAULT_NONE ? 0 : -1, &tl);
    pg_chain_limit = 0;
    pg_par_min_work = 1u << 15;
    assert_true(tl.pass > 5 && tl.fail > 5);
}

/* Renewing the reachability table incrementally after each pruning round
 * gives the same table as recomputing it: the same results throughout. */
static void incremental_reach_same_as_full(void **state) {
    (void)state;
    int pruned = 0, checked = 0;
    for (uint64_t seed = 21; seed <= 30; seed++)
        for (int f = 0; f <= FAULT_CAUSALITY; f++) {
            history *h = simulate(seed % 2 ? SIM_SI : SIM_SER, (sim_fault)f, 10, 25, seed);
            pg_index ix;
            ic_error err; ic_error_clear(&err);
            assert_true(pg_index_build(&ix, h, &err));
            for (int l = 0; l < 2; l++) {
                check_result full, incr;
                pg_reach_mode = PG_REACH_FULL;
                check_level(&ix, l ? LEVEL_SER : LEVEL_SI, NULL, &full);
                pg_reach_mode = PG_REACH_INCREMENTAL;
                check_level(&ix, l ? LEVEL_SER : LEVEL_SI, NULL, &incr);
                pg_reach_mode = PG_REACH_AUTO;
                assert_same_result(&full, &incr);
                pruned += full.st.prune_rounds > 1;
                checked++;
                check_result_free(&full); check_result_free(&incr);
            }
            pg_index_free(&ix);
            history_free(h);
        }
    fprintf(stderr, "incremental reach: %d checks, %d with more than one pruning round\n", checked, pruned);
    assert_true(pruned > 10);
}

/* Rows for the split graph's commit nodes only (a start node's entries
 * gathered from its arcs) give the same results as the full table, built
 * from scratch or renewed after each pruning round, on one thread or
 * split by columns. */
static void half_reach_same_as_full(void **state) {
    (void)state;
    int checked = 0, pruned = 0;
    for (uint64_t seed = 41; seed <= 48; seed++)
        for (int f = 0; f <= FAULT_CAUSALITY; f++) {
            history *h = simulate(seed % 2 ? SIM_SI : SIM_SER, (sim_fault)f, 10, 25, seed);
            pg_index ix;
            ic_error err; ic_error_clear(&err);
            assert_true(pg_index_build(&ix, h, &err));
            for (int m = 0; m < 2; m++) {
                check_options opt;
                check_options_default(&opt);
                opt.threads = 1 + (unsigned)m;
                pg_par_min_work = m ? 0 : 1u << 15;
                pg_reach_mode = m ? PG_REACH_INCREMENTAL : PG_REACH_FULL;
                check_result full, half;
                pg_reach_half_mode = PG_REACH_HALF_NEVER;
                check_level(&ix, LEVEL_SI, &opt, &full);
                pg_reach_half_mode = PG_REACH_HALF_ALWAYS;
                check_level(&ix, LEVEL_SI, &opt, &half);
                pg_reach_half_mode = PG_REACH_HALF_AUTO;
                assert_same_result(&full, &half);
                pruned += full.st.prune_rounds > 1;
                checked++;
                check_result_free(&full); check_result_free(&half);
            }
            pg_reach_mode = PG_REACH_AUTO;
            pg_par_min_work = 1u << 15;
            pg_index_free(&ix);
            history_free(h);
        }
    fprintf(stderr, "half reach: %d checks, %d with more than one pruning round\n", checked, pruned);
    assert_true(pruned > 10);
}

/* 16-bit offsets too small to hold every fact (pg_reach_delta_max
 * lowered): the lost facts cost pruning only.  Every verdict equals the
 * exact table's, and the result is still the same for every thread count. */
static void lossy_reach_same_verdicts(void **state) {
    (void)state;
    pg_par_min_work = 0;
    int checks = 0, lost = 0, fails = 0;
    for (uint64_t seed = 31; seed <= 36; seed++)
        for (int f = 0; f < FAULT_COUNT; f++) {
            history *h = simulate(seed % 2 ? SIM_SI : SIM_SER, (sim_fault)f, 40, 60, seed);
            pg_index ix;
            if (!index_if_clean(h, &ix)) continue;
            for (int l = 0; l < 2; l++) {
                check_options opt;
                check_options_default(&opt);
                opt.threads = 1;
                check_result exact, one, half;
                check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &exact);
                pg_reach_delta_max = 3;
                check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &one);
                assert_int_equal(exact.verdict, one.verdict);
                pg_reach_half_mode = PG_REACH_HALF_ALWAYS;     /* loses facts in other places */
                check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &half);
                pg_reach_half_mode = PG_REACH_HALF_AUTO;
                assert_int_equal(exact.verdict, half.verdict);
                check_result_free(&half);
                lost += one.st.cons_initial > exact.st.cons_initial;
                fails += one.verdict == VERDICT_FAIL;
                checks++;
                for (unsigned th = 2; th <= 3; th++) {
                    opt.threads = th;
                    check_result many;
                    check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &many);
                    assert_same_result(&one, &many);
                    check_result_free(&many);
                }
                pg_reach_delta_max = 0xFFFE;
                check_result_free(&exact); check_result_free(&one);
            }
            pg_index_free(&ix);
            history_free(h);
        }
    pg_par_min_work = 1u << 15;
    fprintf(stderr, "lossy reach: %d checks, %d with more constraints than exact, %d fail\n", checks, lost, fails);
    assert_true(lost > 5 && fails > 5 && checks - fails > 5);
}

/* Every node pair of g's known graph: pg_reaches against a search.  exact:
 * they agree; else only "the table says so -> truly reachable".  Returns
 * how many true facts the table lacks. */
static uint64_t table_vs_search(const polygraph *g, int exact) {
    uint32_t N = g->num_nodes, T = g->ix->h->num_txns;
    vec_u32 *out = calloc(N, sizeof *out);
    vec_foreach(const pg_edge, e, g->known) vec_push(out[e->from], e->to);
    if (g->split)
        for (uint32_t t = 0; t < T; t++) if (g->ix->in_graph[t]) vec_push(out[pg_node_tp(g, t)], pg_node_t(g, t));
    uint8_t *seen = malloc(N);
    uint32_t *stack = malloc(N * sizeof *stack);
    uint64_t lacked = 0;
    for (uint32_t u = 0; u < N; u++) {
        if (!g->ix->in_graph[pg_node_txn(g, u)]) continue;
        memset(seen, 0, N);
        uint32_t sp = 0;
        stack[sp++] = u; seen[u] = 1;
        while (sp) {
            uint32_t x = stack[--sp];
            vec_foreach(const uint32_t, y, out[x]) if (!seen[*y]) { seen[*y] = 1; stack[sp++] = *y; }
        }
        for (uint32_t v = 0; v < N; v++) {
            /* the chains are paths through participants only (aborted
             * transactions have positions but no edges) */
            if (pg_node_chain(g, v) == HISTORY_NONE || !g->ix->in_graph[pg_node_txn(g, v)]) continue;
            int says = pg_reaches(g, u, v);
            if (says) assert_true(seen[v]);                /* never a false fact */
            if (exact) assert_int_equal(says, seen[v]);
            lacked += seen[v] && !says;
        }
    }
    for (uint32_t u = 0; u < N; u++) vec_free(out[u]);
    free(out); free(seen); free(stack);
    return lacked;
}

/* The 16-bit table itself: exact while offsets fit, and with offsets of at
 * most 3 every fact it keeps is true (some are lost). */
static void reach_table_matches_search(void **state) {
    (void)state;
    uint64_t lost = 0;
    int tables = 0;
    for (uint64_t seed = 41; seed <= 44; seed++) {
        history *h = simulate(SIM_SI, FAULT_NONE, 6, 30, seed);
        pg_index ix;
        ic_error err; ic_error_clear(&err);
        assert_true(pg_index_build(&ix, h, &err));
        for (int split = 0; split < 2; split++)
            for (int lossy = 0; lossy < 2; lossy++) {
                polygraph g;
                pg_init(&g, &ix, split);
                pg_reach_delta_max = lossy ? 3 : 0xFFFE;
                /* builds the table and adds the scan's edges; renewed after
                 * them unless they close a cycle (the level fails) */
                if (pg_build_constraints(&g) && pg_reach(&g)) {
                    uint64_t l = table_vs_search(&g, !lossy);
                    if (lossy) lost += l;
                    tables++;
                }
                pg_reach_delta_max = 0xFFFE;
                pg_free(&g);
            }
        pg_index_free(&ix);
        history_free(h);
    }
    fprintf(stderr, "reach table: %d tables checked against search, %llu facts lost with 2-bit offsets\n",
            tables, (unsigned long long)lost);
    assert_true(tables >= 8 && lost > 0);
}

/* Two polygraphs' tables row for row, as positions (both valid, same
 * shape; the layouts may differ, and which rows are wide, and where, by
 * the build's schedule, and the frames: a renewal keeps the last full
 * table's). */
static void assert_same_table(const polygraph *a, const polygraph *b) {
    assert_int_equal(a->reach_valid, b->reach_valid);
    if (!a->reach_valid) return;
    assert_int_equal(a->reach_half, b->reach_half);
    assert_int_equal(a->num_chains, b->num_chains);
    uint32_t rows = a->reach_half ? a->num_nodes / 2 : a->num_nodes, S = a->num_chains;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < S; c++)
            assert_int_equal(pg_reach_row_at(a, a->reach + (size_t)r * a->reach_stride, c),
                             pg_reach_row_at(b, b->reach + (size_t)r * b->reach_stride, c));
}

/* The narrow layout (a byte an entry, polygraph.h) against heads only
 * (pg_reach_narrow_mode never: every row wide) and half-narrow rows (max
 * 1: rows move between the layouts as the incremental renewal lowers
 * their bases): the same table
 * in 16-bit form, exact against a search of the known graph, through the
 * first table, the scan and a renewal (incremental and full), on SER, the
 * split graph and its half table. */
static void narrow_rows_same_table(void **state) {
    (void)state;
    uint64_t wide_default = 0, wide_low = 0, narrow_low = 0;
    int tables = 0;
    for (uint64_t seed = 61; seed <= 63; seed++) {
        history *h = simulate_shape(SIM_SI, FAULT_NONE, 3, 150, 2000, seed);
        pg_index ix;
        ic_error err; ic_error_clear(&err);
        assert_true(pg_index_build(&ix, h, &err));
        for (int mode = 0; mode < 3; mode++) {          /* SER, SI whole, SI half */
            pg_reach_half_mode = mode == 2 ? PG_REACH_HALF_ALWAYS : PG_REACH_HALF_NEVER;
            polygraph g[3];
            static const uint32_t narrow_max[3] = { 0xFE, 0xFE, 1 };
            int ok[3];
            for (int i = 0; i < 3; i++) {                /* narrow, heads only (every row wide), max 1 */
                pg_reach_narrow_max = narrow_max[i];
                pg_reach_narrow_mode = i == 1 ? PG_REACH_NARROW_NEVER : PG_REACH_NARROW_ALWAYS;
                pg_init(&g[i], &ix, mode != 0);
                ok[i] = pg_build_constraints(&g[i]);
            }
            pg_reach_narrow_mode = PG_REACH_NARROW_AUTO;
            assert_int_equal(ok[0], ok[1]); assert_int_equal(ok[0], ok[2]);
            assert_same_table(&g[0], &g[1]); assert_same_table(&g[0], &g[2]);
            uint32_t rows = g[0].reach_half ? g[0].num_nodes / 2 : g[0].num_nodes;
            wide_default += atomic_load(&g[0].reach_wide_len);
            wide_low += atomic_load(&g[2].reach_wide_len);
            narrow_low += rows - atomic_load(&g[2].reach_wide_len);
            assert_int_equal(g[1].reach_stride, 4);
            assert_int_equal(atomic_load(&g[1].reach_wide_len), rows);
            /* renewed after the scan's edges: incremental (max 1, rows
             * re-stored in place) against full (default) */
            pg_reach_mode = PG_REACH_INCREMENTAL;
            pg_reach_narrow_max = 1;
            int r2 = ok[0] && pg_reach(&g[2]);
            int r1 = ok[0] && pg_reach(&g[1]);
            assert_int_equal(r1, r2);
            if (r1) assert_same_table(&g[1], &g[2]);
            pg_reach_mode = PG_REACH_FULL;
            pg_reach_narrow_max = 0xFE;
            int r0 = ok[0] && pg_reach(&g[0]);
            pg_reach_mode = PG_REACH_AUTO;
            assert_int_equal(r0, r2);
            if (r0) {
                assert_same_table(&g[0], &g[2]);
                table_vs_search(&g[0], 1);
                table_vs_search(&g[2], 1);
                tables++;
            }
            for (int i = 0; i < 3; i++) pg_free(&g[i]);
        }
        pg_reach_half_mode = PG_REACH_HALF_AUTO;
        pg_index_free(&ix);
        history_free(h);
    }
    fprintf(stderr, "narrow rows: %d renewed tables, %llu rows wide by themselves, %llu wide and %llu narrow at max 1\n",
            tables, (unsigned long long)wide_default, (unsigned long long)wide_low, (unsigned long long)narrow_low);
    assert_true(tables >= 6 && wide_low > 0 && narrow_low > 0);   /* rows wide by themselves: test_polygraph's reach_wide_rows_exact */
}

/* Sessions drifting far apart (doc/checker.md, "Narrow rows"): session 1
 * runs three times as fast as session 2, 2's transaction i reads 1's
 * 3 i and 1's 3 i + 30 reads 2's i, so a row spans positions hundreds
 * apart (more than a byte from any one base) while what it reaches lies
 * a few positions past where each session stood at its frame.  The rows
 * stay narrow; the table is exact against a search and the same as with
 * every row wide, the narrow byte lowered to 1, frames of two nodes and
 * of 4,096, and far frames merged by the 32-bit path; then edges against the
 * old order (1's 3 i + 29 -> 2's i: unordered before, often placed the
 * other way) are added and renewed incrementally (rows move to earlier
 * frames, frame_below) and in full. */
#define DRIFT_A 1200
static void drifting_sessions_rows_exact(void **state) {
    (void)state;
    size_t cap = 1 << 17, n = 0;
    char *buf = malloc(cap);
    for (int j = 0; j < DRIFT_A; j++) {
        n += (size_t)snprintf(buf + n, cap - n, "w(%d,1,1,%d)\n", 10000 + j, 1 + j);
        if (j >= 30 && (j - 30) % 3 == 0) n += (size_t)snprintf(buf + n, cap - n, "r(%d,1,1,%d)\n", 20000 + (j - 30) / 3, 1 + j);
        if (j % 3 == 0)
            n += (size_t)snprintf(buf + n, cap - n, "r(%d,1,2,%d)\nw(%d,1,2,%d)\n", 10000 + j, 100000 + j / 3, 20000 + j / 3,
                                  100000 + j / 3);
    }
    history *h = load_text(buf);
    free(buf);
    pg_index ix;
    ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    uint32_t ta[DRIFT_A], tb[DRIFT_A / 3];
    for (uint32_t t = 1; t < h->num_txns; t++) {
        int64_t e = h->txns[t].ext_id;
        if (e < 100000) ta[e - 1] = t; else tb[e - 100000] = t;
    }
    enum { K = 6 };
    uint64_t reframed = 0;
    for (int mode = 0; mode < 3; mode++) {              /* SER, SI whole, SI half */
        pg_reach_half_mode = mode == 2 ? PG_REACH_HALF_ALWAYS : PG_REACH_HALF_NEVER;
        polygraph g[K];
        for (int i = 0; i < K; i++) {   /* default, heads only, max 1, frames of 2 nodes, of 4096, 32-bit merges */
            pg_reach_narrow_max = i == 2 ? 1 : 0xFE;
            pg_reach_narrow_mode = i == 1 ? PG_REACH_NARROW_NEVER : PG_REACH_NARROW_ALWAYS;
            pg_reach_frame_shift = i == 3 ? 1 : i == 4 ? 12 : 0;
            pg_reach_frame_near = i == 5 ? 1 : 0;
            pg_init(&g[i], &ix, mode != 0);
            assert_true(pg_reach(&g[i]));
            if (i) assert_same_table(&g[0], &g[i]);
        }
        uint32_t S = g[0].num_chains, spread = 0;
        assert_int_equal(S, 2);
        assert_int_equal(atomic_load(&g[0].reach_wide_len), 0);             /* narrow however far apart */
        for (uint32_t u = 0; u < g[0].num_nodes; u++) {
            uint32_t p0 = pg_reach_at(&g[0], u, 0), p1 = pg_reach_at(&g[0], u, 1);
            if (p0 != UINT32_MAX && p1 != UINT32_MAX) spread = p0 > p1 + spread ? p0 - p1 : p1 > p0 + spread ? p1 - p0 : spread;
        }
        assert_true(spread >> (mode != 0) > 600);                            /* no one base would do */
        table_vs_search(&g[0], 1);
        for (uint32_t i = 1; 3 * i + 29 < DRIFT_A; i += 7)
            for (int x = 0; x < K; x++) {
                pg_edge e = { pg_node_t(&g[x], ta[3 * i + 29]), mode ? pg_node_tp(&g[x], tb[i]) : pg_node_t(&g[x], tb[i]),
                              (20000u + i) << 3 | DEP_WR };
                vec_push(g[x].known, e);
            }
        for (int i = 0; i < K; i++) {
            pg_reach_mode = i == 0 ? PG_REACH_FULL : PG_REACH_INCREMENTAL;
            pg_reach_narrow_max = i == 2 ? 1 : 0xFE;
            pg_reach_frame_near = i == 5 ? 1 : 0;
            uint32_t rows = g[i].reach_half ? g[i].num_nodes / 2 : g[i].num_nodes;
            uint32_t *fr = malloc(rows * sizeof *fr);
            for (uint32_t r = 0; r < rows; r++) fr[r] = pg_reach_row_frame(&g[i], g[i].reach + (size_t)r * g[i].reach_stride);
            assert_true(pg_reach(&g[i]));
            for (uint32_t r = 0; r < rows; r++)
                reframed += i == 3 && pg_reach_row_frame(&g[i], g[i].reach + (size_t)r * g[i].reach_stride) < fr[r];
            free(fr);
            if (i) assert_same_table(&g[0], &g[i]);
        }
        table_vs_search(&g[3], 1);
        for (int i = 0; i < K; i++) pg_free(&g[i]);
    }
    reach_knobs_default();
    fprintf(stderr, "drifting sessions: %llu rows moved to earlier frames by the renewals\n", (unsigned long long)reframed);
    assert_true(reframed > 0);
    pg_index_free(&ix);
    history_free(h);
}

/* The table built by bands on 2 and 3 threads (par_min_work 0: even tiny
 * tables, a row or a few per chunk, so threads often wait for each other's
 * rows) is the serial pass's byte for byte: the first table, and each
 * full renewal after a pruning round; whole tables and half tables, many
 * chains and few; histories with faults too (their known graph may have a
 * cycle, then no table is compared). */
static void banded_table_same_as_serial(void **state) {
    (void)state;
    int compared = 0;
    pg_reach_mode = PG_REACH_FULL;
    for (uint64_t seed = 51; seed <= 58; seed++)
        for (int f = 0; f < FAULT_COUNT; f++) {
            history *h = simulate(seed % 2 ? SIM_SI : SIM_SER, (sim_fault)f, seed % 3 ? 40 : 8, 30 + 5 * seed, seed);
            pg_index ix;
            ic_error err; ic_error_clear(&err);
            if (!pg_index_build(&ix, h, &err)) { history_free(h); continue; }
            for (int mode = 0; mode < 6; mode++) {          /* SER, SI, SI half, SI with 3 chains; SER with heads
                                                               only and SI half with many wide rows (made by every
                                                               thread at once) */
                pg_reach_half_mode = mode == 2 || mode == 5 ? PG_REACH_HALF_ALWAYS : PG_REACH_HALF_NEVER;
                pg_chain_limit = mode == 3 ? 3 : 0;
                pg_reach_narrow_max = mode == 5 ? 1 : 0xFE;
                pg_reach_narrow_mode = mode == 4 ? PG_REACH_NARROW_NEVER : PG_REACH_NARROW_AUTO;
                for (unsigned th = 2; th <= 3; th++) {
                    polygraph one, many;
                    pg_init(&one, &ix, mode != 0 && mode != 4);
                    pg_init(&many, &ix, mode != 0 && mode != 4);
                    one.reach_keep = many.reach_keep = 1;   /* compared after each pg_prune */
                    par_pool *pool = par_pool_new(th);
                    many.pool = pool;
                    many.threads = par_pool_threads(pool);
                    pg_par_min_work = 0;
                    int ok1 = pg_build_constraints(&one), okn = pg_build_constraints(&many);
                    assert_int_equal(ok1, okn);
                    assert_same_table(&one, &many);
                    compared += one.reach_valid;
                    for (int r = 0; ok1 && r < 3 && one.cons.len; r++) {   /* renewals */
                        ok1 = pg_prune(&one, (int)one.prune_rounds + 1);
                        okn = pg_prune(&many, (int)many.prune_rounds + 1);
                        assert_int_equal(ok1, okn);
                        assert_int_equal(one.cons.len, many.cons.len);
                        assert_same_table(&one, &many);
                        compared += one.reach_valid;
                    }
                    pg_par_min_work = 1u << 15;
                    pg_free(&one); pg_free(&many);
                    par_pool_free(pool);
                }
            }
            pg_index_free(&ix);
            history_free(h);
        }
    reach_knobs_default();
    fprintf(stderr, "banded table: %d tables compared with the serial pass\n", compared);
    assert_true(compared > 200);
}

/* Successors skipped by the full build (reach.c, row_build: those a row
 * already reaches through the exact rows merged before it) against
 * merging every one (pg_reach_skip 0, one thread): the same table, on 1,
 * 2 and 4 threads, through the first table and each full renewal after a
 * pruning round; SER, the split graph and its half table; with every
 * fact kept, with facts lost (offsets of at most 20: a row merges every
 * successor after a lossy one), with far frames merged by the
 * 32-bit path and with every row wide.  Exact tables are checked against
 * a search too, and the topological order against one thread's. */
static void skipped_successors_same_table(void **state) {
    (void)state;
    int compared = 0;
    uint64_t skipped_exact = 0, skipped_lossy = 0, lost = 0;
    pg_reach_mode = PG_REACH_FULL;
    for (uint64_t seed = 71; seed <= 76; seed++)
        for (int f = 0; f < FAULT_COUNT; f += 2) {
            history *h = simulate(seed % 2 ? SIM_SI : SIM_SER, (sim_fault)f, seed % 3 ? 30 : 6, 40 + 5 * seed, seed);
            pg_index ix;
            ic_error err; ic_error_clear(&err);
            if (!pg_index_build(&ix, h, &err)) { history_free(h); continue; }
            for (int mode = 0; mode < 3; mode++)          /* SER, SI whole, SI half */
                for (int v = 0; v < 4; v++) {             /* exact, lossy, 32-bit merges, every row wide */
                    pg_reach_half_mode = mode == 2 ? PG_REACH_HALF_ALWAYS : PG_REACH_HALF_NEVER;
                    pg_reach_delta_max = v == 1 ? 20 : 0xFFFE;
                    pg_reach_frame_near = v == 2 ? 1 : 0;
                    pg_reach_frame_shift = v == 2 ? 2 : 0;
                    pg_reach_narrow_mode = v == 3 ? PG_REACH_NARROW_NEVER : PG_REACH_NARROW_AUTO;
                    for (unsigned th = 1; th <= 4; th *= 2) {
                        polygraph all, some;
                        pg_init(&all, &ix, mode != 0);
                        pg_init(&some, &ix, mode != 0);
                        all.reach_keep = some.reach_keep = 1;   /* compared after each pg_prune */
                        par_pool *pool = th > 1 ? par_pool_new(th) : NULL;
                        some.pool = pool;
                        some.threads = th > 1 ? par_pool_threads(pool) : 1;
                        pg_par_min_work = 0;
                        uint64_t before = atomic_load(&pg_reach_skipped);
                        pg_reach_skip = 0;
                        int ok1 = pg_build_constraints(&all);
                        pg_reach_skip = 1;
                        int ok2 = pg_build_constraints(&some);
                        assert_int_equal(ok1, ok2);
                        assert_same_table(&all, &some);
                        assert_memory_equal(all.topo_pos, some.topo_pos, all.num_nodes * sizeof *all.topo_pos);
                        compared += all.reach_valid;
                        for (int r = 0; ok1 && r < 2 && all.cons.len; r++) {   /* full renewals */
                            pg_reach_skip = 0;
                            ok1 = pg_prune(&all, (int)all.prune_rounds + 1);
                            pg_reach_skip = 1;
                            ok2 = pg_prune(&some, (int)some.prune_rounds + 1);
                            assert_int_equal(ok1, ok2);
                            assert_int_equal(all.cons.len, some.cons.len);
                            assert_same_table(&all, &some);
                            assert_memory_equal(all.topo_pos, some.topo_pos, all.num_nodes * sizeof *all.topo_pos);
                            compared += all.reach_valid;
                        }
                        if (ok1) {                                   /* renewed after the last edges */
                            pg_reach_skip = 0;
                            ok1 = pg_reach(&all);
                            pg_reach_skip = 1;
                            assert_int_equal(ok1, pg_reach(&some));
                            if (ok1) {
                                assert_same_table(&all, &some);
                                lost += table_vs_search(&some, v != 1);
                                compared++;
                            }
                        }
                        uint64_t sk = atomic_load(&pg_reach_skipped) - before;
                        if (v == 1) skipped_lossy += sk; else skipped_exact += sk;
                        pg_par_min_work = 1u << 15;
                        pg_free(&all); pg_free(&some);
                        if (pool) par_pool_free(pool);
                    }
                }
            pg_index_free(&ix);
            history_free(h);
        }
    reach_knobs_default();
    fprintf(stderr, "skipped successors: %d tables compared with merging every successor, %llu skipped, %llu of them "
            "in tables with offsets of at most 20 (%llu facts lost)\n", compared,
            (unsigned long long)(skipped_exact + skipped_lossy), (unsigned long long)skipped_lossy, (unsigned long long)lost);
    assert_true(compared > 200 && skipped_exact > 1000 && skipped_lossy > 100 && lost > 0);
}

/* Pruning stopped by the expected yield of the next round (the rule on
 * every table, pg_prune_stop ALWAYS) against pruning to the fixpoint: the
 * same verdict (each model and cycle checked by the re-check in debug
 * builds), never more rounds nor fewer constraints left, and the same for
 * every thread count. */
static void pruning_stopped_early_same_verdicts(void **state) {
    (void)state;
    int checks = 0, stopped = 0, solved = 0;
    for (uint64_t seed = 61; seed <= 68; seed++)
        for (int f = 0; f < FAULT_COUNT; f++) {
            history *h = simulate(seed % 2 ? SIM_SI : SIM_SER, (sim_fault)f, 40, 40 + 5 * seed, seed);
            pg_index ix;
            if (!index_if_clean(h, &ix)) continue;
            for (int l = 0; l < 2; l++) {
                check_options opt;
                check_options_default(&opt);
                opt.threads = 1;
                check_result fix, early;
                pg_prune_stop = PG_PRUNE_STOP_NEVER;
                check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &fix);
                pg_prune_stop = PG_PRUNE_STOP_ALWAYS;
                check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &early);
                assert_int_equal(fix.verdict, early.verdict);
                assert_int_not_equal(early.verdict, VERDICT_UNKNOWN);
                assert_true(early.st.prune_rounds <= fix.st.prune_rounds);
                if (fix.stage && !strcmp(fix.stage, "solver")) assert_true(early.st.cons_final >= fix.st.cons_final);
                stopped += early.st.prune_rounds < fix.st.prune_rounds;
                solved += early.st.solver_called && !fix.st.solver_called;
                checks++;
                pg_par_min_work = 0;
                for (unsigned th = 2; th <= 3; th++) {
                    opt.threads = th;
                    check_result many;
                    check_level(&ix, l ? LEVEL_SER : LEVEL_SI, &opt, &many);
                    assert_same_result(&early, &many);
                    check_result_free(&many);
                }
                pg_par_min_work = 1u << 15;
                pg_prune_stop = PG_PRUNE_STOP_AUTO;
                check_result_free(&fix); check_result_free(&early);
            }
            pg_index_free(&ix);
            history_free(h);
        }
    fprintf(stderr, "pruning stopped early: %d checks, %d with fewer rounds, %d left to the solver only then\n",
            checks, stopped, solved);
    assert_true(stopped > 10);
}

/* One pruning round (prune.c: its tasks ask the cache for rows ahead)
 * against the plain loop over the constraints on a twin polygraph with
 * the same renewed table: the same kept constraints in the same order,
 * the same new known edges in the same order, the same count decided;
 * or, where a pair has both sides blocked, a failure in pruning.  On
 * simulated histories with few keys (hundreds of constraints: the hints
 * run), SER's graph and SI's. */
static void pruning_round_same_as_plain_loop(void **state) {
    (void)state;
    int compared = 0, failed = 0;
    size_t decided_total = 0;
    for (uint64_t seed = 1; seed <= 6; seed++)
        for (int f = 0; f <= FAULT_CAUSALITY; f++) {
            history *h = sim_clean(sim_history(seed % 2 ? SIM_SI : SIM_SER, (sim_fault)f, (sim_shape){ 12, 30, 6, 24 }, seed));
            if (!h) continue;
            pg_index ix; ic_error err; ic_error_clear(&err);
            assert_true(pg_index_build(&ix, h, &err));
            for (int split = 0; split < 2; split++) {
                polygraph a, b;
                pg_init(&a, &ix, split);
                pg_init(&b, &ix, split);
                int built = pg_build_constraints(&a);
                assert_int_equal(pg_build_constraints(&b), built);
                if (!built || !b.cons.len || !pg_reach(&b)) { pg_free(&a); pg_free(&b); continue; }
                size_t known0 = b.known.len, decided = 0;
                int both = 0;
                pg_cons_vec keep; vec_init(keep);
                pg_edge_vec edges; vec_init(edges);
                dep_edge_vec scratch; vec_init(scratch);
                for (size_t i = 0; i < b.cons.len && !both; i++) {
                    pg_cons c = b.cons.data[i];
                    int buv = pg_side_blocked(&b, c.u, c.v), bvu = pg_side_blocked(&b, c.v, c.u);
                    if (buv && bvu) both = 1;
                    else if (!buv && !bvu) vec_push(keep, c);
                    else {
                        decided++;
                        if (bvu) pg_side_edges(&b, c.u, c.v, &scratch, &edges);
                        else pg_side_edges(&b, c.v, c.u, &scratch, &edges);
                    }
                }
                int ok = pg_prune(&a, 1);
                if (both) {
                    assert_false(ok);
                    assert_string_equal(a.fail_stage, "pruning");
                    assert_non_null(strstr(a.fail_reason, "both orders of two writers close a cycle"));
                    failed++;
                } else {
                    assert_int_equal(a.prune_rounds, 1);
                    assert_int_equal(a.cons_pruned, decided);
                    assert_int_equal(a.cons.len, keep.len);
                    for (size_t i = 0; i < keep.len; i++) {
                        assert_int_equal(a.cons.data[i].u, keep.data[i].u);
                        assert_int_equal(a.cons.data[i].v, keep.data[i].v);
                    }
                    assert_int_equal(a.known.len, known0 + edges.len);
                    assert_memory_equal(a.known.data + known0, edges.data, edges.len * sizeof *edges.data);
                    decided_total += decided;
                    compared += b.cons.len > 64;
                }
                vec_free(keep); vec_free(edges); vec_free(scratch);
                pg_free(&a); pg_free(&b);
            }
            pg_index_free(&ix);
            history_free(h);
        }
    fprintf(stderr, "pruning round: %d rounds of over 64 constraints compared, %zu decided, %d failed\n", compared,
            decided_total, failed);
    assert_true(compared >= 4);
    assert_true(decided_total > 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(simulated_histories_same_for_every_thread_count),
        cmocka_unit_test(few_chains_same_for_every_thread_count),
        cmocka_unit_test(incremental_reach_same_as_full),
        cmocka_unit_test(half_reach_same_as_full),
        cmocka_unit_test(lossy_reach_same_verdicts),
        cmocka_unit_test(reach_table_matches_search),
        cmocka_unit_test(banded_table_same_as_serial),
        cmocka_unit_test(narrow_rows_same_table),
        cmocka_unit_test(drifting_sessions_rows_exact),
        cmocka_unit_test(skipped_successors_same_table),
        cmocka_unit_test(pruning_stopped_early_same_verdicts),
        cmocka_unit_test(pruning_round_same_as_plain_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
