/* interpret_cycles.c — violating cycles: the shortest among a few
 * transactions' dependencies, and short ones in the whole fact graph or
 * the graph of the version order, avoiding transactions already used
 * (interpret_internal.h). */
#include "frontend/reports/interpret_internal.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/reports/classify.h"
#include "frontend/reports/report_assumed.h"

/* ---- graphs ------------------------------------------------------------- */

typedef struct igraph {
    int split;
    dg_graph g;                      /* arc ids: index in edges, DG_NONE for fixed edges */
    dep_edge_vec edges;
} igraph;

static void ig_finish(igraph *g, const history *h, const uint8_t *fixed) {
    dg_arc_vec arcs; vec_init(arcs);
    vec_reserve(arcs, g->edges.len);
    for (size_t i = 0; i < g->edges.len; i++) {
        dg_arc a = { 0, 0, (uint32_t)i };
        interp_node_pair(g->split, &g->edges.data[i], &a.from, &a.to);
        vec_push(arcs, a);
    }
    if (g->split)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (fixed[t]) { dg_arc a = { dg_start(t), dg_commit(t), DG_NONE }; vec_push(arcs, a); }
    dg_build(&g->g, dg_num_nodes(g->split, h->num_txns), arcs.data, arcs.len, 1);
    vec_free(arcs);
}

static void ig_free(igraph *g) {
    dg_free(&g->g);
    vec_free(g->edges);
}

/* ---- dependencies between a few transactions, by definition ---------------- */

/* All SO/WR/WW/RW dependencies x -> y (x, y in S) under vo; one per kind and pair. */
static void induced_edges(const ictx *c, const uint32_t *S, size_t m, dep_edge_vec *out) {
    const history *h = c->h;
    for (size_t i = 0; i < m; i++) {
        uint32_t x = S[i];
        const history_txn *tx = &h->txns[x];
        for (size_t j = 0; j < m; j++) {
            uint32_t y = S[j];
            if (x == y) continue;
            const history_txn *ty = &h->txns[y];
            if (c->so && x != 0 && tx->session == ty->session && tx->pos < ty->pos) interp_push_dep(out, DEP_SO, 0, x, y);
            if (ictx_rt(c, x, y)) interp_push_dep(out, DEP_RT, 0, x, y);
            for (uint32_t o = 0; o < tx->num_ops; o++) {
                uint32_t op = tx->first_op + o, k = h->op_key[op];
                uint32_t gy = ictx_vidx(c, k, y);
                if (history_op_is_write(h, op) && gy != NONE) {
                    uint32_t gx = ictx_vidx(c, k, x);
                    if (gx != NONE && gx < gy) { if (history_txn_final_write(h, x, k) == op) interp_push_dep(out, DEP_WW, k, x, y); }
                }
                if (history_op_is_write(h, op)) {
                    uint32_t s = ictx_read_src(c, y, k);
                    if (s == x && history_txn_final_write(h, x, k) == op) interp_push_dep(out, DEP_WR, k, x, y);
                }
                if (history_op_is_read(h, op) && gy != NONE && ictx_ext_read(c, x, k, NULL) == op) {
                    uint32_t s = ictx_read_src(c, x, k);
                    uint32_t gs = s == NONE ? NONE : ictx_vidx(c, k, s);
                    if (gs != NONE && gs < gy) interp_push_dep(out, DEP_RW, k, x, y);
                }
            }
        }
    }
}

/* An edge resting on an assumed writer weighs more than any cycle of
 * established ones (at most 2 * 256 edges of weight < 20). */
#define ASSUMED_WEIGHT (1u << 16)

static uint32_t edge_weight(const dep_edge *e) {
    static const uint32_t rank[] = { 0, 1, 2, 3, 0, 0 };
    return 16 + rank[e->kind <= DEP_RT ? e->kind : 0];
}

/* Dependencies between S's transactions in the fact graph (known and
 * forced edges), plus the session order between any two of them. */
static void induced_fact_edges(const ictx *c, const uint32_t *S, size_t m, dep_edge_vec *out) {
    const history *h = c->h;
    const dg_graph *g = &c->g;
    u64map in; u64map_init(&in);
    for (size_t i = 0; i < m; i++) u64map_put(&in, S[i], 1);
    for (size_t i = 0; i < m; i++) {
        uint32_t t = S[i];
        for (int half = 0; half < (c->si ? 2 : 1); half++) {         /* split: start, then commit */
            uint32_t u = !c->si ? t : half == 0 ? dg_start(t) : dg_commit(t);
            for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
                dep_edge e;
                if (!ictx_arc_edge(c, u, j, &e)) continue;
                if (e.kind == DEP_SO || u64map_get(&in, e.to) == NONE) continue;
                vec_push(*out, e);
            }
        }
        for (size_t j = 0; j < m; j++) {
            uint32_t y = S[j];
            if (c->so && t != 0 && y != t && h->txns[t].session == h->txns[y].session && h->txns[t].pos < h->txns[y].pos)
                interp_push_dep(out, DEP_SO, 0, t, y);
            if (ictx_rt(c, t, y)) interp_push_dep(out, DEP_RT, 0, t, y);
        }
    }
    u64map_free(&in);
}

