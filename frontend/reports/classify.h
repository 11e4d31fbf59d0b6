/* classify.h — is a dependency cycle a violation of a level, and what is
 * it called?  (The rules with examples: doc/anomalies.md.)
 *
 * A cycle is a closed chain of transaction-level dependencies (SO, WR, WW,
 * RW; polygraph.h's dep_edge), edge i ending where edge i+1 starts.
 *   SER  every cycle is a violation.
 *   SI   a cycle is a violation iff no two cyclically adjacent edges are
 *        both RW (the cycles of D ; RW?, D = SO ∪ WR ∪ WW).
 * Names, first rule that matches (the cycle should be minimal, see
 * interpret.h, so that it has no shorter sub-cycle):
 *   write-cycle (G0)                 only WW
 *   circular-information-flow (G1c)  only WW and WR, at least one WR
 *   lost-update                      two transactions: a -RW x-> b -WW x-> a
 *   exactly one RW or WW edge b -> a, the rest a path a ~> b of SO/WR:
 *     read-your-writes               path all SO, back edge RW
 *     monotonic-writes               path all SO, back edge WW
 *     monotonic-reads                path = WR then SO..., back edge RW
 *     writes-follow-reads            path = WR then SO..., back edge WW
 *     fractured-read                 two transactions: a -WR-> b -RW-> a
 *     causality-violation            any other such path
 *   read-skew (G-single)             exactly one RW (the rest has a WW)
 *   long-fork                        two non-adjacent RW, the rest SO/WR
 *   write-skew                       only RW (a SER violation only)
 *   cycle                            anything else ("cycle of N transactions")
 * Adya-style class: G0, G1c, G-single, G-nonadjacent (RW edges, none
 * adjacent), G2-item (adjacent RW edges); "-process" when SO edges take
 * part (Elle's naming). */
#ifndef ISOCHECK_CLASSIFY_H
#define ISOCHECK_CLASSIFY_H

#include <stddef.h>

#include "frontend/checking/anomaly.h"
#include "frontend/checking/polygraph.h"

/* 1 if the cycle is a violation at the level (si: SI, else SER). */
int cycle_violates(const dep_edge *c, size_t n, int si);

typedef struct cycle_class {
    int violates;            /* cycle_violates() */
    anomaly_kind kind;       /* AN_CYCLE when no textbook name fits */
    char adya[24];           /* "G-single-process", ... */
} cycle_class;

cycle_class classify_cycle(const dep_edge *c, size_t n, int si);

/* Adya's class of the non-cycle anomalies (G1a, G1b, ...), or NULL. */
const char *anomaly_adya(anomaly_kind k);

#endif
