/* test_history.c — the history model and its builder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/history/history.h"
#include "frontend/history/u64map.h"
#include "frontend/reports/history_stats.h"
#include "frontend/formats/parse.h"
#include "builder_ops.h"

/* Two sessions whose transactions arrive interleaved, ops of one txn split. */
static void builder_regroups_by_session(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "h.txt");
    uint32_t s1 = hb_session(b, 10, NULL), s2 = hb_session(b, 20, NULL);
    assert_int_equal(hb_session(b, 10, NULL), s1);
    uint32_t x = hb_key(b, 100), y = hb_key(b, -5);
    assert_int_equal(hb_key(b, 100), x);
    uint32_t t1 = hb_txn(b, s2, 7, 1);
    uint32_t t2 = hb_txn(b, s1, 8, 2);
    hb_op(b, t1, OP_WRITE, x, 1, 1);
    hb_op(b, t2, OP_READ, x, 1, 2);
    hb_op(b, t1, OP_WRITE, y, 2, 3);
    uint32_t t3 = hb_txn(b, s2, 9, 4);
    hb_op(b, t3, OP_READ, y, VALUE_INIT, 4);
    hb_txn_status(b, t3, TXN_ABORTED);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    assert_false(err.set);
    assert_int_equal(h->num_txns, 4);
    assert_int_equal(h->num_sessions, 2);
    assert_int_equal(h->num_keys, 2);
    assert_int_equal(h->num_ops, 2 + 4);
    /* INIT */
    assert_int_equal(h->txns[0].num_ops, 2);
    assert_int_equal(history_op_value(h, 0), VALUE_INIT);
    assert_int_equal(h->txns[0].session, HISTORY_NONE);
    /* session 10 first: txn 1 = ext 8 */
    assert_int_equal(h->txns[1].ext_id, 8);
    assert_int_equal(h->txns[2].ext_id, 7);
    assert_int_equal(h->txns[3].ext_id, 9);
    assert_int_equal(h->txns[3].status, TXN_ABORTED);
    assert_int_equal(h->txns[3].pos, 1);
    assert_int_equal(h->sessions[1].first_txn, 2);
    assert_int_equal(h->sessions[1].num_txns, 2);
    /* ops of txn 2 contiguous in program order */
    uint32_t f = h->txns[2].first_op;
    assert_int_equal(h->txns[2].num_ops, 2);
    assert_int_equal(history_op_value(h, f), 1);
    assert_int_equal(history_op_value(h, f + 1), 2);
    assert_int_equal(history_op_line(h, f + 1), 3);
    assert_int_equal(history_op_txn(h, f + 1), 2);
    /* writer lookup */
    assert_int_equal(history_writer_of(h, x, 1), f);
    assert_int_equal(history_writer_of(h, y, VALUE_INIT), y);
    assert_int_equal(history_writer_of(h, y, 99), HISTORY_NONE);
    assert_int_equal(history_read_source(h, h->txns[1].first_op), f);
    assert_int_equal(h->key_write_start[x + 1] - h->key_write_start[x], 2);
    char buf[64];
    assert_string_equal(history_op_where(h, f + 1, buf, sizeof buf), "h.txt:3");
    history_free(h);
}

/* Op lines: no array when every op is at its transaction's line + its
 * index (step 1) or at its transaction's line (step 0); the array when an
 * op breaks both (a transaction's lines apart).  Every layout answers
 * every op's line as given. */
