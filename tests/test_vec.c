/* test_vec.c — the growable array and the error type. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "vec.h"
#include "error.h"

static void push_pop_grow(void **state) {
    (void)state;
    vec_int v; vec_init(v);
    for (int i = 0; i < 1000; i++) vec_push(v, i * 3);
    assert_int_equal(v.len, 1000);
    assert_true(v.cap >= 1000);
    long sum = 0;
    vec_foreach(int, p, v) sum += *p;
    assert_int_equal(sum, 3L * 999 * 1000 / 2);
    assert_int_equal(vec_pop(v), 2997);
    assert_int_equal(vec_last(v), 2994);
    vec_resize(v, 10);
    assert_int_equal(v.len, 10);
    vec_free(v);
    assert_null(v.data);
}

static void error_keeps_first_and_formats(void **state) {
    (void)state;
    ic_error e; ic_error_clear(&e);
    ic_error_at(&e, "h.txt", 7, "expected '%c', found '%c'", ')', 'x');
    ic_error_at(&e, "other", 9, "second");
    assert_true(e.set);
    assert_int_equal(e.line, 7);
    assert_string_equal(e.msg, "expected ')', found 'x'");
    char buf[256]; FILE *f = fmemopen(buf, sizeof buf, "w");
    ic_error_print(f, "isocheck", &e); fclose(f);
    assert_string_equal(buf, "isocheck: h.txt:7: expected ')', found 'x'\n");
    ic_error_clear(&e);
    ic_error_at_offset(&e, "h.bin", 42, "truncated");
    f = fmemopen(buf, sizeof buf, "w");
    ic_error_print(f, "isocheck", &e); fclose(f);
    assert_string_equal(buf, "isocheck: h.bin: byte 42: truncated\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(push_pop_grow),
        cmocka_unit_test(error_keeps_first_and_formats),
    };
    return cmocka_run_group_tests_name("vec", tests, NULL, NULL);
}
