/* verify_model.c — rebuild the dependency graph of a history under a given
 * version order, by definition, and check it for cycles (see the header).
 * Shares nothing with the polygraph code but the dep_edge type. */
#include "frontend/verify_model.h"

#include <stdlib.h>
#include <string.h>

void version_order_free(version_order *vo) {
    free(vo->start);
    vec_free(vo->txns);
    vo->start = NULL;
    vo->num_keys = 0;
}

static int participates(const history *h, const uint8_t *observed, uint32_t t) {
    return t == 0 || h->txns[t].status == TXN_COMMITTED || (h->txns[t].status == TXN_INDETERMINATE && observed[t]);
}

static uint8_t *observed_txns(const history *h) {
    uint8_t *obs = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    int any = 0;       /* only indeterminate writers need it */
    for (uint32_t t = 1; t < h->num_txns && !any; t++) any = h->txns[t].status == TXN_INDETERMINATE;
    for (uint32_t op = 0; any && op < h->num_ops; op++) {
        if (!history_op_is_read(h, op) || h->txns[h->op_txn[op]].status != TXN_COMMITTED) continue;
        uint32_t src = history_read_source(h, op);
        if (src != HISTORY_NONE) obs[h->op_txn[src]] = 1;
    }
    return obs;
}

static long vo_index(const version_order *vo, uint32_t key, uint32_t t) {
    if (key >= vo->num_keys) return -1;
    for (uint32_t i = vo->start[key]; i < vo->start[key + 1]; i++)
        if (vo->txns.data[i] == t) return (long)(i - vo->start[key]);
    return -1;
}

int dep_holds(const history *h, const version_order *vo, const dep_edge *e, char *why, size_t wl) {
    uint8_t *obs = observed_txns(h);
    int ok = 0;
    if (e->from >= h->num_txns || e->to >= h->num_txns) { snprintf(why, wl, "no such transaction"); goto out; }
    if (!participates(h, obs, e->from) || !participates(h, obs, e->to)) {
        snprintf(why, wl, "T%u or T%u did not commit", e->from, e->to); goto out;
    }
    switch (e->kind) {
    case DEP_SO:
        ok = e->from != 0 && h->txns[e->from].session == h->txns[e->to].session &&
             h->txns[e->from].pos < h->txns[e->to].pos;
        if (!ok) snprintf(why, wl, "T%u is not before T%u in one session", e->from, e->to);
        break;
    case DEP_WR: {
        uint32_t op = history_txn_external_read(h, e->to, e->key);
        uint32_t src = op == HISTORY_NONE ? HISTORY_NONE : history_read_source(h, op);
        ok = src != HISTORY_NONE && h->op_txn[src] == e->from;
        if (!ok) snprintf(why, wl, "T%u does not read key %u from T%u", e->to, e->key, e->from);
        break;
    }
    case DEP_WW: {
        long a = vo_index(vo, e->key, e->from), b = vo_index(vo, e->key, e->to);
        ok = a >= 0 && b >= 0 && a < b;
        if (!ok) snprintf(why, wl, "T%u's version of key %u is not before T%u's", e->from, e->key, e->to);
        break;
    }
    case DEP_RW: {
        uint32_t op = history_txn_external_read(h, e->from, e->key);
        uint32_t src = op == HISTORY_NONE ? HISTORY_NONE : history_read_source(h, op);
        long a = src == HISTORY_NONE ? -1 : vo_index(vo, e->key, h->op_txn[src]);
        long b = vo_index(vo, e->key, e->to);
        ok = e->from != e->to && a >= 0 && b >= 0 && a < b;
        if (!ok) snprintf(why, wl, "T%u does not read a version of key %u older than T%u's", e->from, e->key, e->to);
        break;
    }
    default:
        snprintf(why, wl, "unknown dependency kind");
    }
out:
    free(obs);
    return ok;
}

