/* frontend/online/reach_summary.c — reachability summaries of the online check (contract
 * in frontend/online/reach_summary.h).
 *
 * Layout.  A node's summary (its row: one entry per chain) only grows
 * along its session: a node with a sequence number is added after its
 * session's previous one, which is its predecessor, so its row is the max
 * of that row and others.  The rows of a session are therefore stored
 * together, in blocks of BLK_ROWS consecutive sequence numbers, each with
 * a 32-bit base per chain (the block's first row) and one byte per entry:
 * the entry minus the base, or ESC when that does not fit in 0..254 (the
 * exact value is then in the block's escape list, sorted by (row, chain):
 * rows are written in order, chains in order).  So every entry is exact
 * and costs one byte instead of four.  Rows stay rows (not columns): the
 * checker reads many entries of one old row (the pairs of a key's writers
 * at the end of the stream, the top writers of a key, a writer's previous
 * one on each session), which then share its two cache lines and its
 * block's bases.  With 100 sessions a chain advances by about BLK_ROWS
 * within a block, which fits; a jump (a session that first hears of a
 * chain long after its block began) costs escapes until the block ends.
 * A session's last block grows by doubling (short sessions stay small); a
 * chain given out later widens the blocks as they are written.  Each
 * session also keeps its last row in full: the next node starts from it,
 * and the frontier reads it.
 *
 * "e reaches d" (reach_reaches) is answered from the bases of d's block
 * when they suffice (the first row is at most d's), and they are shared by
 * the block's rows, so more often in cache than d's row.
 *
 * Nodes without a sequence number (late arrivals, INIT), or that do not
 * come next on their session, get a full 32-bit row of their own (rare);
 * the latter also turns off the skipping of dominated sources, which
 * relies on the rows growing along a session.
 *
 * Dominated sources: if the row being built already holds, on a source's
 * chain, at least the source's own sequence number, the source's row is
 * at most it on every chain (an entry v on chain c of any row was copied
 * from the row of the node numbered v on c, or of a later node of its
 * session, by induction over the order of arrival; rows grow along a
 * session), so merging it changes nothing and its (cold) row is not
 * read. */
#include "frontend/online/reach_summary.h"

#include <string.h>

#include "vec.h"
#include "io/bigmem.h"

#define ANC_MAX 128                     /* sessions with a chain; later ones: none */
#define BLK_ROWS 64                     /* rows per block */
#define ESC 255                         /* the byte of an entry held in the escape list */
#define SOLO 0x80000000u                /* rloc.sess: a row of its own (rloc.pos indexes solo) */

typedef struct resc { uint32_t at, v; } resc;          /* at: row << 8 | chain */
typedef struct rblock {
    uint32_t *base;                     /* width: the first row */
    uint8_t *code;                      /* cap x width */
    uint32_t width, cap, nrows;
    VEC(resc) esc;
} rblock;
typedef struct rloc { uint32_t sess, pos; } rloc;      /* a node's row: position pos (seq - 1) of session sess */
typedef struct rsess {
    uint32_t chain, rows, last;         /* rows stored; last: the node of the last one (REACH_NONE: none) */
    VEC(rblock) blk;                    /* blk[i]: positions [i * BLK_ROWS, (i + 1) * BLK_ROWS) */
    vec_u32 last_row;                   /* the last row in full (chains at the time; later ones 0) */
} rsess;

struct online_reach {
    VEC(rloc) loc;                      /* per node */
    VEC(rsess) sess;                    /* by the caller's session id */
    vec_u32 solo;                       /* rows of their own, ANC_MAX entries each */
    vec_u32 row;                        /* add_node's scratch */
    uint32_t chains;
    int broken;                         /* a numbered node did not come next on its session: no skipping, no hints */
    reach_stats st;
};

online_reach *reach_new(void) {
    online_reach *r = xcalloc(1, sizeof *r);
    rloc init = { SOLO, 0 };
    vec_push(r->loc, init);                        /* INIT: no ancestor */
    vec_resize(r->solo, ANC_MAX);
    memset(r->solo.data, 0, ANC_MAX * sizeof *r->solo.data);
    return r;
}

void reach_free(online_reach *r) {
    if (!r) return;
    vec_foreach(rsess, s, r->sess) {
        vec_foreach(rblock, b, s->blk) { free(b->base); free(b->code); vec_free(b->esc); }
        vec_free(s->blk);
        vec_free(s->last_row);
    }
    vec_free(r->loc); vec_free(r->sess); vec_free(r->solo); vec_free(r->row);
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
    return b->esc.data[lo].v;                     /* present: the byte said so */
}

/* Entry c of the row at position pos of session S. */
static uint32_t block_get(const rsess *S, uint32_t pos, uint32_t c) {
    const rblock *b = &S->blk.data[pos / BLK_ROWS];
    if (c >= b->width) return 0;                  /* the chain came after the row */
    const uint32_t row = pos % BLK_ROWS;
    uint8_t k = b->code[(size_t)row * b->width + c];
    return k != ESC ? b->base[c] + k : esc_get(b, row, c);
}

int reach_reaches(const online_reach *r, uint32_t d, uint32_t sess, uint32_t seq, uint32_t c, uint32_t q) {
    if (!seq || r->broken) return reach_get(r, d, c) >= q;
    const rsess *S = &r->sess.data[sess];
    const uint32_t pos = seq - 1;
    const rblock *b = &S->blk.data[pos / BLK_ROWS];
    if (c >= b->width) return q == 0;
    /* the block's first row is at most d's (rows grow along the session):
     * usually enough, from the bases, which are shared by the block's rows */
    if (b->base[c] >= q) return 1;
    const uint32_t row = pos % BLK_ROWS;
    uint8_t k = b->code[(size_t)row * b->width + c];
    return (k != ESC ? b->base[c] + k : esc_get(b, row, c)) >= q;
}

