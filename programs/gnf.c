/* gnf.c — MonoSAT's GNF input (see gnf.h), as an extension of the DIMACS
 * scanner: graph lines are collected as the clauses are scanned; then the
 * variables are numbered (clauses, edges, constraints, hints and
 * assumptions together), the clauses loaded, and every graph with an
 * `acyclic` constraint becomes a gsat graph on the nodes its edges use
 * (graphs without one constrain nothing).
 *
 * A reader for programs (gsat, tests, bench), not part of libgsat: it is
 * built on the engine's DIMACS scanner and variable numbering
 * (solver/dimacs.h, solver/varnum.h) and otherwise uses gsat.h alone. */
#include "programs/gnf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"
#include "solver/dimacs.h"
#include "solver/varnum.h"

#define MAX_NODE_ID (INT32_MAX - 1)   /* node n is numbered as n + 1 first */

typedef struct gnf_graph {
    int gid;
    long line;                 /* of its digraph line */
    vec_int ends;              /* edge i: ends[2i] -> ends[2i+1] */
    vec_int edge_var;
    size_t ends_ready, var_ready;   /* dimacs_reserve bookkeeping */
    vec_int acyclic_var;       /* variables of its acyclic constraints */
    VEC(long) acyclic_line;
} gnf_graph;

typedef struct gnf_state {
    const char *file;
    VEC(gnf_graph) graphs;     /* in the order of their digraph lines */
    int *slot;                 /* open addressing: graph index + 1, 0 empty */
    size_t slot_cap;
    int last_gid, last_index;  /* the graph of the previous edge line (index + 1) */
    vec_int dec_var, dec_flag; /* decision hints */
    gnf_info *info;
    long solve_line;
    int max_var;
} gnf_state;

/* MonoSAT keywords that gsat does not implement: rejected by name. */
static const char *const unsupported[] = {
    "reach", "reach_backward", "on_path", "distance_lt", "distance_leq", "weighted_distance_lt",
    "weighted_distance_leq", "weighted_distance_bv_lt", "weighted_distance_bv_leq", "mst_weight_leq",
    "mst_weight_lt", "mst_edge", "maximum_flow_bv_geq", "maximum_flow_bv_gt", "maximum_flow_geq",
    "maximum_flow_gt", "max_flow_gt", "graph_connected_component_count_geq", "forest",
    "steiner_tree", "steiner_node", "steiner_minimal_tree_weight_leq", "edge_bv", "edge_set",
    "bv", "amo", "pb", "fsm", "fsm_transition", "fsm_accepts", "fsm_generates", "fsm_transduces",
    "str", "minimize", "maximize", "minimize_core", "clear_opt", "dbg_solution", "f_router",
    "f_router_net", "route", "lsystem", "lsystem_rule",
};
/* Heuristic hints and names: meaning-free for satisfiability. */
static const char *const ignored[] = {"priority", "edge_priority", "graph_assign_edges_to_weight", "symbol"};

static int is_word(const char *t, size_t n, const char *w) { return strlen(w) == n && memcmp(t, w, n) == 0; }

static int in_list(const char *t, size_t n, const char *const *list, size_t count) {
    for (size_t i = 0; i < count; i++) if (is_word(t, n, list[i])) return 1;
    return 0;
}

/* ---- graph ids -> graphs ---------------------------------------------- */
static size_t slot_of(const gnf_state *st, int gid) {
    size_t mask = st->slot_cap - 1, i = ((uint32_t)gid * 2654435761u) & mask;
    while (st->slot[i] && st->graphs.data[st->slot[i] - 1].gid != gid) i = (i + 1) & mask;
    return i;
}

static gnf_graph *find_graph(gnf_state *st, int gid) {
    if (st->last_index && st->last_gid == gid) return &st->graphs.data[st->last_index - 1];
    if (!st->slot_cap) return NULL;
    int k = st->slot[slot_of(st, gid)];
    if (!k) return NULL;
    st->last_gid = gid;
    st->last_index = k;
    return &st->graphs.data[k - 1];
}

