/* frontend/online/incr.h — the settled part of a growing register history, checked
 * incrementally: one gsat instance per level, kept across checks, that only
 * ever gains nodes, edges and constraint variables.
 *
 * Contract
 *   - incr_update() gets, at each call, the history of the transactions
 *     completed so far (as online_check() does).  Transactions are known by
 *     their ids (ext_id): a later history holds every transaction of an
 *     earlier one, same session, same operations; keys keep their ids.
 *   - It finds the newly *settled* transactions (frontend/online/checker.h: every value
 *     they read has a settled writer, or INIT, or is their own), adds the
 *     participating ones to the graph of each wanted level, and solves:
 *       INCR_PASS      every wanted level has a version order for the
 *                      settled part (provisional: later input may break it);
 *       INCR_FAIL      a level has none: final (doc/checker.md, "Online
 *                      checking"); incr_failed_level() says which;
 *       INCR_FALLBACK  the incremental path cannot be sound here (incr_why():
 *                      list-append, an axiom broken, a transaction id seen
 *                      twice, a solver limit, ...); the caller checks from
 *                      scratch from now on.  Once returned, always returned.
 *   - Nothing is retracted, so no assumptions are needed: the settled part
 *     only grows, and so do its known graph and its constraints.  The last
 *     model is kept as an ordered graph (frontend/online/kept_model.h); when the new
 *     edges fit it, the check needs no solve; else the engines solve (from
 *     their saved phases) and the model is rebuilt from theirs.
 *   - Pairs of writers decided by reachability (over SO and WR, which only
 *     grow) stay decided; only pairs with a new writer become variables,
 *     and a new reader of an old writer adds RW edges under the pair
 *     variables that writer already has, or, when that edge would close a
 *     cycle with the known graph (the pair's other writer reaches the new
 *     reader), fixes the pair with a unit clause: pruning, done locally.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_INCR_H
#define ISOCHECK_ONLINE_INCR_H

#include <stdint.h>

#include "frontend/history/history.h"
#include "vec.h"
#include "frontend/history/version_order.h"

enum { INCR_PASS = 0, INCR_FAIL = 1, INCR_FALLBACK = 2 };

typedef struct incr_stats {
    uint64_t txns_in_graph;      /* participants added (INIT excluded) */
    uint64_t writers;            /* (transaction, key) writers */
    uint64_t pairs_decided;      /* writer pairs decided by reachability when they met */
    uint64_t pairs_skipped;      /* of the decided ones, not looked at: arrived before a pivot decided before the new writer, or sealed */
    uint64_t pairs_sealed;       /* of the skipped ones: with a sealed writer (behind the frontier, frontend/online/incr.c) */
    uint64_t sealed;             /* writers sealed */
    uint64_t pairs_var;          /* writer pairs left to the solver (one variable each) */
    uint64_t pairs_pruned;       /* of which fixed later by a new reader (a unit clause) */
    uint64_t edges;              /* edges given to each level's graph */
    uint64_t rw_covered;         /* RW edges of new readers left out: another successor reaches their target */
    uint64_t implied;            /* always-on WR and RW edges left out: a path of given SO and WR edges joins their ends (frontend/online/incr.c, edge) */
    uint64_t solves;             /* engine solves (per level) */
    uint64_t kept_model;         /* checks answered by the last model, extended (frontend/online/kept_model.h) */
    uint64_t op_blocks_freed;    /* blocks of stored operations freed (needed no more: frontend/online/incr.c, iop) */
    uint64_t keys_to_table;      /* keys whose writes moved to the global write table (values out of order: incr_windex.c) */
} incr_stats;

typedef struct incr_check incr_check;

incr_check *incr_new(int want_si, int want_ser);
void incr_free(incr_check *ic);

/* Settle and check what h adds (see above).  *num_settled gets the settled
 * transactions so far (INIT excluded), *fresh how many this call settled. */
int incr_update(incr_check *ic, const history *h, uint32_t *num_settled, uint32_t *fresh);

/* The streaming entry (`check --follow`, which parses only what arrived):
 * instead of a whole history, the caller stores each transaction once it
 * has completed (in its session's order; ops: kind, key id, value, line,
 * values as in the history model), registers each new key id first
 * (incr_add_key, ids in order, integer keys), then asks for a check.
 * incr_add_txn returns 0 when the incremental path falls back (incr_why).
 * incr_check_added settles and checks what was added, as incr_update. */
