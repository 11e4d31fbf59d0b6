/* gunzip.c — streaming gzip/deflate decoder (see gunzip.h).
 *
 * Two paths share one state.  The fast path runs while the output has room
 * for a whole match and the input has bytes to spare: the bit buffer is
 * refilled eight bytes at a time, symbols come from 10-bit lookup tables,
 * and matches are copied eight bytes at a time.  Near either end the
 * careful path takes over: a small state machine whose unit of work is
 * one symbol (a literal, or a match that may be cut short when `out`
 * fills up), so it can stop whenever the caller's buffer is full.
 * Deflate sends Huffman codes most-significant bit first inside a
 * least-significant-bit-first stream, so tables are indexed by the
 * bit-reversed code; codes longer than the table are decoded by a
 * canonical walk.  Output is written straight into the caller's buffer;
 * the last 32 KB of it are kept as the window for later matches. */
#include "io/gunzip.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

#define WIN_SIZE 32768u
#define FAST_BITS 10
#define IN_SIZE 65536u
#define MAX_BITS 15
#define FAST_OUT_ROOM (258 + 8)   /* a whole match plus the wide copy's overrun */
#define FAST_IN_ROOM 16           /* bytes of input the fast path may read ahead */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HAVE_FAST_PATH 1
#else
#define HAVE_FAST_PATH 0
#endif

typedef struct huffman {
    uint16_t fast[1 << FAST_BITS];   /* (symbol << 4) | length, 0: longer (or no) code */
    uint16_t count[MAX_BITS + 1];    /* codes per length */
    uint16_t symbol[288];            /* symbols ordered by (length, value) */
} huffman;

enum state { ST_HEADER, ST_BLOCK, ST_STORED, ST_CODES, ST_TRAILER, ST_END, ST_ERROR };

struct gunzip {
    gunzip_input input;
    void *ctx;
    unsigned char *in;
    size_t in_pos, in_len, in_cap;
    int in_eof;
    long long in_offset;             /* compressed bytes consumed before in[0] */
    uint64_t bitbuf;                 /* bits above bitcnt are zero */
    int bitcnt;

    enum state state;
    int final_block;
    uint32_t stored_left;
    int copy_len, copy_dist;         /* a match cut short by a full buffer */
    huffman lit, dist;

    unsigned char win[WIN_SIZE];     /* the last WIN_SIZE bytes output before this call */
    uint32_t win_pos;                /* bytes ever put in win (mod 2^32) */
    uint64_t member_out;             /* bytes of the current member before this call */
    uint32_t crc;
    uint32_t crc_table[8][256];
    int members;

    char err[160];
    long long err_offset;
};

static const uint16_t len_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                      35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                      3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                       257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                                       8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                       7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint8_t clen_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

