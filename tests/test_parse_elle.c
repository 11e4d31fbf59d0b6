/* test_parse_elle.c — Elle EDN: registers, lists, statuses, every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "parse_helpers.h"

static void loads_list_append(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_AUTO,
        "{:type :invoke, :f :txn, :process 0, :index 0, :value [[:append 1 1] [:r 1]]}\n"
        "{:type :ok, :f :txn, :process 0, :time 12, :index 1, :value [[:append 1 1] [:r 1 [1]]]}\n"
        "{:type :invoke, :f :start, :process :nemesis, :index 2}\n"
        "#jepsen.history.Op{:type :ok, :f :txn, :process 1, :index 3, :node \"n1\", :value [[:r 1 [1 2]] [:r 2 nil] [:append 2 5]]}\n"
        "{:type :fail, :f :txn, :process 2, :index 4, :error [:timeout {:ms 10}], :value [[:append 1 2] [:r 2 nil]]}\n"
        "{:type :info, :f :txn, :process 3, :index 5, :value [[:append \"k\" 9] [:r :y]]}\n"
        "; a comment\n", &err);
    if (!h) fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(h);
    assert_int_equal(h->format, FORMAT_ELLE);
    assert_true(h->has_lists);
    assert_int_equal(h->num_sessions, 4);
    assert_int_equal(h->num_txns, 5);
    assert_int_equal(h->txns[1].ext_id, 1);
    assert_int_equal(h->txns[2].ext_id, 3);
    assert_int_equal(h->txns[3].status, TXN_ABORTED);
    assert_int_equal(h->txns[4].status, TXN_INDETERMINATE);
    assert_int_equal(h->txns[3].num_ops, 1);            /* the :fail read is dropped */
    assert_int_equal(h->txns[4].num_ops, 1);
    uint32_t r = op_of(h, 2, 0), n;
    assert_int_equal(history_op_kind(h, r), OP_LIST_READ);
    const int64_t *l = history_list(h, r, &n);
    assert_int_equal(n, 2);
    assert_int_equal(l[1], 2);
    assert_int_equal(history_read_source(h, r), op_of(h, 3, 0));   /* the aborted append of 2 */
    uint32_t nil = op_of(h, 2, 1);                       /* [:r 2 nil] on a list key: [] */
    assert_int_equal(history_op_kind(h, nil), OP_LIST_READ);
    history_list(h, nil, &n);
    assert_int_equal(n, 0);
    assert_int_equal(history_read_source(h, nil), h->op_key[nil]);
    char kb[16];
    assert_string_equal(history_key_str(h, h->op_key[op_of(h, 4, 0)], kb, sizeof kb), "\"k\"");
    assert_int_equal(h->op_line[op_of(h, 2, 2)], 4);
    history_free(h);
}

static void loads_registers(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_ELLE,
        "{:type :ok, :f :txn, :process 0, :value [[:w :x 1] [:r :x 1] [:r :y nil]]}\n"
        "{:type :ok, :f :txn, :process 1, :value [[:r :x 1] [:w :y -4]]}\n", &err);
    assert_non_null(h);
    assert_false(h->has_lists);
    assert_int_equal(h->txns[1].ext_id, 1);              /* no :index: the line number */
    assert_int_equal(h->txns[2].ext_id, 2);
    uint32_t r = op_of(h, 1, 2);
    assert_int_equal(history_op_kind(h, r), OP_READ);
    assert_true(h->op_value[r] == VALUE_INIT);
    assert_int_equal(history_read_source(h, op_of(h, 2, 0)), op_of(h, 1, 0));
    history_free(h);
}

static void every_error(void **state) {
    (void)state;
    assert_load_error(FORMAT_ELLE, "[:type :ok]\n", 1, "expected '{' starting an operation map, found '[:type :ok]'");
    assert_load_error(FORMAT_ELLE, "{:type :weird}\n", 1, "expected :invoke, :ok, :fail or :info after :type, found ':weird}'");
    assert_load_error(FORMAT_ELLE, "{type :ok}\n", 1, "expected a keyword (like :type) or '}', found 'type :ok}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1]]\n", 1,
                      "expected a keyword (like :type) or '}', found end of line");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1]]} x\n", 1,
                      "expected end of line after the map (one operation per line), found 'x'");
    assert_load_error(FORMAT_ELLE, "{:f :txn, :process 0, :value []}\n", 1, "expected an operation with :type, found end of line");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :value []}\n", 1,
                      "expected a :process in a :txn completion, found end of line");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0}\n", 1,
                      "expected a :value in a :txn completion, found end of line");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:cas 1 1 2]]}\n", 1,
                      "expected a micro-op :r, :w or :append, found ':cas 1 1 2]]}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [:w 1 1]}\n", 1,
                      "expected '[' starting a micro-op like [:r k v], found ':w 1 1]}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 x]]}\n", 1,
                      "expected a written value (integer), found 'x]]}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:append 1 1 2]]}\n", 1,
                      "expected ']' closing the micro-op, found '2]]}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:r 1 [1 a]]]}\n", 1,
                      "expected an integer list element or ']', found 'a]]]}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1] [:append 1 2]]}\n", 1,
                      "key 1 is used both as a register ([:w k v], [:r k v]) and as a list ([:append k v], [:r k [...]])");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 99999999999999999999]]}\n", 1,
                      "a written value (integer) out of range (64-bit signed integers)");
    assert_load_error(FORMAT_ELLE,
                      "{:type :ok, :f :txn, :process 0, :index 7, :value [[:w 1 1]]}\n"
                      "{:type :ok, :f :txn, :process 1, :index 7, :value [[:w 1 2]]}\n", 2,
                      "duplicate transaction id (:index 7)");
    assert_load_error(FORMAT_ELLE,
                      "{:type :ok, :f :txn, :process 0, :value [[:append 1 3]]}\n"
                      "{:type :ok, :f :txn, :process 1, :value [[:append 1 3]]}\n", 2,
                      "value 3 written twice to key 1 (first at t:1); values written to a key must be unique");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :time \"abc, :f :txn}\n", 1,
                      "expected '\"' closing a string (strings may not span lines), found end of line");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :x [1 2)}\n", 1, "expected ']', found ')}'");
    assert_load_error(FORMAT_ELLE, "{:type :invoke, :f :txn, :process 0, :value [[:w 1 1]]}\n", 0,
                      "empty history: no operations found");
    char deep[700];
    size_t at = (size_t)snprintf(deep, sizeof deep, "{:type :ok, :x ");
    for (int i = 0; i < 300; i++) deep[at++] = '[';
    deep[at++] = '\n'; deep[at] = 0;
    assert_load_error(FORMAT_ELLE, deep, 1, "expected less nesting (at most 256 levels), found '[[[[[[[[[[[[[[[[[[[[[[[...'");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_list_append),
        cmocka_unit_test(loads_registers),
        cmocka_unit_test(every_error),
    };
    return cmocka_run_group_tests_name("parse_elle", tests, NULL, NULL);
}
