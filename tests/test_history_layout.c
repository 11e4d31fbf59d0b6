/* test_history_layout.c — the compact op arrays of history.h: an op's
 * transaction from a block's base and a byte an op (empty transactions,
 * transactions longer than a block, a block spanning more transactions
 * than a byte counts: the full array), values in 4 bytes with escapes, the
 * wide form, rewriting values (history_set_op_value, history_pack_values). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdlib.h>

#include "frontend/history/history.h"

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void) { rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17; return rng_state; }

/* A value: mostly small, with `wide_per_1000` drawn from the edges and
 * beyond 32 bits. */
static int64_t some_value(unsigned wide_per_1000) {
    static const int64_t edge[] = { INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN, (int64_t)INT32_MIN + 1,
                                    (int64_t)INT32_MIN - 1, INT64_MAX, VALUE_NAME_BASE, -((int64_t)1 << 40) };
    if (rnd() % 1000 < wide_per_1000) return edge[rnd() % 8];
    switch (rnd() % 4) {
    case 0: return VALUE_INIT;
    case 1: return (int64_t)INT32_MIN + 2 + (int64_t)(rnd() % 4);      /* the lowest narrow values */
    default: return (int64_t)(rnd() % 2000000) - 1000000;
    }
}

typedef struct ref { uint32_t txn; int64_t value; } ref;

/* One session, transactions of 0..max_ops reads each in order: op i of the
 * builder is op nkeys + i of the history, its transaction builder txn + 1. */
static history *build(uint32_t ntxn, uint32_t max_ops, unsigned wide_per_1000, ref **out, uint32_t *nref, uint32_t *nkeys) {
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "layout");
    uint32_t s = hb_session(b, 1, NULL);
    uint32_t keys = 50;
    for (uint32_t k = 0; k < keys; k++) hb_key(b, k);
    ref *r = malloc(((size_t)ntxn * (max_ops + 1) + (ntxn / 97 + 1) * ((size_t)max_ops * 3 + 300)) * sizeof *r);
    uint32_t n = 0;
    for (uint32_t t = 0; t < ntxn; t++) {
        uint32_t bt = hb_txn(b, s, t, t + 1);
        uint32_t m = (uint32_t)(rnd() % (max_ops + 1));
        if (t % 7 == 3) m = 0;                                  /* empty transactions, runs of them */
        if (t % 97 == 5) m = max_ops * 3 + 300;                 /* longer than a block */
        for (uint32_t i = 0; i < m; i++) {
            int64_t v = some_value(wide_per_1000);
            hb_op(b, bt, OP_READ, (uint32_t)(rnd() % keys), v, t + 1);
            r[n++] = (ref){ bt + 1, v };
        }
    }
    if (n == 0) { hb_op(b, 0, OP_READ, 0, 1, 1); r[n++] = (ref){ 1, 1 }; }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    *out = r; *nref = n; *nkeys = keys;
    return h;
}

static void check_all(const history *h, const ref *r, uint32_t n, uint32_t nkeys) {
    assert_int_equal(h->num_ops, nkeys + n);
    for (uint32_t k = 0; k < nkeys; k++) {
        assert_int_equal(history_op_txn(h, k), 0);
        assert_true(history_op_value(h, k) == VALUE_INIT);
    }
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(history_op_txn(h, nkeys + i), r[i].txn);
        assert_true(history_op_value(h, nkeys + i) == r[i].value);
    }
    for (uint32_t t = 0; t < h->num_txns; t++)       /* every op of every transaction maps back to it */
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
            assert_int_equal(history_op_txn(h, op), t);
}

static void narrow_values_with_escapes(void **state) {
    (void)state;
    ref *r; uint32_t n, nk;
    history *h = build(3000, 20, 5, &r, &n, &nk);
    assert_non_null(h->op_val32);
    assert_null(h->op_val64);
    assert_true(h->num_esc > 0);                     /* some values beyond 32 bits, escaped */
    assert_non_null(h->op_txn_delta);                /* no block spans 256 transactions */
    assert_null(h->op_txn_full);
    check_all(h, r, n, nk);
    history_free(h); free(r);
}

