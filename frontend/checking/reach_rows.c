/* reach_rows.c — the rows of the reachability table (reach.c): how a
 * row is stored, read back, merged into another and relaxed.
 *
 * Rows are computed in their 16-bit form (a base and offsets from it, as
 * in polygraph.h) and stored narrow when every offset fits a byte (SER:
 * the offset; the split graph: offset + the base's parity, halved, with
 * the low bit in the row's bitmap), else wide (the 16-bit form itself, in
 * a pool of chunks; the narrow slot holds PG_REACH_WIDE + its index).  A
 * narrow row and a wide row of one 16-bit form read the same, so the
 * table holds the same facts as a 16-bit table whatever its rows' layout.
 * A table whose rows would mostly not fit keeps heads only (reach_rows_alloc,
 * narrow_pays). */
#include "frontend/checking/reach_rows.h"
#include "io/bigmem.h"

#include <stdlib.h>
#include <string.h>

/* acc[x] = min(acc[x], src[x] + sh), the sum saturating at NONE: offsets
 * from one base moved to a base sh lower; one that no longer fits is lost.
 * sh < NONE.  All in 16 bits (min(v, NONE - sh) + sh is the saturating
 * sum, and NONE stays NONE), so the loop vectorizes at 8 entries a step. */
VECTORIZE void reach_rows_min_shifted(uint16_t *restrict acc, const uint16_t *restrict src, uint32_t w, uint32_t sh) {
    uint16_t k = (uint16_t)sh, lim = (uint16_t)(PG_REACH_NONE - sh);
    for (uint32_t x = 0; x < w; x++) {
        uint16_t t = (uint16_t)((src[x] < lim ? src[x] : lim) + k);
        acc[x] = t < acc[x] ? t : acc[x];
    }
}

/* The same from a narrow row's bytes (SER: offset d, 0xFF none). */
VECTORIZE static void min_narrow(uint16_t *restrict acc, const uint8_t *restrict src, uint32_t w, uint32_t sh) {
    uint16_t k = (uint16_t)sh, lim = (uint16_t)(PG_REACH_NONE - sh);
    for (uint32_t x = 0; x < w; x++) {
        uint16_t v = src[x] == PG_REACH_NARROW_NONE ? (uint16_t)PG_REACH_NONE : src[x];
        uint16_t t = (uint16_t)((v < lim ? v : lim) + k);
        acc[x] = t < acc[x] ? t : acc[x];
    }
}

/* The same from a narrow split row: stored 2 d + bit is the offset plus
 * the row base's parity par (so never below par), sh the distance of the
 * two bases (< NONE). */
