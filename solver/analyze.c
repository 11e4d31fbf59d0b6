/* analyze.c — conflict analysis.
 *
 * solver_analyze(): resolve the conflict clause (all literals false, at least two
 * on its highest level, the conflict level) back to the first unique
 * implication point, minimize the learned clause recursively (a literal is
 * dropped when its reason is covered by the other literals), compute its
 * LBD and the level to jump back to.  The trail need not be sorted by
 * level (chronological and partial backtracking) and may hold levels above
 * the conflict level: the walk back looks only at literals of the conflict
 * level.  Theory-implied literals get their reason clause from the theory
 * only when the analysis reaches them (solver_reason_of()).
 *
 * solver_analyze_final(): which assumptions imply that assumption p is false. */
#include <assert.h>

#include "io/bigmem.h"
#include "solver/solver.h"

static cref_t solver_reason_of(gsat *s, uint32_t v) {
    cref_t r = s->vinfo[v].reason;
    if (!reason_is_theory(r)) return r;
    return theory_explain(s, v, (int)(r - REASON_THEORY0));
}

uint32_t solver_compute_lbd(gsat *s, const lit_t *lits, uint32_t n) {
    uint32_t levels = decision_level(s) + 1;
    if (s->level_stamp_cap < levels) {
        size_t cap = s->level_stamp_cap ? s->level_stamp_cap : 64;
        while (cap < levels) cap *= 2;
        s->level_stamp = xrealloc(s->level_stamp, cap * sizeof *s->level_stamp);
        memset(s->level_stamp + s->level_stamp_cap, 0, (cap - s->level_stamp_cap) * sizeof *s->level_stamp);
        s->level_stamp_cap = cap;
    }
    uint64_t stamp = ++s->stamp;
    uint32_t lbd = 0;
    for (uint32_t i = 0; i < n; i++) {
        int lv = var_level(s, lvar(lits[i]));
        if (s->level_stamp[lv] != stamp) { s->level_stamp[lv] = stamp; lbd++; }
    }
    return lbd;
}

void solver_clause_bump(gsat *s, clause *c) {
    float a = cl_activity(c) + (float)s->cla_inc;
    cl_set_activity(c, a);
    if (a > 1e20f) {
        for (size_t i = 0; i < s->learnts.len; i++) {
            clause *d = CL(s, s->learnts.data[i]);
            cl_set_activity(d, cl_activity(d) * 1e-20f);
        }
        s->cla_inc *= 1e-20;
    }
}

void solver_clause_decay(gsat *s) { s->cla_inc /= (double)s->opt.clause_decay / 1000.0; }

static inline uint32_t abstract_level(const gsat *s, uint32_t v) {
    return 1u << (var_level(s, v) & 31);
}

/* Is p (in the learned clause) implied by the other marked literals?  Marks
 * every literal it proves along the way (kept in toclear). */
static int lit_redundant(gsat *s, lit_t p, uint32_t abstract) {
    size_t top = s->toclear.len;
    vec_clear(s->stack);
    vec_push(s->stack, p);
    while (s->stack.len) {
        lit_t q = vec_pop(s->stack);
        cref_t r = solver_reason_of(s, lvar(q));
        clause *c = CL(s, r);
        for (uint32_t k = 0; k < c->size; k++) {
            lit_t l = c->lits[k];
            uint32_t v = lvar(l);
            if (v == lvar(q) || s->seen[v] || var_level(s, v) == 0) continue;
            if (s->vinfo[v].reason != CREF_NONE && (abstract_level(s, v) & abstract)) {
                s->seen[v] = 1;
                vec_push(s->stack, l);
                vec_push(s->toclear, l);
            } else {
                for (size_t i = top; i < s->toclear.len; i++) s->seen[lvar(s->toclear.data[i])] = 0;
                s->toclear.len = top;
                return 0;
            }
        }
    }
    return 1;
}

/* Local minimization: drop a literal whose reason's other literals are all
 * in the clause. */
static int lit_locally_redundant(gsat *s, lit_t p) {
    cref_t r = solver_reason_of(s, lvar(p));
    clause *c = CL(s, r);
    for (uint32_t k = 0; k < c->size; k++) {
        uint32_t v = lvar(c->lits[k]);
        if (v != lvar(p) && !s->seen[v] && var_level(s, v) > 0) return 0;
    }
    return 1;
}

