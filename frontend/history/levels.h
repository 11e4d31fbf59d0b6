/* levels.h — the isolation levels as data: ids, names, how each is decided
 * (the table is levels.def; the definitions are doc/levels.md).
 *
 * Contract: LEVEL_SI is 0 and LEVEL_SER is 1 (arrays of today's two levels
 * stay valid); LEVEL_COUNT counts them all.  The queries are pure lookups. */
#ifndef ISOCHECK_LEVELS_H
#define ISOCHECK_LEVELS_H

typedef enum {
#define LEVEL(id, name, title, shape, so, rt) LEVEL_##id,
#include "frontend/history/levels.def"
#undef LEVEL
    LEVEL_COUNT
} check_level_id;

typedef enum {
    SHAPE_WEAK_RC, SHAPE_WEAK_RA, SHAPE_WEAK_CC,   /* saturation: the premise does not depend on co */
    SHAPE_PC, SHAPE_PSI, SHAPE_SI, SHAPE_SER,      /* a search over version orders */
    SHAPE_RR                                       /* SER's, predicate anti-dependencies lazily (doc/checker.md) */
} level_shape;

const char *level_name(check_level_id l);          /* "si", "ser-plain", ... */
const char *level_title(check_level_id l);         /* "snapshot isolation", ... */
level_shape level_shape_of(check_level_id l);
int level_session_order(check_level_id l);         /* SO in the base relation */
int level_real_time(check_level_id l);             /* RT too: needs the history's times */
/* The level named s, or -1. */
int level_by_name(const char *s);

#endif
