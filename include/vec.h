/* vec.h — the project's one growable array.
 *
 * A vec is a struct { T *data; size_t len, cap; } declared with VEC(T).
 * All operations are macros over that shape, so one implementation serves
 * every element type.  Allocation failure is fatal (see xalloc_fail). */
#ifndef ISOCHECK_VEC_H
#define ISOCHECK_VEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "huge_pages.h"

#define VEC(T) struct { T *data; size_t len, cap; }

/* What the program is doing, for the out-of-memory line: a program's main
 * may point it at e.g. "gsat: out of memory while reading F"; libraries
 * never set it.  Weak, so that every object file may define it and the
 * linker keeps one. */
#if defined(__GNUC__)
__attribute__((weak)) const char *xalloc_stage;
#else
extern const char *xalloc_stage;
#endif

/* A library may catch allocation failure instead, per thread: the engine
 * sets xalloc_catch while one of its entry points runs, and the function
 * it points to does not return (solver/guard.h: the call returns an
 * error).  Weak, as xalloc_stage. */
#if defined(__GNUC__)
__attribute__((weak)) _Thread_local void (*xalloc_catch)(size_t bytes);
#else
extern _Thread_local void (*xalloc_catch)(size_t bytes);
#endif

/* Out of memory: xalloc_catch's if set, else print one line and exit with
 * the "internal limit" code 2.  The only place in the project that gives
 * up on allocation. */
static inline void xalloc_fail(size_t bytes) {
    if (xalloc_catch) xalloc_catch(bytes);
    if (xalloc_stage) fprintf(stderr, "%s (allocating %zu bytes)\n", xalloc_stage, bytes);
    else fprintf(stderr, "out of memory (allocating %zu bytes)\n", bytes);
    exit(2);
}

static inline void *xrealloc(void *p, size_t bytes) {
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q) xalloc_fail(bytes);
    huge_pages_advise_large(q, bytes);   /* large blocks on huge pages: include/huge_pages.h */
    return q;
}

static inline void *xcalloc(size_t n, size_t size) {
    void *q = calloc(n ? n : 1, size ? size : 1);
    if (!q) xalloc_fail(n * size);
    huge_pages_advise_large(q, n * size);
    return q;
}

static inline void *xmalloc(size_t bytes) { return xrealloc(NULL, bytes); }

/* Grow storage to hold at least `need` elements: double (a push's
 * amortized growth), or exactly `need` where doubling once is not enough
 * (a reserve of a known final size: rounding it up to a power of two
 * would hold up to as much again of address space, 0.6 GB for the
 * index's units at 22M transactions). */
static inline size_t vec_cap_for_(size_t cap, size_t elem, size_t need) {
    size_t c = cap ? cap : 4;
    if (c < need) {
        if (need > SIZE_MAX / elem) xalloc_fail(SIZE_MAX);
        c = c <= SIZE_MAX / 2 / elem && 2 * c >= need ? 2 * c : need;
    }
    return c;
}

static inline void *vec_grow_(void *data, size_t *cap, size_t elem, size_t need) {
    size_t c = vec_cap_for_(*cap, elem, need);
    void *grown = xrealloc(data, c * elem);
    *cap = c;                         /* only once it is there (xalloc_catch may return elsewhere) */
    return grown;
}

#define vec_init(v)        ((v).data = NULL, (v).len = (v).cap = 0)
#define vec_reserve(v, n)  ((void)((n) > (v).cap ? ((v).data = vec_grow_((v).data, &(v).cap, sizeof *(v).data, (n))) : 0))
#define vec_push(v, x)     (vec_reserve((v), (v).len + 1), (v).data[(v).len++] = (x))
#define vec_pop(v)         ((v).data[--(v).len])
#define vec_last(v)        ((v).data[(v).len - 1])
#define vec_clear(v)       ((v).len = 0)
#define vec_shrink(v, n)   ((v).len = (n))
#define vec_resize(v, n)   (vec_reserve((v), (n)), (v).len = (n))
#define vec_free(v)        (free((v).data), vec_init(v))
/* Capacity down to the length (a large block shrinks in place): for big
 * arrays that stop growing, whose doubling slack would only hold address
 * space. */
#define vec_fit(v)         ((v).len < (v).cap ? ((v).data = xrealloc((v).data, ((v).len ? (v).len : 1) * sizeof *(v).data), \
                                                (v).cap = (v).len ? (v).len : 1) : 0)
#define vec_foreach(T, p, v) for (T *p = (v).data; p && p < (v).data + (v).len; p++)  /* no NULL+0 */

typedef VEC(int) vec_int;
typedef VEC(unsigned) vec_uint;
typedef VEC(int64_t) vec_i64;
typedef VEC(uint32_t) vec_u32;
typedef VEC(char) vec_char;

#endif
