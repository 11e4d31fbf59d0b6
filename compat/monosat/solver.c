/* solver.c — MonoSAT's solver, variable, clause and decision-hint
 * functions over gsat (include/monosat.h), and the layer's literal
 * bookkeeping: the variable table and the equivalence classes. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compat/monosat/msat.h"

/* ---- bookkeeping ------------------------------------------------------------ */

MSAT_COLD void msat_grow_vars(msat *m) { vec_reserve(m->vars, m->vars.len + 1); }
MSAT_COLD void msat_grow_clause(msat *m, int n) { vec_reserve(m->clause, (size_t)n); }

MSAT_COLD bool msat_add_checked_clause_slow(msat *m, const char *func, const int *lits, int n) {
    if (n < 0 || (n > 0 && !lits)) return msat_bad_array(m, func, n);
    if (n == 0) return msat_add_dimacs(m, m->clause.data, 0);
    msat_grow_clause(m, n);
    return msat_add_checked_clause(m, func, lits, n);   /* now the common way */
}

MSAT_COLD bool msat_bad_lit(msat *m, const char *func, int lit) {
    msat_error(m, func, "literal %d is not a literal of this solver (it has %d variables)", lit, msat_nvars(m));
    return false;
}

MSAT_COLD bool msat_bad_array(msat *m, const char *func, int n) {
    msat_error(m, func, "bad literal array (%d literals)", n);
    return false;
}

MSAT_COLD bool msat_bad_clause(msat *m, const char *func, const int *lits, int n) {
    for (int i = 0; i < n; i++) if (!msat_check_lit(m, func, lits[i])) return false;
    return true;                        /* not reached: the caller saw a bad literal */
}

int msat_check_lits(msat *m, const char *func, const int *lits, int n) {
    if (n < 0 || (n > 0 && !lits)) return msat_bad_array(m, func, n);
    for (int i = 0; i < n; i++) if (!msat_check_lit(m, func, lits[i])) return 0;
    return 1;
}

int msat_fixed(const msat *m, int lit) { return gsat_fixed(m->s, msat_dimacs(lit)); }

/* Union-find with parity over variables; the smallest variable of a class
 * is its representative (the oldest: an edge's partner literal). */
static int find_var(msat *m, int v, int *flip) {
    int f = 0, r = v;
    while (m->vars.data[r].parent != r) { f ^= m->vars.data[r].flags & MV_FLIP; r = m->vars.data[r].parent; }
    /* path compression: point every variable on the path at the root */
    int g = f;
    while (m->vars.data[v].parent != v) {
        msat_var *x = &m->vars.data[v];
        int next = x->parent, fx = x->flags & MV_FLIP;
        x->parent = r;
        x->flags = (uint8_t)((x->flags & ~MV_FLIP) | g);
        g ^= fx;
        v = next;
    }
    *flip = f;
    return r;
}

int msat_find_slow(msat *m, int lit) {
    int flip, r = find_var(m, lit >> 1, &flip);
    return 2 * r + ((lit & 1) ^ flip);
}

void msat_equal(msat *m, int a, int b) {
    int ra = msat_find(m, a), rb = msat_find(m, b);
    if ((ra >> 1) == (rb >> 1)) return;      /* already one class (or contradictory: the clauses say so) */
    if ((rb >> 1) < (ra >> 1)) { int t = ra; ra = rb; rb = t; }
    msat_var *x = &m->vars.data[rb >> 1];
    x->parent = ra >> 1;
    x->flags = (uint8_t)((x->flags & ~MV_FLIP) | ((ra ^ rb) & 1));
}

/* ---- solver ------------------------------------------------------------------- */

const char *getVersion(void) { return "gsat " GSAT_VERSION " (MonoSAT C API layer)"; }

SolverPtr newSolver(void) {
    msat *m = xcalloc(1, sizeof *m);
    m->s = gsat_new();
    vec_reserve(m->vars, MSAT_FIRST_ROOM / sizeof *m->vars.data);
    vec_reserve(m->clause, 64);
    m->ok = true;
    m->last = -1;
    m->conflict_limit = -1;
    int t = msat_new_var(m);                  /* variable 0: the constant true */
    msat_add_clause(m, &t, 1);
    m->clauses = 0;
    return m;
}

/* One option word: "--name=value" or "-name=value" naming a gsat option. */
static int apply_option(msat *m, const char *func, const char *word, size_t len) {
    char buf[128];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, word, len);
    buf[len] = 0;
    const char *p = buf;
    while (*p == '-') p++;
    char *eq = strchr(p, '=');
    char *end = NULL;
    long long value = eq ? strtoll(eq + 1, &end, 10) : 0;
    if (p == buf || !eq || end == eq + 1 || *end) {
        msat_error(m, func, "'%s' is not an option gsat knows (gsat takes its engine options as --name=value; see gsat --help)", buf);
        return 0;
    }
    *eq = 0;
    if (!gsat_set_option(m->s, p, value)) {
        msat_error(m, func, "'%s=%lld': no such gsat option, or the value is out of range (see gsat --help)", p, value);
        return 0;
    }
    return 1;
}

SolverPtr newSolver_arg(const char *args) {
    msat *m = newSolver();
    const char *p = args ? args : "";
    for (int first = 1;; first = 0) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *w = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (first && *w != '-') continue;     /* a program name, as in argv[0] */
        if (!apply_option(m, __func__, w, (size_t)(p - w))) { deleteSolver(m); return NULL; }
    }
    return m;
}