int reach_in_order(const online_reach *r) { return !r->broken; }

uint32_t reach_get(const online_reach *r, uint32_t d, uint32_t c) {
    const rloc l = r->loc.data[d];
    if (l.sess & SOLO) return r->solo.data[(size_t)l.pos * ANC_MAX + c];
    return block_get(&r->sess.data[l.sess], l.pos, c);
}

/* out = max(out, row of d) over the first W chains (every chain so far). */
static void row_merge(const online_reach *r, uint32_t d, uint32_t *restrict out, uint32_t W) {
    const rloc l = r->loc.data[d];
    if (l.sess & SOLO) {
        const uint32_t *s = r->solo.data + (size_t)l.pos * ANC_MAX;
        for (uint32_t c = 0; c < W; c++) out[c] = s[c] > out[c] ? s[c] : out[c];
        return;
    }
    const rsess *S = &r->sess.data[l.sess];
    if (d == S->last) {                           /* its session's last row: in full */
        for (uint32_t c = 0; c < S->last_row.len; c++) out[c] = S->last_row.data[c] > out[c] ? S->last_row.data[c] : out[c];
        return;
    }
    const rblock *b = &S->blk.data[l.pos / BLK_ROWS];
    const uint32_t row = l.pos % BLK_ROWS, w = b->width;
    const uint8_t *restrict k = b->code + (size_t)row * w;
    const uint32_t *restrict base = b->base;
    int esc = 0;
    for (uint32_t c = 0; c < w; c++) {
        uint32_t v = k[c] == ESC ? 0 : base[c] + k[c];
        esc |= k[c] == ESC;
        out[c] = v > out[c] ? v : out[c];
    }
    if (!esc) return;
    uint32_t at = row << 8;
    size_t lo = 0, hi = b->esc.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (b->esc.data[mid].at < at) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < b->esc.len && b->esc.data[lo].at >> 8 == row; lo++) {
        uint32_t c = b->esc.data[lo].at & 0xff, v = b->esc.data[lo].v;
        if (v > out[c]) out[c] = v;
    }
}

void reach_row(const online_reach *r, uint32_t d, uint32_t *out) {
    memset(out, 0, r->chains * sizeof *out);
    row_merge(r, d, out, r->chains);
}

/* Block b re-laid for width W and capacity cap (the rows so far copied;
 * on a chain given out since, they hold 0, which is then the base). */
static void relayout(online_reach *r, rblock *b, uint32_t W, uint32_t cap) {
    uint8_t *code = xcalloc((size_t)cap * W, 1);
    for (uint32_t i = 0; i < b->nrows; i++) memcpy(code + (size_t)i * W, b->code + (size_t)i * b->width, b->width);
    free(b->code);
    b->code = code;
    b->base = xrealloc(b->base, (W ? W : 1) * sizeof *b->base);
    memset(b->base + b->width, 0, (W - b->width) * sizeof *b->base);
    r->st.bytes += (size_t)cap * W - (size_t)b->cap * b->width + (size_t)(W - b->width) * sizeof *b->base;
    b->width = W;
    b->cap = cap;
}

/* Append row (W entries) to session S: a new block when the last one is
 * full, whose bases are this row. */
static void store_row(online_reach *r, rsess *S, const uint32_t *row, uint32_t W) {
    const uint32_t pos = S->rows++, i = pos % BLK_ROWS;
    if (i == 0) {
        rblock n;
        memset(&n, 0, sizeof n);
        vec_push(S->blk, n);
        r->st.blocks++;
        r->st.bytes += sizeof n;
    }
    rblock *b = &vec_last(S->blk);
    if (i == b->cap || b->width < W) {
        uint32_t cap = b->cap ? b->cap : 1;
        while (cap <= i) cap *= 2;                 /* doubling up to BLK_ROWS: short sessions stay small */
        relayout(r, b, W, cap);
    }
    if (i == 0) memcpy(b->base, row, W * sizeof *row);
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
    b->nrows = i + 1;
    vec_resize(S->last_row, W);
    memcpy(S->last_row.data, row, W * sizeof *row);
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
            if (!(l.sess & SOLO)) {
                uint32_t sc = r->sess.data[l.sess].chain;
                if (sc != REACH_NONE && row[sc] >= l.pos + 1) { r->st.skipped++; continue; }
            }
        }
        r->st.merged++;
        row_merge(r, s, row, W);
    }
    if (seq && chain != REACH_NONE && seq > row[chain]) row[chain] = seq;
    while (r->sess.len <= sess) {
        rsess n;
        memset(&n, 0, sizeof n);
        n.chain = REACH_NONE;
        n.last = REACH_NONE;
        vec_push(r->sess, n);
    }
    rsess *S = &r->sess.data[sess];
    S->chain = chain;
    rloc l;
    if (seq && !r->broken && seq == S->rows + 1 && prev == S->last) {
        store_row(r, S, row, W);
        S->last = g;
        l.sess = sess;
        l.pos = seq - 1;
    } else {
        if (seq) r->broken = 1;                   /* rows may not grow along this session any more */
        uint32_t i = (uint32_t)(r->solo.len / ANC_MAX);
        vec_resize(r->solo, r->solo.len + ANC_MAX);
        memcpy(r->solo.data + (size_t)i * ANC_MAX, row, ANC_MAX * sizeof *row);
        l.sess = SOLO;
        l.pos = i;
        r->st.solo++;
        r->st.bytes += ANC_MAX * sizeof *row;
    }
    big_vec_push(r->loc, l);
    r->st.bytes += sizeof l;
    return g;
}
