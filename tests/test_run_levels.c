/* test_run_levels.c — run_check over a set of levels (run_check.h) and
 * the ladder's order (frontend/reports/ladder.h).
 *
 *  - level_implies against the arrows of doc/levels.md, "The order of the
 *    ladder", written out here by hand (a second list, not the table of
 *    ladder.c), and the pairs the document says are incomparable;
 *  - ladder_summary on made-up verdicts: strongest that hold, weakest that
 *    fail, contradictions; report_check_ladder withdraws the PASS of a
 *    stronger level whose weaker one fails and makes the report UNKNOWN;
 *  - run_check with several levels on small histories (write skew, a
 *    serial one, with and without times): the report's levels in ladder
 *    order with their verdicts and reasons, real-time levels not checked
 *    without times, the certificate kept (ser when it passes, else si),
 *    and the same report with one thread and with two. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/reports/ladder.h"
#include "frontend/run_check.h"

/* doc/levels.md: "sser ⇒ strong-si ⇒ si ⇒ pc ⇒ cc ⇒ ra ⇒ rc;
 * sser ⇒ ser ⇒ si ⇒ psi ⇒ cc; ser ⇒ ser-plain ⇒ si-plain; si ⇒ si-plain;
 * ser-plain ⇒ rr". */
static const char *const chains[][8] = {
    { "sser", "strong-si", "si", "pc", "cc", "ra", "rc", NULL },
    { "sser", "ser", "si", "psi", "cc", NULL },
    { "ser", "ser-plain", "si-plain", NULL },
    { "si", "si-plain", NULL },
    { "ser-plain", "rr", NULL },
};

static int lv(const char *name) {
    int l = level_by_name(name);
    assert_true(l >= 0);
    return l;
}

/* The closure of the chains, computed here by a fixpoint. */
static void doc_closure(int imp[LEVEL_COUNT][LEVEL_COUNT]) {
    memset(imp, 0, sizeof(int) * LEVEL_COUNT * LEVEL_COUNT);
    for (int l = 0; l < LEVEL_COUNT; l++) imp[l][l] = 1;
    for (size_t c = 0; c < sizeof chains / sizeof chains[0]; c++)
        for (int i = 0; chains[c][i + 1]; i++) imp[lv(chains[c][i])][lv(chains[c][i + 1])] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int a = 0; a < LEVEL_COUNT; a++)
            for (int b = 0; b < LEVEL_COUNT; b++)
                for (int c = 0; c < LEVEL_COUNT; c++)
                    if (imp[a][b] && imp[b][c] && !imp[a][c]) imp[a][c] = changed = 1;
    }
}

static void implication_is_the_documents(void **state) {
    (void)state;
    int imp[LEVEL_COUNT][LEVEL_COUNT];
    doc_closure(imp);
    for (int a = 0; a < LEVEL_COUNT; a++)
        for (int b = 0; b < LEVEL_COUNT; b++)
            if (level_implies((check_level_id)a, (check_level_id)b) != imp[a][b])
                fail_msg("%s => %s: ladder.c says %d, doc/levels.md %d", level_name((check_level_id)a),
                         level_name((check_level_id)b), level_implies((check_level_id)a, (check_level_id)b), imp[a][b]);
    /* the incomparable pairs the document names */
    const char *const incomparable[][2] = { { "pc", "psi" }, { "strong-si", "ser" }, { "si", "ser-plain" },
                                            { "si-plain", "rc" }, { "ser-plain", "rc" },
                                            { "rr", "si-plain" }, { "rr", "rc" }, { "rr", "si" } };
    for (size_t i = 0; i < sizeof incomparable / sizeof incomparable[0]; i++) {
        assert_false(level_implies((check_level_id)lv(incomparable[i][0]), (check_level_id)lv(incomparable[i][1])));
        assert_false(level_implies((check_level_id)lv(incomparable[i][1]), (check_level_id)lv(incomparable[i][0])));
    }
    /* the order lists every level once, weakest first within each part */
    int seen[LEVEL_COUNT] = { 0 };
    for (int i = 0; i < LEVEL_COUNT; i++) {
        seen[ladder_order[i]]++;
        for (int j = i + 1; j < LEVEL_COUNT; j++)
            if (ladder_part(ladder_order[i]) == ladder_part(ladder_order[j]))
                assert_false(level_implies(ladder_order[i], ladder_order[j]));
    }
    for (int l = 0; l < LEVEL_COUNT; l++) assert_int_equal(seen[l], 1);
    assert_int_equal(ladder_part(LEVEL_SI_PLAIN), 1);
    assert_int_equal(ladder_part(LEVEL_SSER), 0);
}

