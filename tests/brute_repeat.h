/* brute_repeat.h — a brute-force SI / SER oracle for tiny histories whose
 * written values may repeat (issue 35), from the definitions: it reads the
 * raw operations only (op_kind, op_key, op_value, op_txn and the
 * transactions), never the history model's reading of reads, its writer
 * table or its resolved form, and no code of the pipeline.
 *
 * Every external read (the first op of its transaction on a key, a read)
 * may have seen any committed other transaction's final write of the key
 * with the same value (INIT's VALUE_INIT for the initial one); the history
 * satisfies the level iff some choice of one such writer per external read
 * and some per-key version order make the graph acyclic (the search and the
 * relations: tests/brute_check.h's brute_search, run on each choice).
 * Later ops on a key in a transaction must agree with the op before them
 * (INT); a read with no candidate, or breaking INT, makes the history
 * unsatisfiable (0).  Returns 1, 0, or -1 (too big). */
#ifndef ISOCHECK_TESTS_BRUTE_REPEAT_H
#define ISOCHECK_TESTS_BRUTE_REPEAT_H

#include "tests/brute_check.h"

#define BRUTE_REPEAT_MAX_READS 12

typedef struct brute_rread { int t, k, nc; int cand[BRUTE_MAX_TXNS]; } brute_rread;

static int brute_repeat_op_ok(const history *h, uint32_t op) { return !(h->op_kind[op] & OP_FAILED); }
static int brute_repeat_kind(const history *h, uint32_t op) { return h->op_kind[op] & OP_KIND_MASK; }

/* Txn w's final successful write of k: 1 and its value, else 0. */
static int brute_repeat_final(const history *h, int w, int k, int64_t *v) {
    int found = 0;
    for (uint32_t i = 0; i < h->txns[w].num_ops; i++) {
        uint32_t op = h->txns[w].first_op + i;
        if (h->op_key[op] == (uint32_t)k && brute_repeat_op_ok(h, op) && brute_repeat_kind(h, op) == OP_WRITE) {
            found = 1;
            *v = h->op_value[op];
        }
    }
    return found;
}

static int brute_repeat_choose(brute_state *b, const brute_rread *rr, int n, int i) {
    if (i == n) return brute_search(b, 0);
    for (int c = 0; c < rr[i].nc; c++) {
        int w = rr[i].cand[c];
        uint32_t saved = b->wr[w];
        b->read_from[rr[i].t][rr[i].k] = w;
        if (w != 0) b->wr[w] |= 1u << rr[i].t;
        if (brute_repeat_choose(b, rr, n, i + 1)) return 1;
        b->wr[w] = saved;
    }
    return 0;
}

static int brute_repeat_check(const history *h, int si) {
    brute_state b;
    memset(&b, 0, sizeof b);
    b.si = si;
    if (h->num_txns > BRUTE_MAX_TXNS || h->num_keys > BRUTE_MAX_KEYS) return -1;
    b.n = (int)h->num_txns;
    b.nkeys = (int)h->num_keys;
    int part[BRUTE_MAX_TXNS];
    for (int t = 0; t < b.n; t++) part[t] = t == 0 || h->txns[t].status == TXN_COMMITTED;
    for (int t = 0; t < b.n; t++) for (int k = 0; k < b.nkeys; k++) b.read_from[t][k] = -1;
    for (int a = 1; a < b.n; a++)
        for (int c = 1; c < b.n; c++)
            if (part[a] && part[c] && h->txns[a].session == h->txns[c].session && h->txns[a].pos < h->txns[c].pos)
                b.so[a] |= 1u << c;
    for (int k = 0; k < b.nkeys; k++)
        for (int t = 1; t < b.n; t++) {
            int64_t v;
            if (!part[t] || !brute_repeat_final(h, t, k, &v)) continue;
            if (b.nw[k] == BRUTE_MAX_WRITERS) return -1;
            b.writers[k][b.nw[k]++] = t;
        }
    brute_rread rr[BRUTE_REPEAT_MAX_READS];
    int nr = 0;
    for (int t = 1; t < b.n; t++) {
        if (!part[t]) continue;
        for (int k = 0; k < b.nkeys; k++) {
            int seen = 0;
            int64_t last = 0;
            for (uint32_t i = 0; i < h->txns[t].num_ops; i++) {
                uint32_t op = h->txns[t].first_op + i;
                if (h->op_key[op] != (uint32_t)k || !brute_repeat_op_ok(h, op)) continue;
                int kind = brute_repeat_kind(h, op);
                if (kind != OP_READ && kind != OP_WRITE) return -1;
                if (seen && kind == OP_READ && h->op_value[op] != last) return 0;      /* INT */
                if (!seen && kind == OP_READ) {
                    if (nr == BRUTE_REPEAT_MAX_READS) return -1;
                    brute_rread *r = &rr[nr++];
                    r->t = t; r->k = k; r->nc = 0;
                    if (h->op_value[op] == VALUE_INIT) r->cand[r->nc++] = 0;
                    for (int w = 1; w < b.n; w++) {
                        int64_t v;
                        if (w != t && part[w] && brute_repeat_final(h, w, k, &v) && v == h->op_value[op]) r->cand[r->nc++] = w;
                    }
                    if (!r->nc) return 0;
                }
                seen = 1;
                last = h->op_value[op];
            }
        }
    }
    return brute_repeat_choose(&b, rr, nr, 0);
}

#endif
