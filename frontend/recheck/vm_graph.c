/* vm_graph.c — the re-check's dependency graph and its cycle search
 * (vm_internal.h; the contract: verify_model.h).
 *
 * The graph and its search are the re-check's own on purpose, not the
 * checker's depgraph.h: a re-check must share no code with what it
 * re-checks.
 *
 * SER: node t is transaction t, edges D (SO, WR, WW) and RW.  SI: the
 * split graph, transaction t's commit 2t and start 2t + 1; a D edge a->b
 * is 2a -> 2b+1, RW a->b is 2a+1 -> 2b, the fixed edge 2t+1 -> 2t; its
 * cycles are those of D ; RW? (doc/checker.md). */
#include "frontend/recheck/vm_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"

/* ---- the graph --------------------------------------------------------
 * Memory.  The graph is one CSR (start[n + 1], adj[m], 32-bit node ids)
 * filled in two passes over the same edge sequence: the first counts each
 * node's out-degree, the second writes the arcs (both split into a head
 * and key-range groups on the pool, see vg_build).  The sequence is cheap
 * to repeat because the per-key replay (the costly part) runs once and
 * leaves only each participant's snapshot per key (vread, 8 bytes); the
 * history index (vm) is freed before the CSR is allocated.  An arc's kind
 * and key are not stored: on a cycle a third pass over the sequence finds
 * them for the cycle's arcs alone.
 *
 * The edge sequence: SO (sessions in order), fixed (SI), then per key its
 * WW chain and, per participant reading it (in program order of the
 * key's ops), WR from the version read and RW to the version after it.
 * Each node's arcs are in sequence order, so the DFS, the cycle found and
 * its first arc a -> b are those of any graph built from this sequence. */

enum { VG_COUNT, VG_FILL, VG_FIND };

typedef struct vgraph {
    uint32_t n;
    int si;
    uint64_t m;                   /* arcs */
    uint32_t *start, *adj;        /* CSR */
    /* VG_FIND: the cycle's arcs cyc[i] -> cyc[i + 1] (cyclically) */
    const uint32_t *cyc; size_t clen;
    uint8_t *on;                  /* per node: it starts a cycle arc */
    uint32_t *ckey; uint8_t *ckind, *cfound;
} vgraph;

static void vg_find(vgraph *g, uint32_t x, uint32_t y, dep_kind kind, uint32_t key) {
    for (size_t i = 0; i < g->clen; i++)
        if (!g->cfound[i] && g->cyc[i] == x && g->cyc[(i + 1) % g->clen] == y) {
            g->cfound[i] = 1; g->ckind[i] = (uint8_t)kind; g->ckey[i] = key;
        }
}

/* Where one pass over (part of) the edge sequence puts its arcs. */
typedef struct vpart {
    int si, pass;
    uint32_t *c;                  /* VG_COUNT: per node, its arcs so far; VG_FILL: where its next one goes */
    uint32_t *adj;
    uint64_t m;                   /* VG_COUNT: arcs so far */
    vgraph *g;                    /* VG_FIND */
} vpart;

static inline void vg_edge(vpart *p, dep_kind kind, uint32_t key, uint32_t a, uint32_t b) {
    uint32_t x, y;
    if (!p->si) { x = a; y = b; }
    else if (kind == DEP_RW) { x = 2 * a + 1; y = 2 * b; }
    else if (kind == DEP_FIXED) { x = 2 * a + 1; y = 2 * a; }
    else { x = 2 * a; y = 2 * b + 1; }
    switch (p->pass) {
    case VG_COUNT: p->c[x]++; p->m++; break;
    case VG_FILL: p->adj[p->c[x]++] = y; break;
    default: if (p->g->on[x]) vg_find(p->g, x, y, kind, key); break;
    }
}

/* The edge sequence's head: SO, then the fixed arcs (SI). */
static void vg_emit_head(vpart *p, const history *h, const uint8_t *part) {
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = UINT32_MAX;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!part[t]) continue;
            if (prev != UINT32_MAX) vg_edge(p, DEP_SO, HISTORY_NONE, prev, t);
            prev = t;
        }
    }
    if (p->si)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (part[t]) vg_edge(p, DEP_FIXED, 0, t, t);
}

