/* test_graph_encode.c — graph_problem recording, CNF encodings of
 * acyclicity and the DIMACS/GNF writers.
 *
 * Oracle: brute force over all assignments of the problem's variables
 * (clauses, assumptions, and a DFS cycle check per graph).  Each encoding
 * is solved by an independent DPLL (mini_dpll.h); verdicts must agree and a
 * CNF model projected onto the original variables must be a model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "theory/graph_problem.h"
#include "tests/mini_dpll.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* ---- brute-force oracle ------------------------------------------------ */
static int lit_true(const signed char *val, int lit) {
    if (lit == 0) return 1;                     /* always-on edge */
    return lit > 0 ? val[lit] > 0 : val[-lit] < 0;
}

/* DFS colours: 0 white, 1 on stack, 2 done. */
static int dfs_cycle(const gp_graph *g, const signed char *val, int v, char *colour) {
    colour[v] = 1;
    vec_foreach(const gp_edge, e, g->edges) {
        if (e->from != v || !lit_true(val, e->lit)) continue;
        if (colour[e->to] == 1) return 1;
        if (colour[e->to] == 0 && dfs_cycle(g, val, e->to, colour)) return 1;
    }
    colour[v] = 2;
    return 0;
}

static int is_model(const graph_problem *p, const signed char *val) {
    for (size_t i = 0; i < gp_num_clauses(p); i++) {
        int n, sat = 0; const int *c = gp_clause(p, i, &n);
        for (int j = 0; j < n; j++) if (lit_true(val, c[j])) sat = 1;
        if (!sat) return 0;
    }
    vec_foreach(const int, a, p->assumptions) if (!lit_true(val, *a)) return 0;
    vec_foreach(const gp_graph, g, p->graphs) {
        char colour[64] = { 0 };
        for (int v = 0; v < g->num_nodes; v++)
            if (!colour[v] && dfs_cycle(g, val, v, colour)) return 0;
    }
    return 1;
}

static int brute_sat(const graph_problem *p) {
    signed char val[32];
    for (uint32_t m = 0; m < (1u << p->num_vars); m++) {
        for (int v = 1; v <= p->num_vars; v++) val[v] = (m >> (v - 1)) & 1 ? 1 : -1;
        if (is_model(p, val)) return 1;
    }
    return 0;
}

/* ---- solve an encoded (graph-free) problem with the DPLL -------------- */
static int dpll_solve(const graph_problem *cnf, signed char *val) {
    vec_int flat; vec_init(flat);
    for (size_t i = 0; i < gp_num_clauses(cnf); i++) {
        int n; const int *c = gp_clause(cnf, i, &n);
        for (int j = 0; j < n; j++) vec_push(flat, c[j]);
        vec_push(flat, 0);
    }
    vec_foreach(const int, a, cnf->assumptions) { vec_push(flat, *a); vec_push(flat, 0); }
    mini_cnf f = { cnf->num_vars, flat.data, flat.len };
    int r = mini_solve(&f, val);
    vec_free(flat);
    return r;
}

static void random_problem(graph_problem *p) {
    gp_reset(p);
    int nv = 1 + (int)rnd(7);
    gp_reserve_vars(p, nv);
    int nc = (int)rnd(4);
    for (int i = 0; i < nc; i++) {
        int c[3], n = 1 + (int)rnd(3);
        for (int j = 0; j < n; j++) c[j] = (1 + (int)rnd((uint32_t)nv)) * (rnd(2) ? 1 : -1);
        gp_add_clause(p, c, n);
    }
    int ng = 1 + (rnd(4) == 0);
    for (int g = 0; g < ng; g++) {
        int nodes = 2 + (int)rnd(6);
        int gi = gp_graph_new(p, nodes);
        int ne = (int)rnd((uint32_t)(nodes * 3));
        for (int i = 0; i < ne; i++) {
            int u = (int)rnd((uint32_t)nodes), v = (int)rnd((uint32_t)nodes);
            if (u == v && rnd(4)) continue;                 /* a few self-loops */
            int lit = rnd(5) == 0 ? 0 : (1 + (int)rnd((uint32_t)nv)) * (rnd(2) ? 1 : -1);
            int id = gp_add_edge(p, gi, u, v, lit);
            assert_int_equal(id, (int)p->graphs.data[gi].edges.len - 1);
        }
    }
    if (rnd(4) == 0) gp_add_assumption(p, (1 + (int)rnd((uint32_t)nv)) * (rnd(2) ? 1 : -1));
}

