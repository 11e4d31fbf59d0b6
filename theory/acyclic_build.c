/* acyclic_build.c — adding nodes and edges to the acyclicity theory: the
 * always-on edges' list and its hand-over to the order, guarded edges'
 * records, guards and arrays (contract in acyclic.h; state in
 * acyclic_internal.h). */
#include "fatal.h"
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

static void ensure_vars(acyclic *a, int var) {
    if (var < a->cap_vars) return;
    /* every variable at once, at its exact count (a reader adds edges after
     * naming them all); later growth by half again */
    int all = gsat_num_vars(a->s), cap = (var > all ? var : all) + 1;
    if (cap < a->cap_vars + a->cap_vars / 2) cap = a->cap_vars + a->cap_vars / 2;   /* zeroed whole: not doubled */
    if (cap < 64) cap = 64;
    a->guard_head = big_realloc(a->guard_head, 2 * (size_t)cap * sizeof *a->guard_head);
    a->implied_edge = big_realloc(a->implied_edge, (size_t)cap * sizeof *a->implied_edge);
    BIG_GROW_ZERO(a->implied_limit, a->cap_vars, cap);
    BIG_GROW_ZERO(a->vflag, a->cap_vars, cap);
    for (int i = 2 * a->cap_vars; i < 2 * cap; i++) a->guard_head[i] = -1;
    for (int v = a->cap_vars; v < cap; v++) a->implied_edge[v] = -1;
    a->cap_vars = cap;
}

/* theory_keep_ends off: forget the ends of the always-on edges once all
 * are in the order (a small list is kept for the next ones). */
static void forget_ends(acyclic *a) {
    if (OPTION(a, theory_keep_ends) || a->fixed_in_pk != a->num_fixed || a->fixed_base == a->num_fixed) return;
    a->fixed_base = a->num_fixed;
    if (a->cap_fixed > 65536) {
        free(a->fixed);
        a->fixed = NULL;
        a->cap_fixed = 0;
    }
}

/* Put the always-on edges added since the order was last used into it:
 * straight into its frozen arrays if they are a quarter of those in it or
 * more (bulk loading: O(them + the blocks they touch)), else onto the
 * per-node lists, from which the order merges them into its frozen arrays
 * block by block (pk_order.h: no step touches the whole graph).  Each went
 * forward in the order when added and nothing has reordered since (every
 * user of the order calls this first), so none searches. */
void acyclic_sync_fixed(acyclic *a) {
    if (a->fixed_in_pk == a->num_fixed) return;
    size_t from = a->fixed_in_pk, n = a->num_fixed - from;
    if (n > a->fixed_in_pk / 4 && pk_freeze(&a->pk, a->fixed + 2 * (from - a->fixed_base), n)) a->fixed_in_pk = a->num_fixed;
    for (; a->fixed_in_pk < a->num_fixed; a->fixed_in_pk++) {
        const int *ends = a->fixed + 2 * (a->fixed_in_pk - a->fixed_base);
        if (!pk_insert_cost(&a->pk, ends[0], ends[1], PK_FIXED, 0)) {
            /* cannot happen (it went forward and nothing reordered); were it
             * to, an edge silently missing could make a cyclic graph pass */
            internal_error("gsat", "an always-on edge no longer fits the order");
        }
        assert(!a->pk.searched);
    }
    forget_ends(a);
}

void acyclic_set_block_shift(acyclic *a, int shift) {
    assert(!a->pk.num_nodes && shift >= 0 && shift <= 20);
    a->pk.blk_shift = a->gc[0].shift = a->gc[1].shift = shift;
}

int acyclic_add_nodes(acyclic *a, int count) {
    int first = pk_add_nodes(&a->pk, count), n = a->pk.num_nodes;
    if (n > a->cap_nodes) {
        int cap = a->pk.cap_nodes;
        for (int side = 0; side < 2; side++)
            if (side < a->sides || !side) a->gc[side].head = big_realloc(a->gc[side].head, (size_t)cap * sizeof *a->gc[side].head);
        if (a->seen2) {
            a->seen2 = big_realloc(a->seen2, (size_t)cap * sizeof *a->seen2);
            for (int v = a->cap_nodes; v < cap; v++) a->seen2[v] = 0;
        }
        a->cap_nodes = cap;
    }
    for (int side = 0; side < 2; side++)
        if (side < a->sides || !side)
            for (int v = first; v < n; v++) a->gc[side].head[v] = -1;
    return first;
}

void acyclic_reserve_edges(acyclic *a, int always_on, int guarded) {
    size_t listed = a->num_fixed - a->fixed_base;
    if (always_on > 0 && listed + (size_t)always_on > a->cap_fixed) {
        a->cap_fixed = listed + (size_t)always_on;
        a->fixed = big_realloc(a->fixed, 2 * a->cap_fixed * sizeof *a->fixed);
    }
    if (guarded <= 0 || (int64_t)a->num_guarded + guarded <= a->cap_guarded) return;
    if ((int64_t)a->num_guarded + guarded > INT32_MAX) return;      /* add_edge grows as it goes */
    a->cap_guarded = a->num_guarded + guarded;
    a->e = big_realloc(a->e, (size_t)a->cap_guarded * sizeof *a->e);
}

