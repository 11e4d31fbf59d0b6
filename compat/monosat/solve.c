/* solve.c — MonoSAT's solve calls, limits, model and conflict-clause
 * functions over gsat (include/monosat.h).
 *
 * A solve first checks that the solver saw no error and that every graph's
 * acyclicity literal holds (graph.c), then runs gsat under the
 * assumptions.  After UNSAT the conflict clause is the negation of the
 * assumptions gsat reports as failed, in the order they were given, and
 * of every assumed acyclicity literal.
 * Cores shrink by deletion: drop one assumption, re-solve, and keep the
 * (smaller) failed set when still UNSAT; acyclicity literals always stay. */
#include <stdlib.h>
#include <string.h>

#include "compat/monosat/msat.h"

enum { MONO_SAT = 0, MONO_UNSAT = 1, MONO_UNKNOWN = 2 };

/* One gsat solve; GSAT_SAT/UNSAT/UNKNOWN.  The solver's state (last
 * answer, conflict clause) is set either way. */
static int run(msat *m, const char *func, const int *assumptions, int n, int limited) {
    m->last = GSAT_UNKNOWN;
    vec_clear(m->conflict);
    if (m->failed) {
        msat_error(m, func, "the solver had an error before, so it gives no answers (%s)", m->first_error);
        return GSAT_UNKNOWN;
    }
    if (!msat_check_lits(m, func, assumptions, n)) return GSAT_UNKNOWN;
    if (!m->ok || gsat_inconsistent(m->s)) {
        /* the clauses alone are unsatisfiable: so is every solve, whatever
         * the acyclicity literals (whose unit clauses an inconsistent gsat
         * no longer takes) and the assumptions; the conflict clause is empty */
        m->ok = false;
        m->last = GSAT_UNSAT;
        return GSAT_UNSAT;
    }
    if (!msat_graphs_ready(m, func, assumptions, n)) return GSAT_UNKNOWN;
    vec_resize(m->assumptions, (size_t)n);
    vec_resize(m->tmp, (size_t)n);
    for (int i = 0; i < n; i++) { m->assumptions.data[i] = assumptions[i]; m->tmp.data[i] = msat_dimacs(assumptions[i]); }
    gsat_set_conflict_limit(m->s, limited ? m->conflict_limit : -1);
    gsat_set_time_limit(m->s, limited && m->time_limit > 0 ? (double)m->time_limit : 0);
    int r = gsat_solve(m->s, m->tmp.data, n);
    if (r == GSAT_ERROR) {                          /* out of memory inside gsat */
        msat_error(m, func, "%s", gsat_error(m->s));
        return GSAT_UNKNOWN;
    }
    m->last = r;
    if (r == GSAT_UNSAT) {
        for (int i = 0; i < n; i++) {
            int a = m->assumptions.data[i], dup = 0;
            /* gsat holds acyclicity as a hard constraint, so it never blames
             * an assumed acyclicity literal: blame it always (a superset of
             * a refutation's assumptions is still one) */
            int blamed = gsat_failed(m->s, msat_dimacs(a)) || (msat_is_acyclic_lit(m, a) && msat_fixed(m, a) <= 0);
            if (!blamed) continue;
            for (size_t k = 0; k < m->conflict.len && !dup; k++) dup = m->conflict.data[k] == (a ^ 1);
            if (!dup) vec_push(m->conflict, a ^ 1);
        }
        if (m->conflict.len == 0) m->ok = false;    /* unsatisfiable without any assumption */
    }
    return r;
}

/* The four solve calls; func names the one the caller made, for errors. */
static bool solve_as(SolverPtr S, const char *func, const int *assumptions, int n) {
    msat *m = msat_of(S, func);
    return m && run(m, func, assumptions, n, 0) == GSAT_SAT;
}

static int mono_result(int r) { return r == GSAT_SAT ? MONO_SAT : r == GSAT_UNSAT ? MONO_UNSAT : MONO_UNKNOWN; }

static int solve_limited_as(SolverPtr S, const char *func, const int *assumptions, int n) {
    msat *m = msat_of(S, func);
    return m ? mono_result(run(m, func, assumptions, n, 1)) : MONO_UNKNOWN;
}

bool solve(SolverPtr S) { return solve_as(S, __func__, NULL, 0); }
bool solveAssumptions(SolverPtr S, int *assumptions, int n_assumptions) { return solve_as(S, __func__, assumptions, n_assumptions); }
int solveLimited(SolverPtr S) { return solve_limited_as(S, __func__, NULL, 0); }
int solveAssumptionsLimited(SolverPtr S, int *assumptions, int n_assumptions) {
    return solve_limited_as(S, __func__, assumptions, n_assumptions);
}

void setTimeLimit(SolverPtr S, int seconds) {
    msat *m = msat_of(S, __func__);
    if (m) m->time_limit = seconds > 0 ? seconds : 0;
}

void setConflictLimit(SolverPtr S, int num_conflicts) {
    msat *m = msat_of(S, __func__);
    if (m) m->conflict_limit = num_conflicts < 0 ? -1 : num_conflicts;
}

void setPropagationLimit(SolverPtr S, int num_propagations) {
    msat *m = msat_of(S, __func__);
    if (m && num_propagations >= 0)
        msat_error(m, __func__, "gsat has no propagation limit (%d asked); use setConflictLimit or setTimeLimit", num_propagations);
}

