/* version_out.h — the simulator's own version order, for `isocheck gen
 * --version-order-out FILE`: a sink that passes every transaction on to
 * another sink and records, per key, the values its committed versions
 * were installed with.
 *
 * The store installs a committed transaction's last write of each key at
 * commit, with the commit's timestamp, and the simulator hands
 * transactions to its sink in commit order (workload.h): so per key the
 * committed transactions' last writes, in the order the sink sees them,
 * are the store's version order, faults included (a lost update is still
 * installed in commit order).  Written in the text form of
 * doc/formats.md ("Version order hints"): one line per written key, in
 * key order, "KEY: init V1 V2 ...". */
#ifndef WORKLOAD_VERSION_OUT_H
#define WORKLOAD_VERSION_OUT_H

#include <stdio.h>

#include "workload/workload.h"

typedef struct vo_tee vo_tee;

/* A recorder in front of inner (kept by pointer: it must outlive the tee). */
vo_tee *vo_tee_new(const sim_sink *inner);
sim_sink vo_tee_sink(vo_tee *t);
/* The version order recorded so far, to f.  0 on a write error. */
int vo_tee_write(const vo_tee *t, FILE *f);
void vo_tee_free(vo_tee *t);

#endif
