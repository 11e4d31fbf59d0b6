/* test_input_take.c — io/input.h's input_take_lines_into, as the text
 * reader's chunked path uses it (frontend/formats/parse_text.c: two
 * buffers taken into in turn, a block read while the one before is still
 * in use): the blocks are the input's bytes in order, each of whole lines
 * (one longer than `want` whole too; the last may lack its '\n'),
 * followed by 1 + INPUT_SLACK zero bytes, and a block stays as it was
 * through the next take; from memory and from a source that hands out a
 * few bytes a read.  The buffers the input and the caller hold together
 * stay about the size of the input and two blocks: the input hands its
 * buffer over at the end of the bytes, and a memory input's buffer is
 * all of them, so a fresh buffer as large as the input's for the few
 * bytes left (review48) reserved the input's size twice more (at 1M
 * transactions from memory, 363 MB more address space). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/input.h"

/* Lines of varying length (one of them `long_line` bytes), n bytes in all,
 * the last without its '\n' if `open_end`. */
static char *make_text(size_t n, size_t long_line, int open_end, unsigned seed) {
    char *t = malloc(n);
    assert_non_null(t);
    size_t at = 0, len = 0, want = 1 + seed % 40;
    int long_done = 0;
    while (at < n) {
        seed = seed * 1103515245u + 12345u;
        if (len == want) {
            t[at++] = '\n';
            len = 0;
            want = !long_done && at > n / 3 ? (long_done = 1, long_line) : 1 + (seed >> 16) % 60;
            continue;
        }
        t[at++] = (char)('a' + (seed >> 16) % 26);
        len++;
    }
    t[n - 1] = open_end ? 'z' : '\n';
    return t;
}

typedef struct slice_src { const char *p; size_t n, at, step; } slice_src;

static size_t slice_read(void *ctx, void *dst, size_t n) {
    slice_src *s = ctx;
    size_t k = s->n - s->at < n ? s->n - s->at : n;
    if (k > s->step) k = s->step;
    memcpy(dst, s->p + s->at, k);
    s->at += k;
    return k;
}

/* Take all of r into two buffers in turn: the blocks are text's bytes. */
static void take_all(input *r, const char *text, size_t n, size_t want, int from_mem) {
    char *buf[2] = { NULL, NULL };
    size_t cap[2] = { 0, 0 }, at = 0, blocks = 0, most = 0, longest = 0;
    const char *prev = NULL;
    size_t prev_n = 0, prev_at = 0;
    for (int k = 0;; k = !k) {
        size_t got;
        char *p = input_take_lines_into(r, want, &got, &buf[k], &cap[k]);
        if (prev) assert_memory_equal(prev, text + prev_at, prev_n);     /* the block before: as it was */
        if (!p) break;
        assert_true(got > 0);
        assert_true(p >= buf[k] && p + got <= buf[k] + cap[k]);
        assert_true(at + got <= n);
        assert_memory_equal(p, text + at, got);
        assert_true(at + got == n || p[got - 1] == '\n');                /* whole lines */
        assert_true(got <= want || !memchr(p, '\n', want));              /* more than want: a longer line */
        for (size_t i = 0; i <= INPUT_SLACK; i++) assert_int_equal(p[got + i], 0);
        prev = p; prev_n = got; prev_at = at;
        if (got > longest) longest = got;
        at += got;
        blocks++;
        size_t held = r->cap + cap[0] + cap[1];
        if (held > most) most = held;
    }
    assert_true(at == n);
    assert_true(blocks > 0 || n == 0);
    /* the input's copy (from memory: all of it) and two blocks, each
     * copied into room for a quarter more */
    if (from_mem) assert_true(most <= n + 3 * (longest + longest / 4) + 64);
    free(buf[0]);
    free(buf[1]);
}

static void blocks_from_memory(void **state) {
    (void)state;
    const size_t sizes[] = { 1, 2, 100, 5000, 3u << 20 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int open_end = 0; open_end < 2; open_end++) {
            size_t n = sizes[i];
            char *text = make_text(n, n > 1000 ? n / 5 : 7, open_end, (unsigned)(i + 1));
            const size_t wants[] = { 1, 13, 4096, 1u << 16 };
            for (size_t w = 0; w < sizeof wants / sizeof *wants; w++) {
                if (n > 100000 && wants[w] < 4096) continue;
                input r;
                input_from_mem(&r, text, n, "m");
                take_all(&r, text, n, wants[w], 1);
                input_close(&r);
            }
            free(text);
        }
}

static void blocks_from_a_source(void **state) {
    (void)state;
    const size_t steps[] = { 1, 7, 4096, 1u << 20 };
    size_t n = 5u << 20;
    char *text = make_text(n, 3u << 20, 1, 9);            /* a line longer than a read buffer */
    for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
        size_t m = steps[s] < 4096 ? 200000 : n;          /* byte by byte: a shorter input */
        slice_src src = { text, m, 0, steps[s] };
        input r;
        input_from_source(&r, slice_read, &src, "s");
        take_all(&r, text, m, 1u << 16, 0);
        input_close(&r);
    }
    free(text);
}

static void empty_input(void **state) {
    (void)state;
    input r;
    input_from_mem(&r, "", 0, "e");
    char *buf = NULL;
    size_t cap = 0, n = 5;
    assert_null(input_take_lines_into(&r, 100, &n, &buf, &cap));
    assert_int_equal(n, 0);
    input_close(&r);
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blocks_from_memory),
        cmocka_unit_test(blocks_from_a_source),
        cmocka_unit_test(empty_input),
    };
    return cmocka_run_group_tests_name("input_take", tests, NULL, NULL);
}
