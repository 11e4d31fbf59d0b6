/* test_export.c — isocheck encode / decode without the engine.
 *
 * On random small histories, for SI and SER, pruned and not: the recorded
 * problem is turned into CNF by every encoding and solved by the test's
 * own DPLL (mini_dpll.h); the model (or UNSAT) goes back through
 * export_decode, whose verdict must equal an independent brute-force
 * checker's (brute_check.h, all version orders).  A PASS must yield a
 * certificate that cert_verify accepts.  The recorded graph problem itself
 * is also solved by enumeration when small.  Plus the model reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "frontend/reports/cert_build.h"
#include "frontend/reports/cert_file.h"
#include "frontend/checking/export.h"
#include "frontend/formats/parse.h"
#include "tests/brute_check.h"
#include "tests/mini_dpll.h"

static uint64_t rng = 88172645463325252ULL;
static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* A random history in the text format: transactions run one after another
 * in a random session; a read sees the initial value or the final value
 * some earlier committed transaction wrote (so the axioms hold and the
 * versions are ordered arbitrarily), or its own write; a repeated read
 * sees what the first one saw. */
static history *random_history(void) {
    char buf[4096];
    size_t n = 0;
    int sessions = 2 + (int)rnd(2), txns = 3 + (int)rnd(5), keys = 1 + (int)rnd(3);
    int finals[8][16], nfinal[8] = { 0 }, next_value = 1;
    for (int t = 1; t <= txns; t++) {
        int s = 1 + (int)rnd((uint32_t)sessions), own[8] = { 0 }, seen[8], ops = 1 + (int)rnd(4);
        for (int k = 0; k < 8; k++) seen[k] = -1;
        for (int i = 0; i < ops; i++) {
            int k = (int)rnd((uint32_t)keys);
            if (rnd(2)) {
                int v = own[k] ? own[k] : seen[k] >= 0 ? seen[k]
                        : rnd((uint32_t)nfinal[k] + 1) == 0 ? 0 : finals[k][rnd((uint32_t)nfinal[k])];
                seen[k] = v;                     /* a repeated read sees the same */
                n += (size_t)snprintf(buf + n, sizeof buf - n, "r(%d,%d,%d,%d)\n", k + 1, v, s, t);
            } else {
                own[k] = next_value++;
                n += (size_t)snprintf(buf + n, sizeof buf - n, "w(%d,%d,%d,%d)\n", k + 1, own[k], s, t);
            }
        }
        for (int k = 0; k < keys; k++)
            if (own[k] && nfinal[k] < 16) finals[k][nfinal[k]++] = own[k];
    }
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(buf, n, FORMAT_TEXT, "random.txt", &err);
    if (!h) fail_msg("generated history rejected: %s\n%s", err.msg, buf);
    return h;
}

/* Solve an encoded (graph-free) problem with the DPLL into a sat_model. */
static void dpll_model(const graph_problem *cnf, sat_model *m) {
    vec_int flat; vec_init(flat);
    for (size_t i = 0; i < gp_num_clauses(cnf); i++) {
        int n; const int *c = gp_clause(cnf, i, &n);
        for (int j = 0; j < n; j++) vec_push(flat, c[j]);
        vec_push(flat, 0);
    }
    mini_cnf f = { cnf->num_vars, flat.data, flat.len };
    sat_model_free(m);
    signed char *val = xcalloc((size_t)cnf->num_vars + 1, 1);
    if (mini_solve(&f, val)) {
        m->status = 10;
        m->num_vars = cnf->num_vars;
        m->val = val;
    } else {
        m->status = 20;
        free(val);
    }
    vec_free(flat);
}

static int is_text_format_ok(const history *h) { return h->num_txns <= BRUTE_MAX_TXNS; }

/* The model m (a PASS) with every constraint variable flipped, as a model
 * of a differently encoded problem would be read: PASS, or a wrong answer
 * that says what it is, never an internal error. */
