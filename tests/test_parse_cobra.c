/* test_parse_cobra.c — Cobra logs: model contents, directories, every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <unistd.h>

#include "vec.h"
#include "parse_helpers.h"

typedef VEC(unsigned char) bytes;

static void be64(bytes *b, int64_t v) {
    for (int i = 0; i < 8; i++) vec_push(*b, (unsigned char)((uint64_t)v >> (56 - 8 * i)));
}
static void rec(bytes *b, char type, int n, int64_t a, int64_t c, int64_t d, int64_t e) {
    vec_push(*b, (unsigned char)type);
    int64_t f[4] = { a, c, d, e };
    for (int i = 0; i < n; i++) be64(b, f[i]);
}
#define S(b, id) rec(b, 'S', 1, id, 0, 0, 0)
#define C(b, id) rec(b, 'C', 1, id, 0, 0, 0)
#define A(b, id) rec(b, 'A', 1, id, 0, 0, 0)
#define W(b, wid, key, val) rec(b, 'W', 3, wid, key, val, 0)
#define R(b, wtxn, wid, key, val) rec(b, 'R', 4, wtxn, wid, key, val)

static history *load_logs(bytes *logs, size_t n, ic_error *err) {
    input r[4];
    for (size_t i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "T%u.log", (unsigned)(i & 0xff));
        input_from_mem(&r[i], logs[i].data, logs[i].len, name);
    }
    ic_error_clear(err);
    history *h = parse_cobra_logs(r, n, "dir", NULL, err);
    for (size_t i = 0; i < n; i++) { input_close(&r[i]); vec_free(logs[i]); }
    return h;
}

static void loads_two_sessions(void **state) {
    (void)state;
    bytes l[2]; vec_init(l[0]); vec_init(l[1]);
    S(&l[0], 100); W(&l[0], 1001, 7, 55); R(&l[0], COBRA_INIT_TXN_ID, COBRA_INIT_WRITE_ID, 8, 0); C(&l[0], 100);
    S(&l[0], 101); W(&l[0], 1002, 7, 56); A(&l[0], 101);
    S(&l[1], 200); R(&l[1], 100, 1001, 7, 55); R(&l[1], COBRA_NULL_TXN_ID, COBRA_NULL_TXN_ID, 9, 0); C(&l[1], 200);
    ic_error err;
    history *h = load_logs(l, 2, &err);
    assert_non_null(h);
    assert_int_equal(h->num_sessions, 2);
    assert_int_equal(h->num_txns, 4);
    assert_int_equal(h->txns[1].ext_id, 100);
    assert_int_equal(h->txns[2].status, TXN_ABORTED);
    assert_int_equal(history_op_value(h, op_of(h, 1, 0)), 1001);        /* the write id is the value */
    assert_true(history_op_value(h, op_of(h, 1, 1)) == VALUE_INIT);
    assert_true(history_op_value(h, op_of(h, 3, 1)) == VALUE_INIT);      /* null reads the initial state */
    assert_int_equal(history_read_source(h, op_of(h, 3, 0)), op_of(h, 1, 0));
    char buf[64];
    assert_string_equal(history_op_where(h, op_of(h, 3, 0), buf, sizeof buf), "T1.log: byte 9");
    history_free(h);
}

/* VeriStrong's logs: the universal id in place of write ids; the value names the write. */
static void value_identified_logs(void **state) {
    (void)state;
    const int64_t U = COBRA_UNIVERSAL_ID;
    bytes l[2]; vec_init(l[0]); vec_init(l[1]);
    S(&l[0], 100); W(&l[0], U, 7, 555); R(&l[0], COBRA_INIT_TXN_ID, COBRA_INIT_WRITE_ID, 8, 4242); C(&l[0], 100);
    S(&l[0], 101); W(&l[0], U, 7, 556); C(&l[0], 101);
    S(&l[1], 200); R(&l[1], U, U, 7, 555); R(&l[1], U, U, 7, 556);
    R(&l[1], COBRA_NULL_TXN_ID, COBRA_NULL_TXN_ID, 8, 4242); R(&l[1], COBRA_INIT_TXN_ID, COBRA_INIT_WRITE_ID, 8, 4243);
    C(&l[1], 200);
    ic_error err;
    history *h = load_logs(l, 2, &err);
    assert_non_null(h);
    assert_int_equal(h->num_txns, 4);
    assert_int_equal(history_op_value(h, op_of(h, 1, 0)), 555);          /* the value is the value */
    assert_true(history_op_value(h, op_of(h, 1, 1)) == VALUE_INIT);      /* its hash of the initial row is not */
    assert_int_equal(history_read_source(h, op_of(h, 3, 0)), op_of(h, 1, 0));
    assert_int_equal(history_read_source(h, op_of(h, 3, 1)), op_of(h, 2, 0));
    /* the initial row key 8 was first read with: the initial value; another hash: a value never written */
    assert_true(history_op_value(h, op_of(h, 3, 2)) == VALUE_INIT);
    int64_t other = history_op_value(h, op_of(h, 3, 3));
    assert_true(history_value_is_named(h, other));
    char buf[96];
    assert_string_equal(history_value_str(h, other, buf, sizeof buf), "an initial value with hash 0x1093 (first read: 0x1092)");
    assert_int_equal(history_read_source(h, op_of(h, 3, 3)), HISTORY_NONE);
    history_free(h);
}

