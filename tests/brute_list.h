/* brute_list.h — a brute-force SI / SER oracle for tiny histories that
 * replays executions.  It shares no code with the checker: it reads only
 * the raw operations (op_kind, op_key, op_value, op_txn, the transactions,
 * history_list()) and runs them on its own little store of registers and
 * lists.
 *
 * Which transactions ran: the committed ones plus any subset S of the
 * indeterminate ones (aborted ones never; every subset is tried).  For a
 * commit order π of them that respects the session order:
 *   SER  they run one after another in π: a transaction sees the state
 *        after all transactions before it, plus its own effects so far;
 *   SI   (strong session SI) a transaction starts after the first s
 *        commits of π, s <= its own position: it sees that state plus its
 *        own effects; it starts after its session predecessor committed,
 *        and after every earlier-committed transaction that writes a key it
 *        writes (first committer wins: no two concurrent writers of a key).
 *        A transaction's reads depend only on its own s, so each one is
 *        checked on its own: some admissible s must explain all its reads.
 * Every read of a transaction that ran must return exactly what the replay
 * gives: a register its value, a list its elements in order.  The history
 * passes iff some S and π (and, for SI, starts) explain all reads.
 * Returns 1 (passes), 0 (does not), -1 (too big for this oracle). */
#ifndef ISOCHECK_TESTS_BRUTE_LIST_H
#define ISOCHECK_TESTS_BRUTE_LIST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/history/history.h"

#define BL_MAX_TXNS 8          /* transactions besides INIT */
#define BL_MAX_KEYS 4
#define BL_MAX_LEN  32         /* elements per list (callers stay below) */

typedef struct bl_key { int64_t reg; uint32_t n; int64_t el[BL_MAX_LEN]; } bl_key;
typedef struct bl_store { bl_key k[BL_MAX_KEYS]; } bl_store;

typedef struct bl_state {
    const history *h;
    int nkeys, si;
    int ntx;                       /* candidate transactions */
    uint32_t txn[BL_MAX_TXNS];     /* history index of each candidate */
    int indet[BL_MAX_TXNS];
    int run[BL_MAX_TXNS];          /* in the current subset */
    int order[BL_MAX_TXNS], nrun;  /* the current commit order (candidate indices) */
    int used[BL_MAX_TXNS];
    bl_store states[BL_MAX_TXNS + 1];
} bl_state;

static unsigned bl_kind(const history *h, uint32_t op) { return h->op_kind[op] & OP_KIND_MASK; }
static int bl_failed(const history *h, uint32_t op) { return (h->op_kind[op] & OP_FAILED) != 0; }

static int bl_writes_key(const history *h, uint32_t t, uint32_t key) {
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        unsigned k = bl_kind(h, op);
        if (!bl_failed(h, op) && h->op_key[op] == key && (k == OP_WRITE || k == OP_APPEND)) return 1;
    }
    return 0;
}

/* t's effects on s (its writes and appends, in program order). */
static void bl_apply(const history *h, uint32_t t, bl_store *s) {
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        if (bl_failed(h, op)) continue;
        bl_key *k = &s->k[h->op_key[op]];
        if (bl_kind(h, op) == OP_WRITE) k->reg = history_op_value(h, op);
        else if (bl_kind(h, op) == OP_APPEND && k->n < BL_MAX_LEN) k->el[k->n++] = history_op_value(h, op);
    }
}

/* Run t from state *from: 1 if every read returns what it recorded. */
static int bl_reads_ok(const history *h, uint32_t t, const bl_store *from) {
    bl_store s = *from;
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        if (bl_failed(h, op)) continue;
        bl_key *k = &s.k[h->op_key[op]];
        switch (bl_kind(h, op)) {
        case OP_WRITE: k->reg = history_op_value(h, op); break;
        case OP_APPEND: if (k->n < BL_MAX_LEN) k->el[k->n++] = history_op_value(h, op); break;
        case OP_READ: if (history_op_value(h, op) != k->reg) return 0; break;
        case OP_LIST_READ: {
            uint32_t n;
            const int64_t *l = history_list(h, op, &n);
            if (n != k->n || (n && memcmp(l, k->el, n * sizeof *l))) return 0;
            break;
        }
        }
    }
    return 1;
}

/* The current commit order: SER — each transaction reads the state right
 * before it; SI — each has an admissible start that explains its reads. */
static int bl_eval(bl_state *b) {
    const history *h = b->h;
    for (int i = 0; i < b->nrun; i++) {
        b->states[i + 1] = b->states[i];
        bl_apply(h, b->txn[b->order[i]], &b->states[i + 1]);
    }
    for (int i = 0; i < b->nrun; i++) {
        uint32_t t = b->txn[b->order[i]];
        int lo = i;
        if (b->si) {
            lo = 0;
            for (int j = 0; j < i; j++) {
                uint32_t u = b->txn[b->order[j]];
                int before = h->txns[u].session == h->txns[t].session;     /* strong session */
                for (uint32_t k = 0; k < (uint32_t)b->nkeys && !before; k++)
                    before = bl_writes_key(h, u, k) && bl_writes_key(h, t, k);  /* first committer wins */
                if (before) lo = j + 1;
            }
        }
        int ok = 0;
        for (int s = lo; s <= i && !ok; s++) ok = bl_reads_ok(h, t, &b->states[s]);
        if (!ok) return 0;
    }
    return 1;
}

/* Orders of the running transactions that respect the session order. */
static int bl_orders(bl_state *b, int depth) {
    if (depth == b->nrun) return bl_eval(b);
    for (int c = 0; c < b->ntx; c++) {
        if (!b->run[c] || b->used[c]) continue;
        int ready = 1;                 /* every earlier running txn of its session is placed */
        for (int d = 0; d < b->ntx && ready; d++)
            if (d != c && b->run[d] && !b->used[d] && b->h->txns[b->txn[d]].session == b->h->txns[b->txn[c]].session &&
                b->h->txns[b->txn[d]].pos < b->h->txns[b->txn[c]].pos)
                ready = 0;
        if (!ready) continue;
        b->used[c] = 1;
        b->order[depth] = c;
        int ok = bl_orders(b, depth + 1);
        b->used[c] = 0;
        if (ok) return 1;
    }
    return 0;
}

static int brute_list_check(const history *h, int si) {
    bl_state *b = calloc(1, sizeof *b);
    if (!b) return -1;
    b->h = h; b->si = si; b->nkeys = (int)h->num_keys;
    int rc = -1;
    if (h->num_keys > BL_MAX_KEYS) goto out;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (h->txns[t].status == TXN_ABORTED) continue;
        if (b->ntx == BL_MAX_TXNS) goto out;
        b->indet[b->ntx] = h->txns[t].status == TXN_INDETERMINATE;
        b->txn[b->ntx++] = t;
    }
    for (int k = 0; k < b->nkeys; k++) { b->states[0].k[k].reg = VALUE_INIT; b->states[0].k[k].n = 0; }
    rc = 0;
    for (uint32_t subset = 0; subset < (1u << b->ntx) && !rc; subset++) {
        int ok = 1;
        b->nrun = 0;
        for (int c = 0; c < b->ntx; c++) {
            int in = (subset >> c) & 1u;
            if (!b->indet[c] && !in) ok = 0;      /* committed ones always run: count each subset once */
            b->run[c] = in;
            b->nrun += in;
        }
        if (!ok) continue;
        memset(b->used, 0, sizeof b->used);
        rc = bl_orders(b, 0);
    }
out:
    free(b);
    return rc;
}

#endif
