/* test_parse_elle.c — Elle EDN: registers, lists, statuses, every shape real
 * histories come in (each read into the same model as the canonical
 * one-map-per-line form), the load report, every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "frontend/formats/optree.h"
#include "parse_helpers.h"
#include "model_text.h"

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
    assert_int_equal(h->txns[3].num_ops, 1);            /* the :fail read of nil is the invocation's placeholder */
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
    assert_int_equal(history_op_line(h, op_of(h, 2, 2)), 4);
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
    assert_int_equal(h->txns[1].ext_id, 0);              /* no :index: the position among the operations */
    assert_int_equal(h->txns[2].ext_id, 1);
    uint32_t r = op_of(h, 1, 2);
    assert_int_equal(history_op_kind(h, r), OP_READ);
    assert_true(history_op_value(h, r) == VALUE_INIT);
    assert_int_equal(history_read_source(h, op_of(h, 2, 0)), op_of(h, 1, 0));
    assert_int_equal(history_op_value(h, op_of(h, 2, 1)), -4);
    history_free(h);
}

/* The canonical form (one map per line) and every shape real files use
 * must give the same model. */
static const char canonical[] =
    "{:type :invoke, :f :txn, :process 1, :index 0, :value [[:r :x nil] [:w :x 10]]}\n"
    "{:type :invoke, :f :txn, :process 2, :index 1, :value [[:r :x nil] [:w :x 20]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r :x nil] [:w :x 10]]}\n"
    "{:type :ok, :f :txn, :process 2, :index 3, :value [[:r :x nil] [:w :x 20]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 5, :value [[:r :x 20] [:append :l 3] [:r :l [3]]]}\n";

static void assert_same_as_canonical(const char *text, history_format fmt) {
    ic_error err;
    history *want = load_str(FORMAT_ELLE, canonical, &err);
    assert_non_null(want);
    history *got = load_str(fmt, text, &err);
    if (!got) fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(got);
    char *a = model_text(want), *b = model_text(got);
    if (strcmp(a, b)) fprintf(stderr, "want:\n%s\ngot:\n%s\n", a, b);
    assert_string_equal(a, b);
    free(a); free(b);
    history_free(want);
    history_free(got);
}

static void shapes_read_like_the_canonical_form(void **state) {
    (void)state;
    /* comments before the first map and inside maps, maps over several
     * lines, several maps on one line, #_ discards, tags, no commas */
    assert_same_as_canonical(
        "; a history\n"
        ";; with comments\n"
        "{:type :invoke :f :txn :process 1 :index 0 :value [[:r :x nil] [:w :x 10]]} "
        "{:type :invoke, :f :txn, :process 2, :index 1, :value [[:r :x nil] [:w :x 20]]}\n"
        "#_{:type :ok, :f :txn, :process 9, :index 2, :value [[:w :x 99]]}\n"
        "#jepsen.history.Op{:type :ok,  ; the first completion\n"
        "                   :f :txn, :process 1,\n"
        "                   :index 2, :error #_ignored nil, :time #inst \"2024-01-01\",\n"
        "                   :value [[:r :x nil]\n"
        "                           [:w :x 10]]}\n"
        "#jepsen.history.Op {:type :ok, :f :txn, :process 2, :index 3, :value [[:r :x nil] [:w :x 20]]}"
        "{:type :ok, :f :txn, :process 1, :index 5, :value [#_[:r :y 1] [:r :x 20] [:append :l 3] [:r :l [3]]],\n"
        " :note \"a string\nover two lines\", :set #{1 2}, :chars [\\a \\newline], :inf ##Inf}  ; done\n",
        FORMAT_AUTO);
    /* the whole history in a vector, micro-ops in ( ) */
    assert_same_as_canonical(
        "[{:type :invoke, :f :txn, :process 1, :index 0, :value [(:r :x nil) (:w :x 10)]}\n"
        " {:type :invoke, :f :txn, :process 2, :index 1, :value ((:r :x nil) (:w :x 20))}\n"
        " {:type :ok, :f :txn, :process 1, :index 2, :value ((:r :x nil) (:w :x 10))}\n"
        " {:type :ok, :f :txn, :process 2, :index 3, :value [(:r :x nil) (:w :x 20)]}\n"
        " {:type :ok, :f :txn, :process 1, :index 5, :value [(:r :x 20) (:append :l 3) (:r :l (3))]}]\n",
        FORMAT_AUTO);
    /* in a list, over lines, with a comment first */
    assert_same_as_canonical(
        "; list-wrapped\n"
        "({:type :invoke, :f :txn, :process 1, :index 0, :value [[:r :x nil] [:w :x 10]]}\n"
        " {:type :invoke, :f :txn, :process 2, :index 1, :value [[:r :x nil] [:w :x 20]]}\n"
        " {:type :ok, :f :txn, :process 1, :index 2, :value [[:r :x nil] [:w :x 10]]}\n"
        " {:type :ok, :f :txn, :process 2, :index 3, :value [[:r :x nil] [:w :x 20]]}\n"
        " {:type :ok, :f :txn, :process 1, :index 5, :value [[:r :x 20] [:append :l 3] [:r :l [3]]]}\n"
        ")\n",
        FORMAT_AUTO);
    /* no :f (elle-cli, tipocket), :f as a string, "ok" as a string, string
     * processes of digits, :f :read/:write with micro-ops */
    assert_same_as_canonical(
        "{:type :invoke, :process 1, :index 0, :value [[:r :x nil] [:w :x 10]]}\n"
        "{:type :invoke, :f \"txn\", :process \"2\", :index 1, :value [[:r :x nil] [:w :x 20]]}\n"
        "{:type \"ok\", :process \"1\", :index 2, :value [[:r :x nil] [:w :x 10]]}\n"
        "{:type :ok, :f :write, :process 2, :index 3, :value [[:r :x nil] [:w :x 20]]}\n"
        "{:type :ok, :f :read, :process 1, :index 5, :value [[\"r\" :x 20] [\"append\" :l 3] [:r :l [3]]]}\n",
        FORMAT_AUTO);
}

