/* write_text.c — PolySI text: r(key,value,session,txn) per op; the
 * initial value is written as 0, and every number is written without a
 * sign (write.h: what is renumbered so that this holds).  A transaction
 * with times gets a "#@time" line after its operations (text_times.h).
 *
 * Predicate reads (history.preds; text_pred.h, doc/formats.md "Predicate
 * reads in text") are written back as they were read: init(K,V) lines for
 * the keys whose initial version is present, then each predicate read as
 * rp(PRED,{K:V,...},S,T) where its first lowered op is (its result set
 * from the ops tagged "returned"; the ops the reader derived, tagged
 * otherwise, are derived again when the file is read back), or at the end
 * of its transaction when it has none.  A predicate update comes back as
 * its read and its writes.  Refused: deleted keys (text has no delete) and
 * values text would have to renumber (0, signs: a predicate compares
 * them). */
#include "frontend/formats/write.h"

#include <inttypes.h>

#include "frontend/formats/text_times.h"
#include "frontend/formats/write_pred.h"
#include "frontend/history/predicate.h"

/* Whether v is read only by ops lowered from predicate reads' unreturned
 * keys (the marker of a view that is a choice), which text writes as the
 * predicate read itself. */
static int choice_marker(const history *h, int64_t v) {
    if (!history_value_is_named(h, v)) return 0;
    for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++) {
        if (history_op_value(h, op) != v) continue;
        uint32_t tag = history_op_pred(h, op);
        if (tag == PRED_TAG_NONE || pred_tag_returned(tag)) return 0;
    }
    return 1;
}

/* What text cannot hold of h's predicate reads (deleted keys, values it would renumber),
 * then the plan. */
static int text_pred_plan(const history *h, const write_plan *wp, pred_plan *pp, ic_error *err) {
    if (h->preds->dead.len) {
        ic_error_at(err, h->source, 0, "cannot write a deleted key in text format (it has no delete)");
        return 0;
    }
    for (size_t i = 0; i < wp->value.from.len; i++) {
        int64_t v = wp->value.from.data[i];
        if (choice_marker(h, v)) continue;      /* a predicate view's choice: not written (the predicate read is) */
        ic_error_at(err, h->source, 0, "cannot write value %" PRId64 " in text format: a predicate read compares values, "
                    "so they cannot be renumbered (text values are 1 to 2^63-1)", v);
        return 0;
    }
    return pred_plan_build(h, "text", pp, err);
}

static void write_inits(const history *h, const write_plan *wp, FILE *out) {
    const history_preds *P = h->preds;
    for (uint32_t k = 0; k < P->init_present.len && k < h->num_keys; k++)
        if (P->init_present.data[k])
            fprintf(out, "init(%" PRId64 ",%" PRId64 ")\n", write_key(wp, h, k), P->init_data.data[k]);
}

static void write_pred_read(const history *h, const write_plan *wp, pred_plan *pp, uint32_t r, int64_t sess, int64_t id,
                            FILE *out) {
    char pb[200];
    pp->done[r] = 1;
    fprintf(out, "rp(%s,{", pred_read_str(&h->preds->reads.data[r], "c", pb, sizeof pb));
    for (uint32_t i = pp->ret_start[r]; i < pp->ret_start[r + 1]; i++) {
        uint32_t op = pp->ret_ops[i];
        int64_t v = history_op_value(h, op);
        fprintf(out, "%s%" PRId64 ":%" PRId64, i > pp->ret_start[r] ? "," : "", write_key(wp, h, h->op_key[op]),
                v == VALUE_INIT ? 0 : v);
    }
    fprintf(out, "},%" PRId64 ",%" PRId64 ")\n", sess, id);
}

int write_text(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "text", 0, 0, 0, 0, h->preds != NULL, err)) return 0;
    if (!write_check_unique_txn_ids(h, "text", err)) return 0;
    write_plan p;
    write_plan_build(h, FORMAT_TEXT, &p);
    pred_plan pp = { 0 };
    if (h->preds && !text_pred_plan(h, &p, &pp, err)) { write_plan_free(&p); return 0; }
    if (h->preds) write_inits(h, &p, out);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        int64_t sess = write_renumbered(&p.session, h->sessions[x->session].ext_id);
        int64_t id = write_renumbered(&p.txn, x->ext_id);
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            for (uint32_t r; h->preds && (r = pred_plan_due(h, &pp, t, op - x->first_op)) != UINT32_MAX;)
                write_pred_read(h, &p, &pp, r, sess, id, out);        /* at its place (pred_read.pos) */
            uint32_t tag = history_op_pred(h, op);
            if (tag != PRED_TAG_NONE) {         /* lowered from a predicate read: the read, once */
                if (!pp.done[pred_tag_read(tag)]) write_pred_read(h, &p, &pp, pred_tag_read(tag), sess, id, out);
                continue;
            }
            int64_t v = history_op_value(h, op);
            fprintf(out, "%c(%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ")\n",
                    history_op_kind(h, op) == OP_READ ? 'r' : 'w', write_key(&p, h, h->op_key[op]),
                    v == VALUE_INIT ? 0 : write_renumbered(&p.value, v), sess, id);
        }
        for (uint32_t i = h->preds ? pp.txn_start[t] : 0; h->preds && i < pp.txn_start[t + 1]; i++)
            if (!pp.done[pp.txn_reads[i]]) write_pred_read(h, &p, &pp, pp.txn_reads[i], sess, id, out);
        int64_t tm[TIME_KINDS];
        int any = 0;
        for (int k = 0; k < TIME_KINDS; k++) any |= (tm[k] = history_time(h, (history_time_kind)k, t)) != HISTORY_TIME_NONE;
        char line[160];
        if (any && x->num_ops && text_format_times(line, sizeof line, id, tm) > 0) fputs(line, out);
    }
    if (h->preds) pred_plan_free(&pp);
    write_plan_free(&p);
    return 1;
}
