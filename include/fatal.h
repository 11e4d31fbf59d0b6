/* fatal.h — the one internal-error routine: a broken invariant of the
 * program itself, never bad input (that is an ic_error, error.h) and never
 * a limit (out of memory: xalloc_fail, vec.h).
 *
 *     internal_error("gsat", "acyclicity conflict path broken");
 *
 * prints "WHO: internal error: MESSAGE" as one line on stderr and aborts,
 * so that a core dump or a debugger stops where the invariant broke.  A
 * check that can recover (fall back, answer UNKNOWN) reports the error as
 * a message instead and does not call this. */
#ifndef ISOCHECK_FATAL_H
#define ISOCHECK_FATAL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3), cold))
#endif
_Noreturn static inline void internal_error(const char *who, const char *fmt, ...);

_Noreturn static inline void internal_error(const char *who, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: internal error: %s\n", who, msg);
    fflush(stderr);
    abort();
}

#endif
