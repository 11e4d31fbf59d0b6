/* bigmem.c — see bigmem.h.  The advice is MADV_HUGEPAGE on the pages a
 * block covers (include/huge_pages.h says which); blocks under 2 MB are left alone
 * (a huge page there would only waste memory).  The advice never changes
 * a byte, so pages shared with a neighbouring block may take it too.
 * big_populate is MADV_POPULATE_WRITE, which changes no byte either. */
#include "io/bigmem.h"

#include <stdint.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "huge_pages.h"
#include "vec.h"

enum { PAGE_BYTES = 4096 };

/* The advice and which pages it covers: include/huge_pages.h. */
void big_advise(void *p, size_t bytes) { huge_pages_advise(p, bytes); }

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
