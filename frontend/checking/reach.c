/* reach.c — reachability summary of a polygraph's known graph.
 *
 * Almost every transaction lies on a session chain (session order makes
 * each session a path of the graph, in the split graph T'0 T0 T'1 T1 ...),
 * so reachability is summarized per node as the earliest position it
 * reaches on every chain: reach[u][c] = min position on chain c reachable
 * from u.  Since a chain is a path, u reaches v iff reach[u][chain v] <=
 * pos v.  Computed in reverse topological order (depgraph.h): O((V + E) * chains)
 * time and V * chains entries — linear in the history, unlike PolySI's full
 * transitive closure.
 *
 * An entry is an offset from the row's frame (reach_rows.c): where every
 * chain stood at the node's point of the topological order, kept every
 * 2^reach_frame_shift nodes.  What a node reaches lies after it in that
 * order, so at or after its frame, and close to it (the dependency paths'
 * lag), however far the sessions drift apart.  Offsets are 16 bits when
 * computed and stored in a byte when they fit (104 bytes a row instead of
 * 204 at 100 sessions, 120 on the split graph); one that does not fit 16
 * bits is stored as "none known" — every entry is a position the node
 * truly reaches, or none, so a lost fact only costs pruning, never a
 * false answer.
 *
 * Pruning rounds only append edges, so after the first table each
 * pg_reach relaxes the rows the new edges can change (reach_incr.c) instead of
 * recomputing all of them.
 *
 * A full table is built on the level's threads by bands of rows (see
 * full_table); incremental renewals run on one thread.  A row merges its
 * successors earliest first and skips those it already reaches through
 * the exact rows merged before (row_build): about two in three at 1M
 * transactions, whose rows are never read; the table is the same.
 *
 * When the known graph has a cycle, acyclic is 0 and topo_pos orders the
 * nodes Kahn could not place after the others (an approximate order, used
 * only to pick a version order for the failure report). */
#include "frontend/checking/polygraph.h"
#include "frontend/checking/depgraph.h"
#include "frontend/checking/reach_rows.h"
#include "io/bigmem.h"
#include "par.h"
#include "spin_wait.h"

#include <stdatomic.h>

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The known graph in adjacency form, as dg_build would make it from the
 * known edges followed by the fixed ones (same per-node arc order, hence
 * the same Kahn order), built straight from g->known without a copy. */
/* (no_arc, reach_rows.h: psi's and rr's lazy RW edges are no arcs) */

/* The arrays a call makes for the known graph, kept between calls from
 * the first table until pruning ends (pg_reach_keep_scratch; pg_reach,
 * pg_prune, pg_reach_free): each is written whole before it is
 * read (start zeroed first), so what a kept one held before changes
 * nothing; adj grows with the edges (by mremap: no copy). */
typedef struct reach_scratch {
    uint32_t *start, *adj, *order;
    size_t adj_cap;              /* entries */
} reach_scratch;

void pg_reach_keep_scratch(polygraph *g, int on) {
    reach_scratch *sc = g->reach_scratch;
    if (on && !sc) g->reach_scratch = xcalloc(1, sizeof *sc);
    if (on || !sc) return;
    free(sc->start); free(sc->adj); free(sc->order);
    free(sc);
    g->reach_scratch = NULL;
}

/* The known graph's arcs are counted by two tasks on the level's pool,
 * each reading every known edge in order: one counts each node's
 * out-arcs (the adjacency's places), the other its in-arcs (Kahn's
 * in-degrees, dg_topo_order_from).  Two tasks then write the arcs out of
 * the nodes below a cut and the rest, in the one-pass order (a node's
 * known edges in order, then the fixed edge).  Counts and places are
 * scattered over the nodes: each asked for ADJ_AHEAD edges before. */
#define ADJ_AHEAD 16
typedef struct adj_job {
    const polygraph *g;
    uint32_t *count[2];          /* out-arcs (at node + 1), in-arcs (at node * stride) */
    uint32_t stride;
} adj_job;

