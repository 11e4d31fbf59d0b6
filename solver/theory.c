/* theory.c — the engine side of solver/theory.h.
 *
 * After BCP reaches a fixpoint, theory_round() tells each theory about the
 * watched literals on the trail past its head, then asks each for implied
 * literals, which go on the trail with the lazy reason REASON_THEORY0 + th.
 * theory_explain() turns such a marker into a real clause (kept in the
 * arena on the treasons list, unwatched) the first time analysis needs it.
 * Theory conflict clauses are stored the same way so that conflict
 * analysis sees one kind of conflict. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "fatal.h"
#include "solver/solver.h"

int gsat_add_theory(gsat *s, const theory_ops *ops, void *t) {
    if (s->ntheories == MAX_THEORIES) return -1;
    theory_slot *ts = &s->theories[s->ntheories];
    ts->ops = ops;
    ts->t = t;
    ts->head = 0;          /* it is told about watched level-0 facts next round */
    ts->phase = NULL;
    vec_init(ts->pending);
    /* a theory joining mid-search sees the current levels as level 0 */
    return s->ntheories++;
}

void *gsat_theory_find(const gsat *s, const theory_ops *ops) {
    for (int th = 0; th < s->ntheories; th++)
        if (s->theories[th].ops == ops) return s->theories[th].t;
    return NULL;
}

void gsat_backtrack_root(gsat *s) { if (!warm_active(s)) solver_backtrack(s, 0); }

void theory_solve_start(gsat *s) {
    int want = 0;
    for (int th = 0; th < s->ntheories; th++) want |= s->theories[th].ops->solve_start != NULL;
    if (!want) return;
    vec_clear(s->tbuf);
    for (size_t i = 0; i < s->assumptions.len; i++) vec_push(s->tbuf, lit_to_dimacs(s->assumptions.data[i]));
    for (int th = 0; th < s->ntheories; th++)
        if (s->theories[th].ops->solve_start)
            s->theories[th].ops->solve_start(s->theories[th].t, s->tbuf.data, (int)s->tbuf.len);
}

void gsat_theory_set_phase(gsat *s, int th, int (*phase)(void *t, int lit)) {
    if (th >= 0 && th < s->ntheories) s->theories[th].phase = phase;
}

void gsat_theory_watch(gsat *s, int th, int var) {
    if (th < 0 || th >= s->ntheories || var <= 0) return;
    solver_reserve_vars(s, var);
    simp_restore_var(s, (uint32_t)var);            /* a guard must be in the formula */
    uint8_t bit = (uint8_t)(1u << th);
    if (s->theory_mask[var] & bit) return;
    s->theory_mask[var] |= bit;
    theory_slot *ts = &s->theories[th];
    lit_t pos = mklit((uint32_t)var, 0);
    if (s->vals[pos] != 0) {
        lit_t l = s->vals[pos] > 0 ? pos : lneg(pos);
        /* already on the trail before the theory's head: deliver later */
        if (s->trail_pos[var] < ts->head) vec_push(ts->pending, l);
    }
}

int gsat_decision_level(const gsat *s) { return (int)decision_level(s); }

int gsat_lit_value_now(const gsat *s, int lit) {
    if (lit == 0) return 0;
    uint32_t v = (uint32_t)(lit < 0 ? -(int64_t)lit : lit);
    if (v > s->nvars) return 0;
    return s->vals[lit_from_dimacs(lit)];
}

int gsat_theory_told(const gsat *s, int th, int lit) {
    if (lit == 0 || th < 0 || th >= s->ntheories) return 0;
    uint32_t v = (uint32_t)(lit < 0 ? -(int64_t)lit : lit);
    if (v > s->nvars || s->vals[lit_from_dimacs(lit)] <= 0) return 0;
    return s->trail_pos[v] < s->theories[th].head;
}

#ifdef GSAT_DEBUG
static void theory_bug(gsat *s, int th, const char *what, int lit) {
    internal_error("gsat", "theory '%s': %s (literal %d)",
                   s->theories[th].ops->name ? s->theories[th].ops->name : "?", what, lit);
}
#endif

/* Convert the DIMACS clause in s->tbuf, store it unwatched; returns its cref. */
static cref_t store_theory_clause(gsat *s, int th, int implied) {
    (void)th;
    vec_clear(s->tlits);
    for (size_t i = 0; i < s->tbuf.len; i++) {
        int d = s->tbuf.data[i];
#ifdef GSAT_DEBUG
        uint32_t v = (uint32_t)(d < 0 ? -(int64_t)d : d);
        if (d == 0 || v > s->nvars) theory_bug(s, th, "clause literal out of range", d);
        lit_t l = lit_from_dimacs(d);
        if (d != implied && s->vals[l] >= 0) theory_bug(s, th, "clause literal is not false", d);
#endif
        vec_push(s->tlits, lit_from_dimacs(d));
    }
    if (implied) {
        lit_t il = lit_from_dimacs(implied);
        size_t k = 0;
        while (k < s->tlits.len && s->tlits.data[k] != il) k++;
#ifdef GSAT_DEBUG
        if (k == s->tlits.len) theory_bug(s, th, "reason does not contain the implied literal", implied);
#endif
        if (k == s->tlits.len) vec_push(s->tlits, il);
        s->tlits.data[k] = s->tlits.data[0];
        s->tlits.data[0] = il;
    }
    s->st.theory_explanation_lits += (int64_t)s->tlits.len;
    cref_t r = arena_alloc(s, s->tlits.data, (uint32_t)s->tlits.len, CL_REASON);
    vec_push(s->treasons, r);
    return r;
}

