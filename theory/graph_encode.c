/* graph_encode.c — acyclicity constraints as plain clauses (contract in
 * graph_problem.h, sizes in doc/encodings.md).
 *
 * Common front: per graph, self-loops become units (-lit; an unguarded one
 * makes the problem unsatisfiable), the strongly connected components of
 * the graph of all edges are found (Tarjan, iterative), and inside each
 * component parallel edges are merged into one "pair": its literal is the
 * guard when there is one, "true" when one of them is unguarded, and else a
 * fresh variable implied by every guard.  A cycle of enabled edges lies in
 * one component and uses one edge per pair, so encoding "the enabled pairs
 * of every component are acyclic" is exact. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "theory/graph_problem.h"

#define LIT_TRUE 0      /* a pair literal that is always on */

const char *gp_encoding_name(gp_encoding e) {
    switch (e) {
    case GP_TC: return "tc";
    case GP_RANK_BIN: return "rank";
    case GP_RANK_UNARY: return "unary";
    case GP_VE: return "ve";
    }
    return "?";
}

int gp_encoding_parse(const char *s, gp_encoding *e) {
    for (int i = GP_TC; i <= GP_VE; i++)
        if (!strcmp(s, gp_encoding_name((gp_encoding)i))) { *e = (gp_encoding)i; return 1; }
    if (!strcmp(s, "rank-bin") || !strcmp(s, "binary")) { *e = GP_RANK_BIN; return 1; }
    if (!strcmp(s, "rank-unary")) { *e = GP_RANK_UNARY; return 1; }
    return 0;
}

/* ---- a map from (u, v) node pairs to ints (open addressing) ----------- */
typedef struct pair_map { uint64_t *keys; int *vals; size_t cap, len; } pair_map;
#define PM_EMPTY UINT64_MAX

static uint64_t pm_key(int u, int v) { return (uint64_t)(uint32_t)u << 32 | (uint32_t)v; }
static size_t pm_slot(const pair_map *m, uint64_t k) {
    uint64_t h = k * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 17) & (m->cap - 1);
    while (m->keys[i] != PM_EMPTY && m->keys[i] != k) i = (i + 1) & (m->cap - 1);
    return i;
}
static void pm_init(pair_map *m, size_t expect) {
    m->cap = 16;
    while (m->cap < 2 * expect + 2) m->cap *= 2;
    m->keys = xmalloc(m->cap * sizeof *m->keys);
    m->vals = xmalloc(m->cap * sizeof *m->vals);
    for (size_t i = 0; i < m->cap; i++) m->keys[i] = PM_EMPTY;
    m->len = 0;
}
static void pm_free(pair_map *m) { free(m->keys); free(m->vals); }
static int *pm_get(pair_map *m, int u, int v) {
    size_t i = pm_slot(m, pm_key(u, v));
    return m->keys[i] == PM_EMPTY ? NULL : &m->vals[i];
}
static void pm_put(pair_map *m, int u, int v, int val) {
    if (2 * (m->len + 1) > m->cap) {
        pair_map big; pm_init(&big, m->cap);
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i] != PM_EMPTY) {
                size_t j = pm_slot(&big, m->keys[i]);
                big.keys[j] = m->keys[i]; big.vals[j] = m->vals[i]; big.len++;
            }
        pm_free(m);
        *m = big;
    }
    size_t i = pm_slot(m, pm_key(u, v));
    if (m->keys[i] == PM_EMPTY) { m->keys[i] = pm_key(u, v); m->len++; }
    m->vals[i] = val;
}

/* ---- clause helpers: LIT_TRUE operands vanish from a clause -------------
 * A clause is built from "negated pair literals" and plain literals;
 * ¬true drops out, so an implication from an always-on pair is shorter. */
typedef struct enc {
    graph_problem *out;
    gp_encode_stats *st;
    int graph;
    int64_t max_clauses;      /* 0: no limit */
    int too_big;
    vec_int cl;
} enc;

static void cl_start(enc *e) { vec_clear(e->cl); }
static void cl_not(enc *e, int pair_lit) { if (pair_lit != LIT_TRUE) vec_push(e->cl, -pair_lit); }
static void cl_lit(enc *e, int lit) { vec_push(e->cl, lit); }
static void cl_emit(enc *e) {
    if (e->too_big) return;
    if (e->max_clauses && e->st->clauses >= e->max_clauses) { e->too_big = 1; return; }
    gp_add_clause(e->out, e->cl.data, (int)e->cl.len);
    e->st->clauses++;
}

