/* simp_elim.c — bounded variable elimination by clause distribution
 * (Davis–Putnam resolution, as in SatELite).
 *
 * Candidates are taken cheapest first (fewest pos x neg occurrence pairs,
 * a heap updated as occurrences change).  Variable x with clauses P (x)
 * and N (-x) is eliminated when the non-tautological resolvents of P x N
 * number at most |P| + |N| + elim_bound and none is longer than
 * elim_clause_limit: the resolvents replace P and N, which go on the
 * extension stack with witness x / -x (model reconstruction sets x so that
 * they hold, which the resolvents make possible).  A variable occurring in
 * one polarity only is eliminated with no resolvents (pure literal).
 * Skipped: frozen variables, assigned ones, non-decision variables and
 * variables sharing a clause with one (simp.h), more than elim_occ_limit
 * occurrences.  Resolvents are queued for subsumption, which runs after
 * each elimination. */
#include "solver/idx_heap.h"
#include "solver/proof.h"
#include "solver/simp_state.h"

static inline uint64_t elim_cost(const simp_run *r, uint32_t v) {
    return (uint64_t)r->nocc[mklit(v, 0)] * (uint64_t)r->nocc[mklit(v, 1)];
}

static int elim_candidate(const simp_run *r, uint32_t v) {
    const gsat *s = r->s;
    return !r->frozen[v] && r->p->removed[v] == SIMP_ACTIVE && s->vals[mklit(v, 0)] == 0 && s->decision[v];
}

/* ---- the candidate heap (min-heap on elim_cost) ------------------------ */
static int elim_less(const void *ctx, uint32_t a, uint32_t b) { return elim_cost(ctx, a) < elim_cost(ctx, b); }

static void heap_up(simp_run *r, uint32_t pos) { idx_heap_up(r->heap.data, r->heap_pos, pos, elim_less, r); }

static void heap_down(simp_run *r, uint32_t pos) {
    idx_heap_down(r->heap.data, (uint32_t)r->heap.len, r->heap_pos, pos, elim_less, r);
}

static void heap_add(simp_run *r, uint32_t v) {
    vec_push(r->heap, v);
    heap_up(r, (uint32_t)r->heap.len - 1);
}

static uint32_t heap_take(simp_run *r) {
    uint32_t n = (uint32_t)r->heap.len;
    uint32_t top = idx_heap_pop(r->heap.data, &n, r->heap_pos, elim_less, r);
    r->heap.len = n;
    return top;
}

static void elim_heap_build(simp_run *r) {
    uint32_t n = r->s->nvars;
    r->heap_pos = xmalloc(((size_t)n + 1) * sizeof *r->heap_pos);
    for (uint32_t v = 0; v <= n; v++) r->heap_pos[v] = -1;
    for (uint32_t v = 1; v <= n; v++)
        if (elim_candidate(r, v)) heap_add(r, v);
    r->heap_on = 1;
}

void elim_heap_free(simp_run *r) {
    vec_free(r->heap);
    free(r->heap_pos);
    r->heap_pos = NULL;
    r->heap_on = 0;
}

void elim_touch(simp_run *r, uint32_t v) {
    if (!r->heap_on) return;
    int32_t pos = r->heap_pos[v];
    if (pos >= 0) {
        heap_up(r, (uint32_t)pos);
        heap_down(r, (uint32_t)r->heap_pos[v]);
    } else if (elim_candidate(r, v)) {
        heap_add(r, v);
    }
}

/* ---- one variable ------------------------------------------------------- */

/* Resolvents of P and N into r->res (size, lits... each); 0 if over the
 * bounds. */
