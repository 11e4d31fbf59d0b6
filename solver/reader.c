/* reader.c — buffered input from a file descriptor or memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vec.h"
#include "solver/gunzip.h"
#include "solver/reader.h"

#define READER_BLOCK (1 << 20)

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
    r->mem = (const unsigned char *)data;
    r->buf = (unsigned char *)data;   /* never written through */
    r->len = len;
    r->eof = 1;
    snprintf(r->name, sizeof r->name, "%s", name);
}

/* Compressed bytes for the gzip decoder, straight from the descriptor. */
static long fd_input(void *ctx, unsigned char *buf, size_t cap) {
    reader *r = ctx;
    for (;;) {
        ssize_t n = read(r->fd, buf, cap);
        if (n >= 0) return (long)n;
        if (errno != EINTR) { r->error = errno; return -1; }
    }
}

static int fill_gz(reader *r) {
    long n = gunzip_read(r->gz, r->buf, r->cap);
    if (n > 0) {
        r->len = (size_t)n;
        r->pos = 1;
        return r->buf[0];
    }
    if (n < 0) {
        if (!r->error) r->error = READER_EGZIP;
        snprintf(r->gz_error, sizeof r->gz_error, "corrupt gzip input at compressed byte %lld: %s",
                 gunzip_error_offset(r->gz), gunzip_error(r->gz));
    }
    r->eof = 1;
    r->pos = r->len = 0;
    return READER_EOF;
}

const char *reader_strerror(const reader *r) {
    if (r->error == READER_EGZIP || (r->gz && r->gz_error[0])) return r->gz_error;
    return strerror(r->error);
}

int reader_fill(reader *r) {
    if (r->eof) return READER_EOF;
    if (r->gz) return fill_gz(r);
    for (;;) {
        ssize_t n = read(r->fd, r->buf, r->cap);
        if (n > 0 && !r->sniffed) {
            /* first block: gzip magic?  (a pipe may deliver one byte first) */
            while (n == 1 && r->buf[0] == 0x1f) {
                ssize_t m = read(r->fd, r->buf + 1, r->cap - 1);
                if (m < 0 && errno == EINTR) continue;
                if (m > 0) n += m;
                break;
            }
            r->sniffed = 1;
            if (gunzip_magic(r->buf, (size_t)n)) {
                r->gz = gunzip_new(r->buf, (size_t)n, fd_input, r);
                return fill_gz(r);
            }
        }
        if (n > 0) {
            r->len = (size_t)n;
            r->pos = 1;
            return r->buf[0];
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) r->error = errno;
        r->eof = 1;
        r->pos = r->len = 0;
        return READER_EOF;
    }
}

void reader_close(reader *r) {
    if (r->own_fd && r->fd >= 0) close(r->fd);
    if (!r->mem) free(r->buf);
    if (r->gz) gunzip_free(r->gz);
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

size_t reader_read_block(reader *r, void *dst, size_t n) {
    unsigned char *out = dst;
    size_t done = 0;
    while (done < n) {
        if (r->pos >= r->len) {
            int c = reader_fill(r);              /* refills buf, hands back its first byte */
            if (c == READER_EOF) break;
            out[done++] = (unsigned char)c;
            continue;
        }
        size_t k = r->len - r->pos;
        if (k > n - done) k = n - done;
        memcpy(out + done, r->buf + r->pos, k);
        r->pos += k;
        done += k;
    }
    return done;
}
