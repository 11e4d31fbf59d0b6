/* heap.c — EVSIDS: variable activities and a binary max-heap of the
 * unassigned decision variables ordered by activity.  Bumping adds var_inc;
 * decaying grows var_inc (so old bumps fade), rescaling all activities
 * when they get large. */
#include "solver/solver.h"

static inline int heap_less(const gsat *s, uint32_t a, uint32_t b) {
    return s->activity[a] > s->activity[b];
}

static void sift_up(gsat *s, uint32_t pos) {
    uint32_t *h = s->heap.data;
    uint32_t v = h[pos];
    while (pos > 0) {
        uint32_t parent = (pos - 1) / 2;
        if (!heap_less(s, v, h[parent])) break;
        h[pos] = h[parent];
        s->heap_index[h[pos]] = (int32_t)pos;
        pos = parent;
    }
    h[pos] = v;
    s->heap_index[v] = (int32_t)pos;
}

static void sift_down(gsat *s, uint32_t pos) {
    uint32_t *h = s->heap.data;
    uint32_t n = (uint32_t)s->heap.len;
    uint32_t v = h[pos];
    for (;;) {
        uint32_t child = 2 * pos + 1;
        if (child >= n) break;
        if (child + 1 < n && heap_less(s, h[child + 1], h[child])) child++;
        if (!heap_less(s, h[child], v)) break;
        h[pos] = h[child];
        s->heap_index[h[pos]] = (int32_t)pos;
        pos = child;
    }
    h[pos] = v;
    s->heap_index[v] = (int32_t)pos;
}

void heap_insert(gsat *s, uint32_t v) {
    if (s->heap_index[v] >= 0) return;
    vec_push(s->heap, v);
    sift_up(s, (uint32_t)s->heap.len - 1);
}

uint32_t heap_pop(gsat *s) {
    if (!s->heap.len) return 0;
    uint32_t top = s->heap.data[0];
    uint32_t last = vec_pop(s->heap);
    s->heap_index[top] = -1;
    if (s->heap.len) {
        s->heap.data[0] = last;
        s->heap_index[last] = 0;
        sift_down(s, 0);
    }
    return top;
}

void heap_bump(gsat *s, uint32_t v) {
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
