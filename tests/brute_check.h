/* brute_check.h — a brute-force SI / SER oracle for tiny histories, written
 * straight from the definitions and sharing no code with the checker.
 *
 * A history (with INT and the read axioms holding) satisfies
 *   SER iff some per-key version order WW makes SO ∪ WR ∪ WW ∪ RW acyclic,
 *   SI  iff some WW makes D ∪ (D ; RW) acyclic, D = SO ∪ WR ∪ WW,
 * where SO is the full session order, WR links a write to the reads that
 * observe it, WW(k) is the version order of k (INIT first), and
 * RW(k) = { (r, c) : r reads k from w, c writes k, w before c in WW(k), r != c }.
 * Every combination of per-key permutations is tried (the caller keeps the
 * product small).  Relations are bit matrices; acyclicity by closure.
 * Participants: INIT and committed transactions (the generators make no
 * indeterminate ones).  Reads after an own write must see it and repeated
 * reads must agree (INT), else the history is not satisfiable.  Returns 1
 * (satisfiable), 0 (not), -1 (too big or a read without a committed final
 * source). */
#ifndef ISOCHECK_TESTS_BRUTE_CHECK_H
#define ISOCHECK_TESTS_BRUTE_CHECK_H

#include <stdint.h>
#include <string.h>

#include "frontend/history/history.h"

#define BRUTE_MAX_TXNS 16
#define BRUTE_MAX_KEYS 8
#define BRUTE_MAX_WRITERS 6

typedef struct brute_state {
    int n;                                       /* transactions (INIT = 0) */
    int nkeys;
    uint32_t so[BRUTE_MAX_TXNS], wr[BRUTE_MAX_TXNS];
    int nw[BRUTE_MAX_KEYS];                      /* writers per key, excluding INIT */
    int writers[BRUTE_MAX_KEYS][BRUTE_MAX_WRITERS];
    int perm[BRUTE_MAX_KEYS][BRUTE_MAX_WRITERS];
    /* read_from[t][k]: writer txn t read k from (-1: no external read) */
    int read_from[BRUTE_MAX_TXNS][BRUTE_MAX_KEYS];
    int si;
    /* optional (brute_check_with): must[k][a][c] — a's version of k must
     * come before c's (INIT is 0); orders that break it are not tried */
    int has_must;
    uint8_t must[BRUTE_MAX_KEYS][BRUTE_MAX_TXNS][BRUTE_MAX_TXNS];
} brute_state;

static int brute_acyclic(const uint32_t *rel, int n) {
    uint32_t c[BRUTE_MAX_TXNS];
    memcpy(c, rel, sizeof(uint32_t) * (size_t)n);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (c[i] >> k & 1u) c[i] |= c[k];
    for (int i = 0; i < n; i++) if (c[i] >> i & 1u) return 0;
    return 1;
}

static int brute_eval(const brute_state *b) {
    int n = b->n;
    uint32_t ww[BRUTE_MAX_TXNS] = {0}, rw[BRUTE_MAX_TXNS] = {0}, d[BRUTE_MAX_TXNS], rel[BRUTE_MAX_TXNS];
    for (int k = 0; k < b->nkeys; k++) {
        /* version position of each txn on k: INIT 0, then the permutation */
        int vpos[BRUTE_MAX_TXNS];
        for (int t = 0; t < n; t++) vpos[t] = -1;
        vpos[0] = 0;
        for (int i = 0; i < b->nw[k]; i++) vpos[b->writers[k][b->perm[k][i]]] = i + 1;
        if (b->has_must)
            for (int a = 0; a < n; a++)
                for (int c = 0; c < n; c++)
                    if (b->must[k][a][c] && !(vpos[a] >= 0 && vpos[c] >= 0 && vpos[a] < vpos[c])) return 0;
        for (int a = 0; a < n; a++)
            for (int c = 0; c < n; c++)
                if (vpos[a] >= 0 && vpos[c] >= 0 && vpos[a] < vpos[c]) ww[a] |= 1u << c;
        for (int r = 0; r < n; r++) {
            int w = b->read_from[r][k];
            if (w < 0) continue;
            for (int c = 0; c < n; c++)
                if (c != r && vpos[c] > vpos[w]) rw[r] |= 1u << c;
        }
    }
    for (int i = 0; i < n; i++) d[i] = b->so[i] | b->wr[i] | ww[i];
    for (int i = 0; i < n; i++) {
        rel[i] = d[i];
        if (b->si) { for (int j = 0; j < n; j++) if (d[i] >> j & 1u) rel[i] |= rw[j]; }
        else rel[i] |= rw[i];
    }
    return brute_acyclic(rel, n);
}

