/* predicate.h — predicate reads in the history model (issue 34): the
 * predicates, the predicate reads of a history and what a reader found
 * about them that no dependency graph is needed to see.
 *
 * Contract
 *   - A predicate is a condition on a key's value: `true`, a comparison
 *     (=, !=, <, <=, >, >=) with a constant, a range lo..hi (both ends
 *     included) or `mod m r` (value mod m == r, Clojure's mod: the result
 *     has m's sign).  Absent versions (a key not yet inserted: Elle's
 *     :elle/unborn; a deleted key: :elle/dead) match no predicate.
 *   - A predicate read observes the keys of a closed universe (every
 *     register key of the history, or the integer keys of a declared range:
 *     pred_read.keyed): the keys whose version matches, with
 *     their values (its result set), and, silently, a non-matching version
 *     of every other key.  The formats lower it to plain OP_READ ops
 *     (doc/checker.md, "Predicate reads"): a returned pair is an item read;
 *     an unreturned key whose non-matching version is unique is a read of
 *     that version (a *predicate* read op); keys with no matching version
 *     constrain nothing.  Lowered ops carry a tag (history_op_pred): the
 *     predicate read's index and whether the op is a returned pair.
 *   - The side table (history.preds, NULL when the history has no
 *     predicate reads) lists the reads (predicate, reader transaction,
 *     line) and the facts the reader found: a key whose every version
 *     matches missing from the result set (PF_MISS), one whose version the
 *     reader itself wrote and which matches (PF_MISS_OWN), one the reader's
 *     transaction read by itself in a matching version (PF_MISS_READ), a returned
 *     version that does not match (PF_MISMATCH).  checking/pred_axioms.c
 *     turns the facts into anomalies that fail every level.
 *   - Transaction indices in the table are the builder's until hb_finish
 *     renumbers them (preds_remap_txns); afterwards they are history
 *     transaction indices. */
#ifndef ISOCHECK_PREDICATE_H
#define ISOCHECK_PREDICATE_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"

typedef enum {
    PRED_TRUE = 0, PRED_EQ, PRED_NE, PRED_LT, PRED_LE, PRED_GT, PRED_GE,
    PRED_RANGE,      /* a <= v <= b */
    PRED_MOD,        /* v mod a == b (a != 0) */
} pred_kind;

typedef struct predicate { uint8_t kind; int64_t a, b; } predicate;

/* Whether the present value v matches p. */
int pred_match(const predicate *p, int64_t v);
/* Whether a version matches: present (data value v) or absent (never). */
static inline int pred_match_version(const predicate *p, int present, int64_t v) {
    return present && pred_match(p, v);
}
/* p written as a condition on `var` ("c < 5", "c mod 2 = 0", "true"). */
const char *pred_str(const predicate *p, const char *var, char *buf, size_t n);

typedef struct pred_read {
    predicate p;
    uint32_t txn;            /* the reader (builder index until hb_finish) */
    uint32_t line;           /* where the read is */
    uint8_t keyed;           /* it covers the integer keys klo..khi only (a declared */
    int64_t klo, khi;        /* key range, text's `key in A..B and ...`); else every key */
    uint32_t pos;            /* its place in its transaction: the ops before it (PRED_POS_NONE: unknown).  Its
                                lowered ops stand at this place (rc's premise asks which reads came earlier),
                                also those added after the transaction's last op */
} pred_read;
#define PRED_POS_NONE UINT32_MAX

/* Whether r covers a key (named: a key with a name, never in a range; else
 * its integer ext). */
static inline int pred_read_covers(const pred_read *r, int named, int64_t ext) {
    return !r->keyed || (!named && r->klo <= ext && ext <= r->khi);
}
/* r's predicate as pred_str writes it, after "key in A..B and " when keyed. */
const char *pred_read_str(const pred_read *r, const char *var, char *buf, size_t n);

typedef enum { PF_MISS = 0, PF_MISS_OWN, PF_MISMATCH, PF_MISS_READ } pred_fact_kind;

typedef struct pred_fact {
    uint8_t  kind;           /* pred_fact_kind */
    uint8_t  by_pred;        /* PF_MISS_READ with a view: the version is another predicate read's
                                lone candidate (kind (b)), not an item read of it (kind (a)) */
    uint8_t  rc_view;        /* PF_MISS_READ: at rc the read's view of the key is a choice of its own among the
                                versions that do not match (a lowered op reading a choice's marker: an rc-only
                                choice, inert at every other level, preds_is_rc_view_op) */
    uint32_t read;           /* index in reads */
    uint32_t key;
    int64_t  value;          /* the version: a matching one missed, or the returned one */
    int64_t  data;           /* its data value (what the predicate saw; INIT's: the :init value) */
    uint32_t vfirst, vn;     /* PF_MISS_READ: rr's own view of the key (below), vn > 0 */
} pred_fact;

/* rr's views (doc/levels.md "rr", "Adya's model, reduced"): in Adya's model
 * a predicate read has a version set of its own, so at rr a PF_MISS_READ
 * fact is no anomaly but a *view*: the read saw one of the key's versions it
 * does not match — view_vals[vfirst .. vfirst + vn) (VALUE_INIT: INIT's),
 * every one a committed transaction's or INIT's, none the reader's own —
 * whichever the version order allows.  A fact without one (vn 0: an
 * indeterminate writer among them, or none left) breaks rr as every level.
 * rc has a view of its own (rc_view: a lowered op reading an rc-only
 * choice's marker, which rr ignores).  Every other level keeps one version
 * of a key per transaction, where the fact is predicate-miss (pred_axioms.c:
 * AN_PRED_MISS_VIEW allowed by rr, AN_PRED_MISS_READ by rc, AN_PRED_MISS_OWN
 * by both). */
