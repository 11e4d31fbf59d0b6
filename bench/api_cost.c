/* api_cost.c — one problem, solved through one of gsat's interfaces, so
 * that bench/backend.sh can compare what each interface costs.  Not part
 * of the product.
 *
 *   api_cost native|ipasir|native1|monosat FILE      (DIMACS CNF or GNF)
 *
 * The file is read first, by the same code in every mode; then the mode
 * issues its calls.  The calls are arranged so that the engine receives
 * the very same problem in the same order in the two modes of a pair:
 *   native  vs ipasir : clauses one by one (variables appear with them),
 *                       then solve under the GNF solve line's literals;
 *                       CNF only for ipasir;
 *   native1 vs monosat: MonoSAT's constant-true variable first, then every
 *                       variable in order (a GNF edge's variable is made by
 *                       MonoSAT's newEdge, an acyclic variable by
 *                       acyclic_directed), decision hints, clauses, then
 *                       the graphs (the MonoSAT layer hands them to gsat at
 *                       the solve), then solve.
 * So the two runs of a pair search identically (the printed conflict count
 * shows it) and any difference in time or instructions is the interface.
 * Prints "s SATISFIABLE|UNSATISFIABLE|UNKNOWN" and "c conflicts N". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsat.h"
#include "ipasir.h"
#include "monosat.h"
#include "vec.h"

typedef struct edge { int graph, from, to, var; } edge;
typedef struct problem {
    int maxvar;
    vec_int clauses;                 /* 0-terminated */
    vec_int graph_nodes;             /* per graph id */
    VEC(edge) edges;
    vec_int acyclic_graph, acyclic_var;
    vec_int decision_var, decision_on;
    vec_int assume;
} problem;

static void die(const char *msg, const char *arg) { fprintf(stderr, "api_cost: %s%s\n", msg, arg ? arg : ""); exit(2); }

static void note_var(problem *p, int lit) { int v = abs(lit); if (v > p->maxvar) p->maxvar = v; }

static void read_problem(problem *p, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open ", path);
    char line[1 << 16];
    while (fgets(line, sizeof line, f)) {
        char *s = line;
        while (isspace((unsigned char)*s)) s++;
        if (!*s || *s == 'c' || *s == 'p') continue;
        if (*s == '-' || isdigit((unsigned char)*s)) {
            for (char *q = s, *end;; q = end) {
                long v = strtol(q, &end, 10);
                if (end == q) break;
                vec_push(p->clauses, (int)v);
                if (v) note_var(p, (int)v);
            }
            continue;
        }
        char kw[32];
        int a, b, c, d, n;
        if (sscanf(s, "%31s%n", kw, &n) != 1) continue;
        char *rest = s + n;
        if (!strcmp(kw, "digraph")) {
            while (isspace((unsigned char)*rest)) rest++;
            if (isalpha((unsigned char)*rest)) rest += strcspn(rest, " \t");     /* int|float|rational */
            if (sscanf(rest, "%d %d %d", &a, &b, &c) != 3) die("bad digraph line: ", s);
            while ((int)p->graph_nodes.len <= c) vec_push(p->graph_nodes, 0);
            p->graph_nodes.data[c] = a;
        } else if (!strcmp(kw, "edge")) {
            if (sscanf(rest, "%d %d %d %d", &a, &b, &c, &d) != 4 || d <= 0) die("bad edge line: ", s);
            edge e = {a, b, c, d};
            vec_push(p->edges, e);
            while ((int)p->graph_nodes.len <= a) vec_push(p->graph_nodes, 0);
            if (b >= p->graph_nodes.data[a]) p->graph_nodes.data[a] = b + 1;   /* as MonoSAT, nodes appear with edges */
            if (c >= p->graph_nodes.data[a]) p->graph_nodes.data[a] = c + 1;
            note_var(p, d);
        } else if (!strcmp(kw, "acyclic")) {
            if (sscanf(rest, "%d %d", &a, &b) != 2 || b <= 0) die("bad acyclic line: ", s);
            vec_push(p->acyclic_graph, a);
            vec_push(p->acyclic_var, b);
            note_var(p, b);
        } else if (!strcmp(kw, "decision")) {
            if (sscanf(rest, "%d %d", &a, &b) != 2) die("bad decision line: ", s);
            vec_push(p->decision_var, a);
            vec_push(p->decision_on, b);
            note_var(p, a);
        } else if (!strcmp(kw, "solve")) {
            for (char *q = rest, *end;; q = end) {
                long v = strtol(q, &end, 10);
                if (end == q) break;
                if (v) { vec_push(p->assume, (int)v); note_var(p, (int)v); }
            }
        } else if (!strcmp(kw, "node")) {               /* node GID N: nodes 0..N exist */
            if (sscanf(rest, "%d %d", &a, &b) != 2) die("bad node line: ", s);
            while ((int)p->graph_nodes.len <= a) vec_push(p->graph_nodes, 0);
            if (b >= p->graph_nodes.data[a]) p->graph_nodes.data[a] = b + 1;
        } else if (!strcmp(kw, "priority") || !strcmp(kw, "edge_priority") || !strcmp(kw, "symbol") ||
                   !strcmp(kw, "graph_assign_edges_to_weight")) {
            /* hints and names: nothing for satisfiability */
        } else {
            die("unsupported GNF line: ", s);
        }
    }
    fclose(f);
}

