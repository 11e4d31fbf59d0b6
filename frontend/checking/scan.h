/* scan.h — the writer-unit pair scan's parts shared by its two ways of
 * finding a key's windows (internal to constraints.c and scan_order.c).
 *
 * scan_key_groups (constraints.c) asks the table for every unit against
 * every session of the key; scan_key_order (scan_order.c) derives most of
 * those answers by transitivity.  Both give the same constraints, covering
 * edges and counts, in the same order, when the table holds every fact
 * (doc/checker.md, "The pair scan"). */
#ifndef ISOCHECK_SCAN_H
#define ISOCHECK_SCAN_H

#include "frontend/checking/polygraph.h"

/* What the scan of a range of keys produces, in key order: concatenating
 * the ranges' outputs in order gives what one scan of all keys gives. */
typedef struct scan_out {
    pg_cons_vec cons;
    pg_edge_vec edges;
    uint64_t pairs_total, pairs_decided, edges_covering;
    int failed;                  /* at the range's first failing key: stop there */
    char fail_reason[256];
} scan_out;

typedef struct unit_at { uint32_t session, pos, unit; } unit_at;

/* One unit of a key in scan_key_order's topological order. */
typedef struct scan_ord {
    uint32_t unit, tnode, xnode;  /* the unit; its head's commit node and WW entry node */
    uint32_t xchain, xpos;        /* the entry node's chain (UINT32_MAX: untracked) and position */
    uint32_t tpos;                /* the commit node's position */
    uint32_t idx, grp;            /* its place in sorted (below) and its group */
    uint32_t rhead;               /* the commit node's row's head (pg_reach_row_head_at) */
    uint8_t xcls;                 /* a half table's start node (the entry node): its class (sclass) */
    const uint8_t *row;           /* that row */
} scan_ord;

/* Scratch of one scanning task. */
typedef struct scan_scratch {
    VEC(uint32_t) cand;          /* groups: per unit x group, first decided successor */
    VEC(uint32_t) rin;           /* groups: per unit x group, pg_reach_at(head's WW entry, group's chain) */
    VEC(unit_at) sorted;         /* the key's units but INIT's by (session, position): the groups */
    vec_u32 gstart, gsess, group_of, idx_of;
    dep_edge_vec deps;
    /* scan_key_order's */
    VEC(scan_ord) ord;           /* by topological position of the head's commit node */
    VEC(uint64_t) bits;          /* the key's bit sets */
    vec_u32 rank_of, list;
    VEC(uint64_t) keys;
} scan_scratch;

void scan_scratch_free(scan_scratch *sc);

/* Key k's units but INIT's grouped by their head's chain (sc->sorted,
 * gstart, gsess, group_of and idx_of, indexed by unit - first unit);
 * returns the number of groups. */
uint32_t scan_groups(const polygraph *g, uint32_t k, scan_scratch *sc);

/* Decide window pair u, v (both tests of pg_side_blocked): SCAN_FAIL
 * (both blocked: out->fail_reason set), SCAN_CONS (neither: a constraint
 * appended), SCAN_BEFORE (u before v), SCAN_AFTER (v before u). */
enum { SCAN_FAIL = 0, SCAN_CONS, SCAN_BEFORE, SCAN_AFTER };
int scan_pair_decide(const polygraph *g, uint32_t u, uint32_t v, uint32_t key, scan_out *out);

/* Node u reaches the node at position p of chain c (HISTORY_NONE: an
 * untracked one, never known to be reached), as the table knows: what
 * pg_reaches says of that node, but for a target named by its chain and
 * position, which the scan has at hand, and for a start node without a
 * row the rows of its commits asked first (pg_reach_at's minimum term by
 * term), its own place last: the usual yes needs no look at its
 * transaction.  u must not be that node. */
static inline int scan_reaches_at(const polygraph *g, uint32_t u, uint32_t c, uint32_t p) {
    if (c == HISTORY_NONE) return 0;
    if (pg_reach_has_row(g, u)) return pg_reach_row_at(g, pg_reach_row(g, u), c) <= p;
    uint32_t t = u >> 1;
    uint8_t cls = g->sclass[t];
    if ((cls & PG_SOUT_OWN) && pg_reach_row_at(g, g->reach + (size_t)t * g->reach_stride, c) <= p) return 1;
    if (cls & PG_SOUT_MORE)
        for (uint32_t j = g->sout_start[t]; j < g->sout_start[t + 1]; j++)
            if (pg_reach_row_at(g, g->reach + (size_t)g->sout[j] * g->reach_stride, c) <= p) return 1;
    return pg_node_chain(g, u) == c && pg_node_pos(g, u) <= p;
}

/* Every edge of side u<v is implied by the known graph already.  The _at
 * form takes v's head's chain c and the positions of its WW entry node
 * (pg_node_ww_in) and of its commit node. */
int scan_side_implied(const polygraph *g, uint32_t u, uint32_t v);
int scan_side_implied_at(const polygraph *g, uint32_t u, uint32_t v, uint32_t c, uint32_t p_in, uint32_t p_commit);

/* The two scans of key k (the INIT check, the window pairs, the covering
 * edges, the counts into out); 0 when the key fails. */
int scan_key_groups(const polygraph *g, uint32_t k, scan_scratch *sc, scan_out *out);
int scan_key_order(const polygraph *g, uint32_t k, scan_scratch *sc, scan_out *out);

#endif
