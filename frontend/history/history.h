/* history.h — the history model: sessions, transactions, operations.
 *
 * Contract
 *   - A history is built once (by a parser, the simulator or a test, always
 *     through the history_builder below) and is read-only afterwards.
 *   - Transaction 0 is the synthetic INIT transaction.  It belongs to no
 *     session (session == HISTORY_NONE), is committed, and holds one
 *     OP_WRITE of VALUE_INIT per key, in key-id order (op k of INIT writes
 *     key k, so INIT's op for key k is op index k).
 *   - Reading the initial value is a read of VALUE_INIT.  Parsers map each
 *     format's marker to it: text value 0, dbcop's initial value 0,
 *     Cobra's init write id, Elle nil (and the empty list for list reads).
 *     A format value equal to VALUE_INIT is rejected by the parser.
 *   - Real transactions are 1..num_txns-1, grouped by session: session s
 *     owns transactions [s.first_txn, s.first_txn + s.num_txns) in session
 *     order.  A transaction's operations are ops [first_op, first_op+num_ops)
 *     in program order, and op indices increase with transaction index.
 *   - Values written (OP_WRITE, OP_APPEND) to one key are usually unique,
 *     INIT's VALUE_INIT included.  A register value written more than once
 *     to a key is allowed (issue 35: counters, flags, retried writes): each
 *     such write carries OP_REPEATED, history_writer_of() gives the first
 *     (lowest op) and history_writers_of() all of them (repeat.c).  A value
 *     appended twice to a list key is flagged the same way (list_repeat.h:
 *     which append a list position shows is a choice per key).  Failed ops
 *     (dbcop success=false; flag OP_FAILED) take no part in that and are not
 *     found by history_writer_of().
 *   - Checking a history with repeated values goes through its resolved form
 *     (history_resolved(), repeat.c, doc/checker.md "Repeated values"):
 *     every repeated write gets a value of its own (the named value
 *     "V@T": V as written by txn T), each read whose possible writers
 *     narrow down to one reads that writer's, and a read left with none or
 *     with several carries OP_AMBIGUOUS (history_read_candidates()).
 *   - Transactions are committed, aborted or indeterminate (Elle :info).
 *     Aborted transactions stay in the model so that reading their writes
 *     can be reported; a checker builds its graph over committed (and, as
 *     possible writers, indeterminate) transactions only.
 *   - OP_LIST_READ (Elle list-append) has no single value: history_list()
 *     gives the list it observed (a slice of a shared pool).  Its `value`
 *     field is the list's index, not a data value.
 *   - Keys are dense ids 0..num_keys-1; key_ext[k] is the format's key, or,
 *     for string keys (Elle), key_name[k] is an offset into `strings`.
 *     A key is a register (OP_READ, OP_WRITE) or a list (OP_APPEND,
 *     OP_LIST_READ), never both; the builder rejects a mix.
 *   - Named values: a reader whose values are not all 64-bit integers
 *     (Elle strings, big integers) interns each distinct written form as
 *     the id VALUE_NAME_BASE + i (hb_name); name_off[i] keeps the written
 *     form for messages (history_value_str).  Values are only compared, so
 *     the rest of the model is unchanged.  Session ids may be named too.
 *
 * What a transaction's reads mean (the helpers below; doc/checker.md):
 *   - Under SI and SER a transaction reads every key from one snapshot.  A
 *     register read before the transaction's own write of the key shows the
 *     snapshot's value; after an own write it shows that write (INT).
 *   - A list read always shows the snapshot: it is the snapshot's list
 *     followed by the transaction's own appends so far, in program order.
 *     Its *external prefix* (the list without those own elements) is a read
 *     of the version installed by the appender of the prefix's last element
 *     (INIT's for an empty prefix) — also when the read follows own appends.
 *   - Participants: INIT, the committed transactions, and every
 *     indeterminate transaction whose write a participant observed (so its
 *     own reads then count too).  Aborted transactions never participate.
 *
 * Memory: per op 10 bytes (kind 1, key 4, value 4 where values fit in
 * 32 bits, else 8; its transaction 1: op_txn_delta), plus 4
 * for its line unless the lines follow one of the layouts below (op_line),
 * plus the writer index (4 bytes per slot, 2 slots per write) and key_writes
 * (4 bytes per write); per transaction 32 bytes.  1M transactions x 8 ops
 * is 0.16 GB (doc/architecture.md, "The history in memory"). */