/* An always-on edge: onto the fixed list; into the order now only if it
 * goes against it (a search), else at the next use of the order. */
static void add_fixed(acyclic *a, int id, int from, int to) {
    int forward = a->pk.ord[from] < a->pk.ord[to];
    if (forward) a->st.inserts++;                     /* as acyclic_insert_arc counts the others */
    else {
        while (!acyclic_insert_arc(a, from, to, PK_FIXED, 0)) {
            vec_int cl; vec_init(cl);
            acyclic_conflict_clause(a, 0, &cl);
            int ok = gsat_add_clause(a->s, cl.data, (int)cl.len);
            vec_free(cl);
            /* Above level 0 (keep_trail) the clause took back a guard of
             * the cycle (solver/warm.c): try again; the edge is on for good. */
            if (ok && a->late_on) { flush_taken_back(a); continue; }
            /* closes a cycle of edges on for good: kept as a record that is never on */
            acyclic_new_record(a, id, from, to, 0);
            return;
        }
    }
    size_t listed = a->num_fixed - a->fixed_base;
    if (listed == a->cap_fixed) {
        a->cap_fixed = a->cap_fixed ? 2 * a->cap_fixed : 64;
        a->fixed = big_realloc(a->fixed, 2 * a->cap_fixed * sizeof *a->fixed);
    }
    a->fixed[2 * listed] = from;
    a->fixed[2 * listed + 1] = to;
    a->num_fixed++;
    if (!forward) {                                  /* synced before, and this one inserted */
        a->fixed_in_pk = a->num_fixed;
        forget_ends(a);
    }
}

/* The first guarded edge fixes the sides kept (theory_in_arrays then):
 * the in side's heads are made for the nodes so far. */
static void latch_sides(acyclic *a) {
    a->sides = OPTION(a, theory_in_arrays) ? 2 : 1;
    if (a->sides < 2) return;
    a->gc[1].head = big_realloc(a->gc[1].head, ((size_t)a->cap_nodes ? (size_t)a->cap_nodes : 1) * sizeof *a->gc[1].head);
    for (int v = 0; v < a->pk.num_nodes; v++) a->gc[1].head[v] = -1;
}

void acyclic_prefetch_guarded(const acyclic *a, int from, int to) {
    if (from < 0 || to < 0 || from >= a->pk.num_nodes || to >= a->pk.num_nodes) return;
    if (a->gc[0].head) __builtin_prefetch(&a->gc[0].head[from]);
    if (a->sides > 1) __builtin_prefetch(&a->gc[1].head[to]);
}

int acyclic_add_edge(acyclic *a, int from, int to, int lit) {
    flush_taken_back(a);
    if (a->num_edges == INT32_MAX) xalloc_fail(SIZE_MAX);
    if (gsat_decision_level(a->s) > 0) a->late_on = 1;   /* keep_trail: see th_backtrack */
    int id = a->num_edges++;
    a->st.edges++;
    if (from == to) {                 /* a self-loop can never be on */
        acyclic_new_record(a, id, from, to, lit);
        if (lit) gsat_add_clause(a->s, (int[]){-lit}, 1);
        else gsat_add_clause(a->s, NULL, 0);
        return id;
    }
    if (!lit) { add_fixed(a, id, from, to); return id; }
    int g = acyclic_new_record(a, id, from, to, lit);
    edge *ed = &a->e[g];
    int v = lit_var(lit);
    a->st.guarded_edges++;
    gsat_reserve_vars(a->s, v);
    ensure_vars(a, v);
    ed->next_guarded = a->guard_head[lit_index(lit)];
    a->guard_head[lit_index(lit)] = g;
    if (!a->sides) latch_sides(a);
    for (int side = 0; side < a->sides; side++) gcsr_listed(a, side, side ? to : from, g);
    if (!(a->vflag[v] & VF_WATCHED)) {
        /* the engine delivers the guard later if it is already set */
        a->vflag[v] |= VF_WATCHED;
        gsat_theory_watch(a->s, a->th, v);
        return id;
    }
    if (guard_value(a, lit) <= 0) return id;
    /* Above level 0 (keep_trail) a true guard may still wait on the
     * trail to be reported: then it is, with its edges. */
    if (a->late_on && !gsat_theory_told(a->s, a->th, lit)) return id;
    /* The guard is watched, true, and was reported already: insert now.
     * Above level 0 (keep_trail) the conflict clause takes back only what
     * it must (solver/warm.c); then the edge may close another cycle, or
     * wait for its guard.  Otherwise (level 0) one clause, as always. */
    while (!acyclic_enable(a, g)) {
        vec_int cl; vec_init(cl);
        acyclic_conflict_clause(a, lit, &cl);
        int ok = gsat_add_clause(a->s, cl.data, (int)cl.len);
        vec_free(cl);
        if (!ok || !a->late_on || guard_value(a, lit) <= 0 || !gsat_theory_told(a->s, a->th, lit)) return id;
        flush_taken_back(a);
    }
    return id;
}

