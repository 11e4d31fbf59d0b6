/* hb_internal.h — the history builder's state, shared by the builder
 * (history.c: what the readers call) and its finish (hb_finish.c: the
 * history built from it).  Nothing else includes it.
 *
 * The per-op arrays are what a large load spends its memory and page
 * faults on, so the two that usually follow from the transactions are not
 * kept:
 *   - an op's transaction: while every transaction's ops arrive together
 *     (one run each, as text and most formats write them), a transaction
 *     knows its first op (first_bop) and the runs are listed in arrival
 *     order (run_txn); op_txn is made, and kept per op, from the first op
 *     that continues a transaction after another one's (ops_mixed);
 *   - an op's line: while every op sits at its transaction's line plus its
 *     place in it (line_step1) or at the line itself (line_step0), op_line
 *     stays empty; it is made, and kept per op, from the first op that
 *     breaks both, or when op_txn is made (lines_stored).
 * hb_finish then moves the runs whole (history_dest in repeat_internal.h)
 * instead of op by op through a destination array. */
#ifndef ISOCHECK_HB_INTERNAL_H
#define ISOCHECK_HB_INTERNAL_H

#include "frontend/history/history.h"
#include "frontend/history/predicate.h"
#include "frontend/history/u64map.h"
#include "vec.h"

typedef struct hb_session { int64_t ext_id; uint32_t file; uint32_t num_txns; } hb_session_t;
typedef struct hb_txn {
    uint32_t session, pos, line, num_ops;
    uint32_t first_bop;          /* its first op's builder index while !ops_mixed (UINT32_MAX: none yet) */
    uint8_t  status;
    int64_t  ext_id;
} hb_txn_t;

struct history_builder {
    history_format format;
    history_loc_kind loc;
    char *source;
    VEC(hb_session_t) sessions;
    u64map session_ids;
    VEC(hb_txn_t) txns;
    VEC(uint8_t) op_kind;
    vec_u32 op_key;
    vec_u32 op_line;             /* per op once lines_stored, else empty */
    vec_u32 op_txn;              /* per op once ops_mixed, else empty */
    vec_u32 run_txn;             /* while !ops_mixed: the transactions in the order of their first ops */
    int ops_mixed, lines_stored, line_step1, line_step0;
    vec_i64 op_value;
    vec_i64 key_ext;
    vec_u32 key_name;
    u64map int_keys;
    /* string keys: open addressing over key ids, keyed by string hash */
    uint32_t *str_slots; size_t str_cap, str_len;
    VEC(history_list_ref) lists;
    vec_i64 list_pool;
    vec_char strings;
    vec_u32 name_off;            /* named values (hb_name) */
    int has_lists;
    unsigned threads;            /* hb_finish may use this many (hb_set_threads) */
    vec_i64 times[TIME_KINDS];   /* per builder txn, grown on first use (hb_txn_time) */
    vec_u32 op_pred;             /* per builder op, grown on first use (hb_op_tag) */
    history_preds *preds;        /* hb_set_preds */
};

/* (history.c) builder op i's transaction and line, whichever way they are kept. */
uint32_t hb_op_txn_of(const history_builder *b, uint32_t i);
uint32_t hb_op_line_of(const history_builder *b, uint32_t i, uint32_t txn);
/* (history.c) 0 (err set) at the first op that uses a key both as a
 * register and as a list. */
int history_check_key_kinds(history *h, ic_error *err);
/* (history.c) history_index_writers, key_writes and the writer table
 * resized from the malloc'd blocks given (each NULL or the builder's
 * spent op arrays: pages touched already, no fresh zeroed ones), the
 * table filled on `threads` threads (the same table for any count). */
int history_index_writers_into(history *h, ic_error *err, void *for_writes, void *for_slots, unsigned threads);

#endif
