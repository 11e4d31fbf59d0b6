/* test_follow_chunks.c — one input, one answer under `check --follow`:
 * the inputs of tests/data/fuzz-regress/follow-* (findings of the follow
 * fuzz target, and hand-made ones: two bytes seeding the pieces, then a
 * history) run through tests/fuzz/fuzz_follow_body.h, which feeds the
 * history through a pipe in those pieces and compares exit code and final
 * report with the batch check of the same bytes (an abort is a failure).
 * Each input also runs with every seed of a few more pieces (0..31), so a
 * finding is tried under other cuts too; all of it with --threads 1 and
 * with --threads 2 (a reader thread parses while the checks run:
 * frontend/online/follow_pipe.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_follow_body.h"

#ifndef FOLLOW_REGRESS_DIR
#define FOLLOW_REGRESS_DIR "tests/data/fuzz-regress"
#endif

static size_t replay(const char *path) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(n >= 2);
    follow_one(buf, n);                                   /* its own cuts */
    for (unsigned s = 0; s < 32; s++) {                   /* and others */
        buf[0] = (uint8_t)(s * 37);
        buf[1] = (uint8_t)s;
        follow_one(buf, n);
    }
    return n;
}

static void regress_all(void) {
    DIR *d = opendir(FOLLOW_REGRESS_DIR);
    assert_non_null(d);
    size_t count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, "follow-", 7) != 0) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FOLLOW_REGRESS_DIR, e->d_name);
        replay(path);
        count++;
    }
    closedir(d);
    assert_true(count >= 1);                              /* the hand-made ones at least */
}

static void test_follow_regress(void **state) {
    (void)state;
    follow_threads[0] = '1';
    regress_all();
}

static void test_follow_regress_reader_thread(void **state) {
    (void)state;
    follow_threads[0] = '2';
    regress_all();
    follow_threads[0] = '1';
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follow_regress),
        cmocka_unit_test(test_follow_regress_reader_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
