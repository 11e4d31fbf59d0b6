/* check.h — checking a history (that passed the axioms) against a level
 * decided by a search: si, ser, pc, psi, si-plain, ser-plain, strong-si,
 * sser, rr (levels.def shapes PC, PSI, SI, SER, RR; doc/checker.md).
 *
 * check_level() runs: polygraph for the level (constraints.c), pruning
 * (prune.c), encoding and solving in the engine (encode.c), and always
 * re-checks the answer by definition (verify_model.c):
 *   PASS  the version order read off the model (plus what pruning decided)
 *         rebuilds an acyclic graph — res->vo is that witness;
 *   FAIL  res->cycle is a dependency cycle that holds in the history under
 *         the version order res->vo (every version order has one; this is
 *         the one read off the known graph's topological order), checked
 *         edge by edge with cycle_holds();
 *   UNKNOWN the answer could not be confirmed (an internal error) or a limit
 *         was hit; res->msg says which (frontend/history/verdict.h).
 * The pg_index (built once) is shared by the levels. */
#ifndef ISOCHECK_CHECK_H
#define ISOCHECK_CHECK_H

#include <stdint.h>

#include "gsat.h"
#include "theory/graph_sink.h"
#include "frontend/checking/polygraph.h"
#include "frontend/history/levels.h"
#include "frontend/history/verdict.h"
#include "frontend/history/version_order.h"


/* level_name() and level_title() (levels.h), under the names the checking code uses */
const char *check_level_name(check_level_id l);
const char *check_level_title(check_level_id l);

typedef struct check_stats {
    double t_graph, t_prune, t_encode, t_solve, t_verify;
    double t_interpret, cpu_interpret;   /* FAIL: run_check's interpretation into anomalies
                                            (wall, and its thread's CPU time) */
    int interpret_early;         /* it ran right after the level's wave, before the next (run_check) */
    uint64_t nodes, known_edges_initial, known_edges_final;
    uint64_t pairs_total, pairs_decided_scan, cons_initial, cons_pruned, cons_final, edges_covering;
    uint32_t prune_rounds;
    uint32_t psi_rounds;         /* psi: solves until a model had no RW edge closing a D path */
    uint64_t vars, guarded_edges;
    int solver_called;
    gsat_stats solver;
} check_stats;

typedef struct check_result {
    verdict verdict;
    check_level_id level;
    const char *stage;           /* where the verdict was reached */
    version_order vo;
    dep_edge_vec cycle;
    dep_edge_vec forced;         /* FAIL: the WW and RW edges of the final known graph (read off the
                                    history, or decided by pruning), for the interpretation */
    char msg[512];
    check_stats st;
    history *chosen;             /* repeated values (choice.h): the resolved history with every
                                    ambiguous read given the writer the answer assumes (PASS: the
                                    model's; FAIL: any, every choice fails), the one re-checked;
                                    NULL when no read was ambiguous, or for a FAIL whose cycle is
                                    of known edges (known_cycle.h: it holds on the history as is) */
    struct weak_result *weak;    /* rc, ra, cc (stage "saturation", weak.h): the labelled cycle with
                                    its anomaly name (FAIL) or the commit order (PASS); NULL for
                                    the other levels.  For these levels cycle holds the same cycle
                                    as dependency edges (list, premise and initial-state edges as
                                    WW of their key) and vo the version order the commit order
                                    induces; forced stays empty.  Freed by check_result_free. */
} check_result;

