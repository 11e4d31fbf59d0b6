/* fuzz_api_body.h — what the API misuse fuzz target (and the replay in
 * tests/test_fuzz_regress.c) does with one input: run it as a program of
 * calls on one gsat solver and one IPASIR solver, with arguments drawn
 * from the input, often extreme (0, INT_MIN, INT_MAX, GSAT_MAX_VARS + 1,
 * negative counts, NULL arrays, huge sizes).
 *
 * Findings (abort(), or a crash, a sanitizer report, an exit — the
 * library must never end its caller):
 *   - a call given a bad argument that does not return its error value or
 *     leaves gsat_error() NULL;
 *   - an answer after an error (gsat_solve not GSAT_ERROR, ipasir_solve
 *     not 0), or GSAT_ERROR without an error;
 *   - while no error happened and no graph exists, an answer that brute
 *     force over the clauses and assumptions (at most 12 variables)
 *     contradicts; debug builds also check every model (GSAT_DEBUG).
 * Out of memory is expected (sizes are capped, __asan_default_options or
 * bench/fuzz.sh): it must come back as an error like any other. */
#ifndef FUZZ_API_BODY_H
#define FUZZ_API_BODY_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gsat.h"
#include "ipasir.h"

typedef struct api_in { const uint8_t *p, *end; } api_in;

static unsigned api_byte(api_in *in) { return in->p < in->end ? *in->p++ : 0; }

/* Extremes that fail fast (an error, or an allocation above the cap):
 * sizes a little below them are valid requests that only take long. */
static const int api_extremes[] = {
    0, INT_MIN, INT_MIN + 1, INT_MAX, GSAT_MAX_VARS, GSAT_MAX_VARS + 1, -GSAT_MAX_VARS, -GSAT_MAX_VARS - 1,
    -1, (1 << 28) + 1, (1 << 26) + (1 << 25), 65536,
};
enum { API_EXTREMES = (int)(sizeof api_extremes / sizeof *api_extremes) };

/* A number: mostly small (literals of the first 12 variables and their
 * negations), sometimes an extreme one. */
static int api_int(api_in *in) {
    unsigned b = api_byte(in);
    if (b < 200) return ((b / 12) & 1 ? -1 : 1) * ((int)(b % 12) + 1);
    return api_extremes[(b - 200) % API_EXTREMES];
}

/* A count of nodes or edges: small, or one of the sizes that must fail
 * (a node array of 2^27 ints is right at the cap and would be a valid,
 * only slow, request). */
static int api_count(api_in *in) {
    static const int huge[] = {-1, INT_MIN, INT_MAX, (1 << 28) + 1};
    unsigned b = api_byte(in);
    return b < 240 ? (int)(b % 64) : huge[b % 4];
}

/* A literal fit for gsat: nonzero, |lit| <= GSAT_MAX_VARS. */
static int api_lit_ok(int d) { return d != 0 && d != INT_MIN && d <= GSAT_MAX_VARS && d >= -GSAT_MAX_VARS; }

#define API_CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* The valid clauses and the largest variable, for brute force. */
typedef struct api_formula { int lits[4096]; int n; int maxv; int graphs; int broken; } api_formula;

static void api_record(api_formula *f, const int *c, int n) {
    if (f->n + n + 1 > (int)(sizeof f->lits / sizeof *f->lits)) { f->broken = 1; return; }
    for (int i = 0; i < n; i++) {
        f->lits[f->n++] = c[i];
        int v = abs(c[i]);
        if (v > f->maxv) f->maxv = v;
    }
    f->lits[f->n++] = 0;
}

/* 1 if the clauses and assumptions a[0..na) (0s skipped) have a model
 * over variables 1..top (top <= 12: every variable in them). */
static int api_brute(const api_formula *f, int top, const int *a, int na) {
    for (uint32_t m = 0; m < (1u << top); m++) {
        int ok = 1;
        for (int i = 0; i < na && ok; i++)
            if (a[i]) ok = (((m >> (abs(a[i]) - 1)) & 1) != 0) == (a[i] > 0);
        for (int i = 0, sat = 0; i < f->n && ok; i++) {
            if (f->lits[i] == 0) { ok = sat; sat = 0; continue; }
            int v = abs(f->lits[i]);
            sat |= (((m >> (v - 1)) & 1) != 0) == (f->lits[i] > 0);
        }
        if (ok) return 1;
    }
    return 0;
}

static int api_count_clause(void *state, const int *lits, int n) {
    (void)lits;
    *(long *)state += n;
    return 0;
}

