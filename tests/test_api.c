/* test_api.c — include/isocheck.h: building histories in memory, verdicts
 * against the catalogue's expectations, cycle accessors, and every error
 * path (bad handles, reserved values, frozen histories, malformed input). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "isocheck.h"

/* Long fork: T1 writes x, T2 writes y; T3 sees x but not y, T4 sees y but
 * not x.  Fails SI and SER. */
static void long_fork_fails_both(void **state) {
    (void)state;
    isocheck_history *h = isocheck_history_new();
    int t1 = isocheck_txn_begin(h, 1, 1), t2 = isocheck_txn_begin(h, 2, 2);
    int t3 = isocheck_txn_begin(h, 3, 3), t4 = isocheck_txn_begin(h, 4, 4);
    assert_true(t1 > 0 && t2 > 0 && t3 > 0 && t4 > 0);
    assert_int_equal(isocheck_write(h, t1, 1, 10), ISOCHECK_OK);
    assert_int_equal(isocheck_write(h, t2, 2, 20), ISOCHECK_OK);
    assert_int_equal(isocheck_read(h, t3, 1, 10), ISOCHECK_OK);
    assert_int_equal(isocheck_read_initial(h, t3, 2), ISOCHECK_OK);
    assert_int_equal(isocheck_read_initial(h, t4, 1), ISOCHECK_OK);
    assert_int_equal(isocheck_read(h, t4, 2, 20), ISOCHECK_OK);
    for (int lv = ISOCHECK_SI; lv <= ISOCHECK_SER; lv++) {
        isocheck_result *r = isocheck_check(h, (isocheck_level)lv);
        assert_int_equal(isocheck_result_verdict(r), ISOCHECK_FAIL);
        assert_int_equal(isocheck_result_status(r), ISOCHECK_OK);
        assert_non_null(strstr(isocheck_result_text(r), "FAIL"));
        size_t n = isocheck_result_cycle_length(r);
        assert_true(n >= 2);
        /* a closed cycle over the caller's ids, with a key on every non-SO edge */
        int64_t first_from = 0, prev_to = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t from, to, key;
            const char *kind;
            assert_int_equal(isocheck_result_cycle_edge(r, i, &from, &to, &key, &kind), ISOCHECK_OK);
            assert_true(from >= 1 && from <= 4 && to >= 1 && to <= 4);
            assert_true(!strcmp(kind, "SO") || !strcmp(kind, "WR") || !strcmp(kind, "WW") || !strcmp(kind, "RW"));
            if (strcmp(kind, "SO")) assert_true(key == 1 || key == 2);
            if (i == 0) first_from = from; else assert_true(from == prev_to);
            prev_to = to;
        }
        assert_true(prev_to == first_from);
        assert_int_equal(isocheck_result_cycle_edge(r, n, NULL, NULL, NULL, NULL), ISOCHECK_EINVAL);
        isocheck_result_free(r);
    }
    isocheck_history_free(h);
}

/* A read of an aborted write fails by the axioms: no cycle, a named anomaly. */
static void aborted_read_is_an_axiom_failure(void **state) {
    (void)state;
    isocheck_history *h = isocheck_history_new();
    int t1 = isocheck_txn_begin(h, 1, 1), t2 = isocheck_txn_begin(h, 2, 2);
    isocheck_write(h, t1, 7, 70);
    assert_int_equal(isocheck_txn_abort(h, t1), ISOCHECK_OK);
    isocheck_read(h, t2, 7, 70);
    isocheck_result *r = isocheck_check(h, ISOCHECK_SI);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_FAIL);
    assert_int_equal(isocheck_result_cycle_length(r), 0);
    assert_non_null(strstr(isocheck_result_text(r), "aborted"));
    isocheck_result_free(r);
    isocheck_history_free(h);
}

