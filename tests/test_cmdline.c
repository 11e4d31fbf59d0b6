/* test_cmdline.c — the option parser (programs/cmdline.h): values checked
 * while parsing, operands, and options whose value is optional. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "programs/cmdline.h"

static const char *const what_names[] = { "solver", "text", NULL };

typedef struct parsed {
    int what, flag;
    int64_t n;
    const char *ops[2];
    int nops;
    cmdline_result res;
    ic_error err;
} parsed;

static parsed parse(int argc, const char **argv) {
    parsed p;
    memset(&p, 0, sizeof p);
    p.what = -1;
    cmd_opt opts[] = {
        CMD_OPT_CHOICE("parse-only", &p.what, what_names, "WHAT", "read, do not solve"),
        CMD_FLAG("verbose", 'v', &p.flag, "more"),
        CMD_INT("limit", 0, &p.n, 0, 100, "N", "a bound"),
        CMD_END
    };
    cmd_spec spec = { "prog", "[options] FILE", NULL, opts, "FILE", 1, 2, NULL };
    ic_error_clear(&p.err);
    p.res = cmdline_parse(&spec, argc, (char **)argv, p.ops, &p.nops, &p.err);
    return p;
}

static void optional_value_alone_takes_the_first_choice(void **state) {
    (void)state;
    const char *argv[] = { "prog", "--parse-only", "in.cnf" };
    parsed p = parse(3, argv);
    assert_int_equal(p.res, CMDLINE_OK);
    assert_int_equal(p.what, 0);
    assert_int_equal(p.nops, 1);          /* the next argument stays an operand */
    assert_string_equal(p.ops[0], "in.cnf");
}

static void optional_value_after_equals(void **state) {
    (void)state;
    const char *argv[] = { "prog", "in.cnf", "--parse_only=text" };
    parsed p = parse(3, argv);
    assert_int_equal(p.res, CMDLINE_OK);
    assert_int_equal(p.what, 1);
    const char *bad[] = { "prog", "--parse-only=all", "in.cnf" };
    p = parse(3, bad);
    assert_int_equal(p.res, CMDLINE_ERROR);
    assert_non_null(strstr(p.err.msg, "unknown value 'all'"));
}

static void values_are_checked(void **state) {
    (void)state;
    const char *over[] = { "prog", "--limit", "101", "f" };
    parsed p = parse(4, over);
    assert_int_equal(p.res, CMDLINE_ERROR);
    assert_non_null(strstr(p.err.msg, "101"));
    const char *flagval[] = { "prog", "--verbose=1", "f" };
    assert_int_equal(parse(3, flagval).res, CMDLINE_ERROR);
    const char *none[] = { "prog", "-v" };
    p = parse(2, none);
    assert_int_equal(p.res, CMDLINE_ERROR);            /* the operand is missing */
    const char *ok[] = { "prog", "-v", "--limit=7", "a", "b" };
    p = parse(5, ok);
    assert_int_equal(p.res, CMDLINE_OK);
    assert_int_equal(p.flag, 1);
    assert_int_equal(p.n, 7);
    assert_int_equal(p.nops, 2);
    assert_int_equal(p.what, -1);                      /* not given: untouched */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(optional_value_alone_takes_the_first_choice),
        cmocka_unit_test(optional_value_after_equals),
        cmocka_unit_test(values_are_checked),
    };
    return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
