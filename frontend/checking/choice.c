/* choice.c — the writer of an ambiguous read as a choice of the level's
 * SAT-modulo-acyclicity problem (contract in choice.h; soundness and
 * completeness: doc/checker.md, "Repeated values"). */
#include "frontend/checking/choice.h"

#include "frontend/history/predicate.h"

#include <stdlib.h>
#include <string.h>

void pg_choice_free(pg_choice *c) {
    if (!c) return;
    free(c->start); free(c->cand); free(c->rtxn); free(c->rkey);
    vec_free(c->edges);
    vec_free(c->clauses);
    free(c);
}

/* Unit u's position of txn t among key k's units: its unit and index in it. */
static int find_member(const pg_index *ix, uint32_t k, uint32_t t, uint32_t *unit, uint32_t *m) {
    for (uint32_t u = ix->key_unit_start[k]; u < ix->key_unit_start[k + 1]; u++) {
        const pg_unit *un = &ix->units.data[u];
        for (uint32_t i = 0; i < pg_unit_len(un); i++)
            if (ix->members.data[un->m_first + i] == t) { *unit = u; *m = i; return 1; }
    }
    return 0;
}

/* The literal "unit a before unit b": a constraint's (+-var), 0 for
 * "never", INT32_MAX for "always" (decided by the known graph's order). */
/* The constraints by their pair of units, and which units have one. */
typedef struct pairmap { u64map m; uint8_t *in; } pairmap;

static void pairs_build(const polygraph *g, pairmap *p) {
    u64map_init(&p->m);
    p->in = xcalloc(g->ix->units.len ? g->ix->units.len : 1, 1);
    for (size_t i = 0; i < g->cons.len; i++) {
        u64map_put(&p->m, (uint64_t)g->cons.data[i].u << 32 | g->cons.data[i].v, (uint32_t)i);
        p->in[g->cons.data[i].u] = p->in[g->cons.data[i].v] = 1;
    }
}

static void pairs_free(pairmap *p) {
    u64map_free(&p->m);
    free(p->in);
}

/* The constraint on the pair (a, b) in that direction, else UINT32_MAX
 * (the map is asked only when both units have one). */
static uint32_t pair_of(const pairmap *pm, uint32_t a, uint32_t b) {
    return pm->in[a] && pm->in[b] ? u64map_get(&pm->m, (uint64_t)a << 32 | b) : UINT32_MAX;
}

/* Whether unit a comes before unit b in the known graph's order (its last
 * member's position before b's head's). */
static int topo_before(const polygraph *g, uint32_t a, uint32_t b) {
    const pg_index *ix = g->ix;
    return g->topo_pos[pg_node_t(g, ix->units.data[a].last)] < g->topo_pos[pg_node_t(g, ix->units.data[b].head)];
}

static int order_lit(const polygraph *g, const pairmap *pm, int cons_var0, uint32_t a, uint32_t b) {
    const pg_index *ix = g->ix;
    if (pg_unit_is_init(ix, a)) return INT32_MAX;   /* INIT's unit is first */
    if (pg_unit_is_init(ix, b)) return 0;
    uint32_t x = pair_of(pm, a, b);
    if (x != UINT32_MAX) return cons_var0 + (int)x;
    if ((x = pair_of(pm, b, a)) != UINT32_MAX) return -(cons_var0 + (int)x);
    return topo_before(g, a, b) ? INT32_MAX : 0;
}

/* order_lit(g, pm, 1, a, b) == INT32_MAX (unit a always before unit b),
 * with the known graph's order asked before the map: the overwritten and
 * covered tests ask it of every unit of a key. */
static int always_before(const polygraph *g, const pairmap *pm, uint32_t a, uint32_t b) {
    const pg_index *ix = g->ix;
    if (pg_unit_is_init(ix, a)) return 1;
    if (pg_unit_is_init(ix, b)) return 0;
    return topo_before(g, a, b) && pair_of(pm, a, b) == UINT32_MAX && pair_of(pm, b, a) == UINT32_MAX;
}

/* Writer wt's version of key k is surely overwritten before reader rt's
 * snapshot: a version known to come after it (its unit's next member, or
 * the head of a unit decided after its unit) reaches rt's start in the
 * known graph, so the RW edge rt -> that version would close a cycle. */
