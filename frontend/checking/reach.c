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
 * An entry is 16 bits: the offset from a per-row base, a lower bound of the
 * row computed first (the least of the node's own position and its
 * successors' bases).  Positions reached from one node lie close together
 * in real histories, so offsets fit; one that does not is stored as "none
 * known" — every entry is a position the node truly reaches, or none, so a
 * lost fact only costs pruning, never a false answer.  Up to 32767
 * transactions per session nothing can be lost.  At 10M transactions and
 * 100 sessions this halves the table (4 GB instead of 8).  Rows are stored
 * narrower still when their offsets fit a byte (see "the row layout"
 * below): 104 bytes a row instead of 204 at 100 sessions (120 on the split
 * graph), the same facts.
 *
 * Pruning rounds only append edges, so after the first table each
 * pg_reach relaxes the rows the new edges can change (below) instead of
 * recomputing all of them.
 *
 * A full table is built on the level's threads by bands of rows (see
 * full_table); incremental renewals run on one thread.
 *
 * When the known graph has a cycle, acyclic is 0 and topo_pos orders the
 * nodes Kahn could not place after the others (an approximate order, used
 * only to pick a version order for the failure report). */
#include "frontend/checking/polygraph.h"
#include "frontend/checking/depgraph.h"
#include "io/bigmem.h"
#include "par.h"

#include <sched.h>
#include <stdatomic.h>

#include <stdlib.h>
#include <string.h>

/* The known graph in adjacency form, as dg_build would make it from the
 * known edges followed by the fixed ones (same per-node arc order, hence
 * the same Kahn order), built straight from g->known without a copy. */
/* psi (rw_lazy): the known RW edges are no arcs; rr: its predicate ones. */
static inline int no_arc(const polygraph *g, const pg_edge *e) {
    return g->rw_lazy && PG_KIND(e->meta) == DEP_RW && pg_rw_lazy(g, e->from, PG_KEY(e->meta));
}

static void build_adjacency(const polygraph *g, dg_graph *dg) {
    const pg_index *ix = g->ix;
    uint32_t N = g->num_nodes, T = g->split ? N / 2 : N;
    size_t E = g->known.len, M = E + (g->split ? T : 0);
    dg->n = N;
    dg->start = big_calloc((size_t)N + 1, sizeof *dg->start);
    dg->adj = big_malloc((M + 1) * sizeof *dg->adj);
    dg->eid = NULL;
    for (size_t i = 0; i < E; i++) if (!no_arc(g, &g->known.data[i])) dg->start[g->known.data[i].from + 1]++;
    if (g->split)
        for (uint32_t t = 0; t < T; t++) if (ix->in_graph[t]) dg->start[dg_start(t) + 1]++;
    for (uint32_t u = 0; u < N; u++) dg->start[u + 1] += dg->start[u];
    uint32_t *fill = xmalloc(((size_t)N + 1) * sizeof *fill);
    memcpy(fill, dg->start, ((size_t)N + 1) * sizeof *fill);
    for (size_t i = 0; i < E; i++) if (!no_arc(g, &g->known.data[i])) dg->adj[fill[g->known.data[i].from]++] = g->known.data[i].to;
    if (g->split)
        for (uint32_t t = 0; t < T; t++) if (ix->in_graph[t]) dg->adj[fill[dg_start(t)]++] = dg_commit(t);
    free(fill);
}

/* Rows.  Every node has one, unless g->reach_half (the split graph, when
 * the full table would be large: pg_reach_half_mode).  There every edge
 * joins a commit and a start node (D: commit -> start, fixed and RW:
 * start -> commit), so only commit nodes get rows (row t for transaction
 * t): a start node's entries are its own position and the rows of the
 * commits it has arcs to (the fixed one to its own commit, its RW ones),
 * and a commit's row takes its successors' entries that way.  Half the
 * table, for the cost of gathering a start node's entries from its arcs
 * wherever its row was read before, once per commit with an arc into it. */
static inline int has_row(const polygraph *g, uint32_t u) { return !g->reach_half || !(u & 1); }
static inline uint8_t *row_of(const polygraph *g, uint32_t u) {
    return g->reach + (size_t)(g->reach_half ? u >> 1 : u) * g->reach_stride;
}

pg_reach_half_id pg_reach_half_mode = PG_REACH_HALF_AUTO;

/* The hot loops below are plain min/saturating-add loops over 16-bit
 * offsets; -O2's "very cheap" vectorizer leaves them scalar, so GCC is told
 * to use its "cheap" model for them (other compilers decide alone). */
#if defined(__GNUC__) && !defined(__clang__)
#define VECTORIZE __attribute__((optimize("vect-cost-model=cheap")))
#else
#define VECTORIZE
#endif

