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
 * cycles are those of D ; RW? (doc/checker.md).  The levels (vm_mode):
 * SO only with session order; pc's WW a->b is 2a -> 2b; real time adds
 * one clock node a tick after the transactions' nodes (RT edges: the j-th
 * committed participant by completion into tick j, tick j into tick j+1,
 * and the last tick completed before b's invocation into b, a D edge; a
 * cycle's run of ticks is reported as one RT edge); psi keeps RW edges out
 * of the graph and tests each against the D paths (vg_psi); rr keeps the
 * predicate anti-dependencies out (vm_pred_only, and the RW edges of the
 * predicate reads' views: vm_views.c, emitted after the head) and tests
 * each item RW edge against the paths of the whole graph (vg_rr). */
#include "frontend/recheck/vm_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"
#include "frontend/history/predicate.h"

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

enum { VG_COUNT, VG_FILL, VG_FIND, VG_RW, VG_RANK };

/* The real-time clock: the committed participants with a completion time
 * by completion (a[j] completes at done[j]), then per participant b with
 * an invocation time the tick it follows (into: pairs tick, b). */
typedef struct vm_clock { uint32_t base, m; uint32_t *a; vec_u32 into; } vm_clock;

typedef struct vgraph {
    uint32_t n;
    int si;
    vm_mode mode;
    const vm_clock *clk;
    uint64_t m;                   /* arcs */
    uint32_t *start, *adj;        /* CSR */
    /* VG_FIND: the cycle's arcs cyc[i] -> cyc[i + 1] (cyclically) */
    const uint32_t *cyc; size_t clen;
    uint8_t *on;                  /* per node: it starts a cycle arc */
    uint32_t *ckey; uint8_t *ckind, *cfound;
    size_t rw_arc;                /* psi: the one cycle arc that is an RW edge (SIZE_MAX: none);
                                     rr: the one that must be an item RW edge */
    int find_lazy;                /* rr: predicate anti-dependencies may label the cycle's arcs */
    const uint64_t *prw; size_t nprw;   /* rr: the predicate-only (t << 32 | k), sorted */
} vgraph;

static int vg_is_prw(const uint64_t *prw, size_t n, uint32_t t, uint32_t k) {
    uint64_t x = (uint64_t)t << 32 | k;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (prw[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo < n && prw[lo] == x;
}

int vm_pred_only(const history *h, uint32_t t, uint32_t k) {
    if (!h->op_pred || t >= h->num_txns) return 0;
    const history_txn *tx = &h->txns[t];
    int pred = 0;
    for (uint32_t o = tx->first_op; o < tx->first_op + tx->num_ops; o++) {
        if (h->op_key[o] != k || (h->op_kind[o] & OP_FAILED)) continue;
        op_kind kd = (op_kind)(h->op_kind[o] & OP_KIND_MASK);
        if (kd == OP_WRITE || kd == OP_APPEND) break;           /* later reads are its own */
        uint32_t tag = h->op_pred ? h->op_pred[o] : PRED_TAG_NONE;
        if (tag == PRED_TAG_NONE || pred_tag_returned(tag)) return 0;
        pred = 1;
    }
    return pred;
}

/* rr: the participants' predicate-only (t, k), sorted. */
typedef VEC(uint64_t) vg_u64_vec;
static void vg_pred_pairs(const history *h, const uint8_t *part, vg_u64_vec *out) {
    if (!h->op_pred) return;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!part[t]) continue;
        const history_txn *tx = &h->txns[t];
        size_t from = out->len;
        for (uint32_t o = tx->first_op; o < tx->first_op + tx->num_ops; o++) {
            uint32_t tag = h->op_pred[o];
            if (tag == PRED_TAG_NONE || pred_tag_returned(tag) || (h->op_kind[o] & OP_FAILED)) continue;
            uint64_t x = (uint64_t)t << 32 | h->op_key[o];
            int dup = 0;
            for (size_t i = from; i < out->len && !dup; i++) dup = out->data[i] == x;
            if (!dup && vm_pred_only(h, t, h->op_key[o])) vec_push(*out, x);
        }
        for (size_t i = from + 1; i < out->len; i++)           /* keys of t in order */
            for (size_t j = i; j > from && out->data[j - 1] > out->data[j]; j--) {
                uint64_t y = out->data[j]; out->data[j] = out->data[j - 1]; out->data[j - 1] = y;
            }
    }
}

/* Where one pass over (part of) the edge sequence puts its arcs. */
typedef struct vpart {
    int si, pass;
    const vm_mode *mode;
    const vm_clock *clk;
    vec_u32 *rw;                  /* VG_RW: the RW edges (psi; rr: the predicate ones), as pairs */
    uint32_t *c;                  /* VG_COUNT: per node, its arcs so far; VG_FILL: where its next one goes */
    uint32_t *adj;
    uint64_t m;                   /* VG_COUNT: arcs so far */
    vgraph *g;                    /* VG_FIND */
    vec_u32 *rw_item;             /* rr, VG_RW: the item RW edges, as pairs */
    const uint64_t *prw; size_t nprw;   /* rr: vgraph's */
    const uint32_t *rank;         /* VG_RANK: the proposed rank per node */
    int against;                  /* VG_RANK: an arc x -> y with rank[x] >= rank[y] was seen */
    uint32_t *fkey; uint8_t *fkind, *ffound;   /* VG_FIND: per cycle arc, the part's first edge with its ends */
} vpart;

/* A cycle arc's first edge in the part's sequence, into the part's arrays
 * (lazy: no arc, psi's RW edges and rr's predicate anti-dependencies). */
static void vg_find(vpart *p, uint32_t x, uint32_t y, dep_kind kind, uint32_t key, int lazy) {
    const vgraph *g = p->g;
    for (size_t i = 0; i < g->clen; i++) {
        if (p->ffound[i] || g->cyc[i] != x || g->cyc[(i + 1) % g->clen] != y) continue;
        int ok = 1;
        if (g->mode.psi) ok = (kind == DEP_RW) == (i == g->rw_arc);
        else if (g->mode.rr) ok = i == g->rw_arc ? kind == DEP_RW && !lazy : !lazy || g->find_lazy;
        if (ok) { p->ffound[i] = 1; p->fkind[i] = (uint8_t)kind; p->fkey[i] = key; }
    }
}

/* VG_RANK: the rank the arcs are tested against, INIT's nodes first (the
 * checker's graph leaves INIT out, so the proposal says nothing of them):
 * under SI its start 0, its commit 1 (the fixed arc), else its node 0;
 * every other node x at rank[x] + 2. */
static inline uint64_t vg_rank_of(const vpart *p, uint32_t x) {
    if (x < 2) return !p->si ? (x == 0 ? 0 : (uint64_t)p->rank[x] + 2) : x == 1 ? 0 : 1;
    return (uint64_t)p->rank[x] + 2;
}

static inline void vg_arc(vpart *p, dep_kind kind, uint32_t key, uint32_t x, uint32_t y) {
    switch (p->pass) {
    case VG_COUNT: p->c[x]++; p->m++; break;
    case VG_FILL: p->adj[p->c[x]++] = y; break;
    case VG_FIND: if (p->g->on[x]) vg_find(p, x, y, kind, key, 0); break;
    case VG_RANK: p->against |= vg_rank_of(p, x) >= vg_rank_of(p, y); break;
    default: break;
    }
}

static inline void vg_edge(vpart *p, dep_kind kind, uint32_t key, uint32_t a, uint32_t b) {
    uint32_t x, y;
    if (p->mode->psi && kind == DEP_RW) {     /* psi: no arc; collected, and labelled on a cycle */
        if (p->pass == VG_RW) { vec_push(*p->rw, a); vec_push(*p->rw, b); }
        else if (p->pass == VG_FIND && p->g->on[a]) vg_find(p, a, b, kind, key, 1);
        return;
    }
    if (p->mode->rr && kind == DEP_RW) {         /* rr: item RW edges are arcs, predicate ones not */
        int lazy = vg_is_prw(p->prw, p->nprw, a, key);
        if (p->pass == VG_RW) { vec_u32 *v = lazy ? p->rw : p->rw_item; vec_push(*v, a); vec_push(*v, b); return; }
        if (p->pass == VG_FIND) { if (p->g->on[a]) vg_find(p, a, b, kind, key, lazy); return; }
        if (lazy) return;
    }
    if (!p->si) { x = a; y = b; }
    else if (kind == DEP_RW) { x = 2 * a + 1; y = 2 * b; }
    else if (kind == DEP_FIXED) { x = 2 * a + 1; y = 2 * a; }
    else if (kind == DEP_WW && p->mode->ww_commit) { x = 2 * a; y = 2 * b; }
    else { x = 2 * a; y = 2 * b + 1; }
    vg_arc(p, kind, key, x, y);
}

/* The edge sequence's head: SO, then the fixed arcs (SI), then the
 * clock's (real time). */
static void vg_emit_clock(vpart *p, const vm_clock *k);
static void vg_emit_head(vpart *p, const history *h, const uint8_t *part) {
    for (uint32_t s = 0; s < h->num_sessions && p->mode->so; s++) {
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
    const vm_clock *k = p->clk;
    if (k) vg_emit_clock(p, k);
}

/* rr: the views' edges (vm_views.c): WR arcs, RW predicate anti-dependencies. */
static void vg_emit_views(vpart *p, const vreads *r) {
    if (!p->mode->rr || !r) return;
    vec_foreach(const dep_edge, e, r->views) {
        if (e->kind != DEP_RW) { vg_edge(p, (dep_kind)e->kind, e->key, e->from, e->to); continue; }
        if (p->pass == VG_RW) { vec_push(*p->rw, e->from); vec_push(*p->rw, e->to); }
        else if (p->pass == VG_FIND && p->g->on[e->from]) vg_find(p, e->from, e->to, DEP_RW, e->key, 1);
    }
}

static void vg_emit_clock(vpart *p, const vm_clock *k) {
    for (uint32_t j = 0; j < k->m; j++) {
        vg_arc(p, DEP_RT, HISTORY_NONE, p->si ? 2 * k->a[j] : k->a[j], k->base + j);
        if (j + 1 < k->m) vg_arc(p, DEP_RT, HISTORY_NONE, k->base + j, k->base + j + 1);
    }
    for (size_t i = 0; i < k->into.len; i += 2) {
        uint32_t b = k->into.data[i + 1];
        vg_arc(p, DEP_RT, HISTORY_NONE, k->base + k->into.data[i], p->si ? 2 * b + 1 : b);
    }
}

/* The counters of transaction t's nodes (both of them under SI: one
 * cache line), asked ahead of their turn: the passes meet the nodes at
 * random (at 22M SI, 44M nodes). */
static inline void vg_ahead(const vpart *p, uint32_t t) {
    const uint32_t *c = p->c ? p->c : p->rank;
    if (c) __builtin_prefetch(&c[p->si ? 2 * (size_t)t : t]);
}

/* The sequence's part for the replay's key ranges [lo, hi). */
static void vg_emit_keys(vpart *p, const version_order *vo, const vreads *r, uint32_t lo, uint32_t hi) {
    enum { AHEAD = 8 };
    for (uint32_t task = lo; task < hi; task++) {
        const key_range_out *o = &r->out[task];
        size_t i = 0;
        for (uint32_t k = r->range[task]; k < r->range[task + 1]; k++) {
            uint32_t a = vo->start[k], b = vo->start[k + 1];
            for (uint32_t v = a + 1; v < b; v++) {
                if (v + AHEAD < b) vg_ahead(p, vo->txns.data[v + AHEAD]);
                vg_edge(p, DEP_WW, k, vo->txns.data[v - 1], vo->txns.data[v]);
            }
            for (; i < o->reads.len && o->reads.data[i].g < b; i++) {
                if (i + AHEAD < o->reads.len) {
                    vg_ahead(p, o->reads.data[i + AHEAD].t);
                    vg_ahead(p, vo->txns.data[o->reads.data[i + AHEAD].g]);
                }
                uint32_t t = o->reads.data[i].t, v = o->reads.data[i].g, w = vo->txns.data[v];
                if (w != 0) vg_edge(p, DEP_WR, k, w, t);
                if (v + 1 < b && vo->txns.data[v + 1] != t) vg_edge(p, DEP_RW, k, t, vo->txns.data[v + 1]);
            }
        }
    }
}

/* The CSR of the sequence, by parts: the head, then the key ranges in G
 * groups (one a thread), each part counting into its own per-node array
 * on the pool, the head's a task beside the groups'; a node's arcs are
 * laid out head first, then group by group, so each part fills its own
 * slots of every node's list — the layout of one pass over the whole
 * sequence, for any G. */
typedef struct vg_job {
    const version_order *vo;
    const vreads *r;
    uint32_t groups;
    vpart *parts;                 /* groups + 1: the head's, then each group's */
    const history *h;             /* the head's */
    const uint8_t *part;
} vg_job;

/* Part j of a pass: the head (and rr's views) for j = 0, else group j - 1's key ranges. */
static void vg_part_task(void *ctx, size_t j) {
    const vg_job *job = ctx;
    vpart *p = &job->parts[j];
    if (j == 0) { vg_emit_head(p, job->h, job->part); vg_emit_views(p, job->r); return; }
    uint32_t lo = (uint32_t)((uint64_t)job->r->ntasks * (j - 1) / job->groups);
    uint32_t hi = (uint32_t)((uint64_t)job->r->ntasks * j / job->groups);
    vg_emit_keys(p, job->vo, job->r, lo, hi);
}

/* One pass's parts: *groups (at most the pool's threads) and the head. */
static vpart *vg_parts(const vgraph *g, const vreads *r, struct par_pool *pool, int pass, uint32_t *groups) {
    uint32_t G = par_pool_threads(pool);
    if (G > r->ntasks) G = r->ntasks ? r->ntasks : 1;
    vpart *parts = xcalloc((size_t)G + 1, sizeof *parts);
    for (uint32_t j = 0; j <= G; j++) { parts[j].si = g->si; parts[j].mode = &g->mode; parts[j].pass = pass; }
    *groups = G;
    return parts;
}

/* 0 (why set) if the sequence has 2^32 arcs or more. */
static int vg_build(vgraph *g, const history *h, const version_order *vo, const uint8_t *part, const vreads *r,
                    struct par_pool *pool, int prio, char *why, size_t wl) {
    uint32_t G;
    vpart *parts = vg_parts(g, r, pool, VG_COUNT, &G);
    for (uint32_t j = 0; j <= G; j++) {
        parts[j].clk = j == 0 ? g->clk : NULL;
        parts[j].c = xcalloc((size_t)g->n + 1, sizeof *parts[j].c);
        parts[j].prw = g->prw; parts[j].nprw = g->nprw;
    }
    vg_job job = { vo, r, G, parts, h, part };
    par_pool_run_prio(pool, prio, (size_t)G + 1, vg_part_task, &job);
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
        par_pool_run_prio(pool, prio, (size_t)G + 1, vg_part_task, &job);
    }
    for (uint32_t j = 0; j <= G; j++) free(parts[j].c);
    free(parts);
    return ok;
}

/* ---- a proposed order, checked arc by arc ------------------------------
 * A rank per node (vm_graph_check's rank: in practice the positions of a
 * topological order of the graph the checker solved) is a hint, trusted
 * for nothing: the pass below runs over the very edge sequence the CSR is
 * built from (the head and every key range, vg_edge and vg_arc as in the
 * count and fill passes) and only tests rank[x] < rank[y] on every arc.
 * If all hold, rank strictly increases along every path, so the graph has
 * no cycle and neither the CSR nor the DFS is needed.  One arc against
 * the rank and the answer is the search's, as without a rank. */
/* 1 if every arc of the sequence goes up the rank (the graph is acyclic). */
static int vg_ranked(const vgraph *g, const history *h, const version_order *vo, const uint8_t *part,
                     const vreads *r, const uint32_t *rank, struct par_pool *pool, int prio) {
    uint32_t G;
    vpart *parts = vg_parts(g, r, pool, VG_RANK, &G);
    for (uint32_t j = 0; j <= G; j++) parts[j].rank = rank;
    vg_job job = { vo, r, G, parts, h, part };
    par_pool_run_prio(pool, prio, (size_t)G + 1, vg_part_task, &job);   /* no views: not rr */
    int against = 0;
    for (uint32_t j = 0; j <= G; j++) against |= parts[j].against;
    free(parts);
    return !against;
}

static void vg_free(vgraph *g) { free(g->start); free(g->adj); g->start = g->adj = NULL; }

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

/* Shortest cycle through s (BFS), as nodes, if it has at most maxlen
 * nodes; 0 if none.  The search goes no deeper than such a cycle could
 * reach: the levels it visits are visited in the order of an unbounded
 * search, so a cycle it finds is the one that search would find. */
static int vg_shortest_through(const vgraph *g, uint32_t s, size_t maxlen, uint32_t *parent, uint32_t *queue,
                               vec_u32 *out) {
    for (uint32_t u = 0; u < g->n; u++) parent[u] = UINT32_MAX;
    uint32_t qh = 0, qt = 0, level_end;
    size_t depth = 0;                            /* of the nodes queue[qh .. level_end) */
    queue[qt++] = s;
    parent[s] = s;
    level_end = qt;
    while (qh < qt) {
        if (qh == level_end) { depth++; level_end = qt; }
        if (depth + 1 > maxlen) return 0;          /* a cycle through u has depth + 1 nodes or more */
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
            if (parent[v] == UINT32_MAX && depth + 2 <= maxlen) { parent[v] = u; queue[qt++] = v; }
        }
    }
    return 0;
}