/* Clauses a component of k nodes and np pairs costs (before running it;
 * vertex elimination is only known as it runs). */
static int64_t predicted_clauses(gp_encoding mode, int64_t k, int64_t np) {
    int64_t b = 1;
    while ((1LL << b) < k) b++;
    switch (mode) {
    case GP_TC: return np + k * (k - 1) * (k - 2) + k * (k - 1) / 2;
    case GP_RANK_BIN: return np * (3 * b - 1);
    case GP_RANK_UNARY: return k * (k > 2 ? k - 2 : 0) + np * k;
    case GP_VE: return np;
    }
    return 0;
}
static int aux(enc *e) { e->st->aux_vars++; return gp_new_var(e->out); }
static int aux_block(enc *e, int count) {
    int first = e->out->num_vars + 1;
    gp_reserve_vars(e->out, e->out->num_vars + count);
    e->st->aux_vars += count;
    return first;
}

/* One component: nodes (graph ids) node[0..k-1]; pairs in local ids. */
typedef struct pair { int u, v, lit; } pair;
typedef VEC(pair) pair_vec;

/* (a) transitive closure: r[u][v] (u != v), P(u,v) -> r[u][v],
 *     r[u][v] & r[v][w] -> r[u][w], -r[u][v] | -r[v][u]. */
static void encode_tc(enc *e, const int *node, int k, const pair_vec *pairs) {
    int base = aux_block(e, k * (k - 1));
#define R(i, j) (base + (i) * (k - 1) + ((j) < (i) ? (j) : (j) - 1))
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            if (i != j) gp_name_vars(e->out, R(i, j), 1, "tc g%d reach %d->%d", e->graph, node[i], node[j]);
    vec_foreach(const pair, p, *pairs) {
        cl_start(e); cl_not(e, p->lit); cl_lit(e, R(p->u, p->v)); cl_emit(e);
    }
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            if (j == i) continue;
            if (j > i) { cl_start(e); cl_lit(e, -R(i, j)); cl_lit(e, -R(j, i)); cl_emit(e); }
            for (int l = 0; l < k; l++) {
                if (l == i || l == j) continue;
                cl_start(e); cl_lit(e, -R(i, j)); cl_lit(e, -R(j, l)); cl_lit(e, R(i, l)); cl_emit(e);
            }
        }
#undef R
}

/* (b) binary positions: b = ceil(log2 k) bits per node, and per pair the
 * comparator "P -> pos(u) < pos(v)" read from the top bit down:
 * c_i means "pos(u) < pos(v) on bits i..0"; c_{b-1} is P itself,
 *   c_i -> (-a_i | b_i),  c_i -> (-a_i | c_{i-1}),  c_i -> (b_i | c_{i-1})
 * and c_{-1} is false (so c_0 -> -a_0 and c_0 -> b_0): 3b - 1 clauses. */
static void encode_rank_bin(enc *e, const int *node, int k, const pair_vec *pairs) {
    int b = 1;
    while ((1LL << b) < k) b++;
    int base = aux_block(e, k * b);
    for (int i = 0; i < k; i++)
        gp_name_vars(e->out, base + i * b, b, "rank g%d position of node %d, bits low..high", e->graph, node[i]);
    vec_foreach(const pair, p, *pairs) {
        int cfirst = b > 1 ? aux_block(e, b - 1) : 0;       /* c_0 .. c_{b-2} */
        if (b > 1) gp_name_vars(e->out, cfirst, b - 1, "rank g%d comparator %d<%d, bits 0..%d",
                                e->graph, node[p->u], node[p->v], b - 2);
        for (int i = b - 1; i >= 0; i--) {
            int c = i == b - 1 ? p->lit : cfirst + i;       /* pair literal on top */
            int ai = base + p->u * b + i, bi = base + p->v * b + i;
            int lower = i ? cfirst + i - 1 : 0;             /* 0: c_{-1} = false */
            if (lower) { cl_start(e); cl_not(e, c); cl_lit(e, -ai); cl_lit(e, bi); cl_emit(e); }  /* else subsumed */
            cl_start(e); cl_not(e, c); cl_lit(e, -ai); if (lower) cl_lit(e, lower); cl_emit(e);
            cl_start(e); cl_not(e, c); cl_lit(e, bi); if (lower) cl_lit(e, lower); cl_emit(e);
        }
    }
}

