/* test_parse_times.c — per-transaction times in every format that carries
 * them (doc/formats.md, "Times"): Elle EDN/JSON :time and :index, :ts
 * {:rts :cts}; the text format's "#@time" lines (serial and chunked);
 * TimeKiller's sts/cts; the writers carrying them through; `gen --times`
 * read back equal to the simulator's own; every bad time at file:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vec.h"
#include "io/output.h"
#include "frontend/formats/parse.h"
#include "frontend/formats/write.h"
#include "workload/gen_writer.h"
#include "workload/workload.h"
#include "parse_helpers.h"

#define NONE HISTORY_TIME_NONE

/* The model transaction with format id ext (fails if none). */
static uint32_t txn_of(const history *h, int64_t ext) {
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (h->txns[t].ext_id == ext) return t;
    fail_msg("no transaction %lld", (long long)ext);
    return 0;
}

/* Transaction ext has exactly these times (NONE: none of that kind). */
static void assert_times(const history *h, int64_t ext, int64_t inv, int64_t cmp, int64_t st, int64_t cm) {
    uint32_t t = txn_of(h, ext);
    int64_t want[TIME_KINDS] = { inv, cmp, st, cm };
    for (int k = 0; k < TIME_KINDS; k++) {
        if (history_time(h, (history_time_kind)k, t) != want[k])
            fprintf(stderr, "txn %lld kind %d: %lld, want %lld\n", (long long)ext, k,
                    (long long)history_time(h, (history_time_kind)k, t), (long long)want[k]);
        assert_true(history_time(h, (history_time_kind)k, t) == want[k]);
    }
}

static history *load_ok(history_format fmt, const char *s) {
    ic_error err;
    history *h = load_str(fmt, s, &err);
    if (!h) fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(h);
    return h;
}

/* With a load report: the notes joined, into notes (n bytes). */
static history *load_notes(history_format fmt, const char *s, char *notes, size_t n) {
    ic_error err;
    load_report rep;
    load_report_init(&rep);
    ic_error_clear(&err);
    history *h = load_history_mem_ex(s, strlen(s), fmt, "t", NULL, &rep, &err);
    notes[0] = 0;
    for (size_t i = 0; i < rep.notes.len; i++) strncat(notes, rep.notes.data[i], n - strlen(notes) - 1);
    load_report_free(&rep);
    assert_non_null(h);
    return h;
}

/* ---- Elle ---------------------------------------------------------------- */

static const char elle_timed[] =
    "{:type :invoke, :f :txn, :process 0, :time 100, :index 0, :value [[:w :x 1]]}\n"
    "{:type :invoke, :f :txn, :process 1, :time 150, :index 1, :value [[:r :x nil]]}\n"
    "{:type :ok, :f :txn, :process 0, :time 200, :index 2, :value [[:w :x 1]]}\n"
    "{:type :info, :f :txn, :process 1, :time 300, :index 3, :value [[:r :x nil]]}\n"
    "{:type :invoke, :f :txn, :process 0, :time 400, :index 4, :value [[:w :x 2]]}\n"
    "{:type :fail, :f :txn, :process 0, :time 450, :index 5, :value [[:w :x 2]]}\n"
    "{:type :ok, :f :txn, :process 2, :time 500, :index 6, :value [[:r :x 1]]}\n";

/* Blank out every "KEY N, " of s (a copy). */
static char *without(const char *s, const char *key) {
    char *buf = strcpy(malloc(strlen(s) + 1), s);
    for (char *p = buf; (p = strstr(p, key)); ) {
        char *e = strchr(p, ',');
        memset(p, ' ', (size_t)(e - p + 1));
    }
    return buf;
}

static void elle_index_and_time(void **state) {
    (void)state;
    history *h = load_ok(FORMAT_ELLE, elle_timed);     /* :index on every op: the history's order */
    assert_times(h, 2, 0, 2, NONE, NONE);               /* paired :ok */
    assert_times(h, 3, 1, NONE, NONE, NONE);            /* :info never completed */
    assert_times(h, 5, 4, 5, NONE, NONE);               /* :fail completed */
    assert_times(h, 6, NONE, 6, NONE, NONE);            /* no invocation before it */
    assert_true(history_has_times(h, TIME_INVOKE) && !history_has_times(h, TIME_DB_START));
    history_free(h);
    char *buf = without(elle_timed, ":index ");         /* no :index: :time (ids are positions) */
    h = load_ok(FORMAT_ELLE, buf);
    assert_times(h, 2, 100, 200, NONE, NONE);
    assert_times(h, 3, 150, NONE, NONE, NONE);
    assert_times(h, 5, 400, 450, NONE, NONE);
    assert_times(h, 6, NONE, 500, NONE, NONE);
    history_free(h);
    free(buf);
}

