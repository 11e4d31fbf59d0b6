/* acyclic.c — the graph acyclicity theory (contract in acyclic.h): the
 * callbacks that mirror the engine's trail, creation and destruction.
 * The other jobs live beside it (acyclic_internal.h lists them). */
#include "fatal.h"
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

static const gsat_option options[ACYCLIC_NUM_OPTIONS] = {
#define X(name, def, lo, hi, help) {#name, def, lo, hi, help},
    ACYCLIC_OPTIONS(X)
#undef X
};

static inline void maybe_presort(acyclic *a) {
    if (a->presort_due && !a->trail_lim.len) {
        if (OPTION(a, theory_presort)) acyclic_presort(a);
        else a->presort_due = 0;
    }
}

/* Presorting waits for the first callback of the solve: by then the
 * level-0 facts of the solve are known (guard_value). */
static void th_solve_start(void *t, const int *assumptions, int n) {
    acyclic *a = t;
    vec_clear(a->assumed);
    for (int i = 0; i < n; i++) vec_push(a->assumed, assumptions[i]);
    a->presort_due = 1;
    sync_fixed(a);
    gcsr_sync(a);
}

static int th_assigned(void *t, int lit) {
    acyclic *a = t;
    flush_taken_back(a);
    if (lit_var(lit) >= a->cap_vars) return 0;
    maybe_presort(a);
    prefetch_guard_ends(a, lit);
    for (int id = a->guard_head[lit_index(lit)]; id >= 0; id = a->e[id].next_guarded) {
        if (a->e[id].pos >= 0) continue;
        if (!acyclic_enable(a, id)) { a->conflict_edge = id; return 1; }
    }
    return 0;
}

static void th_new_level(void *t) {
    acyclic *a = t;
    flush_taken_back(a);
    maybe_presort(a);
    vec_push(a->trail_lim, (int)a->trail.len);
}

static void drop_pending(acyclic *a) {
    for (size_t i = 0; i < a->pending.len; i++) a->vflag[lit_var(a->pending.data[i])] &= (uint8_t)~VF_PENDING;
    vec_clear(a->pending);
}

/* The edge trail may have holes: entries of edges disabled by
 * th_unassign (their pos no longer names the entry).
 *
 * Above level 0 (option keep_trail) edges may be on above the level of
 * their guard: edges of true guards added to the graph there, guards told
 * late (watched after they were set); always-on edges are never on the
 * trail (fixed arcs of the order, add_fixed), so no backtrack removes them.  A
 * backtrack that keeps such an edge's guard, told, keeps the edge: it
 * stays in the order and moves to the top of the edge trail (at level 0:
 * on for good).  A guard that is kept but not told (it sits after the
 * engine's new head) is told again, and its edges go off until then. */
static void th_backtrack(void *t, int level) {
    acyclic *a = t;
    flush_taken_back(a);
    drop_pending(a);
    if (level < 0 || (size_t)level >= a->trail_lim.len) return;
    size_t keep = (size_t)a->trail_lim.data[level];
    vec_clear(a->late);
    while (a->trail.len > keep) {
        int id = vec_pop(a->trail);
        edge *ed = &a->e[id];
        if (ed->pos != (int)a->trail.len) continue;      /* a hole */
        if (a->late_on && guard_value(a, ed->lit) > 0 && gsat_theory_told(a->s, a->th, ed->lit)) {
            vec_push(a->late, id);
            continue;
        }
        pk_remove(&a->pk, ed->from, ed->to, id);
        ed->pos = -1;
    }
    vec_shrink(a->trail_lim, (size_t)level);
    for (size_t i = a->late.len; i-- > 0;) {            /* in their old order */
        a->e[a->late.data[i]].pos = (int)a->trail.len;
        vec_push(a->trail, a->late.data[i]);
    }
}

/* Partial backtracking takes back single literals: their edges are
 * recorded in taken_back and stay in the order until the partial
 * backtrack is over (flush_taken_back, on the next call of any other
 * kind), so that acyclic_th_implied_still (acyclic_explain.c) judges
 * later implied literals by the graph they were implied in.  Disabled edges leave holes in the edge
 * trail: positions of later edges, level marks and the limits of lazy
 * reasons stay valid.  Pending implications may rest on those edges. */
void acyclic_flush_taken_back(acyclic *a) {
    if (!a->gone.len) return;
    for (size_t i = 0; i < a->gone.len; i++) a->vflag[a->gone.data[i]] &= (uint8_t)~VF_GONE;
    vec_clear(a->gone);
    for (size_t i = 0; i < a->taken_back.len; i++) {
        edge *ed = &a->e[a->taken_back.data[i].edge];
        pk_remove(&a->pk, ed->from, ed->to, a->taken_back.data[i].edge);
        ed->pos = -1;
    }
    vec_clear(a->taken_back);
}

