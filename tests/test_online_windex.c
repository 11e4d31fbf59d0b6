/* test_online_windex.c — the incremental checker's write index
 * (frontend/online/incr_windex.c): a key's own record (the write of its
 * greatest value, its writes sorted by value) and the global table a key
 * moves to when its values come out of order.
 *
 * Transactions of three sessions write keys whose values come in
 * different orders: increasing; a few places out of order (within the
 * record's reach); in random order (the key moves to the table); wide and
 * negative values; a transaction writing a key twice (the first write
 * overwritten).  Each transaction also reads values written before.  An
 * oracle of the test's own (every write's key, value, transaction and
 * whether it was overwritten, in plain arrays) then judges, after every
 * transaction: every value written is found as that very write (key,
 * transaction, low half, overwritten flag); values never written (between,
 * above and below the written ones) are not found; incr_latest_write finds
 * exactly the write of the key's greatest value; and a read linked as it
 * was stored is linked to its value's write.  At the end a value written
 * again is refused, wherever it lies in its key's list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/history/history.h"
#include "frontend/online/incr.h"
#include "frontend/online/incr_internal.h"

enum { KEYS = 6, TXNS = 400, MAXW = 4 * TXNS };

typedef struct owrite { uint32_t key; int64_t value; int64_t txn_ext; int over; } owrite;
static owrite ow[MAXW];
static uint32_t now;
static uint64_t rng;

static uint64_t next_rand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

/* The i-th value written to key k, in k's order of arrival. */
static int64_t value_of(uint32_t k, uint32_t i, const uint32_t *perm) {
    switch (k) {
    case 0: return 10 + 3 * (int64_t)i;                          /* increasing */
    case 1: return 10 + 3 * (int64_t)(i ^ 7);                    /* blocks of 8 reversed */
    case 2: return 10 + 3 * (int64_t)perm[i];                    /* random order: to the table */
    case 3: return ((int64_t)1 << 40) + 3 * (int64_t)(i ^ 3) - ((i & 1) ? ((int64_t)1 << 41) : 0);   /* wide, some negative */
    case 4: return i == 0 ? 77 : -1;                             /* a single write */
    default: return -1;                                          /* key 5: never written */
    }
}

static const owrite *oracle_find(uint32_t k, int64_t v) {
    for (uint32_t i = 0; i < now; i++) if (ow[i].key == k && ow[i].value == v) return &ow[i];
    return NULL;
}

/* Entry w of wops is the write o. */
static void same_write(const incr_check *ic, uint32_t w, const owrite *o) {
    assert_true(w < ic->wops.len);
    const iwop *x = &ic->wops.data[w];
    assert_int_equal(x->key, o->key);
    assert_int_equal(ic->txns.data[wop_txn(x)].ext, o->txn_ext);
    assert_int_equal(x->vlo, (uint32_t)(uint64_t)o->value);
    assert_int_equal(!!(x->txn & WOP_OVER), o->over);
}

/* Everything the index answers, against the oracle. */
static void index_matches(const incr_check *ic) {
    for (uint32_t k = 0; k < KEYS; k++) {
        const owrite *top = NULL;
        for (uint32_t i = 0; i < now; i++) if (ow[i].key == k && (!top || ow[i].value > top->value)) top = &ow[i];
        for (uint32_t i = 0; i < now; i++) {
            if (ow[i].key != k) continue;
            int64_t v = ow[i].value;
            same_write(ic, incr_writer_op(ic, k, v), &ow[i]);
            uint32_t l = incr_latest_write(ic, k, v);
            if (&ow[i] == top) same_write(ic, l, top);
            else assert_int_equal(l, NONE);
            for (int d = -2; d <= 2; d += 4)          /* neighbours (the values are 3 apart) */
                if (!oracle_find(k, v + d)) {
                    assert_int_equal(incr_writer_op(ic, k, v + d), NONE);
                    assert_int_equal(incr_latest_write(ic, k, v + d), NONE);
                }
        }
        if (top) {
            assert_int_equal(incr_writer_op(ic, k, top->value + 1), NONE);
            assert_int_equal(incr_writer_op(ic, k, INT64_MIN + 5), NONE);
        } else assert_int_equal(incr_writer_op(ic, k, 10), NONE);
    }
}

/* The reads of stable transaction id linked as they were stored are
 * linked to their values' writes. */