static void elle_partial_stamps(void **state) {
    (void)state;
    char notes[1024];
    history *h = load_notes(FORMAT_ELLE,                         /* :index not on all: :time, never mixed */
        "{:type :invoke, :process 0, :time 100, :value [[:w :x 1]]}\n"
        "{:type :ok, :process 0, :index 1, :value [[:w :x 1]]}\n"
        "{:type :invoke, :process 0, :time 200, :index 2, :value [[:w :x 2]]}\n"
        "{:type :ok, :process 0, :time 250, :index 3, :value [[:w :x 2]]}\n", notes, sizeof notes);
    assert_times(h, 1, 100, NONE, NONE, NONE);
    assert_times(h, 3, 200, 250, NONE, NONE);
    assert_string_equal(notes, "note: real times from :time: 1 of 4 invocations and completions have no integer :time, "
                               "and so no time");
    history_free(h);
    h = load_notes(FORMAT_ELLE,                                   /* Elle's tests: :time 0 everywhere, :index in order */
        "{:index 10, :time 0, :type :invoke, :process 2, :value [[:append 9 2]]}\n"
        "{:index 11, :time 0, :type :ok, :process 2, :value [[:append 9 2]]}\n"
        "{:index 20, :time 0, :type :invoke, :process 4, :value [[:r 9 nil]]}\n"
        "{:index 21, :time 0, :type :ok, :process 4, :value [[:r 9 [2]]]}\n", notes, sizeof notes);
    assert_times(h, 11, 10, 11, NONE, NONE);
    assert_times(h, 21, 20, 21, NONE, NONE);
    assert_string_equal(notes, "");
    history_free(h);
    h = load_notes(FORMAT_ELLE,                                   /* :index only on completions: no times */
        "{:type :invoke, :process 0, :value [[:w :x 1]]}\n"
        "{:type :ok, :process 0, :index 7, :value [[:w :x 1]]}\n", notes, sizeof notes);
    assert_false(history_has_times(h, TIME_COMPLETE));
    assert_string_equal(notes, "");
    history_free(h);
    h = load_notes(FORMAT_ELLE, "{:type :ok, :process 0, :time 5, :value [[:w :x 1]]}\n", notes, sizeof notes);
    assert_false(history_has_times(h, TIME_COMPLETE));           /* no invocation at all: nothing to order */
    assert_string_equal(notes, "");
    history_free(h);
}

/* Completions with no invocation before them and no :time (kept apart by
 * jepsen_times.c): their :index is their completion time when :index is
 * the stamp, none when :time is, none for :info; through the plain
 * completion (:f :txn ...) and the general reader alike. */
static void elle_unpaired_completions(void **state) {
    (void)state;
    history *h = load_ok(FORMAT_ELLE,
        "{:type :invoke, :process 0, :index 0, :value [[:w 1 1]]}\n"
        "{:type :ok, :process 0, :index 1, :value [[:w 1 1]]}\n"
        "{:type :ok, :process 5, :index 2, :value [[:w 2 1]]}\n"
        "{:type :info, :process 6, :index 3, :value [[:w 3 1]]}\n"
        "{:type :ok, :index 4, :value [[:w 4 1]]}\n"
        "{:type :ok, :f :txn, :process 7, :index 5, :value [[:w 5 1]]}\n"
        "{:type :fail, :f :txn, :process 8, :index 6, :value [[:w 6 1]]}\n");
    assert_times(h, 1, 0, 1, NONE, NONE);
    assert_times(h, 2, NONE, 2, NONE, NONE);
    assert_times(h, 3, NONE, NONE, NONE, NONE);
    assert_times(h, 4, NONE, 4, NONE, NONE);
    assert_times(h, 5, NONE, 5, NONE, NONE);
    assert_times(h, 6, NONE, 6, NONE, NONE);
    history_free(h);
    h = load_ok(FORMAT_ELLE,                             /* :time is the stamp: the unpaired one has none */
        "{:type :invoke, :process 0, :time 100, :value [[:w 1 1]]}\n"
        "{:type :ok, :process 0, :time 200, :value [[:w 1 1]]}\n"
        "{:type :ok, :f :txn, :process 3, :index 9, :value [[:w 2 1]]}\n");
    assert_times(h, 1, 100, 200, NONE, NONE);
    assert_times(h, 9, NONE, NONE, NONE, NONE);
    history_free(h);
}