/* Next permutation of p[0..m) in lexicographic order; 0 after the last. */
static int brute_next_perm(int *p, int m) {
    int i = m - 2;
    while (i >= 0 && p[i] >= p[i + 1]) i--;
    if (i < 0) return 0;
    int j = m - 1;
    while (p[j] <= p[i]) j--;
    int t = p[i]; p[i] = p[j]; p[j] = t;
    for (int a = i + 1, z = m - 1; a < z; a++, z--) { t = p[a]; p[a] = p[z]; p[z] = t; }
    return 1;
}

static int brute_search(brute_state *b, int k) {
    if (k == b->nkeys) return brute_eval(b);
    for (int i = 0; i < b->nw[k]; i++) b->perm[k][i] = i;
    do {
        if (brute_search(b, k + 1)) return 1;
    } while (brute_next_perm(b->perm[k], b->nw[k]));
    return 0;
}

/* brute_check with amend(b, ctx) called on the prepared state before the
 * search (it may set must[][][]); amend NULL: brute_check. */
static int brute_check_with(const history *h, int si, void (*amend)(brute_state *, void *), void *ctx);
static inline int brute_check(const history *h, int si) { return brute_check_with(h, si, NULL, NULL); }

static int brute_check_with(const history *h, int si, void (*amend)(brute_state *, void *), void *ctx) {
    brute_state b;
    memset(&b, 0, sizeof b);
    b.si = si;
    if (h->num_txns > BRUTE_MAX_TXNS || h->num_keys > BRUTE_MAX_KEYS) return -1;
    b.n = (int)h->num_txns;
    b.nkeys = (int)h->num_keys;
    int part[BRUTE_MAX_TXNS];
    for (int t = 0; t < b.n; t++) part[t] = t == 0 || h->txns[t].status == TXN_COMMITTED;
    for (int t = 0; t < b.n; t++) for (int k = 0; k < b.nkeys; k++) b.read_from[t][k] = -1;
    /* SO: the full session order between participants */
    for (int a = 1; a < b.n; a++)
        for (int c = 1; c < b.n; c++)
            if (part[a] && part[c] && h->txns[a].session == h->txns[c].session && h->txns[a].pos < h->txns[c].pos)
                b.so[a] |= 1u << c;
    for (int k = 0; k < b.nkeys; k++) {
        for (int t = 1; t < b.n; t++) {
            if (!part[t]) continue;
            int writes = 0;
            for (uint32_t i = 0; i < h->txns[t].num_ops; i++) {
                uint32_t op = h->txns[t].first_op + i;
                if (h->op_key[op] == (uint32_t)k && history_op_is_write(h, op)) writes = 1;
            }
            if (writes) {
                if (b.nw[k] == BRUTE_MAX_WRITERS) return -1;
                b.writers[k][b.nw[k]++] = t;
            }
        }
    }
    for (int t = 1; t < b.n; t++) {
        if (!part[t]) continue;
        for (uint32_t i = 0; i < h->txns[t].num_ops; i++) {
            uint32_t op = h->txns[t].first_op + i, k = h->op_key[op];
            int own_write_before = 0;
            int64_t own_value = 0;
            for (uint32_t j = 0; j < i; j++) {
                uint32_t o2 = h->txns[t].first_op + j;
                if (h->op_key[o2] == k && history_op_is_write(h, o2)) { own_write_before = 1; own_value = history_op_value(h, o2); }
            }
            if (!history_op_is_read(h, op)) continue;
            /* INT: after an own write the read sees it; a repeated read sees what the first did */
            if (own_write_before) { if (history_op_value(h, op) != own_value) return 0; continue; }
            if (b.read_from[t][k] >= 0) {
                for (uint32_t j = 0; j < i; j++) {
                    uint32_t o2 = h->txns[t].first_op + j;
                    if (h->op_key[o2] == k && history_op_is_read(h, o2)) { if (history_op_value(h, o2) != history_op_value(h, op)) return 0; break; }
                }
                continue;
            }
            uint32_t src = history_read_source(h, op);
            if (src == HISTORY_NONE) return -1;
            int w = (int)history_op_txn(h, src);
            if (w == t || !part[w]) return -1;
            /* the source must be w's last write of k */
            for (uint32_t j = 0; j < h->txns[w].num_ops && w != 0; j++) {
                uint32_t o2 = h->txns[w].first_op + j;
                if (o2 > src && h->op_key[o2] == k && history_op_is_write(h, o2)) return -1;
            }
            b.read_from[t][k] = w;
            if (w != 0) b.wr[w] |= 1u << t;
        }
    }
    if (amend) amend(&b, ctx);
    return brute_search(&b, 0);
}

#endif
