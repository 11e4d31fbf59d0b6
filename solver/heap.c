/* heap.c — EVSIDS: variable activities and a binary max-heap of the
 * unassigned decision variables ordered by activity.  Bumping adds var_inc;
 * decaying grows var_inc (so old bumps fade), rescaling all activities
 * when they get large. */
#include "solver/idx_heap.h"
#include "solver/solver.h"

/* max-heap on activity */
static inline int heap_less(const void *ctx, uint32_t a, uint32_t b) {
    const gsat *s = ctx;
    return s->activity[a] > s->activity[b];
}

static void sift_up(gsat *s, uint32_t pos) { idx_heap_up(s->heap.data, s->heap_index, pos, heap_less, s); }

void heap_insert(gsat *s, uint32_t v) {
    if (s->heap_index[v] >= 0) return;
    vec_push(s->heap, v);
    sift_up(s, (uint32_t)s->heap.len - 1);
}

uint32_t heap_pop(gsat *s) {
    if (!s->heap.len) return 0;
    uint32_t n = (uint32_t)s->heap.len;
    uint32_t top = idx_heap_pop(s->heap.data, &n, s->heap_index, heap_less, s);
    s->heap.len = n;
    return top;
}

static void heap_bump(gsat *s, uint32_t v) {
    if (s->heap_index[v] >= 0) sift_up(s, (uint32_t)s->heap_index[v]);
}

void solver_var_bump(gsat *s, uint32_t v) {
    if ((s->activity[v] += s->var_inc) > 1e100) {
        for (uint32_t u = 1; u <= s->nvars; u++) s->activity[u] *= 1e-100;
        s->var_inc *= 1e-100;
    }
    heap_bump(s, v);
}

void solver_var_decay(gsat *s) {
    s->var_inc /= s->var_decay;
}
