/* msat.h — the state behind MonoSAT's SolverPtr in the compatibility
 * layer (include/monosat.h), shared by the .c files of compat/monosat.
 *
 * MonoSAT variable v is gsat variable v + 1, so MonoSAT literal 2v + s is
 * the DIMACS literal ±(v + 1); variable 0 is the constant true, fixed by a
 * unit clause when the solver is made.  Every variable this layer creates
 * (gates, edges, acyclicity literals) is a MonoSAT variable too, so
 * nVars() is gsat's number of variables.
 *
 * Graphs are recorded here and handed to gsat only when a solve needs
 * them: a graph becomes a gsat graph (a hard acyclicity constraint) at the
 * first solve in which its acyclicity literal holds (asserted or assumed),
 * and every later solve must have it hold too.  Edge guards are the edge
 * literals' representatives under the equivalences the caller asserted
 * (AssertEqual/AssertXnor/AssertXor), as the GNF reader does: the theory
 * then sees one guard per alternative.
 *
 * Handles: a graph handle is its index + 1, a bit-vector handle is a
 * constant; both are checked on every call. */
#ifndef GSAT_COMPAT_MONOSAT_H
#define GSAT_COMPAT_MONOSAT_H

#include <stdint.h>

#include "gsat.h"
#include "monosat.h"
#include "vec.h"

enum { MSAT_TRUE = 0, MSAT_FALSE = 1 };

/* per variable */
enum {
    MV_FLIP = 1,          /* the equivalence parent is this variable's negation */
    MV_NODECISION = 2,    /* the caller made it a non-decision variable */
    MV_POLARITY = 4,      /* the caller's preferred polarity is true */
};
typedef struct msat_var {
    int parent;           /* equivalence class (union-find), MonoSAT variables */
    int edge;             /* index into msat.edges if this is an edge's variable, else -1 */
    uint8_t flags;
} msat_var;

typedef struct msat_edge { int graph, from, to, lit; int64_t weight; } msat_edge;

typedef struct msat_graph {
    char *name;           /* "" when unnamed */
    int nodes;
    vec_int edges;        /* indices into msat.edges, in creation order */
    int acyclic_lit;      /* -1 until acyclic_directed() */
    int gsat_id;          /* -1 until handed to gsat */
    int gsat_nodes;       /* nodes and edges already in the gsat graph */
    size_t gsat_edges;
} msat_graph;

typedef struct msat {
    gsat *s;
    int ok;               /* 0 once the clauses alone are unsatisfiable */
    int failed;           /* an error happened: no more answers */
    char first_error[600];
    VEC(msat_var) vars;
    VEC(msat_edge) edges;
    VEC(msat_graph) graphs;
    int64_t clauses;      /* added through this layer */
    int64_t conflict_limit;
    int time_limit;
    int last;             /* GSAT_SAT/UNSAT/UNKNOWN of the last solve, -1 before */
    vec_int assumptions;  /* of the last solve, MonoSAT literals */
    vec_int conflict;     /* after UNSAT: negated failed assumptions */
    vec_int tmp, tmp2;    /* scratch */
} msat;

/* ---- errors (error.c) ---------------------------------------------------- */
/* Report "func: message" to the error handler; marks m failed (m may be NULL). */
void msat_error(msat *m, const char *func, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The solver behind S, or NULL after reporting the error (every call
 * starts here, so the common case is inline). */
msat *msat_no_solver(const char *func);
static inline msat *msat_of(SolverPtr S, const char *func) { return S ? (msat *)S : msat_no_solver(func); }

/* ---- literals, variables and clauses (solver.c) ------------------------- */
static inline int msat_dimacs(int lit) { int v = (lit >> 1) + 1; return (lit & 1) ? -v : v; }
static inline int msat_lit(int dimacs) { return dimacs > 0 ? 2 * (dimacs - 1) : 2 * (-dimacs - 1) + 1; }
static inline int msat_nvars(const msat *m) { return (int)m->vars.len; }
/* 1 if lit names a variable of m; else reports the error and returns 0. */
int msat_check_lit(msat *m, const char *func, int lit);
int msat_check_lits(msat *m, const char *func, const int *lits, int n);
int msat_new_var(msat *m);                       /* returns the positive literal */
int msat_add_clause(msat *m, const int *lits, int n);
/* The same for a caller's clause: checks each literal while converting it
 * (one pass; reports the error and returns 0 on a bad literal). */
int msat_add_checked_clause(msat *m, const char *func, const int *lits, int n);
static inline int msat_add2(msat *m, int a, int b) { int c[2] = {a, b}; return msat_add_clause(m, c, 2); }
static inline int msat_add3(msat *m, int a, int b, int c3) { int c[3] = {a, b, c3}; return msat_add_clause(m, c, 3); }
/* 1 / -1 if lit is true / false in every model as far as gsat knows, else 0 */
int msat_fixed(const msat *m, int lit);
/* Equivalences: record that literals a and b are equal (the clauses are the
 * caller's job); find the representative literal of lit. */
void msat_equal(msat *m, int a, int b);
int msat_find(msat *m, int lit);

/* ---- graphs (graph.c) ------------------------------------------------------- */
/* Before a solve: every graph with an acyclicity literal needs it asserted or
 * among the assumptions; such graphs (and their new nodes and edges) go to
 * gsat.  Returns 0 after reporting an error. */
int msat_graphs_ready(msat *m, const char *func, const int *assumptions, int n);
int msat_is_acyclic_lit(const msat *m, int lit);
void msat_graphs_free(msat *m);

#endif
