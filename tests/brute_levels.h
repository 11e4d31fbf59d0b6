/* brute_levels.h — a brute-force oracle for every level of the isolation
 * ladder (doc/levels.md), written straight from the axioms for tiny
 * histories.  It shares no code with the checker: it reads only the raw
 * history model (op_kind, op_key, op_value, op_txn, the transactions and
 * sessions, history_list()) and decides everything itself.
 *
 * Participants: INIT, the committed transactions and, to a fixpoint, every
 * indeterminate transaction one of whose writes (a register value, any
 * element of a list) a participant read.  Aborted transactions never take
 * part.  A non-cycle anomaly of a participant's read (thin-air, aborted,
 * future, intermediate read; a read after an own write that does not show
 * it) fails every level.
 *
 * Method 1 (bv_check_all, every level): Biswas-Enea / Plume style.  A level
 * holds iff some strict total commit order co of the participants (INIT
 * first) contains the level's base relation (SO ∪ WR; WR alone for the
 * plain levels; SO ∪ WR ∪ RT for the real-time ones) and satisfies, for
 * every external read α of key x in t3 from t1 and every other writer
 * t2 ∉ {t1, t3} of x:  premise(t2, α) ⇒ t2 co t1, where premise is
 *   rc    t3 read some other key from t2 before α (in program order)
 *   ra    t2 B t3            (B: the base relation)
 *   cc    t2 B+ t3
 *   pc    t2 co* ; B t3
 *   psi   t2 (B ∪ WWco)+ t3  (WWco: co between writers of a common key)
 *   si*   pc's premise, or t2 co* t4 co t3 with t4, t3 writers of a common key
 *   ser*  t2 co t3
 * rr (Adya's PL-2.99, plain base) has no premise of this shape: for each
 * co it builds Adya's dependency graph under the version order co gives
 * (WR, WW between consecutive versions, RW from a reader to the writer of
 * the version after the one it read; an RW edge of a read op lowered from
 * a predicate read that did not return the key is a predicate
 * anti-dependency, every other one an item anti-dependency) and requires
 * no cycle without a predicate anti-dependency (G0, G1c, G2-item without
 * them) and no item anti-dependency on any cycle (G2-item): bv_rr_holds.
 * Without predicate reads it is ser-plain's condition.
 * A list key's versions are its appenders in co order: a list read's
 * external prefix must be exactly the appends of the writers up to (in co)
 * the appender of its last element.
 *
 * Methods 2-4 decide the levels again by other definitions: see
 * tests/brute_levels_alt.h.
 *
 * Times: inv[t], cmp[t] per history transaction index (INIT ignored):
 * a RT b iff a is committed and cmp[a] < inv[b] (an indeterminate
 * transaction never completed).  The real-time levels need them.
 * Results: 1 holds, 0 fails, -1 undecided (too big: see the BV_MAX_
 * limits; or no times).  The functions keep their state in statics: one
 * thread at a time. */
#ifndef ISOCHECK_TESTS_BRUTE_LEVELS_H
#define ISOCHECK_TESTS_BRUTE_LEVELS_H

#include <stdint.h>
#include <string.h>

#include "frontend/history/history.h"

enum { BV_RC, BV_RA, BV_CC, BV_PC, BV_PSI, BV_SI_PLAIN, BV_SI, BV_SER_PLAIN, BV_SER,
       BV_STRONG_SI, BV_SSER, BV_RR, BV_NLEVELS };

static const char *const bv_level_name[BV_NLEVELS] = {
    "rc", "ra", "cc", "pc", "psi", "si-plain", "si", "ser-plain", "ser", "strong-si", "sser", "rr",
};

/* The ladder's Hasse diagram: the levels each level directly implies. */
static const unsigned bv_direct_weaker[BV_NLEVELS] = {
    [BV_RC] = 0,
    [BV_RA] = 1u << BV_RC,
    [BV_CC] = 1u << BV_RA,
    [BV_PC] = 1u << BV_CC,
    [BV_PSI] = 1u << BV_CC,
    [BV_SI_PLAIN] = 0,
    [BV_SI] = 1u << BV_PC | 1u << BV_PSI | 1u << BV_SI_PLAIN,
    [BV_SER_PLAIN] = 1u << BV_SI_PLAIN | 1u << BV_RR,
    [BV_SER] = 1u << BV_SI | 1u << BV_SER_PLAIN,
    [BV_STRONG_SI] = 1u << BV_SI,
    [BV_SSER] = 1u << BV_SER | 1u << BV_STRONG_SI,
    [BV_RR] = 0,
};