static void links_match(const incr_check *ic, uint32_t id) {
    const itxn *x = &ic->txns.data[id];
    const iop *o = incr_txn_ops(ic, x);
    for (uint32_t i = 0; i < x->num_ops; i++) {
        if (!op_is_read(o[i].kind) || o[i].link == NONE) continue;
        const owrite *w = oracle_find(o[i].key, o[i].value);
        assert_non_null(w);
        same_write(ic, o[i].link, w);
    }
}

static void index_against_oracle(void **state) {
    (void)state;
    for (int seed = 1; seed <= 3; seed++) {
        rng = 0x9e3779b97f4a7c15ULL * (uint64_t)seed;
        now = 0;
        uint32_t perm[TXNS], nw[KEYS] = { 0 };
        for (uint32_t i = 0; i < TXNS; i++) perm[i] = i;
        for (uint32_t i = TXNS - 1; i > 0; i--) {
            uint32_t j = (uint32_t)(next_rand() % (i + 1)), t = perm[i];
            perm[i] = perm[j]; perm[j] = t;
        }
        incr_check *ic = incr_new(1, 1);
        for (uint32_t k = 0; k < KEYS; k++) incr_add_key(ic, (int64_t)k);
        for (int64_t t = 1; t <= TXNS; t++) {
            incr_op ops[8];
            uint32_t n = 0;
            for (uint32_t r = 0; r < 2 && now; r++) {       /* reads of values written before */
                const owrite *w = &ow[now - 1 - (uint32_t)(next_rand() % (now < 6 ? now : 6))];
                incr_op o = { OP_READ, w->key, w->value, 0 };
                ops[n++] = o;
            }
            for (uint32_t k = 0; k < 4; k++) {
                if (next_rand() % 2) continue;
                if (k == 0 && t % 5 == 0) {               /* key 0 written twice: the first is overwritten */
                    int64_t v = value_of(0, nw[0]++, perm);
                    incr_op o = { OP_WRITE, 0, v, 0 };
                    ops[n++] = o;
                    owrite x = { 0, v, t, 1 };
                    ow[now++] = x;
                }
                int64_t v = value_of(k, nw[k]++, perm);
                incr_op o = { OP_WRITE, k, v, 0 };
                ops[n++] = o;
                owrite x = { k, v, t, 0 };
                ow[now++] = x;
            }
            if (t == 7) {
                incr_op o = { OP_WRITE, 4, value_of(4, 0, perm), 0 };
                ops[n++] = o;
                owrite x = { 4, o.value, t, 0 };
                ow[now++] = x;
            }
            incr_txn tx = { t, 1 + t % 3, TXN_COMMITTED, ops, n };
            assert_true(incr_add_txn(ic, &tx));
            links_match(ic, (uint32_t)ic->txns.len - 1);
            if (t % 37 == 0 || t == TXNS) index_matches(ic);
        }
        assert_true(incr_get_stats(ic)->keys_to_table >= 1);        /* key 2 moved */
        assert_true(ic->kw.data[2].n == KW_TABLE && ic->kw.data[0].n != KW_TABLE && ic->kw.data[1].n != KW_TABLE);
        incr_free(ic);
    }
}

/* A value written again is refused: the key's greatest, one deep in its
 * list, one in the table. */
static void value_written_twice_refused(void **state) {
    (void)state;
    const int64_t again[3][2] = { { 0, 10 + 3 * 299 }, { 0, 10 + 3 * 5 }, { 2, 10 } };
    for (int c = 0; c < 3; c++) {
        incr_check *ic = incr_new(1, 0);
        for (uint32_t k = 0; k < 3; k++) incr_add_key(ic, (int64_t)k);
        for (int64_t t = 1; t <= 300; t++) {
            incr_op ops[2] = { { OP_WRITE, 0, 10 + 3 * (t - 1), 0 },
                               { OP_WRITE, 2, 10 + 3 * ((t * 97) % 300), 0 } };
            incr_txn tx = { t, 1, TXN_COMMITTED, ops, 2 };
            assert_true(incr_add_txn(ic, &tx));
        }
        assert_int_equal(incr_written(ic, (uint32_t)again[c][0], again[c][1]), 1);
        assert_int_equal(incr_written(ic, (uint32_t)again[c][0], again[c][1] + 1), 0);
        incr_op dup = { OP_WRITE, (uint32_t)again[c][0], again[c][1], 0 };
        incr_txn tx = { 1000, 2, TXN_COMMITTED, &dup, 1 };
        assert_false(incr_add_txn(ic, &tx));
        assert_non_null(strstr(incr_why(ic), "written twice"));
        incr_free(ic);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(index_against_oracle),
        cmocka_unit_test(value_written_twice_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
