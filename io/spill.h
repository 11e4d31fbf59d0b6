/* spill.h — the pages of a large array that is only read from now on,
 * moved out of the process's resident memory into a file, at the same
 * address and with the same bytes (issue 37: a history's per-op arrays
 * are held through every stage, and the checking stages between the index
 * and the re-check do not read them).
 *
 * spill_block writes the whole pages inside a block to an unlinked
 * temporary file (in the directory spill_enable was given) and maps that file, read-only and
 * private, over them: the anonymous pages leave the process, and a read
 * afterwards faults its page back in from the page cache (or the disk,
 * where the kernel dropped it under memory pressure: clean file pages
 * can go, anonymous ones cannot without swap).  The bytes at every
 * address stay the same, so a reader sees no difference but the time of
 * a fault; a write to a spilled page is a fault (SIGSEGV), never a lost
 * write.  spill_drop then drops the pages read back since (the file
 * still holds them).  The block is freed as usual (free: the C library
 * unmaps the block's whole mapping, the file's part with it).
 *
 * Off unless the program enables it (spill_enable: `isocheck check`,
 * batch); refused (0 returned, nothing changed) for a block without a
 * mapping of its own (glibc: a block from the heap, whose pages the heap
 * would hand out again), under 1 MB, elsewhere than glibc on Linux, where
 * the temporary directory is a tmpfs or ramfs (its pages are memory),
 * under a finite file-size limit (ulimit -f: a write past it would kill the
 * process with SIGXFSZ, not fail), or when the file cannot be written (a
 * full disk). */
#ifndef ISOCHECK_SPILL_H
#define ISOCHECK_SPILL_H

#include <stddef.h>

/* Allow spill_block from now on, its file in dir (NULL or "": /tmp; the
 * program's $TMPDIR: libraries read no environment). */
void spill_enable(const char *dir);
int spill_enabled(void);
/* Spill the whole pages inside the malloc'd block [p, p + bytes), which
 * nothing writes any more; the bytes spilled (0: refused, unchanged).  A
 * block spilled before (and not forgotten) is not written again: the
 * pages read back since are dropped, as spill_drop does. */
size_t spill_block(void *p, size_t bytes);
/* Drop again the pages of a block spill_block spilled that were read back
 * in (nothing for a block it did not spill). */
void spill_drop(void *p, size_t bytes);
/* Before freeing a block spill_block was given: its pages are no longer
 * the spill's (spill_drop no longer touches them). */
void spill_forget(void *p, size_t bytes);
/* The same on page-aligned whole pages of a mapping of the caller's own
 * (spill_block's core; tests): spilled whatever spill_enable says. */
size_t spill_pages(void *pages, size_t len);
void spill_pages_drop(void *pages, size_t len);
void spill_pages_forget(void *pages, size_t len);
/* Bytes written to spill files so far (for -v and the benchmarks). */
size_t spill_total(void);
/* Bytes the spill file holds now: a spill made when every range spilled
 * before is forgotten (its history freed) starts the file anew, so a run
 * over many histories holds one history's spill on disk, not their sum. */
size_t spill_file_bytes(void);

#endif
