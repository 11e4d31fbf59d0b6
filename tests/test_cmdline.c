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

/* Every number option refuses leading white space alike (strtoll and
 * strtod skip it, a newline included), and a '-' for an unsigned value;
 * the error names the option and shows the value with escapes. */
static void numbers_start_with_a_digit(void **state) {
    (void)state;
    int64_t i = -1;
    uint64_t u = 0;
    double r = -1;
    cmd_opt opts[] = {
        CMD_INT("threads", 0, &i, 1, 64, "N", "an int"),
        CMD_U64("seed", 0, &u, 0, UINT64_MAX, "S", "an unsigned"),
        CMD_REAL("time-limit", 0, &r, 0, 100, "S", "a real"),
        CMD_END
    };
    cmd_spec spec = { "prog", "[options]", NULL, opts, NULL, 0, 0, NULL };
    static const struct { const char *arg, *msg; } bad[] = {
        { "--threads=\n3", "option --threads expects an integer in 1..64, found '\\n3'" },
        { "--threads= 3", "option --threads expects an integer in 1..64, found ' 3'" },
        { "--threads=\t3", "option --threads expects an integer in 1..64, found '\\t3'" },
        { "--threads=\v3", "option --threads expects an integer in 1..64, found '\\x0b3'" },
        { "--threads=3\n", "option --threads expects an integer in 1..64, found '3\\n'" },
        { "--threads=+ 3", "option --threads expects an integer in 1..64, found '+ 3'" },
        { "--seed=\n5", "option --seed expects an integer in 0..18446744073709551615, found '\\n5'" },
        { "--seed=-1", "option --seed expects an integer in 0..18446744073709551615, found '-1'" },
        { "--seed= 5", "option --seed expects an integer in 0..18446744073709551615, found ' 5'" },
        { "--time-limit=\n1", "option --time-limit expects a number in 0..100, found '\\n1'" },
        { "--time-limit= 1", "option --time-limit expects a number in 0..100, found ' 1'" },
        { "--time-limit=\r1", "option --time-limit expects a number in 0..100, found '\\x0d1'" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        const char *argv[] = { "prog", bad[k].arg };
        const char *ops[1];
        int nops;
        ic_error err;
        ic_error_clear(&err);
        assert_int_equal(cmdline_parse(&spec, 2, (char **)argv, ops, &nops, &err), CMDLINE_ERROR);
        assert_string_equal(err.msg, bad[k].msg);
    }
    const char *good[] = { "prog", "--threads=+3", "--seed", "+7", "--time-limit=.5" };
    const char *ops[1];
    int nops;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(cmdline_parse(&spec, 5, (char **)good, ops, &nops, &err), CMDLINE_OK);
    assert_int_equal(i, 3);
    assert_int_equal(u, 7);
    assert_true(r == 0.5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(optional_value_alone_takes_the_first_choice),
        cmocka_unit_test(optional_value_after_equals),
        cmocka_unit_test(values_are_checked),
        cmocka_unit_test(numbers_start_with_a_digit),
    };
    return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