/* acc[x] = min(acc[x], src[x] + sh), the sum saturating at NONE: offsets
 * from one base moved to a base sh lower; one that no longer fits is lost.
 * sh < NONE. */
VECTORIZE static void min_shifted(uint16_t *restrict acc, const uint16_t *restrict src, uint32_t w, uint32_t sh) {
    for (uint32_t x = 0; x < w; x++) {
        uint32_t t = (uint32_t)src[x] + sh;
        t = t < PG_REACH_NONE ? t : PG_REACH_NONE;
        acc[x] = (uint16_t)(t < acc[x] ? t : acc[x]);
    }
}

/* The same from a narrow row's bytes (SER: offset d, 0xFF none). */
VECTORIZE static void min_narrow(uint16_t *restrict acc, const uint8_t *restrict src, uint32_t w, uint32_t sh) {
    for (uint32_t x = 0; x < w; x++) {
        uint32_t t = src[x] == PG_REACH_NARROW_NONE ? PG_REACH_NONE : (uint32_t)src[x] + sh;
        t = t < PG_REACH_NONE ? t : PG_REACH_NONE;
        acc[x] = (uint16_t)(t < acc[x] ? t : acc[x]);
    }
}

/* The same from a narrow split row: offset 2 d + bit, sh already less
 * the row base's parity (it may wrap: no stored entry lies below the
 * base, so the sum does not). */
VECTORIZE static void min_narrow_split(uint16_t *restrict acc, const uint8_t *restrict src, const uint8_t *restrict bit,
                                       uint32_t w, uint32_t sh) {
    for (uint32_t x = 0; x < w; x++) {
        uint32_t t = src[x] == PG_REACH_NARROW_NONE ? PG_REACH_NONE : 2u * src[x] + bit[x] + sh;
        t = t < PG_REACH_NONE ? t : PG_REACH_NONE;
        acc[x] = (uint16_t)(t < acc[x] ? t : acc[x]);
    }
}

/* A narrow split row's parity bits, a byte (0 or 1) an entry, eight at a
 * time (bit i of a bitmap byte to byte i of a word); bit has room for
 * num_chains rounded up to 8. */
static inline void parity_bytes(const polygraph *g, const uint8_t *row, uint8_t *restrict bit) {
    const uint8_t *bm = row + g->reach_bits_at;
    for (uint32_t k = 0; k < (g->num_chains + 7) / 8; k++) {
        uint64_t x = ((uint64_t)bm[k] * 0x0101010101010101ull) & 0x8040201008040201ull;
        x = ((x + 0x7F7F7F7F7F7F7F7Full) >> 7) & 0x0101010101010101ull;
        memcpy(bit + 8 * k, &x, sizeof x);
    }
}

/* Offsets past pg_reach_delta_max (a testing knob) become NONE. */
static void clamp_offsets(uint16_t *acc, uint32_t w) {
    uint32_t dmax = pg_reach_delta_max;
    if (dmax >= PG_REACH_NONE - 1) return;
    for (uint32_t x = 0; x < w; x++)
        if (acc[x] > dmax) acc[x] = PG_REACH_NONE;
}

/* Node x's own position into acc (a row with base bu <= it). */
static inline void own_into(uint16_t *acc, uint32_t bu, uint32_t cx, uint32_t px) {
    if (cx == HISTORY_NONE) return;
    uint32_t d = px - bu;
    d = d < PG_REACH_NONE ? d : PG_REACH_NONE;
    if (d < acc[cx]) acc[cx] = (uint16_t)d;
}

/* ---- the row layout ----------------------------------------------------
 * Rows are computed in their 16-bit form (a base and offsets from it, as
 * in polygraph.h) and stored narrow when every offset fits a byte (SER:
 * the offset; the split graph: offset + the base's parity, halved, with
 * the low bit in the row's bitmap), else wide.  A narrow row and a wide
 * row of one 16-bit form read the same, so the table holds the same facts
 * as a 16-bit table whatever its rows' layout. */
uint32_t pg_reach_narrow_max = 0xFE;

static uint16_t *wide_row_mut(const polygraph *g, uint32_t i) { return (uint16_t *)pg_reach_wide_row(g, i); }

/* A new wide row's index (any thread). */
static uint32_t wide_alloc(polygraph *g) {
    uint32_t i = atomic_fetch_add_explicit(&g->reach_wide_len, 1, memory_order_relaxed), k = i / PG_REACH_WIDE_CHUNK;
    if (!atomic_load_explicit(&g->reach_wide[k], memory_order_acquire)) {
        uint16_t *p = xmalloc((size_t)PG_REACH_WIDE_CHUNK * g->reach_wstride * sizeof *p), *none = NULL;
        if (!atomic_compare_exchange_strong_explicit(&g->reach_wide[k], &none, p, memory_order_acq_rel, memory_order_acquire))
            free(p);
    }
    return i;
}

