/* cert_view.c — a predicate read's view of a key it did not return, as a
 * certificate's 'view' lines name it (contract in certificate.h;
 * doc/certificate.md, "view").  The history lowers such a view to a read
 * op tagged with the predicate read (predicate.h); where the version is a
 * choice, the op reads a marker no write installed, and the line names the
 * writer whose version the read saw.  This file checks what it can without
 * a version order: the writer is INIT or another transaction writing the
 * key (its last write is the version), and that version does not match
 * the predicate (the read left the key out).  Where the version sits in
 * the order, and the edges it implies, the verifiers check as for any
 * read: it is then a read of that version.  A read of nil whose absent
 * version is a choice (predicate.h, nil_ops) is named by a 'read' line the
 * same way; the version it names must be absent (INIT unborn, or a
 * delete). */
#include "frontend/recheck/certificate.h"

#include <stdlib.h>

#include "frontend/history/predicate.h"

uint32_t cert_view_of(const certificate *c, uint32_t t, uint32_t n, uint32_t k, uint32_t *line) {
    size_t lo = 0, hi = c->views.len / 4;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uint32_t *e = c->views.data + 4 * mid;
        int less = e[0] != t ? e[0] < t : e[1] != n ? e[1] < n : e[2] < k;
        if (less) lo = mid + 1; else hi = mid;
    }
    const uint32_t *e = c->views.data + 4 * lo;
    if (lo < c->views.len / 4 && e[0] == t && e[1] == n && e[2] == k) {
        if (line) *line = c->views_line.len > lo ? c->views_line.data[lo] : 0;
        return e[3];
    }
    if (line) *line = 0;
    return HISTORY_NONE;
}

uint32_t *cert_pred_numbers(const history *h) {
    if (!h->preds || !h->preds->reads.len) return NULL;
    uint32_t *num = xmalloc(h->preds->reads.len * sizeof *num);
    uint32_t *cnt = xcalloc(h->num_txns ? h->num_txns : 1, sizeof *cnt);
    for (size_t r = 0; r < h->preds->reads.len; r++) {
        uint32_t t = h->preds->reads.data[r].txn;
        num[r] = t < h->num_txns ? ++cnt[t] : 0;
    }
    free(cnt);
    return num;
}

/* The writer c's read line names for t's reads of k, *line its line. */
static uint32_t read_line_of(const certificate *c, uint32_t t, uint32_t k, uint32_t *line) {
    size_t lo = 0, hi = c->reads_from.len / 3;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uint32_t *e = c->reads_from.data + 3 * mid;
        if (e[0] < t || (e[0] == t && e[1] < k)) lo = mid + 1; else hi = mid;
    }
    const uint32_t *e = c->reads_from.data + 3 * lo;
    if (lo < c->reads_from.len / 3 && e[0] == t && e[1] == k) {
        *line = c->reads_from_line.len > lo ? c->reads_from_line.data[lo] : 0;
        return e[2];
    }
    return HISTORY_NONE;
}

int cert_view_value(const history *h, const certificate *c, const uint32_t *num, uint32_t op, int64_t *v, uint32_t *w,
                    uint32_t *line, const char **bad) {
    *line = 0;
    uint32_t tag = h->op_pred ? h->op_pred[op] : PRED_TAG_NONE, t = history_op_txn(h, op), k = h->op_key[op], x, r = 0;
    int nil = h->preds && preds_is_nil_choice(h->preds, op);
    if (nil) {                                   /* a read of nil: its 'read' line names an absent version */
        x = c ? read_line_of(c, t, k, line) : HISTORY_NONE;
    } else {
        if (tag == PRED_TAG_NONE || pred_tag_returned(tag) || !h->preds || !num) return CV_NONE;
        r = pred_tag_read(tag);
        if (r >= h->preds->reads.len) return CV_NONE;
        x = c ? cert_view_of(c, t, num[r], k, line) : HISTORY_NONE;
    }
    if (x == HISTORY_NONE) return CV_NOLINE;
    if (x == t) { *bad = "the line names the reader itself (a transaction's own later write is not in its view)"; return CV_BAD; }
    int64_t val = VALUE_INIT;
    if (x != 0) {
        uint32_t last = HISTORY_NONE;
        if (x >= h->num_txns) { *bad = "the line names an unknown transaction"; return CV_BAD; }
        for (uint32_t o = h->txns[x].first_op; o < h->txns[x].first_op + h->txns[x].num_ops; o++)
            if (h->op_key[o] == k && !(h->op_kind[o] & OP_FAILED) && (h->op_kind[o] & OP_KIND_MASK) == OP_WRITE) last = o;
        if (last == HISTORY_NONE) { *bad = "the line names a transaction that does not write the key"; return CV_BAD; }
        val = history_op_value(h, last);
    }
    int64_t data;
    int present = preds_version_data(h->preds, k, val, &data);
    if (nil && present) { *bad = "the read line names a version that is present, yet the read returned nil"; return CV_BAD; }
    if (!nil && present && pred_match(&h->preds->reads.data[r].p, data)) {
        *bad = "the view line names a version that matches the predicate, yet the read did not return the key";
        return CV_BAD;
    }
    *v = val;
    *w = x;
    return CV_OK;
}
