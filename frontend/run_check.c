/* run_check.c — the checking pipeline (contract in run_check.h).
 *
 * Each level is one task (level_run): check, and on PASS, when every pass is verified anyway, its
 * certificate.  The levels are decided in waves (run_waves, doc/checker.md "A run over several
 * levels"): rc, ra, cc first, together (one reading of the history); then, wave after wave, the
 * searched levels, strongest first; a level a passing level implies is decided by that level's
 * version order, re-checked (the levels given one order re-checked together), and a level that
 * implies a failing level fails too, derived without a search when the weaker level's cycle holds
 * at it (ladder_derive.h).  Once every level is decided, a searched FAIL that a weaker failing
 * level of the run also decides is reported as derived from it, which spares its interpretation.
 * A failing level is interpreted into its task's own report (level_interpret) between waves when
 * more follow (interpret_early), else after the last, the index freed, one after the other (a
 * derived level gets its re-checked cycle, named).  With o->check.threads >= 2 the run makes one
 * pool (par.h): the axioms and the index are two tasks, and a wave of two levels or more runs on
 * it, as many at once as the pool has threads, their stages' tasks too (the interpretation's as
 * well); they share only the history and the index, both read-only while checking (the index's
 * large arrays may be spilled where no stage reads them: check_options.spill_index).  Everything a
 * caller sees — report items, levels, hooks, the certificate kept — is then assembled on the
 * caller's thread in a fixed order (the certificate: keep_certificate's; the report and the hooks:
 * the ladder's order, level_finish), so the output does not depend on the thread count.  At once,
 * several levels' polygraphs are alive together: when the estimate of the others does not fit in
 * half the memory free now, the levels run one after the other (same output).  A level that needs
 * times (level_real_time) on a history without them is not checked: rep->no_times.  Last,
 * report_check_ladder withdraws any PASS that the ladder's order contradicts. */
#include "frontend/run_check.h"
#include "frontend/run_list.h"
#include "frontend/history/list_repeat.h"
#include "frontend/history/predicate.h"
#include "frontend/reports/cert_build.h"
#include "frontend/reports/ladder.h"
#include "frontend/reports/ladder_derive.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "par.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/index_spill.h"
#include "frontend/checking/set_aside.h"
#include "frontend/checking/weak.h"
#include "frontend/checking/weak_propose.h"
#include "frontend/recheck/verify_model.h"

void run_check_options_default(run_check_options *o) {
    memset(o, 0, sizeof *o);
    o->want[LEVEL_SI] = 1;
    o->max_anomalies = 10;
    check_options_default(&o->check);
#ifdef GSAT_DEBUG
    o->verify_every_pass = 1;
#endif
}

/* What checking one level adds at its peak, per operation of the history
 * (measured: 73 bytes on 300k generated transactions of 8 operations,
 * doc/benchmarks.md "Both cores"; rounded up). */
#define LEVEL_PEAK_BYTES_PER_OP 100.0

/* Whether `more` levels' polygraphs fit beside the first: their estimate
 * within half the physical memory free now (unknown: assume they do). */
static int levels_fit(const history *h, unsigned more) {
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 1;
    return (double)more * (double)h->num_ops * LEVEL_PEAK_BYTES_PER_OP <= (double)pages * (double)page / 2;
}

/* Progress from two levels at once: the caller's callback is called under
 * one lock, so it never runs on two threads together. */
typedef struct progress_lock {
    pthread_mutex_t mu;
    void (*progress)(void *ctx, const char *what);
} progress_lock;

typedef struct level_task {
    check_level_id lv;
    int broken;                  /* an axiom violation breaks the level: it FAILs unchecked (stage "axioms") */
    check_options copt;
    progress_lock *plock;
    check_result res;
    report part;                 /* the interpretation's anomalies, moved into the caller's report */
    uint64_t violations;         /* FAIL: anomalies found */
    interpret_trace trace;
    int pre_done;                /* decided with other levels (implied_together, weak_together): no check here */
    int derived;                 /* FAIL derived from a weaker level's (ladder_derive.h): not checked */
    int interpreted;             /* interpreted between waves (interpret_early) */
    check_level_id derived_from;
    int certified;               /* cert_of_result() ran in the task */
    int cert_ok;
    certificate cert;            /* kept when cert_ok and a certificate is wanted */
    char cert_msg[512];
} level_task;