static void op_lines_kept_compact_when_they_follow_a_layout(void **state) {
    (void)state;
    /* lines[t][i]: op i of transaction t; layout: 1, 0, or -1 for the array */
    static const struct { uint32_t lines[2][3]; int layout; } cases[] = {
        { { { 4, 5, 6 }, { 7, 8, 9 } }, 1 },
        { { { 4, 4, 4 }, { 9, 9, 9 } }, 0 },
        { { { 4, 5, 7 }, { 8, 9, 10 } }, -1 },       /* a line between ops: a comment */
        { { { 4, 4, 4 }, { 9, 10, 11 } }, -1 },      /* one of each */
        { { { UINT32_MAX - 1, UINT32_MAX, UINT32_MAX }, { 1, 2, 3 } }, -1 },   /* saturated */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "l.txt");
        uint32_t s = hb_session(b, 1, NULL), k = hb_key(b, 1);
        int64_t v = 1;
        for (uint32_t t = 0; t < 2; t++) {
            uint32_t bt = hb_txn(b, s, t + 1, cases[c].lines[t][0]);
            for (uint32_t i = 0; i < 3; i++) hb_op(b, bt, OP_WRITE, k, v++, cases[c].lines[t][i]);
        }
        ic_error err; ic_error_clear(&err);
        history *h = hb_finish(b, &err);
        assert_non_null(h);
        if (cases[c].layout < 0) assert_non_null(h->op_line);
        else {
            assert_null(h->op_line);
            assert_int_equal(h->op_line_step, (uint32_t)cases[c].layout);
        }
        assert_int_equal(history_op_line(h, 0), 0);         /* INIT's op */
        for (uint32_t t = 0; t < 2; t++)
            for (uint32_t i = 0; i < 3; i++)
                assert_int_equal(history_op_line(h, h->txns[t + 1].first_op + i), cases[c].lines[t][i]);
        history_free(h);
    }
}

/* The builder keeps an op's transaction and line only when they do not
 * follow from the transactions (hb_internal.h): ops arriving transaction
 * by transaction (runs), a transaction resumed after another's (mixed),
 * lines at step 1, step 0 or apart, in every combination and at every
 * point of switching.  hb_op_get gives back each op as added, a clone the
 * same, and the history holds each transaction's ops in order with their
 * lines, whether built from the builder or its clone. */
static uint64_t lay_rng = 0x9e3779b97f4a7c15ULL;
static uint32_t lay_rnd(uint32_t n) { lay_rng ^= lay_rng << 13; lay_rng ^= lay_rng >> 7; lay_rng ^= lay_rng << 17; return (uint32_t)(lay_rng % n); }

static void check_built(history *h, const added_op *ops, uint32_t nops, uint32_t ntx) {
    assert_non_null(h);
    for (uint32_t bt = 0; bt < ntx; bt++) {        /* one session: builder txn bt is txn bt + 1 */
        uint32_t at = h->txns[bt + 1].first_op, n = 0;
        for (uint32_t i = 0; i < nops; i++) {
            if (ops[i].txn != bt) continue;
            uint32_t op = at + n++;
            assert_int_equal(history_op_txn(h, op), bt + 1);
            assert_int_equal(history_op_kind(h, op), ops[i].kind);
            assert_int_equal(h->op_key[op], ops[i].key);
            assert_int_equal(history_op_value(h, op), ops[i].value);
            assert_int_equal(history_op_line(h, op), ops[i].line);
        }
        assert_int_equal(h->txns[bt + 1].num_ops, n);
    }
}

static void builder_runs_and_lines_in_every_layout(void **state) {
    (void)state;
    enum { NTX = 40, MAXOPS = 4 };
    added_op ops[NTX * MAXOPS + NTX];
    for (int c = 0; c < 60; c++) {
        int lines = c % 3, mix_at = c / 3 % 4 == 0 ? -1 : (int)lay_rnd(NTX);     /* 0 step 1, 1 step 0, 2 apart */
        history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "r.txt");
        uint32_t s = hb_session(b, 1, NULL), nops = 0, line = 1;
        for (uint32_t k = 0; k < 9; k++) hb_key(b, k);
        for (uint32_t t = 0; t < NTX; t++) {
            uint32_t n = 1 + lay_rnd(MAXOPS), bt = hb_txn(b, s, t + 1, line);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t l = lines == 0 ? line + i : lines == 1 ? line : line + i + (i == 2 && t == (uint32_t)c % NTX);
                added_op o = { bt, lay_rnd(9), l, (int64_t)nops + 1, lay_rnd(2) ? OP_WRITE : OP_READ };
                if (o.kind == OP_READ) o.value = VALUE_INIT;
                hb_op(b, o.txn, o.kind, o.key, o.value, o.line);
                ops[nops++] = o;
            }
            line += n + 1;
            if ((int)t == mix_at && t > 0) {                /* an earlier transaction resumed */
                uint32_t back = lay_rnd(t);
                added_op o = { back, lay_rnd(9), 1000 + t, (int64_t)nops + 1, OP_WRITE };
                hb_op(b, o.txn, o.kind, o.key, o.value, o.line);
                ops[nops++] = o;
            }
        }
        assert_builder_ops(b, ops, nops);
        ic_error err; ic_error_clear(&err);
        history *hc = hb_finish(hb_clone(b, NULL), &err);
        check_built(hc, ops, nops, NTX);
        history *h = hb_finish(b, &err);
        check_built(h, ops, nops, NTX);
        if (lines == 0 && mix_at < 0) { assert_null(h->op_line); assert_int_equal(h->op_line_step, 1); }
        history_free(hc);
        history_free(h);
    }
}

