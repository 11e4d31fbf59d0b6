/* report_dot.c — anomalies as a Graphviz digraph: one cluster per anomaly
 * with a cycle; cycle edges solid and labelled with kind and key, the
 * adjoining cycles that force a version order dashed ("if" marks the
 * hypothetical opposite edge).  `dot -Tsvg FILE` renders it. */
#include "frontend/reports/report.h"

#include <inttypes.h>
#include <string.h>

static void dstr(FILE *out, const char *s) {
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', out);
        if ((unsigned char)*s >= 0x20) fputc(*s, out);
    }
}

static const char *color(uint8_t kind) {
    switch (kind) {
    case DEP_SO: return "gray40";
    case DEP_WR: return "blue";
    case DEP_WW: return "darkgreen";
    case DEP_RW: return "red";
    default: return "black";
    }
}

static void dedge(FILE *out, const history *h, size_t ai, const dep_edge *e, const char *style, const char *suffix) {
    char kb[128];
    fprintf(out, "    a%zu_t%u -> a%zu_t%u [label=\"%s", ai, e->from, ai, e->to, dep_kind_name((dep_kind)e->kind));
    if (e->kind != DEP_SO && e->key != HISTORY_NONE) { fputc(' ', out); dstr(out, history_key_str(h, e->key, kb, sizeof kb)); }
    fprintf(out, "%s\", color=%s, fontcolor=%s, style=%s];\n", suffix, color(e->kind), color(e->kind), style);
}

void report_print_dot(FILE *out, const report *r) {
    const history *h = r->h;
    fprintf(out, "digraph isocheck {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
                 "  edge [fontname=\"monospace\", fontsize=10];\n");
    size_t shown = 0;
    for (size_t ai = 0; ai < r->items.len; ai++) {
        const report_anomaly *a = &r->items.data[ai];
        if (!a->edges.len) continue;
        shown++;
        if (a->chosen)
            fprintf(out, "  subgraph cluster_%zu {\n    label=\"%zu. cycle under the chosen version order (shaped as %s, %s, %s)\";\n"
                         "    fontname=\"monospace\";\n", ai, shown, anomaly_name(a->shape), a->shape_adya, report_level_name(a->level));
        else
            fprintf(out, "  subgraph cluster_%zu {\n    label=\"%zu. %s (%s, %s)\";\n    fontname=\"monospace\";\n", ai, shown,
                    anomaly_name(a->kind), a->adya, report_level_name(a->level));
        /* nodes: every transaction on an edge, with its relevant ops */
        vec_u32 nodes; vec_init(nodes);
        for (size_t i = 0; i < a->edges.len; i++) { vec_push(nodes, a->edges.data[i].from); vec_push(nodes, a->edges.data[i].to); }
        vec_foreach(const edge_why, w, a->why) vec_foreach(const dep_edge, e, w->alt) { vec_push(nodes, e->from); vec_push(nodes, e->to); }
        vec_foreach(const report_fact, f, a->facts)
            vec_foreach(const dep_edge, e, f->why.alt) { vec_push(nodes, e->from); vec_push(nodes, e->to); }
        for (size_t i = 0; i < nodes.len; i++) {
            uint32_t t = nodes.data[i];
            int dup = 0;
            for (size_t j = 0; j < i; j++) if (nodes.data[j] == t) dup = 1;
            if (dup) continue;
            char tb[64], kb[128], vb[256];
            int on_cycle = 0;
            for (size_t j = 0; j < a->edges.len; j++) if (a->edges.data[j].from == t) on_cycle = 1;
            fprintf(out, "    a%zu_t%u [label=\"%s", ai, t, report_txn_name(h, t, tb, sizeof tb));
            if (t) fprintf(out, "\\nsession %" PRId64, h->sessions[h->txns[t].session].ext_id);
            for (size_t j = 0; j < a->ops.len; j++) {
                uint32_t op = a->ops.data[j];
                if (history_op_txn(h, op) != t || !t) continue;
                fprintf(out, "\\n%s(", history_op_is_read(h, op) ? "r" : "w");
                dstr(out, history_key_str(h, h->op_key[op], kb, sizeof kb));
                fprintf(out, ")=");
                dstr(out, report_value(h, op, vb, sizeof vb));
            }
            fprintf(out, "\"%s];\n", on_cycle ? ", penwidth=2" : ", style=dashed");
        }
        vec_free(nodes);
        for (size_t i = 0; i < a->edges.len; i++) dedge(out, h, ai, &a->edges.data[i], "bold", "");
        vec_foreach(const edge_why, w, a->why) {
            for (size_t j = 0; j < w->alt.len; j++) dedge(out, h, ai, &w->alt.data[j], "dashed", j == 0 ? " (if)" : "");
        }
        for (size_t fi = 0; fi < a->facts.len; fi++) {        /* the facts proven first: dotted, numbered */
            const edge_why *w = &a->facts.data[fi].why;
            char sfx[48];
            for (size_t j = 0; j < w->alt.len; j++) {
                snprintf(sfx, sizeof sfx, j == 0 ? " (if; fact %zu)" : " (fact %zu)", fi + 1);
                dedge(out, h, ai, &w->alt.data[j], "dotted", sfx);
            }
        }
        fprintf(out, "  }\n");
    }
    if (!shown) fprintf(out, "  empty [shape=plaintext, label=\"no dependency cycle to draw\"];\n");
    fprintf(out, "}\n");
}
