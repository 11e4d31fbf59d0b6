/* test_parse_more.c — the model the newer readers build: dbcop's JSON
 * (both shapes, both event forms, reads of null and 0), Viper's JSON-lines
 * logs (sessions, the initial transaction, reads of the initial state,
 * thin air, failed writes, times, refusals) and text lines with
 * transaction id -1 (Plume's and IsoVista's aborted writes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "parse_helpers.h"

/* ---- dbcop JSON ---------------------------------------------------------- */

static void dbcop_json_both_shapes(void **state) {
    (void)state;
    static const char wrapped[] =
        "{\"params\": {\"id\": 1}, \"info\": \"x\", \"data\": [\n"
        " [{\"events\": [{\"Write\": {\"variable\": 4, \"version\": 9}}, {\"Read\": {\"variable\": 5, \"version\": null}}],"
        " \"committed\": true}],\n"
        " [{\"events\": [{\"Read\": {\"variable\": 4, \"version\": 9}}], \"committed\": false}]]}\n";
    static const char raw[] = "[[{\"events\": [[\"w\", 4, 9], [\"r\", 5, null]], \"committed\": true}],\n"
                              " [{\"events\": [[\"r\", 4, 9]], \"committed\": false}]]\n";
    const char *texts[2] = { wrapped, raw };
    for (int i = 0; i < 2; i++) {
        ic_error err;
        history *h = load_str(FORMAT_AUTO, texts[i], &err);
        assert_non_null(h);
        assert_int_equal(h->format, FORMAT_JSON);
        assert_int_equal(h->num_sessions, 2);
        assert_int_equal(h->num_txns, 3);
        assert_int_equal(h->txns[1].ext_id, 1);
        assert_int_equal(h->txns[2].ext_id, 2);
        assert_int_equal(h->txns[1].status, TXN_COMMITTED);
        assert_int_equal(h->txns[2].status, TXN_ABORTED);
        uint32_t w = op_of(h, 1, 0), r0 = op_of(h, 1, 1), r1 = op_of(h, 2, 0);
        assert_int_equal(history_op_kind(h, w), OP_WRITE);
        assert_int_equal(h->key_ext[h->op_key[w]], 4);
        assert_int_equal(history_op_value(h, w), 9);
        assert_int_equal(history_op_value(h, r0), VALUE_INIT);                     /* null: the initial value */
        assert_int_equal(history_op_value(h, r1), 9);
        assert_int_equal(history_writer_of(h, h->op_key[r1], 9), w);
        history_free(h);
    }
}

static void dbcop_json_zero(void **state) {
    (void)state;
    ic_error err;
    /* 0 is the initial value of key 2 (nobody writes 0 to it), not of key 1 */
    history *h = load_str(FORMAT_AUTO, "[[{\"events\": [[\"w\", 1, 0]], \"committed\": true}],"
                                       " [{\"events\": [[\"r\", 1, 0], [\"r\", 2, 0]], \"committed\": true}]]", &err);
    assert_non_null(h);
    assert_int_equal(history_op_value(h, op_of(h, 2, 0)), 0);
    assert_int_equal(history_op_value(h, op_of(h, 2, 1)), VALUE_INIT);
    history_free(h);
    assert_load_error(FORMAT_JSON, "[[{\"events\": [[\"w\", -1, 2]], \"committed\": true}]]", 1,
                      "expected a variable (an integer from 0 to 2^63-1), found -1");
    assert_load_error(FORMAT_JSON, "[[{\"events\": [[\"r\", 1]], \"committed\": true}]]", 1,
                      "expected an event {\"Read\": {\"variable\": K, \"version\": V}}, {\"Write\": ...} or "
                      "[\"r\"|\"w\", K, V], found [\"r\",1]");
    assert_load_error(FORMAT_JSON, "[[{\"events\": [], \"committed\": 1}]]", 1,
                      "expected true or false (\"committed\"), found 1");
    assert_load_error(FORMAT_JSON, "[[],\n {\"type\": \"ok\"}]", 2,
                      "expected a dbcop session (an array of transactions), as the history's first value is, found "
                      "{\"type\":\"ok\"}");
}

