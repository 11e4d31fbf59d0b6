/* error.h — the project's one error type.
 *
 * Errors are values.  A function that can fail on bad input fills an
 * ic_error and returns a failure code; the program's main prints
 *     PROG: FILE:LINE: message      (or FILE: byte N: message)
 * and exits 2.  Libraries never print and never exit. */
#ifndef ISOCHECK_ERROR_H
#define ISOCHECK_ERROR_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct ic_error {
    int set;             /* 0: no error */
    long line;           /* 1-based line, 0 if not applicable */
    long long offset;    /* byte offset for binary formats, -1 if not applicable */
    char file[512];      /* file the error refers to ("" if none) */
    char msg[512];
} ic_error;

static inline void ic_error_clear(ic_error *e) {
    e->set = 0; e->line = 0; e->offset = -1; e->file[0] = e->msg[0] = 0;
}

/* Record an error at FILE:LINE (line 0: none).  Keeps the first error. */
static inline void ic_error_at(ic_error *e, const char *file, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static inline void ic_error_at(ic_error *e, const char *file, long line, const char *fmt, ...) {
    if (!e || e->set) return;
    e->set = 1; e->line = line; e->offset = -1;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    va_list ap; va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

/* Record an error at a byte offset of a binary file. */
static inline void ic_error_at_offset(ic_error *e, const char *file, long long off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static inline void ic_error_at_offset(ic_error *e, const char *file, long long off, const char *fmt, ...) {
    if (!e || e->set) return;
    e->set = 1; e->line = 0; e->offset = off;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    va_list ap; va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

/* "PROG: FILE:LINE: msg" / "PROG: FILE: byte N: msg" / "PROG: msg" */
static inline void ic_error_print(FILE *out, const char *prog, const ic_error *e) {
    if (e->file[0] && e->line > 0) fprintf(out, "%s: %s:%ld: %s\n", prog, e->file, e->line, e->msg);
    else if (e->file[0] && e->offset >= 0) fprintf(out, "%s: %s: byte %lld: %s\n", prog, e->file, e->offset, e->msg);
    else if (e->file[0]) fprintf(out, "%s: %s: %s\n", prog, e->file, e->msg);
    else fprintf(out, "%s: %s\n", prog, e->msg);
}

#endif