/* The largest offset of acc (S entries) plus lo, 0 for none. */
VECTORIZE static uint32_t max_offset(const uint16_t *restrict acc, uint32_t S, uint32_t lo) {
    uint32_t need = 0;
    for (uint32_t x = 0; x < S; x++) {
        uint32_t m = acc[x] == PG_REACH_NONE ? 0 : (uint32_t)acc[x] + lo;
        need = m > need ? m : need;
    }
    return need;
}

/* A narrow row's bytes (and split: parity bytes into bit) from acc. */
VECTORIZE static void narrow_bytes(uint8_t *restrict d, uint8_t *restrict bit, const uint16_t *restrict acc, uint32_t S,
                                   uint32_t lo, uint32_t split) {
    for (uint32_t x = 0; x < S; x++) {
        uint32_t a = (uint32_t)acc[x] + lo, none = acc[x] == PG_REACH_NONE;
        d[x] = none ? PG_REACH_NARROW_NONE : (uint8_t)(a >> split);
        bit[x] = none ? 0 : (uint8_t)(a & 1u);
    }
}

/* Store row base bu and its 16-bit offsets acc (S entries) into row: narrow
 * when they fit, else wide (reuse: into the row's wide row if it has one,
 * which only the incremental update asks; a full table starts a new set).
 * bit: scratch of S bytes rounded up to 8. */
static void row_store(polygraph *g, uint8_t *row, uint32_t bu, const uint16_t *restrict acc, int reuse, uint8_t *restrict bit) {
    uint32_t S = g->num_chains, split = g->reach_bits_at != 0, lo = split ? (bu & 1) : 0;
    if (g->reach_stride > 4 &&                 /* 4: heads only, every row wide (narrow_pays) */
        (bu == UINT32_MAX || (bu < PG_REACH_WIDE && (max_offset(acc, S, lo) >> split) <= pg_reach_narrow_max))) {
        memcpy(row, &bu, sizeof bu);
        uint8_t *d = row + 4;
        narrow_bytes(d, bit, acc, S, lo, split);
        if (!split) { memset(d + S, PG_REACH_NARROW_NONE, g->reach_stride - 4 - S); return; }
        uint8_t *bm = row + g->reach_bits_at;
        memset(bm, 0, g->reach_stride - g->reach_bits_at);
        for (uint32_t x = S; x % 8; x++) bit[x] = 0;
        for (uint32_t k = 0; k < (S + 7) / 8; k++) {   /* byte i of a word to bit i */
            uint64_t w;
            memcpy(&w, bit + 8 * k, sizeof w);
            bm[k] = (uint8_t)((w * 0x0102040810204080ull) >> 56);
        }
        return;
    }
    uint32_t h = pg_load32(row), i = reuse && pg_reach_head_wide(h) ? h - PG_REACH_WIDE : wide_alloc(g);
    uint16_t *w = wide_row_mut(g, i);
    memcpy(w, &bu, sizeof bu);
    memcpy(w + 2, acc, S * sizeof *acc);
    for (uint32_t x = S + 2; x < g->reach_wstride; x++) w[x] = PG_REACH_NONE;
    h = PG_REACH_WIDE + i;
    memcpy(row, &h, sizeof h);
}

/* A row's 16-bit form: returns its base, its offsets into out. */
static uint32_t row_load(const polygraph *g, const uint8_t *row, uint16_t *restrict out) {
    uint32_t h = pg_load32(row), S = g->num_chains;
    if (pg_reach_head_wide(h)) {
        const uint16_t *w = pg_reach_wide_row(g, h - PG_REACH_WIDE);
        memcpy(out, w + 2, S * sizeof *out);
        return pg_load32(w);
    }
    const uint8_t *d = row + 4, *bm = row + g->reach_bits_at;
    if (!g->reach_bits_at) {
        for (uint32_t x = 0; x < S; x++) out[x] = d[x] == PG_REACH_NARROW_NONE ? PG_REACH_NONE : d[x];
        return h;
    }
    for (uint32_t x = 0; x < S; x++)
        out[x] = d[x] == PG_REACH_NARROW_NONE ? PG_REACH_NONE
                                               : (uint16_t)(2u * d[x] + ((bm[x >> 3] >> (x & 7)) & 1u) - (h & 1u));
    return h;
}

uint32_t pg_reach_wide_at(const polygraph *g, uint32_t h, uint32_t c) {
    const uint16_t *w = pg_reach_wide_row(g, h - PG_REACH_WIDE);
    uint16_t d = w[2 + c];
    return d == PG_REACH_NONE ? UINT32_MAX : pg_load32(w) + d;
}

