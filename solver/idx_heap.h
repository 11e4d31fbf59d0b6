/* idx_heap.h — the one indexed binary heap of the engine: an array of
 * variables h[0..n) in heap order and pos[v], v's place in it (-1 when v is
 * not in the heap).  The order is a `less(ctx, a, b)` the caller gives:
 * the decision heap orders by activity (heap.c), variable elimination by
 * the cost of eliminating (simp_elim.c).  The functions are static inline
 * so that each caller's comparison is inlined into its own copy. */
#ifndef GSAT_IDX_HEAP_H
#define GSAT_IDX_HEAP_H

#include <stdint.h>

typedef int (*idx_heap_less)(const void *ctx, uint32_t a, uint32_t b);

/* Move h[at] up towards the root while it is less than its parent. */
static inline void idx_heap_up(uint32_t *h, int32_t *pos, uint32_t at, idx_heap_less less, const void *ctx) {
    uint32_t v = h[at];
    while (at > 0) {
        uint32_t parent = (at - 1) / 2;
        if (!less(ctx, v, h[parent])) break;
        h[at] = h[parent];
        pos[h[at]] = (int32_t)at;
        at = parent;
    }
    h[at] = v;
    pos[v] = (int32_t)at;
}

/* Move h[at] down while a child is less than it (n: the heap's size). */
static inline void idx_heap_down(uint32_t *h, uint32_t n, int32_t *pos, uint32_t at, idx_heap_less less,
                                 const void *ctx) {
    uint32_t v = h[at];
    for (;;) {
        uint32_t child = 2 * at + 1;
        if (child >= n) break;
        if (child + 1 < n && less(ctx, h[child + 1], h[child])) child++;
        if (!less(ctx, h[child], v)) break;
        h[at] = h[child];
        pos[h[at]] = (int32_t)at;
        at = child;
    }
    h[at] = v;
    pos[v] = (int32_t)at;
}

/* Remove and return the root of h[0..*n) (*n > 0). */
static inline uint32_t idx_heap_pop(uint32_t *h, uint32_t *n, int32_t *pos, idx_heap_less less, const void *ctx) {
    uint32_t top = h[0], last = h[--*n];
    pos[top] = -1;
    if (*n) {
        h[0] = last;
        pos[last] = 0;
        idx_heap_down(h, *n, pos, 0, less, ctx);
    }
    return top;
}

#endif
