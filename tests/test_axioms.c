/* test_axioms.c — each non-cycle anomaly with its expected report, and
 * clean histories that must report nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "frontend/checking/axioms.h"
#include "parse_helpers.h"

typedef struct found { anomaly_list list; uint64_t n; history *h; } found;

static found check(history_format fmt, const char *text) {
    found f;
    ic_error err;
    f.h = load_str(fmt, text, &err);
    if (!f.h) fprintf(stderr, "load failed: %ld: %s\n", err.line, err.msg);
    assert_non_null(f.h);
    anomaly_list_init(&f.list);
    f.n = axioms_check(f.h, &f.list, 0);
    return f;
}

static void done(found *f) { anomaly_list_free(&f->list); history_free(f->h); }

/* Exactly one anomaly, of this kind and detail, over these txn ext ids. */
static void expect_one(history_format fmt, const char *text, anomaly_kind kind, const char *detail,
                       int64_t t1, int64_t t2) {
    found f = check(fmt, text);
    if (f.n != 1) for (size_t i = 0; i < f.list.items.len; i++) fprintf(stderr, "  got: %s\n", f.list.items.data[i].detail);
    assert_int_equal(f.n, 1);
    anomaly *a = &f.list.items.data[0];
    assert_int_equal(a->kind, kind);
    assert_string_equal(a->detail, detail);
    assert_int_equal(f.h->txns[a->txns.data[0]].ext_id, t1);
    if (t2 >= 0) { assert_int_equal(a->txns.len, 2); assert_int_equal(f.h->txns[a->txns.data[1]].ext_id, t2); }
    else assert_int_equal(a->txns.len, 1);
    done(&f);
}

static void clean_histories_pass(void **state) {
    (void)state;
    found f = check(FORMAT_TEXT, "w(1,1,1,1)\nr(1,1,1,1)\nw(1,2,1,1)\nr(1,2,1,1)\nr(2,0,1,1)\nr(2,0,1,1)\n"
                                 "r(1,2,2,2)\nw(1,3,2,2)\n");
    assert_int_equal(f.n, 0);
    assert_int_equal(f.list.items.len, 0);
    done(&f);
    f = check(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:append 1 1] [:append 1 2] [:r 1 [1 2]]]}\n"
                           "{:type :ok, :f :txn, :process 1, :value [[:r 1 [1 2]] [:append 1 3] [:r 1 [1 2 3]]]}\n"
                           "{:type :ok, :f :txn, :process 2, :value [[:r 1 [1 2 3]] [:r 2 []] [:r 3 nil] [:append 1 4] [:r 1 [1 2 3 4]]]}\n");
    assert_int_equal(f.n, 0);
    done(&f);
}

static void internal_read_after_write(void **state) {
    (void)state;
    expect_one(FORMAT_TEXT, "w(1,1,1,1)\nw(1,2,1,2)\nr(1,1,1,2)\n", AN_INT,
               "txn 2 reads key 1 = 1 after writing 2 itself", 2, -1);
}

static void internal_repeated_read(void **state) {
    (void)state;
    expect_one(FORMAT_TEXT, "w(1,1,1,1)\nr(1,0,2,2)\nr(1,1,2,2)\n", AN_NONREPEATABLE_READ,
               "txn 2 reads key 1 = 1 after reading init itself, with no own write between", 2, -1);
    /* after an own write the read must show it: not-my-own-write, whatever was read before */
    expect_one(FORMAT_TEXT, "w(1,1,1,1)\nr(1,0,2,2)\nw(1,2,2,2)\nr(1,1,2,2)\n", AN_INT,
               "txn 2 reads key 1 = 1 after writing 2 itself", 2, -1);
    /* the second external read is judged on its own: thin air besides non-repeatable */
    found f = check(FORMAT_TEXT, "w(1,1,1,1)\nr(1,1,2,2)\nr(1,9,2,2)\n");
    assert_int_equal(f.n, 2);
    assert_int_equal(f.list.items.data[0].kind, AN_NONREPEATABLE_READ);
    assert_int_equal(f.list.items.data[1].kind, AN_THIN_AIR_READ);
    done(&f);
    /* which levels each breaks (doc/levels.md) */
    assert_int_equal(anomaly_breaks(AN_NONREPEATABLE_READ), ANOMALY_ALL_LEVELS & ~ANOMALY_LEVEL_BIT(LEVEL_RC));
    assert_int_equal(anomaly_breaks(AN_THIN_AIR_READ), ANOMALY_ALL_LEVELS);
    uint64_t counts[AN_NUM_KINDS] = { 0 };
    counts[AN_NONREPEATABLE_READ] = 3;
    assert_int_equal(axioms_broken_levels(counts), ANOMALY_ALL_LEVELS & ~ANOMALY_LEVEL_BIT(LEVEL_RC));
    assert_int_equal(axioms_level_count(counts, LEVEL_RC), 0);
    assert_int_equal(axioms_level_count(counts, LEVEL_RA), 3);
    counts[AN_INT] = 1;
    assert_int_equal(axioms_broken_levels(counts), ANOMALY_ALL_LEVELS);
    assert_int_equal(axioms_level_count(counts, LEVEL_RC), 1);
}

