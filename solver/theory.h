/* theory.h — how a theory plugs into the CDCL engine (doc/architecture.md, "Engine and theory").
 *
 * The engine owns the trail.  A theory registers the variables it watches
 * (gsat_theory_watch); after Boolean propagation reaches a fixpoint the
 * engine walks the new part of the trail and calls assigned() for each
 * watched literal that became true (either polarity of a watched variable
 * is reported).  Then it calls propagate() for implied literals and puts
 * them on the trail with a lazy reason: reason() is only called when
 * conflict analysis needs it.  new_level()/backtrack() mirror the engine's
 * decision levels.  final_check() runs on a full assignment.
 *
 * Clauses are returned by pushing DIMACS literals into a vec_int that the
 * engine clears first.  A conflict clause has all its literals false under
 * the current assignment; a reason clause for lit starts with lit and its
 * other literals are false.
 *
 * Engine guarantees and requirements (solver/theory.c, solver/search.c):
 * - new_level() is called after the engine opened the level, so
 *   gsat_decision_level() already returns the new level; also for the empty
 *   levels of assumptions that were already true.
 * - assigned() sees each watched literal once per assignment, in trail
 *   order, after BCP reached a fixpoint; literals the theory implied itself
 *   are reported too.  A theory added (or a variable watched) after
 *   level-0 facts exist is told about them on the next solve.
 * - A reason clause may be asked for long after the implication, but only
 *   while the implied literal is still assigned; its other literals must
 *   have been assigned before the implied literal (debug builds abort if
 *   not).  Implying a literal that is already false is a conflict: the
 *   engine takes its reason clause as the conflict clause.
 * - A conflict clause need not have a literal at the current level; the
 *   engine backtracks to the clause's highest level first.
 * - backtrack(level) undoes everything reported since the (level+1)-th
 *   open new_level() call, whatever the levels of those literals: with
 *   chronological backtracking the engine keeps literals of levels <= level
 *   that were assigned after that point, and reports them to assigned()
 *   again afterwards.  Literals a theory implies get the level current
 *   at the time, so they are never among the kept ones: a theory never
 *   explains a literal from state it has undone.
 * - Partial backtracking (solver/unassign.c) takes back single literals
 *   with unassign(), keeping levels and later literals; the theory's
 *   implied literals reported later stay only if implied_still() says so.
 * - solve_start() is called once per gsat_solve(), after preprocessing and
 *   before the search, with that solve's assumptions (DIMACS); the engine
 *   is at level 0 and no watched literal of the solve is reported yet.
 * - Callbacks must not call gsat_add_clause(), gsat_solve() or other
 *   functions that change the engine; they may read
 *   gsat_lit_value_now() and gsat_decision_level().
 *
 * Options: a theory hands the engine a table of its tunables
 * (gsat_add_options); gsat_set_option(), gsat_option_at() and so
 * `gsat --help` find them after the engine's own.  The engine keeps the
 * values, so they can be set before the theory is attached.
 *
 * The formula as the engine holds it (for a theory that reads or exports
 * it): gsat_clauses() in gsat.h.
 * - At most 8 theories (gsat_add_theory returns -1 beyond that: the
 *   engine keeps a byte a variable for which theories watch it). */
#ifndef GSAT_THEORY_H
#define GSAT_THEORY_H

#include "gsat.h"
#include "vec.h"

