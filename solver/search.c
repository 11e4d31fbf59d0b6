/* search.c — the CDCL loop: propagate (Boolean and theories) to a
 * fixpoint; on a conflict learn a clause and backjump; otherwise restart,
 * simplify or reduce when due, then decide (assumptions first).  On a full
 * assignment the theories get a final check.  Resource limits and the
 * caller's terminate hook are checked after conflicts (the clock only
 * every few of them); learned clauses go to the caller's learn hook. */
#include <assert.h>

#include "monotonic.h"
#include "solver/proof.h"
#include "solver/solver.h"

double gsat_now(void) { return monotonic_seconds(); }

static cref_t propagate_all(gsat *s) {
    for (;;) {
        cref_t confl = solver_propagate(s);
        if (confl != CREF_NONE || !s->ntheories) return confl;
        int progress;
        confl = theory_round(s, &progress);
        if (confl != CREF_NONE || !progress) return confl;
    }
}

/* Undo the levels above `jump` after a conflict: jump there (the classic
 * backjump), or with chronological backtracking (Nadel and Ryvchin,
 * SAT 2018) go back one level only when the jump would undo more than
 * chrono_levels levels, keeping the assignments below, which would
 * mostly be re-decided the same way. */
static void backtrack_after_conflict(gsat *s, uint32_t jump) {
    uint32_t dl = decision_level(s);
    if (s->opt.chrono && dl - jump > (uint32_t)s->opt.chrono_levels && dl - 1 > jump) {
        s->st.chrono_backtracks++;
        solver_backtrack(s, dl - 1);
    } else solver_backtrack(s, jump);
}

/* Undo the true literal t (on the conflict level `level`, below the
 * current one) before assigning its negation at `jump`: partial
 * backtracking when possible, else every level from `level` up.  Not on
 * the assumption levels: every assumption is on one of them, and
 * search_solve notices a falsified assumption only when it goes back there
 * (t's dependents all have levels >= t's). */
static void take_back(gsat *s, lit_t t, uint32_t level, uint32_t jump, int below) {
    if (below && level > s->assumptions.len) { unassign_dependents(s, t); return; }
    if (below) solver_backtrack(s, level);
    backtrack_after_conflict(s, jump);
}

static void report_learned(gsat *s, const lit_t *lits, uint32_t n);

/* Keep the theory clause confl (unwatched, lits[0] about to be implied,
 * lits[1] on the highest level of the others) as a learned clause.  A
 * missed implication is the theory's incompleteness: the same cycle closes
 * the same way the next time its guards come true, a failing search each
 * time (rw 20k: 4,631 failing searches on 2,083 edges); as a clause,
 * Boolean propagation implies it instead. */
static cref_t learn_missed(gsat *s, cref_t confl, uint32_t lbd) {
    clause *c = CL(s, confl);
    uint32_t n = c->size;
    vec_clear(s->tlits);
    for (uint32_t k = 0; k < n; k++) vec_push(s->tlits, c->lits[k]);
    proof_add(s, s->tlits.data, n);
    cref_t r = arena_alloc(s, s->tlits.data, n, CL_LEARNT);
    clause *lc = CL(s, r);
    cl_set_lbd(lc, lbd);
    solver_clause_bump(s, lc);
    vec_push(s->learnts, r);
    watch_attach(s, r);
    s->st.learned++;
    s->st.learned_missed++;
    s->st.learned_lits += n;
    if (s->learn && n <= (uint32_t)s->learn_max) report_learned(s, lc->lits, n);
    return r;
}

/* The conflict clause has a single literal, lits[forced], on the highest
 * level: no analysis is needed, the clause implies its negation at the
 * highest level of the others.  A theory clause is kept as a learned
 * clause (option learn_missed) unless it implies at level 0. */