uint32_t pg_reach_row_get(const polygraph *g, uint32_t r, uint16_t *out) {
    return row_load(g, g->reach + (size_t)r * g->reach_stride, out);
}

/* Row r's entries, moved to base bu, into acc (bit: scratch of a byte an
 * entry). */
static inline void row_into(const polygraph *g, uint16_t *acc, const uint8_t *r, uint32_t bu, uint8_t *bit) {
    uint32_t h = pg_load32(r), S = g->num_chains;
    if (pg_reach_head_wide(h)) {
        const uint16_t *w = pg_reach_wide_row(g, h - PG_REACH_WIDE);
        uint32_t bv = pg_load32(w);
        if (bv - bu >= PG_REACH_NONE) return;  /* nothing it knows fits */
        min_shifted(acc, w + 2, S, bv - bu);
        return;
    }
    if (h == UINT32_MAX || h - bu >= PG_REACH_NONE) return;
    if (!g->reach_bits_at) { min_narrow(acc, r + 4, S, h - bu); return; }
    parity_bytes(g, r, bit);
    min_narrow_split(acc, r + 4, bit, S, h - bu - (h & 1u));
}

/* ---- the full table ---------------------------------------------------
 * A row is computed from its successors' final rows: first its base (the
 * least of its own position and its successors' bases, a lower bound of
 * every position it will hold), then its entries, each successor's offsets
 * moved to that base (never higher), so a row is built in the 16-bit
 * domain.  One pass in reverse topological order on one thread.
 *
 * On several threads the table is built by bands (level-synchronous):
 * a row node's height is the longest path from it to a sink, so its
 * successors all have smaller heights and the rows of one height depend
 * on none of each other.  The row nodes, sorted by height, are handed out
 * in chunks from one counter; a row is marked done once written, and a
 * row that needs a successor still being written by another thread (only
 * near a height's end) waits for its mark.  Every row is a function of its
 * successors' final rows, so the table is the serial pass's, byte for
 * byte, whatever the schedule.  The threads split the rows, not the
 * chains: the pass is bound by the latency of fetching successors' rows,
 * which splitting the columns only doubled (doc/benchmarks.md, "Threads,
 * second pass"). */

typedef struct reach_job {
    polygraph *g;
    const uint32_t *start, *adj, *chain, *pos;
    const uint32_t *lv;          /* banded: row nodes by height */
    uint32_t nlv, chunk;
    _Atomic uint8_t *done;       /* banded: per node, its row is written (NULL: serial) */
    atomic_size_t next_chunk;
} reach_job;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Row node x's row, once it is final. */
static inline const uint8_t *final_row(const reach_job *j, uint32_t x) {
    if (j->done && !atomic_load_explicit(&j->done[x], memory_order_acquire)) {
        /* another thread is writing it: it is close to done (same band) */
        for (unsigned spins = 0; !atomic_load_explicit(&j->done[x], memory_order_acquire);)
            if (++spins < 256) cpu_relax();
            else sched_yield();                /* its thread may be off the processor */
    }
    return row_of(j->g, x);
}

/* A successor's row: its base read now, every other cache line of it
 * asked for at once, so that the row's misses overlap each other and the
 * next rows' instead of coming one by one in the entries' loop (the pass
 * is bound by the latency of these reads). */
static inline uint32_t base_fetch(const reach_job *j, uint32_t x) {
    const uint8_t *r = final_row(j, x);
    for (uint32_t o = 64; o < j->g->reach_stride; o += 64) __builtin_prefetch(r + o);
    __builtin_prefetch(r + j->g->reach_stride - 1);
    return pg_reach_row_base(j->g, r);
}

/* Row node u's base and entries from its successors' final rows (acc,
 * bit: scratch of the row's width). */
