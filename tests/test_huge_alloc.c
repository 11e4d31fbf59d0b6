/* test_huge_alloc.c — vec.h's allocations advise huge pages from
 * HUGE_PAGES_ALLOC_MIN bytes on (include/huge_pages.h): the mapping of an
 * xmalloc, xcalloc or xrealloc block that large carries the kernel's
 * huge-page flag (/proc/self/smaps, VmFlags "hg"), one under the floor
 * does not, and the advice changes no byte (a block grown by xrealloc
 * keeps its contents).  Skipped where the kernel takes no such advice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vec.h"

/* 1 when the mapping holding p has VmFlags "hg", 0 when not, -1 when
 * /proc/self/smaps does not say. */
static int advised(const void *p) {
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return -1;
    char line[512];
    int in = 0, r = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long a, z;
        if (sscanf(line, "%lx-%lx ", &a, &z) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = (uintptr_t)p >= a && (uintptr_t)p < z;
            continue;
        }
        if (in && strncmp(line, "VmFlags:", 8) == 0) { r = strstr(line, " hg") != NULL; break; }
    }
    fclose(f);
    return r;
}

/* Whether this kernel takes MADV_HUGEPAGE at all (else nothing to test). */
static int kernel_takes_advice(void) {
#ifdef MADV_HUGEPAGE
    size_t len = (size_t)4 << 20;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return 0;
    int ok = madvise(m, len, MADV_HUGEPAGE) == 0 && advised(m) == 1;
    munmap(m, len);
    return ok;
#else
    return 0;
#endif
}

static void large_blocks_advised_small_not(void **state) {
    (void)state;
    if (!kernel_takes_advice()) skip();
    size_t small = HUGE_PAGES_ALLOC_MIN - ((size_t)1 << 20), large = HUGE_PAGES_ALLOC_MIN * 2;
    uint8_t *s = xmalloc(small);                 /* its own mapping (glibc: above the mmap threshold) */
    memset(s, 1, small);
    assert_int_equal(advised(s + small / 2), 0);
    uint32_t *m = xmalloc(large);
    for (size_t i = 0; i < large / 4; i++) m[i] = (uint32_t)(i * 2654435761u);
    assert_int_equal(advised((uint8_t *)m + large / 2), 1);
    uint64_t *c = xcalloc(large / 8, 8);
    assert_int_equal(advised((uint8_t *)c + large / 2), 1);
    uint64_t sum = 0;
    for (size_t i = 0; i < large / 8; i++) sum += c[i];
    assert_int_equal(sum, 0);                    /* still zeroed */
    m = xrealloc(m, large * 4);                  /* grown: same bytes, still advised */
    for (size_t i = 0; i < large / 4; i++) if (m[i] != (uint32_t)(i * 2654435761u)) fail_msg("byte %zu changed", i * 4);
    assert_int_equal(advised((uint8_t *)m + large * 3), 1);
    free(s); free(m); free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_blocks_advised_small_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
