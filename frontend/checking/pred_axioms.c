/* pred_axioms.c — predicate-miss and predicate-mismatch (contract in
 * pred_axioms.h). */
#include "frontend/checking/pred_axioms.h"

#include <inttypes.h>
#include <stdio.h>

#include "frontend/history/predicate.h"

static const char *who(const history *h, uint32_t t, char *buf, size_t n) {
    if (t == 0) snprintf(buf, n, "the initial state");
    else snprintf(buf, n, "txn %" PRId64, h->txns[t].ext_id);
    return buf;
}

/* The read of key lowered from predicate read r in txn t (returned or not), or HISTORY_NONE. */
static uint32_t lowered_op(const history *h, uint32_t t, uint32_t r, uint32_t key, int returned) {
    const history_txn *tx = &h->txns[t];
    for (uint32_t o = tx->first_op; o < tx->first_op + tx->num_ops; o++) {
        uint32_t tag = history_op_pred(h, o);
        if (tag != PRED_TAG_NONE && pred_tag_read(tag) == r && pred_tag_returned(tag) == returned && h->op_key[o] == key)
            return o;
    }
    return HISTORY_NONE;
}

static void describe(const history *h, const pred_fact *f, const pred_read *rd, uint32_t writer, char *buf, size_t n) {
    char tb[48], wb[48], pb[96], kb[64], vb[96];
    who(h, rd->txn, tb, sizeof tb);
    pred_read_str(rd, "value", pb, sizeof pb);
    history_key_str(h, f->key, kb, sizeof kb);
    if (f->value == VALUE_INIT && f->data != VALUE_INIT) snprintf(vb, sizeof vb, "%" PRId64 " (initial)", f->data);
    else history_value_str(h, f->value, vb, sizeof vb);
    if (f->kind == PF_MISMATCH)
        snprintf(buf, n, "%s's predicate read of `%s` returned key %s = %s, which does not match it", tb, pb, kb, vb);
    else if (f->kind == PF_MISS_READ)
        snprintf(buf, n, "%s's predicate read of `%s` missed key %s, which the same transaction read as %s (a match; "
                 "one snapshot per transaction%s)", tb, pb, kb, vb,
                 pred_fact_is_view(f) && f->rc_view ? "; rc and rr allow its own view" : pred_fact_is_view(f) ? "; rr allows its own view"
                 : f->rc_view ? "; rc allows its own view" : "");
    else if (f->kind == PF_MISS_OWN)
        snprintf(buf, n, "%s's predicate read of `%s` missed key %s, which it had itself written as %s (a match)", tb, pb, kb, vb);
    else if (writer == HISTORY_NONE || history_op_txn(h, writer) == 0)
        snprintf(buf, n, "%s's predicate read of `%s` missed key %s: every version of it the read could see matches "
                 "(key %s = %s, for one)", tb, pb, kb, kb, vb);
    else
        snprintf(buf, n, "%s's predicate read of `%s` missed key %s: every version of it the read could see matches "
                 "(%s wrote %s = %s, for one)", tb, pb, kb, who(h, history_op_txn(h, writer), wb, sizeof wb), kb, vb);
}

uint64_t pred_axioms_check(const history *h, const uint8_t *part, anomaly_list *out, size_t limit, uint64_t *counts) {
    const history_preds *p = h->preds;
    if (!p) return 0;
    uint64_t found = 0;
    for (size_t i = 0; i < p->facts.len; i++) {
        const pred_fact *f = &p->facts.data[i];
        const pred_read *rd = &p->reads.data[f->read];
        if (rd->txn == HISTORY_NONE || rd->txn >= h->num_txns || !part[rd->txn]) continue;
        uint32_t op = HISTORY_NONE;
        if (f->kind == PF_MISMATCH) {
            op = lowered_op(h, rd->txn, f->read, f->key, 1);
            if (op == HISTORY_NONE || history_op_failed(h, op)) continue;    /* set aside */
        }
        uint32_t writer = f->value == VALUE_INIT ? f->key : history_writer_of(h, f->key, f->value);
        int rr = pred_fact_is_view(f), rc = f->kind == PF_MISS_READ && f->rc_view;   /* the levels' own views */
        anomaly_kind kind = f->kind == PF_MISMATCH ? AN_PRED_MISMATCH
                          : rr && rc ? AN_PRED_MISS_OWN : rr ? AN_PRED_MISS_VIEW : rc ? AN_PRED_MISS_READ : AN_PRED_MISS;
        found++;
        if (counts) counts[kind]++;
        if (limit && out->items.len >= limit) continue;
        anomaly *a = anomaly_add(out, kind);
        if (op != HISTORY_NONE) anomaly_add_op(a, h, op);
        else vec_push(a->txns, rd->txn);
        if (writer != HISTORY_NONE && writer >= h->num_keys && f->kind == PF_MISS) anomaly_add_op(a, h, writer);   /* not INIT's */
        char buf[1024];
        describe(h, f, rd, writer, buf, sizeof buf);
        anomaly_set_detail(a, "%s", buf);
    }
    return found;
}
