/* input.h — history input for the parsers: peek, read exactly n bytes, or
 * take the next line.
 *
 * A layer over io/reader.h, the project's one byte source (a file,
 * standard input "-", or gzip-compressed either of them).  Bytes can be
 * peeked before a parser is chosen (format detection reads stdin only
 * once).  Lines and binary fields are served from one buffer that grows
 * for long lines; `offset` of the next byte is tracked for binary error
 * messages, `line` for text ones. */
#ifndef ISOCHECK_INPUT_H
#define ISOCHECK_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "io/reader.h"

enum { INPUT_SLACK = 16 };

typedef struct input {
    reader src;              /* where bytes come from (unused for memory input) */
    int has_src;
    char *name;              /* for messages */
    unsigned char *buf;
    size_t cap, start, end;  /* unread bytes are buf[start..end) */
    uint64_t offset;         /* offset (in the decompressed stream) of buf[start] */
    long line;               /* lines returned so far by input_line */
    uint64_t nul_at;         /* offset of the first NUL byte read so far (UINT64_MAX: none) */
    uint64_t line_at;        /* offset and length of the line input_line returned last */
    size_t line_len;
    int eof, io_error;
    /* input_from_source: where bytes come from instead of src */
    size_t (*source)(void *ctx, void *dst, size_t n);
    void *source_ctx;
} input;

/* Open path ("-": stdin).  0 with err set if it cannot be opened. */
int  input_open(input *r, const char *path, ic_error *err);
/* Read from a copy of memory. */
void input_from_mem(input *r, const void *data, size_t n, const char *name);
/* Read through read(ctx, dst, n): up to n bytes into dst, 0 only at the
 * end (a read error is the source's to record and report: here it is
 * the end).  For bytes that are neither one file nor in memory whole
 * (check --follow's final load: frontend/online/follow.h, follow_load). */
void input_from_source(input *r, size_t (*read)(void *ctx, void *dst, size_t n), void *ctx, const char *name);
void input_close(input *r);

/* Make up to n bytes available; returns how many are (fewer only at EOF). */
size_t input_peek(input *r, size_t n, const unsigned char **p);
/* Copy exactly n bytes to dst; returns the number copied (< n at EOF). */
size_t input_read(input *r, void *dst, size_t n);
/* Next line without its '\n' (and '\r'), NUL-terminated, valid until the
 * next call; NULL at EOF.  *len gets its length.  r->line is its number.
 * A last line without '\n' is served, unless a read error ended the input
 * there (the line may be cut short: NULL, and input_error says why).
 * At least INPUT_SLACK bytes after the line's NUL can be read (their
 * values are unspecified), so that a lexer may load a word at a time
 * anywhere in the line (parse_elle.c's integers). */
char *input_line(input *r, size_t *len);
/* Whether the line input_line returned last holds a NUL byte (looked for
 * once in each block read, not line by line). */
static inline int input_line_has_nul(const input *r) { return r->nul_at - r->line_at < r->line_len; }
/* A block of whole lines for a parser that splits it (parse_text.c): about
 * `want` bytes (more when one line is longer) ending just after a '\n', or
 * all that is left at EOF (but a last line cut short by a read error, as
 * input_line does: input_error says why); *n gets its length (0 and NULL
 * at EOF).  The
 * bytes are the caller's to modify (e.g. to end lines with NUL) until the
 * next call on r.  r->line is not advanced: the caller counts lines. */
char *input_take_lines(input *r, size_t want, size_t *n);
/* input_take_lines into a buffer the caller keeps (so the block outlives
 * the next call on r): *buf (malloc'd, *cap bytes, the spare byte and
 * INPUT_SLACK more; NULL and 0 at first) gets the lines, followed by
 * 1 + INPUT_SLACK zero bytes, and the return value points at them in it.
 * When no more is left read than was taken, the input hands its own
 * buffer over and keeps the caller's (what is left is copied, not the
 * lines: a block of a file costs no copy); else the lines are copied.
 * Free *buf at the end. */
char *input_take_lines_into(input *r, size_t want, size_t *n, char **buf, size_t *cap);
/* After EOF: why the input ended early (NULL if it simply ended). */
const char *input_error(const input *r);

#endif