static void summary_of_made_up_verdicts(void **state) {
    (void)state;
    ladder_state st[LEVEL_COUNT] = { 0 };
    ladder_summary_t s;
    /* write skew, every level decided: ser, sser, ser-plain, rr fail; the rest hold */
    for (int l = 0; l < LEVEL_COUNT; l++) st[l] = LADDER_PASS;
    st[LEVEL_SER] = st[LEVEL_SSER] = st[LEVEL_SER_PLAIN] = st[LEVEL_RR] = LADDER_FAIL;
    ladder_summary(st, &s);
    assert_int_equal(s.num_holds, 1);                    /* strong-si implies si, pc, psi, ... si-plain */
    assert_int_equal(s.holds[0], LEVEL_STRONG_SI);
    assert_int_equal(s.num_fails, 1);                    /* rr: ser, sser and ser-plain imply it */
    assert_int_equal(s.fails[0], LEVEL_RR);
    /* a phantom write skew: rr holds too, ser-plain is the weakest failing */
    st[LEVEL_RR] = LADDER_PASS;
    ladder_summary(st, &s);
    assert_int_equal(s.num_holds, 2);                    /* strong-si, rr (in ladder order) */
    assert_int_equal(s.holds[1], LEVEL_RR);
    assert_int_equal(s.num_fails, 1);
    assert_int_equal(s.fails[0], LEVEL_SER_PLAIN);
    assert_int_equal(s.num_conflicts, 0);
    /* lost update: pc holds, psi fails; two strongest? pc alone; weakest failing psi */
    for (int l = 0; l < LEVEL_COUNT; l++) st[l] = LADDER_FAIL;
    st[LEVEL_RC] = st[LEVEL_RA] = st[LEVEL_CC] = st[LEVEL_PC] = LADDER_PASS;
    st[LEVEL_STRONG_SI] = st[LEVEL_SSER] = LADDER_NO_TIMES;
    ladder_summary(st, &s);
    assert_int_equal(s.num_holds, 1);
    assert_int_equal(s.holds[0], LEVEL_PC);
    assert_int_equal(s.num_fails, 3);                    /* psi, si-plain and rr, in ladder order */
    assert_int_equal(s.fails[0], LEVEL_PSI);
    assert_int_equal(s.fails[1], LEVEL_SI_PLAIN);
    assert_int_equal(s.fails[2], LEVEL_RR);
    /* pc and psi both hold, si fails: two strongest */
    for (int l = 0; l < LEVEL_COUNT; l++) st[l] = LADDER_NOT_ASKED;
    st[LEVEL_PC] = st[LEVEL_PSI] = st[LEVEL_CC] = LADDER_PASS;
    st[LEVEL_SI] = LADDER_FAIL;
    ladder_summary(st, &s);
    assert_int_equal(s.num_holds, 2);
    assert_int_equal(s.holds[0], LEVEL_PC);
    assert_int_equal(s.holds[1], LEVEL_PSI);
    /* a contradiction: ser passes while rc fails */
    st[LEVEL_SER] = LADDER_PASS;
    st[LEVEL_RC] = LADDER_FAIL;
    ladder_summary(st, &s);
    int found = 0;
    for (int i = 0; i < s.num_conflicts; i++)
        found += s.conflicts[i].stronger == LEVEL_SER && s.conflicts[i].weaker == LEVEL_RC;
    assert_int_equal(found, 1);
    for (int i = 0; i < s.num_conflicts; i++)
        assert_true(level_implies(s.conflicts[i].stronger, s.conflicts[i].weaker));
}

