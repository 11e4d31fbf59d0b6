/* par.h — run independent tasks on a few threads (pthreads from libc).
 *
 * Contract
 *   - par_run(threads, ntasks, fn, ctx) calls fn(ctx, i) exactly once for
 *     each i in [0, ntasks) and returns when every call has returned.  At
 *     most `threads` threads run tasks, the caller's own thread being one
 *     of them; tasks are handed out in increasing order from one shared
 *     counter, so uneven tasks balance themselves.  Threads are created
 *     for the call and joined before it returns.
 *   - threads <= 1 or ntasks <= 1: every task runs inline, in order, and
 *     no thread is created.
 *   - A pool (par_pool_new(threads)) keeps threads - 1 workers for many
 *     calls, possibly nested: par_pool_run(p, ntasks, fn, ctx) has the same
 *     contract as par_run, the tasks running on the caller and on whichever
 *     of the pool's threads are idle — never more than `threads` threads in
 *     all, however many calls are under way at once (a task may itself
 *     call par_pool_run).  An idle worker, or a caller whose own tasks are
 *     all handed out and which waits for the last of them, works on other
 *     calls' tasks, so a thread that finishes its part early helps the
 *     others.  par_pool_run_prio(p, prio, ...) posts a call of a priority
 *     (par_pool_run: 0): a thread takes tasks of higher priority first, its
 *     own on a tie; a caller takes none of lower priority than its own.
 *     p == NULL or a pool of one thread: inline, in order.
 *   - Determinism is the caller's part: a task writes only its own output
 *     slot (out[i]), and the caller combines the slots in task order, so
 *     the result does not depend on the thread count or the schedule.
 *   - A thread that cannot be created is not an error: the tasks still all
 *     run, on the threads that exist (at worst on the caller's alone).
 *   - par_threads_default(): the processors online, at least 1, at most
 *     PAR_MAX_THREADS.
 *   - Never prints, never exits (par_pool_new returns NULL when out of
 *     memory, and NULL is a valid pool of one thread). */
#ifndef ISOCHECK_PAR_H
#define ISOCHECK_PAR_H

#include <pthread.h>
#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
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

/* ---- the pool ---------------------------------------------------------
 * Posted calls form a list (oldest first) under one mutex, and every task
 * is handed out under it, one at a time: a thread looking for work takes a
 * task of the call of highest priority with tasks left (its own call on a
 * tie, else the oldest), counted in that call's helpers (refs) until the
 * task returns.  A caller draws from its own call and from calls of higher
 * priority; when its own call has nothing left to hand out it unlinks it
 * and, until no helper is inside, helps calls of its priority or higher
 * only (never a long task of lower priority that would hold up its own
 * return).  Idle workers take any call.  Tasks are coarse (a few per
 * thread and stage), so a lock per task costs nothing measurable. */
typedef struct par_call {
    par_task_fn fn;
    void *ctx;
    size_t ntasks, next;         /* next task to hand out (under mu) */
    int prio;
    unsigned refs;               /* threads running one of its tasks (under mu) */
    struct par_call *next_call;
} par_call;

typedef struct par_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    par_call *calls;             /* posted calls, oldest first */
    unsigned workers;            /* worker threads started */
    int stop;
    pthread_t tid[PAR_MAX_THREADS];
} par_pool;

/* Under mu: the call to take a task from — highest priority, at least
 * min_prio, own on a tie, else the oldest — or NULL. */
static inline par_call *par_pool_pick(par_pool *p, const par_call *own, int min_prio) {
    par_call *best = NULL;
    for (par_call *c = p->calls; c; c = c->next_call) {
        if (c->next >= c->ntasks || c->prio < min_prio) continue;
        if (!best || c->prio > best->prio || (c->prio == best->prio && c == own)) best = c;
    }
    return best;
}

/* Under mu, returns under mu: run the next task of c. */
static inline void par_pool_step(par_pool *p, par_call *c) {
    size_t i = c->next++;
    c->refs++;
    pthread_mutex_unlock(&p->mu);
    c->fn(c->ctx, i);
    pthread_mutex_lock(&p->mu);
    if (--c->refs == 0) pthread_cond_broadcast(&p->cv);
}

static void *par_pool_worker(void *arg) {
    par_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        par_call *c = par_pool_pick(p, NULL, INT_MIN);
        if (c) par_pool_step(p, c);
        else pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static inline par_pool *par_pool_new(unsigned threads) {
    if (threads > PAR_MAX_THREADS) threads = PAR_MAX_THREADS;
    if (threads <= 1) return NULL;
    par_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    if (pthread_mutex_init(&p->mu, NULL) != 0) { free(p); return NULL; }
    if (pthread_cond_init(&p->cv, NULL) != 0) { pthread_mutex_destroy(&p->mu); free(p); return NULL; }
    for (unsigned t = 1; t < threads; t++) {
        if (pthread_create(&p->tid[p->workers], NULL, par_pool_worker, p) != 0) break;
        p->workers++;
    }
    return p;
}

/* Threads the pool runs tasks on (1 for NULL). */
static inline unsigned par_pool_threads(const par_pool *p) { return p ? p->workers + 1 : 1; }

/* Every call must have returned. */
static inline void par_pool_free(par_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned t = 0; t < p->workers; t++) pthread_join(p->tid[t], NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* par_pool_run with a priority: while calls are under way at once, a
 * thread takes the tasks of higher priority first (run_check gives the
 * level on the longer path the higher one). */
static inline void par_pool_run_prio(par_pool *p, int prio, size_t ntasks, par_task_fn fn, void *ctx) {
    if (!p || p->workers == 0 || ntasks <= 1) {
        for (size_t i = 0; i < ntasks; i++) fn(ctx, i);
        return;
    }
    par_call me = { fn, ctx, ntasks, 0, prio, 0, NULL };
    pthread_mutex_lock(&p->mu);
    par_call **tail = &p->calls;
    while (*tail) tail = &(*tail)->next_call;
    *tail = &me;
    pthread_cond_broadcast(&p->cv);
    while (me.next < me.ntasks) par_pool_step(p, par_pool_pick(p, &me, prio));
    for (par_call **c = &p->calls; *c; c = &(*c)->next_call)
        if (*c == &me) { *c = me.next_call; break; }
    while (me.refs) {                        /* help until our last helper leaves */
        par_call *c = par_pool_pick(p, NULL, prio);
        if (c) par_pool_step(p, c);
        else pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
}

static inline void par_pool_run(par_pool *p, size_t ntasks, par_task_fn fn, void *ctx) {
    par_pool_run_prio(p, 0, ntasks, fn, ctx);
}

static inline unsigned par_threads_default(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    if (n > PAR_MAX_THREADS) return PAR_MAX_THREADS;
    return (unsigned)n;
}

#endif
