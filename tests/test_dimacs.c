/* test_dimacs.c — the DIMACS parser: good inputs give the right formula,
 * every malformed input gives its own message at the right line, the
 * extension hook (for GNF-like formats) sees keyword lines, variables are
 * numbered by use (not by the header or the largest index), lines cross
 * the reader's blocks (and the reader's size hint is right), and a
 * deadline stops reading. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gsat.h"
#include "solver/dimacs.h"
#include "solver/solver.h"

static int parse_len(gsat *s, const char *text, size_t len, const dimacs_opts *o, dimacs_info *info, ic_error *err) {
    reader r;
    reader_open_mem(&r, "t.cnf", text, len);
    ic_error_clear(err);
    int rc = dimacs_parse(s, &r, o, info, err);
    reader_close(&r);
    return rc;
}

static int parse_str(gsat *s, const char *text, const dimacs_opts *o, dimacs_info *info, ic_error *err) {
    return parse_len(s, text, strlen(text), o, info, err);
}

/* Parse len bytes that must fail; check "t.cnf:LINE: message". */
static void expect_error_len(const char *text, size_t len, long line, const char *msg) {
    gsat *s = gsat_new();
    ic_error err;
    int rc = parse_len(s, text, len, NULL, NULL, &err);
    if (rc != -1 || !err.set || err.line != line || strcmp(err.msg, msg) != 0)
        fail_msg("input [%s]: rc %d, got line %ld '%s', want line %ld '%s'", text, rc, err.line, err.msg, line, msg);
    assert_string_equal(err.file, "t.cnf");
    gsat_free(s);
}

static void expect_error(const char *text, long line, const char *msg) { expect_error_len(text, strlen(text), line, msg); }

