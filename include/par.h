/* par.h — run independent tasks on a few threads (pthreads from libc).
 *
 * Contract
 *   - par_run(threads, ntasks, fn, ctx) calls fn(ctx, i) exactly once for
 *     each i in [0, ntasks) and returns when every call has returned.  At
 *     most `threads` threads run tasks, the caller's own thread being one
 *     of them; tasks are handed out in increasing order from one shared
 *     counter, so uneven tasks balance themselves.
 *   - threads <= 1 or ntasks <= 1: every task runs inline, in order, and
 *     no thread is created.
 *   - Determinism is the caller's part: a task writes only its own output
 *     slot (out[i]), and the caller combines the slots in task order, so
 *     the result does not depend on the thread count or the schedule.
 *   - A thread that cannot be created is not an error: the tasks still all
 *     run, on the threads that exist (at worst on the caller's alone).
 *   - par_threads_default(): the processors online, at least 1, at most
 *     PAR_MAX_THREADS.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_PAR_H
#define ISOCHECK_PAR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

#define PAR_MAX_THREADS 64

typedef void (*par_task_fn)(void *ctx, size_t task);

typedef struct {
    par_task_fn fn;
    void *ctx;
    size_t ntasks;
    atomic_size_t next;
} par_job;

static void *par_worker(void *arg) {
    par_job *job = arg;
    for (;;) {
        size_t i = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
        if (i >= job->ntasks) return NULL;
        job->fn(job->ctx, i);
    }
}

static inline void par_run(unsigned threads, size_t ntasks, par_task_fn fn, void *ctx) {
    if (threads <= 1 || ntasks <= 1) {
        for (size_t i = 0; i < ntasks; i++) fn(ctx, i);
        return;
    }
    if (threads > PAR_MAX_THREADS) threads = PAR_MAX_THREADS;
    if (threads > ntasks) threads = (unsigned)ntasks;
    par_job job = { .fn = fn, .ctx = ctx, .ntasks = ntasks };
    atomic_init(&job.next, 0);
    pthread_t tid[PAR_MAX_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < threads; t++) {
        if (pthread_create(&tid[started], NULL, par_worker, &job) != 0) break;
        started++;
    }
    par_worker(&job);
    for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
}

static inline unsigned par_threads_default(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    if (n > PAR_MAX_THREADS) return PAR_MAX_THREADS;
    return (unsigned)n;
}

#endif