static void report(int status, long long conflicts) {
    puts(status == GSAT_SAT ? "s SATISFIABLE" : status == GSAT_UNSAT ? "s UNSATISFIABLE" : "s UNKNOWN");
    printf("c conflicts %lld\n", conflicts);
}

/* native and ipasir: clauses as they come, graphs after, then solve */
__attribute__((noinline)) static void run_native(const problem *p) {
    gsat *s = gsat_new();
    size_t start = 0;
    for (size_t i = 0; i < p->clauses.len; i++)
        if (!p->clauses.data[i]) { gsat_add_clause(s, p->clauses.data + start, (int)(i - start)); start = i + 1; }
    for (size_t i = 0; i < p->decision_var.len; i++) gsat_set_decision_var(s, p->decision_var.data[i], p->decision_on.data[i]);
    for (size_t gid = 0; gid < p->graph_nodes.len; gid++) {
        int has_acyclic = 0;
        for (size_t k = 0; k < p->acyclic_graph.len; k++) has_acyclic |= p->acyclic_graph.data[k] == (int)gid;
        if (!has_acyclic) continue;
        int g = gsat_graph_new(s, p->graph_nodes.data[gid]);
        for (size_t e = 0; e < p->edges.len; e++)
            if (p->edges.data[e].graph == (int)gid) gsat_graph_add_edge(s, g, p->edges.data[e].from, p->edges.data[e].to, p->edges.data[e].var);
    }
    int r = gsat_solve(s, p->assume.data, (int)p->assume.len);
    gsat_stats st;
    gsat_get_stats(s, &st);
    report(r, (long long)st.conflicts);
    gsat_free(s);
}

__attribute__((noinline)) static void run_ipasir(const problem *p) {
    if (p->edges.len) die("ipasir: the file has graphs, IPASIR has none", NULL);
    void *S = ipasir_init();
    for (size_t i = 0; i < p->clauses.len; i++) ipasir_add(S, p->clauses.data[i]);
    for (size_t i = 0; i < p->assume.len; i++) ipasir_assume(S, p->assume.data[i]);
    int r = ipasir_solve(S);
    /* the conflict count is not part of IPASIR: report the answer only */
    puts(r == 10 ? "s SATISFIABLE" : r == 20 ? "s UNSATISFIABLE" : "s UNKNOWN");
    ipasir_release(S);
}

/* The MonoSAT-shaped order: variable v of the file is gsat variable v + 1. */

__attribute__((noinline)) static void run_native1(const problem *p, const int *edge_at, const int *acyclic_at) {
    (void)acyclic_at;
    gsat *s = gsat_new();
    int t = gsat_new_var(s);
    gsat_add_clause(s, &t, 1);
    for (int v = 1; v <= p->maxvar; v++) gsat_new_var(s);
    for (size_t i = 0; i < p->decision_var.len; i++) gsat_set_decision_var(s, p->decision_var.data[i] + 1, p->decision_on.data[i]);
    vec_int c;
    vec_init(c);
    for (size_t i = 0; i < p->clauses.len; i++) {
        int l = p->clauses.data[i];
        if (l) { vec_push(c, l > 0 ? l + 1 : l - 1); continue; }
        gsat_add_clause(s, c.data, (int)c.len);
        vec_clear(c);
    }
    /* graphs in order of creation, edges in order of their variables */
    for (size_t gid = 0; gid < p->graph_nodes.len; gid++) {
        int has_acyclic = 0;
        for (size_t k = 0; k < p->acyclic_graph.len; k++) has_acyclic |= p->acyclic_graph.data[k] == (int)gid;
        if (!has_acyclic) continue;
        int g = gsat_graph_new(s, p->graph_nodes.data[gid]);
        for (int v = 1; v <= p->maxvar; v++) {
            int e = edge_at[v];
            if (e >= 0 && p->edges.data[e].graph == (int)gid)
                gsat_graph_add_edge(s, g, p->edges.data[e].from, p->edges.data[e].to, v + 1);
        }
    }
    for (size_t i = 0; i < p->assume.len; i++) { int l = p->assume.data[i]; vec_push(c, l > 0 ? l + 1 : l - 1); }
    int r = gsat_solve(s, c.data, (int)c.len);
    gsat_stats st;
    gsat_get_stats(s, &st);
    report(r, (long long)st.conflicts);
    vec_free(c);
    gsat_free(s);
}