VECTORIZE static void min_narrow_split(uint16_t *restrict acc, const uint8_t *restrict src, const uint8_t *restrict bit,
                                       uint32_t w, uint32_t sh, uint32_t par) {
    uint16_t k = (uint16_t)sh, lim = (uint16_t)(PG_REACH_NONE - sh), p = (uint16_t)par;
    for (uint32_t x = 0; x < w; x++) {
        uint16_t d = src[x], e = (uint16_t)(2 * d + bit[x] - p);   /* both arms computed: no branch */
        uint16_t v = d == PG_REACH_NARROW_NONE ? (uint16_t)PG_REACH_NONE : e;
        uint16_t t = (uint16_t)((v < lim ? v : lim) + k);
        acc[x] = t < acc[x] ? t : acc[x];
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
void reach_rows_clamp(uint16_t *acc, uint32_t w) {
    uint32_t dmax = pg_reach_delta_max;
    if (dmax >= PG_REACH_NONE - 1) return;
    for (uint32_t x = 0; x < w; x++)
        if (acc[x] > dmax) acc[x] = PG_REACH_NONE;
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
    if (k >= g->reach_wide_chunks) abort();    /* cannot happen: a row takes one wide row at most (reach_rows_store) */
    if (!atomic_load_explicit(&g->reach_wide[k], memory_order_acquire)) {
        uint16_t *p = xmalloc((size_t)PG_REACH_WIDE_CHUNK * g->reach_wstride * sizeof *p), *none = NULL;
        if (!atomic_compare_exchange_strong_explicit(&g->reach_wide[k], &none, p, memory_order_acq_rel, memory_order_acquire))
            free(p);
    }
    return i;
}

/* Every entry of acc (S entries) plus lo, halved on the split graph,
 * fits a narrow byte (<= pg_reach_narrow_max).  An OR of 16-bit
 * comparisons with one bound: it vectorizes, a running maximum did not. */
VECTORIZE static int fits_narrow(const uint16_t *restrict acc, uint32_t S, uint32_t lo, uint32_t split) {
    uint32_t bound = ((pg_reach_narrow_max + 1) << split) - lo;   /* entries below it fit */
    uint16_t b = (uint16_t)(bound < PG_REACH_NONE ? bound : PG_REACH_NONE), over = 0;
    for (uint32_t x = 0; x < S; x++) over |= (uint16_t)((acc[x] != PG_REACH_NONE) & (acc[x] >= b));
    return !over;
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
void reach_rows_store(polygraph *g, uint8_t *row, uint32_t bu, const uint16_t *restrict acc, int reuse, uint8_t *restrict bit) {
    uint32_t S = g->num_chains, split = g->reach_bits_at != 0, lo = split ? (bu & 1) : 0, h = pg_load32(row);
    /* a row made wide stays wide until the next full table: a row takes at
     * most one wide row, so the pool never outgrows the rows */
    int stay_wide = reuse && pg_reach_head_wide(h);
    if (g->reach_stride > 4 && !stay_wide &&   /* 4: heads only, every row wide (narrow_pays) */
        (bu == UINT32_MAX || (bu < PG_REACH_WIDE && fits_narrow(acc, S, lo, split)))) {
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
    uint32_t i = stay_wide ? h - PG_REACH_WIDE : wide_alloc(g);
    uint16_t *w = wide_row_mut(g, i);
    memcpy(w, &bu, sizeof bu);
    memcpy(w + 2, acc, S * sizeof *acc);
    for (uint32_t x = S + 2; x < g->reach_wstride; x++) w[x] = PG_REACH_NONE;
    h = PG_REACH_WIDE + i;
    memcpy(row, &h, sizeof h);
}

/* A row's 16-bit form: returns its base, its offsets into out. */
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
    return reach_rows_load(g, g->reach + (size_t)r * g->reach_stride, out);
}

/* Row r's entries, moved to base bu, into acc (bit: scratch of a byte an
 * entry). */
void reach_rows_into(const polygraph *g, uint16_t *acc, const uint8_t *r, uint32_t bu, uint8_t *bit) {
    uint32_t h = pg_load32(r), S = g->num_chains;
    if (pg_reach_head_wide(h)) {
        const uint16_t *w = pg_reach_wide_row(g, h - PG_REACH_WIDE);
        uint32_t bv = pg_load32(w);
        if (bv - bu >= PG_REACH_NONE) return;  /* nothing it knows fits */
        reach_rows_min_shifted(acc, w + 2, S, bv - bu);
        return;
    }
    if (h == UINT32_MAX || h - bu >= PG_REACH_NONE) return;
    if (!g->reach_bits_at) { min_narrow(acc, r + 4, S, h - bu); return; }
    parity_bytes(g, r, bit);
    min_narrow_split(acc, r + 4, bit, S, h - bu, h & 1u);
}

/* row[dst] = min(row[dst], row[src]); 1 if anything got smaller.  Both
 * rows' offsets are moved to the lower base first (those that no longer
 * fit are lost); dst is left as it was unless something got smaller.  val
 * is scratch of 3 S entries. */
VECTORIZE int reach_rows_relax(polygraph *g, uint8_t *dst, const uint8_t *src, uint16_t *restrict val, uint8_t *restrict bit) {
    uint32_t S = g->num_chains;
    uint16_t *restrict sv = val + S, *restrict dv = val + 2 * (size_t)S;
    uint32_t bs = pg_reach_row_base(g, src);
    if (bs == UINT32_MAX) return 0;
    uint32_t bd = reach_rows_load(g, dst, dv), b = bs < bd ? bs : bd;
    if (bs - b >= PG_REACH_NONE) return 0;     /* nothing src knows fits dst's base */
    reach_rows_load(g, src, sv);
    for (uint32_t x = 0; x < S; x++) val[x] = PG_REACH_NONE;
    if (bd != UINT32_MAX && bd - b < PG_REACH_NONE) reach_rows_min_shifted(val, dv, S, bd - b);
    uint32_t smaller = 0, sh = bs - b;
    for (uint32_t x = 0; x < S; x++) {
        uint32_t t = (uint32_t)sv[x] + sh;
        t = t < PG_REACH_NONE ? t : PG_REACH_NONE;
        smaller |= t < val[x];
        val[x] = (uint16_t)(t < val[x] ? t : val[x]);
    }
    if (!smaller) return 0;
    reach_rows_clamp(val, S);
    reach_rows_store(g, dst, b, val, 1, bit);
    return 1;
}

/* row[dst] = min(row[dst], position p on chain c); 1 if it got smaller. */
int reach_rows_relax_own(polygraph *g, uint8_t *dst, uint32_t c, uint32_t p, uint16_t *restrict val, uint8_t *restrict bit) {
    if (c == HISTORY_NONE) return 0;
    uint32_t S = g->num_chains;
    uint16_t *restrict dv = val + 2 * (size_t)S;
    uint32_t bd = reach_rows_load(g, dst, dv);
    if (bd != UINT32_MAX && p >= bd) {
        uint32_t d = p - bd;
        if (d > pg_reach_delta_max || d >= PG_REACH_NONE || d >= dv[c]) return 0;
        dv[c] = (uint16_t)d;
        reach_rows_store(g, dst, bd, dv, 1, bit);
        return 1;
    }
    for (uint32_t x = 0; x < S; x++) val[x] = PG_REACH_NONE;     /* p is the new base */
    if (bd != UINT32_MAX && bd - p < PG_REACH_NONE) reach_rows_min_shifted(val, dv, S, bd - p);
    val[c] = 0;
    reach_rows_clamp(val, S);
    reach_rows_store(g, dst, p, val, 1, bit);
    return 1;
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


void reach_rows_alloc(polygraph *g, uint32_t rows, const uint32_t *order, const uint32_t *chain, const uint32_t *pos) {
    uint32_t S = g->num_chains;
    /* narrow rows: a head, a byte an entry, the split graph's parity bits;
     * 4-byte aligned; or heads only, every row wide */
    int narrow = narrow_pays(g, order, chain, pos);
    g->reach_bits_at = narrow && g->split ? 4 + S : 0;
    g->reach_stride = narrow ? (4 + S + (g->split ? (S + 7) / 8 : 0) + 3) & ~3u : 4;
    g->reach_wstride = (S + 2 + 1) & ~1u;      /* even: every base 4-byte aligned */
    size_t bytes = (size_t)rows * g->reach_stride + 64;
    g->reach = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!g->reach) xalloc_fail(bytes);
    big_advise(g->reach, bytes);               /* rows are read all over: fewer TLB misses */
    g->reach_wide_chunks = rows / PG_REACH_WIDE_CHUNK + 1;
    g->reach_wide = xmalloc((size_t)g->reach_wide_chunks * sizeof *g->reach_wide);
    for (uint32_t k = 0; k < g->reach_wide_chunks; k++) atomic_init(&g->reach_wide[k], NULL);
}

void reach_rows_free(polygraph *g) {
    free(g->reach);
    g->reach = NULL;
    for (uint32_t k = 0; k < g->reach_wide_chunks; k++) free(atomic_load_explicit(&g->reach_wide[k], memory_order_relaxed));
    free((void *)g->reach_wide);
    g->reach_wide = NULL;
    g->reach_wide_chunks = 0;
}
