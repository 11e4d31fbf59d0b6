/* watch.c — two-watched-literal lists.  Literal l's list (watch_of: made
 * on its first watcher, see solver.h) holds the clauses whose lits[0] or
 * lits[1] is l; they are visited when l becomes false.  Each
 * watcher carries a blocking literal (skip the clause while it is true);
 * binary clauses are flagged so propagation never touches their memory.
 *
 * Original clauses are attached lazily: gsat_add_clause only appends to
 * s->originals, and watch_flush() attaches everything from s->unwatched on
 * in one counting pass (how many watchers each literal gets, then one
 * block cut into exact-size lists, then one filling pass) before anything
 * reads the lists.  Loading a million clauses this way touches each list
 * once instead of growing it watcher by watcher. */
#include <assert.h>
#include <string.h>

#include "io/bigmem.h"
#include "solver/solver.h"

/* Who owns a list's memory, told by its capacity: memory of its own
 * (malloc'ed, freed and realloc'ed with the list) always has a power of
 * two >= 8 as capacity; any other capacity is a piece of a shared block
 * (s->watch_slabs, freed at the end): either a first block of WATCH_FIRST
 * watchers cut from a slab (most literals of a large formula have one or
 * two watchers, and a malloc each would cost more than the clauses), or
 * an exact-size piece cut by watch_flush(). */
enum { WATCH_FIRST = 4, WATCH_OWN_MIN = 8, SLAB_MIN = 1 << 8, SLAB_MAX = 1 << 16 };

static int owns_memory(uint32_t cap) { return cap >= WATCH_OWN_MIN && (cap & (cap - 1)) == 0; }

/* Memory of its own for w, for at least `need` watchers. */
static void watch_own(watch_list *w, uint32_t need) {
    uint32_t cap = WATCH_OWN_MIN;
    while (cap < need) cap *= 2;
    if (owns_memory(w->cap)) {
        w->data = xrealloc(w->data, (size_t)cap * sizeof *w->data);
    } else {
        watcher *own = xmalloc((size_t)cap * sizeof *own);
        if (w->len) memcpy(own, w->data, (size_t)w->len * sizeof *own);
        w->data = own;
    }
    w->cap = cap;
}

static void watch_grow(gsat *s, watch_list *w) {
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
    watch_own(w, w->cap * 2);
}

/* wl.data[0]: the empty list of every literal without one of its own. */
void watch_init(gsat *s) {
    vec_init(s->wl);
    static watcher no_watchers[1];           /* never written: the list's data is not NULL, so an empty list's end is data + 0 */
    vec_push(s->wl, ((watch_list){ no_watchers, 0, 0 }));
}

watch_list *watch_make_slow(gsat *s, lit_t l) {
    assert(!s->watch_at[l] && l < 2 * ((size_t)s->nvars + 1));
    if (s->wl.len >= UINT32_MAX) xalloc_fail(SIZE_MAX);   /* indices are 32-bit */
    s->watch_at[l] = (uint32_t)s->wl.len;
    vec_push(s->wl, ((watch_list){ NULL, 0, 0 }));
    return &vec_last(s->wl);
}

/* watch_push's full list (or none yet): make it, grow it, push. */
void watch_push_slow(gsat *s, lit_t l, lit_t blocker, uint32_t cref) {
    watch_list *w = watch_make(s, l);
    if (w->len == w->cap) watch_grow(s, w);
    w->data[w->len++] = (watcher){ blocker, cref };
}

void watch_free_all(gsat *s) {
    for (size_t i = 1; i < s->wl.len; i++)
        if (owns_memory(s->wl.data[i].cap)) free(s->wl.data[i].data);
    for (size_t i = 0; i < s->watch_slabs.len; i++) free(s->watch_slabs.data[i]);
    vec_free(s->watch_slabs);
    vec_free(s->wl);
    free(s->watch_at);
}

void watch_attach(gsat *s, cref_t r) {
    clause *c = CL(s, r);
    uint32_t tag = c->size == 2 ? WATCH_BIN : 0;
    watch_push(s, c->lits[0], c->lits[1], r | tag);
    watch_push(s, c->lits[1], c->lits[0], r | tag);
}

