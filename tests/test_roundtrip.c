/* test_roundtrip.c — write a history in each format, read it back, get
 * the same model (sessions, transactions, statuses, ops, lists). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <unistd.h>
#include <dirent.h>

#include "frontend/formats/write.h"
#include "parse_helpers.h"
#include "history_helpers.h"

static void assert_same_model(const history *a, const history *b) {
    assert_int_equal(a->num_sessions, b->num_sessions);
    assert_int_equal(a->num_txns, b->num_txns);
    assert_int_equal(a->num_ops, b->num_ops);
    assert_int_equal(a->num_keys, b->num_keys);
    for (uint32_t s = 0; s < a->num_sessions; s++) assert_int_equal(a->sessions[s].num_txns, b->sessions[s].num_txns);
    for (uint32_t t = 1; t < a->num_txns; t++) {
        assert_int_equal(a->txns[t].status, b->txns[t].status);
        assert_int_equal(a->txns[t].num_ops, b->txns[t].num_ops);
        for (uint32_t i = 0; i < a->txns[t].num_ops; i++) {
            uint32_t x = a->txns[t].first_op + i, y = b->txns[t].first_op + i;
            assert_int_equal(a->op_kind[x], b->op_kind[y]);
            char ka[64], kb[64];
            assert_string_equal(history_key_str(a, a->op_key[x], ka, sizeof ka), history_key_str(b, b->op_key[y], kb, sizeof kb));
            if (history_op_kind(a, x) == OP_LIST_READ) {
                uint32_t na, nb;
                const int64_t *la = history_list(a, x, &na), *lb = history_list(b, y, &nb);
                assert_int_equal(na, nb);
                for (uint32_t j = 0; j < na; j++) assert_int_equal(la[j], lb[j]);
            } else {
                assert_true(history_op_value(a, x) == history_op_value(b, y));
            }
        }
    }
}

static char tmpdir[64];

static int setup(void **state) {
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/isocheck-rt-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void roundtrip(const history *h, history_format to) {
    static int calls;                             /* a new path each time (cobra, viper: directories) */
    char path[128];
    snprintf(path, sizeof path, "%s/out-%d-%d", tmpdir, (int)to, calls++);
    ic_error err;
    ic_error_clear(&err);
    if (!history_write(h, to, path, &err)) fprintf(stderr, "write: %s\n", err.msg);
    assert_false(err.set);
    history *back = load_history(path, FORMAT_AUTO, &err);
    if (!back) fprintf(stderr, "reload: %s:%ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(back);
    assert_int_equal(back->format, to == FORMAT_DBCOP_JSON ? FORMAT_JSON : to);   /* (the JSON reader reads it) */
    assert_same_model(h, back);
    history_free(back);
}

/* The bytes of path (a file, or a directory's J1.log J2.log ... joined). */
static char *slurp(const char *path) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "if [ -d '%s' ]; then cat '%s'/J*.log; else cat '%s'; fi", path, path, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t k; (k = fread(buf + n, 1, cap - n - 1, p)) > 0;) {
        n += k;
        if (cap - n < 2) buf = realloc(buf, cap *= 2);
    }
    buf[n] = 0;
    pclose(p);
    return buf;
}

/* A file of fmt read, written in fmt, read back: the same model; written
 * again: the same bytes (what the writer writes it reads as it wrote). */
static void file_through_its_format(const char *src, history_format fmt) {
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(src, FORMAT_AUTO, &err);
    if (!h) fprintf(stderr, "load %s: %s\n", src, err.msg);
    assert_non_null(h);
    static int calls;
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/first-%d-%d", tmpdir, (int)fmt, calls);
    snprintf(b, sizeof b, "%s/second-%d-%d", tmpdir, (int)fmt, calls++);
    if (!history_write(h, fmt, a, &err)) fprintf(stderr, "write %s: %s\n", src, err.msg);
    assert_false(err.set);
    history *back = load_history(a, FORMAT_AUTO, &err);
    if (!back) fprintf(stderr, "reload %s: %s:%ld: %s\n", src, err.file, err.line, err.msg);
    assert_non_null(back);
    assert_same_model(h, back);
    for (uint32_t t = 1; t < h->num_txns; t++)        /* the client's times travel with viper */
        if (fmt == FORMAT_VIPER)
            for (int k = TIME_INVOKE; k <= TIME_COMPLETE; k++)
                assert_true(history_time(h, (history_time_kind)k, t) == history_time(back, (history_time_kind)k, t));
    assert_true(history_write(back, fmt, b, &err));
    char *x = slurp(a), *y = slurp(b);
    assert_string_equal(x, y);
    free(x); free(y);
    history_free(back);
    history_free(h);
}

