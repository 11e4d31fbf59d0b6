/* unassign.c — partial backtracking: take back one literal and every
 * literal whose reason depends on it, keep the rest of the trail.
 *
 * With chronological backtracking the trail holds literals below the
 * current level, and a conflict may lie entirely below it.  Classically
 * every level above the literal to flip is then undone, although most of
 * those assignments do not depend on it; redoing them (decisions, their
 * propagation, the theory's edges) is where the time went on hard graph
 * instances.  Here only the dependents go: a literal depends on p when its
 * reason clause holds p or a dependent.  Each theory is told at once
 * (unassign(), in trail order) about the literals it knew that go, so that
 * it can say whether a literal it implied later is still implied by what
 * remains, giving a new reason if the old one is gone (implied_still();
 * without it such a literal goes too).  The rest
 * keeps its levels and its order; level starts, the propagation queue and
 * the theories' heads are renumbered.
 *
 * Propagation is not redone for the kept literals: a clause that only a
 * taken-back literal satisfied may now be unit unnoticed.  It shows up as a
 * conflict with a single literal on its level once its last literal is
 * falsified (a missed implication, search.c), so answers stay exact --
 * provided that last literal is watched.  Two-watched-literal propagation
 * skips a clause whose blocker is true even when the blocker is no longer
 * one of its watches, so a clause may have both watches false and be
 * satisfied by a literal nobody watches.  Taking that literal back while
 * the false watches stay left the clause's unassigned literals unwatched:
 * assigning them false later visited nothing, and a model could break the
 * clause (issue 35's repeated values; tests/test_partial_watch.c).  So
 * every watched clause holding a true literal that goes gets non-false
 * watches when both of its watches are false (rewatch).  Classic and
 * chronological backtracking need no such step: a false watch that a
 * blocker taken back let pass was propagated after that blocker was
 * assigned, so it is taken back too or propagated again.  (The conflict
 * clause, also with both watches false, needs none either: its false
 * watch is propagated again from the queue, see propagate.c.)  A
 * non-decision variable is decided once the heap is empty
 * (unassign_owed_pick). */
#include <assert.h>
#include <string.h>

#include "solver/solver.h"

int unassign_supported(const gsat *s) {
    if (!s->opt.partial_backtrack) return 0;
    for (int th = 0; th < s->ntheories; th++)
        if (!s->theories[th].ops->unassign) return 0;
    return 1;
}

/* Trail position x once the literals at the positions in `went`
 * (ascending) are gone: x less the number of them before it. */
static uint32_t shifted(const vec_uint *went, uint32_t x) {
    size_t lo = 0, hi = went->len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (went->data[mid] < x) lo = mid + 1; else hi = mid;
    }
    return x - (uint32_t)lo;
}

/* Occurrence lists over every clause (originals, learned, theory
 * reasons), built at the first partial backtrack and kept up by
 * arena_alloc until clauses move (arena_compact) or change in place
 * (simplification), which drop them.  Variables added since (keep_trail:
 * between solves) get empty lists, whether a backtrack or a new clause
 * finds them first. */
void unassign_forget(gsat *s) {
    s->occ_n = 0;
    vec_clear(s->occ_pool);
}

/* Heads for literals up to 2 * (nvars + 1), the new ones empty. */
static void occ_cover(gsat *s) {
    size_t n = 2 * ((size_t)s->nvars + 1);
    if (n <= s->occ_n) return;
    if (n > s->occ_cap) {
        size_t cap = 2 * s->occ_cap > n ? 2 * s->occ_cap : n;
        s->occ_head = xrealloc(s->occ_head, cap * sizeof *s->occ_head);
        s->occ_cap = cap;
    }
    memset(s->occ_head + s->occ_n, 0xff, (n - s->occ_n) * sizeof *s->occ_head);   /* OCC_NONE */
    s->occ_n = n;
}