/* A write is overwritten when a later successful write of its transaction
 * has its key: short transactions (looked at among their own ops) and
 * long ones (more than 16 ops: through the key's write list) alike, with
 * failed writes, which overwrite nothing, mixed in.  The oracle is the
 * definition, over the ops as added. */
static void overwritten_in_short_and_long_transactions(void **state) {
    (void)state;
    enum { NTX = 30 };
    static const uint32_t sizes[] = { 1, 2, 5, 16, 17, 40 };
    for (int c = 0; c < 20; c++) {
        history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "o.txt");
        uint32_t s = hb_session(b, 1, NULL), line = 1;
        for (uint32_t k = 0; k < 5; k++) hb_key(b, k);
        uint32_t nops[NTX], key[NTX][40];
        unsigned kind[NTX][40];
        int64_t v = 1;
        for (uint32_t t = 0; t < NTX; t++) {
            nops[t] = sizes[lay_rnd(6)];
            uint32_t bt = hb_txn(b, s, t + 1, line);
            for (uint32_t i = 0; i < nops[t]; i++) {
                key[t][i] = lay_rnd(c % 2 ? 2 : 5);
                uint32_t r = lay_rnd(8);
                kind[t][i] = r < 2 ? OP_READ : r == 2 ? (OP_WRITE | OP_FAILED) : OP_WRITE;
                hb_op(b, bt, kind[t][i], key[t][i], kind[t][i] == OP_READ ? VALUE_INIT : v++, line++);
            }
        }
        ic_error err; ic_error_clear(&err);
        history *h = hb_finish(b, &err);
        assert_non_null(h);
        for (uint32_t t = 0; t < NTX; t++)
            for (uint32_t i = 0; i < nops[t]; i++) {
                int want = 0;
                if (kind[t][i] == OP_WRITE)
                    for (uint32_t j = i + 1; j < nops[t]; j++) want |= kind[t][j] == OP_WRITE && key[t][j] == key[t][i];
                assert_int_equal(history_op_overwritten(h, h->txns[t + 1].first_op + i), want);
            }
        history_free(h);
    }
}

/* The writer table at sizes that are not powers of two (twice the
 * writes): every write found, absent values not, probes wrapping past
 * the last slot included. */
static void writer_table_finds_every_write(void **state) {
    (void)state;
    for (uint32_t n = 1; n < 400; n += 37) {
        history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "w.txt");
        uint32_t s = hb_session(b, 1, NULL);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = hb_txn(b, s, i + 1, i + 1);
            hb_op(b, t, OP_WRITE, hb_key(b, i % 7), (int64_t)i * 1000003 + 1, i + 1);
        }
        ic_error err; ic_error_clear(&err);
        history *h = hb_finish(b, &err);
        assert_non_null(h);
        uint32_t nkeys = h->num_keys;
        assert_true(h->writer_cap >= 2 * (uint64_t)(n + nkeys));
        for (uint32_t i = 0; i < n; i++) {
            uint32_t op = h->txns[i + 1].first_op;
            assert_int_equal(history_writer_of(h, h->op_key[op], (int64_t)i * 1000003 + 1), op);
            assert_int_equal(history_writer_of(h, h->op_key[op], (int64_t)i * 1000003 + 2), HISTORY_NONE);
        }
        for (uint32_t k = 0; k < nkeys; k++) assert_int_equal(history_writer_of(h, k, VALUE_INIT), k);
        history_free(h);
    }
}