int gunzip_magic(const unsigned char *p, size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

static long long consumed(const gunzip *g) { return g->in_offset + (long long)g->in_pos - g->bitcnt / 8; }

static int fail(gunzip *g, const char *msg) {
    if (g->state != ST_ERROR) {
        snprintf(g->err, sizeof g->err, "%s", msg);
        g->err_offset = consumed(g);
        g->state = ST_ERROR;
    }
    return -1;
}

/* Next input byte, or -1 at end of input. */
static int next_byte(gunzip *g) {
    if (g->in_pos == g->in_len) {
        if (g->in_eof) return -1;
        g->in_offset += (long long)g->in_len;
        g->in_pos = g->in_len = 0;
        long n = g->input ? g->input(g->ctx, g->in, g->in_cap) : 0;
        if (n < 0) { g->in_eof = 1; fail(g, "read error in compressed input"); return -1; }
        if (n == 0) { g->in_eof = 1; return -1; }
        g->in_len = (size_t)n;
    }
    return g->in[g->in_pos++];
}

/* Have at least n bits buffered; 0 if the input ended first. */
static int need(gunzip *g, int n) {
    while (g->bitcnt < n) {
        int c = next_byte(g);
        if (c < 0) return 0;
        g->bitbuf |= (uint64_t)c << g->bitcnt;
        g->bitcnt += 8;
    }
    return 1;
}

/* Take n (<= 32) bits; -1 when the data is truncated. */
static int64_t bits(gunzip *g, int n) {
    if (!need(g, n)) return fail(g, "unexpected end of compressed data");
    uint64_t v = g->bitbuf & ((1ull << n) - 1);
    g->bitbuf >>= n;
    g->bitcnt -= n;
    return (int64_t)v;
}

static int byte_aligned_byte(gunzip *g) {       /* whole bytes after the deflate stream */
    if (g->bitcnt >= 8) return (int)bits(g, 8);
    g->bitbuf = 0; g->bitcnt = 0;
    return next_byte(g);
}

/* Make room for more input: keep the unread bytes, at the front. */
static void compact_input(gunzip *g) {
    if (g->in_pos == 0) return;
    memmove(g->in, g->in + g->in_pos, g->in_len - g->in_pos);
    g->in_offset += (long long)g->in_pos;
    g->in_len -= g->in_pos;
    g->in_pos = 0;
}

/* Top up the input buffer (for the fast path); errors surface later. */
static void fill_input(gunzip *g) {
    if (g->in_eof || !g->input) return;
    compact_input(g);
    while (g->in_len < g->in_cap / 2 && !g->in_eof) {
        long n = g->input(g->ctx, g->in + g->in_len, g->in_cap - g->in_len);
        if (n <= 0) { g->in_eof = 1; if (n < 0) fail(g, "read error in compressed input"); break; }
        g->in_len += (size_t)n;
    }
}

/* ---- Huffman tables ------------------------------------------------------ */

static unsigned reverse_bits(unsigned code, int len) {
    unsigned r = 0;
    for (int i = 0; i < len; i++) { r = (r << 1) | (code & 1); code >>= 1; }
    return r;
}

/* Build from code lengths; 0 if over-subscribed.  Incomplete codes are
 * accepted (deflate allows them for a lone distance code); using a missing
 * code is caught while decoding. */
static int build(huffman *h, const uint8_t *lengths, int n) {
    uint16_t next_code[MAX_BITS + 2], offset[MAX_BITS + 2];
    memset(h->count, 0, sizeof h->count);
    memset(h->fast, 0, sizeof h->fast);
    for (int s = 0; s < n; s++) h->count[lengths[s]]++;
    h->count[0] = 0;
    int left = 1;
    for (int len = 1; len <= MAX_BITS; len++) {
        left = 2 * left - h->count[len];
        if (left < 0) return 0;
    }
    offset[1] = 0;
    for (int len = 1; len <= MAX_BITS; len++) offset[len + 1] = (uint16_t)(offset[len] + h->count[len]);
    unsigned code = 0;
    for (int len = 1; len <= MAX_BITS; len++) {
        code = (code + h->count[len - 1]) << 1;
        next_code[len] = (uint16_t)code;
    }
    for (int s = 0; s < n; s++) {
        int len = lengths[s];
        if (!len) continue;
        h->symbol[offset[len]++] = (uint16_t)s;
        unsigned c = next_code[len]++;
        if (len <= FAST_BITS) {
            unsigned r = reverse_bits(c, len);
            for (unsigned k = r; k < (1u << FAST_BITS); k += 1u << len)
                h->fast[k] = (uint16_t)((s << 4) | len);
        }
    }
    return 1;
}

/* Canonical walk over the buffered bits (at least MAX_BITS of them, or
 * `avail`): the symbol and *used bits, or -1 if no code matches. */
static int walk(const huffman *h, uint64_t b, int avail, int *used) {
    /* at each length, codes of that length are the count[len] values starting at `first` */
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= MAX_BITS && len <= avail; len++) {
        code |= (int)(b & 1);
        b >>= 1;
        int cnt = h->count[len];
        if (code - first < cnt) { *used = len; return h->symbol[index + code - first]; }
        index += cnt;
        first = (first + cnt) << 1;
        code <<= 1;
    }
    *used = avail < MAX_BITS ? avail + 1 : MAX_BITS;   /* avail short: more bits were needed */
    return -1;
}