/* Ends not kept, nothing listed and the order never used yet: the first
 * use would freeze every listed edge at once (acyclic_sync_fixed: n >
 * fixed_in_pk / 4 holds while the order holds nothing but what was
 * frozen here), and freezing batch after batch gives the same arrays
 * (pk_freeze: a node's arcs in the order they arrived), so the batch goes
 * straight into the order's arrays: the list never holds them (8 bytes an
 * edge, as much again as the arrays while both are alive).  ends are
 * global ids, every edge forward (the caller checked: an identity order,
 * from < to).  0: nothing done, list them. */
static int direct_freeze(acyclic *a, const int *ends, size_t n) {
    if (OPTION(a, theory_keep_ends) || a->order_used || a->fixed_in_pk != a->num_fixed || a->fixed_base != a->num_fixed)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (ends[2 * i] >= ends[2 * i + 1]) return 0;
    if ((size_t)INT32_MAX - (size_t)a->num_edges < n || !pk_freeze(&a->pk, ends, n)) return 0;
    a->num_edges += (int)n;
    a->st.edges += n;
    a->st.inserts += n;                           /* as add_fixed counts a forward edge */
    a->num_fixed += n;
    a->fixed_in_pk = a->fixed_base = a->num_fixed;
    return 1;
}

int acyclic_add_fixed_each(acyclic *a, const int *map, int nodes, size_t n,
                           void (*each)(void *, size_t, size_t, int *), void *ctx, int *buf, size_t chunk) {
    if (!n) return 1;
    flush_taken_back(a);
    int ident = nodes > 0 && map[0] == 0 && gsat_decision_level(a->s) == 0;
    for (int v = 0; v < nodes && ident; v++) ident = map[v] == v && a->pk.ord[v] == v;
    if (!ident || OPTION(a, theory_keep_ends) || a->order_used || a->fixed_in_pk != a->num_fixed ||
        a->fixed_base != a->num_fixed || (size_t)INT32_MAX - (size_t)a->num_edges < n)
        return 0;
    int r = pk_freeze_each(&a->pk, n, nodes, each, ctx, buf, chunk);
    if (r < 1) return r;
    a->num_edges += (int)n;                       /* as direct_freeze */
    a->st.edges += n;
    a->st.inserts += n;
    a->num_fixed += n;
    a->fixed_in_pk = a->fixed_base = a->num_fixed;
    return 1;
}

/* Batch loading of always-on edges (the checker's known edges: tens of
 * millions, numbered so that they go forward).  While the order is the
 * identity on the map's nodes (a new graph whose nodes are consecutive,
 * nothing reordered yet: checked once, in one pass), an edge from < to is
 * forward without reading the order, and goes straight onto the fixed
 * list as add_fixed would put it; any other edge takes acyclic_add_edge's
 * path, after which the order may have changed and every edge does. */
void acyclic_add_fixed_edges(acyclic *a, const int *map, const int *ends, size_t n) {
    if (!n) return;
    flush_taken_back(a);
    size_t nodes = 0;
    for (size_t i = 0; i < 2 * n; i++) if ((size_t)ends[i] + 1 > nodes) nodes = (size_t)ends[i] + 1;
    int base = map[0], ident = gsat_decision_level(a->s) == 0;
    for (size_t v = 0; v < nodes && ident; v++)
        ident = map[v] == base + (int)v && a->pk.ord[base + (int)v] == base + (int)v;
    size_t listed = a->num_fixed - a->fixed_base;
    if (ident && !base && direct_freeze(a, ends, n)) return;
    if (ident && listed + n > a->cap_fixed) {
        a->cap_fixed = listed + n;
        a->fixed = big_realloc(a->fixed, 2 * a->cap_fixed * sizeof *a->fixed);
    }
    for (size_t i = 0; i < n; i++) {
        int from = map[ends[2 * i]], to = map[ends[2 * i + 1]];
        if (ident && from < to) {
            if (a->num_edges == INT32_MAX) xalloc_fail(SIZE_MAX);
            a->num_edges++;
            a->st.edges++;
            a->st.inserts++;                      /* as add_fixed counts a forward edge */
            listed = a->num_fixed - a->fixed_base;
            a->fixed[2 * listed] = from;
            a->fixed[2 * listed + 1] = to;
            a->num_fixed++;
            continue;
        }
        acyclic_add_edge(a, from, to, 0);
        ident = 0;
    }
}
