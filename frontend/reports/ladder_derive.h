/* ladder_derive.h — a level's FAIL derived from the FAIL of a weaker level
 * of the same run (doc/checker.md, "A run over several levels").
 *
 * If level implies weaker (ladder.h, level_implies) and weaker fails, level
 * fails: every commit order or version order that satisfies level
 * satisfies weaker.  The derivation gives level a reason of its own: the
 * weaker level's cycle, re-checked by the independent re-checker
 * (verify_model.h, cycle_holds_level) as a cycle level forbids in level's
 * own dependency graph, under
 *   - the weaker level's version order (a level a search decided), or
 *   - for rc, ra, cc (whose cycle orders writers by premises, not by a
 *     version order): a version order built for the cycle: base (a
 *     passing level's order of the same history; NULL: every participant
 *     writer of a key in transaction order), each key's writers moved so
 *     that the cycle's WW edges (premise, list and initial-state edges)
 *     hold.
 * ladder_derive_fail returns 1 with res filled (verdict FAIL, stage
 * "implied", msg naming the weaker level, the cycle, the version order it
 * holds under, the weaker level's forced edges for the interpretation), or
 * 0 (res left empty) when the cycle does not hold at level: the caller then
 * checks level itself.  Only searched levels (shape PC and up) are derived
 * (rc, ra, cc cost a saturation); a weaker result on repeated values
 * (res->chosen) is not used.  Reads the history only. */
#ifndef ISOCHECK_LADDER_DERIVE_H
#define ISOCHECK_LADDER_DERIVE_H

#include <stdint.h>

#include "frontend/checking/check.h"
#include "frontend/history/history.h"

/* The derived FAIL's reason in r (report.h): one anomaly of res->level,
 * its cycle named by the level's rule (classify.h), not explained edge by
 * edge.  It is marked chosen (report_anomaly: the cycle holds under the
 * version order res->vo, every order has some violating cycle since the
 * weaker level fails) unless it has no WW or RW edge.  Returns 1. */
struct report;
size_t ladder_derive_report(struct report *r, const check_result *res);

/* Better, once the weaker level is interpreted: its first anomaly a,
 * when every fact of it is forced (not chosen) by a cycle level forbids
 * too, and its cycle, re-checked by cycle_holds_level under vo (the weaker
 * level's order), is one level forbids: r's anomalies of level are replaced by a copy of a, named by
 * level's rule, explanations and all.  1 if adopted, else 0 (r as it
 * was). */
struct report_anomaly;
int ladder_derive_adopt(struct report *r, check_level_id level, const struct report_anomaly *a, const version_order *vo);

int ladder_derive_fail(const history *h, const uint8_t *part, check_level_id level, const check_result *weaker,
                       const version_order *base, check_result *res);

#endif
