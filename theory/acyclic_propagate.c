/* acyclic_propagate.c — enabling an edge (its insertion into the order)
 * and the guards the insertion implies off (option theory_propagate,
 * acyclic.h). */
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

static uint32_t new_seen2_stamp(acyclic *a) {
    if (++a->nstamp == 0) {
        memset(a->seen2, 0, (size_t)a->cap_nodes * sizeof *a->seen2);
        a->nstamp = 1;
    }
    return a->nstamp;
}

static void imply_off(acyclic *a, int id) {
    const edge *ed = &a->e[id];
    int v = lit_var(ed->lit);
    if (a->vflag[v] & VF_PENDING) return;            /* already implied this round */
    a->vflag[v] |= VF_PENDING;
    a->implied_edge[v] = id;
    a->implied_limit[v] = (int)a->trail.len;
    vec_push(a->pending, -ed->lit);
    a->st.implied++;
}

static inline void consider(acyclic *a, int id) {
    const edge *ed = &a->e[id];
    a->st.prop_scans++;
    if (ed->pos >= 0 || guard_value(a, ed->lit) != 0) return;
    imply_off(a, id);
}

/* Order of the hits of a scan from the backward set (scan_candidates):
 * by their head's place in that set (node: the place), newest first. */
static int cmp_hit(const void *x, const void *y) {
    const reach *p = x, *q = y;
    if (p->node != q->node) return p->node < q->node ? -1 : 1;
    return p->edge > q->edge ? -1 : p->edge < q->edge;
}

static int cmp_node(const void *x, const void *y) {
    const reach *p = x, *q = y;
    return (p->node > q->node) - (p->node < q->node);
}

/* Guarded, unassigned edges x->y with x in fwd (marked fwd_stamp in
 * fwd_marks) and y in bwd (bwd_stamp in bwd_marks): each closes a cycle
 * y ~> u -> v ~> x, so its guard is off.  Scanned from the smaller set:
 * its out-edges or in-edges.  Without the in-edges' arrays
 * (theory_in_arrays 0) always from fwd, whichever set is larger; the hits
 * are then taken (consider: the first edge of a guard gives its reason) in
 * the order a scan from bwd gives: by their head's place in bwd, newest
 * first, so that both settings imply the same guards in the same order and
 * the search is the same (the cost of each setting, and how much that
 * order moves a hard search: doc/acyclicity.md, doc/benchmarks.md). */
static void scan_candidates(acyclic *a, const vec_int *fwd, const uint32_t *fwd_marks, uint32_t fwd_stamp,
                            const vec_int *bwd, const uint32_t *bwd_marks, uint32_t bwd_stamp) {
    int n, old, by_bwd = fwd->len > bwd->len;
    if (by_bwd && a->sides == 2) {
        const glink *pool = a->gc[1].pool.data;
        for (size_t i = 0; i < bwd->len; i++) {
            int v = bwd->data[i];
            const reach *r = gcsr_arcs(a, 1, v, &n, &old);
            for (int p = a->gc[1].head[v]; p >= 0; p = pool[p].next)
                if (fwd_marks[a->e[pool[p].edge].from] == fwd_stamp) consider(a, pool[p].edge);
            for (int k = 0; k < n; k++)
                if (fwd_marks[r[k].node] == fwd_stamp) consider(a, r[k].edge);
        }
        return;
    }
    const glink *pool = a->gc[0].pool.data;
    vec_clear(a->cand);
    for (size_t i = 0; i < fwd->len; i++) {
        int u = fwd->data[i];
        const reach *r = gcsr_arcs(a, 0, u, &n, &old);
        for (int p = a->gc[0].head[u]; p >= 0; p = pool[p].next) {
            int id = pool[p].edge;
            if (bwd_marks[a->e[id].to] != bwd_stamp) continue;
            if (by_bwd) vec_push(a->cand, ((reach){a->e[id].to, id}));
            else consider(a, id);
        }
        for (int k = 0; k < n; k++) {
            if (bwd_marks[r[k].node] != bwd_stamp) continue;
            if (by_bwd) vec_push(a->cand, r[k]);
            else consider(a, r[k].edge);
        }
    }
    if (a->cand.len > 1) {
        /* each hit's head -> its place in bwd: both sorted by node, merged */
        size_t nb = bwd->len, j = 0;
        reach *place = xmalloc(nb * sizeof *place);
        for (size_t i = 0; i < nb; i++) place[i] = (reach){bwd->data[i], (int)i};
        qsort(place, nb, sizeof *place, cmp_node);
        qsort(a->cand.data, a->cand.len, sizeof *a->cand.data, cmp_node);
        for (size_t i = 0; i < a->cand.len; i++) {
            while (j < nb && place[j].node < a->cand.data[i].node) j++;
            /* every head is in bwd (marked with its stamp as it went in); were
             * one not, it would go last, after every head that is */
            assert(j < nb && place[j].node == a->cand.data[i].node);
            a->cand.data[i].node = j < nb && place[j].node == a->cand.data[i].node ? place[j].edge : (int)nb;
        }
        free(place);
        qsort(a->cand.data, a->cand.len, sizeof *a->cand.data, cmp_hit);
    }
    for (size_t i = 0; i < a->cand.len; i++) consider(a, a->cand.data[i].edge);
}

