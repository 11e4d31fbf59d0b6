/* brute_levels_alt.h — the second opinions of the levels oracle
 * (tests/brute_levels.h): each level decided again from another of its
 * definitions, on the same participants, reads and relations (bv_prepare),
 * so that tests/test_levels_oracle.c can check the definitions against each
 * other.  Every level is decided by at least two methods.
 *
 * Method 2 (bv_graph_check, psi and up): dependency graphs (Adya; Cerone &
 * Gotsman).  Some per-key version order WW (INIT first; a list read's external prefix
 * must be its source's version, as in method 1)
 * with D = B ∪ WR ∪ WW and RW from each external read makes
 *   ser*  D ∪ RW acyclic;  si*  D ; RW? acyclic;  psi  D+ ; RW? irreflexive.
 *
 * Method 3 (bv_saturation_check: rc, ra, cc): their premises do not depend
 * on co, so a level holds iff  B ∪ {t2 → t1 : premise} ∪ L, with INIT
 * before everything, is acyclic, where L orders each list read's writers as
 * its prefix shows them (the prefix must be whole runs of their appends)
 * and puts the writers missing from it after the last one (Biswas & Enea's
 * polynomial algorithm for these levels).
 *
 * Method 4 (bv_replay_check: pc and the SI and SER levels): operational.
 * Some commit order extending B in which each transaction, replayed on the
 * state after a prefix of co (registers: the last value; lists: the appends
 * in order) that contains its session and real-time predecessors (and, for
 * SI, every earlier writer of a key it writes; for SER, everything before
 * it), returns what every read recorded. */
#ifndef ISOCHECK_TESTS_BRUTE_LEVELS_ALT_H
#define ISOCHECK_TESTS_BRUTE_LEVELS_ALT_H

#include <stdint.h>
#include <string.h>

#include "tests/brute_levels.h"

/* ---- method 2: version orders and dependency graphs ---------------------- */

typedef struct bv_graph {
    const bv_hist *b;
    int base, ax;
    int nw[BV_MAX_KEYS], w[BV_MAX_KEYS][BV_MAX_TXNS];   /* writers per key (INIT excluded), permuted */
} bv_graph;

static int bv_graph_eval(const bv_graph *g) {
    const bv_hist *b = g->b;
    int n = b->n;
    uint32_t d[BV_MAX_TXNS] = {0}, rw[BV_MAX_TXNS] = {0}, rel[BV_MAX_TXNS];
    int vpos[BV_MAX_KEYS][BV_MAX_TXNS];
    for (int k = 0; k < b->nkeys; k++) {
        for (int t = 0; t < n; t++) vpos[k][t] = -1;
        vpos[k][0] = 0;
        for (int i = 0; i < g->nw[k]; i++) vpos[k][g->w[k][i]] = i + 1;
        for (int a = 0; a < n; a++)
            for (int c = 0; c < n; c++)
                if (vpos[k][a] >= 0 && vpos[k][c] > vpos[k][a]) d[a] |= 1u << c;
    }
    for (int i = 0; i < b->nev; i++) {
        const bv_event *e = &b->ev[i];
        if (e->list) {
            int w[BV_MAX_TXNS + 1], nw = 0;
            w[nw++] = 0;
            for (int j = 0; j < g->nw[e->key] && e->src != 0; j++) {
                w[nw++] = g->w[e->key][j];
                if (g->w[e->key][j] == e->src) break;
            }
            if (!bv_list_matches(b, e->key, w, nw, e->el, e->len)) return 0;
        }
        for (int c = 0; c < n; c++)
            if (c != e->t && vpos[e->key][c] > vpos[e->key][e->src]) rw[e->t] |= 1u << c;
    }
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            if (b->base_in[g->base][q] >> p & 1u) d[p] |= 1u << q;
    if (g->ax == BV_AX_SER) {
        for (int i = 0; i < n; i++) rel[i] = d[i] | rw[i];
        return bv_acyclic(rel, n);
    }
    if (g->ax == BV_AX_SI) {
        for (int i = 0; i < n; i++) {
            rel[i] = d[i];
            for (int j = 0; j < n; j++) if (d[i] >> j & 1u) rel[i] |= rw[j];
        }
        return bv_acyclic(rel, n);
    }
    memcpy(rel, d, sizeof rel);                     /* psi: D+ ; RW? irreflexive */
    bv_closure(rel, n);
    for (int i = 0; i < n; i++) {
        if (rel[i] >> i & 1u) return 0;
        for (int j = 0; j < n; j++) if ((rel[i] >> j & 1u) && (rw[j] >> i & 1u)) return 0;
    }
    return 1;
}

static int bv_next_perm(int *p, int m) {
    int i = m - 2;
    while (i >= 0 && p[i] >= p[i + 1]) i--;
    if (i < 0) return 0;
    int j = m - 1;
    while (p[j] <= p[i]) j--;
    int t = p[i]; p[i] = p[j]; p[j] = t;
    for (int a = i + 1, z = m - 1; a < z; a++, z--) { t = p[a]; p[a] = p[z]; p[z] = t; }
    return 1;
}

