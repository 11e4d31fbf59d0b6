/* dep_edge.h — a dependency between two transactions of a history: the
 * representation shared by the checker's cycles, the reports and the
 * re-checkers (a cycle they find, an edge they are asked about).
 *
 * Kinds: SO (from precedes to in a session), WR (to reads key's version
 * that from wrote), WW (from's version of key is older than to's), RW
 * (from reads a version of key older than to's), and FIXED, the split
 * graph's edge from a transaction's start to its commit (doc/checker.md),
 * and RT (real time: from committed and completed before to was invoked;
 * the real-time levels only, doc/levels.md).  key is HISTORY_NONE for SO
 * and RT. */
#ifndef ISOCHECK_DEP_EDGE_H
#define ISOCHECK_DEP_EDGE_H

#include <stdint.h>

#include "vec.h"

typedef enum { DEP_SO = 0, DEP_WR = 1, DEP_WW = 2, DEP_RW = 3, DEP_FIXED = 4, DEP_RT = 5 } dep_kind;

typedef struct dep_edge {
    uint32_t from, to;       /* history transaction indices */
    uint32_t key;
    uint8_t  kind;           /* dep_kind */
} dep_edge;
typedef VEC(dep_edge) dep_edge_vec;

#endif