SolverPtr newSolver_args(int argc, char **argv) {
    msat *m = newSolver();
    for (int i = 0; i < argc; i++) {
        if (i == 0 && argv[0] && argv[0][0] != '-') continue;
        if (!argv[i] || !apply_option(m, __func__, argv[i], strlen(argv[i]))) { deleteSolver(m); return NULL; }
    }
    return m;
}

void deleteSolver(SolverPtr S) {
    msat *m = S;
    if (!m) return;
    gsat_free(m->s);
    msat_graphs_free(m);
    vec_free(m->vars); vec_free(m->clause);
    vec_free(m->assumptions); vec_free(m->conflict); vec_free(m->tmp); vec_free(m->tmp2);
    free(m);
}

bool ok(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    return m && m->ok && !m->failed;
}

void disablePreprocessing(SolverPtr S) { (void)msat_of(S, __func__); }

bool disallowLiteralSimplification(SolverPtr S, int var) {
    msat *m = msat_of(S, __func__);
    return m && msat_check_lit(m, __func__, 2 * var);
}

void backtrack(SolverPtr S) { (void)msat_of(S, __func__); }

/* ---- variables and literals ---------------------------------------------------- */

int varToLit(int var, bool negated) { return 2 * var + (negated ? 1 : 0); }
int litToVar(int lit) { return lit / 2; }

int newVar(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    return m ? msat_new_var(m) >> 1 : -1;
}

int true_lit(SolverPtr S) { return msat_of(S, __func__) ? MSAT_TRUE : -1; }

int nVars(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    return m ? msat_nvars(m) : 0;
}

int nClauses(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    return m ? (int)m->clauses : 0;
}

int nLearnedClauses(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    if (!m) return 0;
    gsat_stats st;
    gsat_get_stats(m->s, &st);
    return (int)(st.learned - st.reduced > 0 ? st.learned - st.reduced : 0);
}

void releaseLiteral(SolverPtr S, int literal) {
    msat *m = msat_of(S, __func__);
    if (m && msat_check_lit(m, __func__, literal)) msat_add_clause(m, &literal, 1);
}

const char *getLiteralName(SolverPtr S, int literal, int nameIndex) {
    msat *m = msat_of(S, __func__);
    (void)nameIndex;
    if (m) msat_check_lit(m, __func__, literal);
    return "";
}

int literalNameCount(SolverPtr S, int literal) {
    msat *m = msat_of(S, __func__);
    if (m) msat_check_lit(m, __func__, literal);
    return 0;
}

bool hasLiteralWithName(SolverPtr S, const char *name) { (void)name; (void)msat_of(S, __func__); return false; }
int nNamedLiterals(SolverPtr S) { (void)msat_of(S, __func__); return 0; }

/* ---- decision hints -------------------------------------------------------------- */

void setDecisionVar(SolverPtr S, int var, bool decidable) {
    msat *m = msat_of(S, __func__);
    if (!m || !msat_check_lit(m, __func__, 2 * var)) return;
    msat_var *x = &m->vars.data[var];
    x->flags = (uint8_t)(decidable ? x->flags & ~MV_NODECISION : x->flags | MV_NODECISION);
    gsat_set_decision_var(m->s, var + 1, decidable);
}

bool isDecisionVar(SolverPtr S, int var) {
    msat *m = msat_of(S, __func__);
    if (!m || !msat_check_lit(m, __func__, 2 * var)) return false;
    return !(m->vars.data[var].flags & MV_NODECISION);
}

void setDecisionPolarity(SolverPtr S, Var v, bool b) {
    msat *m = msat_of(S, __func__);
    if (!m || !msat_check_lit(m, __func__, 2 * v)) return;
    msat_var *x = &m->vars.data[v];
    x->flags = (uint8_t)(b ? x->flags | MV_POLARITY : x->flags & ~MV_POLARITY);
    gsat_set_phase(m->s, v + 1, b);
}

bool getDecisionPolarity(SolverPtr S, Var v) {
    msat *m = msat_of(S, __func__);
    if (!m || !msat_check_lit(m, __func__, 2 * v)) return false;
    return (m->vars.data[v].flags & MV_POLARITY) != 0;
}

int getDecisionPriority(SolverPtr S, int var) {
    msat *m = msat_of(S, __func__);
    if (m) msat_check_lit(m, __func__, 2 * var);
    return 0;
}

/* ---- clauses ----------------------------------------------------------------------- */

bool addClause(SolverPtr S, int *lits, int n_lits) {
    msat *m = msat_of(S, __func__);
    return m && msat_add_checked_clause(m, __func__, lits, n_lits);
}

bool addUnitClause(SolverPtr S, int lit) {
    msat *m = msat_of(S, "addClause");
    return m && msat_add_checked_clause(m, "addClause", &lit, 1);
}

bool addBinaryClause(SolverPtr S, int lit1, int lit2) {
    int c[2] = {lit1, lit2};
    msat *m = msat_of(S, "addClause");
    return m && msat_add_checked_clause(m, "addClause", c, 2);
}

bool addTertiaryClause(SolverPtr S, int lit1, int lit2, int lit3) {
    int c[3] = {lit1, lit2, lit3};
    msat *m = msat_of(S, "addClause");
    return m && msat_add_checked_clause(m, "addClause", c, 3);
}

void addBinaryClauses(SolverPtr S, int *first_args, int *second_args, int n_pairs) {
    msat *m = msat_of(S, __func__);
    if (!m || !msat_check_lits(m, __func__, first_args, n_pairs) || !msat_check_lits(m, __func__, second_args, n_pairs))
        return;
    for (int i = 0; i < n_pairs; i++) msat_add2(m, first_args[i], second_args[i]);
}
