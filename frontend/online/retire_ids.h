/* frontend/online/retire_ids.h — the ids of retired transactions, as a set
 * of maximal runs of consecutive ids (`--retire`: a retired transaction id
 * that comes back in the stream is refused, as batch refuses a
 * transaction given twice).
 *
 * Contract
 *   - retire_ids_add() adds a batch of ids (any order, duplicates allowed;
 *     the array is sorted in place): one merge of the sorted batch with the
 *     runs, O(runs + n log n).
 *   - retire_ids_has(): binary search, O(log runs).
 *   - Memory: 16 bytes per maximal run of consecutive retired ids.  Ids
 *     numbered densely (as `isocheck gen` and most recorders number them:
 *     one counter) leave about one run per live transaction still holding
 *     a gap, so the set stays near the live part's size however long the
 *     stream is; ids that are never used (holes in the numbering) leave
 *     one run each for good (doc/checker.md, "Retiring transactions").
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_RETIRE_IDS_H
#define ISOCHECK_ONLINE_RETIRE_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"

typedef struct retire_run { int64_t lo, hi; } retire_run;      /* ids lo..hi, both in */
typedef struct retire_ids { VEC(retire_run) runs; } retire_ids;  /* sorted, disjoint, not adjacent */

void retire_ids_init(retire_ids *s);
void retire_ids_free(retire_ids *s);
void retire_ids_add(retire_ids *s, int64_t *ids, size_t n);
int retire_ids_has(const retire_ids *s, int64_t id);
static inline size_t retire_ids_runs(const retire_ids *s) { return s->runs.len; }

#endif