static void adj_count_task(void *ctx, size_t task) {
    const adj_job *j = ctx;
    const polygraph *g = j->g;
    const pg_edge *e = g->known.data;
    size_t E = g->known.len;
    uint32_t *cnt = j->count[task], T = g->num_nodes / 2;
    if (task == 0) {
        for (size_t i = 0; i < E; i++) {
            if (i + ADJ_AHEAD < E) __builtin_prefetch(&cnt[e[i + ADJ_AHEAD].from + 1], 1);
            if (!no_arc(g, &e[i])) cnt[e[i].from + 1]++;
        }
        if (g->split) for (uint32_t t = 0; t < T; t++) if (g->ix->in_graph[t]) cnt[dg_start(t) + 1]++;
        return;
    }
    size_t S = j->stride;
    for (size_t i = 0; i < E; i++) {
        if (i + ADJ_AHEAD < E) __builtin_prefetch(&cnt[e[i + ADJ_AHEAD].to * S], 1);
        if (!no_arc(g, &e[i])) cnt[e[i].to * S]++;
    }
    if (g->split) for (uint32_t t = 0; t < T; t++) if (g->ix->in_graph[t]) cnt[dg_commit(t) * S]++;
}

typedef struct adj_fill_job { const polygraph *g; dg_graph *dg; uint32_t *fill, from[3]; } adj_fill_job;
static void adj_fill_task(void *ctx, size_t task) {   /* the arcs out of from[task] .. from[task + 1] - 1 */
    const adj_fill_job *j = ctx;
    const pg_edge *e = j->g->known.data;
    uint32_t *fill = j->fill, *adj = j->dg->adj, lo = j->from[task], w = j->from[task + 1] - lo;
    for (size_t i = 0, E = j->g->known.len; i < E; i++) {
        if (i + ADJ_AHEAD < E && e[i + ADJ_AHEAD].from - lo < w) __builtin_prefetch(&fill[e[i + ADJ_AHEAD].from], 1);
        if (e[i].from - lo < w && !no_arc(j->g, &e[i])) adj[fill[e[i].from]++] = e[i].to;
    }
    for (uint32_t t = 0, T = j->g->split ? j->g->num_nodes / 2 : 0; t < T; t++)
        if (j->g->ix->in_graph[t] && dg_start(t) - lo < w) adj[fill[dg_start(t)]++] = dg_commit(t);
}

/* The known graph's adjacency into dg, and every node's in-degree into
 * indeg[u * stride] (stride N entries, zeroed here). */
static void build_adjacency(const polygraph *g, dg_graph *dg, uint32_t *indeg, uint32_t stride) {
    uint32_t N = g->num_nodes, T = g->split ? N / 2 : N;
    size_t E = g->known.len, M = E + (g->split ? T : 0);
    reach_scratch *sc = g->reach_scratch;
    dg->n = N;
    dg->eid = NULL;
    if (sc && sc->start) memset(dg->start = sc->start, 0, ((size_t)N + 1) * sizeof *dg->start);
    else dg->start = big_calloc((size_t)N + 1, sizeof *dg->start);
    if (!sc) dg->adj = big_malloc((M + 1) * sizeof *dg->adj);
    else {
        if (sc->adj_cap < M + 1) { sc->adj = big_realloc(sc->adj, (M + 1) * sizeof *sc->adj); sc->adj_cap = M + 1; }
        dg->adj = sc->adj;
        sc->start = dg->start;
    }
    memset(indeg, 0, (N ? N : 1) * (size_t)stride * sizeof *indeg);
    adj_job j = { g, { dg->start, indeg }, stride };
    par_pool_run_prio(pg_threads_for(g, M) > 1 ? g->pool : NULL, g->prio, 2, adj_count_task, &j);
    for (uint32_t u = 0; u < N; u++) dg->start[u + 1] += dg->start[u];
    uint32_t *fill = xmalloc(((size_t)N + 1) * sizeof *fill);
    memcpy(fill, dg->start, ((size_t)N + 1) * sizeof *fill);
    uint32_t lo = 0, hi = N;                        /* the tasks' cut: the first node at half of the arcs */
    while (lo < hi) { uint32_t mid = lo + (hi - lo) / 2; if (dg->start[mid] < dg->start[N] / 2) lo = mid + 1; else hi = mid; }
    adj_fill_job f = { g, dg, fill, { 0, lo, N } };
    par_pool_run_prio(pg_threads_for(g, M) > 1 ? g->pool : NULL, g->prio, 2, adj_fill_task, &f);
    free(fill);
}