static void elle_db_timestamps(void **state) {
    (void)state;
    history *h = load_ok(FORMAT_ELLE,
        "{:type :ok, :process 0, :index 1, :ts {:rts 10, :cts 12}, :value [[:w :x 1]]}\n"
        "{:type :ok, :process 0, :index 2, :ts {:rts 12 :cts nil}, :value [[:r :x 1]]}\n");
    assert_times(h, 1, NONE, NONE, 10, 12);
    assert_times(h, 2, NONE, NONE, 12, NONE);
    history_free(h);
    h = load_ok(FORMAT_JSON,
        "[{\"type\": \"ok\", \"process\": 0, \"index\": 1, \"ts\": {\"rts\": 10, \"cts\": 12}, \"value\": [[\"w\", \"x\", 1]]}]");
    assert_times(h, 1, NONE, NONE, 10, 12);
    history_free(h);
}

static void elle_json_twin(void **state) {
    (void)state;
    history *h = load_ok(FORMAT_JSON,
        "{\"type\": \"invoke\", \"process\": 0, \"time\": 7, \"index\": 0, \"value\": [[\"w\", \"x\", 1]]}\n"
        "{\"type\": \"ok\", \"process\": 0, \"time\": 9, \"index\": 1, \"value\": [[\"w\", \"x\", 1]]}\n");
    assert_times(h, 1, 0, 1, NONE, NONE);                         /* :index on every op: positions */
    history_free(h);
}

static void elle_bad_times(void **state) {
    (void)state;
    assert_load_error(FORMAT_ELLE,
        "{:type :invoke, :process 0, :time 100, :value [[:w :x 1]]}\n"
        "{:type :ok, :process 0, :time 90, :value [[:w :x 1]]}\n", 2,
        "completion :time 90 is before its invocation's :time 100 (a transaction cannot complete before it is invoked)");
    assert_load_error(FORMAT_JSON,
        "{\"type\": \"invoke\", \"process\": 0, \"index\": 5, \"value\": [[\"w\", \"x\", 1]]}\n"
        "{\"type\": \"ok\", \"process\": 0, \"index\": 3, \"value\": [[\"w\", \"x\", 1]]}\n", 2,
        "completion \"index\" 3 is before its invocation's \"index\" 5 (a transaction cannot complete before it is invoked)");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :process 0,\n :ts {:rts 5, :cts 4}, :value [[:w :x 1]]}\n", 2,
                      "commit timestamp 4 is before start timestamp 5 (a transaction commits after it starts)");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :process 0, :ts {:rts \"5\"}, :value [[:w :x 1]]}\n", 1,
                      "expected an integer timestamp as :rts, found \"5\"");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :process 0, :ts 5, :value [[:w :x 1]]}\n", 1,
                      "expected a :ts map {:rts START, :cts COMMIT}, found 5");
}

/* ---- text ---------------------------------------------------------------- */

static const char text_timed[] =
    "#@time 2 invoke=30 complete=40\n"          /* before its transaction's lines */
    "w(1,5,1,1)\n"
    "w(2,6,1,1)\n"
    "#@time 1 invoke=-10 complete=20 start=1 commit=2\n"
    "r(1,5,2,2)\n"
    "# a comment\n"
    "r(2,6,2,3)\n"
    "#@time\t3   commit=9 start=9\n";

static void check_text_timed(const history *h) {
    assert_times(h, 1, -10, 20, 1, 2);
    assert_times(h, 2, 30, 40, NONE, NONE);
    assert_times(h, 3, NONE, NONE, 9, 9);
}

