/* builder_ops.h — for tests of the history builder: an op as a test added
 * it (builder transaction, key, line, value, kind), and the check that
 * hb_op_get gives back each of `n` added ops exactly as added, in order.
 * Include after <cmocka.h>. */
#ifndef ISOCHECK_TESTS_BUILDER_OPS_H
#define ISOCHECK_TESTS_BUILDER_OPS_H

#include <stdint.h>

#include "frontend/history/history.h"

typedef struct added_op { uint32_t txn, key, line; int64_t value; unsigned kind; } added_op;

static inline void assert_builder_ops(const history_builder *b, const added_op *ops, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t txn, key, l;
        unsigned kind;
        int64_t v;
        hb_op_get(b, i, &txn, &kind, &key, &v, &l);
        assert_int_equal(txn, ops[i].txn);
        assert_int_equal(kind, ops[i].kind);
        assert_int_equal(key, ops[i].key);
        assert_int_equal(v, ops[i].value);
        assert_int_equal(l, ops[i].line);
    }
}

#endif