/* Rows: has_row and row_of, reach_rows.h. */
pg_reach_half_id pg_reach_half_mode = PG_REACH_HALF_AUTO;

/* ---- the full table ---------------------------------------------------
 * A row is computed from its successors' final rows, in its frame: each
 * successor's offsets moved from its own frame (the same or a later one)
 * to the row's, so a row is built in the 16-bit domain.  One pass in
 * reverse topological order on one thread.
 *
 * On several threads the table is built by bands (level-synchronous):
 * a node's depth is the longest path to it from a node of in-degree 0,
 * so its successors are all deeper and the rows of one depth depend on
 * none of each other.  The row nodes, deepest first, are handed out in
 * chunks from one counter; a row is marked done once written, and a row
 * that needs a successor still being written by another thread (only
 * near a depth's end) waits for its mark.  The depths come with Kahn's
 * order (dg_topo_order_depth: beside each node's in-degree, in the cache
 * line Kahn's pass touches anyway); until stop 46 the bands were heights
 * (the longest path to a sink), a serial pass over every arc of its own
 * after Kahn's.  (Handing out the reverse topological order itself, with
 * no bands, was tried: about one row in a hundred then waited, most
 * past a spin, for a successor a chunk or two away.)  Every row is a
 * function of its successors' final rows, so the table is the serial
 * pass's, byte for byte, whatever the schedule.  The threads split the
 * rows, not the chains: the pass is bound by the latency of fetching
 * successors' rows, which splitting the columns only doubled
 * (doc/benchmarks.md, "Threads, second pass"). */

typedef struct reach_job {
    polygraph *g;
    const uint32_t *start, *adj;
    const uint32_t *lv;          /* banded: row nodes by depth, deepest first */
    uint32_t nlv, chunk, maxdeg;
    int banded;                  /* rows are built on several threads: wait for a row's state */
    _Atomic uint8_t *state;      /* per row: unwritten (0), exact (ROW_EXACT) or lossy */
    atomic_size_t next_chunk;
} reach_job;

/* A node's row index (its node, or its transaction in a half table). */
static inline uint32_t row_index(const polygraph *g, uint32_t u) { return g->reach_half ? u >> 1 : u; }

int pg_reach_skip = 1;
_Atomic uint64_t pg_reach_skipped;

/* A written row's state: every entry exact (the earliest position the
 * node reaches on that chain, none only when it reaches none), or maybe
 * not (a fact lost on the way: 16-bit offsets, pg_reach_delta_max). */
#define ROW_EXACT 1u
#define ROW_LOSSY 2u

/* Row node x's state, once its row is final. */
static inline unsigned final_state(const reach_job *j, uint32_t x) {
    _Atomic uint8_t *sx = &j->state[row_index(j->g, x)];
    unsigned st = atomic_load_explicit(sx, memory_order_acquire);
    if (!st && j->banded) st = spin_wait_nonzero(sx);   /* its writer is close to done (same band) */
    return st;
}

/* A successor's row: every cache line of it asked for at once, so that
 * the row's misses overlap each other and the next rows' instead of
 * coming one by one in the entries' loop (the pass is bound by the
 * latency of these reads).  A hint: the row may still be being written. */
static inline void row_fetch(const reach_job *j, uint32_t x) {
    const uint8_t *r = row_of(j->g, x);
    for (uint32_t o = 0; o < j->g->reach_stride; o += 64) __builtin_prefetch(r + o);
    __builtin_prefetch(r + j->g->reach_stride - 1);
}

/* Row node x's final row into acc (frame k); 1 if acc took its exact
 * entries (the row is exact and none was lost moving it to frame k). */
static inline int merge_row(const reach_job *j, uint16_t *acc, uint32_t k, uint32_t x, uint8_t *bit, uint16_t *tmp) {
    unsigned st = final_state(j, x);
    return !reach_rows_into(j->g, acc, k, row_of(j->g, x), bit, tmp) && st == ROW_EXACT;
}

/* What successor x contributes, into acc: its row, or a start node's own
 * position and its arcs' rows; 1 if exactly. */
