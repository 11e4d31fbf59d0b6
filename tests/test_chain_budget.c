/* test_chain_budget.c — the verdict of a level does not depend on how
 * many sessions the reachability table tracks (review of stop 43).
 *
 * big43 made the table's byte budget a knob (pg_reach_budget) and counts
 * it over the rows the table will have; cpu43 rewrote the writer-unit
 * scan (side_implied's untracked case, the windows found group by group,
 * a node's row read once when most chains are asked) and the narrow rows'
 * decode.  Histories from the workload simulator, with every fault, are
 * checked at SI and SER with the default budget on one thread (the
 * reference), then with budgets that leave 1 (the least: budget 1 and
 * the exact one), 2 and 5 sessions tracked (every other session's pairs tested one by one), with the full
 * split table (half mode never: two rows a transaction), with offsets too
 * small for most facts (pg_reach_delta_max), on 1 and 3 threads.  The
 * verdict must be the reference's every time; correct executions must
 * pass their own level; a debug build re-checks every model and cycle.
 * The tally asserts that both verdicts and the solver are exercised. */
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
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"

static history *simulate(sim_level level, sim_fault fault, uint32_t sessions, uint32_t txns, uint64_t keys,
                         uint64_t seed) {
    return sim_history(level, fault, (sim_shape){ sessions, txns, 5, keys }, seed);
}

typedef struct tally { int pass, fail, solved, variants, untracked; } tally;

/* A budget that leaves exactly `chains` columns over `rows` rows
 * (constraints.c: max_chains = budget / (2 (rows + 1)) - 2). */
static uint64_t budget_for(uint64_t rows, uint64_t chains) { return 2 * (rows + 1) * (chains + 2); }

static void check_variants(history *h, int expect_pass_level, tally *tl) {
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t found = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    if (found) { history_free(h); return; }
    pg_index ix;
    ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    uint64_t rows = ix.num_node_txns ? ix.num_node_txns : h->num_txns;
    const uint64_t saved_budget = pg_reach_budget;
    for (int l = 0; l < 2; l++) {
        check_level_id level = l ? LEVEL_SER : LEVEL_SI;
        check_options opt;
        check_options_default(&opt);
        opt.threads = 1;
        check_result ref;
        verdict v = check_level(&ix, level, &opt, &ref);
        assert_int_not_equal(v, VERDICT_UNKNOWN);
        if (l == expect_pass_level) assert_int_equal(v, VERDICT_PASS);
        if (v == VERDICT_PASS) tl->pass++; else tl->fail++;
        tl->solved += ref.st.solver_called;
        check_result_free(&ref);
        /* variants: chains tracked 1 (budget 1), 1, 2, 5; the full split table with
         * 1 chain; 2 chains with offsets of at most 3 */
        for (int var = 0; var < 6; var++) {
            uint64_t chains = var == 0 ? 0 : var == 1 ? 1 : var == 2 ? 2 : var == 3 ? 5 : var == 4 ? 1 : 2;
            pg_reach_budget = budget_for(var == 4 && !l ? 2 * rows : rows, chains);
            if (var == 0) pg_reach_budget = 1;
            pg_reach_half_mode = var == 4 ? PG_REACH_HALF_NEVER : PG_REACH_HALF_AUTO;
            pg_reach_delta_max = var == 5 ? 3 : 0xFFFE;
            for (unsigned th = 1; th <= 3; th += 2) {
                opt.threads = th;
                pg_par_min_work = th > 1 ? 0 : 1u << 15;
                check_result r;
                verdict w = check_level(&ix, level, &opt, &r);
                if (w != v)
                    fail_msg("level %s, variant %d (budget %llu), %u threads: %d, reference %d (%s)",
                             l ? "ser" : "si", var, (unsigned long long)pg_reach_budget, th, (int)w, (int)v, r.msg);
                tl->variants++;
                check_result_free(&r);
            }
            pg_par_min_work = 1u << 15;
        }
        pg_reach_budget = saved_budget;
        pg_reach_half_mode = PG_REACH_HALF_AUTO;
        pg_reach_delta_max = 0xFFFE;
        /* the knob does what big43 says: one chain (the least) at budget 1 */
        polygraph g;
        pg_reach_budget = 1;
        pg_init_level(&g, &ix, level);
        tl->untracked += g.num_chains == 1;
        pg_free(&g);
        pg_reach_budget = saved_budget;
    }
    pg_index_free(&ix);
    history_free(h);
}

static void verdicts_independent_of_the_chain_budget(void **state) {
    (void)state;
    tally tl; memset(&tl, 0, sizeof tl);
    for (uint64_t seed = 1; seed <= 6; seed++)
        for (int f = 0; f < FAULT_COUNT; f++) {
            sim_level lv = seed % 2 ? SIM_SI : SIM_SER;
            history *h = simulate(lv, (sim_fault)f, 6 + 3 * (uint32_t)seed, 8 + (uint32_t)seed, 15 + 10 * seed, seed);
            check_variants(h, f == FAULT_NONE ? (lv == SIM_SI ? 0 : 1) : -1, &tl);
        }
    fprintf(stderr, "budget: %d pass, %d fail, %d solver calls, %d variants, %d levels with 1 chain at budget 1\n",
            tl.pass, tl.fail, tl.solved, tl.variants, tl.untracked);
    assert_true(tl.pass > 5 && tl.fail > 5);
    assert_true(tl.solved > 2);
    assert_true(tl.untracked == tl.pass + tl.fail);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verdicts_independent_of_the_chain_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
