/* simplify.c — level-0 simplification: with the level-0 trail fully
 * propagated, delete satisfied clauses and strip false literals from the
 * rest.  Level-0 facts never need a reason (analysis skips level 0), so
 * their reasons are dropped first and no clause is locked.  With a proof
 * trace (solver/proof.h) the level-0 literals are traced as units first,
 * and a shortened clause is added before its longer form is deleted. */
#include <assert.h>

#include "solver/proof.h"
#include "solver/solver.h"

/* Trace clause c without its false literals (none true), then c itself
 * deleted, before simplify_list rewrites it in place. */
static void trace_shortened(gsat *s, const clause *c) {
    vec_clear(s->tlits);
    for (uint32_t k = 0; k < c->size; k++)
        if (s->vals[c->lits[k]] == 0) vec_push(s->tlits, c->lits[k]);
    if (s->tlits.len == c->size) return;
    proof_add(s, s->tlits.data, (uint32_t)s->tlits.len);
    proof_delete(s, c->lits, c->size);
}

static void simplify_list(gsat *s, vec_uint *list) {
    size_t j = 0;
    for (size_t i = 0; i < list->len; i++) {
        cref_t r = list->data[i];
        clause *c = CL(s, r);
        if (c->flags & CL_GARBAGE) continue;
        int sat = 0;
        uint32_t n = 0;
        if (s->proof_fn) {            /* the deletion names the clause as it is: before the loop below */
            for (uint32_t k = 0; k < c->size && !sat; k++) sat = s->vals[c->lits[k]] > 0;
            if (sat) { arena_free_clause(s, r); continue; }
            trace_shortened(s, c);
        }
        for (uint32_t k = 0; k < c->size; k++) {
            int v = s->vals[c->lits[k]];
            if (v > 0) { sat = 1; break; }
            if (v == 0) c->lits[n++] = c->lits[k];
        }
        if (sat) { arena_free_clause(s, r); continue; }
        assert(n >= 2);
        if (n < c->size) {
            if (c->flags & CL_LEARNT) {
                float a = cl_activity(c);
                s->ca.wasted += c->size - n;
                c->size = n;
                cl_set_activity(c, a);
            } else {
                s->ca.wasted += c->size - n;
                c->size = n;
            }
        }
        list->data[j++] = r;
    }
    list->len = j;
}

void solver_simplify_level0(gsat *s) {
    assert(decision_level(s) == 0 && s->qhead == s->trail_n);
    unassign_forget(s);               /* clauses lose literals in place */
    watch_flush(s);
    proof_level0_units(s);           /* before their reasons may go */
    for (uint32_t i = 0; i < s->trail_n; i++) s->vinfo[lvar(s->trail[i])].reason = CREF_NONE;
    simplify_list(s, &s->originals);
    simplify_list(s, &s->learnts);
    for (size_t i = 0; i < s->treasons.len; i++) arena_free_clause(s, s->treasons.data[i]);
    s->treasons.len = 0;
    s->st.simplifications++;
    arena_collect(s);
    s->simp_assigns = s->trail_n;
}