#ifndef ISOCHECK_HISTORY_H
#define ISOCHECK_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "frontend/history/u64map.h"

#define HISTORY_NONE UINT32_MAX
#define VALUE_INIT   INT64_MIN
#define VALUE_NAME_BASE (INT64_MIN + 1)   /* first named value (see hb_name) */

typedef enum {
    OP_READ      = 0,   /* read key -> value (VALUE_INIT: initial value) */
    OP_WRITE     = 1,   /* write value to key */
    OP_APPEND    = 2,   /* append value to the list at key (Elle) */
    OP_LIST_READ = 3,   /* read the whole list at key (Elle); see history_list() */
} op_kind;
#define OP_KIND_MASK 0x0fu
#define OP_FAILED    0x80u   /* flag on kind: the operation did not take effect */
#define OP_OVERWRITTEN 0x40u /* set by the builder on a write/append followed by another
                              * successful write/append of the same key in its txn */
#define OP_REPEATED  0x20u   /* set by the builder on a write whose (key, value) another
                              * successful write has too */
#define OP_AMBIGUOUS 0x10u   /* resolved histories only: an external register read whose
                              * writer is not one known write (history_read_candidates) */

typedef enum {
    TXN_COMMITTED     = 0,
    TXN_ABORTED       = 1,
    TXN_INDETERMINATE = 2,   /* Elle :info — may or may not have committed */
} txn_status;

typedef enum {
    FORMAT_AUTO = 0, FORMAT_TEXT, FORMAT_DBCOP, FORMAT_COBRA, FORMAT_ELLE, FORMAT_SYNTHETIC,
    FORMAT_JSON,         /* Elle's history in JSON (as elle-cli reads it) */
    FORMAT_VIPER,        /* Viper's per-session JSON-lines logs (a directory of J<n>.log) */
    FORMAT_DBCOP_JSON,   /* dbcop's JSON history: a target of convert; read by the JSON reader (FORMAT_JSON) */
} history_format;

/* Per-transaction times, carried beside the history (formats that have them:
 * doc/formats.md).  Integers in whatever unit the format uses (Elle's :time
 * nanoseconds, its :index, a timestamp), only ever compared within a kind.
 *   TIME_INVOKE, TIME_COMPLETE  the client's real time: when the transaction
 *       was invoked and when its completion was seen (strong-si, sser:
 *       a RT b iff a committed and complete(a) < invoke(b), strictly);
 *   TIME_DB_START, TIME_DB_COMMIT  the database's own start (snapshot) and
 *       commit timestamps: hints (doc/checker.md, issue 33).
 * HISTORY_TIME_NONE where a transaction has no time of that kind (INIT; an
 * indeterminate transaction's completion). */
typedef enum { TIME_INVOKE = 0, TIME_COMPLETE, TIME_DB_START, TIME_DB_COMMIT, TIME_KINDS } history_time_kind;
#define HISTORY_TIME_NONE INT64_MIN

/* Where line[] numbers point: text lines, or byte offsets of binary records. */
typedef enum {
    LOC_LINE = 0,            /* an op's "line" is its line in the file */
    LOC_OFFSET = 1,          /* ... its byte offset (binary formats) */
    LOC_CALL = 2,            /* ... the library call that added it (include/isocheck.h) */
} history_loc_kind;

typedef struct history_txn {
    uint32_t first_op, num_ops;
    uint32_t session;        /* HISTORY_NONE for INIT */
    uint32_t pos;            /* 0-based position within its session */
    int64_t  ext_id;         /* the format's transaction id (or ordinal) */
    uint32_t line;           /* where the transaction begins (line/offset) */
    uint8_t  status;         /* txn_status */
} history_txn;

typedef struct history_session {
    uint32_t first_txn, num_txns;
    int64_t  ext_id;         /* the format's session/process id */
    uint32_t file;           /* offset in strings of the file it came from */
} history_session;

typedef struct history_list_ref { uint64_t off; uint32_t len; } history_list_ref;