/* A report whose stronger level passes while a weaker one fails. */
static void contradiction_withdraws_the_pass(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "t.txt");
    uint32_t t = hb_txn(b, hb_session(b, 1, NULL), 1, 1);
    hb_op(b, t, OP_WRITE, hb_key(b, 1), 1, 1);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    report r;
    report_init(&r, h, "all");
    r.num_levels = 2;
    r.levels[0] = (report_level){ .level = LEVEL_SI, .verdict = VERDICT_FAIL, .stage = "" };
    r.levels[1] = (report_level){ .level = LEVEL_SER, .verdict = VERDICT_PASS, .stage = "" };
    assert_int_equal(report_verdict(&r), VERDICT_FAIL);
    report_check_ladder(&r);
    assert_int_equal(r.internal_errors, 1);
    assert_int_equal(r.levels[1].verdict, VERDICT_UNKNOWN);
    assert_non_null(strstr(r.levels[1].msg, "internal error: ser passed, but si, which it implies, fails"));
    assert_int_equal(r.levels[0].verdict, VERDICT_FAIL);
    assert_int_equal(report_verdict(&r), VERDICT_UNKNOWN);   /* no verdict is trusted */
    report_free(&r);
    history_free(h);
}

/* Write skew (doc/levels.md): T1 r(1,0) r(2,0) w(1,1); T2 r(1,0) r(2,0)
 * w(2,1), both [0,10] when times are given; serial: T1 w(1,1), T2 r(1,1)
 * of the same session. */
static history *make(int skew, int times) {
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "t.txt");
    uint32_t k1 = hb_key(b, 1), k2 = hb_key(b, 2);
    uint32_t s1 = hb_session(b, 1, NULL), s2 = skew ? hb_session(b, 2, NULL) : s1;
    uint32_t a = hb_txn(b, s1, 1, 1), c = hb_txn(b, s2, 2, 4);
    if (skew) {
        hb_op(b, a, OP_READ, k1, VALUE_INIT, 1); hb_op(b, a, OP_READ, k2, VALUE_INIT, 2); hb_op(b, a, OP_WRITE, k1, 1, 3);
        hb_op(b, c, OP_READ, k1, VALUE_INIT, 4); hb_op(b, c, OP_READ, k2, VALUE_INIT, 5); hb_op(b, c, OP_WRITE, k2, 1, 6);
    } else {
        hb_op(b, a, OP_WRITE, k1, 1, 1);
        hb_op(b, c, OP_READ, k1, 1, 4);
    }
    if (times) {
        hb_txn_time(b, a, TIME_INVOKE, 0); hb_txn_time(b, a, TIME_COMPLETE, 10);
        hb_txn_time(b, c, TIME_INVOKE, skew ? 0 : 20); hb_txn_time(b, c, TIME_COMPLETE, skew ? 10 : 30);
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    if (!h) fail_msg("%s", err.msg);
    return h;
}

typedef struct run_out {
    report rep;
    certificate cert;
    int cert_level;
} run_out;

static void run(const history *h, const char *const *names, unsigned threads, int want_cert, run_out *out) {
    run_check_options o;
    run_check_options_default(&o);
    memset(o.want, 0, sizeof o.want);
    for (int i = 0; names[i]; i++) o.want[lv(names[i])] = 1;
    o.check.threads = threads;
    o.certificate = want_cert;
    o.verify_every_pass = 1;
    report_init(&out->rep, h, "test");
    cert_init(&out->cert);
    ic_error err; ic_error_clear(&err);
    assert_true(run_check(h, &o, &out->rep, &out->cert, &out->cert_level, &err));
}

static void run_free(run_out *o) {
    report_free(&o->rep);
    cert_free(&o->cert);
}

static const report_level *level_of(const report *r, const char *name) {
    for (int i = 0; i < r->num_levels; i++)
        if (r->levels[i].level == lv(name)) return &r->levels[i];
    return NULL;
}

