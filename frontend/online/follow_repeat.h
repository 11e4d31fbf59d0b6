/* frontend/online/follow_repeat.h — `check --follow` on a stream whose
 * written values repeat (issue 35; doc/checker.md, "Repeated values while
 * following").
 *
 * Why the incremental path cannot follow them: a read of key k = v that
 * has one writer now gets a second candidate writer when a later
 * transaction writes k = v again, and which one it saw is the solver's
 * choice over the whole history; a violation of the settled part S may
 * not hold once it has.  What holds (the lemma in doc/checker.md): if S
 * fails a level, so does every history H that contains S in which every
 * read of S has the same candidate writers as in S — no transaction of
 * H outside S writes a value a read of S read, and no indeterminate
 * writer of S shares a read's value with another writer.  So:
 *
 * Contract
 *   - follow_recheck: the pacing of the batch re-checks once the stream
 *     showed a repeated value (or a violation is shown and the stream must
 *     be watched for one): a check is due when the bytes read have doubled
 *     since the last one, or when FOLLOW_RECHECK_PAUSE times the last
 *     check's seconds (at least FOLLOW_RECHECK_MIN_WAIT) have passed with
 *     new bytes.  The checks by size cost at most twice one batch check of
 *     the whole input; those by time take at most 1 / (1 + PAUSE) of the
 *     time the stream lasts.  A check due by time runs when it is due
 *     even if no byte arrives then (follow_recheck_wake, follow.h's
 *     wake), so a violation in the last bytes before a pause is printed.
 *   - follow_repeat_doubt(): after a FAIL of S (proof) inside h (the
 *     completed transactions so far): 1 with why set when some read of S
 *     already has a candidate writer outside S or an indeterminate one (the
 *     violation is provisional: the checks that follow may withdraw it),
 *     0 when the lemma holds for h (only a later write can undo it).
 *   - follow_withdrawn_why(): why a shown violation no longer holds: a
 *     read of a transaction it names (named: found.h's history, by
 *     external id) whose value has several writers in h; else a sentence
 *     without a transaction.
 *   - follow_refuse_retire(): --retire keeps refusing repeated values (a
 *     retired writer could be what a later read of the same value saw; its
 *     summary keeps no writes): history_refuse_repeated, with why added.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_FOLLOW_REPEAT_H
#define ISOCHECK_ONLINE_FOLLOW_REPEAT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "frontend/history/history.h"

#define FOLLOW_RECHECK_PAUSE 4.0        /* a re-check by time waits this many times the last one's seconds */
#define FOLLOW_RECHECK_MIN_WAIT 1.0     /* and at least this many seconds */

typedef struct follow_recheck {
    int active;                  /* checks in batch from now on (a repeated value was seen, or a shown violation is watched) */
    int shown;                   /* a violation is shown and not withdrawn */
    int provisional;             /* the shown one is provisional (follow_repeat_doubt) */
    size_t last_bytes;           /* bytes read at the last check */
    double last_end, last_cost;  /* when it ended, and its seconds */
    uint32_t checks;             /* rounds due and run (a parse, and a check if values repeat) */
    uint32_t batch_checks, withdrawn;   /* batch checks of the settled part run; violations withdrawn while following */
} follow_recheck;

/* Whether a re-check is due with bytes read at time now (seconds). */
int follow_recheck_due(const follow_recheck *rc, size_t bytes, double now);
/* When a re-check becomes due by time with bytes read (monotonic seconds),
 * or 0: no bytes since the last one (nothing to wait for). */
double follow_recheck_wake(const follow_recheck *rc, size_t bytes);
/* A re-check of bytes ran from start to end (seconds). */
void follow_recheck_done(follow_recheck *rc, size_t bytes, double start, double end);

int follow_repeat_doubt(const history *h, const history *proof, char *why, size_t n);
void follow_withdrawn_why(const history *named, const history *h, char *why, size_t n);

history *follow_refuse_retire(history *h, ic_error *err);

#endif
