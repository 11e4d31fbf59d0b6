/* svg_cycle.c — a dependency cycle as SVG (contract in svg_cycle.h).
 * Geometry: n nodes on a circle of radius R around (c, c); an edge is a
 * quadratic Bézier curve whose control point lies off the chord's middle,
 * on the side away from the centre (or, for two edges between one pair,
 * on each edge's left), clipped to the nodes' circles. */
#include "frontend/reports/svg_cycle.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/html_out.h"

#define SVG_MARGIN 110.0
#define SVG_KEY_MAX 24

typedef struct pt { double x, y; } pt;

static const char *kind_color(uint8_t kind) {
    switch (kind) {
    case DEP_SO: return "#666666";
    case DEP_WR: return "#1f5fbf";
    case DEP_WW: return "#1b7f3a";
    case DEP_RW: return "#c0392b";
    default: return "#000000";
    }
}

/* The cycle's transactions, each once, in the order the cycle meets them. */
static void cycle_nodes(const report_anomaly *a, vec_u32 *nodes) {
    for (size_t i = 0; i < a->edges.len; i++) {
        uint32_t ends[2] = { a->edges.data[i].from, a->edges.data[i].to };
        for (int k = 0; k < 2; k++) {
            int seen = 0;
            vec_foreach(const uint32_t, t, *nodes) seen |= *t == ends[k];
            if (!seen) vec_push(*nodes, ends[k]);
        }
    }
}

static size_t node_index(const vec_u32 *nodes, uint32_t t) {
    for (size_t i = 0; i < nodes->len; i++) if (nodes->data[i] == t) return i;
    return 0;
}

static pt unit(pt from, pt to) {
    double dx = to.x - from.x, dy = to.y - from.y, l = sqrt(dx * dx + dy * dy);
    if (l < 1e-9) return (pt){ 0, 0 };
    return (pt){ dx / l, dy / l };
}

static void markers(FILE *out, const char *id) {
    static const uint8_t kinds[4] = { DEP_SO, DEP_WR, DEP_WW, DEP_RW };
    fputs("<defs>\n", out);
    for (int i = 0; i < 4; i++)
        fprintf(out, "<marker id=\"%s-%s\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"9\" "
                     "markerHeight=\"9\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>\n",
                id, dep_kind_name((dep_kind)kinds[i]), kind_color(kinds[i]));
    fputs("</defs>\n", out);
}

/* Whether the cycle also has an edge from `to` to `from`. */
static int has_reverse(const report_anomaly *a, const dep_edge *e) {
    vec_foreach(const dep_edge, f, a->edges) if (f->from == e->to && f->to == e->from) return 1;
    return 0;
}

/* One edge: the curve, its arrowhead, its label and tooltip. */
static void draw_edge(FILE *out, const history *h, const report_anomaly *a, size_t i, const pt *pos, const vec_u32 *nodes,
                      double node_r, pt centre, const char *id) {
    const dep_edge *e = &a->edges.data[i];
    pt p0 = pos[node_index(nodes, e->from)], p2 = pos[node_index(nodes, e->to)];
    pt mid = { (p0.x + p2.x) / 2, (p0.y + p2.y) / 2 };
    double dx = p2.x - p0.x, dy = p2.y - p0.y, len = sqrt(dx * dx + dy * dy);
    if (len < 1e-9) len = 1;
    pt nrm = { -dy / len, dx / len };
    int rev = has_reverse(a, e);
    if (!rev && nrm.x * (mid.x - centre.x) + nrm.y * (mid.y - centre.y) < 0) { nrm.x = -nrm.x; nrm.y = -nrm.y; }
    double bend = (rev ? 0.28 : 0.16) * len;
    pt c = { mid.x + nrm.x * bend, mid.y + nrm.y * bend };
    pt u0 = unit(p0, c), u2 = unit(p2, c);
    pt s = { p0.x + u0.x * node_r, p0.y + u0.y * node_r }, t = { p2.x + u2.x * (node_r + 1), p2.y + u2.y * (node_r + 1) };
    const char *kind = dep_kind_name((dep_kind)e->kind);
    int chosen = i < a->why.len && a->why.data[i].status == WHY_CHOSEN;
    char sentence[800], kb[256];
    report_edge_sentence(h, e, sentence, sizeof sentence);
    fprintf(out, "<g class=\"edge\"><title>");
    html_write_escaped(out, sentence);
    if (chosen) fputs(" (the version order found, not forced)", out);
    fprintf(out, "</title>\n<path d=\"M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
                 "marker-end=\"url(#%s-%s)\"/>\n", s.x, s.y, c.x, c.y, t.x, t.y, kind_color(e->kind),
            chosen ? " stroke-dasharray=\"6,4\"" : "", id, kind);
    pt lab = { 0.25 * s.x + 0.5 * c.x + 0.25 * t.x + nrm.x * 12, 0.25 * s.y + 0.5 * c.y + 0.25 * t.y + nrm.y * 12 };
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" dominant-baseline=\"middle\" fill=\"%s\" "
                 "stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\" font-weight=\"bold\">%s",
            lab.x, lab.y, kind_color(e->kind), kind);
    if (e->kind != DEP_SO && e->key != HISTORY_NONE) {
        fputc(' ', out);
        html_write_escaped_max(out, history_key_str(h, e->key, kb, sizeof kb), SVG_KEY_MAX);
    }
    fputs("</text></g>\n", out);
}

