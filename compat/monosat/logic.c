/* logic.c — MonoSAT's Logic helpers (CircuitC.h) over the layer's
 * clauses: gates as Tseitin definitions, Assert* as clauses.
 *
 * Gates simplify as MonoSAT's do, so a program gets the same literals
 * back: a gate over equal, opposite or constant inputs (constant: fixed at
 * the top level, such as True) returns an input or a constant instead of
 * a new variable.  AssertEqual/AssertXnor/AssertXor also record the
 * equivalence, so graph edges tied to other literals share one guard. */
#include <stdlib.h>

#include "compat/monosat/msat.h"

#define SOLVER_OR(ret) msat *m = msat_of(S, __func__); if (!m) return ret
#define LITS_OR(lits, n, ret) if (!msat_check_lits(m, __func__, (lits), (n))) return ret
#define LIT_OR(lit, ret) if (!msat_check_lit(m, __func__, (lit))) return ret

/* ---- conjunction: the one gate the others are built from ------------------ */

static int lit_cmp(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }

/* The inputs of a conjunction, constants and duplicates removed, into
 * m->tmp2.  Returns MSAT_FALSE if it is false outright, else -1. */
static int and_inputs(msat *m, const int *lits, int n) {
    vec_clear(m->tmp2);
    for (int i = 0; i < n; i++) {
        int f = msat_fixed(m, lits[i]);
        if (f < 0) return MSAT_FALSE;
        if (f == 0) vec_push(m->tmp2, lits[i]);
    }
    if (m->tmp2.len > 1) qsort(m->tmp2.data, m->tmp2.len, sizeof *m->tmp2.data, lit_cmp);
    size_t k = 0;
    for (size_t i = 0; i < m->tmp2.len; i++) {
        int l = m->tmp2.data[i];
        if (k && m->tmp2.data[k - 1] == l) continue;
        if (k && m->tmp2.data[k - 1] == (l ^ 1)) return MSAT_FALSE;   /* x and not x (sorted: adjacent) */
        m->tmp2.data[k++] = l;
    }
    m->tmp2.len = k;
    return -1;
}

/* out <-> AND(inputs in m->tmp2), out a new or given literal. */
static void define_and(msat *m, int out) {
    size_t n = m->tmp2.len;
    for (size_t i = 0; i < n; i++) msat_add2(m, m->tmp2.data[i], out ^ 1);
    /* the long clause: (not x1 or ... or not xn or out), built in place */
    int *c = xmalloc((n + 1) * sizeof *c);
    for (size_t i = 0; i < n; i++) c[i] = m->tmp2.data[i] ^ 1;
    c[n] = out;
    msat_add_clause(m, c, (int)n + 1);
    free(c);
}

/* AND(lits) as a literal: an input or a constant if it simplifies. */
static int and_gate(msat *m, const int *lits, int n) {
    if (and_inputs(m, lits, n) == MSAT_FALSE) return MSAT_FALSE;
    if (m->tmp2.len == 0) return MSAT_TRUE;
    if (m->tmp2.len == 1) return m->tmp2.data[0];
    int out = msat_new_var(m);
    define_and(m, out);
    return out;
}

/* out <-> AND(lits) for a given out. */
static int and_into(msat *m, const int *lits, int n, int out) {
    if (and_inputs(m, lits, n) == MSAT_FALSE) { int c = out ^ 1; msat_add_clause(m, &c, 1); return out; }
    if (m->tmp2.len == 0) { msat_add_clause(m, &out, 1); return out; }
    if (m->tmp2.len == 1) {
        int x = m->tmp2.data[0];
        msat_add2(m, x ^ 1, out);
        msat_add2(m, x, out ^ 1);
        msat_equal(m, x, out);
        return out;
    }
    define_and(m, out);
    return out;
}

/* A new array of the negations of lits (the caller frees it). */
static int *negated(const int *lits, int n) {
    int *c = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *c);
    for (int i = 0; i < n; i++) c[i] = lits[i] ^ 1;
    return c;
}

/* ---- two-input gates, simplifying like MonoSAT's ------------------------------ */

static int and2(msat *m, int a, int b) {
    if (a == b) return a;
    if (a == (b ^ 1)) return MSAT_FALSE;
    int fa = msat_fixed(m, a), fb = msat_fixed(m, b);
    if (fa > 0) return b;
    if (fa < 0) return a;
    if (fb > 0) return a;
    if (fb < 0) return b;
    int out = msat_new_var(m);
    msat_add2(m, a, out ^ 1);
    msat_add2(m, b, out ^ 1);
    msat_add3(m, a ^ 1, b ^ 1, out);
    return out;
}

