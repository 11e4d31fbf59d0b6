/* simp_occ.c — occurrence lists of the irredundant clauses during a
 * preprocessing run, and the clause edits every technique shares: remove
 * a clause, drop a literal from one, add one, and apply level-0 units
 * through the occurrence lists (satisfied clauses go, false literals are
 * dropped).  Removing a clause only marks it garbage (the lists are
 * cleaned lazily, occ_live()); dropping a literal updates that literal's
 * list at once, so a list never names a live clause without its literal. */
#include <assert.h>

#include "solver/proof.h"
#include "solver/simp_state.h"

/* Could one of the clause's variables go in this run? */
static int names_removable(const simp_run *r, const clause *cl) {
    for (uint32_t k = 0; k < cl->size; k++) {
        uint32_t v = lvar(cl->lits[k]);
        if (!r->frozen[v] && r->s->decision[v]) return 1;
    }
    return 0;
}

void occ_init(simp_run *r) {
    gsat *s = r->s;
    size_t nl = 2 * ((size_t)s->nvars + 1), n = s->originals.len, live = 0, keep = 0;
    r->occ = xcalloc(nl, sizeof *r->occ);
    r->nocc = xcalloc(nl, sizeof *r->nocc);
    r->listed = xmalloc(n ? n : 1);
    r->nlisted = n;
    for (size_t i = 0; i < n; i++) {
        const clause *cl = CL(s, s->originals.data[i]);
        r->listed[i] = 0;
        if (cl->flags & CL_GARBAGE) continue;
        live++;
        r->listed[i] = (uint8_t)names_removable(r, cl);
        keep += r->listed[i];
        r->steps += cl->size;
    }
    r->partial = 2 * keep < live;
    s->st.simp_partial_runs += r->partial;
    if (!r->partial)
        for (size_t i = 0; i < n; i++) r->listed[i] = !(CL(s, s->originals.data[i])->flags & CL_GARBAGE);
    /* count first: one allocation per list instead of a chain of doublings */
    for (size_t i = 0; i < n; i++) {
        if (!r->listed[i]) continue;
        const clause *cl = CL(s, s->originals.data[i]);
        for (uint32_t k = 0; k < cl->size; k++) r->nocc[cl->lits[k]]++;
    }
    for (size_t l = 0; l < nl; l++)
        if (r->nocc[l]) vec_reserve(r->occ[l], r->nocc[l]);
    for (size_t i = 0; i < n; i++) {
        if (!r->listed[i]) continue;
        cref_t c = s->originals.data[i];
        const clause *cl = CL(s, c);
        for (uint32_t k = 0; k < cl->size; k++) vec_push(r->occ[cl->lits[k]], c);
    }
}

int occ_listed(const simp_run *r, size_t i) { return i >= r->nlisted || r->listed[i]; }

void occ_free(simp_run *r) {
    free(r->listed);
    r->listed = NULL;
    if (!r->occ) return;
    size_t nl = 2 * ((size_t)r->s->nvars + 1);
    for (size_t l = 0; l < nl; l++) vec_free(r->occ[l]);
    free(r->occ);
    free(r->nocc);
    r->occ = NULL;
    r->nocc = NULL;
}

vec_uint *occ_live(simp_run *r, lit_t l) {
    vec_uint *o = &r->occ[l];
    if (o->len == r->nocc[l]) return o;
    size_t j = 0;
    for (size_t i = 0; i < o->len; i++)
        if (!(CL(r->s, o->data[i])->flags & CL_GARBAGE)) o->data[j++] = o->data[i];
    o->len = j;
    r->steps += (int64_t)j;
    assert(j == r->nocc[l]);
    return o;
}

int occ_unit(simp_run *r, lit_t l) {
    gsat *s = r->s;
    if (s->vals[l] > 0) return 1;
    if (s->vals[l] < 0) { s->ok = 0; return 0; }
    enqueue(s, l, CREF_NONE);
    s->st.simp_units++;
    return 1;
}

void occ_remove_clause(simp_run *r, cref_t c) {
    gsat *s = r->s;
    clause *cl = CL(s, c);
    for (uint32_t k = 0; k < cl->size; k++) {
        r->nocc[cl->lits[k]]--;
        elim_touch(r, lvar(cl->lits[k]));
    }
    r->steps += cl->size;
    arena_free_clause(s, c);
    s->st.simp_removed_clauses++;
}

static void occ_unlink(simp_run *r, lit_t l, cref_t c) {
    vec_uint *o = &r->occ[l];
    for (size_t i = 0; i < o->len; i++)
        if (o->data[i] == c) { o->data[i] = o->data[o->len - 1]; o->len--; break; }
    r->steps += (int64_t)o->len;
    r->nocc[l]--;
    elim_touch(r, lvar(l));
}

void occ_strengthen(simp_run *r, cref_t c, lit_t l) {
    gsat *s = r->s;
    clause *cl = CL(s, c);
    if (s->proof_fn) {                /* the shorter clause (a resolvent: RUP), then the longer one goes */
        vec_clear(s->tlits);
        for (uint32_t k = 0; k < cl->size; k++)
            if (cl->lits[k] != l) vec_push(s->tlits, cl->lits[k]);
        proof_add(s, s->tlits.data, (uint32_t)s->tlits.len);
        /* a unit is traced twice: occ_remove_clause below deletes the unit clause c becomes */
        if (s->tlits.len == 1) proof_add(s, s->tlits.data, 1);
        proof_delete(s, cl->lits, cl->size);
    }
    uint32_t j = 0;
    for (uint32_t k = 0; k < cl->size; k++)
        if (cl->lits[k] != l) cl->lits[j++] = cl->lits[k];
    assert(j + 1 == cl->size);
    cl->size = j;
    s->ca.wasted++;
    occ_unlink(r, l, c);
    if (j == 1) {
        lit_t unit = cl->lits[0];
        occ_remove_clause(r, c);
        occ_unit(r, unit);
        return;
    }
    vec_push(r->queue, c);
}

int occ_new_clause(simp_run *r, const lit_t *lits, uint32_t n) {
    gsat *s = r->s;
    if (n == 0) { s->ok = 0; return 0; }
    if (n == 1) return occ_unit(r, lits[0]);
    cref_t c = arena_alloc(s, lits, n, 0);
    vec_push(s->originals, c);
    for (uint32_t k = 0; k < n; k++) {
        vec_push(r->occ[lits[k]], c);
        r->nocc[lits[k]]++;
        elim_touch(r, lvar(lits[k]));
    }
    r->steps += n;
    vec_push(r->queue, c);
    return 1;
}

int occ_propagate(simp_run *r) {
    gsat *s = r->s;
    while (s->ok && r->prop_head < s->trail_n) {
        lit_t l = s->trail[r->prop_head++];
        vec_uint *sat = occ_live(r, l);
        for (size_t i = 0; i < sat->len; i++) occ_remove_clause(r, sat->data[i]);
        sat->len = 0;
        /* a copy: strengthening unlinks from the list */
        vec_uint *fal = occ_live(r, lneg(l));
        vec_clear(r->tmp);
        for (size_t i = 0; i < fal->len; i++) vec_push(r->tmp, fal->data[i]);
        for (size_t i = 0; i < r->tmp.len && s->ok; i++) {
            cref_t c = r->tmp.data[i];
            if (!(CL(s, c)->flags & CL_GARBAGE)) occ_strengthen(r, c, lneg(l));
        }
    }
    return s->ok;
}