uint64_t nConflicts(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    if (!m) return 0;
    gsat_stats st;
    gsat_get_stats(m->s, &st);
    return (uint64_t)st.conflicts;
}

uint64_t nPropagations(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    if (!m) return 0;
    gsat_stats st;
    gsat_get_stats(m->s, &st);
    return (uint64_t)st.propagations;
}

bool lastSolutionWasOptimal(SolverPtr S) { return msat_of(S, __func__) != NULL; }
void clearOptimizationObjectives(SolverPtr S) { (void)msat_of(S, __func__); }

int getConflictClause(SolverPtr S, int *store_clause, int max_store_size) {
    msat *m = msat_of(S, __func__);
    if (!m || m->last != GSAT_UNSAT) return -1;
    for (int i = 0; i < max_store_size && (size_t)i < m->conflict.len; i++) store_clause[i] = m->conflict.data[i];
    return (int)m->conflict.len;
}

/* Shrink core[0..*n) (assumptions that are UNSAT together) in place. */
static int shrink_core(msat *m, const char *func, int *core, int n) {
    int *trial = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *trial);
    for (int i = 0; i < n;) {
        if (msat_is_acyclic_lit(m, core[i])) { i++; continue; }
        int k = 0;
        for (int j = 0; j < n; j++) if (j != i) trial[k++] = core[j];
        int r = run(m, func, trial, k, 0);
        if (r == GSAT_UNKNOWN) { free(trial); return -1; }
        if (r == GSAT_SAT) { i++; continue; }
        /* still UNSAT without core[i]: keep only what this refutation used */
        int kept = 0;
        for (int j = 0; j < k; j++) {
            int used = msat_is_acyclic_lit(m, trial[j]);
            for (size_t c = 0; c < m->conflict.len && !used; c++) used = m->conflict.data[c] == (trial[j] ^ 1);
            if (used) core[kept++] = trial[j];
        }
        n = kept;
    }
    free(trial);
    return n;
}

/* Leave the solver as after an UNSAT solve whose conflict clause is the core. */
static void set_conflict(msat *m, const int *core, int n) {
    m->last = GSAT_UNSAT;
    vec_clear(m->conflict);
    for (int i = 0; i < n; i++) vec_push(m->conflict, core[i] ^ 1);
}

int minimizeUnsatCore(SolverPtr S, int *unsat_assumptions, int n_lits) {
    msat *m = msat_of(S, __func__);
    if (!m) return -1;
    if (run(m, __func__, unsat_assumptions, n_lits, 0) != GSAT_UNSAT) return -1;
    int n = 0;
    int *core = xmalloc((size_t)(n_lits > 0 ? n_lits : 1) * sizeof *core);
    for (size_t c = 0; c < m->conflict.len; c++) core[n++] = m->conflict.data[c] ^ 1;
    for (int j = 0; j < n_lits; j++) {           /* acyclicity literals stay in the core */
        int have = 0;
        for (int k = 0; k < n && !have; k++) have = core[k] == unsat_assumptions[j];
        if (!have && msat_is_acyclic_lit(m, unsat_assumptions[j])) core[n++] = unsat_assumptions[j];
    }
    n = shrink_core(m, __func__, core, n);
    if (n >= 0) {
        memcpy(unsat_assumptions, core, (size_t)n * sizeof *core);
        set_conflict(m, core, n);
    }
    free(core);
    return n;
}

void minimizeConflictClause(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    if (!m || m->last != GSAT_UNSAT) return;
    int n = (int)m->conflict.len;
    int *core = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *core);
    for (int i = 0; i < n; i++) core[i] = m->conflict.data[i] ^ 1;
    /* the acyclicity literals of the last solve must be assumed again */
    int *all = xmalloc((size_t)(n + (int)m->assumptions.len + 1) * sizeof *all);
    int k = 0;
    for (int i = 0; i < n; i++) all[k++] = core[i];
    for (size_t i = 0; i < m->assumptions.len; i++)
        if (msat_is_acyclic_lit(m, m->assumptions.data[i])) all[k++] = m->assumptions.data[i];
    k = shrink_core(m, __func__, all, k);
    if (k >= 0) {
        /* the conflict clause speaks of the refutation's own assumptions */
        int kept = 0;
        for (int i = 0; i < k; i++) {
            int in_core = 0;
            for (int j = 0; j < n && !in_core; j++) in_core = core[j] == all[i];
            if (in_core) all[kept++] = all[i];
        }
        set_conflict(m, all, kept);
    }
    free(core);
    free(all);
}

bool hasModel(SolverPtr S) {
    msat *m = msat_of(S, __func__);
    return m && m->last == GSAT_SAT;
}

int getModel_Literal(SolverPtr S, int lit) {
    msat *m = msat_of(S, __func__);
    if (!m || !msat_check_lit(m, __func__, lit) || m->last != GSAT_SAT) return 2;
    int v = gsat_value(m->s, msat_dimacs(lit));
    return v > 0 ? 0 : v < 0 ? 1 : 2;
}

int getConstantModel_Literal(SolverPtr S, int lit) {
    msat *m = msat_of(S, __func__);
    if (!m || !msat_check_lit(m, __func__, lit)) return 2;
    int f = msat_fixed(m, lit);
    return f > 0 ? 0 : f < 0 ? 1 : 2;
}
