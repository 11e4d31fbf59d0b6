/* brute_pred.h — a brute-force serializability oracle for histories with
 * predicate reads, inserts and deletes (issue 34).  It shares no code with
 * the pipeline: its own history form, its own predicates, its own
 * semantics, straight from the definition:
 *
 *   A history is serializable iff some order of its (committed)
 *   transactions, run one after another from the initial state, gives every
 *   read what it observed: an item read sees the key's current value (or
 *   its absence: never inserted, or deleted); a predicate read returns
 *   exactly the keys whose current value is present and matches, each with
 *   that value.  A transaction sees its own writes.
 *
 * Snapshot isolation (bp_snapshot_isolation), from the same definition
 * with snapshots: some commit order and, for every transaction, a snapshot
 * point no later than its commit (a prefix of the order) such that every read
 * sees the state after that prefix plus the transaction's own writes, and no
 * two transactions that write a common key are concurrent (neither committed
 * before the other's snapshot).  Predicate reads read the snapshot as item
 * reads do.  Every transaction is its own session (no session order).
 *
 * Up to BP_MAX_TXNS transactions: every permutation (and every snapshot
 * point) is tried. */
#ifndef TESTS_BRUTE_PRED_H
#define TESTS_BRUTE_PRED_H

#include <stdint.h>
#include <string.h>

#define BP_MAX_TXNS 5
#define BP_MAX_OPS  4
#define BP_MAX_KEYS 3
#define BP_ABSENT   (-1L)        /* an item read of nothing / a delete */

enum { BP_W, BP_DEL, BP_R, BP_RP };
enum { BPP_TRUE, BPP_EQ, BPP_LT, BPP_GE, BPP_MOD, BPP_RANGE };

typedef struct bp_pred { int kind; long a, b; } bp_pred;

typedef struct bp_op {
    int kind, key;
    long val;                    /* BP_W: the value; BP_R: the value or BP_ABSENT */
    bp_pred p;                   /* BP_RP */
    long res[BP_MAX_KEYS];       /* BP_RP: per key, the returned value or BP_ABSENT */
} bp_op;

typedef struct bp_txn { int nops; bp_op ops[BP_MAX_OPS]; } bp_txn;

typedef struct bp_hist {
    int nkeys, ntx;
    long init[BP_MAX_KEYS];      /* initial value, or BP_ABSENT (unborn) */
    bp_txn tx[BP_MAX_TXNS];
} bp_hist;

static inline int bp_match(const bp_pred *p, long v) {
    switch (p->kind) {
    case BPP_TRUE: return 1;
    case BPP_EQ: return v == p->a;
    case BPP_LT: return v < p->a;
    case BPP_GE: return v >= p->a;
    case BPP_MOD: { long r = v % p->a; if (r != 0 && ((r < 0) != (p->a < 0))) r += p->a; return r == p->b; }
    case BPP_RANGE: return p->a <= v && v <= p->b;
    }
    return 0;
}

/* Run txn t on state st (updated); 1 if every read saw what it observed. */
static inline int bp_run_txn(const bp_hist *h, int t, long *st) {
    const bp_txn *x = &h->tx[t];
    for (int i = 0; i < x->nops; i++) {
        const bp_op *o = &x->ops[i];
        if (o->kind == BP_W) st[o->key] = o->val;
        else if (o->kind == BP_DEL) st[o->key] = BP_ABSENT;
        else if (o->kind == BP_R) { if (st[o->key] != o->val) return 0; }
        else {
            for (int k = 0; k < h->nkeys; k++) {
                int m = st[k] != BP_ABSENT && bp_match(&o->p, st[k]);
                if (o->res[k] != (m ? st[k] : BP_ABSENT)) return 0;
            }
        }
    }
    return 1;
}

static inline int bp_try(const bp_hist *h, int *perm, int depth, const long *st) {
    if (depth == h->ntx) return 1;
    for (int i = depth; i < h->ntx; i++) {
        int tmp = perm[depth]; perm[depth] = perm[i]; perm[i] = tmp;
        long next[BP_MAX_KEYS];
        memcpy(next, st, sizeof next);
        int ok = bp_run_txn(h, perm[depth], next) && bp_try(h, perm, depth + 1, next);
        tmp = perm[depth]; perm[depth] = perm[i]; perm[i] = tmp;
        if (ok) return 1;
    }
    return 0;
}

/* 1 if h is serializable. */
static inline int bp_serializable(const bp_hist *h) {
    int perm[BP_MAX_TXNS];
    for (int i = 0; i < h->ntx; i++) perm[i] = i;
    long st[BP_MAX_KEYS];
    for (int k = 0; k < BP_MAX_KEYS; k++) st[k] = k < h->nkeys ? h->init[k] : BP_ABSENT;
    return bp_try(h, perm, 0, st);
}

/* Whether txns a and b write a common key. */
static inline int bp_ww_conflict(const bp_hist *h, int a, int b) {
    for (int i = 0; i < h->tx[a].nops; i++) {
        const bp_op *x = &h->tx[a].ops[i];
        if (x->kind != BP_W && x->kind != BP_DEL) continue;
        for (int j = 0; j < h->tx[b].nops; j++) {
            const bp_op *y = &h->tx[b].ops[j];
            if ((y->kind == BP_W || y->kind == BP_DEL) && y->key == x->key) return 1;
        }
    }
    return 0;
}

/* Positions depth.. of perm to place; states[j]: the state after the first j. */
static inline int bp_si_try(const bp_hist *h, int *perm, int depth, long states[][BP_MAX_KEYS], int *sp) {
    if (depth == h->ntx) return 1;
    for (int i = depth; i < h->ntx; i++) {
        int tmp = perm[depth]; perm[depth] = perm[i]; perm[i] = tmp;
        int t = perm[depth], ok = 0;
        for (int s = 0; s <= depth && !ok; s++) {          /* its snapshot: the first s committed */
            int conflict = 0;
            for (int j = s; j < depth && !conflict; j++) conflict = bp_ww_conflict(h, perm[j], t);
            if (conflict) continue;
            long view[BP_MAX_KEYS];
            memcpy(view, states[s], sizeof view);
            if (!bp_run_txn(h, t, view)) continue;
            memcpy(states[depth + 1], states[depth], sizeof view);   /* commit: its writes on the latest state */
            for (int o = 0; o < h->tx[t].nops; o++) {
                const bp_op *x = &h->tx[t].ops[o];
                if (x->kind == BP_W) states[depth + 1][x->key] = x->val;
                else if (x->kind == BP_DEL) states[depth + 1][x->key] = BP_ABSENT;
            }
            sp[depth] = s;
            ok = bp_si_try(h, perm, depth + 1, states, sp);
        }
        tmp = perm[depth]; perm[depth] = perm[i]; perm[i] = tmp;
        if (ok) return 1;
    }
    return 0;
}

/* 1 if h satisfies snapshot isolation. */
static inline int bp_snapshot_isolation(const bp_hist *h) {
    int perm[BP_MAX_TXNS], sp[BP_MAX_TXNS];
    long states[BP_MAX_TXNS + 1][BP_MAX_KEYS];
    for (int i = 0; i < h->ntx; i++) perm[i] = i;
    for (int k = 0; k < BP_MAX_KEYS; k++) states[0][k] = k < h->nkeys ? h->init[k] : BP_ABSENT;
    return bp_si_try(h, perm, 0, states, sp);
}

#endif