static int merge_succ(const reach_job *j, uint16_t *acc, uint32_t k, uint32_t x, uint8_t *bit, uint16_t *tmp) {
    const polygraph *g = j->g;
    if (has_row(g, x)) return merge_row(j, acc, k, x, bit, tmp);
    int exact = !reach_rows_own(g, acc, k, pg_node_chain(g, x), pg_node_pos(g, x));
    uint8_t cls = g->sclass[x >> 1];
    if (cls & PG_SOUT_OWN) exact &= merge_row(j, acc, k, x - 1, bit, tmp);
    if (cls & PG_SOUT_MORE)
        for (uint32_t f = g->sout_start[x >> 1]; f < g->sout_start[(x >> 1) + 1]; f++)
            exact &= merge_row(j, acc, k, 2 * g->sout[f], bit, tmp);
    return exact;
}

/* Whether acc, the exact minima over some successors' rows (frame k),
 * already reaches successor x: at or before x on x's chain.  Then one of
 * those successors reaches x, so its exact row is at most x's entry by
 * entry (what x reaches it reaches), and x's row (at most as small: its
 * facts are true ones) changes no entry of acc. */
static inline int dominated(const reach_job *j, const uint16_t *acc, uint32_t k, uint32_t x) {
    const polygraph *g = j->g;
    uint32_t c = pg_node_chain(g, x);
    if (c >= g->num_chains || acc[c] == PG_REACH_NONE) return 0;
    return g->reach_frame[(size_t)k * g->num_chains + c] + acc[c] <= pg_node_pos(g, x);
}

/* Ask for what sorted_succ and dominated will read of u's successors
 * (their places in the order; their chains and positions, in their
 * transactions' records or the index's chain arrays; a start node's class
 * byte: a miss each, ahead of their use). */
static inline void succ_fetch(const reach_job *j, uint32_t u) {
    const polygraph *g = j->g;
    const pg_index *ix = g->ix;
    for (uint32_t e = j->start[u]; e < j->start[u + 1]; e++) {
        uint32_t x = j->adj[e], t = pg_node_txn(g, x);
        __builtin_prefetch(&g->topo_pos[x]);
        if (!has_row(g, x)) __builtin_prefetch(&g->sclass[t]);
        if (ix->chain_sess) { __builtin_prefetch(&ix->chain_sess[t]); __builtin_prefetch(&ix->chain_pos[t]); }
        else __builtin_prefetch(&ix->h->txns[t]);
    }
}

/* What merge_succ will read of successor x: its row and state, or a
 * start node's arcs' rows (and its own commit's state).  Hints only. */
static inline void succ_rows_fetch(const reach_job *j, uint32_t x) {
    const polygraph *g = j->g;
    if (has_row(g, x)) { row_fetch(j, x); __builtin_prefetch(&j->state[row_index(g, x)]); return; }
    uint8_t cls = g->sclass[x >> 1];
    if (cls & PG_SOUT_OWN) { row_fetch(j, x - 1); __builtin_prefetch(&j->state[row_index(g, x - 1)]); }
    if (cls & PG_SOUT_MORE)
        for (uint32_t f = g->sout_start[x >> 1]; f < g->sout_start[(x >> 1) + 1]; f++) row_fetch(j, 2 * g->sout[f]);
}

/* The rows of row node u's successor earliest in the order, the one
 * row_build merges first (whose places succ_fetch asked for).  A hint. */
static inline void first_fetch(const reach_job *j, uint32_t u) {
    const uint32_t *topo = j->g->topo_pos;
    uint32_t a = j->start[u], b = j->start[u + 1];
    if (a == b) return;
    uint32_t best = j->adj[a];
    for (uint32_t e = a + 1; e < b; e++)
        if (topo[j->adj[e]] < topo[best]) best = j->adj[e];
    succ_rows_fetch(j, best);
}

/* u's successors, earliest in the order first (the earliest is the one
 * most likely to reach the others), into succ (room for maxdeg). */
static uint32_t sorted_succ(const reach_job *j, uint32_t u, uint64_t *succ) {
    const uint32_t *topo = j->g->topo_pos;
    uint32_t n = 0;
    for (uint32_t e = j->start[u]; e < j->start[u + 1]; e++) {
        uint64_t key = (uint64_t)topo[j->adj[e]] << 32 | j->adj[e];
        uint32_t i = n++;
        if (n > 32) { succ[i] = key; continue; }
        for (; i > 0 && succ[i - 1] > key; i--) succ[i] = succ[i - 1];
        succ[i] = key;
    }
    if (n > 32) qsort(succ, n, sizeof *succ, cmp_u64);
    return n;
}

