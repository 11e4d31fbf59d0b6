/* ipasir.h — the standard incremental SAT solver interface (IPASIR, the
 * SAT Race 2015 / SAT competition incremental track), as implemented by
 * libgsat over gsat.h.  Link an IPASIR application with -lgsat.
 *
 * Literals are nonzero DIMACS integers.  States: INPUT (after init and
 * after changes), SAT or UNSAT (after a solve that answered), and back to
 * INPUT on ipasir_add / ipasir_assume.
 *
 *   ipasir_add(S, lit) ... ipasir_add(S, 0)   add a clause (0 ends it)
 *   ipasir_assume(S, lit)                     an assumption for the next
 *                                             solve only
 *   ipasir_solve(S)         10 (SAT), 20 (UNSAT) or 0 (stopped by the
 *                           terminate callback, or an error: below)
 *   ipasir_val(S, lit)      after 10: lit if true in the model, -lit if
 *                           false, 0 if the value does not matter
 *   ipasir_failed(S, lit)   after 20: 1 if assumption lit took part in the
 *                           refutation, else 0
 *   ipasir_set_terminate    terminate(data) is polled during solving; a
 *                           nonzero answer stops it
 *   ipasir_set_learn        learn(data, clause) gets every learned clause
 *                           of at most max_length literals, 0-terminated,
 *                           valid during the call only
 *
 * Errors: IPASIR has no error code, so misuse and running out of memory
 * show in the answers.  ipasir_init returns NULL if out of memory.  A
 * literal that is INT32_MIN or beyond GSAT_MAX_VARS (gsat.h), in a clause
 * or an assumption, or a buffer that cannot grow puts the solver in an
 * error state at that call: from then on ipasir_solve answers 0 (never 10
 * or 20), ipasir_val and ipasir_failed answer 0, and clauses are no longer
 * taken.
 *
 * Beyond plain SAT, gsat's graph acyclicity constraints (gsat.h) are not
 * reachable through IPASIR; use gsat.h for those. */
#ifndef IPASIR_H_INCLUDED
#define IPASIR_H_INCLUDED

#include <stdint.h>

#ifndef IPASIR_API
#if defined(__GNUC__) && __GNUC__ >= 4
#define IPASIR_API __attribute__((visibility("default")))
#else
#define IPASIR_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

IPASIR_API const char *ipasir_signature(void);
IPASIR_API void *ipasir_init(void);
IPASIR_API void ipasir_release(void *solver);
IPASIR_API void ipasir_add(void *solver, int32_t lit_or_zero);
IPASIR_API void ipasir_assume(void *solver, int32_t lit);
IPASIR_API int ipasir_solve(void *solver);
IPASIR_API int32_t ipasir_val(void *solver, int32_t lit);
IPASIR_API int ipasir_failed(void *solver, int32_t lit);
IPASIR_API void ipasir_set_terminate(void *solver, void *data, int (*terminate)(void *data));
IPASIR_API void ipasir_set_learn(void *solver, void *data, int max_length,
                                 void (*learn)(void *data, int32_t *clause));

#ifdef __cplusplus
}
#endif
#endif
