/* simp_subsume.c — backward subsumption and self-subsuming strengthening.
 *
 * For a clause C from the queue, every clause D that could be subsumed or
 * strengthened by C contains C's literal l or its negation, so only the
 * occurrence lists of l and -l are scanned (l: the literal of C with the
 * fewest occurrences).  D is subsumed when C is a subset of D (D goes); D
 * is strengthened when C is a subset of D but for one literal that D holds
 * negated (resolving C and D gives D without it, which replaces D).
 * Strengthened clauses are queued again; units found are applied to the
 * clauses after each C. */
#include "solver/simp_state.h"

void subsume_queue_all(simp_run *r) {
    gsat *s = r->s;
    for (size_t i = 0; i < s->originals.len; i++)
        if (occ_listed(r, i) && !(CL(s, s->originals.data[i])->flags & CL_GARBAGE)) vec_push(r->queue, s->originals.data[i]);
}

static void subsume_with(simp_run *r, cref_t c) {
    gsat *s = r->s;
    clause *cl = CL(s, c);
    uint32_t n = cl->size;
    if (n > (uint32_t)s->opt.subsume_limit) return;
    lit_t best = cl->lits[0];
    uint32_t best_n = UINT32_MAX;
    uint32_t stamp = simp_next_stamp(r);
    for (uint32_t k = 0; k < n; k++) {
        lit_t l = cl->lits[k];
        r->mark[l] = stamp;
        uint32_t cnt = r->nocc[l] + r->nocc[lneg(l)];
        if (cnt < best_n) { best_n = cnt; best = l; }
    }
    if (best_n <= 1) return;               /* only C itself */
    vec_clear(r->cand);
    for (int side = 0; side < 2; side++) {
        vec_uint *o = occ_live(r, side ? lneg(best) : best);
        for (size_t i = 0; i < o->len; i++) vec_push(r->cand, o->data[i]);
    }
    r->steps += (int64_t)r->cand.len;
    for (size_t i = 0; i < r->cand.len && s->ok; i++) {
        cref_t d = r->cand.data[i];
        if (d == c) continue;
        clause *dl = CL(s, d);
        if ((dl->flags & CL_GARBAGE) || dl->size < n) continue;
        uint32_t same = 0, negated = 0;
        lit_t flip = LIT_UNDEF;
        for (uint32_t k = 0; k < dl->size && negated <= 1; k++) {
            lit_t l = dl->lits[k];
            if (r->mark[l] == stamp) same++;
            else if (r->mark[lneg(l)] == stamp) { negated++; flip = l; }
        }
        r->steps += dl->size;
        if (negated == 0 && same == n) {
            occ_remove_clause(r, d);
            s->st.simp_subsumed++;
        } else if (negated == 1 && same + 1 == n) {
            occ_strengthen(r, d, flip);
            s->st.simp_strengthened++;
        }
    }
}

int subsume_run(simp_run *r) {
    gsat *s = r->s;
    if (!s->opt.subsume) vec_clear(r->queue);
    while (r->queue.len && s->ok) {
        if (simp_out_of_budget(r)) { vec_clear(r->queue); break; }
        cref_t c = vec_pop(r->queue);
        if (CL(s, c)->flags & CL_GARBAGE) continue;
        subsume_with(r, c);
        if (s->ok) occ_propagate(r);
    }
    return s->ok;
}