typedef struct run_ctx {
    const history *h;
    const history *orig;         /* the history as given (h is its resolved form when values repeat) */
    const pg_index *ix;
    const run_check_options *o;
    level_task *tasks;
    weak_proposals *props;       /* the weak levels' shared proposals (first wave only), or NULL */
} run_ctx;

static void progress_locked(void *ctx, const char *what) {
    level_task *t = ctx;
    pthread_mutex_lock(&t->plock->mu);
    t->plock->progress((void *)check_level_name(t->lv), what);
    pthread_mutex_unlock(&t->plock->mu);
}

static void level_interpret(void *ctx, size_t i);

/* A level's check, and on PASS (when every pass is verified) its
 * certificate: everything that needs the index; at once, the
 * interpretation too. */
static void level_run(void *ctx, size_t i) {
    run_ctx *rc = ctx;
    const run_check_options *o = rc->o;
    level_task *t = &rc->tasks[i];
    if (t->broken) {                 /* the reason is the axiom violations, listed once in the report */
        t->res.verdict = VERDICT_FAIL;
        t->res.level = t->lv;
        t->res.stage = "axioms";
        snprintf(t->res.msg, sizeof t->res.msg, "%llu of the history's read-axiom violations break%s it",
                 (unsigned long long)t->violations, t->violations == 1 ? "s" : "");
        return;
    }
    /* ser, si, psi, pc: the result of the same question, asked for rc, ra or
     * cc's proposals (weak_propose.h), else the level's own check */
    if (!t->pre_done && !(rc->props && !t->copt.implied_vo && !t->copt.session_level_fails &&
                          weak_proposals_take(rc->props, t->lv, &t->res)))
        check_level(rc->ix, t->lv, &t->copt, &t->res);
    if (t->res.verdict == VERDICT_PASS && o->verify_every_pass && level_has_certificate(t->lv)) {
        t->certified = 1;
        t->cert_ok = cert_of_result(rc->orig, rc->h, &t->res, &t->cert, t->cert_msg, sizeof t->cert_msg);
        if (!o->certificate) { cert_free(&t->cert); cert_init(&t->cert); }
    }
}

/* The tasks of one wave, by index (par_pool_run's task i is idx[i]). */
typedef struct wave_ctx { run_ctx *rc; const size_t *idx; } wave_ctx;
static void wave_run(void *ctx, size_t i) {
    wave_ctx *w = ctx;
    level_run(w->rc, w->idx[i]);
}

static void run_wave(run_ctx *rc, const size_t *w, size_t m, par_pool *pool, int together) {
    wave_ctx wc = { rc, w };
    if (together && m >= 2) par_pool_run(pool, m, wave_run, &wc);
    else for (size_t k = 0; k < m; k++) level_run(rc, w[k]);
}

static int searched(const level_task *t) { return level_shape_of(t->lv) >= SHAPE_PC; }

/* Task i's FAIL from the FAIL of a weaker level of the run (ladder_derive.h),
 * the weakest first (tasks are in ladder order); the base version order of
 * a weak level's cycle is a passing level's.  1 if decided. */
static int derive_fail(run_ctx *rc, size_t n, const uint8_t *done, size_t i) {
    level_task *t = &rc->tasks[i];
    const version_order *base = NULL;
    for (size_t j = 0; j < n && !base; j++)
        if (done[j] && rc->tasks[j].res.verdict == VERDICT_PASS && rc->tasks[j].res.vo.start) base = &rc->tasks[j].res.vo;
    for (size_t j = 0; j < n; j++) {
        const level_task *u = &rc->tasks[j];
        if (j == i || !done[j] || u->derived || u->broken || u->res.verdict != VERDICT_FAIL) continue;
        if (!level_implies(t->lv, u->lv)) continue;
        if (ladder_derive_fail(rc->h, rc->ix->in_graph, t->lv, &u->res, base, &t->res)) {
            t->derived = 1;
            t->derived_from = u->lv;
            return 1;
        }
    }
    return 0;
}

/* Whether task i's level, not yet decided, is implied by (dir 0) or
 * implies (dir 1) another undecided level of the run. */