cref_t theory_explain(gsat *s, uint32_t v, int th) {
    lit_t l = s->vals[mklit(v, 0)] > 0 ? mklit(v, 0) : mklit(v, 1);
    int d = lit_to_dimacs(l);
    vec_clear(s->tbuf);
    s->theories[th].ops->reason(s->theories[th].t, d, &s->tbuf);
    s->st.theory_explanations++;
    cref_t r = store_theory_clause(s, th, d);
#ifdef GSAT_DEBUG
    {
        clause *c = CL(s, r);
        for (uint32_t k = 1; k < c->size; k++)
            if (s->trail_pos[lvar(c->lits[k])] > s->trail_pos[v])
                theory_bug(s, th, "reason literal assigned after the implied literal", lit_to_dimacs(c->lits[k]));
    }
#endif
    s->vinfo[v].reason = r;
    return r;
}

int theory_still_implied(gsat *s, uint32_t v, int th) {
    const theory_slot *ts = &s->theories[th];
    if (!ts->ops->implied_still) return 0;
    lit_t l = s->vals[mklit(v, 0)] > 0 ? mklit(v, 0) : mklit(v, 1);
    int d = lit_to_dimacs(l);
    vec_clear(s->tbuf);
    if (!ts->ops->implied_still(ts->t, d, &s->tbuf)) return 0;
    if (s->tbuf.len) {
        s->st.theory_explanations++;
        s->vinfo[v].reason = store_theory_clause(s, th, d);
    }
    return 1;
}

static cref_t theory_conflict(gsat *s, int th) {
    vec_clear(s->tbuf);
    s->theories[th].ops->conflict(s->theories[th].t, &s->tbuf);
    s->st.theory_conflicts++;
    return store_theory_clause(s, th, 0);
}

/* The literal whose report put the theory in conflict is taken back from
 * it and will be reported again: partial backtracking may keep it
 * assigned, and the theory may have acted on it only in part. */
static void untell(theory_slot *ts, lit_t l) { ts->ops->unassign(ts->t, lit_to_dimacs(l)); }

cref_t theory_round(gsat *s, int *progress) {
    *progress = 0;
    for (int th = 0; th < s->ntheories; th++) {
        theory_slot *ts = &s->theories[th];
        uint32_t bit = 1u << th;
        while (ts->pending.len) {
            lit_t l = vec_pop(ts->pending);
            /* one that a backtrack moved past the head is reported from
             * there (keep_trail: a level-0 fact out of order), so that
             * what the theory acted on is always before its head */
            if (s->vals[l] > 0 && s->trail_pos[lvar(l)] < ts->head && ts->ops->assigned(ts->t, lit_to_dimacs(l))) {
                cref_t c = theory_conflict(s, th);
                if (ts->ops->unassign) { untell(ts, l); vec_push(ts->pending, l); }
                return c;
            }
        }
        while (ts->head < s->trail_n) {
            lit_t l = s->trail[ts->head++];
            if ((s->theory_mask[lvar(l)] & bit) && ts->ops->assigned(ts->t, lit_to_dimacs(l))) {
                cref_t c = theory_conflict(s, th);
                if (ts->ops->unassign) { untell(ts, l); ts->head--; }
                return c;
            }
        }
    }
    for (int th = 0; th < s->ntheories; th++) {
        theory_slot *ts = &s->theories[th];
        if (!ts->ops->propagate) continue;
        vec_int *outp = &s->tout;
        vec_clear(*outp);
        ts->ops->propagate(ts->t, outp);
        vec_int out = *outp;
        for (size_t i = 0; i < out.len; i++) {
            int d = out.data[i];
            uint32_t v = (uint32_t)(d < 0 ? -(int64_t)d : d);
#ifdef GSAT_DEBUG
            if (d == 0 || v > s->nvars) theory_bug(s, th, "implied literal out of range", d);
#endif
            if (d == 0 || v > s->nvars) continue;
            lit_t l = lit_from_dimacs(d);
            if (s->vals[l] > 0) continue;
            if (s->vals[l] < 0) {
                /* implied but already false: its reason is a conflict */
                vec_clear(s->tbuf);
                ts->ops->reason(ts->t, d, &s->tbuf);
                s->st.theory_conflicts++;
                return store_theory_clause(s, th, 0);
            }
            vec_push(s->tprop_pos, s->trail_n);
            enqueue(s, l, REASON_THEORY0 + (uint32_t)th);
            s->st.theory_propagations++;
            *progress = 1;
        }
        if (*progress) return CREF_NONE;   /* let BCP catch up first */
    }
    return CREF_NONE;
}

cref_t theory_final_check(gsat *s) {
    for (int th = 0; th < s->ntheories; th++) {
        theory_slot *ts = &s->theories[th];
        if (ts->ops->final_check && ts->ops->final_check(ts->t)) return theory_conflict(s, th);
    }
    return CREF_NONE;
}

void theory_new_level(gsat *s) {
    for (int th = 0; th < s->ntheories; th++)
        if (s->theories[th].ops->new_level) s->theories[th].ops->new_level(s->theories[th].t);
}

void theory_backtrack(gsat *s, uint32_t level, uint32_t lim) {
    for (int th = 0; th < s->ntheories; th++) {
        theory_slot *ts = &s->theories[th];
        /* the theory undoes everything it was told from position lim on;
         * literals kept there (chronological backtracking) are told again */
        if (ts->head > lim) ts->head = lim;
        if (ts->ops->backtrack) ts->ops->backtrack(ts->t, (int)level);
    }
}

void theory_free_all(gsat *s) {
    for (int th = 0; th < s->ntheories; th++) {
        theory_slot *ts = &s->theories[th];
        if (ts->ops->destroy) ts->ops->destroy(ts->t);
        vec_free(ts->pending);
    }
    s->ntheories = 0;
}