static void text_annotations(void **state) {
    (void)state;
    history *h = load_ok(FORMAT_TEXT, text_timed);
    check_text_timed(h);
    history_free(h);
    for (size_t chunk = 8; chunk <= 64; chunk *= 2) {        /* chunked on threads: the same */
        load_options opt = { .threads = 2, .chunk_bytes = chunk };
        ic_error err;
        ic_error_clear(&err);
        h = load_history_mem_ex(text_timed, strlen(text_timed), FORMAT_TEXT, "t", &opt, NULL, &err);
        assert_non_null(h);
        check_text_timed(h);
        history_free(h);
    }
    h = load_ok(FORMAT_TEXT, "w(1,5,1,1)\n");                /* no annotation: no times */
    for (int k = 0; k < TIME_KINDS; k++) assert_false(history_has_times(h, (history_time_kind)k));
    history_free(h);
}

static void text_bad_annotations(void **state) {
    (void)state;
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 1 invoke=10 complete=5\n", 2,
                      "complete=5 is before invoke=10 (transaction 1)");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 1 start=10 commit=5\n", 2,
                      "commit=5 is before start=10 (transaction 1)");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 1 invoke=1x\n", 2,
                      "expected a blank before the next field, found 'x'");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 1 invoke=\n", 2,
                      "expected an integer time after '=', found end of line");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 1 invoke=-9223372036854775808\n", 2,
                      "invoke out of range (from -9223372036854775807 to 9223372036854775807)");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 1 begin=3\n", 2,
                      "expected invoke=, complete=, start= or commit=, found 'begin=3'");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 1\n", 2,
                      "expected invoke=, complete=, start= or commit= after the transaction id, found end of line");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time x invoke=1\n", 2,
                      "expected a transaction id (digits) after '#@time', found 'x invoke=1'");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 1 invoke=1 invoke=2\n", 2, "invoke= given twice for transaction 1");
    assert_load_error(FORMAT_TEXT, "w(1,5,1,1)\n#@time 7 invoke=1\n", 2,
                      "times for transaction 7, which has no operation in the file");
    assert_load_error(FORMAT_TEXT, "#@time 1 invoke=1\nw(1,5,1,1)\n#@time 1 commit=1\n", 3,
                      "times for transaction 1 given twice (first at line 1)");
    assert_load_error(FORMAT_TEXT, "w(1,0,0,0)\n#@time 0 invoke=1\nw(1,5,1,1)\n", 2,
                      "times for transaction 0, which stands for the initial state (line 1): it has none");
    /* other comments starting with '#@' are still comments */
    history *h = load_ok(FORMAT_TEXT, "#@timex 1\n#@ note\nw(1,5,1,1)\n");
    assert_false(history_has_times(h, TIME_INVOKE));
    history_free(h);
}

/* ---- TimeKiller ---------------------------------------------------------- */

static void timekiller_plain(void **state) {
    (void)state;
    history *h = load_ok(FORMAT_AUTO,
        "[\n"
        " {\"tid\": 1, \"sid\": 7, \"sts\": {\"p\": 100, \"l\": 0}, \"cts\": {\"p\": \"105\", \"l\": 0},\n"
        "  \"ops\": [{\"t\": \"w\", \"k\": 1, \"v\": 5}, {\"t\": \"R\", \"k\": 2, \"v\": 0}]},\n"
        " {\"tid\": 2, \"sid\": \"s2\", \"sts\": {\"p\": 106, \"l\": 0}, \"cts\": {\"p\": 107, \"l\": 0},\n"
        "  \"ops\": [{\"t\": \"read\", \"k\": 1, \"v\": 5}, {\"t\": \"a\", \"k\": 3, \"v\": 1}, {\"t\": \"r\", \"k\": 3}]}\n"
        "]\n");
    assert_int_equal(h->format, FORMAT_JSON);
    assert_times(h, 1, NONE, NONE, 100, 105);
    assert_times(h, 2, NONE, NONE, 106, 107);
    uint32_t t1 = txn_of(h, 1), t2 = txn_of(h, 2);
    assert_int_equal(h->txns[t1].status, TXN_COMMITTED);
    assert_true(history_op_value(h, op_of(h, t1, 1)) == VALUE_INIT);   /* 0 read, nobody writes 0: the initial value */
    assert_int_equal(history_op_kind(h, op_of(h, t2, 2)), OP_LIST_READ);   /* null on a list key: [] */
    assert_int_equal(h->sessions[h->txns[t1].session].ext_id, 7);
    history_free(h);
    h = load_ok(FORMAT_AUTO,                                    /* someone writes 0: 0 is a value */
        "[{\"tid\": 1, \"sid\": 1, \"sts\": {\"p\": 1}, \"cts\": {\"p\": 2}, \"ops\": [{\"t\": \"w\", \"k\": 1, \"v\": 0}]},"
        " {\"tid\": 2, \"sid\": 1, \"sts\": {\"p\": 3}, \"cts\": {\"p\": 4}, \"ops\": [{\"t\": \"r\", \"k\": 1, \"v\": 0}]}]");
    assert_true(history_op_value(h, op_of(h, txn_of(h, 2), 0)) == 0);
    history_free(h);
}

