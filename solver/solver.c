/* solver.c — the public API of include/gsat.h (minus the graph theory):
 * creation, variables, clauses, solving under assumptions, the model,
 * failed assumptions, fixed literals, limits, the caller's terminate and
 * learn hooks, options and statistics. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "io/bigmem.h"
#include "solver/clause_clean.h"
#include "solver/proof.h"
#include "solver/solver.h"

static gsat *engine_init(gsat *s) {
    s->ok = 1;
#define X(name, def, lo, hi, help) s->opt.name = (def);
    GSAT_OPTIONS(X)
#undef X
    s->var_inc = 1.0;
    s->cla_inc = 1.0;
    s->var_decay = (double)s->opt.var_decay_start / 1000.0;
    s->conflict_limit = -1;
    s->time_limit = 0;
    s->reduce_interval = s->opt.reduce_first;
    s->next_reduce = s->reduce_interval;
    s->next_walk = s->opt.walk_interval;
    watch_init(s);
    solver_reserve_vars(s, 0);
    restart_init(s);
    return s;
}

gsat *gsat_engine_new(void) {
    gsat *volatile s = calloc(1, sizeof *s);   /* live across the guard's setjmp */
    if (!s) return NULL;
    GUARDED(s, (gsat_free(guard_.s), (gsat *)NULL), gsat *, engine_init(s));   /* (s itself may be clobbered) */
}

void gsat_free(gsat *s) {
    if (!s) return;
    theory_free_all(s);
    simp_free(s);
    watch_free_all(s);
    free(s->vals); free(s->vinfo); free(s->seen); free(s->polarity); free(s->target); free(s->best); free(s->decision);
    free(s->theory_mask); free(s->activity); free(s->heap_index); free(s->failed_mark);
    free(s->model); vec_free(s->model_dirty); free(s->trail); free(s->trail_pos); free(s->level_stamp);
    vec_free(s->heap); vec_free(s->trail_lim);
    free(s->ca.mem);
    vec_free(s->originals); vec_free(s->learnts); vec_free(s->treasons);
    unassign_forget(s);
    free(s->occ_head); vec_free(s->occ_pool); vec_free(s->tprop_pos); vec_free(s->dep_heap); vec_free(s->dep_gone);
    vec_free(s->learnt); vec_free(s->toclear); vec_free(s->stack);
    vec_free(s->assumptions); vec_free(s->failed); vec_free(s->late_units); free(s->late_mark);
    vec_free(s->tbuf); vec_free(s->tout); vec_free(s->tlits);
    vec_free(s->learn_buf); vec_free(s->proof_buf);
#ifdef GSAT_DEBUG
    vec_free(s->original);
#endif
    restart_free(s);
    for (size_t i = 0; i < s->opt_groups.len; i++) free(s->opt_groups.data[i].values);
    vec_free(s->opt_groups);
    free(s);
}

/* Grow p from oldn to newn entries; the new ones are NOT initialised
 * (gsat_reserve_vars sets each variable's entries as it creates it).  So
 * the spare room of a growth step stays untouched, and a large block's
 * untouched pages are never made resident (a memset of the spare room would
 * make up to a third of the per-variable arrays resident and unused under
 * 1.5x growth).  A large jump takes fresh zeroed
 * memory, as BIG_GROW_ZERO does (io/bigmem.h). */
#define GROW_SPARE(p, oldn, newn) do { \
        if ((size_t)(newn) > 4 * (size_t)(oldn)) BIG_GROW_ZERO(p, oldn, newn); \
        else (p) = big_realloc((p), (size_t)(newn) * sizeof *(p)); \
    } while (0)

