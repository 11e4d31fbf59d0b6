/* brute_explain.h — a brute-force check of an anomaly's explanations on
 * tiny register histories, written from the definitions and sharing no
 * code with the interpreter.
 *
 * An explanation claims a version order fact C = "before's version of key
 * precedes after's" and shows a cycle that holds once C is false.  It is
 * sound when, in every version order V that
 *   - puts INIT first and agrees with the history's own-write order (a
 *     transaction that read w's version of k and wrote k follows w on k)
 *     and with its list reads (each shows the appenders of its elements in
 *     order, before every appender it does not show),
 *   - satisfies every fact the anomaly proved before C (its facts[0..i)
 *     for facts[i]; all of them for an edge of the cycle), and
 *   - puts after's version before before's (C false),
 * every edge of the cycle is a dependency by definition:
 *   SO  from ran before to in their session;
 *   WR  to's first op on key is a read of from's last write of it;
 *   WW  both write key, from before to in V;
 *   RW  from's first op on key is a read of s's last write, to writes key,
 *       to != from, s before to in V;
 * and the cycle is closed and violates the level (SI: no two adjacent RW).
 * So the cycle uses neither C nor anything proven from C.  Every premise
 * and every edge speaks of one key, so the orders are enumerated key by
 * key (at most BX_MAX_WRITERS writers a key, else the claim is skipped);
 * a key on which no order meets the premises makes the claim vacuous
 * (counted, not failed).  Only committed transactions and INIT take part;
 * a list read's version is its last element's (INIT's when empty), and
 * list reads after an own append are not modelled (callers make none). */
#ifndef ISOCHECK_TESTS_BRUTE_EXPLAIN_H
#define ISOCHECK_TESTS_BRUTE_EXPLAIN_H

#include <stdint.h>
#include <string.h>

#include "frontend/history/history.h"
#include "frontend/reports/report.h"

#define BX_MAX_WRITERS 8
#define BX_NONE UINT32_MAX

typedef struct bx_stats {
    unsigned checked, vacuous, skipped, decided, chosen;
} bx_stats;

/* The transaction that appended value v to key (BX_NONE: none). */
static uint32_t bx_appender(const history *h, uint32_t key, int64_t v) {
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (h->op_key[op] == key && history_op_kind(h, op) == OP_APPEND && !history_op_failed(h, op) && history_op_value(h, op) == v)
            return history_op_txn(h, op);
    return BX_NONE;
}

/* The first op of txn t on key, if it is a read: the txn whose last write
 * it read (a list read: the appender of its last element; INIT: 0), else
 * BX_NONE (also for a list read that holds t's own appends: callers'
 * histories have none). */
static uint32_t bx_read_from(const history *h, uint32_t t, uint32_t key) {
    const history_txn *tx = &h->txns[t];
    for (uint32_t i = 0; i < tx->num_ops; i++) {
        uint32_t op = tx->first_op + i;
        if (h->op_key[op] != key) continue;
        if (!history_op_is_read(h, op)) return BX_NONE;
        if (history_op_kind(h, op) == OP_LIST_READ) {
            uint32_t n;
            const int64_t *l = history_list(h, op, &n);
            if (n == 0) return 0;
            uint32_t w = bx_appender(h, key, l[n - 1]);
            return w == t ? BX_NONE : w;
        }
        uint32_t src = history_read_source(h, op);
        return src == HISTORY_NONE ? BX_NONE : history_op_txn(h, src);
    }
    return BX_NONE;
}

/* Does every list read of key agree with the order pos: the appenders of
 * its elements in their order, before every appender it does not show? */
static int bx_lists_agree(const history *h, const int *pos, uint32_t key) {
    for (uint32_t op = 0; op < h->num_ops; op++) {
        if (h->op_key[op] != key || history_op_kind(h, op) != OP_LIST_READ || history_op_failed(h, op)) continue;
        uint32_t n;
        const int64_t *l = history_list(h, op, &n);
        int last = 0;                                  /* INIT's position */
        uint8_t shown[64] = { 0 };
        for (uint32_t i = 0; i < n; i++) {
            uint32_t w = bx_appender(h, key, l[i]);
            if (w == BX_NONE || w >= 64 || pos[w] < 0) return 0;
            if (pos[w] < last) return 0;
            last = pos[w];
            shown[w] = 1;
        }
        for (uint32_t t = 1; t < h->num_txns && t < 64; t++)
            if (pos[t] >= 0 && !shown[t] && pos[t] < last) return 0;
    }
    return 1;
}

