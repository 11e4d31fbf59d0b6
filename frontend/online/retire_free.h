/* frontend/online/retire_free.h — retiring by time past a key that two
 * unordered writes left undecided (doc/checker.md, "Two writes no read
 * orders").
 *
 * Contract
 *   - A key k is freed at a retirement when every transaction of the live
 *     history h that accesses k retires (R), and R's writes of k that no
 *     other retired write is ordered after (the candidates, at most
 *     RETIRE_MAX_CANDS, retire_time_plan) are 2 or more.
 *   - retire_free_admits(): does the checked part S admit an order in which
 *     candidate op's version of k is the last?  Decided by checking S plus
 *     one transaction Z that reads that version and is invoked after every
 *     transaction of S completed (real time puts Z after all of S, so S+Z
 *     passes iff some admissible order of S has that version last): 1 yes,
 *     0 no, -1 no answer (then the key is not freed).
 *   - The stream keeps, per freed key, the values of the admitted
 *     candidates (two or more; one admitted is an ordinary last version).
 *     The first read of one of them, by line, among the transactions still
 *     live or to come (retire_free_collapse, after each feed and each
 *     retirement) makes that value the key's last retired version (the
 *     summary's); the others are then stale, like any older retired value
 *     (a thin-air read in the live history).  A later retirement that
 *     writes the key ends its candidates (retire_free_drop).
 *   - Memory: per freed key still undecided, one slot (the key and up to
 *     RETIRE_MAX_CANDS values), reused when the key is freed again.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_RETIRE_FREE_H
#define ISOCHECK_ONLINE_RETIRE_FREE_H

#include <stdint.h>

#include "frontend/history/history.h"
#include "frontend/online/retire.h"
#include "frontend/online/retire_time.h"

int retire_free_admits(const history *h, const uint8_t *settled, int level, uint32_t op);

/* Record key's admitted candidate values (n >= 2, n <= RETIRE_MAX_CANDS). */
void retire_free_record(retire_stream *rs, int64_t key, const int64_t *values, uint32_t n);
/* key's candidates end (a later retired version of it). */
void retire_free_drop(retire_stream *rs, int64_t key);
/* Is value one of key's undecided candidates? */
int retire_free_has(const retire_stream *rs, int64_t key, int64_t value);
/* Decide the keys whose candidates a live read of rs->ops[from..] names:
 * the read with the least line wins. */
void retire_free_collapse(retire_stream *rs, size_t from);

#endif
