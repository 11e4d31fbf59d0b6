/* write_pred.c — the predicate reads of a history, laid out for the
 * writers (contract in write_pred.h). */
#include "frontend/formats/write_pred.h"

#include <stdlib.h>

#include "vec.h"
#include "frontend/history/predicate.h"

static void csr(uint32_t n, uint32_t m, const uint32_t *owner, uint32_t **start, uint32_t **items) {
    *start = xcalloc((size_t)n + 2, sizeof **start);
    *items = xmalloc(((size_t)m + 1) * sizeof **items);
    for (uint32_t i = 0; i < m; i++) if (owner[i] < n) (*start)[owner[i] + 1]++;
    for (uint32_t i = 0; i < n; i++) (*start)[i + 1] += (*start)[i];
    uint32_t *cur = xmalloc(((size_t)n + 1) * sizeof *cur);
    for (uint32_t i = 0; i <= n; i++) cur[i] = (*start)[i];
    for (uint32_t i = 0; i < m; i++) if (owner[i] < n) (*items)[cur[owner[i]]++] = i;
    free(cur);
}

int pred_plan_build(const history *h, const char *format, pred_plan *pp, ic_error *err) {
    const history_preds *P = h->preds;
    uint32_t nr = (uint32_t)P->reads.len;
    for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++)
        if (history_op_failed(h, op) && history_op_pred(h, op) == PRED_TAG_NONE) {
            char wb[600];
            ic_error_at(err, h->source, 0, "cannot write a failed operation (%s) in %s format",
                        history_op_where(h, op, wb, sizeof wb), format);
            return 0;
        }
    uint32_t *owner = xmalloc(((size_t)nr + h->num_ops + 1) * sizeof *owner);
    for (uint32_t r = 0; r < nr; r++) owner[r] = P->reads.data[r].txn;
    csr(h->num_txns, nr, owner, &pp->txn_start, &pp->txn_reads);
    for (uint32_t op = 0; op < h->num_ops; op++) {
        uint32_t tag = history_op_pred(h, op);
        owner[op] = tag != PRED_TAG_NONE && pred_tag_returned(tag) ? pred_tag_read(tag) : UINT32_MAX;
    }
    csr(nr, h->num_ops, owner, &pp->ret_start, &pp->ret_ops);
    free(owner);
    pp->done = xcalloc((size_t)nr + 1, 1);
    return 1;
}

uint32_t pred_plan_due(const history *h, const pred_plan *pp, uint32_t t, uint32_t i) {
    for (uint32_t j = pp->txn_start[t]; j < pp->txn_start[t + 1]; j++) {
        uint32_t r = pp->txn_reads[j], pos = h->preds->reads.data[r].pos;
        if (!pp->done[r] && pos != PRED_POS_NONE && pos <= i) return r;
    }
    return UINT32_MAX;
}

void pred_plan_free(pred_plan *pp) {
    free(pp->txn_start); free(pp->txn_reads); free(pp->ret_start); free(pp->ret_ops); free(pp->done);
}