typedef struct history {
    history_format format;
    history_loc_kind loc;
    char *source;                    /* path given to the loader ("-" for stdin) */

    uint32_t num_sessions;
    history_session *sessions;

    uint32_t num_txns;               /* including INIT (txn 0) */
    history_txn *txns;

    uint32_t num_ops;                /* structure of arrays, num_ops each */
    uint8_t  *op_kind;               /* op_kind | OP_FAILED | OP_OVERWRITTEN */
    uint32_t *op_key;
    /* Values (read them with history_op_value): when every value but a
     * few fits in 32 bits, op_val32 holds them (VALUE_INIT as
     * HISTORY_V32_INIT) and op_val64 is NULL; the few others are
     * HISTORY_V32_ESC there, with the op in esc_op (ascending) and its
     * value in esc_val, num_esc of them.  Else op_val64 holds every value
     * and op_val32 is NULL. */
    int32_t  *op_val32;
    int64_t  *op_val64;
    uint32_t  num_esc;
    uint32_t *esc_op;
    int64_t  *esc_val;
    /* An op's transaction (read it with history_op_txn): op_txn_base[b]
     * is the transaction of op b << HISTORY_TXN_BLOCK_SHIFT, and op's
     * own is that plus op_txn_delta[op] (1 byte an op).  A block whose ops
     * span more than 256 transactions (runs of empty ones) cannot say it:
     * then op_txn_full holds every op's and the other two are NULL. */
    uint32_t *op_txn_base;
    uint8_t  *op_txn_delta;
    uint32_t *op_txn_full;
    /* Where an op is, line or byte offset (saturates at UINT32_MAX): read it
     * with history_op_line().  Most inputs need no array: when op i of
     * every transaction is at its line + i (text, one op per line, a
     * transaction's lines together) op_line_step is 1, when every op is at
     * its transaction's line (one record per transaction) it is 0, and
     * op_line is NULL; else op_line holds each op's (4 bytes an op). */
    uint32_t *op_line;
    uint32_t  op_line_step;

    uint32_t num_keys;
    int64_t  *key_ext;               /* the format's key (integer keys) */
    uint32_t *key_name;              /* offset in strings, or HISTORY_NONE */

    /* Per key, its successful writes/appends (INIT's first), as op indices:
     * key_writes[key_write_start[k] .. key_write_start[k+1]). */
    uint32_t *key_write_start;       /* num_keys + 1 */
    uint32_t *key_writes;

    /* (key, value) -> writing op, open addressing, HISTORY_NONE = empty;
     * writer_cap slots, twice the writes, in one region per key: key k's
     * writers are in slots [2 key_write_start[k], 2 key_write_start[k+1])
     * (twice its writes, INIT's included), probed from a home the value's
     * hash gives within it, wrapping inside it.  A slot's op is then of
     * key k: a lookup compares the value only, and the table is built key
     * by key, each region small and in the caches. */
    uint32_t *writer_slots;
    uint64_t  writer_cap;

    /* list reads */
    uint32_t num_lists;
    history_list_ref *lists;
    int64_t *list_pool;

    char  *strings;                  /* NUL-separated string pool */
    size_t strings_len;

    uint32_t num_names;              /* named values: VALUE_NAME_BASE + i is strings + name_off[i] */
    uint32_t *name_off;

    int has_lists;                   /* any OP_APPEND / OP_LIST_READ */

    /* times[k]: NULL when no transaction has a time of kind k, else
     * num_txns entries (read them with history_time()). */
    int64_t *times[TIME_KINDS];

    /* Predicate reads (predicate.h): the side table, NULL when there are
     * none, and per op its tag (PRED_TAG_NONE: not lowered from one);
     * op_pred is NULL when no op has a tag. */
    struct history_preds *preds;
    uint32_t *op_pred;
    /* Repeated values (repeat.c): the OP_REPEATED writes sorted by (key,
     * value, op); num_repeated of them (0: every value is unique). */
    uint32_t num_repeated;
    uint32_t *rep_ops;
    /* A resolved history (history_resolved) only: its OP_AMBIGUOUS reads
     * in op order, amb_read[i] with candidates amb_cand[amb_start[i] ..
     * amb_start[i + 1]) (write ops of this history, all of them, each
     * with amb_why: 0 possible, else the history_rule_out it fails). */
    uint32_t num_amb;
    uint32_t *amb_read, *amb_start, *amb_cand;
    uint8_t *amb_why;
    struct history *resolved;        /* the resolved form, made once (history_resolved); a list history
                                        with repeated appends: the report's (history_set_list_assumed) */
    /* history_share_read_sources (read_sources.c): per op, an OP_READ's
     * history_writer_of (else HISTORY_NONE), looked up once a run; used
     * only while read_src_of is this very history (a struct copy looks up). */
    uint32_t *read_src;
    const struct history *read_src_of;
    uint8_t read_src_out;            /* history_read_sources_done spilled read_src */
    /* history_spill: the per-op arrays and the writer table are spilled
     * (the one field that changes after the build; no byte of the arrays
     * does). */
    uint8_t spilled;
} history;