/* Row node u's entries from its successors' final rows, in u's frame
 * (every successor lies after u in the order, so in u's frame or a later
 * one: nothing is lost to the frame).  The successors are merged earliest
 * first, and while every row merged so far was exact (and exactly moved)
 * a successor acc already reaches is skipped (dominated): at 1M
 * transactions about two successors in three, whose rows need not be
 * read at all.  The row is the minimum over every successor either way,
 * the same table as merging them all.  Only the first successor's rows
 * are asked for at once (first_fetch asked a row before); the others',
 * once it is merged, unless it already reaches them (they would be
 * skipped: asking for every row fetched about two rows in three for nothing).
 * acc, tmp, bit, succ: scratch (the row's width; maxdeg).  Returns the
 * row's state. */
static unsigned row_build(const reach_job *j, uint32_t u, uint16_t *restrict acc, uint16_t *restrict tmp,
                          uint8_t *restrict bit, uint64_t *succ, uint64_t *skipped) {
    polygraph *g = j->g;
    uint32_t S = g->num_chains, k = g->topo_pos[u] >> g->reach_frame_shift;
    uint32_t n = sorted_succ(j, u, succ);
    if (n) succ_rows_fetch(j, (uint32_t)succ[0]);
    for (uint32_t x = 0; x < S; x++) acc[x] = PG_REACH_NONE;
    int exact = 1, skip = pg_reach_skip;     /* exact: acc holds the exact minima over the successors merged */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = (uint32_t)succ[i];
        if (i == 1)                          /* the rows the merge loop may read: a hint */
            for (uint32_t q = 1; q < n; q++)
                if (!(skip && exact && dominated(j, acc, k, (uint32_t)succ[q]))) succ_rows_fetch(j, (uint32_t)succ[q]);
        if (skip && exact && dominated(j, acc, k, x)) { ++*skipped; continue; }
        exact &= merge_succ(j, acc, k, x, bit, tmp);
    }
    exact &= !reach_rows_own(g, acc, k, pg_node_chain(g, u), pg_node_pos(g, u));
    exact &= !reach_rows_clamp(acc, S);
    reach_rows_store(g, row_of(g, u), k, acc, 0, bit);
    return exact ? ROW_EXACT : ROW_LOSSY;
}

/* Rows handed out per chunk: at most 64 (about a hundred microseconds of
 * work), fewer on small tables so that every thread gets some. */
#define BAND_CHUNK 64u

/* What the rows after row i of the band order read first, in stages (the
 * rows are ordered by depth: their nodes' arcs lie anywhere): row i + 4's
 * place in the adjacency, row i + 3's arcs, row i + 2's successors'
 * records (succ_fetch), row i + 1's first successor's rows (first_fetch).
 * Each stage reads what the one before asked for.  Hints only. */
static inline void band_fetch(const reach_job *j, size_t i) {
    const uint32_t *lv = j->lv;
    size_t n = j->nlv;
    if (i + 4 < n) __builtin_prefetch(&j->start[lv[i + 4]]);
    if (i + 3 < n) {
        uint32_t x = lv[i + 3], a = j->start[x], b = j->start[x + 1];
        if (b > a) { __builtin_prefetch(&j->adj[a]); __builtin_prefetch(&j->adj[b - 1]); }
    }
    if (i + 2 < n) succ_fetch(j, lv[i + 2]);
    if (i + 1 < n) first_fetch(j, lv[i + 1]);
}

static void band_task(void *ctx, size_t task) {
    (void)task;
    reach_job *j = ctx;
    uint32_t S = j->g->num_chains;
    uint16_t *acc = xmalloc(2 * ((size_t)S + 1) * sizeof *acc);
    uint8_t *bit = xmalloc((size_t)S + 8);
    uint64_t *succ = xmalloc(((size_t)j->maxdeg + 1) * sizeof *succ), skipped = 0;
    for (;;) {
        size_t lo = atomic_fetch_add_explicit(&j->next_chunk, 1, memory_order_relaxed) * j->chunk;
        if (lo >= j->nlv) break;
        size_t hi = lo + j->chunk < j->nlv ? lo + j->chunk : j->nlv;
        for (size_t i = lo; i < hi; i++) {
            uint32_t u = j->lv[i];
            band_fetch(j, i);
            unsigned st = row_build(j, u, acc, acc + S + 1, bit, succ, &skipped);
            atomic_store_explicit(&j->state[row_index(j->g, u)], (uint8_t)st, memory_order_release);
        }
    }
    atomic_fetch_add_explicit(&pg_reach_skipped, skipped, memory_order_relaxed);
    free(acc); free(bit); free(succ);
}

