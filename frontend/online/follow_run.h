/* follow_run.h — following one input to its end (`check --follow`): read
 * what arrived (follow.h), parse what completed, check the settled part
 * (checker.h; with retiring, retire.h), and at the end free the checker's
 * state and load every byte (or the live part) for the final check.
 *
 * Contract
 *   - Nothing here prints: what a user sees goes through the events, in
 *     this order per check: detected (a violation is proven, before the
 *     batch check that explains it), then violation (explained: oc->rep)
 *     or unconfirmed (proven by the incremental path, not confirmed by the
 *     batch check: an internal error, oc->unknown_msg); progress after each
 *     check; note for what stderr should say; then, once the input ended,
 *     stats (how the checks were made; not when retiring), and, unless
 *     the run ends in an error, ended before the final load (the counts
 *     of the END line).  Any event may be NULL.
 *   - The final verdict is not decided here: *h is the history of the
 *     final check — every byte read, loaded by the batch loader from where
 *     it waited (or, retiring, the live part as text) — and, for a text
 *     input the incremental path followed to its end and that passes,
 *     c->final holds the models' version orders (final.h decides).
 *   - Repeated values (follow_repeat.h): once the completed transactions
 *     show a value written twice, the incremental path is left and the
 *     settled part is checked in batch as the input doubles (or as time
 *     allows); a violation found there is reported with oc->provisional
 *     and oc->qualifier set, and withdrawn (the withdrawn event) when a
 *     later check of the settled part passes.  A violation of the
 *     incremental path (no repeated value so far) is reported with its
 *     qualifier ("holds unless a later write repeats a value it read");
 *     the input is then watched (parsed as it doubles) for such a write,
 *     which starts the batch re-checks.  c->final->shown says whether a
 *     violation is shown and not withdrawn at the end (the caller words a
 *     withdrawal the final check makes).
 *   - One input, one answer: a text transaction that grows after it was
 *     judged complete stops the checks (a note), so the final check
 *     decides whatever the chunks (follow.h); a followed file that does
 *     not only grow is an error.
 *   - The input ends when follow.h says so (EOF of a pipe, the end line of
 *     a file, the closing of an Elle vector/array, an idle limit when one
 *     is set), or when c->stop says stop (a signal: the program's flag),
 *     asked between reads, polls and checks: then the stopped event gets
 *     what is known, and no final check runs.
 *   - With lopt->threads >= 2 (not retiring) a reader thread reads and
 *     parses while the checks run, from the first parse that completes a
 *     transaction until the input ends or a check needs the input itself
 *     (frontend/online/follow_pipe.h); the answers are those of one thread,
 *     and every event is still called on the caller's thread.
 *   - Returns -1 with *h (NULL with lerr set when the final load fails),
 *     2 with err set (bad input, a refused format, a file that changed):
 *     the caller prints it, or FOLLOW_RUN_STOPPED. */
#ifndef ISOCHECK_ONLINE_FOLLOW_RUN_H
#define ISOCHECK_ONLINE_FOLLOW_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/load_report.h"
#include "frontend/formats/parse.h"
#include "frontend/online/checker.h"
#include "frontend/online/final.h"

typedef struct follow_config {
    double idle;                 /* a regular file ends after this many seconds without new bytes */
    const char *tmp_dir;         /* where a pipe's bytes wait (NULL: /tmp) */
    int want_si, want_ser;
    size_t max_anomalies;
    history_format fmt;          /* FORMAT_AUTO: detect */
    int retire;                  /* keep only the live part (text; retire.h) */
    follow_final *final;         /* non-NULL: the final verdict may come from the incremental state */
    int (*stop)(void *ctx);      /* asked between reads and checks: nonzero ends the run (a signal); NULL: never */
    void *stop_ctx;
    int retire_level;            /* with retire, a real-time level (LEVEL_SSER, LEVEL_STRONG_SI): retire by time
                                  * at it (retire_time.h), no fences; else -1 (or 0) */
    int has_max_lag;             /* retiring by time: the input promises --max-lag max_lag (retire_time.h) */
    int64_t max_lag;
} follow_config;

/* follow_run's answer when c->stop said stop (the stopped event has run). */
#define FOLLOW_RUN_STOPPED 3

/* After a check: what was read so far and the check's lag (seconds from
 * the bytes' arrival to its end). */
typedef struct follow_progress {
    int retiring;                /* retired and live are meant; else completed */
    uint64_t read, completed, retired;
    uint32_t checked, live;
    int failed;                  /* a violation was found */
    double lag;
} follow_progress;

/* At the end, before the final load. */
typedef struct follow_summary {
    int retiring;
    size_t bytes;                /* bytes read */
    uint64_t completed;          /* stopped: transactions completed (retiring: in all) */
    uint32_t checked;            /* stopped: of which checked (settled) */
    uint64_t txns, retired;      /* retiring: transactions read and retired */
    uint32_t peak_live;
    int from_incr;               /* c->final is ready: the incremental model will be re-checked */
    /* how the checks were made (not retiring) */
    uint32_t checks, incr_checks, scratch_checks;
    const char *fallback_why;    /* why the incremental path was left ("" if it was not) */
    uint32_t rechecks, withdrawn;   /* repeated values: batch re-checks of the settled part, violations withdrawn */
    const incr_stats *incr;      /* its counts, NULL without one */
    double t_parse, t_check, t_check_max;   /* CPU seconds */
    unsigned long slow_checks;   /* checks over FOLLOW_SLOW_CHECK */
    int reader_thread;           /* a reader thread parsed while the checks ran (follow_pipe.h) */
    uint32_t reader_batches;     /* the batches it handed to the checks */
    uint64_t reader_questions;   /* its questions to the checker about a value written twice */
    size_t spilled;              /* of the bytes read, out of memory */
    const char *spilled_where;   /* "none", "read again from the file", "in a temporary file" */
} follow_summary;

/* Checks longer than this (CPU seconds) are counted: a violation whose
 * batch arrives while one runs is reported only after it. */
#define FOLLOW_SLOW_CHECK 0.05

typedef struct follow_events {
    void *ctx;
    void (*detected)(void *ctx, const online_checker *oc, uint64_t read, uint64_t completed);
    void (*violation)(void *ctx, const online_checker *oc, uint64_t read, uint64_t completed);
    void (*unconfirmed)(void *ctx, const online_checker *oc);
    void (*progress)(void *ctx, const follow_progress *p);
    void (*note)(void *ctx, const char *msg);
    void (*stats)(void *ctx, const follow_summary *s);
    void (*ended)(void *ctx, const follow_summary *s);
    /* c->stop said stop: what is known (oc->failed: the violation reported,
     * oc->rep), with the counts (txns: read); nothing else follows. */
    void (*stopped)(void *ctx, const online_checker *oc, const follow_summary *s);
    /* Repeated values (follow_repeat.h): a violation reported before does
     * not hold on the part checked now (why: a read that may have seen
     * another write of its value); checked: the transactions checked. */
    void (*withdrawn)(void *ctx, const char *why, uint64_t read, uint64_t completed, uint32_t checked);
} follow_events;

int follow_run(const char *path, const follow_config *c, const follow_events *ev, const load_options *lopt,
               load_report *lrep, history **h, ic_error *err, ic_error *lerr);

#endif