static void timekiller_logical_parts(void **state) {
    (void)state;
    char notes[1024];
    history *h = load_notes(FORMAT_AUTO,                        /* l up to 5: 3 bits */
        "[{\"tid\": 1, \"sid\": 1, \"sts\": {\"p\": 10, \"l\": 5}, \"cts\": {\"p\": 11, \"l\": 0}, \"ops\": []},"
        " {\"tid\": 2, \"sid\": 2, \"sts\": {\"p\": 10, \"l\": 4}, \"cts\": {\"p\": 10, \"l\": 5}, \"ops\": [{\"t\": \"w\", \"k\": 1, \"v\": 1}]}]",
        notes, sizeof notes);
    assert_times(h, 1, NONE, NONE, 10 * 8 + 5, 11 * 8);
    assert_times(h, 2, NONE, NONE, 10 * 8 + 4, 10 * 8 + 5);
    assert_non_null(strstr(notes, "p * 8 + l"));
    history_free(h);
    h = load_notes(FORMAT_AUTO,                                 /* too wide: ranks, order kept */
        "[{\"tid\": 1, \"sid\": 1, \"sts\": {\"p\": 4611686018427387904, \"l\": 3}, \"cts\": {\"p\": 4611686018427387905, \"l\": 0}, \"ops\": []},"
        " {\"tid\": 2, \"sid\": 2, \"sts\": {\"p\": 5, \"l\": 1}, \"cts\": {\"p\": 4611686018427387904, \"l\": 3}, \"ops\": [{\"t\": \"w\", \"k\": 1, \"v\": 1}]}]",
        notes, sizeof notes);
    assert_times(h, 1, NONE, NONE, 1, 2);
    assert_times(h, 2, NONE, NONE, 0, 1);
    assert_non_null(strstr(notes, "ranks"));
    history_free(h);
}

static void timekiller_errors(void **state) {
    (void)state;
    assert_load_error(FORMAT_AUTO,
        "[{\"tid\": 1, \"sid\": 1, \"sts\": {\"p\": 5, \"l\": 1}, \"cts\": {\"p\": 5, \"l\": 0}, \"ops\": [{\"t\": \"w\", \"k\": 1, \"v\": 1}]}]", 1,
        "start timestamp (5, 1) is after commit timestamp (5, 0) (a transaction commits after it starts)");
    assert_load_error(FORMAT_AUTO,
        "[{\"tid\": 1, \"sid\": 1, \"sts\": {\"p\": -5}, \"cts\": {\"p\": 5}, \"ops\": []}]", 1,
        "expected a non-negative integer \"p\", found -5");
    assert_load_error(FORMAT_AUTO,
        "[{\"tid\": 1, \"sid\": 1, \"ops\": [{\"t\": \"cas\", \"k\": 1, \"v\": 1}]}]", 1,
        "expected an operation type \"t\": \"r\", \"w\" or \"a\", found \"cas\"");
    assert_load_error(FORMAT_AUTO,
        "[{\"tid\": 1, \"sid\": 1, \"ops\": []},\n{\"tid\": 1, \"sid\": 2, \"ops\": []}]", 2,
        "duplicate transaction id (\"tid\" 1)");
    assert_load_error(FORMAT_AUTO,                               /* one kind per file */
        "[{\"tid\": 1, \"sid\": 1, \"ops\": []},\n{\"type\": \"ok\", \"value\": [[\"w\", 1, 1]]}]", 2,
        "expected a TimeKiller transaction {\"tid\", \"sid\", \"sts\", \"cts\", \"ops\"}, found "
        "{\"type\":\"ok\",\"value\":[[\"w\",1,1]]}");
    assert_load_error(FORMAT_AUTO,
        "[{\"tid\": 1, \"sid\": 1, \"ops\": [{\"t\": \"a\", \"k\": 1, \"v\": 1}, {\"t\": \"w\", \"k\": 1, \"v\": 2}]}]", 1,
        "key 1 is used both as a register (\"w\", a read of a value) and as a list (\"a\", a read of a list)");
}

