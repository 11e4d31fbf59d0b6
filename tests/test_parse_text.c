/* test_parse_text.c — PolySI text format: model contents and every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "parse_helpers.h"

static void loads_sessions_txns_ops(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_AUTO,
                          "w(1,5,1,10)\n"
                          "w(2,6,1,10)\n"
                          "\n"
                          "# a comment\n"
                          "r(1,5,2,20)\n"
                          "r(2,0,2,20)\n"
                          "w(1,7,1,11)\r\n"
                          "r(3,0,1,11)  \n", &err);
    assert_non_null(h);
    assert_int_equal(h->format, FORMAT_TEXT);
    assert_int_equal(h->num_sessions, 2);
    assert_int_equal(h->num_txns, 4);                 /* INIT + 3 */
    assert_int_equal(h->num_keys, 3);
    assert_int_equal(h->txns[1].ext_id, 10);
    assert_int_equal(h->txns[2].ext_id, 11);
    assert_int_equal(h->txns[2].pos, 1);
    assert_int_equal(h->txns[3].ext_id, 20);
    assert_int_equal(h->sessions[1].ext_id, 2);
    assert_int_equal(h->txns[2].num_ops, 2);
    uint32_t r = op_of(h, 3, 1);
    assert_int_equal(history_op_kind(h, r), OP_READ);
    assert_true(history_op_value(h, r) == VALUE_INIT);        /* value 0 reads INIT */
    assert_int_equal(history_op_line(h, r), 6);
    assert_int_equal(history_read_source(h, r), h->op_key[r]);
    assert_int_equal(h->key_ext[h->op_key[op_of(h, 2, 1)]], 3);
    assert_int_equal(history_read_source(h, op_of(h, 3, 0)), op_of(h, 1, 0));
    history_free(h);
}

static void byte_order_mark_is_skipped(void **state) {
    (void)state;
    ic_error err;
    for (int f = 0; f < 2; f++) {                /* detected, and named */
        history *h = load_str(f ? FORMAT_TEXT : FORMAT_AUTO, "\xEF\xBB\xBFw(1,1,1,1)\nr(1,1,2,2)\n", &err);
        assert_non_null(h);
        assert_int_equal(h->num_txns, 3);        /* INIT and two */
        assert_int_equal(history_op_line(h, op_of(h, 1, 0)), 1);
        assert_int_equal(history_op_line(h, op_of(h, 2, 0)), 2);
        history_free(h);
    }
    /* only at the very start: elsewhere it is a character like any other */
    assert_load_error(FORMAT_TEXT, "w(1,1,1,1)\n\xEF\xBB\xBFr(1,1,2,2)\n", 2,
                      "expected 'r(' or 'w(', found '???r(1,1,2,2)'");
}

static void interleaved_txn_keeps_program_order(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_TEXT, "w(1,1,1,1)\nw(1,2,1,2)\nw(2,3,1,1)\n", &err);
    assert_non_null(h);
    assert_int_equal(h->txns[1].num_ops, 2);
    assert_int_equal(history_op_value(h, op_of(h, 1, 1)), 3);
    assert_int_equal(history_op_line(h, op_of(h, 1, 1)), 3);
    history_free(h);
}

