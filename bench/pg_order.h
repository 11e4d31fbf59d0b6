/* pg_order.h — PostgreSQL's commit order, recovered from the snapshots its
 * transactions ran on (bench/pg_client.c records them; no libpq here).
 *
 * Each committed transaction T has its transaction id (xid8, assigned in
 * its first statement, after its snapshot) and its snapshot
 * (pg_current_snapshot(): xmin, xmax, the xids in progress).  T's snapshot
 * sees X iff X's xid < xmax and is not in progress.  PostgreSQL takes a
 * snapshot and ends a transaction under ProcArrayLock, so the snapshots see
 * prefixes of one order: the order in which transactions became visible,
 * the commit order that decides every later read (WAL order and commit
 * timestamps are taken earlier and may differ from it).
 *
 * pg_order_recover sorts the transactions by the first snapshot (fewest
 * transactions seen) that sees them — those seen by none last — then,
 * where no snapshot separates two transactions, by commit timestamp, then
 * xid.  Every transaction gets commit = 2 * (its place + 1) and start = the
 * commit of the last transaction its snapshot sees (0: none), so that X is
 * visible to T iff commit(X) <= start(T): the rule of `check
 * --db-timestamps`.  That equivalence is verified for every pair (O(n^2),
 * meant for benchmark-size runs); when it fails the snapshots are not
 * nested and no order is claimed. */
#ifndef BENCH_PG_ORDER_H
#define BENCH_PG_ORDER_H

#include <stddef.h>
#include <stdint.h>

#define PG_NO_TIMESTAMP INT64_MIN

typedef struct pg_txn {
    int64_t id;                  /* the history's transaction id */
    uint64_t xid, xmin, xmax;
    uint64_t *xip;               /* in progress at the snapshot (owned) */
    size_t nxip;
    int64_t commit_us;           /* pg_xact_commit_timestamp, or PG_NO_TIMESTAMP */
    int64_t start, commit;       /* out: the recovered timestamps */
} pg_txn;

typedef struct pg_order_stats {
    size_t views;                /* distinct sets of transactions the snapshots see */
    size_t ts_ties;              /* pairs with one commit timestamp */
    size_t ts_against;           /* pairs the snapshots order against their commit timestamps */
} pg_order_stats;

/* Parses pg_current_snapshot()'s text "xmin:xmax:xip,xip" into t.  1 or 0. */
int pg_parse_snapshot(pg_txn *t, const char *text);

/* Fills start and commit of t[0..n) and order[0..n) (indexes into t,
 * oldest commit first).  1, or 0 with the reason in err. */
int pg_order_recover(pg_txn *t, size_t n, size_t *order, pg_order_stats *st, char *err, size_t cap);

#endif
