/* text_cursor.h — a character cursor over a text input, line by line, for
 * the EDN and JSON readers (whose forms may span lines).
 *
 * `p` points into the current line (NUL-terminated, without its newline);
 * *p == 0 is the end of the line, and tcur_next_line() moves to the next
 * one.  Every line is checked for NUL bytes: a NUL anywhere (even first on
 * a line, even inside a string) is bad input, reported at its line.  A
 * UTF-8 byte-order mark at the start of the input is skipped. */
#ifndef ISOCHECK_TEXT_CURSOR_H
#define ISOCHECK_TEXT_CURSOR_H

#include "error.h"
#include "vec.h"
#include "io/input.h"

typedef struct tcur {
    input *in;
    ic_error *err;
    const char *p;           /* position in the current line */
    const char *line_start;
    long line;               /* the current line's number (0 before the first) */
    int eof;                 /* past the last line */
    int failed;              /* err was set */
} tcur;

/* Start at the first line; 0 on error (err set). */
int tcur_init(tcur *c, input *in, ic_error *err);
/* Move to the next line: 1, or 0 at the end of the input or on an error
 * (c->failed, err set).  At the end p points to "". */
int tcur_next_line(tcur *c);
/* Record "expected WHAT, found <text at p>" at the current line; returns 0. */
int tcur_fail(tcur *c, const char *what);
/* Record a message at the current line; returns 0. */
int tcur_error(tcur *c, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A string escape, one routine for the EDN and JSON readers: c->p is at
 * the character after the backslash.  \n \t \r \b \f \" \\ \/ and \uXXXX
 * (not 0000, as UTF-8) are decoded into b and c->p moves past them; a
 * UTF-16 surrogate pair (\uD83D\uDE00) is one code point.  A high half
 * without its low half is an error in JSON (json = 1) and kept as it is in
 * EDN (Clojure's reader takes it).  1, or 0 after tcur_fail naming the
 * syntax's escapes. */
int tcur_escape(tcur *c, vec_char *b, int json);

#endif
