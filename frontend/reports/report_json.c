/* report_json.c — the report as one JSON object (schema: doc/json-schema.md).
 * Field names and value vocabularies are stable; new fields may be added. */
#include "frontend/reports/report.h"
#include "frontend/reports/ladder.h"
#include "frontend/reports/report_assumed.h"

#include <inttypes.h>
#include <string.h>

#include "frontend/formats/parse.h"
#include "io/json_out.h"
#include "version.h"

static void jtxn_ref(FILE *out, const history *h, uint32_t t) {
    if (t == 0) fputs("null", out);
    else fprintf(out, "%" PRId64, h->txns[t].ext_id);
}

/* An edge; bs: its basis in a proof's cycle (NULL: a cycle edge).  One that
 * rests on a writer the check chose gets "assumed_writer": true (report_assumed.h). */
static void jedge(FILE *out, const history *h, const dep_edge *e, const edge_basis *bs, uint32_t src) {
    char kb[128], s[800];
    fputs("{\"from\": ", out); jtxn_ref(out, h, e->from);
    fputs(", \"to\": ", out); jtxn_ref(out, h, e->to);
    fprintf(out, ", \"from_index\": %u, \"to_index\": %u, \"kind\": \"%s\", \"key\": ", e->from, e->to, dep_kind_name((dep_kind)e->kind));
    if (e->kind == DEP_SO || e->key == HISTORY_NONE) fputs("null", out);
    else json_write_string(out, history_key_str(h, e->key, kb, sizeof kb));
    report_edge_sentence_from(h, e, src, s, sizeof s);
    fputs(", \"text\": ", out);
    json_write_string(out, s);
    if (report_edge_assumed(h, e, bs)) fputs(", \"assumed_writer\": true", out);
}

static const char *why_name(uint8_t st) {
    return st == WHY_OBSERVED ? "observed" : st == WHY_INIT ? "initial-version" : st == WHY_FORCED ? "forced"
         : st == WHY_DECIDED ? "decided" : st == WHY_LISTED ? "listed" : st == WHY_VIEW ? "predicate-view" : "chosen";
}

static const char *basis_name(uint8_t k) {
    return k == BASIS_OBSERVED ? "observed" : k == BASIS_ASSUMED ? "assumed" : k == BASIS_INIT ? "initial-version"
         : k == BASIS_RMW ? "read-modify-write" : k == BASIS_LISTED ? "listed" : "proven";
}

static void jread(FILE *out, const history *h, uint32_t op) {
    char vb[256];
    fprintf(out, "{\"index\": %u, \"txn\": ", op);
    jtxn_ref(out, h, history_op_txn(h, op));
    fputs(", \"value\": ", out);
    json_write_string(out, report_value(h, op, vb, sizeof vb));
    fputc('}', out);
}

/* The "why" object of a cycle edge or a proven fact of a (lim: the facts
 * it may cite); a proof resting on a writer the check chose, directly or
 * through a fact it cites, gets "assumed_writers": true (the text's
 * "forced given the writers assumed", report_assumed.h). */
static void jwhy(FILE *out, const history *h, const report_anomaly *a, const edge_why *w, size_t lim) {
    fprintf(out, "{\"status\": \"%s\"", why_name(w->status));
    if (report_why_assumed(h, a, w, lim)) fputs(", \"assumed_writers\": true", out);
    if (w->status != WHY_OBSERVED && w->status != WHY_VIEW) {   /* a view names no two versions */
        fputs(", \"before\": ", out); jtxn_ref(out, h, w->before);
        fputs(", \"after\": ", out); jtxn_ref(out, h, w->after);
    }
    if (w->status == WHY_LISTED) { fputs(", \"read\": ", out); jread(out, h, w->read_op); }
    if (w->status == WHY_FORCED) {
        fputs(", \"cycle\": [", out);
        for (size_t j = 0; j < w->alt.len; j++) {
            fputs(j ? ", " : "", out);
            const edge_basis *bs = j < w->basis.len ? &w->basis.data[j] : NULL;
            jedge(out, h, &w->alt.data[j], bs, bs ? bs->before : HISTORY_NONE);
            if (j < w->basis.len) {
                const edge_basis *b = &w->basis.data[j];
                fprintf(out, ", \"basis\": {\"kind\": \"%s\"", basis_name(b->kind));
                if (b->kind != BASIS_OBSERVED) {
                    fputs(", \"before\": ", out); jtxn_ref(out, h, b->before);
                    fputs(", \"after\": ", out); jtxn_ref(out, h, b->after);
                    fprintf(out, ", \"before_index\": %u, \"after_index\": %u", b->before, b->after);
                }
                if (b->kind == BASIS_PROVEN) fprintf(out, ", \"fact\": %u", b->ref);
                if (b->kind == BASIS_LISTED) { fputs(", \"read\": ", out); jread(out, h, b->ref); }
                fputc('}', out);
            }
            fputc('}', out);
        }
        fputc(']', out);
    }
    fputc('}', out);
}

/* ", \"assumes\": [...]": the reads a rests on whose writer is the check's
 * choice (the text's "assumes" line, report_assumptions); only on a history
 * with such reads. */