/* The writer table is one region per key (history.h): every op in key k's
 * region is a write of k, a repeated value's lookup gives its first write
 * (lowest op) and every copy is flagged, and the table, flags included, is
 * the same whether filled on one thread or on several (key ranges). */
static history *regions_history(unsigned threads, uint32_t n) {
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "r.txt");
    uint32_t s = hb_session(b, 1, NULL);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = hb_txn(b, s, i + 1, i + 1);
        uint32_t k = hb_key(b, (int64_t)(i * 7919u % 61u));      /* keys of very different write counts */
        hb_op(b, t, OP_WRITE, k, (int64_t)(i % 5 == 0 ? 42 : i + 100), i + 1);   /* 42 repeats on many keys */
        hb_op(b, t, OP_READ, k, 42, i + 1);
    }
    hb_set_threads(b, threads);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

static void writer_table_regions(void **state) {
    (void)state;
    for (uint32_t n = 1; n < 3000; n = n * 3 + 1) {
        history *one = regions_history(1, n);
        for (uint32_t k = 0; k < one->num_keys; k++) {
            uint32_t lo = one->key_write_start[k], hi = one->key_write_start[k + 1];
            for (uint64_t i = 2 * (uint64_t)lo; i < 2 * (uint64_t)hi; i++)
                if (one->writer_slots[i] != HISTORY_NONE) assert_int_equal(one->op_key[one->writer_slots[i]], k);
            uint32_t first42 = HISTORY_NONE, count42 = 0;
            for (uint32_t j = lo; j < hi; j++) {
                uint32_t op = one->key_writes[j];
                if (history_op_value(one, op) != 42) {
                    assert_int_equal(history_writer_of(one, k, history_op_value(one, op)), op);
                    continue;
                }
                if (first42 == HISTORY_NONE) first42 = op;
                count42++;
            }
            assert_int_equal(history_writer_of(one, k, 42), first42);
            for (uint32_t j = lo; j < hi && count42 > 1; j++)
                if (history_op_value(one, one->key_writes[j]) == 42) assert_true(one->op_kind[one->key_writes[j]] & OP_REPEATED);
            assert_int_equal(history_writer_of(one, k, 43), HISTORY_NONE);
        }
        for (unsigned threads = 2; threads <= 5; threads += 3) {
            history *many = regions_history(threads, n);
            assert_true(one->writer_cap == many->writer_cap);
            assert_memory_equal(one->writer_slots, many->writer_slots, (one->writer_cap + 1) * sizeof *one->writer_slots);
            assert_memory_equal(one->op_kind, many->op_kind, one->num_ops);
            history_free(many);
        }
        history_free(one);
    }
}

/* A value written twice loads, flagged (issue 35); the follow path refuses it. */
static void duplicate_value_is_an_error(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "d.txt");
    uint32_t s = hb_session(b, 1, NULL), k = hb_key(b, 3);
    uint32_t t = hb_txn(b, s, 1, 1);
    hb_op(b, t, OP_WRITE, k, 5, 1);
    t = hb_txn(b, s, 2, 2);
    hb_op(b, t, OP_WRITE, k, 5, 2);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    assert_int_equal(h->num_repeated, 2);
    assert_true(h->op_kind[h->txns[1].first_op] & OP_REPEATED);
    assert_int_equal(history_op_txn(h, history_writer_of(h, 0, 5)), 1);
    assert_null(history_refuse_repeated(h, &err));
    assert_true(err.set);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "value 5 written twice to key 3 (first at d.txt:1); values written to a key must be unique");
}

static void empty_history_is_an_error(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "e.txt");
    ic_error err; ic_error_clear(&err);
    assert_null(hb_finish(b, &err));
    assert_string_equal(err.msg, "empty history: no operations found");
}

