/* interpret_facts.c — questions the interpreter asks about one transaction
 * or version (its external read, the version it read, a list read that
 * shows an order), and the version order repaired to agree with the
 * checker's forced WW edges (interpret_internal.h). */
#include "frontend/reports/interpret_internal.h"

#include <stdlib.h>
#include <string.h>

void interp_node_pair(int split, const dep_edge *e, uint32_t *x, uint32_t *y) {
    dg_dep_nodes(split, (dep_kind)e->kind, e->from, e->to, x, y);
}

void interp_push_dep(dep_edge_vec *v, dep_kind kind, uint32_t key, uint32_t from, uint32_t to) {
    dep_edge e = { from, to, kind == DEP_SO || kind == DEP_RT ? HISTORY_NONE : key, (uint8_t)kind };
    vec_push(*v, e);
}

uint32_t ictx_ext_read(const ictx *c, uint32_t t, uint32_t key, uint32_t *own) {
    const history *h = c->h;
    if (own) *own = 0;
    if (t == 0 || t >= h->num_txns || !c->part[t]) return NONE;
    const history_txn *tx = &h->txns[t];
    uint32_t apps = 0;
    for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
        if (h->op_key[op] != key || history_op_failed(h, op)) continue;
        if (history_op_kind(h, op) == OP_APPEND) { apps++; continue; }
        if (!history_op_is_read(h, op)) return NONE;
        if (own) *own = apps;
        return op;
    }
    return NONE;
}

/* The version t's external read of key observed, as its final write op (NONE: no read, or nobody wrote it). */
static uint32_t ext_src(const ictx *c, uint32_t t, uint32_t key) {
    uint32_t own, op = ictx_ext_read(c, t, key, &own);
    return op == NONE ? NONE : history_snapshot_source(c->h, op, own);
}

/* The writer txn whose version t's external read of key observed (NONE: no read). */
uint32_t ictx_read_src(const ictx *c, uint32_t t, uint32_t key) {
    uint32_t w = ext_src(c, t, key);
    return w == NONE ? NONE : history_op_txn(c->h, w);
}

/* t's version of key: its index in vo->txns, or NONE. */
uint32_t ictx_vidx(const ictx *c, uint32_t key, uint32_t t) {
    uint32_t f = history_txn_final_write(c->h, t, key);
    return f == NONE ? NONE : c->vpos[f];
}

/* The first entry of v (sorted) whose top half is hi. */
static size_t lower_hi(const ivec_u64 *v, uint32_t hi) {
    size_t lo = 0, up = v->len;
    uint64_t x = PAIR(hi, 0);
    while (lo < up) { size_t mid = lo + (up - lo) / 2; if (v->data[mid] < x) lo = mid + 1; else up = mid; }
    return lo;
}

void ictx_readers(const ictx *c, uint32_t key, uint32_t g, vec_u32 *out) {
    const history *h = c->h;
    if (g >= c->vo->txns.len) return;
    uint32_t w = c->vo->txns.data[g];
    if (w >= h->num_txns || ictx_vidx(c, key, w) != g) return;    /* a writer's later entry: none */
    if (w == 0) {                                                  /* INIT: kept aside (no arcs) */
        for (size_t i = lower_hi(&c->init_rd, key); i < c->init_rd.len && c->init_rd.data[i] >> 32 == key; i++)
            vec_push(*out, (uint32_t)c->init_rd.data[i]);
        return;
    }
    /* w's WR arcs of key, in the order of the reads they come from */
    uint32_t x = c->si ? dg_commit(w) : w;
    for (uint32_t j = c->g.start[x]; j < c->g.start[x + 1]; j++) {
        uint32_t id = c->g.eid[j];
        if (c->cls[j] == CLS_KNOWN && id != DG_NONE && PG_KIND(id) == DEP_WR && id >> 3 == key)
            vec_push(*out, dg_node_txn(c->si, c->g.adj[j]));
    }
}

/* The edge of arc j, which leaves node u (none for a fixed arc: 0). */
int ictx_arc_edge(const ictx *c, uint32_t u, uint32_t j, dep_edge *e) {
    uint32_t id = c->g.eid[j];
    if (id == DG_NONE) return 0;
    if (c->cls[j] != CLS_KNOWN) { *e = c->forced[id]; return 1; }
    dep_kind k = PG_KIND(id);
    *e = (dep_edge){ dg_node_txn(c->si, u), dg_node_txn(c->si, c->g.adj[j]), k == DEP_SO ? HISTORY_NONE : PG_KEY(id),
                     (uint8_t)k };
    return 1;
}

int interp_forced_in_facts(const history *h, const dep_edge *e) {
    return e->from < h->num_txns && e->to < h->num_txns && e->from != e->to;
}


