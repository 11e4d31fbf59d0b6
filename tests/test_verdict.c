/* test_verdict.c — the one verdict type (its order, its names, a report's
 * worst verdict, the exit code of each) and the one internal-error routine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fatal.h"
#include "isocheck.h"
#include "frontend/history/verdict.h"
#include "frontend/reports/report.h"
#include "programs/cli.h"

static const verdict all[3] = { VERDICT_PASS, VERDICT_FAIL, VERDICT_UNKNOWN };

static void worse_is_fail_then_unknown(void **state) {
    (void)state;
    /* severity rank: PASS 0, UNKNOWN 1, FAIL 2 */
    static const int rank[3] = { [VERDICT_PASS] = 0, [VERDICT_FAIL] = 2, [VERDICT_UNKNOWN] = 1 };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            verdict w = verdict_worse(all[i], all[j]);
            assert_int_equal(w, rank[all[i]] >= rank[all[j]] ? all[i] : all[j]);
            assert_int_equal(w, verdict_worse(all[j], all[i]));
        }
    assert_string_equal(verdict_name(VERDICT_PASS), "PASS");
    assert_string_equal(verdict_name(VERDICT_FAIL), "FAIL");
    assert_string_equal(verdict_name(VERDICT_UNKNOWN), "UNKNOWN");
}

/* The public values are the ABI: PASS 0, FAIL 1, UNKNOWN 2; and so are the
 * exit codes of `isocheck check`. */
static void public_values_and_exit_codes(void **state) {
    (void)state;
    assert_int_equal(ISOCHECK_PASS, 0);
    assert_int_equal(ISOCHECK_FAIL, 1);
    assert_int_equal(ISOCHECK_UNKNOWN, 2);
    assert_int_equal(cli_exit_code(VERDICT_PASS), 0);
    assert_int_equal(cli_exit_code(VERDICT_FAIL), 1);
    assert_int_equal(cli_exit_code(VERDICT_UNKNOWN), 2);
}

static void report_worst_level(void **state) {
    (void)state;
    report r;
    memset(&r, 0, sizeof r);
    assert_int_equal(report_verdict(&r), VERDICT_PASS);               /* nothing checked, nothing failed */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            r.num_levels = 2;
            r.axiom_violations = 0;
            r.levels[0].verdict = all[i];
            r.levels[1].verdict = all[j];
            assert_int_equal(report_verdict(&r), verdict_worse(all[i], all[j]));
            r.axiom_violations = 1;                                  /* an axiom fails every level */
            assert_int_equal(report_verdict(&r), VERDICT_FAIL);
        }
}

/* internal_error prints "WHO: internal error: MESSAGE" and aborts. */
static void internal_error_prints_and_aborts(void **state) {
    (void)state;
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 2);
        internal_error("who", "%d %s", 42, "broken");
    }
    close(fd[1]);
    char buf[256];
    size_t len = 0;
    ssize_t n;
    while ((n = read(fd[0], buf + len, sizeof buf - 1 - len)) > 0) len += (size_t)n;
    buf[len] = 0;
    close(fd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(buf, "who: internal error: 42 broken\n"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worse_is_fail_then_unknown),
        cmocka_unit_test(public_values_and_exit_codes),
        cmocka_unit_test(report_worst_level),
        cmocka_unit_test(internal_error_prints_and_aborts),
    };
    return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