static int bx_writes(const history *h, uint32_t t, uint32_t key) {
    if (t == 0) return 1;
    const history_txn *tx = &h->txns[t];
    for (uint32_t i = 0; i < tx->num_ops; i++)
        if (h->op_key[tx->first_op + i] == key && history_op_is_write(h, tx->first_op + i)) return 1;
    return 0;
}

static int bx_so(const history *h, uint32_t a, uint32_t b) {
    return a != 0 && b != 0 && h->txns[a].session == h->txns[b].session && h->txns[a].pos < h->txns[b].pos;
}

/* A fact "a before b on key" as premise or claim. */
typedef struct bx_fact { uint32_t a, b, key; } bx_fact;

/* Does the order pos (per txn, -1: not a writer) meet the premises on key?
 * The last premise is the claim false: the own-write order it may deny is
 * not assumed (a claim may be one of those facts, shown by its own cycle). */
static int bx_meets(const history *h, const int *pos, uint32_t key, const bx_fact *prem, size_t np) {
    const bx_fact *neg = &prem[np - 1];
    for (uint32_t t = 1; t < h->num_txns; t++) {              /* own-write order */
        if (pos[t] < 0) continue;
        uint32_t w = bx_read_from(h, t, key);
        if (key == neg->key && t == neg->a && w == neg->b) continue;
        if (w != BX_NONE && pos[w] >= 0 && pos[w] > pos[t]) return 0;
    }
    for (size_t i = 0; i < np; i++)
        if (prem[i].key == key && (pos[prem[i].a] < 0 || pos[prem[i].b] < 0 || pos[prem[i].a] > pos[prem[i].b])) return 0;
    return bx_lists_agree(h, pos, key);
}

/* Does edge e hold under the order pos of e's key? */
static int bx_edge_holds(const history *h, const dep_edge *e, const int *pos) {
    if (e->from >= h->num_txns || e->to >= h->num_txns) return 0;
    switch (e->kind) {
    case DEP_SO: return bx_so(h, e->from, e->to);
    case DEP_WR: return e->from != e->to && bx_read_from(h, e->to, e->key) == e->from;
    case DEP_WW: return e->from != e->to && pos[e->from] >= 0 && pos[e->to] >= 0 && pos[e->from] < pos[e->to];
    case DEP_RW: {
        uint32_t s = bx_read_from(h, e->from, e->key);
        return e->from != e->to && s != BX_NONE && pos[s] >= 0 && pos[e->to] >= 0 && pos[s] < pos[e->to];
    }
    default: return 0;
    }
}

static int bx_next_perm(uint32_t *p, int m) {
    int i = m - 2;
    while (i >= 0 && p[i] >= p[i + 1]) i--;
    if (i < 0) return 0;
    int j = m - 1;
    while (p[j] <= p[i]) j--;
    uint32_t t = p[i]; p[i] = p[j]; p[j] = t;
    for (int a = i + 1, z = m - 1; a < z; a++, z--) { t = p[a]; p[a] = p[z]; p[z] = t; }
    return 1;
}

/* Every order of key's writers that meets the premises: do the cycle's
 * edges on key all hold?  1 yes, 0 no, -1 no order meets them, -2 too many writers. */
static int bx_key_holds(const history *h, uint32_t key, const bx_fact *prem, size_t np, const dep_edge *cyc, size_t n) {
    uint32_t w[BX_MAX_WRITERS];
    int m = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (h->txns[t].status != TXN_COMMITTED || !bx_writes(h, t, key)) continue;
        if (m == BX_MAX_WRITERS) return -2;
        w[m++] = t;
    }
    int *pos = malloc(h->num_txns * sizeof *pos), any = 0, ok = 1;
    for (int i = 0; i < m; i++) for (int j = i + 1; j < m; j++) if (w[j] < w[i]) { uint32_t x = w[i]; w[i] = w[j]; w[j] = x; }
    do {
        for (uint32_t t = 0; t < h->num_txns; t++) pos[t] = -1;
        pos[0] = 0;
        for (int i = 0; i < m; i++) pos[w[i]] = i + 1;
        if (!bx_meets(h, pos, key, prem, np)) continue;
        any = 1;
        for (size_t i = 0; i < n && ok; i++)
            if ((cyc[i].kind == DEP_WW || cyc[i].kind == DEP_RW) && cyc[i].key == key && !bx_edge_holds(h, &cyc[i], pos)) ok = 0;
    } while (ok && bx_next_perm(w, m));
    free(pos);
    return any ? ok : -1;
}

/* Check the explanation w of "before's key precedes after's" under the
 * premises prem[0..np) (the facts proven before it).  Returns 1 sound, 0 not
 * (a message in err), and counts vacuous and skipped claims. */
