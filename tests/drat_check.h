/* drat_check.h — an independent checker of clausal proofs of
 * unsatisfiability, for the tests of `gsat --proof` (tests/test_drat.c).
 * It shares no code with the solver: its own DIMACS and proof readers,
 * its own clause store and unit propagation.
 *
 * What it checks: FORWARD RUP only.  The proof's steps are replayed in
 * order against the clauses of the CNF: a deletion removes one copy of the
 * clause with the same literals (in any order) from the database; a
 * deletion of a clause the database does not hold is counted and
 * otherwise ignored, as drat-trim does (it only keeps more clauses).  An
 * addition must be RUP: assigning the negation of its literals and every
 * unit clause of the database, unit propagation over the clauses not
 * deleted must reach a conflict, computed afresh for each addition.  No
 * RAT step is accepted (gsat's proofs never need one: preprocessing,
 * whose eliminations would, is off with --proof).  The proof is accepted
 * when it adds the empty clause (checked like any addition), or the CNF
 * holds it; the steps after the empty clause are not read.
 *
 * Proof formats: text DRAT ("d" prefix for deletions, each clause ended
 * by 0) or binary DRAT ('a'/'d' bytes, literals as 7-bit varints of
 * 2|l| + (l < 0), each clause ended by a 0 byte).
 *
 * drat_check_files(cnf, proof, binary, &res) returns 1 if the proof is
 * accepted, 0 if not (res.msg says why: the step that failed, or a
 * malformed file). */
#ifndef TESTS_DRAT_CHECK_H
#define TESTS_DRAT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct drat_result {
    long additions, deletions, missing_deletions;
    char msg[200];
} drat_result;

typedef struct dc_ints { int *v; size_t n, cap; } dc_ints;

static void dc_push(dc_ints *a, int x) {
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 64;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
        if (!a->v) abort();
    }
    a->v[a->n++] = x;
}

/* ---- the clause database --------------------------------------------- */
typedef struct dc_db {
    int nvars;
    dc_ints lits;              /* every clause's literals, one after another */
    dc_ints start, len, alive, hash_next;
    dc_ints units;             /* ids of unit clauses (dead ones skipped) */
    dc_ints *watch;            /* per literal index: clause ids watching it */
    int *buckets; size_t nbuckets;
    signed char *val;          /* per literal index: 1 true, -1 false, 0 open */
    dc_ints trail;
    int has_empty;
} dc_db;

static size_t dc_idx(int lit) { return lit > 0 ? 2 * (size_t)lit : 2 * (size_t)-lit + 1; }
static int dc_cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }

static unsigned dc_hash(const int *l, int n) {
    int tmp[64], *s = n <= 64 ? tmp : malloc((size_t)n * sizeof *s);
    memcpy(s, l, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, dc_cmp_int);
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ (unsigned)s[i]) * 16777619u;
    if (s != tmp) free(s);
    return h;
}

static int dc_same(const int *a, const int *b, int n) {
    int *x = malloc(2 * (size_t)(n ? n : 1) * sizeof *x), *y = x + n;
    memcpy(x, a, (size_t)n * sizeof *x);
    memcpy(y, b, (size_t)n * sizeof *y);
    qsort(x, (size_t)n, sizeof *x, dc_cmp_int);
    qsort(y, (size_t)n, sizeof *y, dc_cmp_int);
    int same = memcmp(x, y, (size_t)n * sizeof *x) == 0;
    free(x);
    return same;
}

static void dc_init(dc_db *d, int nvars) {
    memset(d, 0, sizeof *d);
    d->nvars = nvars;
    d->watch = calloc(2 * (size_t)nvars + 2, sizeof *d->watch);
    d->val = calloc(2 * (size_t)nvars + 2, 1);
    d->nbuckets = 1 << 16;
    d->buckets = malloc(d->nbuckets * sizeof *d->buckets);
    if (!d->watch || !d->val || !d->buckets) abort();
    for (size_t i = 0; i < d->nbuckets; i++) d->buckets[i] = -1;
}

static void dc_free(dc_db *d) {
    free(d->lits.v); free(d->start.v); free(d->len.v); free(d->alive.v); free(d->hash_next.v);
    free(d->units.v); free(d->trail.v); free(d->buckets); free(d->val);
    for (size_t i = 0; i < 2 * (size_t)d->nvars + 2; i++) free(d->watch[i].v);
    free(d->watch);
}

/* Store a clause (duplicate literals removed; a tautology is stored too:
 * it never propagates). */
