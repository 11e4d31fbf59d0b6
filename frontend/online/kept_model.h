/* frontend/online/kept_model.h — the online checker's last model, kept as a graph with a
 * topological order (theory/pk_order.h) and extended in place, so that a
 * re-check whose new edges fit the old choices needs no solver call.
 *
 * Contract
 *   - It mirrors every edge and variable the incremental checker gives
 *     the engine (frontend/online/incr.c): edges (dependency kind, transactions,
 *     guard literal, 0: none) and variables, numbered as in the engine.
 *   - A new variable takes the value true (the engine's initial phase).  A
 *     unit clause sets its variable (moving the guarded edges); one that
 *     contradicts an earlier unit makes the model stale (the engine then
 *     answers UNSAT).  Each level
 *     has its own values (its engine's model).  Edges whose
 *     guard is true, and unguarded ones, are kept in one Pearce–Kelly order
 *     per level; an insertion that would close a cycle makes the model
 *     *stale*.
 *   - om_holds(): the model is not stale: every edge it enables is in an
 *     acyclic order at each level and every unit clause holds, so the
 *     values are a model of everything added: the level passes (a PASS
 *     found without the engine).  Otherwise the caller solves with the
 *     engine and, on SAT, calls om_reset() with its values.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_MODEL_H
#define ISOCHECK_ONLINE_MODEL_H

#include <stdint.h>

#include "gsat.h"
#include "vec.h"
#include "theory/pk_order.h"

typedef struct om_edge { uint32_t a, b; int lit; uint8_t kind, on; } om_edge;   /* on: bit per level */

typedef struct online_model {
    int on[2];                   /* levels kept: 0 SI (split graph), 1 SER */
    pk_order pk[2];
    VEC(om_edge) e;
    vec_int next;                /* per edge: the next edge with the same guard variable */
    vec_int var_head;            /* per variable: its first guarded edge (-1) */
    VEC(int8_t) val[2];          /* per level, per variable: 1 true, 0 false (the levels' models differ) */
    VEC(int8_t) unit;            /* per variable: 1 or -1 once a unit clause fixed it that way, else 0 */
    uint32_t num_txns;           /* nodes: 2 per transaction at SI, 1 at SER */
    int stale;
    uint64_t resets;
} online_model;

void om_init(online_model *m, int want_si, int want_ser);
void om_free(online_model *m);
void om_add_txn(online_model *m);                                   /* transaction num_txns joins */
int  om_new_var(online_model *m);                                   /* returns its number (1, 2, ...) */
void om_add_edge(online_model *m, int kind, uint32_t a, uint32_t b, int lit);
void om_unit(online_model *m, int lit);
static inline int om_holds(const online_model *m) { return !m->stale; }
/* Take the engines' values (s[level] for the levels kept, after GSAT_SAT)
 * and rebuild the orders; 0 if they leave a cycle (then still stale). */
int  om_reset(online_model *m, gsat *const s[2]);

#endif
