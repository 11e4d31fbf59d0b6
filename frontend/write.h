/* write.h — write a history in one of the four formats (convert, the
 * workload generator, round-trip tests).
 *
 * Each writer refuses, with an error naming the first offending op or
 * transaction, what its format cannot express rather than dropping it:
 *   text   registers only, integer keys, committed transactions, no failed ops
 *   dbcop  registers only, integer keys, no indeterminate transactions
 *   cobra  registers only, integer keys, no indeterminate transactions,
 *          no failed ops, no value/transaction id equal to Cobra's markers
 *   elle   everything but failed ops; reads of :fail/:info transactions are
 *          written but not read back (Elle's own rule)
 * Empty transactions are written where the format can hold them (dbcop,
 * cobra, elle) and vanish in text.  INIT is never written. */
#ifndef ISOCHECK_WRITE_H
#define ISOCHECK_WRITE_H

#include <stdio.h>

#include "error.h"
#include "frontend/history.h"

int write_text(const history *h, FILE *out, ic_error *err);
int write_dbcop(const history *h, FILE *out, ic_error *err);
int write_elle(const history *h, FILE *out, ic_error *err);
/* Cobra: creates dir if needed and writes T<session>.log files. */
int write_cobra(const history *h, const char *dir, ic_error *err);

/* Dispatch by format; path "-" is stdout (not for cobra). 1 on success. */
int history_write(const history *h, history_format fmt, const char *path, ic_error *err);

/* Transaction ids must be unique for formats that name transactions
 * (text, cobra, elle); 0 with err set on the first repeat. */
int write_check_unique_txn_ids(const history *h, const char *format, ic_error *err);

/* Shared checks: 0 with err set if h has what the format cannot hold. */
int write_check(const history *h, const char *format, int lists_ok, int string_keys_ok,
                int aborted_ok, int indeterminate_ok, int failed_ok, ic_error *err);

#endif
