/* guard_arcs.c — the guarded edges out of and into each node as arrays
 * by blocks of nodes (gcsr; the layout is described at struct gcsr in
 * acyclic_internal.h). */
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

/* Blocks up to the one of node v (empty). */
static void gcsr_cover(gcsr *g, int v) {
    int need = (v >> g->shift) + 1;
    size_t slots = ((size_t)1 << g->shift) + 1;
    if (g->nblk >= need) return;
    if (need > g->cap_blk) {
        int cap = g->cap_blk ? 2 * g->cap_blk : 4;
        if (cap < need) cap = need;
        g->blk = xrealloc(g->blk, (size_t)cap * sizeof *g->blk);
        g->start = xrealloc(g->start, (size_t)cap * slots * sizeof *g->start);
        g->cap_blk = cap;
    }
    memset(g->blk + g->nblk, 0, (size_t)(need - g->nblk) * sizeof *g->blk);
    memset(g->start + (size_t)g->nblk * slots, 0, (size_t)(need - g->nblk) * slots * sizeof *g->start);
    g->nblk = need;
}

/* Rebuild block b of one side: per node, its edges newer than the build
 * (from the list, newest first), then those of the build. */
static void gblock_build(acyclic *a, int side, int b) {
    gcsr *g = &a->gc[side];
    gblock *k = &g->blk[b];
    const int nodes = 1 << g->shift, first = b << g->shift;
    uint32_t *st = g->start + (size_t)b * ((size_t)nodes + 1);
    size_t total = (size_t)k->len + k->fresh;
    reach *arcs = xmalloc((total ? total : 1) * sizeof *arcs);
    uint32_t at = 0;
    for (int i = 0; i < nodes; i++) {
        uint32_t s = st[i], e = st[i + 1];           /* st[i + 1] is rewritten next round, after this read */
        st[i] = at;
        int v = first + i;
        if (v < a->pk.num_nodes) {
            for (int p = g->head[v]; p >= 0; p = g->pool.data[p].next) {
                int id = g->pool.data[p].edge;
                arcs[at++] = (reach){side ? a->e[id].from : a->e[id].to, id};
                g->pool.data[p].edge = -1;
                g->pool_dead++;
            }
            g->head[v] = -1;
        }
        if (e > s) memcpy(arcs + at, k->arcs + s, (size_t)(e - s) * sizeof *arcs);
        at += e - s;
    }
    st[nodes] = at;
    assert(at == total);
    free(k->arcs);
    g->built += (size_t)at - k->len;
    g->fresh -= k->fresh;
    k->arcs = arcs;
    k->len = at;
    k->edges = a->num_guarded;
    k->fresh = 0;
    a->st.block_builds++;
}

/* Drop the pool's dead entries (half of it or more): live ones keep their
 * order, so each list still runs to older entries. */
static void pool_compact(acyclic *a, int side) {
    gcsr *g = &a->gc[side];
    size_t n = g->pool.len, at = 0;
    int *moved = xmalloc((n ? n : 1) * sizeof *moved);
    for (size_t p = 0; p < n; p++) {
        glink l = g->pool.data[p];
        if (l.edge < 0) continue;
        moved[p] = (int)at;
        l.next = l.next < 0 ? -1 : moved[l.next];     /* older: moved already */
        int v = side ? a->e[l.edge].to : a->e[l.edge].from;
        if (g->head[v] == (int)p) g->head[v] = (int)at;
        g->pool.data[at++] = l;
    }
    free(moved);
    g->pool.len = at;
    g->pool_dead = 0;
    a->st.pool_compactions++;
    if (g->pool.cap > 4096 && g->pool.cap > at + at / 2) {    /* the dead entries' pages go back */
        g->pool.cap = at + at / 2 > 4096 ? at + at / 2 : 4096;
        g->pool.data = xrealloc(g->pool.data, g->pool.cap * sizeof *g->pool.data);
    }
}

/* Every block of the sides that need it in one pass over the edge records
 * each (sequential: for bulk loading, where block by block would follow
 * the lists).  The sides are two tasks of the order's runner (pk_run),
 * one pass to count and one to fill, each writing only its own side; what
 * allocates runs between them, on the caller's thread. */
typedef struct gcsr_job { acyclic *a; int todo[2]; } gcsr_job;