void history_free(history *h);
/* Move the arrays the checking stages between the index and the re-check
 * do not read out of resident memory (io/spill.h: into a file, at the same
 * addresses, the same bytes): the ops' kinds, keys, values, transactions
 * and lines, key_writes, the writer table and the shared read sources
 * (history_share_read_sources).  Any read afterwards is
 * served as before (its page faults back in).  Nothing happens unless the
 * program called spill_enable.  Only for a history its owner frees with
 * history_free (not a view sharing another's arrays). */
void history_spill(const history *h);
/* For a history history_spill spilled, or whose read sources alone
 * history_read_sources_done spilled: drop the pages read back since
 * (else nothing). */
void history_spill_again(const history *h);

static inline op_kind history_op_kind(const history *h, uint32_t op) {
    return (op_kind)(h->op_kind[op] & OP_KIND_MASK);
}
static inline int history_op_failed(const history *h, uint32_t op) {
    return (h->op_kind[op] & OP_FAILED) != 0;
}
static inline int history_op_is_write(const history *h, uint32_t op) {
    op_kind k = history_op_kind(h, op);
    return (k == OP_WRITE || k == OP_APPEND) && !history_op_failed(h, op);
}
/* A write that its own transaction overwrote (reading it is an intermediate read). */
static inline int history_op_overwritten(const history *h, uint32_t op) {
    return (h->op_kind[op] & OP_OVERWRITTEN) != 0;
}
static inline int history_op_is_read(const history *h, uint32_t op) {
    op_kind k = history_op_kind(h, op);
    return (k == OP_READ || k == OP_LIST_READ) && !history_op_failed(h, op);
}

/* An op's transaction and value: read them through these (the arrays'
 * layout is this header's business; bench/history_accessors.pl converts
 * direct uses). */
#define HISTORY_TXN_BLOCK_SHIFT 8
static inline uint32_t history_op_txn(const history *h, uint32_t op) {
    if (h->op_txn_full) return h->op_txn_full[op];
    return h->op_txn_base[op >> HISTORY_TXN_BLOCK_SHIFT] + h->op_txn_delta[op];
}
#define HISTORY_V32_INIT INT32_MIN          /* op_val32's VALUE_INIT */
#define HISTORY_V32_ESC  (INT32_MIN + 1)    /* op_val32's escape: the value is in esc_val */
int64_t history_op_value_escaped(const history *h, uint32_t op);
static inline int64_t history_op_value(const history *h, uint32_t op) {
    if (h->op_val64) return h->op_val64[op];
    int32_t v = h->op_val32[op];
    if (v > HISTORY_V32_ESC) return v;
    return v == HISTORY_V32_INIT ? VALUE_INIT : history_op_value_escaped(h, op);
}
/* Give op a new value (resolved histories and their copies; the history
 * is not shared while this runs).  May widen the values to op_val64. */
void history_set_op_value(history *h, uint32_t op, int64_t v);
/* Put the values back in the narrow form where they fit (after many
 * history_set_op_value calls). */
void history_pack_values(history *h);
/* Prefetch op's fields (kind, key, value, transaction). */
#if defined(__GNUC__)
#define HISTORY_OP_PREFETCH(h, op) do { \
        const history *h_ = (h); uint32_t o_ = (op); \
        __builtin_prefetch(&h_->op_kind[o_]); __builtin_prefetch(&h_->op_key[o_]); \
        __builtin_prefetch(h_->op_val64 ? (const void *)&h_->op_val64[o_] : (const void *)&h_->op_val32[o_]); \
        __builtin_prefetch(h_->op_txn_full ? (const void *)&h_->op_txn_full[o_] : (const void *)&h_->op_txn_delta[o_]); \
    } while (0)
