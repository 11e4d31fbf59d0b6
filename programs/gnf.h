/* gnf.h — MonoSAT's GNF ("graph normal form") input for gsat: DIMACS
 * clauses plus graph lines, including the traces MonoSAT's API writes.
 *
 * Accepted (tokens separated by blanks, lines may start with blanks):
 *   p cnf V C                         optional header
 *   clause lines, c comments          as in DIMACS (solver/dimacs.h)
 *   digraph [int|float|rational] NODES EDGES GID [BITS] [NAME]
 *                                     declare graph GID (NODES and EDGES are
 *                                     size hints: nothing is allocated for
 *                                     nodes no edge uses)
 *   node GID N [NAME]                 node N (a no-op: nodes exist as edges
 *                                     name them, as in MonoSAT)
 *   edge GID FROM TO VAR [WEIGHT]     edge guarded by variable VAR > 0
 *                                     (weights do not matter here)
 *   weighted_edge ...                 same as edge
 *   acyclic GID VAR                   graph GID is acyclic when VAR holds;
 *                                     VAR must be asserted true by a unit
 *                                     clause or a `solve` assumption —
 *                                     anything else is rejected, unless the
 *                                     clauses (or the assumptions) are
 *                                     already contradictory: then the answer
 *                                     is UNSAT whatever the graphs say
 *   decision VAR 0|1                  decision-variable hint
 *   priority VAR P, edge_priority ..., graph_assign_edges_to_weight ...,
 *   symbol ...                        heuristics and names: accepted, ignored
 *   solve [L1 L2 ... [0]]             solve under these assumptions; only one,
 *                                     and no graph lines after it
 * Every other MonoSAT constraint (reach, distance, maximum_flow, forest,
 * bit-vectors, ...) is an error naming the line.  An edge on a graph with
 * no `acyclic` constraint constrains nothing, so it is dropped.  Self-loops
 * in an acyclic graph force their variable false.
 *
 * Numbering: graph ids, node ids and variables may be any non-negative
 * int (variables >= 1, nodes < INT32_MAX); memory follows what the file
 * uses.  Variables are numbered densely for the solver (solver/varnum.h;
 * info->names maps back), nodes densely per graph, both keeping the
 * file's order.
 *
 * Gzip-compressed input is recognised by its magic (io/reader.c). */
#ifndef GSAT_GNF_H
#define GSAT_GNF_H

#include "error.h"
#include "gsat.h"
#include "vec.h"
#include "io/reader.h"

typedef struct gnf_opts {
    double deadline;          /* gsat_now() time to give up reading; 0: none */
    int text_only;            /* check and number the text, build nothing in the solver */
    int assert_solve;         /* assert the `solve` line's literals as unit clauses, before the
                                 clauses: same answer, and the clauses they satisfy are never
                                 stored (gsat without --assume); info->assumptions still lists them */
} gnf_opts;

typedef struct gnf_info {
    vec_int assumptions;      /* from the `solve` line, solver numbering */
    vec_int names;            /* names.data[v]: the file's index of solver variable v,
                                 0 if unnamed (solver/varnum.h) */
    int has_solve;
    long vars, clauses;       /* variables the input names, clauses */
    long declared_vars;       /* the header's count, -1 without a header */
    long graphs, acyclic_graphs, nodes, edges;   /* nodes: used by edges of acyclic graphs */
} gnf_info;

/* Parse path ("-" = standard input) into s; opts may be NULL.  Returns
 * DIMACS_OK (0), DIMACS_ERROR with err set (the solver then holds a
 * partial formula and must not be used), or DIMACS_TIMEOUT. */
int  gnf_parse_file(gsat *s, const char *path, const gnf_opts *opts, gnf_info *info, ic_error *err);
/* The same from an open reader, and from memory (tests). */
int  gnf_parse(gsat *s, reader *r, const gnf_opts *opts, gnf_info *info, ic_error *err);
int  gnf_parse_mem(gsat *s, const char *name, const char *text, size_t len, gnf_info *info, ic_error *err);
void gnf_info_free(gnf_info *info);

#endif
