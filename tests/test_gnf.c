/* test_gnf.c — MonoSAT's GNF input: the PolySI trace shape, the short
 * digraph form, random GNF instances against brute force (with the file's
 * variables and nodes spread over the whole int range), gzip input, every
 * kind of bad line with its message, and the issue-14 findings: NUL bytes,
 * long and glued solve tokens, contradictions before an acyclic line, and
 * memory that follows use rather than declared sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsat.h"
#include "solver/varnum.h"
#include "programs/gnf.h"

static uint64_t rng;
static uint32_t rnd(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}
static int pick(int n) { return (int)(rnd() % (unsigned)n); }

/* 1: parse as gsat does without --assume (the solve line's literals
 * asserted while loading), then solve without assumptions. */
static int asserting;

/* Parse text; returns the solver (NULL on error, message in err). */
static gsat *parse(const char *text, gnf_info *info, ic_error *err) {
    gsat *s = gsat_new();
    ic_error_clear(err);
    int rc;
    if (asserting) {
        reader r;
        reader_open_mem(&r, "t.gnf", text, strlen(text));
        gnf_opts o = {0, 0, 1};
        rc = gnf_parse(s, &r, &o, info, err);
        reader_close(&r);
    } else {
        rc = gnf_parse_mem(s, "t.gnf", text, strlen(text), info, err);
    }
    if (rc < 0) { gsat_free(s); return NULL; }
    return s;
}

static int solve_parsed(gsat *s, const gnf_info *info) {
    return asserting ? gsat_solve(s, NULL, 0) : gsat_solve(s, info->assumptions.data, (int)info->assumptions.len);
}

/* Solve text; after SAT, value[fv] = the model's value of file variable fv
 * for fv < nvalue (0: not named). */
static int solve_text_model(const char *text, int *value, int nvalue) {
    gnf_info info; ic_error err;
    gsat *s = parse(text, &info, &err);
    if (!s) fail_msg("unexpected parse error: %s:%ld: %s", err.file, err.line, err.msg);
    int r = solve_parsed(s, &info);
    for (int i = 0; i < nvalue; i++) value[i] = 0;
    if (r == GSAT_SAT)
        for (size_t v = 1; v < info.names.len; v++) {
            int fv = info.names.data[v];
            if (fv > 0 && fv < nvalue) value[fv] = gsat_value(s, (int)v);
        }
    gnf_info_free(&info);
    gsat_free(s);
    return r;
}

static int solve_text(const char *text) { return solve_text_model(text, NULL, 0); }

static void polysi_trace_shape(void **state) {
    (void)state;
    /* the shape MonoSAT's API writes: no header, leading blanks, decision
     * hints, long digraph form with node lines, self-loops, a solve line */
    const char *text =
        "c monosat\n"
        "1 0\n"
        "decision 21 0\n"
        " -22 -23 0\n"
        "digraph 0 0 1 -1\n"
        "node 1 0\n"
        "node 1 1\n"
        "node 1 2\n"
        "edge 1 0 1 5 1\n"
        "edge 1 1 2 6 1\n"
        "edge 1 2 0 2 1\n"
        "edge 1 2 2 10 1\n"
        " acyclic 1 187\n"
        "187 0\n"
        " solve 5 6\n";
    gnf_info info; ic_error err;
    gsat *s = parse(text, &info, &err);
    assert_non_null(s);
    assert_true(info.has_solve);
    assert_int_equal(info.assumptions.len, 2);
    assert_int_equal(info.acyclic_graphs, 1);
    assert_int_equal(info.edges, 4);
    assert_int_equal(gsat_solve(s, info.assumptions.data, 2), GSAT_SAT);
    assert_int_equal(gsat_value(s, 2), -1);      /* 0->1->2 on, so 2->0 is off */
    assert_int_equal(gsat_value(s, 10), -1);     /* self-loop */
    assert_int_equal(gsat_value(s, 1), 1);
    int more[3] = {5, 6, 2};
    assert_int_equal(gsat_solve(s, more, 3), GSAT_UNSAT);
    gnf_info_free(&info);
    gsat_free(s);
    /* same with the cycle forced: unsatisfiable */
    assert_int_equal(solve_text("digraph 3 3 0\nedge 0 0 1 1\nedge 0 1 2 2\nedge 0 2 0 3\nacyclic 0 4\n4 0\n1 0\n2 0\n3 0\n"),
                     GSAT_UNSAT);
    /* a graph without an acyclic constraint constrains nothing */
    assert_int_equal(solve_text("digraph 3 3 0\nedge 0 0 1 1\nedge 0 1 0 2\n1 0\n2 0\n"), GSAT_SAT);
    /* typed digraph, weighted edges, hints, names, p cnf header */
    assert_int_equal(solve_text("p cnf 4 2\ndigraph int 2 2 0 32 g\nnode 0 1 b\nedge 0 0 1 1 7\nweighted_edge 0 1 0 2 3/4\n"
                                "priority 1 5\nedge_priority 0 1 3\nsymbol 1 x\nacyclic 0 3\n3 0\n1 2 0\nsolve\n"),
                     GSAT_SAT);
    assert_int_equal(solve_text("digraph 2 2 0\nedge 0 0 1 1\nedge 0 1 0 2\nacyclic 0 3\n3 0\nsolve 1 2 0\n"), GSAT_UNSAT);
    /* the acyclic variable may be asserted by the solve line instead */
    assert_int_equal(solve_text("digraph 2 2 0\nedge 0 0 1 1\nedge 0 1 0 2\nacyclic 0 3\nsolve 3 1 2\n"), GSAT_UNSAT);
}