static int shortest_cycle_among(const ictx *c, const uint32_t *S, size_t m, dep_edge_vec *E, dep_edge_vec *out);

int ictx_minimal_cycle(const ictx *c, const uint32_t *S, size_t m, int facts, dep_edge_vec *out) {
    dep_edge_vec E; vec_init(E);
    if (facts) induced_fact_edges(c, S, m, &E);
    else induced_edges(c, S, m, &E);
    int ok = shortest_cycle_among(c, S, m, &E, out);
    vec_free(E);
    return ok;
}

/* Shortest violating cycle using edges E between S's transactions. */
static int shortest_cycle_among(const ictx *c, const uint32_t *S, size_t m, dep_edge_vec *E_, dep_edge_vec *out) {
    dep_edge_vec E = *E_;
    /* local node ids: transaction i of S is node i (SER) or split nodes i's */
    u64map loc; u64map_init(&loc);
    for (size_t i = 0; i < m; i++) u64map_put(&loc, S[i], (uint32_t)i);
    dg_arc_vec arcs; vec_init(arcs);
    uint32_t *weight = xmalloc((E.len + 1) * sizeof *weight);
    for (size_t i = 0; i < E.len; i++) {
        dep_edge d = E.data[i];
        d.from = u64map_get(&loc, d.from); d.to = u64map_get(&loc, d.to);
        dg_arc l = { 0, 0, (uint32_t)i };
        interp_node_pair(c->si, &d, &l.from, &l.to);
        weight[i] = edge_weight(&E.data[i]);
        if (c->amb && report_edge_assumed(c->amb, &E.data[i], NULL)) weight[i] += ASSUMED_WEIGHT;   /* established first */
        vec_push(arcs, l);
    }
    if (c->si) for (uint32_t i = 0; i < m; i++) { dg_arc l = { dg_start(i), dg_commit(i), DG_NONE }; vec_push(arcs, l); }
    dg_graph g;
    dg_build(&g, dg_num_nodes(c->si, (uint32_t)m), arcs.data, arcs.len, 1);
    vec_u32 ids; vec_init(ids);
    int ok = dg_min_weight_cycle(&g, weight, &ids);
    vec_clear(*out);
    vec_foreach(const uint32_t, id, ids) if (*id != DG_NONE) vec_push(*out, E.data[*id]);
    vec_free(ids); dg_free(&g); vec_free(arcs); free(weight);
    /* between the same two transactions, prefer the key of a neighbouring
     * edge (a -RW x-> b -WW x-> a is a lost update, with y it is read skew) */
    for (size_t i = 0; i < out->len && out->len > 1; i++) {
        dep_edge *d = &out->data[i];
        uint32_t kp = out->data[(i + out->len - 1) % out->len].key, kn = out->data[(i + 1) % out->len].key;
        if (d->kind == DEP_SO || d->kind == DEP_RT || d->key == kp || d->key == kn) continue;
        for (size_t j = 0; j < E.len; j++) {
            const dep_edge *x = &E.data[j];
            if (x->from == d->from && x->to == d->to && x->kind == d->kind && (x->key == kp || x->key == kn)) { d->key = x->key; break; }
        }
    }
    /* rotate to start at the smallest transaction index */
    if (out->len) {
        size_t r = 0;
        for (size_t i = 1; i < out->len; i++) if (out->data[i].from < out->data[r].from) r = i;
        dep_edge_vec tmp; vec_init(tmp);
        for (size_t i = 0; i < out->len; i++) vec_push(tmp, out->data[(r + i) % out->len]);
        vec_clear(*out);
        for (size_t i = 0; i < tmp.len; i++) vec_push(*out, tmp.data[i]);
        vec_free(tmp);
    }
    u64map_free(&loc);
    return ok && cycle_violates_rule(out->data, out->len, c->rule);
}

/* ---- violating cycles under the version order, avoiding used txns -------- */

