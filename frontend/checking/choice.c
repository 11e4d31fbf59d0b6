/* choice.c — the writer of an ambiguous read as a choice of the level's
 * SAT-modulo-acyclicity problem (contract in choice.h; soundness and
 * completeness: doc/checker.md, "Repeated values"). */
#include "frontend/checking/choice.h"

#include <stdlib.h>
#include <string.h>

void pg_choice_free(pg_choice *c) {
    if (!c) return;
    free(c->start); free(c->cand);
    vec_free(c->edges);
    free(c);
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

/* Writer wt's version of key k is surely overwritten before reader rt's
 * snapshot: a version known to come after it (its unit's next member, or
 * the head of a unit decided after its unit) reaches rt's start in the
 * known graph, so the RW edge rt -> that version would close a cycle. */
static int overwritten_before(const polygraph *g, const u64map *pairs, uint32_t rt, uint32_t k, uint32_t wt) {
    const pg_index *ix = g->ix;
    uint32_t unit, m;
    if (!find_member(ix, k, wt, &unit, &m)) return 0;
    const pg_unit *un = &ix->units.data[unit];
    uint32_t tp = pg_node_tp(g, rt);
    if (m + 1 < un->len) {
        uint32_t nx = ix->members.data[un->m_first + m + 1];
        return nx != rt && pg_reaches(g, pg_node_t(g, nx), tp);
    }
    for (uint32_t v = ix->key_unit_start[k]; v < ix->key_unit_start[k + 1]; v++) {
        uint32_t hd = ix->units.data[v].head;
        if (v == unit || hd == rt) continue;
        if (order_lit(g, pairs, 1, unit, v) == INT32_MAX && pg_reaches(g, pg_node_t(g, hd), tp)) return 1;
    }
    return 0;
}

pg_choice *pg_choice_build(const polygraph *g) {
    const pg_index *ix = g->ix;
    const history *h = ix->h;
    if (!h->num_amb) return NULL;
    pg_choice *c = xcalloc(1, sizeof *c);
    c->n = h->num_amb;
    c->start = xmalloc(((size_t)c->n + 1) * sizeof *c->start);
    vec_u32 cand; vec_init(cand);
    u64map pairs; u64map_init(&pairs);
    for (size_t i = 0; i < g->cons.len; i++) u64map_put(&pairs, (uint64_t)g->cons.data[i].u << 32 | g->cons.data[i].v, (uint32_t)i);
    for (uint32_t i = 0; i < c->n; i++) {
        c->start[i] = (uint32_t)cand.len;
        uint32_t r = h->amb_read[i], rt = h->op_txn[r];
        if (!ix->in_graph[rt] || history_op_failed(h, r)) continue;   /* a non-participant's or set-aside read: no edges */
        for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1]; j++) {
            uint32_t w = h->amb_cand[j], wt = h->op_txn[w];
            if (h->amb_why[j] || !ix->in_graph[wt]) { c->dropped += !h->amb_why[j]; continue; }
            if (g->reach && (pg_reaches(g, pg_node_tp(g, rt), pg_node_t(g, wt)) || overwritten_before(g, &pairs, rt, h->op_key[r], wt))) {
                c->dropped++;
                continue;
            }
            vec_push(cand, w);
        }
    }
    u64map_free(&pairs);
    c->start[c->n] = (uint32_t)cand.len;
    c->cand = cand.data;
    return c;
}

static void edge(pg_choice *c, const polygraph *g, const graph_sink *k, int graph, uint32_t a, uint32_t b, int lit, int rw,
                 uint64_t *edges) {
    pg_choice_edge e = { a, b, lit, rw };
    vec_push(c->edges, e);
    if (rw && g->rw_lazy) return;                  /* psi: checked lazily (psi.c) */
    gs_add_edge(k, graph, (int)g->topo_pos[a], (int)g->topo_pos[b], lit);
    (*edges)++;
}

void pg_choice_encode(pg_choice *c, const polygraph *g, const graph_sink *k, int graph, int cons_var0, uint64_t *edges) {
    const pg_index *ix = g->ix;
    const history *h = ix->h;
    u64map pairs; u64map_init(&pairs);
    for (size_t i = 0; i < g->cons.len; i++) u64map_put(&pairs, (uint64_t)g->cons.data[i].u << 32 | g->cons.data[i].v, (uint32_t)i);
    c->var0 = gs_num_vars(k) + 1;
    vec_clear(c->edges);
    uint32_t total = c->start[c->n];
    if (total) gs_reserve_vars(k, c->var0 - 1 + (int)total);
    vec_int clause; vec_init(clause);
    vec_u32 last; vec_init(last);            /* candidates (index j) that are last of their unit, and the unit */
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t r = h->amb_read[i], rt = h->op_txn[r], key = h->op_key[r];
        if (!ix->in_graph[rt] || history_op_failed(h, r)) continue;
        vec_clear(clause);
        for (uint32_t j = c->start[i]; j < c->start[i + 1]; j++) vec_push(clause, c->var0 + (int)j);
        gs_add_clause(k, clause.data, (int)clause.len);   /* at least one writer (none left: empty, the level fails) */
        vec_clear(last);
        for (uint32_t j = c->start[i]; j < c->start[i + 1]; j++) {
            int x = c->var0 + (int)j;
            uint32_t wt = h->op_txn[c->cand[j]], unit, m;
            edge(c, g, k, graph, pg_node_t(g, wt), pg_node_tp(g, rt), x, 0, edges);            /* WR */
            if (!find_member(ix, key, wt, &unit, &m)) continue;
            const pg_unit *un = &ix->units.data[unit];
            if (m + 1 < un->len) {                                                         /* RW to the next member */
                uint32_t nx = ix->members.data[un->m_first + m + 1];
                if (nx != rt) edge(c, g, k, graph, pg_node_tp(g, rt), pg_node_t(g, nx), x, 1, edges);
                continue;
            }
            vec_push(last, j); vec_push(last, unit);
        }
        uint32_t n = c->start[i + 1] - c->start[i];
        for (uint32_t v = ix->key_unit_start[key]; v < ix->key_unit_start[key + 1]; v++) {   /* RW to later units */
            uint32_t hd = ix->units.data[v].head;
            if (hd == rt) continue;
            uint32_t contrib = 0, decided = 0, one = 0;
            for (size_t q = 0; q < last.len; q += 2) {
                if (last.data[q + 1] == v) continue;
                int o = order_lit(g, &pairs, cons_var0, last.data[q + 1], v);
                if (o == 0) continue;
                contrib++; decided += o == INT32_MAX; one = last.data[q];
            }
            if (!contrib) continue;
            int lit;
            if (decided == n) {                       /* after every candidate: always, a guard fixed true */
                lit = gs_new_var(k);                  /* (not an unguarded edge: those must go forward in */
                gs_add_clause(k, &lit, 1);            /* the engine's initial order, and this one may not) */
            }
            else if (contrib == 1 && decided == 1) lit = c->var0 + (int)one;
            else {
                lit = gs_new_var(k);                                      /* y_V */
                for (size_t q = 0; q < last.len; q += 2) {
                    if (last.data[q + 1] == v) continue;
                    int o = order_lit(g, &pairs, cons_var0, last.data[q + 1], v);
                    if (o == 0) continue;
                    int cl[3] = { -(c->var0 + (int)last.data[q]), lit, o == INT32_MAX ? 0 : -o };
                    gs_add_clause(k, cl, o == INT32_MAX ? 2 : 3);
                }
            }
            edge(c, g, k, graph, pg_node_tp(g, rt), pg_node_t(g, hd), lit, 1, edges);
        }
    }
    vec_free(last);
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
