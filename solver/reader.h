/* reader.h — one buffered byte reader for every text input: a file, standard
 * input ("-") or a memory buffer (tests).  Reads in large blocks; a
 * decompressing layer (gzip) would go into reader_fill().
 *
 * Gzip input (magic 1f 8b in the first bytes) is decompressed on the fly
 * (solver/gunzip.c), for files and standard input alike.
 *
 * reader_getc() returns the next byte or READER_EOF.  A read error ends the
 * input and sets r->error (an errno value, or READER_EGZIP for corrupt
 * compressed data); reader_strerror() says what went wrong. */
#ifndef GSAT_READER_H
#define GSAT_READER_H

#include <stddef.h>

#include "error.h"

#define READER_EOF (-1)
#define READER_EGZIP (-2)        /* r->error: corrupt or truncated gzip data */

struct gunzip;

typedef struct reader {
    int fd;                   /* -1 for memory input */
    int own_fd;
    unsigned char *buf;
    size_t pos, len, cap;
    int eof;
    int error;
    const unsigned char *mem;
    char name[512];           /* for error messages */
    struct gunzip *gz;        /* set once gzip input was recognised */
    int sniffed;              /* the first block was checked for gzip */
    char gz_error[224];
} reader;

/* Open path ("-" = standard input).  Returns 0, or -1 with err set. */
int reader_open(reader *r, const char *path, ic_error *err);
/* Read from memory (not copied: data must outlive the reader). */
void reader_open_mem(reader *r, const char *name, const char *data, size_t len);
void reader_close(reader *r);

int reader_fill(reader *r);
/* Copy up to n bytes (fewer only at the end of input) into dst; returns
 * the number copied.  Block interface for layers with their own buffer. */
size_t reader_read_block(reader *r, void *dst, size_t n);
/* What r->error means, for messages. */
const char *reader_strerror(const reader *r);

static inline int reader_getc(reader *r) {
    if (r->pos < r->len) return r->buf[r->pos++];
    return reader_fill(r);
}

static inline int reader_peek(reader *r) {
    int c = reader_getc(r);
    if (c != READER_EOF) r->pos--;
    return c;
}

#endif