static void check_encoding(gp_encoding enc, int rounds, uint64_t seed) {
    rng_state = seed;
    graph_problem p, cnf;
    gp_init(&p); gp_init(&cnf);
    int sat_seen = 0, unsat_seen = 0;
    clock_t t0 = clock();
    for (int r = 0; r < rounds; r++) {
        random_problem(&p);
        int expect = brute_sat(&p);
        gp_encode_stats st;
        assert_int_equal(gp_encode_cnf(&p, enc, 0, &cnf, &st), 1);
        assert_int_equal(gp_num_edges(&cnf), 0);
        assert_true(cnf.num_vars == p.num_vars + st.aux_vars);
        assert_int_equal(gp_num_clauses(&cnf), gp_num_clauses(&p) + (size_t)st.clauses);
        signed char *val = calloc((size_t)cnf.num_vars + 1, 1);
        int got = dpll_solve(&cnf, val);
        if (got != expect) fail_msg("round %d (%s): brute force says %d, encoding %d", r, gp_encoding_name(enc), expect, got);
        if (got) {
            sat_seen++;
            assert_true(is_model(&p, val));        /* projection is a model */
        } else unsat_seen++;
        free(val);
        /* every total assignment of the original variables extends to a
         * model of the CNF iff it is a model of the problem */
        if (r % 8 == 0) {
            signed char ov[32], *cv = calloc((size_t)cnf.num_vars + 1, 1);
            size_t keep = cnf.assumptions.len;
            for (uint32_t m = 0; m < (1u << p.num_vars); m++) {
                vec_shrink(cnf.assumptions, keep);
                for (int v = 1; v <= p.num_vars; v++) {
                    ov[v] = (m >> (v - 1)) & 1 ? 1 : -1;
                    vec_push(cnf.assumptions, ov[v] * v);
                }
                if (dpll_solve(&cnf, cv) != is_model(&p, ov))
                    fail_msg("round %d (%s): assignment %u: CNF and problem disagree", r, gp_encoding_name(enc), m);
            }
            free(cv);
        }
    }
    print_message("%s: %d rounds, %d sat, %d unsat, %.2fs\n", gp_encoding_name(enc), rounds, sat_seen, unsat_seen,
                  (double)(clock() - t0) / CLOCKS_PER_SEC);
    assert_true(sat_seen > rounds / 10);
    assert_true(unsat_seen > rounds / 10);
    gp_free(&p); gp_free(&cnf);
}

static void tc_equisat(void **s) { (void)s; check_encoding(GP_TC, 2000, 11); }
static void rank_bin_equisat(void **s) { (void)s; check_encoding(GP_RANK_BIN, 2000, 12); }
static void rank_unary_equisat(void **s) { (void)s; check_encoding(GP_RANK_UNARY, 2000, 13); }
static void ve_equisat(void **s) { (void)s; check_encoding(GP_VE, 2000, 14); }

/* A cycle of guarded edges with no clauses: exactly the assignments that
 * leave one edge off.  Forcing all guards on must be UNSAT in every
 * encoding; the SCC split must drop the edges that hang off the cycle. */
