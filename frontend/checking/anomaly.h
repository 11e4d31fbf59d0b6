/* anomaly.h — named anomalies found in a history, as a list shared by the
 * axiom checks (frontend/checking/axioms.c), the cycle interpreter and the output.
 *
 * An anomaly is a name from the table below, the transactions and ops it
 * involves (history indices; sessions follow from the transactions) and a
 * one-line explanation.  The list owns its entries. */
#ifndef ISOCHECK_ANOMALY_H
#define ISOCHECK_ANOMALY_H

#include <stdint.h>
#include <stdio.h>

#include "vec.h"
#include "frontend/history/history.h"
#include "frontend/history/levels.h"

/* X-macro: ANOMALY(id, name, summary).  The checker appends cycle kinds. */
#define ANOMALY_KINDS(X) \
    X(AN_INT,                "internal-inconsistency", "a read disagrees with the transaction's own earlier write or read") \
    X(AN_ABORTED_READ,       "aborted-read",           "a read observes a value written by an aborted transaction") \
    X(AN_INTERMEDIATE_READ,  "intermediate-read",      "a read observes a value its writer overwrote later in the same transaction") \
    X(AN_THIN_AIR_READ,      "thin-air-read",          "a read observes a value nobody wrote") \
    X(AN_LIST_INCOMPATIBLE,  "incompatible-order",     "two reads of a list disagree on the order of its elements") \
    X(AN_LIST_BAD_ELEMENT,   "list-thin-air-element",  "a list read contains an element nobody appended or a duplicate") \
    X(AN_PRED_MISS,          "predicate-miss",         "a predicate read misses a key that matches in every version it could see") \
    X(AN_PRED_MISS_VIEW,     "predicate-miss",         "a predicate read misses a key its own transaction saw in a matching version (one version a transaction; rr: its own view)") \
    X(AN_PRED_MISMATCH,      "predicate-mismatch",     "a predicate read returns a version that does not match it") \
    X(AN_PRED_MISS_READ,     "predicate-miss",         "a predicate read misses a key its own transaction read in a matching version (rc allows it: its view may be another version)") \
    X(AN_PRED_MISS_OWN,      "predicate-miss",         "a predicate read misses a key its own transaction read in a matching version (rc and rr allow it: its own view may be another version)") \
    X(AN_CYCLE,              "cycle",                  "a dependency cycle (unnamed)") \
    X(AN_LOST_UPDATE,        "lost-update",            "two transactions overwrite the same read version") \
    X(AN_WRITE_SKEW,         "write-skew",             "two transactions each miss the other's write") \
    X(AN_LONG_FORK,          "long-fork",              "two transactions observe two writes in opposite orders") \
    X(AN_CAUSALITY,          "causality-violation",    "a transaction misses a write its causal past saw") \
    X(AN_SESSION_GUARANTEE,  "session-guarantee",      "a session does not see its own earlier effects") \
    X(AN_FRACTURED_READ,     "fractured-read",         "a transaction sees only part of another's writes") \
    X(AN_G0,                 "write-cycle",            "transactions overwrite each other's writes in a cycle") \
    X(AN_G1C,                "circular-information-flow", "transactions read each other's writes in a cycle") \
    X(AN_READ_SKEW,          "read-skew",              "a transaction sees a state mixing versions from before and after another") \
    X(AN_READ_YOUR_WRITES,   "read-your-writes",       "a transaction misses a write of an earlier transaction of its session") \
    X(AN_MONOTONIC_READS,    "monotonic-reads",        "a session reads a version older than one it read before") \
    X(AN_MONOTONIC_WRITES,   "monotonic-writes",       "a session's later write is ordered before its earlier write") \
    X(AN_WRITES_FOLLOW_READS, "writes-follow-reads",   "a session's write is ordered before a write the session had already read") \
    X(AN_REAL_TIME,          "real-time-violation",    "a transaction misses or precedes a write that completed before it was invoked") \
    X(AN_NONREPEATABLE_READ, "non-repeatable-read",    "a transaction reads one key twice from different versions, with no own write between") \
    X(AN_APPEND_ORDER,       "incompatible-append-order", "a list read ending with its transaction's own appends disagrees with another read: the appends do not follow the version read")