/* Decode one symbol; -1 on a bad code or truncated input. */
static int decode(gunzip *g, const huffman *h) {
    need(g, MAX_BITS);                          /* may come up short near the end */
    unsigned entry = h->fast[g->bitbuf & ((1u << FAST_BITS) - 1)];
    int len, sym;
    if (entry) {
        len = (int)(entry & 15);
        sym = (int)(entry >> 4);
    } else {
        sym = walk(h, g->bitbuf, g->bitcnt, &len);
        if (sym < 0 && len <= MAX_BITS && len > g->bitcnt) return fail(g, "unexpected end of compressed data");
        if (sym < 0) return fail(g, "invalid Huffman code in compressed data");
    }
    if (len > g->bitcnt) return fail(g, "unexpected end of compressed data");
    g->bitbuf >>= len;
    g->bitcnt -= len;
    return sym;
}

static void fixed_tables(gunzip *g) {
    uint8_t l[288];
    for (int s = 0; s < 288; s++) l[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    build(&g->lit, l, 288);
    for (int s = 0; s < 30; s++) l[s] = 5;
    build(&g->dist, l, 30);
}

static int dynamic_tables(gunzip *g) {
    int64_t hlit = bits(g, 5), hdist = bits(g, 5), hclen = bits(g, 4);
    if (hlit < 0 || hdist < 0 || hclen < 0) return -1;
    hlit += 257; hdist += 1; hclen += 4;
    if (hlit > 286 || hdist > 30) return fail(g, "bad dynamic block header (too many codes)");
    uint8_t cl[19] = {0}, lengths[286 + 30];
    for (int i = 0; i < hclen; i++) {
        int64_t b = bits(g, 3);
        if (b < 0) return -1;
        cl[clen_order[i]] = (uint8_t)b;
    }
    huffman *clh = &g->dist;                    /* scratch: dist is rebuilt below */
    if (!build(clh, cl, 19)) return fail(g, "bad code-length code");
    int n = 0, total = (int)(hlit + hdist);
    while (n < total) {
        int sym = decode(g, clh);
        if (sym < 0) return -1;
        if (sym < 16) { lengths[n++] = (uint8_t)sym; continue; }
        int rep, val = 0;
        int64_t b;
        if (sym == 16) {
            if (n == 0) return fail(g, "code-length repeat with nothing to repeat");
            val = lengths[n - 1];
            if ((b = bits(g, 2)) < 0) return -1;
            rep = 3 + (int)b;
        } else if (sym == 17) {
            if ((b = bits(g, 3)) < 0) return -1;
            rep = 3 + (int)b;
        } else {
            if ((b = bits(g, 7)) < 0) return -1;
            rep = 11 + (int)b;
        }
        if (n + rep > total) return fail(g, "code lengths overflow the alphabet");
        while (rep--) lengths[n++] = (uint8_t)val;
    }
    if (lengths[256] == 0) return fail(g, "block has no end-of-block code");
    if (!build(&g->lit, lengths, (int)hlit)) return fail(g, "bad literal/length code");
    if (!build(&g->dist, lengths + hlit, (int)hdist)) return fail(g, "bad distance code");
    return 0;
}

/* ---- gzip framing ---------------------------------------------------------- */

static void crc_init(gunzip *g) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        g->crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++)
            g->crc_table[t][i] = (g->crc_table[t - 1][i] >> 8) ^ g->crc_table[0][g->crc_table[t - 1][i] & 255];
}

