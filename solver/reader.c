/* reader.c — buffered input from a file descriptor or memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vec.h"
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

int reader_fill(reader *r) {
    if (r->eof) return READER_EOF;
    for (;;) {
        ssize_t n = read(r->fd, r->buf, r->cap);
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
    memset(r, 0, sizeof *r);
    r->fd = -1;
}