void solver_reserve_vars(gsat *s, int n) {
    if (n < 0 || n > GSAT_MAX_VARS) xalloc_fail(SIZE_MAX);   /* the callers checked: a size limit */
    uint32_t want = (uint32_t)n;
    if (want <= s->nvars && s->cap_vars) return;
    if (want + 1 > s->cap_vars || !s->cap_vars) {
        uint32_t old = s->cap_vars ? s->cap_vars + 1 : 0;
        uint32_t cap = s->cap_vars ? s->cap_vars : 16;
        /* exact for a reader's one reserve; else by half again */
        cap = cap + cap / 2 > want + 1 ? cap + cap / 2 : want + 1;
        uint32_t nc = cap + 1;
        /* (old == 0: the zeroed path, so variable 0's entries are 0) */
        GROW_SPARE(s->vals, 2 * old, 2 * nc);
        GROW_SPARE(s->watch_at, 2 * old, 2 * nc);
        if (s->failed_mark) GROW_SPARE(s->failed_mark, 2 * old, 2 * nc);   /* made by a failed assumption */
        GROW_SPARE(s->vinfo, old, nc);
        GROW_SPARE(s->seen, old, nc);
        GROW_SPARE(s->polarity, old, nc);
        if (s->target) GROW_SPARE(s->target, old, nc);   /* made by mode.c's first snapshot */
        if (s->best) GROW_SPARE(s->best, old, nc);
        GROW_SPARE(s->decision, old, nc);
        GROW_SPARE(s->theory_mask, old, nc);
        GROW_SPARE(s->activity, old, nc);
        GROW_SPARE(s->heap_index, old, nc);
        GROW_SPARE(s->trail, old, nc);
        GROW_SPARE(s->trail_pos, old, nc);
        if (s->late_mark) GROW_SPARE(s->late_mark, old, nc);   /* keep_trail only */
        s->cap_vars = cap;
    }
    if (want > s->nvars) vec_reserve(s->heap, s->heap.len + (want - s->nvars));   /* once, not by doubling */
    for (uint32_t v = s->nvars + 1; v <= want; v++) {
        /* every entry as the zeroed arrays had it, then the variable's start */
        for (uint32_t l = 2 * v; l < 2 * v + 2; l++) {
            s->vals[l] = 0;
            s->watch_at[l] = 0;
            if (s->failed_mark) s->failed_mark[l] = 0;
        }
        s->seen[v] = 0;
        s->theory_mask[v] = 0;
        s->activity[v] = s->opt.seed ? solver_seed_activity(s, v) : 0;
        s->trail[v] = 0;                          /* (position v: every position up to nvars is set) */
        s->trail_pos[v] = 0;
        if (s->late_mark) s->late_mark[v] = 0;
        s->vinfo[v].reason = CREF_NONE;
        s->vinfo[v].level = 0;
        s->polarity[v] = s->opt.phase ? 0 : 1;
        if (s->target) s->target[v] = s->polarity[v];
        if (s->best) s->best[v] = s->polarity[v];
        s->decision[v] = 1;
        s->heap_index[v] = -1;
        heap_insert(s, v);
    }
    if (want > s->nvars) s->nvars = want;
}

void gsat_reserve_vars(gsat *s, int n) {
    if (s->in_error) return;
    if (n < 0 || n > GSAT_MAX_VARS) {
        gsat_fail(s, __func__, "%d variables asked, not in 0..GSAT_MAX_VARS (%d)", n, GSAT_MAX_VARS);
        return;
    }
    GUARDED_VOID(s, solver_reserve_vars(s, n));
}

int gsat_new_var(gsat *s) {
    if (s->in_error) return 0;
    if (s->nvars >= GSAT_MAX_VARS) {
        gsat_fail(s, __func__, "already GSAT_MAX_VARS (%d) variables", GSAT_MAX_VARS);
        return 0;
    }
    gsat_reserve_vars(s, (int)s->nvars + 1);
    return s->in_error ? 0 : (int)s->nvars;
}

int gsat_num_vars(const gsat *s) { return (int)s->nvars; }

/* The variable of DIMACS literal d, or 0 if d is no literal the engine
 * takes (0, INT_MIN, or a variable above GSAT_MAX_VARS). */
static inline uint32_t lit_var_checked(int d) {
    uint32_t v = (uint32_t)(d < 0 ? -(int64_t)d : d);
    return v <= GSAT_MAX_VARS ? v : 0;
}

/* The clause or assumptions lits[0..n) of a call: 1 if every literal is
 * one (0 allowed where zero_ok), *maxv their largest variable; else the
 * error state and 0. */