static void assign_missed(gsat *s, cref_t confl, uint32_t forced, int below) {
    s->st.missed_implications++;
    clause *c = CL(s, confl);
    uint32_t second = forced;
    int jump = 0;
    for (uint32_t k = 0; k < c->size; k++) {
        int lv = var_level(s, lvar(c->lits[k]));
        if (k != forced && (second == forced || lv > jump)) { jump = lv; second = k; }
    }
    lit_t f = c->lits[forced], sl = c->lits[second];
    int keep = s->opt.learn_missed && jump > 0 && (c->flags & CL_REASON);
    uint32_t lbd = keep ? solver_compute_lbd(s, c->lits, c->size) : 0;
    take_back(s, lneg(f), (uint32_t)var_level(s, lvar(f)), (uint32_t)jump, below);
    /* backtracking may have grown the arena, and partial backtracking
     * moved watches (unassign.c rewatch): find the two literals again */
    c = CL(s, confl);
    for (uint32_t k = 0; k < c->size; k++) {
        if (c->lits[k] == f) forced = k;
        if (c->lits[k] == sl) second = k;
    }
    if (second != forced) {
        if (c->flags & CL_REASON) {   /* unwatched: any order */
            lit_t t = c->lits[0]; c->lits[0] = c->lits[forced]; c->lits[forced] = t;
            if (second == 0) second = forced;
            t = c->lits[1]; c->lits[1] = c->lits[second]; c->lits[second] = t;
        } else if (c->size > 2) watch_move(s, confl, forced, second);
        /* a binary clause may imply either of its literals */
    }
    if (keep) confl = learn_missed(s, confl, lbd);
    if (!jump) proof_add(s, &f, 1);   /* a level-0 fact without a reason clause that could stay */
    enqueue_at(s, f, jump ? confl : CREF_NONE, jump);
}

/* Hand a learned clause to the caller's hook (gsat_set_learn). */
static void report_learned(gsat *s, const lit_t *lits, uint32_t n) {
    vec_clear(s->learn_buf);
    for (uint32_t i = 0; i < n; i++) vec_push(s->learn_buf, lit_to_dimacs(lits[i]));
    vec_push(s->learn_buf, 0);
    guard_pause p = guard_suspend();              /* the caller's code: its failures are its own */
    s->learn(s->learn_state, s->learn_buf.data, (int)n);
    guard_resume(p);
}

/* Learn from a conflict clause (all literals false).  Returns 0 if the
 * formula is unsatisfiable (the conflict does not depend on any decision). */
static int resolve_conflict(gsat *s, cref_t confl) {
    s->st.conflicts++;
    clause *c = CL(s, confl);
    int max_level = 0;
    uint32_t at_max = 0, forced = 0;
    for (uint32_t k = 0; k < c->size; k++) {
        int lv = var_level(s, lvar(c->lits[k]));
        if (lv > max_level) { max_level = lv; at_max = 1; forced = k; }
        else if (lv == max_level) at_max++;
    }
    if (max_level == 0) { s->ok = 0; return 0; }
    /* theory conflicts, and with chronological backtracking Boolean ones,
     * may lie entirely below the current level: partial backtracking keeps
     * the levels above, else they go */
    int below = (uint32_t)max_level < decision_level(s);
    mode_on_conflict(s);
    if (below && !unassign_supported(s)) { solver_backtrack(s, (uint32_t)max_level); below = 0; }
    if (at_max == 1) { assign_missed(s, confl, forced, below); return 1; }
    uint32_t bt, lbd;
    solver_analyze(s, confl, &bt, &lbd);
    take_back(s, lneg(s->learnt.data[0]), (uint32_t)max_level, bt, below);
    lit_t *lits = s->learnt.data;
    uint32_t n = (uint32_t)s->learnt.len;
    s->st.learned++;
    if (s->learn && n <= (uint32_t)s->learn_max) report_learned(s, lits, n);
    proof_add(s, lits, n);
    if (n == 1) enqueue_at(s, lits[0], CREF_NONE, 0);
    else {
        cref_t r = arena_alloc(s, lits, n, CL_LEARNT);
        clause *lc = CL(s, r);
        cl_set_lbd(lc, lbd);
        solver_clause_bump(s, lc);
        vec_push(s->learnts, r);
        watch_attach(s, r);
        enqueue_at(s, lits[0], r, (int)bt);
    }
    solver_var_decay(s);
    solver_clause_decay(s);
    if ((s->st.conflicts % 5000) == 0 && s->var_decay < (double)s->opt.var_decay / 1000.0) {
        s->var_decay += 0.01;
        if (s->var_decay > (double)s->opt.var_decay / 1000.0) s->var_decay = (double)s->opt.var_decay / 1000.0;
    }
    restart_on_conflict(s, lbd);
    return 1;
}

