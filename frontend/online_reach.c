/* online_reach.c — reachability summaries of the online check (contract
 * in online_reach.h).
 *
 * Layout.  A node's summary (its row: one entry per chain) only grows
 * along its session: a node with a sequence number is added after its
 * session's previous one, which is its predecessor, so its row is the
 * max of that row and others.  Rows of a session are therefore stored
 * together in blocks of BLK_ROWS consecutive sequence numbers, each block
 * with a 32-bit base per chain (its first row) and one byte per entry:
 * the entry minus the base, or ESC when that does not fit in 0..254 (the
 * exact value is then in the block's escape list, sorted by (row, chain):
 * rows are written in order, chains in order).  So every entry is exact,
 * a row costs one byte per chain instead of four, and the base is one
 * 32-bit word per chain per BLK_ROWS rows.  With 100 sessions a chain
 * advances by about BLK_ROWS in a block, which fits; a jump (a session
 * that first hears of a chain, long after its block began) costs escapes
 * until the block ends.
 *
 * Nodes without a sequence number (late arrivals, INIT), or that do not
 * come next on their session, get a full 32-bit row of their own (rare);
 * such a break also turns off the skipping of dominated sources, which
 * relies on the rows growing along a session.
 *
 * Dominated sources: if the row being built already holds, on a source's
 * chain, at least the source's own sequence number, the source's row is
 * at most it on every chain (an entry v on chain c of any row was copied
 * from the row of the node numbered v on c, or of a later node of its
 * session, by induction over the order of arrival; rows grow along a
 * session), so merging it changes nothing and its (cold) row is not
 * read. */
#include "frontend/online_reach.h"

#include <string.h>

#include "vec.h"

#define ANC_MAX 128                     /* sessions with a chain; later ones: none */
#define BLK_ROWS 64                     /* rows per block (consecutive on one session) */
#define ESC 255                         /* the byte of an entry held in the escape list */
#define SOLO 0x80000000u                /* loc.blk: a row of its own (index in solo) */

typedef struct resc { uint32_t at, v; } resc;          /* at: row << 8 | chain */
typedef struct rblock {
    uint32_t *base;                     /* width: the first row */
    uint8_t *code;                      /* cap x width */
    uint32_t width, nrows, cap;
    uint32_t chain, seq0;               /* its session's chain (REACH_NONE: none), the sequence number of its first row */
    VEC(resc) esc;
} rblock;
typedef struct rloc { uint32_t blk, row; } rloc;        /* where a node's row is */
typedef struct rsess { uint32_t chain, cur, rows, last; } rsess;   /* cur: its open block (REACH_NONE: none); last: its last node */

struct online_reach {
    VEC(rloc) loc;                      /* per node */
    VEC(rblock) blk;
    VEC(rsess) sess;                    /* by the caller's session id */
    vec_u32 solo;                       /* rows of their own, ANC_MAX entries each */
    vec_u32 row, tmp;                   /* add_node's scratch */
    uint32_t chains;
    int broken;                         /* a sequenced node did not come next on its session: no skipping */
    reach_stats st;
};

online_reach *reach_new(void) {
    online_reach *r = xcalloc(1, sizeof *r);
    rloc init = { SOLO | 0, 0 };
    vec_push(r->loc, init);                        /* INIT: no ancestor */
    vec_resize(r->solo, ANC_MAX);
    memset(r->solo.data, 0, ANC_MAX * sizeof *r->solo.data);
    return r;
}

void reach_free(online_reach *r) {
    if (!r) return;
    vec_foreach(rblock, b, r->blk) { free(b->base); free(b->code); vec_free(b->esc); }
    vec_free(r->loc); vec_free(r->blk); vec_free(r->sess); vec_free(r->solo);
    vec_free(r->row); vec_free(r->tmp);
    free(r);
}

uint32_t reach_chains(const online_reach *r) { return r->chains; }

uint32_t reach_new_chain(online_reach *r) {
    if (r->chains == ANC_MAX) return REACH_NONE;
    return r->chains++;
}

const reach_stats *reach_get_stats(const online_reach *r) { return &r->st; }

/* The exact entry of an escaped (row, chain) of block b. */
static uint32_t esc_get(const rblock *b, uint32_t row, uint32_t c) {
    uint32_t at = row << 8 | c;
    size_t lo = 0, hi = b->esc.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (b->esc.data[mid].at < at) lo = mid + 1;
        else hi = mid;
    }
    return b->esc.data[lo].v;                     /* present: the code said so */
}

uint32_t reach_get(const online_reach *r, uint32_t d, uint32_t c) {
    const rloc l = r->loc.data[d];
    if (l.blk & SOLO) return r->solo.data[(size_t)(l.blk & ~SOLO) * ANC_MAX + c];
    const rblock *b = &r->blk.data[l.blk];
    if (c >= b->width) return 0;                  /* the chain came after the row */
    uint8_t k = b->code[(size_t)l.row * b->width + c];
    return k != ESC ? b->base[c] + k : esc_get(b, l.row, c);
}

/* out = max(out, row of d) over the first W chains (every chain so far);
 * the byte rows decoded with the escapes patched in after. */
