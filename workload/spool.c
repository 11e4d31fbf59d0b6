/* spool.c — per-session output streams (see spool.h). */
#include "workload/spool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vec.h"

typedef struct chunk { long long off; size_t len; size_t next; } chunk;
#define NO_CHUNK ((size_t)-1)

typedef struct stream { unsigned char *buf; size_t len; size_t first, last; } stream;

struct spool {
    FILE *tmp;
    long long end;
    size_t cap;                  /* buffer bytes per stream */
    unsigned n;
    stream *s;
    VEC(chunk) chunks;
    int io_error;
};

spool *spool_new(unsigned n_streams, const char *dir, size_t buffer, ic_error *err) {
    size_t dl = strlen(dir);
    char *path = xmalloc(dl + 32);
    snprintf(path, dl + 32, "%s/.isocheck-spool-XXXXXX", dl ? dir : ".");
    int fd = mkstemp(path);
    if (fd < 0) {
        ic_error_at(err, dir, 0, "cannot create a temporary file: %s", strerror(errno));
        free(path);
        return NULL;
    }
    unlink(path);                /* gone when closed, even on a crash */
    free(path);
    spool *sp = xcalloc(1, sizeof *sp);
    sp->tmp = fdopen(fd, "w+b");
    if (!sp->tmp) { close(fd); free(sp); ic_error_at(err, dir, 0, "cannot open a temporary file"); return NULL; }
    sp->n = n_streams;
    sp->cap = (64u << 20) / (n_streams ? n_streams : 1);   /* 64 MB in all */
    if (sp->cap > (1u << 20)) sp->cap = 1u << 20;
    if (sp->cap < 4096) sp->cap = 4096;
    if (buffer) sp->cap = buffer;
    sp->s = xcalloc(n_streams, sizeof *sp->s);
    for (unsigned i = 0; i < n_streams; i++) sp->s[i].first = sp->s[i].last = NO_CHUNK;
    vec_init(sp->chunks);
    return sp;
}

static void flush_stream(spool *sp, stream *st) {
    if (!st->len) return;
    if (fwrite(st->buf, 1, st->len, sp->tmp) != st->len) sp->io_error = 1;
    chunk c = { sp->end, st->len, NO_CHUNK };
    vec_push(sp->chunks, c);
    size_t id = sp->chunks.len - 1;
    if (st->last == NO_CHUNK) st->first = id; else sp->chunks.data[st->last].next = id;
    st->last = id;
    sp->end += (long long)st->len;
    st->len = 0;
}

void spool_write(spool *sp, unsigned stream_id, const void *data, size_t len) {
    stream *st = &sp->s[stream_id];
    const unsigned char *d = data;
    while (len) {
        if (!st->buf) st->buf = xmalloc(sp->cap);
        size_t room = sp->cap - st->len, k = len < room ? len : room;
        memcpy(st->buf + st->len, d, k);
        st->len += k; d += k; len -= k;
        if (st->len == sp->cap) flush_stream(sp, st);
    }
}

int spool_copy(spool *sp, unsigned stream_id, FILE *out) {
    stream *st = &sp->s[stream_id];
    if (fflush(sp->tmp) != 0) sp->io_error = 1;
    unsigned char *buf = xmalloc(1u << 20);
    int ok = !sp->io_error;
    for (size_t c = st->first; ok && c != NO_CHUNK; c = sp->chunks.data[c].next) {
        const chunk *ch = &sp->chunks.data[c];
        if (fseeko(sp->tmp, (off_t)ch->off, SEEK_SET) != 0) { ok = 0; break; }
        for (size_t left = ch->len; left;) {
            size_t k = left < (1u << 20) ? left : (1u << 20);
            if (fread(buf, 1, k, sp->tmp) != k || fwrite(buf, 1, k, out) != k) { ok = 0; break; }
            left -= k;
        }
    }
    free(buf);
    if (ok && st->len && fwrite(st->buf, 1, st->len, out) != st->len) ok = 0;
    if (fseeko(sp->tmp, (off_t)sp->end, SEEK_SET) != 0) sp->io_error = 1;
    return ok;
}

int spool_ok(const spool *sp) { return !sp->io_error && !ferror(sp->tmp); }

void spool_free(spool *sp) {
    if (!sp) return;
    for (unsigned i = 0; i < sp->n; i++) free(sp->s[i].buf);
    free(sp->s);
    vec_free(sp->chunks);
    fclose(sp->tmp);
    free(sp);
}
