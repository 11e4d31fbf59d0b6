/* test_interpret_levels.c — the interpretation of a failure at every
 * level (interpret.h, classify.h): which cycles each level's rule forbids,
 * the names with -process and -realtime, a plain level's explanations
 * without session order, a real-time level's with RT edges, and pc's (no
 * rule over cycles: the checker's cycle as it is).
 *
 * The histories are the separating examples of doc/levels.md
 * (tests/data/levels), under the version order that lists each key's
 * writers in history order; the real-time one is built with its times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/formats/parse.h"
#include "frontend/reports/classify.h"
#include "frontend/reports/interpret.h"
#include "frontend/reports/report.h"

#define LEVELS "tests/data/levels/"

static dep_edge E(uint32_t from, uint32_t to, dep_kind k, uint32_t key) {
    dep_edge e = { from, to, k == DEP_SO || k == DEP_RT ? HISTORY_NONE : key, (uint8_t)k };
    return e;
}

static void rules_and_names(void **state) {
    (void)state;
    /* stale read in real time */
    dep_edge rt[] = { E(1, 2, DEP_RT, 0), E(2, 1, DEP_RW, 0) };
    cycle_class c = classify_cycle_rule(rt, 2, RULE_ALL);
    assert_int_equal(c.kind, AN_REAL_TIME);
    assert_string_equal(c.adya, "G-single-realtime");
    assert_true(c.violates);
    assert_true(cycle_violates_rule(rt, 2, RULE_NO_ADJ_RW));
    /* real time and session order both: -realtime */
    dep_edge both[] = { E(1, 2, DEP_SO, 0), E(2, 3, DEP_RT, 0), E(3, 1, DEP_RW, 0) };
    c = classify_cycle_rule(both, 3, RULE_ALL);
    assert_string_equal(c.adya, "G-single-realtime");
    assert_int_equal(c.kind, AN_REAL_TIME);
    /* psi: at most one RW edge — lost update yes, long fork and write skew no */
    dep_edge lu[] = { E(1, 2, DEP_WW, 0), E(2, 1, DEP_RW, 0) };
    dep_edge lf[] = { E(1, 3, DEP_WR, 0), E(3, 2, DEP_RW, 1), E(2, 4, DEP_WR, 1), E(4, 1, DEP_RW, 0) };
    dep_edge ws[] = { E(1, 2, DEP_RW, 1), E(2, 1, DEP_RW, 0) };
    assert_true(cycle_violates_rule(lu, 2, RULE_AT_MOST_ONE_RW));
    assert_false(cycle_violates_rule(lf, 4, RULE_AT_MOST_ONE_RW));
    assert_false(cycle_violates_rule(ws, 2, RULE_AT_MOST_ONE_RW));
    assert_true(cycle_violates_rule(lf, 4, RULE_NO_ADJ_RW));
    assert_false(cycle_violates_rule(ws, 2, RULE_NO_ADJ_RW));
    assert_true(cycle_violates_rule(ws, 2, RULE_ALL));
    assert_true(cycle_violates_rule(lf, 4, RULE_GIVEN));
    assert_int_equal(classify_cycle_rule(lf, 4, RULE_GIVEN).kind, AN_LONG_FORK);
    /* each level's rule */
    assert_int_equal(level_cycle_rule(LEVEL_SER_PLAIN), RULE_ALL);
    assert_int_equal(level_cycle_rule(LEVEL_SSER), RULE_ALL);
    assert_int_equal(level_cycle_rule(LEVEL_SI_PLAIN), RULE_NO_ADJ_RW);
    assert_int_equal(level_cycle_rule(LEVEL_STRONG_SI), RULE_NO_ADJ_RW);
    assert_int_equal(level_cycle_rule(LEVEL_PSI), RULE_AT_MOST_ONE_RW);
    assert_int_equal(level_cycle_rule(LEVEL_PC), RULE_GIVEN);
    assert_int_equal(level_cycle_rule(LEVEL_RC), RULE_GIVEN);
}