/* CRC-32, eight bytes per step (slicing by 8). */
static uint32_t crc_update(const gunzip *g, uint32_t crc, const unsigned char *p, size_t n) {
    const uint32_t (*t)[256] = g->crc_table;
    crc = ~crc;
    for (; n >= 8; n -= 8, p += 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        crc = t[7][lo & 255] ^ t[6][(lo >> 8) & 255] ^ t[5][(lo >> 16) & 255] ^ t[4][lo >> 24] ^
              t[3][hi & 255] ^ t[2][(hi >> 8) & 255] ^ t[1][(hi >> 16) & 255] ^ t[0][hi >> 24];
    }
    while (n--) crc = t[0][(crc ^ *p++) & 255] ^ (crc >> 8);
    return ~crc;
}

/* Parse a member header; 1 if one was read, 0 at clean end of input. */
static int member_header(gunzip *g) {
    int id1 = byte_aligned_byte(g);
    if (id1 < 0) {
        if (g->state == ST_ERROR) return -1;
        if (g->members == 0) return fail(g, "empty gzip input");
        return 0;
    }
    if (g->members > 0 && id1 == 0) {           /* zero padding after the last member */
        int c;
        while ((c = byte_aligned_byte(g)) == 0) {}
        if (c < 0 && g->state != ST_ERROR) return 0;
        return fail(g, "trailing garbage after gzip data");
    }
    int id2 = byte_aligned_byte(g), cm = byte_aligned_byte(g), flg = byte_aligned_byte(g);
    if (id1 != 0x1f || (id2 >= 0 && id2 != 0x8b))
        return fail(g, g->members ? "trailing garbage after gzip data" : "not in gzip format");
    if (id2 < 0 || cm < 0 || flg < 0) return fail(g, "truncated gzip header");
    if (cm != 8) return fail(g, "unknown gzip compression method (only deflate is supported)");
    if (flg & 0xe0) return fail(g, "reserved gzip header flags set");
    for (int i = 0; i < 6; i++) if (byte_aligned_byte(g) < 0) return fail(g, "truncated gzip header");
    if (flg & 4) {                               /* FEXTRA */
        int lo = byte_aligned_byte(g), hi = byte_aligned_byte(g);
        if (lo < 0 || hi < 0) return fail(g, "truncated gzip header");
        for (int n = lo | hi << 8; n > 0; n--) if (byte_aligned_byte(g) < 0) return fail(g, "truncated gzip header");
    }
    for (int f = 8; f <= 16; f <<= 1) {          /* FNAME, FCOMMENT: zero-terminated */
        if (!(flg & f)) continue;
        int c;
        while ((c = byte_aligned_byte(g)) > 0) {}
        if (c < 0) return fail(g, "truncated gzip header");
    }
    if (flg & 2)                                  /* FHCRC */
        for (int i = 0; i < 2; i++) if (byte_aligned_byte(g) < 0) return fail(g, "truncated gzip header");
    g->members++;
    g->crc = 0;
    g->member_out = 0;
    return 1;
}

static int member_trailer(gunzip *g) {
    g->bitbuf >>= g->bitcnt & 7;                 /* to a byte boundary */
    g->bitcnt -= g->bitcnt & 7;
    uint32_t v[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 4; i++) {
            int c = byte_aligned_byte(g);
            if (c < 0) return fail(g, "truncated gzip trailer");
            v[k] |= (uint32_t)c << (8 * i);
        }
    if (v[0] != g->crc) return fail(g, "gzip CRC-32 mismatch (corrupt data)");
    if (v[1] != (uint32_t)g->member_out) return fail(g, "gzip length mismatch (corrupt data)");
    return 0;
}

/* ---- the decoder ------------------------------------------------------------- */

gunzip *gunzip_new(const unsigned char *prefix, size_t prefix_len, gunzip_input input, void *ctx) {
    gunzip *g = xcalloc(1, sizeof *g);
    g->input = input;
    g->ctx = ctx;
    g->in_cap = prefix_len > IN_SIZE ? prefix_len : IN_SIZE;
    g->in = xmalloc(g->in_cap);
    if (prefix_len) memcpy(g->in, prefix, prefix_len);
    g->in_len = prefix_len;
    g->state = ST_HEADER;
    g->err_offset = -1;
    crc_init(g);
    return g;
}

