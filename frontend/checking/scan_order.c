/* scan_order.c — one key's writer-unit pairs, decided by transitivity.
 *
 * The group-by-group scan (constraints.c, scan_key_groups) asks the table,
 * for every unit U and every session of the key, how far U's head reaches
 * on that session: units x sessions lookups a key, each a row read, though
 * a key's units lie along the whole history and are mostly ordered one
 * after the other.  This scan asks far less, and derives the same windows,
 * covering candidates and covering edges:
 *
 *   Q(U, V) = T(head U) reaches V's WW entry node (pg_node_ww_in) is
 *   transitive (T(head V) follows V's entry node: T' -> T on the split
 *   graph; the same node elsewhere), and Q(U, V) needs T(head U) before
 *   T(head V) in the topological order (topo_pos).  In that order each
 *   unit's set of Q-predecessors is built as a bit set: the earlier units
 *   from the latest down, skipping those already in the set, and each one
 *   asked once (pg_reach_at); a yes adds that unit and its own set.  Mostly
 *   one or two lookups a unit.  The successor sets are the transpose, built
 *   backwards from the predecessor sets without a lookup.
 *
 * What the group scan derives, from these sets (the same when the table
 * holds every fact; with lost facts the two may decide different pairs,
 * each only on true facts: every fact derived here is one):
 *   - R(U, V), "U's entry node reaches V's", the group scan's suffixes and
 *     prefixes: Q(U, V) implies R(U, V) and Q(V, U) excludes it; only
 *     Q-incomparable pairs of the split graph (where U's entry node T' has
 *     arcs besides T' -> T) are asked;
 *   - the window pairs (different sessions, both tracked, neither R) and
 *     every pair with an untracked unit (tested, as the group scan does),
 *     to scan_pair_decide in the group scan's order: by unit, then by
 *     (session, position) of the other unit;
 *   - U's covering candidate on each session: the first unit of it that is
 *     after U (R, decided by the window pair, or U's next on its own
 *     session), tested with scan_side_implied, the edges of those not
 *     implied emitted by session order.  Candidates are visited in
 *     topological order; when side U<W is implied and Q(W, V), side U<V is
 *     implied too (last(U) reaches W's entry node, T(head W), V's entry
 *     node; a reader r reaches T(head W) or is head W itself), so V's test
 *     is skipped (rr: only for a unit without readers, whose RW edges count
 *     as themselves).
 * Bit sets take 3 n^2 / 64 words for n units: keys with more than
 * pg_scan_order_max units are scanned group by group. */
#include "frontend/checking/scan.h"

#include <string.h>

typedef uint64_t word;
#define WBIT(i) ((word)1 << ((i) & 63u))

/* Ascending, in place: insertion below 24, else quicksort on the median
 * of three, the smaller side first by recursion (depth log n), heapsort
 * past 2 log n levels (never quadratic).  Comparisons inline: most keys'
 * lists are a few dozen, where qsort's calls through a pointer were the
 * cost.  The values are distinct (unit or rank in the low half), so the
 * order is the one any sort gives. */
static void insert_u64(uint64_t *a, size_t n) {
    for (size_t i = 1; i < n; i++) {
        uint64_t x = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
        a[j] = x;
    }
}
static void sift_u64(uint64_t *a, size_t i, size_t n) {
    uint64_t x = a[i];
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && a[c + 1] > a[c]) c++;
        if (a[c] <= x) break;
        a[i] = a[c];
    }
    a[i] = x;
}
static void heap_u64(uint64_t *a, size_t n) {
    for (size_t i = n / 2; i-- > 0;) sift_u64(a, i, n);
    for (size_t e = n; e-- > 1;) {
        uint64_t t = a[0]; a[0] = a[e]; a[e] = t;
        sift_u64(a, 0, e);
    }
}
static void quick_u64(uint64_t *a, size_t n, unsigned depth) {
    while (n > 24) {
        if (depth-- == 0) { heap_u64(a, n); return; }
        uint64_t x = a[0], y = a[n / 2], z = a[n - 1];
        uint64_t piv = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        size_t i = 0, j = n - 1;
        for (;;) {                       /* Hoare: a[0..j] <= piv <= a[j+1..n) */
            while (a[i] < piv) i++;
            while (a[j] > piv) j--;
            if (i >= j) break;
            uint64_t t = a[i]; a[i] = a[j]; a[j] = t;
            i++; j--;
        }
        size_t l = j + 1;                /* both sides non-empty: piv is an element */
        if (l < n - l) { quick_u64(a, l, depth); a += l; n -= l; }
        else { quick_u64(a + l, n - l, depth); n = l; }
    }
    insert_u64(a, n);
}
static void sort_u64(uint64_t *a, size_t n) {
    unsigned depth = 0;
    for (size_t m = n; m > 1; m >>= 1) depth += 2;
    quick_u64(a, n, depth);
}

