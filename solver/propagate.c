/* propagate.c — the trail: Boolean constraint propagation over the watch
 * lists, opening decision levels and backtracking.
 *
 * propagate_bcp() runs to a fixpoint or the first falsified clause.  Per
 * watcher: a true blocker skips the clause; binary clauses imply or
 * conflict without touching the arena; longer clauses keep the false
 * literal in lits[1] and look for a replacement watch from lits[2]. */
#include <assert.h>

#include "solver/solver.h"

cref_t propagate_bcp(gsat *s) {
    cref_t confl = CREF_NONE;
    int8_t *vals = s->vals;
    uint32_t props = 0;
    while (s->qhead < s->trail_n) {
        lit_t p = s->trail[s->qhead++];
        lit_t false_lit = lneg(p);
        watch_list *ws = &s->watches[false_lit];
        watcher *i = ws->data, *j = ws->data, *end = ws->data + ws->len;
        props++;
        while (i != end) {
            watcher w = *i++;
            int bv = vals[w.blocker];
            if (bv > 0) { *j++ = w; continue; }
            if (w.cref & WATCH_BIN) {
                *j++ = w;
                if (bv == 0) { enqueue(s, w.blocker, w.cref & ~WATCH_BIN); continue; }
                confl = w.cref & ~WATCH_BIN;
                s->qhead = s->trail_n;
                while (i != end) *j++ = *i++;
                break;
            }
            clause *c = CL(s, w.cref);
            lit_t *lits = c->lits;
            if (lits[0] == false_lit) { lits[0] = lits[1]; lits[1] = false_lit; }
            lit_t first = lits[0];
            w.blocker = first;
            if (vals[first] > 0) { *j++ = w; continue; }
            uint32_t n = c->size;
            for (uint32_t k = 2; k < n; k++) {
                if (vals[lits[k]] >= 0) {
                    lits[1] = lits[k];
                    lits[k] = false_lit;
                    watch_push(&s->watches[lits[1]], first, w.cref);
                    goto next_watcher;
                }
            }
            *j++ = w;
            if (vals[first] == 0) enqueue(s, first, w.cref);
            else {
                confl = w.cref;
                s->qhead = s->trail_n;
                while (i != end) *j++ = *i++;
                break;
            }
        next_watcher:;
        }
        ws->len = (uint32_t)(j - ws->data);
        if (confl != CREF_NONE) break;
    }
    s->st.propagations += props;
    return confl;
}

void new_level(gsat *s) {
    vec_push(s->trail_lim, s->trail_n);
    if (s->ntheories) theory_new_level(s);
}

void backtrack(gsat *s, uint32_t level) {
    if (decision_level(s) <= level) return;
    uint32_t lim = s->trail_lim.data[level];
    int save = (int)s->opt.phase_saving;
    for (uint32_t i = s->trail_n; i-- > lim;) {
        lit_t l = s->trail[i];
        uint32_t v = lvar(l);
        s->vals[l] = s->vals[l ^ 1] = 0;
        if (save) s->polarity[v] = (uint8_t)(l & 1);
        if (s->heap_index[v] < 0 && s->decision[v]) heap_insert(s, v);
    }
    s->trail_n = s->qhead = lim;
    s->trail_lim.len = level;
    if (s->ntheories) theory_backtrack(s, level);
}
