/* reach_rows.c — the rows of the reachability table (reach.c): their
 * frames, how a row is stored, read back, merged into another and relaxed.
 *
 * A row's entries are offsets from its frame (polygraph.h): where every
 * chain stood at a point of the topological order at or before the row's
 * node, kept every 2^reach_frame_shift nodes of the order the last full
 * table was built along (reach_rows_frames).  Whatever the node reaches
 * lies after it in that order, so at or after its frame on every chain:
 * the offsets are the reachability's lag, small however far the sessions
 * drift apart.  A row is computed in its 16-bit form (frame, 16-bit
 * offsets) and stored narrow when every offset fits a byte (SER: the
 * offset; the split graph: half of it, the low bit in the row's bitmap),
 * else wide (the 16-bit form itself, in a pool of chunks; the narrow slot
 * holds PG_REACH_WIDE + its index).  Both layouts of one 16-bit form read
 * the same, so the table holds the same facts whatever its rows' layout.
 * An entry that cannot be stored (below its frame, or 2^16 or more past
 * it) is "none": a fact lost, never a false one. */
#include "frontend/checking/reach_rows.h"
#include "io/bigmem.h"

#include <stdlib.h>
#include <string.h>

static inline const uint32_t *frame_at(const polygraph *g, uint32_t k) {
    return g->reach_frame + (size_t)k * g->num_chains;
}
static inline const uint16_t *frame16_at(const polygraph *g, uint32_t k) {
    return g->reach_frame16 + (size_t)k * g->num_chains;
}

uint32_t pg_reach_frame_shift = 0, pg_reach_frame_near = 0;

/* Frame kr at or after frame k, with every chain's distance between
 * them below NONE (reach_jump: a bound of it), so that their 16-bit
 * forms' difference is exact. */
static inline int frames_near(const polygraph *g, uint32_t k, uint32_t kr) {
    if (kr < k || (pg_reach_frame_near && kr - k > pg_reach_frame_near)) return 0;
    return g->reach_jump[kr] - g->reach_jump[k] < PG_REACH_NONE;
}

/* acc[x] = min(acc[x], src[x] + D[x]), D[x] = fr[x] - fk[x] (the
 * distance of the two frames on chain x, < NONE), the sum saturating at
 * NONE: a row's offsets moved to an earlier frame.  All in 16 bits
 * (min(v, NONE - D) + D is the saturating sum, and NONE stays NONE), so
 * the loop vectorizes. */
VECTORIZE static void min_wide(uint16_t *restrict acc, const uint16_t *restrict src, const uint16_t *restrict fk,
                               const uint16_t *restrict fr, uint32_t w) {
    for (uint32_t x = 0; x < w; x++) {
        uint16_t k = (uint16_t)(fr[x] - fk[x]), lim = (uint16_t)(PG_REACH_NONE - k);
        uint16_t t = (uint16_t)((src[x] < lim ? src[x] : lim) + k);
        acc[x] = t < acc[x] ? t : acc[x];
    }
}

/* The same from a narrow row's bytes (SER: offset d, 0xFF none). */
VECTORIZE static void min_narrow(uint16_t *restrict acc, const uint8_t *restrict src, const uint16_t *restrict fk,
                                 const uint16_t *restrict fr, uint32_t w) {
    for (uint32_t x = 0; x < w; x++) {
        uint16_t k = (uint16_t)(fr[x] - fk[x]), lim = (uint16_t)(PG_REACH_NONE - k);
        uint16_t v = src[x] == PG_REACH_NARROW_NONE ? (uint16_t)PG_REACH_NONE : src[x];
        uint16_t t = (uint16_t)((v < lim ? v : lim) + k);
        acc[x] = t < acc[x] ? t : acc[x];
    }
}

