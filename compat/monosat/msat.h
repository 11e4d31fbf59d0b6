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
 * constant; both are checked on every call.
 *
 * The per-call paths (a variable, an edge, a clause) are inline here and
 * cost a few instructions over gsat's own calls: records in flat arrays
 * grown geometrically, one unsigned compare per literal check (a negative
 * literal wraps to a huge one), scratch buffers kept between calls, and
 * the error reports out of line. */
#ifndef GSAT_COMPAT_MONOSAT_H
#define GSAT_COMPAT_MONOSAT_H

#include <assert.h>
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
    int edge;             /* index into its graph's edges if this is an edge's variable, else -1
                             (the graph is the one whose edge of that index has this literal) */
    uint8_t flags;
} msat_var;

typedef struct msat_edge { int from, to, lit; int64_t weight; } msat_edge;

typedef struct msat_graph {
    char *name;           /* "" when unnamed */
    int nodes;
    VEC(msat_edge) edges; /* in creation order */
    int acyclic_lit;      /* -1 until acyclic_directed() */
    int gsat_id;          /* -1 until handed to gsat */
    int gsat_nodes;       /* nodes and edges already in the gsat graph */
    size_t gsat_edges;
} msat_graph;

typedef struct msat {
    gsat *s;
    bool ok;              /* false once the clauses alone are unsatisfiable */
    int failed;           /* an error happened: no more answers */
    char first_error[600];
    VEC(msat_var) vars;
    VEC(msat_graph) graphs;
    int64_t clauses;      /* added through this layer */
    int64_t conflict_limit;
    int time_limit;
    int last;             /* GSAT_SAT/UNSAT/UNKNOWN of the last solve, -1 before */
    vec_int assumptions;  /* of the last solve, MonoSAT literals */
    vec_int conflict;     /* after UNSAT: negated failed assumptions */
    vec_int clause;       /* scratch: a clause in DIMACS literals */
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
void msat_no_solver(const char *func);
static inline msat *msat_of(SolverPtr S, const char *func) {
    if (S) return (msat *)S;
    msat_no_solver(func);
    return NULL;                        /* here, so the compiler sees the caller's return is taken */
}

/* ---- literals, variables and clauses (solver.c) ------------------------- */
static inline int msat_dimacs(int lit) { int v = (lit >> 1) + 1, neg = -(lit & 1); return (v ^ neg) - neg; }
static inline int msat_lit(int dimacs) { return dimacs > 0 ? 2 * (dimacs - 1) : 2 * (-dimacs - 1) + 1; }
static inline int msat_nvars(const msat *m) { return (int)m->vars.len; }
/* 1 if lit names a variable of m: one compare, since a negative lit is at
 * least 2^31 as unsigned, while the literals of m's variables are ints
 * (2v + 1 < 2^31), so 2 * len <= 2^31. */
static inline int msat_lit_ok(const msat *m, int lit) { return (size_t)(unsigned)lit < 2 * m->vars.len; }
/* Report that lit is not a literal of m; returns 0 (out of line: rare). */
bool msat_bad_lit(msat *m, const char *func, int lit);
bool msat_bad_array(msat *m, const char *func, int n);
bool msat_bad_clause(msat *m, const char *func, const int *lits, int n);   /* reports its first bad literal */
/* 1 if lit names a variable of m; else reports the error and returns 0. */
static inline int msat_check_lit(msat *m, const char *func, int lit) {
    return msat_lit_ok(m, lit) || msat_bad_lit(m, func, lit);
}
int msat_check_lits(msat *m, const char *func, const int *lits, int n);

/* Out of line, so that the per-call paths stay short: room for one more
 * variable record; room for an n-literal clause. */
#if defined(__GNUC__)
#define MSAT_COLD __attribute__((cold, noinline))
#else
#define MSAT_COLD
#endif
/* The first room for variable and edge records: 256 KiB, above glibc's
 * mmap threshold, so the block is mapped (its pages cost only when
 * touched) and every later doubling is a remap, never a copy. */
enum { MSAT_FIRST_ROOM = 256 << 10 };
/* Out of line, so that the per-call paths keep few values across calls:
 * room for one more variable record. */
void msat_grow_vars(msat *m);

/* The record of a new variable (an edge's when edge >= 0), with room for
 * it made by the caller; then the variable in gsat.  Returns its positive
 * literal.  gsat numbers variables in creation order and every variable
 * is made here, so MonoSAT variable v is gsat variable v + 1; the literal
 * is computed from gsat's answer so that nothing lives across the call. */
/* gsat failed (gsat_error: out of memory, a limit): report it as an error
 * of the layer (msat_error; every later solve is refused).  Returns -1.
 * A variable that could not be made is the constant True instead (variable
 * 0), so that the caller's records stay in range. */
int msat_engine_failed(msat *m);
static inline int msat_push_var_in_room(msat *m, int edge) {
    int v = (int)m->vars.len++;
    m->vars.data[v] = (msat_var){v, edge, 0};
    int d = gsat_new_var(m->s);
    if (d == 0) { m->vars.len--; msat_engine_failed(m); return MSAT_TRUE; }
    assert(d == v + 1);
    return 2 * (d - 1);
}
static inline int msat_new_var(msat *m) {
    if (m->vars.len == m->vars.cap) msat_grow_vars(m);
    return msat_push_var_in_room(m, -1);
}

/* Add the clause d[0..n) (DIMACS literals) to gsat; m->ok follows. */
static inline bool msat_add_dimacs(msat *m, const int *d, int n) {
    m->clauses++;
    int r = gsat_add_clause(m->s, d, n);
    if (r < 0) return msat_engine_failed(m), false;
    if (r == 0) m->ok = false;
    return m->ok;
}
/* Room for an n-literal clause in m->clause (out of line: rare). */
void msat_grow_clause(msat *m, int n);
/* Add a clause of the layer's own (literals known to be valid). */
static inline bool msat_add_clause(msat *m, const int *lits, int n) {
    if ((size_t)n > m->clause.cap) msat_grow_clause(m, n);
    int *d = m->clause.data;
    for (int i = 0; i < n; i++) d[i] = msat_dimacs(lits[i]);
    return msat_add_dimacs(m, d, n);
}
/* The same for a caller's clause: checks each literal while converting it
 * (one pass; reports the error and returns 0 on a bad literal or array).
 * A negative n, a NULL array, a clause longer than the scratch buffer go
 * the out-of-line way, which checks, makes room and comes back. */
bool msat_add_checked_clause_slow(msat *m, const char *func, const int *lits, int n);
static inline bool msat_add_checked_clause(msat *m, const char *func, const int *lits, int n) {
    if ((size_t)(unsigned)n > m->clause.cap || !lits) return msat_add_checked_clause_slow(m, func, lits, n);
    int *d = m->clause.data;
    unsigned top = 0;                   /* the largest literal, as unsigned: one check for all */
    for (int i = 0; i < n; i++) {
        unsigned l = (unsigned)lits[i];
        top = l > top ? l : top;
        d[i] = msat_dimacs(lits[i]);
    }
    if (!msat_lit_ok(m, (int)top)) return msat_bad_clause(m, func, lits, n);
    return msat_add_dimacs(m, d, n);
}
static inline bool msat_add2(msat *m, int a, int b) { int c[2] = {a, b}; return msat_add_clause(m, c, 2); }
static inline bool msat_add3(msat *m, int a, int b, int c3) { int c[3] = {a, b, c3}; return msat_add_clause(m, c, 3); }
/* 1 / -1 if lit is true / false in every model as far as gsat knows, else 0 */
int msat_fixed(const msat *m, int lit);
/* Equivalences: record that literals a and b are equal (the clauses are the
 * caller's job); find the representative literal of lit. */
void msat_equal(msat *m, int a, int b);
int msat_find_slow(msat *m, int lit);
static inline int msat_find(msat *m, int lit) {
    return m->vars.data[lit >> 1].parent == lit >> 1 ? lit : msat_find_slow(m, lit);   /* most are roots */
}

/* ---- graphs (graph.c) ------------------------------------------------------- */
/* Before a solve: every graph with an acyclicity literal needs it asserted or
 * among the assumptions; such graphs (and their new nodes and edges) go to
 * gsat.  Returns 0 after reporting an error. */
int msat_graphs_ready(msat *m, const char *func, const int *assumptions, int n);
int msat_is_acyclic_lit(const msat *m, int lit);
void msat_graphs_free(msat *m);

#endif
