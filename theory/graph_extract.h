/* graph_extract.h — what a solver holds, recorded as a graph_problem, so
 * that a problem read by gsat (GNF, DIMACS) can be exported again
 * (`gsat --to-cnf=MODE FILE.gnf`) without a second parser.
 *
 * Call before the first solve.  Records: the variables; the original
 * clauses as the solver keeps them (level-0 simplification may have
 * dropped satisfied clauses and false literals); every level-0 fact as a
 * unit clause; an empty clause if the solver already knows the formula is
 * unsatisfiable; the acyclicity theory's edges as one graph over the
 * theory's nodes (distinct graphs of the API have disjoint nodes, so one
 * graph is acyclic iff each is); and the given assumptions.  The result is
 * equivalent on the solver's variables: same models. */
#ifndef GSAT_GRAPH_EXTRACT_H
#define GSAT_GRAPH_EXTRACT_H

#include "gsat.h"
#include "theory/graph_problem.h"

void gp_from_solver(gsat *s, const int *assumptions, int n, graph_problem *p);

#endif