static int overwritten_before(const polygraph *g, const pairmap *pairs, uint32_t rt, uint32_t k, uint32_t wt) {
    const pg_index *ix = g->ix;
    uint32_t unit, m;
    if (!find_member(ix, k, wt, &unit, &m)) return 0;
    const pg_unit *un = &ix->units.data[unit];
    uint32_t tp = pg_node_tp(g, rt);
    if (m + 1 < pg_unit_len(un)) {
        uint32_t nx = ix->members.data[un->m_first + m + 1];
        return nx != rt && pg_reaches(g, pg_node_t(g, nx), tp);
    }
    for (uint32_t v = ix->key_unit_start[k]; v < ix->key_unit_start[k + 1]; v++) {
        uint32_t hd = ix->units.data[v].head;
        if (v == unit || hd == rt) continue;
        if (always_before(g, pairs, unit, v) && pg_reaches(g, pg_node_t(g, hd), tp)) return 1;
    }
    return 0;
}

/* rr's views (choice.h): the facts that have one, when the level is rr. */
static uint32_t num_views(const polygraph *g) {
    const history_preds *p = g->ix->h->preds;
    uint32_t n = 0;
    if (!g->prw || !p) return 0;
    for (size_t i = 0; i < p->facts.len; i++) n += pred_fact_is_view(&p->facts.data[i]);
    return n;
}

/* Read i's reader and key (HISTORY_NONE: none, no edges) and its possible
 * write ops (an ambiguous read's, or a view's versions') into *w. */
static void read_of(const polygraph *g, uint32_t i, uint32_t *rt, uint32_t *key, vec_u32 *w) {
    const history *h = g->ix->h;
    vec_clear(*w);
    *rt = *key = HISTORY_NONE;
    if (i < h->num_amb) {
        uint32_t r = h->amb_read[i];
        if (history_op_failed(h, r)) return;                       /* set aside: no edges */
        if (g->prw && preds_is_rc_view_op(h, r)) return;           /* rr: rc's own view is inert (rr has its own) */
        *rt = history_op_txn(h, r); *key = h->op_key[r];
        for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1]; j++) vec_push(*w, h->amb_why[j] ? HISTORY_NONE : h->amb_cand[j]);
        return;
    }
    const history_preds *p = h->preds;
    uint32_t v = i - h->num_amb;
    for (size_t f = 0; f < p->facts.len; f++) {
        const pred_fact *x = &p->facts.data[f];
        if (!pred_fact_is_view(x) || v--) continue;
        uint32_t t = p->reads.data[x->read].txn;
        if (t == HISTORY_NONE || t >= h->num_txns) return;
        *rt = t; *key = x->key;
        for (uint32_t j = 0; j < x->vn; j++) {
            int64_t val = p->view_vals.data[x->vfirst + j];
            uint32_t op = val == VALUE_INIT ? x->key : history_writer_of(h, x->key, val);   /* INIT's op k writes key k */
            if (op != HISTORY_NONE) vec_push(*w, op);
        }
        return;
    }
}

pg_choice *pg_choice_build(const polygraph *g) {
    const pg_index *ix = g->ix;
    const history *h = ix->h;
    uint32_t nv = num_views(g);
    if (!h->num_amb && !nv) return NULL;
    pg_choice *c = xcalloc(1, sizeof *c);
    c->n = h->num_amb + nv;
    c->namb = h->num_amb;
    c->start = xmalloc(((size_t)c->n + 1) * sizeof *c->start);
    c->rtxn = xmalloc(((size_t)c->n + 1) * sizeof *c->rtxn);
    c->rkey = xmalloc(((size_t)c->n + 1) * sizeof *c->rkey);
    vec_u32 cand; vec_init(cand);
    vec_u32 ws; vec_init(ws);
    pairmap pairs;
    pairs_build(g, &pairs);
    for (uint32_t i = 0; i < c->n; i++) {
        c->start[i] = (uint32_t)cand.len;
        uint32_t rt, key;
        read_of(g, i, &rt, &key, &ws);
        if (rt != HISTORY_NONE && !ix->in_graph[rt]) rt = HISTORY_NONE;   /* a non-participant's read: no edges */
        c->rtxn[i] = rt; c->rkey[i] = key;
        if (rt == HISTORY_NONE) continue;
        for (size_t j = 0; j < ws.len; j++) {
            uint32_t w = ws.data[j], wt = w == HISTORY_NONE ? 0 : history_op_txn(h, w);
            if (w == HISTORY_NONE || !ix->in_graph[wt]) { c->dropped += w != HISTORY_NONE; continue; }
            /* rr: a predicate-only reader's (or a view's) RW edges are predicate anti-dependencies,
             * which may close a cycle (not dropped as overwritten); its WR edge closing one closes a
             * forbidden one */
            int prw = g->prw && (i >= c->namb || pg_rw_lazy(g, pg_node_tp(g, rt), key));
            if (g->reach && (pg_reaches(g, pg_node_tp(g, rt), pg_node_t(g, wt))
                             || (!prw && overwritten_before(g, &pairs, rt, key, wt)))) {
                c->dropped++;
                continue;
            }
            vec_push(cand, w);
        }
    }
    vec_free(ws);
    pairs_free(&pairs);
    c->start[c->n] = (uint32_t)cand.len;
    c->cand = cand.data;
    return c;
}