int cycle_holds(const history *h, const version_order *vo, int si,
                const dep_edge *c, size_t n, char *why, size_t wl) {
    if (n == 0) { snprintf(why, wl, "empty cycle"); return 0; }
    for (size_t i = 0; i < n; i++) {
        if (!dep_holds(h, vo, &c[i], why, wl)) return 0;
        if (c[i].to != c[(i + 1) % n].from) { snprintf(why, wl, "edges %zu and %zu do not meet", i, (i + 1) % n); return 0; }
        if (si && c[i].kind == DEP_RW && c[(i + 1) % n].kind == DEP_RW) {
            snprintf(why, wl, "two adjacent RW edges (allowed under SI)"); return 0;
        }
    }
    if (si) {
        size_t rw = 0;
        for (size_t i = 0; i < n; i++) rw += c[i].kind == DEP_RW;
        if (rw == n) { snprintf(why, wl, "only RW edges"); return 0; }
    }
    return 1;
}

/* A list read shows the versions of key k up to the one it read: its
 * elements' writers (one per run of appends by one transaction) must be
 * the first versions after INIT, in order. */
static int list_matches(const history *h, const version_order *vo, uint32_t op, uint32_t k, const uint32_t *vpos) {
    uint32_t len;
    const int64_t *els = history_list(h, op, &len);
    uint32_t idx = 0, prev = 0;
    for (uint32_t j = 0; j < len; j++) {
        uint32_t wop = history_writer_of(h, k, els[j]);
        if (wop == HISTORY_NONE) return 0;
        uint32_t w = h->op_txn[wop];
        if (w == prev && j) continue;
        idx++;
        if (vo->start[k] + idx >= vo->start[k + 1] || vo->txns.data[vo->start[k] + idx] != w) return 0;
        prev = w;
    }
    (void)vpos;
    return 1;
}

/* ---- the graph -------------------------------------------------------- */

typedef struct vgraph {
    uint32_t n;
    VEC(uint32_t) from, to, meta;    /* meta: key << 3 | kind */
    uint32_t *start, *adj, *adj_meta;
} vgraph;

static void vg_edge(vgraph *g, int si, dep_kind kind, uint32_t key, uint32_t a, uint32_t b) {
    uint32_t x, y;
    if (!si) { x = a; y = b; }
    else if (kind == DEP_RW) { x = 2 * a + 1; y = 2 * b; }
    else if (kind == DEP_FIXED) { x = 2 * a + 1; y = 2 * a; }
    else { x = 2 * a; y = 2 * b + 1; }
    vec_push(g->from, x); vec_push(g->to, y); vec_push(g->meta, (key << 3) | (uint32_t)kind);
}

static void vg_finish(vgraph *g) {
    g->start = xcalloc((size_t)g->n + 1, sizeof *g->start);
    for (size_t i = 0; i < g->from.len; i++) g->start[g->from.data[i] + 1]++;
    for (uint32_t u = 0; u < g->n; u++) g->start[u + 1] += g->start[u];
    size_t m = g->from.len ? g->from.len : 1;
    g->adj = xmalloc(m * sizeof *g->adj);
    g->adj_meta = xmalloc(m * sizeof *g->adj_meta);
    uint32_t *fill = xmalloc(((size_t)g->n + 1) * sizeof *fill);
    memcpy(fill, g->start, ((size_t)g->n + 1) * sizeof *fill);
    for (size_t i = 0; i < g->from.len; i++) {
        uint32_t j = fill[g->from.data[i]]++;
        g->adj[j] = g->to.data[i];
        g->adj_meta[j] = g->meta.data[i];
    }
    free(fill);
}

static void vg_free(vgraph *g) {
    vec_free(g->from); vec_free(g->to); vec_free(g->meta);
    free(g->start); free(g->adj); free(g->adj_meta);
}

/* Iterative DFS; on a back edge returns 1 and the cycle's nodes in *cyc. */
static int vg_find_cycle(const vgraph *g, vec_u32 *cyc) {
    uint8_t *color = xcalloc(g->n ? g->n : 1, 1);
    uint32_t *it = xmalloc((g->n ? g->n : 1) * sizeof *it);
    vec_u32 stack; vec_init(stack);
    int found = 0;
    for (uint32_t s = 0; s < g->n && !found; s++) {
        if (color[s]) continue;
        vec_push(stack, s); color[s] = 1; it[s] = g->start[s];
        while (stack.len && !found) {
            uint32_t u = vec_last(stack);
            if (it[u] < g->start[u + 1]) {
                uint32_t v = g->adj[it[u]++];
                if (color[v] == 0) { color[v] = 1; it[v] = g->start[v]; vec_push(stack, v); }
                else if (color[v] == 1) {
                    size_t i = stack.len;
                    while (stack.data[--i] != v) {}
                    for (; i < stack.len; i++) vec_push(*cyc, stack.data[i]);
                    found = 1;
                }
            } else { color[u] = 2; stack.len--; }
        }
        vec_clear(stack);
    }
    vec_free(stack); free(color); free(it);
    return found;
}

