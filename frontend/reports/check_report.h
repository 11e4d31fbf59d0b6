/* check_report.h — printing a level's verdict: one line for PASS, the
 * confirmed dependency cycle for FAIL (each edge with its kind, key and
 * the operations behind it), and statistics for -v. */
#ifndef ISOCHECK_CHECK_REPORT_H
#define ISOCHECK_CHECK_REPORT_H

#include <stdio.h>

#include "frontend/checking/check.h"

void check_print_text(FILE *out, const history *h, const check_result *r);
void check_print_stats(FILE *out, const check_result *r);

/* The ops that justify a dependency: for WR/RW the read (in e->to / e->from)
 * and the write; for WW both writes; HISTORY_NONE where there is none. */
void dep_edge_ops(const history *h, const dep_edge *e, uint32_t *read_op, uint32_t *write_from, uint32_t *write_to);

#endif