void unassign_occ_add(gsat *s, cref_t r) {
    const clause *c = CL(s, r);
    for (uint32_t k = 0; k < c->size; k++) {
        lit_t l = c->lits[k];
        if (l >= s->occ_n) occ_cover(s);
        if (s->occ_pool.len >= OCC_NONE) xalloc_fail(SIZE_MAX);     /* 4G occurrences: 32 GB */
        vec_push(s->occ_pool, ((occ_node){r, s->occ_head[l]}));
        s->occ_head[l] = (uint32_t)s->occ_pool.len - 1;
    }
}

static void occ_list(gsat *s, const vec_uint *list) {
    for (size_t i = 0; i < list->len; i++)
        if (!(CL(s, list->data[i])->flags & CL_GARBAGE)) unassign_occ_add(s, list->data[i]);
}

static void occ_build(gsat *s) {
    vec_clear(s->occ_pool);
    occ_cover(s);
    s->st.partial_lists++;
    occ_list(s, &s->originals);
    occ_list(s, &s->learnts);
    occ_list(s, &s->treasons);
}

/* Min-heap of trail positions (candidates to go, in trail order). */
static void heap_push_pos(vec_uint *h, uint32_t x) {
    vec_push(*h, x);
    size_t i = h->len - 1;
    while (i > 0 && h->data[(i - 1) / 2] > x) { h->data[i] = h->data[(i - 1) / 2]; i = (i - 1) / 2; }
    h->data[i] = x;
}

static uint32_t heap_pop_pos(vec_uint *h) {
    uint32_t top = h->data[0], x = h->data[--h->len];
    size_t i = 0, n = h->len;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h->data[c + 1] < h->data[c]) c++;
        if (h->data[c] >= x) break;
        h->data[i] = h->data[c];
        i = c;
    }
    if (n) h->data[i] = x;
    return top;
}

/* The true literal l goes: queue the literals whose reason clause holds
 * its negation. */
static void queue_dependents(gsat *s, lit_t l) {
    uint32_t lv = lvar(l);
    for (uint32_t i = s->occ_head[l ^ 1]; i != OCC_NONE; i = s->occ_pool.data[i].next) {
        cref_t r = s->occ_pool.data[i].cref;
        const clause *c = CL(s, r);
        if (c->flags & CL_GARBAGE) continue;
        for (uint32_t k = 0; k < c->size; k++) {
            lit_t q = c->lits[k];
            uint32_t u = lvar(q);
            if (u != lv && s->vals[q] > 0 && s->vinfo[u].reason == r && !s->seen[u])
                heap_push_pos(&s->dep_heap, s->trail_pos[u]);
        }
    }
}

/* Literal trail[i] goes: tell the theories that know it. */
static uint32_t tell_gone(gsat *s, uint32_t i) {
    uint32_t v = lvar(s->trail[i]), told = 0;
    for (int th = 0; th < s->ntheories; th++) {
        theory_slot *ts = &s->theories[th];
        if (!(s->theory_mask[v] & (1u << th)) || i >= ts->head) continue;
        ts->ops->unassign(ts->t, lit_to_dimacs(s->trail[i]));
        told |= 1u << th;
    }
    return told;
}

/* Clause r held a true literal that went: if both watches are false,
 * watch a non-false literal (it has one, the one that went) instead of
 * the earlier of them on the trail; two if there are two.  Theory reasons
 * are not watched; binary clauses watch both literals. */
static void rewatch(gsat *s, cref_t r) {
    const clause *c = CL(s, r);
    if (c->size <= 2 || (c->flags & (CL_GARBAGE | CL_REASON))) return;
    const int8_t *vals = s->vals;
    if (vals[c->lits[0]] >= 0 || vals[c->lits[1]] >= 0) return;
    uint32_t i = 0, j = 0;
    for (uint32_t k = 2; k < c->size && !j; k++)
        if (vals[c->lits[k]] >= 0) { if (i) j = k; else i = k; }
    assert(i);
    if (!j) j = s->trail_pos[lvar(c->lits[0])] > s->trail_pos[lvar(c->lits[1])] ? 0 : 1;
    watch_move(s, r, i, j);
    s->st.partial_rewatched++;
}

/* Every clause holding a literal that went (the trail positions `went`,
 * read before the trail is compacted), now unassigned. */