static void string_keys_and_lists(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_ELLE, LOC_LINE, "e.edn");
    uint32_t s = hb_session(b, 0, NULL);
    uint32_t ka = hb_key_str(b, "a", 1), kb = hb_key_str(b, "bb", 2);
    for (int i = 0; i < 200; i++) { char n[16]; int len = snprintf(n, sizeof n, "k%d", i); hb_key_str(b, n, (size_t)len); }
    assert_int_equal(hb_key_str(b, "a", 1), ka);
    assert_int_equal(hb_key_str(b, "bb", 2), kb);
    uint32_t t = hb_txn(b, s, 0, 1);
    hb_op(b, t, OP_APPEND, ka, 1, 1);
    hb_op(b, t, OP_APPEND, ka, 2, 1);
    int64_t l[] = { 1, 2 };
    hb_list_read(b, t, ka, l, 2, 1);
    hb_list_read(b, t, kb, NULL, 0, 1);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    assert_true(h->has_lists);
    uint32_t f = h->txns[1].first_op, n;
    const int64_t *got = history_list(h, f + 2, &n);
    assert_int_equal(n, 2);
    assert_int_equal(got[1], 2);
    assert_int_equal(history_read_source(h, f + 2), f + 1);
    assert_int_equal(history_read_source(h, f + 3), kb);    /* INIT's op for kb */
    char buf[16];
    assert_string_equal(history_key_str(h, kb, buf, sizeof buf), "bb");
    history_free(h);
}

/* A list read after the transaction's own appends shows its snapshot: its
 * external prefix is a read of the version of the prefix's last element. */
static void list_read_after_own_append_is_external(void **state) {
    (void)state;
    const char *text =
        "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
        "{:type :ok, :f :txn, :process 1, :index 2, :value [[:append 1 2] [:append 1 3] [:r 1 [1 2 3]] [:r 1 [1 2 3]]]}\n"
        "{:type :ok, :f :txn, :process 2, :index 3, :value [[:append 1 4] [:r 1 [4]] [:w 2 5] [:r 2 5]]}\n";
    ic_error err; ic_error_clear(&err);
    history *h = load_history_mem(text, strlen(text), FORMAT_ELLE, "t", &err);
    assert_non_null(h);
    uint32_t k1 = h->op_key[h->txns[1].first_op], f1 = h->txns[1].first_op, f2 = h->txns[2].first_op, f3 = h->txns[3].first_op;
    /* txn 2: its first read (after two appends) is the external one */
    assert_int_equal(history_txn_external_read(h, 2, k1), f2 + 2);
    assert_int_equal(history_read_source(h, f2 + 2), f2 + 1);           /* the last element: its own */
    assert_int_equal(history_external_source(h, f2 + 2), f1);           /* the prefix [1]: txn 1's */
    assert_int_equal(history_snapshot_source(h, f2 + 2, 2), f1);
    assert_int_equal(history_snapshot_source(h, f2 + 2, 3), k1);        /* empty prefix: INIT's op */
    assert_int_equal(history_snapshot_source(h, f2 + 2, 4), HISTORY_NONE);
    /* txn 3: [4] after appending 4: the empty prefix, INIT's version */
    assert_int_equal(history_external_source(h, f3 + 1), k1);
    /* a register read after an own write shows no snapshot */
    assert_int_equal(history_txn_external_read(h, 3, h->op_key[f3 + 2]), HISTORY_NONE);
    history_free(h);
}

/* Participants: committed transactions and, to a fixpoint, indeterminate
 * ones whose writes a participant read — any element of a list. */
static void participants_to_a_fixpoint(void **state) {
    (void)state;
    const char *text =
        "{:type :info, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
        "{:type :info, :f :txn, :process 1, :index 2, :value [[:append 1 2]]}\n"
        "{:type :ok, :f :txn, :process 2, :index 3, :value [[:r 1 [1 2]]]}\n"
        "{:type :info, :f :txn, :process 3, :index 4, :value [[:append 1 3]]}\n"
        "{:type :fail, :f :txn, :process 4, :index 5, :value [[:append 1 9]]}\n";
    ic_error err; ic_error_clear(&err);
    history *h = load_history_mem(text, strlen(text), FORMAT_ELLE, "t", &err);
    assert_non_null(h);
    uint8_t *p = history_participants(h);
    /* txns are numbered by session: ext 1..5 are 1..5 */
    assert_true(p[0] && p[1] && p[2] && p[3]);    /* 1 is in the middle of [1 2]: observed too */
    assert_false(p[4]);                           /* never read */
    assert_false(p[5]);                           /* aborted */
    free(p);
    history_free(h);
    /* an observed indeterminate transaction's own reads count: built
     * directly, since the Elle reader drops :info reads */
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "b");
    uint32_t x = hb_key(b, 1), y = hb_key(b, 2);
    uint32_t t1 = hb_txn(b, hb_session(b, 1, NULL), 1, 1);
    hb_op(b, t1, OP_WRITE, y, 7, 1);
    hb_txn_status(b, t1, TXN_INDETERMINATE);
    uint32_t t2 = hb_txn(b, hb_session(b, 2, NULL), 2, 2);
    hb_op(b, t2, OP_READ, y, 7, 2);
    hb_op(b, t2, OP_WRITE, x, 8, 2);
    hb_txn_status(b, t2, TXN_INDETERMINATE);
    uint32_t t3 = hb_txn(b, hb_session(b, 3, NULL), 3, 3);
    hb_op(b, t3, OP_READ, x, 8, 3);
    h = hb_finish(b, &err);
    assert_non_null(h);
    p = history_participants(h);
    assert_true(p[1] && p[2] && p[3]);            /* 3 reads 2, and 2 (now committed) reads 1 */
    free(p);
    history_free(h);
}

