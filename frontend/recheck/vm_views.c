/* vm_views.c — rr's views of predicate reads under a version order, by
 * definition (vm_internal.h: vm_view_edges; doc/levels.md "rr", "Adya's
 * model, reduced").
 *
 * In Adya's model a predicate read has a version set of its own; the
 * history model keeps one version of a key per transaction and records a
 * predicate read that missed a key its transaction saw in a matching
 * version q as a fact with a view (predicate.h: pred_fact_is_view): the
 * versions of the key the predicate does not match that the read could
 * have seen.  Here the view is one of them, p: the latest before q in the
 * order (kind (a), q an item read: any earlier one gives the same edges
 * and more, a later one a cycle through t's item anti-dependency; kind
 * (b), q another predicate read's version: the same rule, one choice among
 * several, and vm_view_edges takes any other it is given: the re-check
 * tries them when the rule's fails), or the first after q when none
 * precedes it.  Adya's edges of a
 * predicate read that viewed p of key k, for the reader t:
 *   WR  w_g -> t  for every version g <= p that changes the matches (g
 *                 matches and its predecessor does not, or the other way);
 *   RW  t -> w_g  for every version g > p that changes them (a predicate
 *                 anti-dependency) — with q an item read and p before it,
 *                 those up to q (t's item RW edge to q's successor and WW
 *                 edges reach the later ones);
 * none to or from t itself.  A view after t's own version of the key (t
 * read it before it wrote) adds WR w_p -> t as well, which closes a cycle
 * with t's WW edges: Adya's model has no such view.  Absent versions (unborn, deleted) match
 * nothing.  Reads only the raw history, the order and the index's markers
 * (the value each version installs). */
#include "frontend/recheck/vm_internal.h"

#include <stdio.h>

#include "frontend/history/predicate.h"

/* Whether version g (installed value v) of key matches the read's predicate. */
static int matches(const history *h, const pred_read *rd, uint32_t key, int64_t v) {
    int64_t data = 0;
    return preds_version_data(h->preds, key, v, &data) && pred_match(&rd->p, data);
}

/* The view of fact f under the order: p (an index into vo->txns), or
 * UINT32_MAX when none of its versions is in the order. */
static uint32_t view_of(const vm *m, const pred_fact *f, uint32_t q) {
    const history_preds *p = m->h->preds;
    uint32_t before = UINT32_MAX, after = UINT32_MAX;
    for (uint32_t j = 0; j < f->vn; j++) {
        uint32_t g = vm_version_of(m, f->key, p->view_vals.data[f->vfirst + j]);
        if (g == UINT32_MAX || g == q) continue;
        if (g < q && (before == UINT32_MAX || g > before)) before = g;
        if (g > q && (after == UINT32_MAX || g < after)) after = g;
    }
    return before != UINT32_MAX ? before : after;
}

/* Whether fact f is a view the re-check sees (a participant's, an indexed register key). */
static int seen(const vm *m, const uint8_t *want, const pred_fact *f) {
    const history *h = m->h;
    if (!pred_fact_is_view(f) || f->key >= h->num_keys || (want && !want[f->key])) return 0;
    uint32_t t = h->preds->reads.data[f->read].txn;
    return t != HISTORY_NONE && t < h->num_txns && m->part[t] && !m->is_list[f->key];
}

size_t vm_views_other(const vm *m, vec_u32 *n) {
    const history_preds *p = m->h->preds;
    vec_clear(*n);
    for (size_t i = 0; p && i < p->facts.len; i++) {
        const pred_fact *f = &p->facts.data[i];
        if (f->by_pred && seen(m, NULL, f)) vec_push(*n, f->vn);
    }
    return n->len;
}

int vm_view_edges(const vm *m, const uint8_t *want, const uint32_t *pick, dep_edge_vec *out, char *why, size_t wl) {
    const history *h = m->h;
    const history_preds *p = h->preds;
    const version_order *vo = m->vo;
    if (!p) return 1;
    size_t nb = 0;
    for (size_t i = 0; i < p->facts.len; i++) {
        const pred_fact *f = &p->facts.data[i];
        if (!seen(m, want, f)) continue;
        const pred_read *rd = &p->reads.data[f->read];
        uint32_t t = rd->txn;
        uint32_t a = vo->start[f->key], b = vo->start[f->key + 1];
        uint32_t q = vm_version_of(m, f->key, f->value);
        uint32_t v = q == UINT32_MAX ? UINT32_MAX : view_of(m, f, q);
        if (f->by_pred && pick && pick[nb] < f->vn) {   /* kind (b): another of its versions */
            uint32_t g = vm_version_of(m, f->key, p->view_vals.data[f->vfirst + pick[nb]]);
            if (g != UINT32_MAX && g != q) v = g;
        }
        nb += f->by_pred;
        if (v == UINT32_MAX) {
            snprintf(why, wl, "T%u's predicate read (line %u) sees key %u in none of the versions it could: "
                     "no version order holds it", t, rd->line, f->key);
            return 0;
        }
        for (uint32_t g = a; g < b; g++)           /* a view after the reader's own version: read after it wrote */
            if (vo->txns.data[g] == t && g < v) {
                dep_edge e = { vo->txns.data[v], t, f->key, (uint8_t)DEP_WR };
                vec_push(*out, e);
            }
        int prev = matches(h, rd, f->key, m->marker[a]);
        for (uint32_t g = a + 1; g < b; g++) {
            int cur = matches(h, rd, f->key, m->marker[g]);
            uint32_t w = vo->txns.data[g];
            /* q an item read: the predicate RW edges past it stand beside t's item RW edge to q's
             * successor, which reaches them by WW: only those up to q are the view's own */
            int past = g > v && g > q && !f->by_pred && v < q;
            if (cur != prev && w != t && !past) {
                dep_edge e = { g <= v ? w : t, g <= v ? t : w, f->key, (uint8_t)(g <= v ? DEP_WR : DEP_RW) };
                vec_push(*out, e);
            }
            prev = cur;
        }
    }
    return 1;
}
