/* test_check_stop.c — check_options.stop (what `isocheck check` polls
 * after SIGINT/SIGTERM, programs/interrupt.h): the solver asks it after
 * each conflict; once it says stop, the level is UNKNOWN with "no verdict:
 * interrupted while solving level L".  Histories from the workload
 * simulator, checked without pruning so that the solver meets conflicts;
 * every check whose solve had one is checked again with a stop that says
 * yes from the first question, and must end UNKNOWN with that message;
 * a stop that never says yes changes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "workload/gen_writer.h"
#include "workload/workload.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"

static history *simulate(sim_fault fault, uint64_t keys, uint64_t seed) {
    workload_params p;
    workload_defaults(&p);
    p.sessions = 8; p.txns_per_session = 30; p.ops_per_txn = 6; p.keys = keys;
    p.level = SIM_SI; p.fault = fault; p.fault_rate = 0.05; p.seed = seed;
    ic_error err; ic_error_clear(&err);
    model_sink *m = model_sink_new("sim", p.sessions, 0);
    sim_sink sink = model_sink_sink(m);
    sim_truth t;
    assert_true(sim_run(&p, &sink, &t, NULL, NULL, &err));
    history *h = model_sink_finish(m, &err);
    if (!h) fail_msg("builder rejected the simulated history: %s", err.msg);
    return h;
}

typedef struct asked { int yes; unsigned long calls; } asked;

static int stop_fn(void *ctx) {
    asked *a = ctx;
    a->calls++;
    return a->yes;
}

static void test_stop_in_solver(void **state) {
    (void)state;
    int stopped = 0;
    for (uint64_t seed = 1; seed <= 40 && stopped < 3; seed++) {
        history *h = simulate(seed % 2 ? FAULT_NONE : FAULT_LOST_UPDATE, 20 + 10 * (seed % 4), seed);
        anomaly_list al;
        anomaly_list_init(&al);
        uint64_t broken = axioms_check(h, &al, 1);
        anomaly_list_free(&al);
        if (broken) { history_free(h); continue; }
        pg_index ix;
        ic_error err; ic_error_clear(&err);
        assert_true(pg_index_build(&ix, h, &err));
        for (int level = 0; level < 2; level++) {
            check_options o;
            check_options_default(&o);
            o.max_prune_rounds = 0;
            asked never = { 0, 0 };
            o.stop = stop_fn;
            o.stop_ctx = &never;
            check_result plain;
            verdict v = check_level(&ix, (check_level_id)level, &o, &plain);
            assert_int_not_equal(v, VERDICT_UNKNOWN);
            if (plain.st.solver_called && plain.st.solver.conflicts > 0) {
                assert_true(never.calls > 0);             /* asked after its conflicts */
                asked yes = { 1, 0 };
                o.stop_ctx = &yes;
                check_result res;
                assert_int_equal(check_level(&ix, (check_level_id)level, &o, &res), VERDICT_UNKNOWN);
                char want[128];
                snprintf(want, sizeof want, "no verdict: interrupted while solving level %s",
                         check_level_name((check_level_id)level));
                assert_string_equal(res.msg, want);
                assert_true(yes.calls >= 1);
                assert_int_equal(res.st.solver.conflicts, 1);   /* stopped at the first question */
                assert_true(plain.st.solver.conflicts >= 1);
                check_result_free(&res);
                stopped++;
            }
            check_result_free(&plain);
        }
        pg_index_free(&ix);
        history_free(h);
    }
    assert_true(stopped >= 1);                            /* the case above was met */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_in_solver),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
