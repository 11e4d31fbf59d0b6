/* test_par.c — par_run and the pool (par_pool_run): every task runs
 * exactly once, whatever the thread count, and per-task output slots
 * combined in order give the same result; nested pool calls complete, and
 * never more than the pool's thread count run tasks at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "par.h"

typedef struct {
    atomic_int *runs;      /* how often each task ran */
    uint64_t *out;         /* each task's own result */
} count_ctx;

static void count_task(void *p, size_t i) {
    count_ctx *c = p;
    atomic_fetch_add(&c->runs[i], 1);
    uint64_t h = i * 0x9e3779b97f4a7c15ull;   /* some work that depends on i only */
    for (int k = 0; k < 1000; k++) h = h * 6364136223846793005ull + 1442695040888963407ull;
    c->out[i] = h;
}

static void each_task_once(void **state) {
    (void)state;
    const size_t n = 1000;
    uint64_t ref = 0;
    for (unsigned threads = 0; threads <= 5; threads++) {
        count_ctx c = { calloc(n, sizeof(atomic_int)), calloc(n, sizeof(uint64_t)) };
        assert_non_null(c.runs); assert_non_null(c.out);
        par_run(threads, n, count_task, &c);
        uint64_t combined = 0;
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(atomic_load(&c.runs[i]), 1);
            combined = combined * 31 + c.out[i];
        }
        if (threads == 0) ref = combined;
        assert_true(combined == ref);
        free(c.runs); free(c.out);
    }
}

static void no_tasks_and_one(void **state) {
    (void)state;
    atomic_int runs[1]; atomic_init(&runs[0], 0);
    uint64_t out[1] = { 0 };
    count_ctx c = { runs, out };
    par_run(4, 0, count_task, &c);
    assert_int_equal(atomic_load(&runs[0]), 0);
    par_run(4, 1, count_task, &c);
    assert_int_equal(atomic_load(&runs[0]), 1);
    assert_true(par_threads_default() >= 1);
}

/* The same on a pool, several calls on one pool. */
static void pool_each_task_once(void **state) {
    (void)state;
    const size_t n = 1000;
    uint64_t ref = 0;
    for (unsigned threads = 0; threads <= 5; threads++) {
        par_pool *p = par_pool_new(threads);
        assert_true(par_pool_threads(p) >= 1 && par_pool_threads(p) <= (threads ? threads : 1));
        for (int rep = 0; rep < 3; rep++) {
            count_ctx c = { calloc(n, sizeof(atomic_int)), calloc(n, sizeof(uint64_t)) };
            assert_non_null(c.runs); assert_non_null(c.out);
            par_pool_run(p, n, count_task, &c);
            uint64_t combined = 0;
            for (size_t i = 0; i < n; i++) {
                assert_int_equal(atomic_load(&c.runs[i]), 1);
                combined = combined * 31 + c.out[i];
            }
            if (threads == 0 && rep == 0) ref = combined;
            assert_true(combined == ref);
            free(c.runs); free(c.out);
        }
        par_pool_free(p);
    }
}

/* Nested calls (as the levels' stages inside run_check's level tasks):
 * each outer task posts an inner call of its own; every inner task runs
 * once, and at no moment do more threads run tasks than the pool has. */
typedef struct nest_ctx {
    par_pool *p;
    atomic_int running, most;
    atomic_int *runs;            /* outer * inner */
    size_t inner;
} nest_ctx;

typedef struct inner_ctx { nest_ctx *n; size_t outer; } inner_ctx;

static void enter(nest_ctx *n) {
    int now = atomic_fetch_add(&n->running, 1) + 1, m = atomic_load(&n->most);
    while (now > m && !atomic_compare_exchange_weak(&n->most, &m, now)) {}
}

static void inner_task(void *ctx, size_t i) {
    inner_ctx *ic = ctx;
    enter(ic->n);
    atomic_fetch_add(&ic->n->runs[ic->outer * ic->n->inner + i], 1);
    volatile uint64_t h = i;
    for (int k = 0; k < 20000; k++) h = h * 6364136223846793005ull + 1;
    atomic_fetch_sub(&ic->n->running, 1);
}

static void outer_task(void *ctx, size_t i) {
    nest_ctx *n = ctx;
    inner_ctx ic = { n, i };
    /* the outer task's own thread counts as running while it posts */
    par_pool_run(n->p, n->inner, inner_task, &ic);
}

static void pool_nested_calls(void **state) {
    (void)state;
    for (unsigned threads = 1; threads <= 4; threads++) {
        nest_ctx n;
        n.p = par_pool_new(threads);
        atomic_init(&n.running, 0);
        atomic_init(&n.most, 0);
        n.inner = 64;
        const size_t outer = 5;
        n.runs = calloc(outer * n.inner, sizeof(atomic_int));
        assert_non_null(n.runs);
        par_pool_run(n.p, outer, outer_task, &n);
        for (size_t i = 0; i < outer * n.inner; i++) assert_int_equal(atomic_load(&n.runs[i]), 1);
        assert_true(atomic_load(&n.most) >= 1);
        assert_true((unsigned)atomic_load(&n.most) <= par_pool_threads(n.p));
        free(n.runs);
        par_pool_free(n.p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_task_once),
        cmocka_unit_test(no_tasks_and_one),
        cmocka_unit_test(pool_each_task_once),
        cmocka_unit_test(pool_nested_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