/* Regression: a :f :write op was dropped, and a read of its value was
 * reported as a thin-air read. */
static void read_and_write_ops_with_micro_ops_are_transactions(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_AUTO,
        "{:type :invoke, :f :write, :process 0, :value [[:w 0 1]]}\n"
        "{:type :ok, :f :write, :process 0, :value [[:w 0 1]]}\n"
        "{:type :invoke, :f :read, :process 1, :value [[:r 0 nil]]}\n"
        "{:type :ok, :f :read, :process 1, :value [[:r 0 1]]}\n", &err);
    assert_non_null(h);
    assert_int_equal(h->num_txns, 3);
    assert_int_equal(history_read_source(h, op_of(h, 2, 0)), op_of(h, 1, 0));
    history_free(h);
}

/* An op whose :f the checker cannot use is named in an error, never skipped. */
/* The usual completion map is read without a tree (parse_elle.c's
 * plain_map, jepsen_ops.h's jr_plain_op); every other map by the general
 * reader.  A pseudo-random history of both kinds (invocations, :ok, :fail
 * and :info completions, nil reads, :isocheck/reads :observed, empty
 * transactions, negative numbers, keys in another order, :time stamps,
 * lists), read as written and read
 * with every map made one the plain path refuses (an extra :node key, which
 * the reader ignores), gives the same model, times and load report. */
static void plain_maps_read_like_general_ones(void **state) {
    (void)state;
    for (unsigned seed = 1; seed <= 12; seed++) {
        char *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);
        unsigned x = seed * 2654435761u;
        int64_t next_value = -3, index = seed % 3 ? 0 : -5;
        for (int i = 0; i < 300; i++) {
            x = x * 1103515245u + 12345u;
            unsigned r = x >> 16;
            int process = (int)(r % 6), timed = seed % 4 == 0;
            char head[160], body[600] = "";
            size_t bl = 0;
            if (r % 7 == 0) {                              /* an invocation: general path */
                snprintf(head, sizeof head, "{:type :invoke, :f :txn, :process %d, :index %" PRId64 ", :value [[:w %u %" PRId64 "]]",
                         process, index++, r % 5, next_value);
                next_value++;
            } else {
                const char *type = r % 11 == 0 ? ":fail" : r % 13 == 0 ? ":info" : ":ok";
                const char *observed = r % 5 == 0 ? ":isocheck/reads :observed, " : "";
                if (r % 3 == 0) snprintf(head, sizeof head, "{:index %" PRId64 ", :process %d, %s:value [", index++, process, observed);
                else snprintf(head, sizeof head, "{:type %s, :f :txn, :process %d, :index %" PRId64 ", %s:value [", type, process, index++, observed);
                int nops = (int)(r % 4);
                for (int k = 0; k < nops; k++) {
                    unsigned key = (r >> (k + 2)) % 5;
                    if ((r >> k) & 1) bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s[:w %u %" PRId64 "]", k ? " " : "", key, next_value++);
                    else if ((r >> (k + 1)) & 1) bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s[:r %u nil]", k ? " " : "", key);
                    else bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s[:r %u %" PRId64 "]", k ? " " : "", key, next_value - 1 - (int64_t)(r % 3));
                }
                if (r % 3 == 0) bl += (size_t)snprintf(body + bl, sizeof body - bl, "], :f :txn, :type %s", type);
                else bl += (size_t)snprintf(body + bl, sizeof body - bl, "]");
            }
            const char *tail = timed ? ", :time 7}" : "}";
            fprintf(fa, "%s%s%s\n", head, body, tail);
            fprintf(fb, "%s%s, :node 1%s\n", head, body, tail);
        }
        fclose(fa);
        fclose(fb);
        ic_error ea, eb;
        load_report ra, rb;
        load_report_init(&ra);
        load_report_init(&rb);
        ic_error_clear(&ea);
        ic_error_clear(&eb);
        history *ha = load_history_mem_ex(a, na, FORMAT_ELLE, "t", NULL, &ra, &ea);
        history *hb = load_history_mem_ex(b, nb, FORMAT_ELLE, "t", NULL, &rb, &eb);
        assert_int_equal(ha != NULL, hb != NULL);
        if (ha) {
            char *ma = model_text(ha), *mb = model_text(hb);
            assert_string_equal(ma, mb);
            for (uint32_t t = 1; t < ha->num_txns; t++)
                for (int k = 0; k < TIME_KINDS; k++)
                    assert_true(history_time(ha, (history_time_kind)k, t) == history_time(hb, (history_time_kind)k, t));
            assert_int_equal(ra.records, rb.records);
            assert_int_equal(ra.micro_ops, rb.micro_ops);
            assert_int_equal(ra.unknown_reads, rb.unknown_reads);
            assert_int_equal(ra.completions_ok, rb.completions_ok);
            assert_int_equal(ra.completions_fail, rb.completions_fail);
            assert_int_equal(ra.completions_info, rb.completions_info);
            free(ma); free(mb);
        } else {
            assert_string_equal(ea.msg, eb.msg);
            assert_int_equal(ea.line, eb.line);
        }
        history_free(ha);
        history_free(hb);
        load_report_free(&ra);
        load_report_free(&rb);
        free(a); free(b);
    }
}

