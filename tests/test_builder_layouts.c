/* test_builder_layouts.c — the history builder gives every op its
 * transaction and line whatever order ops and transactions arrive in
 * (review of stop 43: load43 keeps an op's transaction and line only when
 * they do not follow from the transactions, hb_internal.h).
 *
 * Adversarial layouts the builder's own test does not make: several
 * sessions whose transactions are created interleaved (the history
 * numbers them session by session, so builder and history order differ);
 * transactions created long before their first op (runs then come in
 * another order than the transactions), transactions with no op at all,
 * a transaction resumed after others (mixed) at a random point; lines at
 * step 1, step 0, apart, and near UINT32_MAX where a step-1 line would
 * wrap.  The model is the list of ops as added: hb_op_get gives each
 * back, and the history (from the builder, and from its clone) holds each
 * transaction's ops in order, with their transaction, key, value and
 * line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/history/history.h"
#include "builder_ops.h"

typedef struct mtxn { uint32_t sess, pos, line, nops, want; } mtxn;

static uint64_t rng = 0x243f6a8885a308d3ULL;
static uint32_t rnd(uint32_t n) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (uint32_t)(rng % n); }

enum { NS = 4, NT = 30, MAXOPS = 4, NK = 7 };

static void check_history(history *h, const added_op *ops, uint32_t nops, const mtxn *tx, uint32_t ntx) {
    assert_non_null(h);
    assert_int_equal(h->num_sessions, NS);
    for (uint32_t bt = 0; bt < ntx; bt++) {
        uint32_t hs = 0;                          /* a clone numbers sessions by first transaction: by ext id */
        while (hs < h->num_sessions && h->sessions[hs].ext_id != 10 + (int64_t)tx[bt].sess) hs++;
        assert_true(hs < h->num_sessions);
        uint32_t t = h->sessions[hs].first_txn + tx[bt].pos, at = h->txns[t].first_op, n = 0;
        assert_int_equal(h->txns[t].line, tx[bt].line);
        for (uint32_t i = 0; i < nops; i++) {
            if (ops[i].txn != bt) continue;
            uint32_t op = at + n++;
            assert_int_equal(history_op_txn(h, op), t);
            assert_int_equal(history_op_kind(h, op), ops[i].kind);
            assert_int_equal(h->op_key[op], ops[i].key);
            assert_int_equal(history_op_value(h, op), ops[i].value);
            assert_int_equal(history_op_line(h, op), ops[i].line);
        }
        assert_int_equal(h->txns[t].num_ops, n);
    }
    for (uint32_t op = 0; op < h->num_keys; op++) {     /* INIT's ops */
        assert_int_equal(history_op_txn(h, op), 0);
        assert_int_equal(history_op_line(h, op), 0);
    }
}

static void builder_ops_in_any_arrival_order(void **state) {
    (void)state;
    static added_op ops[NT * (MAXOPS + 1)];
    static mtxn tx[NT];
    int layouts[4] = { 0 };
    for (int c = 0; c < 400; c++) {
        int lines = c % 4;                      /* 0 step 1, 1 step 0, 2 apart (one op), 3 near UINT32_MAX */
        int late_first = c / 4 % 2;             /* transactions created ahead of their first op */
        int mix = c / 8 % 3 == 2;               /* one transaction resumed after others */
        history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "adv.txt");
        uint32_t sess[NS];
        for (uint32_t s = 0; s < NS; s++) sess[s] = hb_session(b, 10 + s, NULL);
        uint32_t keys[NK];
        for (uint32_t k = 0; k < NK; k++) keys[k] = hb_key(b, 100 + k);
        uint32_t npos[NS] = { 0 }, nops = 0, ntx = 0, line = lines == 3 ? UINT32_MAX - 40 * NT : 1;
        int64_t next_value = 1;
        uint32_t pending[NT], npend = 0;
        /* ops of transaction bt, n of them (lines as the layout says) */
#define ADD_OPS(bt, n) do { \
            for (uint32_t i_ = 0; i_ < (n); i_++) { \
                uint32_t k_ = rnd(NK); \
                unsigned kind_ = rnd(2) ? OP_WRITE : OP_READ; \
                uint32_t l_ = lines == 0 || lines == 3 ? tx[bt].line + tx[bt].nops \
                            : lines == 1 ? tx[bt].line \
                            : tx[bt].line + tx[bt].nops + (tx[bt].nops == 1 && bt == (uint32_t)c % NT); \
                added_op o_ = { bt, keys[k_], l_, kind_ == OP_WRITE ? next_value++ : VALUE_INIT, kind_ }; \
                hb_op(b, bt, kind_, keys[k_], o_.value, l_); \
                ops[nops++] = o_; tx[bt].nops++; \
            } \
        } while (0)
        for (uint32_t t = 0; t < NT; t++) {
            uint32_t s = rnd(NS);
            /* near UINT32_MAX: the last transactions' step-1 lines wrap past it */
            uint32_t tl = lines == 3 && t >= NT - 2 ? UINT32_MAX - 1 : line;
            uint32_t bt = hb_txn(b, sess[s], 1000 + t, tl);
            assert_int_equal(bt, ntx);
            tx[ntx++] = (mtxn){ s, npos[s]++, tl, 0, rnd(MAXOPS + 1) };   /* 0 ops possible */
            line += 2 * MAXOPS;
            if (late_first && rnd(2)) { pending[npend++] = bt; continue; }
            ADD_OPS(bt, tx[bt].want);
            if (npend && rnd(3) == 0) {            /* a transaction created earlier gets its ops now */
                uint32_t p = pending[--npend];
                ADD_OPS(p, tx[p].want);
            }
            if (mix && t == (uint32_t)c % NT && t > 0) {
                uint32_t back = rnd(t);
                ADD_OPS(back, 1);
            }
        }
        while (npend) { uint32_t p = pending[--npend]; ADD_OPS(p, tx[p].want); }
#undef ADD_OPS
        if (!nops) { hb_free(b); continue; }
        layouts[c % 4]++;
        assert_builder_ops(b, ops, nops);
        ic_error err; ic_error_clear(&err);
        history *hc = hb_finish(hb_clone(b, NULL), &err);
        if (!hc) fail_msg("clone: %s", err.msg);
        check_history(hc, ops, nops, tx, ntx);
        history *h = hb_finish(b, &err);
        if (!h) fail_msg("builder: %s", err.msg);
        check_history(h, ops, nops, tx, ntx);
        history_free(hc);
        history_free(h);
    }
    for (int l = 0; l < 4; l++) assert_true(layouts[l] > 50);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builder_ops_in_any_arrival_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