/* psi: an RW edge r -> c (pairs in rw) with a D path c ~> r: that path's
 * nodes, c first, into cyc (the RW edge closes it); 0 if there is none.
 * The D graph is acyclic here; a breadth-first search from c visits only
 * nodes not after r in a topological order. */
static int vg_psi(const vgraph *g, const vec_u32 *rw, vec_u32 *cyc) {
    uint32_t n = g->n;
    uint32_t *indeg = xcalloc(n ? n : 1, sizeof *indeg), *topo = xmalloc((n ? n : 1) * sizeof *topo);
    uint32_t *queue = xmalloc((n ? n : 1) * sizeof *queue), *par = xmalloc((n ? n : 1) * sizeof *par);
    uint32_t *stamp = xcalloc(n ? n : 1, sizeof *stamp), qh = 0, qt = 0;
    for (uint64_t j = 0; j < g->m; j++) indeg[g->adj[j]]++;
    for (uint32_t u = 0; u < n; u++) if (!indeg[u]) queue[qt++] = u;
    while (qh < qt) {
        uint32_t u = queue[qh];
        topo[u] = qh++;
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) if (--indeg[g->adj[j]] == 0) queue[qt++] = g->adj[j];
    }
    int found = 0;
    for (size_t i = 0; i + 1 < rw->len && !found; i += 2) {
        uint32_t rd = rw->data[i], c = rw->data[i + 1], lim = topo[rd];
        if (topo[c] > lim) continue;
        uint32_t stampv = (uint32_t)(i / 2 + 1);
        qh = qt = 0;
        queue[qt++] = c; stamp[c] = stampv; par[c] = c;
        while (qh < qt && !found) {
            uint32_t u = queue[qh++];
            if (u == rd) {
                for (uint32_t x = rd; ; x = par[x]) { vec_push(*cyc, x); if (x == c) break; }
                for (size_t a = 0, b = cyc->len - 1; a < b; a++, b--) {
                    uint32_t t = cyc->data[a]; cyc->data[a] = cyc->data[b]; cyc->data[b] = t;
                }
                found = 1;
                break;
            }
            for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
                uint32_t v = g->adj[j];
                if (stamp[v] == stampv || topo[v] > lim) continue;
                stamp[v] = stampv; par[v] = u; queue[qt++] = v;
            }
        }
    }
    free(indeg); free(topo); free(queue); free(par); free(stamp);
    return found;
}