static int undecided_relative(const run_ctx *rc, size_t n, const uint8_t *done, size_t i, int dir) {
    for (size_t j = 0; j < n; j++) {
        if (j == i || done[j]) continue;
        if (dir ? level_implies(rc->tasks[i].lv, rc->tasks[j].lv) : level_implies(rc->tasks[j].lv, rc->tasks[i].lv))
            return 1;
    }
    return 0;
}

/* A plain level whose session level (same shape, session order, no real
 * time, implying it) is in the run: that level's task, else NULL. */
static const level_task *session_of(const run_ctx *rc, size_t n, const level_task *t) {
    if (level_session_order(t->lv)) return NULL;
    for (size_t j = 0; j < n; j++) {
        const level_task *u = &rc->tasks[j];
        if (u != t && level_session_order(u->lv) && !level_real_time(u->lv) && (level_shape_of(u->lv) == level_shape_of(t->lv) || (t->lv == LEVEL_RR && u->lv == LEVEL_SER)) &&
            level_implies(u->lv, t->lv))                 /* rr runs ser first, as check.c's session_level_first */
            return u;
    }
    return NULL;
}

/* Which levels to check next, and how, given what is decided (done[]).
 * First a level a passing level implies: decided by that level's version
 * order re-checked (check_options.implied_vo), no search.  Else the
 * strongest undecided levels (no undecided level of the run implies them):
 * if they pass, their orders decide the levels they imply; a plain level
 * whose session level failed skips running it first
 * (check_options.session_level_fails).  Returns the number of tasks put
 * in w. */
static size_t next_wave(run_ctx *rc, size_t n, const uint8_t *done, size_t *w) {
    level_task *tasks = rc->tasks;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (done[i]) continue;
        for (size_t j = 0; j < n && !tasks[i].copt.implied_vo; j++) {
            const level_task *u = &tasks[j];
            if (j != i && done[j] && u->res.verdict == VERDICT_PASS && u->res.vo.start && searched(u) &&
                level_implies(u->lv, tasks[i].lv)) {
                tasks[i].copt.implied_vo = &u->res.vo;
                tasks[i].copt.implied_from = u->lv;
                tasks[i].copt.implied_chosen = u->res.chosen;
            }
        }
        if (tasks[i].copt.implied_vo) w[m++] = i;
    }
    if (m) return m;
    for (size_t i = 0; i < n; i++) {
        if (done[i] || undecided_relative(rc, n, done, i, 0)) continue;
        const level_task *s = session_of(rc, n, &tasks[i]);
        if (s && done[s - tasks] && s->res.verdict == VERDICT_FAIL) tasks[i].copt.session_level_fails = 1;
        w[m++] = i;
    }
    return m;
}

/* A wave of levels given a stronger level's order (next_wave): the levels
 * given one order are re-checked together (vo_check_levels_on: the history
 * read under it once), each that holds a PASS at stage "implied", as
 * check_level would give it; the others (and the real-time levels, whose
 * times check_level checks first, and every level of a history with
 * ambiguous reads) are left to check_level. */
static void implied_together(run_ctx *rc, const size_t *w, size_t m) {
    if (rc->h->num_amb || !m) return;
    check_level_id *lv = xmalloc(m * sizeof *lv);
    size_t *of = xmalloc(m * sizeof *of);
    int *ok = xmalloc(m * sizeof *ok);
    uint8_t *seen = xcalloc(m, 1);
    for (size_t a = 0; a < m; a++) {
        const version_order *vo = rc->tasks[w[a]].copt.implied_vo;
        if (seen[a] || !vo) continue;
        size_t k = 0;
        for (size_t b = a; b < m; b++) {
            level_task *t = &rc->tasks[w[b]];
            if (seen[b] || t->copt.implied_vo != vo || level_real_time(t->lv)) continue;
            seen[b] = 1;
            lv[k] = t->lv;
            of[k++] = w[b];
        }
        double t0 = monotonic_seconds();
        vo_check_levels_on(rc->h, vo, lv, k, ok, rc->tasks[w[a]].copt.pool, 1);
        double each = (monotonic_seconds() - t0) / (double)(k ? k : 1);
        for (size_t j = 0; j < k; j++) {
            level_task *t = &rc->tasks[of[j]];
            if (ok[j] != 1) continue;
            check_result *res = &t->res;
            memset(res, 0, sizeof *res);
            res->level = t->lv;
            res->verdict = VERDICT_PASS;
            res->stage = "implied";
            res->st.t_verify = each;
            vec_init(res->cycle);
            version_order_copy(&res->vo, vo);
            snprintf(res->msg, sizeof res->msg, "the version order that passed %s, re-checked at %s",
                     level_name(t->copt.implied_from), level_name(t->lv));
            t->pre_done = 1;
        }
    }
    free(lv); free(of); free(ok); free(seen);
}