/* Per key: INIT, then the participating writers in history order. */
static void history_order_vo(const history *h, version_order *vo) {
    vo->num_keys = h->num_keys;
    vo->start = calloc(h->num_keys + 1, sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        vec_push(vo->txns, 0u);
        uint32_t last = 0;
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t t = history_op_txn(h, h->key_writes[i]);
            if (t == 0 || t == last) continue;
            vec_push(vo->txns, t);
            last = t;
        }
    }
    vo->start[h->num_keys] = (uint32_t)vo->txns.len;
}

static history *load(const char *name) {
    ic_error err;
    ic_error_clear(&err);
    char path[256];
    snprintf(path, sizeof path, LEVELS "%s", name);
    history *h = load_history(path, FORMAT_TEXT, &err);
    if (!h) fail_msg("%s: %s", path, err.msg);
    return h;
}

/* No SO edge anywhere in r's anomalies: cycles, explanations, facts. */
static void assert_no_session_order(const report *r) {
    vec_foreach(const report_anomaly, a, r->items) {
        vec_foreach(const dep_edge, e, a->edges) assert_int_not_equal(e->kind, DEP_SO);
        vec_foreach(const edge_why, w, a->why) vec_foreach(const dep_edge, e, w->alt) assert_int_not_equal(e->kind, DEP_SO);
        vec_foreach(const report_fact, f, a->facts) vec_foreach(const dep_edge, e, f->why.alt) assert_int_not_equal(e->kind, DEP_SO);
        assert_null(strstr(a->adya, "-process"));
    }
}

/* interpret_failure at level on file (cycle: the checker's, may be NULL);
 * the number of anomalies, the report left in *r. */
static size_t interpret(history *h, int level, const dep_edge *cycle, size_t n, report *r) {
    version_order vo;
    history_order_vo(h, &vo);
    report_init(r, h, level_name((check_level_id)level));
    size_t got = interpret_failure(r, level, &vo, cycle, n, NULL, 0, 5, NULL, NULL, 0);
    version_order_free(&vo);
    return got;
}

static void plain_levels_cite_no_session_order(void **state) {
    (void)state;
    report r;
    /* a stale read in one session: a violation with session order only */
    history *h = load("session-stale-read.txt");
    assert_int_equal(interpret(h, LEVEL_SER, NULL, 0, &r), 1);
    assert_int_equal(r.items.data[0].kind, AN_READ_YOUR_WRITES);
    assert_string_equal(r.items.data[0].adya, "G-single-process");
    report_free(&r);
    assert_int_equal(interpret(h, LEVEL_SER_PLAIN, NULL, 0, &r), 0);    /* without it, no cycle at all */
    report_free(&r);
    assert_int_equal(interpret(h, LEVEL_SI_PLAIN, NULL, 0, &r), 0);
    report_free(&r);
    history_free(h);
    /* violations of the plain levels are named and explained without SO */
    const char *const files[] = { "lost-update.txt", "write-skew.txt", "long-fork.txt", "causal-violation.txt" };
    const anomaly_kind kinds[] = { AN_LOST_UPDATE, AN_WRITE_SKEW, AN_LONG_FORK, AN_CAUSALITY };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        h = load(files[i]);
        assert_int_equal(interpret(h, LEVEL_SER_PLAIN, NULL, 0, &r), 1);
        if (r.items.data[0].kind != kinds[i])
            fail_msg("%s: %s, expected %s", files[i], anomaly_name(r.items.data[0].kind), anomaly_name(kinds[i]));
        assert_no_session_order(&r);
        report_free(&r);
        /* si-plain allows write skew only */
        assert_int_equal(interpret(h, LEVEL_SI_PLAIN, NULL, 0, &r), kinds[i] == AN_WRITE_SKEW ? 0 : 1);
        assert_no_session_order(&r);
        report_free(&r);
        history_free(h);
    }
}

