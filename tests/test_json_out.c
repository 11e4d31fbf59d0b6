/* test_json_out.c — the one JSON string escaper: quotes and backslashes
 * escaped, every control character written as \u00XX (the old copy in
 * check_report.c dropped them), other bytes and UTF-8 kept, NULL as "". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/json_out.h"

static char *escaped(const char *s) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    json_write_string(f, s);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void expect(const char *in, const char *out) {
    char *got = escaped(in);
    assert_string_equal(got, out);
    free(got);
}

static void plain_and_utf8_kept(void **state) {
    (void)state;
    expect("", "\"\"");
    expect("key x1", "\"key x1\"");
    expect("caf\xc3\xa9 \x7f", "\"caf\xc3\xa9 \x7f\"");
}

static void quote_and_backslash_escaped(void **state) {
    (void)state;
    expect("a\"b\\c", "\"a\\\"b\\\\c\"");
}

static void control_characters_escaped_not_dropped(void **state) {
    (void)state;
    expect("a\nb\tc\rd", "\"a\\u000ab\\u0009c\\u000dd\"");
    expect("\x01\x1f", "\"\\u0001\\u001f\"");
}

static void null_is_empty_string(void **state) {
    (void)state;
    expect(NULL, "\"\"");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_and_utf8_kept),
        cmocka_unit_test(quote_and_backslash_escaped),
        cmocka_unit_test(control_characters_escaped_not_dropped),
        cmocka_unit_test(null_is_empty_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
