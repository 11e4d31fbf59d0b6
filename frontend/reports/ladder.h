/* ladder.h — the order of the isolation ladder (doc/levels.md, "The order
 * of the ladder") and what a run over several levels concludes from it.
 *
 *   ladder_order    every level once, in the order reports list them: the
 *                   session levels weakest first (rc ra cc pc psi si ser
 *                   strong-si sser: a linear extension of the implication
 *                   order), then the plain chain (si-plain ser-plain);
 *   level_implies   a ⇒ b: every history satisfying a satisfies b (the
 *                   reflexive-transitive closure of the Hasse diagram of
 *                   doc/levels.md, which this file holds as a table);
 *   ladder_summary  from one verdict per level: the strongest levels that
 *                   hold (passing, no stronger checked level passes), the
 *                   weakest that fail (failing, no weaker one fails), and
 *                   every contradiction of the order (a level passes while
 *                   one it implies fails: an internal error, never a
 *                   verdict to trust).
 * Pure functions of the table; no allocation. */
#ifndef ISOCHECK_LADDER_H
#define ISOCHECK_LADDER_H

#include "frontend/history/levels.h"
#include "frontend/history/verdict.h"

extern const check_level_id ladder_order[LEVEL_COUNT];

/* 0: a session level (rc ... sser); 1: the plain chain (si-plain, ser-plain). */
int ladder_part(check_level_id l);
/* 1 if a implies b (a == b included). */
int level_implies(check_level_id a, check_level_id b);
/* 1 for the levels a certificate can prove (isocheck verify): those with a
 * certificate form (certificate.h: every level a search decides). */
int level_has_certificate(check_level_id l);
/* 1 if the level can be checked on a history with (1) or without (0) the
 * transactions' invocation and completion times. */
int level_checkable(check_level_id l, int has_times);

/* A level's state in a run: not asked, or its verdict, or not checked. */
typedef enum { LADDER_NOT_ASKED = 0, LADDER_PASS, LADDER_FAIL, LADDER_UNKNOWN, LADDER_NO_TIMES } ladder_state;

typedef struct ladder_conflict { check_level_id stronger, weaker; } ladder_conflict;

typedef struct ladder_summary_t {
    check_level_id holds[LEVEL_COUNT];   /* strongest that hold, in ladder order */
    int num_holds;
    check_level_id fails[LEVEL_COUNT];   /* weakest that fail, in ladder order */
    int num_fails;
    ladder_conflict conflicts[LEVEL_COUNT * LEVEL_COUNT];   /* stronger passes, weaker fails */
    int num_conflicts;
} ladder_summary_t;

void ladder_summary(const ladder_state st[LEVEL_COUNT], ladder_summary_t *out);

/* The ladder_state of a verdict. */
ladder_state ladder_state_of(verdict v);

#endif