static void gcsr_count(void *ctx, size_t side) {
    const gcsr_job *j = ctx;
    acyclic *a = j->a;
    if (!j->todo[side]) return;
    gcsr *g = &a->gc[side];
    const int m = a->num_guarded, nodes = 1 << g->shift;
    const size_t slots = (size_t)nodes + 1;
    memset(g->start, 0, (size_t)g->nblk * slots * sizeof *g->start);
    for (int id = 0; id < m; id++) {                 /* the edges on the lists */
        const edge *ed = &a->e[id];
        if (!ed->lit || ed->from == ed->to) continue;
        int v = side ? ed->to : ed->from;
        g->start[(size_t)v + (size_t)(v >> g->shift) + 1]++;
    }
    for (int b = 0; b < g->nblk; b++) {
        uint32_t *st = g->start + (size_t)b * slots;
        for (int i = 0; i < nodes; i++) st[i + 1] += st[i];
        g->blk[b].len = st[nodes];
        g->blk[b].edges = m;
    }
}

static void gcsr_fill(void *ctx, size_t side) {
    const gcsr_job *j = ctx;
    acyclic *a = j->a;
    if (!j->todo[side]) return;
    gcsr *g = &a->gc[side];
    const int n = a->pk.num_nodes, m = a->num_guarded, nodes = 1 << g->shift;
    const size_t slots = (size_t)nodes + 1;
    for (int id = m - 1; id >= 0; id--) {           /* newest first, as on the lists */
        const edge *ed = &a->e[id];
        if (!ed->lit || ed->from == ed->to) continue;
        int v = side ? ed->to : ed->from, b = v >> g->shift;
        uint32_t *cur = &g->start[(size_t)v + (size_t)b];
        g->blk[b].arcs[(*cur)++] = (reach){side ? ed->from : ed->to, id};
    }
    for (int b = 0; b < g->nblk; b++) {             /* each slot moved to its node's end: back one */
        uint32_t *st = g->start + (size_t)b * slots;
        memmove(st + 1, st, (size_t)nodes * sizeof *st);
        st[0] = 0;
    }
    g->built = 0;
    for (int b = 0; b < g->nblk; b++) g->built += g->blk[b].len;
    g->fresh = 0;
    for (int v = 0; v < n; v++) g->head[v] = -1;     /* every edge is in its block now */
}

/* At a solve's start: after bulk loading, every block at once. */
void gcsr_sync(acyclic *a) {
    gcsr_job j = { a, { 0, 0 } };
    const int n = a->pk.num_nodes;
    for (int side = 0; side < a->sides; side++) {
        gcsr *g = &a->gc[side];
        if (!n || g->fresh <= g->built) continue;
        j.todo[side] = 1;
        gcsr_cover(g, n - 1);
        for (int b = 0; b < g->nblk; b++) { free(g->blk[b].arcs); g->blk[b] = (gblock){0}; }
    }
    if (!j.todo[0] && !j.todo[1]) return;
    pk_run(&a->pk, 2, gcsr_count, &j);
    for (int side = 0; side < 2; side++) {
        if (!j.todo[side]) continue;
        gcsr *g = &a->gc[side];
        for (int b = 0; b < g->nblk; b++)
            g->blk[b].arcs = xmalloc((g->blk[b].len ? g->blk[b].len : 1) * sizeof *g->blk[b].arcs);
    }
    pk_run(&a->pk, 2, gcsr_fill, &j);
    for (int side = 0; side < 2; side++) {
        if (!j.todo[side]) continue;
        gcsr *g = &a->gc[side];
        vec_free(g->pool);                           /* bulk loading filled it: give it back */
        g->pool_dead = 0;
        a->st.block_builds += g->nblk;
    }
}

/* Guarded edge id, node v's on one side, goes onto v's fresh list. */
void gcsr_listed(acyclic *a, int side, int v, int id) {
    gcsr *g = &a->gc[side];
    if (g->pool.len >= INT_MAX) xalloc_fail(SIZE_MAX);
    vec_push(g->pool, ((glink){id, g->head[v]}));
    g->head[v] = (int)g->pool.len - 1;
    gcsr_cover(g, v);
    gblock *k = &g->blk[v >> g->shift];
    g->fresh++;
    if (++k->fresh > (k->len >> 2) + ((1u << g->shift) >> 2) && g->fresh <= g->built) {
        gblock_build(a, side, v >> g->shift);
        if (g->pool_dead >= (1u << g->shift) >> 2 && 2 * g->pool_dead >= g->pool.len) pool_compact(a, side);
    }
}

