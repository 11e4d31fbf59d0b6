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

static const char *stage[LEVEL_COUNT];

/* run_check on h for the levels given (a list ending with -1), every PASS
 * re-verified; each level's verdict into v[level], reason into msg[level]
 * and stage into stage[level]. */
static void run_levels(const history *h, const int *levels, verdict *v, char (*msg)[512]) {
    run_check_options o;
    run_check_options_default(&o);
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
    run_levels(h, levels, v, msg);
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
    run_levels(h, levels, v, msg);
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rc_alone_takes_si_choice),
        cmocka_unit_test(test_levels_together),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
