/* workload.h — the workload generator and its embedded MVCC simulator.
 *
 * Contract
 *   - A workload is `sessions` client sessions, each running
 *     `txns_per_session` transactions of `ops_per_txn` operations (a
 *     `long_fraction` of them `long_ops` long); each operation reads with
 *     probability `read_fraction`, else writes, a key drawn from `dist`.
 *     The program of session s depends only on (seed, s): every level and
 *     fault runs the same programs.
 *   - sim_run() executes the sessions against an in-memory multi-version
 *     store: a seeded scheduler interleaves one step (begin, one op,
 *     commit) of a random unfinished session at a time, so the
 *     transactions of different sessions overlap as on a real server.
 *   - Levels: ser (optimistic: snapshot reads, commit validates that nothing
 *     it read or writes changed since its snapshot), si (snapshot at begin,
 *     first-committer-wins), rc (each read sees the latest commit; no write
 *     conflict check).  A transaction that fails its check aborts.  It is
 *     reported as aborted and, with `retry` (the default, as PolySI's
 *     clients do), run again with the same program until it commits, so
 *     that each session commits txns_per_session transactions (at most
 *     1000 attempts each; then the slot is given up).
 *   - Faults (sim_fault), each applied to a `fault_rate` fraction of the
 *     transactions or reads, modelled on what real databases showed.
 *     sim_truth counts how often each one actually changed what a
 *     transaction observed ("manifested").
 *   - Fences (fence_every = N > 0): a session's program transaction i with
 *     (i + 1) % (N + 1) == 0 is a fence, [read F, write F] on the reserved
 *     key F = WORKLOAD_FENCE_KEY, and not drawn from the session's program
 *     (the other transactions stay the same programs).  At ser and si two
 *     concurrent fences conflict, so the committed fences form one chain,
 *     each reading the previous one's write (doc/checker.md, "Retiring
 *     transactions"); faults may break the chain like any other.
 *   - Every written value is unique over the whole history (a global
 *     counter from 1; 0 is the initial value), and a transaction reads its
 *     own latest write of a key.
 *   - Transaction ids count up from 1 in the order transactions end
 *     (commit or abort); session ids are s+1; the sink's `pos` is the
 *     transaction's position among its session's attempts.
 *   - Times (sim_times, given to sim_run_timed's times sink before each
 *     transaction goes to the sink):
 *     real time is the scheduler's step count (one step: a begin, an op or
 *     a commit, so no two events share a time); invoke is the step that
 *     began the transaction, complete the step that ended it.  The
 *     database's timestamps are the commit counter: start is the snapshot
 *     (`now` at begin), commit the commit's ts (none for an abort).  A
 *     transaction that completed before another was invoked committed
 *     (if it did) at a ts <= the other's snapshot: at si and ser without
 *     faults the history is strong-si, and at ser strictly serializable
 *     (doc/workload.md, "Times").
 *   - Memory is O(keys + sessions * ops) : old versions are collected once
 *     no snapshot can see them, and transactions go to the sink as they end.
 *   - Same params (seed included) → same sink calls, byte for byte. */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "workload/keydist.h"

typedef enum { SIM_SER = 0, SIM_SI, SIM_RC } sim_level;

/* X(id, name, description) */
#define SIM_FAULTS(X) \
    X(FAULT_NONE,              "none",              "no fault: the level as specified") \
    X(FAULT_LOST_UPDATE,       "lost-update",       "commit without first-committer-wins (overwrites a concurrent commit)") \
    X(FAULT_LONG_FORK,         "long-fork",         "two replicas (even/odd sessions) see each other's commits only after `lag` commits") \
    X(FAULT_CAUSALITY,         "causality",         "replica lag: snapshot taken before the session's own last commit") \
    X(FAULT_ABORTED_READ,      "aborted-read",      "read an uncommitted write whose transaction then aborts") \
    X(FAULT_INTERMEDIATE_READ, "intermediate-read", "read an uncommitted write that its transaction then overwrites")

typedef enum {
#define X(id, name, desc) id,
    SIM_FAULTS(X)
#undef X
    FAULT_COUNT
} sim_fault;