/* Shortest cycle through s (BFS), as nodes; 0 if none. */
static int vg_shortest_through(const vgraph *g, uint32_t s, uint32_t *parent, uint32_t *queue, vec_u32 *out) {
    for (uint32_t u = 0; u < g->n; u++) parent[u] = UINT32_MAX;
    uint32_t qh = 0, qt = 0;
    queue[qt++] = s;
    parent[s] = s;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
            uint32_t v = g->adj[j];
            if (v == s) {
                vec_clear(*out);
                for (uint32_t x = u; ; x = parent[x]) { vec_push(*out, x); if (x == s) break; }
                for (size_t a = 0, b = out->len - 1; a < b; a++, b--) {
                    uint32_t t = out->data[a]; out->data[a] = out->data[b]; out->data[b] = t;
                }
                return 1;
            }
            if (parent[v] == UINT32_MAX) { parent[v] = u; queue[qt++] = v; }
        }
    }
    return 0;
}

static void nodes_to_deps(const vgraph *g, int si, const vec_u32 *cyc, dep_edge_vec *out) {
    vec_clear(*out);
    for (size_t i = 0; i < cyc->len; i++) {
        uint32_t a = cyc->data[i], b = cyc->data[(i + 1) % cyc->len];
        uint32_t meta = UINT32_MAX;
        for (uint32_t j = g->start[a]; j < g->start[a + 1]; j++)
            if (g->adj[j] == b) { meta = g->adj_meta[j]; break; }
        dep_kind k = (dep_kind)(meta & 7u);
        if (k == DEP_FIXED) continue;
        dep_edge e = { si ? a >> 1 : a, si ? b >> 1 : b, meta >> 3, (uint8_t)k };
        if (k == DEP_SO) e.key = HISTORY_NONE;
        vec_push(*out, e);
    }
}

