/* reader.h — the one byte source for every input: a file, standard input
 * ("-") or a memory buffer (tests), plain or gzip-compressed (magic 1f 8b
 * in the first bytes, decompressed on the fly by io/gunzip.c).
 *
 * Two ways to read, not to be mixed on one reader:
 *   reader_lines()       whole lines in place, for line-oriented parsers
 *                        (DIMACS, GNF): no copy, no per-byte calls;
 *   reader_read_block()  the next n bytes copied out, for layers with a
 *                        buffer of their own (the history readers).
 *
 * A read error ends the input and sets r->error (an errno value, or
 * READER_EGZIP for corrupt or truncated compressed data);
 * reader_strerror() says what went wrong. */
#ifndef GSAT_READER_H
#define GSAT_READER_H

#include <stddef.h>

#include "error.h"

#define READER_EGZIP (-2)          /* r->error: corrupt or truncated gzip data */
#define READER_MAX_LINE (1u << 30) /* reader_lines(): longer lines are an error */

struct gunzip;

typedef struct reader {
    int fd;                   /* -1 for memory input */
    int own_fd;
    unsigned char *buf;       /* unread bytes are buf[pos..len) */
    size_t pos, len, cap;
    int eof;
    int error;
    char name[512];           /* for error messages */
    struct gunzip *gz;        /* set once gzip input was recognised */
    int sniffed;              /* the first block was checked for gzip */
    char gz_error[224];
} reader;

/* While set (stop not NULL), every read from a descriptor first asks
 * stop(ctx): true ends the input as a read error EINTR ("Interrupted
 * system call"); a read a signal cut short (EINTR, a handler installed
 * without SA_RESTART) asks it again before it is retried.  So a signal
 * that only raises a flag stops a long load within one block, even on a
 * pipe that delivers nothing more.  Process-wide; set and cleared by the
 * thread that loads (`isocheck check` around its load); NULL: never. */
void reader_set_interrupt(int (*stop)(void *ctx), void *ctx);

/* Open path ("-" = standard input).  Returns 0, or -1 with err set. */
int reader_open(reader *r, const char *path, ic_error *err);
/* Read from a copy of data[0..len). */
void reader_open_mem(reader *r, const char *name, const char *data, size_t len);
void reader_close(reader *r);

/* The next whole lines: [*begin, *end) is one or more complete lines, the
 * last one ending in '\n' (supplied after a last line that has none).
 * The bytes stay valid, and may be modified, until the next call.
 * Returns 1, or 0 at the end of the input (check r->error: after an error
 * the line it cut short is not served), or -1 when a line is longer than
 * READER_MAX_LINE bytes. */
int reader_lines(reader *r, char **begin, char **end);

/* Copy up to n bytes (fewer only at the end of input) into dst; returns
 * the number copied. */
size_t reader_read_block(reader *r, void *dst, size_t n);

/* The whole of path ("-": standard input; gzip decompressed) in a new
 * buffer *data of *len bytes, NUL-terminated (free() it).  1, or 0 with err
 * set ("cannot read: ..."): small inputs such as hint files. */
int reader_read_all(const char *path, char **data, size_t *len, ic_error *err);

/* The bytes left to read if the input is a regular file (its compressed
 * size if it is gzip), else 0: a hint for sizing buffers up front. */
size_t reader_size_hint(const reader *r);

/* What r->error means, for messages. */
const char *reader_strerror(const reader *r);

#endif
