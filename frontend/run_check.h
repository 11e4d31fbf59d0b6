/* run_check.h — the checking pipeline, once, for every caller: the
 * `isocheck check` command and the library (include/isocheck.h) both run
 * it, so both get the same report.
 *
 *   axioms (axioms.h) -> index (polygraph.h) -> each level asked
 *   (check.h) -> on FAIL the anomalies, named and explained
 *   (interpret.h); on PASS optionally a certificate, verified with
 *   `isocheck verify`'s own code (certificate.h: every level).
 *
 * Over several levels, a level implied by a passing level is decided by
 * that level's version order (re-checked at it), and a level implying a
 * failing level fails (its report_level says so: implied, implied_by,
 * stage "implied", one anomaly: the weaker level's cycle, re-checked at
 * it, ladder_derive.h); the verdicts are those of each level alone.
 *
 * The levels are checked first, then the index is freed, then each
 * failing level is interpreted (it reads the history and the check's
 * result only).  Each axiom violation breaks some levels (anomaly_breaks:
 * most every level, a non-repeatable read all but rc).  When they break
 * every level asked they end the run (the levels are not checked), unless
 * cycles_after_axioms is set: then the levels are checked on the history
 * with the reads that break the axioms set aside (set_aside.h;
 * rep->set_aside lists them), their anomalies added as extra information
 * (the verdict stays FAIL; no certificate).  Otherwise
 * (rep->axioms_per_level) a level they break FAILs unchecked at stage
 * "axioms", and the others are checked on the history as it is.
 * The report lists the levels in the ladder's order (ladder.h: si before
 * ser).  A level that needs real time (level_real_time: strong-si, sser)
 * is not checked when the history lacks invocation or completion times: it
 * is marked in rep->no_times instead (a caller that asked for it by name
 * refuses such a history first).  When all are in, a PASS that a FAIL of
 * a level it implies contradicts is withdrawn (report_check_ladder: an
 * internal error).  Nothing is printed: a caller that wants to show
 * progress, statistics or traces does so in the hooks.
 *
 * With o->check.threads >= 2 the run has one pool of that many threads
 * (par.h): the axioms and the index are built at once, and the levels are
 * checked as many at once as there are threads (unless they would not fit
 * in memory), sharing the history and the index read-only and the pool for
 * their stages' tasks.  The report, the certificate kept and the order and
 * arguments of the on_level hooks are the same as with one thread; the
 * hooks are called on the caller's thread once every level is done, in the
 * report's order, and the progress callback is called under a lock, never
 * on two threads at once, with progress_ctx set to the level's name as
 * before. */
#ifndef ISOCHECK_RUN_CHECK_H
#define ISOCHECK_RUN_CHECK_H

#include <stddef.h>

#include "error.h"
#include "frontend/recheck/certificate.h"
#include "frontend/checking/check.h"
#include "frontend/reports/interpret.h"
#include "frontend/reports/report.h"

typedef struct run_check_options {
    int want[LEVEL_COUNT];       /* want[level]: check that level (check_level_id) */
    size_t max_anomalies;        /* axiom anomalies listed; anomalies per failing level */
    size_t level_anomalies;      /* nonzero: anomalies per failing level instead (the ladder's 1: its
                                    minimal anomaly, without searching for more) */
    check_options check;         /* time limit, progress (progress_ctx: set to the level's name) */
    int certificate;             /* keep the certificate of the strongest level that passes */
    int verify_every_pass;       /* build and verify a certificate for every PASS (a self-check:
                                    on by default in debug builds) */
    interpret_trace *trace;      /* candidates the interpretation looked at, or NULL */
    int cycles_after_axioms;     /* read anomalies found: also check the levels without those reads
                                    (off by default; `isocheck check` sets it) */
    uint32_t list_order_steps;   /* repeated appends: the step limit searching one key's orders of its
                                    appends (0: the default; list_repeat.h) */
    /* Optional hooks: after the index is built (seconds it took), and after
     * each level is done (its result, without its forced edges: the
     * interpretation has used and freed them; the report is filled for it). */
    void (*on_index)(void *ctx, const pg_index *ix, double seconds);
    void (*on_level)(void *ctx, const check_result *res);
    void *hook_ctx;
} run_check_options;

void run_check_options_default(run_check_options *o);

/* Check h and fill rep (report_init'ed by the caller).  When o->certificate
 * is set and si or ser passes, *cert receives the verified certificate of
 * the stronger that passes and *cert_level its level (else *cert_level is
 * -1; cert may then be NULL).
 * Returns 1, or 0 with err set when the history cannot be indexed. */
int run_check(const history *h, const run_check_options *o, report *rep, certificate *cert, int *cert_level,
              ic_error *err);

#endif
