/* levels_gen.h — random small histories for the level tests: the
 * generator of tests/test_levels_oracle.c and test_levels_engine.c (2-7 transactions, 1-3 sessions
 * and keys, registers and lists, aborted and indeterminate transactions,
 * reads from an execution whose visibility is serial, a snapshot, a random
 * set per transaction or per read, causal, parallel-SI, atomic, two
 * replicas or arbitrary; times mostly following the execution), with the
 * times also given to the history (hb_txn_time) when asked: invocation
 * for every transaction, completion for those that are not indeterminate.
 * inv/cmp are the oracle's arrays by history index (tests/brute_levels.h).
 * Include once per test program; rnd() and rng_state are its own. */
#ifndef ISOCHECK_TESTS_LEVELS_GEN_H
#define ISOCHECK_TESTS_LEVELS_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "frontend/history/history.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {          /* xorshift64*, uniform-ish in [0, n) */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

enum { MAXT = 7, MAXOPS = 4, MAXK = 3, MAXL = 32 };
enum { ST_OK, ST_FAIL, ST_INFO };
enum { VIS_SERIAL, VIS_SNAPSHOT, VIS_TXN_SET, VIS_READ_SET, VIS_ANY, VIS_CAUSAL, VIS_PSI, VIS_ATOMIC, VIS_SITES, VIS_MODES };

typedef struct gop { int write, key; int64_t value; int n; int64_t list[MAXL]; } gop;
typedef struct gtxn { int proc, status, ran, nops; gop ops[MAXOPS]; } gtxn;
typedef struct ghist { int ntx, nkeys, is_list[MAXK]; gtxn t[MAXT]; int64_t inv[MAXT + 1], cmp[MAXT + 1]; } ghist;

/* The state key k shows to a reader that sees the transactions in vis
 * (bitmask over execution positions), in execution order. */
static void g_view(const ghist *g, uint32_t vis, int k, int64_t *reg, int *n, int64_t *el) {
    *reg = 0; *n = 0;
    for (int i = 0; i < g->ntx; i++) {
        if (!(vis >> i & 1u) || !g->t[i].ran) continue;
        for (int j = 0; j < g->t[i].nops; j++) {
            const gop *o = &g->t[i].ops[j];
            if (!o->write || o->key != k) continue;
            if (g->is_list[k]) { if (*n < MAXL) el[(*n)++] = o->value; }
            else *reg = o->value;
        }
    }
}