#else
#define HISTORY_OP_PREFETCH(h, op) ((void)(h), (void)(op))
#endif

/* The predicate-read tag of op (predicate.h), or UINT32_MAX. */
static inline uint32_t history_op_pred(const history *h, uint32_t op) {
    return h->op_pred ? h->op_pred[op] : UINT32_MAX;
}

/* What an op's "line" is, for reports: "line", "byte" or "call". */
static inline const char *history_loc_word(const history *h) {
    return h->loc == LOC_OFFSET ? "byte" : h->loc == LOC_CALL ? "call" : "line";
}

/* Transaction t's time of kind k, or HISTORY_TIME_NONE. */
static inline int64_t history_time(const history *h, history_time_kind k, uint32_t t) {
    return h->times[k] ? h->times[k][t] : HISTORY_TIME_NONE;
}
static inline int history_has_times(const history *h, history_time_kind k) { return h->times[k] != NULL; }

/* Where op is (line or byte offset; INIT's ops: 0). */
static inline uint32_t history_op_line(const history *h, uint32_t op) {
    if (h->op_line) return h->op_line[op];
    uint32_t t = history_op_txn(h, op);
    if (t == 0) return 0;
    return h->txns[t].line + h->op_line_step * (op - h->txns[t].first_op);
}

/* The writer table's first slot to probe for (key, value) (key <
 * num_keys): the value hash's top half scaled to the key's region. */
static inline uint64_t history_writer_home(const history *h, uint32_t key, int64_t value) {
    uint64_t lo = h->key_write_start[key], n = h->key_write_start[key + 1] - lo;
    return 2 * lo + ((u64_mix((uint64_t)value) >> 32) * (2 * n) >> 32);
}
/* For loops that look up many writers: a lookup costs two cache misses
 * (the slot, then the value of the op it holds; the key's region bounds
 * are a small array, usually cached); ask for both ahead.  Stage 1 fetches
 * the slot of a lookup some iterations ahead, stage 2 (about half as far
 * ahead, the slot cached by then) the kind, value and transaction of the
 * op in it (callers go on to the writer's transaction).  Hints only: any
 * argument gives the same results. */
#define HISTORY_PREFETCH_AHEAD 16    /* stage 1's distance, in lookups (or ops) */
/* The helpers are always inlined: GCC finds a function whose only effect
 * is a prefetch free of side effects and drops every call to it (seen with
 * GCC 12 at -O2, the helpers' hints silently lost). */
#if defined(__GNUC__)
#define HISTORY_PREFETCH(p) __builtin_prefetch(p)
#define HISTORY_PREFETCH_FN static inline __attribute__((always_inline))
#else
#define HISTORY_PREFETCH(p) ((void)(p))
#define HISTORY_PREFETCH_FN static inline
#endif
/* Stage 0, twice as far ahead as stage 1: the key's region bounds, which
 * stage 1 needs to find the slot (with 2.2M keys, 8.8 MB of them: not in
 * the caches either). */
#define HISTORY_PREFETCH_REGION (2 * HISTORY_PREFETCH_AHEAD)
HISTORY_PREFETCH_FN void history_writer_prefetch_region(const history *h, uint32_t key) {
    if (h->key_write_start) HISTORY_PREFETCH(&h->key_write_start[key]);
}
HISTORY_PREFETCH_FN void history_writer_prefetch_slot(const history *h, uint32_t key, int64_t value) {
    if (h->writer_slots) HISTORY_PREFETCH(&h->writer_slots[history_writer_home(h, key, value)]);
}
HISTORY_PREFETCH_FN void history_writer_prefetch_op(const history *h, uint32_t key, int64_t value) {
    if (!h->writer_slots) return;
    uint32_t op = h->writer_slots[history_writer_home(h, key, value)];
    if (op < h->num_ops) {
        HISTORY_PREFETCH(&h->op_kind[op]);
        HISTORY_PREFETCH(h->op_val64 ? (const void *)&h->op_val64[op] : (const void *)&h->op_val32[op]);
        if (h->op_txn_full) HISTORY_PREFETCH(&h->op_txn_full[op]);
        else { HISTORY_PREFETCH(&h->op_txn_delta[op]); HISTORY_PREFETCH(&h->op_txn_base[op >> HISTORY_TXN_BLOCK_SHIFT]); }
    }
}