static lit_t pick_branch(gsat *s) {
    for (;;) {
        uint32_t v = heap_pop(s);
        if (!v) return unassign_owed_pick(s);
        if (s->vals[mklit(v, 0)] != 0 || !s->decision[v]) continue;
        lit_t l = mklit(v, mode_polarity(s, v));
        if (s->theory_mask[v]) {
            /* a theory may know which value keeps it consistent */
            for (int th = 0; th < s->ntheories; th++) {
                const theory_slot *ts = &s->theories[th];
                if (!(s->theory_mask[v] & (1u << th)) || !ts->phase) continue;
                int p = ts->phase(ts->t, lit_to_dimacs(l));
                if (p) return lit_from_dimacs(p);
            }
        }
        return l;
    }
}

static int limits_hit(gsat *s) {
    int64_t done = s->st.conflicts - s->solve_conflicts0;
    if (s->conflict_limit >= 0 && done >= s->conflict_limit) return 1;
    if (s->time_limit > 0 && (done & 63) == 0 && gsat_now() - s->solve_start >= s->time_limit) return 1;
    if (s->terminate) {
        guard_pause p = guard_suspend();          /* the caller's code: its failures are its own */
        int stop = s->terminate(s->terminate_state);
        guard_resume(p);
        if (stop) return 1;
    }
    return 0;
}

int solver_search(gsat *s) {
    if (!s->ok) return GSAT_UNSAT;
    for (;;) {
        cref_t confl = propagate_all(s);
        if (confl != CREF_NONE) {
            if (!resolve_conflict(s, confl)) return GSAT_UNSAT;
            if (limits_hit(s)) return GSAT_UNKNOWN;
            continue;
        }
        if (restart_due(s)) {
            restart_done(s);
            solver_backtrack(s, 0);
            mode_after_restart(s);
            mode_rephase(s);
            continue;
        }
        /* at level 0 after a restart, propagated: maybe improve the phases */
        if (decision_level(s) == 0 && s->opt.walk && !s->ntheories && !s->assumptions.len &&
            s->st.conflicts >= s->next_walk) {
            walk_phases(s);
            mode_reset_target(s);
            s->next_walk = s->st.conflicts + s->opt.walk_interval * (s->st.walks + 1);
        }
        if (decision_level(s) == 0 && s->opt.simplify && s->trail_n != s->simp_assigns &&
            s->st.propagations >= s->simp_props) {
            solver_simplify_level0(s);
            s->simp_props = s->st.propagations + (int64_t)(s->ca.len / 2);
        }
        if (s->st.conflicts >= s->next_reduce) solver_reduce_db(s);

        lit_t next = LIT_UNDEF;
        while (decision_level(s) < s->assumptions.len) {
            lit_t a = s->assumptions.data[decision_level(s)];
            if (s->vals[a] > 0) solver_new_level(s);            /* already true: empty level */
            else if (s->vals[a] < 0) { solver_analyze_final(s, a); return GSAT_UNSAT; }
            else { next = a; break; }
        }
        if (next == LIT_UNDEF) {
            next = pick_branch(s);
            if (next == LIT_UNDEF) {
                if (!s->ntheories) return GSAT_SAT;
                cref_t tc = theory_final_check(s);
                if (tc == CREF_NONE) return GSAT_SAT;
                if (!resolve_conflict(s, tc)) return GSAT_UNSAT;
                if (limits_hit(s)) return GSAT_UNKNOWN;
                continue;
            }
            s->st.decisions++;
        }
        solver_new_level(s);
        enqueue(s, next, CREF_NONE);
    }
}