enum { BV_AX_RC, BV_AX_RA, BV_AX_CC, BV_AX_PC, BV_AX_PSI, BV_AX_SI, BV_AX_SER, BV_AX_RR };
enum { BV_BASE_SESSION, BV_BASE_PLAIN, BV_BASE_REALTIME, BV_NBASES };
static const int bv_level_axiom[BV_NLEVELS] = {
    BV_AX_RC, BV_AX_RA, BV_AX_CC, BV_AX_PC, BV_AX_PSI, BV_AX_SI, BV_AX_SI, BV_AX_SER, BV_AX_SER, BV_AX_SI, BV_AX_SER,
    BV_AX_RR,
};
static const int bv_level_base[BV_NLEVELS] = {
    BV_BASE_SESSION, BV_BASE_SESSION, BV_BASE_SESSION, BV_BASE_SESSION, BV_BASE_SESSION,
    BV_BASE_PLAIN, BV_BASE_SESSION, BV_BASE_PLAIN, BV_BASE_SESSION, BV_BASE_REALTIME, BV_BASE_REALTIME,
    BV_BASE_PLAIN,
};

#define BV_MAX_TXNS   9          /* participants, INIT included */
#define BV_MAX_KEYS   8
#define BV_MAX_EVENTS 64
#define BV_MAX_APPENDS 128       /* successful appends of all participants */

typedef struct bv_event {        /* one external read */
    int t, key, src;             /* reader, key, writer of the version read (participant indices) */
    uint32_t earlier;            /* writers read by t's earlier external reads of other keys */
    int pred;                    /* a register read lowered from a predicate read that did not return the key */
    int list;                    /* a list read: its external prefix ... */
    uint32_t len;
    const int64_t *el;           /* ... is el[0..len) */
} bv_event;

typedef struct bv_hist {
    const history *h;
    int n, nkeys, anomaly, too_big, have_times;
    const char *why;             /* the anomaly's name */
    uint32_t txn[BV_MAX_TXNS];   /* history index of each participant */
    int idx[64];                 /* participant index of each history transaction, or -1 */
    uint32_t writes[BV_MAX_KEYS];        /* participants writing the key (INIT included) */
    uint32_t wkeys[BV_MAX_TXNS];         /* keys a participant writes (INIT: none) */
    uint32_t base_in[BV_NBASES][BV_MAX_TXNS];   /* predecessors under each base relation */
    uint32_t clos_in[BV_NBASES][BV_MAX_TXNS];   /* ... under its transitive closure */
    int nev;
    bv_event ev[BV_MAX_EVENTS];
    /* appends of participant p to list key k: app[app_off[p][k] .. + app_len[p][k]) */
    uint32_t app_off[BV_MAX_TXNS][BV_MAX_KEYS], app_len[BV_MAX_TXNS][BV_MAX_KEYS];
    int64_t app[BV_MAX_APPENDS];
    uint32_t napp;
} bv_hist;

static int bv_is_write(const history *h, uint32_t op) {
    unsigned k = h->op_kind[op] & OP_KIND_MASK;
    return !(h->op_kind[op] & OP_FAILED) && (k == OP_WRITE || k == OP_APPEND);
}
static int bv_is_read(const history *h, uint32_t op) {
    unsigned k = h->op_kind[op] & OP_KIND_MASK;
    return !(h->op_kind[op] & OP_FAILED) && (k == OP_READ || k == OP_LIST_READ);
}

/* The successful write of value to key (a scan of every op), or UINT32_MAX. */
static uint32_t bv_writer(const history *h, uint32_t key, int64_t value) {
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (h->op_key[op] == key && history_op_value(h, op) == value && bv_is_write(h, op)) return op;
    return UINT32_MAX;
}

