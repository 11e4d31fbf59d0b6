/* write_pred.h — what the writers that keep predicate reads (text, elle)
 * share: the predicate reads of a history (history.preds) grouped by
 * transaction, and the ops each returned (the lowered reads tagged
 * "returned", frontend/history/predicate.h).  A writer writes each read
 * once, where its first lowered op is, or at the end of its transaction
 * when it has none, and skips every lowered op: the reads a predicate read
 * implies are derived again when the file is read back. */
#ifndef ISOCHECK_WRITE_PRED_H
#define ISOCHECK_WRITE_PRED_H

#include <stdint.h>

#include "error.h"
#include "frontend/history/history.h"

typedef struct pred_plan {
    uint32_t *txn_start, *txn_reads;    /* reads of txn t: txn_reads[txn_start[t] .. txn_start[t+1]) */
    uint32_t *ret_start, *ret_ops;      /* returned ops of read r, in op order */
    uint8_t *done;                      /* read written */
} pred_plan;

/* The plan for h (h->preds set); 0 with err when an op failed that no
 * predicate read placed (only the readers' placeholders may be failed). */
int pred_plan_build(const history *h, const char *format, pred_plan *pp, ic_error *err);
void pred_plan_free(pred_plan *pp);
/* A predicate read of transaction t not written yet that stands at or
 * before its i-th op (pred_read.pos: written there, before the op), or
 * UINT32_MAX. */
uint32_t pred_plan_due(const history *h, const pred_plan *pp, uint32_t t, uint32_t i);

#endif