/* With the shared read sources (history_share_read_sources): the kind and
 * transaction of read op's writer asked for ahead (the array itself is
 * read in order; its writers are all over the history).  A hint only. */
HISTORY_PREFETCH_FN void history_read_source_prefetch(const history *h, uint32_t op) {
    if (op >= h->num_ops || h->read_src_of != h) return;
    uint32_t w = h->read_src[op];
    if (w >= h->num_ops) return;
    HISTORY_PREFETCH(&h->op_kind[w]);
    if (h->op_txn_full) HISTORY_PREFETCH(&h->op_txn_full[w]);
    else { HISTORY_PREFETCH(&h->op_txn_delta[w]); HISTORY_PREFETCH(&h->op_txn_base[w >> HISTORY_TXN_BLOCK_SHIFT]); }
}

/* The successful write/append of `value` to `key`, or HISTORY_NONE. */
uint32_t history_writer_of(const history *h, uint32_t key, int64_t value);

static inline int history_op_ambiguous(const history *h, uint32_t op) { return (h->op_kind[op] & OP_AMBIGUOUS) != 0; }

/* ---- Repeated values (repeat.c) ---------------------------------------- */
/* Every successful write of value to key: the count, *ops the writes (op
 * order).  one[0] holds the single writer of a unique value. */
uint32_t history_writers_of(const history *h, uint32_t key, int64_t value, uint32_t one[1], const uint32_t **ops);
/* Why write w cannot be what external read r of the same value saw
 * (0: it can): its transaction aborted; it is r's own transaction's
 * write (later than r); its transaction overwrote it (an intermediate
 * version). */
typedef enum { RULE_POSSIBLE = 0, RULE_ABORTED, RULE_OWN_LATER, RULE_OVERWRITTEN, RULE_UNOBSERVED } history_rule_out;
/* RULE_UNOBSERVED (set by history_resolved, never by history_rule_out_of):
 * an indeterminate transaction's write that no read shows took part, while
 * a possible writer that takes part remains (doc/checker.md, "Repeated
 * values": who takes part). */
history_rule_out history_rule_out_of(const history *h, uint32_t r, uint32_t w);
const char *history_rule_out_text(history_rule_out why);
/* The history to check: h itself when num_repeated is 0, else its
 * resolved form (made on the first call, kept with h, freed by
 * history_free(h)); NULL with err set only for what cannot be resolved.
 * Same transactions, sessions, keys and ops (same indices); only values
 * differ.  Not thread-safe on the first call. */
const history *history_resolved(const history *h, ic_error *err);
/* Ambiguous read r's entry in a resolved history (index into amb_read), or
 * HISTORY_NONE. */
uint32_t history_amb_index(const history *h, uint32_t r);
/* A copy of resolved history h in which every OP_AMBIGUOUS read reads the
 * write choice[i] (an op of amb_cand's range i, amb_why 0) instead: a
 * history with unique values whose reads name their writers.  NULL when a
 * choice is not a possible candidate. */
history *history_with_choice(const history *h, const uint32_t *choice);

/* For readers that cannot follow repeated values (check --follow, the
 * retiring stream): h unchanged when no value repeats, else NULL with err
 * at the earliest second write of a value, as the builder once refused it
 * ("value V written twice to key K (first at ...)"); h is freed then. */
history *history_refuse_repeated(history *h, ic_error *err);

/* The list an OP_LIST_READ observed; *len gets its length. */
const int64_t *history_list(const history *h, uint32_t op, uint32_t *len);

/* The value a read observed for "who wrote it" purposes: a plain read's
 * value; a list read's last element, or VALUE_INIT for the empty list. */
int64_t history_read_value(const history *h, uint32_t op);

/* The op that wrote what read `op` observed (HISTORY_NONE: nobody): for a
 * list read, the appender of its last element — own appends included.
 * A register read's from the shared array when there is one (below). */
uint32_t history_read_source(const history *h, uint32_t op);
/* Look up every register read's writer once, on pool (NULL: the caller's
 * thread), for the run's stages to share: history_read_source (and the
 * history_snapshot_source / history_external_source of register reads)
 * then answer from an array of 4 bytes an op, with the same results.
 * Not thread-safe: call it before the stages start; h read-only else.
 * history_read_sources_done, after the axioms and the index: the array
 * is spilled where the program spills (io/spill.h; it stays for the
 * interpretation, read back), else freed.  history_has_read_sources: whether h answers from it
 * (callers skip their lookups' prefetches then). */