/* Whether txn t writes key after op (the write at op was overwritten). */
static int bv_overwritten(const history *h, uint32_t op) {
    uint32_t t = history_op_txn(h, op);
    for (uint32_t o = op + 1; o < h->txns[t].first_op + h->txns[t].num_ops; o++)
        if (h->op_key[o] == h->op_key[op] && bv_is_write(h, o)) return 1;
    return 0;
}

static void bv_fail(bv_hist *b, const char *why) {
    if (!b->anomaly) { b->anomaly = 1; b->why = why; }
}

/* Participation to a fixpoint: part[t] for every history transaction. */
static void bv_participants(const history *h, uint8_t *part) {
    for (uint32_t t = 0; t < h->num_txns; t++) part[t] = t == 0 || h->txns[t].status == TXN_COMMITTED;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t t = 1; t < h->num_txns; t++) {
            if (!part[t]) continue;
            for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
                if (!bv_is_read(h, op)) continue;
                uint32_t n = 1;
                int64_t one = history_op_value(h, op);
                const int64_t *vals = &one;
                if ((h->op_kind[op] & OP_KIND_MASK) == OP_LIST_READ) vals = history_list(h, op, &n);
                for (uint32_t i = 0; i < n; i++) {
                    uint32_t w = bv_writer(h, h->op_key[op], vals[i]);
                    if (w == UINT32_MAX) continue;
                    uint32_t u = history_op_txn(h, w);
                    if (!part[u] && h->txns[u].status == TXN_INDETERMINATE) { part[u] = 1; changed = 1; }
                }
            }
        }
    }
}

/* The source of one observed value of an external read by t: the writer's
 * participant index, or -1 after recording the anomaly.  last: the value
 * must be its writer's final write of the key. */
static int bv_source(bv_hist *b, const int *idx, uint32_t t, uint32_t key, int64_t v, int last) {
    const history *h = b->h;
    uint32_t w = bv_writer(h, key, v);
    if (w == UINT32_MAX) { bv_fail(b, "thin-air-read"); return -1; }
    uint32_t u = history_op_txn(h, w);
    if (u == t) { bv_fail(b, "future-read"); return -1; }
    if (h->txns[u].status == TXN_ABORTED) { bv_fail(b, "aborted-read"); return -1; }
    if (last && bv_overwritten(h, w)) { bv_fail(b, "intermediate-read"); return -1; }
    if (idx[u] < 0) { bv_fail(b, "thin-air-read"); return -1; }   /* not reached: the fixpoint adds it */
    return idx[u];
}

static void bv_add_event(bv_hist *b, int t, int key, int src, uint32_t earlier, const int64_t *el, uint32_t len, int list) {
    if (b->nev == BV_MAX_EVENTS) { b->too_big = 1; return; }
    bv_event *e = &b->ev[b->nev++];
    e->t = t; e->key = key; e->src = src; e->earlier = earlier; e->list = list; e->el = el; e->len = len;
}

/* The external reads of participant p (history txn t), in program order. */
static void bv_reads_of(bv_hist *b, const int *idx, int p) {
    const history *h = b->h;
    uint32_t t = b->txn[p];
    int own[BV_MAX_KEYS] = {0};
    int64_t last[BV_MAX_KEYS] = {0};
    int64_t mine[BV_MAX_KEYS][16];
    uint32_t nmine[BV_MAX_KEYS] = {0};
    int first_ev = b->nev;
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        uint32_t key = h->op_key[op];
        unsigned kind = h->op_kind[op] & OP_KIND_MASK;
        if (bv_is_write(h, op)) {
            own[key] = 1; last[key] = history_op_value(h, op);
            if (kind == OP_APPEND) { if (nmine[key] == 16) { b->too_big = 1; return; } mine[key][nmine[key]++] = history_op_value(h, op); }
            continue;
        }
        if (!bv_is_read(h, op)) continue;
        uint32_t earlier = 0;
        for (int i = first_ev; i < b->nev; i++) if (b->ev[i].key != (int)key) earlier |= 1u << b->ev[i].src;
        if (kind == OP_READ) {
            if (own[key]) { if (history_op_value(h, op) != last[key]) bv_fail(b, "not-my-last-write"); continue; }
            int src = history_op_value(h, op) == VALUE_INIT ? 0 : bv_source(b, idx, t, key, history_op_value(h, op), 1);
            if (src >= 0) bv_add_event(b, p, (int)key, src, earlier, NULL, 0, 0);
            /* the history model's tag of a lowered predicate read op: read << 1 | returned */
            if (src >= 0 && b->nev && h->op_pred && h->op_pred[op] != UINT32_MAX && !(h->op_pred[op] & 1u))
                b->ev[b->nev - 1].pred = 1;
            continue;
        }
        uint32_t n;
        const int64_t *l = history_list(h, op, &n);
        uint32_t m = nmine[key];
        if (n < m || (m && memcmp(l + n - m, mine[key], m * sizeof *l))) { bv_fail(b, "not-my-own-write"); continue; }
        int ok = 1, src = 0;
        for (uint32_t i = 0; i + m < n && ok; i++) {
            src = bv_source(b, idx, t, key, l[i], i + 1 + m == n);
            ok = src >= 0;
        }
        if (ok) bv_add_event(b, p, (int)key, n > m ? src : 0, earlier, l, n - m, 1);
    }
}

