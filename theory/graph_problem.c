/* graph_problem.c — recording a SAT-modulo-acyclicity problem as data
 * (contract in graph_problem.h). */
#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "theory/graph_problem.h"

void gp_init(graph_problem *p) {
    memset(p, 0, sizeof *p);
}

void gp_free(graph_problem *p) {
    vec_free(p->lits);
    vec_free(p->clause_end);
    vec_foreach(gp_graph, g, p->graphs) vec_free(g->edges);
    vec_free(p->graphs);
    vec_free(p->assumptions);
    vec_free(p->names);
    vec_free(p->text);
    vec_free(p->comments);
    p->num_vars = 0;
}

void gp_reset(graph_problem *p) {
    gp_free(p);
    gp_init(p);
}

int gp_new_var(graph_problem *p) { return ++p->num_vars; }

void gp_reserve_vars(graph_problem *p, int n) {
    if (n > p->num_vars) p->num_vars = n;
}

void gp_add_clause(graph_problem *p, const int *lits, int n) {
    for (int i = 0; i < n; i++) {
        assert(lits[i] != 0 && abs(lits[i]) <= p->num_vars);
        vec_push(p->lits, lits[i]);
    }
    vec_push(p->clause_end, p->lits.len);
}

int gp_graph_new(graph_problem *p, int num_nodes) {
    gp_graph g = { .num_nodes = num_nodes < 0 ? 0 : num_nodes };
    vec_init(g.edges);
    vec_push(p->graphs, g);
    return (int)p->graphs.len - 1;
}

int gp_add_edge(graph_problem *p, int graph, int from, int to, int lit) {
    if (graph < 0 || (size_t)graph >= p->graphs.len) return -1;
    gp_graph *g = &p->graphs.data[graph];
    if (from < 0 || to < 0 || from >= g->num_nodes || to >= g->num_nodes) return -1;
    assert(abs(lit) <= p->num_vars);
    vec_push(g->edges, ((gp_edge){ from, to, lit }));
    return (int)g->edges.len - 1;
}

void gp_add_assumption(graph_problem *p, int lit) {
    assert(lit != 0 && abs(lit) <= p->num_vars);
    vec_push(p->assumptions, lit);
}

static size_t store_text(graph_problem *p, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0;
    size_t at = p->text.len;
    vec_reserve(p->text, at + (size_t)n + 1);
    vsnprintf(p->text.data + at, (size_t)n + 1, fmt, ap);
    /* a name or comment is one line: newlines would break the file */
    for (char *c = p->text.data + at; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
    p->text.len = at + (size_t)n + 1;
    return at;
}

void gp_name_vars(graph_problem *p, int first, int count, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t at = store_text(p, fmt, ap);
    va_end(ap);
    vec_push(p->names, ((gp_name){ first, count, at }));
}

void gp_comment(graph_problem *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t at = store_text(p, fmt, ap);
    va_end(ap);
    vec_push(p->comments, at);
}

size_t gp_num_edges(const graph_problem *p) {
    size_t n = 0;
    vec_foreach(const gp_graph, g, p->graphs) n += g->edges.len;
    return n;
}
