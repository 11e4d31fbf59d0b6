/* text_line.h — one line of PolySI's text format, lexed (parse_text.c's
 * lexer, shared with the online reader that parses a growing file a few
 * lines at a time, frontend/online/text_stream.h): same syntax, same messages. */
#ifndef ISOCHECK_TEXT_LINE_H
#define ISOCHECK_TEXT_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct text_fields { int64_t key, value, sess, txn; uint8_t kind; } text_fields;

/* Lex one line p (NUL-terminated, len bytes, without its newline or a
 * '\r' before it): 1 an operation (kind OP_READ or OP_WRITE), 0 blank,
 * a comment or a well-formed time annotation (text_times.h: its times are
 * not returned), -1 bad input (err set at name:line; a malformed
 * annotation too). */
int text_lex_line(const char *p, size_t len, text_fields *f, const char *name, long line, ic_error *err);

#endif
