/* error.c — how the MonoSAT layer fails: loudly, never with an answer.
 *
 * An error is formatted as "FUNCTION: what was wrong" and handed to the
 * process-wide handler; the default one prints it and aborts, the way an
 * uncaught MonoSAT (C++) exception ends a program.  A solver that saw an
 * error refuses every later solve (solve.c reports the first error again). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/monosat/msat.h"

static monosat_error_handler error_handler;
static void *error_data;
static _Thread_local char error_message[600];   /* as msat.first_error */

void monosat_set_error_handler(monosat_error_handler handler, void *data) {
    error_handler = handler;
    error_data = data;
}

void msat_error(msat *m, const char *func, const char *fmt, ...) {
    int n = snprintf(error_message, sizeof error_message, "%s: ", func);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error_message + n, sizeof error_message - (size_t)n, fmt, ap);
    va_end(ap);
    if (m) {
        if (!m->failed) memcpy(m->first_error, error_message, sizeof m->first_error);
        m->failed = 1;
    }
    if (error_handler) { error_handler(error_message, error_data); return; }
    fprintf(stderr, "gsat (MonoSAT API): %s\n", error_message);
    abort();
}

void msat_no_solver(const char *func) { msat_error(NULL, func, "no solver (NULL)"); }

int msat_engine_failed(msat *m) {
    msat_error(m, "gsat", "%s", gsat_error(m->s) ? gsat_error(m->s) : "unknown error");
    return -1;
}