static gnf_graph *add_graph(gnf_state *st, int gid, long line) {
    if (2 * (st->graphs.len + 1) > st->slot_cap) {
        free(st->slot);
        st->slot_cap = st->slot_cap ? 2 * st->slot_cap : 16;
        st->slot = xcalloc(st->slot_cap, sizeof *st->slot);
        for (size_t k = 0; k < st->graphs.len; k++) st->slot[slot_of(st, st->graphs.data[k].gid)] = (int)k + 1;
    }
    gnf_graph g;
    memset(&g, 0, sizeof g);
    g.gid = gid;
    g.line = line;
    vec_push(st->graphs, g);
    st->slot[slot_of(st, gid)] = (int)st->graphs.len;
    return &vec_last(st->graphs);
}

/* ---- lines -------------------------------------------------------------- */
#define ERR(...) (ic_error_at(err, st->file, lineno, __VA_ARGS__), 1)

/* The next token of the line as an integer in [lo, hi], or an error naming it. */
static int field(gnf_state *st, ic_error *err, long lineno, const char **p, const char *end, const char *kw,
                 const char *what, int64_t lo, int64_t hi, int64_t *out) {
    const char *t;
    size_t n;
    if (!dimacs_token(p, end, &t, &n)) return ERR("'%s' line: missing %s", kw, what);
    if (!dimacs_int(t, n, lo, hi, out)) {
        char shown[48];
        dimacs_shown(t, n, shown);
        return ERR("'%s' line: %s must be an integer in %lld..%lld, found '%s'", kw, what, (long long)lo,
                   (long long)hi, shown);
    }
    return 0;
}

/* Nothing may follow on the line; `after` says what came last. */
static int line_end(gnf_state *st, ic_error *err, long lineno, const char **p, const char *end, const char *kw,
                    const char *after) {
    const char *t;
    size_t n;
    if (!dimacs_token(p, end, &t, &n)) return 0;
    char shown[48];
    dimacs_shown(t, n, shown);
    return ERR("'%s' line: unexpected '%s' %s", kw, shown, after);
}

static gnf_graph *declared_graph(gnf_state *st, ic_error *err, long lineno, const char *kw, int64_t gid) {
    gnf_graph *g = find_graph(st, (int)gid);
    if (!g) (void)ERR("'%s' line: graph %lld is not declared (expected an earlier 'digraph' line)", kw, (long long)gid);
    return g;
}

static void note_var(gnf_state *st, int64_t v) { if (v > st->max_var) st->max_var = (int)v; }

/* The next token as a plain decimal in 0..INT32_MAX: 1 and *v; else 0
 * (then the careful path explains). */
static inline int quick_uint(const char **pp, const char *end, int64_t *v) {
    const char *p = *pp;
    while (p < end && dimacs_is_blank((unsigned char)*p)) p++;
    const char *s = p;
    int64_t x = 0;
    while (p < end && (unsigned)((unsigned char)*p - '0') <= 9) {
        x = x * 10 + (*p++ - '0');
        if (x > INT32_MAX) return 0;
    }
    if (p == s || (p < end && !dimacs_is_blank((unsigned char)*p))) return 0;
    *pp = p;
    *v = x;
    return 1;
}

static int edge_line(gnf_state *st, ic_error *err, long lineno, const char *p, const char *end, const char *kw) {
    int64_t gid, from, to, v;
    const char *q = p;
    if (!(quick_uint(&q, end, &gid) && quick_uint(&q, end, &from) && from <= MAX_NODE_ID && quick_uint(&q, end, &to) &&
          to <= MAX_NODE_ID && quick_uint(&q, end, &v) && v >= 1)) {
        if (field(st, err, lineno, &p, end, kw, "the graph id", 0, INT32_MAX, &gid) ||
            field(st, err, lineno, &p, end, kw, "the source node", 0, MAX_NODE_ID, &from) ||
            field(st, err, lineno, &p, end, kw, "the target node", 0, MAX_NODE_ID, &to) ||
            field(st, err, lineno, &p, end, kw, "the edge variable", 1, DIMACS_MAX_VAR, &v))
            return 1;
        q = p;
    }
    const char *t;
    size_t n;
    dimacs_token(&q, end, &t, &n);                 /* the weight, if any */
    if (line_end(st, err, lineno, &q, end, kw, "after the weight")) return 1;
    gnf_graph *g = declared_graph(st, err, lineno, kw, gid);
    if (!g) return 1;
    dimacs_reserve(&g->ends, 2, &g->ends_ready);
    dimacs_reserve(&g->edge_var, 1, &g->var_ready);
    g->ends.data[g->ends.len++] = (int)from + 1;   /* + 1: numbered like variables */
    g->ends.data[g->ends.len++] = (int)to + 1;
    g->edge_var.data[g->edge_var.len++] = (int)v;
    note_var(st, v);
    st->info->edges++;
    return 0;
}