/* rr: an item RW edge r -> c (pairs in item) with a path c ~> r through
 * the arcs and the predicate anti-dependencies (pairs in lazy): that
 * path's nodes, c first, into cyc (the RW edge closes it); 0 if there is
 * none.  The whole graph's strongly connected components (an iterative
 * Tarjan) tell which item edges close one; a breadth-first search gives
 * the path of the first. */
static int vg_rr(const vgraph *g, const vec_u32 *lazy, const vec_u32 *item, vec_u32 *cyc) {
    uint32_t n = g->n;
    uint32_t *ls = xcalloc((size_t)n + 1, sizeof *ls), *la = xmalloc((lazy->len / 2 + 1) * sizeof *la);
    for (size_t i = 0; i + 1 < lazy->len; i += 2) ls[lazy->data[i] + 1]++;
    for (uint32_t u = 0; u < n; u++) ls[u + 1] += ls[u];
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, ls, ((size_t)n + 1) * sizeof *fill);
    for (size_t i = 0; i + 1 < lazy->len; i += 2) la[fill[lazy->data[i]]++] = lazy->data[i + 1];
    /* Tarjan: it[u] runs over u's arcs, then its lazy arcs */
    uint32_t *index = xmalloc((n ? n : 1) * sizeof *index), *low = xmalloc((n ? n : 1) * sizeof *low);
    uint32_t *comp = xmalloc((n ? n : 1) * sizeof *comp), idx = 0, nc = 0;
    uint8_t *on = xcalloc(n ? n : 1, 1);
    vec_u32 stack, call; vec_init(stack); vec_init(call);
    for (uint32_t u = 0; u < n; u++) index[u] = UINT32_MAX;
    for (uint32_t s0 = 0; s0 < n; s0++) {
        if (index[s0] != UINT32_MAX) continue;
        index[s0] = low[s0] = idx++; fill[s0] = 0; vec_push(stack, s0); on[s0] = 1; vec_push(call, s0);
        while (call.len) {
            uint32_t u = vec_last(call), na = g->start[u + 1] - g->start[u], j = fill[u];
            if (j < na + (ls[u + 1] - ls[u])) {
                uint32_t v = j < na ? g->adj[g->start[u] + j] : la[ls[u] + j - na];
                fill[u]++;
                if (index[v] == UINT32_MAX) {
                    index[v] = low[v] = idx++; fill[v] = 0; vec_push(stack, v); on[v] = 1; vec_push(call, v);
                } else if (on[v] && index[v] < low[u]) low[u] = index[v];
                continue;
            }
            call.len--;
            if (call.len) { uint32_t q = vec_last(call); if (low[u] < low[q]) low[q] = low[u]; }
            if (low[u] != index[u]) continue;
            uint32_t w;
            do { w = stack.data[--stack.len]; on[w] = 0; comp[w] = nc; } while (w != u);
            nc++;
        }
    }
    int found = 0;
    for (size_t i = 0; i + 1 < item->len && !found; i += 2) {
        uint32_t rd = item->data[i], c = item->data[i + 1];
        if (comp[rd] != comp[c]) continue;
        /* breadth first from c to rd (they share a component: it ends) */
        uint32_t *par = index, *queue = low, qh = 0, qt = 0;
        for (uint32_t u = 0; u < n; u++) par[u] = UINT32_MAX;
        queue[qt++] = c; par[c] = c;
        while (qh < qt && par[rd] == UINT32_MAX) {
            uint32_t u = queue[qh++], na = g->start[u + 1] - g->start[u];
            for (uint32_t j = 0; j < na + (ls[u + 1] - ls[u]); j++) {
                uint32_t v = j < na ? g->adj[g->start[u] + j] : la[ls[u] + j - na];
                if (par[v] == UINT32_MAX) { par[v] = u; queue[qt++] = v; }
            }
        }
        for (uint32_t x = rd; ; x = par[x]) { vec_push(*cyc, x); if (x == c) break; }
        for (size_t a = 0, b = cyc->len - 1; a < b; a++, b--) {
            uint32_t t = cyc->data[a]; cyc->data[a] = cyc->data[b]; cyc->data[b] = t;
        }
        found = 1;
    }
    vec_free(stack); vec_free(call);
    free(index); free(low); free(comp); free(on); free(ls); free(la); free(fill);
    return found;
}