static void every_error(void **state) {
    (void)state;
    assert_load_error(FORMAT_TEXT, "w(1,1,1,1)\nx(1,2,3,4)\n", 2, "expected 'r(' or 'w(', found 'x(1,2,3,4)'");
    assert_load_error(FORMAT_TEXT, "w(a,1,1,1)\n", 1, "expected key (digits 0-9, no sign), found 'a,1,1,1)'");
    assert_load_error(FORMAT_TEXT, "w(1;1,1,1)\n", 1, "expected ',' after the key, found ';1,1,1)'");
    assert_load_error(FORMAT_TEXT, "w(1,,1,1)\n", 1, "expected value (digits 0-9, no sign), found ',1,1)'");
    assert_load_error(FORMAT_TEXT, "w(1,1,1)\n", 1, "expected ',' after the session id, found ')'");
    assert_load_error(FORMAT_TEXT, "w(1,1,1,1\n", 1, "expected ')' after the transaction id, found end of line");
    assert_load_error(FORMAT_TEXT, "w(1,1,1,1) x\n", 1, "expected end of line after ')', found 'x'");
    assert_load_error(FORMAT_TEXT, "w(1,99999999999999999999,1,1)\n", 1, "value out of range (at most 9223372036854775807)");
    assert_load_error(FORMAT_TEXT, "w(1,1,1,1)\nw(1,2,2,1)\n", 2,
                      "transaction 1 appears in two sessions (duplicate transaction id?)");
    assert_repeat_refused(FORMAT_TEXT, "w(1,1,1,1)\nw(1,1,1,2)\n", 2,
                      "value 1 written twice to key 1 (first at t:1); values written to a key must be unique");
    assert_load_error(FORMAT_TEXT, "# nothing\n\n", 0, "empty history: no operations found");
    assert_load_error(FORMAT_AUTO, "", 0, "empty history: the file is empty");
    assert_load_error(FORMAT_AUTO, "hello\n", 0,
                      "cannot tell the format (expected text r(...)/w(...) lines, Elle EDN maps, JSON objects, "
                      "dbcop bincode or Cobra logs); use --format");
    ic_error err;
    /* a compressed file is named, whatever --format says, never read as a history */
    static const struct { const char *bytes; size_t n; const char *name; } packed[] = {
        { "\xFD" "7zXZ\0\0\x04\xE6\xD6\xB4\x46", 12, "xz" }, { "BZh91AY&SY", 10, "bzip2" },
        { "\x28\xB5\x2F\xFD\x24\x00\x00\x00", 8, "zstd" },
    };
    const history_format as[] = { FORMAT_AUTO, FORMAT_TEXT, FORMAT_DBCOP };
    for (size_t k = 0; k < sizeof packed / sizeof *packed; k++)
        for (size_t f = 0; f < sizeof as / sizeof *as; f++) {
            char want[200];
            snprintf(want, sizeof want, "%s-compressed: decompress it first (isocheck reads plain and gzip-compressed "
                     "histories)", packed[k].name);
            ic_error_clear(&err);
            assert_null(load_history_mem(packed[k].bytes, packed[k].n, as[f], "t", &err));
            assert_string_equal(err.msg, want);
        }
    ic_error_clear(&err);
    history *h = load_history_mem("w(1,1,1,1)\nw(1\0,2,1,1)\n", 22, FORMAT_TEXT, "t", &err);
    assert_null(h);
    assert_string_equal(err.msg, "expected text, found a NUL byte");
    assert_int_equal(err.line, 2);
}

/* Regression (issue 14): a line starting with NUL was skipped as blank, so a
 * lost update whose last line was hidden so passed.  NUL anywhere is bad. */
static void nul_first_on_a_line_is_an_error(void **state) {
    (void)state;
    static const char lost[] = "r(1,0,1,1)\nw(1,10,1,1)\nr(1,0,2,2)\n\0w(1,20,2,2)\n";
    static const char blank_nul[] = "w(1,1,1,1)\n  \0\nr(1,1,2,2)\n";
    const char *cases[] = { lost, blank_nul };
    size_t lens[] = { sizeof lost - 1, sizeof blank_nul - 1 };
    long lines[] = { 4, 2 };
    for (int i = 0; i < 2; i++) {
        ic_error err;
        ic_error_clear(&err);
        history *h = load_history_mem(cases[i], lens[i], FORMAT_AUTO, "t", &err);
        if (h) history_free(h);
        assert_null(h);
        assert_string_equal(err.msg, "expected text, found a NUL byte");
        assert_int_equal(err.line, lines[i]);
    }
}

/* Regression (issue 14): r(1,-1,1,1) was read as a thin-air read of -1;
 * PolySI's format (and loader) has digits only. */