static void dc_add(dc_db *d, const int *l, int n) {
    int id = (int)d->start.n, m = 0;
    dc_push(&d->start, (int)d->lits.n);
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int k = 0; k < i && !dup; k++) dup = l[k] == l[i];
        if (!dup) { dc_push(&d->lits, l[i]); m++; }
    }
    dc_push(&d->len, m);
    dc_push(&d->alive, 1);
    unsigned b = dc_hash(d->lits.v + d->start.v[id], m) & (unsigned)(d->nbuckets - 1);
    dc_push(&d->hash_next, d->buckets[b]);
    d->buckets[b] = id;
    if (m == 0) d->has_empty = 1;
    else if (m == 1) dc_push(&d->units, id);
    else {
        dc_push(&d->watch[dc_idx(d->lits.v[d->start.v[id]])], id);
        dc_push(&d->watch[dc_idx(d->lits.v[d->start.v[id] + 1])], id);
    }
}

/* Delete one live copy of the clause l[0..n); 0 if there is none. */
static int dc_delete(dc_db *d, const int *l, int n) {
    int tmp[64], m = 0, *u = n <= 64 ? tmp : malloc((size_t)n * sizeof *u);
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int k = 0; k < m && !dup; k++) dup = u[k] == l[i];
        if (!dup) u[m++] = l[i];
    }
    unsigned b = dc_hash(u, m) & (unsigned)(d->nbuckets - 1);
    int found = 0;
    for (int id = d->buckets[b]; id >= 0 && !found; id = d->hash_next.v[id])
        if (d->alive.v[id] && d->len.v[id] == m && dc_same(d->lits.v + d->start.v[id], u, m)) {
            d->alive.v[id] = 0;
            found = 1;
        }
    if (u != tmp) free(u);
    return found;
}

static int dc_value(const dc_db *d, int lit) { return d->val[dc_idx(lit)]; }
static void dc_assign(dc_db *d, int lit) {
    d->val[dc_idx(lit)] = 1;
    d->val[dc_idx(-lit)] = -1;
    dc_push(&d->trail, lit);
}

/* Unit propagation from the trail; 1 on a conflict. */
static int dc_propagate(dc_db *d) {
    for (size_t head = 0; head < d->trail.n; head++) {
        int falsified = -d->trail.v[head];
        dc_ints *w = &d->watch[dc_idx(falsified)];
        size_t j = 0;
        for (size_t i = 0; i < w->n; i++) {
            int id = w->v[i];
            if (!d->alive.v[id]) continue;                   /* deleted: drop the watch */
            int *c = d->lits.v + d->start.v[id], n = d->len.v[id];
            if (c[0] == falsified) { c[0] = c[1]; c[1] = falsified; }
            if (dc_value(d, c[0]) > 0) { w->v[j++] = id; continue; }
            int moved = 0;
            for (int k = 2; k < n && !moved; k++)
                if (dc_value(d, c[k]) >= 0) {
                    c[1] = c[k]; c[k] = falsified;
                    dc_push(&d->watch[dc_idx(c[1])], id);
                    moved = 1;
                }
            if (moved) continue;
            w->v[j++] = id;
            if (dc_value(d, c[0]) < 0) {                      /* conflict: keep the rest of the list */
                for (i++; i < w->n; i++) w->v[j++] = w->v[i];
                w->n = j;
                return 1;
            }
            dc_assign(d, c[0]);
        }
        w->n = j;
    }
    return 0;
}

/* Is l[0..n) RUP with respect to the database? */
static int dc_rup(dc_db *d, const int *l, int n) {
    int conflict = 0;
    for (size_t i = 0; i < d->units.n && !conflict; i++) {
        int id = d->units.v[i], u = d->lits.v[d->start.v[id]];
        if (!d->alive.v[id]) continue;
        if (dc_value(d, u) < 0) conflict = 1;
        else if (dc_value(d, u) == 0) dc_assign(d, u);
    }
    for (int i = 0; i < n && !conflict; i++) {
        if (dc_value(d, l[i]) > 0) conflict = 1;
        else if (dc_value(d, l[i]) == 0) dc_assign(d, -l[i]);
    }
    if (!conflict) conflict = dc_propagate(d);
    for (size_t i = 0; i < d->trail.n; i++) {
        d->val[dc_idx(d->trail.v[i])] = 0;
        d->val[dc_idx(-d->trail.v[i])] = 0;
    }
    d->trail.n = 0;
    return conflict;
}

