/* cli_report.c — a report's pages into a report directory (contract in
 * cli_report.h). */
#include "programs/cli_report.h"

#include <stdio.h>

#include "frontend/reports/html_report.h"
#include "frontend/reports/svg_cycle.h"
#include "io/html_out.h"

static FILE *start(output_tree *t, const char *prefix, const char *name, ic_error *err) {
    char path[512];
    snprintf(path, sizeof path, "%s%s", prefix, name);
    return output_tree_file(t, path, err);
}

int cli_report_pages(output_tree *t, const char *prefix, const report *r, const char *up_href, ic_error *err) {
    FILE *f = start(t, prefix, "index.html", err);
    if (!f) return 0;
    html_report_index(f, r, up_href);
    if (!(f = start(t, prefix, "report.json", err))) return 0;
    report_print_json(f, r);
    for (size_t i = 0; i < r->items.len; i++) {
        char name[64];
        if (!(f = start(t, prefix, html_report_page_name(i, "html", name, sizeof name), err))) return 0;
        html_report_anomaly(f, r, i, up_href);
        if (!r->items.data[i].edges.len) continue;
        if (!(f = start(t, prefix, html_report_page_name(i, "svg", name, sizeof name), err))) return 0;
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
        svg_cycle_write(f, r->h, &r->items.data[i], "a");
    }
    return 1;
}

int cli_report_error_page(output_tree *t, const char *prefix, const char *path, const char *msg, ic_error *err) {
    FILE *f = start(t, prefix, "index.html", err);
    if (!f) return 0;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>isocheck: ", f);
    html_write_escaped(f, path);
    fputs("</title>\n</head>\n<body>\n<p><a href=\"../index.html\">all histories</a></p>\n<h1>", f);
    html_write_escaped(f, path);
    fputs("</h1>\n<p>This history could not be checked:</p>\n<pre>", f);
    html_write_escaped(f, msg);
    fputs("</pre>\n</body>\n</html>\n", f);
    return 1;
}