static void row_build(const reach_job *j, uint32_t u, uint16_t *restrict acc, uint8_t *restrict bit) {
    polygraph *g = j->g;
    uint32_t S = g->num_chains;
    const uint32_t *start = j->start, *adj = j->adj;
#define OWN(x) (j->chain[x] == HISTORY_NONE ? UINT32_MAX : j->pos[x])
    uint32_t bu = OWN(u), bx;
    for (uint32_t e = start[u]; e < start[u + 1]; e++) {
        uint32_t x = adj[e];
        if (has_row(g, x)) { bx = base_fetch(j, x); bu = bx < bu ? bx : bu; continue; }
        bx = OWN(x); bu = bx < bu ? bx : bu;
        uint8_t cls = g->sclass[x >> 1];
        if (cls & PG_SOUT_OWN) { bx = base_fetch(j, x - 1); bu = bx < bu ? bx : bu; }
        if (cls & PG_SOUT_MORE)
            for (uint32_t f = g->sout_start[x >> 1]; f < g->sout_start[(x >> 1) + 1]; f++) {
                bx = base_fetch(j, 2 * g->sout[f]);
                bu = bx < bu ? bx : bu;
            }
    }
#undef OWN
    for (uint32_t x = 0; x < S; x++) acc[x] = PG_REACH_NONE;
    if (bu != UINT32_MAX) {                    /* else it reaches no tracked node */
        own_into(acc, bu, j->chain[u], j->pos[u]);
        for (uint32_t e = start[u]; e < start[u + 1]; e++) {
            uint32_t x = adj[e];
            if (has_row(g, x)) { row_into(g, acc, row_of(g, x), bu, bit); continue; }
            own_into(acc, bu, j->chain[x], j->pos[x]);
            uint8_t cls = g->sclass[x >> 1];
            if (cls & PG_SOUT_OWN) row_into(g, acc, row_of(g, x - 1), bu, bit);
            if (cls & PG_SOUT_MORE)
                for (uint32_t f = g->sout_start[x >> 1]; f < g->sout_start[(x >> 1) + 1]; f++)
                    row_into(g, acc, row_of(g, 2 * g->sout[f]), bu, bit);
        }
        clamp_offsets(acc, S);
    }
    row_store(g, row_of(g, u), bu, acc, 0, bit);
}

/* Rows handed out per chunk: at most 64 (about a hundred microseconds of
 * work), fewer on small tables so that every thread gets some. */
#define BAND_CHUNK 64u

static void band_task(void *ctx, size_t task) {
    (void)task;
    reach_job *j = ctx;
    uint32_t S = j->g->num_chains;
    uint16_t *acc = xmalloc(((size_t)S + 1) * sizeof *acc);
    uint8_t *bit = xmalloc((size_t)S + 8);
    for (;;) {
        size_t lo = atomic_fetch_add_explicit(&j->next_chunk, 1, memory_order_relaxed) * j->chunk;
        if (lo >= j->nlv) break;
        size_t hi = lo + j->chunk < j->nlv ? lo + j->chunk : j->nlv;
        for (size_t i = lo; i < hi; i++) {
            uint32_t u = j->lv[i];
            row_build(j, u, acc, bit);
            atomic_store_explicit(&j->done[u], 1, memory_order_release);
        }
    }
    free(acc); free(bit);
}

/* Every row.  order: a topological order of all nodes; on the banded path
 * it is overwritten (the row nodes by height). */
static void full_table(polygraph *g, const dg_graph *dg, uint32_t *order, const uint32_t *chain, const uint32_t *pos) {
    uint32_t N = g->num_nodes, rows = g->reach_half ? N / 2 : N;
    reach_job j = { .g = g, .start = dg->start, .adj = dg->adj, .chain = chain, .pos = pos };
    unsigned threads = pg_threads_for(g, (uint64_t)rows * g->num_chains);
    if (threads <= 1 || rows < 2) {
        uint16_t *acc = xmalloc(((size_t)g->num_chains + 1) * sizeof *acc);
        uint8_t *bit = xmalloc((size_t)g->num_chains + 8);
        for (uint32_t i = N; i-- > 0;)
            if (has_row(g, order[i])) row_build(&j, order[i], acc, bit);
        free(acc); free(bit);
        return;
    }
    /* heights, over every node (a start node between its commits) */
    uint32_t *height = xmalloc((size_t)N * sizeof *height), maxh = 0;
    for (uint32_t i = N; i-- > 0;) {
        uint32_t u = order[i], hu = 0;
        for (uint32_t e = dg->start[u]; e < dg->start[u + 1]; e++) {
            uint32_t hx = height[dg->adj[e]] + 1;
            hu = hx > hu ? hx : hu;
        }
        height[u] = hu;
        maxh = hu > maxh ? hu : maxh;
    }
    /* row nodes by height (by node id within one), into order */
    uint32_t *cnt = xcalloc((size_t)maxh + 2, sizeof *cnt);
    for (uint32_t u = 0; u < N; u++) if (has_row(g, u)) cnt[height[u] + 1]++;
    for (uint32_t hgt = 0; hgt <= maxh; hgt++) cnt[hgt + 1] += cnt[hgt];
    for (uint32_t u = 0; u < N; u++) if (has_row(g, u)) order[cnt[height[u]]++] = u;
    free(cnt); free(height);
    j.lv = order;
    j.nlv = rows;
    j.chunk = rows / (16 * threads);
    j.chunk = j.chunk < 1 ? 1 : j.chunk > BAND_CHUNK ? BAND_CHUNK : j.chunk;
    j.done = xcalloc(N, sizeof *j.done);
    atomic_init(&j.next_chunk, 0);
    par_pool_run_prio(g->pool, g->prio, threads, band_task, &j);
    free((void *)j.done);
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

/* ---- incremental update ----------------------------------------------
 * The table is the least fixpoint of row[u] = min(own position, rows of
 * u's successors); on a DAG that is unique.  After edges are appended to a
 * graph whose table is known, only the new edges' sources and their
 * ancestors can get smaller rows: relax those backwards, the node latest
 * in the (new) topological order first, so that every node's successors
 * are final when it is relaxed and it is visited once.  The result equals
 * a full recomputation; when too many nodes change, that is done instead.
 * In the split graph the rows are the commits', and a commit's successors
 * are reached through start nodes (see has_row). */

pg_reach_mode_id pg_reach_mode = PG_REACH_AUTO;

typedef struct node_heap { uint32_t *node; uint32_t len; const uint32_t *key; } node_heap;

static void heap_push_node(node_heap *hp, uint32_t u) {
    uint32_t i = hp->len++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (hp->key[hp->node[p]] >= hp->key[u]) break;
        hp->node[i] = hp->node[p];
        i = p;
    }
    hp->node[i] = u;
}