/* Attach the live clauses of lists[k] from index from[k] on, for k < n:
 * count the watchers per literal, make room in each list at once (empty
 * lists get exact-size pieces of one block), then fill. */
static void attach_bulk(gsat *s, vec_uint *const *lists, const size_t *from, int n) {
    size_t nl = 2 * ((size_t)s->nvars + 1), fresh = 0;
    uint32_t *count = big_calloc(nl, sizeof *count);
    for (int k = 0; k < n; k++)
        for (size_t i = from[k]; i < lists[k]->len; i++) {
            const clause *c = CL(s, lists[k]->data[i]);
            if (c->flags & CL_GARBAGE) continue;
            count[c->lits[0]]++;
            count[c->lits[1]]++;
        }
    size_t made = 0;                          /* lists to make: the table grows once, exactly */
    for (size_t l = 0; l < nl; l++) made += count[l] && !s->watch_at[l];
    if (s->wl.len + made > s->wl.cap) {
        s->wl.data = big_realloc(s->wl.data, (s->wl.len + made) * sizeof *s->wl.data);
        s->wl.cap = s->wl.len + made;
    }
    for (size_t l = 0; l < nl; l++) {
        uint32_t k = count[l];
        if (!k) continue;
        watch_list *w = watch_make(s, (lit_t)l);
        if (w->cap == 0) fresh += k + (k >= WATCH_OWN_MIN && !(k & (k - 1)));
        else if (w->len + k > w->cap) watch_own(w, w->len + k);
    }
    if (fresh) {
        watcher *block = big_malloc(fresh * sizeof *block);
        vec_push(s->watch_slabs, block);
        for (size_t l = 0; l < nl; l++) {
            uint32_t k = count[l];
            if (!k) continue;
            watch_list *w = watch_of(s, (lit_t)l);
            if (w->cap) continue;
            if (owns_memory(k)) k++;          /* a piece must not look owned */
            w->data = block;
            w->cap = k;
            block += k;
        }
    }
    free(count);
    for (int k = 0; k < n; k++)
        for (size_t i = from[k]; i < lists[k]->len; i++) {
            cref_t r = lists[k]->data[i];
            const clause *c = CL(s, r);
            if (c->flags & CL_GARBAGE) continue;
            uint32_t tag = c->size == 2 ? WATCH_BIN : 0;
            watch_list *w0 = watch_of(s, c->lits[0]), *w1 = watch_of(s, c->lits[1]);
            w0->data[w0->len++] = (watcher){c->lits[1], r | tag};
            w1->data[w1->len++] = (watcher){c->lits[0], r | tag};
        }
}

void watch_flush_slow(gsat *s) {
    size_t pending = s->originals.len - s->unwatched;
    if (pending * 8 < 2 * ((size_t)s->nvars + 1)) {
        /* a few clauses (units interleaved with clauses flush often):
         * the counting pass would cost a sweep over every literal */
        for (size_t i = s->unwatched; i < s->originals.len; i++)
            if (!(CL(s, s->originals.data[i])->flags & CL_GARBAGE)) watch_attach(s, s->originals.data[i]);
    } else {
        vec_uint *lists[1] = {&s->originals};
        size_t from[1] = {s->unwatched};
        attach_bulk(s, lists, from, 1);
    }
    s->unwatched = s->originals.len;
}

/* Drop every watcher and re-attach the live clauses (after deletions or
 * compaction).  Valid at any level: the watched literals are lits[0..1]. */
void watch_rebuild(gsat *s) {
    s->ca.unpurged = 0;
    for (size_t i = 1; i < s->wl.len; i++) s->wl.data[i].len = 0;
    vec_uint *lists[2] = {&s->originals, &s->learnts};
    size_t from[2] = {0, 0};
    attach_bulk(s, lists, from, 2);
    s->unwatched = s->originals.len;
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
        if (old != c->lits[0] && old != c->lits[1]) unwatch(watch_of(s, old), r);
        lit_t now = c->lits[k];
        if (now != old0 && now != old1) watch_push(s, now, c->lits[1 - k], r);
    }
}
