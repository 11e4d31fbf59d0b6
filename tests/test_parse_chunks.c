/* test_parse_chunks.c — the text reader on several threads (chunks lexed
 * at once, applied in order) gives the same history, load report and
 * error (file, line, message: the first in the file) as line by line, for
 * every thread count and chunk size, including chunks of one line and
 * inputs with errors in several chunks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"

static const unsigned thread_counts[] = { 2, 3, 4 };
static const size_t chunk_sizes[] = { 1, 5, 13, 64, 1000, 0 };

typedef struct loaded {
    history *h;
    ic_error err;
    load_report rep;
} loaded;

static void load_with(loaded *l, const char *text, size_t n, unsigned threads, size_t chunk_bytes) {
    load_options opt = { .threads = threads, .chunk_bytes = chunk_bytes };
    ic_error_clear(&l->err);
    load_report_init(&l->rep);
    l->h = load_history_mem_ex(text, n, FORMAT_TEXT, "t.txt", &opt, &l->rep, &l->err);
}

static void loaded_free(loaded *l) {
    if (l->h) history_free(l->h);
    load_report_free(&l->rep);
}

#define ARR_EQ(a, b, n) assert_memory_equal((a), (b), (size_t)(n) * sizeof *(a))

static void assert_same_history(const history *a, const history *b) {
    assert_int_equal(a->num_sessions, b->num_sessions);
    assert_int_equal(a->num_txns, b->num_txns);
    assert_int_equal(a->num_ops, b->num_ops);
    assert_int_equal(a->num_keys, b->num_keys);
    for (uint32_t s = 0; s < a->num_sessions; s++) {
        assert_int_equal(a->sessions[s].first_txn, b->sessions[s].first_txn);
        assert_int_equal(a->sessions[s].num_txns, b->sessions[s].num_txns);
        assert_true(a->sessions[s].ext_id == b->sessions[s].ext_id);
    }
    for (uint32_t t = 0; t < a->num_txns; t++) {
        const history_txn *x = &a->txns[t], *y = &b->txns[t];
        assert_int_equal(x->first_op, y->first_op);
        assert_int_equal(x->num_ops, y->num_ops);
        assert_int_equal(x->session, y->session);
        assert_int_equal(x->pos, y->pos);
        assert_true(x->ext_id == y->ext_id);
        assert_int_equal(x->line, y->line);
        assert_int_equal(x->status, y->status);
    }
    ARR_EQ(a->op_kind, b->op_kind, a->num_ops);
    ARR_EQ(a->op_key, b->op_key, a->num_ops);
    for (uint32_t op = 0; op < a->num_ops; op++) {      /* values and transactions through their accessors */
        assert_true(history_op_value(a, op) == history_op_value(b, op));
        assert_int_equal(history_op_txn(a, op), history_op_txn(b, op));
    }
    assert_int_equal(a->op_line != NULL, b->op_line != NULL);
    assert_int_equal(a->op_line_step, b->op_line_step);
    for (uint32_t op = 0; op < a->num_ops; op++) assert_int_equal(history_op_line(a, op), history_op_line(b, op));
    ARR_EQ(a->key_ext, b->key_ext, a->num_keys);
    ARR_EQ(a->key_write_start, b->key_write_start, a->num_keys + 1);        /* the writers' index, filled */
    ARR_EQ(a->key_writes, b->key_writes, a->key_write_start[a->num_keys]);  /* on the loader's threads */
    assert_true(a->writer_cap == b->writer_cap);
    ARR_EQ(a->writer_slots, b->writer_slots, a->writer_cap + 1);
}