static void ring_and_tail(void **s) {
    (void)s;
    for (int enc = GP_TC; enc <= GP_VE; enc++) {
        graph_problem p, cnf; gp_init(&p); gp_init(&cnf);
        gp_reserve_vars(&p, 5);
        int g = gp_graph_new(&p, 6);
        for (int i = 0; i < 4; i++) gp_add_edge(&p, g, i, (i + 1) % 4, i + 1);
        gp_add_edge(&p, g, 3, 4, 5);            /* tail: in no cycle */
        gp_add_edge(&p, g, 4, 5, 0);
        gp_encode_stats st;
        assert_int_equal(gp_encode_cnf(&p, (gp_encoding)enc, 0, &cnf, &st), 1);
        assert_int_equal(st.components, 1);
        assert_int_equal(st.nodes_encoded, 4);
        assert_int_equal(st.edges_encoded, 4);
        assert_int_equal(st.edges_dropped, 2);
        /* doc/encodings.md's sizes for k = 4 nodes, p = 4 pairs, b = 2 bits */
        if (enc == GP_TC) { assert_int_equal(st.aux_vars, 4 * 3); assert_int_equal(st.clauses, 4 + 4 * 3 * 2 + 4 * 3 / 2); }
        if (enc == GP_RANK_BIN) { assert_int_equal(st.aux_vars, 4 * 2 + 4 * 1); assert_int_equal(st.clauses, 4 * (3 * 2 - 1)); }
        if (enc == GP_RANK_UNARY) { assert_int_equal(st.aux_vars, 4 * 3); assert_int_equal(st.clauses, 4 * 2 + 4 * 4); }
        if (enc == GP_VE) { assert_true(st.aux_vars >= 4); assert_true(st.clauses >= 4 + 3); }
        signed char val[512];
        assert_true(cnf.num_vars < 512);
        assert_int_equal(dpll_solve(&cnf, val), 1);
        for (int i = 1; i <= 4; i++) gp_add_assumption(&cnf, i);
        assert_int_equal(dpll_solve(&cnf, val), 0);
        gp_free(&p); gp_free(&cnf);
    }
}

/* The clause limit stops an encoding before it runs (tc: predicted) or
 * while it runs (ve), and leaves the output empty. */
static void clause_limit(void **s) {
    (void)s;
    graph_problem p, cnf; gp_init(&p); gp_init(&cnf);
    gp_reserve_vars(&p, 10);
    int g = gp_graph_new(&p, 10);
    for (int i = 0; i < 10; i++) { gp_add_edge(&p, g, i, (i + 1) % 10, i + 1); gp_add_edge(&p, g, i, (i + 3) % 10, -(i + 1)); }
    gp_encode_stats st;
    assert_int_equal(gp_encode_cnf(&p, GP_TC, 500, &cnf, &st), 0);
    assert_true(st.predicted >= 10 * 9 * 8);
    assert_int_equal(gp_num_clauses(&cnf), 0);
    assert_int_equal(cnf.num_vars, 0);
    assert_int_equal(gp_encode_cnf(&p, GP_VE, 0, &cnf, &st), 1);
    int64_t need = st.clauses;
    assert_int_equal(gp_encode_cnf(&p, GP_VE, need - 1, &cnf, &st), 0);
    assert_int_equal(gp_encode_cnf(&p, GP_VE, need, &cnf, &st), 1);
    assert_int_equal(gp_num_clauses(&cnf), (size_t)need);
    gp_free(&p); gp_free(&cnf);
}

/* Parallel edges with different guards share one pair variable. */
static void parallel_edges_merge(void **s) {
    (void)s;
    graph_problem p, cnf; gp_init(&p); gp_init(&cnf);
    gp_reserve_vars(&p, 3);
    int g = gp_graph_new(&p, 2);
    gp_add_edge(&p, g, 0, 1, 1);
    gp_add_edge(&p, g, 0, 1, 2);
    gp_add_edge(&p, g, 1, 0, 3);
    gp_encode_stats st;
    assert_int_equal(gp_encode_cnf(&p, GP_TC, 0, &cnf, &st), 1);
    /* pair var for 0->1 plus 2 reach vars; clauses: 2 guard->pair, 2 pair->reach, 1 irreflexive */
    assert_int_equal(st.aux_vars, 3);
    assert_int_equal(st.clauses, 5);
    signed char val[16];
    gp_add_assumption(&cnf, 3);
    gp_add_assumption(&cnf, 2);
    assert_int_equal(dpll_solve(&cnf, val), 0);
    gp_free(&p); gp_free(&cnf);
}

/* ---- writers ------------------------------------------------------------ */
static char *write_to_string(int (*w)(const graph_problem *, FILE *), const graph_problem *p, int *ok) {
    char *buf = NULL; size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *ok = w(p, f);
    fclose(f);
    return buf;
}

