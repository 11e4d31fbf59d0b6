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
 *   that value — of the keys it covers (bp_pred.keyed: a declared key
 *   range; a key outside it is never returned).  A transaction sees its own writes.
 *
 * Snapshot isolation (bp_snapshot_isolation), from the same definition
 * with snapshots: some commit order and, for every transaction, a snapshot
 * point no later than its commit (a prefix of the order) such that every read
 * sees the state after that prefix plus the transaction's own writes, and no
 * two transactions that write a common key are concurrent (neither committed
 * before the other's snapshot).  Predicate reads read the snapshot as item
 * reads do.  Every transaction is its own session (no session order).
 *
 * Adya's dependency graphs (bp_adya: PL-3 = ser without session order,
 * PL-2.99 = rr), literally: for some version order of every key (INIT's
 * version first, then each writer's last write of it) and some version of
 * every key in every read's view — an item read's a version with the value
 * it returned; a predicate read's version set one version of every key: a
 * returned key's with the value returned (which must match), an unreturned
 * key's absent or not matching; a transaction's own earlier write is what
 * it reads; a view of a key the transaction writes afterwards precedes its
 * own version in the version order (it read before it wrote: Adya's graph
 * has no edge for that when the version viewed changes no match) — build
 * the DSG over the transactions:
 *   item reads and returned keys  WR from the writer of the version read,
 *                                 item RW to the writer of the next version;
 *   an unreturned key's version   predicate WR from the writer of every version
 *                                 up to it that changes the matches (it
 *                                 matches and the previous one does not, or
 *                                 the other way round), predicate RW to the
 *                                 writer of every later one that does;
 *   WW                            consecutive versions.
 * PL-3: no cycle.  PL-2.99: no cycle of WW and WR edges (item or predicate:
 * G1c) and no item RW edge on any cycle (G2-item).  With one_snapshot, a
 * transaction's reads of a key (item and predicate alike) view one version
 * (isocheck's model, doc/checker.md "Predicate reads"); without it each
 * read chooses its own, as in Adya's model (Clark et al.'s Fig. 4 passes rr
 * only then).  PL-3 agrees with bp_serializable either way (a test).
 * one_snapshot 2 is the reduction of doc/levels.md "rr" ("Adya's model,
 * reduced"): a transaction's item reads of a key (returned keys included)
 * view one version q; a predicate view of that key that q matches becomes
 * "some non-matching version, not the transaction's, precedes q" and one
 * predicate RW edge to the version after the latest such one; a predicate
 * view of a key without item reads is a choice of its own.  It must decide
 * as 0 does (tests/test_predicates.c). 
 *
 * Read committed (bp_rc, below): Biswas & Enea's axiom with each read and
 * each predicate read's view of a key choosing its own version (rc allows
 * non-repeatable reads), a predicate read's views all at its place.
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

/* keyed: the read covers the keys klo..khi only (a declared key range): a
 * key outside it is not in its universe (no view of it, nothing it must
 * return), and a key outside it returned is a mismatch. */
typedef struct bp_pred { int kind; long a, b; int keyed, klo, khi; } bp_pred;

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

static inline int bp_covers(const bp_pred *p, int k) { return !p->keyed || (p->klo <= k && k <= p->khi); }

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
                int m = bp_covers(&o->p, k) && st[k] != BP_ABSENT && bp_match(&o->p, st[k]);
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

/* ---- Adya's dependency graphs ------------------------------------------- */

#define BP_MAX_VERS (BP_MAX_TXNS + 1)
#define BP_MAX_GROUPS (BP_MAX_TXNS * BP_MAX_OPS * BP_MAX_KEYS)
#define BP_ADYA_LIMIT 400000L            /* assignments tried at most (else undecided) */

typedef struct bp_group {                /* reads of one key by one transaction that view one version */
    int t, key, item;                    /* item: an item read or a returned key among them */
    int own;                             /* t's own version of key (it writes it afterwards), or -1 */
    int npred;
    bp_pred pred[BP_MAX_OPS];            /* the predicates of its unreturned-key views */
    uint32_t cand;                       /* versions it may view (bits of version indices) */
    uint32_t icand, pc[BP_MAX_OPS];      /* mode 2: the item reads' candidates, each predicate view's */
} bp_group;

typedef struct bp_adya_st {
    const bp_hist *h;
    int nver[BP_MAX_KEYS];               /* versions of the key: 0 INIT's, then writers' */
    int wr[BP_MAX_KEYS][BP_MAX_VERS];    /* writer transaction (-1: INIT) */
    long val[BP_MAX_KEYS][BP_MAX_VERS];  /* value, BP_ABSENT */
    int ord[BP_MAX_KEYS][BP_MAX_VERS];   /* the version order: version indices, INIT first */
    int ng;
    bp_group g[BP_MAX_GROUPS];
    int pick[BP_MAX_GROUPS];
    int rr, ok;
    int mode;                            /* one_snapshot as given to bp_adya (0, 1 or 2) */
} bp_adya_st;

static inline int bp_vmatch(const bp_pred *p, long v) { return v != BP_ABSENT && bp_match(p, v); }

/* Collect the versions and the reads' groups; 0 if a read contradicts the
 * transaction's own write or returns what nobody wrote (no level holds). */
static inline int bp_adya_prepare(bp_adya_st *a, const bp_hist *h, int one_snapshot) {
    memset(a, 0, sizeof *a);
    a->h = h;
    a->mode = one_snapshot;
    for (int k = 0; k < h->nkeys; k++) { a->nver[k] = 1; a->wr[k][0] = -1; a->val[k][0] = h->init[k]; }
    for (int t = 0; t < h->ntx; t++)
        for (int k = 0; k < h->nkeys; k++) {
            int w = 0; long v = 0;
            for (int i = 0; i < h->tx[t].nops; i++) {
                const bp_op *o = &h->tx[t].ops[i];
                if (o->key == k && (o->kind == BP_W || o->kind == BP_DEL)) { w = 1; v = o->kind == BP_W ? o->val : BP_ABSENT; }
            }
            if (w) { a->wr[k][a->nver[k]] = t; a->val[k][a->nver[k]++] = v; }
        }
    for (int t = 0; t < h->ntx; t++) {
        long own[BP_MAX_KEYS]; int has[BP_MAX_KEYS] = {0};
        int first = a->ng;
        for (int i = 0; i < h->tx[t].nops; i++) {
            const bp_op *o = &h->tx[t].ops[i];
            if (o->kind == BP_W || o->kind == BP_DEL) { has[o->key] = 1; own[o->key] = o->kind == BP_W ? o->val : BP_ABSENT; continue; }
            for (int k = 0; k < h->nkeys; k++) {
                if (o->kind == BP_R && k != o->key) continue;
                long want = o->kind == BP_R ? o->val : o->res[k];
                if (o->kind == BP_RP && !bp_covers(&o->p, k)) { if (want != BP_ABSENT) return 0; continue; }   /* outside its keys */
                int item = o->kind == BP_R || want != BP_ABSENT;
                if (o->kind == BP_RP && want != BP_ABSENT && !bp_match(&o->p, want)) return 0;   /* a mismatch */
                if (has[k]) {                    /* its own version */
                    if (o->kind == BP_R ? own[k] != want : (bp_vmatch(&o->p, own[k]) ? own[k] : BP_ABSENT) != want) return 0;
                    continue;
                }
                uint32_t cand = 0;
                for (int v = 0; v < a->nver[k]; v++) {
                    if (a->wr[k][v] == t) continue;
                    if (item ? a->val[k][v] == want : !bp_vmatch(&o->p, a->val[k][v])) cand |= 1u << v;
                }
                int gi = -1;
                if (one_snapshot)
                    for (int j = first; j < a->ng && gi < 0; j++) if (a->g[j].key == k) gi = j;
                if (gi < 0) {
                    gi = a->ng++;
                    a->g[gi].t = t; a->g[gi].key = k; a->g[gi].cand = a->g[gi].icand = ~0u; a->g[gi].own = -1;
                    for (int v = 0; v < a->nver[k]; v++) if (a->wr[k][v] == t) a->g[gi].own = v;
                }
                bp_group *g = &a->g[gi];
                if (one_snapshot == 2 && !item) g->pc[g->npred] = cand;
                if (item) g->item = 1;
                else g->pred[g->npred++] = o->p;
                if (one_snapshot == 2) { if (item) g->icand &= cand; continue; }
                g->cand &= cand;
                if (!g->cand) return 0;
            }
        }
    }
    /* mode 2: a group with an item read views the item reads' version (its
     * predicate views: bp_adya_graph_ok's reduction); without one, each
     * predicate view is a group of its own (Adya's) */
    for (int gi = 0, n = a->ng; one_snapshot == 2 && gi < n; gi++) {
        bp_group *g = &a->g[gi];
        if (g->item) { g->cand = g->icand; if (!g->cand) return 0; continue; }
        for (int j = 1; j < g->npred; j++) {
            bp_group *x = &a->g[a->ng++];
            *x = *g;
            x->npred = 1; x->pred[0] = g->pred[j]; x->cand = g->pc[j];
            if (!x->cand) return 0;
        }
        g->npred = 1; g->cand = g->pc[0];
        if (!g->cand) return 0;
    }
    return 1;
}

/* The DSG of the current version orders and picks: 1 if the level holds. */
static inline int bp_adya_graph_ok(const bp_adya_st *a) {
    const bp_hist *h = a->h;
    int n = h->ntx;
    uint32_t dep[BP_MAX_TXNS] = {0}, all[BP_MAX_TXNS] = {0};
    int irw_from[BP_MAX_GROUPS], irw_to[BP_MAX_GROUPS], nirw = 0;
#define BP_EDGE(x, y, isdep) do { if ((x) >= 0 && (y) >= 0 && (x) != (y)) { all[x] |= 1u << (y); if (isdep) dep[x] |= 1u << (y); } } while (0)
    for (int k = 0; k < h->nkeys; k++)
        for (int i = 1; i + 1 < a->nver[k]; i++) BP_EDGE(a->wr[k][a->ord[k][i]], a->wr[k][a->ord[k][i + 1]], 1);
    for (int gi = 0; gi < a->ng; gi++) {
        const bp_group *g = &a->g[gi];
        int k = g->key, nv = a->nver[k], pos = 0, own = -1;
        for (int i = 0; i < nv; i++) {
            if (a->ord[k][i] == a->pick[gi]) pos = i;
            if (a->ord[k][i] == g->own) own = i;
        }
        if (own >= 0 && own < pos) return 0;     /* it read a version after its own */
        if (g->item) {
            BP_EDGE(a->wr[k][a->pick[gi]], g->t, 1);
            if (pos + 1 < nv) {
                int to = a->wr[k][a->ord[k][pos + 1]];
                BP_EDGE(g->t, to, 0);
                if (to != g->t) { irw_from[nirw] = g->t; irw_to[nirw++] = to; }
            }
        }
        for (int j = 0; j < g->npred; j++) {
            if (a->mode == 2 && g->item && bp_vmatch(&g->pred[j], a->val[k][a->pick[gi]])) {
                /* the reduction: the view is the latest non-matching version before
                 * the item reads' (none: fail); one predicate RW edge to the next */
                int i = pos - 1;
                while (i >= 0 && (a->wr[k][a->ord[k][i]] == g->t || bp_vmatch(&g->pred[j], a->val[k][a->ord[k][i]]))) i--;
                if (i < 0) return 0;
                BP_EDGE(g->t, a->wr[k][a->ord[k][i + 1]], 0);
                continue;
            }
            for (int i = 1; i < nv; i++) {
                int x = a->ord[k][i], prev = a->ord[k][i - 1];
                if (bp_vmatch(&g->pred[j], a->val[k][x]) == bp_vmatch(&g->pred[j], a->val[k][prev])) continue;
                if (i <= pos) BP_EDGE(a->wr[k][x], g->t, 1);      /* predicate WR */
                else BP_EDGE(g->t, a->wr[k][x], 0);               /* predicate RW */
            }
        }
    }
#undef BP_EDGE
    for (int it = 0; it < n; it++)
        for (int x = 0; x < n; x++)
            for (int y = 0; y < n; y++) {
                if (dep[x] >> y & 1u) dep[x] |= dep[y];
                if (all[x] >> y & 1u) all[x] |= all[y];
            }
    if (!a->rr) { for (int x = 0; x < n; x++) if (all[x] >> x & 1u) return 0; return 1; }
    for (int x = 0; x < n; x++) if (dep[x] >> x & 1u) return 0;                       /* G1c */
    for (int i = 0; i < nirw; i++) if (all[irw_to[i]] >> irw_from[i] & 1u) return 0;  /* G2-item */
    return 1;
}

static inline void bp_adya_picks(bp_adya_st *a, int gi) {
    if (a->ok) return;
    if (gi == a->ng) { a->ok = bp_adya_graph_ok(a); return; }
    for (int v = 0; v < BP_MAX_VERS && !a->ok; v++)
        if (a->g[gi].cand >> v & 1u) { a->pick[gi] = v; bp_adya_picks(a, gi + 1); }
}

/* Version orders key by key (Heap's-free: swap-based permutations of positions 1..). */
static inline void bp_adya_orders(bp_adya_st *a, int k, int i) {
    if (a->ok) return;
    if (k == a->h->nkeys) { bp_adya_picks(a, 0); return; }
    int n = a->nver[k];
    if (i >= n) { bp_adya_orders(a, k + 1, 1); return; }
    for (int j = i; j < n && !a->ok; j++) {
        int t = a->ord[k][i]; a->ord[k][i] = a->ord[k][j]; a->ord[k][j] = t;
        bp_adya_orders(a, k, i + 1);
        t = a->ord[k][i]; a->ord[k][i] = a->ord[k][j]; a->ord[k][j] = t;
    }
}

/* 1 if h satisfies Adya's PL-2.99 (rr) or PL-3 (!rr), 0 if not, -1 if too
 * many assignments to try. */
static inline int bp_adya(const bp_hist *h, int rr, int one_snapshot) {
    static bp_adya_st a;                 /* large: not on the stack */
    if (!bp_adya_prepare(&a, h, one_snapshot)) return 0;
    a.rr = rr;
    double combos = 1;
    for (int k = 0; k < h->nkeys; k++) {
        for (int v = 0; v < a.nver[k]; v++) a.ord[k][v] = v;
        for (int f = 2; f < a.nver[k]; f++) combos *= f;
    }
    for (int gi = 0; gi < a.ng; gi++) combos *= __builtin_popcount(a.g[gi].cand);
    if (combos > BP_ADYA_LIMIT) return -1;
    bp_adya_orders(&a, 0, 1);
    return a.ok;
}

/* ---- read committed ------------------------------------------------------ */

/* rc (doc/levels.md: Biswas & Enea's axiom, Plume's MonoAtomicView), every
 * transaction its own session: some commit order co ⊇ WR such that for
 * every external read α of x by t3 from t1 and every t2 ∉ {t1, t3} writing
 * x from which t3 read another key y in an external read before α, t2 co
 * t1.  A predicate read is one read at its place in the transaction: its
 * view of every key it covers (a returned key's version with the value
 * returned, which must match; an unreturned key's any version that does not
 * match: absent, or a value the predicate rejects), none of its views
 * earlier than another; each read and each view chooses its own version
 * (rc allows a transaction's reads of a key to differ), never the reader's
 * own later one; after an own write of the key a read shows that write.
 * The premise does not depend on co, so rc holds iff some choice leaves the
 * graph of WR and premise edges acyclic with INIT first (a premise edge into
 * INIT: the read saw INIT's version although a visible writer overwrote it).
 * 1, 0, or -1 when there are too many choices. */
#define BP_RC_MAX_READS (BP_MAX_TXNS * BP_MAX_OPS * BP_MAX_KEYS)
typedef struct bp_rc_read { int t, key, pos, nc; int cand[BP_MAX_VERS]; } bp_rc_read;
typedef struct bp_rc_st {
    const bp_hist *h;
    int nver[BP_MAX_KEYS], wr[BP_MAX_KEYS][BP_MAX_VERS];
    long val[BP_MAX_KEYS][BP_MAX_VERS];
    int n;
    bp_rc_read r[BP_RC_MAX_READS];
    int pick[BP_RC_MAX_READS];
} bp_rc_st;

static inline int bp_rc_writes(const bp_hist *h, int t, int k) {
    for (int i = 0; i < h->tx[t].nops; i++)
        if ((h->tx[t].ops[i].kind == BP_W || h->tx[t].ops[i].kind == BP_DEL) && h->tx[t].ops[i].key == k) return 1;
    return 0;
}

/* The graph of the current picks: 1 if acyclic with INIT first. */
static inline int bp_rc_graph_ok(const bp_rc_st *a) {
    const bp_hist *h = a->h;
    uint32_t adj[BP_MAX_TXNS] = { 0 };
    for (int i = 0; i < a->n; i++) {
        const bp_rc_read *x = &a->r[i];
        int t1 = a->wr[x->key][a->pick[i]];
        if (t1 >= 0 && t1 != x->t) adj[t1] |= 1u << x->t;                      /* WR */
        for (int j = 0; j < a->n; j++) {                                          /* the premise */
            const bp_rc_read *y = &a->r[j];
            if (y->t != x->t || y->key == x->key || y->pos >= x->pos) continue;
            int t2 = a->wr[y->key][a->pick[j]];
            if (t2 < 0 || t2 == t1 || t2 == x->t || !bp_rc_writes(h, t2, x->key)) continue;
            if (t1 < 0) return 0;                                                 /* t2 before INIT */
            adj[t2] |= 1u << t1;
        }
    }
    for (int it = 0; it < h->ntx; it++)
        for (int u = 0; u < h->ntx; u++)
            for (int v = 0; v < h->ntx; v++) if (adj[u] >> v & 1u) adj[u] |= adj[v];
    for (int u = 0; u < h->ntx; u++) if (adj[u] >> u & 1u) return 0;
    return 1;
}

static inline int bp_rc_picks(bp_rc_st *a, int i) {
    if (i == a->n) return bp_rc_graph_ok(a);
    for (int c = 0; c < a->r[i].nc; c++) {
        a->pick[i] = a->r[i].cand[c];
        if (bp_rc_picks(a, i + 1)) return 1;
    }
    return 0;
}

static inline int bp_rc(const bp_hist *h) {
    static bp_rc_st a;
    memset(&a, 0, sizeof a);
    a.h = h;
    for (int k = 0; k < h->nkeys; k++) { a.nver[k] = 1; a.wr[k][0] = -1; a.val[k][0] = h->init[k]; }
    for (int t = 0; t < h->ntx; t++)
        for (int k = 0; k < h->nkeys; k++) {
            int w = 0; long v = 0;
            for (int i = 0; i < h->tx[t].nops; i++) {
                const bp_op *o = &h->tx[t].ops[i];
                if (o->key == k && (o->kind == BP_W || o->kind == BP_DEL)) { w = 1; v = o->kind == BP_W ? o->val : BP_ABSENT; }
            }
            if (w) { a.wr[k][a.nver[k]] = t; a.val[k][a.nver[k]++] = v; }
        }
    double combos = 1;
    for (int t = 0; t < h->ntx; t++) {
        long own[BP_MAX_KEYS]; int has[BP_MAX_KEYS] = { 0 };
        for (int i = 0; i < h->tx[t].nops; i++) {
            const bp_op *o = &h->tx[t].ops[i];
            if (o->kind == BP_W || o->kind == BP_DEL) { has[o->key] = 1; own[o->key] = o->kind == BP_W ? o->val : BP_ABSENT; continue; }
            for (int k = 0; k < h->nkeys; k++) {
                if (o->kind == BP_R && k != o->key) continue;
                long want = o->kind == BP_R ? o->val : o->res[k];
                if (o->kind == BP_RP && !bp_covers(&o->p, k)) { if (want != BP_ABSENT) return 0; continue; }
                if (o->kind == BP_RP && want != BP_ABSENT && !bp_match(&o->p, want)) return 0;     /* a mismatch */
                if (has[k]) {                                                                  /* its own write */
                    long seen = o->kind == BP_R ? own[k] : bp_vmatch(&o->p, own[k]) ? own[k] : BP_ABSENT;
                    if (seen != want) return 0;
                    continue;
                }
                bp_rc_read *x = &a.r[a.n++];
                x->t = t; x->key = k; x->pos = i; x->nc = 0;
                for (int v = 0; v < a.nver[k]; v++) {
                    if (a.wr[k][v] == t) continue;
                    int ok = o->kind == BP_R || want != BP_ABSENT ? a.val[k][v] == want : !bp_vmatch(&o->p, a.val[k][v]);
                    if (ok) x->cand[x->nc++] = v;
                }
                if (!x->nc) return 0;
                combos *= x->nc;
            }
        }
    }
    if (combos > BP_ADYA_LIMIT) return -1;
    return bp_rc_picks(&a, 0);
}

#endif
