/* random_exec.h — small random executions for the repeated-value tests
 * (test_repeat_levels.c: registers; test_list_repeat.c: lists).
 *
 * rx_draw() draws an execution: up to RX_T transactions in order, each in
 * one of up to 3 sessions, committed (85 %), aborted or indeterminate (an
 * indeterminate one ran with probability 1/2), with 1..RX_OPS operations
 * on up to `max_keys` keys.  A transaction sees every earlier one
 * (serial), a set closed under its session and what those saw (causal),
 * a random set (atomic), or each read its own random set (per read): the
 * set a read sees is kept in its `vis` bits, and what it returns is left to
 * the caller (a register's last value, a list's appends), which knows its
 * model.  A write reuses one of the key's values already written with
 * probability pct %, else takes a fresh one.  Times follow the execution
 * with overlaps (invoke 10 i + [0, 15), completion up to 20 later).
 *
 * rx_build() turns an execution into a history through the builder: the
 * caller emits each operation (rx_emit_fn), then inv[]/cmp[] are re-read
 * by the history's transaction indices (the builder regroups by session).
 * Both take the test's random source, so each test keeps its own seed. */
#ifndef ISOCHECK_TESTS_RANDOM_EXEC_H
#define ISOCHECK_TESTS_RANDOM_EXEC_H

#include <stdint.h>
#include <string.h>

#include "frontend/history/history.h"

enum { RX_T = 6, RX_OPS = 4, RX_K = 3 };
enum { RX_SERIAL, RX_CAUSAL, RX_ATOMIC, RX_PER_READ, RX_MODES };

typedef struct rx_op { int write, key; int64_t value; uint32_t vis; } rx_op;
typedef struct rx_txn { int sess, status, ran, nops; rx_op ops[RX_OPS]; } rx_txn;
typedef struct rx_exec { int ntx, nk; rx_txn t[RX_T]; } rx_exec;

typedef struct rx_params {
    int max_keys;       /* 1..RX_K */
    int write_of_5;     /* a write with probability write_of_5 / 5 */
    int pct;            /* a write reuses a value with this probability (%) */
    int reread;         /* a later read may re-read an earlier op's key, from its own random set */
} rx_params;

typedef uint32_t (*rx_rnd_fn)(uint32_t n);

static inline void rx_draw(rx_exec *e, const rx_params *p, rx_rnd_fn rnd, int64_t *inv, int64_t *cmp) {
    uint32_t seen[RX_T];
    memset(e, 0, sizeof *e);
    int mode = (int)rnd(RX_MODES), nsess;
    e->ntx = 2 + (int)rnd(RX_T - 1);
    e->nk = 1 + (int)rnd((uint32_t)p->max_keys);
    nsess = 1 + (int)rnd(3);
    int64_t vals[RX_K][RX_T * RX_OPS], next = 1;
    int nv[RX_K] = {0};
    for (int i = 0; i < e->ntx; i++) {
        rx_txn *x = &e->t[i];
        x->sess = (int)rnd((uint32_t)nsess);
        uint32_t r = rnd(20);
        x->status = r < 17 ? TXN_COMMITTED : r < 19 ? TXN_ABORTED : TXN_INDETERMINATE;
        x->ran = x->status == TXN_COMMITTED || (x->status == TXN_INDETERMINATE && rnd(2));
        x->nops = 1 + (int)rnd(RX_OPS);
        uint32_t vis = (1u << i) - 1;
        if (mode != RX_SERIAL) vis = rnd(1u << i);
        if (mode == RX_CAUSAL) {
            for (int u = 0; u < i; u++) if (e->t[u].sess == x->sess) vis |= 1u << u;
            for (int u = i - 1; u >= 0; u--) if (vis >> u & 1u) vis |= seen[u];
        }
        seen[i] = vis;
        for (int j = 0; j < x->nops; j++) {
            rx_op *o = &x->ops[j];
            o->key = (int)rnd((uint32_t)e->nk);
            o->write = (int)rnd(5) < p->write_of_5;
            if (p->reread && j > 0 && rnd(2)) { o->key = x->ops[rnd((uint32_t)j)].key; o->write = 0; }
            if (o->write) {
                int k = o->key;
                if (nv[k] && (int)rnd(100) < p->pct) o->value = vals[k][rnd((uint32_t)nv[k])];
                else o->value = next++;
                vals[k][nv[k]++] = o->value;
                continue;
            }
            o->vis = mode == RX_PER_READ || p->reread ? rnd(1u << i) : vis;
        }
        inv[i + 1] = 10 * i + (int64_t)rnd(15);
        cmp[i + 1] = inv[i + 1] + (int64_t)rnd(20);
    }
}

/* Emit operation j of execution transaction i as builder transaction bt. */
typedef void (*rx_emit_fn)(history_builder *b, uint32_t bt, const uint32_t *keys, const rx_exec *e, int i, int j);

/* The history of e (NULL if the builder refuses it), with inv[]/cmp[] by
 * the history's transaction indices (cmp INT64_MAX when not committed). */
static inline history *rx_build(const rx_exec *e, const char *name, rx_emit_fn emit, int64_t *inv, int64_t *cmp) {
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, name);
    uint32_t keys[RX_K];
    for (int k = 0; k < e->nk; k++) keys[k] = hb_key(b, k);
    for (int i = 0; i < e->ntx; i++) {
        const rx_txn *x = &e->t[i];
        uint32_t bt = hb_txn(b, hb_session(b, x->sess, NULL), i + 1, (uint32_t)i + 1);
        hb_txn_status(b, bt, (txn_status)x->status);
        hb_txn_time(b, bt, TIME_INVOKE, inv[i + 1]);
        if (x->status == TXN_COMMITTED) hb_txn_time(b, bt, TIME_COMPLETE, cmp[i + 1]);
        for (int j = 0; j < x->nops; j++) emit(b, bt, keys, e, i, j);
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    if (!h) return NULL;
    for (uint32_t x = 1; x < h->num_txns; x++) {
        inv[x] = history_time(h, TIME_INVOKE, x);
        cmp[x] = h->txns[x].status == TXN_COMMITTED ? history_time(h, TIME_COMPLETE, x) : INT64_MAX;
    }
    return h;
}

/* Registers: the value of the key of e->t[i].ops[j] that the writes of the
 * transactions in its vis (in execution order) leave, 0 for the initial
 * one; then the reading transaction's own last write before it. */
static inline int64_t rx_reg_read(const rx_exec *e, int i, int j) {
    const rx_op *o = &e->t[i].ops[j];
    int64_t v = 0;
    for (int u = 0; u < i; u++)
        if ((o->vis >> u & 1u) && e->t[u].ran)
            for (int q = 0; q < e->t[u].nops; q++)
                if (e->t[u].ops[q].write && e->t[u].ops[q].key == o->key) v = e->t[u].ops[q].value;
    for (int q = 0; q < j; q++)
        if (e->t[i].ops[q].write && e->t[i].ops[q].key == o->key) v = e->t[i].ops[q].value;
    return v;
}

/* An rx_emit_fn for registers: a write of its value, a read of rx_reg_read's. */
static inline void rx_reg_emit(history_builder *b, uint32_t bt, const uint32_t *keys, const rx_exec *e, int i, int j) {
    const rx_op *o = &e->t[i].ops[j];
    int64_t v = o->write ? o->value : rx_reg_read(e, i, j);
    hb_op(b, bt, o->write ? OP_WRITE : OP_READ, keys[o->key], v ? v : VALUE_INIT, (uint32_t)i + 1);
}

#endif