static void write_skew_over_a_set(void **state) {
    (void)state;
    history *h = make(1, 0);
    static const char *const names[] = { "sser", "ser", "rc", "si", "strong-si", NULL };
    for (unsigned threads = 1; threads <= 2; threads++) {
        run_out o;
        run(h, names, threads, 1, &o);
        /* ladder order, real-time levels left out without times */
        assert_int_equal(o.rep.num_levels, 3);
        assert_int_equal(o.rep.levels[0].level, LEVEL_RC);
        assert_int_equal(o.rep.levels[1].level, LEVEL_SI);
        assert_int_equal(o.rep.levels[2].level, LEVEL_SER);
        assert_true(o.rep.no_times[LEVEL_SSER] && o.rep.no_times[LEVEL_STRONG_SI]);
        assert_false(o.rep.no_times[LEVEL_SER] || o.rep.no_times[LEVEL_RC]);
        /* rc holds for write skew */
        assert_int_equal(level_of(&o.rep, "rc")->verdict, VERDICT_PASS);
        assert_int_equal(level_of(&o.rep, "si")->verdict, VERDICT_PASS);
        assert_int_equal(level_of(&o.rep, "ser")->verdict, VERDICT_FAIL);
        /* ser's anomaly is the write skew; si has none */
        size_t n = 0;
        vec_foreach(const report_anomaly, a, o.rep.items) {
            assert_int_equal(a->level, LEVEL_SER);
            assert_int_equal(a->kind, AN_WRITE_SKEW);
            assert_string_equal(a->adya, "G2-item");
            n++;
        }
        assert_int_equal(n, 1);
        assert_int_equal(o.cert_level, LEVEL_SI);        /* ser failed: si's certificate */
        assert_int_equal(o.rep.internal_errors, 0);
        assert_int_equal(report_verdict(&o.rep), VERDICT_FAIL);   /* a FAIL outweighs the levels not checked */
        run_free(&o);
    }
    history_free(h);
}

static void serial_with_and_without_times(void **state) {
    (void)state;
    static const char *const names[] = { "si", "ser", "sser", "ser-plain", NULL };
    for (int times = 0; times <= 1; times++) {
        history *h = make(0, times);
        run_out o;
        run(h, names, 2, 1, &o);
        /* the strongest certificate: sser's when the history has times, else ser's */
        assert_int_equal(o.cert_level, times ? LEVEL_SSER : LEVEL_SER);
        assert_int_equal(level_of(&o.rep, "si")->verdict, VERDICT_PASS);
        assert_int_equal(level_of(&o.rep, "ser")->verdict, VERDICT_PASS);
        assert_int_equal(o.rep.no_times[LEVEL_SSER], !times);
        if (times) {
            assert_int_equal(level_of(&o.rep, "sser")->verdict, VERDICT_PASS);
        } else {
            assert_null(level_of(&o.rep, "sser"));
            assert_int_equal(report_verdict(&o.rep), VERDICT_UNKNOWN);   /* sser asked, not checked */
        }
        assert_int_equal(level_of(&o.rep, "ser-plain")->verdict, VERDICT_PASS);
        /* the last two levels in ladder order: the session ones, then the plain chain */
        assert_int_equal(o.rep.levels[o.rep.num_levels - 1].level, LEVEL_SER_PLAIN);
        assert_int_equal(o.rep.internal_errors, 0);
        run_free(&o);
        history_free(h);
    }
}

/* Lost update (doc/levels.md): T1@1 r(1,0) w(1,1); T2@2 r(1,0) w(1,2).
 * Causality violation: T1@1 w(1,1); T2@2 r(1,1) w(2,1); T3@3 r(2,1) r(1,0). */