struct par_pool;
void history_share_read_sources(const history *h, struct par_pool *pool);
void history_read_sources_done(const history *h);
static inline int history_has_read_sources(const history *h) { return h->read_src_of == h; }
/* The version an external read observed, as that version's final write op
 * (INIT's op k for the initial one), or HISTORY_NONE (nobody wrote it, or a
 * list shorter than its own suffix).  A register read: history_read_source.
 * A list read after `own_appends` own appends to its key: the writer of the
 * last element of its external prefix.  history_external_source counts the
 * own appends itself (a scan of the transaction's ops before op). */
uint32_t history_snapshot_source(const history *h, uint32_t op, uint32_t own_appends);
uint32_t history_external_source(const history *h, uint32_t op);

/* Transaction t's last successful write of key (INIT: its op for key), or
 * HISTORY_NONE: the version of key that t installs. */
uint32_t history_txn_final_write(const history *h, uint32_t t, uint32_t key);
/* Transaction t's external read of key: the first successful read of key
 * that shows t's snapshot — a register read before any own write of key, or
 * any list read (after own appends too: its external prefix) — else
 * HISTORY_NONE.  Its version: history_external_source(). */
uint32_t history_txn_external_read(const history *h, uint32_t t, uint32_t key);
/* The transactions a dependency graph is built over: INIT, the committed
 * ones, and, to a fixpoint, every indeterminate transaction that wrote
 * something a participant read (any element of a list read).  A calloc'd
 * flag per txn; the caller frees it. */
uint8_t *history_participants(const history *h);

/* A value (or session id) as written: "init" for VALUE_INIT, the written
 * form of a named value, else the integer. */
const char *history_value_str(const history *h, int64_t v, char *buf, size_t n);
/* Whether v is a named value (hb_name) of h. */
int history_value_is_named(const history *h, int64_t v);

/* Human-readable key ("42" or the interned string) into buf. */
const char *history_key_str(const history *h, uint32_t key, char *buf, size_t n);
/* "file:LINE" or "file: byte N" of an op / a transaction, into buf. */
const char *history_op_where(const history *h, uint32_t op, char *buf, size_t n);
const char *history_txn_where(const history *h, uint32_t txn, char *buf, size_t n);

/* ---- Builder --------------------------------------------------------
 * Usage:
 *   history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, path);
 *   uint32_t s = hb_session(b, ext_session_id, file_or_NULL);
 *   uint32_t t = hb_txn(b, s, ext_txn_id, line);      // next in session s
 *   hb_op(b, t, OP_WRITE, hb_key(b, 7), 42, line);
 *   hb_txn_status(b, t, TXN_COMMITTED);               // default committed
 *   history *h = hb_finish(b, &err);                  // frees b
 * Transactions of different sessions may interleave; ops of a transaction
 * may interleave with other transactions' (finish regroups them stably).
 * Handles returned by hb_session/hb_txn are builder-local; the final
 * indices differ (transactions are regrouped by session, INIT is 0). */
typedef struct history_builder history_builder;

history_builder *hb_new(history_format format, history_loc_kind loc, const char *source);
void hb_free(history_builder *b);

/* Session with this external id (created on first use).  `file` names the
 * file it came from for messages (NULL: the source). */
uint32_t hb_session(history_builder *b, int64_t ext_id, const char *file);

/* Start a new transaction at the end of session s. */
uint32_t hb_txn(history_builder *b, uint32_t session, int64_t ext_id, uint32_t line);
void hb_txn_status(history_builder *b, uint32_t txn, txn_status st);
uint32_t hb_num_txns(const history_builder *b);
/* Give txn a time of kind k (v != HISTORY_TIME_NONE); kept through
 * hb_clone and hb_finish.  Unset ones stay HISTORY_TIME_NONE. */
void hb_txn_time(history_builder *b, uint32_t txn, history_time_kind k, int64_t v);

/* Dense key ids. */
uint32_t hb_key(history_builder *b, int64_t ext_key);
/* The id hb_key() gave ext_key, or HISTORY_NONE if it has given none yet.
 * Reads only: several threads may call it at once while no thread adds. */
