/* history_spill.h — history_free's part of history_spill (history.h):
 * before a spilled history's arrays are freed, they are no longer the
 * spill's (io/spill.h, spill_forget); and the transactions' records
 * spilled too where a stage does not read them. */
#ifndef ISOCHECK_HISTORY_SPILL_H
#define ISOCHECK_HISTORY_SPILL_H

#include "frontend/history/history.h"

void history_spill_forget(history *h);
/* For a history history_spill spilled: its transactions' records too
 * (history_spill leaves them: the graph and pruning read them), until a
 * stage reads them again; a later call (or history_spill_again) drops the
 * pages read back since.  For a stage that does not read them: si's
 * engine (check.c). */
void history_spill_txns(const history *h);

#endif