/* Key units s + 1 .. s + n1 by the topological position of their head's
 * commit node into sc->ord; sc->rank_of[u - s] is u's place there. */
static void order_units(const polygraph *g, uint32_t s, uint32_t n1, scan_scratch *sc) {
    const pg_index *ix = g->ix;
    vec_clear(sc->keys);
    for (uint32_t u = s + 1; u <= s + n1; u++)
        vec_push(sc->keys, (uint64_t)g->topo_pos[pg_node_t(g, ix->units.data[u].head)] << 32 | u);
    sort_u64(sc->keys.data, n1);
    vec_resize(sc->ord, n1);
    vec_resize(sc->rank_of, (size_t)n1 + 1);
    for (uint32_t r = 0; r < n1; r++) {
        uint32_t u = (uint32_t)sc->keys.data[r], hd = ix->units.data[u].head;
        scan_ord *o = &sc->ord.data[r];
        o->unit = u;
        o->tnode = pg_node_t(g, hd);
        o->xnode = pg_node_ww_in(g, hd);
        o->xchain = g->chain_of_session[pg_txn_session(ix, hd)];
        o->xpos = pg_node_pos(g, o->xnode);
        o->tpos = pg_node_pos(g, o->tnode);
        o->row = g->reach ? pg_reach_row(g, o->tnode) : NULL;   /* a commit: it has a row */
        o->rhead = o->row ? pg_load32(o->row) : 0;               /* its first miss: here the units' overlap */
        if (o->row) { HISTORY_PREFETCH(o->row + g->reach_stride / 2); HISTORY_PREFETCH(o->row + g->reach_stride - 1); }
        o->xcls = o->row && !pg_reach_has_row(g, o->xnode) ? g->sclass[hd] : 0;   /* (a miss too) */
        o->idx = sc->idx_of.data[u - s];
        o->grp = sc->group_of.data[u - s];
        sc->rank_of.data[u - s] = r;
    }
}

/* pred[r]: the ranks q < r with Q(q, r).  An untracked unit's entry node
 * has no column: nothing is known to reach it. */
static void closure_pred(const polygraph *g, const scan_ord *o, uint32_t n1, uint32_t W, word *pred) {
    for (uint32_t r = 0; r < n1; r++) {
        word *pr = pred + (size_t)r * W;
        memset(pr, 0, W * sizeof *pr);
        uint32_t c = o[r].xchain, p = o[r].xpos;
        if (c == UINT32_MAX) continue;
        for (uint32_t wi = r / 64 + 1; wi-- > 0;) {
            word lim = wi < r / 64 ? ~(word)0 : WBIT(r) - 1;
            word m = ~pr[wi] & lim;
            while (m) {
                uint32_t b = 63u - (uint32_t)__builtin_clzll(m), q = wi * 64 + b;
                if (pg_reach_row_head_at(g, o[q].row, o[q].rhead, c) <= p) {   /* pg_reach_at(tnode, c) */
                    const word *pq = pred + (size_t)q * W;
                    for (uint32_t x = 0; x <= wi; x++) pr[x] |= pq[x];
                    pr[wi] |= WBIT(b);
                }
                m = ~pr[wi] & lim & (WBIT(b) - 1);
            }
        }
    }
}

/* succ[r]: the ranks q > r with Q(r, q), the transpose of pred, built
 * from the latest rank down (q in pred[q'] is a bit test). */
