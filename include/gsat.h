/* gsat.h — the engine's public API: a CDCL SAT solver with a graph
 * acyclicity theory.
 *
 * Literals are DIMACS integers: variable v >= 1 is the literal v, its
 * negation -v.  A solver is an opaque handle; the library keeps no global
 * state, never prints and never exits.
 *
 * Errors: misuse (a literal 0, INT_MIN or beyond GSAT_MAX_VARS, a negative
 * count, a NULL array with a positive count) and running out of memory
 * put the solver in an error state: the failing call returns its error
 * value (below: -1, 0, NULL or GSAT_ERROR; a void call returns
 * nothing), gsat_error() tells what happened, and from then on every call
 * that would change or solve is refused the same way, so that no answer
 * ever follows an error (the queries gsat_value, gsat_failed and
 * gsat_fixed answer 0).  Only gsat_free() remains to be done.
 *
 * Incremental use: variables, clauses and graph edges may be added between
 * calls to gsat_solve(); each solve may take assumptions.  After
 * GSAT_UNSAT under assumptions, gsat_failed() tells which assumptions took
 * part in the refutation.
 *
 * Only the functions declared here (marked GSAT_API) are exported by
 * libgsat; everything else in the library is hidden.  The same library
 * also exports the IPASIR interface (ipasir.h). */
#ifndef GSAT_H
#define GSAT_H

#include <stddef.h>
#include <stdint.h>

/* The libraries are built with hidden visibility; GSAT_API marks what
 * they export. */
#ifndef GSAT_API
#if defined(__GNUC__) && __GNUC__ >= 4
#define GSAT_API __attribute__((visibility("default")))
#else
#define GSAT_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define GSAT_VERSION "0.1"     /* as in gsat.pc */

enum { GSAT_ERROR = -1, GSAT_UNKNOWN = 0, GSAT_SAT = 10, GSAT_UNSAT = 20 };

typedef struct gsat gsat;

/* NULL if out of memory. */
GSAT_API gsat *gsat_new(void);
GSAT_API void  gsat_free(gsat *s);

/* NULL, or after an error (see above) "FUNCTION: what was wrong" about the
 * first one; valid until gsat_free(). */
GSAT_API const char *gsat_error(const gsat *s);

/* Variables are numbered 1..gsat_num_vars(), at most GSAT_MAX_VARS.
 * gsat_new_var returns 0 on an error (beyond GSAT_MAX_VARS, out of
 * memory); gsat_reserve_vars with n < 0 or n > GSAT_MAX_VARS is one. */
#define GSAT_MAX_VARS (1 << 27)
GSAT_API int  gsat_new_var(gsat *s);
GSAT_API void gsat_reserve_vars(gsat *s, int n);      /* make sure variables 1..n exist */
GSAT_API int  gsat_num_vars(const gsat *s);

/* Add a clause (lits[0..n-1], each nonzero, |lit| <= GSAT_MAX_VARS);
 * duplicate and opposite literals are fine.  Returns 0 once the formula
 * is known unsatisfiable, 1 otherwise, -1 on an error (nothing added). */
GSAT_API int gsat_add_clause(gsat *s, const int *lits, int n);

/* Solve under assumptions (may be NULL/0; a 0 among them is skipped).
 * Returns GSAT_SAT, GSAT_UNSAT, GSAT_UNKNOWN (a limit was hit) or
 * GSAT_ERROR. */
GSAT_API int gsat_solve(gsat *s, const int *assumptions, int n);

/* After GSAT_SAT: 1 if lit is true in the model, -1 if false. */
GSAT_API int gsat_value(const gsat *s, int lit);
/* After GSAT_UNSAT under assumptions: 1 if assumption lit was used. */
GSAT_API int gsat_failed(const gsat *s, int lit);

/* The value a literal has in every model of the clauses added so far, as
 * far as top-level propagation knows: 1 true, -1 false, 0 not fixed. */
GSAT_API int gsat_fixed(const gsat *s, int lit);

/* Limits for the next solves: conflicts (< 0: none), seconds (<= 0: none). */
GSAT_API void gsat_set_conflict_limit(gsat *s, int64_t conflicts);
GSAT_API void gsat_set_time_limit(gsat *s, double seconds);

/* Called during gsat_solve() (after every conflict); a nonzero return
 * stops the search, which then returns GSAT_UNKNOWN.  NULL: none. */
GSAT_API void gsat_set_terminate(gsat *s, void *state, int (*terminate)(void *state));

/* Called during gsat_solve() with every learned clause of at most
 * max_length literals (lits[0..n-1] in DIMACS, lits[n] == 0; valid only
 * during the call).  Learned clauses follow from the clauses and the
 * graphs' acyclicity.  NULL: none. */
GSAT_API void gsat_set_learn(gsat *s, void *state, int max_length,
                             void (*learn)(void *state, const int *lits, int n));

