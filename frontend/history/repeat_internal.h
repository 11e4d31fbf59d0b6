/* repeat_internal.h — what history.c and repeat.c share about repeated
 * values (issue 35).  Nothing else includes it.
 *   history_index_writers  (history.c) key_writes, the writer table and
 *                          OP_OVERWRITTEN; flags repeated register values
 *                          OP_REPEATED, then calls history_index_repeats.
 *   history_index_repeats  (repeat.c) rep_ops: the OP_REPEATED writes
 *                          sorted by (key, value, op); 1. */
#ifndef ISOCHECK_REPEAT_INTERNAL_H
#define ISOCHECK_REPEAT_INTERNAL_H

#include "frontend/history/history.h"

int history_index_writers(history *h, ic_error *err);
int history_index_repeats(history *h);

#endif
