/* ipasir.c — include/ipasir.h over include/gsat.h.
 *
 * A handle keeps the clause being added and the assumptions for the next
 * solve; everything else is the engine's: the model, failed assumptions,
 * the terminate hook (passed straight through) and the learn hook (called
 * through an adapter that hands IPASIR its 0-terminated clause).
 *
 * Errors (ipasir.h): a bad literal, or a buffer of the handle that cannot
 * grow (a checked realloc), marks the handle failed; gsat's own errors
 * (out of memory) put the engine in its error state.  Either way every
 * later solve answers 0. */
#include <stdint.h>
#include <stdlib.h>

#include "gsat.h"
#include "ipasir.h"

_Static_assert(sizeof(int) == sizeof(int32_t), "IPASIR literals are passed to gsat as int");

typedef struct lit_buf { int *data; size_t len, cap; } lit_buf;

typedef struct ipasir_solver {
    gsat *s;
    lit_buf clause;            /* literals of the clause being added */
    lit_buf assumptions;       /* for the next solve */
    int failed;               /* a buffer could not grow: no more answers */
    void *learn_data;
    void (*learn)(void *data, int32_t *clause);
} ipasir_solver;

/* Append lit to b; 0 (and p failed) if there is no room to be had. */
static int push(ipasir_solver *p, lit_buf *b, int lit) {
    if (b->len == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        int *d = cap <= SIZE_MAX / sizeof *d ? realloc(b->data, cap * sizeof *d) : NULL;
        if (!d) { p->failed = 1; return 0; }
        b->data = d;
        b->cap = cap;
    }
    b->data[b->len++] = lit;
    return 1;
}

const char *ipasir_signature(void) { return "gsat-" GSAT_VERSION; }

void *ipasir_init(void) {
    ipasir_solver *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->s = gsat_new();
    if (!p->s) { free(p); return NULL; }
    return p;
}

void ipasir_release(void *solver) {
    ipasir_solver *p = solver;
    if (!p) return;
    gsat_free(p->s);
    free(p->clause.data);
    free(p->assumptions.data);
    free(p);
}

/* A literal gsat takes (gsat.h): nonzero, not INT32_MIN, at most GSAT_MAX_VARS. */
static int lit_ok(int32_t lit) { return lit != 0 && lit >= -GSAT_MAX_VARS && lit <= GSAT_MAX_VARS; }

void ipasir_add(void *solver, int32_t lit_or_zero) {
    ipasir_solver *p = solver;
    if (p->failed) return;
    if (lit_or_zero != 0) {
        if (!lit_ok(lit_or_zero)) { p->failed = 1; return; }
        push(p, &p->clause, lit_or_zero);
        return;
    }
    if (p->clause.len > INT32_MAX) { p->failed = 1; return; }
    gsat_add_clause(p->s, p->clause.data, (int)p->clause.len);   /* checks the literals */
    p->clause.len = 0;
}

void ipasir_assume(void *solver, int32_t lit) {
    ipasir_solver *p = solver;
    if (p->failed || lit == 0) return;
    if (!lit_ok(lit)) { p->failed = 1; return; }
    push(p, &p->assumptions, lit);
}

int ipasir_solve(void *solver) {
    ipasir_solver *p = solver;
    if (p->failed || p->assumptions.len > INT32_MAX) { p->failed = 1; return 0; }
    int r = gsat_solve(p->s, p->assumptions.data, (int)p->assumptions.len);   /* checks the assumptions */
    p->assumptions.len = 0;
    return r == GSAT_SAT || r == GSAT_UNSAT ? r : 0;
}

int32_t ipasir_val(void *solver, int32_t lit) {
    ipasir_solver *p = solver;
    if (p->failed) return 0;
    int v = gsat_value(p->s, lit);
    return v > 0 ? lit : v < 0 ? -lit : 0;
}

int ipasir_failed(void *solver, int32_t lit) {
    ipasir_solver *p = solver;
    return !p->failed && gsat_failed(p->s, lit) ? 1 : 0;
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