static void rewatch_all(gsat *s, const vec_uint *went) {
    for (size_t g = 0; g < went->len; g++)
        for (uint32_t i = s->occ_head[s->trail[went->data[g]]]; i != OCC_NONE; i = s->occ_pool.data[i].next)
            rewatch(s, s->occ_pool.data[i].cref);
}

/* Non-decision variables (gsat_set_decision_var: the GNF reader's and the
 * MonoSAT layer's edge variables tied to their class's representative)
 * get their values from propagation alone.  One that partial backtracking
 * takes back may be left in a clause that is now unit unnoticed (above):
 * nothing would assign it again, even after it is assigned and taken back
 * again by a later backtrack of any kind, and the search would end with
 * it unassigned, a model breaking the clause.  So once partial
 * backtracking has happened, the search does not end while a non-decision
 * variable is unassigned: deciding it false finds such a clause false, as
 * for any other literal.  The scan goes on from where the last one
 * stopped and ends after a whole pass that found none (one pass a model;
 * none at all for callers that never made a variable non-decision, such
 * as the checker). */
lit_t unassign_owed_pick(gsat *s) {
    if (!s->has_nondecision || !s->st.partial_backtracks) return LIT_UNDEF;
    uint32_t from = s->owed_next ? s->owed_next : 1;
    for (;;) {
        for (uint32_t v = from; v <= s->nvars; v++)
            if (!s->decision[v] && !s->vals[mklit(v, 0)] && !simp_removed(s, v)) {
                s->owed_next = v + 1;
                s->st.partial_owed++;
                return mklit(v, s->polarity[v]);
            }
        if (from == 1) break;
        from = 1;                        /* once more from the start: a backtrack may have taken some back */
    }
    s->owed_next = 1;
    return LIT_UNDEF;
}

#ifdef GSAT_DEBUG
/* After a partial backtrack: positions agree with the trail, every kept
 * clause reason has its other literals false and earlier on the trail,
 * and tprop_pos lists each unexplained theory-implied literal, ascending. */
static void check_trail(const gsat *s) {
    size_t t = 0;
    for (uint32_t i = 0; i < s->trail_n; i++) {
        lit_t l = s->trail[i];
        uint32_t v = lvar(l);
        assert(s->vals[l] > 0 && s->trail_pos[v] == i && !s->seen[v]);
        cref_t r = s->vinfo[v].reason;
        while (t < s->tprop_pos.len && s->tprop_pos.data[t] < i) t++;
        if (reason_is_theory(r)) assert(t < s->tprop_pos.len && s->tprop_pos.data[t] == i);
        if (r == CREF_NONE || reason_is_theory(r)) continue;
        const clause *c = CL(s, r);
        int holds = 0;
        for (uint32_t k = 0; k < c->size; k++) {
            lit_t q = c->lits[k];
            if (q == l) { holds = 1; continue; }
            assert(s->vals[q] < 0 && s->trail_pos[lvar(q)] < i);
        }
        assert(holds);
    }
    for (size_t k = 1; k < s->tprop_pos.len; k++) assert(s->tprop_pos.data[k - 1] < s->tprop_pos.data[k]);
}
#endif

