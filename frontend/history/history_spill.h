/* history_spill.h — history_free's part of history_spill (history.h):
 * before a spilled history's arrays are freed, they are no longer the
 * spill's (io/spill.h, spill_forget). */
#ifndef ISOCHECK_HISTORY_SPILL_H
#define ISOCHECK_HISTORY_SPILL_H

#include "frontend/history/history.h"

void history_spill_forget(history *h);

#endif
