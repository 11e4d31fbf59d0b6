/* test_known_cycle.c — a level that fails at stage "known graph" on a
 * history with reads of repeated values shows a cycle of known edges
 * (known_cycle.h, check.c's confirm_failure), explained on the history
 * with no writer chosen: every fact of it holds whichever write each read
 * of a repeated value saw.  Base (stop 50) showed the cycle of the version
 * order under a choice of writers, which on review49's g_rv_s14 was a
 * 2-cycle through a chosen WR edge and a WW edge of that order alone
 * ("chosen: ... not forced by the history alone"), and its reason named
 * the writers it assumed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <string.h>

#include "frontend/run_check.h"
#include "tests/parse_helpers.h"

/* T1 and T2 read each other's writes (a WR cycle: G1c, known); T1 also
 * reads 3=5, which T3 and T4 both wrote (a choice of writers). */
static const char *g1c_amb =
    "r(1,1,1,1)\nw(2,1,1,1)\nr(3,5,1,1)\nr(2,1,2,2)\nw(1,1,2,2)\nw(3,5,3,3)\nw(3,5,4,4)\n";

typedef struct seen { int levels, chosen; dep_edge_vec cycle; } seen;
static void on_level(void *ctx, const check_result *res) {
    seen *s = ctx;
    if (res->level != LEVEL_RR) return;
    s->levels++;
    s->chosen = res->chosen != NULL;
    vec_foreach(const dep_edge, e, res->cycle) vec_push(s->cycle, *e);
}

static void test_known_cycle_shown(void **state) {
    (void)state;
    history *h = load_text(g1c_amb);
    static const int levels[] = { LEVEL_RR, LEVEL_SER_PLAIN, LEVEL_SER };
    for (size_t l = 0; l < 3; l++) {
        run_check_options o;
        run_check_options_default(&o);
        o.want[LEVEL_SI] = 0;
        o.want[levels[l]] = 1;
        o.want[LEVEL_RR] = 1;                 /* alone, and with a level that implies it */
        o.verify_every_pass = 1;
        seen s = { 0, 0, { 0 } };
        vec_init(s.cycle);
        o.on_level = on_level;
        o.hook_ctx = &s;
        report rep;
        report_init(&rep, h, "t");
        ic_error err; ic_error_clear(&err);
        assert_int_equal(run_check(h, &o, &rep, NULL, NULL, &err), 1);
        assert_int_equal(rep.internal_errors, 0);
        for (int i = 0; i < rep.num_levels; i++) {
            assert_int_equal(rep.levels[i].verdict, VERDICT_FAIL);
            if (rep.levels[i].level != LEVEL_RR) continue;
            assert_string_equal(rep.levels[i].stage, "known graph");
            assert_string_equal(rep.levels[i].msg, "the known graph (WR, read-modify-write chains) has a cycle, whichever "
                                "write of its value each of the 1 reads of a repeated value saw; the cycle shown is of known edges");
        }
        assert_int_equal(s.levels, 1);
        assert_int_equal(s.chosen, 0);             /* no writer assumed */
        assert_int_equal(s.cycle.len, 2);          /* T1 -WR 1-> ... the two reads that name their writers */
        vec_foreach(const dep_edge, e, s.cycle) {
            assert_int_equal(e->kind, DEP_WR);
            assert_true(e->key == 0 || e->key == 1);   /* keys 1 and 2 (internal 0, 1), never key 3's read */
        }
        /* the anomaly shown: the same cycle, no fact merely chosen */
        int found = 0;
        vec_foreach(const report_anomaly, a, rep.items) {
            if (a->level != LEVEL_RR) continue;
            found = 1;
            assert_int_equal(a->chosen, 0);
            assert_int_equal(a->edges.len, 2);
        }
        assert_true(found);
        vec_free(s.cycle);
        report_free(&rep);
    }
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_cycle_shown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
