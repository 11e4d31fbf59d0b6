/* text_pred.h — predicate reads and updates in the text format (issue 34;
 * doc/formats.md, "Predicate reads in text"): the lines
 *
 *   rp(PRED,{K:V,...},SESSION,TXN)        a predicate read and its result set
 *   up(PRED,{K:OLD->NEW,...},SESSION,TXN) a predicate update: the read of
 *                                         {K:OLD,...}, then w(K,NEW) for each
 *   init(K,V)                             key K's initial version holds V
 *
 * PRED: `true`, `c OP N` (OP one of = != < <= > >=), `N <= c <= N` (a
 * range, both ends included), `c mod M = R` (Clojure's mod); N, M, R
 * decimal 64-bit integers with an optional '-'; blanks between tokens;
 * `c` may be any name of letters, digits and '_'.  `key in A..B and PRED`
 * declares the keys the read covers (integer keys A to B, both included;
 * else every key of the history).  Result values are written as r(...)
 * values: 0 is the initial version.
 *
 * Semantics are Elle's closed-predicate ones (jepsen_pred.h does the
 * resolution): the predicate ranges over every key of the history; a key's
 * initial version is present with value V after init(K,V), with value 0
 * when IsoVista's initial-state transaction writes it (w(K,0,0,0)), and
 * absent (unborn: it matches nothing, a later write inserts the key)
 * otherwise.  Once a history has a predicate line, every r/w line goes
 * through tp_op so that versions, item reads and the placeholders of
 * own writes are recorded; the ops read before the first predicate line
 * are replayed from the builder (tp_new).
 *
 * Rules (bad input at the line, exit 2): init lines come before every
 * operation, once per key, and a write of a key's init value V is refused
 * (a read of V is a read of the initial version, as in Elle); a
 * transaction with a predicate read has its lines together (no other
 * transaction's line between its first and last); a key appears once in a
 * result set; `up` writes no 0. */
#ifndef ISOCHECK_TEXT_PRED_H
#define ISOCHECK_TEXT_PRED_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "vec.h"
#include "frontend/history/history.h"
#include "frontend/history/predicate.h"

typedef enum { TPL_READ = 0, TPL_UPDATE, TPL_INIT } tpl_kind;
typedef struct tpl_pair { int64_t key, old, now; } tpl_pair;

typedef struct text_pred_line {
    uint8_t kind;            /* tpl_kind */
    predicate p;
    uint8_t keyed;           /* `key in KLO..KHI and PRED`: the keys it covers */
    int64_t klo, khi;
    int64_t sess, txn;       /* rp, up */
    int64_t key, value;      /* init */
    VEC(tpl_pair) pairs;     /* rp: (key, old); up: (key, old, now) */
} text_pred_line;

/* Whether p (after blanks) starts a predicate line: "rp(", "up(", "init(". */
int text_pred_starts(const char *p);
/* Lex the predicate line p (len bytes, not necessarily NUL-terminated)
 * into *l (pairs reused; tpl_free): 1, or 0 with err at name:line. */
int text_pred_lex(const char *p, size_t len, text_pred_line *l, const char *name, long line, ic_error *err);
void tpl_free(text_pred_line *l);

typedef struct text_pred text_pred;

/* Predicate mode on builder b: the ops b holds so far are replayed. */
text_pred *tp_new(const history_builder *b);
void tp_free(text_pred *tp);
/* init(K,V) with key id `key`; 0 with err if b already has an operation or
 * the key has an init line. */
int tp_init(text_pred *tp, const history_builder *b, uint32_t key, int64_t value, const char *name, long line,
            ic_error *err);
/* An r or w line of builder txn t (ext: its id, for messages); adds the
 * op(s) to b.  value: the model value (VALUE_INIT for 0). */
int tp_op(text_pred *tp, history_builder *b, uint32_t t, int64_t ext, unsigned kind, uint32_t key, int64_t value,
          const char *name, long line, ic_error *err);
/* An aborted write (transaction id -1) that the caller added as op of its
 * own transaction t. */
void tp_aborted(text_pred *tp, uint32_t t, uint32_t key, int64_t value, long line);
/* An rp or up line of builder txn t; adds its ops to b. */
int tp_pred_line(text_pred *tp, history_builder *b, uint32_t t, const text_pred_line *l, const char *name, long line,
                 ic_error *err);
/* At the end of input: the keys of IsoVista's initial-state transaction
 * (present with value 0), then the resolution (jp_finish) into b. */
int tp_finish(text_pred *tp, history_builder *b, const uint32_t *init_keys, size_t n_init, const char *name,
              ic_error *err);

#endif
