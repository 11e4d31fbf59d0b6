/* watch.c — two-watched-literal lists.  watches[l] holds the clauses whose
 * lits[0] or lits[1] is l; they are visited when l becomes false.  Each
 * watcher carries a blocking literal (skip the clause while it is true);
 * binary clauses are flagged so propagation never touches their memory. */
#include <assert.h>
#include <string.h>

#include "solver/solver.h"

/* A list's first block (WATCH_FIRST watchers) is cut from a slab: most
 * literals of a large formula have one or two watchers, and a malloc each
 * would cost more than the clauses themselves.  A list outgrowing it moves
 * to memory of its own (WATCH_FIRST is never a capacity of such memory). */
enum { WATCH_FIRST = 4, SLAB_MIN = 1 << 8, SLAB_MAX = 1 << 16 };

void watch_grow(gsat *s, watch_list *w) {
    if (w->cap == 0) {
        if (s->slab_left < WATCH_FIRST) {     /* slabs double: small solvers stay small */
            size_t n = s->watch_slabs.len < 8 ? (size_t)SLAB_MIN << s->watch_slabs.len : SLAB_MAX;
            s->slab_next = xmalloc(n * sizeof *s->slab_next);
            s->slab_left = (uint32_t)n;
            vec_push(s->watch_slabs, s->slab_next);
        }
        w->data = s->slab_next;
        s->slab_next += WATCH_FIRST;
        s->slab_left -= WATCH_FIRST;
        w->cap = WATCH_FIRST;
        return;
    }
    uint32_t cap = w->cap * 2;
    if (w->cap == WATCH_FIRST) {                 /* leave the slab */
        watcher *own = xmalloc((size_t)cap * sizeof *own);
        memcpy(own, w->data, (size_t)w->len * sizeof *own);
        w->data = own;
    } else {
        w->data = xrealloc(w->data, (size_t)cap * sizeof *w->data);
    }
    w->cap = cap;
}

void watch_free_all(gsat *s) {
    uint32_t nl = 2 * (s->nvars + 1);
    for (uint32_t l = 0; l < nl; l++)
        if (s->watches[l].cap > WATCH_FIRST) free(s->watches[l].data);
    for (size_t i = 0; i < s->watch_slabs.len; i++) free(s->watch_slabs.data[i]);
    vec_free(s->watch_slabs);
    free(s->watches);
}

void watch_attach(gsat *s, cref_t r) {
    clause *c = CL(s, r);
    uint32_t tag = c->size == 2 ? WATCH_BIN : 0;
    watch_push(s, &s->watches[c->lits[0]], c->lits[1], r | tag);
    watch_push(s, &s->watches[c->lits[1]], c->lits[0], r | tag);
}

/* Drop every watcher and re-attach the live clauses (after deletions or
 * compaction).  Valid at any level: the watched literals are lits[0..1]. */
void watch_rebuild(gsat *s) {
    s->ca.unpurged = 0;
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
        if (now != old0 && now != old1) watch_push(s, &s->watches[now], c->lits[1 - k], r);
    }
}
