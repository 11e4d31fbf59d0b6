/* write.h — write a history in one of the six formats (convert, the
 * workload generator, round-trip tests).
 *
 * A written history reads back with the same verdict.  Each writer
 * refuses, with an error naming the first offending op or transaction,
 * what its format cannot express rather than dropping it:
 *   text   registers only, integer values, committed transactions, no failed ops
 *   dbcop  registers only, integer values, no indeterminate transactions
 *   cobra  registers only, integer values, no indeterminate transactions,
 *          no failed ops
 *   elle   everything but failed ops; reads of :fail/:info transactions are
 *          written but not read back (Elle's own rule)
 *   dbcop-json  as dbcop, and no failed ops
 *   viper  registers only, integer values, committed transactions only,
 *          no failed reads (a failed write is ["w", K, V, false])
 * Predicate reads (history.preds) are kept by text and elle (write_pred.h;
 * their lowered reads, failed placeholders included, are not written as
 * ops) and refused by dbcop and cobra.
 * and renumbers the identifiers its format reserves or cannot spell
 * (values and ids are only ever compared, so a one-to-one renumbering
 * keeps every verdict):
 *   text   values must be >= 1 (0 is the initial value, and PolySI's text
 *          has no signs); keys, sessions and transaction ids >= 0
 *   dbcop  values must not be 0 (the initial value)
 *   dbcop-json  values >= 1, keys >= 0
 *   viper  values must not be 0 (the initial state's) nor in the band the
 *          reader reserves (below VALUE_NAME_BASE + 2^32)
 *   cobra  values and transaction ids must not be Cobra's markers
 *          (0xbebeebee, 0xdeadbeef, 0x23332333, 0x66666666; ids also not -1)
 *   all but viper (which writes them as strings): keys with a name (Elle's string and keyword keys, keys
 *          beyond 64 bits) become integer keys the history does not use
 *          (the note names the first: "key :x -> 3")
 * An identifier outside that set becomes the smallest one inside it that
 * the history does not use (in order of first appearance); the note of
 * history_write_file() says which.  Empty transactions are written where
 * the format can hold them (dbcop, dbcop-json, cobra, elle, viper) and
 * vanish in text.  INIT is never written.  Times (history_time) are
 * written by text ("#@time" lines) and elle (invocations with :time, :time
 * and :ts on completions), the client's by viper (preBeginTS,
 * postCommitTS); dbcop, dbcop-json and cobra drop them (viper the
 * database's), and history_write_file's note says how many transactions'
 * times were dropped (doc/formats.md, "Times"). */
#ifndef ISOCHECK_WRITE_H
#define ISOCHECK_WRITE_H

#include <stdio.h>

#include "error.h"
#include "vec.h"
#include "frontend/history/history.h"
#include "frontend/history/u64map.h"

int write_text(const history *h, FILE *out, ic_error *err);
int write_dbcop(const history *h, FILE *out, ic_error *err);
int write_elle(const history *h, FILE *out, ic_error *err);
int write_dbcop_json(const history *h, FILE *out, ic_error *err);
/* Viper: J<session>.log files in dir, as Cobra (write_viper.c). */
int write_viper(const history *h, const char *dir, unsigned flags, ic_error *err);
/* Cobra: T<session>.log files in dir (io/output.h's directory
 * rules; flags: OUTPUT_FORCE). */
int write_cobra(const history *h, const char *dir, unsigned flags, ic_error *err);

/* Dispatch by format; path "-" is stdout (not for cobra or viper).  The file is
 * written through io/output.h (flags: OUTPUT_NO_CLOBBER,
 * OUTPUT_FORCE).  note (may be NULL) gets what was renumbered, or "".
 * 1 on success. */
int history_write_file(const history *h, history_format fmt, const char *path, unsigned flags, char *note,
                       size_t note_len, ic_error *err);

/* Transaction ids must be unique for formats that name transactions
 * (text, cobra, elle); 0 with err set on the first repeat. */
int write_check_unique_txn_ids(const history *h, const char *format, ic_error *err);

/* Shared checks: 0 with err set if h has what the format cannot hold. */
int write_check(const history *h, const char *format, int lists_ok, int string_keys_ok,
                int aborted_ok, int indeterminate_ok, int failed_ok, ic_error *err);

/* ---- renumbering ---------------------------------------------------------- */

/* One kind of identifier: the ones the format cannot hold, mapped to fresh ones. */
typedef struct write_renumber {
    u64map index;            /* original -> position in from/to */
    vec_i64 from, to;        /* in order of first appearance */
} write_renumber;

typedef struct write_plan {
    write_renumber value, key, session, txn;
    int64_t *key_out;        /* per key: the integer written, when some key has a name (else NULL) */
    uint32_t named_keys;     /* keys with a name (Elle strings, keywords, big integers) given integers */
    uint32_t first_named;    /* the first of them (HISTORY_NONE: none) */
} write_plan;

/* The renumbering fmt needs for h (FORMAT_ELLE: none).  Free with
 * write_plan_free(). */
void write_plan_build(const history *h, history_format fmt, write_plan *p);
void write_plan_free(write_plan *p);
/* The identifier to write for v. */
int64_t write_renumbered(const write_renumber *r, int64_t v);
/* The integer to write for key (text, dbcop, cobra). */
int64_t write_key(const write_plan *p, const history *h, uint32_t key);
/* "value 0 -> 7; key :x -> 3" style summary into buf ("" when nothing). */
void write_plan_describe(const write_plan *p, const history *h, const char *format, char *buf, size_t n);

#endif