static void internal_future_read(void **state) {
    (void)state;
    expect_one(FORMAT_TEXT, "r(1,5,1,1)\nw(1,5,1,1)\n", AN_INT, "txn 1 reads key 1 = 5, which it writes only later", 1, -1);
}

static void aborted_read(void **state) {
    (void)state;
    expect_one(FORMAT_ELLE, "{:type :fail, :f :txn, :process 0, :index 1, :value [[:w 1 7]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 7]]}\n",
               AN_ABORTED_READ, "txn 2 reads key 1 = 7 written by aborted txn 1", 2, 1);
}

static void aborted_reader_not_judged(void **state) {
    (void)state;
    /* dbcop keeps reads of aborted transactions; they are not judged */
    found f = check(FORMAT_ELLE, "{:type :fail, :f :txn, :process 0, :index 1, :value [[:w 1 7]]}\n");
    assert_int_equal(f.n, 0);
    done(&f);
}

static void intermediate_read(void **state) {
    (void)state;
    expect_one(FORMAT_TEXT, "w(1,1,1,1)\nw(1,2,1,1)\nr(1,1,2,2)\n", AN_INTERMEDIATE_READ,
               "txn 2 reads key 1 = 1, which txn 1 overwrote with 2 later in the same transaction", 2, 1);
}

static void thin_air_read(void **state) {
    (void)state;
    expect_one(FORMAT_TEXT, "w(1,1,1,1)\nr(1,9,2,2)\n", AN_THIN_AIR_READ, "txn 2 reads key 1 = 9, which no transaction wrote", 2, -1);
}

static void indeterminate_writer_may_be_read(void **state) {
    (void)state;
    found f = check(FORMAT_ELLE, "{:type :info, :f :txn, :process 0, :index 1, :value [[:w 1 7]]}\n"
                                 "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 7]]}\n");
    assert_int_equal(f.n, 0);
    done(&f);
}

static void list_incompatible_order(void **state) {
    (void)state;
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:append 1 2]]}\n"
                            "{:type :ok, :f :txn, :process 2, :index 3, :value [[:r 1 [1 2]]]}\n"
                            "{:type :ok, :f :txn, :process 3, :index 4, :value [[:r 1 [2]]]}\n",
               AN_LIST_INCOMPATIBLE, "reads of list key 1 disagree at position 0: txn 4 saw 2 where txn 3 saw 1", 4, 3);
}

static void list_thin_air_and_duplicate(void **state) {
    (void)state;
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1 8]]]}\n",
               AN_LIST_BAD_ELEMENT, "txn 2 reads list key 1 containing 8, which nobody appended", 2, -1);
    found f = check(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                                 "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1 1]]]}\n");
    assert_true(f.n >= 1);
    assert_int_equal(f.list.items.data[0].kind, AN_LIST_BAD_ELEMENT);
    assert_string_equal(f.list.items.data[0].detail, "txn 2 reads list key 1 containing 1 twice");
    done(&f);
}

