/* test_gunzip.c — the inflate decoder against files compressed by the
 * system's gzip: random and repetitive data, every compression level,
 * stored blocks, file names in the header, concatenated members, input
 * arriving in odd-sized pieces, and corrupt or truncated data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/gunzip.h"

static uint64_t rng = 0x1234567;
static uint32_t rnd(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}

typedef struct { const unsigned char *p; size_t len, pos; int chunk; } mem_in;

static long mem_input(void *ctx, unsigned char *buf, size_t cap) {
    mem_in *m = ctx;
    size_t n = m->len - m->pos;
    size_t want = m->chunk ? 1 + rnd() % (unsigned)m->chunk : cap;
    if (n > want) n = want;
    if (n > cap) n = cap;
    memcpy(buf, m->p + m->pos, n);
    m->pos += n;
    return (long)n;
}

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t k;
    while ((k = fread(buf + n, 1, cap - n, f)) > 0) { n += k; if (n == cap) buf = realloc(buf, cap *= 2); }
    fclose(f);
    *len = n;
    return buf;
}

/* Compress data with `gzip ARGS` and return the .gz bytes. */
static unsigned char *gzip_bytes(const unsigned char *data, size_t len, const char *args, size_t *zlen) {
    char in[] = "/tmp/gsat_gz_XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
    char cmd[256], out[64];
    snprintf(out, sizeof out, "%s.gz", in);
    snprintf(cmd, sizeof cmd, "gzip %s -c %s > %s", args, in, out);
    assert_int_equal(system(cmd), 0);
    unsigned char *z = slurp(out, zlen);
    unlink(in); unlink(out);
    return z;
}

/* Decompress with pieces of at most `chunk` bytes in and `outcap` out. */
static unsigned char *inflate_all(const unsigned char *z, size_t zlen, int chunk, size_t outcap,
                                  size_t *len, char *err, size_t errlen) {
    mem_in m = {z, zlen, 0, chunk};
    size_t pre = zlen < 2 ? zlen : 2;            /* the caller sniffed the magic */
    m.pos = pre;
    gunzip *g = gunzip_new(z, pre, mem_input, &m);
    size_t cap = 1024, n = 0;
    unsigned char *buf = malloc(cap);
    unsigned char *piece = malloc(outcap);
    long k;
    while ((k = gunzip_read(g, piece, outcap)) > 0) {
        while (n + (size_t)k > cap) buf = realloc(buf, cap *= 2);
        memcpy(buf + n, piece, (size_t)k);
        n += (size_t)k;
    }
    free(piece);
    if (k < 0) {
        snprintf(err, errlen, "%s", gunzip_error(g));
        assert_true(gunzip_error_offset(g) >= 0);
        free(buf); buf = NULL;
    }
    gunzip_free(g);
    *len = n;
    return buf;
}

static void roundtrip(const unsigned char *data, size_t len, const char *args) {
    size_t zlen, olen;
    unsigned char *z = gzip_bytes(data, len, args, &zlen);
    assert_true(gunzip_magic(z, zlen));
    int chunks[] = {0, 1, 7, 4096};
    size_t outs[] = {1, 3, 1 << 20};
    for (int c = 0; c < 4; c++)
        for (int o = 0; o < 3; o++) {
            if (len > 200000 && (chunks[c] == 1 || outs[o] == 1)) continue;   /* keep it fast */
            char err[200] = "";
            unsigned char *out = inflate_all(z, zlen, chunks[c], outs[o], &olen, err, sizeof err);
            if (!out) fail_msg("gzip %s, %zu bytes: %s", args, len, err);
            assert_int_equal(olen, len);
            assert_memory_equal(out, data, len);
            free(out);
        }
    free(z);
}

static unsigned char *make_text(size_t len) {
    unsigned char *d = malloc(len + 1);
    static const char *words[] = {"edge ", "1 ", "7 ", "182 ", "digraph ", "-22 ", "0\n", "acyclic "};
    size_t n = 0;
    while (n < len) {
        const char *w = words[rnd() % 8];
        for (size_t i = 0; w[i] && n < len; i++) d[n++] = (unsigned char)w[i];
    }
    return d;
}

