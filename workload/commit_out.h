/* commit_out.h — the simulator's own commit order, for `isocheck gen
 * --commit-order-out FILE`: a sink that passes every transaction (and its
 * times) on and records where each committed one serializes.
 *
 * The simulator hands transactions to its sink in commit order
 * (workload.h).  A transaction that writes takes effect at its commit: at
 * ser the store validates its reads then (each must still be the latest
 * version), at si its versions are installed then.  A read-only one is
 * never validated: it reads its snapshot, so it serializes right after the
 * last commit its snapshot shows, not at its own commit.  The order
 * written is therefore the commit order with each read-only transaction
 * moved back to its snapshot (after the writers that committed at or
 * before it, in the order the sink saw them): the store's serialization
 * order at ser, and a commit order that explains every read at si (the
 * versions, installed by writers, keep the commit order).  Faults are
 * kept: an order a fault breaks is caught by `check --commit-order`.
 *
 * Written in the form `check --commit-order` reads (doc/formats.md, "Commit
 * order hints"): a comment line, then one id a line, first first.  The ids
 * are the ones the history file carries: the simulator's transaction ids
 * (text, Elle, Cobra), or, for dbcop, whose reader numbers transactions 1,
 * 2, ... in file order (sessions one after another, every transaction the
 * sink was given), that ordinal (ordinal set). */
#ifndef WORKLOAD_COMMIT_OUT_H
#define WORKLOAD_COMMIT_OUT_H

#include <stdio.h>

#include "workload/workload.h"

typedef struct co_tee co_tee;

/* A recorder in front of inner and its times sink inner_ts (either kept by
 * pointer: it must outlive the tee; inner_ts's times may be NULL). */
co_tee *co_tee_new(const sim_sink *inner, const sim_times_sink *inner_ts, int ordinal);
sim_sink co_tee_sink(co_tee *t);
/* Give this to sim_run_timed: the snapshot of each transaction comes with
 * its times. */
sim_times_sink co_tee_times(co_tee *t);
/* The order recorded so far, to f.  0 on a write error. */
int co_tee_write(const co_tee *t, FILE *f);
void co_tee_free(co_tee *t);

#endif