static int digraph_line(gnf_state *st, ic_error *err, long lineno, const char *p, const char *end) {
    const char *kw = "digraph", *t;
    size_t n;
    const char *q = p;
    if (dimacs_token(&q, end, &t, &n) && (is_word(t, n, "int") || is_word(t, n, "float") || is_word(t, n, "rational")))
        p = q;
    int64_t nodes, edges, gid, bits;
    if (field(st, err, lineno, &p, end, kw, "the number of nodes", 0, INT32_MAX, &nodes) ||
        field(st, err, lineno, &p, end, kw, "the number of edges", 0, INT32_MAX, &edges) ||
        field(st, err, lineno, &p, end, kw, "the graph id", 0, INT32_MAX, &gid))
        return 1;
    q = p;
    if (dimacs_token(&q, end, &t, &n)) {
        if (field(st, err, lineno, &p, end, kw, "the bit width", -2, INT32_MAX, &bits)) return 1;
        dimacs_token(&p, end, &t, &n);             /* the name, if any */
        if (line_end(st, err, lineno, &p, end, kw, "after the graph name")) return 1;
    }
    gnf_graph *g = find_graph(st, (int)gid);
    if (g) return ERR("graph %lld is declared twice (first on line %ld)", (long long)gid, g->line);
    add_graph(st, (int)gid, lineno);
    st->info->graphs++;
    return 0;
}

static int solve_line(gnf_state *st, ic_error *err, long lineno, const char *p, const char *end) {
    if (st->solve_line)
        return ERR("second 'solve' line (the first is on line %ld): incremental GNF is not supported", st->solve_line);
    st->solve_line = lineno;
    st->info->has_solve = 1;
    const char *t;
    size_t n;
    while (dimacs_token(&p, end, &t, &n)) {
        int64_t v;
        if (!dimacs_int(t, n, -(int64_t)DIMACS_MAX_VAR, DIMACS_MAX_VAR, &v)) {
            char shown[48];
            dimacs_shown(t, n, shown);
            return ERR("'solve' line: expected a literal, found '%s'", shown);
        }
        if (v == 0) return line_end(st, err, lineno, &p, end, "solve", "after the terminating 0");
        note_var(st, v < 0 ? -v : v);
        vec_push(st->info->assumptions, (int)v);
    }
    return 0;
}