static int check_lits(gsat *s, const char *func, const int *lits, int n, int zero_ok, int *maxv) {
    if (n < 0 || (n > 0 && !lits)) {
        gsat_fail(s, func, "%d literals%s", n, n > 0 ? " at NULL" : "");
        return 0;
    }
    int top = 0;
    for (int i = 0; i < n; i++) {
        uint32_t v = lit_var_checked(lits[i]);
        if (!v && !(zero_ok && lits[i] == 0)) {
            gsat_fail(s, func, "literal %d (position %d) is not a literal: 0 < |literal| <= GSAT_MAX_VARS (%d)",
                      lits[i], i, GSAT_MAX_VARS);
            return 0;
        }
        if ((int)v > top) top = (int)v;
    }
    *maxv = top;
    return 1;
}

static int lit_value_level0(const void *ctx, lit_t l) { return ((const gsat *)ctx)->vals[l]; }
/* warm: the kept trail holds values above level 0, which do not count */
static int lit_value_warm(const void *ctx, lit_t l) {
    const gsat *s = ctx;
    return var_level(s, lvar(l)) > 0 ? 0 : s->vals[l];
}

/* Store the cleaned clause d[0..n) (n != CLAUSE_HOLDS) at level 0: empty,
 * the formula is unsatisfiable; a unit is enqueued (and propagated unless
 * propagate is 0); longer ones go to the originals, watched at the next
 * flush.  Returns 0 if the formula is now known unsatisfiable. */
int solver_store_clause(gsat *s, const lit_t *d, size_t n, int propagate) {
    if (n == 0) { s->ok = 0; return 0; }
    if (n == 1) {
        enqueue(s, d[0], CREF_NONE);
        if (propagate && solver_propagate(s) != CREF_NONE) { s->ok = 0; return 0; }
        return 1;
    }
    vec_push(s->originals, arena_alloc(s, d, (uint32_t)n, 0));
    return 1;
}

static int add_clause(gsat *s, const int *lits, int n, int maxv) {
#ifdef GSAT_DEBUG
    for (int i = 0; i < n; i++) vec_push(s->original, lits[i]);
    vec_push(s->original, 0);
#endif
    if (!s->ok) return 0;
    int warm = warm_active(s);                    /* keep the assignment (warm.c) */
    if (!warm) solver_backtrack(s, 0);
    simp_restore_lits(s, lits, n);                /* preprocessing removed some? */
    if (!s->ok) return 0;
    solver_reserve_vars(s, maxv);
    vec_uint *buf = &s->learnt;
    vec_resize(*buf, (size_t)n);
    for (int i = 0; i < n; i++) buf->data[i] = lit_from_dimacs(lits[i]);
    size_t j = warm ? clause_clean(buf->data, buf->len, lit_value_warm, s)
                    : clause_clean(buf->data, buf->len, lit_value_level0, s);
    if (j == CLAUSE_HOLDS) return 1;
    buf->len = j;
    if (warm && j > 0) return warm_add_clause(s, buf->data, (uint32_t)j);
    /* a level-0 fact holds whether or not it was propagated: a loader
     * propagates once at the end instead of once per unit (each would
     * attach the clauses read since the last) */
    return solver_store_clause(s, buf->data, j, !s->defer_units);
}

int solver_add_clause(gsat *s, const int *lits, int n) {
    int maxv = 0;
    for (int i = 0; i < n; i++) {
        int v = lits[i] < 0 ? -lits[i] : lits[i];
        if (v > maxv) maxv = v;
    }
    return add_clause(s, lits, n, maxv);
}

int gsat_add_clause(gsat *s, const int *lits, int n) {
    if (s->in_error) return -1;
    int maxv;
    if (!check_lits(s, __func__, lits, n, 0, &maxv)) return -1;
    GUARDED(s, -1, int, add_clause(s, lits, n, maxv));
}

#ifdef GSAT_DEBUG
/* Debug builds: every model must satisfy every clause ever added and the
 * assumptions; a wrong model aborts loudly. */
