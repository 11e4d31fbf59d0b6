/* report_json.c — the report as one JSON object (schema: doc/json-schema.md).
 * Field names and value vocabularies are stable; new fields may be added. */
#include "frontend/reports/report.h"

#include <inttypes.h>
#include <string.h>

#include "frontend/formats/parse.h"
#include "io/json_out.h"

static void jtxn_ref(FILE *out, const history *h, uint32_t t) {
    if (t == 0) fputs("null", out);
    else fprintf(out, "%" PRId64, h->txns[t].ext_id);
}

static void jedge(FILE *out, const history *h, const dep_edge *e) {
    char kb[128], s[800];
    fputs("{\"from\": ", out); jtxn_ref(out, h, e->from);
    fputs(", \"to\": ", out); jtxn_ref(out, h, e->to);
    fprintf(out, ", \"from_index\": %u, \"to_index\": %u, \"kind\": \"%s\", \"key\": ", e->from, e->to, dep_kind_name((dep_kind)e->kind));
    if (e->kind == DEP_SO || e->key == HISTORY_NONE) fputs("null", out);
    else json_write_string(out, history_key_str(h, e->key, kb, sizeof kb));
    report_edge_sentence(h, e, s, sizeof s);
    fputs(", \"text\": ", out);
    json_write_string(out, s);
}

static const char *why_name(uint8_t st) {
    return st == WHY_OBSERVED ? "observed" : st == WHY_INIT ? "initial-version" : st == WHY_FORCED ? "forced"
         : st == WHY_DECIDED ? "decided" : st == WHY_LISTED ? "listed" : "chosen";
}

static void janomaly(FILE *out, const history *h, const report_anomaly *a) {
    char buf[700];
    fputs("{\"name\": ", out); json_write_string(out, anomaly_name(a->kind));
    fputs(", \"adya\": ", out);
    if (a->adya[0]) json_write_string(out, a->adya); else fputs("null", out);
    fprintf(out, ", \"level\": \"%s\", \"summary\": ", report_level_name(a->level));
    json_write_string(out, anomaly_summary(a->kind));
    fputs(", \"detail\": ", out);
    json_write_string(out, a->detail ? a->detail : "");
    fputs(", \"txns\": [", out);
    for (size_t i = 0; i < a->txns.len; i++) {
        uint32_t t = a->txns.data[i];
        const history_txn *tx = &h->txns[t];
        fprintf(out, "%s{\"id\": %" PRId64 ", \"index\": %u, \"session\": %" PRId64 ", \"status\": \"%s\", \"role\": \"%s\", \"where\": ",
                i ? ", " : "", tx->ext_id, t, h->sessions[tx->session].ext_id,
                tx->status == TXN_COMMITTED ? "committed" : tx->status == TXN_ABORTED ? "aborted" : "indeterminate",
                a->edges.len == 0 ? "involved" : i < a->num_cycle_txns ? "cycle" : "support");
        json_write_string(out, history_txn_where(h, t, buf, sizeof buf));
        fputc('}', out);
    }
    fputs("], \"ops\": [", out);
    for (size_t i = 0; i < a->ops.len; i++) {
        uint32_t op = a->ops.data[i], t = h->op_txn[op];
        char kb[128], vb[256];
        op_kind k = history_op_kind(h, op);
        fprintf(out, "%s{\"index\": %u, \"txn\": ", i ? ", " : "", op);
        jtxn_ref(out, h, t);
        fprintf(out, ", \"op\": \"%s\", \"key\": ", k == OP_WRITE ? "w" : k == OP_APPEND ? "append" : "r");
        json_write_string(out, history_key_str(h, h->op_key[op], kb, sizeof kb));
        fputs(", \"value\": ", out);
        json_write_string(out, report_value(h, op, vb, sizeof vb));
        fputs(", \"where\": ", out);
        if (t == 0) fputs("null", out); else json_write_string(out, history_op_where(h, op, buf, sizeof buf));
        fputc('}', out);
    }
    fputs("], \"edges\": [", out);
    for (size_t i = 0; i < a->edges.len; i++) {
        fputs(i ? ", " : "", out);
        jedge(out, h, &a->edges.data[i]);
        if (i < a->why.len) {
            const edge_why *w = &a->why.data[i];
            fprintf(out, ", \"why\": {\"status\": \"%s\"", why_name(w->status));
            if (w->status != WHY_OBSERVED) {
                fputs(", \"before\": ", out); jtxn_ref(out, h, w->before);
                fputs(", \"after\": ", out); jtxn_ref(out, h, w->after);
            }
            if (w->status == WHY_LISTED) {
                char vb[256];
                fprintf(out, ", \"read\": {\"index\": %u, \"txn\": ", w->read_op);
                jtxn_ref(out, h, h->op_txn[w->read_op]);
                fputs(", \"value\": ", out);
                json_write_string(out, report_value(h, w->read_op, vb, sizeof vb));
                fputc('}', out);
            }
            if (w->status == WHY_FORCED) {
                fputs(", \"cycle\": [", out);
                for (size_t j = 0; j < w->alt.len; j++) {
                    fputs(j ? ", " : "", out);
                    jedge(out, h, &w->alt.data[j]);
                    fputc('}', out);
                }
                fputc(']', out);
            }
            fputc('}', out);
        }
        fputc('}', out);
    }
    fputs("]}", out);
}

void report_print_json(FILE *out, const report *r) {
    const history *h = r->h;
    verdict rc = report_verdict(r);
    fputs("{\"isocheck\": 1, \"history\": ", out);
    json_write_string(out, h->source ? h->source : "-");
    fputs(", \"format\": ", out);
    json_write_string(out, history_format_name(h->format));
    fprintf(out, ", \"verdict\": \"%s\", \"level\": ", verdict_name(rc));
    json_write_string(out, r->level_arg ? r->level_arg : "si");
    fprintf(out, ", \"axiom_violations\": %" PRIu64 ", \"results\": [", r->axiom_violations);
    for (int i = 0; i < r->num_levels; i++) {
        const report_level *L = &r->levels[i];
        fprintf(out, "%s{\"level\": \"%s\", \"verdict\": \"%s\", \"stage\": ", i ? ", " : "", report_level_name(L->level),
                verdict_name(L->verdict));
        if (L->stage && L->stage[0]) json_write_string(out, L->stage); else fputs("null", out);
        fprintf(out, ", \"violations\": %" PRIu64 ", \"reason\": ", L->violations);
        if (L->msg[0]) json_write_string(out, L->msg); else fputs("null", out);
        fputc('}', out);
    }
    fputs("], \"certificate\": ", out);
    if (r->certificate) json_write_string(out, r->certificate); else fputs("null", out);
    fputs(", \"anomalies\": [", out);
    for (size_t i = 0; i < r->items.len; i++) {
        fputs(i ? ", " : "", out);
        janomaly(out, h, &r->items.data[i]);
    }
    fputs("]}\n", out);
}