static int bv_graph_search(bv_graph *g, int k) {
    if (k == g->b->nkeys) return bv_graph_eval(g);
    int *w = g->w[k];                               /* the first permutation: ascending */
    for (int i = 1; i < g->nw[k]; i++)
        for (int j = i; j > 0 && w[j - 1] > w[j]; j--) { int x = w[j]; w[j] = w[j - 1]; w[j - 1] = x; }
    do {
        if (bv_graph_search(g, k + 1)) return 1;
    } while (bv_next_perm(g->w[k], g->nw[k]));
    return 0;
}

/* psi and up by method 2 (rc, ra, cc: -1).  max_orders bounds the product
 * of the per-key version orders tried (beyond it: -1). */
static int bv_graph_check(const history *h, int level, const int64_t *inv, const int64_t *cmp, uint64_t max_orders) {
    static bv_hist b;
    int ax = bv_level_axiom[level];
    if (ax != BV_AX_PSI && ax != BV_AX_SI && ax != BV_AX_SER) return -1;
    bv_prepare(&b, h, inv, cmp);
    if (b.too_big) return -1;
    if (bv_level_base[level] == BV_BASE_REALTIME && !b.have_times) return -1;
    if (b.anomaly) return 0;
    bv_graph g;
    memset(&g, 0, sizeof g);
    g.b = &b; g.base = bv_level_base[level]; g.ax = ax;
    uint64_t cost = 1;
    for (int k = 0; k < b.nkeys; k++) {
        for (int p = 1; p < b.n; p++) if (b.writes[k] >> p & 1u) g.w[k][g.nw[k]++] = p;
        for (int f = 2; f <= g.nw[k]; f++) cost *= (uint64_t)f;
    }
    if (cost > max_orders) return -1;
    return bv_graph_search(&g, 0);
}

/* ---- method 3: saturation (rc, ra, cc) ------------------------------------ */

/* L for one list read e into out[]; 0 if its prefix is not whole runs. */
static int bv_list_edges(const bv_hist *b, const bv_event *e, uint32_t *out) {
    const history *h = b->h;
    uint32_t in_prefix = 0;
    int prev = 0;
    for (uint32_t i = 0; i < e->len;) {
        uint32_t w = bv_writer(h, (uint32_t)e->key, e->el[i]);
        if (w == UINT32_MAX || b->idx[history_op_txn(h, w)] <= 0) return 0;
        int p = b->idx[history_op_txn(h, w)];
        uint32_t n = b->app_len[p][e->key];
        if ((in_prefix >> p & 1u) || i + n > e->len || memcmp(e->el + i, &b->app[b->app_off[p][e->key]], n * sizeof *e->el))
            return 0;                               /* a writer's appends split, or repeated */
        in_prefix |= 1u << p;
        out[prev] |= 1u << p;                       /* the run before it (INIT first) */
        prev = p;
        i += n;
    }
    if (prev != e->src) return 0;
    out[prev] |= b->writes[e->key] & ~in_prefix & ~1u & ~(1u << prev);
    return 1;
}

static int bv_saturation_check(const history *h, int level) {
    static bv_hist b;
    int ax = bv_level_axiom[level];
    if (ax != BV_AX_RC && ax != BV_AX_RA && ax != BV_AX_CC) return -1;
    bv_prepare(&b, h, NULL, NULL);
    if (b.too_big) return -1;
    if (b.anomaly) return 0;
    uint32_t out[BV_MAX_TXNS] = {0};
    for (int q = 0; q < b.n; q++) {
        out[0] |= 1u << q;
        for (int p = 0; p < b.n; p++) if (b.base_in[BV_BASE_SESSION][q] >> p & 1u) out[p] |= 1u << q;
    }
    out[0] &= ~1u;
    for (int i = 0; i < b.nev; i++) {
        const bv_event *e = &b.ev[i];
        uint32_t p = ax == BV_AX_RC ? e->earlier : ax == BV_AX_RA ? b.base_in[BV_BASE_SESSION][e->t]
                                                                  : b.clos_in[BV_BASE_SESSION][e->t];
        p &= b.writes[e->key] & ~(1u << e->src) & ~(1u << e->t);
        for (int t2 = 0; t2 < b.n; t2++) if (p >> t2 & 1u) out[t2] |= 1u << e->src;
        if (e->list && !bv_list_edges(&b, e, out)) return 0;
    }
    return bv_acyclic(out, b.n);
}

/* ---- method 4: replay (pc, si*, ser*) ------------------------------------ */

typedef struct bv_store {
    int64_t reg[BV_MAX_KEYS];
    uint32_t len[BV_MAX_KEYS];
    int64_t el[BV_MAX_KEYS][BV_MAX_APPENDS];
} bv_store;