static void bv_closure(uint32_t *in, int n) {
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (in[i] >> k & 1u) in[i] |= in[k];
}

/* Build the participants, relations and external reads.  inv/cmp may be NULL. */
static void bv_prepare(bv_hist *b, const history *h, const int64_t *inv, const int64_t *cmp) {
    memset(b, 0, sizeof *b);
    b->h = h;
    b->have_times = inv && cmp;
    if (h->num_keys > BV_MAX_KEYS || h->num_txns > 64) { b->too_big = 1; return; }
    b->nkeys = (int)h->num_keys;
    uint8_t part[64];
    int idx[64];
    bv_participants(h, part);
    for (uint32_t t = 0; t < h->num_txns; t++) {
        idx[t] = -1;
        if (!part[t]) continue;
        if (b->n == BV_MAX_TXNS) { b->too_big = 1; return; }
        idx[t] = b->n;
        b->txn[b->n++] = t;
    }
    for (int k = 0; k < b->nkeys; k++) b->writes[k] = 1u;
    for (int p = 1; p < b->n; p++) {
        uint32_t t = b->txn[p];
        for (int k = 0; k < b->nkeys; k++) {
            b->app_off[p][k] = b->napp;
            for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
                if (h->op_key[op] != (uint32_t)k || !bv_is_write(h, op)) continue;
                b->writes[k] |= 1u << p;
                b->wkeys[p] |= 1u << k;
                if ((h->op_kind[op] & OP_KIND_MASK) == OP_APPEND) {
                    if (b->napp == sizeof b->app / sizeof b->app[0]) { b->too_big = 1; return; }
                    b->app[b->napp++] = history_op_value(h, op);
                    b->app_len[p][k]++;
                }
            }
        }
    }
    memcpy(b->idx, idx, sizeof(int) * h->num_txns);
    for (int p = 1; p < b->n && !b->too_big; p++) bv_reads_of(b, idx, p);
    for (int q = 1; q < b->n; q++)
        for (int p = 1; p < b->n; p++) {
            const history_txn *a = &h->txns[b->txn[p]], *c = &h->txns[b->txn[q]];
            uint32_t bit = 1u << p;
            if (a->session == c->session && a->pos < c->pos) {
                b->base_in[BV_BASE_SESSION][q] |= bit; b->base_in[BV_BASE_REALTIME][q] |= bit;
            }
            if (b->have_times && p != q && a->status == TXN_COMMITTED && cmp[b->txn[p]] < inv[b->txn[q]])
                b->base_in[BV_BASE_REALTIME][q] |= bit;
        }
    for (int i = 0; i < b->nev; i++) {
        const bv_event *e = &b->ev[i];
        if (e->src == 0 || e->src == e->t) continue;
        for (int s = 0; s < BV_NBASES; s++) b->base_in[s][e->t] |= 1u << e->src;
    }
    for (int s = 0; s < BV_NBASES; s++) {
        memcpy(b->clos_in[s], b->base_in[s], sizeof b->clos_in[s]);
        bv_closure(b->clos_in[s], b->n);
    }
}