/* The row nodes by depth, deepest first (by node id within one), into
 * order[0 .. rows): a row's successors are all deeper, and the rows of
 * one depth need none of each other's.  depth: by row (rows_depth). */
static void order_by_depth(const polygraph *g, const uint32_t *depth, uint32_t *order, uint32_t rows) {
    uint32_t maxd = 0;
    for (uint32_t r = 0; r < rows; r++) maxd = depth[r] > maxd ? depth[r] : maxd;
    uint32_t *cnt = xcalloc((size_t)maxd + 2, sizeof *cnt);
    for (uint32_t r = 0; r < rows; r++) cnt[maxd - depth[r] + 1]++;
    for (uint32_t d = 0; d <= maxd; d++) cnt[d + 1] += cnt[d];
    for (uint32_t r = 0; r < rows; r++) order[cnt[maxd - depth[r]]++] = g->reach_half ? 2 * r : r;
    free(cnt);
}

/* The row nodes' depths, by row, moved to the front of deg (node u's at
 * deg[2 u + 1]: dg_topo_order_depth, over every node, a start node of a
 * half table lying between its commits; row r's node is r or 2 r, its
 * depth at 2 r + 1 or 4 r + 1, never before place r) and the rest given
 * back: 4 bytes a row while the rows are sorted, as the heights took. */
static uint32_t *rows_depth(const polygraph *g, uint32_t *deg, uint32_t rows) {
    for (uint32_t r = 0; r < rows; r++) deg[r] = deg[2 * (size_t)(g->reach_half ? 2 * r : r) + 1];
    uint32_t *d = realloc(deg, (rows ? rows : 1) * sizeof *deg);
    return d ? d : deg;
}

/* Every row.  order: a topological order of all nodes, or when banded
 * the row nodes by depth (order_by_depth). */
static void full_table(polygraph *g, const dg_graph *dg, const uint32_t *order, int banded) {
    uint32_t N = g->num_nodes, rows = g->reach_half ? N / 2 : N;
    reach_job j = { .g = g, .start = dg->start, .adj = dg->adj };
    for (uint32_t u = 0; u < N; u++) {
        uint32_t d = dg->start[u + 1] - dg->start[u];
        j.maxdeg = d > j.maxdeg ? d : j.maxdeg;
    }
    j.state = xcalloc(rows ? rows : 1, sizeof *j.state);
    unsigned threads = banded ? pg_threads_for(g, (uint64_t)rows * g->num_chains) : 1;
    if (threads <= 1) {
        uint16_t *acc = xmalloc(2 * ((size_t)g->num_chains + 1) * sizeof *acc);
        uint8_t *bit = xmalloc((size_t)g->num_chains + 8);
        uint64_t *succ = xmalloc(((size_t)j.maxdeg + 1) * sizeof *succ), skipped = 0;
        for (uint32_t i = N; i-- > 0;)
            if (has_row(g, order[i])) {
                if (i > 0) succ_fetch(&j, order[i - 1]);
                unsigned st = row_build(&j, order[i], acc, acc + g->num_chains + 1, bit, succ, &skipped);
                atomic_store_explicit(&j.state[row_index(g, order[i])], (uint8_t)st, memory_order_relaxed);
            }
        atomic_fetch_add_explicit(&pg_reach_skipped, skipped, memory_order_relaxed);
        free(acc); free(bit); free(succ); free((void *)j.state);
        return;
    }
    j.lv = order;
    j.nlv = rows;
    j.chunk = rows / (16 * threads);
    j.chunk = j.chunk < 1 ? 1 : j.chunk > BAND_CHUNK ? BAND_CHUNK : j.chunk;
    j.banded = 1;
    atomic_init(&j.next_chunk, 0);
    par_pool_run_prio(g->pool, g->prio, threads, band_task, &j);
    free((void *)j.state);
}

