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
 * falsified (a missed implication, search.c), so answers stay exact. */
#include <assert.h>

#include "solver/solver.h"

int unassign_supported(const gsat *s) {
    if (!s->opt.partial_backtrack) return 0;
    for (int th = 0; th < s->ntheories; th++)
        if (!s->theories[th].ops->unassign) return 0;
    return 1;
}

/* Renumbered trail position x, given how many literals before it went. */
static inline void renumber(uint32_t *x, uint32_t at, uint32_t gone_before) {
    if (*x == at) *x = at - gone_before;
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

void unassign_dependents(gsat *s, lit_t p) {
    uint8_t *gone = s->seen;             /* analysis marks are clear here */
    uint32_t pv = lvar(p), start = s->trail_pos[pv];
    int min_level = var_level(s, pv);
    assert(s->vals[p] > 0 && min_level > 0);
    for (int th = 0; th < s->ntheories; th++) s->theories[th].ops->unassign(s->theories[th].t, 0);
    gone[pv] = 1;
    uint32_t told = tell_gone(s, start);  /* theories that lost a literal */
    for (uint32_t i = start + 1; i < s->trail_n; i++) {
        uint32_t v = lvar(s->trail[i]);
        cref_t r = s->vinfo[v].reason;
        /* a dependent's level is at least min_level: its reason holds p */
        if (r == CREF_NONE || var_level(s, v) < min_level) continue;
        int dep = 0;
        if (reason_is_theory(r)) {
            int th = (int)(r - REASON_THEORY0);
            if (!(told & (1u << th))) continue;
            dep = !theory_still_implied(s, v, th);
        } else {
            const clause *c = CL(s, r);
            for (uint32_t k = 0; k < c->size && !dep; k++) dep = lvar(c->lits[k]) != v && gone[lvar(c->lits[k])];
        }
        if (dep) { gone[v] = 1; told |= tell_gone(s, i); }
    }
    /* compact the trail; renumber level starts, queue head, theory heads */
    size_t k = s->trail_lim.len;
    while (k > 0 && s->trail_lim.data[k - 1] >= start) k--;
    uint32_t qhead = s->qhead, heads[MAX_THEORIES];
    for (int th = 0; th < s->ntheories; th++) heads[th] = s->theories[th].head;
    uint32_t out = start, save = (uint32_t)s->opt.phase_saving;
    for (uint32_t i = start;; i++) {
        uint32_t gone_before = i - out;
        while (k < s->trail_lim.len && s->trail_lim.data[k] == i) s->trail_lim.data[k++] = out;
        renumber(&qhead, i, gone_before);
        for (int th = 0; th < s->ntheories; th++) renumber(&heads[th], i, gone_before);
        if (i == s->trail_n) break;
        lit_t l = s->trail[i];
        uint32_t v = lvar(l);
        if (!gone[v]) {
            s->trail_pos[v] = out;
            s->trail[out++] = l;
            continue;
        }
        gone[v] = 0;
        s->vals[l] = s->vals[l ^ 1] = 0;
        if (save) s->polarity[v] = (uint8_t)(l & 1);
        if (s->heap_index[v] < 0 && s->decision[v]) heap_insert(s, v);
    }
    s->st.partial_backtracks++;
    s->st.partial_unassigned += s->trail_n - out;
    s->trail_n = out;
    s->qhead = qhead;
    for (int th = 0; th < s->ntheories; th++) s->theories[th].head = heads[th];
}
