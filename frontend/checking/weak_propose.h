/* weak_propose.h — the strong levels' choices of writers, proposed to rc,
 * ra and cc on a history with ambiguous reads, decided once per run
 * (doc/checker.md, "Repeated values": rc, ra, cc).
 *
 * Contract
 *   - weak_proposal(p, ix, k, opt) is the history under the writers that
 *     strong level WEAK_STRONG_LEVELS[k] (ser, si, psi, pc) chose when it
 *     passes on ix->h, NULL when it fails or was not decided (an index that
 *     could not be built, a limit, an interrupt).  The level is checked at
 *     most once per proposals object, on an index of the proposals' own
 *     (the caller's may have its base edges counted to be freed after its
 *     own levels: run_check), with opt minus implied_vo, implied_chosen,
 *     session_level_fails and spill_index; the answer is the same whoever
 *     asks first (a check's answer does not depend on the thread or pool).
 *   - Thread-safe: several weak levels of one run (run_check's first wave,
 *     at once on the pool) share one object; a caller asking for a level
 *     another thread is checking waits for it (the thread checking it takes
 *     no weak level's task meanwhile: its stages run at the weak level's
 *     priority, above the wave's, par.h; a thread that asks for a level
 *     it is itself checking checks it again on its own, never waits).
 *   - The object's index is freed once every strong level is decided; the
 *     histories returned live until weak_proposals_free.  Every history a
 *     proposals object is asked about must be the same (ix->h).
 *   - weak_proposals_new(): an empty object (NULL when out of memory is not
 *     returned: xmalloc exits).
 *   - A run whose own later wave checks a strong level with the same
 *     question (no stronger level's order to re-check, no session level
 *     known to fail: the options a proposal is checked with) asks the
 *     object to keep that level's whole check_result
 *     (weak_proposals_keep, before any proposal): when the level is checked
 *     for a proposal and passes, weak_proposals_take moves its result out
 *     (1), once: the result its own check would give, but for the times (a
 *     check's result depends only on the history, the level and those
 *     options; the index is the same, pg_index_opts_for).  A FAIL or an
 *     UNKNOWN is not kept (a FAIL would be held while the next strong
 *     levels are checked: a higher peak; the wave checks it again).  A PASS
 *     costs its version order beside the choice kept anyway.
 *     weak_proposals_drop frees a kept result no
 *     one will take.  weak_proposals_asked: no weak level asks again (the
 *     run's first wave is over): the index and the choices not kept are
 *     freed; weak_proposal must not be called after it. */
#ifndef ISOCHECK_WEAK_PROPOSE_H
#define ISOCHECK_WEAK_PROPOSE_H

#include <stddef.h>

#include "frontend/checking/check.h"
#include "frontend/checking/weak.h"   /* weak_proposals, _new, _free */

#define WEAK_NUM_STRONG 4
extern const check_level_id WEAK_STRONG_LEVELS[WEAK_NUM_STRONG];

const history *weak_proposal(weak_proposals *p, const pg_index *ix, size_t k, const check_options *opt);
/* Strong levels checked for proposals so far, by every object of the
 * process (for tests). */
unsigned long weak_proposals_strong_checks(void);

void weak_proposals_keep(weak_proposals *p, check_level_id level);
int  weak_proposals_take(weak_proposals *p, check_level_id level, check_result *out);
void weak_proposals_drop(weak_proposals *p, check_level_id level);
void weak_proposals_asked(weak_proposals *p);
/* Results taken by a level's own task so far, process-wide (for tests). */
unsigned long weak_proposals_taken(void);

#endif