static void jassumes(FILE *out, const history *h, const report_anomaly *a) {
    report_assumption_vec v;
    vec_init(v);
    report_assumptions(h, a, &v);
    fputs(", \"assumes\": [", out);
    for (size_t i = 0; i < v.len; i++) {
        const report_assumption *x = &v.data[i];
        uint32_t op = history_txn_external_read(h, x->reader, x->key);
        char kb[128], vb[256];
        fprintf(out, "%s{\"txn\": ", i ? ", " : "");
        jtxn_ref(out, h, x->reader);
        fprintf(out, ", \"txn_index\": %u, \"op_index\": %u, \"key\": ", x->reader, op);
        json_write_string(out, history_key_str(h, x->key, kb, sizeof kb));
        fputs(", \"value\": ", out);
        if (report_assumption_predicate(h, x)) fputs("null", out);    /* a predicate read's version of the key */
        else json_write_string(out, report_value(h, op, vb, sizeof vb));
        fputs(", \"writer\": ", out);
        if (x->writer == HISTORY_NONE) fputs("null", out);
        else jtxn_ref(out, h, x->writer);
        fputc('}', out);
    }
    fputc(']', out);
    vec_free(v);
}

static void janomaly(FILE *out, const history *h, const report_anomaly *a) {
    char buf[700];
    fputs("{\"name\": ", out); json_write_string(out, anomaly_name(a->kind));
    fputs(", \"adya\": ", out);
    if (a->adya[0]) json_write_string(out, a->adya); else fputs("null", out);
    fprintf(out, ", \"level\": \"%s\", \"breaks\": [", report_level_name(a->level));
    uint32_t breaks = a->level != LEVEL_ANY ? 1u << a->level : a->breaks ? a->breaks : ANOMALY_ALL_LEVELS;
    for (int i = 0, k = 0; i < LEVEL_COUNT; i++)
        if (breaks >> ladder_order[i] & 1u) fprintf(out, "%s\"%s\"", k++ ? ", " : "", level_name(ladder_order[i]));
    fputs("], \"summary\": ", out);
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
        uint32_t op = a->ops.data[i], t = history_op_txn(h, op);
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
        jedge(out, h, &a->edges.data[i], NULL, i < a->why.len ? a->why.data[i].before : HISTORY_NONE);
        if (i < a->why.len) { fputs(", \"why\": ", out); jwhy(out, h, a, &a->why.data[i], a->facts.len); }
        fputc('}', out);
    }
    fputs("], \"facts\": [", out);
    for (size_t i = 0; i < a->facts.len; i++) {
        const report_fact *f = &a->facts.data[i];
        char kb[128];
        fputs(i ? ", {\"before\": " : "{\"before\": ", out); jtxn_ref(out, h, f->fact.from);
        fputs(", \"after\": ", out); jtxn_ref(out, h, f->fact.to);
        fprintf(out, ", \"before_index\": %u, \"after_index\": %u, \"key\": ", f->fact.from, f->fact.to);
        json_write_string(out, history_key_str(h, f->fact.key, kb, sizeof kb));
        fputs(", \"why\": ", out);
        jwhy(out, h, a, &f->why, i);
        fputc('}', out);
    }
    fputc(']', out);
    if (report_has_assumed(h)) jassumes(out, h, a);
    fprintf(out, ", \"chosen\": %s", a->chosen ? "true" : "false");
    if (a->chosen) {
        fputs(", \"shape\": ", out); json_write_string(out, anomaly_name(a->shape));
        fputs(", \"shape_adya\": ", out);
        if (a->shape_adya[0]) json_write_string(out, a->shape_adya); else fputs("null", out);
    }
    fputs("}", out);
}

void report_print_json(FILE *out, const report *r) {
    const history *h = r->h;
    verdict rc = report_verdict(r);
    fputs("{\"isocheck\": 1, \"version\": \"" ISOCHECK_VERSION "\", \"history\": ", out);
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
        char why[sizeof L->msg + 128];
        if (L->msg[0]) json_write_string(out, report_level_reason(r, L, why, sizeof why)); else fputs("null", out);
        fputs(", \"implied_by\": ", out);
        if (L->implied) fprintf(out, "\"%s\"", report_level_name(L->implied_by)); else fputs("null", out);
        fputc('}', out);
    }
    fputs("], \"set_aside\": [", out);
    for (size_t i = 0; i < r->set_aside.len; i++) fprintf(out, "%s%u", i ? ", " : "", r->set_aside.data[i]);
    fputs("], ", out);
    if (r->ladder) { fputs("\"ladder\": ", out); report_print_ladder_json(out, r); fputs(", ", out); }
    fputs("\"certificate\": ", out);
    if (r->certificate) json_write_string(out, r->certificate); else fputs("null", out);
    fputs(", \"anomalies\": [", out);
    for (size_t i = 0; i < r->items.len; i++) {
        fputs(i ? ", " : "", out);
        janomaly(out, h, &r->items.data[i]);
    }
    fputs("]}\n", out);
}