/* ---- Viper --------------------------------------------------------------- */

static history *viper(const char *a, const char *b, ic_error *err) {
    input r[2];
    input_from_mem(&r[0], a, strlen(a), "J1.log");
    input_from_mem(&r[1], b, strlen(b), "J2.log");
    ic_error_clear(err);
    history *h = parse_viper_logs(r, 2, "dir", NULL, err);
    input_close(&r[0]);
    input_close(&r[1]);
    return h;
}

static void viper_model(void **state) {
    (void)state;
    ic_error err;
    history *h = viper("{\"value\": [[\"w\", 1, -7, true], [\"w\", 2, -8, true]], \"isInitial\": true}\n"
                       "{\"preBeginTS\": 10, \"postCommitTS\": 20, \"value\": [[\"r\", 1, -7, false], [\"w\", 1, 55, true]]}\n",
                       "{\"value\": [[\"r\", 1, 55, false], [\"r\", 2, 0, false], [\"r\", 3, 0, false], [\"w\", 4, 6, false]]}\n"
                       "{\"value\": [[\"r\", \"name\", 99, false]]}\n", &err);
    assert_non_null(h);
    assert_int_equal(h->format, FORMAT_VIPER);
    assert_int_equal(h->num_sessions, 2);
    assert_int_equal(h->num_txns, 4);                          /* INIT + 3: the initial transaction is INIT */
    assert_int_equal(h->txns[1].ext_id, 1);
    assert_int_equal(h->txns[3].ext_id, 3);
    assert_int_equal(history_op_value(h, op_of(h, 1, 0)), VALUE_INIT);  /* the initial transaction's value */
    assert_int_equal(history_op_value(h, op_of(h, 2, 0)), 55);          /* a written value */
    assert_int_equal(history_op_value(h, op_of(h, 2, 1)), 0);           /* key 2's initial value is -8: 0 is thin air */
    assert_int_equal(history_op_value(h, op_of(h, 2, 2)), VALUE_INIT);  /* key 3: no initial row, 0 reads it */
    assert_true(history_op_failed(h, op_of(h, 2, 3)));          /* succ false */
    assert_int_equal(history_op_value(h, op_of(h, 3, 0)), 99);          /* a string key, a value nobody wrote: thin air */
    assert_int_equal(history_time(h, TIME_INVOKE, 1), 10);
    assert_int_equal(history_time(h, TIME_COMPLETE, 1), 20);
    assert_int_equal(history_time(h, TIME_INVOKE, 2), HISTORY_TIME_NONE);
    history_free(h);
    /* without an initial transaction, the first unwritten value read of a key is its initial value */
    h = viper("{\"value\": [[\"r\", 1, 5, false]]}\n", "{\"value\": [[\"r\", 1, 5, false], [\"r\", 1, 6, false]]}\n", &err);
    assert_non_null(h);
    assert_int_equal(history_op_value(h, op_of(h, 1, 0)), VALUE_INIT);
    assert_int_equal(history_op_value(h, op_of(h, 2, 0)), VALUE_INIT);
    assert_int_equal(history_op_value(h, op_of(h, 2, 1)), 6);
    history_free(h);
    /* a read flagged dead is an ordinary read, as Viper reads it (Plume's converter flags every read dead):
     * of a write of the logs, or of the initial state, or thin air; the load report says how many */
    load_report rep;
    load_report_init(&rep);
    const char *a = "{\"value\": [[\"w\", 1, 7, true]]}\n",
               *b = "{\"value\": [[\"r\", 1, 7, true], [\"r\", 1, 7, false], [\"r\", 2, 4, true], [\"r\", 2, 5, true]]}\n";
    input r[2];
    input_from_mem(&r[0], a, strlen(a), "J1.log");
    input_from_mem(&r[1], b, strlen(b), "J2.log");
    h = parse_viper_logs(r, 2, "dir", &rep, &err);
    input_close(&r[0]);
    input_close(&r[1]);
    assert_non_null(h);
    assert_int_equal(history_op_value(h, op_of(h, 2, 0)), 7);
    assert_int_equal(history_writer_of(h, h->op_key[op_of(h, 2, 0)], 7), op_of(h, 1, 0));
    assert_int_equal(history_op_value(h, op_of(h, 2, 2)), VALUE_INIT);       /* unwritten: key 2's initial value */
    assert_int_equal(history_op_value(h, op_of(h, 2, 3)), 5);                /* another unwritten one: thin air */
    assert_int_equal(rep.notes.len, 1);
    assert_non_null(strstr(rep.notes.data[0], "3 reads flagged dead"));
    load_report_free(&rep);
    history_free(h);
}