/* Options by name (names, defaults, ranges and meanings: `gsat --help`,
 * or doc/library.md "Engine options"); returns 0 if the name is unknown
 * (or NULL) or the value out of range. */
GSAT_API int gsat_set_option(gsat *s, const char *name, int64_t value);

/* The options, the engine's first and then those of theories: fills *out
 * with option i (0, 1, ...) and returns 1, or returns 0 past the last. */
typedef struct gsat_option {
    const char *name;
    int64_t def, lo, hi;      /* default and range */
    const char *help;
} gsat_option;
GSAT_API int gsat_option_at(const gsat *s, int i, gsat_option *out);

/* Decision hints (var <= 0 is ignored, var > GSAT_MAX_VARS an error).
 * Variables marked 0 are never branched on (their value follows from
 * propagation).  Default 1. */
GSAT_API void gsat_set_decision_var(gsat *s, int var, int is_decision);
/* Decision hint: the value tried first when branching on var (1 true,
 * 0 false), until phase saving replaces it.  Default: option phase. */
GSAT_API void gsat_set_phase(gsat *s, int var, int value);

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

/* The formula as the engine holds it now, clause by clause:
 * clause(state, lits, n) gets lits[0..n-1] in DIMACS (valid only during
 * the call).  If the formula is known unsatisfiable, just the empty
 * clause; else every literal fixed at the top level as a unit clause, then
 * every clause kept from those added (learned clauses are not included).
 * Together they are satisfiable exactly when the clauses added are;
 * preprocessing may have removed variables and clauses (gsat_is_removed).
 * Stops at the first nonzero return of clause and returns it; else 0
 * (-1 after an error, with no call).  Not during gsat_solve(). */
GSAT_API int gsat_clauses(const gsat *s, void *state, int (*clause)(void *state, const int *lits, int n));
/* 1 once the clauses added are known unsatisfiable (gsat_add_clause()
 * returned 0), else 0. */
GSAT_API int gsat_inconsistent(const gsat *s);

typedef struct gsat_stats {
    int64_t conflicts, decisions, propagations, restarts, learned, reduced;
    int64_t theory_conflicts, theory_propagations, theory_explanation_lits;
    double  seconds;
} gsat_stats;
GSAT_API void gsat_get_stats(const gsat *s, gsat_stats *out);

/* ---- Acyclicity theory ----------------------------------------------
 * A graph whose edges are guarded by literals; the solver keeps the set of
 * edges whose guard is true (plus unguarded edges) acyclic.  Several graphs
 * may coexist; each is one acyclicity constraint. */

/* New graph with nodes 0..num_nodes-1; returns its id (>= 0), or -1
 * (num_nodes < 0, an error). */
GSAT_API int gsat_graph_new(gsat *s, int num_nodes);
/* Add nodes; returns the id of the first one added, or -1 (no such
 * graph, count < 0, an error). */
GSAT_API int gsat_graph_add_nodes(gsat *s, int graph, int count);
/* Edge from -> to guarded by lit (lit == 0: always on; else a literal as
 * in a clause).  Returns the edge id (>= 0) or -1 on a bad graph or node
 * id, or an error (a bad lit is one).  A self-loop forces lit false. */
GSAT_API int gsat_graph_add_edge(gsat *s, int graph, int from, int to, int lit);
/* n always-on edges at once, edge i from ends[2i] to ends[2i + 1]: the
 * same as n calls of gsat_graph_add_edge(s, graph, from, to, 0) in that
 * order (the same ids, the same answers), faster when most go forward in
 * the node numbering of a new graph.  Returns the first edge's id, or -1
 * (nothing added) on a bad node id. */
GSAT_API int gsat_graph_add_edges(gsat *s, int graph, const int *ends, size_t n);
/* The same for n always-on edges a producer gives in chunks of at most
 * chunk: each(ctx, first, count, ends) writes the ends of edges first ..
 * first + count - 1 into ends (2 * count ints), the same every time it is
 * asked; it is asked in passes over the edges in order (first = 0, chunk,
 * 2 chunk, ...), a few passes.  The same edges, ids and answers as one
 * gsat_graph_add_edges of all n, without holding all their ends at once,
 * and in O(n + nodes) when they all go forward in a new graph's node
 * numbering (where gsat_graph_add_edges chunk by chunk would merge the
 * whole frozen graph again for every chunk). */
typedef void (*gsat_ends_fn)(void *ctx, size_t first, size_t count, int *ends);
GSAT_API int gsat_graph_add_edges_each(gsat *s, int graph, size_t n, size_t chunk, gsat_ends_fn each, void *ctx);
/* Optional: room for more edges (of any graph), always_on with lit 0 and
 * guarded ones, allocated at once; a reader that knows its edge counts
 * saves the growth of the edge arrays. */
GSAT_API void gsat_graph_reserve_edges(gsat *s, int always_on, int guarded);

#ifdef __cplusplus
}
#endif
#endif