static void unusable_ops_are_named(void **state) {
    (void)state;
    assert_load_error(FORMAT_AUTO,
        "[{:process 4, :type :invoke, :f :write, :value 2}\n {:process 4, :type :ok, :f :write, :value 2}]\n", 2,
        "expected a transaction (a :value of micro-ops like [[:r k v] [:w k v] [:append k v]]), found an operation "
        "with :f :write and :value 2: isocheck checks transactional histories (Elle's rw-register and list-append), "
        "not Knossos/Jepsen single-object ones (register, cas, set, bank, counter)");
    assert_load_error(FORMAT_AUTO, "{:type :ok, :f :read, :process 0, :value {0 10, 1 10}}\n", 1,
        "expected a transaction (a :value of micro-ops like [[:r k v] [:w k v] [:append k v]]), found an operation "
        "with :f :read and :value {0 10 1 10}: isocheck checks transactional histories (Elle's rw-register and "
        "list-append), not Knossos/Jepsen single-object ones (register, cas, set, bank, counter)");
    assert_load_error(FORMAT_AUTO, "{:type :fail, :f :cas, :process 0, :value [3 4]}\n", 1,
        "expected a transaction (a :value of micro-ops like [[:r k v] [:w k v] [:append k v]]), found an operation "
        "with :f :cas and :value [3 4]: isocheck checks transactional histories (Elle's rw-register and "
        "list-append), not Knossos/Jepsen single-object ones (register, cas, set, bank, counter)");
    assert_load_error(FORMAT_AUTO, "{:type :ok, :f :txn, :process 0}\n", 1,
        "expected a transaction (a :value of micro-ops like [[:r k v] [:w k v] [:append k v]]), found an operation "
        "with :f :txn and :value absent: isocheck checks transactional histories (Elle's rw-register and "
        "list-append), not Knossos/Jepsen single-object ones (register, cas, set, bank, counter)");
}

/* Keys and values that are not 64-bit integers are interned by their
 * written form; values are compared, never computed on. */
static void string_and_big_keys_and_values(void **state) {
    (void)state;
    ic_error err;
    history *h = load_str(FORMAT_AUTO,
        "{:type :ok, :f :txn, :process \"alice\", :value [[:w \"x\" \"ten\"] [:w 123456789012345678901234567890 :a]"
        " [:w :y 99999999999999999999] [:w :z -9223372036854775807] [:append \"l\" \"e1\"]]}\n"
        "{:type :ok, :f :txn, :process \"bob\", :value [[:r \"x\" \"ten\"] [:r 123456789012345678901234567890 :a]"
        " [:r :y 99999999999999999999N] [:r :z -9223372036854775807] [:r \"l\" [\"e1\"]] [:w :w 5]]}\n"
        "{:type :ok, :f :txn, :process \"alice\", :value [[:r :w \"5\"] [:r :y +099999999999999999999]]}\n", &err);
    if (!h) fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(h);
    assert_int_equal(h->num_sessions, 2);
    assert_int_equal(h->sessions[0].num_txns, 2);        /* "alice" twice: one session */
    char b1[64], b2[64];
    assert_string_equal(history_value_str(h, h->sessions[1].ext_id, b1, sizeof b1), "\"bob\"");
    for (uint32_t i = 0; i < 5; i++)                     /* every read of bob's (txn 3) finds its write */
        assert_int_equal(history_read_source(h, op_of(h, 3, i)), op_of(h, 1, i));
    assert_string_equal(history_value_str(h, history_op_value(h, op_of(h, 1, 0)), b1, sizeof b1), "\"ten\"");
    assert_string_equal(history_key_str(h, h->op_key[op_of(h, 1, 1)], b1, sizeof b1), "123456789012345678901234567890");
    assert_string_equal(history_value_str(h, history_op_value(h, op_of(h, 1, 2)), b1, sizeof b1), "99999999999999999999");
    assert_string_equal(history_value_str(h, history_op_value(h, op_of(h, 1, 3)), b2, sizeof b2), "-9223372036854775807");
    assert_true(history_value_is_named(h, history_op_value(h, op_of(h, 1, 3))));   /* in the band of named ids */
    assert_int_equal(history_read_source(h, op_of(h, 2, 0)), HISTORY_NONE);  /* "5" is not 5 */
    assert_int_equal(history_read_source(h, op_of(h, 2, 1)), op_of(h, 1, 2)); /* +0999... is 999... */
    history_free(h);
}

/* :fail/:info completions: nil reads are placeholders (dropped, counted);
 * reads with values are kept; without micro-ops the invocation's writes are
 * used; `:isocheck/reads :observed` keeps nil reads (convert's output). */