/* The same from a narrow split row: offset 2 d + bit. */
VECTORIZE static void min_narrow_split(uint16_t *restrict acc, const uint8_t *restrict src, const uint8_t *restrict bit,
                                       const uint16_t *restrict fk, const uint16_t *restrict fr, uint32_t w) {
    for (uint32_t x = 0; x < w; x++) {
        uint16_t k = (uint16_t)(fr[x] - fk[x]), lim = (uint16_t)(PG_REACH_NONE - k);
        uint16_t d = src[x], e = (uint16_t)(2 * d + bit[x]);   /* both arms computed: no branch */
        uint16_t v = d == PG_REACH_NARROW_NONE ? (uint16_t)PG_REACH_NONE : e;
        uint16_t t = (uint16_t)((v < lim ? v : lim) + k);
        acc[x] = t < acc[x] ? t : acc[x];
    }
}

/* The same for frames far apart (or kr before k, which a full table never
 * asks), in 32 bits: what no longer fits frame k is lost (then 1). */
static int min_far(const polygraph *g, uint16_t *acc, uint32_t k, const uint16_t *src, uint32_t kr) {
    const uint32_t *fk = frame_at(g, k), *fr = frame_at(g, kr);
    int lost = 0;
    for (uint32_t x = 0; x < g->num_chains; x++) {
        if (src[x] == PG_REACH_NONE) continue;
        uint32_t p = fr[x] + src[x];
        if (p < fk[x] || p - fk[x] >= PG_REACH_NONE) { lost = 1; continue; }
        if (p - fk[x] >= acc[x]) continue;
        acc[x] = (uint16_t)(p - fk[x]);
    }
    return lost;
}

/* Whether moving 16-bit offsets src from frame kr to frame k (near, kr
 * at or after k) saturates an entry: a fact the merge loses. */
