/* axioms.h — the anomalies visible without any dependency graph:
 *
 *   internal-inconsistency  a read disagrees with its own transaction: after
 *                           its own write it must see that write; it may
 *                           not see a value it only writes later; a list read
 *                           after own appends must end with them
 *   non-repeatable-read     an external read of a key (before any own write;
 *                           a list read's external prefix) differs from the
 *                           transaction's earlier one: allowed by rc only
 *   aborted-read            it sees a value written by an aborted transaction
 *   intermediate-read       it sees a value its writer overwrote (or appended
 *                           after) later in the same transaction
 *   thin-air-read           it sees a value nobody wrote
 *   list-thin-air-element   a list read holds an element nobody appended, or
 *                           one element twice
 *   incompatible-order      two reads of one list are not prefixes of one
 *                           order (reported once per key), or a list read
 *                           splits another transaction's appends (each
 *                           version is all of its writer's appends, in
 *                           program order)
 *   incompatible-append-order  the external prefixes agree but the whole
 *                           lists, own appends included, do not (the
 *                           reader's appends do not follow the version it
 *                           read): breaks psi, si*, ser* and up, not rc,
 *                           ra, cc, pc
 *
 * Which levels each kind breaks: anomaly_breaks (anomaly.h); every other
 * kind here breaks every level.
 *
 * Only reads of participants are judged (history_participants: committed
 * transactions and the indeterminate ones whose writes a participant
 * observed — those committed, with all their effects); an aborted or
 * unobserved indeterminate reader's observations do not constrain the
 * history. */
#ifndef ISOCHECK_AXIOMS_H
#define ISOCHECK_AXIOMS_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/checking/anomaly.h"
#include "frontend/history/history.h"

/* Append the violations to out, at most `limit` records (0: no limit) —
 * besides which a violation that breaks a level no listed one breaks is
 * listed too (at most one per level), so that every level broken has a
 * listed reason; returns how many violations there are in all. */
uint64_t axioms_check(const history *h, anomaly_list *out, size_t limit);
/* The same, and when counts is not NULL, how many violations of each kind
 * (counts[AN_NUM_KINDS], listed or not). */
uint64_t axioms_check_kinds(const history *h, anomaly_list *out, size_t limit, uint64_t counts[AN_NUM_KINDS]);
/* The levels those violations break (bit l: check_level_id l; anomaly_breaks). */
uint32_t axioms_broken_levels(const uint64_t counts[AN_NUM_KINDS]);
/* How many of them break level l. */
uint64_t axioms_level_count(const uint64_t counts[AN_NUM_KINDS], check_level_id l);
/* The violations without (whole_lists 0) or with (1) the incompatible
 * append orders, which break only the levels axioms_whole_lists names
 * (psi, SI, SER and their variants: a list reader's own appends follow its
 * snapshot there; not under pc or the weak levels). */
uint64_t axioms_check_lists(const history *h, anomaly_list *out, size_t limit, int whole_lists);
int axioms_whole_lists(check_level_id level);

#endif
