/* classify.h — is a dependency cycle a violation of a level, and what is
 * it called?  (The rules with examples: doc/anomalies.md.)
 *
 * A cycle is a closed chain of transaction-level dependencies (SO, WR, WW,
 * RW, RT; dep_edge.h), edge i ending where edge i+1 starts.  Which cycles
 * a level forbids (doc/levels.md, "Anomalies each level forbids"), by the
 * level's rule (level_cycle_rule):
 *   RULE_ALL           ser, ser-plain, sser: every cycle;
 *   RULE_NO_ADJ_RW     si, si-plain, strong-si: no two cyclically adjacent
 *                      edges both RW (the cycles of D ; RW?, D = SO ∪ WR ∪ WW
 *                      ∪ RT as the level has them);
 *   RULE_AT_MOST_ONE_RW  psi: at most one RW edge;
 *   RULE_GIVEN         pc, rc, ra, cc: no rule over one version order's
 *                      cycles characterizes them; only the cycle the level's
 *                      own check proved is taken (as a violation).
 * Names, first rule that matches (the cycle should be minimal, see
 * interpret.h, so that it has no shorter sub-cycle):
 *   write-cycle (G0)                 only WW
 *   circular-information-flow (G1c)  only WW and WR, at least one WR
 *   lost-update                      two transactions: a -RW x-> b -WW x-> a
 *   exactly one RW or WW edge b -> a, the rest a path a ~> b of SO/WR/RT:
 *     real-time-violation            the path has an RT edge
 *     read-your-writes               path all SO, back edge RW
 *     monotonic-writes               path all SO, back edge WW
 *     monotonic-reads                path = WR then SO..., back edge RW
 *     writes-follow-reads            path = WR then SO..., back edge WW
 *     fractured-read                 two transactions: a -WR-> b -RW-> a
 *     causality-violation            any other such path
 *   write-cycle (G0-process, G0-realtime)   no RW, no WR (SO or RT with WW)
 *   circular-information-flow (G1c-process, G1c-realtime)   no RW, some WR
 *   read-skew (G-single)             exactly one RW (the rest has a WW)
 *   long-fork                        two non-adjacent RW, the rest SO/WR
 *   write-skew                       only RW (a SER violation only)
 *   cycle                            anything else ("cycle of N transactions"):
 *                                    never a cycle with at most one RW edge, so
 *                                    every cycle psi forbids is named
 * Adya-style class: G0, G1c, G-single, G-nonadjacent (RW edges, none
 * adjacent), G2-item (adjacent RW edges); "-realtime" when RT edges take
 * part, else "-process" when SO edges do (Elle's naming). */
#ifndef ISOCHECK_CLASSIFY_H
#define ISOCHECK_CLASSIFY_H

#include <stddef.h>

#include "frontend/checking/anomaly.h"
#include "frontend/checking/polygraph.h"
#include "frontend/history/levels.h"

typedef enum { RULE_ALL, RULE_NO_ADJ_RW, RULE_AT_MOST_ONE_RW, RULE_GIVEN } cycle_rule;

cycle_rule level_cycle_rule(check_level_id level);

/* 1 if the cycle is a violation under rule (RULE_GIVEN: any non-empty cycle). */
int cycle_violates_rule(const dep_edge *c, size_t n, cycle_rule rule);
/* The same for si (si != 0: RULE_NO_ADJ_RW) or ser (RULE_ALL). */
int cycle_violates(const dep_edge *c, size_t n, int si);

typedef struct cycle_class {
    int violates;            /* cycle_violates_rule() */
    anomaly_kind kind;       /* AN_CYCLE when no textbook name fits */
    char adya[32];           /* "G-single-process", "G2-item-realtime", ... */
} cycle_class;

cycle_class classify_cycle_rule(const dep_edge *c, size_t n, cycle_rule rule);
cycle_class classify_cycle(const dep_edge *c, size_t n, int si);

/* Adya's class of the non-cycle anomalies (G1a, G1b, ...), or NULL. */
const char *anomaly_adya(anomaly_kind k);

#endif
