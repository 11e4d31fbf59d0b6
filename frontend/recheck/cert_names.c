/* cert_names.c — transactions and values as the certificate verifier's
 * messages show them (cert_internal.h); a predicate read's lowered op of a
 * key it left out shows as that read's view. */
#include "frontend/recheck/cert_internal.h"

#include <inttypes.h>
#include <stdio.h>

#include "frontend/history/predicate.h"

const char *cert_txn_name(const history *h, uint32_t t, char *buf, size_t n) {
    if (t == 0) snprintf(buf, n, "INIT");
    else snprintf(buf, n, "txn %" PRId64, h->txns[t].ext_id);
    return buf;
}

const char *cert_value_str(const history *h, uint32_t op, char *buf, size_t n) {
    if (op == HISTORY_NONE) { snprintf(buf, n, "init"); return buf; }
    if ((h->op_kind[op] & OP_KIND_MASK) == OP_LIST_READ) {
        uint32_t len;
        const int64_t *l = history_list(h, op, &len);
        size_t at = (size_t)snprintf(buf, n, "[");
        for (uint32_t i = 0; i < len && at + 24 < n; i++) at += (size_t)snprintf(buf + at, n - at, i ? " %" PRId64 : "%" PRId64, l[i]);
        snprintf(buf + at, n - at, at + 24 >= n && len ? " ...]" : "]");
        return buf;
    }
    uint32_t tag = h->op_pred ? h->op_pred[op] : PRED_TAG_NONE;
    if (tag != PRED_TAG_NONE && !pred_tag_returned(tag) && h->preds && pred_tag_read(tag) < h->preds->reads.len) {
        char pb[128];                         /* a predicate read's view of a key it left out: no value of its own */
        snprintf(buf, n, "(the version its predicate read of `%s` saw)",
                 pred_read_str(&h->preds->reads.data[pred_tag_read(tag)], "value", pb, sizeof pb));
        return buf;
    }
    if (h->preds && preds_is_nil_choice(h->preds, op)) { snprintf(buf, n, "nil"); return buf; }   /* an absent version */
    if (history_op_value(h, op) == VALUE_INIT) snprintf(buf, n, "init");
    else snprintf(buf, n, "%" PRId64, history_op_value(h, op));
    return buf;
}
