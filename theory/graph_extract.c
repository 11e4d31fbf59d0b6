/* graph_extract.c — a solver's formula and graphs as a graph_problem
 * (contract in graph_extract.h).  Reads the formula through gsat_clauses()
 * and the acyclicity theory through its own header. */
#include "theory/graph_extract.h"
#include "theory/acyclic.h"

static int add_clause(void *p, const int *lits, int n) {
    gp_add_clause(p, lits, n);
    return 0;
}

void gp_from_solver(gsat *s, const int *assumptions, int n, graph_problem *p) {
    gp_reset(p);
    gp_reserve_vars(p, gsat_num_vars(s));
    gsat_clauses(s, p, add_clause);
    if (gsat_inconsistent(s)) return;
    const acyclic *a = acyclic_find(s);
    if (a) {
        int g = gp_graph_new(p, acyclic_num_nodes(a));
        for (int e = 0; e < acyclic_num_edges(a); e++) {
            int from, to, lit;
            acyclic_edge_ends(a, e, &from, &to, &lit);
            gp_add_edge(p, g, from, to, lit);
        }
    }
    for (int i = 0; i < n; i++) gp_add_assumption(p, assumptions[i]);
}
