/* report_assumed.c — the facts of an anomaly that rest on a chosen writer
 * (contract: report_assumed.h). */
#include "frontend/reports/report_assumed.h"

#include <string.h>

#include "frontend/history/list_repeat.h"
#include "frontend/history/predicate.h"

/* The resolved form that lists the reads with several possible writers:
 * h itself, or the one kept with it (history_resolved); NULL: none. */
static const history *amb_of(const history *h) {
    if (h->num_amb) return h;
    return h->resolved && h->resolved->num_amb ? h->resolved : NULL;
}

int report_has_assumed(const history *h) { return h && amb_of(h) != NULL; }

uint32_t report_assumed_read(const history *h, uint32_t reader, uint32_t key) {
    const history *rh = amb_of(h);
    if (!rh || reader == 0 || reader >= h->num_txns || key == HISTORY_NONE) return HISTORY_NONE;
    uint32_t op = history_txn_external_read(h, reader, key);
    if (op == HISTORY_NONE || !history_op_ambiguous(rh, op)) return HISTORY_NONE;
    if (history_op_kind(h, op) == OP_LIST_READ) {    /* its version: its external prefix's last element's appender's */
        uint32_t ext = history_list_external_len(h, op), n;
        const int64_t *l = history_list(rh, op, &n);
        if (!ext || ext > n || l[ext - 1] != VALUE_INIT) return HISTORY_NONE;
    }
    return op;
}

int report_listed_assumed(const history *h, uint32_t op, uint32_t before, uint32_t after) {
    const history *rh = amb_of(h);
    if (!rh || op >= h->num_ops || history_op_kind(h, op) != OP_LIST_READ || !history_op_ambiguous(rh, op)) return 0;
    uint32_t n, rn, key = h->op_key[op], ext = history_list_external_len(h, op);
    const int64_t *l = history_list(h, op, &n), *rl = history_list(rh, op, &rn);
    for (uint32_t p = 0; p < ext && p < n && p < rn; p++) {
        if (rl[p] != VALUE_INIT) continue;                  /* its appender is established */
        uint32_t one[1];
        const uint32_t *ws;
        uint32_t m = history_writers_of(h, key, l[p], one, &ws);
        for (uint32_t j = 0; j < m; j++) {
            uint32_t t = history_op_txn(h, ws[j]);
            if (t == before || t == after) return 1;
        }
    }
    return 0;
}

/* The read (reader, key) edge e rests on, and the writer it assumes (HISTORY_NONE: not known here). */
static int edge_read(const dep_edge *e, const edge_basis *bs, uint32_t *reader, uint32_t *writer) {
    *writer = HISTORY_NONE;
    if (e->kind == DEP_WR) { *reader = e->to; *writer = e->from; return 1; }
    if (e->kind == DEP_RW) { *reader = e->from; if (bs) *writer = bs->before; return 1; }
    if (e->kind == DEP_WW && bs && bs->kind == BASIS_RMW) { *reader = bs->after; *writer = bs->before; return 1; }
    return 0;
}

int report_basis_assumed(const history *h, const dep_edge *e, const edge_basis *bs) {
    return bs && bs->kind == BASIS_RMW && amb_of(h) && report_assumed_read(h, bs->after, e->key) != HISTORY_NONE;
}

int report_edge_assumed(const history *h, const dep_edge *e, const edge_basis *bs) {
    uint32_t r, w;
    if (!amb_of(h)) return 0;
    if (edge_read(e, bs, &r, &w) && report_assumed_read(h, r, e->key) != HISTORY_NONE) return 1;
    return report_basis_assumed(h, e, bs);   /* an RW edge's version order through an assumed read-modify-write */
}

int report_why_assumed_in(const history *h, const report_fact *facts, size_t nfacts, const edge_why *w, size_t lim) {
    if (!amb_of(h)) return 0;
    if (w->status == WHY_LISTED) return report_listed_assumed(h, w->read_op, w->before, w->after);
    if (w->status != WHY_FORCED) return 0;
    for (size_t i = 0; i < w->alt.len; i++) {
        const edge_basis *bs = i < w->basis.len ? &w->basis.data[i] : NULL;
        if (report_edge_assumed(h, &w->alt.data[i], bs)) return 1;
        if (bs && bs->kind == BASIS_LISTED && report_listed_assumed(h, bs->ref, bs->before, bs->after)) return 1;
        if (bs && bs->kind == BASIS_PROVEN && bs->ref < lim && bs->ref < nfacts &&
            report_why_assumed_in(h, facts, nfacts, &facts[bs->ref].why, bs->ref))
            return 1;
    }
    return 0;
}

