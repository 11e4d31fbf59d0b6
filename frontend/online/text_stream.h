/* frontend/online/text_stream.h — PolySI's text format read as it grows: each call parses
 * only the complete lines that arrived since the last one, and hands back
 * the transactions that completed with them (`isocheck check --follow`).
 *
 * Contract
 *   - text_stream_feed(data, base, n): data holds the input's bytes
 *     [base, base + n) (base <= consumed: what was parsed may be dropped
 *     by the caller); it lexes the bytes from consumed to the last '\n' with
 *     the batch lexer (text_line.h: same syntax, same messages, line
 *     numbers counted from the start of the input) and applies each line
 *     as parse_text.c does (value 0 is INIT; the file's first transaction,
 *     if it writes only 0, is the initial state and is merged away; keys
 *     get ids in order of first appearance, as the batch builder gives
 *     them).  Then, as frontend/online/follow.h judges completion, every
 *     transaction but the last of each session is complete; the ones that
 *     completed in this call are listed in ts->done (valid until the next
 *     call), in the order of their first lines (so in session order per
 *     session).
 *   - Returns 1, -1 on a syntax error (err set exactly as the batch parser
 *     sets it), or 0 when the input breaks a rule the batch builder or the
 *     follow reader enforces (a transaction in two sessions, 0 written
 *     anywhere but the initial state, a value written twice to one key, a
 *     complete transaction that grows): the caller then re-parses the
 *     input so far with the batch parser, which reports it in its words.
 *     A refused input is never accepted later (the stream stays failed).
 *   - Values written twice: the reader keeps the writes of the
 *     transactions not handed out yet (open ones, and those completing in
 *     this call) and asks ts->written about those handed out before
 *     (the caller stores them: the incremental state's write index,
 *     frontend/online/follow.h).  It answers 1 (written: refused), 0, or -1 when it
 *     cannot say (it lacks some handed-out transaction): then the reader
 *     refuses too, as it does with no ts->written at all — it never accepts
 *     a write it could not check.  So a value written twice is refused at
 *     its line, wherever the first write is.  A value outside the range of
 *     those written to its key so far needs no question (most histories
 *     write rising values: one question a write cost the 1M stream a
 *     quarter of its parsing time).
 *   - Cost: linear in the new bytes (hash lookups per line); memory: 4
 *     bytes and an id-map entry per transaction, 16 bytes a key (its
 *     range), 16 to 32 bytes per write of the transactions not handed
 *     out, and their operations.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_TEXT_H
#define ISOCHECK_ONLINE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "vec.h"
#include "frontend/history/u64map.h"
#include "frontend/online/incr.h"

/* A transaction still open (not complete): its operations, ops[0 ..
 * num_ops) in room for cap_ops, and its index among the transactions read.
 * Kept in its session's open list only; once handed out, what stays of it
 * is its tag (4 bytes: the rules need no more). */
typedef struct ts_open { int64_t ext; incr_op *ops; uint32_t t, num_ops, cap_ops, num_w; } ts_open;   /* num_w: writes */
typedef struct ts_range { int64_t lo, hi; } ts_range;
typedef struct ts_sess { int64_t ext; VEC(ts_open) open; uint32_t touched; } ts_sess;   /* open: in order */
/* tag[t] of transaction t: its session while open; TS_DONE | its number
 * of operations once complete (what a batch re-read compares it with:
 * follow_completed) */
#define TS_DONE 0x80000000u
/* Did a transaction handed out (ts->done, in this or an earlier call)
 * write value to key id?  1 yes, 0 no, -1 cannot say. */
typedef int (*text_written_fn)(void *ctx, uint32_t key, int64_t value);

typedef struct text_stream {
    char *name;
    size_t consumed;             /* bytes parsed */
    long line;                   /* lines parsed */
    int failed;                  /* 0 returned once: the batch parser speaks from now on */
    u64map keys;                 /* ext key -> id */
    vec_i64 key_ext;             /* id -> ext key */
    VEC(ts_range) key_vals;      /* id -> the range of the values written to it (a value outside
                                  * was not written: nothing to ask, whatever the order of values) */
    u64map txn_ids;              /* ext txn -> index t in tag */
    vec_u32 tag;                 /* per transaction read: session, or TS_DONE | ops (4 bytes,
                                  * not a record: the caller keeps the rest) */
    u64map sess_ids;             /* ext session -> index in sess */
    VEC(ts_sess) sess;
    /* hashes of (key id, value) of the writes of the transactions not
     * handed out, an open-addressing set of open_cap slots (0: empty), at
     * most 1/2 full; a transaction's leave it as it is handed out (the
     * caller keeps the writes handed out; this set holds only the open ones) */
    uint64_t *open_w;
    size_t open_cap, open_len;
    text_written_fn written;     /* about the writes handed out (NULL: cannot say) */
    void *written_ctx;
    vec_u32 touched;             /* sessions with a new line since the last feed */
    uint32_t round;
    int have_last, have_init;    /* as parse_text.c's apply_op */
    int64_t last_txn, last_sess, init_txn, init_sess;
    uint32_t last_t, last_s;     /* the last line's transaction and its session */
    uint32_t completed;          /* transactions complete so far */
    VEC(incr_txn) done;          /* completed by the last feed */
    VEC(incr_op *) done_ops;     /* their operations, freed at the next feed */
    vec_u32 done_t;              /* order_done's scratch: each done one's t */
} text_stream;

void text_stream_init(text_stream *ts, const char *name);
/* Who knows the writes of the transactions handed out (see above). */
static inline void text_stream_set_written(text_stream *ts, text_written_fn fn, void *ctx) {
    ts->written = fn;
    ts->written_ctx = ctx;
}
void text_stream_free(text_stream *ts);
int text_stream_feed(text_stream *ts, const char *data, size_t base, size_t n, ic_error *err);
/* The end of input, after the last feed of every byte (which ended with a
 * newline): the last transaction of each session completes too; ts->done
 * lists them (as a feed does).  0 if the stream had failed.  Nothing may be
 * fed afterwards. */
int text_stream_finish(text_stream *ts);
/* The operations of transaction ext if it was handed out (complete), else
 * UINT32_MAX. */
uint32_t text_stream_done_ops(const text_stream *ts, int64_t ext);
/* Transactions read so far (complete or not). */
static inline uint32_t text_stream_read(const text_stream *ts) { return (uint32_t)ts->tag.len; }

#endif