static void list_aborted_and_intermediate(void **state) {
    (void)state;
    expect_one(FORMAT_ELLE, "{:type :fail, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]]]}\n",
               AN_ABORTED_READ, "txn 2 reads list key 1 containing 1, appended by aborted txn 1", 2, 1);
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1] [:append 1 2]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]]]}\n",
               AN_INTERMEDIATE_READ, "txn 2 reads list key 1 with 1 but without 2, which txn 1 appended next", 2, 1);
}

/* A version is all of its writer's appends: a list holding 2 must hold 1,
 * its writer's earlier append, right before it. */
static void list_split_run(void **state) {
    (void)state;
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1] [:append 1 2]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [2]]]}\n",
               AN_LIST_INCOMPATIBLE, "txn 2 reads list key 1 with 2 but not right after 1, which txn 1 appended just before it", 2, 1);
    /* also in the external prefix of a read after an own append */
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1] [:append 1 2]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:append 1 3] [:r 1 [2 3]]]}\n",
               AN_LIST_INCOMPATIBLE, "txn 2 reads list key 1 with 2 but not right after 1, which txn 1 appended just before it", 2, 1);
    expect_one(FORMAT_ELLE, "{:type :fail, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:append 1 3] [:r 1 [1 3]]]}\n",
               AN_ABORTED_READ, "txn 2 reads list key 1 containing 1, appended by aborted txn 1", 2, 1);
}

/* An indeterminate transaction whose write is observed committed: its own
 * reads are judged too; an unobserved one's are not. */
static void observed_indeterminate_reads_judged(void **state) {
    (void)state;
    for (int observed = 0; observed < 2; observed++) {
        history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "b");
        uint32_t x = hb_key(b, 1), y = hb_key(b, 2);
        uint32_t t1 = hb_txn(b, hb_session(b, 1, NULL), 1, 1);
        hb_op(b, t1, OP_READ, x, 99, 1);          /* nobody wrote 99 */
        hb_op(b, t1, OP_WRITE, y, 7, 1);
        hb_txn_status(b, t1, TXN_INDETERMINATE);
        uint32_t t2 = hb_txn(b, hb_session(b, 2, NULL), 2, 2);
        hb_op(b, t2, OP_READ, y, observed ? 7 : VALUE_INIT, 2);
        ic_error err; ic_error_clear(&err);
        history *h = hb_finish(b, &err);
        assert_non_null(h);
        anomaly_list l;
        anomaly_list_init(&l);
        assert_int_equal(axioms_check(h, &l, 0), observed ? 1 : 0);
        if (observed) {
            assert_int_equal(l.items.data[0].kind, AN_THIN_AIR_READ);
            assert_string_equal(l.items.data[0].detail, "txn 1 reads key 1 = 99, which no transaction wrote");
        }
        anomaly_list_free(&l);
        history_free(h);
    }
}

static void list_internal(void **state) {
    (void)state;
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]] [:append 1 2] [:r 1 [1]]]}\n",
               AN_INT, "txn 2 reads list key 1, which does not match its own earlier read and appends", 2, -1);
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 1, :index 2, :value [[:append 1 2] [:r 1 []]]}\n",
               AN_INT, "txn 2 reads list key 1, which does not match its own earlier appends", 2, -1);
}

/* A list read's external prefix that differs from the transaction's
 * earlier one is a non-repeatable read, own appends between or not. */
static void list_nonrepeatable(void **state) {
    (void)state;
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 []] [:append 1 2] [:r 1 [1 2]]]}\n",
               AN_NONREPEATABLE_READ, "txn 2 reads list key 1 as version [1] after reading version [] itself", 2, -1);
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]] [:r 1 []]]}\n",
               AN_NONREPEATABLE_READ, "txn 2 reads list key 1 as version [] after reading version [1] itself", 2, -1);
    /* the same version twice, own appends between: nothing */
    found f = check(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                                 "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]] [:append 1 2] [:r 1 [1 2]] [:r 1 [1 2]]]}\n");
    assert_int_equal(f.n, 0);
    done(&f);
}

/* External prefixes that agree, whole lists that do not: the reader's own
 * appends do not follow the version it read (psi and up only). */
