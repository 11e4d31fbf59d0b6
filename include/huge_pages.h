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
 * copied at every step.  Elsewhere: the whole pages inside the block.
 *
 * huge_pages_advise_large is vec.h's: every xmalloc, xcalloc and xrealloc
 * of HUGE_PAGES_ALLOC_MIN bytes or more is advised (stop 51: 1M si,ser
 * faulted 490k pages, mostly 4 kB ones in such blocks made by plain
 * xmalloc; advised from 4 MB, 300k, the peak within base's spread).  The
 * bytes zeroed are the same (the kernel clears a huge page as 512 small
 * ones); what goes is the per-fault and per-page cost of the rest. */
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

/* The floor above: under it a block is left to small pages (a 2 MB page
 * at each end of a small block would mostly be waste). */
#define HUGE_PAGES_ALLOC_MIN ((size_t)4 << 20)
static inline void huge_pages_advise_large(void *p, size_t bytes) {
    if (bytes >= HUGE_PAGES_ALLOC_MIN) huge_pages_advise(p, bytes);
}

#endif