/* appends of list key k by the writers in w[0..nw) in that order, against el[0..len). */
static int bv_list_matches(const bv_hist *b, int k, const int *w, int nw, const int64_t *el, uint32_t len) {
    uint32_t at = 0;
    for (int i = 0; i < nw; i++) {
        int p = w[i];
        if (p == 0) continue;
        uint32_t n = b->app_len[p][k];
        if (at + n > len || (n && memcmp(el + at, &b->app[b->app_off[p][k]], n * sizeof *el))) return 0;
        at += n;
    }
    return at == len;
}

/* Every list read shows its source's version when versions follow co
 * (ord[0..n), pos[] its inverse). */
static int bv_lists_ok_co(const bv_hist *b, const int *ord) {
    for (int i = 0; i < b->nev; i++) {
        const bv_event *e = &b->ev[i];
        if (!e->list) continue;
        int w[BV_MAX_TXNS], nw = 0;
        for (int j = 0; j < b->n; j++) {
            int p = ord[j];
            if (b->writes[e->key] >> p & 1u) w[nw++] = p;
            if (p == e->src) break;
        }
        if (!bv_list_matches(b, e->key, w, nw, e->el, e->len)) return 0;
    }
    return 1;
}

/* rr on the version order co gives (ord[0..n)): see the file comment. */
static int bv_rr_holds(const bv_hist *b, const int *ord) {
    int n = b->n, pos[BV_MAX_TXNS];
    uint32_t all[BV_MAX_TXNS] = {0}, dep[BV_MAX_TXNS] = {0};   /* successors: every edge; all but predicate RW */
    int item_from[BV_MAX_EVENTS], item_to[BV_MAX_EVENTS], nitem = 0;
    for (int i = 0; i < n; i++) pos[ord[i]] = i;
    for (int k = 0; k < b->nkeys; k++) {
        int prev = -1;
        for (int i = 0; i < n; i++) {
            int p = ord[i];
            if (!(b->writes[k] >> p & 1u)) continue;
            if (prev >= 0) { dep[prev] |= 1u << p; all[prev] |= 1u << p; }
            prev = p;
        }
    }
    for (int i = 0; i < b->nev; i++) {
        const bv_event *e = &b->ev[i];
        if (e->src != e->t) { dep[e->src] |= 1u << e->t; all[e->src] |= 1u << e->t; }
        int next = -1;                           /* the writer of the version after the one read */
        for (int j = pos[e->src] + 1; j < n && next < 0; j++)
            if (b->writes[e->key] >> ord[j] & 1u) next = ord[j];
        if (next < 0 || next == e->t) continue;
        all[e->t] |= 1u << next;
        if (e->pred) continue;
        dep[e->t] |= 1u << next;
        item_from[nitem] = e->t; item_to[nitem++] = next;
    }
    bv_closure(dep, n);
    bv_closure(all, n);
    for (int t = 0; t < n; t++) if (dep[t] >> t & 1u) return 0;                     /* a cycle without predicate RW */
    for (int i = 0; i < nitem; i++) if (all[item_to[i]] >> item_from[i] & 1u) return 0;   /* an item RW on a cycle */
    return 1;
}

/* The axioms of kind ax on the commit order ord (before[t]: co-predecessors). */
static int bv_axioms_hold(const bv_hist *b, int base, int ax, const int *ord, const uint32_t *before) {
    int n = b->n;
    if (ax == BV_AX_RR) return bv_rr_holds(b, ord);
    uint32_t prem[BV_MAX_TXNS] = {0};
    const uint32_t *bin = b->base_in[base];
    if (ax == BV_AX_RA) memcpy(prem, bin, sizeof prem);
    else if (ax == BV_AX_CC) memcpy(prem, b->clos_in[base], sizeof prem);
    else if (ax == BV_AX_SER) memcpy(prem, before, sizeof prem);
    else if (ax == BV_AX_PC || ax == BV_AX_SI) {
        for (int t = 0; t < n; t++)
            for (int u = 0; u < n; u++) {
                if (bin[t] >> u & 1u) prem[t] |= before[u] | 1u << u;
                if (ax == BV_AX_SI && (before[t] >> u & 1u) && (b->wkeys[u] & b->wkeys[t])) prem[t] |= before[u] | 1u << u;
            }
    } else if (ax == BV_AX_PSI) {
        for (int t = 0; t < n; t++) {
            prem[t] = bin[t];
            for (int u = 0; u < n; u++)
                if ((before[t] >> u & 1u) && (b->wkeys[u] & b->wkeys[t])) prem[t] |= 1u << u;
        }
        bv_closure(prem, n);
    }
    (void)ord;
    for (int i = 0; i < b->nev; i++) {
        const bv_event *e = &b->ev[i];
        uint32_t p = ax == BV_AX_RC ? e->earlier : prem[e->t];
        p &= b->writes[e->key] & ~(1u << e->src) & ~(1u << e->t);
        if (p & ~before[e->src]) return 0;
    }
    return 1;
}

