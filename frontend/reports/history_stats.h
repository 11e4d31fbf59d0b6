/* history_stats.h — counts that describe a history's size and shape
 * (`isocheck stats`, benchmarks).  INIT is not counted. */
#ifndef ISOCHECK_HISTORY_STATS_H
#define ISOCHECK_HISTORY_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "frontend/history/history.h"
#include "frontend/history/load_report.h"

/* X-macro: STAT(name, description) — all uint64_t counters. */
#define HISTORY_STATS(X) \
    X(sessions,        "sessions") \
    X(txns,            "transactions") \
    X(committed,       "committed transactions") \
    X(aborted,         "aborted transactions") \
    X(indeterminate,   "indeterminate transactions (Elle :info)") \
    X(ops,             "operations") \
    X(reads,           "reads (register reads and list reads)") \
    X(writes,          "writes (register writes and appends)") \
    X(list_reads,      "list reads") \
    X(appends,         "appends") \
    X(failed_ops,      "failed operations (not counted as reads/writes)") \
    X(init_reads,      "reads of the initial value") \
    X(keys,            "keys") \
    X(max_txn_ops,     "most operations in one transaction") \
    X(max_key_writers, "most transactions writing one key") \
    X(times_invoke,    "transactions with an invocation time (TIME_INVOKE)") \
    X(times_complete,  "transactions with a completion time (TIME_COMPLETE)") \
    X(times_db_start,  "transactions with a database start timestamp (TIME_DB_START)") \
    X(times_db_commit, "transactions with a database commit timestamp (TIME_DB_COMMIT)")

typedef struct history_stats {
#define STAT_FIELD(name, desc) uint64_t name;
    HISTORY_STATS(STAT_FIELD)
#undef STAT_FIELD
    double read_fraction;    /* reads / (reads + writes) */
} history_stats;

void history_stats_compute(const history *h, history_stats *s);
/* The counts, as text lines or one JSON object, then which times the
 * history carries ("times": the kinds history_has_times() holds, in text
 * "invoke complete db-start db-commit" or "none"; in JSON an array), followed by what the
 * reader did (load_report.h; in JSON as a member "load" of the same
 * object) unless lr is NULL. */
void history_stats_print(FILE *out, const history *h, const history_stats *s, int json, const load_report *lr);

#endif
