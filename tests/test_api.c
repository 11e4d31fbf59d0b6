/* test_api.c — include/isocheck.h: building histories in memory, verdicts
 * against the catalogue's expectations, cycle accessors, and every error
 * path (bad handles, reserved values, frozen histories, malformed input). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

/* Reports name transactions by the caller's ids and operations by the call
 * that added them ("[call N]"), never by a file line. */
static void reports_name_calls_and_ids(void **state) {
    (void)state;
    isocheck_history *h = isocheck_history_new();
    int a = isocheck_txn_begin(h, 1, 101);                  /* call 1 */
    isocheck_read_initial(h, a, 5);                         /* call 2 */
    isocheck_write(h, a, 5, 50);                            /* call 3 */
    int b = isocheck_txn_begin(h, 2, 202);                  /* call 4 */
    isocheck_read_initial(h, b, 5);                         /* call 5 */
    isocheck_write(h, b, 5, 51);                            /* call 6 */
    isocheck_result *r = isocheck_check(h, ISOCHECK_SI);
    const char *text = isocheck_result_text(r);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_FAIL);
    assert_non_null(strstr(text, "lost-update"));
    assert_non_null(strstr(text, "txn 101   session 1    call 1\n"));
    assert_non_null(strstr(text, "txn 202   session 2    call 4\n"));
    assert_non_null(strstr(text, "r(5)=init [call 2]  w(5)=50 [call 3]"));
    assert_non_null(strstr(text, "r(5)=init [call 5]  w(5)=51 [call 6]"));
    assert_null(strstr(text, "[line"));
    isocheck_result_free(r);
    isocheck_history_free(h);
    /* a value written twice to one key is no longer malformed (issue 35,
     * doc/checker.md "Repeated values"): checked, and with no read, SI holds */
    h = isocheck_history_new();
    a = isocheck_txn_begin(h, 1, 1);
    b = isocheck_txn_begin(h, 2, 2);
    isocheck_write(h, a, 3, 9);                             /* call 3 */
    isocheck_write(h, b, 3, 9);                             /* call 4 */
    r = isocheck_check(h, ISOCHECK_SI);
    assert_int_equal(isocheck_result_status(r), ISOCHECK_OK);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_PASS);
    isocheck_result_free(r);
    isocheck_history_free(h);
}

/* A transaction id used twice in one history is refused, and nothing changes. */
static void reused_txn_id_is_refused(void **state) {
    (void)state;
    isocheck_history *h = isocheck_history_new();
    int a = isocheck_txn_begin(h, 1, 7);
    assert_true(a > 0);
    assert_int_equal(isocheck_write(h, a, 1, 10), ISOCHECK_OK);
    assert_int_equal(isocheck_txn_begin(h, 2, 7), ISOCHECK_EDUPLICATE);
    assert_string_equal(isocheck_history_error(h), "transaction id 7 is already used (by the transaction begun at call 1)");
    assert_string_equal(isocheck_status_message(ISOCHECK_EDUPLICATE), "the transaction id is already used in this history");
    assert_int_equal(isocheck_txn_begin(h, 1, 7), ISOCHECK_EDUPLICATE);     /* the same session too */
    int b = isocheck_txn_begin(h, 2, 8);                  /* the next call is call 3: refused calls do not count */
    assert_int_equal(b, a + 1);
    assert_int_equal(isocheck_read(h, b, 1, 10), ISOCHECK_OK);
    isocheck_result *r = isocheck_check(h, ISOCHECK_SER);
    assert_int_equal(isocheck_result_verdict(r), ISOCHECK_PASS);
    isocheck_result_free(r);
    /* after a check as before */
    assert_int_equal(isocheck_txn_begin(h, 3, 8), ISOCHECK_EDUPLICATE);
    assert_non_null(strstr(isocheck_history_error(h), "begun at call 3"));
    isocheck_history_free(h);
}

static char *temp_file(const char *content) {
    char *path = strdup("/tmp/isocheck_api_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(content);
    assert_int_equal(write(fd, content, n), (ssize_t)n);
    close(fd);
    return path;
}

/* A history file, any format, checked through the API, the report as JSON. */
static void check_file_gives_json(void **state) {
    (void)state;
    char *json = (char *)1;
    /* text: a lost update */
    char *p = temp_file("r(1,0,1,1)\nw(1,10,1,1)\nr(1,0,2,2)\nw(1,20,2,2)\n");
    assert_int_equal(isocheck_check_file(p, ISOCHECK_SI, &json), ISOCHECK_FAIL);
    assert_non_null(json);
    static const char head[] = "{\"isocheck\": 1, \"version\": \"";
    assert_true(!strncmp(json, head, sizeof head - 1));
    assert_non_null(strstr(json, "\"format\": \"text\", \"verdict\": \"FAIL\", \"level\": \"si\""));
    assert_non_null(strstr(json, "\"name\": \"lost-update\""));
    isocheck_string_free(json);
    assert_int_equal(isocheck_check_file(p, ISOCHECK_SER, &json), ISOCHECK_FAIL);
    assert_non_null(strstr(json, "\"level\": \"ser\""));
    isocheck_string_free(json);
    unlink(p);
    free(p);
    /* dbcop's JSON, detected: serializable */
    p = temp_file("[[{\"events\": [[\"w\", 1, 5]], \"committed\": true}], [{\"events\": [[\"r\", 1, 5]], \"committed\": true}]]");
    assert_int_equal(isocheck_check_file(p, ISOCHECK_SER, &json), ISOCHECK_PASS);
    assert_non_null(strstr(json, "\"format\": \"json\", \"verdict\": \"PASS\", \"level\": \"ser\""));
    isocheck_string_free(json);
    unlink(p);
    free(p);
    /* bad input: the error at FILE:LINE, in the JSON */
    p = temp_file("w(1,1,1,1)\nw(1,x,1,1)\n");
    assert_int_equal(isocheck_check_file(p, ISOCHECK_SI, &json), ISOCHECK_EINPUT);
    char want[200];
    snprintf(want, sizeof want, "\"error\": \"%s:2: expected value (digits 0-9, no sign), found 'x,1,1)'\"}", p);
    assert_non_null(strstr(json, want));
    assert_null(strstr(json, "\"verdict\""));
    isocheck_string_free(json);
    unlink(p);
    assert_int_equal(isocheck_check_file(p, ISOCHECK_SI, &json), ISOCHECK_EINPUT);     /* gone */
    assert_non_null(strstr(json, "\"error\": "));
    isocheck_string_free(json);
    free(p);
    /* bad arguments */
    assert_int_equal(isocheck_check_file(NULL, ISOCHECK_SI, &json), ISOCHECK_EINVAL);
    assert_null(json);
    assert_int_equal(isocheck_check_file("x", ISOCHECK_SI, NULL), ISOCHECK_EINVAL);
    assert_int_equal(isocheck_check_file("x", ISOCHECK_LEVEL_COUNT, &json), ISOCHECK_EINVAL);
    assert_null(json);
    isocheck_string_free(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_fork_fails_both),
        cmocka_unit_test(aborted_read_is_an_axiom_failure),
        cmocka_unit_test(errors),
        cmocka_unit_test(reports_name_calls_and_ids),
        cmocka_unit_test(reused_txn_id_is_refused),
        cmocka_unit_test(check_file_gives_json),
    };
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