/* The cycle's arcs as dependencies: each arc's kind and key are those of
 * the first edge of the sequence with its ends (the first in its tail's
 * arc list), found by a third pass in the CSR's parts on the pool (the
 * first part that finds one: one pass's answer); fixed arcs are left out. */
static void nodes_to_deps(vgraph *g, const history *h, const version_order *vo, const uint8_t *part,
                          const vreads *r, const vec_u32 *cyc, struct par_pool *pool, int prio, dep_edge_vec *out) {
    vec_clear(*out);
    size_t n = cyc->len;
    g->cyc = cyc->data; g->clen = n;
    g->on = xcalloc(g->n ? g->n : 1, 1);
    g->ckey = xcalloc(n + 1, sizeof *g->ckey); g->ckind = xcalloc(n + 1, 1); g->cfound = xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) g->on[cyc->data[i]] = 1;
    uint32_t G;
    vpart *parts = vg_parts(g, r, pool, VG_FIND, &G);
    for (uint32_t j = 0; j <= G; j++) {
        vpart *p = &parts[j];
        p->clk = j == 0 ? g->clk : NULL; p->g = g; p->prw = g->prw; p->nprw = g->nprw;
        p->fkey = xcalloc(n + 1, sizeof *p->fkey); p->fkind = xcalloc(n + 1, 1); p->ffound = xcalloc(n + 1, 1);
    }
    vg_job job = { vo, r, G, parts, h, part };
    par_pool_run_prio(pool, prio, (size_t)G + 1, vg_part_task, &job);
    for (size_t i = 0; i < n; i++)
        for (uint32_t j = 0; j <= G && !g->cfound[i]; j++)
            if (parts[j].ffound[i]) { g->cfound[i] = 1; g->ckind[i] = parts[j].fkind[i]; g->ckey[i] = parts[j].fkey[i]; }
    for (uint32_t j = 0; j <= G; j++) { free(parts[j].fkey); free(parts[j].fkind); free(parts[j].ffound); }
    free(parts);
    /* start at a transaction's node: a run of clock ticks becomes one RT edge */
    uint32_t real = g->clk ? g->clk->base : g->n;
    size_t first = 0;
    while (first < n && cyc->data[first] >= real) first++;
    uint32_t rt_from = UINT32_MAX;
    for (size_t q = 0; q < n && first < n; q++) {
        size_t i = (first + q) % n;
        uint32_t a = cyc->data[i], b = cyc->data[(i + 1) % n];
        dep_kind k = (dep_kind)g->ckind[i];
        if (!g->cfound[i] || k == DEP_FIXED) continue;   /* not found: cannot be, the arc was in the CSR */
        if (k == DEP_RT) {
            if (a < real) rt_from = g->si ? a >> 1 : a;
            if (b < real) {
                dep_edge e = { rt_from, g->si ? b >> 1 : b, HISTORY_NONE, (uint8_t)DEP_RT };
                vec_push(*out, e);
            }
            continue;
        }
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
    for (size_t i = 0; i < tries; i++)         /* only a shorter cycle than the best so far replaces it */
        if (vg_shortest_through(g, cyc->data[i], best->len ? best->len - 1 : SIZE_MAX, parent, queue, &cur) &&
            (!best->len || cur.len < best->len)) {
            vec_clear(*best);
            for (size_t j = 0; j < cur.len; j++) vec_push(*best, cur.data[j]);
        }
    if (!best->len)
        for (size_t j = 0; j < cyc->len; j++) vec_push(*best, cyc->data[j]);
    free(parent); free(queue);
    vec_free(cur);
}