static void signs_are_bad_input(void **state) {
    (void)state;
    assert_load_error(FORMAT_AUTO, "w(1,1,1,1)\nr(1,-1,1,1)\n", 2, "expected value (digits 0-9, no sign), found '-1,1,1)'");
    assert_load_error(FORMAT_TEXT, "w(-3,1,1,1)\n", 1, "expected key (digits 0-9, no sign), found '-3,1,1,1)'");
    assert_load_error(FORMAT_TEXT, "w(3,+1,1,1)\n", 1, "expected value (digits 0-9, no sign), found '+1,1,1)'");
    assert_load_error(FORMAT_TEXT, "w(3,1,-1,1)\n", 1, "expected session id (digits 0-9, no sign), found '-1,1)'");
    assert_load_error(FORMAT_TEXT, "w(3,1,1,-2)\n", 1, "expected transaction id (digits 0-9, no sign), found '-2)'");
    /* -1 alone is Plume's/IsoVista's aborted write (test_parse_more.c), nothing else with a sign */
    assert_load_error(FORMAT_TEXT, "w(3,1,1,-10)\n", 1, "expected transaction id (digits 0-9, no sign), found '-10)'");
}

/* IsoVista writes its initial state as a first transaction of w(k,0,...)
 * lines: it stands for INIT (merged, counted in the load report); 0 is
 * still the initial value for reads, and writing 0 anywhere else (a later
 * transaction, even one of only such writes) is an error. */
static void isovista_initial_transaction(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    load_report rep;
    load_report_init(&rep);
    const char *text = "w(1,0,0,0)\nw(2,0,0,0)\nw(7,0,0,0)\nr(1,0,1,1)\nw(1,5,1,1)\nr(2,0,2,2)\nr(1,5,2,2)\n";
    history *h = load_history_mem_ex(text, strlen(text), FORMAT_AUTO, "t", NULL, &rep, &err);
    assert_non_null(h);
    assert_int_equal(h->num_txns, 3);                 /* INIT + 2: the initial transaction is INIT */
    assert_int_equal(h->num_sessions, 2);
    assert_int_equal(h->num_keys, 3);                 /* key 7 too: INIT writes it */
    assert_int_equal(history_read_source(h, op_of(h, 1, 0)), h->op_key[op_of(h, 1, 0)]);
    assert_int_equal(rep.init_merged, 3);
    assert_int_equal(rep.records, 7);
    assert_int_equal(rep.ops, 4);
    assert_int_equal(rep.notes.len, 1);
    assert_string_equal(rep.notes.data[0], "note: transaction 0 (session 0, line 1) writes only the initial value 0: "
                                           "read as the initial state (3 writes merged)");
    history_free(h);
    load_report_free(&rep);
    assert_load_error(FORMAT_TEXT, "w(1,0,0,0)\nr(2,0,0,0)\n", 2,
                      "transaction 0 writes the initial value 0 (line 1), so it stands for the initial state and may "
                      "only write 0 in session 0; found a read");
    assert_load_error(FORMAT_TEXT, "w(1,0,0,0)\nw(2,3,0,0)\n", 2,
                      "transaction 0 writes the initial value 0 (line 1), so it stands for the initial state and may "
                      "only write 0 in session 0; found another value");
    assert_load_error(FORMAT_TEXT, "w(1,0,0,0)\nw(2,0,1,1)\n", 2,
                      "value 0 is the initial value and cannot be written (only the first transaction of the file, "
                      "all of whose operations write 0, may: it stands for the initial state)");
    assert_load_error(FORMAT_TEXT, "w(2,3,1,1)\nw(1,0,2,2)\n", 2,
                      "value 0 is the initial value and cannot be written (only the first transaction of the file, "
                      "all of whose operations write 0, may: it stands for the initial state)");
}

static void file_errors(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    assert_null(load_history("/nonexistent/h.txt", FORMAT_AUTO, &err));
    assert_string_equal(err.msg, "cannot open: No such file or directory");
    assert_string_equal(err.file, "/nonexistent/h.txt");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_sessions_txns_ops),
        cmocka_unit_test(byte_order_mark_is_skipped),
        cmocka_unit_test(interleaved_txn_keeps_program_order),
        cmocka_unit_test(every_error),
        cmocka_unit_test(nul_first_on_a_line_is_an_error),
        cmocka_unit_test(signs_are_bad_input),
        cmocka_unit_test(isovista_initial_transaction),
        cmocka_unit_test(file_errors),
    };
    return cmocka_run_group_tests_name("parse_text", tests, NULL, NULL);
}
