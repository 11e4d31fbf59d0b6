/* cnf_util.h — test helpers: a seeded PRNG, random and structured CNF
 * generators, and a brute-force enumerator (at most 24 variables) that the
 * engine is checked against.  Header-only, for tests/test_*.c. */
#ifndef TESTS_CNF_UTIL_H
#define TESTS_CNF_UTIL_H

#include <stdint.h>
#include <stdlib.h>

#include "gsat.h"
#include "vec.h"

typedef struct rng { uint64_t s; } rng;
static inline uint64_t rng_next(rng *r) {
    uint64_t x = r->s;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    return r->s = x;
}
static inline int rng_int(rng *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }

/* A CNF: clauses stored 0-terminated in one int vector. */
typedef struct cnf { int nvars; vec_int lits; int nclauses; } cnf;

static inline void cnf_init(cnf *f, int nvars) { f->nvars = nvars; vec_init(f->lits); f->nclauses = 0; }
static inline void cnf_free(cnf *f) { vec_free(f->lits); }
static inline void cnf_add(cnf *f, const int *c, int n) {
    for (int i = 0; i < n; i++) vec_push(f->lits, c[i]);
    vec_push(f->lits, 0);
    f->nclauses++;
}
static inline void cnf_add2(cnf *f, int a, int b) { int c[2] = {a, b}; cnf_add(f, c, 2); }
static inline void cnf_add3(cnf *f, int a, int b, int c3) { int c[3] = {a, b, c3}; cnf_add(f, c, 3); }

/* Random clause of length k over nvars (distinct variables unless dup). */
static inline void cnf_random_clause(cnf *f, rng *r, int k, int allow_dup) {
    int c[16];
    for (int i = 0; i < k; i++) {
        int v;
        for (;;) {
            v = 1 + rng_int(r, f->nvars);
            int clash = 0;
            for (int j = 0; j < i && !allow_dup; j++) clash |= (c[j] == v || c[j] == -v);
            if (!clash || k > f->nvars) break;
        }
        c[i] = rng_int(r, 2) ? v : -v;
    }
    cnf_add(f, c, k);
}

/* Engine options every solver made by cnf_load() gets: suites rerun
 * under other settings (e.g. always-chronological backtracking). */
typedef struct cnf_option { const char *name; int64_t value; } cnf_option;
static cnf_option cnf_options[4];
static int cnf_noptions;

/* probe=0: the differential suites test the search itself (a probe, which
 * finds most of their small models before it, has tests/test_probe.c). */
static inline gsat *cnf_new_solver(void) {
    gsat *s = gsat_new();
    if (!gsat_set_option(s, "probe", 0)) abort();
    for (int i = 0; i < cnf_noptions; i++)
        if (!gsat_set_option(s, cnf_options[i].name, cnf_options[i].value)) abort();
    return s;
}

static inline gsat *cnf_load(const cnf *f) {
    gsat *s = cnf_new_solver();
    gsat_reserve_vars(s, f->nvars);
    size_t start = 0;
    for (size_t i = 0; i < f->lits.len; i++)
        if (f->lits.data[i] == 0) {
            gsat_add_clause(s, f->lits.data + start, (int)(i - start));
            start = i + 1;
        }
    return s;
}

/* Is assignment a (bit v-1 = variable v true) a model of f? */
static inline int cnf_satisfied_by_bits(const cnf *f, uint32_t a) {
    int sat = 0;
    for (size_t i = 0; i < f->lits.len; i++) {
        int l = f->lits.data[i];
        if (l == 0) { if (!sat) return 0; sat = 0; continue; }
        if (sat) continue;
        int v = l < 0 ? -l : l;
        int val = (a >> (v - 1)) & 1;
        if ((l > 0) == val) sat = 1;
    }
    return 1;
}

static inline int cnf_satisfied_by_solver(const cnf *f, const gsat *s) {
    int sat = 0;
    for (size_t i = 0; i < f->lits.len; i++) {
        int l = f->lits.data[i];
        if (l == 0) { if (!sat) return 0; sat = 0; continue; }
        if (gsat_value(s, l) > 0) sat = 1;
    }
    return 1;
}

/* Packed clauses (masks) for fast enumeration. */
typedef struct packed { uint32_t pos, neg; } packed;

/* Brute force: 1 if satisfiable (extra(ctx, a) must hold too, if given);
 * *model gets the first model found. */
static inline int brute_force(const cnf *f, int (*extra)(void *, uint32_t), void *ctx, uint32_t *model) {
    VEC(packed) pc; vec_init(pc);
    packed cur = {0, 0};
    for (size_t i = 0; i < f->lits.len; i++) {
        int l = f->lits.data[i];
        if (l == 0) { vec_push(pc, cur); cur.pos = cur.neg = 0; continue; }
        if (l > 0) cur.pos |= 1u << (l - 1); else cur.neg |= 1u << (-l - 1);
    }
    uint64_t n = 1ull << f->nvars;
    int found = 0;
    for (uint64_t a = 0; a < n && !found; a++) {
        uint32_t x = (uint32_t)a;
        size_t k = 0;
        for (; k < pc.len; k++)
            if (!((x & pc.data[k].pos) | (~x & pc.data[k].neg))) break;
        if (k == pc.len && (!extra || extra(ctx, x))) { found = 1; if (model) *model = x; }
    }
    vec_free(pc);
    return found;
}

/* After an UNSAT answer under assumptions as[0..na) on formula f: the
 * failed set is a subset of the assumptions (no other literal of 1..n is
 * failed) and, with f, unsatisfiable by brute force.  *nfailed: its size. */
static inline int failed_core_ok(const cnf *f, gsat *s, const int *as, int na, int n, int *nfailed) {
    cnf h;
    cnf_init(&h, n);
    for (size_t i = 0; i < f->lits.len; i++) vec_push(h.lits, f->lits.data[i]);
    *nfailed = 0;
    for (int i = 0; i < na; i++)
        if (gsat_failed(s, as[i])) { cnf_add(&h, &as[i], 1); ++*nfailed; }
    int ok = 1;
    for (int v = 1; v <= n && ok; v++) {
        int in = 0;
        for (int i = 0; i < na; i++) in |= as[i] == v || as[i] == -v;
        if (!in && (gsat_failed(s, v) || gsat_failed(s, -v))) ok = 0;
    }
    ok = ok && !brute_force(&h, NULL, NULL, NULL);
    cnf_free(&h);
    return ok;
}

/* Pigeonhole: holes+1 pigeons into holes holes (unsatisfiable). */
static inline void cnf_pigeonhole(cnf *f, int holes) {
    int p = holes + 1;
    cnf_init(f, p * holes);
    int c[64];
    for (int i = 0; i < p; i++) {
        for (int j = 0; j < holes; j++) c[j] = i * holes + j + 1;
        cnf_add(f, c, holes);
    }
    for (int j = 0; j < holes; j++)
        for (int a = 0; a < p; a++)
            for (int b = a + 1; b < p; b++) cnf_add2(f, -(a * holes + j + 1), -(b * holes + j + 1));
}

/* out <-> a xor b */
static inline void cnf_xor(cnf *f, int out, int a, int b) {
    cnf_add3(f, -out, a, b); cnf_add3(f, -out, -a, -b);
    cnf_add3(f, out, -a, b); cnf_add3(f, out, a, -b);
}

#endif
