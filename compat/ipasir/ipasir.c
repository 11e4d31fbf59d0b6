/* ipasir.c — include/ipasir.h over include/gsat.h.
 *
 * A handle keeps the clause being added and the assumptions for the next
 * solve; everything else is the engine's: the model, failed assumptions,
 * the terminate hook (passed straight through) and the learn hook (called
 * through an adapter that hands IPASIR its 0-terminated clause). */
#include <stdint.h>

#include "gsat.h"
#include "ipasir.h"
#include "vec.h"

_Static_assert(sizeof(int) == sizeof(int32_t), "IPASIR literals are passed to gsat as int");

typedef struct ipasir_solver {
    gsat *s;
    vec_int clause;           /* literals of the clause being added */
    vec_int assumptions;      /* for the next solve */
    void *learn_data;
    void (*learn)(void *data, int32_t *clause);
} ipasir_solver;

const char *ipasir_signature(void) { return "gsat-" GSAT_VERSION; }

void *ipasir_init(void) {
    ipasir_solver *p = xcalloc(1, sizeof *p);
    p->s = gsat_new();
    return p;
}

void ipasir_release(void *solver) {
    ipasir_solver *p = solver;
    if (!p) return;
    gsat_free(p->s);
    vec_free(p->clause);
    vec_free(p->assumptions);
    free(p);
}

void ipasir_add(void *solver, int32_t lit_or_zero) {
    ipasir_solver *p = solver;
    if (lit_or_zero != 0) { vec_push(p->clause, lit_or_zero); return; }
    gsat_add_clause(p->s, p->clause.data, (int)p->clause.len);
    vec_clear(p->clause);
}

void ipasir_assume(void *solver, int32_t lit) {
    ipasir_solver *p = solver;
    if (lit != 0) vec_push(p->assumptions, lit);
}

int ipasir_solve(void *solver) {
    ipasir_solver *p = solver;
    int r = gsat_solve(p->s, p->assumptions.data, (int)p->assumptions.len);
    vec_clear(p->assumptions);
    return r;
}

int32_t ipasir_val(void *solver, int32_t lit) {
    ipasir_solver *p = solver;
    int v = gsat_value(p->s, lit);
    return v > 0 ? lit : v < 0 ? -lit : 0;
}

int ipasir_failed(void *solver, int32_t lit) {
    ipasir_solver *p = solver;
    return gsat_failed(p->s, lit) ? 1 : 0;
}

void ipasir_set_terminate(void *solver, void *data, int (*terminate)(void *data)) {
    ipasir_solver *p = solver;
    gsat_set_terminate(p->s, data, terminate);
}

/* The engine's buffer is the solver's own scratch (writable); IPASIR's
 * callback type just lacks the const. */
static void learn_adapter(void *state, const int *lits, int n) {
    ipasir_solver *p = state;
    (void)n;
    p->learn(p->learn_data, (int32_t *)(uintptr_t)lits);
}

void ipasir_set_learn(void *solver, void *data, int max_length, void (*learn)(void *data, int32_t *clause)) {
    ipasir_solver *p = solver;
    p->learn = learn;
    p->learn_data = data;
    gsat_set_learn(p->s, learn ? p : NULL, max_length, learn ? learn_adapter : NULL);
}