static void list_append_order(void **state) {
    (void)state;
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]] [:append 1 2] [:r 1 [1 2]]]}\n"
                            "{:type :ok, :f :txn, :process 2, :index 3, :value [[:append 1 3]]}\n"
                            "{:type :ok, :f :txn, :process 3, :index 4, :value [[:r 1 [1 3]]]}\n",
               AN_APPEND_ORDER, "reads of list key 1 disagree at position 1: txn 4 saw 3 where txn 2 saw 2; "
               "txn 2's own appends there do not follow the version it read", 4, 2);
    uint32_t b = anomaly_breaks(AN_APPEND_ORDER);
    assert_int_equal(b >> LEVEL_RC & 1u, 0);
    assert_int_equal(b >> LEVEL_PC & 1u, 0);
    assert_int_equal(b >> LEVEL_PSI & 1u, 1);
    assert_int_equal(b >> LEVEL_SI_PLAIN & 1u, 1);
    /* the external prefixes disagree: incompatible-order, every level */
    expect_one(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                            "{:type :ok, :f :txn, :process 1, :index 2, :value [[:append 1 2]]}\n"
                            "{:type :ok, :f :txn, :process 2, :index 3, :value [[:r 1 [1]] [:append 1 5] [:r 1 [1 5]]]}\n"
                            "{:type :ok, :f :txn, :process 3, :index 4, :value [[:r 1 [2]]]}\n",
               AN_LIST_INCOMPATIBLE, "reads of list key 1 disagree at position 0: txn 4 saw 2 where txn 3 saw 1", 4, 3);
}

static void limit_counts_all(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_TEXT, "r(1,5,1,1)\nr(2,6,1,1)\nr(3,7,1,1)\n", &err);
    anomaly_list l;
    anomaly_list_init(&l);
    assert_int_equal(axioms_check(h, &l, 2), 3);
    assert_int_equal(l.items.len, 2);
    const anomaly *a = &l.items.data[0];
    assert_int_equal(a->kind, AN_THIN_AIR_READ);
    assert_string_equal(a->detail, "txn 1 reads key 1 = 5, which no transaction wrote");
    assert_int_equal(a->txns.len, 1);
    assert_int_equal(a->txns.data[0], 1);
    assert_int_equal(a->ops.len, 1);
    anomaly_list_free(&l);
    history_free(h);
    /* past the limit, a violation that breaks a level no listed one breaks
     * (rc: the thin-air read after two non-repeatable reads) is listed too */
    h = load_str(FORMAT_TEXT, "w(1,1,1,1)\nr(1,0,2,2)\nr(1,1,2,2)\nr(1,0,3,3)\nr(1,1,3,3)\nr(2,9,4,4)\nr(3,9,4,4)\n", &err);
    anomaly_list_init(&l);
    assert_int_equal(axioms_check(h, &l, 1), 4);
    assert_int_equal(l.items.len, 2);
    assert_int_equal(l.items.data[0].kind, AN_NONREPEATABLE_READ);
    assert_int_equal(l.items.data[1].kind, AN_THIN_AIR_READ);
    anomaly_list_free(&l);
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_histories_pass),
        cmocka_unit_test(internal_read_after_write),
        cmocka_unit_test(internal_repeated_read),
        cmocka_unit_test(internal_future_read),
        cmocka_unit_test(aborted_read),
        cmocka_unit_test(aborted_reader_not_judged),
        cmocka_unit_test(intermediate_read),
        cmocka_unit_test(thin_air_read),
        cmocka_unit_test(indeterminate_writer_may_be_read),
        cmocka_unit_test(list_incompatible_order),
        cmocka_unit_test(list_thin_air_and_duplicate),
        cmocka_unit_test(list_aborted_and_intermediate),
        cmocka_unit_test(list_internal),
        cmocka_unit_test(list_split_run),
        cmocka_unit_test(list_nonrepeatable),
        cmocka_unit_test(list_append_order),
        cmocka_unit_test(observed_indeterminate_reads_judged),
        cmocka_unit_test(limit_counts_all),
    };
    return cmocka_run_group_tests_name("axioms", tests, NULL, NULL);
}
