/* check_report.h — the statistics of one level's check (`isocheck check
 * -v`, `isocheck hints -v`): the time of each stage, the graph's and the
 * constraints' sizes, the solver's counts; the verdict itself is
 * reported by report.h. */
#ifndef ISOCHECK_CHECK_REPORT_H
#define ISOCHECK_CHECK_REPORT_H

#include <stdio.h>

#include "frontend/checking/check.h"

/* To out, lines prefixed with the level's name. */
void check_print_stats(FILE *out, const check_result *r);

#endif