static void register_and_list_on_one_key_rejected(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "mix");
    uint32_t k = hb_key(b, 3);
    uint32_t t = hb_txn(b, hb_session(b, 1, NULL), 1, 4);
    hb_op(b, t, OP_APPEND, k, 1, 4);
    hb_op(b, t, OP_WRITE, k, 2, 5);
    ic_error err; ic_error_clear(&err);
    assert_null(hb_finish(b, &err));
    assert_string_equal(err.msg, "key 3 is used both as a register (read/write) and as a list (append/list read)");
    assert_int_equal(err.line, 5);
}

static void stats_count_shape(void **state) {
    (void)state;
    const char *text = "w(1,1,1,1)\nw(1,2,1,1)\nr(2,0,1,1)\nw(1,3,2,2)\nr(1,3,2,2)\nr(1,2,1,3)\n";
    ic_error err; ic_error_clear(&err);
    history *h = load_history_mem(text, strlen(text), FORMAT_AUTO, "s", &err);
    assert_non_null(h);
    history_stats s;
    history_stats_compute(h, &s);
    assert_int_equal(s.sessions, 2);
    assert_int_equal(s.txns, 3);
    assert_int_equal(s.committed, 3);
    assert_int_equal(s.ops, 6);
    assert_int_equal(s.reads, 3);
    assert_int_equal(s.writes, 3);
    assert_int_equal(s.init_reads, 1);
    assert_int_equal(s.keys, 2);
    assert_int_equal(s.max_txn_ops, 3);
    assert_int_equal(s.max_key_writers, 2);      /* txns 1 and 2 write key 1 (txn 1 twice) */
    assert_true(s.read_fraction > 0.49 && s.read_fraction < 0.51);
    assert_true(history_op_overwritten(h, h->txns[1].first_op));
    assert_false(history_op_overwritten(h, h->txns[1].first_op + 1));
    char *buf = NULL; size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    history_stats_print(out, h, &s, 1, NULL);
    fclose(out);
    assert_non_null(strstr(buf, "\"format\": \"text\", \"sessions\": 2, \"txns\": 3,"));
    assert_non_null(strstr(buf, "\"read_fraction\": 0.5000, \"times\": []}"));     /* no times: none listed */
    free(buf);
    history_free(h);
}

/* The id map against a plain list: small keys in any order (the dense
 * part, growing and taking over hashed keys), sparse and negative keys
 * (the table), repeated puts keep the first value. */
