/* gsat.h — the engine's public API: a CDCL SAT solver with a graph
 * acyclicity theory.
 *
 * Literals are DIMACS integers: variable v >= 1 is the literal v, its
 * negation -v.  A solver is an opaque handle; the library keeps no global
 * state, never prints and never exits (except on out-of-memory).
 *
 * Incremental use: variables, clauses and graph edges may be added between
 * calls to gsat_solve(); each solve may take assumptions.  After
 * GSAT_UNSAT under assumptions, gsat_failed() tells which assumptions took
 * part in the refutation. */
#ifndef GSAT_H
#define GSAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { GSAT_UNKNOWN = 0, GSAT_SAT = 10, GSAT_UNSAT = 20 };

typedef struct gsat gsat;

gsat *gsat_new(void);
void  gsat_free(gsat *s);

/* Variables are numbered 1..gsat_num_vars(). */
int  gsat_new_var(gsat *s);
void gsat_reserve_vars(gsat *s, int n);      /* make sure variables 1..n exist */
int  gsat_num_vars(const gsat *s);

/* Add a clause (lits[0..n-1]); duplicate and opposite literals are fine.
 * Returns 0 once the formula is known unsatisfiable, 1 otherwise. */
int gsat_add_clause(gsat *s, const int *lits, int n);

/* Solve under assumptions (may be NULL/0).  Returns GSAT_SAT, GSAT_UNSAT or
 * GSAT_UNKNOWN (a limit was hit). */
int gsat_solve(gsat *s, const int *assumptions, int n);

/* After GSAT_SAT: 1 if lit is true in the model, -1 if false. */
int gsat_value(const gsat *s, int lit);
/* After GSAT_UNSAT under assumptions: 1 if assumption lit was used. */
int gsat_failed(const gsat *s, int lit);

/* Limits for the next solves: conflicts (< 0: none), seconds (<= 0: none). */
void gsat_set_conflict_limit(gsat *s, int64_t conflicts);
void gsat_set_time_limit(gsat *s, double seconds);

/* Options by name (see solver/options.h for the table); returns 0 if the
 * name is unknown or the value out of range. */
int gsat_set_option(gsat *s, const char *name, int64_t value);

/* Decision hint: variables marked 0 are never branched on (their value
 * follows from propagation).  Default 1. */
void gsat_set_decision_var(gsat *s, int var, int is_decision);

/* Preprocessing (option preprocess, on by default) may eliminate variables
 * or replace them by equivalent literals before the first solve; such a
 * variable still gets a value in every model.  Using it again (in a
 * clause, an assumption, an edge guard) brings it back automatically.
 * Frozen variables are never removed: freeze the ones you will use again
 * to save that work (assumptions and edge guards are frozen already).
 * Freezing counts: each gsat_freeze() needs its gsat_melt(). */
void gsat_freeze(gsat *s, int var);
void gsat_melt(gsat *s, int var);
int  gsat_is_frozen(const gsat *s, int var);
/* 1 if preprocessing has removed var (eliminated or substituted) now. */
int  gsat_is_removed(const gsat *s, int var);

typedef struct gsat_stats {
    int64_t conflicts, decisions, propagations, restarts, learned, reduced;
    int64_t theory_conflicts, theory_propagations, theory_explanation_lits;
    double  seconds;
} gsat_stats;
void gsat_get_stats(const gsat *s, gsat_stats *out);

/* ---- Acyclicity theory ----------------------------------------------
 * A graph whose edges are guarded by literals; the solver keeps the set of
 * edges whose guard is true (plus unguarded edges) acyclic.  Several graphs
 * may coexist; each is one acyclicity constraint. */

/* New graph with nodes 0..num_nodes-1; returns its id (>= 0). */
int gsat_graph_new(gsat *s, int num_nodes);
/* Add nodes; returns the id of the first one added. */
int gsat_graph_add_nodes(gsat *s, int graph, int count);
/* Edge from -> to guarded by lit (lit == 0: always on).  Returns the edge
 * id (>= 0) or -1 on a bad node id.  A self-loop forces lit false. */
int gsat_graph_add_edge(gsat *s, int graph, int from, int to, int lit);

#ifdef __cplusplus
}
#endif
#endif