/* The split graph's start nodes' arcs (to commits, as transactions), kept
 * with the table for pg_reach_at and read by the full build: per
 * transaction a class byte (the fixed arc to its own commit; other arcs),
 * and the other arcs in a list.  Only start nodes with arcs besides the
 * fixed one (RW edges: few before pruning) have entries in the list. */
static void build_start_arcs(polygraph *g, const dg_graph *dg) {
    free(g->sclass); free(g->sout_start); free(g->sout);
    g->sclass = NULL; g->sout_start = NULL; g->sout = NULL;
    if (!g->reach_half) return;
    uint32_t T = g->num_nodes / 2;
    size_t m = 0;
    g->sclass = xcalloc(T ? T : 1, 1);
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t e = dg->start[2 * t + 1]; e < dg->start[2 * t + 2]; e++) {
            if (dg->adj[e] == 2 * t) g->sclass[t] |= PG_SOUT_OWN;
            else { g->sclass[t] |= PG_SOUT_MORE; m++; }
        }
    g->sout_start = xmalloc(((size_t)T + 1) * sizeof *g->sout_start);
    g->sout = xmalloc((m ? m : 1) * sizeof *g->sout);
    m = 0;
    for (uint32_t t = 0; t < T; t++) {
        g->sout_start[t] = (uint32_t)m;
        for (uint32_t e = dg->start[2 * t + 1]; e < dg->start[2 * t + 2]; e++)
            if (dg->adj[e] != 2 * t) g->sout[m++] = dg->adj[e] >> 1;
    }
    g->sout_start[T] = (uint32_t)m;
}

pg_reach_mode_id pg_reach_mode = PG_REACH_AUTO;

/* Whether to try the incremental update for `added` new edges.  A visit
 * costs several times a full recomputation's row (a heap, the reverse
 * adjacency, relaxing row pairs), and an attempt that passes its limit is
 * thrown away, so hopeless attempts are skipped: measured on session
 * histories, every new edge changes dozens to a hundred ancestors' rows,
 * so past rows / 512 new edges the limit (a quarter of the rows) is
 * passed anyway (at 1M SI, pruning rounds 1-3 added 1.4M, 190k and 21k
 * edges and each attempt failed: 3.6 s of 11.6; at 2M round 3's 23k
 * edges visited the limit, 1M rows, in 1.6 s; the attempts that succeeded
 * visited 76-127 rows per new edge).  Nor is an attempt made
 * with at least half as many edges as one that failed on this table's
 * earlier renewals.  Either way the table is the same (both methods give
 * the least fixpoint); only the time differs. */
static int incremental_may_pay(const polygraph *g, size_t added, uint32_t rows) {
    if (added > rows / 512) return 0;
    return !g->reach_incr_failed || added < g->reach_incr_failed / 2;
}

/* Whether the table, when first built, has rows for the commits only. */
static int half_table(const polygraph *g) {
    if (g->reach) return g->reach_half;
    uint64_t full = (uint64_t)g->num_nodes * (((g->num_chains + 2 + 1) & ~1u) * sizeof *g->reach);
    return g->split && !g->ww_commit && pg_reach_half_mode != PG_REACH_HALF_NEVER &&   /* pc: WW joins commits */
           (pg_reach_half_mode == PG_REACH_HALF_ALWAYS || full > PG_REACH_HALF_ABOVE);
}

/* In nodes, whatever the layout: the pruning rule reads these counts, and
 * the half table is to change no result. */
uint64_t pg_reach_rows(const polygraph *g) { return g->num_nodes; }

/* An incremental renewal visits about a hundred rows per new edge (see
 * incremental_may_pay) and first builds the reverse adjacency, which costs
 * about a sixth of a full table.  Counted in nodes (pg_reach_rows). */
uint64_t pg_reach_renewal_rows(const polygraph *g) {
    uint64_t rows = pg_reach_rows(g);
    if (!g->reach || !g->reach_valid) return rows;
    size_t added = g->known.len - g->reach_edges;
    if (!added) return 0;
    if (pg_reach_mode == PG_REACH_FULL || (pg_reach_mode == PG_REACH_AUTO && !incremental_may_pay(g, added, (uint32_t)rows)))
        return rows;
    uint64_t est = 128 * (uint64_t)added + rows / 6;
    return est < rows ? est : rows;
}