/* (b') unary positions: o[v][j] = "pos(v) >= j" for j = 1..k-1 with
 * o[v][j+1] -> o[v][j]; per pair and j = 0..k-1:
 *   P & pos(u) >= j -> pos(v) >= j+1   (pos >= 0 is true, pos >= k false). */
static void encode_rank_unary(enc *e, const int *node, int k, const pair_vec *pairs) {
    int w = k - 1;
    int base = aux_block(e, k * w);
#define O(i, j) (base + (i) * w + (j) - 1)
    for (int i = 0; i < k; i++) {
        gp_name_vars(e->out, O(i, 1), w, "unary g%d node %d: position >= 1..%d", e->graph, node[i], w);
        for (int j = 1; j + 1 <= w; j++) { cl_start(e); cl_lit(e, -O(i, j + 1)); cl_lit(e, O(i, j)); cl_emit(e); }
    }
    vec_foreach(const pair, p, *pairs)
        for (int j = 0; j < k; j++) {
            cl_start(e); cl_not(e, p->lit);
            if (j > 0) cl_lit(e, -O(p->u, j));
            if (j + 1 <= w) cl_lit(e, O(p->v, j + 1));
            cl_emit(e);
        }
#undef O
}

/* (c) vertex elimination: path variables p[u][w] (P -> p on every pair);
 * nodes are eliminated least fill-in (|in| * |out|) first; eliminating v
 * adds p[u][v] & p[v][w] -> p[u][w] for its remaining in/out neighbours
 * u != w (creating p[u][w] when new) and -p[u][v] | -p[v][u]. */
static void encode_ve(enc *e, const int *node, int k, const pair_vec *pairs) {
    pair_map pm; pm_init(&pm, pairs->len * 2);
    VEC(vec_int) in, out;
    vec_init(in); vec_init(out);
    vec_resize(in, (size_t)k); vec_resize(out, (size_t)k);
    for (int i = 0; i < k; i++) { vec_init(in.data[i]); vec_init(out.data[i]); }
    int *indeg = xcalloc((size_t)k, sizeof *indeg), *outdeg = xcalloc((size_t)k, sizeof *outdeg);
    unsigned char *gone = xcalloc((size_t)k, 1);

#define ADD_PAIR(a, b, l) do { pm_put(&pm, (a), (b), (l)); vec_push(out.data[a], (b)); vec_push(in.data[b], (a)); \
                               outdeg[a]++; indeg[b]++; } while (0)
    vec_foreach(const pair, p, *pairs) {
        int l = p->lit;
        if (l != LIT_TRUE) {
            l = aux(e);
            gp_name_vars(e->out, l, 1, "ve g%d path %d->%d", e->graph, node[p->u], node[p->v]);
            cl_start(e); cl_not(e, p->lit); cl_lit(e, l); cl_emit(e);
        }
        ADD_PAIR(p->u, p->v, l);
    }
    for (int step = 0; step < k && !e->too_big; step++) {
        int v = -1; long long best = -1;
        for (int i = 0; i < k; i++) {
            if (gone[i]) continue;
            long long cost = (long long)indeg[i] * outdeg[i];
            if (v < 0 || cost < best) { v = i; best = cost; if (!cost) break; }
        }
        gone[v] = 1;
        vec_foreach(const int, up, in.data[v]) if (!gone[*up]) outdeg[*up]--;
        vec_foreach(const int, wp, out.data[v]) if (!gone[*wp]) indeg[*wp]--;
        vec_foreach(const int, up, in.data[v]) {
            int u = *up;
            if (gone[u]) continue;
            int luv = *pm_get(&pm, u, v);
            vec_foreach(const int, wp, out.data[v]) {
                int w = *wp;
                if (gone[w]) continue;
                int lvw = *pm_get(&pm, v, w);
                if (u == w) {
                    cl_start(e); cl_not(e, luv); cl_not(e, lvw); cl_emit(e);
                    continue;
                }
                int *have = pm_get(&pm, u, w), luw;
                if (have) luw = *have;
                else {
                    luw = aux(e);
                    gp_name_vars(e->out, luw, 1, "ve g%d path %d->%d", e->graph, node[u], node[w]);
                    ADD_PAIR(u, w, luw);
                }
                if (luw == LIT_TRUE) continue;
                cl_start(e); cl_not(e, luv); cl_not(e, lvw); cl_lit(e, luw); cl_emit(e);
            }
        }
    }
