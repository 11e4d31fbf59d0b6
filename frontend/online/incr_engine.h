/* incr_engine.h — the incremental check's calls into its engines (incr.h:
 * one gsat instance per level), applied on a thread of their own while the
 * checking thread builds the rest of the graph (issue 37, follow49).
 *
 * Contract
 *   - ieng_start(s, graph) starts the thread for the engines s[0], s[1]
 *     (NULL: that level is off) and their graphs.  From then until
 *     ieng_sync() returns, the engines are the thread's: the caller makes no
 *     gsat call on them.  After ieng_sync() (and before the next queued
 *     call) they are the caller's again: solve, read values, set options.
 *   - The calls queued (ieng_nodes, ieng_edge, ieng_var, ieng_unit) are
 *     made in the order queued, each exactly as the direct call would be
 *     (gsat_graph_add_nodes, gsat_graph_add_edge, gsat_new_var on every level
 *     that is on, gsat_add_clause of one literal), so the engines end in the
 *     state the direct calls leave: every answer is the same.
 *   - ieng_var() returns the new variable's number without waiting: the
 *     engines number their variables 1, 2, ... from the count at ieng_start;
 *     the thread checks that each got that number (or 0: the engine is in
 *     its error state, which its next solve reports as the direct call's
 *     caller would see it).  ieng_sync() returns 0 if one got another.
 *   - The queue holds at most IENG_MAX_CHUNKS chunks; a caller ahead of the
 *     thread by that much waits.
 *   - ieng_populate(p, bytes) asks the thread to fault in the pages of
 *     [p, p + bytes) as if written (io/bigmem.h, big_populate: no byte
 *     changes), and hands the request over at once: memory the caller is
 *     about to fill, made resident while it does other work (follow50).
 *     It touches no engine, so one queued after ieng_sync() leaves the
 *     engines the caller's; the next ieng_sync() waits for it too.  The
 *     range may be stale by the time the thread gets to it (the caller's
 *     array moved as it grew): populating changes no byte, so that only
 *     costs the pages (at most the range's bytes).
 *   - The thread holds SIGINT and SIGTERM blocked (they reach the caller).
 *     If it cannot be started ieng_start returns NULL (the caller makes the
 *     calls itself).  ieng_stop() syncs, ends and joins the thread.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_INCR_ENGINE_H
#define ISOCHECK_ONLINE_INCR_ENGINE_H

#include <stddef.h>

#include "gsat.h"

#define IENG_MAX_CHUNKS 64

typedef struct incr_engine incr_engine;

incr_engine *ieng_start(gsat *s[2], const int graph[2]);
void ieng_nodes(incr_engine *e, int level, int count);
void ieng_edge(incr_engine *e, int level, int from, int to, int lit);
int ieng_var(incr_engine *e);
void ieng_unit(incr_engine *e, int level, int lit);
void ieng_populate(incr_engine *e, void *p, size_t bytes);
int ieng_sync(incr_engine *e);
void ieng_stop(incr_engine *e);

#endif