/* Every thread count and chunk size gives what one thread gives. */
static void assert_same_any_threads(const char *text, size_t n) {
    loaded one;
    load_with(&one, text, n, 1, 0);
    for (size_t i = 0; i < sizeof thread_counts / sizeof *thread_counts; i++)
        for (size_t j = 0; j < sizeof chunk_sizes / sizeof *chunk_sizes; j++) {
            if (n > 1000 && chunk_sizes[j] && chunk_sizes[j] < 13) continue;   /* thousands of blocks: slow, no news */
            loaded many;
            load_with(&many, text, n, thread_counts[i], chunk_sizes[j]);
            if (one.h) {
                if (!many.h) fail_msg("threads %u chunk %zu: %s:%ld: %s", thread_counts[i], chunk_sizes[j],
                                      many.err.file, many.err.line, many.err.msg);
                assert_same_history(one.h, many.h);
                assert_true(one.rep.records == many.rep.records);
                assert_true(one.rep.init_merged == many.rep.init_merged);
                assert_int_equal(one.rep.notes.len, many.rep.notes.len);
                for (size_t k = 0; k < one.rep.notes.len; k++)
                    assert_string_equal(one.rep.notes.data[k], many.rep.notes.data[k]);
            } else {
                assert_null(many.h);
                assert_true(many.err.set);
                assert_string_equal(one.err.file, many.err.file);
                assert_string_equal(one.err.msg, many.err.msg);
                if (one.err.line != many.err.line)
                    fail_msg("threads %u chunk %zu: line %ld, one thread says %ld (%s)", thread_counts[i],
                             chunk_sizes[j], many.err.line, one.err.line, one.err.msg);
            }
            loaded_free(&many);
        }
    loaded_free(&one);
}

static void assert_same_str(const char *text) { assert_same_any_threads(text, strlen(text)); }

/* A history of `txns` transactions over a few sessions, with blank lines,
 * comments, CRLF line ends and interleaved sessions; bad[i] (when not
 * NULL) replaces line bad_at[i]. */
static char *gen_text(unsigned txns, const char *const *bad, const unsigned *bad_at, size_t nbad, size_t *len) {
    vec_char out;
    vec_init(out);
    char line[128];
    unsigned lineno = 0;
    int64_t next_value = 1;
    for (unsigned t = 1; t <= txns; t++) {
        for (unsigned o = 0; o < 4; o++) {
            int n;
            if (o == 1 && t % 7 == 0) n = snprintf(line, sizeof line, "# comment %u\n", t);
            else if (o == 2 && t % 11 == 0) n = snprintf(line, sizeof line, "   \n");
            else if (o % 2) n = snprintf(line, sizeof line, "r(%u,0,%u,%u)%s\n", (t * 7 + o) % 13, t % 5, t,
                                         t % 3 ? "" : "\r");
            else n = snprintf(line, sizeof line, "w(%u,%lld,%u,%u)\n", (t * 3 + o) % 13, (long long)next_value++,
                              t % 5, t);
            lineno++;
            for (size_t b = 0; b < nbad; b++)
                if (bad_at[b] == lineno) n = snprintf(line, sizeof line, "%s\n", bad[b]);
            for (int c = 0; c < n; c++) vec_push(out, line[c]);
        }
    }
    *len = out.len;
    vec_push(out, 0);
    return out.data;
}

static void same_history_any_threads(void **state) {
    (void)state;
    assert_same_str("w(1,5,1,10)\nw(2,6,1,10)\n\n# a comment\nr(1,5,2,20)\nr(2,0,2,20)\nw(1,7,1,11)\r\nr(3,0,1,11)  \n");
    assert_same_str("w(1,1,1,1)\nw(1,2,1,2)\nw(2,3,1,1)");                 /* no newline at the end */
    assert_same_str("w(1,1,1,1)\r");                                       /* a lone CR at the end */
    assert_same_str("w(1,0,0,0)\nw(2,0,0,0)\nw(7,0,0,0)\nr(1,0,1,1)\nw(1,5,1,1)\nr(2,0,2,2)\nr(1,5,2,2)\n");
    size_t n;
    char *text = gen_text(300, NULL, NULL, 0, &n);
    assert_same_any_threads(text, n);
    free(text);
}

/* Each transaction's lines together (sessions interleaved a transaction
 * at a time), no blank lines: the op lines need no array (history.h); and
 * the same input with one transaction's lines apart, which needs it.  The
 * history placed on several threads (hb_finish) is the same either way. */