static void indeterminate_and_failed_completions(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    load_report rep;
    load_report_init(&rep);
    const char *text =
        "{:type :invoke, :f :start, :process :nemesis}\n"
        "{:type :invoke, :f :txn, :process 3, :index 0, :value [[:w :y 7] [:r :z nil]]}\n"
        "{:type :info, :f :txn, :process 3, :index 1, :error :timeout}\n"
        "{:type :ok, :f :txn, :process 4, :index 2, :value [[:r :y 7]]}\n"
        "{:type :fail, :f :txn, :process 5, :index 3, :value [[:w :z 1] [:r :y 7] [:r :q nil]]}\n"
        "{:type :fail, :f :txn, :process 6, :index 4, :isocheck/reads :observed, :value [[:r :q nil] [:w :q 2]]}\n"
        "{:type :info, :f :txn, :process 7, :index 5, :value nil}\n"
        "{:type :info, :f :stop, :process :nemesis}\n";
    history *h = load_history_mem_ex(text, strlen(text), FORMAT_AUTO, "t", NULL, &rep, &err);
    if (!h) fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(h);
    assert_int_equal(h->num_txns, 6);
    assert_int_equal(h->txns[1].status, TXN_INDETERMINATE);
    assert_int_equal(h->txns[1].num_ops, 1);             /* the invocation's write of y=7 */
    assert_int_equal(history_read_source(h, op_of(h, 2, 0)), op_of(h, 1, 0));
    assert_int_equal(h->txns[3].num_ops, 2);             /* w z=1, r y=7 (r q nil dropped) */
    assert_int_equal(h->txns[4].num_ops, 2);             /* observed: r q=init kept */
    assert_true(history_op_value(h, op_of(h, 4, 0)) == VALUE_INIT);
    assert_int_equal(h->txns[5].num_ops, 0);
    assert_int_equal(rep.records, 8);
    assert_int_equal(rep.nemesis, 2);
    assert_int_equal(rep.invocations, 1);
    assert_int_equal(rep.completions_ok, 1);
    assert_int_equal(rep.completions_fail, 2);
    assert_int_equal(rep.completions_info, 2);
    assert_int_equal(rep.micro_ops, 6);
    assert_int_equal(rep.unknown_reads, 1);
    assert_int_equal(rep.from_invocation, 1);
    assert_int_equal(rep.ops, 6);
    history_free(h);
    load_report_free(&rep);
}

/* Without :process (Elle's own examples) each transaction is its own
 * session: no session order is invented. */
static void no_process_no_session_order(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    load_report rep;
    load_report_init(&rep);
    const char *text = "{:index 0 :type :invoke :value [[:append 1 1]]}\n{:index 1 :type :ok :value [[:append 1 1]]}\n"
                       "{:index 3 :type :ok, :value [[:r 1 [1]]]} {:index 5 :type :ok :process nil :value [[:r 1 []]]}\n";
    history *h = load_history_mem_ex(text, strlen(text), FORMAT_AUTO, "t", NULL, &rep, &err);
    assert_non_null(h);
    assert_int_equal(h->num_sessions, 3);
    char b[32];
    assert_string_equal(history_value_str(h, h->sessions[2].ext_id, b, sizeof b), "nil");
    assert_int_equal(rep.no_process, 3);
    history_free(h);
    load_report_free(&rep);
}

static void no_committed_transaction_is_noted(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    load_report rep;
    load_report_init(&rep);
    const char *text = "{:type :fail, :f :txn, :process 0, :value [[:w 1 1]]}\n{:type :info, :f :txn, :process 1, :value [[:w 1 2]]}\n";
    history *h = load_history_mem_ex(text, strlen(text), FORMAT_AUTO, "t", NULL, &rep, &err);
    assert_non_null(h);
    assert_int_equal(rep.notes.len, 1);
    assert_string_equal(rep.notes.data[0], "note: no committed transaction (1 aborted, 1 indeterminate): there is "
                                           "nothing to check, so any level holds trivially");
    history_free(h);
    load_report_free(&rep);
}

/* Regression (issue 14): a second :type in one map was accepted, the last
 * one winning; here that turned a committed writer into an aborted one and
 * hid a lost update.  A repeated key is bad input. */
static void repeated_keys_are_errors(void **state) {
    (void)state;
    assert_load_error(FORMAT_AUTO,
        "{:type :ok, :f :txn, :process 1, :index 1, :value [[:r :x nil] [:w :x 10]]}\n"
        "{:type :ok, :f :txn, :process 2, :index 2, :value [[:r :x nil] [:w :x 20]],\n"
        " :type :fail}\n", 3, "key :type appears twice in one map (EDN forbids it)");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1]], :time 1, :time 2}\n", 1,
                      "key :time appears twice in one map (EDN forbids it)");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1]], :error {:a 1, :a 1}}\n", 1,
                      "key :a appears twice in one map (EDN forbids it)");
    char big[4096];                                      /* a big map takes the sorting path */
    size_t at = (size_t)snprintf(big, sizeof big, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1]], :x {");
    for (int i = 0; i < 40; i++) at += (size_t)snprintf(big + at, sizeof big - at, "%d %d ", i * 7 % 40, i);
    snprintf(big + at, sizeof big - at, "21 0}}\n");
    assert_load_error(FORMAT_ELLE, big, 1, "key 21 appears twice in one map (EDN forbids it)");
}

/* Regression (issue 30): map keys were hashed by kind and size only, so a
 * map of N distinct vector keys cost N^2/2 comparisons (590 KB took 13 s).
 * The cost is counted, not timed: about one comparison per key. */
static uint32_t vector_key(optree *t, int64_t a, int64_t b) {
    uint32_t v = ot_container(t, OV_VECTOR, 1), last = OV_NONE;
    char s[32];
    ot_append(t, v, &last, ot_integer(t, 1, s, (size_t)snprintf(s, sizeof s, "%lld", (long long)a)));
    ot_append(t, v, &last, ot_integer(t, 1, s, (size_t)snprintf(s, sizeof s, "%lld", (long long)b)));
    return v;
}