static void errors(void **state) {
    (void)state;
    assert_int_equal(isocheck_txn_begin(NULL, 1, 1), ISOCHECK_EINVAL);
    assert_null(isocheck_check(NULL, ISOCHECK_SI));
    assert_int_equal(isocheck_result_verdict(NULL), ISOCHECK_UNKNOWN);
    assert_string_equal(isocheck_result_text(NULL), "");
    isocheck_result_free(NULL);
    isocheck_history_free(NULL);
    isocheck_history *h = isocheck_history_new();
    assert_string_equal(isocheck_history_error(h), "");
    assert_int_equal(isocheck_write(h, 1, 1, 1), ISOCHECK_EINVAL);          /* no such txn */
    assert_non_null(strstr(isocheck_history_error(h), "unknown transaction"));
    int t = isocheck_txn_begin(h, 1, 1);
    assert_int_equal(isocheck_write(h, t, 1, INT64_MIN), ISOCHECK_EINVAL);
    assert_int_equal(isocheck_read(h, t, 1, INT64_MIN), ISOCHECK_EINVAL);
    assert_int_equal(isocheck_write(h, t, 1, 5), ISOCHECK_OK);
    assert_string_equal(isocheck_history_error(h), "");                    /* cleared by success */
    isocheck_result *r = isocheck_check(h, (isocheck_level)ISOCHECK_LEVEL_COUNT);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_UNKNOWN);
    assert_int_equal(isocheck_result_status(r), ISOCHECK_EINVAL);
    isocheck_result_free(r);
    /* levels by name */
    r = isocheck_check_named(h, "serializable");
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_UNKNOWN);
    assert_int_equal(isocheck_result_status(r), ISOCHECK_EINVAL);
    assert_string_equal(isocheck_result_text(r), "unknown level 'serializable'");
    isocheck_result_free(r);
    assert_int_equal(isocheck_level_by_name("psi"), ISOCHECK_PSI);
    assert_int_equal(isocheck_level_by_name("ser-plain"), ISOCHECK_SER_PLAIN);
    assert_int_equal(isocheck_level_by_name("SI"), ISOCHECK_EINVAL);
    assert_int_equal(isocheck_level_by_name(NULL), ISOCHECK_EINVAL);
    assert_string_equal(isocheck_level_name(ISOCHECK_SSER), "sser");
    assert_null(isocheck_level_name(ISOCHECK_LEVEL_COUNT));
    for (int l = 0; l < ISOCHECK_LEVEL_COUNT; l++)
        assert_int_equal(isocheck_level_by_name(isocheck_level_name((isocheck_level)l)), l);
    /* real time needs times, which the API's histories do not carry */
    r = isocheck_check_named(h, "sser");
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_UNKNOWN);
    assert_int_equal(isocheck_result_status(r), ISOCHECK_ENOTIMES);
    assert_non_null(strstr(isocheck_result_text(r), "NOT CHECKED sser: strict serializability needs"));
    isocheck_result_free(r);
    r = isocheck_check(h, ISOCHECK_SI_PLAIN);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_PASS);
    assert_non_null(strstr(isocheck_result_text(r), "PASS si-plain"));
    isocheck_result_free(r);
    r = isocheck_check_named(h, "ser");
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_PASS);
    assert_non_null(strstr(isocheck_result_text(r), "PASS"));
    isocheck_result_free(r);
    /* the history grows after a check (online checking): two sessions both
     * overwrite the initial value after reading it — a lost update */
    int t2 = isocheck_txn_begin(h, 2, 2);
    assert_true(t2 > 0);
    assert_int_equal(isocheck_read_initial(h, t2, 1), ISOCHECK_OK);
    assert_int_equal(isocheck_write(h, t2, 1, 7), ISOCHECK_OK);
    r = isocheck_check(h, ISOCHECK_SI);                    /* t reads nothing: still fine */
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_PASS);
    isocheck_result_free(r);
    int t3 = isocheck_txn_begin(h, 1, 3);
    assert_int_equal(isocheck_read_initial(h, t3, 2), ISOCHECK_OK);
    assert_int_equal(isocheck_write(h, t, 2, 8), ISOCHECK_OK);    /* an earlier transaction grows too */
    assert_int_equal(isocheck_read_initial(h, t, 1), ISOCHECK_OK);   /* read after own write: INT breaks */
    r = isocheck_check(h, ISOCHECK_SI);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_FAIL);
    assert_non_null(strstr(isocheck_result_text(r), "internal"));
    isocheck_result_free(r);
    r = isocheck_check(h, ISOCHECK_SER);                   /* the same built history, another level */
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_FAIL);
    isocheck_result_free(r);
    assert_string_equal(isocheck_status_message(ISOCHECK_ESTATE), "not allowed now");
    isocheck_history_free(h);

    /* a lost update found online: PASS, then FAIL once the second writer arrives, and FAIL after */
    h = isocheck_history_new();
    int a = isocheck_txn_begin(h, 1, 1);
    isocheck_read_initial(h, a, 5);
    isocheck_write(h, a, 5, 50);
    r = isocheck_check(h, ISOCHECK_SI);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_PASS);
    isocheck_result_free(r);
    int bb = isocheck_txn_begin(h, 2, 2);
    isocheck_read_initial(h, bb, 5);
    isocheck_write(h, bb, 5, 51);
    r = isocheck_check(h, ISOCHECK_SI);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_FAIL);
    assert_int_equal(isocheck_result_cycle_length(r), 2);
    isocheck_result_free(r);
    int c = isocheck_txn_begin(h, 3, 3);
    isocheck_read(h, c, 5, 51);
    r = isocheck_check(h, ISOCHECK_SI);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_FAIL);
    isocheck_result_free(r);
    isocheck_history_free(h);

    /* the same value written twice (issue 35): checked, no longer refused */
    h = isocheck_history_new();
    t = isocheck_txn_begin(h, 1, 1);
    int u = isocheck_txn_begin(h, 2, 2);
    isocheck_write(h, t, 3, 9);
    isocheck_write(h, u, 3, 9);
    for (int i = 0; i < 2; i++) {
        r = isocheck_check(h, ISOCHECK_SI);
        assert_int_equal(isocheck_result_verdict(r), ISOCHECK_PASS);
        isocheck_result_free(r);
    }
    isocheck_history_free(h);
    /* empty history */
    h = isocheck_history_new();
    r = isocheck_check(h, ISOCHECK_SI);
    assert_int_equal(isocheck_result_status(r), ISOCHECK_EINPUT);
    isocheck_result_free(r);
    isocheck_history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_fork_fails_both),
        cmocka_unit_test(aborted_read_is_an_axiom_failure),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
