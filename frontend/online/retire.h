/* frontend/online/retire.h — unbounded streams in bounded memory: retiring settled
 * transactions that no later transaction can be ordered before, with
 * fence transactions (`isocheck check --follow --retire`).
 *
 * Contract (the argument: doc/checker.md, "Retiring transactions")
 *   - A fence is a committed transaction that reads the reserved key
 *     RETIRE_FENCE_KEY before writing it.  The fences that follow one
 *     another by WR on that key from INIT's version (one reader per
 *     version; a fork ends the chain) form the chain; chain positions are
 *     absolute over the whole stream (the summary's version has position
 *     fence_base).
 *   - The plan (retire.c) takes a live history h, its settled
 *     transactions (online_settled) and what the retired past left
 *     (positions of each session's latest retired fence), and returns the
 *     set R left by starting from R1's session prefixes and removing what
 *     breaks R2-R4 (with its session suffix) until nothing does:
 *       R1 frozen: each T in R is, in its session, at or before a chain
 *          fence whose position is <= q, the least over every known
 *          session of that session's latest chain fence: every later
 *          transaction of any known session is reachable from T by
 *          SO/WR edges;
 *       R0 R is settled, committed, and closed under session order;
 *       R2 every read of a T in R was written by R or INIT;
 *       R3 per key, one retired version w is ordered after every other
 *          retired version and before every live one;
 *       R4 every live read of a version written by R or INIT reads w's.
 *     "a reaches b": a path of SO/WR edges in h (vector clocks, exact);
 *     "a's version is ordered before b's": a reaches b, or a reaches a
 *     transaction that read b's version.  R1 uses the chain (it speaks of
 *     transactions not seen yet).  Histories with list operations retire
 *     nothing.
 *   - A retire_stream keeps the live part of a text history (PolySI
 *     format) fed in chunks of complete lines, and the summary of the
 *     retired past: per key the value of its last retired version (the
 *     live history's INIT version), per session its latest fence.  Reads
 *     of a summary value become reads of INIT; a read of the initial
 *     value 0 of a key whose initial version was overwritten by a retired
 *     writer, or of any retired value that is not the last, finds no
 *     writer: it never settles, and the final check reports it as a
 *     thin-air read (a stale read in the whole history).
 *   - retire_stream_check() checks the completed live transactions
 *     (online_check's contract: a reported violation is final) and, when
 *     they pass, retires what the plan allows.
 *   - A session first seen after a retirement is bad input (err set):
 *     its transactions need not follow the retired ones.  So is a line of
 *     a transaction whose id was retired (its operations, or a #@time line:
 *     batch calls that a transaction given twice); the ids retired are
 *     kept as runs of consecutive ids (retire_ids.h).
 *   - Retiring by time (retire_stream_by_time; the rule and the input it
 *     needs: retire_time.h) replaces the fences and R1 with the real-time
 *     rule; the stream then reads each transaction's #@time line itself,
 *     keeps its invoke/complete times and gives them to the live history.  A key that two unordered retired writes
 *     left undecided may retire with its candidates for the last version
 *     (retire_free.h), several such keys at one retirement when their
 *     candidates are admitted jointly; the summary then keeps their values
 *     until a read decides.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_RETIRE_H
#define ISOCHECK_ONLINE_RETIRE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "vec.h"
#include "frontend/history/history.h"
#include "frontend/history/u64map.h"
#include "frontend/online/checker.h"
#include "frontend/online/retire_ids.h"

/* The reserved key of fence transactions (isocheck gen --fence-every). */
#define RETIRE_FENCE_KEY 1000000000000000000LL
/* What a read of the overwritten initial value becomes: a value nobody writes. */
#define RETIRE_STALE_INIT (-1)

