/* test_scan_share.c — the writer-unit scan's per-unit covering test, and
 * what a level shares with the others of a run.
 *
 * 1. The initial scan (constraints.c) decides whether each covering
 *    candidate's side is already implied by the known graph with one
 *    lookup per source and group (covering_of_unit); the plain test
 *    (side_implied, one pg_reaches an edge) is the reference.  On
 *    simulated histories with every fault, at every searched level
 *    without real time, with every session tracked and with two tracked
 *    (the others untracked), both must give the same polygraph: the same
 *    known edges in the same order, the same constraints, the same counts,
 *    the same failure.  The tally asserts that candidates were found not
 *    implied (covering edges added) and that the scan failed somewhere.
 * 2. A level checked in a run of several (run_check, the index and its
 *    base edges shared, released after the last use) gives the same facts
 *    as the level checked alone: si,ser against ser alone and si alone,
 *    with one thread and two (the levels of a wave at once), every count
 *    of the hook's result the same (a level the run decides without its
 *    own search, "implied", the same verdict). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "workload/gen_writer.h"
#include "workload/workload.h"
#include "sim_history.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/checking/polygraph.h"
#include "frontend/run_check.h"

/* h without read-axiom violations (the checker stops before the index
 * otherwise), else NULL (h freed). */
static history *clean(history *h) {
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t found = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    if (found) { history_free(h); return NULL; }
    return h;
}

typedef struct tally { int graphs, failed, covering, untracked; } tally;

static void same_graph(const polygraph *a, int ok_a, const polygraph *b, int ok_b) {
    assert_int_equal(ok_a, ok_b);
    assert_string_equal(a->fail_reason, b->fail_reason);
    assert_int_equal(a->known.len, b->known.len);
    if (a->known.len) assert_memory_equal(a->known.data, b->known.data, a->known.len * sizeof *a->known.data);
    assert_int_equal(a->cons.len, b->cons.len);
    if (a->cons.len) assert_memory_equal(a->cons.data, b->cons.data, a->cons.len * sizeof *a->cons.data);
    assert_int_equal(a->pairs_total, b->pairs_total);
    assert_int_equal(a->pairs_decided_scan, b->pairs_decided_scan);
    assert_int_equal(a->edges_covering, b->edges_covering);
}

/* Level lv's polygraph of h built with the hoisted covering test and with
 * the plain one, chain limit `limit` (0: every session). */
static void compare_covering(const history *h, check_level_id lv, uint32_t limit, tally *tl) {
    pg_index ix;
    ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build_opts(&ix, h, &err, NULL, pg_index_opts_for(lv)));
    pg_chain_limit = limit;
    polygraph g[2];
    int ok[2];
    for (int plain = 0; plain < 2; plain++) {
        pg_scan_covering_plain = plain;
        pg_init_level(&g[plain], &ix, lv);
        ok[plain] = pg_build_constraints(&g[plain]);
    }
    pg_scan_covering_plain = 0;
    pg_chain_limit = 0;
    same_graph(&g[0], ok[0], &g[1], ok[1]);
    tl->graphs++;
    tl->failed += !ok[0];
    tl->covering += g[0].edges_covering > 0;
    tl->untracked += g[0].num_chains < pg_num_sessions(&ix);
    pg_free(&g[0]); pg_free(&g[1]);
    pg_index_free(&ix);
}

static void covering_test_same_polygraph(void **state) {
    (void)state;
    tally tl = { 0 };
    for (int fault = 0; fault < FAULT_COUNT; fault++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            history *h = clean(sim_history(fault % 2 ? SIM_SI : SIM_SER, (sim_fault)fault,
                                           (sim_shape){ 6, 20, 6, 12 }, seed));
            if (!h) continue;
            for (int l = 0; l < LEVEL_COUNT; l++) {
                check_level_id lv = (check_level_id)l;
                if (level_shape_of(lv) < SHAPE_PC || level_real_time(lv)) continue;
                compare_covering(h, lv, 0, &tl);
                compare_covering(h, lv, 2, &tl);
            }
            history_free(h);
        }
    assert_true(tl.graphs >= 40);
    assert_true(tl.failed > 0);
    assert_true(tl.covering > 0);
    assert_true(tl.untracked > 0);
}

