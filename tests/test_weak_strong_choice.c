/* test_weak_strong_choice.c — rc, ra and cc on a history with repeated
 * values whose lazy search over writer choices (weak_choice.c) refutes
 * WEAK_CHOICE_SER_AFTER choices, where ser fails and si passes: the weak
 * level's PASS is si's choice of writers (si implies rc, ra and cc), re-
 * checked at the level (verify_every_pass), and says so.  Base (stop 49)
 * went on with the lazy search there; on a generated 60k-transaction
 * history (review49's g_rv_s14) it never ended.  A FAIL keeps its cycle
 * and reason (tests/e2e/repeated_values.case.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <string.h>

#include "frontend/run_check.h"
#include "frontend/checking/weak_propose.h"
#include "tests/parse_helpers.h"

/* isocheck gen --sessions 2 --txns 6 --ops 3 --keys 2 --repeat-values 0.6
 * --seed 174 (an si store): 7 reads of a repeated value; ser fails (a
 * cycle whichever writers they saw), si, psi and pc pass. */
static const char *gen174 =
    "r(0,0,1,1)\nr(0,0,1,1)\nw(1,1,1,1)\nw(0,2,2,2)\nr(1,0,2,2)\nr(0,2,2,2)\nr(0,0,1,3)\nr(0,0,1,3)\n"
    "w(1,3,1,3)\nw(0,2,1,4)\nr(1,3,1,4)\nr(0,2,1,4)\nw(0,2,1,6)\nr(1,3,1,6)\nr(1,3,1,6)\nw(0,2,2,8)\n"
    "w(0,2,2,8)\nw(1,3,2,8)\nr(0,2,1,10)\nr(1,3,1,10)\nw(0,9,1,10)\nw(1,10,2,12)\nw(0,2,2,12)\nw(1,3,2,12)\n"
    "r(0,2,2,14)\nr(1,3,2,14)\nr(0,2,2,14)\nw(1,11,1,15)\nw(0,12,1,15)\nr(0,12,1,15)\nr(0,12,2,16)\nr(0,12,2,16)\n"
    "w(0,2,2,16)\nw(1,3,2,17)\nr(1,3,2,17)\nr(0,2,2,17)\n";

/* isocheck gen --sessions 3 --txns 6 --ops 3 --keys 2 --repeat-values 0.6
 * --seed 29 (an si store): rc, ra and cc each refute WEAK_CHOICE_SER_AFTER
 * choices and take si's (ser fails). */
static const char *gen29 =
    "r(1,0,3,1)\nw(1,3,3,1)\nr(0,0,3,1)\nw(0,1,1,2)\nw(0,2,1,2)\nr(1,0,1,2)\nr(0,0,2,3)\nr(0,0,2,3)\n"
    "r(1,0,2,3)\nr(0,2,2,4)\nr(1,3,2,4)\nw(1,4,2,4)\nr(1,3,3,5)\nr(0,2,3,5)\nr(0,2,3,5)\nr(1,3,1,6)\n"
    "w(0,2,1,6)\nw(0,2,1,6)\nr(1,4,2,7)\nw(1,3,2,7)\nr(1,3,2,7)\nr(1,3,1,8)\nr(0,2,1,8)\nr(1,3,1,8)\n"
    "r(1,4,3,9)\nr(1,4,3,9)\nr(0,2,3,9)\nr(1,3,2,10)\nw(1,5,2,10)\nw(0,2,2,10)\nr(1,5,3,12)\n"
    "w(0,2,3,12)\nr(1,5,3,12)\nr(0,2,3,15)\nw(0,6,3,15)\nw(1,7,3,15)\nr(0,6,3,16)\nr(0,6,3,16)\n"
    "w(0,2,3,16)\nw(0,9,2,19)\nw(0,2,2,19)\nr(1,7,2,19)\nr(1,7,2,21)\nw(0,2,2,21)\nw(1,10,2,21)\n"
    "r(0,2,1,23)\nw(0,11,1,23)\nw(0,12,1,23)\nw(0,12,1,24)\nw(1,13,1,24)\nr(0,12,1,24)\nr(0,12,1,25)\n"
    "r(1,13,1,25)\nw(0,14,1,25)\n";

