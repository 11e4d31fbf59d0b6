/* watch.c — two-watched-literal lists.  watches[l] holds the clauses whose
 * lits[0] or lits[1] is l; they are visited when l becomes false.  Each
 * watcher carries a blocking literal (skip the clause while it is true);
 * binary clauses are flagged so propagation never touches their memory. */
#include <assert.h>

#include "solver/solver.h"

void watch_grow(watch_list *w) {
    uint32_t cap = w->cap ? w->cap * 2 : 4;
    w->data = xrealloc(w->data, (size_t)cap * sizeof *w->data);
    w->cap = cap;
}

void watch_attach(gsat *s, cref_t r) {
    clause *c = CL(s, r);
    uint32_t tag = c->size == 2 ? WATCH_BIN : 0;
    watch_push(&s->watches[c->lits[0]], c->lits[1], r | tag);
    watch_push(&s->watches[c->lits[1]], c->lits[0], r | tag);
}

/* Drop every watcher and re-attach the live clauses (after deletions or
 * compaction).  Valid at any level: the watched literals are lits[0..1]. */
void watch_rebuild(gsat *s) {
    for (uint32_t l = 0; l < 2 * (s->nvars + 1); l++) s->watches[l].len = 0;
    vec_uint *lists[2] = {&s->originals, &s->learnts};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->len; i++) {
            cref_t r = lists[k]->data[i];
            if (!(CL(s, r)->flags & CL_GARBAGE)) watch_attach(s, r);
        }
}

/* Make lits[i] and lits[j] (i != j) the watched pair of long clause r, as
 * lits[0] and lits[1], moving its watchers from the old pair. */
static void unwatch(watch_list *w, cref_t r) {
    for (uint32_t k = 0; k < w->len; k++)
        if (w->data[k].cref == r) { w->data[k] = w->data[--w->len]; return; }
    assert(0 && "watcher not found");
}

void watch_move(gsat *s, cref_t r, uint32_t i, uint32_t j) {
    clause *c = CL(s, r);
    assert(c->size > 2 && !(c->flags & CL_REASON) && i != j);
    lit_t old0 = c->lits[0], old1 = c->lits[1];
    lit_t t = c->lits[0]; c->lits[0] = c->lits[i]; c->lits[i] = t;
    if (j == 0) j = i;               /* lits[0] moved to position i */
    t = c->lits[1]; c->lits[1] = c->lits[j]; c->lits[j] = t;
    for (int k = 0; k < 2; k++) {
        lit_t old = k ? old1 : old0;
        if (old != c->lits[0] && old != c->lits[1]) unwatch(&s->watches[old], r);
        lit_t now = c->lits[k];
        if (now != old0 && now != old1) watch_push(&s->watches[now], c->lits[1 - k], r);
    }
}
