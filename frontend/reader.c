/* reader.c — see reader.h. */
#include "frontend/reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

#define READER_CHUNK (1u << 20)

static void set_name(reader *r, const char *name) {
    size_t n = strlen(name);
    r->name = xmalloc(n + 1);
    memcpy(r->name, name, n + 1);
}

int reader_open(reader *r, const char *path, ic_error *err) {
    memset(r, 0, sizeof *r);
    if (!strcmp(path, "-")) { r->f = stdin; r->owns_file = 0; }
    else {
        r->f = fopen(path, "rb");
        if (!r->f) { ic_error_at(err, path, 0, "cannot open: %s", strerror(errno)); return 0; }
        r->owns_file = 1;
    }
    set_name(r, path);
    r->cap = READER_CHUNK;
    r->buf = xmalloc(r->cap + 1);
    return 1;
}

void reader_from_mem(reader *r, const void *data, size_t n, const char *name) {
    memset(r, 0, sizeof *r);
    set_name(r, name);
    r->cap = n;
    r->buf = xmalloc(n + 1);
    if (n) memcpy(r->buf, data, n);
    r->end = n;
    r->eof = 1;
}

void reader_close(reader *r) {
    if (r->f && r->owns_file) fclose(r->f);
    free(r->buf);
    free(r->name);
    memset(r, 0, sizeof *r);
}

/* Ensure at least `need` unread bytes if the input has them. */
static void fill(reader *r, size_t need) {
    while (r->end - r->start < need && !r->eof) {
        if (r->start > 0) {                      /* compact */
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->cap - r->end < READER_CHUNK / 2 || r->cap < need) {
            size_t c = r->cap * 2;
            while (c < need) c *= 2;
            r->buf = xrealloc(r->buf, c + 1);
            r->cap = c;
        }
        size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->f);
        r->end += got;
        if (got == 0) { r->eof = 1; if (ferror(r->f)) r->io_error = 1; }
    }
}

size_t reader_peek(reader *r, size_t n, const unsigned char **p) {
    fill(r, n);
    *p = r->buf + r->start;
    size_t have = r->end - r->start;
    return have < n ? have : n;
}

size_t reader_read(reader *r, void *dst, size_t n) {
    fill(r, n);
    size_t have = r->end - r->start;
    if (have > n) have = n;
    memcpy(dst, r->buf + r->start, have);
    r->start += have;
    r->offset += have;
    return have;
}

char *reader_line(reader *r, size_t *len) {
    size_t scanned = 0;
    for (;;) {
        unsigned char *s = r->buf + r->start;
        size_t have = r->end - r->start;
        unsigned char *nl = have > scanned ? memchr(s + scanned, '\n', have - scanned) : NULL;
        if (nl || r->eof) {
            size_t n = nl ? (size_t)(nl - s) : have;
            if (!nl && n == 0) return NULL;
            size_t consumed = nl ? n + 1 : n;
            if (n > 0 && s[n - 1] == '\r') n--;
            s[n] = 0;                            /* buf has one spare byte */
            r->start += consumed;
            r->offset += consumed;
            r->line++;
            *len = n;
            return (char *)s;
        }
        scanned = have;
        fill(r, have + READER_CHUNK / 4);
    }
}
