/* test_parse_dbcop.c — dbcop bincode: model contents and every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "vec.h"
#include "parse_helpers.h"

typedef VEC(unsigned char) bytes;

static void u8(bytes *b, unsigned v) { vec_push(*b, (unsigned char)v); }
static void u64(bytes *b, uint64_t v) { for (int i = 0; i < 8; i++) u8(b, (unsigned)(v >> (8 * i)) & 0xff); }
static void str(bytes *b, const char *s) { u64(b, strlen(s)); while (*s) u8(b, (unsigned char)*s++); }
static void header(bytes *b, uint64_t sessions) {
    for (int i = 0; i < 5; i++) u64(b, (uint64_t)i);
    str(b, "info"); str(b, "2022-01-01"); str(b, "2022-01-02");
    u64(b, sessions);
}
static void event(bytes *b, int write, uint64_t key, uint64_t value, int success) {
    u8(b, (unsigned)write); u64(b, key); u64(b, value); u8(b, (unsigned)success);
}

static history *load_bytes(bytes *b, ic_error *err) {
    ic_error_clear(err);
    return load_history_mem(b->data, b->len, FORMAT_AUTO, "h.bin", err);
}

/* dbcop's first field is a free u64 id: one whose bytes are zstd's magic
 * is still a dbcop history when named so; detected, it is taken for a
 * zstd file and refused by name (doc/formats.md). */
static void id_like_a_compression_magic(void **state) {
    (void)state;
    bytes b; vec_init(b);
    header(&b, 1);
    const unsigned char zstd[4] = { 0x28, 0xB5, 0x2F, 0xFD };
    memcpy(b.data, zstd, 4);                      /* the id's low bytes */
    u64(&b, 1);
    u64(&b, 1); event(&b, 1, 7, 5, 1); u8(&b, 1);
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(b.data, b.len, FORMAT_DBCOP, "h.bin", &err);
    assert_non_null(h);
    assert_int_equal(h->num_txns, 2);             /* INIT and the one */
    history_free(h);
    ic_error_clear(&err);
    assert_null(load_history_mem(b.data, b.len, FORMAT_AUTO, "h.bin", &err));
    assert_string_equal(err.msg, "zstd-compressed: decompress it first (isocheck reads plain and gzip-compressed histories)");
    vec_free(b);
}

static void loads_status_and_failed_events(void **state) {
    (void)state;
    bytes b; vec_init(b);
    header(&b, 2);
    u64(&b, 2);                                   /* session 1: two txns */
    u64(&b, 2); event(&b, 1, 7, 5, 1); event(&b, 0, 8, 0, 1); u8(&b, 1);
    u64(&b, 1); event(&b, 1, 7, 6, 1); u8(&b, 0);                 /* aborted */
    u64(&b, 1);                                   /* session 2: one txn */
    u64(&b, 2); event(&b, 0, 7, 6, 1); event(&b, 1, 9, 3, 0); u8(&b, 1);
    ic_error err;
    history *h = load_bytes(&b, &err);
    assert_non_null(h);
    assert_int_equal(h->format, FORMAT_DBCOP);
    assert_int_equal(h->loc, LOC_OFFSET);
    assert_int_equal(h->num_sessions, 2);
    assert_int_equal(h->num_txns, 4);
    assert_int_equal(h->txns[2].status, TXN_ABORTED);
    assert_int_equal(h->txns[3].status, TXN_COMMITTED);
    assert_true(history_op_value(h, op_of(h, 1, 1)) == VALUE_INIT);
    uint32_t failed = op_of(h, 3, 1);
    assert_true(history_op_failed(h, failed));
    assert_false(history_op_is_write(h, failed));
    assert_int_equal(history_writer_of(h, h->op_key[failed], 3), HISTORY_NONE);
    /* the read of 6 finds the aborted write */
    assert_int_equal(history_read_source(h, op_of(h, 3, 0)), op_of(h, 2, 0));
    /* byte offset of the first event: 5*8 + (8+4) + (8+10) + (8+10) + 8 + 8 + 8 */
    assert_int_equal(history_op_line(h, op_of(h, 1, 0)), 40 + 12 + 18 + 18 + 24);
    char buf[64];
    assert_string_equal(history_op_where(h, op_of(h, 1, 0), buf, sizeof buf), "h.bin: byte 112");
    history_free(h);
    vec_free(b);
}

/* A committed transaction with a failed event (its COMMIT returned OK after
 * an operation failed): a warning names it; failed_ops_abort aborts it. */
