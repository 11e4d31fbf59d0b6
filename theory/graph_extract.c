/* graph_extract.c — a solver's formula and graphs as a graph_problem
 * (contract in graph_extract.h).  Reads the engine's clause arena and the
 * acyclicity theory through their internal headers. */
#include "theory/graph_extract.h"
#include "theory/acyclic.h"
#include "solver/solver.h"

void gp_from_solver(gsat *s, const int *assumptions, int n, graph_problem *p) {
    gp_reset(p);
    gp_reserve_vars(p, gsat_num_vars(s));
    if (!s->ok) { gp_add_clause(p, NULL, 0); return; }
    for (uint32_t i = 0; i < s->trail_n && (s->trail_lim.len == 0 || i < s->trail_lim.data[0]); i++) {
        int u = lit_to_dimacs(s->trail[i]);
        gp_add_clause(p, &u, 1);
    }
    vec_int lits; vec_init(lits);
    for (size_t i = 0; i < s->originals.len; i++) {
        const clause *c = CL(s, s->originals.data[i]);
        if (c->flags & CL_GARBAGE) continue;
        vec_clear(lits);
        for (uint32_t j = 0; j < c->size; j++) vec_push(lits, lit_to_dimacs(c->lits[j]));
        gp_add_clause(p, lits.data, (int)lits.len);
    }
    vec_free(lits);
    for (int t = 0; t < s->ntheories; t++) {
        if (s->theories[t].ops != acyclic_theory_ops()) continue;
        acyclic *a = s->theories[t].t;
        int g = gp_graph_new(p, acyclic_num_nodes(a));
        for (int e = 0; e < acyclic_num_edges(a); e++) {
            int from, to, lit;
            acyclic_edge_ends(a, e, &from, &to, &lit);
            gp_add_edge(p, g, from, to, lit);
        }
    }
    for (int i = 0; i < n; i++) gp_add_assumption(p, assumptions[i]);
}
