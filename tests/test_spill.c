/* test_spill.c — io/spill.h on a mapping of the test's own: after
 * spill_pages the bytes at every address are the same and the pages are
 * no longer resident; read back, they are the same again and resident;
 * spill_pages_drop makes them leave again (and touches nothing it did not
 * spill); a range spilled again is not written again, only dropped (the
 * index's arrays, index_spill.h, at each stage that does not read them);
 * misaligned ranges and a temporary directory on tmpfs are
 * refused with the memory unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/spill.h"

enum { PAGES = 1024, PAGE = 4096 };

/* Resident kB of [p, p + len): its pages present in the process's page
 * table (/proc/self/pagemap, bit 63 a page: what RSS counts). */
static long resident_kb(const void *p, size_t len) {
    FILE *f = fopen("/proc/self/pagemap", "rb");
    assert_non_null(f);
    long kb = 0;
    uintptr_t first = (uintptr_t)p / PAGE;
    assert_int_equal(fseeko(f, (off_t)(first * 8), SEEK_SET), 0);
    for (size_t i = 0; i < len / PAGE; i++) {
        uint64_t e;
        assert_int_equal(fread(&e, sizeof e, 1, f), 1);
        if (e >> 63 & 1) kb += PAGE / 1024;
    }
    fclose(f);
    return kb;
}

static uint32_t *pattern_block(void) {
    void *m = mmap(NULL, (size_t)PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    uint32_t *w = m;
    for (size_t i = 0; i < (size_t)PAGES * PAGE / 4; i++) w[i] = (uint32_t)(i * 2654435761u);
    return w;
}

static int pattern_holds(const uint32_t *w) {
    for (size_t i = 0; i < (size_t)PAGES * PAGE / 4; i++) if (w[i] != (uint32_t)(i * 2654435761u)) return 0;
    return 1;
}

static void spilled_pages_keep_their_bytes(void **state) {
    (void)state;
    struct statfs sf;
    if (statfs("/tmp", &sf) == 0 && (unsigned long)sf.f_type == 0x01021994ul) skip();
    uint32_t *w = pattern_block();
    size_t len = (size_t)PAGES * PAGE;
    assert_true(resident_kb(w, len) >= PAGES * 4 - 8);
    size_t before = spill_total();
    assert_int_equal(spill_pages(w, len), len);
    assert_int_equal(spill_total() - before, len);
    assert_true(resident_kb(w, len) < 64);              /* out of the process */
    assert_true(pattern_holds(w));                      /* read back: the same bytes */
    assert_true(resident_kb(w, len) >= PAGES * 4 - 8);
    spill_pages_drop(w, len);
    assert_true(resident_kb(w, len) < 64);
    assert_true(pattern_holds(w));
    /* a range it did not spill is never dropped */
    uint32_t *v = pattern_block();
    spill_pages_drop(v, len);
    assert_true(pattern_holds(v));
    spill_pages_forget(w, len);
    spill_pages_drop(w, len);                          /* forgotten: left alone */
    assert_true(resident_kb(w, len) >= PAGES * 4 - 8);
    munmap(w, len);
    munmap(v, len);
}

/* Once every spilled range is forgotten (its block freed), the next spill
 * starts the file anew: many histories in one run take one's space. */
static void forgotten_space_reused(void **state) {
    (void)state;
    struct statfs sf;
    if (statfs("/tmp", &sf) == 0 && (unsigned long)sf.f_type == 0x01021994ul) skip();
    size_t len = (size_t)PAGES * PAGE;
    uint32_t *a = pattern_block(), *b = pattern_block();
    assert_int_equal(spill_pages(a, len), len);
    size_t held = spill_file_bytes();
    assert_true(held >= len);
    assert_int_equal(spill_pages(b, len), len);             /* a still live: appended */
    assert_int_equal(spill_file_bytes(), held + len);
    spill_pages_forget(a, len);
    munmap(a, len);
    spill_pages_forget(b, len);
    munmap(b, len);
    uint32_t *c = pattern_block();
    assert_int_equal(spill_pages(c, len), len);
    assert_int_equal(spill_file_bytes(), len);              /* from the file's start */
    assert_true(pattern_holds(c));
    spill_pages_forget(c, len);
    munmap(c, len);
}

/* A range spilled again (not forgotten): no second copy in the file, the
 * pages read back since leave, the bytes stay; one forget is enough. */
static void spilled_again_only_dropped(void **state) {
    (void)state;
    struct statfs sf;
    if (statfs("/tmp", &sf) == 0 && (unsigned long)sf.f_type == 0x01021994ul) skip();
    size_t len = (size_t)PAGES * PAGE;
    uint32_t *w = pattern_block();
    assert_int_equal(spill_pages(w, len), len);
    size_t held = spill_file_bytes(), total = spill_total();
    assert_true(pattern_holds(w));                         /* read back */
    assert_true(resident_kb(w, len) >= PAGES * 4 - 8);
    assert_int_equal(spill_pages(w, len), len);
    assert_int_equal(spill_file_bytes(), held);            /* not written again */
    assert_int_equal(spill_total(), total);
    assert_true(resident_kb(w, len) < 64);                 /* dropped */
    assert_true(pattern_holds(w));
    spill_pages_forget(w, len);
    spill_pages_drop(w, len);                              /* forgotten: left alone */
    assert_true(resident_kb(w, len) >= PAGES * 4 - 8);
    munmap(w, len);
}

static void refused_unchanged(void **state) {
    (void)state;
    uint32_t *w = pattern_block();
    size_t len = (size_t)PAGES * PAGE;
    assert_int_equal(spill_pages((char *)w + 16, len - PAGE), 0);     /* not page-aligned */
    assert_int_equal(spill_pages(w, len - 100), 0);                   /* not whole pages */
    assert_true(pattern_holds(w));
    assert_true(resident_kb(w, len) >= PAGES * 4 - 8);
    /* spill_block without spill_enable: off */
    char *b = malloc(8u << 20);
    assert_non_null(b);
    memset(b, 7, 8u << 20);
    assert_int_equal(spill_block(b, 8u << 20), 0);
    free(b);
    /* a temporary directory on tmpfs: its pages would be memory (a child:
     * the spill file is made once a process) */
    struct statfs sf;
    if (statfs("/dev/shm", &sf) == 0 && (unsigned long)sf.f_type == 0x01021994ul) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            spill_enable("/dev/shm");
            _exit(spill_pages(w, len) == 0 && pattern_holds(w) ? 0 : 1);
        }
        int st = 0;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    munmap(w, len);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_unchanged),
        cmocka_unit_test(spilled_pages_keep_their_bytes),
        cmocka_unit_test(forgotten_space_reused),
        cmocka_unit_test(spilled_again_only_dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
