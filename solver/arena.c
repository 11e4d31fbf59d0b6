/* arena.c — clause storage: one array of 32-bit words, clauses named by
 * offset.  Deleting marks a clause garbage; arena_compact() copies the live
 * clauses (those on the originals/learnts/treasons lists) into a fresh
 * array, forwards reasons and rebuilds the watches. */
#include <assert.h>

#include "io/bigmem.h"
#include "solver/proof.h"
#include "solver/solver.h"

static size_t clause_words(uint32_t n, uint32_t flags) {
    return 2 + (size_t)n + ((flags & CL_LEARNT) ? 1 : 0);
}

cref_t arena_alloc(gsat *s, const lit_t *lits, uint32_t n, uint32_t flags) {
    arena *a = &s->ca;
    size_t words = clause_words(n, flags);
    if (a->len + words > ARENA_MAX_WORDS) xalloc_fail((a->len + words) * 4);
    if (a->len + words > a->cap) {
        size_t cap = a->cap ? a->cap : 1 << 16;
        while (cap < a->len + words) cap += cap / 2;
        if (cap > ARENA_MAX_WORDS) cap = ARENA_MAX_WORDS;
        a->mem = big_realloc(a->mem, cap * sizeof *a->mem);
        a->cap = cap;
    }
    cref_t r = (cref_t)a->len;
    a->len += words;
    clause *c = CL(s, r);
    c->size = n;
    c->flags = flags;
    if (n) memcpy(c->lits, lits, n * sizeof *lits);
    if (flags & CL_LEARNT) cl_set_activity(c, 0.0f);
    if (s->occ_n) unassign_occ_add(s, r);
    return r;
}

void arena_reserve(gsat *s, size_t clauses, size_t lits) {
    arena *a = &s->ca;
    size_t words = a->len + 2 * clauses + lits;
    if (words > ARENA_MAX_WORDS) words = ARENA_MAX_WORDS;
    if (words > a->cap) {
        a->mem = big_realloc(a->mem, words * sizeof *a->mem);
        a->cap = words;
    }
    vec_reserve(s->originals, s->originals.len + clauses);
}

void arena_free_clause(gsat *s, cref_t r) {
    clause *c = CL(s, r);
    assert(!(c->flags & CL_GARBAGE));
    c->flags |= CL_GARBAGE;
    if (!(c->flags & CL_REASON)) proof_delete(s, c->lits, c->size);   /* theory reasons were never traced */
    s->ca.wasted += clause_words(c->size, c->flags);
    s->ca.unpurged = 1;
}

static void move_list(gsat *s, vec_uint *list, arena *to) {
    size_t j = 0;
    for (size_t i = 0; i < list->len; i++) {
        clause *c = CL(s, list->data[i]);
        if (c->flags & CL_GARBAGE) continue;
        size_t words = clause_words(c->size, c->flags);
        cref_t nr = (cref_t)to->len;
        memcpy(to->mem + to->len, c, words * sizeof(uint32_t));
        to->len += words;
        c->flags |= CL_MOVED;
        c->size = nr;              /* forwarding address */
        list->data[j++] = nr;
    }
    list->len = j;
}

static void arena_compact(gsat *s) {
    unassign_forget(s);               /* the lists name old offsets */
    arena fresh = {0};
    fresh.cap = s->ca.len - s->ca.wasted + 1024;
    fresh.mem = xmalloc(fresh.cap * sizeof *fresh.mem);
    move_list(s, &s->originals, &fresh);
    move_list(s, &s->learnts, &fresh);
    move_list(s, &s->treasons, &fresh);
    for (uint32_t i = 0; i < s->trail_n; i++) {
        uint32_t v = lvar(s->trail[i]);
        cref_t r = s->vinfo[v].reason;
        if (r == CREF_NONE || reason_is_theory(r)) continue;
        clause *c = CL(s, r);
        if (c->flags & CL_MOVED) s->vinfo[v].reason = c->size;
        else {                     /* a deleted reason: only legal at level 0 */
            assert(s->vinfo[v].level == 0);
            s->vinfo[v].reason = CREF_NONE;
        }
    }
    free(s->ca.mem);
    s->ca = fresh;
    s->ca.unpurged = 1;               /* every watcher names an old offset */
    s->st.gcs++;
    watch_rebuild(s);
}

void arena_collect(gsat *s) {
    if (s->ca.wasted * 100 > s->ca.len * (size_t)s->opt.gc_percent) arena_compact(s);
    else watch_rebuild(s);
}
