/* test_html_report.c — the HTML report's pieces: the escaper
 * (io/html_out.h), the SVG drawing of a cycle (svg_cycle.h: one node per
 * transaction, one arrow per edge, labels with kind and key, every text
 * escaped), the pages (html_report.h), and the reads set aside when read
 * anomalies are found (set_aside.h, run_check's cycles_after_axioms). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "frontend/checking/set_aside.h"
#include "frontend/formats/parse.h"
#include "frontend/reports/html_report.h"
#include "frontend/reports/svg_cycle.h"
#include "frontend/run_check.h"
#include "io/html_out.h"

/* What f wrote into a string (the caller frees). */
typedef struct memout { char *buf; size_t len; FILE *f; } memout;
static void mo_open(memout *m) { m->buf = NULL; m->len = 0; m->f = open_memstream(&m->buf, &m->len); assert_non_null(m->f); }
static char *mo_close(memout *m) { fclose(m->f); return m->buf; }

static size_t count(const char *s, const char *what) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static char *escaped(const char *s, size_t max) {
    memout m;
    mo_open(&m);
    if (max) html_write_escaped_max(m.f, s, max); else html_write_escaped(m.f, s);
    return mo_close(&m);
}

static void test_escape(void **state) {
    (void)state;
    char *s = escaped("<a href=\"x\">&'b'</a>", 0);
    assert_string_equal(s, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;b&#39;&lt;/a&gt;");
    free(s);
    s = escaped("tab\tnl\nbell\x07" "del\x7f", 0);
    assert_string_equal(s, "tab\tnl\nbell\\x07del\\x7f");
    free(s);
    s = escaped("caf\xc3\xa9 ok", 0);                 /* UTF-8 copied as it is */
    assert_string_equal(s, "caf\xc3\xa9 ok");
    free(s);
    s = escaped("caf\xc3\xa9", 4);                     /* cut before the 2-byte character, not inside it */
    assert_string_equal(s, "caf...");
    free(s);
    s = escaped("a<b", 8);                             /* short enough: whole */
    assert_string_equal(s, "a&lt;b");
    free(s);
    s = escaped(NULL, 0);
    assert_string_equal(s, "");
    free(s);
}

/* A lost update on a string key that needs escaping (Elle EDN), or one on
 * an integer key (text). */
static const char *EDN_LOST_UPDATE =
    "{:type :ok, :f :txn, :process 0, :index 1, :value [[:r \"k<&>\\\"\" []] [:append \"k<&>\\\"\" 1]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r \"k<&>\\\"\" []] [:append \"k<&>\\\"\" 2]]}\n"
    "{:type :ok, :f :txn, :process 2, :index 3, :value [[:r \"k<&>\\\"\" [1 2]]]}\n";

static history *load(const char *text, history_format fmt) {
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(text, strlen(text), fmt, "mem", &err);
    if (!h) fail_msg("load: %s", err.msg);
    return h;
}

static void check_all(const history *h, report *rep, int after_axioms) {
    run_check_options o;
    run_check_options_default(&o);
    o.want[LEVEL_SER] = 1;
    o.cycles_after_axioms = after_axioms;
    int cl;
    ic_error err;
    ic_error_clear(&err);
    report_init(rep, h, "all");
    assert_true(run_check(h, &o, rep, NULL, &cl, &err));
}

static void test_svg_structure(void **state) {
    (void)state;
    history *h = load(EDN_LOST_UPDATE, FORMAT_ELLE);
    report rep;
    check_all(h, &rep, 0);
    assert_int_equal(report_verdict(&rep), VERDICT_FAIL);
    assert_true(rep.items.len >= 1);
    const report_anomaly *a = &rep.items.data[0];
    assert_int_equal(a->kind, AN_LOST_UPDATE);
    memout m;
    mo_open(&m);
    svg_cycle_write(m.f, h, a, "t1");
    char *svg = mo_close(&m);
    assert_true(!strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39));
    assert_non_null(strstr(svg, "</svg>\n"));
    assert_int_equal(count(svg, "<circle"), 2);                    /* two transactions */
    assert_int_equal(count(svg, "<g class=\"edge\">"), a->edges.len); /* one arrow per edge */
    assert_int_equal(count(svg, "marker-end=\"url(#t1-"), a->edges.len);
    assert_int_equal(count(svg, "<marker id=\"t1-"), 4);
    assert_non_null(strstr(svg, ">WW &quot;k&lt;&amp;&gt;\\&quot;&quot;</text>"));   /* the key, escaped */
    assert_non_null(strstr(svg, ">RW &quot;k&lt;&amp;&gt;\\&quot;&quot;</text>"));
    assert_null(strstr(svg, "k<"));                                 /* nothing unescaped */
    assert_non_null(strstr(svg, ">txn 1</text>"));
    assert_non_null(strstr(svg, ">session 0</text>"));
    assert_non_null(strstr(svg, ">session 1</text>"));
    free(svg);
    /* the pages: the anomaly's name, its drawing, its explanation */
    mo_open(&m);
    html_report_anomaly(m.f, &rep, 0, NULL);
    char *page = mo_close(&m);
    assert_non_null(strstr(page, "<h1>1. lost-update (G-single)</h1>"));
    assert_int_equal(count(page, "<svg "), 1);
    assert_non_null(strstr(page, "<pre>  1. lost-update (G-single): "));
    assert_null(strstr(page, "k<"));
    assert_null(strstr(page, "<script"));
    free(page);
    mo_open(&m);
    html_report_index(m.f, &rep, "../index.html");
    page = mo_close(&m);
    assert_non_null(strstr(page, "<a href=\"anomaly-1.html\">lost-update</a>"));
    assert_non_null(strstr(page, "<a href=\"report.json\">"));
    assert_non_null(strstr(page, "<a href=\"../index.html\">all histories</a>"));
    assert_null(strstr(page, "k<"));
    free(page);
    report_free(&rep);
    history_free(h);
}

