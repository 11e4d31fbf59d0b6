/* simp_extend.c — the extension stack: records of the clauses removed
 * with a variable, model reconstruction from them, and re-introduction of
 * removed variables.
 *
 * Reconstruction replays the live records newest first: a record whose
 * clause is false under the model so far sets its witness literal true.
 * Removed variables start false.  Eliminated variables only occur in
 * records pushed before their own, so each is fixed before an older
 * record reads it.
 *
 * Re-introduction of x: its records die and their clauses come back as
 * irredundant clauses; a clause naming another removed variable brings
 * that one back too (only variables removed after x can occur there). */
#include <assert.h>
#include <stdlib.h>

#include "solver/clause_clean.h"
#include "solver/simp_state.h"

void simp_ext_push(simp *p, const lit_t *lits, uint32_t n, lit_t witness) {
    for (uint32_t k = 0; k < n; k++) vec_push(p->ext, lit_to_dimacs(lits[k]));
    vec_push(p->ext, (int)n);
    vec_push(p->ext, lit_to_dimacs(witness));
}

static inline int model_true(const int8_t *m, int d) {
    return d > 0 ? m[d] > 0 : m[-d] < 0;
}

void simp_extend_model(gsat *s) {
    simp *p = s->simp;
    if (!p) return;
    int8_t *m = s->model;
    uint32_t n = s->nvars < p->cap ? s->nvars : p->cap;
    for (uint32_t v = 1; v <= n; v++)
        if (p->removed[v]) m[v] = -1;
    const int *e = p->ext.data;
    for (size_t i = p->ext.len; i > 0;) {
        int witness = e[i - 1];
        size_t size = (size_t)e[i - 2], start = i - 2 - size;
        if (witness) {
            assert(p->removed[abs(witness)]);    /* only removed variables are set here */
            int sat = 0;
            for (size_t k = start; k < start + size && !sat; k++) sat = model_true(m, e[k]);
            if (!sat) m[abs(witness)] = (int8_t)(witness > 0 ? 1 : -1);
        }
        i = start;
    }
}

static int level0_value(const void *ctx, lit_t l) { return ((const gsat *)ctx)->vals[l]; }

/* Add a clause implied by the formula at level 0 (as gsat_add_clause
 * does, without the debug record of the caller's clauses). */
static void add_restored_clause(gsat *s, vec_uint *lits) {
    if (!s->ok) return;
    size_t j = clause_clean(lits->data, lits->len, level0_value, s);
    if (j == CLAUSE_HOLDS) return;
    lits->len = j;
    solver_store_clause(s, lits->data, j, 1);
}

void simp_restore_var(gsat *s, uint32_t v) {
    simp *p = s->simp;
    if (!p || v == 0 || v > p->cap || p->removed[v] == SIMP_ACTIVE) return;
    assert(decision_level(s) == 0);
    vec_uint work, clauses, lits;
    vec_init(work); vec_init(clauses); vec_init(lits);
    vec_push(work, v);
    /* bring back the variables first, collecting their clauses (DIMACS,
     * 0-terminated, in clauses) */
    while (work.len) {
        uint32_t x = vec_pop(work);
        if (p->removed[x] == SIMP_ACTIVE) continue;
        p->removed[x] = SIMP_ACTIVE;
        s->decision[x] = p->saved_decision[x];
        if (s->decision[x] && s->vals[mklit(x, 0)] == 0) heap_insert(s, x);
        s->st.simp_restored++;
        int *e = p->ext.data;
        /* records end with n and the witness: walk them backwards */
        for (size_t i = p->ext_end[x]; i > p->ext_begin[x];) {
            int witness = e[i - 1];
            size_t size = (size_t)e[i - 2], start = i - 2 - size;
            if (witness) {
                e[i - 1] = 0;
                p->ext_dead += size + 2;
                for (size_t k = start; k < start + size; k++) {
                    uint32_t u = (uint32_t)abs(e[k]);
                    vec_push(clauses, (unsigned)e[k]);
                    if (p->removed[u] != SIMP_ACTIVE) vec_push(work, u);
                }
                vec_push(clauses, 0u);
            }
            i = start;
        }
        p->ext_begin[x] = p->ext_end[x] = 0;
    }
    size_t start = 0;
    for (size_t i = 0; i < clauses.len; i++) {
        if (clauses.data[i] != 0) continue;
        vec_clear(lits);
        for (size_t k = start; k < i; k++) vec_push(lits, lit_from_dimacs((int)clauses.data[k]));
        add_restored_clause(s, &lits);
        start = i + 1;
    }
    vec_free(work); vec_free(clauses); vec_free(lits);
}

void simp_restore_lits(gsat *s, const int *lits, int n) {
    simp *p = s->simp;
    if (!p) return;
    for (int i = 0; i < n; i++) {
        int d = lits[i];
        uint32_t v = (uint32_t)(d < 0 ? -(int64_t)d : d);
        if (v && v <= p->cap && p->removed[v]) simp_restore_var(s, v);
    }
}
