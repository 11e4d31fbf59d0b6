/* jepsen_pred.h — Elle's closed-predicate histories (elle.closed-predicate)
 * lowered to the model's reads (frontend/history/predicate.h): what the
 * Jepsen reader (jepsen_ops.c) records while it reads, and the resolution at
 * the end of the input, when every version of every key is known.
 *
 *   {:f :init :value {:x 1 ...}}   the trusted initial state: INIT's version
 *                                  of :x holds 1 (a read of 1 is a read of
 *                                  INIT's version); keys it omits are unborn
 *   [:insert :x 1] [:w :x 2]      writes; [:delete :x] writes a dead version
 *   [:rp PRED {:x 1 ...}]         a predicate read (PRED: :true, [:= c],
 *                                  [:mod m r], [:< c], [:<= c], [:> c],
 *                                  [:>= c], [:not= c], [:range lo hi];
 *                                  [:and [:key-in a b] PRED]: over the
 *                                  integer keys a..b only, an extension);
 *                                  the result: a map, or (JSON, whose object
 *                                  keys are strings) a vector of [k v] pairs
 *
 * Resolution (the histories are *active* once any of the above appears;
 * others are untouched): a returned pair is an item read (tag: returned);
 * for every other register key k of the history, over k's versions that
 * the reader could have seen (INIT's and those of every other transaction
 * that did not abort): none matches — nothing to constrain; all match — a
 * PF_MISS fact; exactly one does not — a read of it (tag: predicate); two
 * or more do not and one does — the reader's version depends on the
 * version order: an error (exit 2) naming the read, the one case this
 * first version does not decide (doc/checker.md, "Predicate reads").
 * Before all that: a key the transaction also reads by itself (an item read
 * before any own write) was seen in that version (PF_MISS_READ if it
 * matches, with rr's view: the versions of k the predicate does not match
 * that the reader could see, predicate.h; nothing more to add, the item
 * read constrains the same).  A
 * key the reader itself wrote before the predicate read is its own
 * version (PF_MISS_OWN if it matches).  A nil read ([:r k nil]) is a read
 * of k's absent version, resolved the same way over k's absent versions
 * (unborn, dead): none — a read of a value nobody wrote; two — an error. */
#ifndef ISOCHECK_JEPSEN_PRED_H
#define ISOCHECK_JEPSEN_PRED_H

#include <stdint.h>

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/predicate.h"
#include "frontend/formats/optree.h"

typedef struct jp_state jp_state;

jp_state *jp_new(void);
void jp_free(jp_state *s);
/* A predicate read's predicate and its declared key range, if any. */
typedef struct jp_pred { predicate p; uint8_t keyed; int64_t klo, khi; } jp_pred;
/* The predicate at node into *p: NULL, or what was expected (for the message). */
const char *jp_parse_predicate(const optree *t, uint32_t node, predicate *p);
/* The same, also [:and [:key-in a b] PRED] (a <= b): its key range; *bad:
 * the node the message is about. */
const char *jp_parse_read_pred(const optree *t, uint32_t node, jp_pred *p, uint32_t *bad);
/* Whether predicate semantics apply (an :init, insert, delete or :rp seen).
 * Until then jp_version, jp_item_read and jp_nil_read record nothing (a
 * history without predicates needs none of it: a record per operation
 * cost the EDN loader a tenth of its time); whoever activates a state
 * after operations were read replays them in order (jepsen_ops.c's
 * activate and text_pred.c's tp_new replay the builder's ops). */
int jp_active(const jp_state *s);
void jp_activate(jp_state *s);
/* Activate s after the ops of b so far were read inactive: record them as
 * they were added (one transaction's ops adjacent, in order): a write
 * is a version of its transaction's status, a read an item read, except
 * the ops listed in nil_pairs (n entries: pairs op, key, ops ascending),
 * which are nil reads; appends and list reads record nothing. */
void jp_activate_replay(jp_state *s, const history_builder *b, const uint32_t *nil_pairs, size_t n);
/* :init's value for key; 0 if key already has one. */
int jp_init(jp_state *s, uint32_t key, int64_t value);
/* The model value of a read of v from key: VALUE_INIT for key's :init value. */
int64_t jp_read_value(const jp_state *s, uint32_t key, int64_t v);
/* A version: builder txn (with its status) wrote value to key (dead: a delete). */
void jp_version(jp_state *s, uint32_t key, int64_t value, uint32_t txn, uint8_t status, int dead, uint32_t line);
/* A predicate read of builder txn at line; returns its index. */
uint32_t jp_read(jp_state *s, const predicate *p, uint32_t txn, uint32_t line);
/* Read `read` covers the integer keys lo..hi only (a declared key range: the
 * text format's `key in A..B and PRED`): other keys are outside its universe,
 * and a key outside it returned is a PF_MISMATCH. */
void jp_read_keys(jp_state *s, uint32_t read, int64_t lo, int64_t hi);
/* Predicate read `read` stands after the first pos ops of its transaction
 * (pred_read.pos: its lowered ops' place, also of those added later). */
void jp_read_pos(jp_state *s, uint32_t read, uint32_t pos);
/* Read `read` returned key = value; op is the item read emitted for it. */
void jp_returned(jp_state *s, uint32_t read, uint32_t key, int64_t value, uint32_t op);
/* The next versions (jp_version) are a new transaction's. */
void jp_begin_txn(jp_state *s);
/* A placeholder read op of key, emitted where the predicate read is, for a
 * key its transaction writes and it did not return (the transaction's own
 * versions so far are the ones before the read). */
void jp_own(jp_state *s, uint32_t read, uint32_t key, uint32_t op);
/* An item read of key = v (as written) by txn; returns its model value
 * (jp_read_value).  When it is the transaction's first read of key before
 * any own write, its predicate reads saw that version of key too (one
 * snapshot per transaction). */
int64_t jp_item_read(jp_state *s, uint32_t key, int64_t v, uint32_t txn);
/* A nil read op of key by txn at line (own versions as in jp_own). */
void jp_nil_read(jp_state *s, uint32_t op, uint32_t key, uint32_t txn, uint32_t line);
/* Resolve everything into b (ops set, appended and tagged; the side table
 * handed over).  is_list[k] (nkeys entries): key k is a list, outside the
 * universe.  0 with err set on a history this version does not decide. */
int jp_finish(jp_state *s, history_builder *b, const uint8_t *is_list, uint32_t nkeys, const char *source, ic_error *err);

#endif