/* The weak levels of the first wave (rc, ra, cc), decided together
 * (check_weak_levels: the history read once for all). */
static void weak_together(run_ctx *rc, const size_t *w, size_t m) {
    check_level_id *lv = xmalloc((m ? m : 1) * sizeof *lv);
    size_t *of = xmalloc((m ? m : 1) * sizeof *of), k = 0;
    for (size_t i = 0; i < m; i++) {
        level_task *t = &rc->tasks[w[i]];
        if (t->broken || !check_level_is_weak(t->lv) || (rc->h->num_amb && t->lv != LEVEL_SI && t->lv != LEVEL_SER)) continue;
        lv[k] = t->lv;
        of[k++] = w[i];
    }
    if (k >= 2) {
        check_result *res = xcalloc(k, sizeof *res);
        check_weak_levels(rc->ix, lv, k, &rc->tasks[of[0]].copt, res);
        for (size_t j = 0; j < k; j++) rc->tasks[of[j]].res = res[j], rc->tasks[of[j]].pre_done = 1;
        free(res);
    }
    free(lv); free(of);
}

/* Once every level is decided, before any is interpreted: a level that
 * failed on its own search while a weaker level of the run fails too is
 * reported as derived from it (derive_fail) when the weaker level's cycle
 * holds at it, which spares its interpretation; the verdict is the same.
 * Weakest first (fewest levels of the run implied), so that a level is
 * derived from one that is not. */
static void derive_searched_fails(run_ctx *rc, size_t n, uint8_t *done) {
    size_t *by = xmalloc((n ? n : 1) * sizeof *by), *below = xcalloc(n ? n : 1, sizeof *below);
    for (size_t i = 0; i < n; i++) {
        by[i] = i;
        for (size_t j = 0; j < n; j++) below[i] += j != i && level_implies(rc->tasks[i].lv, rc->tasks[j].lv);
    }
    for (size_t i = 1; i < n; i++)                 /* insertion sort by below[], stable */
        for (size_t k = i; k > 0 && below[by[k - 1]] > below[by[k]]; k--) { size_t x = by[k]; by[k] = by[k - 1]; by[k - 1] = x; }
    for (size_t k = 0; k < n; k++) {
        level_task *t = &rc->tasks[by[k]];
        if (t->derived || t->broken || !searched(t) || t->res.verdict != VERDICT_FAIL || t->res.chosen) continue;
        check_result own = t->res;
        memset(&t->res, 0, sizeof t->res);
        done[by[k]] = 0;
        if (derive_fail(rc, n, done, by[k])) {
            check_result_free(&own);
            if (t->interpreted) {        /* its early interpretation gives way to the derived report */
                report_free(&t->part);
                report_init(&t->part, rc->h, check_level_name(t->lv));
                interpret_trace_free(&t->trace);
                vec_init(t->trace);
                t->interpreted = 0;
            }
        } else t->res = own;
        done[by[k]] = 1;
    }
    free(by);
    free(below);
}

/* Between waves: a searched level that failed on its own search is
 * interpreted now rather than after the last wave, which frees what only
 * its interpretation reads (its forced edges, and its version order when
 * no level of the run may be derived from it: 48 MB at 1M transactions)
 * before the next levels build their graphs.
 * Not when its cycle is a violation at a weaker level still undecided: that
 * level then likely fails too and this one is derived from it
 * (derive_searched_fails), which needs no interpretation (should it be
 * derived all the same, the early one is dropped).  The interpretation is
 * the same whenever it runs (the history and the result only). */