/* The sequence's part for the replay's key ranges [lo, hi). */
static void vg_emit_keys(vpart *p, const version_order *vo, const vreads *r, uint32_t lo, uint32_t hi) {
    for (uint32_t task = lo; task < hi; task++) {
        const key_range_out *o = &r->out[task];
        size_t i = 0;
        for (uint32_t k = r->range[task]; k < r->range[task + 1]; k++) {
            uint32_t a = vo->start[k], b = vo->start[k + 1];
            for (uint32_t v = a + 1; v < b; v++) vg_edge(p, DEP_WW, k, vo->txns.data[v - 1], vo->txns.data[v]);
            for (; i < o->reads.len && o->reads.data[i].g < b; i++) {
                uint32_t t = o->reads.data[i].t, v = o->reads.data[i].g, w = vo->txns.data[v];
                if (w != 0) vg_edge(p, DEP_WR, k, w, t);
                if (v + 1 < b && vo->txns.data[v + 1] != t) vg_edge(p, DEP_RW, k, t, vo->txns.data[v + 1]);
            }
        }
    }
}

/* The CSR of the sequence, by parts: the head, then the key ranges in G
 * groups (one a thread), each group counting into its own per-node array
 * on the pool; a node's arcs are laid out head first, then group by group,
 * so each group fills its own slots of every node's list — the layout of
 * one pass over the whole sequence, for any G. */
typedef struct vg_job {
    const version_order *vo;
    const vreads *r;
    uint32_t groups;
    vpart *parts;                 /* groups + 1: the head's, then each group's */
} vg_job;

static void vg_group_task(void *ctx, size_t j) {
    const vg_job *job = ctx;
    uint32_t lo = (uint32_t)((uint64_t)job->r->ntasks * j / job->groups);
    uint32_t hi = (uint32_t)((uint64_t)job->r->ntasks * (j + 1) / job->groups);
    vg_emit_keys(&job->parts[j + 1], job->vo, job->r, lo, hi);
}

/* 0 (why set) if the sequence has 2^32 arcs or more. */
static int vg_build(vgraph *g, const history *h, const version_order *vo, const uint8_t *part, const vreads *r,
                    struct par_pool *pool, int prio, char *why, size_t wl) {
    uint32_t G = par_pool_threads(pool);
    if (G > r->ntasks) G = r->ntasks ? r->ntasks : 1;
    vpart *parts = xcalloc((size_t)G + 1, sizeof *parts);
    for (uint32_t j = 0; j <= G; j++) {
        parts[j].si = g->si;
        parts[j].pass = VG_COUNT;
        parts[j].c = xcalloc((size_t)g->n + 1, sizeof *parts[j].c);
    }
    vg_job job = { vo, r, G, parts };
    vg_emit_head(&parts[0], h, part);
    par_pool_run_prio(pool, prio, G, vg_group_task, &job);
    uint64_t m = 0;
    for (uint32_t j = 0; j <= G; j++) m += parts[j].m;
    int ok = m < UINT32_MAX;
    if (!ok) snprintf(why, wl, "%" PRIu64 " dependencies: too many for the re-check's 32-bit graph", m);
    if (ok) {
        g->m = m;
        g->start = xmalloc(((size_t)g->n + 1) * sizeof *g->start);
        g->adj = xmalloc((m ? m : 1) * sizeof *g->adj);
        uint32_t at = 0;
        for (uint32_t x = 0; x < g->n; x++) {     /* counts into each part's first slot of x */
            g->start[x] = at;
            for (uint32_t j = 0; j <= G; j++) { uint32_t c = parts[j].c[x]; parts[j].c[x] = at; at += c; }
        }
        g->start[g->n] = at;
        for (uint32_t j = 0; j <= G; j++) { parts[j].pass = VG_FILL; parts[j].adj = g->adj; }
        vg_emit_head(&parts[0], h, part);
        par_pool_run_prio(pool, prio, G, vg_group_task, &job);
    }
    for (uint32_t j = 0; j <= G; j++) free(parts[j].c);
    free(parts);
    return ok;
}

