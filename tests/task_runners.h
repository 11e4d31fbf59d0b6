/* task_runners.h — two runners of a bulk pass's tasks for the engine tests
 * (theory/graph_sink.h's runner: run(ctx, ntasks, fn, fctx) calls
 * fn(fctx, i) for every i < ntasks and returns when all are done):
 * run_reversed runs them on the caller's thread last task first (an order
 * no pool would pick, so a task that reads another's output shows up);
 * run_threads runs them on two threads (par_run).  Both count their calls
 * in runner_calls, so a test can assert the engine used the runner. */
#ifndef ISOCHECK_TESTS_TASK_RUNNERS_H
#define ISOCHECK_TESTS_TASK_RUNNERS_H

#include <stddef.h>

#include "par.h"

static int runner_calls;
static inline void run_reversed(void *ctx, size_t ntasks, void (*fn)(void *, size_t), void *fctx) {
    (void)ctx;
    runner_calls++;
    for (size_t i = ntasks; i-- > 0;) fn(fctx, i);
}
static inline void run_threads(void *ctx, size_t ntasks, void (*fn)(void *, size_t), void *fctx) {
    (void)ctx;
    runner_calls++;
    par_run(2, ntasks, fn, fctx);
}

#endif
