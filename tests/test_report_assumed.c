/* test_report_assumed.c — report_assumed.c: an explanation that rests on
 * a writer the check chose for a read of a repeated value says so
 * (doc/checker.md, "What the report states"), here the version order an
 * RW edge of a proof rests on: "W's version precedes O's: O read it and
 * overwrote it" (BASIS_RMW) is a fact only when O's read names its writer.
 *
 * The history: txn 1 writes 1=5; txn 2 reads 1=5 (txn 1's: its own later
 * write is not readable) and writes 1=5; txn 3 reads 1=5 (txn 1's or
 * txn 2's: a choice) and writes 1=6.  Key 2: txn 4 writes 2=1, txn 5
 * 2=2; txn 6 reads 2=1, txn 7 reads 2=1 and writes 2=3 (established). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/checking/check.h"
#include "frontend/history/list_repeat.h"
#include "frontend/reports/report_assumed.h"
#include "tests/parse_helpers.h"

static const char *rmw_amb = "w(1,5,1,1)\nr(1,5,2,2)\nw(1,5,2,2)\nr(1,5,3,3)\nw(1,6,3,3)\nw(2,1,4,4)\nw(2,2,4,5)\n"
                             "r(2,1,5,6)\nr(2,1,6,7)\nw(2,3,6,7)\n";

static uint32_t txn_of(const history *h, int64_t ext) {
    for (uint32_t t = 1; t < h->num_txns; t++) if (h->txns[t].ext_id == ext) return t;
    fail_msg("no txn %lld", (long long)ext);
    return 0;
}

/* The anomaly's text report (report_print_anomaly), malloc'd. */
static char *printed(const history *h, const report_anomaly *a) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    report_print_anomaly(f, h, a, 1);
    fclose(f);
    return buf;
}

/* A cycle edge on key 2 (txn 4 -> txn 5) whose proof's cycle holds the RW
 * edge txn 2 -> txn 3 on key 1 resting on "txn 1's 1 precedes txn 3's:
 * txn 3 read it and overwrote it" (what cycle_bases gives an RW edge whose
 * version order is a read-modify-write). */
static void rw_edge_on_assumed_rmw(void **state) {
    (void)state;
    history *h = load_text(rmw_amb);
    ic_error err; ic_error_clear(&err);
    assert_non_null(history_resolved(h, &err));
    uint32_t t1 = txn_of(h, 1), t2 = txn_of(h, 2), t3 = txn_of(h, 3), t4 = txn_of(h, 4), t5 = txn_of(h, 5);
    uint32_t k1 = h->op_key[h->txns[t3].first_op], k2 = h->op_key[h->txns[t4].first_op];
    assert_int_equal(report_has_assumed(h), 1);
    assert_int_equal(report_assumed_read(h, t2, k1), HISTORY_NONE);     /* txn 2's writer is established */
    assert_int_not_equal(report_assumed_read(h, t3, k1), HISTORY_NONE); /* txn 3's is a choice */

    dep_edge rw = { t2, t3, k1, DEP_RW };
    edge_basis rmw = { BASIS_RMW, t1, t3, HISTORY_NONE }, obs = { BASIS_OBSERVED, HISTORY_NONE, HISTORY_NONE, HISTORY_NONE };
    assert_int_equal(report_edge_assumed(h, &rw, NULL), 0);        /* its reader's writer: established */
    assert_int_equal(report_edge_assumed(h, &rw, &obs), 0);
    assert_int_equal(report_basis_assumed(h, &rw, &rmw), 1);       /* its order: txn 3's chosen read */
    assert_int_equal(report_edge_assumed(h, &rw, &rmw), 1);

    report_anomaly a;
    memset(&a, 0, sizeof a);
    a.kind = AN_CYCLE;
    a.level = LEVEL_SER;
    vec_init(a.txns); vec_init(a.ops); vec_init(a.edges); vec_init(a.why); vec_init(a.facts);
    dep_edge ww = { t4, t5, k2, DEP_WW };
    vec_push(a.edges, ww);
    edge_why w;
    memset(&w, 0, sizeof w);
    vec_init(w.alt); vec_init(w.basis);
    w.status = WHY_FORCED;
    w.before = t4; w.after = t5; w.read_op = HISTORY_NONE;
    dep_edge opp = { t5, t4, k2, DEP_WW };
    edge_basis bo = { BASIS_ASSUMED, t5, t4, HISTORY_NONE };
    vec_push(w.alt, opp); vec_push(w.basis, bo);
    vec_push(w.alt, rw); vec_push(w.basis, rmw);
    vec_push(a.why, w);
    assert_int_equal(report_why_assumed(h, &a, &a.why.data[0], 0), 1);
    char *s = printed(h, &a);
    assert_non_null(strstr(s, "forced given the writers assumed: "));
    assert_null(strstr(s, "forced: "));
    assert_non_null(strstr(s, "(txn 1's 1 precedes txn 3's: txn 3 read it (assumed: another write of the value is possible) "
                              "and overwrote it)"));
    assert_non_null(strstr(s, "txn 3 read 1=5 from txn 1"));     /* listed among the reads it assumes */
    assert_non_null(strstr(s, "txn 2 read 1=5, which txn 3's 1=6 overwrote"));   /* txn 2's own read: a fact */
    free(s);

    /* the same shape through txn 7's read-modify-write, established: plain */
    uint32_t t6 = txn_of(h, 6), t7 = txn_of(h, 7);
    a.why.data[0].basis.data[1] = (edge_basis){ BASIS_RMW, t4, t7, HISTORY_NONE };
    a.why.data[0].alt.data[1] = (dep_edge){ t6, t7, k2, DEP_RW };
    assert_int_equal(report_why_assumed(h, &a, &a.why.data[0], 0), 0);
    s = printed(h, &a);
    assert_null(strstr(s, "given the writers assumed"));
    assert_null(strstr(s, "(assumed"));
    free(s);
    report_anomaly_free(&a);
    history_free(h);
}

