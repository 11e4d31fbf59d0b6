/* monosat.h — MonoSAT's C API (monosat/api/Monosat.h and CircuitC.h), the
 * part that graph-acyclicity users need, implemented over gsat by
 * libmonosat (build/monosat/libmonosat.so; with `make jni` also the JNI
 * functions behind MonoSAT's Java classes, build/jni/libmonosat.so).
 * Same names, same signatures, same literal encoding: a program or a JVM
 * written for MonoSAT loads it unchanged.  doc/backend.md has the table
 * of what is covered and how it maps onto gsat.
 *
 * Literals: variable v (0, 1, ...) has literals 2v (positive) and 2v+1
 * (negative).  Variable 0 is the constant true (literal 0 = True, 1 =
 * False); it exists from newSolver() on.
 *
 * Differences from MonoSAT, all loud (see "Errors" below):
 *   - acyclic_directed(S, G) returns a literal that must be asserted true
 *     (Assert, a unit clause) or assumed true in every solve: gsat keeps
 *     acyclicity as a hard constraint, not as a reified predicate.  A solve
 *     in which it is neither fails.
 *   - Functions of MonoSAT's API that are not declared here (bit vectors,
 *     other graph predicates, pseudo-Boolean constraints, optimization,
 *     finite state machines, names, GNF files) are not in the library: a
 *     program that calls one does not link (or, loaded lazily, stops with
 *     "undefined symbol: NAME").  Through the JVM they throw
 *     UnsupportedOperationException naming the function.
 *   - Arguments outside what gsat supports (an option string it does not
 *     know, a bit-vector weighted graph, a named node, a propagation
 *     limit) fail at the call.
 *   - Limits: setConflictLimit/setTimeLimit count per solveLimited call.
 *
 * Errors: misuse (a literal that is not a variable of the solver, an
 * unsupported argument, an acyclicity literal that does not hold) goes to
 * the error handler with a message "FUNCTION: what was wrong"; so does a
 * failure of gsat underneath (out of memory: gsat.h "Errors").  The default
 * handler prints it to stderr and aborts, as an uncaught C++ exception of
 * MonoSAT would; monosat_set_error_handler() installs another one (the
 * JNI layer turns errors into Java exceptions).  When a handler returns,
 * the failing call returns a neutral value (literal -1, false, 0) and the
 * solver refuses to solve from then on (each solve reports the first error
 * again), so no answer is ever given after an error. */
#ifndef GSAT_MONOSAT_H
#define GSAT_MONOSAT_H

#include <stdbool.h>
#include <stdint.h>

#ifndef MONOSAT_API
#if defined(__GNUC__) && __GNUC__ >= 4
#define MONOSAT_API __attribute__((visibility("default")))
#else
#define MONOSAT_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef void *SolverPtr;
typedef void *GraphTheorySolver_long;
typedef void *BVTheoryPtr;
typedef int Var;
typedef int64_t Weight;

/* ---- errors (gsat's addition) -------------------------------------------- */
typedef void (*monosat_error_handler)(const char *message, void *data);
/* Process-wide; NULL restores the default (print and abort).  The message
 * is valid until the next error on the same thread. */
MONOSAT_API void monosat_set_error_handler(monosat_error_handler handler, void *data);

/* ---- solver ------------------------------------------------------------------ */
MONOSAT_API const char *getVersion(void);
MONOSAT_API SolverPtr newSolver(void);
/* args: gsat engine options "--name=value" (gsat --help), separated by
 * blanks; a leading program name (not starting with '-') is skipped. */
MONOSAT_API SolverPtr newSolver_arg(const char *args);
MONOSAT_API SolverPtr newSolver_args(int argc, char **argv);
MONOSAT_API void deleteSolver(SolverPtr S);
/* false once the formula is known unsatisfiable (without assumptions) */
MONOSAT_API bool ok(SolverPtr S);
/* gsat does no preprocessing that could remove variables: no-ops */
MONOSAT_API void disablePreprocessing(SolverPtr S);
MONOSAT_API bool disallowLiteralSimplification(SolverPtr S, int var);
/* gsat leaves level 0 after every call already: a no-op */
MONOSAT_API void backtrack(SolverPtr S);