static void psi_and_pc(void **state) {
    (void)state;
    report r;
    history *h = load("long-fork.txt");
    assert_int_equal(interpret(h, LEVEL_PSI, NULL, 0, &r), 0);     /* psi allows a long fork */
    report_free(&r);
    /* pc forbids it, with no rule over cycles: the checker's cycle as it is */
    dep_edge lf[] = { E(1, 3, DEP_WR, 0), E(3, 2, DEP_RW, 1), E(2, 4, DEP_WR, 1), E(4, 1, DEP_RW, 0) };
    assert_int_equal(interpret(h, LEVEL_PC, NULL, 0, &r), 0);      /* nothing to go on */
    report_free(&r);
    assert_int_equal(interpret(h, LEVEL_PC, lf, 4, &r), 1);
    assert_int_equal(r.items.data[0].kind, AN_LONG_FORK);
    assert_string_equal(r.items.data[0].adya, "G-nonadjacent");
    assert_int_equal(r.items.data[0].edges.len, 4);
    report_free(&r);
    history_free(h);
    h = load("lost-update.txt");
    assert_int_equal(interpret(h, LEVEL_PSI, NULL, 0, &r), 1);     /* psi forbids a lost update */
    assert_int_equal(r.items.data[0].kind, AN_LOST_UPDATE);
    report_free(&r);
    history_free(h);
}

/* realtime-stale-read.txt with its times: T1@1 w(1,1) [0,10]; T2@2 r(1,0) [20,30]. */
static history *stale_in_real_time(int times) {
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "rt.txt");
    uint32_t k = hb_key(b, 1);
    uint32_t a = hb_txn(b, hb_session(b, 1, NULL), 1, 1), c = hb_txn(b, hb_session(b, 2, NULL), 2, 2);
    hb_op(b, a, OP_WRITE, k, 1, 1);
    hb_op(b, c, OP_READ, k, VALUE_INIT, 2);
    if (times) {
        hb_txn_time(b, a, TIME_INVOKE, 0); hb_txn_time(b, a, TIME_COMPLETE, 10);
        hb_txn_time(b, c, TIME_INVOKE, 20); hb_txn_time(b, c, TIME_COMPLETE, 30);
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    if (!h) fail_msg("%s", err.msg);
    return h;
}

static void real_time_levels_cite_real_time(void **state) {
    (void)state;
    report r;
    history *h = stale_in_real_time(1);
    dep_edge cyc[] = { E(1, 2, DEP_RT, 0), E(2, 1, DEP_RW, 0) };
    for (int l = 0; l < 2; l++) {
        int level = l ? LEVEL_SSER : LEVEL_STRONG_SI;
        assert_int_equal(interpret(h, level, cyc, 2, &r), 1);
        const report_anomaly *a = &r.items.data[0];
        assert_int_equal(a->kind, AN_REAL_TIME);
        assert_string_equal(a->adya, "G-single-realtime");
        assert_int_equal(a->edges.len, 2);
        const dep_edge *rte = a->edges.data[0].kind == DEP_RT ? &a->edges.data[0] : &a->edges.data[1];
        assert_int_equal(rte->kind, DEP_RT);
        char s[300];
        report_edge_sentence(h, rte, s, sizeof s);
        assert_string_equal(s, "txn 1 completed at 10, before txn 2 was invoked at 20");
        /* the RT edge is observed; the RW edge rests on the initial version */
        for (size_t i = 0; i < a->edges.len; i++)
            assert_int_equal(a->why.data[i].status, a->edges.data[i].kind == DEP_RT ? WHY_OBSERVED : WHY_INIT);
        /* the text names it */
        r.levels[r.num_levels++] = (report_level){ .level = level, .verdict = VERDICT_FAIL, .stage = "" };
        char *buf = NULL; size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        report_print_text(f, &r, 0);
        fclose(f);
        assert_non_null(strstr(buf, "txn 1 -RT-> txn 2   txn 1 completed at 10, before txn 2 was invoked at 20"));
        free(buf);
        report_free(&r);
    }
    /* ser and si have no real time: no cycle among the two */
    assert_int_equal(interpret(h, LEVEL_SER, NULL, 0, &r), 0);
    report_free(&r);
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rules_and_names),
        cmocka_unit_test(plain_levels_cite_no_session_order),
        cmocka_unit_test(psi_and_pc),
        cmocka_unit_test(real_time_levels_cite_real_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
