/* sim_history.h — for tests: a history from the workload simulator.
 *
 * sim_history(level, fault, shape, seed) runs the simulator with the
 * workload defaults, the given shape (sessions, transactions a session,
 * ops a transaction, keys), the fault at rate 0.05 and the seed, into the
 * model builder (every transaction, aborted ones too), and returns the
 * history; the test fails if the simulator or the builder refuses it.
 * sim_clean(h): h when it has no read-axiom violation (the checker stops
 * before the index otherwise), else NULL, h freed.
 * Include after <cmocka.h>. */
#ifndef ISOCHECK_TESTS_SIM_HISTORY_H
#define ISOCHECK_TESTS_SIM_HISTORY_H

#include <stdint.h>

#include "workload/gen_writer.h"
#include "workload/workload.h"
#include "frontend/checking/axioms.h"

typedef struct { uint32_t sessions, txns, ops; uint64_t keys; } sim_shape;

static inline history *sim_history(sim_level level, sim_fault fault, sim_shape s, uint64_t seed) {
    workload_params p;
    workload_defaults(&p);
    p.sessions = s.sessions; p.txns_per_session = s.txns; p.ops_per_txn = s.ops; p.keys = s.keys;
    p.level = level; p.fault = fault; p.fault_rate = 0.05; p.seed = seed;
    ic_error err; ic_error_clear(&err);
    model_sink *m = model_sink_new("sim", p.sessions, 0);
    sim_sink sink = model_sink_sink(m);
    sim_truth t;
    assert_true(sim_run(&p, &sink, &t, NULL, NULL, &err));
    history *h = model_sink_finish(m, &err);
    if (!h) fail_msg("builder rejected the simulated history: %s", err.msg);
    return h;
}

static inline history *sim_clean(history *h) {
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t found = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    if (found) { history_free(h); return NULL; }
    return h;
}

#endif
