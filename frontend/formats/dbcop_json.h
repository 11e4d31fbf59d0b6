/* dbcop_json.h — dbcop's JSON histories (rnbguy/dbcop, its current
 * version: `dbcop generate` writes JSON, not only the old bincode):
 *
 *   {"params": {...}, "info": "...", "start": "...", "end": "...",
 *    "data": [SESSION, ...]}                  (the CLI's standalone file)
 *   [SESSION, ...]                            (the raw sessions array)
 *
 *   SESSION = [{"events": [EVENT, ...], "committed": true|false}, ...]
 *   EVENT   = {"Read": {"variable": K, "version": V|null}}
 *           | {"Write": {"variable": K, "version": V}}
 *           | ["r", K, V|null] | ["w", K, V]     (the compact form)
 *
 * parse_json.c tells it from an Elle or TimeKiller history by its first
 * value: an object with "data" (and no "type"), or an array (a session).
 * Sessions are numbered from 1 and transactions 1, 2, ... in file order,
 * as in the bincode.  K and V are integers >= 0.  A read of null reads the
 * initial value, and so does a read of 0 on a key no transaction writes 0
 * to (dbcop's own rule); "committed": false is an aborted transaction,
 * kept so that reading its writes is reported.  Other members ("params",
 * "info", ...) are ignored. */
#ifndef ISOCHECK_DBCOP_JSON_H
#define ISOCHECK_DBCOP_JSON_H

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/load_report.h"
#include "frontend/formats/optree.h"

typedef struct dj_reader dj_reader;

/* Whether the first value of a JSON file (root) is a dbcop history: the
 * wrapper object, or a session array. */
int dj_is_history(const optree *t, uint32_t root);
dj_reader *dj_new(const char *source, load_report *rep);
/* One top-level value: the wrapper object (all its sessions), or one
 * session array.  0 with err set on bad input. */
int dj_value(dj_reader *r, const optree *t, uint32_t root, ic_error *err);
/* The history (or NULL with err set); frees r. */
history *dj_finish(dj_reader *r, ic_error *err);
void dj_free(dj_reader *r);

#endif