typedef enum {
#define ANOMALY_ENUM(id, name, summary) id,
    ANOMALY_KINDS(ANOMALY_ENUM)
#undef ANOMALY_ENUM
    AN_NUM_KINDS
} anomaly_kind;

const char *anomaly_name(anomaly_kind k);
/* The levels a non-cycle anomaly of kind k breaks (doc/levels.md, "Non-cycle
 * anomalies fail every level" and the axioms' rules for external reads):
 * bit l for check_level_id l.  Every level, unless ANOMALY_ALLOWED_BY below
 * names the levels that allow it.  Each set is closed upwards along the
 * ladder (a level implying a broken one is broken too). */
#define ANOMALY_LEVEL_BIT(l) (1u << (l))
#define ANOMALY_ALL_LEVELS ((1u << LEVEL_COUNT) - 1u)
/* X-macro: ANOMALY_ALLOWED(kind, levels that allow it).
 *   non-repeatable-read        rc reads each key's versions freely (Plume TAP-j is
 *                              forbidden from ra up: two external reads of one key
 *                              from different writers order each before the other)
 *   predicate-miss (of a key   rr: a predicate read has its own version set (Adya);
 *   its transaction read)      the key's view is a choice of rr's search instead
 *                              (predicate.h, pred_fact_is_view; AN_PRED_MISS_VIEW);
 *                              rc: the view is a choice of its own among the versions
 *                              that do not match (pred_fact.rc_view; AN_PRED_MISS_READ);
 *                              a fact with both views is AN_PRED_MISS_OWN (rc and rr);
 *                              from ra up, and in the plain levels, one version a
 *                              transaction
 *   incompatible-append-order  only the external prefixes must be versions of one
 *                              order; the reader's own appends follow its snapshot
 *                              from psi up (a writer sees every earlier writer of
 *                              its keys) and in si-plain and ser-plain, not in rc,
 *                              ra, cc, pc */
#define ANOMALY_ALLOWED_BY(X) \
    X(AN_NONREPEATABLE_READ, ANOMALY_LEVEL_BIT(LEVEL_RC)) \
    X(AN_PRED_MISS_VIEW,     ANOMALY_LEVEL_BIT(LEVEL_RR)) \
    X(AN_PRED_MISS_READ,     ANOMALY_LEVEL_BIT(LEVEL_RC)) \
    X(AN_PRED_MISS_OWN,      ANOMALY_LEVEL_BIT(LEVEL_RC) | ANOMALY_LEVEL_BIT(LEVEL_RR)) \
    X(AN_APPEND_ORDER,       ANOMALY_LEVEL_BIT(LEVEL_RC) | ANOMALY_LEVEL_BIT(LEVEL_RA) | ANOMALY_LEVEL_BIT(LEVEL_CC) | \
                             ANOMALY_LEVEL_BIT(LEVEL_PC))
uint32_t anomaly_breaks(anomaly_kind k);
const char *anomaly_summary(anomaly_kind k);

typedef struct anomaly {
    anomaly_kind kind;
    vec_u32 txns;            /* history transaction indices, in cycle/report order */
    vec_u32 ops;             /* the ops that show it (read first, then writes) */
    char *detail;            /* one line, e.g. "T3 reads x=5 written by aborted T2" */
} anomaly;

typedef struct anomaly_list { VEC(anomaly) items; } anomaly_list;

void anomaly_list_init(anomaly_list *l);
void anomaly_list_free(anomaly_list *l);
/* Append a new anomaly; returns it so the caller can add txns/ops. */
anomaly *anomaly_add(anomaly_list *l, anomaly_kind kind);
void anomaly_add_op(anomaly *a, const history *h, uint32_t op);   /* and its txn */
void anomaly_set_detail(anomaly *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