/* One gsat call chosen by op; after it, the invariants. */
static void api_gsat_op(gsat *s, api_formula *f, unsigned op, api_in *in) {
    int before = gsat_error(s) != NULL, bad = 0, r;
    int c[8];
    switch (op) {
    case 0: case 1: case 2: {                        /* a clause */
        unsigned b = api_byte(in);
        int n = (int)(b % 6);
        for (int i = 0; i < n; i++) { c[i] = api_int(in); bad |= !api_lit_ok(c[i]); }
        const int *lits = c;
        if (b == 254) { n = -1 - (int)(api_byte(in) % 3); bad = 1; }
        if (b == 255 && n == 0) { n = 3; lits = NULL; bad = 1; }
        r = gsat_add_clause(s, lits, n);
        if (bad || before) API_CHECK(r == -1);
        else if (r < 0) API_CHECK(r == -1 && gsat_error(s));     /* out of memory: an error too */
        else { API_CHECK(r == 0 || r == 1); api_record(f, c, n); }
        break;
    }
    case 3: case 4: {                                /* a solve */
        int n = (int)(api_byte(in) % 4);
        for (int i = 0; i < n; i++) { c[i] = api_int(in); bad |= c[i] != 0 && !api_lit_ok(c[i]); }
        r = gsat_solve(s, c, n);
        if (bad || before) { API_CHECK(r == GSAT_ERROR); break; }
        API_CHECK(r == GSAT_SAT || r == GSAT_UNSAT || r == GSAT_UNKNOWN || (r == GSAT_ERROR && gsat_error(s)));
        int top = f->maxv;
        for (int i = 0; i < n; i++) if (abs(c[i]) > top) top = abs(c[i]);
        if ((r == GSAT_SAT || r == GSAT_UNSAT) && !f->graphs && !f->broken && top <= 12)
            API_CHECK(api_brute(f, top, c, n) == (r == GSAT_SAT));
        break;
    }
    case 5: r = gsat_new_var(s); API_CHECK(before ? r == 0 : (r > 0 || gsat_error(s))); break;
    case 6: {
        int n = api_int(in);
        bad = n < 0 || n > GSAT_MAX_VARS;
        gsat_reserve_vars(s, n);
        break;
    }
    case 7: { int v = api_int(in); bad = v > GSAT_MAX_VARS; gsat_set_decision_var(s, v, (int)(api_byte(in) & 1)); break; }
    case 8: { int v = api_int(in); bad = v > GSAT_MAX_VARS; gsat_set_phase(s, v, (int)(api_byte(in) & 1)); break; }
    case 9: { int v = api_int(in); bad = v > GSAT_MAX_VARS; gsat_freeze(s, v); gsat_melt(s, api_int(in)); break; }
    case 10: {
        int n = api_count(in);
        r = gsat_graph_new(s, n);
        if (n < 0 || before) API_CHECK(r == -1);
        if (r >= 0) f->graphs = 1;
        break;
    }
    case 11: r = gsat_graph_add_nodes(s, (int)(api_byte(in) % 3) - 1, api_count(in)); if (before) API_CHECK(r == -1); break;
    case 12: {
        int g = (int)(api_byte(in) % 3) - 1, from = api_int(in), to = api_int(in), lit = api_int(in);
        bad = lit == INT_MIN || lit > GSAT_MAX_VARS || lit < -GSAT_MAX_VARS;
        r = gsat_graph_add_edge(s, g, from, to, lit);
        if (bad || before) API_CHECK(r == -1);
        break;
    }
    case 13: {
        int n = (int)(api_byte(in) % 4);
        for (int i = 0; i < 2 * n; i++) c[i] = api_int(in);
        r = gsat_graph_add_edges(s, (int)(api_byte(in) % 2), api_byte(in) == 7 ? NULL : c, (size_t)n);
        if (before) API_CHECK(r == -1);
        break;
    }
    case 14: gsat_graph_reserve_edges(s, api_count(in), api_count(in)); break;
    case 15: {                                       /* queries never fail, never crash */
        int l = api_int(in);
        r = gsat_value(s, l) + gsat_failed(s, l) + gsat_fixed(s, l);
        if (before) API_CHECK(r == 0);
        break;
    }
    case 16: {
        gsat_option o;
        int k = (int)api_byte(in);
        if (gsat_option_at(s, k, &o)) gsat_set_option(s, o.name, api_byte(in) & 1 ? o.def : (int64_t)api_int(in));
        break;
    }
    case 17: { long lits = 0; r = gsat_clauses(s, &lits, api_count_clause); if (before) API_CHECK(r == -1); break; }
    default: break;
    }
    if (bad) API_CHECK(gsat_error(s) != NULL);
    if (before) API_CHECK(gsat_error(s) != NULL);
}

/* One IPASIR call; *failed: a bad literal went in (no answer from then on). */
static void api_ipasir_op(void *S, int *failed, unsigned op, api_in *in) {
    switch (op) {
    case 0: { int l = api_int(in); *failed |= l != 0 && !api_lit_ok(l); ipasir_add(S, l); break; }
    case 1: ipasir_add(S, 0); break;
    case 2: { int l = api_int(in); *failed |= l != 0 && !api_lit_ok(l); ipasir_assume(S, l); break; }
    case 3: {
        int r = ipasir_solve(S);
        API_CHECK(r == 0 || r == 10 || r == 20);
        if (*failed) API_CHECK(r == 0);
        break;
    }
    default: {
        int l = api_int(in);
        if (l == INT_MIN) l = 1;                     /* ipasir_val answers -lit: not for INT_MIN */
        int32_t v = ipasir_val(S, l);
        API_CHECK(v == 0 || v == l || v == -l);
        API_CHECK(ipasir_failed(S, l) == 0 || ipasir_failed(S, l) == 1);
        if (*failed) API_CHECK(v == 0);
        break;
    }
    }
}

static void fuzz_api_one(const uint8_t *data, size_t size) {
    api_in in = {data, data + size};
    gsat *s = gsat_new();
    void *S = ipasir_init();
    if (!s || !S) abort();
    gsat_set_conflict_limit(s, 20000);
    static api_formula f;
    memset(&f, 0, sizeof f);
    int ipasir_failed_ = 0;
    while (in.p < in.end) {
        unsigned op = api_byte(&in);
        if (op < 160) api_gsat_op(s, &f, op % 18, &in);
        else api_ipasir_op(S, &ipasir_failed_, (op - 160) % 5, &in);
    }
    gsat_free(s);
    ipasir_release(S);
}

#endif