/* A list read of key that shows a's version before b's: it holds a's
 * elements and b's later or not at all (the shortest such read), or NONE. */
uint32_t ictx_list_shows(const ictx *c, uint32_t key, uint32_t a, uint32_t b) {
    if (!c->lr_start || key >= c->h->num_keys) return NONE;
    uint32_t pa = u64map_get(&c->lpos, PAIR(key, a));
    if (pa == NONE) return NONE;
    uint32_t pb = u64map_get(&c->lpos, PAIR(key, b));
    if (pb != NONE && pb < pa) return NONE;
    uint32_t best = NONE, best_len = UINT32_MAX, n;
    for (uint32_t i = c->lr_start[key]; i < c->lr_start[key + 1]; i++) {
        history_list(c->h, c->lr.data[i], &n);
        if (n > pa && n < best_len) { best = c->lr.data[i]; best_len = n; }
    }
    return best;
}

/* Per key, reorder vo's writers to agree with the forced WW edges of that
 * key (topological order, ties by the original position), so that cycles of
 * forced edges hold under it.  A key whose forced edges are cyclic keeps
 * the rest of its order as given. */
void interp_repair_vo(const history *h, const version_order *vo, const dep_edge *forced, size_t nf, version_order *out) {
    out->num_keys = vo->num_keys;
    out->start = xmalloc(((size_t)vo->num_keys + 1) * sizeof *out->start);
    memcpy(out->start, vo->start, ((size_t)vo->num_keys + 1) * sizeof *out->start);
    vec_init(out->txns);
    vec_reserve(out->txns, vo->txns.len);
    for (size_t i = 0; i < vo->txns.len; i++) vec_push(out->txns, vo->txns.data[i]);
    /* forced WW edges grouped by key */
    uint32_t *fs = xcalloc((size_t)vo->num_keys + 1, sizeof *fs);
    for (size_t i = 0; i < nf; i++) if (forced[i].kind == DEP_WW && forced[i].key < vo->num_keys) fs[forced[i].key + 1]++;
    for (uint32_t k = 0; k < vo->num_keys; k++) fs[k + 1] += fs[k];
    uint32_t *fe = xmalloc((fs[vo->num_keys] + 1) * sizeof *fe), *fill = xmalloc(((size_t)vo->num_keys + 1) * sizeof *fill);
    memcpy(fill, fs, ((size_t)vo->num_keys + 1) * sizeof *fill);
    for (size_t i = 0; i < nf; i++) if (forced[i].kind == DEP_WW && forced[i].key < vo->num_keys) fe[fill[forced[i].key]++] = (uint32_t)i;
    uint32_t *loc = xmalloc(h->num_txns * sizeof *loc);
    for (uint32_t t = 0; t < h->num_txns; t++) loc[t] = NONE;
    dg_arc_vec arcs; vec_init(arcs);
    vec_u32 order; vec_init(order);
    for (uint32_t k = 0; k < vo->num_keys; k++) {
        if (fs[k] == fs[k + 1]) continue;
        uint32_t a = vo->start[k], w = vo->start[k + 1] - a;
        for (uint32_t i = 0; i < w; i++) loc[vo->txns.data[a + i]] = i;
        vec_clear(arcs);
        for (uint32_t j = fs[k]; j < fs[k + 1]; j++) {
            const dep_edge *e = &forced[fe[j]];
            if (e->from >= h->num_txns || e->to >= h->num_txns || loc[e->from] == NONE || loc[e->to] == NONE) continue;
            dg_arc arc = { loc[e->from], loc[e->to], DG_NONE };
            vec_push(arcs, arc);
        }
        /* the earliest ready writer first; on a cycle of forced edges the earliest left */
        dg_graph g;
        dg_build(&g, w, arcs.data, arcs.len, 0);
        vec_resize(order, w);
        dg_topo_order(&g, 1, 1, order.data);
        dg_free(&g);
        for (uint32_t i = 0; i < w; i++) out->txns.data[a + i] = vo->txns.data[a + order.data[i]];
        /* INIT must stay first: if a forced edge put something before it, restore the original order */
        if (out->txns.data[a] != 0) for (uint32_t i = 0; i < w; i++) out->txns.data[a + i] = vo->txns.data[a + i];
        for (uint32_t i = 0; i < w; i++) loc[vo->txns.data[a + i]] = NONE;
    }
    vec_free(arcs); vec_free(order);
    free(loc); free(fs); free(fe); free(fill);
}

void ictx_free(ictx *c) {
    free(c->part);
    free(c->vpos);
    u64map_free(&c->lpos);
    free(c->lr_start); vec_free(c->lr);
    vec_free(c->init_rd); vec_free(c->rmw_rd);
    dg_free(&c->g);
    free(c->cls);
    version_order_free(&c->own_vo);
}
