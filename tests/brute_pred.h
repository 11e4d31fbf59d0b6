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
 * Up to BP_MAX_TXNS transactions: every permutation is tried. */
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

#endif