static void many_container_keys_cost_one_comparison_each(void **state) {
    (void)state;
    enum { N = 20000 };
    optree t;
    ot_init(&t, 0);
    for (int copies = 1; copies <= 2; copies++) {        /* distinct keys; then every key twice */
        ot_reset(&t);
        t.key_compares = 0;
        uint32_t map = ot_container(&t, OV_MAP, 1), last = OV_NONE;
        for (int i = 0; i < N; i++) {
            ot_append(&t, map, &last, vector_key(&t, i % 100, i / 100));   /* same first element: not enough */
            ot_append(&t, map, &last, ot_integer(&t, 1, "0", 1));
        }
        uint32_t second = OV_NONE;
        for (int c = 1; c < copies; c++)
            for (int i = N - 1; i >= 0; i--) {
                uint32_t k = vector_key(&t, i % 100, i / 100);
                if (second == OV_NONE) second = k;
                ot_append(&t, map, &last, k);
                ot_append(&t, map, &last, ot_integer(&t, 1, "0", 1));
            }
        assert_int_equal(ot_duplicate_key(&t, map), second);  /* the earliest second occurrence */
        if (t.key_compares > (uint64_t)copies * N)
            fail_msg("%d copies of %d vector keys: %llu key comparisons", copies, N, (unsigned long long)t.key_compares);
    }
    ot_reset(&t);                                        /* one key N times */
    t.key_compares = 0;
    uint32_t map = ot_container(&t, OV_MAP, 1), last = OV_NONE, second = OV_NONE;
    for (int i = 0; i < N; i++) {
        uint32_t k = vector_key(&t, 1, 2);
        if (i == 1) second = k;
        ot_append(&t, map, &last, k);
        ot_append(&t, map, &last, ot_integer(&t, 1, "0", 1));
    }
    assert_int_equal(ot_duplicate_key(&t, map), second);
    if (t.key_compares > N) fail_msg("one key %d times: %llu key comparisons", N, (unsigned long long)t.key_compares);
    ot_free(&t);
    /* the same through the reader: a 600 KB skipped field loads */
    vec_char in;
    vec_init(in);
    const char *head = "{:type :ok, :f :txn, :process 0, :value [[:w 1 1]], :error {";
    while (*head) vec_push(in, *head++);
    char item[64];
    for (int i = 0; i < 40000; i++) {
        int n = snprintf(item, sizeof item, "[%d %d] %d ", i % 7, i, i);
        for (int j = 0; j < n; j++) vec_push(in, item[j]);
    }
    vec_push(in, '}'); vec_push(in, '}'); vec_push(in, '\n');
    assert_true(in.len > 590000);
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(in.data, in.len, FORMAT_ELLE, "t", &err);
    if (!h) fail_msg("%s", err.msg);
    assert_int_equal(h->num_txns, 2);                    /* INIT and the transaction */
    history_free(h);
    vec_free(in);
}

/* Regression (issue 14): NUL first on a line (after blanks) was skipped as
 * a blank line; a NUL anywhere is bad input, at its line. */
static void nul_bytes_are_errors(void **state) {
    (void)state;
    static const char lost[] =
        "{:type :ok, :f :txn, :process 1, :value [[:r :x nil] [:w :x 10]]}\n"
        "  \0{:type :ok, :f :txn, :process 2, :value [[:r :x nil] [:w :x 20]]}\n";
    static const char in_string[] = "{:type :ok, :f :txn, :process 1, :node \"a\0b\", :value [[:w :x 10]]}\n";
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(lost, sizeof lost - 1, FORMAT_AUTO, "t", &err);
    assert_null(h);
    assert_string_equal(err.msg, "expected text, found a NUL byte");
    assert_int_equal(err.line, 2);
    ic_error_clear(&err);
    h = load_history_mem(in_string, sizeof in_string - 1, FORMAT_ELLE, "t", &err);
    assert_null(h);
    assert_string_equal(err.msg, "expected text, found a NUL byte");
    assert_int_equal(err.line, 1);
    /* from a file, the NUL far past the first block read (input.c looks for
     * it once per block), on a line ending in "\r\n", at the line's end,
     * and on the last line without a line end */
    static const long at[] = { 3, 20000, 20001, 29999, 30000 };
    for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
        char path[] = "/tmp/test_parse_elle_nulXXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *f = fdopen(fd, "w");
        for (long i = 1; i <= 30000; i++) {
            char line[160];
            int n = snprintf(line, sizeof line, "{:type :ok, :f :txn, :process %ld, :index %ld, :value [[:w %ld %ld]]}%s", i % 7, i,
                             i % 100, i, i % 3 ? "\n" : "\r\n");
            if (i == at[k]) line[k % 2 ? n - 3 : 40] = 0;   /* (n - 3: the '}' or the '\r' before the line end) */
            fwrite(line, 1, (size_t)n - (i == 30000 ? (size_t)(i % 3 ? 1 : 2) : 0), f);
        }
        fclose(f);
        ic_error_clear(&err);
        h = load_history(path, FORMAT_ELLE, &err);
        unlink(path);
        assert_null(h);
        assert_string_equal(err.msg, "expected text, found a NUL byte");
        assert_int_equal(err.line, at[k]);
    }
}

