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
 *     returned: xmalloc exits). */
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

#endif
