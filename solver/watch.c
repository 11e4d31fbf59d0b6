/* watch.c — two-watched-literal lists.  watches[l] holds the clauses whose
 * lits[0] or lits[1] is l; they are visited when l becomes false.  Each
 * watcher carries a blocking literal (skip the clause while it is true);
 * binary clauses are flagged so propagation never touches their memory. */
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