typedef struct bv_enum {
    const bv_hist *b;
    int base;
    unsigned want, got;          /* levels of this base still to satisfy / satisfied */
    int ord[BV_MAX_TXNS];
    uint32_t placed;
} bv_enum;

static void bv_leaf(bv_enum *s) {
    const bv_hist *b = s->b;
    uint32_t before[BV_MAX_TXNS], acc = 0;
    for (int i = 0; i < b->n; i++) { before[s->ord[i]] = acc; acc |= 1u << s->ord[i]; }
    if (!bv_lists_ok_co(b, s->ord)) return;
    for (int l = 0; l < BV_NLEVELS; l++)
        if ((s->want & ~s->got) >> l & 1u)
            if (bv_axioms_hold(b, s->base, bv_level_axiom[l], s->ord, before)) s->got |= 1u << l;
}

static void bv_orders(bv_enum *s, int depth) {
    const bv_hist *b = s->b;
    if (depth == b->n) { bv_leaf(s); return; }
    for (int c = 1; c < b->n && (s->want & ~s->got); c++) {
        if (s->placed >> c & 1u) continue;
        if (b->base_in[s->base][c] & ~s->placed) continue;
        s->placed |= 1u << c;
        s->ord[depth] = c;
        bv_orders(s, depth + 1);
        s->placed &= ~(1u << c);
    }
}

/* Every level by method 1: out[l] = 1 holds, 0 fails, -1 undecided. */
static void bv_check_all(const history *h, const int64_t *inv, const int64_t *cmp, int out[BV_NLEVELS]) {
    static bv_hist b;            /* large: not on the stack */
    bv_prepare(&b, h, inv, cmp);
    for (int l = 0; l < BV_NLEVELS; l++) out[l] = b.too_big ? -1 : b.anomaly ? 0 : 1;
    if (!b.have_times) out[BV_STRONG_SI] = out[BV_SSER] = -1;
    if (b.too_big || b.anomaly) return;
    for (int base = 0; base < BV_NBASES; base++) {
        bv_enum s;
        memset(&s, 0, sizeof s);
        s.b = &b; s.base = base;
        for (int l = 0; l < BV_NLEVELS; l++)
            if (bv_level_base[l] == base && out[l] == 1) s.want |= 1u << l;
        if (!s.want) continue;
        s.ord[0] = 0; s.placed = 1u;
        bv_orders(&s, 1);
        for (int l = 0; l < BV_NLEVELS; l++)
            if (s.want >> l & 1u) out[l] = (int)(s.got >> l & 1u);
    }
}

static inline int bv_check(const history *h, int level, const int64_t *inv, const int64_t *cmp) {
    int out[BV_NLEVELS];
    bv_check_all(h, inv, cmp, out);
    return out[level];
}

/* The name of the non-cycle anomaly that fails every level, or NULL. */
static const char *bv_anomaly(const history *h) {
    static bv_hist b;
    bv_prepare(&b, h, NULL, NULL);
    return b.anomaly ? b.why : NULL;
}

/* Whether the relation out[] (successor masks) has no cycle. */
static int bv_acyclic(const uint32_t *out, int n) {
    uint32_t c[BV_MAX_TXNS];
    memcpy(c, out, sizeof(uint32_t) * (size_t)n);
    bv_closure(c, n);
    for (int i = 0; i < n; i++) if (c[i] >> i & 1u) return 0;
    return 1;
}

#endif
