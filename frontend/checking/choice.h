/* choice.h — reads whose writer is a choice (repeated values, issue 35;
 * predicate reads' views of keys they did not return, issue 34;
 * doc/checker.md, "Repeated values", "Predicate reads").
 *
 * A resolved history (history_resolved) flags OP_AMBIGUOUS the external
 * reads left with several possible writers.  The index leaves them out
 * (no WR edge, no reader of any unit), so the known graph, the pair scan
 * and pruning see a subset of every choice's edges: whatever they decide
 * holds for every choice.  Per level, after pruning:
 *   pg_choice_build  keeps, per ambiguous read, the candidates that take
 *                    part in the graph and whose WR edge would not close a
 *                    cycle with the known graph (the reader reaches the
 *                    writer: e.g. a later transaction of its own session)
 *                    and, unless the reader reads the key by predicate
 *                    only at rr, whose version is not surely overwritten
 *                    before the reader (that RW edge would close a cycle);
 *   pg_choice_encode one variable per candidate (at least one true); the
 *                    WR edge writer -> reader guarded by it; the RW edge
 *                    reader -> next, when the writer is not last of its
 *                    unit, guarded by it too; and per other unit V of the
 *                    key a variable y_V guarding reader -> head(V), with
 *                    the clause  x_c ∧ [unit(c) before V] -> y_V  per
 *                    candidate c (the order a pair constraint's literal,
 *                    or decided by the known graph);
 *                    (pg_rw_lazy: psi's RW edges and rr's predicate
 *                    anti-dependencies go to c->edges only);
 *   pg_choice_model  the writer each read saw in a model (its first true
 *                    candidate);
 *   pg_choice_any    a choice for a failure's confirmation (every choice
 *                    fails, so any will do: the first candidate left, else
 *                    the first possible one).
 * rr's views (predicate.h, pred_fact_is_view: doc/levels.md "rr", "Adya's
 * model, reduced") are reads of this kind after the ambiguous ones: the
 * reader, the key and the write ops of the view's versions as candidates;
 * their RW edges are predicate anti-dependencies (rw 2: lazy, never
 * checked), their WR edge the predicate read-dependency.  A view's choice
 * names no read of the history: the re-check finds the view itself
 * (verify_model.h); pg_choice_model's entries past namb are for no one.
 * Without ambiguous reads or views g->choice stays NULL and nothing changes. */
#ifndef ISOCHECK_CHOICE_H
#define ISOCHECK_CHOICE_H

#include "frontend/checking/polygraph.h"
#include "theory/graph_sink.h"

/* rw: 0 a WR edge, 1 an RW edge, 2 an RW edge that is a predicate
 * anti-dependency whatever pg_rw_lazy says (an rr view's) */
typedef struct pg_choice_edge { uint32_t from, to; int lit, rw; uint32_t key; } pg_choice_edge;

typedef struct pg_choice {
    uint32_t n;                  /* ambiguous reads: h->num_amb, in its order, then (rr) the views */
    uint32_t namb;               /* h->num_amb */
    uint32_t *rtxn, *rkey;       /* n: each read's reader transaction (HISTORY_NONE: no edges) and key */
    uint32_t *start;             /* n + 1: read i's candidates are cand[start[i] .. start[i + 1]) */
    uint32_t *cand;              /* write ops */
    int var0;                    /* candidate j's variable is var0 + j (after encoding) */
    int var_end;                 /* the encoding's variables are var0 .. var_end - 1 (candidates, then y_V) */
    uint64_t dropped;            /* candidates the level ruled out */
    vec_int clauses;             /* every clause encoded, each ended by 0 (pg_choice_clauses_hold) */
    VEC(pg_choice_edge) edges;   /* every guarded edge encoded (nodes of g; key: the read's); the lazy
                                    RW edges (pg_rw_lazy: psi's, rr's predicate anti-dependencies) are
                                    only here, not in the engine's graph: psi.c adds those whose guard
                                    a model makes true to its lazy check, with the D edges here */
} pg_choice;

/* NULL when the history has no ambiguous read.  Needs g's reachability. */
pg_choice *pg_choice_build(const polygraph *g);
void pg_choice_free(pg_choice *c);
/* After the constraints' variables (cons i: cons_var0 + i, true: u before v). */
void pg_choice_encode(pg_choice *c, const polygraph *g, const graph_sink *k, int graph, int cons_var0, uint64_t *edges);
/* First phases for the solver (after encoding): per read, its candidate
 * whose writer comes last before the reader in the known graph's order
 * (the version a read of a real execution most likely saw) true, the other
 * candidates and every y_V false; set(ctx, var, value) is called for each. */
void pg_choice_phases(const pg_choice *c, const polygraph *g, void (*set)(void *, int, int), void *ctx);
/* Whether a model satisfies every clause of the encoding (value(ctx, var)
 * > 0: true); a model from a faulty engine may not (check.c). */
int pg_choice_clauses_hold(const pg_choice *c, int (*value)(void *, int), void *ctx);
/* Per read, the chosen write op (a calloc'd array of n). */
uint32_t *pg_choice_model(const pg_choice *c, int (*value)(void *, int), void *ctx);
uint32_t *pg_choice_any(const pg_choice *c, const history *h);

#endif