static void bad_lines(void **state) {
    (void)state;
    static const struct { const char *text; long line; const char *msg; } cases[] = {
        {"digraph 2 2 0\nreach 0 0 1 3\n", 2, "unsupported MonoSAT constraint 'reach'"},
        {"digraph 2 2 0\nmaximum_flow_geq 0 0 1 3 4\n", 2, "unsupported MonoSAT constraint 'maximum_flow_geq'"},
        {"1 0\n\nbv 0 8 1 2 3\n", 3, "unsupported MonoSAT constraint 'bv'"},
        {"digraph 2 2 0\nforest 0 3\n", 2, "unsupported MonoSAT constraint 'forest'"},
        {"frobnicate 1 2\n", 1, "unknown keyword 'frobnicate' (expected a clause, a comment or a GNF graph line)"},
        {"edge 0 0 1 1\n", 1, "'edge' line: graph 0 is not declared (expected an earlier 'digraph' line)"},
        {"digraph 2 2 0\nedge 0 0 1\n", 2, "'edge' line: missing the edge variable"},
        {"digraph 2 2 0\nedge 0 0 1 -3\n", 2, "'edge' line: the edge variable must be an integer in 1..2147483647, found '-3'"},
        {"digraph 2 2 0\nedge 0 x 1 3\n", 2, "'edge' line: the source node must be an integer in 0..2147483646, found 'x'"},
        {"digraph 2 2 0\nedge 0 0 1 2147483648\n", 2,
         "'edge' line: the edge variable must be an integer in 1..2147483647, found '2147483648'"},
        {"digraph 2 2 0\nedge 0 0 2147483647 1\n", 2,
         "'edge' line: the target node must be an integer in 0..2147483646, found '2147483647'"},
        {"digraph 2 2 0\nedge 0 0 1 1-2\n", 2, "'edge' line: the edge variable must be an integer in 1..2147483647, found '1-2'"},
        {"digraph 2 2 2147483648\n", 1, "'digraph' line: the graph id must be an integer in 0..2147483647, found '2147483648'"},
        {"digraph 2 2 0\nedge 0 0 1 3 1 9\n", 2, "'edge' line: unexpected '9' after the weight"},
        {"digraph 2 2 0\ndigraph 3 3 0\n", 2, "graph 0 is declared twice (first on line 1)"},
        {"digraph 2\n", 1, "'digraph' line: missing the number of edges"},
        {"digraph 2 2 0\nnode 1 0\n", 2, "'node' line: graph 1 is not declared (expected an earlier 'digraph' line)"},
        {"digraph 2 2 0\nacyclic 0\n", 2, "'acyclic' line: missing the constraint variable"},
        {"decision 3 7\n", 1, "'decision' line: the flag must be an integer in 0..1, found '7'"},
        {"solve 1 x\n", 1, "'solve' line: expected a literal, found 'x'"},
        {"solve 0001-1\n", 1, "'solve' line: expected a literal, found '0001-1'"},
        {"solve 00000000000000000000000000000001-1\n", 1,
         "'solve' line: expected a literal, found '00000000000000000000000000000001-1'"},
        {"solve 1 2147483648\n", 1, "'solve' line: expected a literal, found '2147483648'"},
        {"solve 1 0 2\n", 1, "'solve' line: unexpected '2' after the terminating 0"},
        {"solve 1\nsolve 2\n", 2, "second 'solve' line (the first is on line 1): incremental GNF is not supported"},
        {"solve 1\ndigraph 2 2 0\n", 2,
         "'digraph' after the 'solve' line (line 1): incremental GNF with more than one solve is not supported"},
        {"digraph 2 2 0\nedge 0 0 1 1\nacyclic 0 5\n", 3,
         "'acyclic 0 5': variable 5 is not asserted; gsat supports acyclicity only as a hard constraint "
         "(assert it with the unit clause '5 0' or a 'solve' assumption)"},
        {"digraph 2 2 0\nacyclic 0 5\n-5 0\n", 2,
         "'acyclic 0 5': variable 5 is asserted false; gsat supports acyclicity only as a hard constraint "
         "(assert it with the unit clause '5 0' or a 'solve' assumption)"},
        {"digraph 2 2 0\n1 2\nedge 0 0 1 1\n", 3, "'edge' line inside an unterminated clause"},
        {"digraph 2 2 0\nacyclic 0 5 6\n", 2, "'acyclic' line: unexpected '6' (expected 'acyclic GRAPH VARIABLE')"},
        {"digraph 2 2 0 8 g x\n", 1, "'digraph' line: unexpected 'x' after the graph name"},
        {"digraph 7 2 0\nnode 0 1 a b\n", 2, "'node' line: unexpected 'b' after the node name"},
        {"digraph 2 2 0\nedge 0 0 1 1\nacyclic 0 2000000000\n", 3,
         "'acyclic 0 2000000000': variable 2000000000 is not asserted; gsat supports acyclicity only as a hard constraint "
         "(assert it with the unit clause '2000000000 0' or a 'solve' assumption)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gnf_info info; ic_error err;
        gsat *s = parse(cases[i].text, &info, &err);
        if (s) fail_msg("case %zu parsed but should fail: %s", i, cases[i].text);
        assert_true(err.set);
        assert_string_equal(err.file, "t.gnf");
        if (err.line != cases[i].line || strcmp(err.msg, cases[i].msg) != 0)
            fail_msg("case %zu: got line %ld '%s', expected line %ld '%s'", i, err.line, err.msg, cases[i].line, cases[i].msg);
        gnf_info_free(&info);
    }
}

/* How instance variables and nodes are written: as they are, spread
 * with holes (the file's numbering kept), or spread over the int range in
 * reverse order (renumbered). */
static int mode;
static int file_var(int v) { return mode == 0 ? v : mode == 1 ? 3 * v : (10 - v) * 200000000 + 7; }
static int file_lit(int l) { return l < 0 ? -file_var(-l) : file_var(l); }
static int file_node(int n) { return mode == 0 ? n : mode == 1 ? 2 * n + 1 : (6 - n) * 350000000 + 3; }

/* Random GNF text vs brute force over all assignments. */
static void random_vs_brute_force(void **state) {
    (void)state;
    rng = 31337;
    int sat = 0, unsat = 0;
    for (int r = 0; r < 300; r++) {
        mode = r % 3;
        asserting = (r / 3) % 2;     /* every mode both ways */
        int gid = mode == 2 ? 2147483647 : 7;
        int vars = 2 + pick(7), nodes = 2 + pick(4), m = 1 + pick(12), nc = pick(5), na = pick(3);
        int ef[16], et[16], ev[16], cl[16][3], cw[16], as[4];
        char text[4096]; size_t len = 0;
        len += (size_t)snprintf(text + len, sizeof text - len, "c random %d\n", r);
        int acyc_var = vars + 1;
        if (pick(2)) len += (size_t)snprintf(text + len, sizeof text - len, "digraph %d %d %d\n", nodes, m, gid);
        else {
            len += (size_t)snprintf(text + len, sizeof text - len, "digraph 0 0 %d -1\n", gid);
            for (int v = 0; v < nodes; v++) len += (size_t)snprintf(text + len, sizeof text - len, " node %d %d\n", gid, file_node(v));
        }
        for (int i = 0; i < m; i++) {
            ef[i] = pick(nodes); et[i] = pick(nodes); ev[i] = 1 + pick(vars);
            len += (size_t)snprintf(text + len, sizeof text - len, "edge %d %d %d %d%s\n", gid, file_node(ef[i]),
                                    file_node(et[i]), file_var(ev[i]), pick(2) ? " 1" : "");
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "acyclic %d %d\n%d 0\n", gid, file_var(acyc_var), file_var(acyc_var));
        for (int c = 0; c < nc; c++) {
            cw[c] = 1 + pick(3);
            for (int k = 0; k < cw[c]; k++) {
                int v = 1 + pick(vars); cl[c][k] = pick(2) ? v : -v;
                len += (size_t)snprintf(text + len, sizeof text - len, "%s%d ", k ? "" : "  ", file_lit(cl[c][k]));
            }
            len += (size_t)snprintf(text + len, sizeof text - len, "0\n");
        }
        /* edge variables tied to others by clause pairs (-e x) (e -x) (the
         * reader gives the edges their class's guard), some of them binary
         * only because a unit clause before them makes a third literal false */
        for (int t = pick(4); t > 0; t--) {
            int e = ev[pick(m)], x = 1 + pick(vars), sx = pick(2) ? x : -x, z = pick(3) ? 0 : 1 + pick(vars);
            if (x == e) continue;
            if (z == e || z == x) z = 0;
            int first = nc;
            if (z) { cw[nc] = 1; cl[nc++][0] = -z; }   /* first: the pair is binary when loaded */
            for (int h = 0; h < 2; h++, nc++) {
                cw[nc] = 2;
                cl[nc][0] = h ? e : -e;
                cl[nc][1] = h ? -sx : sx;
                if (z) cl[nc][cw[nc]++] = z;
            }
            for (int c = first; c < nc; c++) {
                for (int k = 0; k < cw[c]; k++)
                    len += (size_t)snprintf(text + len, sizeof text - len, "%d ", file_lit(cl[c][k]));
                len += (size_t)snprintf(text + len, sizeof text - len, "0\n");
            }
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "solve");
        for (int i = 0; i < na; i++) {
            int v = 1 + pick(vars); as[i] = pick(2) ? v : -v;
            len += (size_t)snprintf(text + len, sizeof text - len, " %d", file_lit(as[i]));
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "\n");
        /* brute force */
        int expect = 0;
        for (unsigned mask = 0; mask < (1u << vars) && !expect; mask++) {
#define VAL(l) ((l) > 0 ? (int)((mask >> ((l) - 1)) & 1) : !(int)((mask >> (-(l) - 1)) & 1))
            int ok = 1;
            for (int i = 0; i < na && ok; i++) ok = VAL(as[i]);
            for (int c = 0; c < nc && ok; c++) {
                int any = 0;
                for (int k = 0; k < cw[c]; k++) any |= VAL(cl[c][k]);
                ok = any;
            }
            if (!ok) continue;
            /* acyclic: repeatedly remove nodes without incoming on-edges */
            int alive[8] = {0}, left = nodes, progress = 1;
            for (int v = 0; v < nodes; v++) alive[v] = 1;
            while (progress) {
                progress = 0;
                for (int v = 0; v < nodes; v++) {
                    if (!alive[v]) continue;
                    int in = 0;
                    for (int i = 0; i < m; i++) in |= alive[ef[i]] && et[i] == v && VAL(ev[i]);
                    if (!in) { alive[v] = 0; left--; progress = 1; }
                }
            }
            expect = left == 0;
#undef VAL
        }
        int fv[16], value[16];
        for (int v = 1; v <= acyc_var; v++) fv[v] = file_var(v);
        int got;
        if (mode == 2) {       /* file variables beyond the array: look them up by name */
            gnf_info info; ic_error err;
            gsat *s = parse(text, &info, &err);
            if (!s) fail_msg("instance %d: parse error %s", r, err.msg);
            got = solve_parsed(s, &info);
            for (int v = 1; v <= acyc_var; v++) {
                value[v] = 0;
                for (size_t k = 1; k < info.names.len; k++)
                    if (info.names.data[k] == fv[v]) value[v] = gsat_value(s, (int)k);
            }
            gnf_info_free(&info);
            gsat_free(s);
        } else {
            int byfile[40];
            got = solve_text_model(text, byfile, 40);
            for (int v = 1; v <= acyc_var; v++) value[v] = byfile[fv[v]];
        }
        if (got != (expect ? GSAT_SAT : GSAT_UNSAT)) fail_msg("instance %d: got %d, expected %s\n%s", r, got, expect ? "SAT" : "UNSAT", text);
        if (got == GSAT_SAT) {   /* the model, read back in the file's numbering, satisfies the instance */
            unsigned mask = 0;
            for (int v = 1; v <= vars; v++) {
                if (value[v] == 0 && mode != 1) {   /* every variable the text names has a value */
                    int named = 0;
                    for (int c = 0; c < nc; c++) for (int k = 0; k < cw[c]; k++) named |= abs(cl[c][k]) == v;
                    for (int i = 0; i < m; i++) named |= ev[i] == v;
                    for (int i = 0; i < na; i++) named |= abs(as[i]) == v;
                    if (named) fail_msg("instance %d: variable %d (file %d) has no value", r, v, fv[v]);
                }
                if (value[v] > 0) mask |= 1u << (v - 1);
            }
            if (value[acyc_var] != 1) fail_msg("instance %d: acyclic variable not true", r);
#define VAL(l) ((l) > 0 ? (int)((mask >> ((l) - 1)) & 1) : !(int)((mask >> (-(l) - 1)) & 1))
            for (int i = 0; i < na; i++) if (!VAL(as[i])) fail_msg("instance %d: assumption %d false in the model", r, as[i]);
            for (int c = 0; c < nc; c++) {
                int any = 0;
                for (int k = 0; k < cw[c]; k++) any |= VAL(cl[c][k]);
                if (!any) fail_msg("instance %d: clause %d false in the model", r, c);
            }
            int alive[8] = {0}, left = nodes, progress = 1;
            for (int v = 0; v < nodes; v++) alive[v] = 1;
            while (progress) {
                progress = 0;
                for (int v = 0; v < nodes; v++) {
                    if (!alive[v]) continue;
                    int in = 0;
                    for (int i = 0; i < m; i++) in |= alive[ef[i]] && et[i] == v && VAL(ev[i]);
                    if (!in) { alive[v] = 0; left--; progress = 1; }
                }
            }
#undef VAL
            if (left) fail_msg("instance %d: the model's edges have a cycle\n%s", r, text);
        }
        if (expect) sat++; else unsat++;
    }
    asserting = 0;
    assert_true(sat > 30 && unsat > 30);
}

static void gzip_input(void **state) {
    (void)state;
    char path[] = "/tmp/gsat_gnf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    /* a ring 0 -> 1 -> ... -> 499 -> 0 guarded by 1..500, with "not all" */
    fprintf(f, "c monosat\ndigraph 500 500 0\n");
    for (int i = 0; i < 500; i++) fprintf(f, "edge 0 %d %d %d\n", i, (i + 1) % 500, i + 1);
    fprintf(f, "acyclic 0 501\n501 0\nsolve");
    for (int i = 1; i <= 499; i++) fprintf(f, " %d", i);
    fprintf(f, "\n");
    fclose(f);
    char cmd[128], gz[64];
    snprintf(gz, sizeof gz, "%s.gz", path);
    snprintf(cmd, sizeof cmd, "gzip -c %s > %s", path, gz);
    assert_int_equal(system(cmd), 0);
    for (int k = 0; k < 2; k++) {
        gsat *s = gsat_new();
        gnf_info info; ic_error err; ic_error_clear(&err);
        assert_int_equal(gnf_parse_file(s, k ? gz : path, NULL, &info, &err), 0);
        assert_int_equal(info.edges, 500);
        assert_int_equal(info.assumptions.len, 499);
        assert_int_equal(gsat_solve(s, info.assumptions.data, 499), GSAT_SAT);
        assert_int_equal(gsat_value(s, 500), -1);
        gnf_info_free(&info);
        gsat_free(s);
    }
    /* a truncated .gz is an error with a byte offset, never a partial answer */
    snprintf(cmd, sizeof cmd, "truncate -s 300 %s", gz);
    assert_int_equal(system(cmd), 0);
    gsat *s = gsat_new();
    gnf_info info; ic_error err; ic_error_clear(&err);
    assert_int_equal(gnf_parse_file(s, gz, NULL, &info, &err), -1);
    assert_non_null(strstr(err.msg, "gzip"));
    gnf_info_free(&info);
    gsat_free(s);
    unlink(path); unlink(gz);
}

/* Issue 14: the findings of the gsat review, each as it was reported. */
static void nul_bytes(void **state) {
    (void)state;
#define T(text, line) {text, sizeof text - 1, line}
    static const struct { const char *text; size_t len; long line; } cases[] = {
        T("\0\n", 1),
        T("\0", 1),
        T("c ok\n\0edge 0 0 1 1\n", 2),
        T("digraph 2 1 0\nedge 0 0\0 1 1\n", 2),
        T("digraph 2 1 0\nsolve 1 2\0\n", 2),
        T("1 0\n2 0\n\n\n\n\n\0\n", 7),
    };
#undef T
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gsat *s = gsat_new();
        gnf_info info; ic_error err; ic_error_clear(&err);
        if (gnf_parse_mem(s, "t.gnf", cases[i].text, cases[i].len, &info, &err) != -1) fail_msg("case %zu parsed", i);
        if (err.line != cases[i].line || strcmp(err.msg, "NUL byte in the input (expected DIMACS or GNF text)") != 0)
            fail_msg("case %zu: line %ld '%s'", i, err.line, err.msg);
        gnf_info_free(&info);
        gsat_free(s);
    }
}