static int or2(msat *m, int a, int b) {
    if (a == b) return a;
    if (a == (b ^ 1)) return MSAT_TRUE;
    int fa = msat_fixed(m, a), fb = msat_fixed(m, b);
    if (fa > 0 || fb > 0) return MSAT_TRUE;
    if (fa < 0) return b;
    if (fb < 0) return a;
    int out = msat_new_var(m);
    msat_add2(m, a ^ 1, out);
    msat_add2(m, b ^ 1, out);
    msat_add3(m, a, b, out ^ 1);
    return out;
}

static int xor2(msat *m, int a, int b) {
    if (a == b) return MSAT_FALSE;
    if (a == (b ^ 1)) return MSAT_TRUE;
    int fa = msat_fixed(m, a), fb = msat_fixed(m, b);
    if (fa) return fa > 0 ? b ^ 1 : b;
    if (fb) return fb > 0 ? a ^ 1 : a;
    int out = msat_new_var(m);
    msat_add3(m, a ^ 1, b ^ 1, out ^ 1);
    msat_add3(m, a, b, out ^ 1);
    msat_add3(m, a, b ^ 1, out);
    msat_add3(m, a ^ 1, b, out);
    return out;
}

static int xor_n(msat *m, const int *lits, int n) {
    int x = MSAT_FALSE;
    for (int i = 0; i < n; i++) x = xor2(m, x, lits[i]);
    return x;
}

/* out <-> g for a gate literal g already built */
static int equal_into(msat *m, int g, int out) {
    msat_add2(m, g ^ 1, out);
    msat_add2(m, g, out ^ 1);
    msat_equal(m, g, out);
    return out;
}

/* ---- the API ---------------------------------------------------------------------- */

int newLit(SolverPtr S) { SOLVER_OR(-1); return msat_new_var(m); }

int newLit_(SolverPtr S, bool decisionLit) {
    SOLVER_OR(-1);
    int l = msat_new_var(m);
    if (!decisionLit) setDecisionVar(S, l >> 1, false);
    return l;
}

int getTrue(SolverPtr S) { SOLVER_OR(-1); return MSAT_TRUE; }
int getFalse(SolverPtr S) { SOLVER_OR(-1); return MSAT_FALSE; }

int And(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(-1); LIT_OR(lit_a, -1); LIT_OR(lit_b, -1); return and2(m, lit_a, lit_b); }

int And_(SolverPtr S, int lit_a, int lit_b, int lit_out) {
    SOLVER_OR(-1); LIT_OR(lit_a, -1); LIT_OR(lit_b, -1); LIT_OR(lit_out, -1);
    int in[2] = {lit_a, lit_b};
    return and_into(m, in, 2, lit_out);
}

int Ands(SolverPtr S, int *lits, int n_lits) { SOLVER_OR(-1); LITS_OR(lits, n_lits, -1); return and_gate(m, lits, n_lits); }

int Ands_(SolverPtr S, int *lits, int n_lits, int lit_out) {
    SOLVER_OR(-1); LITS_OR(lits, n_lits, -1); LIT_OR(lit_out, -1);
    return and_into(m, lits, n_lits, lit_out);
}

int Or(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(-1); LIT_OR(lit_a, -1); LIT_OR(lit_b, -1); return or2(m, lit_a, lit_b); }

int Or_(SolverPtr S, int lit_a, int lit_b, int lit_out) {
    SOLVER_OR(-1); LIT_OR(lit_a, -1); LIT_OR(lit_b, -1); LIT_OR(lit_out, -1);
    int in[2] = {lit_a ^ 1, lit_b ^ 1};
    return and_into(m, in, 2, lit_out ^ 1) ^ 1;
}

int Ors(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(-1); LITS_OR(lits, n_lits, -1);
    int *neg = negated(lits, n_lits);
    int g = and_gate(m, neg, n_lits) ^ 1;
    free(neg);
    return g;
}

int Ors_(SolverPtr S, int *lits, int n_lits, int lit_out) {
    SOLVER_OR(-1); LITS_OR(lits, n_lits, -1); LIT_OR(lit_out, -1);
    int *neg = negated(lits, n_lits);
    and_into(m, neg, n_lits, lit_out ^ 1);
    free(neg);
    return lit_out;
}