typedef struct vm_done { int64_t t; uint32_t txn; } vm_done;
static int cmp_done(const void *a, const void *b) {
    const vm_done *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return (x->txn > y->txn) - (x->txn < y->txn);
}

/* The clock of the participants' times (read from h->times directly: see
 * vm_internal.h on what a re-checker may call). */
static void vm_clock_build(vm_clock *k, const history *h, const uint8_t *part, uint32_t base) {
    memset(k, 0, sizeof *k);
    k->base = base;
    vec_init(k->into);
    const int64_t *inv = h->times[TIME_INVOKE], *cmp = h->times[TIME_COMPLETE];
    if (!inv || !cmp) return;
    VEC(vm_done) d; vec_init(d);
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (part[t] && h->txns[t].status == TXN_COMMITTED && cmp[t] != HISTORY_TIME_NONE) {
            vm_done x = { cmp[t], t };
            vec_push(d, x);
        }
    if (d.len > 1) qsort(d.data, d.len, sizeof *d.data, cmp_done);
    k->m = (uint32_t)d.len;
    k->a = xmalloc((d.len ? d.len : 1) * sizeof *k->a);
    for (uint32_t j = 0; j < k->m; j++) k->a[j] = d.data[j].txn;
    for (uint32_t b = 1; b < h->num_txns; b++) {
        if (!part[b] || inv[b] == HISTORY_TIME_NONE) continue;
        uint32_t lo = 0, hi = k->m;              /* ticks completed before b's invocation: [0, lo) */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (d.data[mid].t < inv[b]) lo = mid + 1; else hi = mid;
        }
        if (lo) { vec_push(k->into, lo - 1); vec_push(k->into, b); }
    }
    vec_free(d);
}