static void solve_tokens(void **state) {
    (void)state;
    gnf_info info; ic_error err;
    /* a 34-digit 12 is 12: one assumption, satisfiable with -1 -2 */
    gsat *s = parse("-1 -2 0\nsolve 00000000000000000000000000000012 0\n", &info, &err);
    assert_non_null(s);
    assert_int_equal(info.assumptions.len, 1);
    assert_int_equal(varnum_file_lit(&info.names, info.assumptions.data[0]), 12);
    assert_int_equal(gsat_solve(s, info.assumptions.data, 1), GSAT_SAT);
    gnf_info_free(&info);
    gsat_free(s);
    assert_int_equal(solve_text("-1 -2 0\nsolve 12 0\n"), GSAT_SAT);
    assert_int_equal(solve_text("-1 -2 0\nsolve 1 2 0\n"), GSAT_UNSAT);
}

static void contradictions_before_acyclic(void **state) {
    (void)state;
    /* the clauses are contradictory: UNSAT, not "variable 2 is not asserted" */
    assert_int_equal(solve_text("1 0\n-1 0\ndigraph 1 0 0\nacyclic 0 2\n2 0\n"), GSAT_UNSAT);
    assert_int_equal(solve_text("1 0\n-1 0\ndigraph 2 1 0\nedge 0 0 1 3\nacyclic 0 2\n"), GSAT_UNSAT);
    assert_int_equal(solve_text("1 0\n-1 0\ndigraph 2 1 0\nacyclic 0 2\n-2 0\n"), GSAT_UNSAT);
    assert_int_equal(solve_text("0\ndigraph 2 1 0\nacyclic 0 2\n"), GSAT_UNSAT);
    /* the assumptions contradict the clauses or each other */
    assert_int_equal(solve_text("-3 0\ndigraph 2 1 0\nedge 0 0 1 1\nacyclic 0 2\nsolve 3\n"), GSAT_UNSAT);
    assert_int_equal(solve_text("digraph 2 1 0\nedge 0 0 1 1\nacyclic 0 2\nsolve 1 4 -1\n"), GSAT_UNSAT);
    /* implied at level 0 counts as asserted */
    assert_int_equal(solve_text("1 0\n-1 2 0\ndigraph 2 2 0\nedge 0 0 1 3\nedge 0 1 0 4\nacyclic 0 2\n3 0\n4 0\n"),
                     GSAT_UNSAT);
}