static int gnf_line(void *ctx, const char *line, const char *end, long lineno, ic_error *err) {
    gnf_state *st = ctx;
    const char *p = line, *kw;
    size_t kn;
    dimacs_token(&p, end, &kw, &kn);
    char shown[48];
    int64_t gid, a, v;
    if (st->solve_line && !is_word(kw, kn, "solve"))
        return ERR("'%s' after the 'solve' line (line %ld): incremental GNF with more than one solve is not supported",
                   (dimacs_shown(kw, kn, shown), shown), st->solve_line);
    if (kn == 4 && memcmp(kw, "edge", 4) == 0) return edge_line(st, err, lineno, p, end, "edge");
    if (is_word(kw, kn, "weighted_edge")) return edge_line(st, err, lineno, p, end, "weighted_edge");
    if (is_word(kw, kn, "digraph")) return digraph_line(st, err, lineno, p, end);
    if (is_word(kw, kn, "node")) {
        if (field(st, err, lineno, &p, end, "node", "the graph id", 0, INT32_MAX, &gid) ||
            field(st, err, lineno, &p, end, "node", "the node id", 0, MAX_NODE_ID, &a))
            return 1;
        const char *t;
        size_t n;
        dimacs_token(&p, end, &t, &n);             /* the name, if any */
        if (line_end(st, err, lineno, &p, end, "node", "after the node name")) return 1;
        return declared_graph(st, err, lineno, "node", gid) ? 0 : 1;
    }
    if (is_word(kw, kn, "acyclic")) {
        if (field(st, err, lineno, &p, end, "acyclic", "the graph id", 0, INT32_MAX, &gid) ||
            field(st, err, lineno, &p, end, "acyclic", "the constraint variable", 1, DIMACS_MAX_VAR, &v) ||
            line_end(st, err, lineno, &p, end, "acyclic", "(expected 'acyclic GRAPH VARIABLE')"))
            return 1;
        gnf_graph *g = declared_graph(st, err, lineno, "acyclic", gid);
        if (!g) return 1;
        vec_push(g->acyclic_var, (int)v);
        vec_push(g->acyclic_line, lineno);
        note_var(st, v);
        return 0;
    }
    if (is_word(kw, kn, "decision")) {
        if (field(st, err, lineno, &p, end, "decision", "the variable", 1, DIMACS_MAX_VAR, &v) ||
            field(st, err, lineno, &p, end, "decision", "the flag", 0, 1, &a) ||
            line_end(st, err, lineno, &p, end, "decision", "(expected 'decision VARIABLE 0|1')"))
            return 1;
        vec_push(st->dec_var, (int)v);
        vec_push(st->dec_flag, (int)a);
        note_var(st, v);
        return 0;
    }
    if (is_word(kw, kn, "solve")) return solve_line(st, err, lineno, p, end);
    if (in_list(kw, kn, ignored, sizeof ignored / sizeof *ignored)) return 0;
    dimacs_shown(kw, kn, shown);
    if (in_list(kw, kn, unsupported, sizeof unsupported / sizeof *unsupported))
        return ERR("unsupported MonoSAT constraint '%s'", shown);
    return ERR("unknown keyword '%s' (expected a clause, a comment or a GNF graph line)", shown);
}

/* ---- edge variables tied by equivalences --------------------------------
 * MonoSAT gives every edge its own variable, so its API users tie the
 * edges of one alternative together with clause pairs (-e x) (e -x).  The
 * theory does better when those edges share one guard (its branching and
 * propagation then see the whole alternative), so equivalence classes of
 * variables found in binary clauses are merged (union-find with parity)
 * and each edge is guarded by its class representative, the smallest
 * variable.  The clauses stay, so the meaning is unchanged.  Only the
 * representative is branched on (the others follow by propagation), so
 * that every decision on an alternative goes through the theory's phase.
 *
 * The binary clauses are read where the engine keeps them (its watch
 * lists, dimacs_equivalences()): no copy, no memory per clause; the
 * union-find is allocated at the first equivalence found. */
typedef struct equiv {
    int *parent;      /* 0: a root; allocated at the first union */
    uint8_t *flip;    /* parity to the parent */
    int n;
    vec_int joined;   /* variables given a parent */
} equiv;

static int eq_find(equiv *q, int v, int *flip) {
    int f = 0, r = v;
    if (!q->parent) { *flip = 0; return v; }
    while (q->parent[r]) { f ^= q->flip[r]; r = q->parent[r]; }
    /* compress: point every node on the path straight at the root */
    int g = f;
    while (q->parent[v]) {
        int next = q->parent[v], fv = q->flip[v];
        if (next != r) { q->parent[v] = r; q->flip[v] = (uint8_t)g; }
        g ^= fv;
        v = next;
    }
    *flip = f;
    return r;
}

/* Variables a and b are equal (neg = 0) or opposite (neg = 1). */
static void eq_union(equiv *q, int a, int b, int neg) {
    if (!q->parent) {
        q->parent = xcalloc((size_t)q->n, sizeof *q->parent);
        q->flip = xcalloc((size_t)q->n, 1);
    }
    int fa, fb, ra = eq_find(q, a, &fa), rb = eq_find(q, b, &fb);
    if (ra == rb) return;
    if (rb < ra) { int t = ra; ra = rb; rb = t; }
    q->parent[rb] = ra;
    q->flip[rb] = (uint8_t)(fa ^ fb ^ neg);
    vec_push(q->joined, rb);
}

