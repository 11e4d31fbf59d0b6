/* proof.h — the engine's clausal proof trace (DRAT, for gsat --proof):
 * every clause the search adds to or deletes from its clause database,
 * told to a caller's hook in the order it happens.
 *
 * solver_set_proof(s, state, fn) installs fn (NULL removes it); fn(state,
 * add, lits, n) gets a clause in DIMACS (solver numbering, lits[0..n-1])
 * with add = 1 for an addition (each is RUP: implied by unit propagation
 * from the clauses added and not deleted before it) and add = 0 for a
 * deletion.  The empty clause (n = 0, add = 1) ends the trace of an
 * unsatisfiable formula.  Without a hook the engine does nothing more than
 * test one pointer at each step.
 *
 * What is traced (doc/search.md "Proofs"): learned clauses (units
 * included), the learned clauses reduction deletes, level-0 simplification
 * (the level-0 units first, then each shortened clause added before its
 * longer form is deleted, each satisfied clause deleted), a unit implied
 * at level 0 without a reason clause, preprocessing (the equivalences
 * before the clauses rewritten with them, each rewritten or strengthened
 * clause added before the old one is deleted, the resolvents of an
 * eliminated variable before its clauses are deleted), and the final empty
 * clause.  NOT traced: theories (gsat refuses --proof for graph problems),
 * clauses preprocessing brings back when a removed variable is used again
 * and keep_trail's clauses above level 0 (incremental use; gsat solves
 * once).  Clauses the engine stores shorter
 * than given (false literals at level 0 dropped while loading) may be
 * deleted in their short form: a checker ignores the deletion of a clause
 * it does not hold, as drat-trim does; that only keeps more clauses. */
#ifndef GSAT_SOLVER_PROOF_H
#define GSAT_SOLVER_PROOF_H

#include "solver/solver.h"

typedef void (*solver_proof_fn)(void *state, int add, const int *lits, int n);

void solver_set_proof(gsat *s, void *state, solver_proof_fn fn);

void proof_emit(gsat *s, int add, const lit_t *lits, uint32_t n);
static inline void proof_add(gsat *s, const lit_t *lits, uint32_t n) {
    if (s->proof_fn) proof_emit(s, 1, lits, n);
}
static inline void proof_delete(gsat *s, const lit_t *lits, uint32_t n) {
    if (s->proof_fn) proof_emit(s, 0, lits, n);
}
/* The level-0 literals not yet traced, as unit clauses (before the
 * clauses that imply them may be deleted). */
void proof_level0_units(gsat *s);
/* The empty clause, once (after the formula is found unsatisfiable). */
void proof_empty(gsat *s);

#endif