static void interpret_early(run_ctx *rc, size_t n, const uint8_t *done) {
    for (size_t i = 0; i < n; i++) {
        level_task *t = &rc->tasks[i];
        if (!done[i] || t->interpreted || t->derived || t->broken || !searched(t) || t->res.verdict != VERDICT_FAIL ||
            t->res.chosen || !t->res.vo.start)
            continue;
        int likely_derived = 0;
        char why[300];
        for (size_t j = 0; j < n && !likely_derived; j++)
            if (!done[j] && level_implies(t->lv, rc->tasks[j].lv))
                likely_derived = cycle_holds_level(rc->h, &t->res.vo, rc->tasks[j].lv, t->res.cycle.data,
                                                   t->res.cycle.len, why, sizeof why);
        if (likely_derived) continue;
        level_interpret(rc, i);
        t->interpreted = t->res.st.interpret_early = 1;
        int stronger = 0;                /* a level that may be derived from this one reads its order */
        for (size_t j = 0; j < n; j++) stronger |= j != i && level_implies(rc->tasks[j].lv, t->lv);
        if (!stronger) version_order_free(&t->res.vo);
    }
}

/* The levels in waves (doc/checker.md, "A run over several levels").
 * First the levels no search decides (rc, ra, cc by saturation; those the
 * axioms break), then, wave after wave (next_wave), the searched levels,
 * each wave derived first where a weaker level's FAIL decides a level.
 * Verdicts are those of every level checked on its own (monotonicity: a
 * stronger level's PASS passes a weaker, a weaker one's FAIL fails a
 * stronger); a ladder whose strongest level passes costs one search and
 * re-checks, one that fails searches from the weakest level up. */
static void run_waves(run_ctx *rc, size_t n, par_pool *pool, int together) {
    level_task *tasks = rc->tasks;
    size_t *w = xmalloc((n ? n : 1) * sizeof *w), m = 0;
    uint8_t *done = xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++)
        if (tasks[i].broken || !searched(&tasks[i])) w[m++] = i;
    weak_together(rc, w, m);
    for (;;) {
        implied_together(rc, w, m);
        run_wave(rc, w, m, pool, together);
        weak_proposals_asked(rc->props);          /* rc, ra, cc are of the first wave only */
        for (size_t k = 0; k < m; k++) done[w[k]] = 1, weak_proposals_drop(rc->props, tasks[w[k]].lv);
        for (size_t i = 0; i < n; i++)
            if (!done[i] && searched(&tasks[i]) && derive_fail(rc, n, done, i)) done[i] = 1, weak_proposals_drop(rc->props, tasks[i].lv);
        m = 0;
        for (size_t i = 0; i < n; i++) m += !done[i];
        if (!m) break;
        interpret_early(rc, n, done);
        m = next_wave(rc, n, done, w);
    }
    derive_searched_fails(rc, n, done);
    weak_proposals_free(rc->props), rc->props = NULL;
    free(done);
    free(w);
}