static uint32_t heap_pop_node(node_heap *hp) {
    uint32_t top = hp->node[0], x = hp->node[--hp->len], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= hp->len) break;
        if (c + 1 < hp->len && hp->key[hp->node[c + 1]] > hp->key[hp->node[c]]) c++;
        if (hp->key[hp->node[c]] <= hp->key[x]) break;
        hp->node[i] = hp->node[c];
        i = c;
    }
    if (hp->len) hp->node[i] = x;
    return top;
}

/* row[dst] = min(row[dst], row[src]); 1 if anything got smaller.  Both
 * rows' offsets are moved to the lower base first (those that no longer
 * fit are lost); dst is left as it was unless something got smaller.  val
 * is scratch of 3 S entries. */
VECTORIZE static int relax_row(polygraph *g, uint8_t *dst, const uint8_t *src, uint16_t *restrict val, uint8_t *restrict bit) {
    uint32_t S = g->num_chains;
    uint16_t *restrict sv = val + S, *restrict dv = val + 2 * (size_t)S;
    uint32_t bs = pg_reach_row_base(g, src);
    if (bs == UINT32_MAX) return 0;
    uint32_t bd = row_load(g, dst, dv), b = bs < bd ? bs : bd;
    if (bs - b >= PG_REACH_NONE) return 0;     /* nothing src knows fits dst's base */
    row_load(g, src, sv);
    for (uint32_t x = 0; x < S; x++) val[x] = PG_REACH_NONE;
    if (bd != UINT32_MAX && bd - b < PG_REACH_NONE) min_shifted(val, dv, S, bd - b);
    uint32_t smaller = 0, sh = bs - b;
    for (uint32_t x = 0; x < S; x++) {
        uint32_t t = (uint32_t)sv[x] + sh;
        t = t < PG_REACH_NONE ? t : PG_REACH_NONE;
        smaller |= t < val[x];
        val[x] = (uint16_t)(t < val[x] ? t : val[x]);
    }
    if (!smaller) return 0;
    clamp_offsets(val, S);
    row_store(g, dst, b, val, 1, bit);
    return 1;
}

/* row[dst] = min(row[dst], position p on chain c); 1 if it got smaller. */
static int relax_own(polygraph *g, uint8_t *dst, uint32_t c, uint32_t p, uint16_t *restrict val, uint8_t *restrict bit) {
    if (c == HISTORY_NONE) return 0;
    uint32_t S = g->num_chains;
    uint16_t *restrict dv = val + 2 * (size_t)S;
    uint32_t bd = row_load(g, dst, dv);
    if (bd != UINT32_MAX && p >= bd) {
        uint32_t d = p - bd;
        if (d > pg_reach_delta_max || d >= PG_REACH_NONE || d >= dv[c]) return 0;
        dv[c] = (uint16_t)d;
        row_store(g, dst, bd, dv, 1, bit);
        return 1;
    }
    for (uint32_t x = 0; x < S; x++) val[x] = PG_REACH_NONE;     /* p is the new base */
    if (bd != UINT32_MAX && bd - p < PG_REACH_NONE) min_shifted(val, dv, S, bd - p);
    val[c] = 0;
    clamp_offsets(val, S);
    row_store(g, dst, p, val, 1, bit);
    return 1;
}

typedef struct incr {
    polygraph *g;
    const dg_graph *dg;
    const uint32_t *pstart, *pred;
    uint8_t *queued;
    uint16_t *val;               /* 3 rows' 16-bit forms */
    node_heap hp;
    uint8_t *bit;                /* a row's parity bytes */
} incr;

static void incr_push(incr *in, uint32_t u) {
    if (in->queued[u]) return;
    in->queued[u] = 1;
    heap_push_node(&in->hp, u);
}