int Nand(SolverPtr S, int lit_a, int lit_b) { int g = And(S, lit_a, lit_b); return g < 0 ? g : g ^ 1; }
int Nands(SolverPtr S, int *lits, int n_lits) { int g = Ands(S, lits, n_lits); return g < 0 ? g : g ^ 1; }
int Nor(SolverPtr S, int lit_a, int lit_b) { int g = Or(S, lit_a, lit_b); return g < 0 ? g : g ^ 1; }
int Nors(SolverPtr S, int *lits, int n_lits) { int g = Ors(S, lits, n_lits); return g < 0 ? g : g ^ 1; }

int Xor(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(-1); LIT_OR(lit_a, -1); LIT_OR(lit_b, -1); return xor2(m, lit_a, lit_b); }
int Xors(SolverPtr S, int *lits, int n_lits) { SOLVER_OR(-1); LITS_OR(lits, n_lits, -1); return xor_n(m, lits, n_lits); }
int Xnor(SolverPtr S, int lit_a, int lit_b) { int g = Xor(S, lit_a, lit_b); return g < 0 ? g : g ^ 1; }
int Xnors(SolverPtr S, int *lits, int n_lits) { int g = Xors(S, lits, n_lits); return g < 0 ? g : g ^ 1; }
int Equal(SolverPtr S, int a_lit, int b_lit) { return Xnor(S, a_lit, b_lit); }

int Implies(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(-1); LIT_OR(lit_a, -1); LIT_OR(lit_b, -1); return or2(m, lit_a ^ 1, lit_b); }
int Implies_(SolverPtr S, int lit_a, int lit_b, int lit_out) { return lit_a < 0 ? Or_(S, lit_a, lit_b, lit_out) : Or_(S, lit_a ^ 1, lit_b, lit_out); }

/* (cond and thn) or (not cond and els), as MonoSAT builds it */
static int ite(msat *m, int c, int t, int e) {
    int l = and2(m, c, t ^ 1) ^ 1, r = and2(m, c ^ 1, e ^ 1) ^ 1;
    return and2(m, l, r);
}

int Ite(SolverPtr S, int lit_cond, int lit_thn, int lit_els) {
    SOLVER_OR(-1); LIT_OR(lit_cond, -1); LIT_OR(lit_thn, -1); LIT_OR(lit_els, -1);
    return ite(m, lit_cond, lit_thn, lit_els);
}

int Ite_(SolverPtr S, int lit_cond, int lit_thn, int lit_els, int lit_out) {
    SOLVER_OR(-1); LIT_OR(lit_cond, -1); LIT_OR(lit_thn, -1); LIT_OR(lit_els, -1); LIT_OR(lit_out, -1);
    return equal_into(m, ite(m, lit_cond, lit_thn, lit_els), lit_out);
}

int ImpliesAnd_(SolverPtr S, int *lits, int n_lits, int lit_out) {
    SOLVER_OR(-1); LITS_OR(lits, n_lits, -1); LIT_OR(lit_out, -1);
    for (int i = 0; i < n_lits; i++) msat_add2(m, lit_out ^ 1, lits[i]);
    return lit_out;
}

/* out -> (l1 or ... or ln) */
static void implies_or(msat *m, int out, const int *lits, int n) {
    int *c = xmalloc((size_t)(n + 1) * sizeof *c);
    c[0] = out ^ 1;
    for (int i = 0; i < n; i++) c[i + 1] = lits[i];
    msat_add_clause(m, c, n + 1);
    free(c);
}

int ImpliesOr(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(-1); LITS_OR(lits, n_lits, -1);
    int out = msat_new_var(m);
    implies_or(m, out, lits, n_lits);
    return out;
}

int ImpliesOr_(SolverPtr S, int *lits, int n_lits, int lit_out) {
    SOLVER_OR(-1); LITS_OR(lits, n_lits, -1); LIT_OR(lit_out, -1);
    implies_or(m, lit_out, lits, n_lits);
    return lit_out;
}

void AssertImpliesAnd(SolverPtr S, int implies, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, ); LIT_OR(implies, );
    for (int i = 0; i < n_lits; i++) msat_add2(m, implies ^ 1, lits[i]);
}

void AssertImpliesOr(SolverPtr S, int implies, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, ); LIT_OR(implies, );
    implies_or(m, implies, lits, n_lits);
}

void Assert(SolverPtr S, int lit) { SOLVER_OR(); LIT_OR(lit, ); msat_add_clause(m, &lit, 1); }

void AssertOr(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, ); msat_add2(m, lit_a, lit_b); }

void AssertOrs(SolverPtr S, int *lits, int n_lits) { SOLVER_OR(); LITS_OR(lits, n_lits, ); msat_add_clause(m, lits, n_lits); }