/* ---- variables and literals ---------------------------------------------- */
MONOSAT_API int varToLit(int var, bool negated);
MONOSAT_API int litToVar(int lit);
MONOSAT_API int newVar(SolverPtr S);
MONOSAT_API int true_lit(SolverPtr S);
MONOSAT_API int nVars(SolverPtr S);
MONOSAT_API int nClauses(SolverPtr S);
MONOSAT_API int nLearnedClauses(SolverPtr S);
/* The literal is asserted true (its variable is not reused). */
MONOSAT_API void releaseLiteral(SolverPtr S, int literal);
/* Names: this layer gives no literal names, so every literal has none. */
MONOSAT_API const char *getLiteralName(SolverPtr S, int literal, int nameIndex);
MONOSAT_API int literalNameCount(SolverPtr S, int literal);
MONOSAT_API bool hasLiteralWithName(SolverPtr S, const char *name);
MONOSAT_API int nNamedLiterals(SolverPtr S);

/* ---- decision hints ---------------------------------------------------------- */
MONOSAT_API void setDecisionVar(SolverPtr S, int var, bool decidable);
MONOSAT_API bool isDecisionVar(SolverPtr S, int var);
MONOSAT_API void setDecisionPolarity(SolverPtr S, Var v, bool b);
MONOSAT_API bool getDecisionPolarity(SolverPtr S, Var v);
/* Priorities are not supported: 0 for every variable. */
MONOSAT_API int getDecisionPriority(SolverPtr S, int var);

/* ---- clauses ----------------------------------------------------------------- */
MONOSAT_API bool addClause(SolverPtr S, int *lits, int n_lits);
MONOSAT_API bool addUnitClause(SolverPtr S, int lit);
MONOSAT_API bool addBinaryClause(SolverPtr S, int lit1, int lit2);
MONOSAT_API bool addTertiaryClause(SolverPtr S, int lit1, int lit2, int lit3);
MONOSAT_API void addBinaryClauses(SolverPtr S, int *first_args, int *second_args, int n_pairs);
/* at most one of the variables (at_most_one) or literals is true */
MONOSAT_API void at_most_one(SolverPtr S, int *vars, int n_vars);
MONOSAT_API void at_most_one_lit(SolverPtr S, int *literals, int n_lits);

/* ---- the Logic helpers (CircuitC.h) ---------------------------------------
 * Gates return a literal equal to the gate (a new variable, or an argument
 * or constant when the gate simplifies); the _ forms make lit_out equal to
 * the gate instead; Assert* add the constraint itself. */
