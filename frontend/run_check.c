/* run_check.c — the checking pipeline (contract in run_check.h).
 *
 * Each level is one task (level_run): check, and on PASS, when every pass
 * is verified anyway, its certificate; a failing level is interpreted into
 * its task's own report (level_interpret): one level after the other, once
 * every level is checked and the index freed; levels at once, each
 * right after its own check (so that the level checked first interprets
 * while the others are still checking; the interpretation's memory is less
 * than the polygraph it follows, already freed).  With o->check.threads >= 2
 * the run makes one pool (par.h): the axioms and the index are two tasks,
 * and with two levels or more the level tasks run on it, as many at once as
 * the pool has threads, their stages' tasks too (the interpretation's as
 * well); they share only the history and the index, both read-only while
 * checking.  Everything a caller sees — report items, levels, hooks, the
 * certificate kept — is then assembled on the caller's thread in a fixed
 * order (the certificate: SER, then SI, keep_certificate; the report and
 * the hooks: the ladder's order, level_finish), so the output does not
 * depend on the thread count.  At once, several levels' polygraphs are
 * alive together: when the estimate of the others does not fit in half the
 * memory free now, the levels run one after the other (same output).
 * A level that needs times (level_real_time) on a history without them is
 * not checked: rep->no_times.  Last, report_check_ladder withdraws any PASS
 * that the ladder's order contradicts. */
#include "frontend/run_check.h"
#include "frontend/reports/cert_build.h"
#include "frontend/reports/ladder.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "par.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/set_aside.h"

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
    int certified;               /* certify() ran in the task */
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
    int interpret_in_task;       /* levels at once: each interprets its failure right after its check */
} run_ctx;

static void progress_locked(void *ctx, const char *what) {
    level_task *t = ctx;
    pthread_mutex_lock(&t->plock->mu);
    t->plock->progress((void *)check_level_name(t->lv), what);
    pthread_mutex_unlock(&t->plock->mu);
}

/* On PASS: the witness as a certificate, checked by `isocheck verify`'s
 * code.  1 if it verifies (*c holds it), else 0 with msg set. */
/* Repeated values: the writer every external read of a repeated value saw
 * under the model's choice (`chosen`), as the certificate's read lines. */
static int cmp_read_line(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

static void add_reads_from(const history *orig, const history *chosen, certificate *c) {
    for (uint32_t t = 1; t < orig->num_txns; t++) {
        if (orig->txns[t].status == TXN_ABORTED) continue;    /* an observed indeterminate one takes part too */
        const history_txn *tx = &orig->txns[t];
        for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
            if (history_op_kind(orig, op) != OP_READ || history_op_failed(orig, op)) continue;
            uint32_t k = orig->op_key[op], w = history_writer_of(orig, k, orig->op_value[op]);
            if (w == HISTORY_NONE || !(orig->op_kind[w] & OP_REPEATED)) continue;
            if (history_txn_external_read(orig, t, k) != op) continue;
            uint32_t src = history_read_source(chosen, op);
            if (src == HISTORY_NONE) continue;
            vec_push(c->reads_from, t); vec_push(c->reads_from, k); vec_push(c->reads_from, chosen->op_txn[src]);
        }
    }
    /* cert_read_from searches them by (reader, key): a transaction's reads are in op order, not key order */
    if (c->reads_from.len) qsort(c->reads_from.data, c->reads_from.len / 3, 3 * sizeof *c->reads_from.data, cmp_read_line);
}

/* The certificate of a PASS, verified; with repeated values built on the
 * history under the model's choice, given its read lines, and verified
 * again against the history as loaded (orig), as `isocheck verify` will. */
static int certify(const history *orig, const history *h, const check_result *res, certificate *c, char *msg, size_t cap) {
    if (res->chosen) h = res->chosen;
    ic_error cerr;
    ic_error_clear(&cerr);
    if (cert_build_level(h, &res->vo, res->level, c, &cerr) == CERT_OK &&
        cert_verify_level(h, c, res->level, &cerr, NULL) == CERT_OK) {
        if (orig == h || !orig->num_repeated) return 1;
        add_reads_from(orig, h, c);
        if (cert_verify_level(orig, c, res->level, &cerr, NULL) == CERT_OK) return 1;
    }
    snprintf(msg, cap, "internal error: the certificate does not verify: %.400s", cerr.msg);
    return 0;
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
    check_level(rc->ix, t->lv, &t->copt, &t->res);
    if (t->res.verdict == VERDICT_PASS && o->verify_every_pass && level_has_certificate(t->lv)) {
        t->certified = 1;
        t->cert_ok = certify(rc->orig, rc->h, &t->res, &t->cert, t->cert_msg, sizeof t->cert_msg);
        if (!o->certificate) { cert_free(&t->cert); cert_init(&t->cert); }
    }
    if (rc->interpret_in_task) level_interpret(ctx, i);
}

/* The tasks of one wave, by index (par_pool_run's task i is idx[i]). */
typedef struct wave_ctx { run_ctx *rc; const size_t *idx; } wave_ctx;
static void wave_run(void *ctx, size_t i) {
    wave_ctx *w = ctx;
    level_run(w->rc, w->idx[i]);
}

/* Two waves: first the levels no other level of the run implies, then the
 * rest, each of which a passing level of the first wave that implies it
 * may decide by its version order alone (check_options.implied_vo; the
 * search runs when that order does not re-check).  Verdicts are the same
 * as checking every level on its own; a ladder whose strongest level
 * passes costs one search and re-checks. */
