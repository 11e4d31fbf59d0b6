/* repeat_internal.h — what history.c and repeat.c share about repeated
 * values (issue 35).  Nothing else includes it.
 *   history_index_writers  (history.c) key_writes, the writer table and
 *                          OP_OVERWRITTEN; flags repeated register values
 *                          OP_REPEATED, then calls history_index_repeats.
 *   history_index_repeats  (repeat.c) rep_ops: the OP_REPEATED writes
 *                          sorted by (key, value, op); 1.
 *   history_dup            (repeat.c) a copy of a history's arrays without its
 *                          writer index, repeats or resolved form (list_repeat.c
 *                          writes a choice of appends into one).
 *   history_add_name       (repeat.c) a new named value of a copy, shown as text;
 *                          *cap is the copy's strings capacity (start: strings_len).
 *   history_scatter_values (values.c) the builder's values into their form.
 *   history_values_widen   (values.c) the values as op_val64 (history_dup's
 *                          copies are wide: their users write op_val64, then
 *                          history_pack_values). */
#ifndef ISOCHECK_REPEAT_INTERNAL_H
#define ISOCHECK_REPEAT_INTERNAL_H

#include "frontend/history/history.h"

int history_index_writers(history *h, ic_error *err);
int history_index_repeats(history *h);
history *history_dup(const history *h);
int64_t history_add_name(history *c, size_t *cap, const char *text);
void history_values_widen(history *h);
/* (hb_finish.c) where the builder's n ops go: op i to dest[i] when dest is
 * set; else run by run, builder ops [run[j].src, run[j].src + run[j].len)
 * to [run[j].dst, ...) for j < nruns (hb_internal.h). */
typedef struct history_run { uint32_t src, dst, len; } history_run;
typedef struct history_dest { const uint32_t *dest; const history_run *run; size_t n, nruns; } history_dest;
#define HISTORY_DEST_EACH(d, i, o, body) do { \
        if ((d)->dest) { for (size_t i = 0; i < (d)->n; i++) { size_t o = (d)->dest[i]; body } } \
        else for (size_t j_ = 0; j_ < (d)->nruns; j_++) \
            for (size_t i = (d)->run[j_].src, o = (d)->run[j_].dst; i < (size_t)(d)->run[j_].src + (d)->run[j_].len; i++, o++) { body } \
    } while (0)
/* (values.c) hb_finish's values: vals[i] is builder op i's, placed by d;
 * the form as history_pack_values would choose it, INIT's ops left unset. */
void history_scatter_values(history *h, const int64_t *vals, const history_dest *d);
/* (history.c) an op's transaction (op_txn_base and op_txn_delta, or
 * op_txn_full) from txns[] (first_op, num_ops). */
void history_txn_index(history *h);

#endif