/* Three transactions on a circle: each node once, each edge one arrow. */
static void test_svg_three(void **state) {
    (void)state;
    /* G1c-style cycle of three by session-free reads: t1 -WR-> t2 -WR-> t3 -WR-> t1 is impossible
     * in a history, so a long fork of four is used: each reader sees one write and not the other */
    const char *text =
        "w(1,1,1,1)\n"
        "w(2,1,2,2)\n"
        "r(1,1,3,3)\nr(2,0,3,3)\n"
        "r(2,1,4,4)\nr(1,0,4,4)\n";
    history *h = load(text, FORMAT_TEXT);
    report rep;
    check_all(h, &rep, 0);
    assert_int_equal(report_verdict(&rep), VERDICT_FAIL);
    const report_anomaly *a = NULL;
    vec_foreach(const report_anomaly, x, rep.items) if (x->edges.len >= 3 && !a) a = x;
    assert_non_null(a);
    memout m;
    mo_open(&m);
    svg_cycle_write(m.f, h, a, "x");
    char *svg = mo_close(&m);
    vec_u32 distinct;
    vec_init(distinct);
    vec_foreach(const dep_edge, e, a->edges) {
        int seen = 0;
        vec_foreach(const uint32_t, t, distinct) seen |= *t == e->from;
        if (!seen) vec_push(distinct, e->from);
    }
    assert_int_equal(count(svg, "<circle"), distinct.len);
    assert_int_equal(count(svg, "<g class=\"edge\">"), a->edges.len);
    vec_free(distinct);
    free(svg);
    report_free(&rep);
    history_free(h);
}

/* A cycle of nine with long string keys: every key label is cut to 24
 * bytes and "...", and neighbouring nodes stand far enough apart for a
 * label between them (no label runs into a node). */
static void test_svg_long_labels(void **state) {
    (void)state;
    char text[4096];
    size_t at = 0;
    for (int i = 0; i < 9; i++) {
        int prev = (i + 8) % 9;
        at += (size_t)snprintf(text + at, sizeof text - at,
                               "{:type :ok, :f :txn, :process %d, :index %d, :value [[:r \"customer-account-balance-%d\" [%d]] "
                               "[:append \"customer-account-balance-%d\" %d]]}\n", i, i + 1, prev, prev + 100, i, i + 100);
    }
    history *h = load(text, FORMAT_ELLE);
    report rep;
    check_all(h, &rep, 0);
    assert_true(rep.items.len >= 1);
    const report_anomaly *a = &rep.items.data[0];
    assert_int_equal(a->edges.len, 9);
    memout m;
    mo_open(&m);
    svg_cycle_write(m.f, h, a, "c");
    char *svg = mo_close(&m);
    assert_int_equal(count(svg, ">WR &quot;customer-account-balanc...</text>"), 9);
    double x[9], y[9], r = 0;
    const char *p = svg;
    for (int i = 0; i < 9; i++) {
        p = strstr(p, "<circle cx=\"");
        assert_non_null(p);
        assert_int_equal(sscanf(p, "<circle cx=\"%lf\" cy=\"%lf\" r=\"%lf\"", &x[i], &y[i], &r), 3);
        p++;
    }
    assert_null(strstr(p, "<circle"));
    double label = 7.0 * strlen("WR \"customer-account-balanc...");
    for (int i = 0; i < 9; i++) {
        int j = (i + 1) % 9;
        double d = sqrt((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j]));
        if (d < 2 * r + label) fail_msg("nodes %d and %d are %.1f apart, less than two radii %.1f and a label %.1f", i, j, d, r, label);
    }
    free(svg);
    report_free(&rep);
    history_free(h);
}