static void same_history_compact_lines(void **state) {
    (void)state;
    vec_char out;
    vec_init(out);
    char line[128];
    int64_t v = 1;
    for (unsigned t = 1; t <= 2000; t++)
        for (unsigned o = 0; o < 5; o++) {
            int n = o % 2 ? snprintf(line, sizeof line, "r(%u,0,%u,%u)\n", (t * 7 + o) % 29, t % 6, t)
                          : snprintf(line, sizeof line, "w(%u,%lld,%u,%u)\n", (t * 3 + o) % 29, (long long)v++, t % 6, t);
            for (int c = 0; c < n; c++) vec_push(out, line[c]);
        }
    for (int apart = 0; apart < 2; apart++) {
        if (apart) {                       /* transaction 1 goes on at the end */
            int n = snprintf(line, sizeof line, "r(1,0,1,1)\n");
            for (int c = 0; c < n; c++) vec_push(out, line[c]);
        }
        loaded one;
        load_with(&one, out.data, out.len, 1, 0);
        assert_non_null(one.h);
        if (apart) assert_non_null(one.h->op_line);
        else {
            assert_null(one.h->op_line);
            assert_int_equal(one.h->op_line_step, 1);
        }
        uint32_t first = HISTORY_NONE, last = HISTORY_NONE;   /* transactions 1 and 2000 of the file */
        for (uint32_t t = 1; t < one.h->num_txns; t++) {
            if (one.h->txns[t].ext_id == 1) first = t;
            if (one.h->txns[t].ext_id == 2000) last = t;
        }
        assert_true(first != HISTORY_NONE && last != HISTORY_NONE);
        assert_int_equal(history_op_line(one.h, one.h->txns[first].first_op + 1), 2);
        assert_int_equal(history_op_line(one.h, one.h->txns[last].first_op + 4), 10000);
        if (apart) assert_int_equal(history_op_line(one.h, one.h->txns[first].first_op + 5), 10001);
        loaded_free(&one);
        assert_same_any_threads(out.data, out.len);
    }
    vec_free(out);
}