static void ghist_random(ghist *g, int mode) {
    memset(g, 0, sizeof *g);
    g->ntx = 2 + (int)rnd(MAXT - 1);
    g->nkeys = 1 + (int)rnd(MAXK);
    int nsess = 1 + (int)rnd(3), lists = (int)rnd(3);   /* 0: registers, 1: mixed, 2: lists */
    if (mode >= VIS_CAUSAL) lists = rnd(4) == 0;
    if (mode == VIS_SITES) { g->ntx = 4 + (int)rnd(MAXT - 3); g->nkeys = 2 + (int)rnd(MAXK - 1); }
    for (int k = 0; k < g->nkeys; k++) g->is_list[k] = lists == 2 || (lists == 1 && rnd(2));
    int64_t next = 1;
    int64_t clock = 0;
    uint32_t seen[MAXT];                                /* causal modes: what each transaction saw */
    int site[MAXT], delay[MAXT], psi_rule = mode == VIS_PSI || (mode == VIS_SITES && rnd(2));
    for (int i = 0; i < g->ntx; i++) {
        gtxn *t = &g->t[i];
        t->proc = (int)rnd((uint32_t)nsess);
        site[i] = (int)rnd(2); delay[i] = 1 + (int)rnd(8);
        if (mode == VIS_SITES) t->proc = site[i] * 2 + (int)rnd(2);   /* a session stays at its site */
        uint32_t r = rnd(20);
        t->status = r < 17 ? ST_OK : r < 18 ? ST_FAIL : ST_INFO;
        t->ran = t->status == ST_OK || (t->status == ST_INFO && rnd(2));
        t->nops = 1 + (int)rnd(MAXOPS);
        uint32_t wkeys = 0;
        for (int j = 0; j < t->nops; j++) {             /* the operations first, values below */
            gop *o = &t->ops[j];
            o->key = (int)rnd((uint32_t)g->nkeys);
            o->write = (int)rnd(2);
            if (o->write) { o->value = next++; wkeys |= 1u << o->key; }
        }
        uint32_t before = (1u << i) - 1, vis = before;
        if (mode == VIS_SNAPSHOT) vis = (1u << rnd((uint32_t)i + 1)) - 1;
        else if (mode == VIS_TXN_SET || mode == VIS_ANY) vis = rnd(1u << i);
        else if (mode >= VIS_CAUSAL) {
            /* a random set, its session predecessors, (psi) every earlier writer
             * of a key it writes, closed under what those saw (not for atomic) */
            vis = rnd(1u << i);
            if (mode == VIS_SITES) {                    /* two replicas: own site at once, the other's later */
                vis = 0;
                for (int u = 0; u < i; u++) if (site[u] == site[i] || u + delay[u] < i) vis |= 1u << u;
            }
            for (int u = 0; u < i; u++) {
                if (g->t[u].proc == t->proc) vis |= 1u << u;
                if (psi_rule)
                    for (int q = 0; q < g->t[u].nops; q++)
                        if (g->t[u].ops[q].write && (wkeys >> g->t[u].ops[q].key & 1u) && g->t[u].ran) vis |= 1u << u;
            }
            for (int u = i - 1; u >= 0 && mode != VIS_ATOMIC; u--) if (vis >> u & 1u) vis |= seen[u];
        }
        seen[i] = vis;
        for (int j = 0; j < t->nops; j++) {
            gop *o = &t->ops[j];
            if (o->write) continue;
            uint32_t v = mode == VIS_READ_SET ? rnd(1u << i) : vis;
            if (mode == VIS_ANY && rnd(2)) v = rnd(1u << g->ntx) & ~(1u << i);
            g_view(g, v, o->key, &o->value, &o->n, o->list);
            /* then the transaction's own writes so far */
            for (int q = 0; q < j; q++) {
                const gop *w = &t->ops[q];
                if (!w->write || w->key != o->key) continue;
                if (g->is_list[o->key]) { if (o->n < MAXL) o->list[o->n++] = w->value; }
                else o->value = w->value;
            }
        }
        int64_t len = 1 + (int64_t)rnd(25);
        g->inv[i + 1] = clock - (int64_t)rnd(15);
        g->cmp[i + 1] = g->inv[i + 1] + len;
        if (rnd(8) == 0) g->inv[i + 1] = (int64_t)rnd(80), g->cmp[i + 1] = g->inv[i + 1] + len;
        if (t->status == ST_INFO) g->cmp[i + 1] = INT64_MAX;
        clock += 10;
    }
    /* VIS_ANY may read writes of later transactions */
    if (mode == VIS_ANY)
        for (int i = 0; i < g->ntx; i++)
            for (int j = 0; j < g->t[i].nops; j++) {
                gop *o = &g->t[i].ops[j];
                if (!o->write && rnd(4) == 0) {
                    int u = (int)rnd((uint32_t)g->ntx), any = rnd(2);   /* any: maybe an overwritten one */
                    for (int q = 0; q < g->t[u].nops; q++)
                        if (g->t[u].ops[q].write && g->t[u].ops[q].key == o->key) {
                            if (g->is_list[o->key]) { o->n = 1; o->list[0] = g->t[u].ops[q].value; }
                            else o->value = g->t[u].ops[q].value;
                            if (any) break;
                        }
                }
            }
}

/* The history through the builder (transaction i+1 is generated txn i;
 * sessions keep the generation order, so history index = i + 1 only per
 * session: gmap gives the history index of each generated transaction). */
static history *ghist_build(const ghist *g, int64_t *inv, int64_t *cmp, int with_times) {
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "levels");
    uint32_t keys[MAXK];
    for (int k = 0; k < g->nkeys; k++) keys[k] = hb_key(b, k);
    for (int i = 0; i < g->ntx; i++) {
        const gtxn *t = &g->t[i];
        uint32_t bt = hb_txn(b, hb_session(b, t->proc, NULL), i + 1, (uint32_t)i + 1);
        hb_txn_status(b, bt, t->status == ST_OK ? TXN_COMMITTED : t->status == ST_FAIL ? TXN_ABORTED : TXN_INDETERMINATE);
        for (int j = 0; j < t->nops; j++) {
            const gop *o = &t->ops[j];
            if (o->write) hb_op(b, bt, g->is_list[o->key] ? OP_APPEND : OP_WRITE, keys[o->key], o->value, (uint32_t)i + 1);
            else if (g->is_list[o->key]) hb_list_read(b, bt, keys[o->key], o->list, (uint32_t)o->n, (uint32_t)i + 1);
            else hb_op(b, bt, OP_READ, keys[o->key], o->value ? o->value : VALUE_INIT, (uint32_t)i + 1);
        }
        if (with_times) {                           /* an :info transaction never completed */
            hb_txn_time(b, bt, TIME_INVOKE, g->inv[i + 1]);
            if (t->status != ST_INFO) hb_txn_time(b, bt, TIME_COMPLETE, g->cmp[i + 1]);
        }
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    if (!h) fprintf(stderr, "build: %s\n", err.msg);
    assert_non_null(h);
    for (uint32_t t = 1; t < h->num_txns; t++) {   /* ext_id is the generated index + 1 */
        inv[t] = g->inv[h->txns[t].ext_id];
        cmp[t] = g->cmp[h->txns[t].ext_id];
    }
    return h;
}

static history *random_history(int64_t *inv, int64_t *cmp, int with_times) {
    static ghist g;
    int mode = rnd(3) == 0 ? VIS_SITES : (int)rnd(VIS_MODES);   /* long forks come from the sites */
    ghist_random(&g, mode);
    return ghist_build(&g, inv, cmp, with_times);
}

#endif