static history *make_weak(int causal) {
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "t.txt");
    uint32_t k1 = hb_key(b, 1), k2 = hb_key(b, 2);
    uint32_t s1 = hb_session(b, 1, NULL), s2 = hb_session(b, 2, NULL), s3 = hb_session(b, 3, NULL);
    uint32_t a = hb_txn(b, s1, 1, 1), c = hb_txn(b, s2, 2, 3);
    if (causal) {
        uint32_t d = hb_txn(b, s3, 3, 6);
        hb_op(b, a, OP_WRITE, k1, 1, 1);
        hb_op(b, c, OP_READ, k1, 1, 3); hb_op(b, c, OP_WRITE, k2, 1, 4);
        hb_op(b, d, OP_READ, k2, 1, 6); hb_op(b, d, OP_READ, k1, VALUE_INIT, 7);
    } else {
        hb_op(b, a, OP_READ, k1, VALUE_INIT, 1); hb_op(b, a, OP_WRITE, k1, 1, 2);
        hb_op(b, c, OP_READ, k1, VALUE_INIT, 3); hb_op(b, c, OP_WRITE, k1, 2, 4);
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    if (!h) fail_msg("%s", err.msg);
    return h;
}

/* Each level's verdict in a run of all of names equals its verdict alone. */
static void same_as_alone(const history *h, const char *const *names, const report *all) {
    for (int i = 0; names[i]; i++) {
        const char *one[] = { names[i], NULL };
        run_out o;
        run(h, one, 1, 0, &o);
        assert_int_equal(level_of(all, names[i])->verdict, level_of(&o.rep, names[i])->verdict);
        run_free(&o);
    }
}

/* A stronger level's FAIL derived from a weaker one's (ladder_derive.h):
 * lost update fails psi on its own search, and si and ser because psi does
 * (stage "implied", implied_by psi, one anomaly each: psi's cycle,
 * WW then RW, at their own level); pc holds.  The causality violation
 * fails cc by saturation and every searched level because of it, with a
 * cycle of cc's premise edge (its visibility path, then one RW edge). */
static void weaker_fail_decides_stronger(void **state) {
    (void)state;
    static const char *const names[] = { "rc", "ra", "cc", "pc", "psi", "si", "ser", NULL };
    for (int causal = 0; causal <= 1; causal++) {
        history *h = make_weak(causal);
        for (unsigned threads = 1; threads <= 2; threads++) {
            run_out o;
            run(h, names, threads, 0, &o);
            check_level_id root = causal ? LEVEL_CC : LEVEL_PSI;
            assert_int_equal(level_of(&o.rep, level_name(root))->verdict, VERDICT_FAIL);
            assert_false(level_of(&o.rep, level_name(root))->implied);
            if (!causal) assert_int_equal(level_of(&o.rep, "pc")->verdict, VERDICT_PASS);
            for (int i = 0; names[i]; i++) {
                const report_level *L = level_of(&o.rep, names[i]);
                int derived = level_shape_of((check_level_id)L->level) >= SHAPE_PC && level_implies((check_level_id)L->level, root) &&
                              L->level != (int)root;
                assert_int_equal(L->implied, derived);
                if (!derived) continue;
                assert_int_equal(L->verdict, VERDICT_FAIL);
                assert_int_equal(L->implied_by, root);
                assert_string_equal(L->stage, "implied");
                assert_non_null(strstr(L->msg, level_name(root)));
                size_t n = 0;
                vec_foreach(const report_anomaly, a, o.rep.items) {
                    if (a->level != L->level) continue;
                    n++;
                    size_t rw = 0, ww = 0;
                    for (size_t e = 0; e < a->edges.len; e++) {
                        rw += a->edges.data[e].kind == DEP_RW;
                        ww += a->edges.data[e].kind == DEP_WW;
                        assert_int_equal(a->edges.data[e].to, a->edges.data[(e + 1) % a->edges.len].from);
                    }
                    assert_int_equal(rw, 1);
                    assert_int_equal(ww, causal ? 0 : 1);
                    assert_int_equal(a->edges.len, causal ? 3 : 2);
                }
                assert_int_equal(n, 1);
            }
            assert_int_equal(o.rep.internal_errors, 0);
            if (threads == 1) same_as_alone(h, names, &o.rep);
            run_free(&o);
        }
        history_free(h);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(implication_is_the_documents),
        cmocka_unit_test(summary_of_made_up_verdicts),
        cmocka_unit_test(contradiction_withdraws_the_pass),
        cmocka_unit_test(write_skew_over_a_set),
        cmocka_unit_test(serial_with_and_without_times),
        cmocka_unit_test(weaker_fail_decides_stronger),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