int report_why_assumed(const history *h, const report_anomaly *a, const edge_why *w, size_t lim) {
    return report_why_assumed_in(h, a->facts.data, a->facts.len, w, lim);
}

static void note_read(const history *h, report_assumption_vec *v, uint32_t r, uint32_t key, uint32_t w) {
    if (report_assumed_read(h, r, key) == HISTORY_NONE) return;
    vec_foreach(const report_assumption, x, *v) if (x->reader == r && x->key == key) return;
    report_assumption x = { r, key, w };
    vec_push(*v, x);
}

/* A list read op that shows a version order through an element whose appender is the choice
 * (report_listed_assumed): its transaction's read of the key, no writer named. */
static void note_list(const history *h, report_assumption_vec *v, uint32_t op, uint32_t before, uint32_t after) {
    if (!report_listed_assumed(h, op, before, after)) return;
    uint32_t r = history_op_txn(h, op), key = h->op_key[op];
    vec_foreach(const report_assumption, x, *v) if (x->reader == r && x->key == key) return;
    report_assumption x = { r, key, HISTORY_NONE };
    vec_push(*v, x);
}

static void note(const history *h, report_assumption_vec *v, const dep_edge *e, const edge_basis *bs) {
    uint32_t r, w;
    if (edge_read(e, bs, &r, &w)) note_read(h, v, r, e->key, w);
    if (e->kind == DEP_RW && report_basis_assumed(h, e, bs)) note_read(h, v, bs->after, e->key, bs->before);
    if (bs && bs->kind == BASIS_LISTED) note_list(h, v, bs->ref, bs->before, bs->after);
}

static void note_why(const history *h, report_assumption_vec *v, const edge_why *w) {
    if (w->status == WHY_LISTED) note_list(h, v, w->read_op, w->before, w->after);
    if (w->status != WHY_FORCED) return;
    for (size_t i = 0; i < w->alt.len; i++) note(h, v, &w->alt.data[i], i < w->basis.len ? &w->basis.data[i] : NULL);
}

void report_assumptions(const history *h, const report_anomaly *a, report_assumption_vec *v) {
    vec_clear(*v);
    if (!amb_of(h) || !a->edges.len) return;
    for (size_t i = 0; i < a->edges.len; i++) {
        const edge_why *w = i < a->why.len ? &a->why.data[i] : NULL;
        edge_basis bs = { BASIS_OBSERVED, w ? w->before : HISTORY_NONE, w ? w->after : HISTORY_NONE, HISTORY_NONE };
        note(h, v, &a->edges.data[i], &bs);
        if (w) note_why(h, v, w);
    }
    vec_foreach(const report_fact, f, a->facts) note_why(h, v, &f->why);
}

int report_assumption_predicate(const history *h, const report_assumption *x) {
    uint32_t op = history_txn_external_read(h, x->reader, x->key);
    return h->op_pred && op != HISTORY_NONE && h->op_pred[op] != PRED_TAG_NONE;
}

void report_print_assumed(FILE *out, const history *h, const report_anomaly *a) {
    report_assumption_vec v;
    vec_init(v);
    report_assumptions(h, a, &v);
    if (v.len) {
        fprintf(out, "     assumes (reads with several possible writers: each one's is the check's choice, not forced by "
                     "the history alone):");
        const char *sep = "";
        vec_foreach(const report_assumption, x, v) {
            char rb[64], kb[128], vb[256], wb[64];
            uint32_t op = history_txn_external_read(h, x->reader, x->key);
            const char *w = x->writer == HISTORY_NONE ? "a writer chosen" : report_txn_name(h, x->writer, wb, sizeof wb);
            report_txn_name(h, x->reader, rb, sizeof rb);
            history_key_str(h, x->key, kb, sizeof kb);
            if (report_assumption_predicate(h, x))      /* a predicate read's version of a key */
                fprintf(out, "%s %s saw %s's version of %s", sep, rb, w, kb);
            else if (op != HISTORY_NONE && history_op_kind(h, op) == OP_LIST_READ && x->writer == HISTORY_NONE)
                fprintf(out, "%s %s read %s=%s with the appends of its repeated values chosen", sep, rb, kb,
                        report_value(h, op, vb, sizeof vb));    /* a list read whose order is the choice's */
            else fprintf(out, "%s %s read %s=%s from %s", sep, rb, kb, report_value(h, op, vb, sizeof vb), w);
            sep = ",";
        }
        fputc('\n', out);
    }
    vec_free(v);
}