/* Sizes and ids in the text allocate nothing: a 268M-node declaration, a
 * decision on variable 2^26, graph and node ids near INT32_MAX. */
static void memory_follows_use(void **state) {
    (void)state;
    gnf_info info; ic_error err;
    gsat *s = parse("digraph 268435456 0 0\nacyclic 0 1\n1 0\n", &info, &err);
    assert_non_null(s);
    assert_int_equal(info.nodes, 0);
    assert_int_equal(gsat_num_vars(s), 1);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    gnf_info_free(&info);
    gsat_free(s);
    s = parse("decision 67108864 1\n", &info, &err);
    assert_non_null(s);
    assert_int_equal(gsat_num_vars(s), 1);
    assert_int_equal(info.names.data[1], 67108864);
    gnf_info_free(&info);
    gsat_free(s);
    s = parse("digraph 2147483647 2147483647 2147483647 -1\nnode 2147483647 2147483646\n"
              "edge 2147483647 2147483646 0 2000000000\nedge 2147483647 0 2147483646 1999999999\n"
              "digraph 1 0 16777216\nacyclic 2147483647 2147483647\n2147483647 0\n2000000000 0\n",
              &info, &err);
    if (!s) fail_msg("%s", err.msg);
    assert_int_equal(info.nodes, 2);
    assert_int_equal(info.graphs, 2);
    assert_int_equal(gsat_num_vars(s), 3);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(gsat_value(s, 1), -1);           /* file 1999999999 closes the 2-cycle */
    assert_int_equal(info.names.data[1], 1999999999);
    gnf_info_free(&info);
    gsat_free(s);
}

