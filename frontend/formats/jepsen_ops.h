/* jepsen_ops.h — the meaning of a Jepsen/Elle history, shared by the EDN
 * (parse_elle.c) and JSON (parse_json.c) readers: each operation map, as
 * an optree, becomes a transaction of the model, or is skipped and counted
 * in the load report, or is named in an error.  Never dropped in silence.
 *
 * An operation map has :type (:invoke, :ok, :fail, :info; keyword, string
 * or symbol), and optionally :f, :process, :index and :value (any other
 * entry is ignored).  Completions (:ok committed, :fail aborted, :info
 * indeterminate) whose :value is a vector or list of micro-ops are
 * transactions, whatever their :f (:txn, none, :read, :write, "txn", ...):
 *     [:r k v]  [:r k nil]  [:r k]  [:w k v]  [:append k v]  [:r k [v ...]]
 * (function names may be keywords, strings or symbols).  Keys are integers,
 * keywords, strings or big integers (by their written form); values are
 * integers, strings, keywords or big integers: values that are not 64-bit
 * integers (and integers in the band just above INT64_MIN) become named
 * values of the model (hb_name).  nil is the initial value; on a key that
 * is appended to, [:r k nil] reads the empty list.  Elle's closed-predicate
 * shape ({:f :init ...}, [:insert k v], [:delete k], [:rp PRED {k v}]) is
 * read too: jepsen_pred.h.
 *
 * Sessions: an integer :process (a string of digits counts as one; other
 * strings are names); a keyword :process (:nemesis) is not a client and
 * its operations are skipped; without :process (or nil) every transaction
 * is its own session.  The transaction id is :index, else the operation's
 * 0-based position among all operation maps (Jepsen's own numbering).
 *
 * :fail/:info completions: a read of nil there is the invocation's
 * placeholder (value unknown) and is dropped and counted, unless the map
 * says `:isocheck/reads :observed` (what `isocheck convert --to elle`
 * writes for the reads of aborted transactions); reads with a value are
 * kept.  A :fail/:info completion without micro-ops takes the writes of
 * its process's pending invocation.  A completion whose :value is not
 * micro-ops (Knossos registers, bank, set, counter) is an error that names
 * its :f. */
#ifndef ISOCHECK_JEPSEN_OPS_H
#define ISOCHECK_JEPSEN_OPS_H

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/load_report.h"
#include "frontend/formats/optree.h"

typedef struct jepsen_reader jepsen_reader;

/* A reader building a history of format fmt (FORMAT_ELLE or FORMAT_JSON)
 * from source; rep may be NULL. */
jepsen_reader *jr_new(history_format fmt, const char *source, load_report *rep);
/* One operation: the tree t rooted at root; 0 with err set on bad input. */
int jr_op(jepsen_reader *jr, const optree *t, uint32_t root, ic_error *err);
/* One completion of the usual shape, decoded by the EDN reader without a
 * tree (parse_elle.c): {:type :ok|:fail|:info, :f :txn, :process P,
 * :index I, :value [[:r K V|nil] [:w K V] [:append K V] ...]} (observed:
 * with `:isocheck/reads :observed`; has_time: with `:time T`), every number an integer.  Read exactly as jr_op reads that map: 1, or 0 with err set;
 * -1 when it is not for this path (a process or value in the named band,
 * a nil written): nothing was read, jr_op reads the map. */
typedef struct jr_plain_mop { char kind; uint8_t nil; int64_t key, value; } jr_plain_mop;   /* kind 'r', 'w', 'a' */
typedef struct jr_plain {
    char type;                  /* 'o' :ok, 'f' :fail, 'i' :info */
    uint8_t observed;           /* :isocheck/reads :observed */
    uint8_t has_time;           /* :time, then `time` */
    int64_t time;
    int64_t process, index;
    uint32_t line;
    const jr_plain_mop *mops;
    size_t n;
} jr_plain;
int jr_plain_op(jepsen_reader *jr, const jr_plain *p, ic_error *err);
/* The history (or NULL with err set); frees jr. */
history *jr_finish(jepsen_reader *jr, ic_error *err);
/* Discard jr after an error. */
void jr_free(jepsen_reader *jr);

#endif