static double thread_cpu_seconds(void) {
    struct timespec ts;
    return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0 ? (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec : 0;
}

/* On FAIL, the interpretation into the task's report: it reads the
 * history and the check's result only, so one level after the other it
 * runs after the index is freed (1.5 GB at 10M transactions).  Its
 * whole-history passes go to the level's pool at the level's priority. */
static void level_interpret(void *ctx, size_t i) {
    run_ctx *rc = ctx;
    const run_check_options *o = rc->o;
    level_task *t = &rc->tasks[i];
    if (t->res.verdict != VERDICT_FAIL || t->broken || t->interpreted) return;
    double t0 = monotonic_seconds(), c0 = thread_cpu_seconds();
    if (t->derived) {                /* the re-checked cycle of the weaker level, named at this one */
        t->violations = ladder_derive_report(&t->part, &t->res);
        vec_free(t->res.forced);
        return;
    }
    const history *own = t->part.h;
    if (t->res.chosen) { t->part.choice_of = own; t->part.h = t->res.chosen; }   /* repeated values: read under the choice the cycle assumes */
    t->violations = interpret_failure(&t->part, t->lv, &t->res.vo, t->res.cycle.data, t->res.cycle.len,
                                      t->res.forced.data, t->res.forced.len,
                                      o->level_anomalies ? o->level_anomalies : o->max_anomalies,
                                      o->trace ? &t->trace : NULL, t->copt.pool, t->copt.priority);
    t->part.h = own;
    /* the forced edges serve only the interpretation */
    vec_free(t->res.forced);
    t->res.st.t_interpret = monotonic_seconds() - t0;
    t->res.st.cpu_interpret = thread_cpu_seconds() - c0;
}

/* After the interpretations: a derived level takes the explained first
 * anomaly of the level it was derived from, when every fact of it is
 * forced and its cycle re-checks at the level (ladder_derive_adopt); else
 * it keeps its re-checked cycle. */
static void adopt_explained(run_ctx *rc, size_t n) {
    for (size_t i = 0; i < n; i++) {
        level_task *t = &rc->tasks[i];
        if (!t->derived) continue;
        for (size_t j = 0; j < n; j++) {
            const level_task *u = &rc->tasks[j];
            if (u->lv != t->derived_from) continue;
            const report_anomaly *a = NULL;
            vec_foreach(const report_anomaly, x, u->part.items) if (!a && x->level == (int)u->lv) a = x;
            if (a && !u->res.chosen) ladder_derive_adopt(&t->part, t->lv, a, &u->res.vo);
        }
    }
}

/* On the caller's thread: the certificate of the strongest level that
 * passes, among those that have one (ladder.h, level_has_certificate; SER's
 * proves SI too; certified here when the task did not).  A level whose
 * certificate does not verify becomes UNKNOWN (level_finish reports it),
 * and the next one is tried.  Stronger first: sser, ser, strong-si, si,
 * psi, pc, then the plain levels (ser before si keeps today's choice;
 * rr, implied by ser-plain, after them), then cc, ra, rc (their certificate is the saturation's commit order). */
static void keep_certificate(run_ctx *rc, size_t n, certificate *cert, int *cert_level) {
    const run_check_options *o = rc->o;
    static const check_level_id strongest_first[] = { LEVEL_SSER, LEVEL_SER, LEVEL_STRONG_SI, LEVEL_SI, LEVEL_PSI,
                                                       LEVEL_PC, LEVEL_SER_PLAIN, LEVEL_SI_PLAIN, LEVEL_RR, LEVEL_CC,
                                                       LEVEL_RA, LEVEL_RC };
    for (size_t k = 0; k < sizeof strongest_first / sizeof strongest_first[0]; k++)
        for (size_t i = 0; i < n; i++) {
            level_task *t = &rc->tasks[i];
            if (t->lv != strongest_first[k] || t->res.verdict != VERDICT_PASS) continue;
            int keep = o->certificate && cert && cert_level && *cert_level < 0;
            if (!t->certified && keep) {
                t->certified = 1;
                t->cert_ok = cert_of_result(rc->orig, rc->h, &t->res, &t->cert, t->cert_msg, sizeof t->cert_msg);
            }
            if (t->certified && t->cert_ok == 2) continue;            /* not expressible as a file (cert_of_result) */
            if (t->certified && t->cert_ok && keep) {
                cert_free(cert);
                *cert = t->cert;
                cert_init(&t->cert);
                *cert_level = (int)t->lv;
            }
        }
}

/* On the caller's thread, in the report's order: the level's line of the
 * report, its anomalies, the hook. */
static void level_finish(run_ctx *rc, level_task *t, report *rep) {
    const run_check_options *o = rc->o;
    check_result *res = &t->res;
    report_level *L = &rep->levels[rep->num_levels++];
    memset(L, 0, sizeof *L);
    L->level = t->lv;
    L->verdict = res->verdict;
    L->stage = res->stage ? res->stage : "";
    L->implied = (uint8_t)t->derived;
    L->implied_by = (uint8_t)t->derived_from;
    snprintf(L->msg, sizeof L->msg, "%s", res->msg);
    if (res->verdict == VERDICT_FAIL) {
        L->violations = t->violations;
        vec_foreach(report_anomaly, a, t->part.items) vec_push(rep->items, *a);
        t->part.items.len = 0;                       /* moved, not freed */
    } else if (res->verdict == VERDICT_PASS && t->certified && !t->cert_ok) {
        L->verdict = VERDICT_UNKNOWN;
        snprintf(L->msg, sizeof L->msg, "%s", t->cert_msg);
    }
    if (o->trace) {
        vec_foreach(interpret_candidate, ca, t->trace) vec_push(*o->trace, *ca);
        t->trace.len = 0;
    }
    if (o->on_level) o->on_level(o->hook_ctx, res);
}

/* The axioms and the index: two tasks, both only reading the history. */
typedef struct start_ctx {
    const history *h;
    size_t max_anomalies;
    anomaly_list axioms;
    uint64_t found;
    uint64_t counts[AN_NUM_KINDS];   /* violations of each kind */
    pg_index ix;
    int ix_ok;
    ic_error ix_err;
    double ix_seconds;
    par_pool *pool;              /* the index's per-key part runs on it too */
} start_ctx;

static void start_task(void *ctx, size_t i) {
    start_ctx *s = ctx;
    if (i == 0) { s->found = axioms_check_kinds(s->h, &s->axioms, s->max_anomalies, s->counts); return; }
    double t0 = monotonic_seconds();
    s->ix_ok = pg_index_build_on(&s->ix, s->h, &s->ix_err, s->pool);
    s->ix_seconds = monotonic_seconds() - t0;
}

/* Axioms first: a history whose violations break every level asked gets
 * no index (serially) or has it dropped (with a pool, where both are built
 * at once); else the levels they break FAIL unchecked and the others are
 * checked as usual (anomaly_breaks: a non-repeatable read, say, breaks
 * every level but rc).  orig is the history as read, h its resolved form
 * when values repeat (else orig itself). */
static int run_levels(const history *orig, const history *h, const run_check_options *o, par_pool *pool, report *rep,
                      certificate *cert, int *cert_level, ic_error *err);
static void run_set_aside(const history *h, const run_check_options *o, par_pool *pool, report *rep);

int run_check(const history *h, const run_check_options *o, report *rep, certificate *cert, int *cert_level,
              ic_error *err) {
    if (cert_level) *cert_level = -1;
    /* repeated values: every stage reads the resolved form (same indices;
     * kept with h, so the report may point into it) */
    /* appended values that repeat: the choices of appends (run_list.h) */
    if (history_has_repeated_appends(h)) return run_check_list_choice(h, o, rep, cert, cert_level, err);
    const history *orig = h;
    h = history_resolved(h, err);
    if (!h) return 0;
    par_pool *pool = o->check.threads >= 2 ? par_pool_new(o->check.threads) : NULL;
    history_share_read_sources(h, pool);         /* every register read's writer, looked up once (read_sources.c) */
    int ok = run_levels(orig, h, o, pool, rep, cert, cert_level, err);
    par_pool_free(pool);
    return ok;
}

/* Read anomalies found: the levels checked on h without the reads that
 * break the axioms (set_aside.h), their cycles as extra information; no
 * certificate.  When the reads cannot be set aside, or the rest cannot be
 * indexed, the levels are simply not checked (the verdict is FAIL anyway). */
static void run_set_aside(const history *h, const run_check_options *o, par_pool *pool, report *rep) {
    history view;
    if (!set_aside_reads(h, &view, &rep->set_aside)) return;
    run_check_options ro = *o;
    ro.certificate = 0;
    ro.cycles_after_axioms = 0;
    /* a predicate fact stays in the view (its reads are set aside, not its
     * facts), and the verifier refuses any certificate beside one: the
     * rest's PASS is extra information, not a verdict, and is not certified */
    if (h->preds && h->preds->facts.len) ro.verify_every_pass = 0;
    int cl = -1;
    ic_error err;
    ic_error_clear(&err);
    if (!run_levels(&view, &view, &ro, pool, rep, NULL, &cl, &err)) vec_free(rep->set_aside);
    set_aside_free(&view);
}

static int run_levels(const history *orig, const history *h, const run_check_options *o, par_pool *pool, report *rep,
                      certificate *cert, int *cert_level, ic_error *err) {
    start_ctx st = { .h = h, .max_anomalies = o->max_anomalies, .pool = pool };
    anomaly_list_init(&st.axioms);
    ic_error_clear(&st.ix_err);
    if (pool) par_pool_run(pool, 2, start_task, &st);
    else start_task(&st, 0);
    int times = history_has_times(h, TIME_INVOKE) && history_has_times(h, TIME_COMPLETE);
    uint32_t broken = st.found ? axioms_broken_levels(st.counts) : 0;
    int fail_all = st.found != 0;                 /* no level asked and checkable survives them */
    for (int l = 0; l < LEVEL_COUNT; l++)
        if (o->want[l] && level_checkable((check_level_id)l, times) && !(broken >> l & 1u)) fail_all = 0;
    if (st.found) {
        report_add_axioms(rep, &st.axioms, st.found);
        rep->axiom_breaks = broken;
        rep->axioms_per_level = (uint8_t)!fail_all;
    }
    anomaly_list_free(&st.axioms);
    history_read_sources_done(h);                /* spilled or freed: not resident at the levels' graphs */
    if (fail_all) {
        if (pool && st.ix_ok) pg_index_free(&st.ix);
        if (o->cycles_after_axioms) run_set_aside(h, o, pool, rep);
        return 1;
    }
    if (!pool) start_task(&st, 1);
    if (!st.ix_ok) { *err = st.ix_err; return 0; }
    pg_index ix = st.ix;
    if (o->on_index) o->on_index(o->hook_ctx, &ix, st.ix_seconds);

    level_task *tasks = xcalloc(LEVEL_COUNT, sizeof *tasks);     /* ~8 KB each: not on a thread's stack */
    size_t n = 0;
    for (int i = 0; i < LEVEL_COUNT; i++) {             /* in ladder order: the report's */
        check_level_id lv = ladder_order[i];
        if (!o->want[lv]) continue;
        if (!level_checkable(lv, times)) { rep->no_times[lv] = 1; continue; }
        level_task *t = &tasks[n++];
        memset(t, 0, sizeof *t);
        t->lv = lv;
        t->broken = (int)(broken >> lv & 1u);
        if (t->broken) t->violations = axioms_level_count(st.counts, lv);
        t->copt = o->check;
        t->copt.pool = pool;
        t->copt.spill_index = &ix;   /* forgotten before pg_index_free below */
        /* at once, SI's path is the longer (its pruning, encoding and
         * solving are serial): its tasks go first */
        t->copt.priority = lv == LEVEL_SI ? 2 : 1;
        t->copt.progress_ctx = (void *)check_level_name(t->lv);
        report_init(&t->part, h, check_level_name(t->lv));
        vec_init(t->trace);
        cert_init(&t->cert);
    }
    /* each level copies the base edges at most once and is done with them
     * when its check ends (pg_known_back may regenerate them): two uses a
     * level, the last frees them.  A level that never copies (not decided
     * here, or without a polygraph) keeps them alive until pg_index_free:
     * safe, while counting too few would free them under a later use */
    pg_index_release_base_after(&ix, 2 * (unsigned)(n ? n : 1));
    unsigned at_once = pool ? (unsigned)par_pool_threads(pool) : 1;
    if (at_once > n) at_once = (unsigned)n;
    run_ctx rc = { h, orig, &ix, o, tasks, NULL };
    for (size_t i = 0; i < n && h->num_amb; i++)   /* rc, ra, cc share the strong levels' choices (weak_propose.h) */
        if (check_level_is_weak(tasks[i].lv)) tasks[i].copt.proposals = rc.props = rc.props ? rc.props : weak_proposals_new();
    /* proposals: a strong level's check beside the others, on its own index (doc/checker.md): one level more */
    int together = pool && n >= 2 && levels_fit(h, at_once - 1 + (rc.props != NULL));
    /* a strong level of the run that passes when checked for the proposals
     * keeps its result for its own wave (weak_proposals_keep): its version
     * order beside its choice (far less than a level's polygraph), when one
     * level more fits */
    for (size_t i = 0; i < n && rc.props && levels_fit(h, 1); i++) weak_proposals_keep(rc.props, tasks[i].lv);
    progress_lock plock;
    if (together && o->check.progress) {
        pthread_mutex_init(&plock.mu, NULL);
        plock.progress = o->check.progress;
        for (size_t i = 0; i < n; i++) {
            tasks[i].plock = &plock;
            tasks[i].copt.progress = progress_locked;
            tasks[i].copt.progress_ctx = &tasks[i];
        }
    }
    run_waves(&rc, n, pool, together);
    /* the levels are checked (and at once, interpreted): the index goes
     * before the interpretations one after the other */
    pg_index_spill_forget(&ix);
    pg_index_free(&ix);
    for (size_t i = 0; i < n; i++) level_interpret(&rc, i);
    adopt_explained(&rc, n);
    keep_certificate(&rc, n, cert, cert_level);
    for (size_t i = 0; i < n; i++) {
        level_finish(&rc, &tasks[i], rep);
        check_result_free(&tasks[i].res);
        report_free(&tasks[i].part);
        interpret_trace_free(&tasks[i].trace);
        cert_free(&tasks[i].cert);
    }
    if (together && o->check.progress) pthread_mutex_destroy(&plock.mu);
    free(tasks);
    report_check_ladder(rep);
    return 1;
}
