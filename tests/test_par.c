/* test_par.c — par_run: every task runs exactly once, whatever the thread
 * count, and per-task output slots combined in order give the same result. */
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_task_once),
        cmocka_unit_test(no_tasks_and_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