typedef struct retire_op { int64_t key, value; uint32_t line, txn; uint8_t kind; } retire_op;
typedef struct retire_txn {
    int64_t ext_id;
    uint32_t session;
    uint32_t line;               /* its first line */
    uint32_t last_line;          /* its last operation's line */
    int64_t invoke, complete;    /* real times (retiring by time), HISTORY_TIME_NONE until its #@time line */
} retire_txn;
typedef struct retire_session {
    int64_t ext_id;
    int64_t latest_fence;        /* chain position, -1 none */
    int64_t latest_complete;     /* retiring by time: complete time of its latest timed transaction, else NONE */
    uint32_t last_txn;           /* live index of its last transaction (not complete), or HISTORY_NONE */
    uint32_t live;               /* live transactions */
} retire_session;

/* A freed key's undecided last version (retire_free.h). */
typedef struct retire_cands { int64_t key; int64_t value[4]; uint32_t n; } retire_cands;

typedef struct retire_stream {
    char *name;
    online_checker oc;
    VEC(retire_txn) txns;        /* live transactions, in arrival order */
    VEC(retire_op) ops;          /* their operations, in arrival order */
    u64map txn_index;            /* ext txn id -> live index */
    VEC(retire_session) sessions;
    u64map session_index;        /* ext session id -> index */
    u64map summary_index;        /* ext key -> index into summary */
    vec_i64 summary;             /* the value of each key's last retired version */
    int64_t fence_base;
    int time_level;              /* LEVEL_SSER or LEVEL_STRONG_SI: retire by time (retire_time.h); else LEVEL_COUNT */
    int64_t time_frontier;       /* retiring by time: the latest completion of a retired transaction (NONE: none) */
    int64_t max_lag;             /* retiring by time: --max-lag T (retire_time.h), or -1 */
    int64_t time_seen;           /* retiring by time: the latest complete= of the #@time lines fed (NONE: none) */
    retire_ids retired_ids;      /* every retired transaction's id: one that comes back is refused */
    VEC(retire_cands) cands;     /* retiring by time: freed keys (retire_free.h); n 0: decided */
    u64map cand_index;           /* ext key -> its slot in cands */
    uint32_t undecided;          /* slots with n > 0 */
    uint64_t free_refused;       /* the keys and candidates last refused together (retire.c free_stalled), 0 none */
    long lines;                  /* lines fed so far */
    uint32_t fresh;              /* transactions completed since the last check */
    /* counters */
    uint64_t retired, retirements, checks;
    uint64_t freed_keys, freed_together;   /* retiring by time: keys freed undecided or by one admitted candidate;
                                            * of them, those freed with another at the same retirement */
    uint32_t peak_live;
} retire_stream;

void retire_stream_init(retire_stream *rs, const char *name, int want_si, int want_ser, size_t max_anomalies);
/* Retire by time at level (LEVEL_SSER or LEVEL_STRONG_SI) instead of
 * behind fences: call right after retire_stream_init (retire_time.h);
 * max_lag >= 0: the input promises --max-lag max_lag (retire_time.h), -1
 * no such promise. */
void retire_stream_by_time(retire_stream *rs, int level, int64_t max_lag);
void retire_stream_free(retire_stream *rs);
/* Feed text that ends at a line end (or, at_end, anywhere).  0 with err
 * set on bad input (naming the file line). */
int retire_stream_feed(retire_stream *rs, const char *text, size_t n, int at_end, ic_error *err);
/* Live transactions, and how many of them are complete. */
uint32_t retire_stream_live(const retire_stream *rs);
uint32_t retire_stream_completed(const retire_stream *rs);
/* Check the completed live transactions, then retire (see above).
 * Returns an online_outcome. */
int retire_stream_check(retire_stream *rs);
/* The live history (at_end: every transaction complete), the retired past
 * summarized as INIT; NULL when it holds no transaction (err unset) or on
 * error (err set). */
history *retire_stream_history(const retire_stream *rs, int at_end, ic_error *err);

/* The readers of each write op's version among other transactions, CSR:
 * op's readers are (*readers)[(*start)[op] .. (*start)[op + 1]); both are
 * the caller's to free (the fence plan's and the time plan's R3/R4). */
void retire_readers_of(const history *h, uint32_t **start, uint32_t **readers);

#endif
