/* frontend/online/elle_stream.h — an Elle EDN or JSON-lines history read as
 * it grows (`isocheck check --follow`): each call parses only the complete
 * lines that arrived since the last one and hands back the transactions
 * completed in them, so that following costs what following text costs
 * (re-parsing the whole input at each arrival made it quadratic).
 *
 * Contract
 *   - elle_stream_feed(data, base, n): data holds the input's bytes
 *     [base, base + n) (base <= consumed); the complete lines from consumed
 *     on (a "chunk") are parsed by the batch reader (load_history_mem: the
 *     same syntax and meaning), each completion a transaction, and listed
 *     in es->done (valid until the next call), with integer keys given ids
 *     in order of first appearance (es->key_ext) and lines counted from
 *     the start of the input.  A chunk that does not parse (an operation
 *     map cut between lines, or an error) waits for more lines and is
 *     parsed again with them.
 *   - Only what reads the same in pieces as whole is taken; anything else
 *     returns 0 and the caller re-parses the whole input from then on (the
 *     batch parser, which also words any error): a history wrapped in a
 *     JSON array; named keys or values, transactions without :process
 *     (their ids are the chunk's, not the input's); list-append (checked
 *     from scratch anyway); an operation map without :index (its id is its
 *     position in the chunk); a transaction id seen in an earlier chunk; a
 *     value written twice (asked of es->written: the writes of the
 *     transactions handed out); a :fail/:info transaction without
 *     operations (its writes may be those of an invocation in an earlier
 *     chunk); a chunk still unreadable at 4 MiB.  A history wrapped in an
 *     EDN vector is read without its brackets; es->closed is set where it
 *     closes (its end): at the end of a chunk, or a chunk of its own (the
 *     "]" line arriving after the last map's line was parsed).  Once 0
 *     was returned, the stream stays failed.
 *   - Returns 1, or 0 (above).  Cost: linear in the new bytes (plus a
 *     re-parse of a waiting chunk per arrival).
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_ELLE_STREAM_H
#define ISOCHECK_ONLINE_ELLE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"
#include "frontend/history/history.h"
#include "frontend/history/u64map.h"
#include "frontend/online/incr.h"
#include "frontend/online/text_stream.h"

typedef struct elle_stream {
    char *name;
    history_format fmt;          /* FORMAT_ELLE or FORMAT_JSON */
    size_t consumed;             /* bytes parsed (whole lines) */
    long line;                   /* lines parsed */
    int failed;                  /* 0 returned once */
    int wrapped;                 /* -1 not known yet, 0 no, 1 inside the EDN vector */
    int closed;                  /* the vector closed: the input ends */
    u64map keys;                 /* ext key -> id */
    vec_i64 key_ext;             /* id -> ext key */
    u64map txn_ids;              /* ext txn ids handed out */
    uint32_t completed;          /* transactions handed out */
    text_written_fn written;     /* about the writes handed out (NULL: cannot say: refused) */
    void *written_ctx;
    VEC(incr_txn) done;          /* completed by the last feed */
    VEC(incr_op) done_ops;       /* their operations (es->done points into it) */
    vec_char buf;                /* the chunk, as parsed */
    size_t open_at;              /* wrapped: the offset of the vector's '[' (read as a blank) */
    struct es_range *ranges;     /* per key id: the values written by those handed out */
} elle_stream;

void elle_stream_init(elle_stream *es, const char *name, history_format fmt);
void elle_stream_free(elle_stream *es);
static inline void elle_stream_set_written(elle_stream *es, text_written_fn fn, void *ctx) {
    es->written = fn;
    es->written_ctx = ctx;
}
int elle_stream_feed(elle_stream *es, const char *data, size_t base, size_t n);

#endif
