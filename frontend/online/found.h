/* found.h — the anomalies `check --follow` printed while the input was
 * written, carried to its final report, so that every anomaly shown under
 * DETECTED is in the final list too.
 *
 * Why this is needed: the final report is a batch check of every byte,
 * and a batch check lists *some* minimal anomalies (up to the limit, on
 * disjoint transactions) — which ones depends on its solver's path over
 * the whole history, not on what the online checker proved on a part of
 * it.  Each anomaly found on the settled part S (or a witness of it: a
 * sub-history closed under reads-from and under its sessions' order) is an
 * anomaly of the whole history H: its transactions, operations and edges
 * are H's too, and every version order fact its explanation proves from
 * observed edges holds in H (doc/checker.md, "Online checking").
 *
 * Contract
 *   - online_found_keep(): copies the report of the violation (rep, over
 *     the history proof) onto a small history holding only the
 *     transactions it names (history_subset: same key ids, ext ids, lines),
 *     so that the settled part it was found on can be freed.
 *   - online_found_merge(): at the end, maps those anomalies onto h (the
 *     history of the final check) by transaction ext id, key and operation
 *     (line, kind, key, value), and puts each one rep lacks (same kind of
 *     anomaly on the same cycle) first in its level's list; the batch's own
 *     anomalies that share a cycle transaction with one of them leave the
 *     list (it stays on disjoint transactions), and it holds at most
 *     max(max_anomalies, the detected ones) per level.  Not carried: an
 *     anomaly marked `chosen` (a cycle under the version order S's solve
 *     happened to find, shown because every order has some violating
 *     cycle: under the whole history's orders that one may not hold).  An anomaly that
 *     cannot be mapped (a transaction or operation h lacks: not the same
 *     input) is left out, and the return says so (0).  A level the report
 *     passes is not touched; a level it does not list (the batch check
 *     stopped at broken read axioms) is added, FAIL at stage "followed",
 *     with the detected anomalies.  No verdict changes: the report fails
 *     in every case (the settled part's violation is the history's).
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_FOUND_H
#define ISOCHECK_ONLINE_FOUND_H

#include <stddef.h>

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/reports/report.h"

typedef struct online_found {
    int set;                     /* rep holds the detected anomalies, over h */
    history *h;                  /* the transactions they name */
    report rep;
} online_found;

/* 1 kept (f->set), 0 with err set (the builder refused: never for a
 * sub-history of a valid history). */
int online_found_keep(online_found *f, const history *proof, const report *rep, ic_error *err);
/* 1 every kept anomaly is in rep now (or was), 0 some could not be mapped. */
int online_found_merge(const online_found *f, const history *h, report *rep, size_t max_anomalies);
void online_found_free(online_found *f);

#endif