static void many_wide_values_stay_wide(void **state) {
    (void)state;
    ref *r; uint32_t n, nk;
    history *h = build(2000, 9, 300, &r, &n, &nk);
    assert_null(h->op_val32);
    assert_non_null(h->op_val64);
    check_all(h, r, n, nk);
    history_free(h); free(r);
}

static void short_transactions_and_empty_ones(void **state) {
    (void)state;
    for (uint32_t max = 0; max < 4; max++) {
        ref *r; uint32_t n, nk;
        history *h = build(500, max, 0, &r, &n, &nk);
        assert_int_equal(h->num_esc, 0);
        check_all(h, r, n, nk);
        history_free(h); free(r);
    }
}

/* Rewriting values: a fitting value keeps the narrow form, a wide one or
 * the rewrite of an escaped one widens, packing narrows again. */
static void rewriting_values(void **state) {
    (void)state;
    ref *r; uint32_t n, nk;
    history *h = build(1000, 10, 5, &r, &n, &nk);
    assert_non_null(h->op_val32);
    uint32_t op = nk + n / 2;
    history_set_op_value(h, op, 12345);
    r[n / 2].value = 12345;
    assert_non_null(h->op_val32);
    history_set_op_value(h, op + 1, VALUE_INIT);
    r[n / 2 + 1].value = VALUE_INIT;
    assert_non_null(h->op_val32);
    check_all(h, r, n, nk);
    history_set_op_value(h, op, (int64_t)1 << 50);
    r[n / 2].value = (int64_t)1 << 50;
    assert_non_null(h->op_val64);
    check_all(h, r, n, nk);
    history_pack_values(h);
    assert_non_null(h->op_val32);
    check_all(h, r, n, nk);
    uint8_t *esc = calloc(n, 1);                     /* every escaped value rewritten to a fitting one */
    for (uint32_t i = 0; i < n; i++) esc[i] = h->op_val32[nk + i] == HISTORY_V32_ESC;
    for (uint32_t i = 0; i < n; i++)
        if (esc[i]) { history_set_op_value(h, nk + i, -7); r[i].value = -7; }
    free(esc);
    assert_non_null(h->op_val64);                    /* rewriting an escaped value widens */
    check_all(h, r, n, nk);
    history_pack_values(h);
    assert_non_null(h->op_val32);
    assert_int_equal(h->num_esc, 0);
    check_all(h, r, n, nk);
    history_free(h); free(r);
}

/* 600 empty transactions between two ops: a block of 256 ops spans more
 * than 256 transactions, and every op's transaction is in op_txn_full. */
static void empty_runs_longer_than_a_byte(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "layout");
    uint32_t s = hb_session(b, 1, NULL), k = hb_key(b, 1);
    ref r[4];
    uint32_t n = 0;
    for (uint32_t t = 0; t < 602; t++) {
        uint32_t bt = hb_txn(b, s, t, t + 1);
        if (t == 0 || t == 601) {
            hb_op(b, bt, OP_READ, k, t, t + 1); r[n++] = (ref){ bt + 1, t };
            hb_op(b, bt, OP_READ, k, t + 1, t + 1); r[n++] = (ref){ bt + 1, t + 1 };
        }
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    assert_non_null(h->op_txn_full);
    assert_null(h->op_txn_delta);
    check_all(h, r, n, 1);
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(narrow_values_with_escapes),
        cmocka_unit_test(many_wide_values_stay_wide),
        cmocka_unit_test(short_transactions_and_empty_ones),
        cmocka_unit_test(rewriting_values),
        cmocka_unit_test(empty_runs_longer_than_a_byte),
    };
    return cmocka_run_group_tests_name("history_layout", tests, NULL, NULL);
}
