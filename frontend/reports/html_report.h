/* html_report.h — the report as HTML pages people look at (`check
 * --report DIR`, doc/cli.md "Report directories"): self-contained pages
 * (inline CSS, no scripts, no outside resources), every value from the
 * history escaped (io/html_out.h).
 *
 *   index page     the history's name and format, its size, the verdict,
 *                  a table of the levels checked (verdict, stage, reason),
 *                  the reads set aside when read anomalies were found, a
 *                  table of the anomalies (number and name linking to its
 *                  page, Adya class, level, transactions with sessions,
 *                  operations with values and lines, the one-line detail),
 *                  and links to report.json and the anomaly pages;
 *   anomaly page   one anomaly: its name and level, its detail, its cycle
 *                  drawn (svg_cycle.h) with a link to the same drawing as a
 *                  file, and its explanation, exactly the text report's
 *                  (report_print_anomaly: transactions, operations, facts,
 *                  the cycle and why each edge holds);
 *   runs page      the top page of many histories: one row per history
 *                  (verdict, levels, anomaly names, link to its pages or
 *                  the error that stopped it) and the counts per verdict.
 *
 * Anomaly i (0-based in r->items) is "anomaly-<i+1>.html", its drawing
 * "anomaly-<i+1>.svg".  up_href, when not NULL, is a link back to a runs
 * page. */
#ifndef ISOCHECK_HTML_REPORT_H
#define ISOCHECK_HTML_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "frontend/reports/report.h"

void html_report_index(FILE *out, const report *r, const char *up_href);
void html_report_anomaly(FILE *out, const report *r, size_t i, const char *up_href);
/* "anomaly-<i+1>.html" / ".svg" into buf. */
const char *html_report_page_name(size_t i, const char *ext, char *buf, size_t n);

/* One history of a run of many. */
typedef struct html_run_row {
    const char *path;            /* the history as given */
    const char *href;            /* its index page, or NULL (an error: no pages) */
    const char *status;          /* "PASS", "FAIL", "UNKNOWN" or "ERROR" */
    const char *levels;          /* "si FAIL, ser FAIL" or "" */
    const char *detail;          /* anomaly names, or the error message */
} html_run_row;

void html_report_runs(FILE *out, const html_run_row *rows, size_t n, const char *summary);

#endif
