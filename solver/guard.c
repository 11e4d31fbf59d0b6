/* guard.c — the engine's error state and the guards of its entry points
 * (solver/guard.h). */
#include <stdarg.h>
#include <stdio.h>

#include "solver/solver.h"

static _Thread_local engine_guard *active;    /* the innermost installed guard */

void gsat_fail(gsat *s, const char *func, const char *fmt, ...) {
    if (!s || s->in_error) return;
    s->in_error = 1;
    int n = snprintf(s->error, sizeof s->error, "%s: ", func);
    if (n < 0 || (size_t)n >= sizeof s->error) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error + n, sizeof s->error - (size_t)n, fmt, ap);
    va_end(ap);
}

const char *gsat_error(const gsat *s) { return s && s->in_error ? s->error : NULL; }

/* xalloc_fail's way out while a guard is installed. */
static void caught(size_t bytes) {
    engine_guard *g = active;
    if (bytes == SIZE_MAX) gsat_fail(g->s, g->func, "out of memory (a size limit of the engine)");
    else gsat_fail(g->s, g->func, "out of memory (allocating %zu bytes)", bytes);
    longjmp(g->env, 1);
}

int guard_prepare(engine_guard *g, gsat *s, const char *func) {
    g->own = !active || active->s != s;
    if (!g->own) return 0;
    g->s = s;
    g->func = func;
    g->prev = active;
    g->prev_catch = xalloc_catch;
    return 1;
}

void guard_install(engine_guard *g) {
    active = g;
    xalloc_catch = caught;
}

void guard_leave(engine_guard *g) {
    if (!g->own) return;
    active = g->prev;
    xalloc_catch = g->prev_catch;
}

guard_pause guard_suspend(void) {
    guard_pause p = {active, xalloc_catch};
    active = NULL;
    xalloc_catch = NULL;
    return p;
}

void guard_resume(guard_pause p) {
    active = p.active;
    xalloc_catch = p.saved;
}

int gsat_guard_call(gsat *s, const char *func, int (*fn)(gsat *s, void *ctx), void *ctx, int fail) {
    engine_guard g;
    g.fail = fail;                                /* (the argument may be clobbered by the jump) */
    if (guard_prepare(&g, s, func)) {
        if (setjmp(g.env)) { guard_leave(&g); return g.fail; }
        guard_install(&g);
    }
    int r = fn(s, ctx);
    guard_leave(&g);
    return r;
}