/* An aborted read and a lost update elsewhere: the read is set aside, the
 * levels see the rest, the cycle is reported, the verdict stays FAIL. */
static const char *EDN_ABORTED_AND_LOST =
    "{:type :fail, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]]]}\n"
    "{:type :ok, :f :txn, :process 2, :index 3, :value [[:r 2 []] [:append 2 10]]}\n"
    "{:type :ok, :f :txn, :process 3, :index 4, :value [[:r 2 []] [:append 2 20]]}\n"
    "{:type :ok, :f :txn, :process 4, :index 5, :value [[:r 2 [10 20]]]}\n";

static void test_set_aside(void **state) {
    (void)state;
    history *h = load(EDN_ABORTED_AND_LOST, FORMAT_ELLE);
    history view;
    vec_u32 ops;
    assert_true(set_aside_reads(h, &view, &ops));
    assert_int_equal(ops.len, 1);
    uint32_t r = ops.data[0];
    assert_true(history_op_is_read(h, r));
    assert_false(history_op_is_read(&view, r));                     /* set aside in the view only */
    assert_int_equal(h->txns[history_op_txn(h, r)].ext_id, 2);
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (op != r) assert_int_equal(h->op_kind[op], view.op_kind[op]);
    set_aside_free(&view);
    vec_free(ops);

    report rep;
    check_all(h, &rep, 0);                                           /* off: the axioms end the run */
    assert_int_equal(rep.num_levels, 0);
    assert_int_equal(rep.items.len, 1);
    report_free(&rep);
    check_all(h, &rep, 1);
    assert_int_equal(report_verdict(&rep), VERDICT_FAIL);
    assert_int_equal(rep.axiom_violations, 1);
    assert_int_equal(rep.set_aside.len, 1);
    assert_int_equal(rep.num_levels, 2);
    int aborted = 0, lost = 0;
    vec_foreach(const report_anomaly, a, rep.items) {
        aborted += a->kind == AN_ABORTED_READ && a->level == LEVEL_ANY;
        lost += a->kind == AN_LOST_UPDATE;
    }
    assert_int_equal(aborted, 1);
    assert_int_equal(lost, 2);                                       /* si and ser */
    for (int i = 0; i < rep.num_levels; i++) assert_int_equal(rep.levels[i].verdict, VERDICT_FAIL);
    report_free(&rep);
    history_free(h);
}

/* The aborted read alone: the rest has no cycle, the levels pass on it,
 * and the verdict is still FAIL (never a PASS because reads were set aside). */
static void test_set_aside_rest_passes(void **state) {
    (void)state;
    history *h = load("{:type :fail, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                      "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]] [:append 2 5]]}\n", FORMAT_ELLE);
    report rep;
    check_all(h, &rep, 1);
    assert_int_equal(rep.num_levels, 2);
    assert_int_equal(rep.levels[0].verdict, VERDICT_PASS);
    assert_int_equal(report_verdict(&rep), VERDICT_FAIL);
    memout m;
    mo_open(&m);
    report_print_text(m.f, &rep, 0);
    char *text = mo_close(&m);
    assert_null(strstr(text, "PASS"));
    assert_non_null(strstr(text, "no cycle si: "));
    free(text);
    report_free(&rep);
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_svg_structure),
        cmocka_unit_test(test_svg_three),
        cmocka_unit_test(test_svg_long_labels),
        cmocka_unit_test(test_set_aside),
        cmocka_unit_test(test_set_aside_rest_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
