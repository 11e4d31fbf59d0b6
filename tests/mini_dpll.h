/* mini_dpll.h — a deliberately simple DPLL (unit propagation by full scans,
 * chronological backtracking) used by tests as an oracle independent of
 * the engine.  For formulas of at most a few hundred variables. */
#ifndef TESTS_MINI_DPLL_H
#define TESTS_MINI_DPLL_H

#include <stdlib.h>
#include <string.h>

typedef struct mini_cnf {
    int num_vars;
    const int *lits;          /* clauses back to back, each ended by 0 */
    size_t num_lits;
} mini_cnf;

/* val[v]: 1 true, -1 false, 0 unassigned */
static int mini_lit_val(const signed char *val, int lit) {
    int v = val[lit < 0 ? -lit : lit];
    return lit < 0 ? -v : v;
}

/* Propagate to a fixpoint; returns 0 on conflict.  Assigned vars pushed on trail. */
static int mini_propagate(const mini_cnf *f, signed char *val, int *trail, int *tlen) {
    for (int changed = 1; changed;) {
        changed = 0;
        size_t i = 0;
        while (i < f->num_lits) {
            int unassigned = 0, last = 0, sat = 0;
            size_t j = i;
            for (; f->lits[j]; j++) {
                int lv = mini_lit_val(val, f->lits[j]);
                if (lv > 0) sat = 1;
                else if (lv == 0) { unassigned++; last = f->lits[j]; }
            }
            if (!sat) {
                if (!unassigned) return 0;
                if (unassigned == 1) {
                    int v = last < 0 ? -last : last;
                    val[v] = last < 0 ? -1 : 1;
                    trail[(*tlen)++] = v;
                    changed = 1;
                }
            }
            i = j + 1;
        }
    }
    return 1;
}

static int mini_search(const mini_cnf *f, signed char *val, int *trail, int *tlen) {
    int mark = *tlen;
    if (!mini_propagate(f, val, trail, tlen)) goto undo;
    /* branch on a literal of the shortest unsatisfied clause (made true first) */
    int v = 0, first = 1, best = 1 << 30;
    for (size_t i = 0; i < f->num_lits;) {
        int sat = 0, unassigned = 0, some = 0;
        size_t j = i;
        for (; f->lits[j]; j++) {
            int lv = mini_lit_val(val, f->lits[j]);
            if (lv > 0) sat = 1;
            else if (!lv) { unassigned++; some = f->lits[j]; }
        }
        if (!sat && unassigned && unassigned < best) { best = unassigned; v = some < 0 ? -some : some; first = some < 0 ? -1 : 1; }
        i = j + 1;
    }
    if (!v) {                   /* every clause satisfied: the rest is free */
        for (int i = 1; i <= f->num_vars; i++) if (!val[i]) { val[i] = -1; trail[(*tlen)++] = i; }
        return 1;
    }
    for (int k = 0; k < 2; k++) {
        int phase = k ? -first : first;
        int m2 = *tlen;
        val[v] = (signed char)phase; trail[(*tlen)++] = v;
        if (mini_search(f, val, trail, tlen)) return 1;
        while (*tlen > m2) val[trail[--*tlen]] = 0;
    }
undo:
    while (*tlen > mark) val[trail[--*tlen]] = 0;
    return 0;
}

/* Returns 1 (SAT, model in val[1..num_vars]) or 0 (UNSAT).  val has
 * num_vars + 1 entries. */
static int mini_solve(const mini_cnf *f, signed char *val) {
    memset(val, 0, (size_t)f->num_vars + 1);
    int *trail = malloc(((size_t)f->num_vars + 1) * sizeof *trail);
    int tlen = 0;
    int r = mini_search(f, val, trail, &tlen);
    free(trail);
    return r;
}

#endif
