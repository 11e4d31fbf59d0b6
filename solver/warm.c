/* warm.c — the kept assignment (option keep_trail): after a SAT answer the
 * trail stays, and clauses added before the next solve join it instead of
 * sending the engine back to level 0, as incremental solvers such as
 * CaDiCaL do.  The next solve then only propagates and decides what is new.
 *
 * A clause added above level 0 (after the level-0 facts were taken out by
 * gsat_add_clause) is made consistent with the trail by taking back only
 * what it needs (a literal and what depends on it, with partial
 * backtracking, solver/unassign.c; else the levels from its own up):
 * - two literals not false, or a true literal whose level is at most that
 *   of every false watched one: stored as it is (lits[0], lits[1] watched);
 * - a true literal above the highest false one: taken back, then the
 *   clause is unit;
 * - one literal not assigned, the others false: implied at once, at the
 *   highest level of the others (out of order, as chronological
 *   backtracking leaves literals; solver/propagate.c);
 * - every literal false: the one on the highest level taken back, and
 *   again.
 * A unit clause is a level-0 fact: assigned at level 0 (out of order) if
 * its literal is unassigned; after taking its negation back if false; and
 * if true above level 0 its variable is marked (late_mark) and the unit is
 * assigned at level 0 by the first propagation after a backtrack or a
 * partial backtrack took its literal back.  The backtracks list the marked
 * variables they take back (warm_taken_back, on the literals they visit
 * anyway), so that a solve pays for the units it restores, not for every
 * unit ever marked (online checking marks one per fixed pair variable, a
 * hundred thousand at 300k transactions, and backtracks thousands of
 * times).
 *
 * Theories learn the new literals from the trail as usual; edges added to
 * a graph above level 0 are the acyclicity theory's concern
 * (theory/acyclic_build.c: acyclic_add_edge; theory/acyclic.c: th_backtrack).  Every model is still
 * checked in debug builds (solver.c verify_model, the theory's final
 * check, theory clauses against the trail). */
#include <assert.h>

#include "solver/solver.h"

/* Rank of a literal for watching: true (lower level first), then
 * unassigned, then false (higher level first). */
static int64_t rank(const gsat *s, lit_t l) {
    int v = s->vals[l], lv = var_level(s, lvar(l));
    if (v > 0) return 3000000000LL - lv;
    if (v == 0) return 1500000000LL;
    return lv;
}

static void best_two_first(gsat *s, lit_t *lits, uint32_t n) {
    for (uint32_t k = 0; k < 2 && k < n; k++) {
        uint32_t best = k;
        int64_t br = rank(s, lits[k]);
        for (uint32_t i = k + 1; i < n; i++) {
            int64_t r = rank(s, lits[i]);
            if (r > br) { br = r; best = i; }
        }
        lit_t t = lits[k]; lits[k] = lits[best]; lits[best] = t;
    }
}

/* Take back the true literal t (above level 0): with partial backtracking
 * only t and what depends on it go (solver/unassign.c), else every level
 * from t's up. */
static void take_back(gsat *s, lit_t t) {
    s->st.warm_backtracks++;
    if (unassign_supported(s)) unassign_dependents(s, t);
    else solver_backtrack(s, (uint32_t)var_level(s, lvar(t)) - 1);
}

static int warm_unit(gsat *s, lit_t l) {
    for (;;) {
        if (s->vals[l] == 0) { enqueue_at(s, l, CREF_NONE, 0); return 1; }
        int lv = var_level(s, lvar(l));
        if (lv == 0) {          /* a unit restored by the backtrack decided it */
            if (s->vals[l] > 0) return 1;
            s->ok = 0;
            return 0;
        }
        if (s->vals[l] > 0) {
            uint32_t v = lvar(l);
            uint8_t want = (uint8_t)(1 + (l & 1));
            if (!s->late_mark) s->late_mark = xcalloc((size_t)s->cap_vars + 1, 1);
            if (s->late_mark[v] == want) return 1;
            /* the opposite unit waits on the restore list: both are clauses */
            if (s->late_mark[v]) { s->ok = 0; return 0; }
            s->late_mark[v] = want;
            s->late_count++;
            s->st.warm_late_units++;
            return 1;
        }
        take_back(s, lneg(l));
    }
}

int warm_add_clause(gsat *s, lit_t *lits, uint32_t n) {
    s->st.warm_clauses++;
    if (n == 1) return warm_unit(s, lits[0]);
    for (;;) {
        best_two_first(s, lits, n);
        int v0 = s->vals[lits[0]], v1 = s->vals[lits[1]];
        int l0 = var_level(s, lvar(lits[0])), l1 = var_level(s, lvar(lits[1]));
        if (v0 > 0 && (v1 >= 0 || l1 >= l0)) break;          /* satisfied, watches sound */
        if (v0 > 0) {                                         /* true above a false one */
            take_back(s, lits[0]);
            continue;
        }
        if (v0 == 0 && v1 == 0) break;                        /* two free watches */
        if (v0 == 0) {                                        /* unit: implied at l1 */
            cref_t r = arena_alloc(s, lits, n, 0);
            vec_push(s->originals, r);                        /* watched at the next flush */
            enqueue_at(s, CL(s, r)->lits[0], r, l1);
            return 1;
        }
        /* every literal false: undo the highest level */
        if (l0 == 0) { s->ok = 0; return 0; }     /* false by restored units */
        take_back(s, lneg(lits[0]));
    }
    cref_t r = arena_alloc(s, lits, n, 0);
    vec_push(s->originals, r);
    return 1;
}

/* Before propagation: a marked unit whose literal a backtrack took back
 * becomes a level-0 fact.  Here rather than in the backtrack itself: the
 * engine assigns literals of its choosing right after a backtrack (a
 * learned clause's), and the unit may be about one of them.  A unit found
 * false is a conflict clause of one literal, kept listed until resolved.
 * The list may name a variable twice (taken back, set, taken back again);
 * the mark tells whether its unit is still pending. */
cref_t warm_restore_units(gsat *s) {
    size_t j = 0;
    cref_t confl = CREF_NONE;
    for (size_t i = 0; i < s->late_units.len; i++) {
        lit_t l = s->late_units.data[i];
        uint32_t v = lvar(l);
        if (s->late_mark[v] != 1 + (l & 1)) continue;      /* restored already */
        if (s->vals[l] == 0) { enqueue_at(s, l, CREF_NONE, 0); s->st.warm_late_restored++; }
        else if (s->vals[l] > 0) {
            if (var_level(s, v) > 0) continue;             /* true again: listed at its next backtrack */
        } else {
            if (confl == CREF_NONE) {
                confl = arena_alloc(s, &l, 1, CL_REASON);   /* unwatched, freed as theory clauses are */
                vec_push(s->treasons, confl);
            }
            s->late_units.data[j++] = l;
            continue;
        }
        s->late_mark[v] = 0;                               /* a level-0 fact now */
        s->late_count--;
    }
    s->late_units.len = j;
    s->late_dirty = j > 0;
    return confl;
}

void warm_solve_start(gsat *s, int n_assumptions) {
    /* assumptions are decided first, on the lowest levels: a kept trail
     * would put them above other decisions */
    if (!s->opt.keep_trail || n_assumptions > 0 || s->simp) solver_backtrack(s, 0);
    else if (decision_level(s) > 0) s->st.warm_starts++;
}