int vm_graph_check(const history *h, const version_order *vo, vm_mode mode, const uint8_t *part, const vreads *r,
                   const uint32_t *rank, size_t nrank, int *by_rank, struct par_pool *pool, int prio,
                   dep_edge_vec *cycle, char *why, size_t wl) {
    vgraph g; memset(&g, 0, sizeof g);
    g.n = mode.si ? 2 * h->num_txns : h->num_txns;
    g.si = mode.si;
    g.mode = mode;
    g.rw_arc = SIZE_MAX;
    vm_clock clk;
    if (mode.rt) { vm_clock_build(&clk, h, part, g.n); g.n += clk.m; g.clk = &clk; }
    vg_u64_vec prw; vec_init(prw);
    if (mode.rr) { vg_pred_pairs(h, part, &prw); g.prw = prw.data; g.nprw = prw.len; }
    int rc;
    /* every arc up the rank: no cycle (the plain levels' answer is their arcs' acyclicity) */
    int ranked = rank && nrank == g.n && !mode.rt && !mode.psi && !mode.rr && vg_ranked(&g, h, vo, part, r, rank, pool, prio);
    if (by_rank) *by_rank = ranked;
    if (ranked) rc = 1;
    else if (!vg_build(&g, h, vo, part, r, pool, prio, why, wl)) rc = -1;
    else {
        vec_u32 cyc; vec_init(cyc);
        rc = vg_find_cycle(&g, &cyc) ? 0 : 1;
        if (rc == 0 && cycle) {
            vec_u32 best; vec_init(best);
            vg_shorten(&g, &cyc, &best);
            nodes_to_deps(&g, h, vo, part, r, &best, pool, prio, cycle);
            vec_free(best);
        }
        if (rc == 1 && mode.psi) {
            vec_u32 rw; vec_init(rw);
            vpart p = { 0, VG_RW, &g.mode, NULL, &rw, NULL, NULL, 0, &g, NULL, NULL, 0, NULL, 0, NULL, NULL, NULL };
            vg_emit_keys(&p, vo, r, 0, r->ntasks);
            vec_clear(cyc);
            if (vg_psi(&g, &rw, &cyc)) {
                rc = 0;
                g.rw_arc = cyc.len - 1;          /* r -> c closes it */
                if (cycle) nodes_to_deps(&g, h, vo, part, r, &cyc, pool, prio, cycle);
            }
            vec_free(rw);
        }
        if (rc == 1 && mode.rr && (g.nprw || r->views.len)) {
            vec_u32 lazy, item; vec_init(lazy); vec_init(item);
            vpart p = { 0, VG_RW, &g.mode, NULL, &lazy, NULL, NULL, 0, &g, &item, g.prw, g.nprw, NULL, 0, NULL, NULL, NULL };
            vg_emit_keys(&p, vo, r, 0, r->ntasks);
            vg_emit_views(&p, r);
            vec_clear(cyc);
            if (vg_rr(&g, &lazy, &item, &cyc)) {
                rc = 0;
                g.rw_arc = cyc.len - 1;          /* r -> c, an item RW edge, closes it */
                g.find_lazy = 1;
                if (cycle) nodes_to_deps(&g, h, vo, part, r, &cyc, pool, prio, cycle);
            }
            vec_free(lazy); vec_free(item);
        }
        vec_free(cyc);
    }
    vec_free(prw);
    vg_free(&g);
    if (mode.rt) { free(clk.a); vec_free(clk.into); }
    return rc;
}