static void every_error(void **state) {
    (void)state;
    assert_load_error(FORMAT_ELLE, "[:type :ok]\n", 1, "expected an operation map ({:type ..., :value ...}), found :type");
    assert_load_error(FORMAT_ELLE, "{:type :weird}\n", 1, "expected :invoke, :ok, :fail or :info as :type, found :weird");
    assert_load_error(FORMAT_ELLE, "{type :ok}\n", 1, "expected an operation with :type, found none");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1]]\n", 1, "expected '}', found end of file");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1]]} x\n", 1,
                      "expected an operation map ({:type ..., :value ...}), found x");
    assert_load_error(FORMAT_ELLE, "{:f :txn, :process 0, :value []}\n", 1, "expected an operation with :type, found none");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:cas 1 1 2]]}\n", 1,
                      "expected a micro-op :r, :w or :append, found :cas");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [:w 1 1]}\n", 1,
                      "expected a micro-op like [:r k v], [:w k v] or [:append k v], found :w");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 x]]}\n", 1,
                      "expected a written value (integer, string or keyword), found x");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 nil]]}\n", 1,
                      "expected a written value (integer, string or keyword), found nil");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:append 1 1 2]]}\n", 1,
                      "expected a micro-op of 3 elements like [:w k v], found [:append 1 1 2]");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:r 1 2 3]]}\n", 1,
                      "expected a micro-op [:r k v] or [:r k], found [:r 1 2 3]");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:r 1 [1 a]]]}\n", 1,
                      "expected a list element (integer, string or keyword), found a");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:r [1] 1]]}\n", 1,
                      "expected a key (integer, keyword or string), found [1]");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w 1 1] [:append 1 2]]}\n", 1,
                      "key 1 is used both as a register ([:w k v], [:r k v]) and as a list ([:append k v], [:r k [...]])");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :index x, :value [[:w 1 1]]}\n", 1,
                      "expected an integer :index, found x");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process [0], :value [[:w 1 1]]}\n", 1,
                      "expected a :process (integer, string, keyword or nil), found [0]");
    assert_load_error(FORMAT_ELLE,
                      "{:type :ok, :f :txn, :process 0, :index 7, :value [[:w 1 1]]}\n"
                      "{:type :ok, :f :txn, :process 1, :index 7, :value [[:w 1 2]]}\n", 2,
                      "duplicate transaction id (:index 7)");
    /* a value appended twice is loaded (issue 35, checked through the choice of appends); only the
     * readers that do not follow repeated values refuse it, saying it was appended */
    assert_repeat_refused(FORMAT_ELLE,
                      "{:type :ok, :f :txn, :process 0, :value [[:append 1 3]]}\n"
                      "{:type :ok, :f :txn, :process 1, :value [[:append 1 3]]}\n", 2,
                      "value 3 appended twice to list key 1 (first at t:1); values appended to a key must be unique");
    /* values in messages as written (issue 30): not a named value's internal id, not "#NaN" */
    assert_repeat_refused(FORMAT_ELLE,
                      "{:type :ok, :f :txn, :process 0, :value [[:w \"k3\" \"v\"]]}\n"
                      "{:type :ok, :f :txn, :process 1, :value [[:w \"k3\" \"v\"]]}\n", 2,
                      "value \"v\" written twice to key \"k3\" (first at t:1); values written to a key must be unique");
    assert_repeat_refused(FORMAT_ELLE,
                      "{:type :ok, :f :txn, :process 0, :value [[:w :x :a]]}\n"
                      "{:type :ok, :f :txn, :process 1, :value [[:w :x 123456789012345678901234567890]]}\n"
                      "{:type :ok, :f :txn, :process 1, :value [[:w :x 123456789012345678901234567890N]]}\n", 3,
                      "value 123456789012345678901234567890 written twice to key :x (first at t:2); values written to a "
                      "key must be unique");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 0, :value [[:w :x ##NaN]]}\n", 1,
                      "expected a written value (integer, string or keyword), found ##NaN");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :time \"abc, :f :txn}\n", 1,
                      "expected '\"' closing the string that starts here, found end of file");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :x \"a\\qb\"}\n", 1,
                      "expected an escape \\n, \\t, \\r, \\b, \\f, \\\", \\\\ or \\uXXXX, found '\\qb\"}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :x [1 2)}\n", 1, "expected ']', found ')}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :x}\n", 1, "a map (from line 1) has a key without a value");
    assert_load_error(FORMAT_ELLE, "{:type :ok, : 1}\n", 1, "expected a keyword name after ':', found ': 1}'");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :x # 1}\n", 1, "expected a tag after '#', found ' 1}'");
    assert_load_error(FORMAT_ELLE, "[{:type :invoke, :f :txn, :process 0, :value [[:w 1 1]]}\n", 1,
                      "expected ']' closing the vector holding the history, found end of file");
    assert_load_error(FORMAT_ELLE, "[{:type :ok, :f :txn, :process 0, :value [[:w 1 1]]}] {:type :ok}\n", 1,
                      "expected end of file after the vector holding the history, found '{:type :ok}'");
    assert_load_error(FORMAT_ELLE, "{:type :invoke, :f :txn, :process 0, :value [[:w 1 1]]}\n", 0,
                      "empty history: no operations found");
    char deep[700];
    size_t at = (size_t)snprintf(deep, sizeof deep, "{:type :ok, :x ");
    for (int i = 0; i < 300; i++) deep[at++] = '[';
    deep[at++] = '\n'; deep[at] = 0;
    assert_load_error(FORMAT_ELLE, deep, 1, "expected less nesting (at most 256 levels), found '[[[[[[[[[[[[[[[[[[[[[[[...'");
    at = (size_t)snprintf(deep, sizeof deep, "{:type :ok, :x ");   /* discards nest too */
    for (int i = 0; i < 300; i++) { deep[at++] = '#'; deep[at++] = '_'; }
    deep[at++] = '\n'; deep[at] = 0;
    assert_load_error(FORMAT_ELLE, deep, 1, "expected less nesting (at most 256 levels), found '#_#_#_#_#_#_#_#_#_#_#_#...'");
}