typedef struct incr_op { uint8_t kind; uint32_t key; int64_t value; uint32_t line; } incr_op;
typedef struct incr_txn { int64_t ext_id, session; uint8_t status; const incr_op *ops; uint32_t num_ops; } incr_txn;
void incr_add_key(incr_check *ic, int64_t ext_key);
uint32_t incr_num_keys(const incr_check *ic);
int incr_add_txn(incr_check *ic, const incr_txn *t);
/* Whether a stored transaction wrote value to key id: 1 or 0 — the write
 * index keeps every write stored (the follow reader relies on it to
 * refuse a value written twice as its line arrives, frontend/online/text_stream.h) — or
 * -1 after a fallback (a store may have stopped half way). */
int incr_written(const incr_check *ic, uint32_t key, int64_t value);
int incr_check_added(incr_check *ic, uint32_t *num_settled, uint32_t *fresh);

/* A small witness for a violation just found: the history of the last
 * `last` transactions to settle (committed ones, in their sessions'
 * order), each read whose writer is outside them dropped (so S' is closed
 * under reads-from, and its graph under any version order is a subgraph
 * of the settled part's: a FAIL of S' is a FAIL of every history that
 * contains the settled part; doc/checker.md).  Lines as read, keys by
 * their ext ids.  NULL (err unset) for named keys, or when a transaction
 * of the window has its operations freed (incr_set_ops_limits); *num_txns:
 * its transactions. */
history *incr_window_history(const incr_check *ic, uint32_t last, const char *source, uint32_t *num_txns,
                             ic_error *err);

/* After INCR_FAIL: the failing level (0 SI, 1 SER, check_level_id). */
int incr_failed_level(const incr_check *ic);
/* After INCR_FALLBACK: why. */
const char *incr_why(const incr_check *ic);
/* The settled transactions of h as a calloc'd flag per h transaction (INIT
 * set), for building the settled sub-history; h is the last one updated. */
uint8_t *incr_settled_flags(const incr_check *ic, const history *h);
const incr_stats *incr_get_stats(const incr_check *ic);
/* Compare every known transaction with h at each update (a caller whose
 * transactions may still change, like the library: a change falls back). */
void incr_set_rescan(incr_check *ic);
/* For tests, which make both small (the library keeps the defaults): the
 * stored operations are in blocks of block_ops (default 131072), a block
 * freed once each of its transactions took part in the graph (or is
 * aborted and settled) and is not among the last keep_txns to settle
 * (default 65536; incr_window_history needs their operations, and gives
 * NULL for a window reaching further). */
void incr_set_ops_limits(incr_check *ic, uint32_t block_ops, uint32_t keep_txns);
/* Make the engines' calls of each check (new nodes, edges, variables, unit
 * clauses) on a thread of their own while this one builds the rest of
 * the graph (frontend/online/incr_engine.h): the same calls in the same
 * order, so the same answers; each check waits for them before it solves.
 * 1 if the thread runs (0: it could not start, the calls stay here). */
int incr_set_engine_thread(incr_check *ic);
/* Seconds per solve (<= 0: none); a solve that hits it falls back. */
void incr_set_time_limit(incr_check *ic, double seconds);
/* After INCR_PASS: the version order of level's last model over h's
 * transactions (INIT first on every key), for an independent re-check
 * (vo_check).  0 if there is none (fallback, level not wanted). */
int incr_version_order(const incr_check *ic, const history *h, int level, version_order *vo);

/* The end of input: every stored transaction is settled (none waits) and
 * the last check passed.  Then, per wanted level, the version order of the
 * last model: for each key with a writer (by its integer ext id), its
 * writers' transaction ids (ext) in that order, INIT left out.  0 if there
 * is none (fallback, a named key, the level not wanted, a model whose
 * order is not total: then the batch check decides). */
typedef struct incr_order { vec_i64 key_ext; vec_u32 start; vec_i64 txn_ext; } incr_order;
int incr_complete(const incr_check *ic);
/* After the last check: keep the last model's values (a bit per variable
 * and level) and free the engines and the kept model, so that the export
 * below does not add to the state's peak; no check may follow (it falls
 * back).  0 (nothing freed) after a fallback or when there is no model. */
int incr_drop_engines(incr_check *ic);
int incr_export_order(const incr_check *ic, int level, incr_order *out);
void incr_order_free(incr_order *o);

#endif
