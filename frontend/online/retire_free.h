/* frontend/online/retire_free.h — retiring by time past a key that two
 * unordered writes left undecided (doc/checker.md, "Two writes no read
 * orders").
 *
 * Contract
 *   - A key k is freed at a retirement when every transaction of the live
 *     history h that accesses k retires (R), and R's writes of k that no
 *     other retired write is ordered after (the candidates, at most
 *     RETIRE_MAX_CANDS, retire_time_plan) are 2 or more.  Up to
 *     RETIRE_MAX_FREE keys are freed at one retirement (retire.c).
 *   - retire_free_admits(): does the checked part S admit one order in
 *     which, for every op of ops[0, n) (writes of distinct keys), op's
 *     version of its key is the last?  Decided by checking S plus one
 *     transaction Z that reads those versions and is invoked after every
 *     transaction of S completed (real time puts Z after all of S, so S+Z
 *     passes iff some admissible order of S has each of them last): 1 yes,
 *     0 no, -1 no answer (then nothing is freed).  Keys freed together are
 *     decided by later reads independently, so every combination of their
 *     admitted candidates, one per key, must pass together (retire.c checks
 *     each, and frees fewer keys when one fails or they are too many).
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

int retire_free_admits(const history *h, const uint8_t *settled, int level, const uint32_t *ops, uint32_t n);

/* The checks retire_free_admit may make at one retirement. */
#define RETIRE_MAX_CHECKS 64
/* A freed key's admitted candidates (ops of h). */
typedef struct retire_admitted { uint32_t n, op[RETIRE_MAX_CANDS]; } retire_admitted;
/* The keys of g freed together (every one with g->n[i] in 2..
 * RETIRE_MAX_CANDS, or 0: not freed, skipped): a key's candidate is
 * admitted when S admits it alone (retire_free_admits), as for one key;
 * with two keys or more every combination of the admitted candidates, one
 * per key, must pass too, else none is freed together (a candidate S
 * admits alone is never dropped for a combination: a later read of it
 * alone would be a false FAIL).  1: each freed key has one admitted at
 * least (adm[i]) and every combination passed; 0: not (a key with none, a
 * combination refused, a check with no answer, or more than
 * RETIRE_MAX_CHECKS checks needed). */
int retire_free_admit(const history *h, const uint8_t *settled, int level, const retire_time_free *g,
                      retire_admitted *adm);

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