static void draw_node(FILE *out, const history *h, uint32_t t, pt p, double r) {
    char tb[64], sb[64];
    int on = t != 0 && h->txns[t].session != HISTORY_NONE;
    fprintf(out, "<g class=\"node\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#f4f6fb\" stroke=\"#2c3e50\" "
                 "stroke-width=\"1.5\"/>\n", p.x, p.y, r);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">", p.x, on ? p.y - 3 : p.y + 4);
    html_write_escaped(out, report_txn_name(h, t, tb, sizeof tb));
    fputs("</text>\n", out);
    if (on) {
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555555\">session ",
                p.x, p.y + 13);
        html_write_escaped(out, history_value_str(h, h->sessions[h->txns[t].session].ext_id, sb, sizeof sb));
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
}

/* The node radius: room for the longer of its two labels. */
static double node_radius(const history *h, const vec_u32 *nodes) {
    size_t longest = 7;
    vec_foreach(const uint32_t, t, *nodes) {
        char tb[64], sb[64];
        size_t n = strlen(report_txn_name(h, *t, tb, sizeof tb));
        if (n > longest) longest = n;
        if (*t && h->txns[*t].session != HISTORY_NONE) {
            n = 8 + strlen(history_value_str(h, h->sessions[h->txns[*t].session].ext_id, sb, sizeof sb));
            if (n > longest) longest = n;
        }
    }
    double r = 4.0 * (double)longest + 8;
    return r < 36 ? 36 : r > 90 ? 90 : r;
}

/* The longest edge label, in characters ("WW " and the key as drawn). */
static size_t label_chars(const history *h, const report_anomaly *a) {
    size_t longest = 2;
    vec_foreach(const dep_edge, e, a->edges) {
        char kb[256];
        size_t n = 2;
        if (e->kind != DEP_SO && e->key != HISTORY_NONE) {
            size_t k = strlen(history_key_str(h, e->key, kb, sizeof kb));
            n += 1 + (k > SVG_KEY_MAX ? SVG_KEY_MAX + 3 : k);
        }
        if (n > longest) longest = n;
    }
    return longest;
}

void svg_cycle_write(FILE *out, const history *h, const report_anomaly *a, const char *id_prefix) {
    if (!a->edges.len) return;
    vec_u32 nodes;
    vec_init(nodes);
    cycle_nodes(a, &nodes);
    size_t n = nodes.len;
    double node_r = node_radius(h, &nodes);
    /* neighbours far enough apart for a node each and a label between them (7.3 px a character) */
    double chord = 2 * node_r + 7.3 * (double)label_chars(h, a) + 24;
    double R = n >= 3 ? chord / (2 * sin(M_PI / (double)n)) : chord / 2;
    if (R < 120) R = 120;
    pt *pos = xmalloc((n ? n : 1) * sizeof *pos);
    double lo_y = 0, hi_y = 0;
    for (size_t i = 0; i < n; i++) {
        double th = n == 2 ? (i == 0 ? M_PI : 0) : -M_PI / 2 + 2 * M_PI * (double)i / (double)n;
        pos[i] = (pt){ R * cos(th), R * sin(th) };
        if (pos[i].y < lo_y) lo_y = pos[i].y;
        if (pos[i].y > hi_y) hi_y = pos[i].y;
    }
    /* the box: the circle's width, the nodes' height, room for bent edges and labels, the legend */
    double width = 2 * (R + node_r + SVG_MARGIN), height = hi_y - lo_y + 2 * (node_r + SVG_MARGIN * 0.7) + 30;
    if (width < 560) width = 560;
    pt centre = { width / 2, node_r + SVG_MARGIN * 0.7 - lo_y };
    for (size_t i = 0; i < n; i++) { pos[i].x += centre.x; pos[i].y += centre.y; }
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                 "font-family=\"monospace\" font-size=\"12\" role=\"img\" aria-label=\"dependency cycle of %zu "
                 "transactions\">\n", width, height, width, height, n);
    markers(out, id_prefix);
    for (size_t i = 0; i < a->edges.len; i++) draw_edge(out, h, a, i, pos, &nodes, node_r, centre, id_prefix);
    for (size_t i = 0; i < n; i++) draw_node(out, h, nodes.data[i], pos[i], node_r);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555555\">WW write-write, "
                 "WR write-read, RW read-write (anti-dependency), SO session order</text>\n", width / 2, height - 14);
    fputs("</svg>\n", out);
    free(pos);
    vec_free(nodes);
}
