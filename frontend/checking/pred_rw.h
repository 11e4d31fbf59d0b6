/* pred_rw.h — which anti-dependencies are predicate ones (the level rr,
 * doc/checker.md, "The level rr").
 *
 * Contract
 *   - Transaction t reads key k *by predicate only* when it has an external
 *     read of k (a read before its own first write of k) and every such
 *     read is a lowered predicate read op that did not return k
 *     (history_op_pred: a tag whose returned bit is 0).  t's RW edges on k
 *     are then Adya's predicate anti-dependencies; otherwise t read k by an
 *     item read (a returned pair is one too) and they are item
 *     anti-dependencies.  The transaction reads one version of k either way
 *     (one snapshot per transaction, doc/checker.md "Predicate reads").
 *   - rr's views (predicate.h, pred_fact_is_view: a predicate read's own
 *     version of a key its transaction also saw otherwise) are choices of
 *     rr's search whose RW edges are predicate anti-dependencies whatever
 *     the pair (t, k) is here (choice.c).
 *   - pred_rw_build returns NULL when no transaction reads a key by
 *     predicate only and no predicate read has a view (then rr is
 *     ser-plain's graph exactly). */
#ifndef ISOCHECK_PRED_RW_H
#define ISOCHECK_PRED_RW_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/history/history.h"

typedef struct pred_rw {
    uint64_t *pairs; size_t n;           /* predicate-only (t << 32 | k), sorted */
    uint64_t *rmw; size_t nrmw;          /* t read k by an item read and writes k, sorted */
} pred_rw;

pred_rw *pred_rw_build(const history *h);
int pred_rw_has(const pred_rw *p, uint32_t t, uint32_t key);
/* Whether t read key by an item read and writes it.  Its RW edges on key
 * to the writers after its own version are no item anti-dependencies: the
 * version after the one it read is its own (no version between: that would
 * be a cycle without a predicate anti-dependency), and it reaches the later
 * ones by WW edges. */
int pred_rw_rmw(const pred_rw *p, uint32_t t, uint32_t key);
void pred_rw_free(pred_rw *p);
/* The same test for one transaction and key, by a scan of its operations
 * (for a few edges, e.g. a reported cycle's). */
int pred_rw_reads_by_predicate(const history *h, uint32_t t, uint32_t key);

#endif
