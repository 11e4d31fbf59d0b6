/* html_report.c — the report as HTML pages (contract in html_report.h). */
#include "frontend/reports/html_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"
#include "frontend/formats/parse.h"
#include "frontend/reports/svg_cycle.h"
#include "io/html_out.h"

#define esc html_write_escaped

static const char *const css =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1150px;color:#222;"
    "padding:0 1em}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.6em 0;width:100%}th,td{border:1px solid #ccd;padding:.35em .55em;"
    "text-align:left;vertical-align:top}th{background:#eef1f7}td.ops{font-family:monospace;font-size:.9em;white-space:nowrap}td.nw{white-space:nowrap}"
    ".PASS{color:#fff;background:#1b7f3a}.FAIL{color:#fff;background:#c0392b}.UNKNOWN,.ERROR{color:#fff;"
    "background:#8a6d00}.badge{display:inline-block;padding:.1em .6em;border-radius:.3em;font-weight:bold}"
    "pre{background:#f6f8fa;border:1px solid #dde;padding:.8em;white-space:pre-wrap;font-size:.85em;line-height:1.35}"
    ".note{background:#fff8e1;border-left:4px solid #e0a800;padding:.5em .8em}.muted{color:#666}"
    "svg{max-width:100%;height:auto;border:1px solid #dde;background:#fff}a{color:#1f5fbf}";

static void page_start(FILE *out, const char *title_a, const char *title_b) {
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>isocheck: ", out);
    esc(out, title_a);
    if (title_b) { fputs(" — ", out); esc(out, title_b); }
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
}

static void page_end(FILE *out) {
    fputs("<p class=\"muted\">Written by isocheck " ISOCHECK_VERSION ".</p>\n</body>\n</html>\n", out);
}

static void badge(FILE *out, const char *v) {
    fprintf(out, "<span class=\"badge %s\">%s</span>", v, v);
}

static const char *op_letter(const history *h, uint32_t op) {
    op_kind k = history_op_kind(h, op);
    return k == OP_WRITE ? "w" : k == OP_APPEND ? "append" : "r";
}

static const char *status_name(uint8_t st) {
    return st == TXN_COMMITTED ? "committed" : st == TXN_ABORTED ? "aborted" : "indeterminate";
}

const char *html_report_page_name(size_t i, const char *ext, char *buf, size_t n) {
    snprintf(buf, n, "anomaly-%zu.%s", i + 1, ext);
    return buf;
}

/* "lost-update" / "cycle (shaped as write-skew)" */
static void anomaly_title(FILE *out, const report_anomaly *a) {
    if (a->chosen) {
        fputs("cycle under the chosen version order (shaped as ", out);
        esc(out, anomaly_name(a->shape));
        fputs(")", out);
    } else esc(out, anomaly_name(a->kind));
}

/* The transactions of a, one per line: "txn 8 (session 1)". */
static void txn_cell(FILE *out, const history *h, const report_anomaly *a) {
    char tb[64], sb[64];
    for (size_t i = 0; i < a->txns.len; i++) {
        uint32_t t = a->txns.data[i];
        if (i) fputs("<br>", out);
        esc(out, report_txn_name(h, t, tb, sizeof tb));
        if (t == 0) continue;
        fputs(" (session ", out);
        esc(out, history_value_str(h, h->sessions[h->txns[t].session].ext_id, sb, sizeof sb));
        if (h->txns[t].status != TXN_COMMITTED) { fputs(", ", out); fputs(status_name(h->txns[t].status), out); }
        fputs(")", out);
        if (a->edges.len && i >= a->num_cycle_txns) fputs(" <span class=\"muted\">support</span>", out);
    }
}

/* The operations of a: "txn 8: r(x)=4 [line 9]". */
static void ops_cell(FILE *out, const history *h, const report_anomaly *a) {
    char tb[64], kb[256], vb[256];
    for (size_t j = 0; j < a->ops.len; j++) {
        uint32_t op = a->ops.data[j], t = history_op_txn(h, op);
        if (j) fputs("<br>", out);
        esc(out, report_txn_name(h, t, tb, sizeof tb));
        fprintf(out, ": %s(", op_letter(h, op));
        esc(out, history_key_str(h, h->op_key[op], kb, sizeof kb));
        fputs(")=", out);
        esc(out, report_value(h, op, vb, sizeof vb));
        if (t) fprintf(out, " [%s %u]", history_loc_word(h), history_op_line(h, op));
    }
}