static inline int pred_fact_is_view(const pred_fact *f) { return f->kind == PF_MISS_READ && f->vn > 0; }

/* A key a predicate read did not return (or an item read of nil), whose
 * version the reader saw is one of several (non-matching, or absent; the
 * version order decides): the values of those versions are
 * vals[first .. first + n) (VALUE_INIT: INIT's); the reads of the key by
 * transaction txn that stand for it read the value marker. */
typedef struct pred_choice { uint32_t read, key, first, n, txn; int64_t marker; uint8_t rc_only; } pred_choice;
/* rc_only: rc's view of a key a read of the transaction pins (pred_fact.rc_view); dropped, with its
 * facts' rc_view, when the history also writes a value twice (the miss then breaks rc too) */

typedef struct history_preds {
    VEC(pred_read) reads;
    VEC(pred_fact) facts;
    VEC(pred_choice) choices;    /* until preds_attach_choices (not cloned) */
    vec_i64 choice_vals;
    vec_i64 view_vals;           /* the facts' views' versions (pred_fact.vfirst, vn) */
    uint8_t choices_attached;    /* h's ambiguous reads are these choices (not cloned) */
    vec_u32 nil_ops;             /* the reads of nil among them (a choice of absent versions), ascending (not cloned) */
    vec_i64 dead;            /* values that stand for a deleted key (sorted by preds_seal) */
    VEC(uint8_t) init_present;   /* per key (shorter: absent): INIT's version is present ... */
    vec_i64 init_data;           /* ... with this value (Elle's :init); else it is unborn */
} history_preds;

history_preds *preds_new(void);
void preds_free(history_preds *p);
/* The first predicate read of transaction t with an rr view of key
 * (pred_fact_is_view), or NULL; and that view's fact into *f when f is not NULL. */
const pred_read *preds_view_read(const history_preds *p, uint32_t t, uint32_t key, const pred_fact **f);
/* Renumber reader transactions: txn_new[builder txn] (hb_finish). */
void preds_remap_txns(history_preds *p, const uint32_t *txn_new);
/* A copy for hb_clone: every read, its transaction mapped by txn_new
 * (HISTORY_NONE where the transaction is not kept: such a read is inert and
 * its facts are dropped). */
history_preds *preds_clone(const history_preds *p, const uint32_t *txn_new);
/* Sort the dead values (after the last preds_add_dead). */
void preds_seal(history_preds *p);
/* Whether value v is a deleted key's version. */
int preds_is_dead(const history_preds *p, int64_t v);
/* The data value of key's version v: 1 with *data (present), 0 if absent
 * (unborn INIT, or dead). */
int preds_version_data(const history_preds *p, uint32_t key, int64_t v, int64_t *data);

/* The choices of h->preds made reads whose writer is a choice, as the
 * repeated values' are (history.h: OP_AMBIGUOUS, amb_read, amb_cand; the
 * checker's choice.h): the reads of the choice's key by its transaction
 * that read its marker (a value nobody writes) are flagged OP_AMBIGUOUS,
 * the first gets the write ops of its versions as candidates, none ruled
 * out (the others repeat it: one version a transaction); the reads of nil
 * among them are listed in nil_ops (a certificate names their versions by
 * 'read' lines, which must name absent ones).  0 with err (the read's line) when h also
 * has values written twice (their resolution would drop these choices). */
struct history;
struct ic_error;
int preds_attach_choices(struct history *h, struct ic_error *err);

/* Op's place in its transaction for rc's premise (which reads came
 * earlier): an op of a predicate read (pred_read.pos known) stands at the
 * read's place, 2 pos, with the read's other ops (one read: none of them is
 * earlier than another); any other op at 2 i + 1, i its index in the
 * transaction. */
struct history;
uint32_t preds_op_rank(const struct history *h, uint32_t op);

/* Whether op is the lowered op of rc's own view (pred_fact.rc_view: it
 * reads an rc-only choice's marker, or under a choice that choice's
 * version): rc's weak engine chooses its version; at every other level it
 * is inert (rr has a view of its own: pred_fact_is_view; the levels with
 * one version a transaction fail by the fact).  Needs h->op_pred. */
int preds_is_rc_view_op(const struct history *h, uint32_t op);

/* Set aside (OP_FAILED) every such op of h: a history under rr's choice
 * (check.c), which then reads as at rr. */
void preds_set_aside_rc_views(struct history *h);

/* Whether op is a read of nil whose absent version is a choice (nil_ops). */
int preds_is_nil_choice(const history_preds *p, uint32_t op);

/* Tags of lowered ops (history.op_pred). */
#define PRED_TAG_NONE UINT32_MAX
static inline uint32_t pred_tag(uint32_t read, int returned) { return read << 1 | (uint32_t)(returned != 0); }
static inline uint32_t pred_tag_read(uint32_t tag) { return tag >> 1; }
static inline int pred_tag_returned(uint32_t tag) { return (int)(tag & 1u); }

#endif