uint32_t hb_key_find(const history_builder *b, int64_t ext_key);
/* A hint that hb_key_find(b, ext_key) comes soon (a loop over many keys
 * asks a few ahead, so the lookups' cache misses overlap). */
void hb_key_prefetch(const history_builder *b, int64_t ext_key);
uint32_t hb_key_str(history_builder *b, const char *s, size_t len);

/* A new named value with written form s (the caller interns: every call
 * gives a new id VALUE_NAME_BASE + i). */
int64_t hb_name(history_builder *b, const char *s, size_t len);

/* Add an op at the end of txn's program order.  kind may carry OP_FAILED.
 * Returns the op's builder-local index (for hb_op_retag). */
uint32_t hb_op(history_builder *b, uint32_t txn, unsigned kind, uint32_t key, int64_t value, uint32_t line);
uint32_t hb_list_read(history_builder *b, uint32_t txn, uint32_t key,
                      const int64_t *vals, uint32_t n, uint32_t line);
/* Turn op i (a read of VALUE_INIT) into a read of the empty list: Elle's
 * `[:r k nil]` is only known to be a list read once k is seen appended. */
void hb_op_make_empty_list_read(history_builder *b, uint32_t i);
/* Predicate reads (predicate.h): give op i a tag, set op i's kind (flags
 * included) and value (a placeholder read resolved at the end of input),
 * hand the builder the side table (it owns it from then on; hb_finish
 * renumbers its transactions and moves it into the history). */
void hb_op_tag(history_builder *b, uint32_t i, uint32_t tag);
void hb_op_set(history_builder *b, uint32_t i, unsigned kind, int64_t value);
void hb_set_preds(history_builder *b, struct history_preds *p);
/* What the builder holds so far (the text reader's predicate lines replay
 * the ops read before the first one, text_pred.h): ops in the order added,
 * keys, a transaction's status. */
uint32_t hb_num_ops(const history_builder *b);
/* The ops builder transaction txn has so far (the next one's place in it). */
uint32_t hb_txn_num_ops(const history_builder *b, uint32_t txn);
uint32_t hb_num_keys(const history_builder *b);
void hb_op_get(const history_builder *b, uint32_t i, uint32_t *txn, unsigned *kind, uint32_t *key, int64_t *value,
               uint32_t *line);
txn_status hb_txn_status_of(const history_builder *b, uint32_t txn);
/* Key k's integer: 1 with *ext, 0 for a key with a name. */
int hb_key_int(const history_builder *b, uint32_t k, int64_t *ext);

/* A copy of b holding only the transactions t with keep[t] != 0 (NULL:
 * all), each with all its ops, in the same order; keys (same ids), named
 * values and strings are copied whole; sessions only where a transaction
 * is kept.
 * b is unchanged: a history can be built (hb_finish on the copy) and the
 * original builder extended afterwards (online checking, the library). */
history_builder *hb_clone(const history_builder *b, const uint8_t *keep);

/* For a reader that adds ops in blocks on one thread while another
 * thread idles: hb_reserve_ops makes room in the op arrays for `now` +
 * `next` more ops (they are not moved until that many are added) and
 * names the room of the `next` ops after the `now` ones (and of their
 * transactions, estimated from the ops per transaction so far); hb_room_touch,
 * on the idle thread while the `now` ops are added, faults those pages in
 * (io/bigmem.h big_populate: the kernel clears them there, not in the
 * adding thread's way; no byte changes, so it is harmless even where the
 * adding thread writes).  The history is the same with or without. */
typedef struct hb_room { void *p[4]; size_t bytes[4]; } hb_room;
hb_room hb_reserve_ops(history_builder *b, size_t now, size_t next);
void hb_room_touch(const hb_room *r);

/* hb_finish may place the op fields on this many threads (par.h; 0 or 1:
 * the caller's alone).  The history is the same for every count. */
void hb_set_threads(history_builder *b, unsigned threads);

/* Build the history: checks it is non-empty (at least one transaction with
 * an op) and that no key is used both as a register and as a list (a
 * value written or appended twice to a key is flagged OP_REPEATED).  On error returns NULL with err set
 * (file, line/offset).  Always frees b. */
history *hb_finish(history_builder *b, ic_error *err);

#endif