static void vo_graph(const ictx *c, const uint8_t *excl, int strict, igraph *g) {
    const history *h = c->h;
    const version_order *vo = c->vo;
    memset(g, 0, sizeof *g);
    g->split = c->si;
    vec_init(g->edges);
    uint8_t *use = xcalloc(h->num_txns, 1);
    for (uint32_t t = 0; t < h->num_txns; t++) use[t] = c->part[t] && !excl[t];
    for (uint32_t s = 0; c->so && s < h->num_sessions; s++) {
        uint32_t prev = NONE;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!use[t]) continue;
            if (prev != NONE) interp_push_dep(&g->edges, DEP_SO, 0, prev, t);
            prev = t;
        }
    }
    vec_u32 rd; vec_init(rd);
    for (uint32_t k = 0; k < vo->num_keys; k++) {
        uint32_t a = vo->start[k], b = vo->start[k + 1], prev = NONE;
        for (uint32_t i = a; i < b; i++) {
            uint32_t t = vo->txns.data[i];
            if (!use[t]) continue;
            if (prev != NONE) interp_push_dep(&g->edges, DEP_WW, k, prev, t);
            prev = t;
        }
        for (uint32_t i = a; i < b; i++) {
            uint32_t w = vo->txns.data[i], nx = NONE;
            for (uint32_t j = i + 1; j < b; j++) if (use[vo->txns.data[j]]) { nx = vo->txns.data[j]; break; }
            vec_clear(rd);
            ictx_readers(c, k, i, &rd);
            vec_foreach(const uint32_t, tp, rd) {
                uint32_t t = *tp;
                if (!use[t] || (strict && report_assumed_read(c->amb, t, k) != NONE)) continue;   /* its WR and RW edges */
                if (use[w] && w != 0) interp_push_dep(&g->edges, DEP_WR, k, w, t);
                if (nx != NONE && nx != t) interp_push_dep(&g->edges, DEP_RW, k, t, nx);
            }
        }
    }
    vec_free(rd);
    ig_finish(g, h, use);
    free(use);
}

/* The fact graph without the arcs resting on an assumed writer. */
static void strict_fact_graph(const ictx *c, igraph *g) {
    memset(g, 0, sizeof *g);
    g->split = c->si;
    vec_init(g->edges);
    for (uint32_t u = 0; u < c->g.n; u++)
        for (uint32_t j = c->g.start[u]; j < c->g.start[u + 1]; j++) {
            dep_edge e;
            if (ictx_arc_edge(c, u, j, &e) && !ictx_arc_assumed(c, u, j)) vec_push(g->edges, e);
        }
    ig_finish(g, c->h, c->part);
}

/* Transactions of a short violating cycle avoiding excl, sorted; 0 if none. */
int ictx_find_cycle_txns(ictx *c, const uint8_t *excl, int facts, int strict, vec_u32 *S) {
    igraph own;
    igraph g = { c->si, c->g, { NULL, 0, 0 } };             /* the fact graph: every arc */
    strict = strict && c->amb;
    if (!facts) { vo_graph(c, excl, strict, &own); g = own; }
    else if (strict) {                                      /* built once: the fact graph does not change */
        if (!c->strict_built) {
            strict_fact_graph(c, &own);
            c->strict_g = own.g;
            vec_free(own.edges);
            c->strict_built = 1;
        }
        g.g = c->strict_g;
    }
    dg_mask mask = { facts ? excl : NULL, g.split ? 1u : 0u };
    vec_u32 cyc, cur; vec_init(cyc); vec_init(cur);
    int found = dg_find_cycle(&g.g, mask, &cyc);
    if (found) {
        uint32_t *par = xmalloc((size_t)g.g.n * sizeof *par), *queue = xmalloc((size_t)g.g.n * sizeof *queue);
        size_t tries = cyc.len < 16 ? cyc.len : 16;
        if (g.g.n > 200000 && tries > 4) tries = 4;          /* each try is a full BFS */
        vec_u32 best; vec_init(best);
        for (size_t i = 0; i < tries; i++)
            if (dg_shortest_cycle_through(&g.g, mask, cyc.data[i], par, queue, &cur) && (!best.len || cur.len < best.len)) {
                vec_clear(best);
                for (size_t j = 0; j < cur.len; j++) vec_push(best, cur.data[j]);
            }
        const vec_u32 *use = best.len ? &best : &cyc;
        vec_clear(*S);
        for (size_t i = 0; i < use->len; i++) {
            uint32_t t = dg_node_txn(g.split, use->data[i]);
            int dup = 0;
            for (size_t j = 0; j < S->len; j++) if (S->data[j] == t) dup = 1;
            if (!dup) vec_push(*S, t);
        }
        free(par); free(queue); vec_free(best);
    }
    vec_free(cyc); vec_free(cur);
    if (!facts) ig_free(&own);
    return found;
}