typedef struct check_options {
    int max_prune_rounds;        /* default 100 */
    double time_limit;           /* solver seconds, <= 0: none */
    /* called at stage boundaries (may be NULL) */
    void (*progress)(void *ctx, const char *what);
    void *progress_ctx;
    unsigned threads;            /* threads for the per-key stages (par.h); 0 or 1:
                                    single-threaded (the default).  Results never depend on it.
                                    run_check also runs SI and SER at once when it is 2 or more. */
    struct par_pool *pool;       /* the stages' tasks go to this pool (run_check's, shared by the
                                    levels), whose thread count replaces `threads`; NULL: the
                                    check makes its own pool of `threads` for its run */
    int priority;                /* in a shared pool, this level's tasks go before those of lower
                                    priority (par_pool_run_prio; default 0) */
    /* asked by the solver after each conflict (gsat_set_terminate): nonzero
     * stops it, the level is UNKNOWN ("interrupted while solving"); NULL: never */
    int (*stop)(void *ctx);
    void *stop_ctx;
    /* A version order of a level that implies this one and passed on the
     * same history (run_check's second wave; NULL: none): when it re-checks
     * at this level (vo_check_level_on) it decides a PASS without a search,
     * stage "implied", its level named in msg; else the level is checked as
     * usual.  Levels that a search decides only (not rc, ra, cc). */
    const version_order *implied_vo;
    check_level_id implied_from;
    /* With reads of repeated values: the history under the writers that
     * level chose (its check_result.chosen), under which implied_vo is
     * re-checked and which this level's PASS names too; NULL: none (the
     * level runs its own search). */
    const history *implied_chosen;
    /* si-plain, ser-plain: the session level (si, ser) is known to fail on
     * this history (run_check decided it in the same run), so the plain
     * level skips running it first and goes to its own search. */
    int session_level_fails;
    /* The index this check may move out of resident memory where its
     * stages do not read it (index_spill.h: pruning's renewals, solving,
     * the re-check), and its history's transaction records while the
     * engine encodes and solves (history_spill_txns, for a history
     * history_spill spilled); the caller calls pg_index_spill_forget
     * before freeing the index.  NULL: never. */
    const pg_index *spill_index;
    /* rc, ra, cc with ambiguous reads: the strong levels' choices of writers,
     * shared by the run's weak levels (weak_propose.h); NULL: the level
     * checks them on its own. */
    struct weak_proposals *proposals;
} check_options;

void check_options_default(check_options *o);
void check_result_free(check_result *r);

/* The index a level needs, and whether ix is one (check_level builds its
 * own when it is not: a caller that runs several levels may build one per
 * distinct pg_index_opts and share it; si, ser and psi share the default
 * one of pg_index_build).  A level whose index does not fit does not copy
 * ix->base.  A level that fits uses ix's base edges twice: its pg_init
 * copies them, and its check ends (pg_known_back may regenerate them until
 * then; check_level calls pg_index_base_copied again there), so
 * pg_index_release_base_after(ix, n) must count two for each level that
 * fits ix. */
pg_index_opts pg_index_opts_for(check_level_id level);
int  pg_index_fits(const pg_index *ix, check_level_id level);
/* The level's polygraph (constraints.c): SER's graph, the split graph of
 * the SI levels and pc (with pc's WW rule), or psi's (SER's nodes, RW
 * edges kept out of the graph).  ix must fit the level. */
void pg_init_level(polygraph *g, const pg_index *ix, check_level_id level);
/* The same, its per-key parts on pool at priority prio (polygraph.h,
 * pg_init_shape_on). */
void pg_init_level_on(polygraph *g, const pg_index *ix, check_level_id level, struct par_pool *pool, int prio);

/* Any level whose shape is PC, PSI, SI or SER (levels.def; the others:
 * VERDICT_UNKNOWN, stage "refused").  A real-time level without the
 * history's times is refused the same way, with a message saying so.  When
 * ix was not built for the level (pg_index_fits), the check builds the
 * index it needs from ix->h and frees it after. */
verdict check_level(const pg_index *ix, check_level_id level, const check_options *opt, check_result *res);

/* weak_level.c: whether level is decided by saturation (rc, ra, cc), and
 * its check, which check_level() dispatches to (no polygraph, no solver;
 * of the options only the pool or thread count is used, for cc). */
int check_level_is_weak(check_level_id l);
verdict check_weak_level(const pg_index *ix, check_level_id level, const check_options *opt, check_result *res);
/* The same for levels[0 .. n) (each rc, ra or cc) into res[0 .. n), the
 * history read once for all (weak_check_levels); res[i] as check_level
 * fills it. */