#undef ADD_PAIR
    for (int i = 0; i < k; i++) { vec_free(in.data[i]); vec_free(out.data[i]); }
    vec_free(in); vec_free(out);
    free(indeg); free(outdeg); free(gone);
    pm_free(&pm);
}

/* ---- strongly connected components of all edges (iterative Tarjan) --- */
static int scc(const gp_graph *g, int *comp) {
    int n = g->num_nodes;
    int *start = xcalloc((size_t)n + 1, sizeof *start);
    int *adj = xmalloc((g->edges.len + 1) * sizeof *adj);
    vec_foreach(const gp_edge, ed, g->edges) start[ed->from + 1]++;
    for (int i = 0; i < n; i++) start[i + 1] += start[i];
    int *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, start, ((size_t)n + 1) * sizeof *fill);
    vec_foreach(const gp_edge, ed, g->edges) adj[fill[ed->from]++] = ed->to;
    int *index = xmalloc(((size_t)n + 1) * sizeof *index), *low = xmalloc(((size_t)n + 1) * sizeof *low);
    int *it = fill;                                   /* reused: next arc per node */
    unsigned char *on = xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++) index[i] = -1;
    vec_int st, call; vec_init(st); vec_init(call);
    int counter = 0, comps = 0;
    for (int r = 0; r < n; r++) {
        if (index[r] >= 0) continue;
        vec_push(call, r);
        index[r] = low[r] = counter++; it[r] = start[r]; vec_push(st, r); on[r] = 1;
        while (call.len) {
            int v = vec_last(call);
            if (it[v] < start[v + 1]) {
                int w = adj[it[v]++];
                if (index[w] < 0) {
                    index[w] = low[w] = counter++; it[w] = start[w]; vec_push(st, w); on[w] = 1;
                    vec_push(call, w);
                } else if (on[w] && index[w] < low[v]) low[v] = index[w];
                continue;
            }
            (void)vec_pop(call);
            if (call.len) { int u = vec_last(call); if (low[v] < low[u]) low[u] = low[v]; }
            if (low[v] == index[v]) {
                int w;
                do { w = vec_pop(st); on[w] = 0; comp[w] = comps; } while (w != v);
                comps++;
            }
        }
    }
    vec_free(st); vec_free(call);
    free(start); free(adj); free(fill); free(index); free(low); free(on);
    return comps;
}

typedef struct { int comp, u, v, lit; } comp_edge;
static int cmp_comp_edge(const void *a, const void *b) {
    const comp_edge *x = a, *y = b;
    if (x->comp != y->comp) return x->comp < y->comp ? -1 : 1;
    if (x->u != y->u) return x->u < y->u ? -1 : 1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    /* always-on (0) edges first within a pair */
    int ax = x->lit != 0, ay = y->lit != 0;
    if (ax != ay) return ax < ay ? -1 : 1;
    return (x->lit > y->lit) - (x->lit < y->lit);
}