static void flipped_model_is_pass_or_wrong_answer(const history *h, const export_options *o, const sat_model *m,
                                                  int *wrong) {
    sat_model f = { 10, m->num_vars, xmalloc((size_t)m->num_vars + 1) };
    for (int v = 1; v <= m->num_vars; v++) f.val[v] = (signed char)-m->val[v];
    check_result res;
    ic_error err; ic_error_clear(&err);
    assert_int_equal(export_decode(h, o, &f, &res, &err), 1);
    if (res.verdict == VERDICT_UNKNOWN) {
        if (strcmp(res.stage, "model") || !strstr(res.msg, "another problem") || strstr(res.msg, "internal error"))
            fail_msg("a flipped model: %s: %s", res.stage, res.msg);
        (*wrong)++;
    } else assert_int_equal(res.verdict, VERDICT_PASS);
    check_result_free(&res);
    sat_model_free(&f);
}

static void encode_decode_matches_brute_force(void **state) {
    (void)state;
    int counts[2][2] = { { 0, 0 }, { 0, 0 } };           /* [si][pass] */
    int wrong[2] = { 0, 0 };                             /* flipped models refused */
    graph_problem p, cnf;
    gp_init(&p); gp_init(&cnf);
    sat_model m;
    sat_model_init(&m);
    for (int round = 0; round < 400; round++) {
        history *h = random_history();
        assert_true(is_text_format_ok(h));
        for (int si = 0; si <= 1; si++) {
            int want = brute_check(h, si);
            if (want < 0) continue;                      /* too big for the oracle */
            for (int no_prune = 0; no_prune <= 1; no_prune++) {
                export_options o = { si ? LEVEL_SI : LEVEL_SER, no_prune };
                ic_error err; ic_error_clear(&err);
                check_result res, er;
                assert_int_equal(export_encode(h, &o, &p, &er, &err), 1);
                for (int enc = GP_TC; enc <= GP_VE; enc++) {
                    gp_encode_stats st;
                    assert_int_equal(gp_encode_cnf(&p, (gp_encoding)enc, 0, &cnf, &st), 1);
                    dpll_model(&cnf, &m);
                    if ((m.status == 10) != want)
                        fail_msg("round %d %s prune=%d %s: brute force %d, CNF %s (export: %s)", round, si ? "si" : "ser",
                                 !no_prune, gp_encoding_name((gp_encoding)enc), want, m.status == 10 ? "SAT" : "UNSAT",
                                 er.stage ? er.stage : "");
                    assert_int_equal(export_decode(h, &o, &m, &res, &err), 1);
                    if (res.verdict != (want ? VERDICT_PASS : VERDICT_FAIL))
                        fail_msg("round %d %s prune=%d %s: brute force %d, decode verdict %d (%s: %s)", round,
                                 si ? "si" : "ser", !no_prune, gp_encoding_name((gp_encoding)enc), want,
                                 res.verdict, res.stage ? res.stage : "", res.msg);
                    if (res.verdict == VERDICT_PASS) {
                        flipped_model_is_pass_or_wrong_answer(h, &o, &m, &wrong[si]);
                        certificate c;
                        cert_init(&c);
                        assert_int_equal(cert_build(h, &res.vo, si, &c, &err), CERT_OK);
                        assert_int_equal(cert_verify(h, &c, si, &err, NULL), CERT_OK);
                        cert_free(&c);
                    } else assert_true(res.stage != NULL);
                    check_result_free(&res);
                }
                check_result_free(&er);
                if (want) {                              /* a false UNSAT is refused, never a FAIL */
                    sat_model unsat = { 20, 0, NULL };
                    assert_int_equal(export_decode(h, &o, &unsat, &res, &err), 1);
                    if (res.verdict != VERDICT_UNKNOWN || strcmp(res.stage, "model") || !strstr(res.msg, "UNSATISFIABLE"))
                        fail_msg("round %d %s prune=%d: a false UNSAT decoded to verdict %d (%s: %s)", round,
                                 si ? "si" : "ser", !no_prune, res.verdict, res.stage ? res.stage : "", res.msg);
                    check_result_free(&res);
                }
            }
            counts[si][want]++;
        }
        history_free(h);
    }
    print_message("ser: %d pass, %d fail; si: %d pass, %d fail\n", counts[0][1], counts[0][0], counts[1][1], counts[1][0]);
    print_message("flipped models refused: ser %d, si %d\n", wrong[0], wrong[1]);
    for (int si = 0; si <= 1; si++) {
        assert_true(counts[si][0] >= 10); assert_true(counts[si][1] >= 10); assert_true(wrong[si] >= 1);
    }
    sat_model_free(&m);
    gp_free(&p); gp_free(&cnf);
}

