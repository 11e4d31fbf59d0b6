/* test_follow_final.c — the final verdict of `check --follow` from the
 * incremental state (frontend/online/final.h, online_final_report): the
 * version orders of the incremental models are re-checked on the whole
 * input by verify_model before a PASS is said.
 *
 * The history (text): session 1 writes x (txn 1) then reads x = 2 (txn 3);
 * session 2 writes x = 2 (txn 2).  x's only valid order is 1, 2: in 2, 1
 * txn 3 reads a version its own session's earlier write overwrote (SO
 * 1 -> 3, RW 3 -> 1: a cycle at both levels).
 * Asserted:
 *   - the right orders at both levels: 1, and a PASS line per wanted
 *     level, in the batch report's order (si, ser), stage "incremental";
 *   - a wrong order at one level only (either one): 0 and the report
 *     untouched — every wanted level is re-checked, not the first alone;
 *   - an order that leaves a writer out, names a transaction or a key the
 *     history lacks: 0;
 *   - with only one level wanted, only its order matters;
 *   - each level's order is checked at its own level: on a write skew
 *     (txns 1 and 2 both read x = y = 0, then write x and y), the orders
 *     pass SI and fail SER (a SER order checked as SI would say PASS);
 *   - the orders are freed and ready is cleared whatever the answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <string.h>

#include "vec.h"
#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"
#include "frontend/reports/report.h"
#include "frontend/online/final.h"

static const char text[] =
    "w(1,1,1,1)\n"
    "w(1,2,2,2)\n"
    "r(1,2,1,3)\n";
static const char skew[] =
    "r(1,0,1,1)\nr(2,0,1,1)\nw(1,1,1,1)\n"
    "r(1,0,2,2)\nr(2,0,2,2)\nw(2,2,2,2)\n";
static const char *history_text = text;

/* key's writers as listed (ext ids); n 0: no key at all.  On the write
 * skew: keys 1 and 2, written by txns 1 and 2. */
static void make_order(incr_order *o, int64_t key, const int64_t *w, size_t n) {
    memset(o, 0, sizeof *o);
    vec_push(o->start, 0u);
    if (history_text == skew) {
        for (int64_t k = 1; k <= 2; k++) {
            vec_push(o->key_ext, k);
            vec_push(o->txn_ext, k);
            vec_push(o->start, (uint32_t)k);
        }
        return;
    }
    if (!n) return;
    vec_push(o->key_ext, key);
    for (size_t i = 0; i < n; i++) vec_push(o->txn_ext, w[i]);
    vec_push(o->start, (uint32_t)n);
}

static const int64_t right[] = { 1, 2 }, wrong[] = { 2, 1 }, missing[] = { 1 }, stranger[] = { 1, 2, 7 };

/* online_final_report with order si / ser (NULL: not wanted). */
static int final_report(const int64_t *si, size_t nsi, const int64_t *ser, size_t nser, report *rep, int64_t key) {
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(history_text, strlen(history_text), FORMAT_TEXT, "t", &err);
    assert_non_null(h);
    follow_final f;
    memset(&f, 0, sizeof f);
    f.ready = 1;
    if (si) make_order(&f.order[LEVEL_SI], key, si, nsi);
    if (ser) make_order(&f.order[LEVEL_SER], key, ser, nser);
    report_init(rep, h, si && ser ? "all" : si ? "si" : "ser");
    char why[512] = "";
    int ok = online_final_report(h, &f, si != NULL, ser != NULL, rep, why, sizeof why);
    assert_int_equal(f.ready, 0);
    for (int l = 0; l < 2; l++) assert_null(f.order[l].txn_ext.data);   /* freed */
    if (!ok) assert_true(why[0] != 0);
    history_free(h);
    return ok;
}

static void test_right_orders_pass(void **state) {
    (void)state;
    report rep;
    assert_int_equal(final_report(right, 2, right, 2, &rep, 1), 1);
    assert_int_equal(rep.num_levels, 2);
    assert_int_equal(rep.levels[0].level, LEVEL_SI);
    assert_int_equal(rep.levels[1].level, LEVEL_SER);
    for (int l = 0; l < 2; l++) {
        assert_int_equal(rep.levels[l].verdict, VERDICT_PASS);
        assert_string_equal(rep.levels[l].stage, "incremental");
    }
    report_free(&rep);
}

static void test_wrong_order_at_either_level(void **state) {
    (void)state;
    report rep;
    assert_int_equal(final_report(wrong, 2, right, 2, &rep, 1), 0);
    assert_int_equal(rep.num_levels, 0);
    report_free(&rep);
    assert_int_equal(final_report(right, 2, wrong, 2, &rep, 1), 0);
    assert_int_equal(rep.num_levels, 0);
    report_free(&rep);
}

static void test_malformed_orders(void **state) {
    (void)state;
    report rep;
    assert_int_equal(final_report(missing, 1, right, 2, &rep, 1), 0);     /* txn 2's write left out */
    report_free(&rep);
    assert_int_equal(final_report(right, 2, stranger, 3, &rep, 1), 0);   /* txn 7 is not in the history */
    report_free(&rep);
    assert_int_equal(final_report(right, 2, right, 2, &rep, 9), 0);      /* key 9 is not either */
    report_free(&rep);
    assert_int_equal(final_report(right, 0, right, 2, &rep, 1), 0);      /* no writer of x at si */
    report_free(&rep);
}

static void test_one_level_wanted(void **state) {
    (void)state;
    report rep;
    assert_int_equal(final_report(right, 2, NULL, 0, &rep, 1), 1);
    assert_int_equal(rep.num_levels, 1);
    assert_int_equal(rep.levels[0].level, LEVEL_SI);
    report_free(&rep);
    assert_int_equal(final_report(NULL, 0, wrong, 2, &rep, 1), 0);
    report_free(&rep);
}

static void test_each_level_at_its_own(void **state) {
    (void)state;
    report rep;
    history_text = skew;
    assert_int_equal(final_report(right, 2, NULL, 0, &rep, 1), 1);      /* SI: the skew is allowed */
    report_free(&rep);
    assert_int_equal(final_report(NULL, 0, right, 2, &rep, 1), 0);      /* SER: a cycle of two RW edges */
    report_free(&rep);
    assert_int_equal(final_report(right, 2, right, 2, &rep, 1), 0);
    report_free(&rep);
    history_text = text;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_right_orders_pass),
        cmocka_unit_test(test_wrong_order_at_either_level),
        cmocka_unit_test(test_malformed_orders),
        cmocka_unit_test(test_one_level_wanted),
        cmocka_unit_test(test_each_level_at_its_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