MONOSAT_API int newLit(SolverPtr S);
MONOSAT_API int newLit_(SolverPtr S, bool decisionLit);
MONOSAT_API int getTrue(SolverPtr S);
MONOSAT_API int getFalse(SolverPtr S);
MONOSAT_API int And(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API int And_(SolverPtr S, int lit_a, int lit_b, int lit_out);
MONOSAT_API int Ands(SolverPtr S, int *lits, int n_lits);
MONOSAT_API int Ands_(SolverPtr S, int *lits, int n_lits, int lit_out);
MONOSAT_API int Or(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API int Or_(SolverPtr S, int lit_a, int lit_b, int lit_out);
MONOSAT_API int Ors(SolverPtr S, int *lits, int n_lits);
MONOSAT_API int Ors_(SolverPtr S, int *lits, int n_lits, int lit_out);
MONOSAT_API int Nand(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API int Nands(SolverPtr S, int *lits, int n_lits);
MONOSAT_API int Nor(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API int Nors(SolverPtr S, int *lits, int n_lits);
MONOSAT_API int Xor(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API int Xors(SolverPtr S, int *lits, int n_lits);
MONOSAT_API int Xnor(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API int Xnors(SolverPtr S, int *lits, int n_lits);
MONOSAT_API int Equal(SolverPtr S, int a_lit, int b_lit);
MONOSAT_API int Implies(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API int Implies_(SolverPtr S, int lit_a, int lit_b, int lit_out);
MONOSAT_API int Ite(SolverPtr S, int lit_cond, int lit_thn, int lit_els);
MONOSAT_API int Ite_(SolverPtr S, int lit_cond, int lit_thn, int lit_els, int lit_out);
/* lit_out (or the new literal) implies all (And) / one (Or) of lits */
MONOSAT_API int ImpliesAnd_(SolverPtr S, int *lits, int n_lits, int lit_out);
MONOSAT_API int ImpliesOr(SolverPtr S, int *lits, int n_lits);
MONOSAT_API int ImpliesOr_(SolverPtr S, int *lits, int n_lits, int lit_out);
/* implies -> all (And) / at least one (Or) of lits */
MONOSAT_API void AssertImpliesAnd(SolverPtr S, int implies, int *lits, int n_lits);
MONOSAT_API void AssertImpliesOr(SolverPtr S, int implies, int *lits, int n_lits);
MONOSAT_API void Assert(SolverPtr S, int lit);
MONOSAT_API void AssertOr(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API void AssertOrs(SolverPtr S, int *lits, int n_lits);
MONOSAT_API void AssertOrTertiary(SolverPtr S, int lit_a, int lit_b, int lit_c);
MONOSAT_API void AssertAnd(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API void AssertAnds(SolverPtr S, int *lits, int n_lits);
MONOSAT_API void AssertNand(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API void AssertNands(SolverPtr S, int *lits, int n_lits);
MONOSAT_API void AssertNor(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API void AssertNors(SolverPtr S, int *lits, int n_lits);
MONOSAT_API void AssertXor(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API void AssertXors(SolverPtr S, int *lits, int n_lits);
MONOSAT_API void AssertXnor(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API void AssertXnors(SolverPtr S, int *lits, int n_lits);
MONOSAT_API void AssertImplies(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API void AssertEqual(SolverPtr S, int lit_a, int lit_b);
MONOSAT_API void AssertAllSame(SolverPtr S, int *lits, int n_lits);
MONOSAT_API void AssertAMO(SolverPtr S, int *lits, int n_lits);
MONOSAT_API void AssertExactlyOne(SolverPtr S, int *lits, int n_lits);

/* ---- graphs ------------------------------------------------------------------- */
MONOSAT_API GraphTheorySolver_long newGraph(SolverPtr S);
/* name may be NULL or "" (unnamed); bitwidth must be < 0 (no bit-vector weights) */
MONOSAT_API GraphTheorySolver_long newGraph_Named(SolverPtr S, const char *name, int bitwidth);
/* the graph named name, or NULL */
MONOSAT_API GraphTheorySolver_long getGraph(SolverPtr S, const char *name);
MONOSAT_API const char *getGraphName(SolverPtr S, GraphTheorySolver_long G);
MONOSAT_API int getGraphWidth(SolverPtr S, GraphTheorySolver_long G);
MONOSAT_API int newNode(SolverPtr S, GraphTheorySolver_long G);
/* name must be NULL or "": nodes have no names here */
MONOSAT_API int newNode_Named(SolverPtr S, GraphTheorySolver_long G, const char *name);
MONOSAT_API bool hasNamedNode(SolverPtr S, GraphTheorySolver_long G, const char *name);
MONOSAT_API const char *getNodeName(SolverPtr S, GraphTheorySolver_long G, int nodeID);
/* A new edge; its literal is true iff the edge is in the graph.  The
 * weight is kept (getEdge_weight_const) but acyclicity ignores it. */
MONOSAT_API int newEdge(SolverPtr S, GraphTheorySolver_long G, int from, int to, Weight weight);
MONOSAT_API int nNodes(SolverPtr S, GraphTheorySolver_long G);
MONOSAT_API int nEdges(SolverPtr S, GraphTheorySolver_long G);
MONOSAT_API int getEdgeLiteralN(SolverPtr S, GraphTheorySolver_long G, int n);
MONOSAT_API int getEdge_to(SolverPtr S, GraphTheorySolver_long G, int edgeLit);
MONOSAT_API int getEdge_from(SolverPtr S, GraphTheorySolver_long G, int edgeLit);
MONOSAT_API Weight getEdge_weight_const(SolverPtr S, GraphTheorySolver_long G, int edgeLit);
MONOSAT_API bool edgeHasBVWeight(SolverPtr S, GraphTheorySolver_long G, int edgeLit);
/* The literal "G has no directed cycle" (the same one on every call); it
 * must be asserted or assumed true (see above). */
MONOSAT_API int acyclic_directed(SolverPtr S, GraphTheorySolver_long G);

/* ---- bit vectors: only what every MonoSAT Java Solver touches -------------- */
/* A handle that no bit-vector function accepts (they are not supported). */
MONOSAT_API BVTheoryPtr initBVTheory(SolverPtr S);
MONOSAT_API int nBitvectors(SolverPtr S, BVTheoryPtr bv);

/* ---- solving --------------------------------------------------------------------- */
/* solve* ignore the limits; solve*Limited return 0 SAT, 1 UNSAT, 2 limit hit */
MONOSAT_API bool solve(SolverPtr S);
MONOSAT_API bool solveAssumptions(SolverPtr S, int *assumptions, int n_assumptions);
MONOSAT_API int solveLimited(SolverPtr S);
MONOSAT_API int solveAssumptionsLimited(SolverPtr S, int *assumptions, int n_assumptions);
/* seconds <= 0 / num_conflicts < 0: none */
MONOSAT_API void setTimeLimit(SolverPtr S, int seconds);
MONOSAT_API void setConflictLimit(SolverPtr S, int num_conflicts);
/* gsat has no propagation limit: only < 0 (none) is accepted */
MONOSAT_API void setPropagationLimit(SolverPtr S, int num_propagations);
MONOSAT_API uint64_t nConflicts(SolverPtr S);
MONOSAT_API uint64_t nPropagations(SolverPtr S);
/* No optimization objectives exist here: always true / nothing to clear. */
MONOSAT_API bool lastSolutionWasOptimal(SolverPtr S);
MONOSAT_API void clearOptimizationObjectives(SolverPtr S);

/* After UNSAT: the negations of the assumptions that took part in the
 * refutation.  Stores up to max_store_size of them and returns how many
 * there are; -1 if the last solve was not UNSAT. */
MONOSAT_API int getConflictClause(SolverPtr S, int *store_clause, int max_store_size);
/* Shrink the last conflict clause (or the given unsatisfiable assumptions)
 * by re-solving without each literal in turn; the acyclicity literals stay.
 * minimizeUnsatCore returns the core's size (stored at the front of
 * unsat_assumptions), or -1 if the assumptions are satisfiable. */
MONOSAT_API void minimizeConflictClause(SolverPtr S);
MONOSAT_API int minimizeUnsatCore(SolverPtr S, int *unsat_assumptions, int n_lits);

/* ---- the model ----------------------------------------------------------------- */
MONOSAT_API bool hasModel(SolverPtr S);
/* 0 true, 1 false, 2 no value (no model) */
MONOSAT_API int getModel_Literal(SolverPtr S, int lit);
/* 0 true, 1 false at the top level (in every model), 2 not fixed */
MONOSAT_API int getConstantModel_Literal(SolverPtr S, int lit);

#ifdef __cplusplus
}
#endif
#endif