static void viper_and_dbcop_json_files_round_trip(void **state) {
    (void)state;
    file_through_its_format("tests/data/formats/viper-initial", FORMAT_VIPER);
    file_through_its_format("tests/data/formats/viper-lost-update", FORMAT_VIPER);
    file_through_its_format("tests/data/formats/dbcop-lost-update.json", FORMAT_DBCOP_JSON);
    file_through_its_format("tests/data/formats/dbcop-aborted-read.json", FORMAT_DBCOP_JSON);
    /* across: dbcop's JSON into viper and back (no aborted transaction), viper into dbcop's JSON */
    file_through_its_format("tests/data/formats/viper-initial", FORMAT_DBCOP_JSON);
    file_through_its_format("tests/data/formats/dbcop-lost-update.json", FORMAT_VIPER);
}

/* Keys with names go to viper as JSON strings and come back by name; what
 * viper cannot hold is refused, not dropped. */
static void viper_names_and_refusals(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_ELLE,
        "{:type :ok, :f :txn, :process 0, :index 1, :value [[:w :x 1] [:w \"y\" 2]]}\n"
        "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r :x 1] [:r \"y\" nil] [:w 7 3]]}\n", &err);
    assert_non_null(h);
    roundtrip(h, FORMAT_VIPER);
    history_free(h);
    h = load_str(FORMAT_ELLE,
        "{:type :ok, :f :txn, :process 0, :index 1, :value [[:w 1 1]]}\n"
        "{:type :fail, :f :txn, :process 1, :index 2, :value [[:w 1 2]]}\n", &err);
    assert_non_null(h);
    char path[128];
    snprintf(path, sizeof path, "%s/refused-viper", tmpdir);
    ic_error_clear(&err);
    assert_false(history_write(h, FORMAT_VIPER, path, &err));
    assert_string_equal(err.msg, "cannot write an aborted transaction (t:2) in viper format");
    assert_true(access(path, F_OK) != 0);
    roundtrip(h, FORMAT_DBCOP_JSON);              /* "committed": false */
    history_free(h);
}

static void registers_through_every_format(void **state) {
    (void)state;
    ic_error err;
    /* (negative numbers are renumbered in text: tests/test_write_renumber.c) */
    history *h = load_str(FORMAT_TEXT, "w(1,5,1,10)\nw(2,6,1,10)\nr(1,5,2,20)\nr(2,0,2,20)\nw(4,7,1,11)\n"
                                       "r(4,0,1,11)\nr(3,42,3,30)\n", &err);
    assert_non_null(h);
    roundtrip(h, FORMAT_TEXT);
    roundtrip(h, FORMAT_DBCOP);
    roundtrip(h, FORMAT_COBRA);                   /* the thin-air read of 42 stays one */
    roundtrip(h, FORMAT_ELLE);
    roundtrip(h, FORMAT_DBCOP_JSON);
    roundtrip(h, FORMAT_VIPER);                   /* the thin-air read of 42 stays one here too */
    history_free(h);
}

static void aborted_and_failed_through_dbcop(void **state) {
    (void)state;
    /* built directly: an aborted txn and a failed op */
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "synthetic");
    uint32_t s = hb_session(b, 0, NULL), k = hb_key(b, 3);
    uint32_t t = hb_txn(b, s, 1, 0);
    hb_op(b, t, OP_WRITE, k, 4, 0);
    hb_op(b, t, OP_WRITE | OP_FAILED, k, 9, 0);
    hb_txn_status(b, t, TXN_ABORTED);
    t = hb_txn(b, s, 2, 0);
    hb_op(b, t, OP_READ, k, VALUE_INIT, 0);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    roundtrip(h, FORMAT_DBCOP);
    /* the others refuse instead of dropping */
    char path[128];
    snprintf(path, sizeof path, "%s/refused", tmpdir);
    ic_error_clear(&err);
    assert_false(history_write(h, FORMAT_TEXT, path, &err));
    assert_string_equal(err.msg, "cannot write an aborted transaction (synthetic: txn 1) in text format");
    assert_true(access(path, F_OK) != 0);         /* no half-written file */
    ic_error_clear(&err);
    assert_false(history_write(h, FORMAT_ELLE, path, &err));
    assert_string_equal(err.msg, "cannot write a failed operation (synthetic: txn 1) in elle format");
    history_free(h);
}

