/* probe.c — a short first search of a pure CNF formula as it was given.
 *
 * Preprocessing (equivalent literals, variable elimination, subsumption)
 * rewrites the formula, and with it the order it was written in.  That
 * order carries information: circuit encodings number the inputs first,
 * and a search that branches in index order (every activity starts
 * equal, so the decision heap keeps the index order) with the initial
 * phase decides the inputs and propagates the rest.  On bench/sat.sh's
 * fact-1099503239183 that search finds a model within 148 conflicts
 * (minisat's default run: 11), while the preprocessed formula takes gsat
 * 36,000 (doc/benchmarks.md, "Stop 41: gsat on factoring").
 *
 * So before the first preprocessing of a pure CNF solve (no theory, no
 * assumptions, not keep_trail, no phase set by the caller: gsat_set_phase
 * says which model it prefers, and a probe's model would override it; at
 * most PROBE_MAX_LITS literals: the probe copies the formula), a separate
 * instance with the same options
 * but no preprocessing searches the formula as given (the clauses and the
 * level-0 facts) for up to opt.probe conflicts.  A model it finds becomes
 * the saved phases of this solver, whose search then decides along it
 * without a conflict (every clause the preprocessor keeps or makes is
 * implied by the formula, so the model satisfies it): the answer still
 * comes from this solver's own search, checked as any other, and DRAT
 * proofs are untouched (a proof is only of UNSAT).  Anything else the
 * probe finds (an UNSAT answer, learned clauses, activities) is dropped,
 * so a probe that finds no model leaves the search exactly as it was: its
 * cost is bounded by opt.probe conflicts on the formula's own size.  An
 * allocation failure inside the probe is the probe's (its own guard):
 * it is then skipped. */
#include "solver/solver.h"
#include "solver/theory.h"

#define PROBE_MAX_LITS ((size_t)1 << 24)          /* 64 MB of copied literals at most */

/* The probe's instance: this solver's options, no preprocessing, no probe. */
static gsat *probe_new(const gsat *s) {
    gsat *p = gsat_engine_new();
    if (!p) return NULL;
#define X(name, def, lo, hi, help) gsat_set_option(p, #name, s->opt.name);
    GSAT_OPTIONS(X)
#undef X
    gsat_set_option(p, "preprocess", 0);
    gsat_set_option(p, "probe", 0);
    gsat_set_conflict_limit(p, s->opt.probe);
    return p;
}

void probe_phases(gsat *s) {
    if (s->probed) return;
    s->probed = 1;                                /* the first solve only */
    if (!s->opt.probe || !s->opt.preprocess || s->opt.keep_trail || s->ntheories || s->assumptions.len || !s->ok ||
        !s->originals.len)
        return;
    size_t nlits = 0;
    for (size_t i = 0; i < s->originals.len && nlits <= PROBE_MAX_LITS; i++) nlits += CL(s, s->originals.data[i])->size;
    if (nlits > PROBE_MAX_LITS) return;
    gsat *p = probe_new(s);
    if (!p) return;
    int ok = 1;
    for (uint32_t i = 0; i < s->trail_n && ok; i++) {          /* level 0: the unit clauses and their consequences */
        int u = lit_to_dimacs(s->trail[i]);
        ok = gsat_add_clause(p, &u, 1) >= 0;
    }
    vec_int lits;
    vec_init(lits);
    for (size_t i = 0; i < s->originals.len && ok; i++) {
        const clause *c = CL(s, s->originals.data[i]);
        if (c->flags & CL_GARBAGE) continue;
        vec_clear(lits);
        for (uint32_t k = 0; k < c->size; k++) vec_push(lits, lit_to_dimacs(c->lits[k]));
        ok = gsat_add_clause(p, lits.data, (int)lits.len) >= 0;
    }
    vec_free(lits);
    if (ok && gsat_solve(p, NULL, 0) == GSAT_SAT) {
        for (uint32_t v = 1; v <= s->nvars; v++) {
            int x = gsat_value(p, (int)v);             /* 0: in no clause */
            if (x) s->polarity[v] = (uint8_t)(x < 0);
        }
        s->st.probe_models++;
    }
    gsat_stats st;
    gsat_get_stats(p, &st);
    s->st.probe_conflicts += st.conflicts;
    gsat_free(p);
}