static void eq_free(equiv *q) { free(q->parent); free(q->flip); vec_free(q->joined); }

static void tie(void *state, int v, int p) { eq_union(state, v, p < 0 ? -p : p, p < 0); }

/* ---- the graphs ------------------------------------------------------------ */

/* Are the clauses, or the clauses with the assumptions, contradictory
 * already?  Then the answer is UNSAT whatever the graphs say.  assumed[v]:
 * bit 0 v assumed, bit 1 -v assumed. */
static int contradictory(gsat *s, const vec_int *assumptions, const uint8_t *assumed) {
    if (gsat_inconsistent(s)) return 1;
    for (size_t i = 0; i < assumptions->len; i++) {
        int l = assumptions->data[i], v = l < 0 ? -l : l;
        if (assumed[v] == 3 || gsat_fixed(s, l) < 0) return 1;
    }
    return 0;
}

/* The equivalences among the variables that guard edges of acyclic
 * graphs; only a class's representative stays a decision variable. */
static void tie_edges(gsat *s, gnf_state *st, equiv *q) {
    q->n = gsat_num_vars(s) + 1;
    vec_foreach(gnf_graph, g, st->graphs)
        if (g->acyclic_var.len) dimacs_equivalences(s, g->edge_var.data, g->edge_var.len, q, tie);
    vec_foreach(int, v, q->joined) {
        int flip, r = eq_find(q, *v, &flip);
        gsat_set_decision_var(s, *v, 0);
        gsat_set_decision_var(s, r, 1);
    }
}

/* asserted: the solve line's literals are unit clauses of s (then, if s
 * is consistent, they are all true at level 0: nothing to look up) */
static int finish(gsat *s, gnf_state *st, equiv *q, int asserted, ic_error *err) {
    uint8_t *mark = xcalloc((size_t)q->n, 1);
    int unsat = gsat_inconsistent(s), rc = 0;
    if (!asserted) {
        vec_foreach(int, a, st->info->assumptions) mark[*a < 0 ? -*a : *a] |= *a < 0 ? 2 : 1;
        unsat = contradictory(s, &st->info->assumptions, mark);
    }
    for (size_t k = 0; k < st->graphs.len && !rc && !gsat_inconsistent(s); k++) {
        gnf_graph *g = &st->graphs.data[k];
        if (!g->acyclic_var.len) continue;
        for (size_t i = 0; i < g->acyclic_var.len && !unsat; i++) {
            int v = g->acyclic_var.data[i];
            if (gsat_fixed(s, v) > 0 || (mark[v] & 1)) continue;
            long lineno = g->acyclic_line.data[i];
            int file_v = st->info->names.data[v];
            const char *why = gsat_fixed(s, v) < 0 ? "is asserted false" : "is not asserted";
            rc = ERR("'acyclic %d %d': variable %d %s; gsat supports acyclicity only as a hard "
                     "constraint (assert it with the unit clause '%d 0' or a 'solve' assumption)",
                     g->gid, file_v, file_v, why, file_v);
            break;
        }
        if (rc) break;
        /* nodes: the ones the edges use, numbered densely in the file's order */
        vec_int node_names;
        vec_init(node_names);
        varnum_span span = {g->ends.data, g->ends.len};
        int max_node = 0;
        vec_foreach(int, e, g->ends) if (*e > max_node) max_node = *e;
        varnum_renumber(&span, 1, max_node, NULL, &node_names);
        int nodes = (int)node_names.len - 1;
        vec_free(node_names);
        int id = gsat_graph_new(s, nodes);
        int always_on = 0, flip0;
        for (size_t e = 0; e < g->edge_var.len; e++) always_on += eq_find(q, g->edge_var.data[e], &flip0) == 0;
        gsat_graph_reserve_edges(s, always_on, (int)g->edge_var.len - always_on);
        for (size_t e = 0; e < g->edge_var.len; e++) {
            int flip, rep = eq_find(q, g->edge_var.data[e], &flip);
            gsat_graph_add_edge(s, id, g->ends.data[2 * e] - 1, g->ends.data[2 * e + 1] - 1, flip ? -rep : rep);
        }
        st->info->acyclic_graphs++;
        st->info->nodes += nodes;
    }
    free(mark);
    return rc;
}

