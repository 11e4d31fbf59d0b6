/* axioms.h — the anomalies visible without any dependency graph:
 *
 *   internal-inconsistency  a read disagrees with its own transaction: after
 *                           its own write it must see that write; a repeated
 *                           read (no own write between) must agree; it may
 *                           not see a value it only writes later; a list read
 *                           after own appends must end with them
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
#include "frontend/history/levels.h"

/* Append the violations to out, at most `limit` records (0: no limit);
 * returns how many violations there are in all. */
uint64_t axioms_check(const history *h, anomaly_list *out, size_t limit);
/* The same; whole_lists 0: incompatible-order compares the reads' external
 * prefixes only (a list read's own appends at its end are checked against
 * the reader's appends, not against other reads).  axioms_check is
 * whole_lists 1, which axioms_whole_lists(level) says a level may use: under
 * psi, SI and SER (and variants) a list reader's version follows its
 * prefix's, so its own suffix is a prefix of the one order too; under pc
 * and the weak levels it need not be. */
uint64_t axioms_check_lists(const history *h, anomaly_list *out, size_t limit, int whole_lists);
int axioms_whole_lists(check_level_id level);

#endif