static void verify_model(gsat *s) {
    size_t start = 0;
    for (size_t i = 0; i < s->original.len; i++) {
        if (s->original.data[i] != 0) continue;
        int sat = 0;
        for (size_t k = start; k < i && !sat; k++) sat = gsat_value(s, s->original.data[k]) > 0;
        if (!sat) {
            char shown[256];
            size_t n = 0;
            for (size_t k = start; k < i && n + 16 < sizeof shown; k++)
                n += (size_t)snprintf(shown + n, sizeof shown - n, " %d", s->original.data[k]);
            internal_error("gsat", "model falsifies clause%s%s 0", shown, n + 16 >= sizeof shown ? " ..." : "");
        }
        start = i + 1;
    }
    for (size_t i = 0; i < s->assumptions.len; i++) {
        int d = lit_to_dimacs(s->assumptions.data[i]);
        if (gsat_value(s, d) <= 0) internal_error("gsat", "model falsifies assumption %d", d);
    }
}
#endif

/* The model of a SAT answer.  With keep_trail, when the last model
 * assigned every variable, a variable that no backtrack took back since
 * still has that value (it was assigned then and stayed): only the ones
 * taken back (model_dirty, listed by the backtracks) and the new variables
 * are copied, not all of them at each of thousands of solves. */
static void copy_model(gsat *s) {
    if (s->model_vars < s->nvars + 1) {
        s->model = xrealloc(s->model, (size_t)s->nvars + 1);
        s->model_vars = s->nvars + 1;
    }
    uint32_t from = 1;
    if (s->model_full) {
        for (size_t i = 0; i < s->model_dirty.len; i++) {
            uint32_t v = s->model_dirty.data[i];
            s->model[v] = s->vals[mklit(v, 0)];
        }
        from = s->model_full + 1;
    }
    for (uint32_t v = from; v <= s->nvars; v++) s->model[v] = s->vals[mklit(v, 0)];
    vec_clear(s->model_dirty);
    s->model_full = s->opt.keep_trail && !s->simp && s->trail_n == s->nvars ? s->nvars : 0;
#ifdef GSAT_DEBUG
    for (uint32_t v = 1; v <= s->nvars; v++) assert(s->model[v] == s->vals[mklit(v, 0)]);
#endif
}

static int solve(gsat *s, const int *assumptions, int n) {
    double t0 = gsat_now();
    for (size_t i = 0; i < s->failed.len; i++) s->failed_mark[lit_from_dimacs(s->failed.data[i])] = 0;
    vec_clear(s->failed);
    warm_solve_start(s, n);                       /* level 0, or the kept trail */
    vec_clear(s->assumptions);
    for (int i = 0; i < n; i++) {
        int v = assumptions[i] < 0 ? -assumptions[i] : assumptions[i];
        if (!v) continue;
        solver_reserve_vars(s, v);
        vec_push(s->assumptions, lit_from_dimacs(assumptions[i]));
    }
    watch_flush(s);
    probe_phases(s);                              /* maybe a model of the formula as given */
    simp_before_solve(s);                         /* preprocessing */
    s->solve_start = t0;
    s->solve_conflicts0 = s->st.conflicts;
    theory_solve_start(s);
    mode_start(s);
    int status = solver_search(s);
    if (status == GSAT_UNSAT && !s->ok) proof_empty(s);   /* the formula itself, not the assumptions */
    if (status == GSAT_SAT) {
        copy_model(s);
        simp_extend_model(s);                     /* values of removed variables */
#ifdef GSAT_DEBUG
        verify_model(s);
#endif
    }
    /* A kept trail stays after SAT; after UNSAT it goes back to level 0,
     * unless the formula itself is unsatisfiable (s->ok = 0, no
     * assumptions involved): every later solve answers UNSAT at once
     * (solver_search) and no clause is taken any more, so taking back
     * everything assigned so far (with its edges) would be wasted work at
     * the very moment a caller waits for the answer: 0.3 s of online
     * checking's detection latency at 1M transactions. */
    if (status == GSAT_SAT ? !s->opt.keep_trail : s->ok || !s->opt.keep_trail) solver_backtrack(s, 0);
    s->st.seconds += gsat_now() - t0;
    return status;
}

int gsat_solve(gsat *s, const int *assumptions, int n) {
    if (s->in_error) return GSAT_ERROR;
    int maxv;
    if (!check_lits(s, __func__, assumptions, n, 1, &maxv)) return GSAT_ERROR;
    GUARDED(s, GSAT_ERROR, int, solve(s, assumptions, n));
}