static void vg_free(vgraph *g) {
    free(g->start); free(g->adj);
    g->start = g->adj = NULL;
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

/* The cycle's arcs as dependencies: each arc's kind and key are those of
 * the first edge of the sequence with its ends (the first in its tail's
 * arc list), found by a third pass; fixed arcs are left out. */
static void nodes_to_deps(vgraph *g, const history *h, const version_order *vo, const uint8_t *part,
                          const vreads *r, const vec_u32 *cyc, dep_edge_vec *out) {
    vec_clear(*out);
    size_t n = cyc->len;
    g->cyc = cyc->data; g->clen = n;
    g->on = xcalloc(g->n ? g->n : 1, 1);
    g->ckey = xcalloc(n ? n : 1, sizeof *g->ckey);
    g->ckind = xcalloc(n ? n : 1, 1);
    g->cfound = xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) g->on[cyc->data[i]] = 1;
    vpart p = { g->si, VG_FIND, NULL, NULL, 0, g };
    vg_emit_head(&p, h, part);
    vg_emit_keys(&p, vo, r, 0, r->ntasks);
    for (size_t i = 0; i < n; i++) {
        uint32_t a = cyc->data[i], b = cyc->data[(i + 1) % n];
        dep_kind k = (dep_kind)g->ckind[i];
        if (!g->cfound[i] || k == DEP_FIXED) continue;   /* not found: cannot be, the arc was in the CSR */
        dep_edge e = { g->si ? a >> 1 : a, g->si ? b >> 1 : b, g->ckey[i], (uint8_t)k };
        if (k == DEP_SO) e.key = HISTORY_NONE;
        vec_push(*out, e);
    }
    free(g->on); free(g->ckey); free(g->ckind); free(g->cfound);
    g->on = NULL; g->ckey = NULL; g->ckind = g->cfound = NULL;
}

/* The cycle's nodes made short: the shortest cycle through each of its
 * first nodes (at most 64, fewer on a large graph), the shortest of them
 * (cyc itself when none is found). */
static void vg_shorten(const vgraph *g, const vec_u32 *cyc, vec_u32 *best) {
    uint32_t *parent = xmalloc((size_t)g->n * sizeof *parent), *queue = xmalloc((size_t)g->n * sizeof *queue);
    vec_u32 cur; vec_init(cur);
    size_t budget = (size_t)2e8 / ((size_t)g->n + (size_t)g->m + 1) + 1;
    size_t tries = cyc->len < 64 ? cyc->len : 64;
    if (tries > budget) tries = budget;
    for (size_t i = 0; i < tries; i++)
        if (vg_shortest_through(g, cyc->data[i], parent, queue, &cur) && (!best->len || cur.len < best->len)) {
            vec_clear(*best);
            for (size_t j = 0; j < cur.len; j++) vec_push(*best, cur.data[j]);
        }
    if (!best->len)
        for (size_t j = 0; j < cyc->len; j++) vec_push(*best, cyc->data[j]);
    free(parent); free(queue);
    vec_free(cur);
}

int vm_graph_check(const history *h, const version_order *vo, int si, const uint8_t *part, const vreads *r,
                   struct par_pool *pool, int prio, dep_edge_vec *cycle, char *why, size_t wl) {
    vgraph g; memset(&g, 0, sizeof g);
    g.n = si ? 2 * h->num_txns : h->num_txns;
    g.si = si;
    if (!vg_build(&g, h, vo, part, r, pool, prio, why, wl)) { vg_free(&g); return -1; }
    vec_u32 cyc; vec_init(cyc);
    int rc = vg_find_cycle(&g, &cyc) ? 0 : 1;
    if (rc == 0 && cycle) {
        vec_u32 best; vec_init(best);
        vg_shorten(&g, &cyc, &best);
        nodes_to_deps(&g, h, vo, part, r, &best, cycle);
        vec_free(best);
    }
    vec_free(cyc);
    vg_free(&g);
    return rc;
}
