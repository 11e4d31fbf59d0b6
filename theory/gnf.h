/* gnf.h — MonoSAT's GNF ("graph normal form") input for gsat: DIMACS
 * clauses plus graph lines, including the traces MonoSAT's API writes.
 *
 * Accepted (tokens separated by blanks, lines may start with blanks):
 *   p cnf V C                         optional header
 *   clause lines, c comments          as in DIMACS
 *   digraph [int|float|rational] NODES EDGES GID [BITS] [NAME]
 *                                     declare graph GID with NODES nodes
 *                                     (EDGES is a size hint, ignored)
 *   node GID N [NAME]                 make sure node N exists
 *   edge GID FROM TO VAR [WEIGHT]     edge guarded by variable VAR > 0
 *                                     (missing nodes are created, as MonoSAT
 *                                     does; weights do not matter here)
 *   weighted_edge ...                 same as edge
 *   acyclic GID VAR                   graph GID is acyclic when VAR holds;
 *                                     VAR must be asserted true by a unit
 *                                     clause or a `solve` assumption —
 *                                     anything else is rejected
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
 * Gzip-compressed input is recognised by its magic (solver/reader.c). */
#ifndef GSAT_GNF_H
#define GSAT_GNF_H

#include "error.h"
#include "gsat.h"
#include "vec.h"

typedef struct gnf_info {
    vec_int assumptions;      /* from the `solve` line */
    int has_solve;
    long vars, clauses;       /* as counted by the DIMACS layer */
    long graphs, acyclic_graphs, nodes, edges;
} gnf_info;

/* Parse path ("-" = standard input) into s.  Returns 0, or -1 with err set
 * (the solver then holds a partial formula and must not be used). */
int  gnf_parse_file(gsat *s, const char *path, gnf_info *info, ic_error *err);
/* The same from memory (tests). */
int  gnf_parse_mem(gsat *s, const char *name, const char *text, size_t len, gnf_info *info, ic_error *err);
void gnf_info_free(gnf_info *info);

#endif
