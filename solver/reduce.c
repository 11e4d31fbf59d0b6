/* reduce.c — learned-clause database reduction, in tiers:
 *   core  (LBD <= core_lbd): kept forever;
 *   tier2 (LBD <= tier2_lbd): kept while it keeps taking part in conflicts;
 *   local: sorted by LBD then activity, the worse half is deleted.
 * Clauses that are the reason of an assigned literal are never deleted.
 * Theory reason clauses that no longer explain anything go too.  The
 * interval between reductions grows linearly (reduce_first + k*reduce_inc). */
#include <stdlib.h>

#include "solver/solver.h"

/* Is clause r the reason of a literal now true (it must stay)? */
static int solver_clause_locked(const gsat *s, cref_t r) {
    const clause *c = CL(s, r);
    for (uint32_t k = 0; k < c->size && k < 2; k++) {
        lit_t l = c->lits[k];
        if (s->vals[l] > 0 && s->vinfo[lvar(l)].reason == r) return 1;
    }
    return 0;
}

typedef struct cand { uint32_t lbd; float act; cref_t r; } cand;

static int worse_first(const void *a, const void *b) {
    const cand *x = a, *y = b;
    if (x->lbd != y->lbd) return x->lbd > y->lbd ? -1 : 1;
    if (x->act != y->act) return x->act < y->act ? -1 : 1;
    return x->r < y->r ? -1 : (x->r > y->r);
}

void solver_reduce_db(gsat *s) {
    s->st.reductions++;
    VEC(cand) cands; vec_init(cands);
    for (size_t i = 0; i < s->learnts.len; i++) {
        cref_t r = s->learnts.data[i];
        clause *c = CL(s, r);
        uint32_t lbd = cl_lbd(c);
        if (c->size <= 2 || lbd <= (uint32_t)s->opt.core_lbd) continue;
        if (lbd <= (uint32_t)s->opt.tier2_lbd && (c->flags & CL_USED)) { c->flags &= ~(uint32_t)CL_USED; continue; }
        c->flags &= ~(uint32_t)CL_USED;
        if (solver_clause_locked(s, r)) continue;
        cand x = {lbd, cl_activity(c), r};
        vec_push(cands, x);
    }
    if (cands.len > 1) qsort(cands.data, cands.len, sizeof *cands.data, worse_first);
    size_t drop = cands.len / 2;
    for (size_t i = 0; i < drop; i++) arena_free_clause(s, cands.data[i].r);
    s->st.reduced += (int64_t)drop;
    vec_free(cands);

    size_t j = 0;
    for (size_t i = 0; i < s->learnts.len; i++)
        if (!(CL(s, s->learnts.data[i])->flags & CL_GARBAGE)) s->learnts.data[j++] = s->learnts.data[i];
    s->learnts.len = j;

    j = 0;
    for (size_t i = 0; i < s->treasons.len; i++) {
        cref_t r = s->treasons.data[i];
        if (solver_clause_locked(s, r)) s->treasons.data[j++] = r;
        else arena_free_clause(s, r);
    }
    s->treasons.len = j;

    /* rebuilding the watches costs a pass over every clause: not when
     * nothing went (a theory-driven search may learn nothing at all) */
    if (s->ca.unpurged) arena_collect(s);
    s->reduce_interval += s->opt.reduce_inc;
    s->next_reduce = s->st.conflicts + s->reduce_interval;
    if (s->progress_fn) s->progress_fn(s->progress_state, s);
}
