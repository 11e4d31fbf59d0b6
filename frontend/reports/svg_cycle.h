/* svg_cycle.h — an anomaly's dependency cycle drawn as SVG, by isocheck
 * itself (no Graphviz): `check --report DIR` puts one in each anomaly's
 * page and beside it as a file.
 *
 * The cycle's transactions are nodes on a circle, in cycle order
 * clockwise from the top (two: left and right), each a circle labelled
 * with the transaction ("txn 8") and its session ("session 1"); each edge
 * of the cycle is a curved arrow from its `from` to its `to`, bent outward
 * (two edges between one pair bend to opposite sides), coloured by kind
 * and labelled with its kind and key ("RW x"; keys longer than 24 bytes
 * cut, "..."), with the edge's sentence as its tooltip (<title>).  An edge
 * whose version order is only the checker's choice (WHY_CHOSEN) is
 * dashed.  Every text from the history is escaped (io/html_out.h).
 * id_prefix keeps the arrowhead ids of several drawings on one page apart
 * (letters, digits, '-').  An anomaly without edges draws nothing. */
#ifndef ISOCHECK_SVG_CYCLE_H
#define ISOCHECK_SVG_CYCLE_H

#include <stdio.h>

#include "frontend/reports/report.h"

void svg_cycle_write(FILE *out, const history *h, const report_anomaly *a, const char *id_prefix);

#endif