static void closure_succ(uint32_t n1, uint32_t W, const word *pred, word *succ) {
    for (uint32_t r = n1; r-- > 0;) {
        word *sr = succ + (size_t)r * W;
        memset(sr, 0, W * sizeof *sr);
        uint32_t rw = r / 64;
        word rb = WBIT(r);
        for (uint32_t wi = rw; wi < W; wi++) {
            word lim = wi > rw ? ~(word)0 : ~(rb | (rb - 1));
            if (wi == W - 1 && n1 % 64) lim &= WBIT(n1) - 1;
            word m = lim & ~sr[wi];
            while (m) {
                uint32_t b = (uint32_t)__builtin_ctzll(m), q = wi * 64 + b;
                if (pred[(size_t)q * W + rw] & rb) {
                    const word *sq = succ + (size_t)q * W;
                    for (uint32_t x = wi; x < W; x++) sr[x] |= sq[x];
                    sr[wi] |= WBIT(b);
                }
                m = lim & ~sr[wi] & ~(WBIT(b) | (WBIT(b) - 1));
            }
        }
    }
}

/* scan_reaches_at(g, o->xnode, c, p) with what order_units read: a start
 * node of a half table has no row; its fixed arc reaches its own commit,
 * whose row is o->row. */
static inline int ord_reaches_at(const polygraph *g, const scan_ord *o, uint32_t c, uint32_t p) {
    if (c == HISTORY_NONE) return 0;
    if (!o->row || pg_reach_has_row(g, o->xnode)) return scan_reaches_at(g, o->xnode, c, p);
    if ((o->xcls & PG_SOUT_OWN) && pg_reach_row_head_at(g, o->row, o->rhead, c) <= p) return 1;
    uint32_t t = o->xnode >> 1;
    if (o->xcls & PG_SOUT_MORE)
        for (uint32_t j = g->sout_start[t]; j < g->sout_start[t + 1]; j++)
            if (pg_reach_row_at(g, g->reach + (size_t)g->sout[j] * g->reach_stride, c) <= p) return 1;
    return pg_node_chain(g, o->xnode) == c && o->xpos <= p;
}

/* The key's bit sets, W words each. */
typedef struct key_sets {
    uint32_t n1, W;
    word *pred, *succ, *aft;     /* per rank; aft: after U by R (Q-incomparable), window pair, next on U's session */
    word *gmask, *trk, *x, *y;   /* per group its ranks; the tracked ranks; scratch */
} key_sets;

/* The window pairs of unit u, each to scan_pair_decide in the group
 * scan's order (other unit's sorted place); R of Q-incomparable tracked
 * pairs into aft.  0 when a pair fails.  The pairs u visits are those
 * that visit u (the masks are symmetric: group, tracked, pred and succ
 * transposed), so a pair's R both ways is asked once, at the turn of its
 * lower unit, which sets the higher unit's aft bit too (aft is read only
 * once every unit's windows are done). */
static int unit_windows(const polygraph *g, uint32_t k, uint32_t u, uint32_t r, scan_scratch *sc, key_sets *ks,
                        scan_out *out) {
    const scan_ord *o = sc->ord.data, *ou = &o[r];
    uint32_t W = ks->W;
    int need_r = g->split && !g->ww_commit;      /* else Q is R */
    const word *gm = ks->gmask + (size_t)ou->grp * W, *pr = ks->pred + (size_t)r * W, *sr = ks->succ + (size_t)r * W;
    word *ar = ks->aft + (size_t)r * W;
    vec_clear(sc->keys);
    for (uint32_t wi = 0; wi < W; wi++) {
        word m = ~gm[wi];
        if (wi == W - 1 && ks->n1 % 64) m &= WBIT(ks->n1) - 1;
        if (ou->xchain != UINT32_MAX) m &= ~((pr[wi] | sr[wi]) & ks->trk[wi]);
        while (m) {
            uint32_t b = (uint32_t)__builtin_ctzll(m), q = wi * 64 + b;
            m &= m - 1;
            const scan_ord *ov = &o[q];
            if (ov->unit < u) continue;          /* the pair's R and window: done at ov's turn */
            int window = 1;
            if (need_r && ou->xchain != UINT32_MAX && ov->xchain != UINT32_MAX) {
                int ruv = ord_reaches_at(g, ou, ov->xchain, ov->xpos);
                int rvu = ord_reaches_at(g, ov, ou->xchain, ou->xpos);
                if (ruv) ar[wi] |= WBIT(b);
                if (rvu) ks->aft[(size_t)q * W + r / 64] |= WBIT(r);
                window = !ruv && !rvu;
            }
            if (window) vec_push(sc->keys, (uint64_t)ov->idx << 32 | q);
        }
    }
    sort_u64(sc->keys.data, sc->keys.len);
    for (size_t i = 0; i < sc->keys.len; i++) {
        uint32_t q = (uint32_t)sc->keys.data[i];
        int d = scan_pair_decide(g, u, o[q].unit, k, out);
        if (d == SCAN_FAIL) return 0;
        if (d == SCAN_BEFORE) ar[q / 64] |= WBIT(q);
        else if (d == SCAN_AFTER) ks->aft[(size_t)q * W + r / 64] |= WBIT(r);
    }
    return 1;
}