void gunzip_free(gunzip *g) {
    if (g) free(g->in);
    free(g);
}
const char *gunzip_error(const gunzip *g) { return g->err; }
long long gunzip_error_offset(const gunzip *g) { return g->err_offset; }

/* Copy len bytes of a match at distance dist to out[n..]: bytes before
 * out[0] come from the window.  wide: the fast path's room allows writing
 * up to 8 bytes past the end. */
static inline void copy_match(const gunzip *g, unsigned char *out, size_t n, unsigned dist, unsigned len, int wide) {
    unsigned char *dst = out + n;
    if (dist > n) {                             /* starts in the window */
        uint32_t back = (uint32_t)(dist - n);
        unsigned k = back < len ? back : len;
        uint32_t at = g->win_pos - back;
        for (unsigned i = 0; i < k; i++) dst[i] = g->win[(at + i) & (WIN_SIZE - 1)];
        dst += k;
        len -= k;
        if (!len) return;
    }
    const unsigned char *src = dst - dist;
    if (wide && dist >= 8) {
        for (unsigned i = 0; i < len; i += 8) memcpy(dst + i, src + i, 8);
    } else if (dist == 1 && len) {
        memset(dst, *src, len);
    } else {
        for (unsigned i = 0; i < len; i++) dst[i] = src[i];
    }
}

#if HAVE_FAST_PATH
/* Symbols of a Huffman block while out has FAST_OUT_ROOM to spare and the
 * input FAST_IN_ROOM bytes; stops at the end of the block (state set),
 * on an error (-1) or near either end (0). */
static int inflate_fast(gunzip *g, unsigned char *out, size_t *np, size_t cap) {
    if (g->in_len - g->in_pos < 4 * FAST_IN_ROOM) fill_input(g);
    if (g->state == ST_ERROR) return -1;
    size_t n = *np;
    const unsigned char *ip = g->in + g->in_pos, *ip0 = ip;
    const unsigned char *ilimit = g->in + g->in_len - (g->in_len >= FAST_IN_ROOM ? FAST_IN_ROOM : g->in_len);
    uint64_t bb = g->bitbuf;
    unsigned bc = (unsigned)g->bitcnt;
    const huffman *lit = &g->lit, *dst = &g->dist;
    const uint64_t fmask = (1u << FAST_BITS) - 1;
    int rc = 0;
    const char *error = NULL;
    while (n + FAST_OUT_ROOM <= cap && ip < ilimit) {
        uint64_t w;
        memcpy(&w, ip, 8);                       /* little-endian: the next bytes above bc */
        bb |= w << bc;
        ip += (63 - bc) >> 3;
        bc |= 56;                               /* now 56..63 bits */
        unsigned e = lit->fast[bb & fmask];
        int sym, used;
        if (e) { sym = (int)(e >> 4); used = (int)(e & 15); }
        else if ((sym = walk(lit, bb, MAX_BITS, &used)) < 0) { error = "invalid Huffman code in compressed data"; break; }
        bb >>= used; bc -= (unsigned)used;
        if (sym < 256) {
            out[n++] = (unsigned char)sym;
            /* a second literal from the same refill */
            e = lit->fast[bb & fmask];
            if (e && (e >> 4) < 256) { out[n++] = (unsigned char)(e >> 4); bb >>= e & 15; bc -= e & 15; }
            continue;
        }
        if (sym == 256) { g->state = g->final_block ? ST_TRAILER : ST_BLOCK; break; }
        sym -= 257;
        if (sym >= 29) { error = "invalid length code"; break; }
        unsigned len = len_base[sym] + (unsigned)(bb & ((1u << len_extra[sym]) - 1));
        bb >>= len_extra[sym]; bc -= len_extra[sym];
        e = dst->fast[bb & fmask];               /* 20 bits used at most: 36 left */
        if (e) { sym = (int)(e >> 4); used = (int)(e & 15); }
        else if ((sym = walk(dst, bb, MAX_BITS, &used)) < 0) { error = "invalid Huffman code in compressed data"; break; }
        bb >>= used; bc -= (unsigned)used;
        if (sym >= 30) { error = "invalid distance code"; break; }
        unsigned dist = dist_base[sym] + (unsigned)(bb & ((1u << dist_extra[sym]) - 1));
        bb >>= dist_extra[sym]; bc -= dist_extra[sym];
        if ((uint64_t)dist > g->member_out + n) { error = "distance too far back in compressed data"; break; }
        copy_match(g, out, n, dist, len, 1);
        n += len;
    }
    /* hand back the whole bytes this call loaded but did not use (bits above
     * bc are dropped: they are read again) */
    unsigned back = bc >> 3;
    if (back > (size_t)(ip - ip0)) back = (unsigned)(ip - ip0);
    ip -= back;
    bc -= back * 8;
    g->bitbuf = bc ? bb & (((uint64_t)1 << bc) - 1) : 0;
    g->bitcnt = (int)bc;
    g->in_pos = (size_t)(ip - g->in);
    *np = n;
    if (error) rc = fail(g, error);
    return rc;
}
#endif