/* Bounded search from `start` (forward or backward), marks in `marks`. */
static void bounded_search(acyclic *a, int start, int forward, uint32_t *marks, uint32_t stamp,
                           int64_t budget, vec_int *set) {
    vec_clear(*set);
    vec_clear(a->stack);
    marks[start] = stamp;
    vec_push(a->stack, start);
    vec_push(*set, start);
    while (a->stack.len && (int64_t)set->len < budget) {
        int w = vec_pop(a->stack), nf;
        const int *fixed = forward ? pk_fixed_out(&a->pk, w, &nf) : pk_fixed_in(&a->pk, w, &nf);
        for (int i = 0; i < nf && (int64_t)set->len < budget; i++) {
            int z = fixed[i];
            if (marks[z] == stamp) continue;
            marks[z] = stamp;
            vec_push(a->stack, z);
            vec_push(*set, z);
        }
        const pk_adj *adj = forward ? &a->pk.out[w] : &a->pk.in[w];
        const pk_arc *arcs = pk_arcs(&a->pk, adj);
        for (int i = 0; i < adj->len && (int64_t)set->len < budget; i++) {
            int z = arcs[i].node;
            if (marks[z] == stamp) continue;
            marks[z] = stamp;
            vec_push(a->stack, z);
            vec_push(*set, z);
        }
    }
}

static void propagate_after_insert(acyclic *a, int id) {
    int mode = (int)OPTION(a, theory_propagate);
    if (mode == 0) return;
    pk_order *pk = &a->pk;
    if (pk->searched && pk->fwd.len && pk->bwd.len)
        scan_candidates(a, &pk->fwd, pk->mark, pk->fwd_stamp, &pk->bwd, pk->mark, pk->stamp);
    if (mode >= 2) {
        int64_t budget = OPTION(a, theory_propagate_budget);
        const edge *ed = &a->e[id];
        if (!a->seen2) a->seen2 = big_calloc((size_t)a->cap_nodes, sizeof *a->seen2);
        uint32_t st = pk_new_stamp(pk), st2 = new_seen2_stamp(a);
        bounded_search(a, ed->from, 0, a->seen2, st2, budget, &pk->bwd);
        bounded_search(a, ed->to, 1, pk->mark, st, budget, &pk->fwd);
        scan_candidates(a, &pk->fwd, pk->mark, st, &pk->bwd, a->seen2, st2);
    }
}

/* Insert from -> to into the order as edge `eid` (a guarded id or
 * PK_FIXED); 0 if it would close a cycle, the cycle's path (head to
 * tail, fewest guards that cost: see acyclic_explain_path) then in
 * a->cycle.  Arcs cost 0 in Pearce-Kelly's search if always on or
 * inserted at level 0, which is "pos < level0_end" for as long as they
 * stay. */
int acyclic_insert_arc(acyclic *a, int from, int to, int eid, int cost) {
    sync_fixed(a);
    a->st.inserts++;
    if (!pk_insert_cost(&a->pk, from, to, eid, cost)) {
        vec_clear(a->cycle);
        pk_cycle_path(&a->pk, &a->cycle);
#ifdef GSAT_DEBUG
        acyclic_check_cycle_path(a, from, to);
#endif
        return 0;
    }
    return 1;
}

/* Enable guarded edge id (see acyclic_insert_arc). */
int acyclic_enable(acyclic *a, int id) {
    edge *ed = &a->e[id];
    if (!acyclic_insert_arc(a, ed->from, ed->to, id, a->trail_lim.len > 0)) return 0;
    ed->pos = (int)a->trail.len;
    vec_push(a->trail, id);
    propagate_after_insert(a, id);
    return 1;
}