/* Transaction t's writes and appends on s, in program order. */
static void bv_replay_apply(const history *h, uint32_t t, bv_store *s) {
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        if (!bv_is_write(h, op)) continue;
        uint32_t k = h->op_key[op];
        if ((h->op_kind[op] & OP_KIND_MASK) == OP_WRITE) s->reg[k] = history_op_value(h, op);
        else if (s->len[k] < BV_MAX_APPENDS) s->el[k][s->len[k]++] = history_op_value(h, op);
    }
}

/* Run t on a copy of *from: 1 if every read returns what it recorded. */
static int bv_replay_reads(const history *h, uint32_t t, const bv_store *from, bv_store *s) {
    *s = *from;
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        if (h->op_kind[op] & OP_FAILED) continue;
        uint32_t k = h->op_key[op];
        switch (h->op_kind[op] & OP_KIND_MASK) {
        case OP_WRITE: s->reg[k] = history_op_value(h, op); break;
        case OP_APPEND: if (s->len[k] < BV_MAX_APPENDS) s->el[k][s->len[k]++] = history_op_value(h, op); break;
        case OP_READ: if (history_op_value(h, op) != s->reg[k]) return 0; break;
        default: {
            uint32_t n;
            const int64_t *l = history_list(h, op, &n);
            if (n != s->len[k] || (n && memcmp(l, s->el[k], n * sizeof *l))) return 0;
        }
        }
    }
    return 1;
}

typedef struct bv_replay {
    const bv_hist *b;
    int base, ax, found;
    int ord[BV_MAX_TXNS];
    uint32_t placed;
    bv_store states[BV_MAX_TXNS + 1];            /* states[j]: after ord[0..j) */
    bv_store scratch;
} bv_replay;

/* Each transaction, at position i of co, runs on the state after some
 * prefix of co of length s <= i that holds its base predecessors (session
 * order, real time: its snapshot must include them; WR: its reads need them
 * anyway) and, for SI, every earlier writer of a key it writes (first
 * committer wins); SER: s = i. */
static int bv_replay_leaf(bv_replay *r) {
    const bv_hist *b = r->b;
    const history *h = b->h;
    int n = b->n, pos[BV_MAX_TXNS];
    for (int i = 0; i < n; i++) pos[r->ord[i]] = i;
    for (int k = 0; k < BV_MAX_KEYS; k++) { r->states[1].reg[k] = VALUE_INIT; r->states[1].len[k] = 0; }
    for (int i = 1; i < n; i++) {
        r->states[i + 1] = r->states[i];
        bv_replay_apply(h, b->txn[r->ord[i]], &r->states[i + 1]);
    }
    for (int i = 1; i < n; i++) {
        int p = r->ord[i], lo = 1;
        for (int u = 1; u < n; u++) {
            int forced = (int)(b->base_in[r->base][p] >> u & 1u);   /* (its WR part the reads need anyway) */
            if (r->ax == BV_AX_SI && pos[u] < i && (b->wkeys[u] & b->wkeys[p])) forced = 1;
            if (forced && pos[u] + 1 > lo) lo = pos[u] + 1;
        }
        if (r->ax == BV_AX_SER) lo = i;
        int ok = 0;
        for (int sz = lo; sz <= i && !ok; sz++) ok = bv_replay_reads(h, b->txn[p], &r->states[sz], &r->scratch);
        if (!ok) return 0;
    }
    return 1;
}

static void bv_replay_orders(bv_replay *r, int depth) {
    const bv_hist *b = r->b;
    if (depth == b->n) { r->found = bv_replay_leaf(r); return; }
    for (int c = 1; c < b->n && !r->found; c++) {
        if (r->placed >> c & 1u) continue;
        if (b->base_in[r->base][c] & ~r->placed) continue;
        r->placed |= 1u << c;
        r->ord[depth] = c;
        bv_replay_orders(r, depth + 1);
        r->placed &= ~(1u << c);
    }
}

/* pc, si-plain, si, strong-si, ser-plain, ser, sser by replaying every
 * commit order (others: -1). */
static int bv_replay_check(const history *h, int level, const int64_t *inv, const int64_t *cmp) {
    static bv_hist b;
    static bv_replay r;
    int ax = bv_level_axiom[level];
    if (ax != BV_AX_PC && ax != BV_AX_SI && ax != BV_AX_SER) return -1;
    bv_prepare(&b, h, inv, cmp);
    if (b.too_big) return -1;
    if (bv_level_base[level] == BV_BASE_REALTIME && !b.have_times) return -1;
    if (b.anomaly) return 0;
    memset(&r, 0, sizeof r);
    r.b = &b; r.base = bv_level_base[level]; r.ax = ax;
    r.ord[0] = 0; r.placed = 1u;
    bv_replay_orders(&r, 1);
    return r.found;
}

#endif
