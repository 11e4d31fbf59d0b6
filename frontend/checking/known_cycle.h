/* known_cycle.h — a cycle of a level's known graph (constraints.c: "the
 * known graph has a cycle"), as dependency edges.
 *
 * Contract
 *   - pg_known_cycle(g, out): when g's known edges (SO, WR of the reads that
 *     name their writer, read-modify-write chains: facts of the history
 *     under every choice of writers, doc/checker.md "Repeated values")
 *     have a cycle, a shortest cycle through one node of it appended to out
 *     (edge i ends where edge i + 1 starts, the last where the first
 *     starts; transactions, kinds and keys of the known edges), return 1;
 *     else 0 and out unchanged.  SER's graph only (g->split 0: 0 returned
 *     for a split graph).  Only reads g. */
#ifndef ISOCHECK_KNOWN_CYCLE_H
#define ISOCHECK_KNOWN_CYCLE_H

#include "frontend/checking/polygraph.h"
#include "frontend/history/dep_edge.h"

int pg_known_cycle(const polygraph *g, dep_edge_vec *out);

#endif