static void levels_and_shapes(void **state) {
    (void)state;
    size_t sizes[] = {0, 1, 100, 70000, 400000};
    const char *args[] = {"-1", "-6", "-9", "-n -9"};
    for (int s = 0; s < 5; s++) {
        unsigned char *text = make_text(sizes[s]);
        for (int a = 0; a < 4; a++) roundtrip(text, sizes[s], args[a]);
        free(text);
        unsigned char *rand_bytes = malloc(sizes[s] + 1);   /* incompressible: stored blocks */
        for (size_t i = 0; i < sizes[s]; i++) rand_bytes[i] = (unsigned char)rnd();
        roundtrip(rand_bytes, sizes[s], "-6");
        free(rand_bytes);
    }
    /* long runs: matches at distance 1 and long distances */
    size_t len = 300000;
    unsigned char *runs = malloc(len);
    for (size_t i = 0; i < len; i++) runs[i] = (unsigned char)((i / 5000) % 3 ? 'a' : (i * 7919) % 251);
    roundtrip(runs, len, "-9");
    free(runs);
}

static void concatenated_members(void **state) {
    (void)state;
    unsigned char *a = make_text(5000), *b = make_text(100);
    size_t za, zb, olen;
    unsigned char *ga = gzip_bytes(a, 5000, "-6", &za), *gb = gzip_bytes(b, 100, "-1", &zb);
    unsigned char *both = malloc(za + zb + 4);
    memcpy(both, ga, za); memcpy(both + za, gb, zb);
    char err[200] = "";
    unsigned char *out = inflate_all(both, za + zb, 13, 1000, &olen, err, sizeof err);
    assert_non_null(out);
    assert_int_equal(olen, 5100);
    assert_memory_equal(out, a, 5000);
    assert_memory_equal(out + 5000, b, 100);
    free(out);
    /* zero padding after the last member is tolerated, other bytes are not */
    memset(both + za + zb, 0, 4);
    out = inflate_all(both, za + zb + 4, 0, 1 << 16, &olen, err, sizeof err);
    assert_non_null(out);
    assert_int_equal(olen, 5100);
    free(out);
    both[za + zb + 2] = 'x';
    out = inflate_all(both, za + zb + 4, 0, 1 << 16, &olen, err, sizeof err);
    assert_null(out);
    assert_string_equal(err, "trailing garbage after gzip data");
    free(a); free(b); free(ga); free(gb); free(both);
}

static void corrupt_and_truncated(void **state) {
    (void)state;
    size_t len = 50000, zlen, olen;
    unsigned char *text = make_text(len);
    unsigned char *z = gzip_bytes(text, len, "-n -6", &zlen);
    char err[200];
    /* every truncation point fails cleanly */
    for (size_t cut = 2; cut < zlen; cut += 1 + cut / 3) {
        err[0] = 0;
        unsigned char *out = inflate_all(z, cut, 0, 1 << 16, &olen, err, sizeof err);
        assert_null(out);
        if (!(strstr(err, "truncated") || strstr(err, "unexpected end"))) fail_msg("cut %zu: %s", cut, err);
    }
    /* a flipped byte in the body or trailer is caught (CRC or a bad code) */
    int caught = 0;
    for (int t = 0; t < 40; t++) {
        unsigned char *bad = malloc(zlen);
        memcpy(bad, z, zlen);
        size_t at = 20 + rnd() % (unsigned)(zlen - 20);
        bad[at] ^= (unsigned char)(1 + rnd() % 255);
        err[0] = 0;
        unsigned char *out = inflate_all(bad, zlen, 0, 1 << 16, &olen, err, sizeof err);
        if (!out) caught++;
        else {             /* only a flip in the final padding bits can go unnoticed */
            assert_int_equal(olen, len);
            assert_memory_equal(out, text, len);
            free(out);
        }
        free(bad);
    }
    assert_true(caught >= 38);
    /* not gzip at all, wrong method */
    unsigned char junk[] = {0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 3};
    assert_null(inflate_all(junk, sizeof junk, 0, 100, &olen, err, sizeof err));
    assert_string_equal(err, "unknown gzip compression method (only deflate is supported)");
    free(text); free(z);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(levels_and_shapes),
        cmocka_unit_test(concatenated_members),
        cmocka_unit_test(corrupt_and_truncated),
    };
    return cmocka_run_group_tests_name("gunzip", tests, NULL, NULL);
}