/* Per key, its units by the known graph's position of their head (the
 * order the pairs decided by the known graph follow). */
typedef struct up { uint32_t pos, unit; } up;
static int cmp_up(const void *a, const void *b) {
    const up *x = a, *y = b;
    return x->pos != y->pos ? (x->pos > y->pos) - (x->pos < y->pos) : (x->unit > y->unit) - (x->unit < y->unit);
}
static uint32_t *units_by_head(const polygraph *g) {
    const pg_index *ix = g->ix;
    size_t nu = ix->units.len;
    uint32_t *out = xmalloc((nu ? nu : 1) * sizeof *out);
    VEC(up) tmp; vec_init(tmp);
    for (uint32_t k = 0; k < ix->num_keys; k++) {
        uint32_t s = ix->key_unit_start[k], e = ix->key_unit_start[k + 1];
        vec_clear(tmp);
        for (uint32_t u = s; u < e; u++) {
            up x = { g->topo_pos[pg_node_t(g, ix->units.data[u].head)], u };
            vec_push(tmp, x);
        }
        if (tmp.len > 1) qsort(tmp.data, tmp.len, sizeof *tmp.data, cmp_up);
        for (size_t i = 0; i < tmp.len; i++) out[s + i] = tmp.data[i].unit;
    }
    vec_free(tmp);
    return out;
}

/* Candidate q's RW edge to V's head is implied: q already has an edge to
 * the head of a unit K decided after its own and decided before V (the
 * known graph leads from K's head to V's; any model has head(K) before
 * head(V)), so a cycle through the edge to V has one through K's. */
static int covered(const polygraph *g, const pairmap *pairs, const vec_u32 *kept, uint32_t q, uint32_t v) {
    for (size_t i = 0; i < kept->len; i += 2)
        if (kept->data[i] == q && always_before(g, pairs, kept->data[i + 1], v)) return 1;
    return 0;
}

static void add_clause(pg_choice *c, const graph_sink *k, const int *lits, int n) {
    gs_add_clause(k, lits, n);
    for (int i = 0; i < n; i++) vec_push(c->clauses, lits[i]);
    vec_push(c->clauses, 0);
}

int pg_choice_clauses_hold(const pg_choice *c, int (*value)(void *, int), void *ctx) {
    int sat = 0;
    vec_foreach(const int, l, c->clauses) {
        if (!*l) { if (!sat) return 0; sat = 0; continue; }
        if (!sat) sat = (*l > 0 ? value(ctx, *l) : -value(ctx, -*l)) > 0;
    }
    return 1;
}

static void edge(pg_choice *c, const polygraph *g, const graph_sink *k, int graph, uint32_t a, uint32_t b, int lit, int rw,
                 uint32_t key, uint64_t *edges) {
    pg_choice_edge e = { a, b, lit, rw, key };
    vec_push(c->edges, e);
    if (rw == 2 || (rw && pg_rw_lazy(g, a, key))) return;   /* psi, rr's predicate anti-dependencies: lazily (psi.c) */
    gs_add_edge(k, graph, (int)g->topo_pos[a], (int)g->topo_pos[b], lit);
    (*edges)++;
}

