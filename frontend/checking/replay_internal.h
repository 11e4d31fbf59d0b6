/* replay_internal.h — what replay.c and replay_si.c share (replay.h is the
 * contract): names for findings, and the check that no two writers of a
 * key share a commit timestamp (replay_si.c). */
#ifndef ISOCHECK_REPLAY_INTERNAL_H
#define ISOCHECK_REPLAY_INTERNAL_H

#include "frontend/checking/replay.h"

/* "txn 7" / "INIT" */
const char *replay_txn(const history *h, uint32_t t, char *buf, size_t n);
/* The value an op wrote or read ("5", a list "[1 2 3]"). */
const char *replay_value(const history *h, uint32_t op, char *buf, size_t n);
/* After ch is sorted by commit timestamp: 1, or 0 with a finding when two
 * writers of one key commit at the same timestamp. */
int replay_writers_distinct(const history *h, const commit_hint *ch, char *msg, size_t cap);

#endif
