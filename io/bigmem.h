/* bigmem.h — allocation for the large arrays that get written all over
 * right after they are made (per-variable and per-literal arrays, the
 * clause arena, watch lists, a graph's edges).  Same contract as vec.h's
 * xrealloc/xcalloc (failure is fatal through xalloc_fail), plus advice to
 * the kernel to back blocks of 2 MB and more with transparent huge pages:
 * one page fault per 2 MB instead of one per 4 kB, and a fault costs
 * about 10 µs on a virtual machine.  Advice only: where the kernel has no
 * huge pages (or the platform no madvise) nothing changes but the call. */
#ifndef ISOCHECK_BIGMEM_H
#define ISOCHECK_BIGMEM_H

#include <stddef.h>

void *big_realloc(void *p, size_t bytes);
void *big_calloc(size_t n, size_t size);
void *big_malloc(size_t bytes);
/* Advise the whole pages inside [p, p + bytes), if they cover 2 MB. */
void big_advise(void *p, size_t bytes);
/* For a program that reads a large input once and then solves (gsat):
 * serve large blocks from the heap instead of fresh mappings, so that the
 * memory freed after reading (the text, growth steps of arrays) is reused
 * instead of returned to the kernel and faulted in again.  glibc only;
 * elsewhere nothing happens.  Call before allocating. */
void big_prefer_heap(void);
/* For a program that holds a large input while it allocates and frees
 * large arrays stage after stage (`isocheck check`): every block of 1 MB
 * and more gets a mapping of its own, so that a freed one leaves the
 * process at once.  glibc's default raises its mapping threshold to the
 * size of each mapped block freed (up to 32 MB), after which such blocks
 * come from the heap and stay resident when freed: 1M si,ser ended its
 * SI check 300 MB above its live bytes.  glibc only; elsewhere nothing
 * happens.  Call before allocating. */
void big_prefer_mappings(void);
/* Hand the heap's free pages back to the kernel (glibc: malloc_trim; all
 * threads' arenas), after many mid-sized blocks were freed at once and
 * large ones (own mappings) come next: otherwise they stay resident.
 * Elsewhere nothing happens. */
void big_release_free(void);

/* Fault in the whole pages inside [p, p + bytes) as if written (the
 * kernel clears them now), without changing a byte: memory a loop is about
 * to write, prefaulted by a thread that would otherwise idle, so that the
 * writer does not stop at every fresh page.  Advice only (Linux's
 * MADV_POPULATE_WRITE; elsewhere, or refused, nothing happens); it never
 * changes a byte, so it is harmless on memory another thread writes. */
void big_populate(void *p, size_t bytes);

/* vec.h's growth (doubling) for the large arrays that are pushed to op by
 * op (a history's ops while loading, the index's lists): the block is
 * advised as big_realloc's, so its pages come 2 MB a fault, not 4 kB (a
 * doubling step past the mapping threshold is a mremap, without a copy;
 * its new pages are faulted in by the pushes that follow). */
void *big_grow(void *data, size_t *cap, size_t elem, size_t need);
#define big_vec_reserve(v, n) ((void)((n) > (v).cap ? ((v).data = big_grow((v).data, &(v).cap, sizeof *(v).data, (n))) : 0))
#define big_vec_push(v, x)    (big_vec_reserve((v), (v).len + 1), (v).data[(v).len++] = (x))

/* Grow the zeroed array p from oldn to newn zeroed entries (needs <string.h>).
 * A large jump (a reader reserving every variable at once) takes fresh
 * zeroed memory: calloc leaves the pages to the kernel until touched, where
 * realloc + memset would write them twice; small steps realloc. */
#define BIG_GROW_ZERO(p, oldn, newn) do { \
        if ((size_t)(newn) > 4 * (size_t)(oldn)) { \
            void *fresh_ = big_calloc((size_t)(newn), sizeof *(p)); \
            if ((oldn) != 0) memcpy(fresh_, (p), (size_t)(oldn) * sizeof *(p)); \
            free(p); \
            (p) = fresh_; \
        } else { \
            (p) = big_realloc((p), (size_t)(newn) * sizeof *(p)); \
            memset((p) + (oldn), 0, ((size_t)(newn) - (size_t)(oldn)) * sizeof *(p)); \
        } \
    } while (0)

#endif
