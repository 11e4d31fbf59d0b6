/* reader.h — buffered input for the parsers: a file, stdin ("-") or memory.
 *
 * Bytes can be peeked before a parser is chosen (format detection reads
 * stdin only once).  Lines and binary fields are served from one buffer
 * that grows for long lines; `offset` of the next byte is tracked for
 * binary error messages, `line` for text ones. */
#ifndef ISOCHECK_READER_H
#define ISOCHECK_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

typedef struct reader {
    FILE *f;                 /* NULL: memory only */
    int owns_file;
    char *name;              /* for messages */
    unsigned char *buf;
    size_t cap, start, end;  /* unread bytes are buf[start..end) */
    uint64_t offset;         /* file offset of buf[start] */
    long line;               /* lines returned so far by reader_line */
    int eof, io_error;
} reader;

/* Open path ("-": stdin).  0 with err set if it cannot be opened. */
int  reader_open(reader *r, const char *path, ic_error *err);
/* Read from a copy of memory. */
void reader_from_mem(reader *r, const void *data, size_t n, const char *name);
void reader_close(reader *r);

/* Make up to n bytes available; returns how many are (fewer only at EOF). */
size_t reader_peek(reader *r, size_t n, const unsigned char **p);
/* Copy exactly n bytes to dst; returns the number copied (< n at EOF). */
size_t reader_read(reader *r, void *dst, size_t n);
/* Next line without its '\n' (and '\r'), NUL-terminated, valid until the
 * next call; NULL at EOF.  *len gets its length.  r->line is its number. */
char *reader_line(reader *r, size_t *len);

#endif