/* Unit u's covering edges: of the units in after (W words), the first of
 * each group, those whose side is not implied, by group. */
static void unit_covering(const polygraph *g, uint32_t u, const word *after, scan_scratch *sc, key_sets *ks,
                          scan_out *out) {
    const scan_ord *o = sc->ord.data;
    uint32_t W = ks->W;
    int coverable = !g->prw || pg_unit_rd_num(&g->ix->units.data[u]) == 0;
    word *x = ks->x;
    memset(x, 0, W * sizeof *x);
    vec_clear(sc->keys);
    for (uint32_t wi = 0; wi < W;) {
        word m = after[wi] & ~x[wi];
        if (!m) { wi++; continue; }
        uint32_t q = wi * 64 + (uint32_t)__builtin_ctzll(m);
        const word *gm = ks->gmask + (size_t)o[q].grp * W;
        for (uint32_t j = 0; j < W; j++) x[j] |= gm[j];
        if (!scan_side_implied_at(g, u, o[q].unit, o[q].xchain, o[q].xpos, o[q].tpos))
            vec_push(sc->keys, (uint64_t)o[q].idx << 32 | q);
        else if (coverable) {
            const word *sq = ks->succ + (size_t)q * W;
            for (uint32_t j = wi; j < W; j++) x[j] |= sq[j];
        }
    }
    sort_u64(sc->keys.data, sc->keys.len);
    for (size_t i = 0; i < sc->keys.len; i++)
        out->edges_covering += pg_side_edges(g, u, o[(uint32_t)sc->keys.data[i]].unit, &sc->deps, &out->edges);
}

/* The key's bit sets, with pred, succ, the groups, the tracked units
 * and each unit's next on its own session (in aft). */
static void key_sets_build(const polygraph *g, uint32_t s, uint32_t n1, uint32_t G, scan_scratch *sc, key_sets *ks) {
    uint32_t W = (n1 + 63) / 64;
    size_t words = (size_t)(3 * (size_t)n1 + G + 3) * W;
    vec_resize(sc->bits, words);
    word *b = sc->bits.data;
    *ks = (key_sets){ n1, W, b, b + (size_t)n1 * W, b + 2 * (size_t)n1 * W, b + 3 * (size_t)n1 * W,
                      b + (3 * (size_t)n1 + G) * W, b + (3 * (size_t)n1 + G + 1) * W, b + (3 * (size_t)n1 + G + 2) * W };
    memset(ks->aft, 0, (size_t)(n1 + G + 1) * W * sizeof *b);
    order_units(g, s, n1, sc);
    const scan_ord *o = sc->ord.data;
    const unit_at *sorted = sc->sorted.data;
    for (uint32_t r = 0; r < n1; r++) {
        ks->gmask[(size_t)o[r].grp * W + r / 64] |= WBIT(r);
        if (o[r].xchain != UINT32_MAX) ks->trk[r / 64] |= WBIT(r);
        uint32_t i = o[r].idx;
        if (i + 1 < n1 && sorted[i + 1].session == sorted[i].session) {
            uint32_t q = sc->rank_of.data[sorted[i + 1].unit - s];
            ks->aft[(size_t)r * W + q / 64] |= WBIT(q);
        }
    }
    closure_pred(g, o, n1, W, ks->pred);
    closure_succ(n1, W, ks->pred, ks->succ);
}

