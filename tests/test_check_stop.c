/* test_check_stop.c — check_options.stop (what `isocheck check` polls
 * after SIGINT/SIGTERM, programs/interrupt.h): a level asks it between its
 * stages — before checking, after building the polygraph, after pruning,
 * after encoding (STAGE_POLLS questions, in that order) — and the solver
 * after each conflict; once it says stop, the level is UNKNOWN with "no
 * verdict: interrupted <where> level L".  Histories from the workload
 * simulator, checked without pruning so that the solver meets conflicts;
 * every check whose solve had one is checked again with a stop that says
 * yes from the first question after the stages (it must end "while
 * solving", after one conflict), and from each stage's question (it must
 * end there, the solver never called); a stop that never says yes changes
 * nothing.  Then `isocheck check` itself (cli_check) with the flag of
 * programs/interrupt.h already up (a SIGTERM raised before the check): the
 * load stops at once, every check ends "no verdict: stopped while loading",
 * exit 143, no verdict printed. */
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
#include "frontend/formats/write.h"
#include "programs/cli.h"
#include "programs/interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

static history *simulate(sim_fault fault, uint64_t keys, uint64_t seed) {
    return sim_history(SIM_SI, fault, (sim_shape){ 8, 30, 6, keys }, seed);
}

/* Says stop from its `from`-th question on (0: never). */
typedef struct asked { unsigned long from, calls; } asked;

static int stop_fn(void *ctx) {
    asked *a = ctx;
    a->calls++;
    return a->from && a->calls >= a->from;
}

/* The questions a searched level asks before its solver, and where each stops it. */
#define STAGE_POLLS 4
static const char *const stage_words[STAGE_POLLS] = {
    "before checking", "after building the polygraph of", "after pruning", "after encoding",
};

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
            asked never = { 0, 0 };                   /* (from 0: never) */
            o.stop = stop_fn;
            o.stop_ctx = &never;
            check_result plain;
            verdict v = check_level(&ix, (check_level_id)level, &o, &plain);
            assert_int_not_equal(v, VERDICT_UNKNOWN);
            if (plain.st.solver_called && plain.st.solver.conflicts > 0) {
                assert_true(never.calls > STAGE_POLLS);   /* asked after its conflicts */
                for (int k = 0; k < STAGE_POLLS; k++) {   /* stopped at a stage: no search */
                    asked at = { (unsigned long)k + 1, 0 };
                    o.stop_ctx = &at;
                    check_result res;
                    assert_int_equal(check_level(&ix, (check_level_id)level, &o, &res), VERDICT_UNKNOWN);
                    char want[128];
                    snprintf(want, sizeof want, "no verdict: interrupted %s level %s", stage_words[k],
                             check_level_name((check_level_id)level));
                    assert_string_equal(res.msg, want);
                    assert_string_equal(res.stage, "interrupted");
                    assert_int_equal(at.calls, k + 1);
                    assert_false(res.st.solver_called);
                    check_result_free(&res);
                }
                asked yes = { STAGE_POLLS + 1, 0 };
                o.stop_ctx = &yes;
                check_result res;
                assert_int_equal(check_level(&ix, (check_level_id)level, &o, &res), VERDICT_UNKNOWN);
                char want[128];
                snprintf(want, sizeof want, "no verdict: interrupted while solving level %s",
                         check_level_name((check_level_id)level));
                assert_string_equal(res.msg, want);
                assert_true(yes.calls >= STAGE_POLLS + 1);
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

/* cli_check on path (level all); its standard output into out (NUL-ended). */
static int run_check_cli(const char *path, char *out, size_t cap) {
    char a0[] = "check", a1[] = "--level", a2[] = "all", a3[] = "--threads", a4[] = "1";
    char *argv[] = { a0, a1, a2, a3, a4, (char *)path, NULL };
    fflush(stdout);
    int save = dup(1);
    FILE *f = tmpfile();
    assert_non_null(f);
    dup2(fileno(f), 1);
    int rc = cli_check(6, argv);
    fflush(stdout);
    dup2(save, 1);
    close(save);
    rewind(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    fclose(f);
    return rc;
}

static void test_stop_in_cli(void **state) {
    (void)state;
    enum { SEEDS = 16 };
    char path[SEEDS][64];
    int plain[SEEDS];
    static char out[1 << 16];
    for (int i = 0; i < SEEDS; i++) {                     /* histories, and their answers without a signal */
        history *h = simulate(i % 2 ? FAULT_NONE : FAULT_LOST_UPDATE, 60 + 20 * (i % 3), (uint64_t)i + 100);
        snprintf(path[i], sizeof path[i], "/tmp/test_check_stop.%d.%d.edn", (int)getpid(), i);
        FILE *f = fopen(path[i], "w");
        assert_non_null(f);
        ic_error err; ic_error_clear(&err);
        assert_true(write_elle(h, f, &err));
        assert_int_equal(fclose(f), 0);
        history_free(h);
        plain[i] = run_check_cli(path[i], out, sizeof out);
        assert_true(plain[i] == 0 || plain[i] == 1);
    }
    /* SIGTERM: a background job (make test's) inherits SIGINT ignored, and
     * an ignored signal stays ignored */
    interrupt_install();
    assert_int_equal(raise(SIGTERM), 0);                  /* the flag is up: the next solves stop at a conflict */
    if (interrupt_signal() != SIGTERM) {
        for (int i = 0; i < SEEDS; i++) unlink(path[i]);
        skip();                                           /* (SIGTERM ignored here, as with nohup) */
    }
    for (int i = 0; i < SEEDS; i++) {                     /* the load stops at its first block: no verdict */
        int rc = run_check_cli(path[i], out, sizeof out);
        assert_int_equal(rc, 143);
        assert_non_null(strstr(out, "STOPPED by SIGTERM while loading "));
        assert_non_null(strstr(out, "\nno verdict: stopped while loading, before checking\n"));
        assert_null(strstr(out, "PASS"));
        assert_null(strstr(out, "FAIL"));
        unlink(path[i]);
    }
    interrupt_restore();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_in_solver),
        cmocka_unit_test(test_stop_in_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