/* ---- writers ---------------------------------------------------------------- */

/* h written in fmt and read back. */
static history *round_trip(const history *h, history_format fmt) {
    char path[] = "/tmp/isocheck-times-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ic_error err;
    ic_error_clear(&err);
    assert_true(history_write_file(h, fmt, path, OUTPUT_FORCE, NULL, 0, &err));
    history *back = load_history(path, fmt, &err);
    unlink(path);
    if (!back) fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(back);
    return back;
}

static void assert_same_times(const history *a, const history *b) {
    assert_int_equal(a->num_txns, b->num_txns);
    for (uint32_t t = 1; t < a->num_txns; t++) {
        uint32_t u = txn_of(b, a->txns[t].ext_id);
        for (int k = 0; k < TIME_KINDS; k++)
            assert_true(history_time(a, (history_time_kind)k, t) == history_time(b, (history_time_kind)k, u));
    }
}

static void writers_carry_times(void **state) {
    (void)state;
    history *h = load_ok(FORMAT_TEXT, text_timed);
    history *e = round_trip(h, FORMAT_ELLE), *t = round_trip(e, FORMAT_TEXT);
    check_text_timed(e);
    check_text_timed(t);
    history_free(e);
    history_free(t);
    char note[512];
    ic_error err;
    assert_true(history_write_file(h, FORMAT_DBCOP, "/dev/null", 0, note, sizeof note, &err));
    assert_string_equal(note, "dropped the times of 3 transactions: the format has no per-transaction times");
    history_free(h);
    h = load_ok(FORMAT_ELLE, elle_timed);                 /* :info keeps no completion time */
    e = round_trip(h, FORMAT_ELLE);
    assert_same_times(h, e);
    history_free(e);
    history_free(h);
}

/* ---- gen --times ----------------------------------------------------------- */

typedef struct captured { VEC(sim_times) t; } captured;

static void capture(void *ctx, const sim_times *tm) { vec_push(((captured *)ctx)->t, *tm); }

