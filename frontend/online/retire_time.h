/* frontend/online/retire_time.h — retiring by real time, without fences
 * (`isocheck check --follow --retire --level sser|strong-si` on a text
 * stream whose transactions carry #@time invoke= complete= lines).
 *
 * Contract (the rule and why it keeps every verdict: doc/checker.md,
 * "Retiring by time")
 *   - What the input must guarantee, checked as it arrives (refused with
 *     file:line, err set, otherwise):
 *       T1 every transaction's #@time line gives invoke= and complete=, and
 *          comes after the transaction's first operation and before its
 *          session's next transaction begins (or the end of input);
 *       T2 a session runs one transaction at a time: a transaction is
 *          invoked no earlier than its session's previous one completed;
 *       T3 (implied by T2 for the sessions seen before) a transaction is
 *          invoked after every retired transaction completed.
 *   - The watermark W: the least, over every session seen, of the invoke
 *     time of its current (last) transaction when that has its times, else
 *     the complete time of its latest timed transaction (a session with
 *     none: nothing retires).  By T2, every transaction not yet complete
 *     or not yet seen is invoked at or after W.
 *   - --max-lag T (retire_stream_by_time's max_lag >= 0), a promise of the
 *     input, checked as the #@time lines arrive:
 *       T4 a transaction's #@time line comes before every #@time line whose
 *          complete= is later than its invoke= + T, and is its last line
 *          (an operation after it is refused).
 *     Then a transaction is complete at its #@time line (a session that
 *     stops does not hold its last one), and W = M - T, M the latest
 *     complete= of the #@time lines fed so far: every transaction whose
 *     #@time line has not come (open, or not seen yet, in any session) is
 *     invoked at or after M - T by T4.
 *   - The plan: R = the completed live transactions that completed
 *     strictly before a cut tau <= W, tau lowered (to the completion of the
 *     offender, which removes it and every later one) until R is settled,
 *     committed, timed, closed under session order (R0), reads only from R
 *     or INIT (R2), and per key has one version w_k ordered after every
 *     other retired version and before every live one (R3) that every
 *     live read of a retired or initial version reads (R4).  "a's version
 *     is ordered before b's" uses only edges every admissible order keeps
 *     at both levels: a RT b, a SO b, a WR b, or a has such an edge into a
 *     reader of b's version.  Every T in R is then RT-before every
 *     transaction not in R that is not yet complete or not yet seen, and
 *     no live transaction is RT-before one in R (the cut).
 *   - retire_time_check_settled() checks the settled part of the live
 *     history at the level (a FAIL is final, as online_check's); the plan
 *     is made only after a PASS of the same settled part (never after an
 *     UNKNOWN, and not when nothing is settled).
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_RETIRE_TIME_H
#define ISOCHECK_ONLINE_RETIRE_TIME_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/online/checker.h"
#include "frontend/online/retire.h"

/* One #@time line of a chunk (line: absolute, in the file). */
typedef struct retire_time_note {
    int64_t txn, invoke, complete;
    int64_t seen;                /* the latest complete= of the #@time lines before this one (NONE: none) */
    long line;
    uint8_t used;
} retire_time_note;
typedef VEC(retire_time_note) retire_time_notes;

/* A copy of the chunk text[0..n) with every #@time line made a plain
 * comment (the chunk loader must not see it: its transaction may lie in
 * another chunk), and those lines, lexed, into notes (line numbers after
 * base_line).  NULL with err set on a malformed one or one without
 * invoke= and complete=.  notes NULL (retiring behind fences, which uses
 * no times): the lines are only checked for their syntax and dropped. */
char *retire_time_strip(const char *name, const char *text, size_t n, long base_line, retire_time_notes *notes,
                        ic_error *err);

/* The chunk's notes' `seen`, and rs->time_seen past the chunk. */
void retire_time_seen(retire_stream *rs, retire_time_notes *notes);

/* Transaction t (live index) completes in its session at line `at` (its
 * session's next transaction begins there; at_end: the input ended): it
 * takes its times from notes (a line before `at`) if it has none yet; 0
 * with err set when it has none (T1). */
int retire_time_complete(retire_stream *rs, uint32_t t, long at, retire_time_notes *notes, ic_error *err);

/* After a chunk: its notes not taken yet go to their transactions, which
 * must be live, their session's current one, and begin before the note
 * (T1); T2 and T3 are checked for every note taken.  0 with err set. */
int retire_time_rest(retire_stream *rs, retire_time_notes *notes, ic_error *err);

/* W (above; with --max-lag T: M - T, M the latest time seen);
 * HISTORY_TIME_NONE when nothing may retire. */
int64_t retire_time_watermark(const retire_stream *rs);

/* Check the settled transactions of h at rs->time_level into rs->oc (a
 * FAIL: oc->failed, oc->proof, oc->rep; on_detect first).  Returns an
 * online_outcome, ONLINE_NO_VIOLATION only when the settled part passes
 * (now, or unchanged since the last check, which passed: oc->settled is
 * its size); *settled gets online_settled(h). */
int retire_time_check_settled(retire_stream *rs, const history *h, uint8_t **settled);

/* Undecided keys (doc/checker.md, "Two writes no read orders"): up to
 * RETIRE_MAX_FREE keys freed at one retirement, each with up to
 * RETIRE_MAX_CANDS candidates for its last version. */
#define RETIRE_MAX_CANDS 4
#define RETIRE_MAX_FREE 8
typedef struct retire_time_free {
    uint32_t nkeys;              /* in: keys[0, nkeys) may have their retired writers unordered when every
                                  * transaction of h that accesses the key retires */
    uint32_t key[RETIRE_MAX_FREE];
    uint32_t stall;              /* out: the key of the last two unordered retired writers that lowered
                                  * the cut, else HISTORY_NONE */
    uint32_t n[RETIRE_MAX_FREE]; /* out, per key given: 0 not freed (an accessor stays live, or no retired
                                  * writer), else the retired writes of the key that no other retired write
                                  * is ordered after (n > RETIRE_MAX_CANDS: too many, not listed) */
    uint32_t cand[RETIRE_MAX_FREE][RETIRE_MAX_CANDS];
} retire_time_free;

/* The plan (above) on h at level with watermark w: retire[t] set for each
 * transaction of R, last_write[k] the op of w_k (HISTORY_NONE: R writes
 * no k); returns |R|.  f (may be NULL): R3 does not hold a key of f->key's
 * retired writers to one order when every transaction of h that accesses
 * it is in R (then f->n, f->cand: its candidates for the last version;
 * last_write[key] one of them). */
uint32_t retire_time_plan(const history *h, const uint8_t *settled, int level, int64_t w, uint8_t *retire,
                          uint32_t *last_write, retire_time_free *f);

#endif
