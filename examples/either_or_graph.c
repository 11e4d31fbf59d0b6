/* either_or_graph.c — an acyclicity problem solved incrementally with
 * libgsat.
 *
 * Four tasks with fixed precedences a->b and c->d; two either/or choices:
 * x orders b before c (else c before b), y orders d before a (else a
 * before d).  Solve, read the choices, then add a clause and an edge
 * between solves and solve under assumptions.
 *
 *   cc either_or_graph.c $(pkg-config --cflags --libs gsat) -o either_or_graph */
#include <stdio.h>

#include <gsat.h>

enum { A, B, C, D };

int main(void) {
    int ok = 1;
    gsat *s = gsat_new();
    int g = gsat_graph_new(s, 4);
    int x = gsat_new_var(s), y = gsat_new_var(s);
    gsat_graph_add_edge(s, g, A, B, 0);          /* fixed */
    gsat_graph_add_edge(s, g, C, D, 0);
    gsat_graph_add_edge(s, g, B, C, x);          /* x: b before c */
    gsat_graph_add_edge(s, g, C, B, -x);
    gsat_graph_add_edge(s, g, D, A, y);          /* y: d before a */
    gsat_graph_add_edge(s, g, A, D, -y);

    int r = gsat_solve(s, NULL, 0);
    printf("solve 1: %s, x=%d y=%d\n", r == GSAT_SAT ? "SAT" : "UNSAT", gsat_value(s, x), gsat_value(s, y));
    /* x and y together close a -> b -> c -> d -> a */
    if (r != GSAT_SAT || (gsat_value(s, x) > 0 && gsat_value(s, y) > 0)) ok = 0;

    /* assume both: the cycle makes it unsatisfiable, and both assumptions are to blame */
    int both[2] = { x, y };
    r = gsat_solve(s, both, 2);
    printf("solve 2 (assume x, y): %s, failed x=%d y=%d\n", r == GSAT_UNSAT ? "UNSAT" : "SAT",
           gsat_failed(s, x), gsat_failed(s, y));
    if (r != GSAT_UNSAT || !gsat_failed(s, x) || !gsat_failed(s, y)) ok = 0;

    /* incremental: require x, then add an edge d -> b guarded by a new z */
    int unit[1] = { x };
    gsat_add_clause(s, unit, 1);
    int z = gsat_new_var(s);
    gsat_graph_add_edge(s, g, D, B, z);          /* with x: b -> c -> d -> b */
    int assume_z[1] = { z };
    r = gsat_solve(s, assume_z, 1);
    printf("solve 3 (x, assume z): %s\n", r == GSAT_UNSAT ? "UNSAT" : "SAT");
    if (r != GSAT_UNSAT) ok = 0;
    r = gsat_solve(s, NULL, 0);
    printf("solve 4 (x): %s, y=%d z=%d\n", r == GSAT_SAT ? "SAT" : "UNSAT", gsat_value(s, y), gsat_value(s, z));
    if (r != GSAT_SAT || gsat_value(s, y) > 0 || gsat_value(s, z) > 0) ok = 0;

    gsat_free(s);
    printf(ok ? "either_or_graph: all as expected\n" : "either_or_graph: UNEXPECTED RESULTS\n");
    return ok ? 0 : 1;
}
