/* test_ladder_repeat_diff.c — the ladder's PASSes through another level's
 * choice of writers (stop 50: check.c's implied_pass with
 * check_options.implied_chosen, run_check's next_wave; weak_choice.c's
 * strong levels' choices), against the brute-force oracle
 * (tests/brute_repeat.h: every choice of writer per read, each judged by
 * tests/brute_levels.h) on small random histories whose written values
 * repeat: every level at once as `--level ladder` runs them (the minimal
 * anomaly a level) and each level alone, on one thread and on two, every
 * PASS re-verified (verify_every_pass).  The verdicts must agree with the
 * oracle and with each other whatever the run; the implied path with
 * ambiguous reads must be taken.  The same on list histories whose
 * appended values repeat (run_list.c: each segmentation a history of its
 * own; the oracle brute_repeat_list_levels). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/history/list_repeat.h"
#include "frontend/reports/ladder.h"
#include "frontend/run_check.h"
#include "tests/brute_levels.h"
#include "tests/brute_repeat.h"
#include "tests/level_bv.h"
#include "tests/random_exec.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

#define LG_LEN 16
static void lg_emit(history_builder *b, uint32_t bt, const uint32_t *keys, const rx_exec *e, int i, int j) {
    const rx_op *o = &e->t[i].ops[j];
    if (o->write) { hb_op(b, bt, OP_APPEND, keys[o->key], o->value, (uint32_t)i + 1); return; }
    int64_t list[LG_LEN];
    int n = 0;
    for (int u = 0; u < i; u++)
        if ((o->vis >> u & 1u) && e->t[u].ran)
            for (int q = 0; q < e->t[u].nops; q++)
                if (e->t[u].ops[q].write && e->t[u].ops[q].key == o->key && n < LG_LEN) list[n++] = e->t[u].ops[q].value;
    for (int q = 0; q < j; q++)
        if (e->t[i].ops[q].write && e->t[i].ops[q].key == o->key && n < LG_LEN) list[n++] = e->t[i].ops[q].value;
    hb_list_read(b, bt, keys[o->key], list, (uint32_t)n, (uint32_t)i + 1);
}

static int lists;                       /* list histories (appends) instead of registers */
static int strong_taken;                /* weak PASSes under a strong level's choice of writers */

static history *random_history(int pct, int64_t *inv, int64_t *cmp) {
    rx_exec e;
    rx_params p = { .max_keys = lists ? 2 : 3, .write_of_5 = lists ? 3 : 2, .pct = pct };
    rx_draw(&e, &p, rnd, inv, cmp);
    history *h = rx_build(&e, "ladder-diff", lists ? lg_emit : rx_reg_emit, inv, cmp);
    assert_non_null(h);
    return h;
}

/* The verdicts of one run (want: the levels; -1 for a level not reported),
 * *implied counting the levels passed at stage "implied". */
static void one_run(const history *h, const int *want, unsigned threads, int ladder, int *got, int *implied) {
    run_check_options o;
    run_check_options_default(&o);
    for (int l = 0; l < LEVEL_COUNT; l++) o.want[l] = want[l];
    o.max_anomalies = 3;
    if (ladder) o.level_anomalies = 1;
    o.verify_every_pass = 1;
    o.check.threads = threads;
    report rep;
    report_init(&rep, h, ladder ? "ladder" : "one");
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(run_check(h, &o, &rep, NULL, NULL, &err), 1);
    assert_int_equal(rep.internal_errors, 0);
    for (int l = 0; l < LEVEL_COUNT; l++) got[l] = -1;
    for (int i = 0; i < rep.num_levels; i++) {
        const report_level *L = &rep.levels[i];
        assert_int_not_equal(L->verdict, VERDICT_UNKNOWN);
        got[L->level] = L->verdict == VERDICT_PASS;
        *implied += L->verdict == VERDICT_PASS && L->stage && !strcmp(L->stage, "implied");
        strong_taken += L->verdict == VERDICT_PASS && strstr(L->msg, " holds under them)") != NULL;   /* weak_choice.c */
    }
    if (!rep.num_levels)                               /* the axioms fail every level */
        for (int l = 0; l < LEVEL_COUNT; l++) if (want[l]) got[l] = 0;
    report_free(&rep);
}

static void run(int pct, int rounds, uint64_t seed) {
    const char *more = getenv("LADDER_DIFF_ROUNDS");      /* a longer run by hand */
    if (more && atoi(more) > 0) rounds = atoi(more);
    rng_state = seed;
    strong_taken = 0;
    int amb = 0, implied_amb = 0, compared = 0;
    for (int it = 0; it < rounds; it++) {
        int64_t inv[RX_T + 1], cmp[RX_T + 1];
        history *h = random_history(pct, inv, cmp);
        int out[BV_NLEVELS];
        if (lists) brute_repeat_list_levels(h, inv, cmp, out);
        else brute_repeat_levels(h, inv, cmp, out);
        ic_error err;
        ic_error_clear(&err);
        const history *r = history_resolved(h, &err);
        int has_amb = lists ? history_has_repeated_appends(h) : r && r->num_amb;
        amb += has_amb;
        int want[LEVEL_COUNT] = { 0 };
        for (int l = 0; l < LEVEL_COUNT; l++) want[l] = bv_of((check_level_id)l) >= 0;
        for (unsigned threads = 1; threads <= 2; threads++) {
            int got[LEVEL_COUNT], implied = 0;
            one_run(h, want, threads, 1, got, &implied);
            if (has_amb) implied_amb += implied;
            for (int l = 0; l < LEVEL_COUNT; l++) {
                int b = bv_of((check_level_id)l);
                if (b < 0 || out[b] < 0 || got[l] < 0) continue;
                if (got[l] != out[b]) fail_msg("round %d, %u threads, ladder: %s %d, the oracle %d", it, threads, level_name((check_level_id)l), got[l], out[b]);
                compared++;
                int alone[LEVEL_COUNT] = { 0 }, g1[LEVEL_COUNT], imp1 = 0;
                alone[l] = 1;
                one_run(h, alone, threads, 0, g1, &imp1);
                if (g1[l] >= 0 && g1[l] != out[b]) fail_msg("round %d, %u threads, alone: %s %d, the oracle %d", it, threads, level_name((check_level_id)l), g1[l], out[b]);
            }
        }
        history_free(h);
    }
    fprintf(stderr, "%s, repeat %d%%: %d histories with ambiguous reads, %d levels passed implied there, %d verdicts compared, %d weak "
            "PASSes under a strong level's writers\n", lists ? "lists" : "registers", pct, amb, implied_amb, compared, strong_taken);
    assert_true(amb >= rounds / 25);
    assert_true(implied_amb > 0);
}

static void test_diff_20(void **s) { (void)s; run(20, 150, 501); }
static void test_diff_50(void **s) { (void)s; run(50, 150, 502); }
static void test_diff_70(void **s) { (void)s; run(70, 150, 503); }
static void test_diff_lists(void **s) { (void)s; lists = 1; run(50, 150, 504); lists = 0; }

static void (*const unused_helpers[])(void) = {
    (void (*)(void))bv_check, (void (*)(void))bv_anomaly, (void (*)(void))bv_acyclic, (void (*)(void))brute_repeat_check,
    (void (*)(void))bv_check_all,
};

int main(void) {
    (void)unused_helpers;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diff_20),
        cmocka_unit_test(test_diff_50),
        cmocka_unit_test(test_diff_70),
        cmocka_unit_test(test_diff_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
