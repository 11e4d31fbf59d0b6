/* choice.c — the writer of an ambiguous read as a choice of the level's
 * SAT-modulo-acyclicity problem (contract in choice.h; soundness and
 * completeness: doc/checker.md, "Repeated values"). */
#include "frontend/checking/choice.h"

#include <stdlib.h>
#include <string.h>

pg_choice *pg_choice_build(const polygraph *g) {
    const pg_index *ix = g->ix;
    const history *h = ix->h;
    if (!h->num_amb) return NULL;
    pg_choice *c = xcalloc(1, sizeof *c);
    c->n = h->num_amb;
    c->start = xmalloc(((size_t)c->n + 1) * sizeof *c->start);
    vec_u32 cand; vec_init(cand);
    for (uint32_t i = 0; i < c->n; i++) {
        c->start[i] = (uint32_t)cand.len;
        uint32_t r = h->amb_read[i], rt = h->op_txn[r];
        if (!ix->in_graph[rt]) continue;                  /* a non-participant's read: no edges */
        for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1]; j++) {
            uint32_t w = h->amb_cand[j], wt = h->op_txn[w];
            if (h->amb_why[j] || !ix->in_graph[wt]) { c->dropped += !h->amb_why[j]; continue; }
            if (g->reach && pg_reaches(g, pg_node_tp(g, rt), pg_node_t(g, wt))) { c->dropped++; continue; }
            vec_push(cand, w);
        }
    }
    c->start[c->n] = (uint32_t)cand.len;
    c->cand = cand.data;
    return c;
}

void pg_choice_free(pg_choice *c) {
    if (!c) return;
    free(c->start); free(c->cand); free(c);
}

/* Unit u's position of txn t among key k's units: its unit and index in it. */
static int find_member(const pg_index *ix, uint32_t k, uint32_t t, uint32_t *unit, uint32_t *m) {
    for (uint32_t u = ix->key_unit_start[k]; u < ix->key_unit_start[k + 1]; u++) {
        const pg_unit *un = &ix->units.data[u];
        for (uint32_t i = 0; i < un->len; i++)
            if (ix->members.data[un->m_first + i] == t) { *unit = u; *m = i; return 1; }
    }
    return 0;
}

/* The literal "unit a before unit b": a constraint's (+-var), 0 for
 * "never", INT32_MAX for "always" (decided by the known graph's order). */
static int order_lit(const polygraph *g, const u64map *pairs, int cons_var0, uint32_t a, uint32_t b) {
    const pg_index *ix = g->ix;
    if (ix->key_unit_start[ix->unit_key[a]] == a) return INT32_MAX;   /* INIT's unit is first */
    if (ix->key_unit_start[ix->unit_key[b]] == b) return 0;
    uint32_t x = u64map_get(pairs, (uint64_t)a << 32 | b);
    if (x != UINT32_MAX) return cons_var0 + (int)x;
    x = u64map_get(pairs, (uint64_t)b << 32 | a);
    if (x != UINT32_MAX) return -(cons_var0 + (int)x);
    uint32_t pa = g->topo_pos[pg_node_t(g, ix->units.data[a].last)];
    uint32_t pb = g->topo_pos[pg_node_t(g, ix->units.data[b].head)];
    return pa < pb ? INT32_MAX : 0;
}

static void edge(const polygraph *g, const graph_sink *k, int graph, uint32_t a, uint32_t b, int lit, uint64_t *edges) {
    gs_add_edge(k, graph, (int)g->topo_pos[a], (int)g->topo_pos[b], lit);
    (*edges)++;
}

void pg_choice_encode(pg_choice *c, const polygraph *g, const graph_sink *k, int graph, int cons_var0, uint64_t *edges) {
    const pg_index *ix = g->ix;
    const history *h = ix->h;
    u64map pairs; u64map_init(&pairs);
    for (size_t i = 0; i < g->cons.len; i++) u64map_put(&pairs, (uint64_t)g->cons.data[i].u << 32 | g->cons.data[i].v, (uint32_t)i);
    c->var0 = gs_num_vars(k) + 1;
    uint32_t total = c->start[c->n];
    if (total) gs_reserve_vars(k, c->var0 - 1 + (int)total);
    vec_int clause; vec_init(clause);
    int *y = NULL;
    size_t ycap = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t r = h->amb_read[i], rt = h->op_txn[r], key = h->op_key[r];
        if (!ix->in_graph[rt]) continue;
        vec_clear(clause);
        for (uint32_t j = c->start[i]; j < c->start[i + 1]; j++) vec_push(clause, c->var0 + (int)j);
        gs_add_clause(k, clause.data, (int)clause.len);   /* at least one writer (none left: empty, the level fails) */
        uint32_t us = ix->key_unit_start[key], ue = ix->key_unit_start[key + 1];
        if (ue - us > ycap) { ycap = ue - us; y = xrealloc(y, ycap * sizeof *y); }
        memset(y, 0, (ue - us) * sizeof *y);
        for (uint32_t j = c->start[i]; j < c->start[i + 1]; j++) {
            int x = c->var0 + (int)j;
            uint32_t wt = h->op_txn[c->cand[j]], unit, m;
            edge(g, k, graph, pg_node_t(g, wt), pg_node_tp(g, rt), x, edges);            /* WR */
            if (!find_member(ix, key, wt, &unit, &m)) continue;
            const pg_unit *un = &ix->units.data[unit];
            if (m + 1 < un->len) {                                                         /* RW to the next member */
                uint32_t nx = ix->members.data[un->m_first + m + 1];
                if (nx != rt) edge(g, k, graph, pg_node_tp(g, rt), pg_node_t(g, nx), x, edges);
                continue;
            }
            for (uint32_t v = us; v < ue; v++) {                                           /* RW to every later unit */
                if (v == unit || ix->units.data[v].head == rt) continue;
                int o = order_lit(g, &pairs, cons_var0, unit, v);
                if (o == 0) continue;
                if (!y[v - us]) {
                    y[v - us] = gs_new_var(k);
                    edge(g, k, graph, pg_node_tp(g, rt), pg_node_t(g, ix->units.data[v].head), y[v - us], edges);
                }
                int cl[3] = { -x, y[v - us], o == INT32_MAX ? 0 : -o };
                gs_add_clause(k, cl, o == INT32_MAX ? 2 : 3);
            }
        }
    }
    free(y);
    vec_free(clause);
    u64map_free(&pairs);
}

uint32_t *pg_choice_model(const pg_choice *c, int (*value)(void *, int), void *ctx) {
    uint32_t *out = xcalloc(c->n ? c->n : 1, sizeof *out);
    for (uint32_t i = 0; i < c->n; i++) {
        out[i] = HISTORY_NONE;
        for (uint32_t j = c->start[i]; j < c->start[i + 1] && out[i] == HISTORY_NONE; j++)
            if (value(ctx, c->var0 + (int)j) > 0) out[i] = c->cand[j];
    }
    return out;   /* HISTORY_NONE: a non-participant's read (history_with_choice takes any possible writer) */
}

uint32_t *pg_choice_any(const pg_choice *c, const history *h) {
    uint32_t *out = xcalloc(h->num_amb ? h->num_amb : 1, sizeof *out);
    for (uint32_t i = 0; i < h->num_amb; i++) {
        out[i] = HISTORY_NONE;
        if (c && c->start[i] < c->start[i + 1]) { out[i] = c->cand[c->start[i]]; continue; }
        for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1] && out[i] == HISTORY_NONE; j++)
            if (!h->amb_why[j]) out[i] = h->amb_cand[j];
    }
    return out;
}