static void failed_ops_in_committed_transactions(void **state) {
    (void)state;
    bytes b; vec_init(b);
    header(&b, 1);
    u64(&b, 8);
    for (int t = 0; t < 7; t++) {                 /* txns 1..7: a write, then a failed read */
        u64(&b, 2); event(&b, 1, 1, (uint64_t)t + 1, 1); event(&b, 0, 2, 0, 0); u8(&b, 1);
    }
    u64(&b, 1); event(&b, 0, 1, 7, 1); u8(&b, 1); /* txn 8 reads txn 7's write */
    for (int abort_them = 0; abort_them < 2; abort_them++) {
        load_options opt = { .failed_ops_abort = abort_them };
        load_report rep;
        load_report_init(&rep);
        ic_error err;
        ic_error_clear(&err);
        history *h = load_history_mem_ex(b.data, b.len, FORMAT_AUTO, "h.bin", &opt, &rep, &err);
        assert_non_null(h);
        assert_int_equal(rep.failed_ops, 7);
        assert_int_equal(rep.failed_in_committed, 7);
        assert_int_equal(rep.failed_aborted, abort_them ? 7 : 0);
        assert_int_equal(rep.records, 15);
        for (uint32_t t = 1; t <= 7; t++) assert_int_equal(h->txns[t].status, abort_them ? TXN_ABORTED : TXN_COMMITTED);
        assert_int_equal(h->txns[8].status, TXN_COMMITTED);
        assert_int_equal(rep.notes.len, 1);
        const char *named = "7 committed transactions contain failed operations";
        assert_non_null(strstr(rep.notes.data[0], named));
        assert_non_null(strstr(rep.notes.data[0], "txn 1 (h.bin: byte 104), txn 2 (h.bin: byte 149)"));
        assert_non_null(strstr(rep.notes.data[0], "txn 5 (h.bin: byte 284) and 2 more"));
        assert_true(!strncmp(rep.notes.data[0], abort_them ? "note: " : "warning: ", abort_them ? 6 : 9));
        if (!abort_them) assert_non_null(strstr(rep.notes.data[0], "--failed-ops-abort treats them as aborted"));
        history_free(h);
        load_report_free(&rep);
    }
    vec_free(b);
}

static void expect_error(bytes *b, long long offset, const char *msg) {
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(b->data, b->len, FORMAT_DBCOP, "h.bin", &err);
    h = history_refuse_repeated(h, &err);    /* a value written twice loads; check --follow refuses it */
    assert_null(h);
    assert_string_equal(err.msg, msg);
    if (offset >= 0) assert_int_equal(err.offset, offset);
    vec_free(*b);
}

static void every_error(void **state) {
    (void)state;
    bytes b;
    vec_init(b); u64(&b, 1); u8(&b, 0);
    expect_error(&b, 8, "expected header n_node (8 bytes), found a truncated field");
    vec_init(b); for (int i = 0; i < 5; i++) u64(&b, 0);
    u64(&b, 100); str(&b, "");
    expect_error(&b, 48, "expected info string of 100 bytes, found end of file");
    vec_init(b); header(&b, 1);
    expect_error(&b, (long long)b.len, "expected number of transactions in a session (8 bytes), found end of file");
    vec_init(b); header(&b, 1); u64(&b, 1); u64(&b, 1); size_t at = b.len; event(&b, 2, 1, 1, 1); u8(&b, 1);
    expect_error(&b, (long long)at, "expected event flag 'write' (0 or 1), found 0x02");
    vec_init(b); header(&b, 1); u64(&b, 1); u64(&b, 1); event(&b, 1, 1, 1, 1); at = b.len; u8(&b, 7);
    expect_error(&b, (long long)at, "expected transaction flag 'committed' (0 or 1), found 0x07");
    vec_init(b); header(&b, 1); u64(&b, 1); u64(&b, 1); event(&b, 1, 1, 1, 1);
    expect_error(&b, (long long)b.len, "expected transaction flag 'committed' (1 byte), found end of file");
    vec_init(b); header(&b, 1); u64(&b, 1); u64(&b, 1); at = b.len; event(&b, 1, 1, 0, 1); u8(&b, 1);
    expect_error(&b, (long long)at + 9, "value 0 is the initial value and cannot be written");
    vec_init(b); header(&b, 1); u64(&b, 1); u64(&b, 1); at = b.len; event(&b, 0, 1, 1ULL << 63, 1); u8(&b, 1);
    expect_error(&b, (long long)at + 9, "value 9223372036854775808 is reserved");
    vec_init(b); header(&b, 1); u64(&b, 1); u64(&b, 1); event(&b, 1, 1, 1, 1); u8(&b, 1); at = b.len; u8(&b, 0);
    expect_error(&b, (long long)at, "expected end of file after the last session, found more bytes");
    vec_init(b); header(&b, 1); u64(&b, 2); u64(&b, 1); event(&b, 1, 1, 1, 1); u8(&b, 1);
    at = b.len; u64(&b, 1); event(&b, 1, 1, 1, 1); u8(&b, 1);
    expect_error(&b, (long long)at + 8,
                 "value 1 written twice to key 1 (first at h.bin: byte 112); values written to a key must be unique");
    vec_init(b); header(&b, 0);
    expect_error(&b, -1, "empty history: no operations found");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(id_like_a_compression_magic),
        cmocka_unit_test(loads_status_and_failed_events),
        cmocka_unit_test(failed_ops_in_committed_transactions),
        cmocka_unit_test(every_error),
    };
    return cmocka_run_group_tests_name("parse_dbcop", tests, NULL, NULL);
}
