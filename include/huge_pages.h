/* huge_pages.h — advice to back a large malloc'd block with transparent
 * huge pages: one page fault and one TLB entry per 2 MB instead of per
 * 4 kB.  Header-only on libc and madvise, so that every layer may call it:
 * io/bigmem.c's allocations, and the re-checkers, which include nothing
 * from io/ (tests/layering.sh).  The advice never changes a byte; blocks
 * under 2 MB are left alone (a huge page there would only waste memory).
 *
 * The pages advised are the whole of the block's pages where the C
 * library says how far the block reaches (glibc: malloc_usable_size): a
 * block with a mapping of its own (every large one) is then advised as a
 * whole, so the mapping stays one piece and realloc can grow it by mremap
 * without a copy.  Advising only its interior split the mapping in three,
 * after which mremap refuses it and every realloc copied the block into a
 * fresh mapping (all its pages faulted in again): a doubling array was
 * copied at every step.  Elsewhere: the whole pages inside the block. */
#ifndef ISOCHECK_HUGE_PAGES_H
#define ISOCHECK_HUGE_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static inline void huge_pages_advise(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20, page = 4096;
    if (!p || bytes < huge) return;
#ifdef __GLIBC__
    size_t usable = malloc_usable_size(p);
    uintptr_t a = (uintptr_t)p & ~(page - 1);
    uintptr_t z = ((uintptr_t)p + (usable > bytes ? usable : bytes) + page - 1) & ~(page - 1);
#else
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t z = ((uintptr_t)p + bytes) & ~(page - 1);
#endif
    if (z > a && z - a >= huge) (void)madvise((void *)a, z - a, MADV_HUGEPAGE);
#else
    (void)p; (void)bytes;
#endif
}

#endif