/* Lines of the plain completion's shape (parse_elle.c's plain_map: one
 * line, the five keys, maybe :isocheck/reads) that it must refuse are read
 * by the general reader, which words the error at the line as before; an
 * :isocheck/reads other than :observed is accepted and keeps no nil read. */
static void plain_shaped_lines(void **state) {
    (void)state;
    static const struct { const char *line, *msg; } bad[] = {
        { "[[:rx 1 2]]", "expected a micro-op :r, :w or :append, found :rx" },
        { "[[:appendx 1 2]]", "expected a micro-op :r, :w or :append, found :appendx" },
        { "[[:r 1 nilx]]", "expected a read value (integer, string, keyword, nil or a list), found nilx" },
        { "[[:r 1 nil 3]]", "expected a micro-op [:r k v] or [:r k], found [:r 1 nil 3]" },
        { "[[:append 1]]", "expected a micro-op of 3 elements like [:w k v], found [:append 1]" },
        { "[[: 1 2]]", "expected a keyword name after ':', found ': 1 2]]}'" },
        { "[[:append 1 2]]", "key 1 is used both as a register ([:w k v], [:r k v]) and as a list ([:append k v], [:r k [...]])" },
    };
    char text[400];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:w 1 1]]}\n"
                 "{:type :fail, :f :txn, :process 1, :index 2, :isocheck/reads :observed, :value %s}\n", bad[i].line);
        assert_load_error(FORMAT_ELLE, text, 2, bad[i].msg);
    }
    assert_load_error(FORMAT_ELLE, "{:type :fail, :f :txn, :process 1, :index 2, :isocheck/reads :observed, "
                      ":isocheck/reads :observed, :value [[:r 1 nil]]}\n", 1,
                      "key :isocheck/reads appears twice in one map (EDN forbids it)");
    assert_load_error(FORMAT_ELLE, "{:type :ok, :f :txn, :process 1, :index 2, :isocheck/reads :observed, "
                      ":value [[:r 1 nil] [:w 2 3]\n", 1, "expected ']', found end of file");
    static const char nul[] = "{:type :ok, :f :txn, :process 1, :index 2, :isocheck/reads :observed, :value [[:r 1 \0nil]]}\n";
    ic_error err;
    ic_error_clear(&err);
    assert_null(load_history_mem(nul, sizeof nul - 1, FORMAT_ELLE, "t", &err));
    assert_string_equal(err.msg, "expected text, found a NUL byte");
    for (int observed = 0; observed < 2; observed++) {
        snprintf(text, sizeof text, "{:type :ok, :f :txn, :process 0, :index 1, :value [[:w 1 1]]}\n"
                 "{:type :fail, :f :txn, :process 1, :index 2, :isocheck/reads %s, :value [[:r 2 nil] [:w 1 2]]}\n",
                 observed ? ":observed" : ":observd");
        load_report rep;
        load_report_init(&rep);
        ic_error_clear(&err);
        history *h = load_history_mem_ex(text, strlen(text), FORMAT_ELLE, "t", NULL, &rep, &err);
        assert_non_null(h);
        assert_int_equal(h->txns[2].num_ops, 1 + observed);
        assert_int_equal(rep.unknown_reads, !observed);
        history_free(h);
        load_report_free(&rep);
    }
}

/* Integers of every length and shape (1 to 20 digits, signs, leading
 * zeros, -0, a suffix), keys from small to far outside any dense range
 * (negative, 10^17), list and register keys (now and then one used both
 * ways), processes, indexes and :time of many lengths (with invocations
 * before some completions): each history read as
 * written (the plain path where it applies) and with `:node 1` in every map
 * (the general reader) gives the same model, times and report, or the same
 * error at the same line. */
static const char *const plain_keys[] = {
    "0", "1", "2", "3", "7", "63", "64", "65", "200", "4095", "5000", "99999", "-1", "-7", "1000000007",
    "100000000000000000", "1099511627776", "9223372036854775807", "-9223372036854775808", "007", "-0", "12N",
};
static const char *const plain_list_keys[] = { "5", "6", "40", "1000" };

static void put_number(char *out, size_t n, unsigned r, int64_t c) {   /* a unique value for counter c */
    unsigned e = r % 20;
    if (e < 6) snprintf(out, n, "%" PRId64, c);
    else {
        int64_t p = 1;
        for (unsigned i = 0; i < e - 2 && i < 17; i++) p *= 10;
        snprintf(out, n, "%s%" PRId64, r & 64 ? "-" : "", p + c);
    }
}