static void levels_table(FILE *out, const report *r) {
    fputs("<h2>Levels</h2>\n<table>\n<tr><th>level</th><th>verdict</th><th>decided at</th><th>anomalies</th>"
          "<th>reason</th></tr>\n", out);
    if (r->axiom_violations) {
        char lv[256];
        fputs("<tr><td>read axioms (", out);
        esc(out, report_levels_text(r->axiom_breaks ? r->axiom_breaks : ANOMALY_ALL_LEVELS, lv, sizeof lv));
        fputs(")</td><td>", out);
        badge(out, "FAIL");
        fprintf(out, "</td><td>axioms</td><td>%" PRIu64 "</td><td>the history breaks read axioms %s relies on"
                     "</td></tr>\n", r->axiom_violations, report_axioms_fail_all(r) ? "every level asked" : "the levels named");
    }
    for (int i = 0; i < r->num_levels; i++) {
        const report_level *L = &r->levels[i];
        fputs("<tr><td>", out);
        esc(out, report_level_name(L->level));
        if (report_axioms_fail_all(r)) fputs(" <span class=\"muted\">(the reads set aside)</span>", out);
        fputs("</td><td>", out);
        badge(out, verdict_name(L->verdict));
        fputs("</td><td>", out);
        esc(out, L->stage ? L->stage : "");
        fprintf(out, "</td><td>%" PRIu64 "</td><td>", L->violations);
        char why[sizeof L->msg + 128];
        esc(out, report_level_reason(r, L, why, sizeof why));
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void set_aside_note(FILE *out, const report *r) {
    if (!report_axioms_fail_all(r)) return;
    if (!r->num_levels) {
        fputs("<p class=\"note\">The read anomalies below break every level; the levels were not checked.</p>\n", out);
        return;
    }
    fprintf(out, "<p class=\"note\">The read anomalies break every level: the verdict is FAIL whatever else holds. "
                 "To show the cycles too, the %zu read%s that break%s the read axioms %s set aside (as if %s had not "
                 "happened) and the levels checked on the rest: every cycle shown holds among the remaining "
                 "observations of the history.</p>\n", r->set_aside.len, r->set_aside.len == 1 ? "" : "s",
            r->set_aside.len == 1 ? "s" : "", r->set_aside.len == 1 ? "was" : "were", r->set_aside.len == 1 ? "it" : "they");
}

static void anomalies_table(FILE *out, const report *r) {
    const history *h = r->h;
    fputs("<h2>Anomalies</h2>\n", out);
    if (!r->items.len) { fputs("<p>None.</p>\n", out); return; }
    fputs("<table>\n<tr><th>#</th><th>anomaly</th><th>class</th><th>level</th><th>transactions</th>"
          "<th>operations</th><th>detail</th></tr>\n", out);
    for (size_t i = 0; i < r->items.len; i++) {
        const report_anomaly *a = &r->items.data[i];
        char pg[64];
        html_report_page_name(i, "html", pg, sizeof pg);
        fprintf(out, "<tr><td><a href=\"%s\">%zu</a></td><td class=\"nw\"><a href=\"%s\">", pg, i + 1, pg);
        anomaly_title(out, a);
        fputs("</a></td><td class=\"nw\">", out);
        esc(out, a->chosen ? a->shape_adya : a->adya);
        fputs("</td><td>", out);
        esc(out, report_level_name(a->level));
        fputs("</td><td class=\"nw\">", out);
        txn_cell(out, h, a);
        fputs("</td><td class=\"ops\">", out);
        ops_cell(out, h, a);
        fputs("</td><td>", out);
        esc(out, a->detail ? a->detail : anomaly_summary(a->kind));
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

void html_report_index(FILE *out, const report *r, const char *up_href) {
    const history *h = r->h;
    const char *name = h->source ? h->source : "-";
    page_start(out, name, NULL);
    if (up_href) { fputs("<p><a href=\"", out); esc(out, up_href); fputs("\">all histories</a></p>\n", out); }
    fputs("<h1>isocheck report: ", out);
    esc(out, name);
    fputs("</h1>\n<p>", out);
    badge(out, verdict_name(report_verdict(r)));
    fputs(" level asked: ", out);
    esc(out, r->level_arg ? r->level_arg : "si");
    fputs(" &middot; format: ", out);
    esc(out, history_format_name(h->format));
    fprintf(out, " &middot; %u transactions, %u sessions, %u operations, %u keys</p>\n", h->num_txns - 1, h->num_sessions,
            h->num_ops, h->num_keys);
    levels_table(out, r);
    set_aside_note(out, r);
    anomalies_table(out, r);
    fputs("<h2>Files</h2>\n<ul>\n<li><a href=\"report.json\">report.json</a> (the <code>--json</code> report)</li>\n", out);
    for (size_t i = 0; i < r->items.len; i++) {
        char pg[64], sv[64];
        fprintf(out, "<li><a href=\"%s\">%s</a>", html_report_page_name(i, "html", pg, sizeof pg), pg);
        if (r->items.data[i].edges.len)
            fprintf(out, " and its drawing <a href=\"%s\">%s</a>", html_report_page_name(i, "svg", sv, sizeof sv), sv);
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
    page_end(out);
}

/* The text report's explanation of a, escaped into a <pre>. */
static void explanation(FILE *out, const history *h, const report_anomaly *a, size_t i) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) { fputs("<p>(no memory for the explanation)</p>\n", out); return; }
    report_print_anomaly(m, h, a, i + 1);
    fclose(m);
    fputs("<pre>", out);
    esc(out, buf);
    fputs("</pre>\n", out);
    free(buf);
}

void html_report_anomaly(FILE *out, const report *r, size_t i, const char *up_href) {
    const history *h = r->h;
    const report_anomaly *a = &r->items.data[i];
    char title[64], sv[64];
    snprintf(title, sizeof title, "anomaly %zu", i + 1);
    page_start(out, h->source ? h->source : "-", title);
    fputs("<p><a href=\"index.html\">report</a>", out);
    if (up_href) { fputs(" &middot; <a href=\"", out); esc(out, up_href); fputs("\">all histories</a>", out); }
    fprintf(out, "</p>\n<h1>%zu. ", i + 1);
    anomaly_title(out, a);
    const char *cls = a->chosen ? a->shape_adya : a->adya;
    if (cls[0]) { fputs(" (", out); esc(out, cls); fputs(")", out); }
    fputs("</h1>\n<p>level: ", out);
    esc(out, report_level_name(a->level));
    fputs(" &middot; ", out);
    esc(out, anomaly_summary(a->chosen ? a->shape : a->kind));
    fputs("</p>\n<p>", out);
    esc(out, a->detail ? a->detail : "");
    fputs("</p>\n", out);
    if (a->edges.len) {
        char id[32];
        snprintf(id, sizeof id, "a%zu", i + 1);
        fputs("<h2>The cycle</h2>\n", out);
        svg_cycle_write(out, h, a, id);
        fprintf(out, "<p class=\"muted\">The same drawing as a file: <a href=\"%s\">%s</a>. Hover an edge for "
                     "its sentence.</p>\n", html_report_page_name(i, "svg", sv, sizeof sv), sv);
    }
    fputs("<h2>Explanation</h2>\n", out);
    explanation(out, h, a, i);
    page_end(out);
}

void html_report_runs(FILE *out, const html_run_row *rows, size_t n, const char *summary) {
    page_start(out, "histories", NULL);
    fprintf(out, "<h1>isocheck: %zu histor%s</h1>\n<p>", n, n == 1 ? "y" : "ies");
    esc(out, summary);
    fputs("</p>\n<table>\n<tr><th>#</th><th>history</th><th>verdict</th><th>levels</th><th>anomalies or error</th>"
          "</tr>\n", out);
    for (size_t i = 0; i < n; i++) {
        const html_run_row *w = &rows[i];
        fprintf(out, "<tr><td>%zu</td><td>", i + 1);
        if (w->href) { fputs("<a href=\"", out); esc(out, w->href); fputs("\">", out); }
        esc(out, w->path);
        if (w->href) fputs("</a>", out);
        fputs("</td><td>", out);
        badge(out, w->status);
        fputs("</td><td>", out);
        esc(out, w->levels);
        fputs("</td><td>", out);
        esc(out, w->detail);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    page_end(out);
}
