/* interpret_facts.c — questions the interpreter asks about one transaction
 * or version (its external read, the version it read, a list read that
 * shows an order), and the version order repaired to agree with the
 * checker's forced WW edges (interpret_internal.h). */
#include "frontend/reports/interpret_internal.h"

#include <stdlib.h>
#include <string.h>

#include "par.h"

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
    return f == NONE ? NONE : ictx_version_of(c, key, t);
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
 * the rest of its order as given.  Keys are independent, each writing its
 * own slice of out: ranges of keys (about equal versions and forced edges)
 * are tasks on the pool, each with its own map of positions. */
typedef struct repair_job {
    const history *h;
    const version_order *vo;
    const dep_edge *forced;
    const uint32_t *fs, *fe;     /* per key its forced WW edges: fe[fs[k] .. fs[k + 1]) */
    const uint32_t *range;       /* task i: keys range[i] .. range[i + 1] - 1 */
    version_order *out;
} repair_job;

static void repair_task(void *ctx, size_t task) {
    const repair_job *j = ctx;
    const history *h = j->h;
    const version_order *vo = j->vo;
    uint32_t *loc = NULL;
    dg_arc_vec arcs; vec_init(arcs);
    vec_u32 order; vec_init(order);
    for (uint32_t k = j->range[task]; k < j->range[task + 1]; k++) {
        if (j->fs[k] == j->fs[k + 1]) continue;
        if (!loc) loc = xcalloc((size_t)h->num_txns + 1, sizeof *loc);   /* position + 1, 0: none (untouched pages stay unmapped) */
        uint32_t a = vo->start[k], w = vo->start[k + 1] - a;
        for (uint32_t i = 0; i < w; i++) loc[vo->txns.data[a + i]] = i + 1;
        vec_clear(arcs);
        int forward = 1;
        for (uint32_t f = j->fs[k]; f < j->fs[k + 1]; f++) {
            const dep_edge *e = &j->forced[j->fe[f]];
            if (e->from >= h->num_txns || e->to >= h->num_txns || !loc[e->from] || !loc[e->to]) continue;
            dg_arc arc = { loc[e->from] - 1, loc[e->to] - 1, DG_NONE };
            forward &= arc.from < arc.to;
            vec_push(arcs, arc);
        }
        /* Every forced edge goes forward (the common case: the order was read
         * off a graph holding them): the order below is the given one (the
         * earliest unplaced writer has all its predecessors placed, so it is
         * the earliest ready), which out holds already. */
        if (forward) {
            for (uint32_t i = 0; i < w; i++) loc[vo->txns.data[a + i]] = 0;
            continue;
        }
        /* the earliest ready writer first; on a cycle of forced edges the earliest left */
        dg_graph g;
        dg_build(&g, w, arcs.data, arcs.len, 0);
        vec_resize(order, w);
        dg_topo_order(&g, 1, 1, order.data);
        dg_free(&g);
        uint32_t *out = j->out->txns.data + a;
        for (uint32_t i = 0; i < w; i++) out[i] = vo->txns.data[a + order.data[i]];
        /* INIT must stay first: if a forced edge put something before it, restore the original order */
        if (out[0] != 0) for (uint32_t i = 0; i < w; i++) out[i] = vo->txns.data[a + i];
        for (uint32_t i = 0; i < w; i++) loc[vo->txns.data[a + i]] = 0;
    }
    vec_free(arcs); vec_free(order);
    free(loc);
}

void interp_repair_vo(const history *h, const version_order *vo, const dep_edge *forced, size_t nf, version_order *out,
                      struct par_pool *pool, int prio) {
    uint32_t nk = vo->num_keys;
    out->num_keys = nk;
    out->start = xmalloc(((size_t)nk + 1) * sizeof *out->start);
    memcpy(out->start, vo->start, ((size_t)nk + 1) * sizeof *out->start);
    vec_init(out->txns);
    vec_reserve(out->txns, vo->txns.len);
    if (vo->txns.len) memcpy(out->txns.data, vo->txns.data, vo->txns.len * sizeof *vo->txns.data);
    out->txns.len = vo->txns.len;
    /* forced WW edges grouped by key */
    uint32_t *fs = xcalloc((size_t)nk + 1, sizeof *fs);
    for (size_t i = 0; i < nf; i++) if (forced[i].kind == DEP_WW && forced[i].key < nk) fs[forced[i].key + 1]++;
    for (uint32_t k = 0; k < nk; k++) fs[k + 1] += fs[k];
    uint32_t *fe = xmalloc((fs[nk] + 1) * sizeof *fe), *fill = xmalloc(((size_t)nk + 1) * sizeof *fill);
    memcpy(fill, fs, ((size_t)nk + 1) * sizeof *fill);
    for (size_t i = 0; i < nf; i++) if (forced[i].kind == DEP_WW && forced[i].key < nk) fe[fill[forced[i].key]++] = (uint32_t)i;
    free(fill);
    /* key ranges of about equal work (versions plus forced edges): one a
     * thread when there is enough (each range maps positions over every
     * transaction), else one */
    uint64_t total = (uint64_t)vo->start[nk] + fs[nk];
    unsigned th = par_pool_threads(pool);
    uint32_t n = interpret_ranges ? interpret_ranges : th > 1 && fs[nk] && total >= 65536 ? th : 1;
    if (n > nk) n = nk ? nk : 1;
    uint32_t *range = xmalloc(((size_t)n + 1) * sizeof *range), k = 0;
    for (uint32_t i = 0; i < n; i++) {
        range[i] = k;
        uint64_t until = total * (i + 1) / n;
        while (k < nk && (i + 1 == n || (uint64_t)vo->start[k + 1] + fs[k + 1] <= until)) k++;
    }
    range[n] = nk;
    repair_job job = { h, vo, forced, fs, fe, range, out };
    par_pool_run_prio(n > 1 ? pool : NULL, prio, n, repair_task, &job);
    free(range); free(fs); free(fe);
}

void ictx_free(ictx *c) {
    free(c->part);
    free(c->vsort);
    u64map_free(&c->lpos);
    free(c->lr_start); vec_free(c->lr);
    vec_free(c->init_rd); vec_free(c->rmw_rd);
    dg_free(&c->g);
    if (c->strict_built) dg_free(&c->strict_g);
    free(c->cls);
    free((void *)c->holds);
    version_order_free(&c->own_vo);
}
