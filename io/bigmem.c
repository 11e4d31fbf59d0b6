/* bigmem.c — see bigmem.h.  The advice is MADV_HUGEPAGE on the pages a
 * block covers (big_advise says which); blocks under 2 MB are left alone
 * (a huge page there would only waste memory).  The advice never changes
 * a byte, so pages shared with a neighbouring block may take it too.
 * big_populate is MADV_POPULATE_WRITE, which changes no byte either. */
#include "io/bigmem.h"

#include <stdint.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "vec.h"

enum { HUGE_BYTES = 2u << 20, PAGE_BYTES = 4096 };

/* The pages advised are the whole of the block's pages where the C
 * library says how far the block reaches (glibc: malloc_usable_size): a
 * block with a mapping of its own (every large one) is then advised as a
 * whole, so the mapping stays one piece and realloc can grow it by mremap
 * without a copy.  Advising only its interior split the mapping in three,
 * after which mremap refuses it and every realloc copied the block into a
 * fresh mapping (all its pages faulted in again): a doubling array was
 * copied at every step.  Elsewhere: the whole pages inside the block. */
void big_advise(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (!p || bytes < HUGE_BYTES) return;
#ifdef __GLIBC__
    size_t usable = malloc_usable_size(p);
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)(PAGE_BYTES - 1);
    uintptr_t z = ((uintptr_t)p + (usable > bytes ? usable : bytes) + PAGE_BYTES - 1) & ~(uintptr_t)(PAGE_BYTES - 1);
#else
    uintptr_t a = ((uintptr_t)p + PAGE_BYTES - 1) & ~(uintptr_t)(PAGE_BYTES - 1);
    uintptr_t z = ((uintptr_t)p + bytes) & ~(uintptr_t)(PAGE_BYTES - 1);
#endif
    if (z > a && z - a >= HUGE_BYTES) (void)madvise((void *)a, z - a, MADV_HUGEPAGE);
#else
    (void)p; (void)bytes;
#endif
}

void big_populate(void *p, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
    uintptr_t a = ((uintptr_t)p + PAGE_BYTES - 1) & ~(uintptr_t)(PAGE_BYTES - 1);
    uintptr_t z = ((uintptr_t)p + bytes) & ~(uintptr_t)(PAGE_BYTES - 1);
    if (p && z > a) (void)madvise((void *)a, z - a, MADV_POPULATE_WRITE);
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

void *big_grow(void *data, size_t *cap, size_t elem, size_t need) {
    size_t c = vec_cap_for_(*cap, elem, need);   /* vec's rule: a known final size is not rounded up */
    void *grown = big_realloc(data, c * elem);
    *cap = c;
    return grown;
}

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
