/* gnf.c — MonoSAT's GNF input (see gnf.h), as an extension of the DIMACS
 * parser: graph lines are collected while the clauses stream into the
 * solver; at the end every graph with an `acyclic` constraint becomes a
 * gsat graph (graphs without one constrain nothing). */
#include "theory/gnf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solver/dimacs.h"
#include "solver/reader.h"
#include "solver/solver.h"

#define MAX_TOKENS 16
#define MAX_GRAPH_ID (1 << 24)
#define MAX_NODE_ID ((1 << 28) - 1)

typedef struct gnf_edge { int from, to, var; } gnf_edge;

typedef struct gnf_graph {
    long line;                 /* of its digraph line; 0: not declared */
    int nodes;
    VEC(gnf_edge) edges;
    vec_int acyclic_var;       /* variables of its acyclic constraints */
    VEC(long) acyclic_line;
} gnf_graph;

typedef struct gnf_state {
    const char *file;
    gsat *s;
    VEC(gnf_graph) graphs;     /* indexed by graph id */
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

static int in_list(const char *w, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++) if (strcmp(w, list[i]) == 0) return 1;
    return 0;
}

/* A decimal integer in [lo, hi]; 0 if t is not one. */
static int parse_int(const char *t, long lo, long hi, long *out) {
    const char *p = t;
    int neg = 0;
    if (*p == '-' || *p == '+') neg = *p++ == '-';
    if (!*p) return 0;
    long v = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        if (v > (INT32_MAX - 9) / 10) return 0;
        v = v * 10 + (*p - '0');
    }
    if (neg) v = -v;
    if (v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

#define ERR(...) (ic_error_at(err, st->file, lineno, __VA_ARGS__), 1)

/* Field i of `what` as an integer in [lo, hi], or an error naming it. */
static int field(gnf_state *st, ic_error *err, long lineno, char **tok, int ntok, int i, const char *kw,
                 const char *what, long lo, long hi, long *out) {
    if (i >= ntok) return ERR("'%s' line: missing %s", kw, what);
    if (!parse_int(tok[i], lo, hi, out)) {
        char shown[48];
        snprintf(shown, sizeof shown, "%.40s", tok[i]);
        if (hi == INT32_MAX) return ERR("'%s' line: %s must be an integer >= %ld, found '%s'", kw, what, lo, shown);
        return ERR("'%s' line: %s must be an integer in %ld..%ld, found '%s'", kw, what, lo, hi, shown);
    }
    return 0;
}

static gnf_graph *declared_graph(gnf_state *st, ic_error *err, long lineno, const char *kw, long gid) {
    if (gid >= (long)st->graphs.len || !st->graphs.data[gid].line) {
        (void)ERR("'%s' line: graph %ld is not declared (expected an earlier 'digraph' line)", kw, gid);
        return NULL;
    }
    return &st->graphs.data[gid];
}

static void note_var(gnf_state *st, long v) { if (v > st->max_var) st->max_var = (int)v; }

static int gnf_line(void *ctx, const char *line, long lineno, ic_error *err) {
    gnf_state *st = ctx;
    size_t len = strlen(line);
    char buf[512], *copy = len < sizeof buf ? buf : xmalloc(len + 1);
    memcpy(copy, line, len + 1);
    char *tok[MAX_TOKENS + 1];
    int n = dimacs_tokenize(copy, tok, MAX_TOKENS), rc = 0;
    const char *kw = tok[0];
    long gid, a, b, v;
    if (st->solve_line && strcmp(kw, "solve") != 0) {
        rc = ERR("'%s' after the 'solve' line (line %ld): incremental GNF with more than one solve is not supported",
                 kw, st->solve_line);
        goto out;
    }
    if (strcmp(kw, "digraph") == 0) {
        int i = 1;
        if (n > 1 && (!strcmp(tok[1], "int") || !strcmp(tok[1], "float") || !strcmp(tok[1], "rational"))) i = 2;
        if ((rc = field(st, err, lineno, tok, n, i, kw, "the number of nodes", 0, MAX_NODE_ID + 1L, &a)) ||
            (rc = field(st, err, lineno, tok, n, i + 1, kw, "the number of edges", 0, INT32_MAX, &b)) ||
            (rc = field(st, err, lineno, tok, n, i + 2, kw, "the graph id", 0, MAX_GRAPH_ID, &gid)))
            goto out;
        if (n > i + 5) { rc = ERR("'digraph' line: unexpected '%.40s' after the graph name", tok[i + 5]); goto out; }
        if (n > i + 3 && (rc = field(st, err, lineno, tok, n, i + 3, kw, "the bit width", -2, INT32_MAX, &v))) goto out;
        while ((long)st->graphs.len <= gid) {
            gnf_graph g; memset(&g, 0, sizeof g);
            vec_push(st->graphs, g);
        }
        gnf_graph *g = &st->graphs.data[gid];
        if (g->line) { rc = ERR("graph %ld is declared twice (first on line %ld)", gid, g->line); goto out; }
        g->line = lineno;
        g->nodes = (int)a;
        st->info->graphs++;
    } else if (strcmp(kw, "node") == 0) {
        if ((rc = field(st, err, lineno, tok, n, 1, kw, "the graph id", 0, MAX_GRAPH_ID, &gid)) ||
            (rc = field(st, err, lineno, tok, n, 2, kw, "the node id", 0, MAX_NODE_ID, &a)))
            goto out;
        if (n > 4) { rc = ERR("'node' line: unexpected '%.40s' after the node name", tok[4]); goto out; }
        gnf_graph *g = declared_graph(st, err, lineno, kw, gid);
        if (!g) { rc = 1; goto out; }
        if (a >= g->nodes) g->nodes = (int)a + 1;
    } else if (strcmp(kw, "edge") == 0 || strcmp(kw, "weighted_edge") == 0) {
        long to;
        if ((rc = field(st, err, lineno, tok, n, 1, kw, "the graph id", 0, MAX_GRAPH_ID, &gid)) ||
            (rc = field(st, err, lineno, tok, n, 2, kw, "the source node", 0, MAX_NODE_ID, &a)) ||
            (rc = field(st, err, lineno, tok, n, 3, kw, "the target node", 0, MAX_NODE_ID, &to)) ||
            (rc = field(st, err, lineno, tok, n, 4, kw, "the edge variable", 1, DIMACS_MAX_VAR, &v)))
            goto out;
        if (n > 6) { rc = ERR("'%s' line: unexpected '%.40s' after the weight", kw, tok[6]); goto out; }
        gnf_graph *g = declared_graph(st, err, lineno, kw, gid);
        if (!g) { rc = 1; goto out; }
        if (a >= g->nodes) g->nodes = (int)a + 1;      /* MonoSAT creates missing nodes */
        if (to >= g->nodes) g->nodes = (int)to + 1;
        vec_push(g->edges, ((gnf_edge){(int)a, (int)to, (int)v}));
        note_var(st, v);
        st->info->edges++;
    } else if (strcmp(kw, "acyclic") == 0) {
        if ((rc = field(st, err, lineno, tok, n, 1, kw, "the graph id", 0, MAX_GRAPH_ID, &gid)) ||
            (rc = field(st, err, lineno, tok, n, 2, kw, "the constraint variable", 1, DIMACS_MAX_VAR, &v)))
            goto out;
        if (n > 3) { rc = ERR("'acyclic' line: unexpected '%.40s' (expected 'acyclic GRAPH VARIABLE')", tok[3]); goto out; }
        gnf_graph *g = declared_graph(st, err, lineno, kw, gid);
        if (!g) { rc = 1; goto out; }
        vec_push(g->acyclic_var, (int)v);
        vec_push(g->acyclic_line, lineno);
        note_var(st, v);
    } else if (strcmp(kw, "decision") == 0) {
        if ((rc = field(st, err, lineno, tok, n, 1, kw, "the variable", 1, DIMACS_MAX_VAR, &v)) ||
            (rc = field(st, err, lineno, tok, n, 2, kw, "the flag", 0, 1, &a)))
            goto out;
        if (n > 3) { rc = ERR("'decision' line: unexpected '%.40s' (expected 'decision VARIABLE 0|1')", tok[3]); goto out; }
        note_var(st, v);
        gsat_reserve_vars(st->s, (int)v);
        gsat_set_decision_var(st->s, (int)v, (int)a);
    } else if (strcmp(kw, "solve") == 0) {
        if (st->solve_line) {
            rc = ERR("second 'solve' line (the first is on line %ld): incremental GNF is not supported", st->solve_line);
            goto out;
        }
        st->solve_line = lineno;
        st->info->has_solve = 1;
        /* the assumptions may run past MAX_TOKENS: rescan the raw line */
        const char *p = line + 5;
        for (;;) {
            while (dimacs_is_blank((unsigned char)*p)) p++;
            if (!*p) break;
            char t[32]; size_t k = 0;
            while (*p && !dimacs_is_blank((unsigned char)*p) && k + 1 < sizeof t) t[k++] = *p++;
            t[k] = 0;
            if (!parse_int(t, -DIMACS_MAX_VAR, DIMACS_MAX_VAR, &v)) {
                rc = ERR("'solve' line: expected a literal, found '%.30s'", t);
                goto out;
            }
            if (v == 0) {
                while (dimacs_is_blank((unsigned char)*p)) p++;
                if (*p) { rc = ERR("'solve' line: unexpected '%.30s' after the terminating 0", p); goto out; }
                break;
            }
            note_var(st, v < 0 ? -v : v);
            vec_push(st->info->assumptions, (int)v);
        }
    } else if (in_list(kw, ignored, sizeof ignored / sizeof *ignored)) {
        /* a hint or a name: nothing to do */
    } else if (in_list(kw, unsupported, sizeof unsupported / sizeof *unsupported)) {
        rc = ERR("unsupported MonoSAT constraint '%s'", kw);
    } else {
        char shown[48];
        snprintf(shown, sizeof shown, "%.40s", kw);
        rc = ERR("unknown keyword '%s' (expected a clause, a comment or a GNF graph line)", shown);
    }
out:
    if (copy != buf) free(copy);
    return rc;
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
 * that every decision on an alternative goes through the theory's phase. */
typedef struct equiv { int *parent; uint8_t *flip; int n; } equiv;

static int eq_find(equiv *q, int v, int *flip) {
    int f = 0, r = v;
    while (q->parent[r] != r) { f ^= q->flip[r]; r = q->parent[r]; }
    /* compress: point every node on the path straight at the root */
    int g = f;
    while (q->parent[v] != v) {
        int next = q->parent[v], fv = q->flip[v];
        q->parent[v] = r;
        q->flip[v] = (uint8_t)g;
        g ^= fv;
        v = next;
    }
    *flip = f;
    return r;
}

/* Variables a and b are equal (neg = 0) or opposite (neg = 1). */
static void eq_union(equiv *q, int a, int b, int neg) {
    int fa, fb, ra = eq_find(q, a, &fa), rb = eq_find(q, b, &fb);
    if (ra == rb) return;
    if (rb < ra) { int t = ra; ra = rb; rb = t; }
    q->parent[rb] = ra;
    q->flip[rb] = (uint8_t)(fa ^ fb ^ neg);
}

static inline uint32_t code_of(int lit) { return lit > 0 ? 2u * (uint32_t)lit : 2u * (uint32_t)-lit + 1u; }

/* Binary clauses by literal (CSR), then equivalences: (-a b) and (a -b). */
static void find_equivalences(gsat *s, equiv *q, const uint8_t *is_edge_var) {
    size_t nlits = 2 * (size_t)q->n + 2, total = 0;
    uint32_t *start = xcalloc(nlits + 1, sizeof *start);
    for (size_t i = 0; i < s->originals.len; i++) {
        const clause *c = CL(s, s->originals.data[i]);
        if (c->size != 2 || (c->flags & CL_GARBAGE)) continue;
        start[c->lits[0]]++; start[c->lits[1]]++; total += 2;
    }
    for (size_t l = 0, acc = 0; l <= nlits; l++) { size_t k = start[l]; start[l] = (uint32_t)acc; acc += k; }
    uint32_t *other = xmalloc((total + 1) * sizeof *other), *fill = xmalloc((nlits + 1) * sizeof *fill);
    memcpy(fill, start, (nlits + 1) * sizeof *fill);
    for (size_t i = 0; i < s->originals.len; i++) {
        const clause *c = CL(s, s->originals.data[i]);
        if (c->size != 2 || (c->flags & CL_GARBAGE)) continue;
        other[fill[c->lits[0]]++] = c->lits[1];
        other[fill[c->lits[1]]++] = c->lits[0];
    }
    for (int v = 1; v < q->n; v++) {
        if (!is_edge_var[v]) continue;
        /* clause (-v p): v implies p; is there (v -p): p implies v? */
        uint32_t nv = code_of(-v), pv = code_of(v);
        for (uint32_t i = start[nv]; i < start[nv + 1]; i++) {
            uint32_t p = other[i], np = p ^ 1u;
            for (uint32_t j = start[pv]; j < start[pv + 1]; j++)
                if (other[j] == np) { eq_union(q, v, (int)(p >> 1), (int)(p & 1)); break; }
        }
    }
    free(start); free(other); free(fill);
}

/* Is variable v asserted true: a level-0 fact or a positive assumption? */
static int asserted(gnf_state *st, int v) {
    if (gsat_lit_value_now(st->s, v) > 0) return 1;
    for (size_t i = 0; i < st->info->assumptions.len; i++)
        if (st->info->assumptions.data[i] == v) return 1;
    return 0;
}

static int finish(gnf_state *st, ic_error *err) {
    if (st->max_var > 0) gsat_reserve_vars(st->s, st->max_var);
    equiv q;
    q.n = gsat_num_vars(st->s) + 1;
    q.parent = xmalloc((size_t)q.n * sizeof *q.parent);
    q.flip = xcalloc((size_t)q.n, 1);
    uint8_t *is_edge_var = xcalloc((size_t)q.n, 1);
    for (int v = 0; v < q.n; v++) q.parent[v] = v;
    for (size_t gid = 0; gid < st->graphs.len; gid++)
        for (size_t e = 0; e < st->graphs.data[gid].edges.len; e++) is_edge_var[st->graphs.data[gid].edges.data[e].var] = 1;
    find_equivalences(st->s, &q, is_edge_var);
    for (int v = 1; v < q.n; v++) {
        int flip, r = eq_find(&q, v, &flip);
        if (r == v) continue;
        gsat_set_decision_var(st->s, v, 0);
        gsat_set_decision_var(st->s, r, 1);
    }
    int rc = 0;
    for (size_t gid = 0; gid < st->graphs.len && !rc; gid++) {
        gnf_graph *g = &st->graphs.data[gid];
        if (!g->line || !g->acyclic_var.len) continue;
        for (size_t k = 0; k < g->acyclic_var.len; k++) {
            int v = g->acyclic_var.data[k];
            long lineno = g->acyclic_line.data[k];
            if (!asserted(st, v)) {
                const char *why = gsat_lit_value_now(st->s, v) < 0 ? "is asserted false" : "is not asserted";
                rc = ERR("'acyclic %zu %d': variable %d %s; gsat supports acyclicity only as a hard "
                           "constraint (assert it with the unit clause '%d 0' or a 'solve' assumption)",
                           gid, v, v, why, v);
                break;
            }
        }
        if (rc) break;
        int id = gsat_graph_new(st->s, g->nodes);
        for (size_t e = 0; e < g->edges.len; e++) {
            gnf_edge ed = g->edges.data[e];
            int flip, rep = eq_find(&q, ed.var, &flip);
            gsat_graph_add_edge(st->s, id, ed.from, ed.to, flip ? -rep : rep);
        }
        st->info->acyclic_graphs++;
        st->info->nodes += g->nodes;
    }
    free(q.parent); free(q.flip); free(is_edge_var);
    return rc;
}

static int parse(gsat *s, reader *r, gnf_info *info, ic_error *err) {
    gnf_info dummy;
    if (!info) info = &dummy;
    memset(info, 0, sizeof *info);
    gnf_state st;
    memset(&st, 0, sizeof st);
    st.file = r->name;
    st.s = s;
    st.info = info;
    dimacs_opts opts = {gnf_line, &st, 1};
    dimacs_info di;
    int rc = dimacs_parse(s, r, &opts, &di, err);
    if (rc == 0) {
        info->vars = di.vars;
        info->clauses = di.clauses;
        rc = finish(&st, err) ? -1 : 0;
    }
    for (size_t g = 0; g < st.graphs.len; g++) {
        vec_free(st.graphs.data[g].edges);
        vec_free(st.graphs.data[g].acyclic_var);
        vec_free(st.graphs.data[g].acyclic_line);
    }
    vec_free(st.graphs);
    if (info == &dummy) gnf_info_free(info);
    return rc;
}

int gnf_parse_file(gsat *s, const char *path, gnf_info *info, ic_error *err) {
    reader r;
    if (reader_open(&r, path, err) < 0) return -1;
    int rc = parse(s, &r, info, err);
    reader_close(&r);
    return rc;
}

int gnf_parse_mem(gsat *s, const char *name, const char *text, size_t len, gnf_info *info, ic_error *err) {
    reader r;
    reader_open_mem(&r, name, text, len);
    int rc = parse(s, &r, info, err);
    reader_close(&r);
    return rc;
}

void gnf_info_free(gnf_info *info) { vec_free(info->assumptions); }