typedef struct workload_params {
    uint32_t sessions, txns_per_session, ops_per_txn;
    uint64_t keys;
    double read_fraction;
    keydist_kind dist;
    double zipf_exponent;
    double long_fraction;       /* fraction of transactions that are long */
    uint32_t long_ops;          /* their length */
    sim_level level;
    sim_fault fault;
    double fault_rate;          /* per transaction (per read for dirty reads) */
    uint32_t lag;               /* commits of replica lag (long-fork, causality) */
    uint64_t seed;
    int retry;                  /* re-run aborted transactions until they commit */
    double repeat_values;       /* fraction of writes that write again a value an earlier committed
                                 * version of the key holds (issue 35; 0: every value unique) */
    uint32_t fence_every;       /* 0: none; else after every N transactions a session runs a
                                 * fence: read then write WORKLOAD_FENCE_KEY */
    uint32_t first_session_txns;   /* 0: as the others; else session 1 commits only this many
                                    * and stops (a client that stops early) */
} workload_params;

/* The reserved key of fence transactions (the same number as
 * RETIRE_FENCE_KEY in frontend/online/retire.h, which the checker reads;
 * a test asserts it).  No keydist draws it: data keys are < 2^32. */
#define WORKLOAD_FENCE_KEY 1000000000000000000LL

/* Ground truth of one run. */
typedef struct sim_truth {
    uint64_t txns, committed, aborted, ops, reads, writes;
    uint64_t concurrent_overwrites; /* committed writes over a version their txn did not see
                                  * (first-committer-wins skipped; not always observable) */
    uint64_t lost_updates;       /* the subset that is a lost update in every version order:
                                  * both txns read the same version of the key, then wrote it */
    uint64_t stale_reads;        /* reads that got an older version than a fresh snapshot would */
    uint64_t aborted_reads;      /* reads of a write whose txn aborted */
    uint64_t intermediate_reads; /* reads of a write its (committed) txn overwrote */
    uint64_t given_up;           /* program transactions that never committed */
    uint64_t faulted_txns;       /* transactions the fault was applied to */
    uint64_t manifested;         /* the counters that belong to the fault (lost-update:
                                  * concurrent_overwrites; intermediate-read:
                                  * intermediate_reads + aborted_reads) */
} sim_truth;

/* One finished transaction as the sink sees it.  value 0 = initial value. */
typedef struct sim_op { uint8_t write; int64_t key, value; } sim_op;

/* A transaction's times (see Times above); commit < 0: it aborted. */
typedef struct sim_times { int64_t invoke, complete, start, commit; } sim_times;

typedef struct sim_sink {
    void *ctx;
    /* Called once per transaction, when it commits or aborts (commit order,
     * sessions interleaved; per session in session order).  Return 0 to
     * stop the run (err set). */
    int (*txn)(void *ctx, uint32_t session, uint32_t pos, int64_t txn_id, int committed,
               const sim_op *ops, uint32_t n_ops, ic_error *err);
} sim_sink;

/* Where the times go: called just before the sink's txn() with that
 * transaction's times. */
typedef struct sim_times_sink {
    void *ctx;
    void (*times)(void *ctx, const sim_times *t);
} sim_times_sink;

typedef void (*sim_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* Presets (params.c): "polysi" (the PolySI paper's defaults), "general-rh",
 * "general-rw", "general-wh" (its GeneralRH/RW/WH). */
void workload_defaults(workload_params *p);
int workload_preset(workload_params *p, const char *name);   /* 0: unknown */
const char *workload_preset_names(void);
/* Check ranges; 0 with err set. */
int workload_validate(const workload_params *p, ic_error *err);

const char *sim_level_name(sim_level l);
int sim_level_parse(const char *s);      /* -1 unknown */
const char *sim_fault_name(sim_fault f);
const char *sim_fault_desc(sim_fault f);
int sim_fault_parse(const char *s);      /* -1 unknown */

/* Run the workload; 1 on success, 0 when the sink failed (err set). */
int sim_run(const workload_params *p, const sim_sink *sink, sim_truth *truth,
            sim_progress_fn progress, void *progress_ctx, ic_error *err);
/* The same, giving each transaction's times to ts first (NULL: none). */
int sim_run_timed(const workload_params *p, const sim_sink *sink, const sim_times_sink *ts, sim_truth *truth,
                  sim_progress_fn progress, void *progress_ctx, ic_error *err);

/* Ground truth as one JSON object (the gen `.truth` sidecar). */
void sim_truth_json(FILE *out, const workload_params *p, const sim_truth *t);

#endif
