/* spill.c — see spill.h.  One unlinked file a process, blocks appended
 * to it page-aligned; the file is mapped (read-only, private) elsewhere
 * first and then moved over the block's pages with mremap, which replaces
 * them in one step (a failed MAP_FIXED may leave a hole; a failed mremap
 * leaves the block as it was). */
#ifdef __linux__
#define _GNU_SOURCE                                  /* mremap */
#endif
#include "io/spill.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>
#define SPILL_OK 1
#else
#define SPILL_OK 0
#endif

enum { SPILL_PAGE = 4096, SPILL_MIN = 1u << 20 };

static int enabled;
static size_t total;
static char spill_dir[4096] = "/tmp";

void spill_enable(const char *dir) {
    if (dir && *dir && strlen(dir) < sizeof spill_dir) snprintf(spill_dir, sizeof spill_dir, "%s", dir);
    enabled = 1;
}
int spill_enabled(void) { return enabled; }
size_t spill_total(void) { return total; }

/* The whole pages inside [p, p + bytes): [*a, *a + *len). */
static void inner_pages(void *p, size_t bytes, uintptr_t *a, size_t *len) {
    uintptr_t lo = ((uintptr_t)p + SPILL_PAGE - 1) & ~(uintptr_t)(SPILL_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(uintptr_t)(SPILL_PAGE - 1);
    *a = lo;
    *len = hi > lo ? hi - lo : 0;
}

#if SPILL_OK
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int fd = -1, broken;
static off_t end;

/* The process's spill file, made on first use; -1 when there can be none. */
static int spill_file(void) {
    if (fd >= 0 || broken) return fd;
    broken = 1;
    const char *dir = spill_dir;
    /* a file-size limit (ulimit -f) would kill the process with SIGXFSZ at
     * the write past it, not fail it: no spill under any finite limit */
    struct rlimit fl;
    if (getrlimit(RLIMIT_FSIZE, &fl) != 0 || fl.rlim_cur != RLIM_INFINITY) return -1;
    struct statfs sf;
    if (statfs(dir, &sf) != 0 || (unsigned long)sf.f_type == 0x01021994ul /* tmpfs */ ||
        (unsigned long)sf.f_type == 0x858458f6ul /* ramfs */)
        return -1;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/isocheck-spill-XXXXXX", dir) >= (int)sizeof path) return -1;
    int f = mkstemp(path);
    if (f < 0) return -1;
    unlink(path);                                    /* gone when the process is, however it ends */
    fd = f; broken = 0;
    return fd;
}

static int write_all(int f, const char *b, size_t n, off_t at) {
    while (n) {
        ssize_t w = pwrite(f, b, n, at);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        b += w; n -= (size_t)w; at += w;
    }
    return 1;
}

/* Ranges spilled and not forgotten (spill_drop acts on these only). */
enum { MAX_RANGES = 64 };
static uintptr_t range_a[MAX_RANGES];
static size_t range_len[MAX_RANGES];

static int find_range(uintptr_t a, size_t len) {
    for (int i = 0; i < MAX_RANGES; i++) if (range_len[i] && range_a[i] == a && range_len[i] == len) return i;
    return -1;
}

size_t spill_pages(void *pages, size_t len) {
    uintptr_t a = (uintptr_t)pages;
    if (!pages || len < SPILL_PAGE || a % SPILL_PAGE || len % SPILL_PAGE) return 0;
    pthread_mutex_lock(&mu);
    if (find_range(a, len) >= 0) {                   /* spilled before: the file holds these bytes */
        (void)madvise(pages, len, MADV_DONTNEED);
        pthread_mutex_unlock(&mu);
        return len;
    }
    int slot = -1;                                   /* a free slot */
    for (int i = 0; i < MAX_RANGES && slot < 0; i++) if (!range_len[i]) slot = i;
    size_t done = 0;
    int f = slot < 0 ? -1 : spill_file();
    int live = 0;                                    /* every range forgotten: the file starts anew */
    for (int i = 0; i < MAX_RANGES; i++) live |= range_len[i] != 0;
    if (f >= 0 && !live && end > 0 && ftruncate(f, 0) == 0) end = 0;
    off_t at = end;
    if (f >= 0 && write_all(f, (const char *)a, len, at)) {
        void *q = mmap(NULL, len, PROT_READ, MAP_PRIVATE, f, at);
        if (q != MAP_FAILED) {
            if (mremap(q, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)a) == (void *)a) done = len;
            else munmap(q, len);
        }
        if (done) { end += (off_t)len; total += len; range_a[slot] = a; range_len[slot] = len; }
        else if (ftruncate(f, at) != 0) broken = 1;  /* the file keeps no dead pages */
    }
    pthread_mutex_unlock(&mu);
    return done;
}

size_t spill_file_bytes(void) {
    pthread_mutex_lock(&mu);
    size_t n = (size_t)end;
    pthread_mutex_unlock(&mu);
    return n;
}

void spill_pages_drop(void *pages, size_t len) {
    pthread_mutex_lock(&mu);
    if (pages && find_range((uintptr_t)pages, len) >= 0)
        (void)madvise(pages, len, MADV_DONTNEED);    /* read-only file pages: nothing is lost */
    pthread_mutex_unlock(&mu);
}

void spill_pages_forget(void *pages, size_t len) {
    pthread_mutex_lock(&mu);
    int i = pages ? find_range((uintptr_t)pages, len) : -1;
    if (i >= 0) range_len[i] = 0;
    pthread_mutex_unlock(&mu);
}
#else
size_t spill_pages(void *pages, size_t len) { (void)pages; (void)len; return 0; }
void spill_pages_drop(void *pages, size_t len) { (void)pages; (void)len; }
void spill_pages_forget(void *pages, size_t len) { (void)pages; (void)len; }
size_t spill_file_bytes(void) { return 0; }
#endif

/* glibc's chunk header: the size word before the block, bit 1 IS_MMAPPED
 * (a mapping of its own).  Not under AddressSanitizer, whose allocator
 * puts its own header there. */
#if SPILL_OK && !defined(__SANITIZE_ADDRESS__)
static int own_mapping(const void *p) { return (((const size_t *)p)[-1] & 2) != 0; }
#else
static int own_mapping(const void *p) { (void)p; return 0; }
#endif

size_t spill_block(void *p, size_t bytes) {
    if (!enabled || !p || bytes < SPILL_MIN || !own_mapping(p)) return 0;
    uintptr_t a; size_t len;
    inner_pages(p, bytes, &a, &len);
    return len < SPILL_MIN ? 0 : spill_pages((void *)a, len);
}

void spill_drop(void *p, size_t bytes) {
    if (!p) return;
    uintptr_t a; size_t len;
    inner_pages(p, bytes, &a, &len);
    spill_pages_drop((void *)a, len);
}

void spill_forget(void *p, size_t bytes) {
    if (!p) return;
    uintptr_t a; size_t len;
    inner_pages(p, bytes, &a, &len);
    spill_pages_forget((void *)a, len);
}