static void state_free(gnf_state *st) {
    vec_foreach(gnf_graph, g, st->graphs) {
        vec_free(g->ends);
        vec_free(g->edge_var);
        vec_free(g->acyclic_var);
        vec_free(g->acyclic_line);
    }
    vec_free(st->graphs);
    free(st->slot);
    vec_free(st->dec_var);
    vec_free(st->dec_flag);
}

int gnf_parse(gsat *s, reader *r, const gnf_opts *opts, gnf_info *info, ic_error *err) {
    gnf_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    double deadline = opts ? opts->deadline : 0;
    gnf_state st;
    memset(&st, 0, sizeof st);
    st.file = r->name;
    st.info = info;
    dimacs_opts dopts = {gnf_line, &st, 1, deadline, 0};
    dimacs_text t;
    int rc = dimacs_scan(r, &dopts, &t, err);
    if (rc == DIMACS_OK) {
        /* every variable the file names, numbered together */
        VEC(varnum_span) spans;
        vec_init(spans);
        vec_push(spans, ((varnum_span){t.lits.data, t.lits.len}));
        vec_push(spans, ((varnum_span){info->assumptions.data, info->assumptions.len}));
        vec_push(spans, ((varnum_span){st.dec_var.data, st.dec_var.len}));
        vec_foreach(gnf_graph, g, st.graphs) {
            vec_push(spans, ((varnum_span){g->edge_var.data, g->edge_var.len}));
            vec_push(spans, ((varnum_span){g->acyclic_var.data, g->acyclic_var.len}));
        }
        info->vars = (long)varnum_renumber(spans.data, spans.len, t.max_var > st.max_var ? t.max_var : st.max_var,
                                           &t.marks, &info->names);
        vec_free(spans);
        info->clauses = t.clauses;
        info->declared_vars = t.declared_vars;
        if (info->names.len - 1 > GSAT_MAX_VARS) {
            ic_error_at(err, st.file, 0, "%ld distinct variables, more than gsat's limit %d", info->vars, GSAT_MAX_VARS);
            rc = DIMACS_ERROR;
        }
    }
    if (rc == DIMACS_OK && !(opts && opts->text_only)) {
        gsat_reserve_vars(s, (int)info->names.len - 1);
        if (opts && opts->assert_solve)
            rc = dimacs_load_after_units(s, info->assumptions.data, info->assumptions.len, t.lits.data, t.lits.len,
                                         deadline);
        else
            rc = dimacs_load(s, t.lits.data, t.lits.len, deadline);
        for (size_t i = 0; i < st.dec_var.len; i++) gsat_set_decision_var(s, st.dec_var.data[i], st.dec_flag.data[i]);
        dimacs_text_free(&t);
        equiv q;
        memset(&q, 0, sizeof q);
        if (rc == DIMACS_OK) tie_edges(s, &st, &q);
        if (rc == DIMACS_OK) rc = finish(s, &st, &q, opts && opts->assert_solve, err) ? DIMACS_ERROR : DIMACS_OK;
        eq_free(&q);
        if (rc == DIMACS_OK && deadline > 0 && monotonic_seconds() > deadline) rc = DIMACS_TIMEOUT;
    }
    dimacs_text_free(&t);
    state_free(&st);
    if (info == &local) gnf_info_free(info);
    return rc;
}

int gnf_parse_file(gsat *s, const char *path, const gnf_opts *opts, gnf_info *info, ic_error *err) {
    reader r;
    if (info) memset(info, 0, sizeof *info);
    if (reader_open(&r, path, err) < 0) return DIMACS_ERROR;
    int rc = gnf_parse(s, &r, opts, info, err);
    reader_close(&r);
    return rc;
}

int gnf_parse_mem(gsat *s, const char *name, const char *text, size_t len, gnf_info *info, ic_error *err) {
    reader r;
    reader_open_mem(&r, name, text, len);
    int rc = gnf_parse(s, &r, NULL, info, err);
    reader_close(&r);
    return rc;
}

void gnf_info_free(gnf_info *info) {
    vec_free(info->assumptions);
    vec_free(info->names);
}
