/* test_recheck_values.c — the re-check (verify_model.h) reads each op's
 * value from its own copy in key order, 30 bits beside the op's kind in
 * its record, and from the history for a value that does not fit
 * (vm_index.c, ko_rec): values at and past 2^29 and 2^32 either way,
 * INT32_MAX and past it, values equal in their low 30 or 32 bits, each
 * written and read back, give the verdicts of the version order by
 * definition (a passing order passes; one that closes a cycle fails, and
 * that cycle is confirmed, but not with a dependency moved to another
 * key), and a read of a value that agrees in its low bits only is
 * refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdint.h>
#include <string.h>

#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"
#include "frontend/recheck/verify_model.h"
#include "parse_helpers.h"

static history *text(const char *s) { return load_text(s); }

/* Key 1 written v then w by transactions 1 and 2 of one session; 3 reads
 * w; 4 reads v and writes key 2.  The order INIT, v, w passes SER (1, 4, 2,
 * 3); with v and w swapped, WW 2 -> 1 and SO 1 -> 2 close a cycle.  Built
 * op by op (the text format has no negative values). */
static void one_pair(int64_t v, int64_t w) {
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "pair");
    uint32_t k1 = hb_key(b, 1), k2 = hb_key(b, 2), s1 = hb_session(b, 1, NULL);   /* builder-local handles */
    uint32_t t1 = hb_txn(b, s1, 1, 1), t2 = hb_txn(b, s1, 2, 2);
    uint32_t t3 = hb_txn(b, hb_session(b, 2, NULL), 3, 3), t4 = hb_txn(b, hb_session(b, 3, NULL), 4, 4);
    hb_op(b, t1, OP_WRITE, k1, v, 1);
    hb_op(b, t2, OP_WRITE, k1, w, 2);
    hb_op(b, t3, OP_READ, k1, w, 3);
    hb_op(b, t4, OP_READ, k1, v, 4);
    hb_op(b, t4, OP_WRITE, k2, v, 5);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    check_result r;
    check_level(&ix, LEVEL_SER, NULL, &r);
    assert_int_equal(r.verdict, VERDICT_PASS);
    char why[300];
    dep_edge_vec cyc; vec_init(cyc);
    assert_int_equal(vo_check_level_on(h, &r.vo, LEVEL_SER, &cyc, why, sizeof why, NULL, 0), 1);
    uint32_t k = h->op_key[h->txns[1].first_op];          /* finished: T1 is transaction 1 */
    uint32_t a = r.vo.start[k];
    assert_int_equal(r.vo.start[k + 1] - a, 3);
    assert_int_equal(r.vo.txns.data[a + 1], 1);
    uint32_t x = r.vo.txns.data[a + 1];
    r.vo.txns.data[a + 1] = r.vo.txns.data[a + 2];
    r.vo.txns.data[a + 2] = x;
    vec_clear(cyc);
    assert_int_equal(vo_check_level_on(h, &r.vo, LEVEL_SER, &cyc, why, sizeof why, NULL, 0), 0);
    assert_true(cyc.len >= 2);
    assert_true(cycle_holds_level(h, &r.vo, LEVEL_SER, cyc.data, cyc.len, why, sizeof why));
    /* the cycle with one dependency moved to key 2 (written by T4 alone,
     * read by nobody) is no cycle of the history: refused */
    uint32_t k2id = h->op_key[h->txns[4].first_op + 1], moved = 0;
    for (size_t i = 0; i < cyc.len; i++) {
        if (cyc.data[i].kind == DEP_SO) continue;
        dep_edge keep = cyc.data[i];
        cyc.data[i].key = k2id;
        assert_false(cycle_holds_level(h, &r.vo, LEVEL_SER, cyc.data, cyc.len, why, sizeof why));
        cyc.data[i] = keep;
        moved++;
    }
    assert_true(moved >= 1);
    vec_free(cyc);
    check_result_free(&r);
    pg_index_free(&ix);
    history_free(h);
}