static void good_inputs(void **state) {
    (void)state;
    gsat *s = gsat_new();
    ic_error err;
    dimacs_info info;
    const char *text =
        "c a comment\n"
        "  p cnf 4 3\n"
        "1 -2 0\n"
        "\t2 3\n"          /* a clause across lines */
        "c comment inside\n"
        " -4 0 4 -1 0\r\n" /* two clauses on one line, CRLF */
        "\n";
    assert_int_equal(parse_str(s, text, NULL, &info, &err), 0);
    assert_false(err.set);
    assert_int_equal(info.vars, 4);
    assert_int_equal(info.declared_vars, 4);
    assert_int_equal(info.clauses, 3);
    assert_int_equal(gsat_num_vars(s), 4);
    /* (1|-2) (2|3|-4) (4|-1): force 1, then 4 */
    int as[] = {2};
    assert_int_equal(gsat_solve(s, as, 1), GSAT_SAT);
    assert_int_equal(gsat_value(s, 1), 1);
    assert_int_equal(gsat_value(s, 4), 1);
    int as2[] = {-1, 2};
    assert_int_equal(gsat_solve(s, as2, 2), GSAT_UNSAT);
    dimacs_info_free(&info);
    gsat_free(s);

    /* SATLIB end marker (what follows is not read, even a NUL byte), empty
     * clause; declared variables that no clause names get nothing */
    s = gsat_new();
    assert_int_equal(parse_len(s, "p cnf 9 2\n1 0\n-1 0\n%\n0\n\0\n", 20, NULL, &info, &err), 0);
    assert_int_equal(gsat_num_vars(s), 1);
    assert_int_equal(info.vars, 1);
    assert_int_equal(info.declared_vars, 9);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    dimacs_info_free(&info);
    gsat_free(s);
    s = gsat_new();
    assert_int_equal(parse_str(s, "p cnf 0 1\n0\n", NULL, &info, &err), 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    dimacs_info_free(&info);
    gsat_free(s);
    s = gsat_new();
    assert_int_equal(parse_str(s, "p cnf 0 0\n", NULL, &info, &err), 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    dimacs_info_free(&info);
    gsat_free(s);
    /* a last line without a newline; leading zeros are still the number */
    s = gsat_new();
    assert_int_equal(parse_str(s, "p cnf 12 2\n-1 -2 0\n00000000000000000000000000000012 0", NULL, &info, &err), 0);
    assert_int_equal(info.clauses, 2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(gsat_value(s, 12), 1);
    dimacs_info_free(&info);
    gsat_free(s);
    /* the largest index there is; 2^31 is beyond it */
    s = gsat_new();
    assert_int_equal(parse_str(s, "p cnf 2147483647 1\n2147483647 0\n", NULL, &info, &err), 0);
    assert_int_equal(gsat_num_vars(s), 1);
    assert_int_equal(info.names.data[1], 2147483647);
    dimacs_info_free(&info);
    gsat_free(s);
}

/* Values of the file's variables in the solver's model, through names. */
static int file_value(const gsat *s, const dimacs_info *info, int file_var) {
    for (size_t v = 1; v < info->names.len; v++)
        if (info->names.data[v] == file_var) return gsat_value(s, (int)v);
    fail_msg("file variable %d not numbered", file_var);
    return 0;
}

/* Issue 14: a header or an index allocates nothing beyond what is named. */
static void numbering_by_use(void **state) {
    (void)state;
    gsat *s = gsat_new();
    ic_error err;
    dimacs_info info;
    /* sparse: renumbered 1..3 in the file's order */
    assert_int_equal(parse_str(s, "p cnf 2000000000 3\n-2000000000 7 0\n2000000000 0\n-7 40000 0\n", NULL, &info, &err), 0);
    assert_int_equal(gsat_num_vars(s), 3);
    assert_int_equal(info.vars, 3);
    assert_int_equal(info.names.len, 4);
    assert_int_equal(info.names.data[1], 7);
    assert_int_equal(info.names.data[2], 40000);
    assert_int_equal(info.names.data[3], 2000000000);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(file_value(s, &info, 2000000000), 1);
    assert_int_equal(file_value(s, &info, 7), 1);
    assert_int_equal(file_value(s, &info, 40000), 1);
    assert_int_equal(varnum_file_lit(&info.names, -3), -2000000000);
    dimacs_info_free(&info);
    gsat_free(s);
    /* dense with holes: the file's numbering is kept, the holes unnamed */
    s = gsat_new();
    assert_int_equal(parse_str(s, "p cnf 100 2\n1 -3 0\n4 5 0\n", NULL, &info, &err), 0);
    assert_int_equal(gsat_num_vars(s), 5);
    assert_int_equal(info.vars, 4);
    assert_int_equal(info.names.data[2], 0);
    assert_int_equal(info.names.data[3], 3);
    dimacs_info_free(&info);
    gsat_free(s);
    /* text only: checked and numbered, nothing in the solver */
    s = gsat_new();
    dimacs_opts o = {NULL, NULL, 0, 0, 1};
    assert_int_equal(parse_str(s, "p cnf 3 1\n1 -3 0\n", &o, &info, &err), 0);
    assert_int_equal(gsat_num_vars(s), 0);
    assert_int_equal(info.vars, 2);
    dimacs_info_free(&info);
    gsat_free(s);
}

/* Contradictory units while reading: the answer is UNSAT, not an error. */
static void unsat_while_reading(void **state) {
    (void)state;
    gsat *s = gsat_new();
    ic_error err;
    assert_int_equal(parse_str(s, "p cnf 2 4\n1 0\n-1 0\n2 0\n1 2 0\n", NULL, NULL, &err), 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_free(s);
    /* units are propagated once, after the last clause: the facts they
     * imply through clauses read before and after them are known when
     * reading ends, and so is a contradiction found only by propagation */
    s = gsat_new();
    assert_int_equal(parse_str(s, "p cnf 4 4\n1 2 0\n-1 0\n-2 3 0\n-3 4 0\n", NULL, NULL, &err), 0);
    assert_false(gsat_inconsistent(s));
    assert_int_equal(gsat_fixed(s, -1), 1);
    assert_int_equal(gsat_fixed(s, 2), 1);
    assert_int_equal(gsat_fixed(s, 3), 1);
    assert_int_equal(gsat_fixed(s, 4), 1);
    gsat_free(s);
    s = gsat_new();
    assert_int_equal(parse_str(s, "p cnf 3 4\n1 2 0\n-1 0\n-2 3 0\n-3 0\n", NULL, NULL, &err), 0);
    assert_true(gsat_inconsistent(s));
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_free(s);
}

/* A deadline already past: reading stops with DIMACS_TIMEOUT, no error. */
static void deadline_stops_reading(void **state) {
    (void)state;
    gsat *s = gsat_new();
    ic_error err;
    dimacs_opts o = {NULL, NULL, 0, gsat_now() - 1, 0};
    assert_int_equal(parse_str(s, "p cnf 2 1\n1 2 0\n", &o, NULL, &err), DIMACS_TIMEOUT);
    assert_false(err.set);
    gsat_free(s);
}

/* Through a file: lines cross the reader's 256 KB blocks, one line is
 * longer than a block (the buffer grows), no final newline. */
static void lines_across_blocks(void **state) {
    (void)state;
    char path[] = "/tmp/gsat_dimacs_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    const int n = 60000;
    fprintf(f, "c x_i != x_(i+1), one long clause of all negations, -x_1\np cnf %d %d\n", n, 2 * (n - 1) + 2);
    for (int i = 1; i < n; i++) fprintf(f, "%d %s%d 0\n-%d -%d 0\n", i, i % 7 ? "" : "\n", i + 1, i, i + 1);
    for (int i = 1; i <= n; i++) fprintf(f, " -%d", i);    /* ~400 KB on one line */
    fprintf(f, " 0\n-1 0");
    long bytes = ftell(f);
    fclose(f);
    /* the size hint (the text is reserved from it): a file's size, what is
     * left of it once lines were served, memory's length, a pipe's 0 */
    reader r;
    ic_error e0;
    ic_error_clear(&e0);
    assert_int_equal(reader_open(&r, path, &e0), 0);
    assert_int_equal(reader_size_hint(&r), (size_t)bytes);
    char *b, *e;
    assert_int_equal(reader_lines(&r, &b, &e), 1);
    assert_int_equal(reader_size_hint(&r), (size_t)bytes - (size_t)(e - b));
    reader_close(&r);
    reader_open_mem(&r, "m", "1 0\n", 4);
    assert_int_equal(reader_size_hint(&r), 4);
    reader_close(&r);
    int pfd[2];
    assert_int_equal(pipe(pfd), 0);
    r.fd = pfd[0];
    r.len = r.pos = 0;
    assert_int_equal(reader_size_hint(&r), 0);
    close(pfd[0]); close(pfd[1]);
    gsat *s = gsat_new();
    ic_error err;
    ic_error_clear(&err);
    dimacs_info info;
    if (dimacs_parse_file(s, path, NULL, &info, &err) != 0) fail_msg("%s:%ld: %s", err.file, err.line, err.msg);
    assert_int_equal(info.vars, n);
    assert_int_equal(info.clauses, 2 * (n - 1) + 2);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);   /* -1, 2, -3, 4, ... */
    for (int v = 1; v <= n; v++) assert_int_equal(gsat_value(s, v), v % 2 ? -1 : 1);
    dimacs_info_free(&info);
    gsat_free(s);
    unlink(path);
}

static void malformed_inputs(void **state) {
    (void)state;
    expect_error("", 1, "empty input: expected the 'p cnf VARIABLES CLAUSES' header");
    expect_error("\n  \n", 1, "empty input: expected the 'p cnf VARIABLES CLAUSES' header");
    expect_error("c only a comment\n", 1, "missing 'p cnf VARIABLES CLAUSES' header");
    expect_error("1 2 0\n", 1, "clause before the 'p cnf VARIABLES CLAUSES' header");
    expect_error("p cnf 3\n", 1, "bad header 'p cnf 3': expected 'p cnf VARIABLES CLAUSES'");
    expect_error("p dnf 3 1\n", 1, "bad header 'p dnf 3 1': expected 'p cnf VARIABLES CLAUSES'");
    expect_error("p cnf -3 1\n", 1, "bad header 'p cnf -3 1': expected 'p cnf VARIABLES CLAUSES'");
    expect_error("p cnf 3 1 7\n", 1, "bad header 'p cnf 3 1 7': expected 'p cnf VARIABLES CLAUSES'");
    expect_error("p cnf x 1\n", 1, "bad header 'p cnf x 1': expected 'p cnf VARIABLES CLAUSES'");
    expect_error("p cnf 3000000000 1\n", 1, "header declares 3000000000 variables, more than the limit 2147483647");
    expect_error("p cnf 3 99999999999999999\n", 1, "header declares 1099511627776 clauses, more than the limit 2147483647");
    expect_error("p cnf 3 1\np cnf 3 1\n", 2, "second 'p' header (the first is on line 1)");
    expect_error("p cnf 3 2\n1 2 0\n4 0\n", 3, "literal 4 out of range: the header declares 3 variables");
    expect_error("p cnf 3 2\n1 -7 0\n", 2, "literal -7 out of range: the header declares 3 variables");
    expect_error("p cnf 3 1\n1 99999999999 0\n", 2, "literal out of range: variable index above 2147483647");
    expect_error("p cnf 3 1\n1 2147483648 0\n", 2, "literal out of range: variable index above 2147483647");
    expect_error("p cnf 3 1\n-99999999999999999999999999999999999 0\n", 2, "literal out of range: variable index above 2147483647");
    /* issue 14: tokens glued to a literal are rejected, not split */
    expect_error("p cnf 3 1\n0001-1 0\n", 2, "unexpected character '-' in a literal");
    expect_error("p cnf 3 1\n1 2-3 0\n", 2, "unexpected character '-' in a literal");
    expect_error("p cnf 3 1\n1 --2 0\n", 2, "expected a literal, found '--'");
    expect_error("p cnf 3 1\n3 0\n-", 3, "expected a literal, found '-'");
    /* issue 14: a NUL byte anywhere is bad input, at its line */
    expect_error_len("\0\n", 2, 1, "NUL byte in the input (expected DIMACS or GNF text)");
    expect_error_len("p cnf 2 1\n1\0 2 0\n", 16, 2, "NUL byte in the input (expected DIMACS or GNF text)");
    expect_error_len("p cnf 2 1\nc a comment\0\n1 2 0\n", 29, 2, "NUL byte in the input (expected DIMACS or GNF text)");
    expect_error_len("p cnf 2 1\n1 2 0\n\n\0", 18, 4, "NUL byte in the input (expected DIMACS or GNF text)");
    expect_error("p cnf 3 2\n1 2 0\n", 2, "the header declares 2 clauses, found 1");
    expect_error("p cnf 3 1\n1 2 0\n3 0\n\n", 3, "the header declares 1 clauses, found 2");
    expect_error("p cnf 3 1\n1 2\n", 2, "the last clause is not terminated by 0");
    expect_error("p cnf 3 1\n1 x 0\n", 2, "unexpected 'x' after literals (expected a literal or 0)");
    expect_error("p cnf 3 1\n1 2a 0\n", 2, "unexpected character 'a' in a literal");
    expect_error("p cnf 3 1\n1 - 2 0\n", 2, "expected a literal, found '-'");
    expect_error("p cnf 3 1\n1 -x 0\n", 2, "expected a literal, found '-x'");
    expect_error("p cnf 3 1\n1 -0\n", 2, "'-0' is not a literal");
    expect_error("p cnf 3 1\nhello 1 2 0\n", 2, "unexpected 'hello' (expected a clause, a comment or the 'p cnf' header)");
    expect_error("p cnf 3 1\n1 0\n\n\nedge 1 2\n", 5, "unexpected 'edge' (expected a clause, a comment or the 'p cnf' header)");
    expect_error("p cnf 3 1\n1 0\np cnf 3 1\n", 3, "second 'p' header (the first is on line 1)");
    expect_error("c x\n1 0\np cnf 3 1\n", 2, "clause before the 'p cnf VARIABLES CLAUSES' header");
}

static void missing_file(void **state) {
    (void)state;
    gsat *s = gsat_new();
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(dimacs_parse_file(s, "/nonexistent/x.cnf", NULL, NULL, &err), -1);
    assert_string_equal(err.file, "/nonexistent/x.cnf");
    assert_int_equal(err.line, 0);
    assert_string_equal(err.msg, "cannot open: No such file or directory");
    gsat_free(s);
}

/* ---- extension hook ---- */
typedef struct hook_ctx { int edges; long last_line; char last[64]; } hook_ctx;

static int edge_hook(void *ctx, const char *line, const char *end, long lineno, ic_error *err) {
    hook_ctx *h = ctx;
    if (strncmp(line, "edge ", 5) == 0) {
        h->edges++;
        h->last_line = lineno;
        snprintf(h->last, sizeof h->last, "%.*s", (int)(end - line), line);
        return 0;
    }
    if (strncmp(line, "bad", 3) == 0) {
        ic_error_at(err, "t.cnf", lineno, "bad edge line");
        return 1;
    }
    return 1;   /* unknown: the parser names the keyword */
}

static void extension_hook(void **state) {
    (void)state;
    hook_ctx h = {0};
    dimacs_opts o = {edge_hook, &h, 0, 0, 0};
    gsat *s = gsat_new();
    ic_error err;
    dimacs_info info;
    /* no header needed; leading blanks; comments "c" only as a token */
    const char *text = "c comment\n  edge 0 1 5\n1 2 0\n\t edge 1 0 6  \n-5 -6 0\n";
    assert_int_equal(parse_str(s, text, &o, &info, &err), 0);
    assert_int_equal(h.edges, 2);
    assert_int_equal(h.last_line, 4);
    assert_string_equal(h.last, "edge 1 0 6");
    assert_int_equal(info.has_header, 0);
    assert_int_equal(gsat_num_vars(s), 6);
    assert_int_equal(info.clauses, 2);
    dimacs_info_free(&info);
    gsat_free(s);

    s = gsat_new();
    assert_int_equal(parse_str(s, "p cnf 2 0\ncolour 1\n", &o, NULL, &err), -1);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "unknown keyword 'colour'");
    gsat_free(s);

    s = gsat_new();
    assert_int_equal(parse_str(s, "bad 1 2\n", &o, NULL, &err), -1);
    assert_int_equal(err.line, 1);
    assert_string_equal(err.msg, "bad edge line");
    gsat_free(s);

    s = gsat_new();
    assert_int_equal(parse_str(s, "1 2\nedge 0 1 3\n0\n", &o, NULL, &err), -1);
    assert_string_equal(err.msg, "'edge' line inside an unterminated clause");
    gsat_free(s);

    /* header_optional without a hook: keywords are still errors */
    dimacs_opts o2 = {NULL, NULL, 1, 0, 0};
    s = gsat_new();
    assert_int_equal(parse_str(s, "1 2 0\n", &o2, &info, &err), 0);
    dimacs_info_free(&info);
    assert_int_equal(parse_str(s, "1 2 0\nedge 1 2 3\n", &o2, &info, &err), -1);
    assert_int_equal(err.line, 2);
    gsat_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_inputs),
        cmocka_unit_test(malformed_inputs),
        cmocka_unit_test(missing_file),
        cmocka_unit_test(extension_hook),
        cmocka_unit_test(numbering_by_use),
        cmocka_unit_test(unsat_while_reading),
        cmocka_unit_test(deadline_stops_reading),
        cmocka_unit_test(lines_across_blocks),
    };
    return cmocka_run_group_tests_name("dimacs", tests, NULL, NULL);
}