static void gen_times_read_back(void **state) {
    (void)state;
    for (int level = SIM_SER; level <= SIM_SI; level++) {
        workload_params p;
        workload_defaults(&p);
        p.sessions = 6; p.txns_per_session = 40; p.ops_per_txn = 4; p.keys = 20; p.level = (sim_level)level;
        ic_error err;
        ic_error_clear(&err);
        /* the model, and the simulator's own times */
        captured cap = { { NULL, 0, 0 } };
        sim_times_sink cs = { &cap, capture };
        model_sink *m = model_sink_new("gen", p.sessions, 0);
        sim_times_sink ms = model_sink_times(m);
        sim_sink sink = model_sink_sink(m);
        sim_truth truth;
        assert_true(sim_run_timed(&p, &sink, &ms, &truth, NULL, NULL, &err));
        history *model = model_sink_finish(m, &err);
        assert_non_null(model);
        model_sink *m2 = model_sink_new("gen", p.sessions, 0);
        sim_sink sink2 = model_sink_sink(m2);
        assert_true(sim_run_timed(&p, &sink2, &cs, &truth, NULL, NULL, &err));
        history *h2 = model_sink_finish(m2, &err);
        history_free(h2);
        assert_int_equal(cap.t.len, model->num_txns - 1);
        for (size_t i = 0; i < cap.t.len; i++) {         /* txn ids are 1.. in the order they end */
            uint32_t t = txn_of(model, (int64_t)i + 1);
            const sim_times *s = &cap.t.data[i];
            assert_true(history_time(model, TIME_INVOKE, t) == s->invoke);
            assert_true(history_time(model, TIME_COMPLETE, t) == s->complete);
            assert_true(history_time(model, TIME_DB_START, t) == s->start);
            assert_true(history_time(model, TIME_DB_COMMIT, t) == (s->commit < 0 ? NONE : s->commit));
            assert_true(s->invoke < s->complete);
        }
        /* what the simulator guarantees (workload.h): a RT b => a's commit is in b's snapshot */
        for (uint32_t a = 1; a < model->num_txns; a++)
            for (uint32_t b = 1; b < model->num_txns; b++)
                if (model->txns[a].status == TXN_COMMITTED &&
                    history_time(model, TIME_COMPLETE, a) < history_time(model, TIME_INVOKE, b))
                    assert_true(history_time(model, TIME_DB_COMMIT, a) <= history_time(model, TIME_DB_START, b));
        /* streamed text, read back: the committed transactions' times */
        char path[] = "/tmp/isocheck-gen-times-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        gen_writer *w = gen_writer_open(FORMAT_TEXT, path, &p, NULL, &err);
        assert_non_null(w);
        sim_times_sink ws = gen_writer_times(w);
        sim_sink wsink = gen_writer_sink(w);
        assert_true(gen_writer_close(w, sim_run_timed(&p, &wsink, &ws, &truth, NULL, NULL, &err), &err));
        history *text = load_history(path, FORMAT_TEXT, &err);
        unlink(path);
        assert_non_null(text);
        for (uint32_t t = 1; t < text->num_txns; t++) {
            uint32_t u = txn_of(model, text->txns[t].ext_id);
            for (int k = 0; k < TIME_KINDS; k++)
                assert_true(history_time(text, (history_time_kind)k, t) == history_time(model, (history_time_kind)k, u));
        }
        history *elle = round_trip(model, FORMAT_ELLE);
        assert_same_times(model, elle);
        history_free(elle);
        history_free(text);
        history_free(model);
        vec_free(cap.t);
    }
}

/* The guarantee is not vacuous: a causality fault (a snapshot older than the
 * session's own last commit) breaks it, and the times show it. */
static void gen_times_show_a_fault(void **state) {
    (void)state;
    workload_params p;
    workload_defaults(&p);
    p.sessions = 4; p.txns_per_session = 50; p.ops_per_txn = 3; p.keys = 20;
    p.fault = FAULT_CAUSALITY; p.fault_rate = 0.5;
    ic_error err;
    ic_error_clear(&err);
    model_sink *m = model_sink_new("gen", p.sessions, 0);
    sim_times_sink ms = model_sink_times(m);
    sim_sink sink = model_sink_sink(m);
    sim_truth truth;
    assert_true(sim_run_timed(&p, &sink, &ms, &truth, NULL, NULL, &err));
    history *h = model_sink_finish(m, &err);
    assert_non_null(h);
    assert_true(truth.faulted_txns > 0);
    uint64_t broken = 0;
    for (uint32_t a = 1; a < h->num_txns; a++)
        for (uint32_t b = 1; b < h->num_txns; b++)
            broken += h->txns[a].status == TXN_COMMITTED &&
                      history_time(h, TIME_COMPLETE, a) < history_time(h, TIME_INVOKE, b) &&
                      history_time(h, TIME_DB_COMMIT, a) > history_time(h, TIME_DB_START, b);
    assert_true(broken > 0);
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elle_index_and_time),
        cmocka_unit_test(elle_partial_stamps),
        cmocka_unit_test(elle_unpaired_completions),
        cmocka_unit_test(elle_db_timestamps),
        cmocka_unit_test(elle_json_twin),
        cmocka_unit_test(elle_bad_times),
        cmocka_unit_test(text_annotations),
        cmocka_unit_test(text_bad_annotations),
        cmocka_unit_test(timekiller_plain),
        cmocka_unit_test(timekiller_logical_parts),
        cmocka_unit_test(timekiller_errors),
        cmocka_unit_test(writers_carry_times),
        cmocka_unit_test(gen_times_read_back),
        cmocka_unit_test(gen_times_show_a_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