static void values_past_32_bits(void **state) {
    (void)state;
    const int64_t e29 = (int64_t)1 << 29, e30 = (int64_t)1 << 30;
    const int64_t vals[][2] = {
        { 10, 20 },
        { 5000000000LL, 5000000001LL },
        { INT32_MAX, (int64_t)INT32_MAX + 1 },
        { (int64_t)INT32_MAX + 2, 7 },
        { 4294967296LL + 10, 10 },               /* the same low 32 bits */
        { 10, 4294967296LL + 10 },
        { e29 - 1, e29 },                        /* the last value kept in the record, the first not */
        { e29 + 1, -e29 },
        { -e29 + 1, -e29 - 1 },
        { e30 + 10, 10 },                        /* the same low 30 bits */
        { -e30 + 10, 10 },
        { 0, -1 },
        { -5000000000LL, INT64_MAX },
        { INT32_MIN, (int64_t)INT32_MIN - 1 },
    };
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) one_pair(vals[i][0], vals[i][1]);
}

/* The version order of each key: INIT, then its writers in transaction
 * order (one session below: the order of the text). */
static void vo_by_txn(const history *h, version_order *vo) {
    memset(vo, 0, sizeof *vo);
    vo->num_keys = h->num_keys;
    vo->start = xcalloc((size_t)h->num_keys + 1, sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        vec_push(vo->txns, 0);
        for (uint32_t t = 1; t < h->num_txns; t++) {
            const history_txn *tx = &h->txns[t];
            for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++)
                if (h->op_key[op] == k && history_op_kind(h, op) == OP_WRITE) { vec_push(vo->txns, t); break; }
        }
    }
    vo->start[h->num_keys] = (uint32_t)vo->txns.len;
}

/* A read of a value that agrees with the only write in its low 30 or 32
 * bits alone (2^32 + 10 or 2^30 + 10 where 10 was written, and the other
 * way round) is no write's value. */
static void low_bits_alone_do_not_match(void **state) {
    (void)state;
    static const char *const cases[] = {
        "w(1,10,1,1)\nr(1,4294967306,2,2)\n",
        "w(1,10,1,1)\nr(1,1073741834,2,2)\n",
        "w(1,1073741834,1,1)\nr(1,10,2,2)\n",
        "w(1,4294967306,1,1)\nr(1,10,2,2)\n",
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        history *h = text(cases[i]);
        pg_index ix; ic_error err; ic_error_clear(&err);
        int built = pg_index_build(&ix, h, &err);    /* the pipeline refuses it; the re-check must too */
        if (built) pg_index_free(&ix);
        assert_false(built);
        version_order vo;
        vo_by_txn(h, &vo);
        char why[300] = "";
        assert_int_equal(vo_check_level_on(h, &vo, LEVEL_SER, NULL, why, sizeof why, NULL, 0), -1);
        assert_non_null(strstr(why, "no other participant's installed version"));
        version_order_free(&vo);
        history_free(h);
    }
}

/* Each op's transaction and kind are copied beside the key's op list
 * (vm_index.c, ko_rec): a read after its own transaction's write must
 * show that write, a read before it the version read, whatever other
 * transactions' ops on the key lie between them in the list. */
static void own_writes_among_others(void **state) {
    (void)state;
    static const char *const cases[][2] = {
        { "w(1,10,1,1)\nr(1,10,1,2)\nw(1,20,1,2)\nr(1,20,1,2)\nr(1,20,1,3)\nw(1,30,1,3)\nr(1,30,1,3)\n", NULL },
        { "w(1,10,1,1)\nr(1,10,1,2)\nw(1,20,1,2)\nr(1,10,1,2)\nr(1,20,1,3)\n", "after its own write" },
        { "w(1,10,1,1)\nr(1,10,1,2)\nw(1,20,1,2)\nr(1,20,1,3)\nr(1,10,1,3)\n", "twice with different values" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        history *h = text(cases[i][0]);
        version_order vo;
        vo_by_txn(h, &vo);
        char why[300] = "";
        int rc = vo_check_level_on(h, &vo, LEVEL_SER, NULL, why, sizeof why, NULL, 0);
        if (!cases[i][1]) assert_int_equal(rc, 1);
        else { assert_int_equal(rc, -1); assert_non_null(strstr(why, cases[i][1])); }
        version_order_free(&vo);
        history_free(h);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_past_32_bits),
        cmocka_unit_test(low_bits_alone_do_not_match),
        cmocka_unit_test(own_writes_among_others),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