static void encode_graph(enc *e, const gp_graph *g, gp_encoding mode) {
    int n = g->num_nodes;
    if (!n) return;
    /* self-loops: the guard must be false */
    vec_foreach(const gp_edge, ed, g->edges)
        if (ed->from == ed->to) { cl_start(e); cl_not(e, ed->lit); cl_emit(e); }
    int *comp = xmalloc((size_t)n * sizeof *comp);
    int comps = scc(g, comp);
    int *size = xcalloc((size_t)comps, sizeof *size);
    for (int i = 0; i < n; i++) size[comp[i]]++;
    /* local ids: position of the node among its component's nodes */
    int *cstart = xcalloc((size_t)comps + 1, sizeof *cstart);
    for (int c = 0; c < comps; c++) cstart[c + 1] = cstart[c] + size[c];
    int *local = xmalloc((size_t)n * sizeof *local), *members = xmalloc((size_t)n * sizeof *members);
    int *fill = xmalloc((size_t)comps * sizeof *fill);
    memcpy(fill, cstart, (size_t)comps * sizeof *fill);
    for (int i = 0; i < n; i++) { local[i] = fill[comp[i]] - cstart[comp[i]]; members[fill[comp[i]]++] = i; }

    VEC(comp_edge) ce; vec_init(ce);
    vec_foreach(const gp_edge, ed, g->edges) {
        if (ed->from == ed->to) continue;
        if (comp[ed->from] != comp[ed->to]) { e->st->edges_dropped++; continue; }
        vec_push(ce, ((comp_edge){ comp[ed->from], local[ed->from], local[ed->to], ed->lit }));
        e->st->edges_encoded++;
    }
    if (ce.len) qsort(ce.data, ce.len, sizeof *ce.data, cmp_comp_edge);
    pair_vec pairs; vec_init(pairs);
    for (size_t i = 0; i < ce.len;) {
        int c = ce.data[i].comp;
        vec_clear(pairs);
        size_t j = i;
        while (j < ce.len && ce.data[j].comp == c) {
            /* one pair: ce[j..q) */
            size_t q = j;
            while (q < ce.len && ce.data[q].comp == c && ce.data[q].u == ce.data[j].u && ce.data[q].v == ce.data[j].v) q++;
            int lit;
            if (ce.data[j].lit == 0) lit = LIT_TRUE;
            else if (q - j == 1) lit = ce.data[j].lit;
            else {
                int distinct = 1;
                for (size_t r = j + 1; r < q; r++) if (ce.data[r].lit != ce.data[r - 1].lit) distinct++;
                if (distinct == 1) lit = ce.data[j].lit;
                else {
                    lit = aux(e);
                    gp_name_vars(e->out, lit, 1, "g%d edge %d->%d (any of its %d guards)", e->graph,
                                 members[cstart[c] + ce.data[j].u], members[cstart[c] + ce.data[j].v], distinct);
                    for (size_t r = j; r < q; r++) {
                        if (r > j && ce.data[r].lit == ce.data[r - 1].lit) continue;
                        cl_start(e); cl_lit(e, -ce.data[r].lit); cl_lit(e, lit); cl_emit(e);
                    }
                }
            }
            vec_push(pairs, ((pair){ ce.data[j].u, ce.data[j].v, lit }));
            j = q;
        }
        int k = size[c];
        const int *node = members + cstart[c];
        if (e->max_clauses && e->st->clauses + predicted_clauses(mode, k, (int64_t)pairs.len) > e->max_clauses) {
            e->too_big = 1;
            e->st->predicted = e->st->clauses + predicted_clauses(mode, k, (int64_t)pairs.len);
        }
        if (e->too_big) break;
        e->st->components++;
        e->st->nodes_encoded += k;
        switch (mode) {
        case GP_TC: encode_tc(e, node, k, &pairs); break;
        case GP_RANK_BIN: encode_rank_bin(e, node, k, &pairs); break;
        case GP_RANK_UNARY: encode_rank_unary(e, node, k, &pairs); break;
        case GP_VE: encode_ve(e, node, k, &pairs); break;
        }
        i = j;
    }
    vec_free(pairs);
    vec_free(ce);
    free(comp); free(size); free(cstart); free(local); free(members); free(fill);
}

int gp_encode_cnf(const graph_problem *in, gp_encoding mode, int64_t max_clauses, graph_problem *out, gp_encode_stats *st) {
    gp_encode_stats dummy;
    if (!st) st = &dummy;
    memset(st, 0, sizeof *st);
    gp_reset(out);
    out->num_vars = in->num_vars;
#define COPY_VEC(dst, src) do { vec_resize(dst, (src).len); \
        if ((src).len) memcpy((dst).data, (src).data, (src).len * sizeof *(src).data); } while (0)
    COPY_VEC(out->lits, in->lits);
    COPY_VEC(out->clause_end, in->clause_end);
    COPY_VEC(out->assumptions, in->assumptions);
    COPY_VEC(out->text, in->text);
#undef COPY_VEC
    vec_foreach(const size_t, c, in->comments) vec_push(out->comments, *c);
    vec_foreach(const gp_name, nm, in->names) vec_push(out->names, *nm);
    gp_comment(out, "acyclicity encoded as clauses: %s (variables 1..%d are the original problem's)",
               gp_encoding_name(mode), in->num_vars);

    enc e = { .out = out, .st = st, .max_clauses = max_clauses };
    vec_init(e.cl);
    for (size_t g = 0; g < in->graphs.len && !e.too_big; g++) {
        e.graph = (int)g;
        encode_graph(&e, &in->graphs.data[g], mode);
    }
    vec_free(e.cl);
    if (e.too_big) {
        if (st->predicted < st->clauses + 1) st->predicted = st->clauses + 1;
        gp_reset(out);
        return 0;
    }
    return 1;
}
