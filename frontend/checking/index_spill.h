/* index_spill.h — the index's large arrays out of resident memory while a
 * level's stages do not read them (issue 37: at 1M transactions the index
 * is about 100 MB, held through ser's re-check and interpretation and si's
 * solving and re-check, each a peak of the run, none of which reads it).
 *
 * The mechanism is io/spill.h: the units, their members and their readers
 * are written once to the spill file and mapped over themselves, the same
 * bytes at the same addresses; a stage that reads them later faults their
 * pages back in, and the next pg_index_spill drops those pages again (no
 * second write: the index is not written after it is built).  Nothing
 * happens unless the program called spill_enable.  The index's owner calls
 * pg_index_spill_forget before pg_index_free (else spill_drop could later
 * act on a block given the same address). */
#ifndef ISOCHECK_INDEX_SPILL_H
#define ISOCHECK_INDEX_SPILL_H

#include "frontend/checking/polygraph.h"

void pg_index_spill(const pg_index *ix);
void pg_index_spill_forget(const pg_index *ix);

#endif