/* What the hook saw of each level: verdict, stage and every count. */
typedef struct seen { int have[LEVEL_COUNT]; check_result res[LEVEL_COUNT]; } seen;
static void on_level(void *ctx, const check_result *res) {
    seen *s = ctx;
    s->have[res->level] = 1;
    s->res[res->level] = *res;                   /* the counts and message; no pointer is kept */
}

static void run_levels(const history *h, const int *levels, size_t n, unsigned threads, seen *s) {
    memset(s, 0, sizeof *s);
    run_check_options o;
    run_check_options_default(&o);
    o.want[LEVEL_SI] = 0;
    for (size_t i = 0; i < n; i++) o.want[levels[i]] = 1;
    o.check.threads = threads;
    o.on_level = on_level;
    o.hook_ctx = s;
    report rep;
    report_init(&rep, h, "test");
    ic_error err; ic_error_clear(&err);
    assert_int_equal(run_check(h, &o, &rep, NULL, NULL, &err), 1);
    report_free(&rep);
}

static void same_facts(const check_result *a, const check_result *b) {
    assert_int_equal(a->verdict, b->verdict);
    assert_string_equal(a->stage ? a->stage : "-", b->stage ? b->stage : "-");
    assert_string_equal(a->msg, b->msg);
    const check_stats *x = &a->st, *y = &b->st;
    assert_int_equal(x->known_edges_initial, y->known_edges_initial);
    assert_int_equal(x->known_edges_final, y->known_edges_final);
    assert_int_equal(x->pairs_total, y->pairs_total);
    assert_int_equal(x->pairs_decided_scan, y->pairs_decided_scan);
    assert_int_equal(x->cons_initial, y->cons_initial);
    assert_int_equal(x->cons_pruned, y->cons_pruned);
    assert_int_equal(x->cons_final, y->cons_final);
    assert_int_equal(x->edges_covering, y->edges_covering);
    assert_int_equal(x->prune_rounds, y->prune_rounds);
    assert_int_equal(x->vars, y->vars);
    assert_int_equal(x->guarded_edges, y->guarded_edges);
}

static void level_in_a_run_same_facts(void **state) {
    (void)state;
    int searched_both = 0;
    static const int both[] = { LEVEL_SI, LEVEL_SER }, ser[] = { LEVEL_SER }, si[] = { LEVEL_SI };
    for (int fault = 0; fault < FAULT_COUNT; fault++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            history *h = clean(sim_history(SIM_SI, (sim_fault)fault, (sim_shape){ 8, 30, 6, 20 }, seed));
            if (!h) continue;
            for (unsigned threads = 1; threads <= 2; threads++) {
                seen *alone_ser = xcalloc(1, sizeof *alone_ser), *alone_si = xcalloc(1, sizeof *alone_si),
                     *list = xcalloc(1, sizeof *list);
                run_levels(h, ser, 1, threads, alone_ser);
                run_levels(h, si, 1, threads, alone_si);
                run_levels(h, both, 2, threads, list);
                assert_true(list->have[LEVEL_SER] && list->have[LEVEL_SI]);
                /* ser is searched first; when si fails too, ser's FAIL may be
                 * reported as derived from si's ("implied"): same verdict */
                const check_result *ls = &list->res[LEVEL_SER];
                if (ls->stage && !strcmp(ls->stage, "implied")) assert_int_equal(alone_ser->res[LEVEL_SER].verdict, ls->verdict);
                else same_facts(&alone_ser->res[LEVEL_SER], ls);
                /* si is searched in the run when ser fails (else decided by ser's order) */
                const check_result *li = &list->res[LEVEL_SI];
                if (!li->stage || strcmp(li->stage, "implied")) {
                    same_facts(&alone_si->res[LEVEL_SI], li);
                    searched_both++;
                } else assert_int_equal(alone_si->res[LEVEL_SI].verdict, VERDICT_PASS);
                free(alone_ser); free(alone_si); free(list);
            }
            history_free(h);
        }
    assert_true(searched_both > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(covering_test_same_polygraph),
        cmocka_unit_test(level_in_a_run_same_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
