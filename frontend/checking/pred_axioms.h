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
 * predicate wrongly, whatever order it chose), but for one: a miss of a key
 * the reader's transaction saw in a matching version, with an rr view
 * (predicate.h: pred_fact_is_view), is AN_PRED_MISS_VIEW, which rr allows
 * (Adya: a predicate read has its own version set; rr's search chooses the
 * view instead, choice.c); with rc's view (pred_fact.rc_view: a choice of
 * its own, the lowered op reading the choice's marker) AN_PRED_MISS_READ,
 * which rc allows; with both AN_PRED_MISS_OWN, which rc and rr allow.
 * Only reads of
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
 * per-kind counts that say which levels are broken: anomaly_breaks). */
uint64_t pred_axioms_check(const history *h, const uint8_t *part, anomaly_list *out, size_t limit, uint64_t *counts);

#endif
