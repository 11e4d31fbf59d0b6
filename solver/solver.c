/* solver.c — the public API of include/gsat.h (minus the graph theory):
 * creation, variables, clauses, solving under assumptions, the model,
 * failed assumptions, fixed literals, limits, the caller's terminate and
 * learn hooks, options and statistics. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"
#include "solver/solver.h"

gsat *gsat_engine_new(void) {
    gsat *s = xcalloc(1, sizeof *s);
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
    gsat_reserve_vars(s, 0);
    restart_init(s);
    return s;
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
    vec_free(s->learn_buf);
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
 * untouched pages are never made resident (realloc + memset of the spare
 * cost ~75 bytes a spare variable: 1.5x growth left up to a third of the
 * per-variable arrays resident and unused).  A large jump takes fresh zeroed
 * memory, as BIG_GROW_ZERO does (io/bigmem.h). */
#define GROW_SPARE(p, oldn, newn) do { \
        if ((size_t)(newn) > 4 * (size_t)(oldn)) BIG_GROW_ZERO(p, oldn, newn); \
        else (p) = big_realloc((p), (size_t)(newn) * sizeof *(p)); \
    } while (0)

void gsat_reserve_vars(gsat *s, int n) {
    if (n < 0) return;
    if (n > GSAT_MAX_VARS) xalloc_fail((size_t)n * 64);
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
        s->activity[v] = 0;
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

int gsat_new_var(gsat *s) {
    gsat_reserve_vars(s, (int)s->nvars + 1);
    return (int)s->nvars;
}

int gsat_num_vars(const gsat *s) { return (int)s->nvars; }

static int lit_cmp(const void *a, const void *b) {
    lit_t x = *(const lit_t *)a, y = *(const lit_t *)b;
    return x < y ? -1 : x > y;
}

int gsat_add_clause(gsat *s, const int *lits, int n) {
#ifdef GSAT_DEBUG
    for (int i = 0; i < n; i++) vec_push(s->original, lits[i]);
    vec_push(s->original, 0);
#endif
    if (!s->ok) return 0;
    int warm = warm_active(s);                    /* keep the assignment (warm.c) */
    if (!warm) solver_backtrack(s, 0);
    simp_restore_lits(s, lits, n);                /* preprocessing removed some? */
    if (!s->ok) return 0;
    int maxv = 0;
    for (int i = 0; i < n; i++) {
        assert(lits[i] != 0);
        int v = lits[i] < 0 ? -lits[i] : lits[i];
        if (v > maxv) maxv = v;
    }
    gsat_reserve_vars(s, maxv);
    vec_uint *buf = &s->learnt;
    vec_clear(*buf);
    for (int i = 0; i < n; i++)
        if (lits[i] != 0) vec_push(*buf, lit_from_dimacs(lits[i]));
    if (buf->len > 16) qsort(buf->data, buf->len, sizeof *buf->data, lit_cmp);
    else                          /* short clauses (nearly all): no calls per comparison */
        for (size_t i = 1; i < buf->len; i++) {
            lit_t x = buf->data[i];
            size_t k = i;
            for (; k > 0 && buf->data[k - 1] > x; k--) buf->data[k] = buf->data[k - 1];
            buf->data[k] = x;
        }
    size_t j = 0;
    lit_t prev = LIT_UNDEF;
    for (size_t i = 0; i < buf->len; i++) {
        lit_t l = buf->data[i];
        if (l == prev) continue;
        if (prev != LIT_UNDEF && l == lneg(prev)) return 1;   /* tautology */
        int fixed = warm && var_level(s, lvar(l)) > 0 ? 0 : s->vals[l];
        if (fixed > 0) return 1;                               /* satisfied at level 0 */
        prev = l;
        if (fixed < 0) continue;                               /* false at level 0 */
        buf->data[j++] = l;
    }
    buf->len = j;
    if (j == 0) { s->ok = 0; return 0; }
    if (warm) return warm_add_clause(s, buf->data, (uint32_t)j);
    if (j == 1) {
        enqueue(s, buf->data[0], CREF_NONE);
        /* a level-0 fact holds whether or not it was propagated: a loader
         * propagates once at the end instead of once per unit (each would
         * attach the clauses read since the last) */
        if (s->defer_units) return 1;
        if (solver_propagate(s) != CREF_NONE) { s->ok = 0; return 0; }
        return 1;
    }
    cref_t r = arena_alloc(s, buf->data, (uint32_t)j, 0);
    vec_push(s->originals, r);                    /* watched at the next flush */
    return 1;
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
            fprintf(stderr, "gsat: internal error: model falsifies clause");
            for (size_t k = start; k < i; k++) fprintf(stderr, " %d", s->original.data[k]);
            fprintf(stderr, " 0\n");
            abort();
        }
        start = i + 1;
    }
    for (size_t i = 0; i < s->assumptions.len; i++) {
        int d = lit_to_dimacs(s->assumptions.data[i]);
        if (gsat_value(s, d) <= 0) {
            fprintf(stderr, "gsat: internal error: model falsifies assumption %d\n", d);
            abort();
        }
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

int gsat_solve(gsat *s, const int *assumptions, int n) {
    double t0 = gsat_now();
    for (size_t i = 0; i < s->failed.len; i++) s->failed_mark[lit_from_dimacs(s->failed.data[i])] = 0;
    vec_clear(s->failed);
    warm_solve_start(s, n);                       /* level 0, or the kept trail */
    vec_clear(s->assumptions);
    for (int i = 0; i < n; i++) {
        int v = assumptions[i] < 0 ? -assumptions[i] : assumptions[i];
        if (!v) continue;
        gsat_reserve_vars(s, v);
        vec_push(s->assumptions, lit_from_dimacs(assumptions[i]));
    }
    watch_flush(s);
    simp_before_solve(s);                         /* preprocessing */
    s->solve_start = t0;
    s->solve_conflicts0 = s->st.conflicts;
    theory_solve_start(s);
    mode_start(s);
    int status = solver_search(s);
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

int gsat_value(const gsat *s, int lit) {
    if (lit == 0 || !s->model) return 0;
    uint32_t v = (uint32_t)(lit < 0 ? -(int64_t)lit : lit);
    if (v >= s->model_vars) return 0;
    int val = s->model[v];
    return lit < 0 ? -val : val;
}

int gsat_failed(const gsat *s, int lit) {
    if (lit == 0) return 0;
    uint32_t v = (uint32_t)(lit < 0 ? -(int64_t)lit : lit);
    if (v > s->nvars || !s->failed_mark) return 0;
    return s->failed_mark[lit_from_dimacs(lit)];
}

int gsat_fixed(const gsat *s, int lit) {
    if (lit == 0 || lit == INT32_MIN) return 0;
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

int gsat_clauses(const gsat *s, void *state, int (*each)(void *state, const int *lits, int n)) {
    if (!s->ok) return each(state, NULL, 0);
    int rc = 0;
    for (uint32_t i = 0; i < s->trail_n && !rc; i++) {
        if (var_level(s, lvar(s->trail[i])) != 0) continue;
        int u = lit_to_dimacs(s->trail[i]);
        rc = each(state, &u, 1);
    }
    for (uint32_t v = 1; s->late_count && v <= s->nvars && !rc; v++) {   /* keep_trail: units not yet level 0 */
        if (!s->late_mark[v]) continue;
        int u = lit_to_dimacs(mklit(v, s->late_mark[v] - 1u));
        rc = each(state, &u, 1);
    }
    vec_int lits;
    vec_init(lits);
    for (size_t i = 0; i < s->originals.len && !rc; i++) {
        const clause *c = CL(s, s->originals.data[i]);
        if (c->flags & CL_GARBAGE) continue;
        vec_clear(lits);
        for (uint32_t j = 0; j < c->size; j++) vec_push(lits, lit_to_dimacs(c->lits[j]));
        rc = each(state, lits.data, (int)lits.len);
    }
    vec_free(lits);
    return rc;
}

void gsat_set_decision_var(gsat *s, int var, int is_decision) {
    if (var <= 0) return;
    gsat_reserve_vars(s, var);
    if (simp_removed(s, (uint32_t)var)) { simp_set_saved_decision(s, (uint32_t)var, is_decision); return; }
    s->decision[var] = is_decision ? 1 : 0;
    if (is_decision && s->vals[mklit((uint32_t)var, 0)] == 0) heap_insert(s, (uint32_t)var);
}

void gsat_set_phase(gsat *s, int var, int value) {
    if (var <= 0) return;
    gsat_reserve_vars(s, var);
    s->polarity[var] = value ? 0 : 1;
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