static void expect_error(bytes *b, long long offset, const char *msg) {
    ic_error err;
    history *h = load_logs(b, 1, &err);
    h = history_refuse_repeated(h, &err);    /* a value written twice loads; check --follow refuses it */
    assert_null(h);
    assert_string_equal(err.msg, msg);
    if (offset >= 0) assert_int_equal(err.offset, offset);
    assert_string_equal(err.file, offset >= 0 ? "T0.log" : "dir");
}

static void every_error(void **state) {
    (void)state;
    bytes b;
    vec_init(b); S(&b, 1); vec_push(b, 'X');
    expect_error(&b, 9, "expected a record type 'S', 'C', 'A', 'W' or 'R', found byte 0x58");
    vec_init(b); S(&b, 1); vec_push(b, 'W'); be64(&b, 5); be64(&b, 1);
    expect_error(&b, 26, "expected the value of the 'W' record at byte 9 (8 bytes), found end of file");
    vec_init(b); S(&b, 1); vec_push(b, 'R'); be64(&b, 5); vec_push(b, 0);
    expect_error(&b, 18, "expected the write id of the 'R' record at byte 9 (8 bytes), found a truncated field");
    vec_init(b); S(&b, 1); W(&b, 5, 1, 5); C(&b, 1); S(&b, 1);
    expect_error(&b, 43, "duplicate transaction id 1");
    vec_init(b); W(&b, 5, 1, 5);
    expect_error(&b, 0, "expected 'S' before 'W', found 'W' outside a transaction");
    vec_init(b); R(&b, 2, 5, 1, 5);
    expect_error(&b, 0, "expected 'S' before 'R', found 'R' outside a transaction");
    vec_init(b); C(&b, 1);
    expect_error(&b, 0, "expected 'S' before 'C', found 'C' outside a transaction");
    vec_init(b); S(&b, 1); C(&b, 2);
    expect_error(&b, 9, "expected 'C' for transaction 1, found one for 2");
    vec_init(b); S(&b, 1); S(&b, 2);
    expect_error(&b, 9, "expected 'C' or 'A' ending transaction 1, found 'S' (a new transaction)");
    vec_init(b); S(&b, 1); W(&b, 5, 1, 5);
    expect_error(&b, 34, "expected 'C' or 'A' ending transaction 1, found end of file (truncated log?)");
    vec_init(b); S(&b, COBRA_INIT_TXN_ID);
    expect_error(&b, 0, "transaction id 0xbebeebee is reserved");
    vec_init(b); S(&b, 1); W(&b, COBRA_NULL_TXN_ID, 1, 5);
    expect_error(&b, 9, "write id 0xdeadbeef is reserved");
    vec_init(b); S(&b, 1); R(&b, COBRA_INIT_TXN_ID, COBRA_GC_WID_TRUE, 1, 0);
    expect_error(&b, 9, "Cobra garbage-collection reads are not supported");
    vec_init(b); S(&b, 1); R(&b, COBRA_NULL_TXN_ID, 77, 1, 0);
    expect_error(&b, 9, "expected the init or null write id in a read of the initial state, found 0x4d");
    vec_init(b); S(&b, 1); W(&b, 5, 1, 5); W(&b, 5, 1, 6); C(&b, 1);
    expect_error(&b, 34, "value 5 written twice to key 1 (first at T0.log: byte 9); values written to a key must be unique");
    /* value-identified logs */
    const int64_t U = COBRA_UNIVERSAL_ID;
    vec_init(b); S(&b, U);
    expect_error(&b, 0, "transaction id 0xabddefee is reserved");
    vec_init(b); S(&b, 1); W(&b, U, 1, 5); W(&b, U, 2, 5); W(&b, U, 1, 5); C(&b, 1);
    expect_error(&b, 59, "value 5 written twice to key 1 (first at T0.log: byte 9); values written to a key must be unique");
    vec_init(b); S(&b, 1); W(&b, U, 1, 5); W(&b, 6, 1, 7); C(&b, 1);
    expect_error(&b, 34, "expected the universal write id, found a unique write id: a history may not mix Cobra's "
                         "unique write ids with value-identified writes (universal id 0xabddefee)");
    vec_init(b); S(&b, 1); W(&b, 6, 1, 7); R(&b, U, U, 1, 7); C(&b, 1);
    expect_error(&b, 34, "expected a unique write id, found the universal write id: a history may not mix Cobra's "
                         "unique write ids with value-identified writes (universal id 0xabddefee)");
    vec_init(b); S(&b, 1); R(&b, U, 6, 1, 7); C(&b, 1);
    expect_error(&b, 9, "expected the universal id 0xabddefee as both writer txn and write id, found 0xabddefee and 0x6");
    vec_init(b); S(&b, 1); W(&b, U, 1, VALUE_INIT); C(&b, 1);
    expect_error(&b, 9, "value 0x8000000000000000 is reserved");
    vec_init(b); S(&b, 1); W(&b, INT64_MIN + 5, 1, 7); C(&b, 1);      /* the band of named values */
    expect_error(&b, 9, "write id 0x8000000000000005 is reserved");
    vec_init(b); S(&b, 1); R(&b, 3, INT64_MIN + 5, 1, 7); C(&b, 1);
    expect_error(&b, 9, "write id 0x8000000000000005 is reserved");
    vec_init(b);
    expect_error(&b, -1, "empty history: no operations found");
}