/* ---- readers ------------------------------------------------------------ */
static char *dc_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    size_t k;
    while ((k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) { cap *= 2; b = realloc(b, cap + 1); }
    }
    fclose(f);
    b[n] = 0;
    *len = n;
    return b;
}

/* Text: clauses as 0-terminated integers into out; marks[i] = 1 for a
 * deletion (proofs).  Comment and header lines ("c", "p") are skipped.
 * 0 on a malformed token. */
static int dc_parse_text(const char *t, dc_ints *out, dc_ints *dels, int *maxvar) {
    const char *p = t;
    int in_clause = 0, del = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) break;
        if (!in_clause && (*p == 'c' || *p == 'p')) { while (*p && *p != '\n') p++; continue; }
        if (!in_clause && *p == 'd') { del = 1; p++; continue; }
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || x > 1000000000L || x < -1000000000L) return 0;
        p = end;
        if (x == 0) { dc_push(out, 0); if (dels) dc_push(dels, del); in_clause = 0; del = 0; continue; }
        in_clause = 1;
        int v = (int)(x < 0 ? -x : x);
        if (v > *maxvar) *maxvar = v;
        dc_push(out, (int)x);
    }
    return !in_clause;
}

static int dc_parse_binary(const unsigned char *t, size_t n, dc_ints *out, dc_ints *dels, int *maxvar) {
    size_t i = 0;
    while (i < n) {
        int mode = t[i++];
        if (mode != 'a' && mode != 'd') return 0;
        for (;;) {
            unsigned long u = 0;
            int shift = 0;
            for (;;) {
                if (i >= n || shift > 28) return 0;
                unsigned char c = t[i++];
                u |= (unsigned long)(c & 127) << shift;
                shift += 7;
                if (!(c & 128)) break;
            }
            if (u == 0) break;
            int v = (int)(u >> 1);
            if (v > *maxvar) *maxvar = v;
            dc_push(out, (u & 1) ? -v : v);
        }
        dc_push(out, 0);
        dc_push(dels, mode == 'd');
    }
    return 1;
}

/* ---- the check ---------------------------------------------------------- */
static int drat_check_files(const char *cnf_path, const char *proof_path, int binary, drat_result *r) {
    memset(r, 0, sizeof *r);
    size_t cn, pn;
    char *ctext = dc_slurp(cnf_path, &cn), *ptext = dc_slurp(proof_path, &pn);
    dc_ints cl = {0}, pr = {0}, dels = {0};
    int maxvar = 0, ok = 0;
    if (!ctext || !ptext) { snprintf(r->msg, sizeof r->msg, "cannot read %s", ctext ? proof_path : cnf_path); goto out; }
    if (!dc_parse_text(ctext, &cl, NULL, &maxvar)) { snprintf(r->msg, sizeof r->msg, "malformed CNF"); goto out; }
    if (!(binary ? dc_parse_binary((const unsigned char *)ptext, pn, &pr, &dels, &maxvar)
                 : dc_parse_text(ptext, &pr, &dels, &maxvar))) {
        snprintf(r->msg, sizeof r->msg, "malformed proof");
        goto out;
    }
    dc_db d;
    dc_init(&d, maxvar);
    size_t s = 0;
    for (size_t i = 0; i < cl.n; i++)
        if (cl.v[i] == 0) { dc_add(&d, cl.v + s, (int)(i - s)); s = i + 1; }
    ok = d.has_empty;
    s = 0;
    size_t step = 0;
    for (size_t i = 0; i < pr.n && !ok; i++) {
        if (pr.v[i] != 0) continue;
        const int *l = pr.v + s;
        int n = (int)(i - s);
        s = i + 1;
        if (dels.v[step++]) {
            r->deletions++;
            if (!dc_delete(&d, l, n)) r->missing_deletions++;
            continue;
        }
        r->additions++;
        if (!dc_rup(&d, l, n)) {
            snprintf(r->msg, sizeof r->msg, "step %zu (addition %ld, %d literals, first %d) is not RUP", step,
                     r->additions, n, n ? l[0] : 0);
            break;
        }
        if (n == 0) ok = 1;
        else dc_add(&d, l, n);
    }
    if (!ok && !r->msg[0]) snprintf(r->msg, sizeof r->msg, "the proof never adds the empty clause");
    dc_free(&d);
out:
    free(ctext); free(ptext); free(cl.v); free(pr.v); free(dels.v);
    return ok;
}

#endif