void solver_analyze(gsat *s, cref_t confl, uint32_t *bt_level, uint32_t *lbd_out) {
    vec_uint *learnt = &s->learnt;
    vec_clear(*learnt);
    vec_push(*learnt, LIT_UNDEF);
    /* the conflict level: the current one, or below it when partial
     * backtracking analyses a conflict without leaving the higher levels */
    int dl = 0;
    for (uint32_t k = 0; k < CL(s, confl)->size; k++)
        if (var_level(s, lvar(CL(s, confl)->lits[k])) > dl) dl = var_level(s, lvar(CL(s, confl)->lits[k]));
    int path = 0;
    lit_t p = LIT_UNDEF;
    uint32_t idx = s->trail_n;
    do {
        assert(confl != CREF_NONE);
        clause *c = CL(s, confl);
        if (c->flags & CL_LEARNT) {
            solver_clause_bump(s, c);
            c = CL(s, confl);
            c->flags |= CL_USED;
            uint32_t old = cl_lbd(c);
            if (old > (uint32_t)s->opt.core_lbd) {
                uint32_t now = solver_compute_lbd(s, c->lits, c->size);
                if (now + 1 < old) cl_set_lbd(c, now);
            }
        }
        for (uint32_t k = 0; k < c->size; k++) {
            lit_t q = c->lits[k];
            uint32_t v = lvar(q);
            if (p != LIT_UNDEF && v == lvar(p)) continue;
            if (s->seen[v] || var_level(s, v) == 0) continue;
            s->seen[v] = 1;
            solver_var_bump(s, v);
            if (var_level(s, v) >= dl) path++;
            else vec_push(*learnt, q);
        }
        /* the next marked literal of the conflict level; with
         * chronological backtracking lower levels are interleaved */
        do { assert(idx > 0); idx--; }
        while (!s->seen[lvar(s->trail[idx])] || var_level(s, lvar(s->trail[idx])) != dl);
        p = s->trail[idx];
        s->seen[lvar(p)] = 0;
        path--;
        if (path > 0) confl = solver_reason_of(s, lvar(p));
    } while (path > 0);
    learnt->data[0] = lneg(p);

    /* minimization */
    size_t before = learnt->len;
    vec_clear(s->toclear);
    for (size_t i = 0; i < learnt->len; i++) vec_push(s->toclear, learnt->data[i]);
    size_t j = 1;
    if (s->opt.minimize == 2) {
        uint32_t abstract = 0;
        for (size_t i = 1; i < learnt->len; i++) abstract |= abstract_level(s, lvar(learnt->data[i]));
        for (size_t i = 1; i < learnt->len; i++) {
            lit_t l = learnt->data[i];
            if (s->vinfo[lvar(l)].reason == CREF_NONE || !lit_redundant(s, l, abstract))
                learnt->data[j++] = l;
        }
    } else if (s->opt.minimize == 1) {
        for (size_t i = 1; i < learnt->len; i++) {
            lit_t l = learnt->data[i];
            if (s->vinfo[lvar(l)].reason == CREF_NONE || !lit_locally_redundant(s, l))
                learnt->data[j++] = l;
        }
    } else j = learnt->len;
    learnt->len = j;
    s->st.minimized_lits += (int64_t)(before - j);
    s->st.learned_lits += (int64_t)j;
    for (size_t i = 0; i < s->toclear.len; i++) s->seen[lvar(s->toclear.data[i])] = 0;

    /* backjump level: the highest level below the UIP's, moved to lits[1] */
    if (learnt->len == 1) *bt_level = 0;
    else {
        size_t max_i = 1;
        for (size_t i = 2; i < learnt->len; i++)
            if (var_level(s, lvar(learnt->data[i])) > var_level(s, lvar(learnt->data[max_i]))) max_i = i;
        lit_t t = learnt->data[max_i];
        learnt->data[max_i] = learnt->data[1];
        learnt->data[1] = t;
        *bt_level = (uint32_t)var_level(s, lvar(t));
    }
    *lbd_out = solver_compute_lbd(s, learnt->data, (uint32_t)learnt->len);
}

void solver_analyze_final(gsat *s, lit_t p) {
    /* p: an assumption that is false now */
    if (!s->failed_mark) s->failed_mark = big_calloc(2 * ((size_t)s->cap_vars + 1), 1);   /* first failed assumption */
    s->failed_mark[p] = 1;
    vec_push(s->failed, lit_to_dimacs(p));
    if (decision_level(s) == 0) return;
    uint32_t pv = lvar(p);
    if (var_level(s, pv) == 0) return;
    s->seen[pv] = 1;
    for (uint32_t i = s->trail_n; i-- > s->trail_lim.data[0];) {
        lit_t l = s->trail[i];
        uint32_t v = lvar(l);
        if (!s->seen[v]) continue;
        s->seen[v] = 0;
        if (s->vinfo[v].reason == CREF_NONE) {
            /* a decision below the assumption levels: an assumption */
            if (!s->failed_mark[l]) {
                s->failed_mark[l] = 1;
                vec_push(s->failed, lit_to_dimacs(l));
            }
        } else {
            clause *c = CL(s, solver_reason_of(s, v));
            for (uint32_t k = 0; k < c->size; k++) {
                uint32_t u = lvar(c->lits[k]);
                if (u != v && var_level(s, u) > 0) s->seen[u] = 1;
            }
        }
    }
}