/* A block's header: stored (its length checked), fixed or dynamic codes;
 * sets the state the block's data is read in.  -1 on an error. */
static int block_header(gunzip *g) {
    int64_t hdr = bits(g, 3);
    if (hdr < 0) return -1;
    g->final_block = (int)(hdr & 1);
    int type = (int)(hdr >> 1);
    if (type == 0) {
        g->bitbuf >>= g->bitcnt & 7;
        g->bitcnt -= g->bitcnt & 7;
        int64_t len = bits(g, 16), nlen = bits(g, 16);
        if (len < 0 || nlen < 0) return -1;
        if ((len ^ 0xffff) != nlen) return fail(g, "stored block length check failed");
        g->stored_left = (uint32_t)len;
        g->state = ST_STORED;
    } else if (type == 1) {
        fixed_tables(g);
        g->state = ST_CODES;
    } else if (type == 2) {
        if (dynamic_tables(g) < 0) return -1;
        g->state = ST_CODES;
    } else {
        return fail(g, "invalid deflate block type");
    }
    return 0;
}

/* The bytes of a stored block into out[*np..cap); the state moves on at
 * the block's end.  -1 on an error. */
static int copy_stored(gunzip *g, unsigned char *out, size_t *np, size_t cap) {
    size_t n = *np;
    while (g->stored_left && n < cap && g->bitcnt >= 8) {   /* bytes still in the bit buffer */
        out[n++] = (unsigned char)bits(g, 8);
        g->stored_left--;
    }
    while (g->stored_left && n < cap) {
        if (g->in_pos == g->in_len) {
            int c = next_byte(g);
            if (c < 0) { *np = n; return fail(g, "unexpected end of compressed data"); }
            g->in_pos--;
        }
        size_t k = g->in_len - g->in_pos;
        if (k > g->stored_left) k = g->stored_left;
        if (k > cap - n) k = cap - n;
        memcpy(out + n, g->in + g->in_pos, k);
        g->in_pos += k;
        n += k;
        g->stored_left -= (uint32_t)k;
    }
    if (!g->stored_left) g->state = g->final_block ? ST_TRAILER : ST_BLOCK;
    *np = n;
    return 0;
}

/* The symbols of a Huffman block into out[*np..cap): a match cut short
 * by a full out is finished by the next call; the fast path runs while
 * there is room.  The state moves on at the block's end.  -1 on an error. */