/* Regression: convert --to elle wrote the reads of aborted transactions
 * into :fail completions, whose reads the Elle reader drops (the dgraph
 * history lost 3,120 of its 16,000 ops).  Every op must come back. */
static void aborted_reads_through_elle(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "synthetic");
    uint32_t s = hb_session(b, 1, NULL), k = hb_key(b, 3), j = hb_key(b, 4);
    uint32_t t = hb_txn(b, s, 1, 0);
    hb_op(b, t, OP_READ, k, VALUE_INIT, 0);       /* an aborted read of the initial value */
    hb_op(b, t, OP_READ, j, 8, 0);                /* and of a committed write */
    hb_op(b, t, OP_WRITE, k, 4, 0);
    hb_txn_status(b, t, TXN_ABORTED);
    t = hb_txn(b, hb_session(b, 2, NULL), 2, 0);
    hb_op(b, t, OP_WRITE, j, 8, 0);
    hb_op(b, t, OP_READ, k, VALUE_INIT, 0);
    t = hb_txn(b, hb_session(b, 3, NULL), 3, 0);
    hb_op(b, t, OP_READ, k, VALUE_INIT, 0);
    hb_txn_status(b, t, TXN_INDETERMINATE);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    roundtrip(h, FORMAT_ELLE);                    /* assert_same_model: every op, same kinds and values */
    history_free(h);
}

static void lists_and_statuses_through_elle(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_ELLE,
        "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append :x 1] [:r :x [1]] [:r \"y\" nil]]}\n"
        "{:type :fail, :f :txn, :process 1, :index 2, :value [[:append :x 2]]}\n"
        "{:type :info, :f :txn, :process 2, :index 3, :value [[:append \"y\" 3]]}\n"
        "{:type :ok, :f :txn, :process 3, :index 4, :value [[:r :x [1 2]] [:r \"y\" [3]] [:r :z nil] [:w :z 5]]}\n", &err);
    assert_non_null(h);
    roundtrip(h, FORMAT_ELLE);
    ic_error_clear(&err);
    char path[128];
    snprintf(path, sizeof path, "%s/refused", tmpdir);
    assert_false(history_write(h, FORMAT_DBCOP, path, &err));
    assert_string_equal(err.msg, "cannot write an indeterminate transaction (t:3) in dbcop format");
    history_free(h);
}

static void repeated_txn_ids_refused(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "synthetic");
    uint32_t s = hb_session(b, 0, NULL), k = hb_key(b, 1);
    hb_op(b, hb_txn(b, s, 7, 0), OP_WRITE, k, 1, 0);
    hb_op(b, hb_txn(b, s, 7, 0), OP_WRITE, k, 2, 0);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    char path[128];
    snprintf(path, sizeof path, "%s/dup", tmpdir);
    assert_false(history_write(h, FORMAT_TEXT, path, &err));
    assert_string_equal(err.msg, "cannot write synthetic: txn 2 in text format: transaction id 7 is used twice");
    roundtrip(h, FORMAT_DBCOP);                   /* dbcop numbers transactions itself */
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registers_through_every_format),
        cmocka_unit_test(aborted_and_failed_through_dbcop),
        cmocka_unit_test(aborted_reads_through_elle),
        cmocka_unit_test(lists_and_statuses_through_elle),
        cmocka_unit_test(repeated_txn_ids_refused),
        cmocka_unit_test(viper_and_dbcop_json_files_round_trip),
        cmocka_unit_test(viper_names_and_refusals),
    };
    return cmocka_run_group_tests_name("roundtrip", tests, setup, teardown);
}
