/* isocheck.h — checking a database history against snapshot isolation,
 * serializability or any level of the isolation ladder, as a library.
 *
 * Build a history in memory (sessions, transactions, reads and writes of
 * integer keys), then check it:
 *
 *     isocheck_history *h = isocheck_history_new();
 *     int t1 = isocheck_txn_begin(h, 1, 101);          // session 1, txn id 101
 *     isocheck_read_initial(h, t1, 7);                  // reads key 7's initial value
 *     isocheck_write(h, t1, 7, 42);                     // writes 42 to key 7
 *     int t2 = isocheck_txn_begin(h, 2, 201);
 *     isocheck_read(h, t2, 7, 42);                      // reads 42 from key 7
 *     isocheck_result *r = isocheck_check(h, ISOCHECK_SI);
 *     if (isocheck_result_verdict(r) == ISOCHECK_FAIL) puts(isocheck_result_text(r));
 *     isocheck_result_free(r);
 *     isocheck_history_free(h);
 *
 * Rules the checker relies on: values written to one key are unique, and
 * every read names the value it saw (a history that breaks the first rule
 * is rejected by isocheck_check with status ISOCHECK_EINPUT).  Transactions are committed unless
 * isocheck_txn_abort() is called.  Transactions and operations may be
 * added at any time, also after a check: each isocheck_check() judges
 * everything added before it (online checking: check, add what completed
 * since, check again); each check reuses the work of the earlier ones for
 * that level (doc/library.md).  Checks with no edit in between (another
 * level) reuse the history built for the first.  A violation among transactions
 * whose writers are all present stays a violation when more transactions
 * are added (doc/checker.md, "Online checking").
 *
 * Handles are opaque; the library keeps no global state, never prints and
 * never exits (except when memory runs out).  Functions returning int give
 * a handle or 0 on success and a negative isocheck_status on error;
 * isocheck_history_error() then says what was wrong.  Thread safety: one
 * history per thread at a time; distinct histories are independent. */
#ifndef ISOCHECK_H
#define ISOCHECK_H

#include <stddef.h>
#include <stdint.h>

/* The library is built with hidden visibility; ISOCHECK_API marks the
 * functions it exports (these, and nothing else). */
#ifndef ISOCHECK_API
#if defined(__GNUC__) && __GNUC__ >= 4
#define ISOCHECK_API __attribute__((visibility("default")))
#else
#define ISOCHECK_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum isocheck_status {
    ISOCHECK_OK = 0,
    ISOCHECK_EINVAL = -1,     /* a bad argument: unknown handle, reserved value, NULL */
    ISOCHECK_EINPUT = -2,     /* the history is not well-formed (e.g. a value written twice) */
    ISOCHECK_ESTATE = -3,     /* not allowed now (kept for compatibility: histories are no longer frozen) */
    ISOCHECK_ELIMIT = -4,     /* the solver hit a limit; no verdict */
    ISOCHECK_ENOTIMES = -5,   /* the level needs invocation and completion times the history does not carry */
    ISOCHECK_EDUPLICATE = -6, /* isocheck_txn_begin: the transaction id is already used in this history */
} isocheck_status;

/* Every level of doc/levels.md ("The isolation ladder"); the values are
 * fixed (ISOCHECK_SI and ISOCHECK_SER as always).  isocheck_level_name()
 * gives each one's --level name, isocheck_level_by_name() the other way. */
typedef enum isocheck_level {
    ISOCHECK_SI = 0,          /* si: snapshot isolation with session order (PolySI's) */
    ISOCHECK_SER = 1,         /* ser: serializability with session order */
    ISOCHECK_RC = 2,          /* rc: read committed */
    ISOCHECK_RA = 3,          /* ra: read atomic */
    ISOCHECK_CC = 4,          /* cc: causal consistency */
    ISOCHECK_PC = 5,          /* pc: prefix consistency */
    ISOCHECK_PSI = 6,         /* psi: parallel snapshot isolation */
    ISOCHECK_SI_PLAIN = 7,    /* si-plain: snapshot isolation without session order */
    ISOCHECK_SER_PLAIN = 8,   /* ser-plain: serializability without session order */
    ISOCHECK_STRONG_SI = 9,   /* strong-si: strong snapshot isolation (needs times) */
    ISOCHECK_SSER = 10,       /* sser: strict serializability (needs times) */
    ISOCHECK_RR = 11,         /* rr: repeatable read (Adya PL-2.99), without session order */
    ISOCHECK_LEVEL_COUNT = 12
} isocheck_level;
typedef enum isocheck_verdict { ISOCHECK_PASS = 0, ISOCHECK_FAIL = 1, ISOCHECK_UNKNOWN = 2 } isocheck_verdict;