static void u64map_matches_reference(void **state) {
    (void)state;
    enum { N = 6000 };
    static uint64_t key[N];
    uint64_t x = 99;
    for (int i = 0; i < N; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        switch (i % 4) {
        case 0: case 1: key[i] = x % 5000; break;                         /* dense, random order */
        case 2: key[i] = x | (1ull << 40); break;                         /* sparse */
        default: key[i] = (uint64_t)-(int64_t)(x % 1000 + 1); break;      /* negative ids */
        }
    }
    u64map m; u64map_init(&m);
    for (int i = 0; i < N; i++) {
        uint32_t first = UINT32_MAX;
        for (int j = 0; j < i; j++) if (key[j] == key[i]) { first = (uint32_t)j; break; }
        assert_int_equal(u64map_get(&m, key[i]), first);
        assert_int_equal(u64map_put(&m, key[i], (uint32_t)i), first == UINT32_MAX ? (uint32_t)i : first);
    }
    for (int i = 0; i < N; i++) {
        uint32_t first = UINT32_MAX;
        for (int j = 0; j < N; j++) if (key[j] == key[i]) { first = (uint32_t)j; break; }
        assert_int_equal(u64map_get(&m, key[i]), first);
    }
    assert_true(m.dense_cap >= 4096);       /* the small keys went dense */
    assert_int_equal(u64map_get(&m, 5001), UINT32_MAX);
    assert_int_equal(u64map_get(&m, 1ull << 41), UINT32_MAX);
    u64map_free(&m);
}

/* Times follow their transaction through the regrouping and through hb_clone;
 * a kind never set stays absent. */
static void times_follow_their_transaction(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "t.txt");
    uint32_t s1 = hb_session(b, 1, NULL), s2 = hb_session(b, 2, NULL);
    uint32_t x = hb_key(b, 1);
    uint32_t a = hb_txn(b, s2, 10, 1), c = hb_txn(b, s1, 11, 2), d = hb_txn(b, s2, 12, 3);
    hb_op(b, a, OP_WRITE, x, 1, 1); hb_op(b, c, OP_READ, x, 1, 2); hb_op(b, d, OP_WRITE, x, 2, 3);
    hb_txn_time(b, a, TIME_INVOKE, 100); hb_txn_time(b, a, TIME_COMPLETE, 150);
    hb_txn_time(b, c, TIME_INVOKE, 120);                 /* no completion */
    hb_txn_time(b, d, TIME_COMPLETE, 300);
    uint8_t keep[3] = { 0, 1, 1 };
    history_builder *cl = hb_clone(b, keep);             /* drops a */
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    /* session 1 (ext 1) is first: c is txn 1, then a, d of session 2 */
    assert_int_equal(h->txns[1].ext_id, 11);
    assert_int_equal(history_time(h, TIME_INVOKE, 1), 120);
    assert_true(history_time(h, TIME_COMPLETE, 1) == HISTORY_TIME_NONE);
    assert_int_equal(history_time(h, TIME_INVOKE, 2), 100);
    assert_int_equal(history_time(h, TIME_COMPLETE, 2), 150);
    assert_int_equal(history_time(h, TIME_COMPLETE, 3), 300);
    assert_true(history_time(h, TIME_INVOKE, 0) == HISTORY_TIME_NONE);
    assert_false(history_has_times(h, TIME_DB_COMMIT));
    history_free(h);
    history *hc = hb_finish(cl, &err);
    assert_non_null(hc);
    assert_int_equal(hc->num_txns, 3);
    assert_int_equal(hc->txns[1].ext_id, 11);
    assert_int_equal(history_time(hc, TIME_INVOKE, 1), 120);
    assert_int_equal(hc->txns[2].ext_id, 12);
    assert_int_equal(history_time(hc, TIME_COMPLETE, 2), 300);
    assert_true(history_time(hc, TIME_INVOKE, 2) == HISTORY_TIME_NONE);
    history_free(hc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(u64map_matches_reference),
        cmocka_unit_test(builder_regroups_by_session),
        cmocka_unit_test(op_lines_kept_compact_when_they_follow_a_layout),
        cmocka_unit_test(builder_runs_and_lines_in_every_layout),
        cmocka_unit_test(overwritten_in_short_and_long_transactions),
        cmocka_unit_test(writer_table_finds_every_write),
        cmocka_unit_test(writer_table_regions),
        cmocka_unit_test(duplicate_value_is_an_error),
        cmocka_unit_test(empty_history_is_an_error),
        cmocka_unit_test(string_keys_and_lists),
        cmocka_unit_test(list_read_after_own_append_is_external),
        cmocka_unit_test(participants_to_a_fixpoint),
        cmocka_unit_test(register_and_list_on_one_key_rejected),
        cmocka_unit_test(stats_count_shape),
        cmocka_unit_test(times_follow_their_transaction),
    };
    return cmocka_run_group_tests_name("history", tests, NULL, NULL);
}
