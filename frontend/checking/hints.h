/* hints.h — checking a history with the database's own version order (a
 * complete or partial "hint", Clark et al.'s version certificates and King
 * Cobra; doc/checker.md, "Checking with a version order hint").
 *
 * A hint_order lists, per key, writes of the key (as the ops that wrote
 * them; INIT's op k for the initial value) in the order the database says
 * their versions were installed.  It is resolved from a file by
 * frontend/reports/hint_check.c; here it is only ops.
 *
 *   hints_validate   the hint against what the history itself proves:
 *                    every listed write installs a version (not aborted),
 *                    none is listed twice, a transaction's writes of a key
 *                    are listed together and in program order, the initial
 *                    value first, and read-modify-write chains and list
 *                    prefixes (the index's units: consecutive versions)
 *                    neither reversed nor split.  A contradiction is a
 *                    finding, named with the operations involved.
 *   hints_apply      every listed pair of units becomes a known side
 *                    (last(U) -WW-> head(V), readers of last(U) -RW->
 *                    head(V)) in the index's base edges, so the level's
 *                    known graph has it before pruning: constraints fall
 *                    away, and a complete hint leaves none.
 *   hints_check_vo   a hint that orders every version (hints_complete,
 *                    hints_complete_order): the polynomial check (no
 *                    constraints, no solver).
 *   hints_check_level  check_level on the amended index, then the answer
 *                    re-checked under an order that extends the hint: a
 *                    PASS's order must extend it; a FAIL is confirmed
 *                    (verify_model.h) under the check's order rearranged
 *                    to extend the hint, so the cycle shown holds under an
 *                    order the database could have meant.
 *
 * Indeterminate transactions that take no part (nobody read their
 * writes) are skipped where listed: dropping them keeps an order valid. */
#ifndef ISOCHECK_HINTS_H
#define ISOCHECK_HINTS_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"
#include "frontend/checking/check.h"

typedef struct hint_item { uint32_t op, line; } hint_item;   /* line: in the hint file */
typedef struct hint_key { uint32_t key, first, num; } hint_key;  /* items[first .. first + num) */

typedef struct hint_order {
    VEC(hint_key) keys;          /* each key at most once */
    VEC(hint_item) items;
    /* filled by hints_validate: per key, its listed units in hint order
     * (distinct, INIT's first when listed) */
    vec_u32 unit_start;          /* keys.len + 1 */
    vec_u32 units;
    uint64_t pairs;              /* listed version pairs (consecutive units) */
} hint_order;

void hint_order_init(hint_order *o);
void hint_order_free(hint_order *o);

/* 1: consistent; 0: a finding in msg ("version order hint contradicts the
 * history: ..."). */
int hints_validate(const pg_index *ix, hint_order *o, char *msg, size_t cap);

/* After hints_validate: the hint's sides into ix->base; returns the edges added. */
uint64_t hints_apply(pg_index *ix, const hint_order *o);

/* After hints_apply on ix: the white-box answer for one level (res as
 * check_level's). */
verdict hints_check_level(const pg_index *ix, const hint_order *o, check_level_id level,
                                const check_options *opt, check_result *res);

/* After hints_validate: does the hint order every unit of every key (a
 * complete version order)? */
int hints_complete(const pg_index *ix, const hint_order *o);

/* The version order a complete hint states: per key INIT's unit, then the
 * listed units in order, each unit's writers in its own order. */
void hints_complete_order(const pg_index *ix, const hint_order *o, version_order *vo);
/* A complete version order (res->vo; the rest of res zeroed) checked
 * without the polygraph (Emme: polynomial): verify_model builds the
 * dependency graph by definition and looks for the level's cycles; no pair
 * scan, no pruning, no solver, and no index needed (free it first).  res as
 * check_level's (stage "version order"; FAIL: res->cycle, checked with
 * cycle_holds, or a read that contradicts the order, in res->msg with no
 * cycle).  The commit order's version order (replay.h) is checked so too. */
verdict hints_check_vo(const history *h, check_level_id level, const check_options *opt, check_result *res);

#endif