int gsat_value(const gsat *s, int lit) {
    if (lit == 0 || !s->model || s->in_error) return 0;
    uint32_t v = (uint32_t)(lit < 0 ? -(int64_t)lit : lit);
    if (v >= s->model_vars) return 0;
    int val = s->model[v];
    return lit < 0 ? -val : val;
}

int gsat_failed(const gsat *s, int lit) {
    if (lit == 0 || s->in_error) return 0;
    uint32_t v = (uint32_t)(lit < 0 ? -(int64_t)lit : lit);
    if (v > s->nvars || !s->failed_mark) return 0;
    return s->failed_mark[lit_from_dimacs(lit)];
}

int gsat_fixed(const gsat *s, int lit) {
    if (lit == 0 || lit == INT32_MIN || s->in_error) return 0;
    uint32_t v = (uint32_t)(lit < 0 ? -lit : lit);
    if (v > s->nvars) return 0;
    lit_t l = lit_from_dimacs(lit);
    if (!s->vals[l] || var_level(s, v) != 0) return 0;
    return s->vals[l];
}

void gsat_set_terminate(gsat *s, void *state, int (*terminate)(void *state)) {
    s->terminate = terminate;
    s->terminate_state = state;
}

void gsat_set_learn(gsat *s, void *state, int max_length, void (*learn)(void *state, const int *lits, int n)) {
    s->learn = learn;
    s->learn_state = state;
    s->learn_max = max_length < 0 ? 0 : max_length;
}

void gsat_set_conflict_limit(gsat *s, int64_t conflicts) { s->conflict_limit = conflicts < 0 ? -1 : conflicts; }
void gsat_set_time_limit(gsat *s, double seconds) { s->time_limit = seconds > 0 ? seconds : 0; }