static int inflate_codes(gunzip *g, unsigned char *out, size_t *np, size_t cap) {
    size_t n = *np;
    int rc = 0;
    while (n < cap && g->state == ST_CODES) {
        if (g->copy_len) {
            unsigned k = (unsigned)g->copy_len;
            if (k > cap - n) k = (unsigned)(cap - n);
            copy_match(g, out, n, (unsigned)g->copy_dist, k, 0);
            n += k;
            g->copy_len -= (int)k;
            continue;
        }
#if HAVE_FAST_PATH
        if (n + FAST_OUT_ROOM <= cap) {
            size_t before = n;
            if (inflate_fast(g, out, &n, cap) < 0) { rc = -1; break; }
            if (n != before || g->state != ST_CODES) continue;
        }
#endif
        int sym = decode(g, &g->lit);
        if (sym < 0) { rc = -1; break; }
        if (sym < 256) { out[n++] = (unsigned char)sym; continue; }
        if (sym == 256) { g->state = g->final_block ? ST_TRAILER : ST_BLOCK; break; }
        sym -= 257;
        if (sym >= 29) { rc = fail(g, "invalid length code"); break; }
        int64_t e = bits(g, len_extra[sym]);
        if (e < 0) { rc = -1; break; }
        int len = len_base[sym] + (int)e;
        int dsym = decode(g, &g->dist);
        if (dsym < 0) { rc = -1; break; }
        if (dsym >= 30) { rc = fail(g, "invalid distance code"); break; }
        if ((e = bits(g, dist_extra[dsym])) < 0) { rc = -1; break; }
        int dist = dist_base[dsym] + (int)e;
        if ((uint64_t)dist > g->member_out + n) { rc = fail(g, "distance too far back in compressed data"); break; }
        g->copy_len = len;
        g->copy_dist = dist;
    }
    *np = n;
    return rc;
}

/* n bytes just written to out: into the member's CRC and length, and
 * the window (the last WIN_SIZE bytes output). */
static void note_output(gunzip *g, const unsigned char *out, size_t n) {
    g->crc = crc_update(g, g->crc, out, n);
    g->member_out += n;
    if (n >= WIN_SIZE) {
        memcpy(g->win, out + n - WIN_SIZE, WIN_SIZE);
        g->win_pos = 0;
    } else {
        for (size_t i = 0; i < n; ) {
            uint32_t at = g->win_pos & (WIN_SIZE - 1);
            size_t k = WIN_SIZE - at < n - i ? WIN_SIZE - at : n - i;
            memcpy(g->win + at, out + i, k);
            g->win_pos += (uint32_t)k;
            i += k;
        }
    }
}

/* Decode into out until it is full, the member ends or the data does. */
static long read_some(gunzip *g, unsigned char *out, size_t cap) {
    size_t n = 0;
    while (n < cap && g->state != ST_END && g->state != ST_TRAILER) {
        switch (g->state) {
        case ST_ERROR:
            return -1;
        case ST_HEADER: {
            int r = member_header(g);
            if (r < 0) return -1;
            g->state = r ? ST_BLOCK : ST_END;
            break;
        }
        case ST_BLOCK:
            if (block_header(g) < 0) return -1;
            break;
        case ST_STORED:
            if (copy_stored(g, out, &n, cap) < 0) return -1;
            break;
        case ST_CODES:
            if (inflate_codes(g, out, &n, cap) < 0) return -1;
            break;
        default:
            break;
        }
    }
    note_output(g, out, n);
    if (g->state == ST_TRAILER) {
        if (member_trailer(g) < 0) return -1;
        g->state = ST_HEADER;
    }
    return (long)n;
}

long gunzip_read(gunzip *g, unsigned char *out, size_t cap) {
    if (cap == 0) return 0;
    for (;;) {                  /* skip members that end without new bytes */
        long n = read_some(g, out, cap);
        if (n != 0 || g->state == ST_END || g->state == ST_ERROR) return n;
    }
}