static void same_error_any_threads(void **state) {
    (void)state;
    static const char *const bad[] = {
        "w(1,1,1,1)\nx(1,2,3,4)\n", "w(a,1,1,1)\n", "w(1;1,1,1)\n", "w(1,,1,1)\n", "w(1,1,1)\n", "w(1,1,1,1\n",
        "w(1,1,1,1) x\n", "w(1,99999999999999999999,1,1)\n", "w(1,1,1,1)\nw(1,2,2,1)\n", "w(1,1,1,1)\nw(1,1,1,2)\n",
        "# nothing\n\n", "w(1,0,0,0)\nr(2,0,0,0)\n", "w(1,0,0,0)\nw(2,3,0,0)\n", "w(1,0,0,0)\nw(2,0,1,1)\n",
        "w(2,3,1,1)\nw(1,0,2,2)\n", "w(1,1,1,1)\nr(1,-1,1,1)\n",
        /* errors on several lines: the first one is reported */
        "w(1,1,1,1)\nw(1,2,2,1)\nq\nw(9\n", "w(1,1,1,1)\nq\nw(1,2,2,1)\n", "w(2,3,1,1)\nw(1,0,2,2)\nw(x\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) assert_same_str(bad[i]);
    static const char nul[] = "w(1,1,1,1)\nw(1\0,2,1,1)\nq\n";
    assert_same_any_threads(nul, sizeof nul - 1);
    static const char nul_late[] = "w(1,1,1,1)\nq\nw(1\0,2,1,1)\n";
    assert_same_any_threads(nul_late, sizeof nul_late - 1);

    /* longer inputs, errors in several chunks: lexical after semantic,
     * semantic after lexical, several lexical ones */
    static const char *const lexical[] = { "r(1,2,3", "w(5,5,5,5) trailing", "zzz" };
    static const char *const mixed[] = { "w(1,1,4,1)", "r(2,x,1,9)", "w(3,0,1,400)" };   /* two sessions; x; 0 written */
    static const unsigned at1[] = { 900, 301, 1150 }, at2[] = { 60, 700, 1100 }, at3[] = { 1100, 700, 60 };
    size_t n;
    char *text = gen_text(300, lexical, at1, 3, &n);
    assert_same_any_threads(text, n);
    free(text);
    text = gen_text(300, mixed, at2, 3, &n);
    assert_same_any_threads(text, n);
    free(text);
    text = gen_text(300, mixed, at3, 3, &n);
    assert_same_any_threads(text, n);
    free(text);
}

/* The first error of a long input, checked against its known line: not
 * only "the same as one thread", but the right answer. */
static void first_error_line_is_right(void **state) {
    (void)state;
    static const char *const bad[] = { "w(7,7,7,7) x", "oops" };
    static const unsigned at[] = { 1001, 333 };
    size_t n;
    char *text = gen_text(300, bad, at, 2, &n);
    for (size_t i = 0; i < sizeof thread_counts / sizeof *thread_counts; i++) {
        loaded l;
        load_with(&l, text, n, thread_counts[i], 17);
        assert_null(l.h);
        assert_int_equal(l.err.line, 333);
        assert_string_equal(l.err.msg, "expected 'r(' or 'w(', found 'oops'");
        loaded_free(&l);
    }
    free(text);
}

/* key_writes and the overwritten flags, built in key parts on the
 * loader's threads (history_index_writers_into): transactions short and
 * long (the long ones, over 16 ops, find an overwritten write through
 * key_writes), each writing some keys twice, over many keys; every thread
 * count gives one thread's history, and that is the naive answer: a
 * key's writes in op order, a write overwritten iff a later write of its
 * transaction has its key. */
static void overwritten_writes_any_threads(void **state) {
    (void)state;
    vec_char out;
    vec_init(out);
    char line[128];
    int64_t v = 1;
    for (unsigned t = 1; t <= 600; t++) {
        unsigned nops = t % 3 ? 6 : 21;
        for (unsigned o = 0; o < nops; o++) {
            unsigned key = (t * 13 + o * 7 + (o % 4 == 3 ? 0 : o)) % 97;     /* every fourth op repeats a key */
            int n = o % 5 == 2 ? snprintf(line, sizeof line, "r(%u,0,%u,%u)\n", key, t % 4, t)
                               : snprintf(line, sizeof line, "w(%u,%lld,%u,%u)\n", key, (long long)v++, t % 4, t);
            for (int c = 0; c < n; c++) vec_push(out, line[c]);
        }
    }
    assert_same_any_threads(out.data, out.len);
    loaded l;
    load_with(&l, out.data, out.len, 3, 64);
    const history *h = l.h;
    assert_non_null(h);
    uint32_t over = 0, at = 0;
    for (uint32_t k = 0; k < h->num_keys; k++) {
        assert_int_equal(h->key_write_start[k], at);
        for (uint32_t op = 0; op < h->num_ops; op++)
            if (h->op_key[op] == k && history_op_is_write(h, op)) assert_int_equal(h->key_writes[at++], op);
    }
    assert_int_equal(h->key_write_start[h->num_keys], at);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *tx = &h->txns[t];
        for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
            if (!history_op_is_write(h, op)) continue;
            int later = 0;
            for (uint32_t o = op + 1; o < tx->first_op + tx->num_ops; o++)
                later |= h->op_key[o] == h->op_key[op] && history_op_is_write(h, o);
            assert_int_equal(later, history_op_overwritten(h, op));
            over += (uint32_t)later;
        }
    }
    assert_true(over > 100);             /* short and long transactions both overwrite */
    loaded_free(&l);
    vec_free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_history_any_threads),
        cmocka_unit_test(same_history_compact_lines),
        cmocka_unit_test(same_error_any_threads),
        cmocka_unit_test(first_error_line_is_right),
        cmocka_unit_test(overwritten_writes_any_threads),
    };
    return cmocka_run_group_tests_name("parse_chunks", tests, NULL, NULL);
}