static void run_waves(run_ctx *rc, size_t n, par_pool *pool, int together) {
    level_task *tasks = rc->tasks;
    size_t *idx = xmalloc((n ? n : 1) * 2 * sizeof *idx), *second = idx + n, n1 = 0, n2 = 0;
    for (size_t i = 0; i < n; i++) {
        int implied = 0;
        if (!tasks[i].broken && level_shape_of(tasks[i].lv) >= SHAPE_PC)
            for (size_t j = 0; j < n && !implied; j++)
                implied = j != i && !tasks[j].broken && level_shape_of(tasks[j].lv) >= SHAPE_PC &&
                          level_implies(tasks[j].lv, tasks[i].lv);
        if (implied) second[n2++] = i; else idx[n1++] = i;
    }
    for (int wave = 0; wave < 2; wave++) {
        size_t *w = wave ? second : idx, m = wave ? n2 : n1;
        for (size_t k = 0; wave && k < m; k++) {       /* a passing level of the first wave that implies it */
            level_task *t = &tasks[w[k]];
            for (size_t j = 0; j < n1 && !t->copt.implied_vo; j++) {
                const level_task *u = &tasks[idx[j]];
                if (u->res.verdict == VERDICT_PASS && u->res.vo.start && level_implies(u->lv, t->lv)) {
                    t->copt.implied_vo = &u->res.vo;
                    t->copt.implied_from = u->lv;
                }
            }
        }
        wave_ctx wc = { rc, w };
        if (together && m >= 2) par_pool_run(pool, m, wave_run, &wc);
        else for (size_t k = 0; k < m; k++) level_run(rc, w[k]);
    }
    free(idx);
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
    if (t->res.verdict != VERDICT_FAIL || t->broken) return;
    double t0 = monotonic_seconds(), c0 = thread_cpu_seconds();
    const history *own = t->part.h;
    if (t->res.chosen) t->part.h = t->res.chosen;   /* repeated values: read under the choice the cycle assumes */
    t->violations = interpret_failure(&t->part, t->lv, &t->res.vo, t->res.cycle.data, t->res.cycle.len,
                                      t->res.forced.data, t->res.forced.len, o->max_anomalies,
                                      o->trace ? &t->trace : NULL, t->copt.pool, t->copt.priority);
    t->part.h = own;
    /* the forced edges serve only the interpretation */
    vec_free(t->res.forced);
    t->res.st.t_interpret = monotonic_seconds() - t0;
    t->res.st.cpu_interpret = thread_cpu_seconds() - c0;
}

/* On the caller's thread: the certificate of the strongest level that
 * passes, among those that have one (ladder.h, level_has_certificate; SER's
 * proves SI too; certified here when the task did not).  A level whose
 * certificate does not verify becomes UNKNOWN (level_finish reports it),
 * and the next one is tried.  Stronger first: sser, ser, strong-si, si,
 * psi, pc, then the plain levels (ser before si keeps today's choice). */
static void keep_certificate(run_ctx *rc, size_t n, certificate *cert, int *cert_level) {
    const run_check_options *o = rc->o;
    static const check_level_id strongest_first[] = { LEVEL_SSER, LEVEL_SER, LEVEL_STRONG_SI, LEVEL_SI, LEVEL_PSI,
                                                       LEVEL_PC, LEVEL_SER_PLAIN, LEVEL_SI_PLAIN };
    for (size_t k = 0; k < sizeof strongest_first / sizeof strongest_first[0]; k++)
        for (size_t i = 0; i < n; i++) {
            level_task *t = &rc->tasks[i];
            if (t->lv != strongest_first[k] || t->res.verdict != VERDICT_PASS) continue;
            int keep = o->certificate && cert && cert_level && *cert_level < 0;
            if (!t->certified && keep) {
                t->certified = 1;
                t->cert_ok = certify(rc->orig, rc->h, &t->res, &t->cert, t->cert_msg, sizeof t->cert_msg);
            }
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
    const history *orig = h;
    h = history_resolved(h, err);
    if (!h) return 0;
    par_pool *pool = o->check.threads >= 2 ? par_pool_new(o->check.threads) : NULL;
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
        /* at once, SI's path is the longer (its pruning, encoding and
         * solving are serial): its tasks go first */
        t->copt.priority = lv == LEVEL_SI ? 2 : 1;
        t->copt.progress_ctx = (void *)check_level_name(t->lv);
        report_init(&t->part, h, check_level_name(t->lv));
        vec_init(t->trace);
        cert_init(&t->cert);
    }
    /* each level copies the base edges at most once; the last copy frees
     * them.  A level that never copies (not decided here, or decided
     * without a polygraph) only keeps them alive until pg_index_free:
     * counting it is safe, while counting too few would free them under a
     * later copy */
    pg_index_release_base_after(&ix, (unsigned)(n ? n : 1));
    unsigned at_once = pool ? (unsigned)par_pool_threads(pool) : 1;
    if (at_once > n) at_once = (unsigned)n;
    int together = pool && n >= 2 && levels_fit(h, at_once - 1);
    run_ctx rc = { h, orig, &ix, o, tasks, together };
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
    pg_index_free(&ix);
    if (!together) for (size_t i = 0; i < n; i++) level_interpret(&rc, i);
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