static inline int mlit(int dimacs) { return dimacs > 0 ? 2 * dimacs : 2 * -dimacs + 1; }

__attribute__((noinline)) static void run_monosat(const problem *p, const int *edge_at, const int *acyclic_at) {
    SolverPtr S = newSolver();
    VEC(GraphTheorySolver_long) graphs;
    vec_init(graphs);
    for (size_t gid = 0; gid < p->graph_nodes.len; gid++) {
        GraphTheorySolver_long G = newGraph(S);
        for (int n = 0; n < p->graph_nodes.data[gid]; n++) newNode(S, G);
        vec_push(graphs, G);
    }
    for (int v = 1; v <= p->maxvar; v++) {
        int acyclic_graph = acyclic_at[v], made;
        if (edge_at[v] >= 0) {
            const edge *e = &p->edges.data[edge_at[v]];
            made = newEdge(S, graphs.data[e->graph], e->from, e->to, 1) / 2;
        } else if (acyclic_graph >= 0) {
            made = acyclic_directed(S, graphs.data[acyclic_graph]) / 2;
        } else {
            made = newVar(S);
        }
        if (made != v) die("monosat: variables came out of order (an edge variable used twice?)", NULL);
    }
    for (size_t i = 0; i < p->decision_var.len; i++) setDecisionVar(S, p->decision_var.data[i], p->decision_on.data[i]);
    vec_int c;
    vec_init(c);
    for (size_t i = 0; i < p->clauses.len; i++) {
        int l = p->clauses.data[i];
        if (l) { vec_push(c, mlit(l)); continue; }
        addClause(S, c.data, (int)c.len);
        vec_clear(c);
    }
    for (size_t i = 0; i < p->assume.len; i++) vec_push(c, mlit(p->assume.data[i]));
    int r = solveAssumptions(S, c.data, (int)c.len) ? GSAT_SAT : GSAT_UNSAT;
    report(r, (long long)nConflicts(S));
    vec_free(c);
    vec_free(graphs);
    deleteSolver(S);
}

int main(int argc, char **argv) {
    if (argc != 3) die("usage: api_cost native|ipasir|native1|monosat FILE", NULL);
    problem p;
    memset(&p, 0, sizeof p);
    read_problem(&p, argv[2]);
    /* edge_at[v]: the edge whose variable v is (MonoSAT modes need one each);
     * acyclic_at[v]: the graph whose acyclicity variable v is.  Looked up
     * here, so that neither mode's own bookkeeping is counted */
    int *edge_at = malloc(((size_t)p.maxvar + 1) * sizeof *edge_at);
    int *acyclic_at = malloc(((size_t)p.maxvar + 1) * sizeof *acyclic_at);
    for (int v = 0; v <= p.maxvar; v++) edge_at[v] = acyclic_at[v] = -1;
    for (size_t k = 0; k < p.acyclic_var.len; k++) acyclic_at[p.acyclic_var.data[k]] = p.acyclic_graph.data[k];
    for (size_t e = 0; e < p.edges.len; e++) {
        if (edge_at[p.edges.data[e].var] >= 0) die("an edge variable guards two edges (MonoSAT gives each edge its own)", NULL);
        edge_at[p.edges.data[e].var] = (int)e;
    }
    if (!strcmp(argv[1], "native")) run_native(&p);
    else if (!strcmp(argv[1], "ipasir")) run_ipasir(&p);
    else if (!strcmp(argv[1], "native1")) run_native1(&p, edge_at, acyclic_at);
    else if (!strcmp(argv[1], "monosat")) run_monosat(&p, edge_at, acyclic_at);
    else die("unknown mode ", argv[1]);
    free(edge_at);
    free(acyclic_at);
    return 0;
}