int gsat_set_option(gsat *s, const char *name, int64_t value) {
    if (!name) return 0;
#define X(oname, def, lo, hi, help)                                   \
    if (strcmp(name, #oname) == 0) {                                  \
        if (value < (lo) || value > (hi)) return 0;                   \
        s->opt.oname = value;                                         \
        if (strcmp(#oname, "var_decay_start") == 0) s->var_decay = (double)value / 1000.0; \
        if (strcmp(#oname, "walk_interval") == 0) s->next_walk = value;  \
        if (strcmp(#oname, "lbd_window") == 0 || strcmp(#oname, "block_window") == 0) restart_init(s); \
        return 1;                                                     \
    }
    GSAT_OPTIONS(X)
#undef X
    for (size_t g = 0; g < s->opt_groups.len; g++) {
        const option_group *og = &s->opt_groups.data[g];
        for (int i = 0; i < og->n; i++) {
            if (strcmp(name, og->table[i].name) != 0) continue;
            if (value < og->table[i].lo || value > og->table[i].hi) return 0;
            og->values[i] = value;
            return 1;
        }
    }
    return 0;
}

static const gsat_option engine_options[] = {
#define X(name, def, lo, hi, help) {#name, def, lo, hi, help},
    GSAT_OPTIONS(X)
#undef X
};
enum { NUM_ENGINE_OPTIONS = (int)(sizeof engine_options / sizeof engine_options[0]) };

int gsat_option_at(const gsat *s, int i, gsat_option *out) {
    if (i < 0) return 0;
    if (i < NUM_ENGINE_OPTIONS) { *out = engine_options[i]; return 1; }
    i -= NUM_ENGINE_OPTIONS;
    for (size_t g = 0; g < s->opt_groups.len; g++) {
        if (i < s->opt_groups.data[g].n) { *out = s->opt_groups.data[g].table[i]; return 1; }
        i -= s->opt_groups.data[g].n;
    }
    return 0;
}

const int64_t *gsat_add_options(gsat *s, const gsat_option *table, int n) {
    for (size_t g = 0; g < s->opt_groups.len; g++)
        if (s->opt_groups.data[g].table == table) return s->opt_groups.data[g].values;
    gsat_option o;
    for (int i = 0; i < n; i++) {
        for (int k = 0; gsat_option_at(s, k, &o); k++)
            if (strcmp(o.name, table[i].name) == 0) return NULL;
        for (int k = 0; k < i; k++)
            if (strcmp(table[k].name, table[i].name) == 0) return NULL;
    }
    option_group og = {table, n, xmalloc((n > 0 ? (size_t)n : 1) * sizeof(int64_t))};
    for (int i = 0; i < n; i++) og.values[i] = table[i].def;
    vec_push(s->opt_groups, og);
    return og.values;
}

int gsat_inconsistent(const gsat *s) { return !s->ok; }

/* The caller's callback, with no guard (solver/guard.h). */
static int call_each(int (*each)(void *state, const int *lits, int n), void *state, const int *lits, int n) {
    guard_pause p = guard_suspend();
    int rc = each(state, lits, n);
    guard_resume(p);
    return rc;
}

static int clauses(const gsat *s, void *state, int (*each)(void *state, const int *lits, int n)) {
    if (!s->ok) return call_each(each, state, NULL, 0);
    int rc = 0;
    for (uint32_t i = 0; i < s->trail_n && !rc; i++) {
        if (var_level(s, lvar(s->trail[i])) != 0) continue;
        int u = lit_to_dimacs(s->trail[i]);
        rc = call_each(each, state, &u, 1);
    }
    for (uint32_t v = 1; s->late_count && v <= s->nvars && !rc; v++) {   /* keep_trail: units not yet level 0 */
        if (!s->late_mark[v]) continue;
        int u = lit_to_dimacs(mklit(v, s->late_mark[v] - 1u));
        rc = call_each(each, state, &u, 1);
    }
    vec_int lits;
    vec_init(lits);
    for (size_t i = 0; i < s->originals.len && !rc; i++) {
        const clause *c = CL(s, s->originals.data[i]);
        if (c->flags & CL_GARBAGE) continue;
        vec_clear(lits);
        for (uint32_t j = 0; j < c->size; j++) vec_push(lits, lit_to_dimacs(c->lits[j]));
        rc = call_each(each, state, lits.data, (int)lits.len);
    }
    vec_free(lits);
    return rc;
}

int gsat_clauses(const gsat *s, void *state, int (*each)(void *state, const int *lits, int n)) {
    if (s->in_error) return -1;
    GUARDED((gsat *)s, -1, int, clauses(s, state, each));
}

/* A variable argument of a hint: 1 if var is one (reserved), else the
 * error state (var <= 0 is no variable: ignored, as always). */
static int hint_var(gsat *s, const char *func, int var) {
    if (s->in_error || var <= 0) return 0;
    if (var > GSAT_MAX_VARS) {
        gsat_fail(s, func, "variable %d is above GSAT_MAX_VARS (%d)", var, GSAT_MAX_VARS);
        return 0;
    }
    gsat_reserve_vars(s, var);
    return !s->in_error;
}

static void set_decision_var(gsat *s, int var, int is_decision) {
    if (simp_removed(s, (uint32_t)var)) { simp_set_saved_decision(s, (uint32_t)var, is_decision); return; }
    s->decision[var] = is_decision ? 1 : 0;
    if (!is_decision) s->has_nondecision = 1;     /* unassign.c: decided after partial backtracks */
    if (is_decision && s->vals[mklit((uint32_t)var, 0)] == 0) heap_insert(s, (uint32_t)var);
}

void gsat_set_decision_var(gsat *s, int var, int is_decision) {
    if (!hint_var(s, __func__, var)) return;
    GUARDED_VOID(s, set_decision_var(s, var, is_decision));
}

void gsat_set_phase(gsat *s, int var, int value) {
    if (!hint_var(s, __func__, var)) return;
    s->polarity[var] = value ? 0 : 1;
    s->probed = 1;                                /* the caller's phases: no probe replaces them */
}

void gsat_get_stats(const gsat *s, gsat_stats *out) {
    memset(out, 0, sizeof *out);
    out->conflicts = s->st.conflicts;
    out->decisions = s->st.decisions;
    out->propagations = s->st.propagations;
    out->restarts = s->st.restarts;
    out->learned = s->st.learned;
    out->reduced = s->st.reduced;
    out->theory_conflicts = s->st.theory_conflicts;
    out->theory_propagations = s->st.theory_propagations;
    out->theory_explanation_lits = s->st.theory_explanation_lits;
    out->seconds = s->st.seconds;
}
