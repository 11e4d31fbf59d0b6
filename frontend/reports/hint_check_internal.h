/* hint_check_internal.h — what hint_check.c (version order hints, the
 * report) and hint_commit.c (commit orders and timestamps) share. */
#ifndef ISOCHECK_HINT_CHECK_INTERNAL_H
#define ISOCHECK_HINT_CHECK_INTERNAL_H

#include "frontend/reports/hint_check.h"

/* wb's fields for h and want[] set, the axioms checked: 1 when they hold. */
int whitebox_begin(whitebox *wb, const history *h, const int want[2]);
/* Level lv failed by a cycle: name it (wb->an_name, an_detail) and put the
 * anomaly's minimal cycle in res->cycle.  given: every version order fact
 * of res->vo comes from the hint (a complete order), so a cycle the
 * interpretation marks as merely chosen is named by its shape. */
void whitebox_name_cycle(whitebox *wb, int lv, int given);

#endif