int vo_check(const history *h, const version_order *vo, int si,
             dep_edge_vec *cycle, char *why, size_t wl) {
    uint8_t *obs = observed_txns(h);
    vgraph g; memset(&g, 0, sizeof g);
    g.n = si ? 2 * h->num_txns : h->num_txns;
    int rc = -1;
    uint32_t *mark = xmalloc((h->num_txns ? h->num_txns : 1) * sizeof *mark);   /* txn -> key being listed */
    for (uint32_t t = 0; t < h->num_txns; t++) mark[t] = UINT32_MAX;
    uint32_t *vpos = xmalloc((h->num_ops ? h->num_ops : 1) * sizeof *vpos);     /* final write op -> version index */
    uint32_t *lastop = xmalloc((h->num_txns ? h->num_txns : 1) * sizeof *lastop); /* txn -> last write of the key */
    for (uint32_t op = 0; op < h->num_ops; op++) vpos[op] = UINT32_MAX;
    if (vo->num_keys != h->num_keys) { snprintf(why, wl, "version order has %u keys, history %u", vo->num_keys, h->num_keys); goto out; }

    /* SO and fixed edges */
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = UINT32_MAX;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!participates(h, obs, t)) continue;
            if (prev != UINT32_MAX) vg_edge(&g, si, DEP_SO, HISTORY_NONE >> 3, prev, t);
            prev = t;
        }
    }
    if (si)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (participates(h, obs, t)) vg_edge(&g, si, DEP_FIXED, 0, t, t);

    /* per key: the version order must list exactly the writers; vpos maps
     * each listed writer's final write op to its version index */
    for (uint32_t k = 0; k < h->num_keys; k++) {
        uint32_t a = vo->start[k], b = vo->start[k + 1];
        if (b <= a || b > vo->txns.len || vo->txns.data[a] != 0) {
            snprintf(why, wl, "key %u: the version order does not start with INIT", k); goto out;
        }
        uint32_t nwriters = 0;
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t op = h->key_writes[i], t = h->op_txn[op];
            if (t == 0 || !participates(h, obs, t)) continue;
            if (mark[t] != k) { mark[t] = k; lastop[t] = op; nwriters++; }
            else if (op > lastop[t]) lastop[t] = op;          /* a transaction installs its last write */
        }
        if (b - a - 1 != nwriters) {
            snprintf(why, wl, "key %u: the version order has %u writers, the history %u", k, b - a - 1, nwriters); goto out;
        }
        vpos[k] = 0;                     /* INIT's op for key k is op k */
        for (uint32_t i = a + 1; i < b; i++) {
            uint32_t t = vo->txns.data[i];
            if (t == 0 || t >= h->num_txns || mark[t] != k) {
                snprintf(why, wl, "key %u: bad or repeated writer T%u in the version order", k, t); goto out;
            }
            mark[t] = UINT32_MAX;        /* listed: a repeat is caught above */
            vpos[lastop[t]] = i - a;
            vg_edge(&g, si, DEP_WW, k, vo->txns.data[i - 1], t);
        }
    }
    /* reads: per transaction and key the external read: WR from its
     * source, RW to the version right after the one it read */
    {
        uint32_t *seen = xmalloc((h->num_keys ? h->num_keys : 1) * sizeof *seen);
        for (uint32_t k = 0; k < h->num_keys; k++) seen[k] = UINT32_MAX;
        for (uint32_t t = 1; t < h->num_txns; t++) {
            if (!participates(h, obs, t)) continue;
            const history_txn *tx = &h->txns[t];
            for (uint32_t i = 0; i < tx->num_ops; i++) {
                uint32_t op = tx->first_op + i, k = h->op_key[op];
                if (seen[k] == t) continue;
                if (history_op_is_write(h, op)) { seen[k] = t; continue; }
                if (!history_op_is_read(h, op)) continue;
                seen[k] = t;
                uint32_t src = history_read_source(h, op);
                uint32_t w = src == HISTORY_NONE ? HISTORY_NONE : h->op_txn[src];
                /* vpos is set exactly for the listed writers' last writes */
                if (w == HISTORY_NONE || w == t || !participates(h, obs, w) || vpos[src] == UINT32_MAX) {
                    snprintf(why, wl, "T%u's read of key %u has no committed final write as its source", t, k);
                    free(seen); goto out;
                }
                if (history_op_kind(h, op) == OP_LIST_READ && !list_matches(h, vo, op, k, vpos)) {
                    snprintf(why, wl, "T%u's list read of key %u disagrees with the version order", t, k);
                    free(seen); goto out;
                }
                if (w != 0) vg_edge(&g, si, DEP_WR, k, w, t);
                uint32_t nx = vo->start[k] + vpos[src] + 1;
                if (nx < vo->start[k + 1] && vo->txns.data[nx] != t) vg_edge(&g, si, DEP_RW, k, t, vo->txns.data[nx]);
            }
        }
        free(seen);
    }
    vg_finish(&g);
    vec_u32 cyc; vec_init(cyc);
    if (!vg_find_cycle(&g, &cyc)) { rc = 1; vec_free(cyc); goto out; }
    rc = 0;
    if (cycle) {
        /* shorten: the shortest cycle through each node of the one found */
        uint32_t *parent = xmalloc((size_t)g.n * sizeof *parent), *queue = xmalloc((size_t)g.n * sizeof *queue);
        vec_u32 best, cur; vec_init(best); vec_init(cur);
        size_t budget = (size_t)2e8 / ((size_t)g.n + g.from.len + 1) + 1;
        size_t tries = cyc.len < 64 ? cyc.len : 64;
        if (tries > budget) tries = budget;
        for (size_t i = 0; i < tries; i++)
            if (vg_shortest_through(&g, cyc.data[i], parent, queue, &cur) && (!best.len || cur.len < best.len)) {
                vec_clear(best);
                for (size_t j = 0; j < cur.len; j++) vec_push(best, cur.data[j]);
            }
        nodes_to_deps(&g, si, best.len ? &best : &cyc, cycle);
        free(parent); free(queue); vec_free(best); vec_free(cur);
    }
    vec_free(cyc);
out:
    vg_free(&g);
    free(mark);
    free(vpos);
    free(lastop);
    free(obs);
    return rc;
}
