/* batch_verdict.h — the batch checker's verdict on a history, for tests that
 * compare the online checker against it: 1 if the level fails (a read-axiom
 * violation — but a predicate read's view at rr, which rr's search decides — or a cycle), 0 if it passes; a checker error fails the test.
 * Include after cmocka.h, frontend/checking/axioms.h and check.h. */
#ifndef ISOCHECK_TESTS_BATCH_VERDICT_H
#define ISOCHECK_TESTS_BATCH_VERDICT_H

static int batch_fails(const history *h, check_level_id lv) {
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t counts[AN_NUM_KINDS];
    uint64_t found = axioms_check_kinds(h, &al, 1, counts);
    anomaly_list_free(&al);
    if (!(anomaly_breaks(AN_PRED_MISS_VIEW) >> lv & 1u))   /* rr: a view (choice.h) */
        found -= counts[AN_PRED_MISS_VIEW] + counts[AN_PRED_MISS_OWN];
    if (found) return 1;
    pg_index ix;
    ic_error err;
    ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    check_result res;
    check_level(&ix, lv, NULL, &res);
    if (res.verdict == VERDICT_UNKNOWN) fprintf(stderr, "level %s: UNKNOWN: %s\n", level_name(lv), res.msg);
    assert_int_not_equal(res.verdict, VERDICT_UNKNOWN);
    int fails = res.verdict == VERDICT_FAIL;
    check_result_free(&res);
    pg_index_free(&ix);
    return fails;
}

/* 1 if SI or SER fails. */
static inline int batch_fails_any(const history *h) {
    return batch_fails(h, LEVEL_SI) || batch_fails(h, LEVEL_SER);
}

#endif