static void row_merge(const online_reach *r, uint32_t d, uint32_t *restrict out, uint32_t W) {
    const rloc l = r->loc.data[d];
    if (l.blk & SOLO) {
        const uint32_t *s = r->solo.data + (size_t)(l.blk & ~SOLO) * ANC_MAX;
        for (uint32_t c = 0; c < W; c++) out[c] = s[c] > out[c] ? s[c] : out[c];
        return;
    }
    const rblock *b = &r->blk.data[l.blk];
    const uint8_t *restrict k = b->code + (size_t)l.row * b->width;
    const uint32_t *restrict base = b->base;
    const uint32_t w = b->width;
    int esc = 0;
    for (uint32_t c = 0; c < w; c++) {
        uint32_t v = k[c] == ESC ? 0 : base[c] + k[c];
        esc |= k[c] == ESC;
        out[c] = v > out[c] ? v : out[c];
    }
    if (!esc) return;
    uint32_t at = l.row << 8;
    size_t lo = 0, hi = b->esc.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (b->esc.data[mid].at < at) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < b->esc.len && b->esc.data[lo].at >> 8 == l.row; lo++) {
        uint32_t c = b->esc.data[lo].at & 0xff, v = b->esc.data[lo].v;
        if (v > out[c]) out[c] = v;
    }
}

void reach_row(const online_reach *r, uint32_t d, uint32_t *out) {
    memset(out, 0, r->chains * sizeof *out);
    row_merge(r, d, out, r->chains);
}

/* Block b, widened to W chains (a chain given out while it was open: the
 * rows so far hold 0 there, which is the base). */
static void widen(rblock *b, uint32_t W) {
    uint8_t *code = xcalloc((size_t)b->cap * W, 1);
    for (uint32_t i = 0; i < b->nrows; i++) memcpy(code + (size_t)i * W, b->code + (size_t)i * b->width, b->width);
    free(b->code);
    b->code = code;
    b->base = xrealloc(b->base, W * sizeof *b->base);
    memset(b->base + b->width, 0, (W - b->width) * sizeof *b->base);
    b->width = W;
}

/* Append row (W entries) to session S's open block, opening one with this
 * row as its base when there is none or it is full. */
static rloc store_row(online_reach *r, rsess *S, const uint32_t *row, uint32_t W) {
    if (S->cur == REACH_NONE || r->blk.data[S->cur].nrows == BLK_ROWS) {
        rblock b;
        memset(&b, 0, sizeof b);
        b.width = W;
        b.cap = 1;
        b.chain = S->chain;
        b.seq0 = S->rows + 1;
        b.base = xmalloc((W ? W : 1) * sizeof *b.base);
        memcpy(b.base, row, W * sizeof *row);
        b.code = xmalloc(W ? W : 1);
        vec_push(r->blk, b);
        S->cur = (uint32_t)r->blk.len - 1;
        r->st.blocks++;
        r->st.bytes += sizeof b + (size_t)W * (sizeof *b.base + 1);
    }
    rblock *b = &r->blk.data[S->cur];
    if (b->width < W) { r->st.bytes += (size_t)(W - b->width) * (sizeof *b->base + b->cap); widen(b, W); }
    if (b->nrows == b->cap) {                     /* grow by doubling up to BLK_ROWS: short sessions stay small */
        uint32_t cap = b->cap * 2 > BLK_ROWS ? BLK_ROWS : b->cap * 2;
        b->code = xrealloc(b->code, (size_t)cap * W);
        r->st.bytes += (size_t)(cap - b->cap) * W;
        b->cap = cap;
    }
    uint32_t i = b->nrows++;
    uint8_t *k = b->code + (size_t)i * W;
    for (uint32_t c = 0; c < W; c++) {
        uint32_t d = row[c] - b->base[c];
        if (row[c] >= b->base[c] && d < ESC) k[c] = (uint8_t)d;
        else {
            k[c] = ESC;
            resc e = { i << 8 | c, row[c] };
            vec_push(b->esc, e);
            r->st.escapes++;
            r->st.bytes += sizeof e;
        }
    }
    rloc l = { S->cur, i };
    return l;
}

uint32_t reach_add_node(online_reach *r, uint32_t sess, uint32_t chain, uint32_t seq, uint32_t prev,
                        const uint32_t *src, size_t nsrc) {
    uint32_t g = (uint32_t)r->loc.len, W = r->chains;
    vec_resize(r->row, ANC_MAX);
    uint32_t *row = r->row.data;
    memset(row, 0, ANC_MAX * sizeof *row);
    if (prev != REACH_NONE) row_merge(r, prev, row, W);
    for (size_t i = 0; i < nsrc; i++) {
        uint32_t s = src[i];
        if (s == 0) continue;
        if (!r->broken) {
            /* dominated (file comment): the row already holds s's own entry */
            const rloc l = r->loc.data[s];
            if (!(l.blk & SOLO)) {
                const rblock *b = &r->blk.data[l.blk];
                if (b->chain != REACH_NONE && row[b->chain] >= b->seq0 + l.row) { r->st.skipped++; continue; }
            }
        }
        r->st.merged++;
        row_merge(r, s, row, W);
    }
    if (seq && chain != REACH_NONE && seq > row[chain]) row[chain] = seq;
    while (r->sess.len <= sess) { rsess n = { REACH_NONE, REACH_NONE, 0, REACH_NONE }; vec_push(r->sess, n); }
    rsess *S = &r->sess.data[sess];
    S->chain = chain;
    rloc l;
    if (seq && seq == S->rows + 1 && prev == (seq == 1 ? REACH_NONE : S->last)) {
        l = store_row(r, S, row, W);
        S->rows = seq;
        S->last = g;
    } else {
        if (seq) r->broken = 1;                   /* rows may not grow along this session any more */
        uint32_t i = (uint32_t)(r->solo.len / ANC_MAX);
        vec_resize(r->solo, r->solo.len + ANC_MAX);
        memcpy(r->solo.data + (size_t)i * ANC_MAX, row, ANC_MAX * sizeof *row);
        l.blk = SOLO | i;
        l.row = 0;
        r->st.solo++;
        r->st.bytes += ANC_MAX * sizeof *row;
    }
    vec_push(r->loc, l);
    r->st.bytes += sizeof l;
    return g;
}