static int bx_check_why(const history *h, int si, uint32_t key, const edge_why *w, const bx_fact *prem, size_t np,
                        bx_stats *st, char *err, size_t errn) {
    size_t n = w->alt.len;
    if (n < 2) { snprintf(err, errn, "a cycle of %zu edges", n); return 0; }
    for (size_t i = 0; i < n; i++)
        if (w->alt.data[i].to != w->alt.data[(i + 1) % n].from) { snprintf(err, errn, "edge %zu does not meet the next", i); return 0; }
    if (si)
        for (size_t i = 0; i < n; i++)
            if (w->alt.data[i].kind == DEP_RW && w->alt.data[(i + 1) % n].kind == DEP_RW) { snprintf(err, errn, "adjacent RW under SI"); return 0; }
    bx_fact all[64];
    if (np + 1 > 64) { st->skipped++; return 1; }
    memcpy(all, prem, np * sizeof *prem);
    all[np] = (bx_fact){ w->after, w->before, key };            /* the claim false */
    for (size_t i = 0; i < n; i++) {
        const dep_edge *e = &w->alt.data[i];
        if (e->kind == DEP_SO || e->kind == DEP_WR) {
            int pos0 = 0;
            if (!bx_edge_holds(h, e, &pos0)) { snprintf(err, errn, "edge %zu (SO/WR) is not in the history", i); return 0; }
        }
    }
    /* every key the cycle or a premise speaks of */
    int vac = 0;
    for (uint32_t k = 0; k < h->num_keys; k++) {
        int used = 0;
        for (size_t i = 0; i < n; i++) used |= (w->alt.data[i].kind == DEP_WW || w->alt.data[i].kind == DEP_RW) && w->alt.data[i].key == k;
        for (size_t i = 0; i <= np; i++) used |= all[i].key == k;
        if (!used) continue;
        int r = bx_key_holds(h, k, all, np + 1, w->alt.data, n);
        if (r == -2) { st->skipped++; return 1; }
        if (r == -1) vac = 1;
        else if (r == 0) {
            snprintf(err, errn, "an edge on key %u fails in an order where the claim is false and the earlier facts hold", k);
            return 0;
        }
    }
    if (vac) st->vacuous++;
    else st->checked++;
    return 1;
}

/* Check every explanation of anomaly a: its facts in order (each under the
 * facts before it), then its cycle's forced edges (under all the facts).
 * 1: all sound; 0: not (err says which). */
static int bx_check_anomaly(const history *h, int si, const report_anomaly *a, bx_stats *st, char *err, size_t errn) {
    bx_fact prem[64];
    size_t np = 0;
    char sub[300];
    for (size_t i = 0; i < a->facts.len && i < 64; i++) {
        const report_fact *f = &a->facts.data[i];
        if (f->why.status != WHY_FORCED || f->why.before != f->fact.from || f->why.after != f->fact.to) {
            snprintf(err, errn, "fact %zu is not a forced fact about its own ends", i + 1); return 0;
        }
        for (size_t j = 0; j < f->why.basis.len; j++)
            if (f->why.basis.data[j].kind == BASIS_PROVEN && f->why.basis.data[j].ref >= i) {
                snprintf(err, errn, "fact %zu relies on fact %u, not proven before it", i + 1, f->why.basis.data[j].ref + 1); return 0;
            }
        if (!bx_check_why(h, si, f->fact.key, &f->why, prem, np, st, sub, sizeof sub)) {
            snprintf(err, errn, "fact %zu: %s", i + 1, sub); return 0;
        }
        prem[np++] = (bx_fact){ f->fact.from, f->fact.to, f->fact.key };
    }
    for (size_t i = 0; i < a->why.len; i++) {
        const edge_why *w = &a->why.data[i];
        const dep_edge *e = &a->edges.data[i];
        if (w->status == WHY_DECIDED) st->decided++;
        if (w->status == WHY_CHOSEN) {
            st->chosen++;
            if (!a->chosen) { snprintf(err, errn, "edge %zu is chosen but the anomaly is not marked so", i); return 0; }
        }
        if (w->status == WHY_INIT && bx_read_from(h, e->from, e->key) != 0) {
            snprintf(err, errn, "edge %zu: not a read of the initial version", i); return 0;
        }
        if (w->status != WHY_FORCED) continue;
        uint32_t before = e->kind == DEP_WW ? e->from : bx_read_from(h, e->from, e->key);
        if (w->before != before || w->after != e->to) { snprintf(err, errn, "edge %zu: the fact is not the edge's", i); return 0; }
        if (!bx_check_why(h, si, e->key, w, prem, np, st, sub, sizeof sub)) {
            snprintf(err, errn, "edge %zu: %s", i, sub); return 0;
        }
    }
    return 1;
}

#endif