static void th_unassign(void *t, int lit) {
    acyclic *a = t;
    if (!lit) { flush_taken_back(a); return; }      /* a partial backtrack starts */
    drop_pending(a);
    if (lit_var(lit) >= a->cap_vars) return;
    if (!(a->vflag[lit_var(lit)] & VF_GONE)) {
        a->vflag[lit_var(lit)] |= VF_GONE;
        vec_push(a->gone, lit_var(lit));
    }
    for (int id = a->guard_head[lit_index(lit)]; id >= 0; id = a->e[id].next_guarded)
        if (a->e[id].pos >= 0) vec_push(a->taken_back, ((reach){a->e[id].pos, id}));
}

static int th_propagate(void *t, vec_int *out) {
    acyclic *a = t;
    flush_taken_back(a);
    int n = 0;
    for (size_t i = 0; i < a->pending.len; i++) {
        int lit = a->pending.data[i];
        a->vflag[lit_var(lit)] &= (uint8_t)~VF_PENDING;
        if (guard_value(a, lit) == 0) { vec_push(*out, lit); n++; }
    }
    vec_clear(a->pending);
    return n;
}

static int th_final_check(void *t) {
    acyclic *a = t;
    flush_taken_back(a);
    (void)a;
#ifdef GSAT_DEBUG
    if (!acyclic_verify(a)) internal_error("gsat", "acyclicity theory inconsistent at final check");
#endif
    return 0;
}

static void th_destroy(void *t) {
    acyclic *a = t;
    pk_free(&a->pk);
    free(a->e); free(a->rec_bits); free(a->rec_rank); free(a->fixed);
    free(a->guard_head); free(a->implied_edge); free(a->implied_limit);
    free(a->vflag);
    for (int side = 0; side < 2; side++) {
        for (int b = 0; b < a->gc[side].nblk; b++) free(a->gc[side].blk[b].arcs);
        free(a->gc[side].blk); free(a->gc[side].start); free(a->gc[side].head);
        vec_free(a->gc[side].pool);
    }
    free(a->seen2);
    vec_free(a->trail); vec_free(a->trail_lim); vec_free(a->pending); vec_free(a->taken_back);
    vec_free(a->assumed); vec_free(a->late);
    vec_free(a->gone);
    vec_free(a->stack); vec_free(a->cur); vec_free(a->next); vec_free(a->cycle); vec_free(a->cand);
    for (size_t g = 0; g < a->graphs.len; g++) vec_free(a->graphs.data[g].node);
    vec_free(a->graphs);
    free(a);
}

static const theory_ops ops = {
    .name = "acyclic",
    .assigned = th_assigned,
    .new_level = th_new_level,
    .backtrack = th_backtrack,
    .propagate = th_propagate,
    .reason = acyclic_th_reason,
    .conflict = acyclic_th_conflict,
    .final_check = th_final_check,
    .destroy = th_destroy,
    .unassign = th_unassign,
    .implied_still = acyclic_th_implied_still,
    .solve_start = th_solve_start,
};

/* ---- construction ------------------------------------------------------- */

const int64_t *acyclic_add_options(gsat *s) { return gsat_add_options(s, options, ACYCLIC_NUM_OPTIONS); }

const acyclic *acyclic_find(const gsat *s) { return gsat_theory_find(s, &ops); }

acyclic *acyclic_of(gsat *s) {
    acyclic *found = gsat_theory_find(s, &ops);
    if (found) return found;
    const int64_t *opt = acyclic_add_options(s);
    if (!opt) return NULL;
    acyclic *a = xcalloc(1, sizeof *a);
    a->s = s;
    a->opt = opt;
    pk_init(&a->pk);
    a->gc[0].shift = a->gc[1].shift = GBLOCK_SHIFT;
    a->conflict_edge = -1;
    a->th = gsat_add_theory(s, &ops, a);
    if (a->th < 0) { th_destroy(a); return NULL; }
    gsat_theory_set_phase(s, a->th, acyclic_th_phase);
    /* The engine counts levels from its current one; mirror them. */
    for (int l = 0; l < gsat_decision_level(s); l++) th_new_level(a);
    return a;
}

void acyclic_set_runner(acyclic *a, pk_run_fn run, void *ctx) { a->pk.run = run; a->pk.run_ctx = ctx; }
int acyclic_num_nodes(const acyclic *a) { return a->pk.num_nodes; }
int acyclic_num_edges(const acyclic *a) { return a->num_edges; }
acyclic_graph_vec *acyclic_graphs(acyclic *a) { return &a->graphs; }

void acyclic_get_stats(const acyclic *a, acyclic_stats *out) {
    *out = a->st;
    out->pk_searches = a->pk.searches;
    out->pk_visited = a->pk.visited;
    out->block_merges = a->pk.block_merges;
}