/* The rows scan_side_implied_at reads when unit u's covering candidates
 * are tested (unit_covering): its last writer's commit node's and each
 * reader's start node's (its class and own commit's row on a half table;
 * rows of its other arcs are not asked).  A node's row is found from u
 * alone, the chain asked from the candidate: fetched a few units ahead,
 * the misses overlap instead of coming one test after another.  Hints. */
#define COVER_AHEAD 4u
#define COVER_READERS 4u
static inline void row_fetch(const polygraph *g, uint32_t x) {
    const uint8_t *r;
    if (pg_reach_has_row(g, x)) r = pg_reach_row(g, x);
    else {
        __builtin_prefetch(&g->sclass[x >> 1]);
        r = g->reach + (size_t)(x >> 1) * g->reach_stride;
    }
    for (uint32_t o = 0; o < g->reach_stride; o += 64) __builtin_prefetch(r + o);
    __builtin_prefetch(r + g->reach_stride - 1);
}
static inline void cover_fetch(const polygraph *g, uint32_t u) {
    const pg_index *ix = g->ix;
    const pg_unit *U = &ix->units.data[u];
    if (U->last != 0) row_fetch(g, pg_node_t(g, U->last));
    uint32_t n = pg_unit_rd_num(U);
    for (uint32_t j = 0; j < n && j < COVER_READERS; j++) row_fetch(g, pg_node_tp(g, ix->readers.data[U->rd_first + j]));
}

int scan_key_order(const polygraph *g, uint32_t k, scan_scratch *sc, scan_out *out) {
    const pg_index *ix = g->ix;
    uint32_t s = ix->key_unit_start[k], e = ix->key_unit_start[k + 1], n = e - s;
    if (n < 2) return 1;
    uint32_t n1 = n - 1;                          /* units besides INIT's */
    uint64_t m = n1;
    out->pairs_total += m * (m - 1) / 2;
    size_t cons_before = out->cons.len;
    uint32_t G = scan_groups(g, k, sc);
    /* INIT's unit: first on the key.  Its order is fixed, but the side
     * INIT<V may still close a cycle (a violation). */
    for (uint32_t v = s + 1; v < e; v++)
        if (pg_side_blocked(g, s, v)) {
            snprintf(out->fail_reason, sizeof out->fail_reason, "key %u: a writer cannot come after the initial version", k);
            return 0;
        }
    key_sets ks;
    key_sets_build(g, s, n1, G, sc, &ks);
    for (uint32_t u = s + 1; u < e; u++)
        if (!unit_windows(g, k, u, sc->rank_of.data[u - s], sc, &ks, out)) return 0;
    out->pairs_decided += m * (m - 1) / 2 - (out->cons.len - cons_before);
    int fetch = g->reach != NULL;
    for (uint32_t u = s + 1; u < e && u <= s + COVER_AHEAD && fetch; u++) cover_fetch(g, u);
    /* INIT's candidates: the first unit of every group */
    word *all = ks.y;
    for (uint32_t j = 0; j < ks.W; j++) all[j] = ~(word)0;
    if (n1 % 64) all[ks.W - 1] = WBIT(n1) - 1;
    unit_covering(g, s, all, sc, &ks, out);
    word *after = ks.y;
    for (uint32_t u = s + 1; u < e; u++) {
        if (fetch && u + COVER_AHEAD < e) cover_fetch(g, u + COVER_AHEAD);
        uint32_t r = sc->rank_of.data[u - s];
        const word *sr = ks.succ + (size_t)r * ks.W, *ar = ks.aft + (size_t)r * ks.W;
        int tracked = sc->ord.data[r].xchain != UINT32_MAX;
        for (uint32_t j = 0; j < ks.W; j++) after[j] = (tracked ? sr[j] : 0) | ar[j];
        unit_covering(g, u, after, sc, &ks, out);
    }
    return 1;
}
