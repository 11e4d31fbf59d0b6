/* simp.c — the preprocessor's driver (contract in simp.h): when it runs,
 * which variables must stay, the order of the techniques, and putting the
 * engine back together afterwards; also gsat_freeze() / gsat_melt().
 *
 * A run, at level 0 with the trail propagated: level-0 simplification,
 * equivalent-literal substitution, occurrence lists, subsumption and
 * strengthening of every clause, then variable elimination (with
 * subsumption by each round's resolvents), all under one work budget
 * (simp_effort steps per literal of the formula, at least a million).
 * Afterwards learned clauses naming removed variables are deleted, the
 * watches rebuilt and the units found propagated through them. */
#include <assert.h>
#include <stdlib.h>

#include "solver/simp_state.h"

#define GROW(p, oldn, newn) do { \
        (p) = xrealloc((p), (size_t)(newn) * sizeof *(p)); \
        memset((p) + (oldn), 0, ((size_t)(newn) - (size_t)(oldn)) * sizeof *(p)); \
    } while (0)

static simp *simp_get(gsat *s) {
    if (!s->simp) s->simp = xcalloc(1, sizeof *s->simp);
    return s->simp;
}

static void simp_ensure(gsat *s) {
    simp *p = simp_get(s);
    if (p->cap >= s->nvars && p->frozen) return;
    uint32_t old = p->frozen ? p->cap + 1 : 0, cap = s->nvars, nc = cap + 1;
    if (!old) {                 /* zero pages: nothing touched until used */
        p->frozen = xcalloc(nc, sizeof *p->frozen);
        p->removed = xcalloc(nc, sizeof *p->removed);
        p->saved_decision = xcalloc(nc, sizeof *p->saved_decision);
        p->ext_begin = xcalloc(nc, sizeof *p->ext_begin);
        p->ext_end = xcalloc(nc, sizeof *p->ext_end);
        p->cap = cap;
        return;
    }
    GROW(p->frozen, old, nc);
    GROW(p->removed, old, nc);
    GROW(p->saved_decision, old, nc);
    GROW(p->ext_begin, old, nc);
    GROW(p->ext_end, old, nc);
    p->cap = cap;
}

void simp_free(gsat *s) {
    simp *p = s->simp;
    if (!p) return;
    free(p->frozen); free(p->removed); free(p->saved_decision);
    free(p->ext_begin); free(p->ext_end);
    vec_free(p->ext);
    free(p);
    s->simp = NULL;
}

int simp_removed(const gsat *s, uint32_t v) {
    const simp *p = s->simp;
    return p && v <= p->cap && p->removed[v] != SIMP_ACTIVE;
}

void simp_mark_removed(simp_run *r, uint32_t v, int kind) {
    gsat *s = r->s;
    simp *p = r->p;
    assert(p->removed[v] == SIMP_ACTIVE && s->vals[mklit(v, 0)] == 0);
    p->removed[v] = (uint8_t)kind;
    p->saved_decision[v] = s->decision[v];
    s->decision[v] = 0;
    if (kind == SIMP_ELIMINATED) s->st.simp_eliminated++;
    else s->st.simp_substituted++;
}

void simp_set_saved_decision(gsat *s, uint32_t v, int is_decision) {
    if (simp_removed(s, v)) s->simp->saved_decision[v] = is_decision ? 1 : 0;
}

/* ---- freezing ------------------------------------------------------------ */

static void freeze(gsat *s, int var) {
    solver_reserve_vars(s, var);
    simp_ensure(s);
    solver_backtrack(s, 0);
    simp_restore_var(s, (uint32_t)var);
    s->simp->frozen[var]++;
}

void gsat_freeze(gsat *s, int var) {
    if (s->in_error || var <= 0) return;
    if (var > GSAT_MAX_VARS) {
        gsat_fail(s, __func__, "variable %d is above GSAT_MAX_VARS (%d)", var, GSAT_MAX_VARS);
        return;
    }
    GUARDED_VOID(s, freeze(s, var));
}

void gsat_melt(gsat *s, int var) {
    if (var <= 0 || !s->simp || (uint32_t)var > s->simp->cap) return;
    if (s->simp->frozen[var]) s->simp->frozen[var]--;
}

int gsat_is_frozen(const gsat *s, int var) {
    return var > 0 && s->simp && (uint32_t)var <= s->simp->cap && s->simp->frozen[var] > 0;
}

int gsat_is_removed(const gsat *s, int var) {
    return var > 0 && simp_removed(s, (uint32_t)var);
}

/* ---- a run ---------------------------------------------------------------- */

/* Which variables must stay in this run. */
static void compute_frozen(simp_run *r) {
    gsat *s = r->s;
    simp *p = r->p;
    r->frozen = xcalloc((size_t)s->nvars + 1, 1);
    for (size_t i = 0; i < s->assumptions.len; i++) r->frozen[lvar(s->assumptions.data[i])] = 1;
    for (uint32_t v = 1; v <= s->nvars; v++) {
        if (p->frozen[v] || s->theory_mask[v]) r->frozen[v] = 1;
        if (!p->removed[v] && !s->vals[mklit(v, 0)] && !s->decision[v]) r->any_nondecision = 1;
    }
}