typedef struct isocheck_history isocheck_history;
typedef struct isocheck_result isocheck_result;

/* Message for a status code (static string). */
ISOCHECK_API const char *isocheck_status_message(int status);

ISOCHECK_API isocheck_history *isocheck_history_new(void);
ISOCHECK_API void isocheck_history_free(isocheck_history *h);
/* The last error on h ("" if none). */
ISOCHECK_API const char *isocheck_history_error(const isocheck_history *h);

/* Start transaction txn_id at the end of session session_id (created on
 * first use).  Returns a transaction handle (>= 1) or a negative status:
 * ISOCHECK_EDUPLICATE when txn_id is already used in this history (nothing
 * is added; isocheck_history_error() names the call that used it).
 * Reports name transactions by these ids ("txn 101") and operations by the
 * call that added them ("[call 3]": the calls on h, counted from 1). */
ISOCHECK_API int isocheck_txn_begin(isocheck_history *h, int64_t session_id, int64_t txn_id);
/* Mark a transaction aborted (its writes are never visible). */
ISOCHECK_API int isocheck_txn_abort(isocheck_history *h, int txn);
/* Operations, in the transaction's program order.  value INT64_MIN is
 * reserved (it stands for the initial value internally). */
ISOCHECK_API int isocheck_write(isocheck_history *h, int txn, int64_t key, int64_t value);
ISOCHECK_API int isocheck_read(isocheck_history *h, int txn, int64_t key, int64_t value);
ISOCHECK_API int isocheck_read_initial(isocheck_history *h, int txn, int64_t key);

/* Check the history against a level.  Returns a result (never NULL except
 * for h == NULL); its verdict is ISOCHECK_UNKNOWN when the history was
 * rejected or no answer was found, with the reason in the text (status
 * ISOCHECK_EINVAL for a level out of range, ISOCHECK_ENOTIMES for
 * strong-si and sser, which need times that histories built here do not
 * carry). */
ISOCHECK_API isocheck_result *isocheck_check(isocheck_history *h, isocheck_level level);
/* The same, the level given by its name ("rc", "si", "ser-plain", "sser", ...). */
ISOCHECK_API isocheck_result *isocheck_check_named(isocheck_history *h, const char *level);
/* A level's name ("si", "ser-plain"; NULL out of range), and the level of
 * a name (ISOCHECK_EINVAL if none has it). */
ISOCHECK_API const char *isocheck_level_name(isocheck_level level);
ISOCHECK_API int isocheck_level_by_name(const char *name);

ISOCHECK_API isocheck_verdict isocheck_result_verdict(const isocheck_result *r);
/* The status behind an UNKNOWN verdict (ISOCHECK_OK otherwise). */
ISOCHECK_API int isocheck_result_status(const isocheck_result *r);
/* A readable report, the one `isocheck check` prints for the history:
 * "PASS ...", or "FAIL ..." with the named anomalies, their operations,
 * cycles and why each dependency is forced, or the reason for UNKNOWN. */
ISOCHECK_API const char *isocheck_result_text(const isocheck_result *r);
/* For FAIL: the dependency cycle that every version order leaves (empty
 * when an axiom fails, e.g. a read of an aborted write).  Edge i goes
 * from transaction *from to *to (the caller's txn ids; INIT is -1); kind
 * is "SO", "WR", "WW" or "RW"; key is set for all but SO. */
ISOCHECK_API size_t isocheck_result_cycle_length(const isocheck_result *r);
ISOCHECK_API int isocheck_result_cycle_edge(const isocheck_result *r, size_t i, int64_t *from, int64_t *to,
                                            int64_t *key, const char **kind);
ISOCHECK_API void isocheck_result_free(isocheck_result *r);

/* Load the history file at path (any format isocheck reads, detected as
 * `isocheck check` does: text, dbcop, Elle EDN or JSON, a directory of
 * Cobra or Viper logs; gzip-compressed or not) and check it against level.
 * *json receives the report as one JSON object, the one `isocheck check
 * --json` prints (doc/json-schema.md), or for a file that cannot be read
 * {"isocheck": 1, "version": V, "history": PATH, "error": "FILE:LINE: ..."};
 * free it with isocheck_string_free.  Returns the verdict (ISOCHECK_PASS,
 * ISOCHECK_FAIL, ISOCHECK_UNKNOWN) or a negative status: ISOCHECK_EINPUT
 * (the file is unreadable or not a well-formed history; *json says why),
 * ISOCHECK_EINVAL (path or json NULL, level out of range: *json NULL). */
ISOCHECK_API int isocheck_check_file(const char *path, isocheck_level level, char **json);
/* Free a string the library returned (isocheck_check_file's JSON). */
ISOCHECK_API void isocheck_string_free(char *s);

#ifdef __cplusplus
}
#endif
#endif