/* Row node p gets src's row (src a row node); queued if it changed. */
static void incr_relax(incr *in, uint32_t p, uint32_t src) {
    polygraph *g = in->g;
    if (relax_row(g, row_of(g, p), row_of(g, src), in->val, in->bit)) incr_push(in, p);
}

/* Row node a gets what node x (a successor of a) contributes. */
static void incr_from(incr *in, uint32_t a, uint32_t x) {
    polygraph *g = in->g;
    if (has_row(g, x)) { incr_relax(in, a, x); return; }
    uint32_t c = pg_node_chain(g, x);
    if (relax_own(g, row_of(g, a), c, c == HISTORY_NONE ? 0 : pg_node_pos(g, x), in->val, in->bit)) incr_push(in, a);
    for (uint32_t f = in->dg->start[x]; f < in->dg->start[x + 1]; f++) incr_relax(in, a, in->dg->adj[f]);
}

/* The row nodes whose rows take row node x's: its row predecessors,
 * directly or through a start node. */
static void incr_spread(incr *in, uint32_t x) {
    polygraph *g = in->g;
    for (uint32_t j = in->pstart[x]; j < in->pstart[x + 1]; j++) {
        uint32_t s = in->pred[j];
        if (has_row(g, s)) { incr_relax(in, s, x); continue; }
        for (uint32_t k = in->pstart[s]; k < in->pstart[s + 1]; k++) incr_relax(in, in->pred[k], x);
    }
}

/* Returns 0 (table unfinished: recompute it) when more than limit rows
 * would change. */
static int update_incrementally(polygraph *g, const dg_graph *dg, uint32_t limit) {
    uint32_t N = g->num_nodes, S = g->num_chains;
    size_t M = dg->start[N];
    /* predecessors: the reverse adjacency */
    uint32_t *pstart = xcalloc((size_t)N + 1, sizeof *pstart), *pred = xmalloc((M + 1) * sizeof *pred);
    for (size_t j = 0; j < M; j++) pstart[dg->adj[j] + 1]++;
    for (uint32_t u = 0; u < N; u++) pstart[u + 1] += pstart[u];
    uint32_t *fill = xmalloc(((size_t)N + 1) * sizeof *fill);
    memcpy(fill, pstart, ((size_t)N + 1) * sizeof *fill);
    for (uint32_t u = 0; u < N; u++)
        for (uint32_t j = dg->start[u]; j < dg->start[u + 1]; j++) pred[fill[dg->adj[j]]++] = u;
    free(fill);
    incr in = { g, dg, pstart, pred, xcalloc(N ? N : 1, 1), xmalloc((3 * (size_t)S + 1) * sizeof(uint16_t)),
                { xmalloc((N ? N : 1) * sizeof(uint32_t)), 0, g->topo_pos }, xmalloc((size_t)S + 8) };
    for (size_t i = g->reach_edges; i < g->known.len; i++) {
        if (no_arc(g, &g->known.data[i])) continue;
        uint32_t a = g->known.data[i].from, b = g->known.data[i].to;
        if (has_row(g, a)) incr_from(&in, a, b);
        else   /* an RW arc a' -> b: the commits with an arc into a' get b's row */
            for (uint32_t k = pstart[a]; k < pstart[a + 1]; k++) incr_relax(&in, pred[k], b);
    }
    uint32_t visited = 0;
    int ok = 1;
    while (in.hp.len) {
        if (++visited > limit) { ok = 0; break; }
        uint32_t x = heap_pop_node(&in.hp);
        in.queued[x] = 0;
        incr_spread(&in, x);
    }
    free(in.hp.node); free(in.queued); free(pstart); free(pred); free(in.val); free(in.bit);
    return ok;
}

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

/* Whether narrow rows pay for this table, estimated before it is built
 * (only memory and time depend on it: both layouts hold the same facts).
 * A row's offsets spread over how far the chains are apart where it lies
 * in time; the topological order stands for time: at a node, each chain
 * still to come is at the position after its last node passed, and the
 * node's row will span about those positions and its own.  Every 16th
 * node is sampled; when more than 40 % of the samples already span more
 * than a byte (the reachability's own lag only adds to that), most rows
 * would be wide, each costing a narrow slot besides, so the table keeps
 * heads only (every row wide: 4 bytes a row more than a plain 16-bit
 * table).  Generated histories at 1M (100 sessions) span at most about
 * 160 positions: narrow; their sessions drift apart like a random walk, so
 * at 10M about three times that: wide. */
pg_reach_narrow_id pg_reach_narrow_mode = PG_REACH_NARROW_AUTO;