/* Is some variable left that could be removed (an unfrozen, unassigned
 * decision variable)?  Variables that are not decision variables follow
 * from propagation (e.g. the edge variables the GNF reader ties to their
 * alternative's guard) and stay. */
static int has_candidates(const simp_run *r) {
    const gsat *s = r->s;
    for (uint32_t v = 1; v <= s->nvars; v++)
        if (!r->frozen[v] && !r->p->removed[v] && !s->vals[mklit(v, 0)] && s->decision[v]) return 1;
    return 0;
}

static void drop_garbage(vec_uint *list, const gsat *s) {
    size_t j = 0;
    for (size_t i = 0; i < list->len; i++)
        if (!(CL(s, list->data[i])->flags & CL_GARBAGE)) list->data[j++] = list->data[i];
    list->len = j;
}

/* Learned clauses are implied by the remaining clauses only when they do
 * not name a removed variable. */
static void drop_learnts_with_removed(gsat *s) {
    for (size_t i = 0; i < s->learnts.len; i++) {
        clause *c = CL(s, s->learnts.data[i]);
        if (c->flags & CL_GARBAGE) continue;
        for (uint32_t k = 0; k < c->size; k++)
            if (s->simp->removed[lvar(c->lits[k])]) { arena_free_clause(s, s->learnts.data[i]); break; }
    }
    drop_garbage(&s->learnts, s);
}

/* A cheap first look (no allocation): could any variable go?  Ignores
 * the assumptions, has_candidates() then looks again. */
static int may_have_candidates(const gsat *s) {
    const simp *p = s->simp;
    for (uint32_t v = 1; v <= s->nvars; v++) {
        if (!s->decision[v] || s->theory_mask[v] || s->vals[mklit(v, 0)]) continue;
        if (v <= p->cap && (p->frozen[v] || p->removed[v])) continue;
        return 1;
    }
    return 0;
}

static void run(gsat *s) {
    simp *p = s->simp;
    p->ran = 1;
    unassign_forget(s);               /* clauses change in place */
    p->originals_after = s->originals.len;
    solver_backtrack(s, 0);
    if (!s->ok) return;
    if (solver_propagate(s) != CREF_NONE) { s->ok = 0; return; }
    if (!s->originals.len || !may_have_candidates(s)) return;
    simp_ensure(s);
    solver_simplify_level0(s);

    simp_run r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.p = p;
    compute_frozen(&r);
    if (!has_candidates(&r)) { free(r.frozen); p->originals_after = s->originals.len; return; }
    double t0 = gsat_now();
    s->st.simp_runs++;
    uint32_t first_unit = s->trail_n;
    r.prop_head = s->trail_n;
    r.mark = xcalloc(2 * ((size_t)s->nvars + 1), sizeof *r.mark);
    int64_t lits = 0;
    for (size_t i = 0; i < s->originals.len; i++) lits += CL(s, s->originals.data[i])->size;
    r.step_limit = s->opt.simp_effort * lits;
    if (r.step_limit < 1000000) r.step_limit = 1000000;

    if (s->opt.equiv) equiv_run(&r);
    if (s->ok && has_candidates(&r)) {
        occ_init(&r);
        occ_propagate(&r);
        if (s->ok && s->opt.subsume) {
            subsume_queue_all(&r);
            subsume_run(&r);
        }
        if (s->ok && s->opt.elim) elim_run(&r);
    }

    elim_heap_free(&r);
    occ_free(&r);
    free(r.frozen); free(r.mark);
    vec_free(r.queue); vec_free(r.tmp); vec_free(r.cand); vec_free(r.res);

    drop_garbage(&s->originals, s);
    drop_learnts_with_removed(s);
    arena_collect(s);                     /* rebuilds the watches */
    /* propagate the units found through the new watches: the learned
     * clauses have not seen them, nor have the irredundant ones when the
     * occurrence-list phase did not run */
    if (s->ok) {
        s->qhead = first_unit;
        if (solver_propagate(s) != CREF_NONE) s->ok = 0;
    }
    p->originals_after = s->originals.len;
    s->st.simp_usec += (int64_t)((gsat_now() - t0) * 1e6);
}

void simp_before_solve(gsat *s) {
    if (!s->simp && !s->opt.preprocess) return;
    simp *p = simp_get(s);
    for (size_t i = 0; i < s->assumptions.len; i++) simp_restore_var(s, lvar(s->assumptions.data[i]));
    int due = s->opt.preprocess == 1 ? !p->ran
            : s->opt.preprocess == 2 ? !p->ran || s->originals.len > p->originals_after
            : 0;
    if (due && s->ok) run(s);
}
