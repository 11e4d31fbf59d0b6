/* load_report.h — what a reader did with its input, so that a user can see
 * that nothing was lost: records read, what became transactions and
 * operations, what was skipped (invocations, nemesis operations, reads
 * whose value a :fail/:info completion does not know) or merged (an
 * explicit initial-state transaction), plus notes and warnings.
 *
 * The readers fill it (a NULL report is allowed everywhere: nothing is
 * recorded); `isocheck stats` and `check -v` print it.  It lives beside the
 * history, not in it: the model stays the same whatever the input said. */
#ifndef ISOCHECK_LOAD_REPORT_H
#define ISOCHECK_LOAD_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "vec.h"
#include "frontend/history/history.h"

/* X-macro: X(name, description); all uint64_t, printed when non-zero. */
#define LOAD_COUNTS(X) \
    X(records,          "records read (op maps, text lines, dbcop events, Cobra records)") \
    X(invocations,      "invocations skipped (:invoke; the completion holds the transaction)") \
    X(nemesis,          "operations of non-client processes skipped (keyword :process, e.g. :nemesis; JSON \"nemesis\")") \
    X(completions_ok,   ":ok completions (committed transactions)") \
    X(completions_fail, ":fail completions (aborted transactions)") \
    X(completions_info, ":info completions (indeterminate transactions)") \
    X(micro_ops,        "micro-ops read in completions") \
    X(unknown_reads,    "reads dropped: nil in a :fail/:info completion (value unknown)") \
    X(from_invocation,  "writes taken from the invocation (completion without micro-ops)") \
    X(no_process,       "transactions without :process (each its own session)") \
    X(named_values,     "distinct values that are not 64-bit integers (strings, big integers)") \
    X(init_merged,      "writes of the initial value merged into the initial state") \
    X(failed_ops,       "failed operations (dbcop success = false)") \
    X(aborted_lines,    "text lines with transaction id -1 (Plume/IsoVista aborted writes: each an aborted transaction)") \
    X(aborted_reads,    "of those, reads skipped (nothing says which transaction they belong to)") \
    X(failed_in_committed, "committed transactions containing failed operations") \
    X(failed_aborted,   "of those, treated as aborted (--failed-ops-abort)") \
    X(txns,             "transactions in the model") \
    X(ops,              "operations in the model")

typedef struct load_report {
#define LOAD_FIELD(name, desc) uint64_t name;
    LOAD_COUNTS(LOAD_FIELD)
#undef LOAD_FIELD
    VEC(char *) notes;       /* "note: ..." / "warning: ..." lines, in order */
} load_report;

void load_report_init(load_report *r);
void load_report_free(load_report *r);
/* Add a note (kind "note" or "warning"); r may be NULL. */
void load_report_note(load_report *r, const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* After a successful load: the model's totals and the notes every format
 * shares (no committed transaction). */
void load_report_finish(load_report *r, const history *h);

/* The counts (non-zero ones), one per line, "name  N  description". */
void load_report_print(FILE *out, const load_report *r);
/* The notes, each as "PROG: SOURCE: note: ...". */
void load_report_print_notes(FILE *out, const load_report *r, const char *prog, const char *source);
/* JSON object {"records": N, ..., "notes": [...]}. */
void load_report_print_json(FILE *out, const load_report *r);

#endif