static int compute(polygraph *g, int want_reach) {
    uint32_t N = g->num_nodes;
    g->reach_half = half_table(g);
    uint32_t rows = g->reach_half ? N / 2 : N;
    dg_graph dg;
    /* a banded full table orders its rows by depth, which Kahn's pass
     * finds beside each node's in-degree */
    int banded = want_reach && pg_threads_for(g, (uint64_t)rows * g->num_chains) > 1;
    uint32_t *deg = xmalloc((N ? N : 1) * (banded ? 2 : 1) * sizeof *deg);
    build_adjacency(g, &dg, deg, banded ? 2 : 1);
    reach_scratch *sc = g->reach_scratch;
    uint32_t *order = sc && sc->order ? sc->order : xmalloc((N ? N : 1) * sizeof *order);
    if (sc) sc->order = order;
    g->acyclic = banded ? dg_topo_order_depth(&dg, deg, order) : dg_topo_order_from(&dg, deg, order);
    if (banded) deg = rows_depth(g, deg, rows);
    if (!g->topo_pos) g->topo_pos = xmalloc((N ? N : 1) * sizeof *g->topo_pos);
    for (uint32_t i = 0; i < N; i++) g->topo_pos[order[i]] = i;

    if (!g->acyclic && want_reach) g->reach_valid = 0;   /* left as it was: stale */
    if (g->acyclic && want_reach) {
        /* a table for a prefix of these edges: update it, unless that
         * would touch a good part of the graph anyway */
        /* whether to try is decided in nodes, as pg_reach_renewal_rows
         * counts, for either layout; the limit is a quarter of the rows */
        uint32_t limit = pg_reach_mode == PG_REACH_INCREMENTAL ? UINT32_MAX : rows / 4;
        int done = 0;
        if (pg_reach_mode != PG_REACH_FULL && g->reach_valid && g->reach) {
            size_t added = g->known.len - g->reach_edges;
            if (!added) done = 1;                      /* nothing new: the table stands */
            else if (pg_reach_mode == PG_REACH_INCREMENTAL || incremental_may_pay(g, added, N)) {
                done = reach_update_incrementally(g, &dg, limit);
                if (!done && (!g->reach_incr_failed || added < g->reach_incr_failed)) g->reach_incr_failed = added;
            }
        }
        if (!done) {
            if (!g->reach) reach_rows_alloc(g, rows);
            reach_rows_frames(g, order);               /* before full_table may reorder order */
            atomic_store_explicit(&g->reach_wide_len, 0, memory_order_relaxed);   /* every row anew */
            build_start_arcs(g, &dg);                  /* row_build reads them */
            if (banded) order_by_depth(g, deg, order, rows);   /* order: now the rows by depth */
            free(deg);
            deg = NULL;
            full_table(g, &dg, order, banded);
        } else build_start_arcs(g, &dg);
        g->reach_valid = 1;
        g->reach_edges = g->known.len;
    }
    free(deg);
    if (!sc) { dg_free(&dg); free(order); }    /* else kept for the next call */
    return g->acyclic;
}

/* The first table's arrays are kept for the renewal that pruning makes
 * next (and the renewal's for the last order): pg_prune or pg_reach_free
 * lets them go. */
int pg_reach(polygraph *g) {
    if (!g->reach) pg_reach_keep_scratch(g, 1);
    return compute(g, 1);
}
int pg_order(polygraph *g) { return compute(g, 0); }

void pg_reach_drop_table(polygraph *g) {
    reach_rows_free(g);
    free(g->sclass); free(g->sout_start); free(g->sout);
    g->sclass = NULL; g->sout_start = NULL; g->sout = NULL;
    g->reach_valid = 0;
    /* the reader summaries serve only pg_side_blocked */
    vec_free(g->rsum);
    free(g->rsum_start); g->rsum_start = NULL;
    free(g->unit_slow); g->unit_slow = NULL;
}

void pg_reach_free(polygraph *g) {
    pg_reach_drop_table(g);
    pg_reach_keep_scratch(g, 0);
}
