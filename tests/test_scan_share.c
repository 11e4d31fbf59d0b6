/* test_scan_share.c — what a level shares with the other levels of a run.
 *
 * A level checked in a run of several (run_check: the history, the index
 * and its base edges shared, the base edges released after the last use)
 * gives the same facts as the level checked alone: si,ser against ser
 * alone and si alone, on simulated histories with every fault, with one
 * thread and two (the levels of a wave at once), every count of the
 * hook's result the same (a level the run decides without its own search,
 * "implied", the same verdict).  The tally asserts that si was searched in
 * the run (ser failed) somewhere. */
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
#include "same_stats.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/run_check.h"

/* What the hook saw of each level: verdict, stage and every count. */
typedef struct seen { int have[LEVEL_COUNT]; check_result res[LEVEL_COUNT]; } seen;
static void on_level(void *ctx, const check_result *res) {
    seen *s = ctx;
    s->have[res->level] = 1;
    s->res[res->level] = *res;                   /* the counts and message; no pointer is kept */
}

static void run_levels(const history *h, const int *levels, size_t n, unsigned threads, seen *s) {
    memset(s, 0, sizeof *s);
    run_check_options o;
    run_check_options_default(&o);
    o.want[LEVEL_SI] = 0;
    for (size_t i = 0; i < n; i++) o.want[levels[i]] = 1;
    o.check.threads = threads;
    o.on_level = on_level;
    o.hook_ctx = s;
    report rep;
    report_init(&rep, h, "test");
    ic_error err; ic_error_clear(&err);
    assert_int_equal(run_check(h, &o, &rep, NULL, NULL, &err), 1);
    report_free(&rep);
}

static void same_facts(const check_result *a, const check_result *b) { assert_same_verdict_and_counts(a, b); }

static void level_in_a_run_same_facts(void **state) {
    (void)state;
    int searched_both = 0;
    static const int both[] = { LEVEL_SI, LEVEL_SER }, ser[] = { LEVEL_SER }, si[] = { LEVEL_SI };
    for (int fault = 0; fault < FAULT_COUNT; fault++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            history *h = sim_clean(sim_history(SIM_SI, (sim_fault)fault, (sim_shape){ 8, 30, 6, 20 }, seed));
            if (!h) continue;
            for (unsigned threads = 1; threads <= 2; threads++) {
                seen *alone_ser = xcalloc(1, sizeof *alone_ser), *alone_si = xcalloc(1, sizeof *alone_si),
                     *list = xcalloc(1, sizeof *list);
                run_levels(h, ser, 1, threads, alone_ser);
                run_levels(h, si, 1, threads, alone_si);
                run_levels(h, both, 2, threads, list);
                assert_true(list->have[LEVEL_SER] && list->have[LEVEL_SI]);
                /* ser is searched first; when si fails too, ser's FAIL may be
                 * reported as derived from si's ("implied"): same verdict */
                const check_result *ls = &list->res[LEVEL_SER];
                if (ls->stage && !strcmp(ls->stage, "implied")) assert_int_equal(alone_ser->res[LEVEL_SER].verdict, ls->verdict);
                else same_facts(&alone_ser->res[LEVEL_SER], ls);
                /* si is searched in the run when ser fails (else decided by ser's order) */
                const check_result *li = &list->res[LEVEL_SI];
                if (!li->stage || strcmp(li->stage, "implied")) {
                    same_facts(&alone_si->res[LEVEL_SI], li);
                    searched_both++;
                } else assert_int_equal(alone_si->res[LEVEL_SI].verdict, VERDICT_PASS);
                free(alone_ser); free(alone_si); free(list);
            }
            history_free(h);
        }
    assert_true(searched_both > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(level_in_a_run_same_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