typedef struct theory_ops {
    const char *name;
    /* A watched literal became true.  Return 0 if consistent, 1 if the theory
     * is now in conflict (the engine then calls conflict()). */
    int  (*assigned)(void *t, int lit);
    void (*new_level)(void *t);
    void (*backtrack)(void *t, int level);      /* undo what came after level+1 opened */
    /* Push implied literals (unassigned now) into out; return how many. */
    int  (*propagate)(void *t, vec_int *out);
    /* The reason clause for a literal this theory implied. */
    void (*reason)(void *t, int lit, vec_int *out);
    /* The conflict clause after assigned() or final_check() reported one. */
    void (*conflict)(void *t, vec_int *out);
    /* Full assignment: return 0 if consistent, 1 if in conflict. */
    int  (*final_check)(void *t);
    void (*destroy)(void *t);
    /* Optional, partial backtracking.  unassign(): the engine took back
     * lit, reported by assigned(), while keeping literals reported after
     * it; undo just its effect and drop implied literals not yet handed
     * over.  Literals go in trail order; lit 0 starts a partial backtrack.
     * Without it the engine only ever backtracks by levels. */
    void (*unassign)(void *t, int lit);
    /* Optional: during a partial backtrack, after unassign() calls, is lit
     * (implied by this theory after those literals were reported, still
     * assigned) still implied by what remains?  1: yes, and if its lazy
     * reason no longer holds, push a new reason clause into reason (as
     * reason() would); 0: no.  Without it such literals are taken back. */
    int  (*implied_still)(void *t, int lit, vec_int *reason);
    /* Optional: a solve begins under assumptions[0..n-1] (valid only
     * during the call). */
    void (*solve_start)(void *t, const int *assumptions, int n);
} theory_ops;

/* Attach a theory (the engine owns it and calls destroy on gsat_free);
 * returns its index. */
int  gsat_add_theory(gsat *s, const theory_ops *ops, void *t);
/* The state of the first attached theory with these ops, NULL if none. */
void *gsat_theory_find(const gsat *s, const theory_ops *ops);
/* Optional branching advice from theory th: when the engine is about to
 * branch on lit (its saved phase) of a variable the theory watches, it
 * asks phase(t, lit) for the literal to branch on (lit or -lit; 0 = no
 * opinion).  Used when the option theory_phase is on. */
void gsat_theory_set_phase(gsat *s, int th, int (*phase)(void *t, int lit));
/* Report assignments of variable var to theory index th.  A watched
 * variable is never removed by preprocessing (one already removed comes
 * back first, solver/simp.h). */
void gsat_theory_watch(gsat *s, int th, int var);
/* Current decision level and the value of a literal now (1/-1/0), for
 * theories that need them. */
int  gsat_decision_level(const gsat *s);
int  gsat_lit_value_now(const gsat *s, int lit);
/* 1 if lit is true and theory th was told (its place on the trail is
 * before the theory's head): a literal after it will be reported, and
 * only told literals are reported again when taken back one by one. */
int  gsat_theory_told(const gsat *s, int th, int lit);
/* Take the engine back to decision level 0, as gsat_add_clause() does:
 * for a theory's own API that changes the problem (not from callbacks).
 * With option keep_trail after a SAT answer it stays (solver/warm.c): the
 * theory then adds what is new against the current assignment. */
void gsat_backtrack_root(gsat *s);

/* Register a theory's options: table[0..n-1] (static storage; names unique
 * among all options, values within [lo, hi]).  Returns their values, the
 * defaults until gsat_set_option() changes them, owned by the engine and
 * valid until gsat_free(); registering the same table again returns the
 * same values.  NULL if a name is taken already. */
const int64_t *gsat_add_options(gsat *s, const gsat_option *table, int n);
/* A solver with the engine's options alone; gsat_new() is this plus the
 * options of the theories libgsat brings (theory/graph.c).  NULL if out
 * of memory. */
gsat *gsat_engine_new(void);

/* A theory's own public API fails as the engine's does (solver/guard.h,
 * gsat.h "Errors"): gsat_guard_call runs fn(s, ctx) for entry point func
 * and returns its result, or fail once allocation failed below it (the
 * solver then is in the error state); gsat_fail puts the solver in the
 * error state for misuse, "func: message" (the first error is kept). */
int gsat_guard_call(gsat *s, const char *func, int (*fn)(gsat *s, void *ctx), void *ctx, int fail);
void gsat_fail(gsat *s, const char *func, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
