/* test_online_sess.c — a key's per-session writer entries in the
 * incremental checker (frontend/online/incr_graph.c: writer_session and
 * its session filter ikey.sess_bits, the entry's last writer), past the
 * filter's KEY_SESS_BITS (128) sessions, where sessions share bits.
 *
 * 200 sessions read key b's INIT first (stable session indices 0..199 in
 * arrival order), then seven of them take turns writing key a, each
 * reading the write before it: indices 0 and 128, 1 and 129, 71 and 199
 * share their bits, 99 has its own.  After every transaction the check
 * passes; at the end key a has exactly one entry per writing session
 * (a session whose bit another set must find its own entry, not make a
 * second one), each entry's last writer is that session's latest write of
 * a (node, session and sequence number), and every entry's bit is set.
 * A lost update of two sessions sharing a bit then fails at once.  The
 * incremental state is read through incr_internal.h (the test looks at
 * the records themselves: a duplicate entry changes no verdict of these
 * streams, which the batch comparisons of test_online cannot see). */
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

enum { SESSIONS = 200, ROUNDS = 5, TURNS = 7 };
static const int64_t turn[TURNS] = { 1, 129, 2, 130, 100, 200, 72 };   /* external ids: index + 1 */

static int64_t next_id;

/* One committed transaction of session sess: its ops, then a check. */
static int add(incr_check *ic, int64_t sess, const incr_op *ops, uint32_t n) {
    incr_txn t = { ++next_id, sess, TXN_COMMITTED, ops, n };
    assert_true(incr_add_txn(ic, &t));
    uint32_t num, fresh;
    return incr_check_added(ic, &num, &fresh);
}

/* Key k's entries: one per session in want[0..n) (stable indices), each
 * with its bit set and its last writer the session's latest (ext id
 * latest[i]). */
static void entries_match(const incr_check *ic, uint32_t k, const uint32_t *want, const int64_t *latest, uint32_t n) {
    const ikey *K = &ic->keys.data[k];
    assert_int_equal(K->by_sess.len, n);
    for (uint32_t i = 0; i < n; i++) {
        const ikey_sess *e = NULL;
        for (size_t j = 0; j < K->by_sess.len; j++)
            if (K->by_sess.data[j].sess == want[i]) { assert_null(e); e = &K->by_sess.data[j]; }
        assert_non_null(e);
        assert_true(K->sess_bits[e->sess % KEY_SESS_BITS / 32] & (1u << (e->sess % 32)));
        assert_int_equal(e->n, ROUNDS);
        const inode *g = &ic->nodes.data[ic->writers.data[e->last.w].g];
        assert_int_equal(g->sess, e->sess);
        assert_int_equal(g->seq, e->last.seq);
        assert_int_equal(ic->txns.data[g->txn].ext, latest[i]);
    }
}

static void shared_bits_one_entry_each(void **state) {
    (void)state;
    for (int levels = 1; levels <= 3; levels++) {          /* si, ser, both */
        next_id = 0;
        incr_check *ic = incr_new(levels & 1, levels >> 1 & 1);
        incr_add_key(ic, 0);                                /* a: key 0 */
        incr_add_key(ic, 1);                                /* b: key 1 */
        for (int64_t s = 1; s <= SESSIONS; s++) {
            incr_op r = { OP_READ, 1, VALUE_INIT, 0 };
            assert_int_equal(add(ic, s, &r, 1), INCR_PASS);
        }
        int64_t v = 0, latest[TURNS];
        for (uint32_t round = 0; round < ROUNDS; round++)
            for (uint32_t i = 0; i < TURNS; i++, v++) {
                incr_op ops[2] = { { OP_READ, 0, v ? v : VALUE_INIT, 0 }, { OP_WRITE, 0, v + 1, 0 } };
                assert_int_equal(add(ic, turn[i], ops, 2), INCR_PASS);
                latest[i] = next_id;
            }
        uint32_t want[TURNS];
        for (uint32_t i = 0; i < TURNS; i++) {
            want[i] = (uint32_t)(turn[i] - 1);
            assert_int_equal(ic->txns.data[ic->nodes.data[ic->sess.data[want[i]].members.data[0]].txn].ext, turn[i]);
        }
        entries_match(ic, 0, want, latest, TURNS);
        /* a lost update: 129 and 1 (bits shared) both read v and write a */
        incr_op lost1[2] = { { OP_READ, 0, v, 0 }, { OP_WRITE, 0, v + 1, 0 } };
        incr_op lost2[2] = { { OP_READ, 0, v, 0 }, { OP_WRITE, 0, v + 2, 0 } };
        assert_int_equal(add(ic, 129, lost1, 2), INCR_PASS);
        assert_int_equal(add(ic, 1, lost2, 2), INCR_FAIL);
        incr_free(ic);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_bits_one_entry_each),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
