/* input.c — see input.h. */
#include "io/input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

#define INPUT_CHUNK (1u << 20)

/* buf holds cap bytes, the spare byte that ends a line at EOF, and
 * INPUT_SLACK zeroed bytes (input.h). */
static unsigned char *buf_alloc(unsigned char *old, size_t cap) {
    unsigned char *b = xrealloc(old, cap + 1 + INPUT_SLACK);
    memset(b + cap, 0, 1 + INPUT_SLACK);
    return b;
}

static void set_name(input *r, const char *name) {
    size_t n = strlen(name);
    r->name = xmalloc(n + 1);
    memcpy(r->name, name, n + 1);
}

int input_open(input *r, const char *path, ic_error *err) {
    memset(r, 0, sizeof *r);
    r->nul_at = UINT64_MAX;
    if (reader_open(&r->src, path, err) != 0) return 0;
    r->has_src = 1;
    set_name(r, path);
    r->cap = INPUT_CHUNK;
    r->buf = buf_alloc(NULL, r->cap);
    return 1;
}

void input_from_mem(input *r, const void *data, size_t n, const char *name) {
    memset(r, 0, sizeof *r);
    set_name(r, name);
    r->cap = n;
    r->buf = buf_alloc(NULL, n);
    if (n) memcpy(r->buf, data, n);
    r->end = n;
    r->eof = 1;
    const unsigned char *z = n ? memchr(r->buf, 0, n) : NULL;
    r->nul_at = z ? (uint64_t)(z - r->buf) : UINT64_MAX;
}

void input_from_source(input *r, size_t (*read)(void *ctx, void *dst, size_t n), void *ctx, const char *name) {
    memset(r, 0, sizeof *r);
    set_name(r, name);
    r->nul_at = UINT64_MAX;
    r->source = read;
    r->source_ctx = ctx;
    r->cap = INPUT_CHUNK;
    r->buf = buf_alloc(NULL, r->cap);
}

void input_close(input *r) {
    if (r->has_src) reader_close(&r->src);
    free(r->buf);
    free(r->name);
    memset(r, 0, sizeof *r);
}

/* Ensure at least `need` unread bytes if the input has them. */
static void fill(input *r, size_t need) {
    while (r->end - r->start < need && !r->eof) {
        if (r->start > 0) {                      /* compact */
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->cap - r->end < INPUT_CHUNK / 2 || r->cap < need) {
            size_t c = r->cap * 2;
            while (c < need) c *= 2;
            r->buf = buf_alloc(r->buf, c);
            r->cap = c;
        }
        size_t got = r->source ? r->source(r->source_ctx, r->buf + r->end, r->cap - r->end)
                               : reader_read_block(&r->src, r->buf + r->end, r->cap - r->end);
        if (got && r->nul_at == UINT64_MAX) {      /* the stream's first NUL, if in these bytes */
            const unsigned char *z = memchr(r->buf + r->end, 0, got);
            if (z) r->nul_at = r->offset + (uint64_t)(z - (r->buf + r->start));
        }
        r->end += got;
        if (got == 0) { r->eof = 1; if (!r->source && r->src.error) r->io_error = 1; }
    }
}

size_t input_peek(input *r, size_t n, const unsigned char **p) {
    fill(r, n);
    *p = r->buf + r->start;
    size_t have = r->end - r->start;
    return have < n ? have : n;
}

size_t input_read(input *r, void *dst, size_t n) {
    fill(r, n);
    size_t have = r->end - r->start;
    if (have > n) have = n;
    memcpy(dst, r->buf + r->start, have);
    r->start += have;
    r->offset += have;
    return have;
}

char *input_line(input *r, size_t *len) {
    size_t scanned = 0;
    for (;;) {
        unsigned char *s = r->buf + r->start;
        size_t have = r->end - r->start;
        unsigned char *nl = have > scanned ? memchr(s + scanned, '\n', have - scanned) : NULL;
        if (nl || r->eof) {
            if (!nl && r->io_error) {            /* a line a read error cut short is not served */
                r->end = r->start;               /* (input_error says why the input ended) */
                return NULL;
            }
            size_t n = nl ? (size_t)(nl - s) : have;
            if (!nl && n == 0) return NULL;
            size_t consumed = nl ? n + 1 : n;
            if (n > 0 && s[n - 1] == '\r') n--;
            s[n] = 0;                            /* buf has one spare byte */
            r->line_at = r->offset;
            r->line_len = n;
            r->start += consumed;
            r->offset += consumed;
            r->line++;
            *len = n;
            return (char *)s;
        }
        scanned = have;
        fill(r, have + INPUT_CHUNK / 4);
    }
}

char *input_take_lines(input *r, size_t want, size_t *n) {
    if (want == 0) want = 1;
    for (;;) {
        fill(r, want);                               /* want bytes unless the input ends first */
        unsigned char *s = r->buf + r->start;
        size_t have = r->end - r->start, cut;
        if (r->eof && have <= want) {                /* the rest of the input, */
            cut = have;
            if (r->io_error) {                       /* but no line a read error cut short */
                while (cut > 0 && s[cut - 1] != '\n') cut--;
                r->end = r->start + cut;
                have = cut;
            }
        } else for (cut = want; cut > 0 && s[cut - 1] != '\n'; cut--) {}
        if (cut > 0 || have == 0) {
            *n = cut;
            r->start += cut;
            r->offset += cut;
            return cut ? (char *)s : NULL;
        }
        want *= 2;                                   /* a line longer than want: take more */
    }
}

char *input_take_lines_into(input *r, size_t want, size_t *n, char **buf, size_t *cap) {
    char *p = input_take_lines(r, want, n);
    if (!p) return NULL;
    size_t rest = r->end - r->start;                 /* read, not yet taken */
    if (rest <= *n) {                                /* hand the buffer over: copy the rest, not the lines */
        /* the input keeps reading into a buffer as large as its own; at
         * EOF it only holds the rest (a memory input's buffer is all of
         * it: one as large for the rest reserved its size again) */
        size_t need = r->eof ? rest : r->cap;
        unsigned char *nb;
        size_t ncap;
        if (*buf && *cap >= need) {
            nb = (unsigned char *)*buf;
            ncap = *cap;
            memset(nb + ncap, 0, 1 + INPUT_SLACK);
        } else {
            free(*buf);
            ncap = need;
            nb = buf_alloc(NULL, ncap);
        }
        if (rest) memcpy(nb, r->buf + r->start, rest);
        *buf = (char *)r->buf;
        *cap = r->cap;
        r->buf = nb;
        r->cap = ncap;
        r->start = 0;
        r->end = rest;
    } else {                                         /* more is left than was taken: copy the lines */
        if (!*buf || *cap < *n) {
            free(*buf);
            *cap = *n + *n / 4;
            *buf = xmalloc(*cap + 1 + INPUT_SLACK);
        }
        memcpy(*buf, p, *n);
        p = *buf;
    }
    memset(p + *n, 0, 1 + INPUT_SLACK);              /* the lines' bytes after them: the buffer's own */
    return p;
}

const char *input_error(const input *r) {
    return r->io_error ? reader_strerror(&r->src) : NULL;
}