void unassign_dependents(gsat *s, lit_t p) {
    uint8_t *gone = s->seen;             /* analysis marks are clear here */
    uint32_t pv = lvar(p), start = s->trail_pos[pv];
    int min_level = var_level(s, pv);
    assert(s->vals[p] > 0 && min_level > 0);
    if (!s->occ_n) occ_build(s);
    else occ_cover(s);                   /* variables added since: empty lists */
    for (int th = 0; th < s->ntheories; th++) s->theories[th].ops->unassign(s->theories[th].t, 0);
    /* Who goes, in trail order: the literals whose reason clause holds
     * one that goes (found through the occurrence lists), and the
     * theory-implied literals (tprop_pos) that their theory no longer
     * implies once told what went before them.  Only these are visited,
     * not the whole trail suffix. */
    vec_uint *heap = &s->dep_heap, *went = &s->dep_gone;
    vec_clear(*heap);
    vec_clear(*went);
    gone[pv] = 1;
    vec_push(*went, start);
    uint32_t told = tell_gone(s, start);  /* theories that lost a literal */
    queue_dependents(s, p);
    size_t tc = s->tprop_pos.len;
    while (tc > 0 && s->tprop_pos.data[tc - 1] > start) tc--;
    for (;;) {
        uint32_t i;
        int from_theory;
        if (tc < s->tprop_pos.len && (!heap->len || s->tprop_pos.data[tc] < heap->data[0])) {
            i = s->tprop_pos.data[tc++];
            from_theory = 1;
        } else if (heap->len) {
            i = heap_pop_pos(heap);
            from_theory = 0;
        } else break;
        uint32_t v = lvar(s->trail[i]);
        if (gone[v]) continue;           /* queued twice */
        cref_t r = s->vinfo[v].reason;
        if (from_theory) {
            /* explained since: a clause reason, reached through the lists */
            if (!reason_is_theory(r) || var_level(s, v) < min_level) continue;
            int th = (int)(r - REASON_THEORY0);
            if (!(told & (1u << th)) || theory_still_implied(s, v, th)) continue;
        }
        gone[v] = 1;
        vec_push(*went, i);
        told |= tell_gone(s, i);
        queue_dependents(s, s->trail[i]);
    }
    /* compact the trail, moving the kept stretches between the gone
     * literals; renumber level starts, queue head, theory heads and
     * theory-implied positions (a position moves down by the number of
     * gone literals before it) */
    uint32_t save = (uint32_t)s->opt.phase_saving;
    int late = s->late_count > 0, dirty = s->model_full > 0;
    for (size_t g = 0; g < went->len; g++) {
        lit_t l = s->trail[went->data[g]];
        uint32_t v = lvar(l);
        gone[v] = 0;
        s->vals[l] = s->vals[l ^ 1] = 0;
        if (save) s->polarity[v] = (uint8_t)(l & 1);
        if (late | dirty) warm_taken_back(s, v, late, dirty);   /* keep_trail: solver/warm.c */
        if (s->heap_index[v] < 0 && s->decision[v]) heap_insert(s, v);
    }
    if (dirty) warm_dirty_bound(s);
    rewatch_all(s, went);                /* before the trail is compacted: went names positions */
    uint32_t out = start;
    for (size_t g = 0; g < went->len; g++) {
        uint32_t to = g + 1 < went->len ? went->data[g + 1] : s->trail_n;
        for (uint32_t i = went->data[g] + 1; i < to; i++) {
            lit_t l = s->trail[i];
            s->trail_pos[lvar(l)] = out;
            s->trail[out++] = l;
        }
    }
    /* level starts, ascending like went: each less the gone positions
     * before it (as shifted counts them) in one merge, not a binary search
     * a level (chronological backtracking keeps tens of thousands of
     * levels above a partial backtrack's few gone literals: the searches'
     * mispredicted branches were a third of this function on rw 100k) */
    size_t k = s->trail_lim.len;
    while (k > 0 && s->trail_lim.data[k - 1] >= start) k--;
    for (size_t gk = 0; k < s->trail_lim.len; k++) {
        uint32_t x = s->trail_lim.data[k];
        while (gk < went->len && went->data[gk] < x) gk++;
        s->trail_lim.data[k] = x - (uint32_t)gk;
    }
    for (int th = 0; th < s->ntheories; th++) s->theories[th].head = shifted(went, s->theories[th].head);
    s->qhead = shifted(went, s->qhead);
    size_t ti = s->tprop_pos.len;
    while (ti > 0 && s->tprop_pos.data[ti - 1] >= start) ti--;
    size_t tj = ti, gi = 0;
    for (; ti < s->tprop_pos.len; ti++) {
        uint32_t x = s->tprop_pos.data[ti];
        while (gi < went->len && went->data[gi] < x) gi++;
        if (gi < went->len && went->data[gi] == x) continue;
        s->tprop_pos.data[tj++] = x - (uint32_t)gi;
    }
    s->tprop_pos.len = tj;
    s->st.partial_backtracks++;
    s->st.partial_unassigned += s->trail_n - out;
    s->trail_n = out;
#ifdef GSAT_DEBUG
    check_trail(s);
#endif
}