static void viper_errors(void **state) {
    (void)state;
    static const struct { const char *a, *b, *file; long line; const char *msg; } cases[] = {
        { "", "\n{\"value\": [[\"range\", 1, 5, [], []]]}", "J2.log", 2,
          "unsupported: Viper's inserts, deletes and range queries ([\"range\",1,5,[],[]]); isocheck checks reads and "
          "writes of keys" },
        { "{\"value\": [[\"w\", 1, 5, true]], \"isInitial\": true}", "{\"value\": [], \"isInitial\": true}", "J2.log", 1,
          "a second initial transaction (isInitial true); the first is at J1.log:1" },
        { "{\"value\": [[\"r\", 1, 5, false]], \"isInitial\": true}", "", "J1.log", 1,
          "expected a write (the initial transaction writes the initial state), found [\"r\",1,5,false]" },
        { "{\"preBeginTS\": 9, \"postCommitTS\": 8, \"value\": []}", "", "J1.log", 1,
          "postCommitTS 8 is before preBeginTS 9 (a transaction cannot complete before it begins)" },
        { "{\"value\": [[\"w\", 1.5, 5, true]]}", "", "J1.log", 1,
          "expected a key (an integer or a string), found 1.5" },
        { "{\"values\": []}", "", "J1.log", 1, "expected \"value\": an array of micro-ops, found {\"values\":[]}" },
        { "{\"value\": [[\"w\", 1, -9223372036854775807, true]]}", "", "J1.log", 1,
          "expected a value above -9223372032559808512 (lower ones are reserved), found -9223372036854775807" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ic_error err;
        history *h = viper(cases[i].a, cases[i].b, &err);
        if (h) history_free(h);
        assert_null(h);
        assert_string_equal(err.file, cases[i].file);
        assert_int_equal(err.line, cases[i].line);
        assert_string_equal(err.msg, cases[i].msg);
    }
}

/* ---- text: transaction id -1 ------------------------------------------- */

static void text_aborted_writes(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_TEXT, "w(1,5,1,-1)\nr(1,5,1,-1)\nw(1,1,1,1)\nw(2,6,2,-1)\nr(1,5,2,2)\n", &err);
    assert_non_null(h);
    assert_int_equal(h->num_txns, 5);                          /* INIT, -1, 1, -2, 2 */
    assert_int_equal(h->txns[1].ext_id, -1);
    assert_int_equal(h->txns[1].status, TXN_ABORTED);
    assert_int_equal(h->txns[1].num_ops, 1);                   /* the -1 read is skipped */
    assert_int_equal(h->txns[3].ext_id, -2);
    assert_int_equal(h->txns[3].status, TXN_ABORTED);
    uint32_t r = op_of(h, 4, 0);
    assert_int_equal(history_writer_of(h, h->op_key[r], 5), op_of(h, 1, 0));   /* reads the aborted write */
    history_free(h);
    assert_load_error(FORMAT_TEXT, "w(1,5,1,-12)\n", 1, "expected transaction id (digits 0-9, no sign), found '-12)'");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dbcop_json_both_shapes),
        cmocka_unit_test(dbcop_json_zero),
        cmocka_unit_test(viper_model),
        cmocka_unit_test(viper_errors),
        cmocka_unit_test(text_aborted_writes),
    };
    return cmocka_run_group_tests_name("parse_more", tests, NULL, NULL);
}
