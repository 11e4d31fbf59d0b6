/* bigmem.c — see bigmem.h.  The advice is MADV_HUGEPAGE on the page-aligned
 * interior of a block; blocks under 2 MB are left alone (a huge page
 * there would only waste memory). */
#include "io/bigmem.h"

#include <stdint.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "vec.h"

enum { HUGE_BYTES = 2u << 20, PAGE_BYTES = 4096 };

void big_advise(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (!p || bytes < HUGE_BYTES) return;
    uintptr_t a = ((uintptr_t)p + PAGE_BYTES - 1) & ~(uintptr_t)(PAGE_BYTES - 1);
    uintptr_t z = ((uintptr_t)p + bytes) & ~(uintptr_t)(PAGE_BYTES - 1);
    if (z > a && z - a >= HUGE_BYTES) (void)madvise((void *)a, z - a, MADV_HUGEPAGE);
#else
    (void)p; (void)bytes;
#endif
}

void *big_realloc(void *p, size_t bytes) {
    void *q = xrealloc(p, bytes);
    big_advise(q, bytes);
    return q;
}

void *big_malloc(size_t bytes) { return big_realloc(NULL, bytes); }

void *big_calloc(size_t n, size_t size) {
    void *q = xcalloc(n, size);
    big_advise(q, n * size);
    return q;
}

void big_prefer_heap(void) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    /* 1 GB: above any block a reader frees (blocks above it still get
     * their own mapping); refused by glibc versions that cap the value,
     * which then keep their default */
    (void)mallopt(M_MMAP_THRESHOLD, 1 << 30);
#endif
}

void big_prefer_mappings(void) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    (void)mallopt(M_MMAP_THRESHOLD, 1 << 20);   /* a fixed value: the dynamic raise is off */
#endif
}

void big_release_free(void) {
#ifdef __GLIBC__
    (void)malloc_trim(0);
#endif
}