void AssertOrTertiary(SolverPtr S, int lit_a, int lit_b, int lit_c) {
    SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, ); LIT_OR(lit_c, );
    msat_add3(m, lit_a, lit_b, lit_c);
}

void AssertAnd(SolverPtr S, int lit_a, int lit_b) {
    SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, );
    msat_add_clause(m, &lit_a, 1);
    msat_add_clause(m, &lit_b, 1);
}

void AssertAnds(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, );
    for (int i = 0; i < n_lits; i++) msat_add_clause(m, &lits[i], 1);
}

void AssertNand(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, ); msat_add2(m, lit_a ^ 1, lit_b ^ 1); }

void AssertNands(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, );
    int *neg = negated(lits, n_lits);
    msat_add_clause(m, neg, n_lits);
    free(neg);
}

void AssertNor(SolverPtr S, int lit_a, int lit_b) {
    SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, );
    int na = lit_a ^ 1, nb = lit_b ^ 1;
    msat_add_clause(m, &na, 1);
    msat_add_clause(m, &nb, 1);
}

void AssertNors(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, );
    for (int i = 0; i < n_lits; i++) { int n = lits[i] ^ 1; msat_add_clause(m, &n, 1); }
}

/* a == b (as clauses and as an equivalence) */
static void assert_equal(msat *m, int a, int b) {
    if (a == b) return;
    msat_add2(m, a ^ 1, b);
    msat_add2(m, a, b ^ 1);
    msat_equal(m, a, b);
}

void AssertXor(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, ); assert_equal(m, lit_a, lit_b ^ 1); }
void AssertXnor(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, ); assert_equal(m, lit_a, lit_b); }
void AssertEqual(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, ); assert_equal(m, lit_a, lit_b); }

void AssertXors(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, );
    if (n_lits == 2) { assert_equal(m, lits[0], lits[1] ^ 1); return; }
    int g = xor_n(m, lits, n_lits);
    msat_add_clause(m, &g, 1);
}

void AssertXnors(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, );
    if (n_lits == 2) { assert_equal(m, lits[0], lits[1]); return; }
    int g = xor_n(m, lits, n_lits) ^ 1;
    msat_add_clause(m, &g, 1);
}

void AssertImplies(SolverPtr S, int lit_a, int lit_b) { SOLVER_OR(); LIT_OR(lit_a, ); LIT_OR(lit_b, ); msat_add2(m, lit_a ^ 1, lit_b); }

void AssertAllSame(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, );
    for (int i = 1; i < n_lits; i++) assert_equal(m, lits[0], lits[i]);
}

/* At most one of lits: pairwise for a few, else a sequential counter
 * (s_i: one of l_1..l_i is true), 3n clauses. */
static void at_most_one_of(msat *m, const int *lits, int n) {
    if (n <= 6) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) msat_add2(m, lits[i] ^ 1, lits[j] ^ 1);
        return;
    }
    int prev = -1;
    for (int i = 0; i < n; i++) {
        int si = i + 1 < n ? msat_new_var(m) : -1;
        if (si >= 0) msat_add2(m, lits[i] ^ 1, si);                       /* l_i -> s_i */
        if (prev >= 0) {
            msat_add2(m, lits[i] ^ 1, prev ^ 1);                         /* l_i -> not s_{i-1} */
            if (si >= 0) msat_add2(m, prev ^ 1, si);                     /* s_{i-1} -> s_i */
        }
        prev = si;
    }
}

void AssertAMO(SolverPtr S, int *lits, int n_lits) { SOLVER_OR(); LITS_OR(lits, n_lits, ); at_most_one_of(m, lits, n_lits); }

void AssertExactlyOne(SolverPtr S, int *lits, int n_lits) {
    SOLVER_OR(); LITS_OR(lits, n_lits, );
    at_most_one_of(m, lits, n_lits);
    msat_add_clause(m, lits, n_lits);
}

void at_most_one_lit(SolverPtr S, int *literals, int n_lits) {
    SOLVER_OR(); LITS_OR(literals, n_lits, );
    at_most_one_of(m, literals, n_lits);
}

void at_most_one(SolverPtr S, int *vars, int n_vars) {
    SOLVER_OR();
    if (n_vars < 0 || (n_vars > 0 && !vars)) { msat_error(m, __func__, "bad variable array (%d variables)", n_vars); return; }
    int *lits = xmalloc((size_t)(n_vars > 0 ? n_vars : 1) * sizeof *lits);
    for (int i = 0; i < n_vars; i++) lits[i] = 2 * vars[i];
    if (msat_check_lits(m, __func__, lits, n_vars)) at_most_one_of(m, lits, n_vars);
    free(lits);
}
