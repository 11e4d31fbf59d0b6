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

int pred_edge_sentence(const history *h, const dep_edge *e, char *buf, size_t n) {
    if (!h->preds || (e->kind != DEP_WR && e->kind != DEP_RW) || e->key == HISTORY_NONE) return 0;
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
    int64_t seen = h->op_value[op];
    if (history_op_ambiguous(h, op)) {            /* a choice (preds_attach_choices): the WR edge names it */
        uint32_t ws = e->kind == DEP_WR && e->from ? history_txn_final_write(h, e->from, e->key) : HISTORY_NONE;
        seen = ws != HISTORY_NONE ? h->op_value[ws] : VALUE_INIT;
    }
    data_str(h, e->key, seen, &seen_present, &seen_data, sb, sizeof sb);
    if (history_op_ambiguous(h, op) && e->kind == DEP_RW) snprintf(sb, sizeof sb, "in a version");
    if (pred_tag_returned(tag)) {             /* a returned pair: an item read, named with its predicate */
        if (e->kind == DEP_WR) {
            snprintf(buf, n, "%s's predicate read of `%s` returned key %s %s, written by %s", rb, pb, kb, sb,
                     txn_str(h, e->from, wb, sizeof wb));
            return 1;
        }
        uint32_t w = history_txn_final_write(h, e->to, e->key);
        if (w == HISTORY_NONE) return 0;
        data_str(h, e->key, h->op_value[w], &new_present, &new_data, nb, sizeof nb);
        snprintf(buf, n, "%s's predicate read of `%s` returned key %s %s, which %s's %s of key %s %s overwrote", rb, pb, kb,
                 sb, txn_str(h, e->to, wb, sizeof wb), new_present ? "write" : "delete", kb, nb);
        return 1;
    }
    if (e->kind == DEP_WR) {
        snprintf(buf, n, "%s's predicate read of `%s` did not return key %s, so it saw %s's version, key %s %s, "
                 "which does not match", rb, pb, kb, txn_str(h, e->from, wb, sizeof wb), kb, sb);
        return 1;
    }
    uint32_t w = history_txn_final_write(h, e->to, e->key);
    if (w == HISTORY_NONE) return 0;
    data_str(h, e->key, h->op_value[w], &new_present, &new_data, nb, sizeof nb);
    txn_str(h, e->to, wb, sizeof wb);
    if (pred_match_version(&rd->p, new_present, new_data))
        snprintf(buf, n, "phantom: %s's predicate read of `%s` missed %s's %s of key %s %s (it saw key %s %s, "
                 "which does not match)", rb, pb, wb, seen_present ? "write" : "insert", kb, nb, kb, sb);
    else
        snprintf(buf, n, "%s's predicate read of `%s` saw key %s %s (no match), which %s's %s overwrote", rb, pb, kb, sb, wb,
                 new_present ? "write" : "delete");
    return 1;
}
