/* cli_report.h — `check --report DIR`: the pages of a report written into
 * a report directory (io/output_tree.h: new or empty, written whole into
 * a temporary directory and renamed into place; doc/cli.md "Report
 * directories").
 *
 * One report's files, under prefix ("" for a single history, "NNN-NAME/"
 * for one of many): index.html, report.json (the --json report), and per
 * anomaly anomaly-K.html with, when it has a cycle, anomaly-K.svg
 * (frontend/reports/html_report.h, svg_cycle.h). */
#ifndef ISOCHECK_CLI_REPORT_H
#define ISOCHECK_CLI_REPORT_H

#include "error.h"
#include "io/output_tree.h"
#include "frontend/reports/report.h"

/* 1, or 0 with err set (the tree is then to be discarded). */
int cli_report_pages(output_tree *t, const char *prefix, const report *r, const char *up_href, ic_error *err);
/* For a history of many that could not be checked: prefix/index.html with
 * the error.  1, or 0 with err set. */
int cli_report_error_page(output_tree *t, const char *prefix, const char *path, const char *msg, ic_error *err);

#endif
