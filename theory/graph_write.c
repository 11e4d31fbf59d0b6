/* graph_write.c — a graph_problem as DIMACS CNF or as MonoSAT's GNF
 * (contract in graph_problem.h).  Integers are formatted by hand into a
 * buffer: exported instances reach tens of megabytes. */
#include <stdlib.h>
#include <string.h>

#include "theory/graph_problem.h"

typedef struct out_buf { FILE *f; char buf[1 << 16]; size_t len; int ok; } out_buf;

static void ob_flush(out_buf *o) {
    if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len) o->ok = 0;
    o->len = 0;
}
static void ob_str(out_buf *o, const char *s) {
    size_t n = strlen(s);
    if (o->len + n > sizeof o->buf) ob_flush(o);
    if (n > sizeof o->buf) { if (fwrite(s, 1, n, o->f) != n) o->ok = 0; return; }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}
static void ob_char(out_buf *o, char c) {
    if (o->len + 1 > sizeof o->buf) ob_flush(o);
    o->buf[o->len++] = c;
}
static void ob_int(out_buf *o, long long v) {
    char tmp[24]; int n = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do { tmp[n++] = (char)('0' + u % 10); u /= 10; } while (u);
    if (v < 0) tmp[n++] = '-';
    if (o->len + (size_t)n > sizeof o->buf) ob_flush(o);
    while (n) o->buf[o->len++] = tmp[--n];
}
/* "l1 l2 ... 0\n" */
static void ob_clause(out_buf *o, const int *lits, int n) {
    for (int i = 0; i < n; i++) { ob_int(o, lits[i]); ob_char(o, ' '); }
    ob_str(o, "0\n");
}

static int ob_finish(out_buf *o) {
    ob_flush(o);
    if (fflush(o->f) != 0 || ferror(o->f)) o->ok = 0;
    return o->ok;
}

/* Comment lines, then one line per name: "c var V = ..." or
 * "c vars A-B = ..." */
static void write_header(out_buf *o, const graph_problem *p) {
    vec_foreach(const size_t, c, p->comments) {
        ob_str(o, "c "); ob_str(o, p->text.data + *c); ob_char(o, '\n');
    }
    vec_foreach(const gp_name, nm, p->names) {
        if (nm->count == 1) { ob_str(o, "c var "); ob_int(o, nm->first); }
        else {
            ob_str(o, "c vars "); ob_int(o, nm->first); ob_char(o, '-');
            ob_int(o, (long long)nm->first + nm->count - 1);
        }
        ob_str(o, " = "); ob_str(o, p->text.data + nm->text); ob_char(o, '\n');
    }
}

static void write_clauses(out_buf *o, const graph_problem *p) {
    for (size_t i = 0; i < gp_num_clauses(p); i++) {
        int n; const int *c = gp_clause(p, i, &n);
        ob_clause(o, c, n);
    }
}

int gp_write_dimacs(const graph_problem *p, FILE *f) {
    if (gp_num_edges(p)) return 0;          /* graphs must be encoded first */
    out_buf *o = xmalloc(sizeof *o);
    o->f = f; o->len = 0; o->ok = 1;
    write_header(o, p);
    if (p->assumptions.len) ob_str(o, "c the assumptions are the last unit clauses\n");
    ob_str(o, "p cnf "); ob_int(o, p->num_vars); ob_char(o, ' ');
    ob_int(o, (long long)(gp_num_clauses(p) + p->assumptions.len)); ob_char(o, '\n');
    write_clauses(o, p);
    vec_foreach(const int, a, p->assumptions) ob_clause(o, a, 1);
    int ok = ob_finish(o);
    free(o);
    return ok;
}

int gp_write_gnf(const graph_problem *p, FILE *f) {
    out_buf *o = xmalloc(sizeof *o);
    o->f = f; o->len = 0; o->ok = 1;
    ob_str(o, "c monosat\n");
    write_header(o, p);
    /* MonoSAT gives every edge its own variable: a guard variable is used
     * directly for its first positive edge, every other edge gets a fresh
     * variable equivalent to its guard (a unit when always on). */
    int next = p->num_vars;
    unsigned char *used = xcalloc((size_t)p->num_vars + 1, 1);
    if (gp_num_edges(p))
        ob_str(o, "c edge variables after the problem's own: equivalent to the edge's guard\n");
    write_clauses(o, p);
    int *edge_var = NULL;
    for (size_t g = 0; g < p->graphs.len; g++) {
        const gp_graph *gr = &p->graphs.data[g];
        edge_var = xrealloc(edge_var, (gr->edges.len + 1) * sizeof *edge_var);
        for (size_t i = 0; i < gr->edges.len; i++) {
            int l = gr->edges.data[i].lit;
            if (l > 0 && !used[l]) { used[l] = 1; edge_var[i] = l; continue; }
            int e = edge_var[i] = ++next;
            if (l == 0) ob_clause(o, &e, 1);
            else {
                int c1[2] = { -e, l }, c2[2] = { e, -l };
                ob_clause(o, c1, 2);
                ob_clause(o, c2, 2);
            }
        }
        long long gid = (long long)g + 1;
        ob_str(o, "digraph 0 0 "); ob_int(o, gid); ob_str(o, " -1\n");
        for (int n = 0; n < gr->num_nodes; n++) {
            ob_str(o, "node "); ob_int(o, gid); ob_char(o, ' '); ob_int(o, n); ob_char(o, '\n');
        }
        for (size_t i = 0; i < gr->edges.len; i++) {
            const gp_edge *e = &gr->edges.data[i];
            ob_str(o, "edge "); ob_int(o, gid); ob_char(o, ' '); ob_int(o, e->from); ob_char(o, ' ');
            ob_int(o, e->to); ob_char(o, ' '); ob_int(o, edge_var[i]); ob_str(o, " 1\n");
        }
        int a = ++next;
        ob_str(o, "acyclic "); ob_int(o, gid); ob_char(o, ' '); ob_int(o, a); ob_char(o, '\n');
        ob_clause(o, &a, 1);
    }
    free(edge_var);
    free(used);
    if (p->assumptions.len) {
        ob_str(o, "solve");
        vec_foreach(const int, l, p->assumptions) { ob_char(o, ' '); ob_int(o, *l); }
        ob_char(o, '\n');
    }
    int ok = ob_finish(o);
    free(o);
    return ok;
}
