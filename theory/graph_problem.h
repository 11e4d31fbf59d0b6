/* graph_problem.h — a recorded SAT-modulo-acyclicity problem, and its
 * exports (GNF for MonoSAT and gsat, plain DIMACS with acyclicity encoded
 * in clauses).
 *
 * A graph_problem is what a client hands the engine, kept as data instead
 * of being solved: variables 1..num_vars, clauses, graphs whose edges are
 * guarded by literals (0: always on; every graph is one acyclicity
 * constraint), and the assumptions of one solve.  Variables may carry a
 * name ("c var 17 = T3 before T9 on key x") so that a model found by any
 * solver can be read back; free comment lines describe the instance.
 *
 * Contract:
 *  - gp_* recording functions never fail on well-formed arguments; a bad
 *    node id or a literal outside 1..num_vars is a caller bug (assert).
 *  - gp_encode_cnf() writes into `out` (reset first) an equisatisfiable
 *    problem without graphs.  Variables 1..in->num_vars keep their meaning,
 *    so the projection of a model of `out` onto them is a model of `in`
 *    (clauses hold and every graph's enabled edges are acyclic); auxiliary
 *    variables follow and are named.  Assumptions become unit clauses.
 *  - gp_write_dimacs() / gp_write_gnf() write to a caller's stream and
 *    return 0 on an I/O error (and gp_write_dimacs() when graphs are left).
 *  - Nothing here prints, exits (except out of memory) or keeps globals. */
#ifndef GSAT_GRAPH_PROBLEM_H
#define GSAT_GRAPH_PROBLEM_H

#include <stdint.h>
#include <stdio.h>

#include "vec.h"

typedef struct gp_edge { int from, to, lit; } gp_edge;       /* lit 0: always on */
typedef VEC(gp_edge) gp_edge_vec;

typedef struct gp_graph {
    int num_nodes;
    gp_edge_vec edges;
} gp_graph;

/* A name covering variables first..first+count-1 (count 1: one variable). */
typedef struct gp_name { int first, count; size_t text; } gp_name;

typedef struct graph_problem {
    int num_vars;
    vec_int lits;                  /* clause literals, back to back */
    VEC(size_t) clause_end;        /* clause i is lits[end[i-1] .. end[i]) */
    VEC(gp_graph) graphs;
    vec_int assumptions;
    VEC(gp_name) names;            /* in the order given */
    vec_char text;                 /* NUL-terminated strings: names, comments */
    VEC(size_t) comments;          /* offsets into text */
} graph_problem;

void gp_init(graph_problem *p);
void gp_free(graph_problem *p);
void gp_reset(graph_problem *p);

int  gp_new_var(graph_problem *p);
void gp_reserve_vars(graph_problem *p, int n);          /* vars 1..n exist */
void gp_add_clause(graph_problem *p, const int *lits, int n);
int  gp_graph_new(graph_problem *p, int num_nodes);     /* returns graph id */
int  gp_add_edge(graph_problem *p, int graph, int from, int to, int lit);
void gp_add_assumption(graph_problem *p, int lit);

/* Names and comments (printf-style; stored, written as `c` lines). */
void gp_name_vars(graph_problem *p, int first, int count, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void gp_comment(graph_problem *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static inline size_t gp_num_clauses(const graph_problem *p) { return p->clause_end.len; }
/* Clause i: its *n literals (NULL for the empty clause). */
static inline const int *gp_clause(const graph_problem *p, size_t i, int *n) {
    size_t b = i ? p->clause_end.data[i - 1] : 0;
    *n = (int)(p->clause_end.data[i] - b);
    return *n ? p->lits.data + b : NULL;
}
size_t gp_num_edges(const graph_problem *p);

/* ---- acyclicity as clauses (graph_encode.c) ---------------------------
 * Each graph is first split into the strongly connected components of all
 * its edges (a cycle never leaves one); edges between components are
 * dropped, and each component is encoded on its own:
 *   GP_TC        transitive closure: reach[u][v] for u != v, transitivity
 *                and irreflexivity (n^3 clauses: small instances only);
 *   GP_RANK_BIN  binary positions (ceil(log2 n) bits per node) and one
 *                lexicographic "<" comparator per edge pair;
 *   GP_RANK_UNARY  order-encoded positions (pos >= j) and one clause per
 *                edge and level;
 *   GP_VE        vertex elimination: eliminate nodes by least fill-in,
 *                adding path variables for in x out neighbour pairs.
 * doc/encodings.md gives the size of each. */
typedef enum { GP_TC, GP_RANK_BIN, GP_RANK_UNARY, GP_VE } gp_encoding;
const char *gp_encoding_name(gp_encoding e);       /* "tc", "rank", "unary", "ve" */
int  gp_encoding_parse(const char *s, gp_encoding *e);   /* 1 on success */

typedef struct gp_encode_stats {
    int64_t aux_vars, clauses, components, nodes_encoded, edges_encoded, edges_dropped;
    int64_t predicted;        /* when over the limit: clauses it would need, at least */
} gp_encode_stats;

/* Returns 1, or 0 (out left empty) when more than max_clauses clauses
 * (0: no limit) would be added; st->predicted then says how many. */
int gp_encode_cnf(const graph_problem *in, gp_encoding enc, int64_t max_clauses, graph_problem *out, gp_encode_stats *st);

/* ---- writers (graph_write.c) ----------------------------------------- */
int gp_write_dimacs(const graph_problem *p, FILE *out);
/* MonoSAT's GNF: clauses, `digraph`, `node`, one fresh edge variable per
 * edge (equivalent to its guard), `acyclic GID V` with V a unit, and the
 * assumptions as a final `solve` line (none: no solve line).
 * Edge variables are numbered after p->num_vars. */
int gp_write_gnf(const graph_problem *p, FILE *out);

#endif