static int saturates(const polygraph *g, const uint16_t *src, uint32_t k, uint32_t kr) {
    const uint32_t *fk = frame_at(g, k), *fr = frame_at(g, kr);
    for (uint32_t x = 0; x < g->num_chains; x++)
        if (src[x] != PG_REACH_NONE && (uint64_t)src[x] + (fr[x] - fk[x]) >= PG_REACH_NONE) return 1;
    return 0;
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
int reach_rows_clamp(uint16_t *acc, uint32_t w) {
    uint32_t dmax = pg_reach_delta_max;
    int lost = 0;
    if (dmax >= PG_REACH_NONE - 1) return 0;
    for (uint32_t x = 0; x < w; x++)
        if (acc[x] > dmax && acc[x] != PG_REACH_NONE) { acc[x] = PG_REACH_NONE; lost = 1; }
    return lost;
}

/* Node x's own position p on chain c into acc (frame k): a full table's
 * nodes all lie at or after their frames. */
int reach_rows_own(const polygraph *g, uint16_t *acc, uint32_t k, uint32_t c, uint32_t p) {
    if (c == HISTORY_NONE) return 0;
    uint32_t f = frame_at(g, k)[c];
    if (p < f || p - f >= PG_REACH_NONE) return 1;
    uint32_t d = p - f;
    if (d < acc[c]) acc[c] = (uint16_t)d;
    return 0;
}

/* ---- the frames --------------------------------------------------------
 * Frame k: per chain, the least position of its nodes placed at or after
 * k << reach_frame_shift in the order (past its last one: its end).  A
 * node reaches only nodes placed after it, so its own position and every
 * position it reaches are at or after its frame, topo_pos >>
 * reach_frame_shift.  Frames only grow along the order; reach_jump[k] sums
 * the largest growth of any chain over the frames before k (a bound of
 * how far two frames lie apart on every chain). */
void reach_rows_frames(polygraph *g, const uint32_t *order) {
    uint32_t N = g->num_nodes, S = g->num_chains, sh = g->reach_frame_shift, F = g->reach_frames;
    uint32_t *least = xcalloc(S ? S : 1, sizeof *least);
    for (uint32_t u = 0; u < N; u++) {
        uint32_t c = pg_node_chain(g, u);
        if (c < S && pg_node_pos(g, u) + 1 > least[c]) least[c] = pg_node_pos(g, u) + 1;
    }
    for (uint32_t k = F, i = N; k-- > 0;) {
        for (; i > (k << sh) && i > 0; i--) {
            uint32_t u = order[i - 1], c = pg_node_chain(g, u);
            if (c < S && pg_node_pos(g, u) < least[c]) least[c] = pg_node_pos(g, u);
        }
        memcpy(g->reach_frame + (size_t)k * S, least, S * sizeof *least);
        for (uint32_t x = 0; x < S; x++) g->reach_frame16[(size_t)k * S + x] = (uint16_t)least[x];
    }
    g->reach_jump[0] = 0;
    for (uint32_t k = 0; k + 1 < F; k++) {
        uint32_t most = 0;
        for (uint32_t x = 0; x < S; x++) {
            uint32_t d = g->reach_frame[(size_t)(k + 1) * S + x] - g->reach_frame[(size_t)k * S + x];
            most = d > most ? d : most;
        }
        g->reach_jump[k + 1] = g->reach_jump[k] + most;
    }
    free(least);
}

/* The latest frame at most k whose entry on chain c is at most p (0 if
 * none is: frame 0 holds every node's position, so p of a node on c is
 * not below it). */
static uint32_t frame_below(const polygraph *g, uint32_t k, uint32_t c, uint32_t p) {
    uint32_t lo = 0, hi = k;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (frame_at(g, mid)[c] <= p) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* ---- the row layout ----------------------------------------------------
 * Rows are computed in their 16-bit form (a frame and offsets from it)
 * and stored narrow when every offset fits a byte (SER: the offset; the
 * split graph: half of it, the low bit in the row's bitmap), else wide. */
uint32_t pg_reach_narrow_max = 0xFE;

static uint16_t *wide_row_mut(const polygraph *g, uint32_t i) { return (uint16_t *)pg_reach_wide_row(g, i); }

/* A new wide row's index (any thread). */
static uint32_t wide_alloc(polygraph *g) {
    uint32_t i = atomic_fetch_add_explicit(&g->reach_wide_len, 1, memory_order_relaxed), k = i / PG_REACH_WIDE_CHUNK;
    if (k >= g->reach_wide_chunks) abort();    /* cannot happen: a row takes one wide row at most (reach_rows_store) */
    if (!atomic_load_explicit(&g->reach_wide[k], memory_order_acquire)) {
        uint16_t *p = xmalloc((size_t)PG_REACH_WIDE_CHUNK * g->reach_wstride * sizeof *p), *none = NULL;
        if (!atomic_compare_exchange_strong_explicit(&g->reach_wide[k], &none, p, memory_order_acq_rel, memory_order_acquire))
            free(p);
    }
    return i;
}

/* Every entry of acc (S entries), halved on the split graph, fits a
 * narrow byte (<= pg_reach_narrow_max).  An OR of 16-bit comparisons with
 * one bound: it vectorizes, a running maximum did not. */
VECTORIZE static int fits_narrow(const uint16_t *restrict acc, uint32_t S, uint32_t split) {
    uint16_t b = (uint16_t)((pg_reach_narrow_max + 1) << split), over = 0;   /* entries below it fit */
    for (uint32_t x = 0; x < S; x++) over |= (uint16_t)((acc[x] != PG_REACH_NONE) & (acc[x] >= b));
    return !over;
}

/* A narrow row's bytes (and split: parity bytes into bit) from acc. */
VECTORIZE static void narrow_bytes(uint8_t *restrict d, uint8_t *restrict bit, const uint16_t *restrict acc, uint32_t S,
                                   uint32_t split) {
    for (uint32_t x = 0; x < S; x++) {
        uint32_t a = acc[x], none = acc[x] == PG_REACH_NONE;
        d[x] = none ? PG_REACH_NARROW_NONE : (uint8_t)(a >> split);
        bit[x] = none ? 0 : (uint8_t)(a & 1u);
    }
}

/* Store frame k and its 16-bit offsets acc (S entries) into row: narrow
 * when they fit, else wide (reuse: into the row's wide row if it has one,
 * which only the incremental update asks; a full table starts a new set).
 * bit: scratch of S bytes rounded up to 8. */
void reach_rows_store(polygraph *g, uint8_t *row, uint32_t k, const uint16_t *restrict acc, int reuse, uint8_t *restrict bit) {
    /* the old head is read only when reused: a full table's first store
     * into a fresh page is then its first touch, one fault that maps a
     * page, where a read first mapped the zero page and the write then
     * faulted again to replace it */
    uint32_t S = g->num_chains, split = g->reach_bits_at != 0, h = reuse ? pg_load32(row) : 0;
    /* a row made wide stays wide until the next full table: a row takes at
     * most one wide row, so the pool never outgrows the rows */
    int stay_wide = reuse && pg_reach_head_wide(h);
    if (g->reach_stride > 4 && !stay_wide && fits_narrow(acc, S, split)) {   /* 4: heads only, every row wide */
        memcpy(row, &k, sizeof k);
        uint8_t *d = row + 4;
        narrow_bytes(d, bit, acc, S, split);
        if (!split) { memset(d + S, PG_REACH_NARROW_NONE, g->reach_stride - 4 - S); return; }
        uint8_t *bm = row + g->reach_bits_at;
        memset(bm, 0, g->reach_stride - g->reach_bits_at);
        for (uint32_t x = S; x % 8; x++) bit[x] = 0;
        for (uint32_t q = 0; q < (S + 7) / 8; q++) {   /* byte i of a word to bit i */
            uint64_t w;
            memcpy(&w, bit + 8 * q, sizeof w);
            bm[q] = (uint8_t)((w * 0x0102040810204080ull) >> 56);
        }
        return;
    }
    uint32_t i = stay_wide ? h - PG_REACH_WIDE : wide_alloc(g);
    uint16_t *w = wide_row_mut(g, i);
    memcpy(w, &k, sizeof k);
    memcpy(w + 2, acc, S * sizeof *acc);
    for (uint32_t x = S + 2; x < g->reach_wstride; x++) w[x] = PG_REACH_NONE;
    h = PG_REACH_WIDE + i;
    memcpy(row, &h, sizeof h);
}

/* A row's 16-bit form: returns its frame, its offsets into out. */
uint32_t reach_rows_load(const polygraph *g, const uint8_t *row, uint16_t *restrict out) {
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
        out[x] = d[x] == PG_REACH_NARROW_NONE ? PG_REACH_NONE : (uint16_t)(2u * d[x] + ((bm[x >> 3] >> (x & 7)) & 1u));
    return h;
}

uint32_t pg_reach_wide_at(const polygraph *g, uint32_t h, uint32_t c) {
    const uint16_t *w = pg_reach_wide_row(g, h - PG_REACH_WIDE);
    uint16_t d = w[2 + c];
    return d == PG_REACH_NONE ? UINT32_MAX : frame_at(g, pg_load32(w))[c] + d;
}

uint32_t pg_reach_row_get(const polygraph *g, uint32_t r, uint16_t *out) {
    return reach_rows_load(g, g->reach + (size_t)r * g->reach_stride, out);
}

/* Row r's entries, moved to frame k, into acc (bit: scratch of a byte an
 * entry; tmp: of a row's 16-bit form).  In a full table r's frame is k or
 * later. */
int reach_rows_into(const polygraph *g, uint16_t *acc, uint32_t k, const uint8_t *r, uint8_t *bit, uint16_t *tmp) {
    uint32_t h = pg_load32(r), S = g->num_chains;
    if (pg_reach_head_wide(h)) {
        const uint16_t *w = pg_reach_wide_row(g, h - PG_REACH_WIDE);
        uint32_t kr = pg_load32(w);
        if (!frames_near(g, k, kr)) return min_far(g, acc, k, w + 2, kr);
        min_wide(acc, w + 2, frame16_at(g, k), frame16_at(g, kr), S);
        return kr != k && saturates(g, w + 2, k, kr);
    }
    if (!frames_near(g, k, h)) { reach_rows_load(g, r, tmp); return min_far(g, acc, k, tmp, h); }
    /* a narrow offset is at most 2 * 0xFE + 1 and every chain's distance
     * of the frames at most their jumps' difference: past that bound the
     * row is read again to tell whether an entry saturated */
    int may_lose = g->reach_jump[h] - g->reach_jump[k] + (g->reach_bits_at ? 2u * 0xFE + 1 : 0xFE) >= PG_REACH_NONE;
    if (!g->reach_bits_at) min_narrow(acc, r + 4, frame16_at(g, k), frame16_at(g, h), S);
    else {
        parity_bytes(g, r, bit);
        min_narrow_split(acc, r + 4, bit, frame16_at(g, k), frame16_at(g, h), S);
    }
    if (!may_lose) return 0;
    reach_rows_load(g, r, tmp);
    return saturates(g, tmp, k, h);
}

/* Positions p (UINT32_MAX: none) of the merged row, into frame k's
 * offsets: past 16 bits, none (a fact lost). */
static inline uint16_t offset_in(uint32_t p, uint32_t f) {
    return p == UINT32_MAX || p - f >= PG_REACH_NONE ? (uint16_t)PG_REACH_NONE : (uint16_t)(p - f);
}

/* row[dst] = min(row[dst], row[src]); 1 if anything got smaller.  In
 * positions, 32 bits: a renewal's rows keep the frames of the last full
 * table, in an order that may have changed since, so src may reach below
 * dst's frame; then dst moves to the latest frame that holds every entry
 * (frame_below).  dst is left as it was unless something got smaller.
 * val is scratch of 3 S entries. */
int reach_rows_relax(polygraph *g, uint8_t *dst, const uint8_t *src, uint16_t *restrict val, uint8_t *restrict bit) {
    uint32_t S = g->num_chains;
    uint16_t *restrict sv = val + S, *restrict dv = val + 2 * (size_t)S;
    uint32_t kd = reach_rows_load(g, dst, dv), ks = reach_rows_load(g, src, sv), kt = kd;
    const uint32_t *fd = frame_at(g, kd), *fs = frame_at(g, ks);
    int smaller = 0;
    for (uint32_t x = 0; x < S; x++) {
        if (sv[x] == PG_REACH_NONE) continue;
        uint32_t ps = fs[x] + sv[x], pd = dv[x] == PG_REACH_NONE ? UINT32_MAX : fd[x] + dv[x];
        if (ps >= pd) continue;
        smaller = 1;
        if (ps < frame_at(g, kt)[x]) kt = frame_below(g, kt, x, ps);
    }
    if (!smaller) return 0;
    const uint32_t *ft = frame_at(g, kt);
    for (uint32_t x = 0; x < S; x++) {
        uint32_t ps = sv[x] == PG_REACH_NONE ? UINT32_MAX : fs[x] + sv[x];
        uint32_t pd = dv[x] == PG_REACH_NONE ? UINT32_MAX : fd[x] + dv[x];
        val[x] = offset_in(ps < pd ? ps : pd, ft[x]);
    }
    reach_rows_clamp(val, S);
    reach_rows_store(g, dst, kt, val, 1, bit);
    return 1;
}

/* row[dst] = min(row[dst], position p on chain c); 1 if it got smaller. */
int reach_rows_relax_own(polygraph *g, uint8_t *dst, uint32_t c, uint32_t p, uint16_t *restrict val, uint8_t *restrict bit) {
    if (c == HISTORY_NONE) return 0;
    uint32_t S = g->num_chains;
    uint16_t *restrict dv = val + 2 * (size_t)S;
    uint32_t kd = reach_rows_load(g, dst, dv);
    const uint32_t *fd = frame_at(g, kd);
    if (dv[c] != PG_REACH_NONE && p >= fd[c] + dv[c]) return 0;
    uint32_t kt = p < fd[c] ? frame_below(g, kd, c, p) : kd;
    const uint32_t *ft = frame_at(g, kt);
    if (p - ft[c] > pg_reach_delta_max || p - ft[c] >= PG_REACH_NONE) return 0;
    for (uint32_t x = 0; x < S; x++) val[x] = offset_in(dv[x] == PG_REACH_NONE ? UINT32_MAX : fd[x] + dv[x], ft[x]);
    val[c] = (uint16_t)(p - ft[c]);
    reach_rows_clamp(val, S);
    reach_rows_store(g, dst, kt, val, 1, bit);
    return 1;
}

/* Whether narrow rows are stored (only memory and time depend on it:
 * both layouts hold the same facts).  A row's offsets are the lag of what
 * it reaches behind its frame (about one frame's advance plus the
 * dependency paths' delay), not the sessions' drift, so the automatic
 * choice is narrow: at 1M and 5M transactions (100 sessions) no row or a
 * handful is wide (doc/benchmarks.md, narrow44); heads only (every row
 * wide) is a testing knob. */
pg_reach_narrow_id pg_reach_narrow_mode = PG_REACH_NARROW_AUTO;

void reach_rows_alloc(polygraph *g, uint32_t rows) {
    uint32_t S = g->num_chains;
    /* narrow rows: a head, a byte an entry, the split graph's parity bits;
     * 4-byte aligned; or heads only, every row wide */
    int narrow = pg_reach_narrow_mode != PG_REACH_NARROW_NEVER;
    g->reach_bits_at = narrow && g->split ? 4 + S : 0;
    g->reach_stride = narrow ? (4 + S + (g->split ? (S + 7) / 8 : 0) + 3) & ~3u : 4;
    g->reach_wstride = (S + 2 + 1) & ~1u;      /* even: every frame 4-byte aligned */
    size_t bytes = (size_t)rows * g->reach_stride + 64;
    g->reach = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!g->reach) xalloc_fail(bytes);
    big_advise(g->reach, bytes);               /* rows are read all over: fewer TLB misses */
    g->reach_wide_chunks = rows / PG_REACH_WIDE_CHUNK + 1;
    g->reach_wide = xmalloc((size_t)g->reach_wide_chunks * sizeof *g->reach_wide);
    for (uint32_t k = 0; k < g->reach_wide_chunks; k++) atomic_init(&g->reach_wide[k], NULL);
    /* about 64 nodes a chain a frame (at least 16, at most 2^16): a chain
     * advances some 64 positions a frame at an even pace (a quarter of a
     * byte's range, an eighth on the split graph), and the frames take 6
     * bytes a chain a frame, 0.1 byte a node: few enough to stay in the
     * cache beside the rows (2 MB at 22M SI) */
    uint32_t shift = 4;
    while (shift < 16 && (1u << shift) < 64 * S) shift++;
    g->reach_frame_shift = pg_reach_frame_shift ? pg_reach_frame_shift : shift;
    g->reach_frames = (g->num_nodes >> g->reach_frame_shift) + 1;
    g->reach_frame = xmalloc(((size_t)g->reach_frames * S + 1) * sizeof *g->reach_frame);
    g->reach_frame16 = xmalloc(((size_t)g->reach_frames * S + 1) * sizeof *g->reach_frame16);
    g->reach_jump = xmalloc((size_t)g->reach_frames * sizeof *g->reach_jump);
}

void reach_rows_free(polygraph *g) {
    free(g->reach);
    g->reach = NULL;
    for (uint32_t k = 0; k < g->reach_wide_chunks; k++) free(atomic_load_explicit(&g->reach_wide[k], memory_order_relaxed));
    free((void *)g->reach_wide);
    g->reach_wide = NULL;
    g->reach_wide_chunks = 0;
    free(g->reach_frame); free(g->reach_frame16); free(g->reach_jump);
    g->reach_frame = NULL; g->reach_frame16 = NULL; g->reach_jump = NULL;
    g->reach_frames = 0;
}
