/* reader.c — buffered input from a file descriptor or memory (see reader.h).
 * Whole lines are served in place from one buffer that is refilled with
 * large reads (or large gzip-decoded blocks) and grows only for a line
 * longer than it; large block reads bypass the buffer. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vec.h"
#include "io/gunzip.h"
#include "io/reader.h"

#define READER_BLOCK (256u << 10)

int reader_open(reader *r, const char *path, ic_error *err) {
    memset(r, 0, sizeof *r);
    if (strcmp(path, "-") == 0) {
        r->fd = 0;
        snprintf(r->name, sizeof r->name, "<stdin>");
    } else {
        r->fd = open(path, O_RDONLY);
        if (r->fd < 0) {
            ic_error_at(err, path, 0, "cannot open: %s", strerror(errno));
            return -1;
        }
        r->own_fd = 1;
        snprintf(r->name, sizeof r->name, "%s", path);
    }
    r->cap = READER_BLOCK;
    r->buf = xmalloc(r->cap);
    return 0;
}

void reader_open_mem(reader *r, const char *name, const char *data, size_t len) {
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->cap = len + 1;                 /* room for a supplied last newline */
    r->buf = xmalloc(r->cap);
    if (len) memcpy(r->buf, data, len);
    r->len = len;
    r->eof = 1;
    r->sniffed = 1;
    snprintf(r->name, sizeof r->name, "%s", name);
}

void reader_close(reader *r) {
    if (r->own_fd && r->fd >= 0) close(r->fd);
    free(r->buf);
    if (r->gz) gunzip_free(r->gz);
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

size_t reader_size_hint(const reader *r) {
    if (r->fd < 0) return r->len - r->pos;
    struct stat st;
    if (fstat(r->fd, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    off_t at = lseek(r->fd, 0, SEEK_CUR);
    if (at < 0 || st.st_size < at) return 0;
    return (size_t)(st.st_size - at) + (r->len - r->pos);
}

const char *reader_strerror(const reader *r) {
    if (r->error == READER_EGZIP || (r->gz && r->gz_error[0])) return r->gz_error;
    return strerror(r->error);
}

static int (*stop_fn)(void *ctx);      /* reader_set_interrupt */
static void *stop_ctx;

void reader_set_interrupt(int (*stop)(void *ctx), void *ctx) {
    stop_fn = stop;
    stop_ctx = ctx;
}

/* Raw bytes from the descriptor: > 0, 0 at its end, -1 on an error. */
static long fd_read(reader *r, unsigned char *dst, size_t n) {
    for (;;) {
        if (stop_fn && stop_fn(stop_ctx)) { r->error = EINTR; return -1; }
        ssize_t k = read(r->fd, dst, n);
        if (k >= 0) return (long)k;
        if (errno != EINTR) { r->error = errno; return -1; }
    }
}

/* Compressed bytes for the gzip decoder. */
static long gz_input(void *ctx, unsigned char *buf, size_t cap) { return fd_read(ctx, buf, cap); }

/* The first bytes decide: gzip (then decoded from here on) or plain. */
static void sniff(reader *r) {
    r->sniffed = 1;
    unsigned char *at = r->buf + r->len;
    size_t room = r->cap - r->len, n = 0;
    while (n < 2) {                   /* a pipe may deliver one byte first */
        long k = fd_read(r, at + n, room - n);
        if (k <= 0) break;
        n += (size_t)k;
    }
    if (gunzip_magic(at, n)) r->gz = gunzip_new(at, n, gz_input, r);
    else r->len += n;
    if (n == 0) r->eof = 1;
}

/* Up to n more bytes of input into dst: > 0, or 0 at the end (or on an
 * error, with r->error set), after which the input counts as ended. */
static size_t source_read(reader *r, unsigned char *dst, size_t n) {
    if (r->eof || n == 0) return 0;
    long k;
    if (r->gz) {
        k = gunzip_read(r->gz, dst, n);
        if (k < 0) {
            if (!r->error) r->error = READER_EGZIP;
            snprintf(r->gz_error, sizeof r->gz_error, "corrupt gzip input at compressed byte %lld: %s",
                     gunzip_error_offset(r->gz), gunzip_error(r->gz));
        }
    } else {
        k = fd_read(r, dst, n);
    }
    if (k <= 0) { r->eof = 1; return 0; }
    return (size_t)k;
}

static unsigned char *last_newline(unsigned char *p, size_t n) {
    while (n > 0)
        if (p[--n] == '\n') return p + n;
    return NULL;
}

int reader_lines(reader *r, char **begin, char **end) {
    if (!r->sniffed && r->fd >= 0) sniff(r);
    size_t scanned = r->pos;          /* buf[pos..scanned) holds no newline */
    for (;;) {
        unsigned char *nl = last_newline(r->buf + scanned, r->len - scanned);
        if (nl) {
            *begin = (char *)r->buf + r->pos;
            *end = (char *)nl + 1;
            r->pos = (size_t)(nl + 1 - r->buf);
            return 1;
        }
        scanned = r->len;
        if (r->pos > 0) {             /* keep the unfinished line, at the front */
            memmove(r->buf, r->buf + r->pos, r->len - r->pos);
            r->len -= r->pos;
            scanned -= r->pos;
            r->pos = 0;
        }
        if (r->eof) {
            if (r->len == 0 || r->error) return 0;   /* a line cut short by an error is not served */
            if (r->len == r->cap) r->buf = xrealloc(r->buf, ++r->cap);
            r->buf[r->len++] = '\n';  /* the last line had none */
            continue;
        }
        if (r->len == r->cap) {       /* one line fills the buffer */
            if (r->cap >= READER_MAX_LINE) return -1;
            r->cap *= 2;
            r->buf = xrealloc(r->buf, r->cap);
        }
        r->len += source_read(r, r->buf + r->len, r->cap - r->len);
    }
}

size_t reader_read_block(reader *r, void *dst, size_t n) {
    if (!r->sniffed && r->fd >= 0) sniff(r);
    unsigned char *out = dst;
    size_t done = 0;
    for (;;) {
        size_t k = r->len - r->pos;
        if (k > n - done) k = n - done;
        if (k) memcpy(out + done, r->buf + r->pos, k);
        r->pos += k;
        done += k;
        if (done == n || r->eof) return done;
        r->pos = r->len = 0;
        if (n - done >= r->cap / 2) {  /* large: straight into the caller's memory */
            done += source_read(r, out + done, n - done);
            continue;
        }
        r->len = source_read(r, r->buf, r->cap);
    }
}

int reader_read_all(const char *path, char **data, size_t *len, ic_error *err) {
    *data = NULL;
    *len = 0;
    reader r;
    if (reader_open(&r, path, err) != 0) return 0;
    vec_char buf;
    vec_init(buf);
    for (;;) {
        vec_reserve(buf, buf.len + 65536 + 1);
        size_t got = reader_read_block(&r, buf.data + buf.len, 65536);
        buf.len += got;
        if (got < 65536) break;
    }
    if (r.error) {
        ic_error_at(err, path, 0, "cannot read: %s", reader_strerror(&r));
        reader_close(&r);
        vec_free(buf);
        return 0;
    }
    reader_close(&r);
    buf.data[buf.len] = 0;
    *data = buf.data;
    *len = buf.len;
    return 1;
}
