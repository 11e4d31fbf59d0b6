/* hint_check_internal.h — what hint_check.c (version order hints, the
 * report), hint_direct.c (a hint that lists every version) and
 * hint_commit.c (commit orders and timestamps) share. */
#ifndef ISOCHECK_HINT_CHECK_INTERNAL_H
#define ISOCHECK_HINT_CHECK_INTERNAL_H

#include "frontend/reports/hint_check.h"

/* wb's fields for h and want[] set, the axioms checked — beside
 * work(ctx) (NULL: none) on a second thread when threads > 1, else before
 * it: 1 when they hold; 0 when they fail, and any finding work wrote in wb
 * is cleared (the black-box answer's FAIL is the answer).  work may record
 * stages (whitebox_stage); nothing else writes them meanwhile. */
typedef void (*whitebox_work)(void *ctx);
int whitebox_begin(whitebox *wb, const history *h, const int want[2], unsigned threads, whitebox_work work, void *ctx);
/* Level lv failed by a cycle: name it (wb->an_name, an_detail) and put the
 * anomaly's minimal cycle in res->cycle.  given: every version order fact
 * of res->vo comes from the hint (a complete order), so a cycle the
 * interpretation marks as merely chosen is named by its shape. */
void whitebox_name_cycle(whitebox *wb, int lv, int given);

/* A resolved hint that lists every version as it is (no list keys,
 * repeated values or predicate reads): 1 with the order it states in vo
 * and its pairs (as hints_validate counts them under a PASS); 0: not such
 * a hint. */
int whitebox_direct_order(const history *h, const hint_order *o, version_order *vo, uint64_t *pairs);
/* That order (taken: moved or freed) re-checked for the levels in want[],
 * SI first.  1: answered (every level asked PASSed at the first, wb->res
 * filled, wb->complete set); 0: the first level did not PASS, wb->res
 * untouched: the usual path names what is wrong. */
int whitebox_direct_check(whitebox *wb, const history *h, version_order *vo, uint64_t pairs, const int want[2],
                          const check_options *opt);

#endif
