/* viper.h — Viper's transactions one by one, for parse_json.c: a JSON-lines
 * file whose first object is a Viper transaction ({"value": [micro-ops]},
 * no "type") is one Viper log, read as one session (parse_viper.c has the
 * format; a directory of them is parse_viper_dir). */
#ifndef ISOCHECK_VIPER_H
#define ISOCHECK_VIPER_H

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/load_report.h"
#include "frontend/formats/optree.h"

typedef struct viper_state vp_reader;

/* Whether the object at root is a Viper transaction: "value" an array
 * whose first element (if any) is an array starting "r" or "w", and no
 * "type". */
int vp_is_txn(const optree *t, uint32_t root);
/* A reader of one log, source (errors name it), one session. */
vp_reader *vp_new(const char *source, load_report *rep);
int vp_txn(vp_reader *r, const optree *t, uint32_t root, ic_error *err);
/* The history (NULL with err set); frees r.  vp_free: without a history. */
history *vp_finish(vp_reader *r, ic_error *err);
void vp_free(vp_reader *r);

#endif
