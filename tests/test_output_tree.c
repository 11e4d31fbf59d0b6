/* test_output_tree.c — report directories (io/output_tree.h): a new or
 * empty DIR is filled whole by a rename, anything else is refused before
 * any work, and a discarded tree leaves nothing behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/output_tree.h"

static char base[256];

static int setup(void **state) {
    (void)state;
    snprintf(base, sizeof base, "/tmp/test_output_tree.XXXXXX");
    return mkdtemp(base) ? 0 : -1;
}

/* Entries of dir (not . and ..). */
static int entries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void rm_tree(const char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static char *path(const char *name) {
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", base, name);
    return p;
}

static void test_new_dir(void **state) {
    (void)state;
    output_tree t;
    ic_error err;
    ic_error_clear(&err);
    const char *subs[2] = { "001-a", "002-b" };
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path("rep"));
    assert_true(output_tree_open(&t, dir, subs, 2, &err));
    assert_int_equal(entries(base), 1);                     /* only the temporary directory */
    FILE *f = output_tree_file(&t, "index.html", &err);
    assert_non_null(f);
    fputs("top\n", f);
    assert_non_null(f = output_tree_file(&t, "001-a/index.html", &err));
    fputs("a\n", f);
    assert_null(output_tree_file(&t, "../x", &err));        /* outside: refused */
    ic_error_clear(&err);
    assert_null(output_tree_file(&t, "003-c/x", &err));     /* a subdirectory not made at open */
    ic_error_clear(&err);
    assert_null(output_tree_file(&t, "index.html", &err));  /* twice: exclusive */
    ic_error_clear(&err);
    assert_true(output_tree_commit(&t, &err));
    assert_int_equal(entries(base), 1);                     /* rep alone: no temporary left */
    assert_int_equal(entries(dir), 3);
    char p[600];
    snprintf(p, sizeof p, "%s/001-a/index.html", dir);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 2);
    /* now it is not empty: refused, and left as it was */
    assert_false(output_tree_open(&t, dir, NULL, 0, &err));
    assert_non_null(strstr(err.msg, "is not empty"));
    assert_int_equal(entries(dir), 3);
    rm_tree(dir);
}

static void test_refused(void **state) {
    (void)state;
    output_tree t;
    ic_error err;
    ic_error_clear(&err);
    FILE *f = fopen(path("file"), "w");
    assert_non_null(f);
    fclose(f);
    assert_false(output_tree_open(&t, path("file"), NULL, 0, &err));
    assert_non_null(strstr(err.msg, "is not a directory"));
    ic_error_clear(&err);
    assert_false(output_tree_check(path("missing/rep"), &err) && output_tree_open(&t, path("missing/rep"), NULL, 0, &err));
    unlink(path("file"));
    assert_int_equal(entries(base), 0);
}

/* An empty DIR is filled; a discarded tree leaves DIR and its parent as
 * they were. */
static void test_empty_and_discard(void **state) {
    (void)state;
    output_tree t;
    ic_error err;
    ic_error_clear(&err);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path("empty"));
    assert_int_equal(mkdir(dir, 0755), 0);
    const char *subs[1] = { "s" };
    assert_true(output_tree_open(&t, dir, subs, 1, &err));
    FILE *f = output_tree_file(&t, "s/x.html", &err);
    assert_non_null(f);
    fputs("x", f);
    output_tree_discard(&t);
    assert_int_equal(entries(base), 1);
    assert_int_equal(entries(dir), 0);
    assert_true(output_tree_open(&t, dir, NULL, 0, &err));
    assert_non_null(output_tree_file(&t, "index.html", &err));
    assert_true(output_tree_commit(&t, &err));
    assert_int_equal(entries(dir), 1);
    rm_tree(dir);
}

static int teardown(void **state) {
    (void)state;
    rm_tree(base);
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_dir),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_empty_and_discard),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
