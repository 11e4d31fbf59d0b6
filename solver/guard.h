/* guard.h — how the engine fails: by returning, never by ending the caller.
 *
 * A public entry point (gsat.h, ipasir.h) that may allocate runs its body
 * under a guard: allocation failure anywhere below it (the engine, the
 * theories, vec.h's growth) reaches xalloc_fail, which jumps back to the
 * guard instead of exiting (vec.h's xalloc_catch); the solver is then in
 * its error state and the entry point returns its error value.  Misuse
 * (a literal out of range, a negative count) enters the same state by
 * gsat_fail.  The state is sticky: gsat_error() gives the first message,
 * every later change or solve is refused with the call's error value, and
 * only queries and gsat_free() remain (the structures a jump left half
 * updated are freed, never used; a growth step records its new size only
 * once the memory is there, so freeing them is safe).  Memory held only by
 * the failing call's local temporaries is lost: the price of not checking
 * every allocation by hand.
 *
 * Guards nest per thread: an entry point called from inside another on
 * the same solver (a theory adding a clause) runs under the outer guard,
 * one on another solver (a caller's callback using a second solver) gets
 * its own.  The caller's callbacks (terminate, learn) run with no guard
 * (guard_suspend), so that their own allocation failures stay theirs. */
#ifndef GSAT_SOLVER_GUARD_H
#define GSAT_SOLVER_GUARD_H

#include <setjmp.h>
#include <stddef.h>

#include "gsat.h"
#include "solver/theory.h"

typedef struct engine_guard {
    jmp_buf env;
    gsat *s;                         /* the solver that fails */
    const char *func;                /* the entry point, for the message */
    struct engine_guard *prev;       /* the guard active before, restored at the end */
    void (*prev_catch)(size_t bytes);
    int own;                         /* 0: an outer guard covers this solver already */
    int fail;                        /* gsat_guard_call's error value */
} engine_guard;

/* Fill g for solver s at entry point func; 1 if g must be installed (no
 * guard for s is active on this thread). */
int guard_prepare(engine_guard *g, gsat *s, const char *func);
void guard_install(engine_guard *g);
void guard_leave(engine_guard *g);

/* Around a call of the caller's code: no guard, then the one before. */
typedef struct { engine_guard *active; void (*saved)(size_t bytes); } guard_pause;
guard_pause guard_suspend(void);
void guard_resume(guard_pause p);

/* gsat_fail (entering the error state, no allocation) and
 * gsat_guard_call (GUARDED for a theory's entry points, which see only
 * solver/theory.h) are declared in solver/theory.h. */

/* The body of a guarded entry point returning TYPE: on a failure below,
 * FAIL (an expression, evaluated after the jump) is returned instead.
 *   GUARDED(s, -1, int, add_clause(s, lits, n));
 * setjmp stands alone in its if, as C requires; FAIL must not read the
 * function's locals or arguments (they may be clobbered by the jump):
 * the solver is guard_.s there. */
#define GUARDED(s, FAIL, TYPE, CALL) do {                                   \
        engine_guard guard_;                                                \
        if (guard_prepare(&guard_, (s), __func__)) {                                  \
            if (setjmp(guard_.env)) { guard_leave(&guard_); return FAIL; }  \
            guard_install(&guard_);                                         \
        }                                                                   \
        TYPE guard_r_ = CALL;                                               \
        guard_leave(&guard_);                                               \
        return guard_r_;                                                    \
    } while (0)
#define GUARDED_VOID(s, CALL) do {                                          \
        engine_guard guard_;                                                \
        if (guard_prepare(&guard_, (s), __func__)) {                                  \
            if (setjmp(guard_.env)) { guard_leave(&guard_); return; }       \
            guard_install(&guard_);                                         \
        }                                                                   \
        CALL;                                                               \
        guard_leave(&guard_);                                               \
    } while (0)

#endif