void check_weak_levels(const pg_index *ix, const check_level_id *levels, size_t n, const check_options *opt,
                       check_result *res);
/* The weak check of h (unique values: a history without ambiguous reads)
 * with participants part, into res; and the same for a resolved history
 * with ambiguous reads, whose writers it chooses (weak_choice.c: res->chosen
 * names them; a FAIL holds for every choice). */
verdict check_weak_on(const history *h, const uint8_t *part, check_level_id level, const check_options *opt,
                      check_result *res);
verdict check_weak_choice(const pg_index *ix, check_level_id level, const check_options *opt, check_result *res);

/* The same stages with an external solver (isocheck encode / decode).
 * The remaining problem (after pruning unless no_prune) is encoded into
 * sink (when non-NULL; if the stages already decide FAIL, the sink gets one
 * empty clause and a comment).  Then:
 *   model_unsat         the external solver said UNSAT: FAIL, confirmed as usual;
 *   model_value != NULL its model decides each constraint (value(ctx, var) > 0:
 *                       true) and the result is confirmed as after gsat;
 *   neither             VERDICT_UNKNOWN with stage "exported" — unless the stages
 *                       decided FAIL first (then that FAIL).
 * Variable numbering is deterministic: the same history and options give
 * the same variables in encode and decode. */
typedef struct check_external {
    int no_prune;
    const graph_sink *sink;
    int model_unsat;
    int (*model_value)(void *ctx, int var);
    void *model_ctx;
} check_external;
verdict check_level_ext(const pg_index *ix, check_level_id level, const check_options *opt,
                        const check_external *ext, check_result *res);

/* encode.c: the polygraph's known edges (unguarded) and one variable per
 * constraint (true: u before v) guarding both sides' edges, into graph of
 * solver s.  Returns the variable of constraint 0 (others follow). */
int pg_encode(const polygraph *g, gsat *s, uint64_t *guarded_edges);
/* The same, calling known_read(ctx) as soon as g->known has been read
 * (loaded into s): the encoding reads no known edge after that call, so
 * the caller may move them aside for the solve (check.c, base_aside). */
int pg_encode_then(const polygraph *g, gsat *s, uint64_t *guarded_edges, void (*known_read)(void *), void *ctx);
/* The same into any sink (the engine, or a recorder for isocheck encode). */
int pg_encode_sink(const polygraph *g, const graph_sink *k, uint64_t *guarded_edges);

/* version_read.c: the version order read off g->topo_pos (per key INIT's
 * unit, then the other units by the position of their head, each unit's
 * writers consecutively) into vo, freed first; the same for every pool. */
void pg_version_order_read(const polygraph *g, version_order *vo);

/* known_aside.c: the known graph's prefix of base edges (exactly the
 * index's, initial of them, as pg_init copied them) out of g->known while
 * the engine solves (it holds them), the rest moved to the front; 
 * pg_known_back regenerates them from the index in front of the rest: 0
 * if they differ from those that went (an internal error).  Nothing is
 * moved when the prefix is not the base edges, for psi's graph, or when
 * the index no longer holds its base edges. */
typedef struct known_aside { size_t n; uint64_t hash; int aside; } known_aside;
void pg_known_aside(polygraph *g, size_t initial, known_aside *a);
int  pg_known_back(polygraph *g, known_aside *a);

/* psi.c: psi's and rr's search.  psi_take_rw moves the known lazy RW edges
 * (pg_rw_lazy) out of g->known (encode them as no arcs); psi_solve solves s
 * (encoded with pg_encode, variables from var0) until a model leaves no RW
 * edge r -> c with c reaching r by D edges (rr: no item RW edge r -> c with
 * c reaching r by any edges), adding a clause against each such path;
 * returns gsat_solve's last answer. */
void psi_take_rw(polygraph *g, pg_edge_vec *rw);
int  psi_solve(const polygraph *g, gsat *s, int var0, const pg_edge_vec *rw_known, uint32_t *rounds);

#endif