static int narrow_pays(const polygraph *g, const uint32_t *order, const uint32_t *chain, const uint32_t *pos) {
    if (pg_reach_narrow_mode != PG_REACH_NARROW_AUTO) return pg_reach_narrow_mode == PG_REACH_NARROW_ALWAYS;
    uint32_t N = g->num_nodes, S = g->num_chains, shift = g->split ? 1 : 0;
    uint32_t *next = xcalloc(S ? S : 1, sizeof *next), *end = xcalloc(S ? S : 1, sizeof *end);
    for (uint32_t u = 0; u < N; u++)
        if (chain[u] < S && pos[u] + 1 > end[chain[u]]) end[chain[u]] = pos[u] + 1;
    uint64_t samples = 0, wide = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t u = order[i], c = chain[u];
        if (c >= S) continue;
        if ((i & 15) == 0) {
            uint32_t lo = pos[u], hi = pos[u];
            for (uint32_t x = 0; x < S; x++) {
                if (next[x] >= end[x]) continue;       /* nothing of it left to reach */
                lo = next[x] < lo ? next[x] : lo;
                hi = next[x] > hi ? next[x] : hi;
            }
            samples++;
            wide += ((hi - lo) >> shift) > pg_reach_narrow_max;
        }
        if (pos[u] + 1 > next[c]) next[c] = pos[u] + 1;
    }
    free(next); free(end);
    return wide * 5 <= samples * 2;
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
    uint32_t N = g->num_nodes, S = g->num_chains;
    g->reach_half = half_table(g);
    uint32_t rows = g->reach_half ? N / 2 : N;
    dg_graph dg;
    build_adjacency(g, &dg);
    uint32_t *order = xmalloc((N ? N : 1) * sizeof *order);
    g->acyclic = dg_topo_order(&dg, 0, 0, order);
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
                done = update_incrementally(g, &dg, limit);
                if (!done && (!g->reach_incr_failed || added < g->reach_incr_failed)) g->reach_incr_failed = added;
            }
        }
        if (!done) {
            /* chain and position per node, once: the inner loop stays in the table */
            uint32_t *chain = xmalloc((N ? N : 1) * sizeof *chain), *pos = xmalloc((N ? N : 1) * sizeof *pos);
            for (uint32_t u = 0; u < N; u++) {
                chain[u] = pg_node_chain(g, u);
                pos[u] = chain[u] == HISTORY_NONE ? 0 : pg_node_pos(g, u);
            }
            if (!g->reach) {
                /* narrow rows: a head, a byte an entry, the split graph's parity bits; 4-byte
                 * aligned; or heads only, every row wide */
                int narrow = narrow_pays(g, order, chain, pos);
                g->reach_bits_at = narrow && g->split ? 4 + S : 0;
                g->reach_stride = narrow ? (4 + S + (g->split ? (S + 7) / 8 : 0) + 3) & ~3u : 4;
                g->reach_wstride = (S + 2 + 1) & ~1u;  /* even: every base 4-byte aligned */
                size_t bytes = (size_t)rows * g->reach_stride + 64;
                g->reach = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
                if (!g->reach) xalloc_fail(bytes);
                big_advise(g->reach, bytes);           /* rows are read all over: fewer TLB misses */
                g->reach_wide_chunks = rows / PG_REACH_WIDE_CHUNK + 1;
                g->reach_wide = xmalloc((size_t)g->reach_wide_chunks * sizeof *g->reach_wide);
                for (uint32_t k = 0; k < g->reach_wide_chunks; k++) atomic_init(&g->reach_wide[k], NULL);
            }
            atomic_store_explicit(&g->reach_wide_len, 0, memory_order_relaxed);   /* every row anew */
            build_start_arcs(g, &dg);                  /* row_build reads them */
            full_table(g, &dg, order, chain, pos);
            free(chain); free(pos);
        } else build_start_arcs(g, &dg);
        g->reach_valid = 1;
        g->reach_edges = g->known.len;
    }
    dg_free(&dg);
    free(order);
    return g->acyclic;
}

int pg_reach(polygraph *g) { return compute(g, 1); }
int pg_order(polygraph *g) { return compute(g, 0); }

void pg_reach_free(polygraph *g) {
    free(g->reach);
    g->reach = NULL;
    for (uint32_t k = 0; k < g->reach_wide_chunks; k++) free(atomic_load_explicit(&g->reach_wide[k], memory_order_relaxed));
    free((void *)g->reach_wide);
    g->reach_wide = NULL;
    g->reach_wide_chunks = 0;
    free(g->sclass); free(g->sout_start); free(g->sout);
    g->sclass = NULL; g->sout_start = NULL; g->sout = NULL;
    g->reach_valid = 0;
    /* the reader summaries serve only pg_side_blocked */
    vec_free(g->rsum);
    free(g->rsum_start); g->rsum_start = NULL;
    free(g->unit_slow); g->unit_slow = NULL;
}
