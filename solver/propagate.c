/* propagate.c — the trail: Boolean constraint propagation over the watch
 * lists, opening decision levels and backtracking.
 *
 * solver_propagate() runs to a fixpoint or the first falsified clause.  Per
 * watcher: a true blocker skips the clause; binary clauses imply or
 * conflict without touching the arena; longer clauses keep the false
 * literal in lits[1] and look for a replacement watch from lits[2].
 *
 * Chronological backtracking (search.c) leaves literals on the trail whose
 * level is below the current one.  A literal implied by propagating such
 * an out-of-order literal gets the highest level among its reason's other
 * literals, not the current level, so that it survives backtracking as
 * long as its reason does.  solver_backtrack(level) removes the literals above
 * `level` wherever they are on the trail, keeps the others in their order,
 * and propagates the kept ones again (clauses they watched may have been
 * satisfied only by removed literals). */
#include <assert.h>

#include "solver/solver.h"

cref_t solver_propagate(gsat *s) {
    watch_flush(s);
    if (s->late_dirty) {                          /* keep_trail: solver/warm.c */
        cref_t c = warm_restore_units(s);
        if (c != CREF_NONE) return c;
    }
    /* locals: stores through vals (int8) would otherwise force reloads */
    cref_t confl = CREF_NONE;
    int8_t *const vals = s->vals;
    uint32_t *const mem = s->ca.mem;
    lit_t *const trail = s->trail;
    var_info *const vinfo = s->vinfo;
    uint32_t *const tpos = s->trail_pos;
    const uint32_t *const watch_at = s->watch_at;
    watch_list *wl = s->wl.data;                  /* reloaded when a list is made */
    const int level = (int)s->trail_lim.len;
    uint32_t qhead = s->qhead, tn = s->trail_n;
#define ASSIGN(lit, why, lv) do { \
        lit_t a_ = (lit); uint32_t v_ = a_ >> 1; \
        vals[a_] = 1; vals[a_ ^ 1] = -1; \
        vinfo[v_].reason = (why); vinfo[v_].level = (lv); \
        tpos[v_] = tn; trail[tn++] = a_; \
    } while (0)
    while (qhead < tn) {
        lit_t false_lit = lneg(trail[qhead++]);
        /* level of what this literal implies; only an out-of-order literal
         * (below the current level) needs the clause's maximum */
        const int fl_level = vinfo[false_lit >> 1].level;
        /* the header is read here and written back below through its
         * index, found again (fewer live registers in the loop): a push
         * onto a literal without a list moves the headers (the watchers
         * themselves stay put).  A literal in no clause reads the empty
         * list (index 0). */
        const watch_list *ws = &wl[watch_at[false_lit]];
        watcher *i = ws->data, *j = i, *end = i + ws->len;
        while (i != end) {
            watcher w = *i++;
            int bv = vals[w.blocker];
            if (bv > 0) { *j++ = w; continue; }
            if (w.cref & WATCH_BIN) {
                *j++ = w;
                if (bv == 0) { ASSIGN(w.blocker, w.cref & ~WATCH_BIN, fl_level); continue; }
                confl = w.cref & ~WATCH_BIN;
                while (i != end) *j++ = *i++;
                break;
            }
            clause *c = (clause *)(mem + w.cref);
            lit_t *lits = c->lits;
            lit_t first = lits[0];
            if (first == false_lit) { first = lits[1]; lits[0] = first; lits[1] = false_lit; }
            w.blocker = first;
            int fv = vals[first];
            if (fv > 0) { *j++ = w; continue; }
            lit_t *k = lits + 2, *kend = lits + c->size;
            for (; k != kend; k++) {
                if (vals[*k] >= 0) {
                    lit_t nl = *k;
                    lits[1] = nl;
                    *k = false_lit;
                    watch_list *nw = &wl[watch_at[nl]];
                    if (nw->len == nw->cap) {     /* full, or no list yet (solver.h watch_push) */
                        watch_push_slow(s, lits[1], first, w.cref);   /* (lits[1]: nl stays out of the scan's registers) */
                        wl = s->wl.data;
                    } else {
                        nw->data[nw->len++] = (watcher){ first, w.cref };
                    }
                    goto next_watcher;
                }
            }
            *j++ = w;
            if (fv == 0) {
                int lv = fl_level;
                if (lv != level)
                    for (k = lits + 2; k != kend; k++)
                        if (vinfo[*k >> 1].level > lv) lv = vinfo[*k >> 1].level;
                ASSIGN(first, w.cref, lv);
            } else {
                confl = w.cref;
                while (i != end) *j++ = *i++;
                break;
            }
        next_watcher:;
        }
        /* stored only when watchers moved: the lists of literals that
         * watch nothing (most of a loaded problem's) stay untouched memory */
        if (j != end) {                           /* wl may have moved: not through ws */
            watch_list *back = &wl[watch_at[false_lit]];
            back->len = (uint32_t)(j - back->data);
        }
        if (confl != CREF_NONE) break;
    }
#undef ASSIGN
    /* after a conflict the literal being propagated is visited again: the
     * literals after it stay unpropagated on the queue, which matters when
     * partial backtracking keeps them */
    if (confl != CREF_NONE) qhead--;
    s->st.propagations += qhead - s->qhead;
    s->qhead = qhead;
    s->trail_n = tn;
    return confl;
}

void solver_new_level(gsat *s) {
    vec_push(s->trail_lim, s->trail_n);
    if (s->ntheories) theory_new_level(s);
}

void solver_backtrack(gsat *s, uint32_t level) {
    if (decision_level(s) <= level) return;
    uint32_t lim = s->trail_lim.data[level];
    int save = (int)s->opt.phase_saving, late = s->late_count > 0, dirty = s->model_full > 0;
    uint32_t kept = lim;
    for (uint32_t i = lim; i < s->trail_n; i++) {
        lit_t l = s->trail[i];
        uint32_t v = lvar(l);
        if ((uint32_t)s->vinfo[v].level <= level) {
            /* theories imply at the current level, so the lazy reasons of
             * their literals never outlive the state that explains them */
            assert(!reason_is_theory(s->vinfo[v].reason));
            s->trail_pos[v] = kept;
            s->trail[kept++] = l;
            continue;
        }
        s->vals[l] = s->vals[l ^ 1] = 0;
        if (save) s->polarity[v] = (uint8_t)(l & 1);
        if (late | dirty) warm_taken_back(s, v, late, dirty);   /* keep_trail: solver/warm.c */
        if (s->heap_index[v] < 0 && s->decision[v]) heap_insert(s, v);
    }
    s->trail_n = kept;
    if (dirty) warm_dirty_bound(s);
    s->qhead = lim;
    while (s->tprop_pos.len && s->tprop_pos.data[s->tprop_pos.len - 1] >= lim) s->tprop_pos.len--;
    s->trail_lim.len = level;
    if (s->ntheories) theory_backtrack(s, level, lim);
}
