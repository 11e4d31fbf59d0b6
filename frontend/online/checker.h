/* frontend/online/checker.h — checking a history that is still growing, and reporting
 * a violation only once no later transaction can take it back.
 *
 * Contract
 *   - The caller hands online_check() the history of the transactions that
 *     have *completed* so far (committed, aborted or indeterminate: their
 *     operations are all known), each time more have completed.
 *   - A completed transaction is *settled* when every value it read (every
 *     element of a list read) has a writer that is itself completed and
 *     settled (or is INIT, or the transaction itself).  The others wait: a
 *     read whose writer has not been seen may still be satisfied by a
 *     transaction that completes later, so judging it now could give a
 *     false thin-air read.
 *   - The settled transactions form a sub-history S with no dangling read.
 *     If S fails a level (an axiom, or a cycle in every version order),
 *     every history that contains S and gives its reads no other candidate
 *     writer fails it too (doc/checker.md, "Online checking", "Repeated
 *     values while following"): with unique values the violation is final;
 *     a later write of a value S read can undo it (the caller qualifies
 *     what it prints: provisional, qualifier; follow_repeat.h).  It is
 *     reported once, with a report of S (the same named, minimal anomalies
 *     as a batch check of S).
 *     After that, online_check() does nothing more: the verdict cannot
 *     change, and the final report comes from a batch check of the whole
 *     input at its end.
 *   - A PASS of S is provisional: later transactions may break it.
 *   - What is recomputed: for register histories, nothing: S's new
 *     transactions are added to one gsat instance per level, kept across
 *     calls (frontend/online/incr.h), and a violation found there is explained once
 *     by a batch check of S (online_check_delta: of a witness first).  Where that path cannot be sound (list-append,
 *     a broken axiom, ... : incr_why) the calls from then on rebuild S and
 *     check it from scratch (axioms, index, polygraph, pruning, solver).
 *     The incremental path also makes a transaction wait for the previous
 *     committed one of its session (S stays closed under reads-from).
 *     incr_checks / scratch_checks count how each check was done.
 *     Calls that settle no new transaction are skipped.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_CHECK_H
#define ISOCHECK_ONLINE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/online/incr.h"
#include "frontend/reports/report.h"

typedef enum {
    ONLINE_NO_VIOLATION = 0,   /* nothing proven (yet): the settled part passes */
    ONLINE_VIOLATION = 1,      /* a final violation, reported now (oc->rep) */
    ONLINE_UNKNOWN = 2,        /* the settled part could not be decided (a solver limit, an internal error) */
    ONLINE_NEED_HISTORY = -1,  /* online_check_delta: call online_check() with the completed history now */
} online_outcome;

typedef struct online_checker {
    int want[2];                   /* check_level_id -> wanted */
    size_t max_anomalies;
    double time_limit;             /* solver seconds per check (<= 0: none) */
    int (*stop)(void *ctx);        /* the batch checks' solver asks it (check_options.stop); NULL: never */
    void *stop_ctx;
    int engine_thread;             /* the incremental engines' calls on a thread of their own (incr_set_engine_thread) */
    /* state */
    int failed;                    /* a violation was reported: final */
    uint32_t seen;                 /* completed transactions in the last call */
    uint32_t settled;              /* of which settled (checked) */
    uint32_t checks;               /* checks run */
    uint32_t incr_checks;          /* of which incremental (frontend/online/incr.h) */
    uint32_t scratch_checks;       /* of which from scratch (a fallback, or from_scratch) */
    int from_scratch;              /* set by the caller: never use the incremental path */
    struct incr_check *incr;       /* the incremental state; NULL once it fell back */
    char fallback_why[600];        /* why the incremental path was left ("" if it was not) */
    /* Optional: called once a violation is proven, before the batch check
     * of S that explains it (which may take long on a big S). */
    void (*on_detect)(void *ctx, const struct online_checker *oc);
    void *detect_ctx;
    int explain_pending;           /* proven by online_check_delta; the next online_check explains it */
    const char *source;            /* online_check_delta: the input's name, for a witness's report (NULL: none) */
    uint32_t witness_txns;         /* the violation was explained by a witness of so many transactions (0: S) */
    /* the violation, once found: the settled history and its report */
    history *proof;
    report rep;
    char unknown_msg[512];         /* ONLINE_UNKNOWN: why */
    /* set by the caller before it reports the violation (follow_repeat.h):
     * how far it holds — 0: unless a later write repeats a value read in it;
     * 1: provisional (qualifier says why); "" : nothing to add */
    int provisional;
    char qualifier[768];
} online_checker;

/* levels: want_si / want_ser; at most max_anomalies anomalies in a report. */
void online_init(online_checker *oc, int want_si, int want_ser, size_t max_anomalies);
void online_free(online_checker *oc);

/* Check the completed transactions h (INIT is txn 0).  Returns an
 * online_outcome; ONLINE_VIOLATION only on the call that first proves one. */
int online_check(online_checker *oc, const history *h);

/* The streaming entry (a reader that parses only what arrived): the
 * transactions completed since the last call, in session order, with
 * every key id so far (key_ext[0..num_keys): integer keys, ids in order
 * of first appearance, as the batch builder gives them); seen: completed
 * transactions so far.  Same outcomes as online_check(), or
 * ONLINE_NEED_HISTORY: the caller hands online_check() the history of
 * every completed transaction now — the incremental path fell back (from
 * then on every call says so), or it proved a violation (on_detect has
 * run) that online_check() explains by a batch check of the settled part.
 * Before asking for that, a violation is explained from what the
 * incremental state holds when it can: the batch check of a witness made
 * of the last transactions to settle (incr_window_history: the ones this
 * check settled, then four times as many, ...), whose FAIL is final too;
 * the report is then of that witness (oc->witness_txns set). */
int online_check_delta(online_checker *oc, const int64_t *key_ext, uint32_t num_keys, const incr_txn *txns, size_t n,
                       uint32_t seen);

/* The end of input on the streaming entry: txns are the transactions that
 * completed at the end (the last of each session, text), read the number
 * of transactions read in all.  Adds them and checks, without reporting
 * (no on_detect, no witness: a violation is left to the batch check of
 * every byte, as is anything else).  Returns 1 when every transaction read
 * is settled and every wanted level passes, with order[level] the version
 * order of its model (incr_export_order) for the independent re-check the
 * caller must run before it may say PASS; else 0 (the batch check decides). */
int online_finish_delta(online_checker *oc, const int64_t *key_ext, uint32_t num_keys, const incr_txn *txns, size_t n,
                        uint32_t read, incr_order order[2]);

/* The settled transactions of h: a calloc'd flag per transaction (INIT
 * settled), to the greatest fixpoint; *num gets how many real ones are. */
uint8_t *online_settled(const history *h, uint32_t *num);

/* The sub-history of h holding the transactions with keep[t] (INIT always),
 * with all their operations, times, keys (same ids) and sessions; NULL with err
 * set only if the builder refuses it (never for a sub-history of a valid
 * history). */
history *history_subset(const history *h, const uint8_t *keep, ic_error *err);

#endif