static const char *stage[LEVEL_COUNT];

/* run_check on h for the levels given (a list ending with -1), every PASS
 * re-verified; each level's verdict into v[level], reason into msg[level]
 * and stage into stage[level]. */
static void run_levels_with(const history *h, run_check_options *op, const int *levels, verdict *v, char (*msg)[512]) {
    run_check_options o = *op;
    o.want[LEVEL_SI] = 0;
    for (const int *l = levels; *l >= 0; l++) o.want[*l] = 1;
    o.verify_every_pass = 1;
    o.max_anomalies = 3;
    report rep;
    report_init(&rep, h, "t");
    ic_error err; ic_error_clear(&err);
    assert_int_equal(run_check(h, &o, &rep, NULL, NULL, &err), 1);
    assert_int_equal(rep.internal_errors, 0);
    for (int i = 0; i < rep.num_levels; i++) {
        v[rep.levels[i].level] = rep.levels[i].verdict;
        snprintf(msg[rep.levels[i].level], 512, "%s", rep.levels[i].msg);
        stage[rep.levels[i].level] = rep.levels[i].stage;
    }
    report_free(&rep);
}

/* Polygraphs built in a run (check.c's progress "building the polygraph"),
 * per level name the progress names. */
static int built[LEVEL_COUNT];
static void count_builds(void *ctx, const char *what) {
    if (strcmp(what, "building the polygraph") != 0) return;
    for (int l = 0; l < LEVEL_COUNT; l++)
        if (strcmp((const char *)ctx, check_level_name((check_level_id)l)) == 0) built[l]++;
}

static void run_levels(const history *h, const int *levels, verdict *v, char (*msg)[512]) {
    run_check_options o;
    run_check_options_default(&o);
    run_levels_with(h, &o, levels, v, msg);
}

#define SI_CHOICE "the saturated graph is acyclic: a commit order of 13 transactions; the writers of si's choice (si holds under them)"

/* rc alone: its search reaches si's choice (ser's fails); the strong
 * levels run on an index of their own (rc alone counts two uses of the
 * run's index: checking ser and then si on it freed its base edges under
 * si, an internal error). */
static void test_rc_alone_takes_si_choice(void **state) {
    (void)state;
    history *h = load_text(gen174);
    verdict v[LEVEL_COUNT] = { 0 };
    char msg[LEVEL_COUNT][512] = { { 0 } };
    int levels[] = { LEVEL_RC, -1 };
    unsigned long before = weak_proposals_strong_checks();
    run_levels(h, levels, v, msg);
    assert_int_equal(weak_proposals_strong_checks() - before, 2);   /* ser (fails), si */
    assert_int_equal(v[LEVEL_RC], VERDICT_PASS);
    assert_string_equal(msg[LEVEL_RC], SI_CHOICE);
    history_free(h);
}

/* The ladder's session levels: the same answers, ser's FAIL kept; psi and
 * pc are implied by si's PASS, its order re-checked under the writers si
 * chose (check_options.implied_chosen; before, each ran its own search). */
static void test_levels_together(void **state) {
    (void)state;
    history *h = load_text(gen174);
    verdict v[LEVEL_COUNT] = { 0 };
    char msg[LEVEL_COUNT][512] = { { 0 } };
    int levels[] = { LEVEL_RC, LEVEL_RA, LEVEL_CC, LEVEL_PC, LEVEL_PSI, LEVEL_SI, LEVEL_SER, -1 };
    unsigned long before = weak_proposals_strong_checks();
    run_levels(h, levels, v, msg);
    /* ser and si checked once for rc, ra and cc together (weak_propose.h);
     * base checked both for each of them: 6 */
    assert_int_equal(weak_proposals_strong_checks() - before, 2);
    assert_int_equal(v[LEVEL_RC], VERDICT_PASS);
    assert_string_equal(msg[LEVEL_RC], SI_CHOICE);
    for (int l = 0; levels[l] != LEVEL_SER; l++) assert_int_equal(v[levels[l]], VERDICT_PASS);
    assert_string_equal(stage[LEVEL_SI], "solver");
    assert_string_equal(stage[LEVEL_PSI], "implied");
    assert_string_equal(stage[LEVEL_PC], "implied");
    assert_int_equal(v[LEVEL_SER], VERDICT_FAIL);
    assert_non_null(strstr(msg[LEVEL_SER], "whichever write of its value each of the 7 reads of a repeated value saw"));
    history_free(h);
}