void pg_choice_encode(pg_choice *c, const polygraph *g, const graph_sink *k, int graph, int cons_var0, uint64_t *edges) {
    const pg_index *ix = g->ix;
    const history *h = ix->h;
    pairmap pairs;
    pairs_build(g, &pairs);
    c->var0 = gs_num_vars(k) + 1;
    vec_clear(c->edges);
    vec_clear(c->clauses);
    uint32_t total = c->start[c->n];
    if (total) gs_reserve_vars(k, c->var0 - 1 + (int)total);
    vec_int clause; vec_init(clause);
    vec_u32 last; vec_init(last);            /* candidates (index j) that are last of their unit, and the unit */
    vec_u32 kept; vec_init(kept);            /* (q, V): V decided after candidate q's unit, with its edge */
    vec_u32 need; vec_init(need);            /* this V's (q, order literal) */
    uint32_t *byhead = units_by_head(g);
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t rt = c->rtxn[i], key = c->rkey[i];
        int rw = i >= c->namb ? 2 : 1;                   /* a view's RW edges: predicate anti-dependencies */
        if (rt == HISTORY_NONE) continue;
        vec_clear(clause);
        for (uint32_t j = c->start[i]; j < c->start[i + 1]; j++) vec_push(clause, c->var0 + (int)j);
        add_clause(c, k, clause.data, (int)clause.len);   /* at least one writer (none left: empty, the level fails) */
        vec_clear(last);
        for (uint32_t j = c->start[i]; j < c->start[i + 1]; j++) {
            int x = c->var0 + (int)j;
            uint32_t wt = history_op_txn(h, c->cand[j]), unit, m;
            edge(c, g, k, graph, pg_node_t(g, wt), pg_node_tp(g, rt), x, 0, key, edges);            /* WR */
            if (!find_member(ix, key, wt, &unit, &m)) continue;
            const pg_unit *un = &ix->units.data[unit];
            if (m + 1 < pg_unit_len(un)) {                                                         /* RW to the next member */
                uint32_t nx = ix->members.data[un->m_first + m + 1];
                if (nx != rt) edge(c, g, k, graph, pg_node_tp(g, rt), pg_node_t(g, nx), x, rw, key, edges);
                continue;
            }
            vec_push(last, j); vec_push(last, unit);
        }
        uint32_t n = c->start[i + 1] - c->start[i];
        vec_clear(kept);
        for (uint32_t p = ix->key_unit_start[key]; p < ix->key_unit_start[key + 1]; p++) {  /* RW to later units */
            uint32_t v = byhead[p], hd = ix->units.data[v].head;
            if (hd == rt) continue;
            uint32_t contrib = 0, decided = 0, one = 0;
            vec_clear(need);
            for (size_t q = 0; q < last.len; q += 2) {
                if (last.data[q + 1] == v) continue;
                int o = order_lit(g, &pairs, cons_var0, last.data[q + 1], v);
                if (o == 0 || covered(g, &pairs, &kept, (uint32_t)q, v)) continue;
                if (o == INT32_MAX) { vec_push(kept, (uint32_t)q); vec_push(kept, v); }
                vec_push(need, (uint32_t)q); vec_push(need, (uint32_t)o);
                contrib++; decided += o == INT32_MAX; one = last.data[q];
            }
            if (!contrib) continue;
            int lit;
            if (decided == n) {                       /* after every candidate: always, a guard fixed true */
                lit = gs_new_var(k);                  /* (not an unguarded edge: those must go forward in */
                add_clause(c, k, &lit, 1);            /* the engine's initial order, and this one may not) */
            }
            else if (contrib == 1 && decided == 1) lit = c->var0 + (int)one;
            else {
                lit = gs_new_var(k);                                      /* y_V */
                for (size_t e = 0; e < need.len; e += 2) {
                    int o = (int)need.data[e + 1];
                    int cl[3] = { -(c->var0 + (int)last.data[need.data[e]]), lit, o == INT32_MAX ? 0 : -o };
                    add_clause(c, k, cl, o == INT32_MAX ? 2 : 3);
                }
            }
            edge(c, g, k, graph, pg_node_tp(g, rt), pg_node_t(g, hd), lit, rw, key, edges);
        }
    }
    c->var_end = gs_num_vars(k) + 1;
    free(byhead);
    vec_free(kept);
    vec_free(need);
    vec_free(last);
    vec_free(clause);
    pairs_free(&pairs);
}

void pg_choice_phases(const pg_choice *c, const polygraph *g, void (*set)(void *, int, int), void *ctx) {
    const history *h = g->ix->h;
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t a = c->start[i], b = c->start[i + 1], best = a, bp = 0, rp;
        if (a == b) continue;
        rp = g->topo_pos[pg_node_tp(g, c->rtxn[i])];
        for (uint32_t j = a; j < b; j++) {
            uint32_t p = g->topo_pos[pg_node_t(g, history_op_txn(h, c->cand[j]))];
            if (p < rp && p >= bp) { bp = p; best = j; }
        }
        for (uint32_t j = a; j < b; j++) set(ctx, c->var0 + (int)j, j == best);
    }
    for (int v = c->var0 + (int)c->start[c->n]; v < c->var_end; v++) set(ctx, v, 0);
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