static int count_lines_starting(const char *text, const char *prefix) {
    int n = 0; size_t pl = strlen(prefix);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, prefix, pl)) n++;
    return n;
}

static void dimacs_writer(void **s) {
    (void)s;
    graph_problem p, cnf; gp_init(&p); gp_init(&cnf);
    gp_reserve_vars(&p, 2);
    gp_comment(&p, "a test with\na newline");
    gp_name_vars(&p, 1, 1, "T1 before T2 on key %s", "x");
    int c[2] = { 1, -2 };
    gp_add_clause(&p, c, 2);
    int g = gp_graph_new(&p, 2);
    gp_add_edge(&p, g, 0, 1, 1);
    gp_add_edge(&p, g, 1, 0, 2);
    gp_add_assumption(&p, -1);
    int ok;
    char *t = write_to_string(gp_write_dimacs, &p, &ok);
    assert_int_equal(ok, 0);                    /* graphs not encoded yet */
    free(t);
    assert_int_equal(gp_encode_cnf(&p, GP_RANK_BIN, 0, &cnf, NULL), 1);
    t = write_to_string(gp_write_dimacs, &cnf, &ok);
    assert_int_equal(ok, 1);
    assert_non_null(strstr(t, "c a test with a newline\n"));
    assert_non_null(strstr(t, "c var 1 = T1 before T2 on key x\n"));
    char hdr[64];
    snprintf(hdr, sizeof hdr, "p cnf %d %zu\n", cnf.num_vars, gp_num_clauses(&cnf) + 1);
    assert_non_null(strstr(t, hdr));
    assert_non_null(strstr(t, "1 -2 0\n"));
    /* the assumption is the last line, as a unit */
    size_t len = strlen(t);
    assert_true(len > 5 && !strcmp(t + len - 5, "-1 0\n"));
    free(t);
    gp_free(&p); gp_free(&cnf);
}

static void gnf_writer(void **s) {
    (void)s;
    graph_problem p; gp_init(&p);
    gp_reserve_vars(&p, 2);
    int g = gp_graph_new(&p, 3);
    gp_add_edge(&p, g, 0, 1, 1);    /* var 1 used directly */
    gp_add_edge(&p, g, 1, 2, 1);    /* fresh var 3 == 1 */
    gp_add_edge(&p, g, 2, 0, -2);   /* fresh var 4 == -2 */
    gp_add_edge(&p, g, 2, 1, 0);    /* fresh var 5, unit */
    gp_add_assumption(&p, 2);
    int ok;
    char *t = write_to_string(gp_write_gnf, &p, &ok);
    assert_int_equal(ok, 1);
    assert_int_equal(count_lines_starting(t, "digraph 0 0 1 -1\n"), 1);
    assert_int_equal(count_lines_starting(t, "node 1 "), 3);
    assert_int_equal(count_lines_starting(t, "edge 1 "), 4);
    assert_non_null(strstr(t, "edge 1 0 1 1 1\n"));
    assert_non_null(strstr(t, "edge 1 1 2 3 1\n"));
    assert_non_null(strstr(t, "-3 1 0\n3 -1 0\n"));
    assert_non_null(strstr(t, "edge 1 2 0 4 1\n"));
    assert_non_null(strstr(t, "-4 -2 0\n4 2 0\n"));
    assert_non_null(strstr(t, "edge 1 2 1 5 1\n"));
    assert_non_null(strstr(t, "\n5 0\n"));
    assert_non_null(strstr(t, "acyclic 1 6\n6 0\n"));
    assert_non_null(strstr(t, "solve 2\n"));
    free(t);
    gp_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tc_equisat),
        cmocka_unit_test(rank_bin_equisat),
        cmocka_unit_test(rank_unary_equisat),
        cmocka_unit_test(ve_equisat),
        cmocka_unit_test(ring_and_tail),
        cmocka_unit_test(parallel_edges_merge),
        cmocka_unit_test(clause_limit),
        cmocka_unit_test(dimacs_writer),
        cmocka_unit_test(gnf_writer),
    };
    return cmocka_run_group_tests_name("graph_encode", tests, NULL, NULL);
}