/* The whole ladder: si (passes), checked for rc's proposals, is not checked
 * again in its own wave (weak_proposals_keep, _take): the same question, the
 * same answers as each level checked on its own; ser's FAIL is not kept and
 * is checked again.  Base (stop 51) built both polygraphs twice, 4 in all;
 * now 3.  One thread and two. */
static void test_ladder_reuses_proposals(void **state) {
    (void)state;
    history *h = load_text(gen174);
    for (int threads = 1; threads <= 2; threads++) {
        verdict v[LEVEL_COUNT] = { 0 };
        char msg[LEVEL_COUNT][512] = { { 0 } };
        int levels[] = { LEVEL_RC, LEVEL_RA, LEVEL_CC, LEVEL_PC, LEVEL_PSI, LEVEL_SI, LEVEL_SER, -1 };
        run_check_options o;
        run_check_options_default(&o);
        o.check.threads = (unsigned)threads;
        o.check.progress = count_builds;
        memset(built, 0, sizeof built);
        unsigned long taken = weak_proposals_taken();
        run_levels_with(h, &o, levels, v, msg);
        assert_int_equal(weak_proposals_taken() - taken, 1);   /* si's PASS, by si's own wave */
        int total = 0;
        for (int l = 0; l < LEVEL_COUNT; l++) total += built[l];
        assert_int_equal(total, 3);                      /* ser's and si's under rc's name, ser's own */
        assert_int_equal(built[LEVEL_SI], 0);
        assert_int_equal(built[LEVEL_SER], 1);
        for (int l = 0; levels[l] != LEVEL_SER; l++) assert_int_equal(v[levels[l]], VERDICT_PASS);
        assert_string_equal(stage[LEVEL_SI], "solver");
        assert_string_equal(stage[LEVEL_PSI], "implied");
        assert_int_equal(v[LEVEL_SER], VERDICT_FAIL);
        assert_non_null(strstr(msg[LEVEL_SER], "whichever write of its value each of the 7 reads of a repeated value saw"));
    }
    history_free(h);
}

/* rc, ra and cc in one run each need a strong level's choice: ser (fails)
 * and si (passes) are checked once for the three (weak_propose.h; base
 * checked both for each level, 6 checks), at once on two threads and one
 * after the other alike; each level's PASS re-checked, the same reasons. */
static void test_weak_levels_share_proposals(void **state) {
    (void)state;
    history *h = load_text(gen29);
    for (int threads = 1; threads <= 2; threads++) {
        verdict v[LEVEL_COUNT] = { 0 };
        char msg[LEVEL_COUNT][512] = { { 0 } };
        int levels[] = { LEVEL_RC, LEVEL_RA, LEVEL_CC, -1 };
        run_check_options o;
        run_check_options_default(&o);
        o.check.threads = (unsigned)threads;
        unsigned long before = weak_proposals_strong_checks();
        run_levels_with(h, &o, levels, v, msg);
        assert_int_equal(weak_proposals_strong_checks() - before, 2);
        for (int l = 0; levels[l] >= 0; l++) {
            assert_int_equal(v[levels[l]], VERDICT_PASS);
            assert_string_equal(msg[levels[l]], "the saturated graph is acyclic: a commit order of 19 transactions; "
                                                "the writers of si's choice (si holds under them)");
        }
    }
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rc_alone_takes_si_choice),
        cmocka_unit_test(test_levels_together),
        cmocka_unit_test(test_weak_levels_share_proposals),
        cmocka_unit_test(test_ladder_reuses_proposals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