/* A wrong answer is caught: UNSAT for a history that passes, and a model
 * that leaves a constraint variable out. */
static void wrong_answers_are_errors(void **state) {
    (void)state;
    /* two blind writers of x in different sessions, each read afterwards:
     * one constraint variable, both orders possible */
    const char *text = "w(1,1,1,1)\nw(1,2,2,2)\nr(1,1,1,3)\nr(1,2,2,4)\n";
    ic_error err; ic_error_clear(&err);
    history *h = load_history_mem(text, strlen(text), FORMAT_TEXT, "t.txt", &err);
    assert_non_null(h);
    export_options o = { LEVEL_SER, 1 };
    graph_problem p; gp_init(&p);
    check_result res;
    assert_int_equal(export_encode(h, &o, &p, &res, &err), 1);
    assert_int_equal(res.verdict, VERDICT_UNKNOWN);
    assert_string_equal(res.stage, "exported");
    assert_true(p.num_vars >= 1);
    check_result_free(&res);
    sat_model m; sat_model_init(&m);
    m.status = 20;
    assert_int_equal(export_decode(h, &o, &m, &res, &err), 1);
    assert_int_equal(res.verdict, VERDICT_UNKNOWN);          /* UNSAT cannot be confirmed */
    check_result_free(&res);
    m.status = 10;                                        /* SAT without literals */
    assert_int_equal(export_decode(h, &o, &m, &res, &err), 1);
    assert_int_equal(res.verdict, VERDICT_UNKNOWN);
    assert_non_null(strstr(res.msg, "no value"));
    check_result_free(&res);
    gp_free(&p);
    history_free(h);
}

static int read_model(const char *text, sat_model *m, ic_error *err) {
    input r;
    input_from_mem(&r, text, strlen(text), "model.txt");
    ic_error_clear(err);
    int ok = sat_model_read(&r, m, err);
    input_close(&r);
    return ok;
}

static void model_reader_formats(void **state) {
    (void)state;
    sat_model m; sat_model_init(&m);
    ic_error err;
    assert_true(read_model("c comment\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n", &m, &err));
    assert_int_equal(m.status, 10);
    assert_int_equal(m.num_vars, 4);
    assert_int_equal(sat_model_value(&m, 1), 1);
    assert_int_equal(sat_model_value(&m, 2), -1);
    assert_int_equal(sat_model_value(&m, 4), -1);
    assert_int_equal(sat_model_value(&m, 5), 0);
    assert_true(read_model("SAT\n-1 2 0\n", &m, &err));                 /* MiniSat */
    assert_int_equal(m.status, 10);
    assert_int_equal(sat_model_value(&m, 2), 1);
    assert_true(read_model("UNSAT\n", &m, &err));
    assert_int_equal(m.status, 20);
    assert_true(read_model("s UNSATISFIABLE\n", &m, &err));
    assert_int_equal(m.status, 20);
    assert_true(read_model("3 -7\n", &m, &err));                         /* bare literals */
    assert_int_equal(m.status, 10);
    assert_int_equal(m.num_vars, 7);
    assert_true(read_model("", &m, &err));
    assert_int_equal(m.status, 0);
    assert_false(read_model("s MAYBE\n", &m, &err));
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.msg, "MAYBE"));
    assert_false(read_model("v 1 2x\n", &m, &err));
    assert_non_null(strstr(err.msg, "expected a literal, found '2x'"));
    assert_false(read_model("UNSAT\n1 2\n", &m, &err));
    sat_model_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_reader_formats),
        cmocka_unit_test(wrong_answers_are_errors),
        cmocka_unit_test(encode_decode_matches_brute_force),
    };
    return cmocka_run_group_tests_name("export", tests, NULL, NULL);
}