static void directory_in_natural_order(void **state) {
    (void)state;
    char dir[] = "/tmp/isocheck-cobra-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    int64_t ids[3] = { 2, 10, 1 };
    const char *names[3] = { "T2.log", "T10.log", "T1.log" };
    for (int i = 0; i < 3; i++) {
        bytes b; vec_init(b);
        S(&b, ids[i]); W(&b, 100 + ids[i], 1, 0); C(&b, ids[i]);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fwrite(b.data, 1, b.len, f);
        fclose(f);
        vec_free(b);
    }
    snprintf(path, sizeof path, "%s/README", dir);
    FILE *f = fopen(path, "w"); fputs("not a log", f); fclose(f);
    ic_error err; ic_error_clear(&err);
    history *h = load_history(dir, FORMAT_AUTO, &err);
    assert_non_null(h);
    assert_int_equal(h->format, FORMAT_COBRA);
    assert_int_equal(h->num_sessions, 3);
    assert_int_equal(h->txns[1].ext_id, 1);            /* T1, T2, T10 */
    assert_int_equal(h->txns[2].ext_id, 2);
    assert_int_equal(h->txns[3].ext_id, 10);
    snprintf(path, sizeof path, "%s/T10.log", dir);
    assert_string_equal(h->strings + h->sessions[2].file, path);   /* session 2's file */
    history_free(h);
    for (int i = 0; i < 3; i++) { snprintf(path, sizeof path, "%s/%s", dir, names[i]); unlink(path); }
    ic_error_clear(&err);
    assert_null(load_history(dir, FORMAT_AUTO, &err));
    assert_string_equal(err.msg, "expected Cobra logs (*.log files) in the directory, found none");
    ic_error_clear(&err);
    assert_null(load_history(dir, FORMAT_TEXT, &err));
    assert_string_equal(err.msg, "is a directory; only the cobra and viper formats are directories of logs");
    snprintf(path, sizeof path, "%s/README", dir); unlink(path);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_two_sessions),
        cmocka_unit_test(every_error),
        cmocka_unit_test(value_identified_logs),
        cmocka_unit_test(directory_in_natural_order),
    };
    return cmocka_run_group_tests_name("parse_cobra", tests, NULL, NULL);
}