static void plain_numbers_and_keys_read_like_general_ones(void **state) {
    (void)state;
    for (unsigned seed = 1; seed <= 40; seed++) {
        char *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);
        unsigned x = seed * 2654435761u;
        int64_t counter = 1, index = seed % 5 ? 0 : 99999990;
        for (int i = 0; i < 400; i++) {
            x = x * 1103515245u + 12345u;
            unsigned r = x >> 8;
            char head[200], body[1200] = "", num[48];
            size_t bl = 0;
            const char *type = r % 17 == 0 ? ":fail" : r % 19 == 0 ? ":info" : ":ok";
            const char *proc = (r >> 3) % 9 == 0 ? "12345678901" : (r >> 3) % 9 == 1 ? "-4" : (r >> 3) % 9 == 2 ? "00" : NULL;
            index += (r >> 5) % 7 == 0 ? 1000 : 1;
            if (proc) snprintf(head, sizeof head, "{:type %s, :f :txn, :process %s, :index %" PRId64 ", :value [", type, proc, index);
            else snprintf(head, sizeof head, "{:type %s, :f :txn, :process %u, :index %" PRId64 ", :value [", type, r % 6, index);
            int nops = 1 + (int)(r % 8);
            for (int k = 0; k < nops; k++) {
                x = x * 1103515245u + 12345u;
                unsigned q = x >> 8;
                const char *key = plain_keys[q % (sizeof plain_keys / sizeof *plain_keys)];
                const char *lkey = plain_list_keys[(q >> 5) % 4];
                if (seed % 4 == 0 && q % 1000 == 0) lkey = key;   /* a register key appended to: an error */
                if (seed % 4 == 0 && q % 1000 == 1) key = lkey;   /* a list key written to: an error */
                const char *sep = k ? " " : "";
                put_number(num, sizeof num, q >> 9, counter++);
                switch ((q >> 12) % 6) {
                case 0: case 1: bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s[:w %s %s]", sep, key, num); break;
                case 2: bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s[:r %s nil]", sep, key); break;
                case 3: bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s[:r %s %s]", sep, key, num); break;
                case 4: bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s[:append %s %s]", sep, lkey, num); break;
                default: bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s[:r %s nil]", sep, lkey); break;
                }
            }
            char tail[80] = "}";
            if (seed % 3 == 0) {                              /* :time (any number), invocations before some */
                put_number(num, sizeof num, (r >> 11) & ~(seed % 9 ? 64u : 0u), 40 * i);   /* (negative: an error) */
                snprintf(tail, sizeof tail, ", :time %s}", (r >> 4) % 13 ? num : "0012345678901");
                if ((r >> 6) % 4 == 0) {
                    if (proc) snprintf(num, sizeof num, "%s", proc);
                    else snprintf(num, sizeof num, "%u", r % 6);
                    for (int twice = 0; twice < 2; twice++)   /* (no :index: the stamps are :time) */
                        fprintf(twice ? fb : fa, "{:type :invoke, :f :txn, :process %s, :time %d, :value [[:r 1 nil]]}\n",
                                num, 40 * i - 20);
                }
            }
            fprintf(fa, "%s%s]%s\n", head, body, tail);
            fprintf(fb, "%s%s], :node 1%s\n", head, body, tail);
        }
        fclose(fa);
        fclose(fb);
        ic_error ea, eb;
        load_report ra, rb;
        load_report_init(&ra);
        load_report_init(&rb);
        ic_error_clear(&ea);
        ic_error_clear(&eb);
        history *ha = load_history_mem_ex(a, na, FORMAT_ELLE, "t", NULL, &ra, &ea);
        history *hb = load_history_mem_ex(b, nb, FORMAT_ELLE, "t", NULL, &rb, &eb);
        assert_int_equal(ha != NULL, hb != NULL);
        if (ha) {
            char *ma = model_text(ha), *mb = model_text(hb);
            assert_string_equal(ma, mb);
            for (uint32_t t = 1; t < ha->num_txns; t++)
                for (int k = 0; k < TIME_KINDS; k++)
                    assert_true(history_time(ha, (history_time_kind)k, t) == history_time(hb, (history_time_kind)k, t));
            assert_int_equal(ra.micro_ops, rb.micro_ops);
            assert_int_equal(ra.unknown_reads, rb.unknown_reads);
            assert_int_equal(ra.named_values, rb.named_values);
            free(ma); free(mb);
        } else {
            assert_string_equal(ea.msg, eb.msg);
            assert_int_equal(ea.line, eb.line);
        }
        history_free(ha);
        history_free(hb);
        load_report_free(&ra);
        load_report_free(&rb);
        free(a); free(b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_list_append),
        cmocka_unit_test(loads_registers),
        cmocka_unit_test(shapes_read_like_the_canonical_form),
        cmocka_unit_test(read_and_write_ops_with_micro_ops_are_transactions),
        cmocka_unit_test(plain_maps_read_like_general_ones),
        cmocka_unit_test(unusable_ops_are_named),
        cmocka_unit_test(string_and_big_keys_and_values),
        cmocka_unit_test(indeterminate_and_failed_completions),
        cmocka_unit_test(no_process_no_session_order),
        cmocka_unit_test(no_committed_transaction_is_noted),
        cmocka_unit_test(repeated_keys_are_errors),
        cmocka_unit_test(many_container_keys_cost_one_comparison_each),
        cmocka_unit_test(nul_bytes_are_errors),
        cmocka_unit_test(every_error),
        cmocka_unit_test(plain_shaped_lines),
        cmocka_unit_test(plain_numbers_and_keys_read_like_general_ones),
    };
    return cmocka_run_group_tests_name("parse_elle", tests, NULL, NULL);
}