/* Under ASan, an allocation the size of a declared (not used) graph would
 * fail the test instead of slowly exhausting the machine. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "max_allocation_size_mb=1024:allocator_may_return_null=1"; }

/* Corrupt compressed data decodes to text that may fail to parse long
 * before the member's CRC is checked: the error must blame the data. */
static void corrupt_gzip_blamed(void **state) {
    (void)state;
    char path[] = "/tmp/gsat_gnfz_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "digraph 70000 70000 0\n");
    for (int i = 0; i < 70000; i++) fprintf(f, "edge 0 %d %d %d\n", i, (i * 7 + 1) % 70000, i + 1);
    fprintf(f, "acyclic 0 70001\n70001 0\n");
    fclose(f);
    char cmd[160], gz[64];
    snprintf(gz, sizeof gz, "%s.gz", path);
    snprintf(cmd, sizeof cmd, "gzip -1 -n -c %s > %s", path, gz);
    assert_int_equal(system(cmd), 0);
    FILE *zf = fopen(gz, "rb");
    assert_non_null(zf);
    static unsigned char z[1 << 20];
    size_t zlen = fread(z, 1, sizeof z, zf);
    fclose(zf);
    assert_true(zlen > 100000 && zlen < sizeof z);
    for (int k = 0; k < 16; k++) {
        size_t at = 2000 + (size_t)k * 997;       /* early: garbage is parsed before the CRC */
        z[at] ^= 0x04;
        zf = fopen(gz, "wb");
        assert_int_equal(fwrite(z, 1, zlen, zf), zlen);
        fclose(zf);
        z[at] ^= 0x04;
        gsat *s = gsat_new();
        gnf_opts o = {0, 1, 0};
        gnf_info info; ic_error err; ic_error_clear(&err);
        if (gnf_parse_file(s, gz, &o, &info, &err) == 0) fail_msg("flip at %zu: corrupt gzip parsed", at);
        if (!strstr(err.msg, "corrupt gzip input")) fail_msg("flip at %zu: %s", at, err.msg);
        gnf_info_free(&info);
        gsat_free(s);
    }
    unlink(path); unlink(gz);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(polysi_trace_shape),
        cmocka_unit_test(bad_lines),
        cmocka_unit_test(random_vs_brute_force),
        cmocka_unit_test(gzip_input),
        cmocka_unit_test(corrupt_gzip_blamed),
        cmocka_unit_test(nul_bytes),
        cmocka_unit_test(solve_tokens),
        cmocka_unit_test(contradictions_before_acyclic),
        cmocka_unit_test(memory_follows_use),
    };
    return cmocka_run_group_tests_name("gnf", tests, NULL, NULL);
}
