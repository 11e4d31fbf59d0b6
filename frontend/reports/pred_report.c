/* pred_report.c — predicate reads' edges in words (contract in
 * pred_report.h). */
#include "frontend/reports/pred_report.h"

#include <inttypes.h>
#include <stdio.h>

#include "frontend/history/predicate.h"

static const char *txn_str(const history *h, uint32_t t, char *buf, size_t n) {
    if (t == 0) snprintf(buf, n, "the initial state");
    else snprintf(buf, n, "txn %" PRId64, h->txns[t].ext_id);
    return buf;
}

/* A version's data as the predicate saw it: "3", "unborn", "dead". */
static const char *data_str(const history *h, uint32_t key, int64_t v, int *present, int64_t *data, char *buf, size_t n) {
    *present = preds_version_data(h->preds, key, v, data);
    if (*present) snprintf(buf, n, "= %" PRId64, *data);
    else snprintf(buf, n, "%s", v == VALUE_INIT ? "unborn" : "dead");
    return buf;
}

/* rr: an edge that may be a predicate read's own view's (doc/levels.md
 * "rr": the reader's predicate read that left the key out has a version
 * set of its own there): a WR edge from another writer than its
 * transaction's read's is one; an RW edge to a version the predicate
 * matches may be one (the view's edge to the head of the matching run) or
 * the transaction's read's, told as either. */
static int view_sentence(const history *h, const dep_edge *e, char *buf, size_t n) {
    uint32_t reader = e->kind == DEP_WR ? e->to : e->from;
    const pred_fact *f = NULL;
    const pred_read *rd = preds_view_read(h->preds, reader, e->key, &f);
    if (!rd) return 0;
    uint32_t op = history_txn_external_read(h, reader, e->key);
    uint32_t src = op == HISTORY_NONE ? HISTORY_NONE : history_read_source(h, op);
    uint32_t w = history_txn_final_write(h, e->kind == DEP_WR ? e->from : e->to, e->key);
    if (w == HISTORY_NONE || (e->kind == DEP_WR && src != HISTORY_NONE && history_op_txn(h, src) == e->from)) return 0;
    char rb[48], wb[48], pb[96], kb[96], nb[48], vb[96];
    int present;
    int64_t data;
    data_str(h, e->key, history_op_value(h, w), &present, &data, nb, sizeof nb);
    if (e->kind == DEP_RW && !f->by_pred && !pred_match_version(&rd->p, present, data)) return 0;   /* the item read's */
    txn_str(h, reader, rb, sizeof rb);
    txn_str(h, e->kind == DEP_WR ? e->from : e->to, wb, sizeof wb);
    pred_read_str(rd, "value", pb, sizeof pb);
    history_key_str(h, e->key, kb, sizeof kb);
    if (e->kind == DEP_WR)
        snprintf(buf, n, "%s's predicate read of `%s` did not return key %s; at rr it has its own view of it (Adya's "
                 "version set): %s's key %s or a later version, a predicate read-dependency", rb, pb, kb, wb, nb);
    else if (f->by_pred)
        snprintf(buf, n, "%s's predicate read of `%s` did not return key %s; at rr its own view of it (Adya's version set) "
                 "precedes %s's key %s %s, which changes what it matches: a predicate anti-dependency", rb, pb, kb, wb, kb, nb);
    else
        snprintf(buf, n, "%s read key %s %s, and its predicate read of `%s` did not return it (at rr its own view, Adya's "
                 "version set); %s's key %s %s follows the version one of them saw (an item or a predicate "
                 "anti-dependency)", rb, kb, data_str(h, e->key, f->value, &present, &data, vb, sizeof vb), pb, wb, kb, nb);
    return 1;
}

int pred_edge_sentence(const history *h, const dep_edge *e, int assumed, char *buf, size_t n) {
    if (!h->preds || (e->kind != DEP_WR && e->kind != DEP_RW) || e->key == HISTORY_NONE) return 0;
    if (view_sentence(h, e, buf, n)) return 1;
    uint32_t reader = e->kind == DEP_WR ? e->to : e->from;
    uint32_t op = history_txn_external_read(h, reader, e->key);
    if (op == HISTORY_NONE) return 0;
    uint32_t tag = history_op_pred(h, op);
    if (tag == PRED_TAG_NONE || pred_tag_read(tag) >= h->preds->reads.len) return 0;
    const pred_read *rd = &h->preds->reads.data[pred_tag_read(tag)];
    char rb[48], wb[48], pb[96], kb[96], sb[48], nb[48];
    int seen_present, new_present;
    int64_t seen_data, new_data;
    txn_str(h, reader, rb, sizeof rb);
    pred_read_str(rd, "value", pb, sizeof pb);
    history_key_str(h, e->key, kb, sizeof kb);
    int64_t seen = history_op_value(h, op);
    if (history_op_ambiguous(h, op)) {            /* a choice (preds_attach_choices): the WR edge names it */
        uint32_t ws = e->kind == DEP_WR && e->from ? history_txn_final_write(h, e->from, e->key) : HISTORY_NONE;
        seen = ws != HISTORY_NONE ? history_op_value(h, ws) : VALUE_INIT;
    }
    data_str(h, e->key, seen, &seen_present, &seen_data, sb, sizeof sb);
    if (history_op_ambiguous(h, op) && e->kind == DEP_RW) snprintf(sb, sizeof sb, "in a version");
    if (pred_tag_returned(tag)) {             /* a returned pair: an item read, named with its predicate */
        if (e->kind == DEP_WR) {
            snprintf(buf, n, "%s's predicate read of `%s` returned key %s %s, %swritten by %s", rb, pb, kb, sb,
                     assumed ? "assumed " : "", txn_str(h, e->from, wb, sizeof wb));
            return 1;
        }
        uint32_t w = history_txn_final_write(h, e->to, e->key);
        if (w == HISTORY_NONE) return 0;
        data_str(h, e->key, history_op_value(h, w), &new_present, &new_data, nb, sizeof nb);
        snprintf(buf, n, "%s's predicate read of `%s` returned key %s %s%s, which %s's %s of key %s %s overwrote", rb, pb, kb,
                 sb, assumed ? " (its writer assumed)" : "", txn_str(h, e->to, wb, sizeof wb), new_present ? "write" : "delete",
                 kb, nb);
        return 1;
    }
    if (e->kind == DEP_WR) {
        snprintf(buf, n, "%s's predicate read of `%s` did not return key %s, so it saw %s's version%s, key %s %s, "
                 "which does not match", rb, pb, kb, txn_str(h, e->from, wb, sizeof wb),
                 assumed ? " (assumed: another is possible)" : "", kb, sb);
        return 1;
    }
    uint32_t w = history_txn_final_write(h, e->to, e->key);
    if (w == HISTORY_NONE) return 0;
    data_str(h, e->key, history_op_value(h, w), &new_present, &new_data, nb, sizeof nb);
    txn_str(h, e->to, wb, sizeof wb);
    if (pred_match_version(&rd->p, new_present, new_data))
        snprintf(buf, n, "phantom: %s's predicate read of `%s` missed %s's %s of key %s %s (it saw key %s %s, "
                 "which does not match)", rb, pb, wb, seen_present ? "write" : "insert", kb, nb, kb, sb);
    else
        snprintf(buf, n, "%s's predicate read of `%s` saw key %s %s (no match), which %s's %s overwrote", rb, pb, kb, sb, wb,
                 new_present ? "write" : "delete");
    return 1;
}