static int gather_resolvents(simp_run *r, uint32_t v, const vec_uint *pos, const vec_uint *neg) {
    gsat *s = r->s;
    lit_t pl = mklit(v, 0), nl = mklit(v, 1);
    size_t bound = pos->len + neg->len + (size_t)s->opt.elim_bound;
    uint32_t limit = (uint32_t)s->opt.elim_clause_limit;
    size_t count = 0;
    vec_clear(r->res);
    for (size_t i = 0; i < pos->len; i++) {
        const clause *c = CL(s, pos->data[i]);
        uint32_t stamp = simp_next_stamp(r);
        for (uint32_t k = 0; k < c->size; k++) r->mark[c->lits[k]] = stamp;
        for (size_t j = 0; j < neg->len; j++) {
            const clause *d = CL(s, neg->data[j]);
            r->steps += c->size + d->size;
            size_t start = r->res.len;
            vec_push(r->res, 0);
            uint32_t size = 0;
            for (uint32_t k = 0; k < c->size; k++)
                if (c->lits[k] != pl) { vec_push(r->res, c->lits[k]); size++; }
            int taut = 0;
            for (uint32_t k = 0; k < d->size && !taut; k++) {
                lit_t l = d->lits[k];
                if (l == nl || r->mark[l] == stamp) continue;
                if (r->mark[lneg(l)] == stamp) taut = 1;
                else { vec_push(r->res, l); size++; }
            }
            if (taut) { r->res.len = start; continue; }
            if (size > limit || ++count > bound) return 0;
            r->res.data[start] = size;
        }
    }
    return 1;
}

/* Every clause of v free of non-decision variables? */
static int decision_neighbourhood(simp_run *r, const vec_uint *cls) {
    gsat *s = r->s;
    for (size_t i = 0; i < cls->len; i++) {
        const clause *c = CL(s, cls->data[i]);
        for (uint32_t k = 0; k < c->size; k++)
            if (!s->decision[lvar(c->lits[k])]) return 0;
        r->steps += c->size;
    }
    return 1;
}

static int elim_try(simp_run *r, uint32_t v) {
    gsat *s = r->s;
    simp *p = r->p;
    lit_t pl = mklit(v, 0), nl = mklit(v, 1);
    vec_uint *pos = occ_live(r, pl), *neg = occ_live(r, nl);
    if (pos->len + neg->len > (size_t)s->opt.elim_occ_limit) return 0;
    if (r->any_nondecision && (!decision_neighbourhood(r, pos) || !decision_neighbourhood(r, neg))) return 0;
    if (pos->len && neg->len && !gather_resolvents(r, v, pos, neg)) return 0;

    p->ext_begin[v] = p->ext.len;
    for (int side = 0; side < 2; side++) {
        const vec_uint *cls = side ? neg : pos;
        for (size_t i = 0; i < cls->len; i++) {
            const clause *c = CL(s, cls->data[i]);
            simp_ext_push(p, c->lits, c->size, side ? nl : pl);
        }
    }
    p->ext_end[v] = p->ext.len;
    if (s->proof_fn)                              /* the resolvents (RUP) before their antecedents go */
        for (size_t i = 0; i < r->res.len; i += 1 + r->res.data[i]) proof_add(s, r->res.data + i + 1, r->res.data[i]);
    simp_mark_removed(r, v, SIMP_ELIMINATED);     /* first: keeps v out of the heap */
    for (int side = 0; side < 2; side++) {
        vec_uint *cls = side ? neg : pos;
        for (size_t i = 0; i < cls->len; i++) occ_remove_clause(r, cls->data[i]);
        cls->len = 0;
    }
    for (size_t i = 0; i < r->res.len && s->ok;) {
        uint32_t n = r->res.data[i];
        if (!occ_new_clause(r, r->res.data + i + 1, n)) break;
        s->st.simp_resolvents++;
        i += 1 + n;
    }
    vec_clear(r->res);
    return 1;
}

int elim_run(simp_run *r) {
    gsat *s = r->s;
    if (!r->heap_on) elim_heap_build(r);
    while (r->heap.len && s->ok && !simp_out_of_budget(r)) {
        uint32_t v = heap_take(r);
        if (!elim_candidate(r, v)) continue;
        if (elim_try(r, v) && s->ok) {
            occ_propagate(r);
            subsume_run(r);
        }
    }
    return s->ok;
}
