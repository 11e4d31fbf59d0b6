/* pred_axioms.h — the anomalies of predicate reads visible without any
 * dependency graph (the facts the reader recorded: predicate.h):
 *
 *   predicate-miss      a predicate read's result lacks a key whose every
 *                       version the reader could have seen matches (or
 *                       whose version the reader itself wrote, and matches)
 *   predicate-mismatch  a predicate read returns a version that does not
 *                       match its predicate
 *
 * Every level fails on them (a database that returns them answers the
 * predicate wrongly, whatever order it chose).  Only reads of
 * participants (history_participants) are judged; a returned read that
 * was set aside (OP_FAILED: set_aside.h) is not judged again. */
#ifndef ISOCHECK_PRED_AXIOMS_H
#define ISOCHECK_PRED_AXIOMS_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/checking/anomaly.h"
#include "frontend/history/history.h"

/* Append up to `limit` records (0: no limit) while out holds fewer; part:
 * history_participants(h).  Returns how many violations there are, and
 * adds each to counts[its kind] when counts is not NULL (axioms.h: the
 * per-kind counts that say which levels are broken; these break every one). */
uint64_t pred_axioms_check(const history *h, const uint8_t *part, anomaly_list *out, size_t limit, uint64_t *counts);

#endif