/* check.c's reason under a choice lists the reads its cycle's edges rest
 * on, not every read of a repeated value its transactions made.  Txn 11
 * read 3=50 (txn 10's or txn 12's: either closes a WR cycle with txn 11's
 * 4=60, which both read) and 1=5 (txn 1's or txn 3's, on no edge of it). */
static void check_reason_lists_cycle_reads(void **state) {
    (void)state;
    history *h = load_text("w(1,5,1,1)\nw(1,5,2,3)\nr(4,60,3,10)\nw(3,50,3,10)\nr(3,50,4,11)\nr(1,5,4,11)\n"
                           "w(4,60,4,11)\nr(4,60,5,12)\nw(3,50,5,12)\n");
    ic_error err; ic_error_clear(&err);
    const history *r = history_resolved(h, &err);
    assert_non_null(r);
    assert_int_equal(r->num_amb, 2);
    pg_index ix;
    assert_true(pg_index_build(&ix, r, &err));
    check_result res;
    assert_int_equal(check_level(&ix, LEVEL_SER, NULL, &res), VERDICT_FAIL);
    assert_non_null(res.chosen);
    const char *list = strstr(res.msg, "the cycle shown assumes");
    assert_non_null(list);
    assert_true(strstr(list, " txn 11 read 3=50 from txn 10") || strstr(list, " txn 11 read 3=50 from txn 12"));
    assert_null(strstr(list, "read 1=5"));      /* txn 11's other read: no edge of the cycle rests on it */
    check_result_free(&res);
    pg_index_free(&ix);
    history_free(h);
}

/* A list history with repeated appends (doc/checker.md, "Repeated
 * appends": what the report states): txns 0 and 1 append 5 to key 1,
 * txn 4 appends 7; txn 2 read [5] (txn 0's 5 or txn 1's: the choice),
 * txn 3 read [5 5 7] (its version, txn 4's, established; the order of
 * txns 0 and 1 in it the choice), txn 5 read [] (INIT's). */
static void list_elements_chosen(void **state) {
    (void)state;
    const char *edn =
        "{:type :ok, :f :txn, :value [[:append 1 5]], :process 0, :index 0}\n"
        "{:type :ok, :f :txn, :value [[:append 1 5]], :process 1, :index 1}\n"
        "{:type :ok, :f :txn, :value [[:r 1 [5]]], :process 2, :index 2}\n"
        "{:type :ok, :f :txn, :value [[:r 1 [5 5 7]]], :process 3, :index 3}\n"
        "{:type :ok, :f :txn, :value [[:append 1 7]], :process 4, :index 4}\n"
        "{:type :ok, :f :txn, :value [[:r 1 []]], :process 5, :index 5}\n";
    ic_error err; ic_error_clear(&err);
    history *h = load_str(FORMAT_ELLE, edn, &err);
    assert_non_null(h);
    uint32_t t0 = txn_of(h, 0), t1 = txn_of(h, 1), t2 = txn_of(h, 2), t3 = txn_of(h, 3), t4 = txn_of(h, 4), t5 = txn_of(h, 5);
    uint32_t r3 = h->txns[t3].first_op, k1 = h->op_key[r3];
    list_choice *lc = list_choice_build(h, 1, 1, 0);
    assert_non_null(lc);
    assert_int_equal(list_choice_num(lc), 1);
    assert_int_equal(report_has_assumed(h), 0);
    history_set_list_assumed(h, list_choice_mark(h, lc, NULL));
    assert_int_equal(report_has_assumed(h), 1);
    assert_int_not_equal(report_assumed_read(h, t2, k1), HISTORY_NONE);   /* [5]: txn 0's or txn 1's */
    assert_int_equal(report_assumed_read(h, t3, k1), HISTORY_NONE);       /* [5 5 7]: txn 4's */
    assert_int_equal(report_assumed_read(h, t5, k1), HISTORY_NONE);       /* []: INIT's */
    dep_edge wr2 = { t0, t2, k1, DEP_WR }, wr3 = { t4, t3, k1, DEP_WR };
    assert_true(report_edge_assumed(h, &wr2, NULL));
    assert_false(report_edge_assumed(h, &wr3, NULL));
    assert_true(report_listed_assumed(h, r3, t0, t1));     /* where txns 0 and 1 sit in [5 5 7]: the choice */
    assert_true(report_listed_assumed(h, r3, t1, t4));
    assert_false(report_listed_assumed(h, r3, t4, t5));    /* neither appended a 5 */
    edge_why w = { .status = WHY_LISTED, .before = t0, .after = t1, .read_op = r3 };
    assert_true(report_why_assumed_in(h, NULL, 0, &w, 0));
    w.before = t4; w.after = t5;
    assert_false(report_why_assumed_in(h, NULL, 0, &w, 0));
    history_set_list_assumed(h, NULL);                     /* none marked: no form */
    assert_int_equal(report_has_assumed(h), 0);
    list_choice_free(lc);
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rw_edge_on_assumed_rmw),
        cmocka_unit_test(check_reason_lists_cycle_reads),
        cmocka_unit_test(list_elements_chosen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
