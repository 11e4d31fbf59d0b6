/* simp.h — preprocessing as the rest of the engine sees it: bounded
 * variable elimination, backward subsumption with self-subsuming
 * strengthening and equivalent-literal substitution over the irredundant
 * clauses, with an extension stack for models (doc/preprocessing.md).
 *
 * Contract with the engine (the hooks in solver.c and theory.c):
 * - simp_before_solve(), at level 0 with the solve's assumptions in
 *   s->assumptions, first re-introduces every removed variable among them,
 *   then preprocesses when due: with option preprocess=1 once, before the
 *   first solve; with preprocess=2 before every solve that follows new
 *   clauses.  It may assign level-0 units and clear s->ok.
 * - A removed (eliminated or substituted) variable is in no clause, is not
 *   a decision variable and stays unassigned.  Frozen variables are never
 *   removed: gsat_freeze()d ones, those a theory watches (edge guards) and
 *   the solve's assumptions.  Nor are variables that are not decision
 *   variables (their values must keep following from propagation, so
 *   they are not eliminated, nor is a variable sharing a clause with one,
 *   nor is a decision variable replaced by one).
 * - Whoever is about to use a variable again (gsat_add_clause, an
 *   assumption, gsat_theory_watch, gsat_freeze) calls simp_restore_*()
 *   first: the clauses removed with it come back (and, transitively, those
 *   of variables removed later that they mention), at level 0.
 * - simp_extend_model() completes s->model (after SAT) for the removed
 *   variables: the extension stack is replayed backwards, each record
 *   setting its witness literal true when its clause is false.
 * Learned clauses that mention a removed variable are deleted; the others
 * stay (they are implied by what remains). */
#ifndef GSAT_SIMP_H
#define GSAT_SIMP_H

#include <stdint.h>

typedef struct gsat gsat;
typedef struct simp simp;

void simp_free(gsat *s);

/* Called by gsat_solve() after filling s->assumptions, at level 0. */
void simp_before_solve(gsat *s);

/* After SAT, with s->model filled for the active variables. */
void simp_extend_model(gsat *s);

/* 1 if variable v (1..nvars) was removed by preprocessing. */
int simp_removed(const gsat *s, uint32_t v);

/* Bring back variable v (DIMACS) / the variables of lits, at level 0. */
void simp_restore_var(gsat *s, uint32_t v);
void simp_restore_lits(gsat *s, const int *lits, int n);

/* gsat_set_decision_var() on a removed variable: remembered for when it
 * comes back. */
void simp_set_saved_decision(gsat *s, uint32_t v, int is_decision);

#endif
