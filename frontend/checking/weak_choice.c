/* weak_choice.c — rc, ra and cc on a history whose reads of repeated
 * values stay ambiguous (issue 35; doc/checker.md, "The weak levels with
 * repeated values").
 *
 * The weak levels' premise depends on which write a read saw (the WR edge,
 * and the writers visible to the reader), so the choice is searched
 * lazily: a SAT problem over one variable per (ambiguous read, possible
 * writer) with "at least one writer" per read proposes a choice (a read
 * takes its first true candidate); the history under that choice
 * (history_with_choice: unique values again) is decided by weak_check.
 *   PASS  that choice is the answer: res->chosen names every read's writer,
 *         res->weak the commit order (re-checked as any weak PASS is);
 *   FAIL  the cycle's edges depend on the choices of a few reads only (the
 *         reads behind its WR edges, its premise edges' read α and the
 *         read or causal path that made the other writer visible; any read
 *         whose chosen writer made an indeterminate transaction take part,
 *         when one is on the cycle): every choice that agrees with those
 *         has the same cycle, and a clause excludes them all.
 * UNSAT: every choice has a cycle, the level fails; the result shown is
 * the first choice's (its cycle, under its writers), the message says how
 * many reads and refuted choice sets it took.  Each choice tried is
 * excluded, so the loop ends; it also stops at the options' time limit,
 * at opt->stop, or after WEAK_CHOICE_MAX_ROUNDS (UNKNOWN). */
#include "frontend/checking/check.h"
#include "frontend/checking/weak.h"

#include <stdlib.h>
#include <string.h>

#include "gsat.h"
#include "monotonic.h"
#include "par.h"

#define WEAK_CHOICE_MAX_ROUNDS 100000

typedef struct wch {
    const history *h;
    uint32_t n;                  /* ambiguous reads (h->num_amb) */
    uint32_t *start, *cand;      /* read i's possible writers cand[start[i] .. start[i + 1]); variable 1 + j */
    uint32_t *pick;              /* per read, the write op chosen (HISTORY_NONE: not judged) */
    vec_int block;
} wch;

/* The ambiguous read (index into h->amb_read) whose writer read op's value
 * follows: op itself, or the first read of its key in its transaction. */
static uint32_t amb_of(const history *h, uint32_t op) {
    if (op == HISTORY_NONE || op >= h->num_ops) return HISTORY_NONE;
    const history_txn *tx = &h->txns[h->op_txn[op]];
    for (uint32_t o = tx->first_op; o <= op; o++)
        if (h->op_key[o] == h->op_key[op]) return history_amb_index(h, o);
    return HISTORY_NONE;
}

static void depend(wch *w, uint32_t op) {
    uint32_t i = amb_of(w->h, op);
    if (i == HISTORY_NONE || w->pick[i] == HISTORY_NONE) return;
    for (uint32_t j = w->start[i]; j < w->start[i + 1]; j++)
        if (w->cand[j] == w->pick[i]) { vec_push(w->block, -(int)(j + 1)); return; }
}

/* The clause excluding every choice that agrees with this one on the reads
 * the cycle of r depends on. */
static void explain(wch *w, const history *chosen, const weak_result *r) {
    const history *h = w->h;
    vec_clear(w->block);
    int indet = 0;
    vec_foreach(const weak_edge, e, r->cycle) {
        indet |= chosen->txns[e->from].status == TXN_INDETERMINATE || chosen->txns[e->to].status == TXN_INDETERMINATE;
        if (e->basis == WB_WR) depend(w, e->read_op);
        if (e->basis != WB_PREMISE) continue;
        depend(w, e->read_op);
        indet |= chosen->txns[e->reader].status == TXN_INDETERMINATE;
        if (e->via == WV_EARLIER || e->via == WV_READ) depend(w, e->vis_op);
        if (e->via != WV_CAUSAL) continue;
        for (uint32_t p = e->path_first; p < e->path_first + e->path_len; p++) {
            const weak_edge *q = &r->paths.data[p];
            indet |= chosen->txns[q->from].status == TXN_INDETERMINATE || chosen->txns[q->to].status == TXN_INDETERMINATE;
            if (q->basis == WB_WR) depend(w, q->read_op);
        }
    }
    if (indet)                              /* who takes part may depend on any choice of such a writer */
        for (uint32_t i = 0; i < w->n; i++)
            if (w->pick[i] != HISTORY_NONE && h->txns[h->op_txn[w->pick[i]]].status == TXN_INDETERMINATE)
                depend(w, h->amb_read[i]);
}

/* The possible writers of every judged read; 0 when a judged read has
 * none (the axioms report it). */
static int wch_init(wch *w, const history *h) {
    memset(w, 0, sizeof *w);
    w->h = h;
    w->n = h->num_amb;
    w->start = xmalloc(((size_t)w->n + 1) * sizeof *w->start);
    w->cand = xmalloc(((size_t)h->amb_start[w->n] + 1) * sizeof *w->cand);
    w->pick = xmalloc(((size_t)w->n + 1) * sizeof *w->pick);
    vec_init(w->block);
    uint32_t m = 0;
    int ok = 1;
    for (uint32_t i = 0; i < w->n; i++) {
        w->start[i] = m;
        uint32_t r = h->amb_read[i];
        if (history_op_failed(h, r) || h->txns[h->op_txn[r]].status == TXN_ABORTED) continue;   /* not judged */
        for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1]; j++)
            if (!h->amb_why[j]) w->cand[m++] = h->amb_cand[j];
        ok &= m > w->start[i];
    }
    w->start[w->n] = m;
    return ok;
}

static void wch_free(wch *w) {
    free(w->start); free(w->cand); free(w->pick);
    vec_free(w->block);
}

/* The solver: variables 1..m, a clause per judged read, first phases on
 * the candidate written last before the read (in op order), else the first. */
static gsat *wch_solver(const wch *w) {
    gsat *s = gsat_new();
    if (!s) xalloc_fail(0);
    int m = (int)w->start[w->n];
    gsat_reserve_vars(s, m);
    vec_int cl; vec_init(cl);
    for (uint32_t i = 0; i < w->n; i++) {
        uint32_t a = w->start[i], b = w->start[i + 1], best = a;
        if (a == b) continue;
        vec_clear(cl);
        for (uint32_t j = a; j < b; j++) {
            vec_push(cl, (int)j + 1);
            if (w->cand[j] < w->h->amb_read[i]) best = j;
        }
        gsat_add_clause(s, cl.data, (int)cl.len);
        for (uint32_t j = a; j < b; j++) gsat_set_phase(s, (int)j + 1, j == best);
    }
    vec_free(cl);
    return s;
}

static void wch_pick(wch *w, const gsat *s) {
    for (uint32_t i = 0; i < w->n; i++) {
        w->pick[i] = HISTORY_NONE;
        for (uint32_t j = w->start[i]; j < w->start[i + 1] && w->pick[i] == HISTORY_NONE; j++)
            if (gsat_value(s, (int)j + 1) > 0) w->pick[i] = w->cand[j];
    }
}

/* The level under choice `pick` into res (res->chosen set): weak_check's
 * answer, as check_weak_on gives it. */
static verdict decide(const pg_index *ix, const uint32_t *pick, check_level_id level, const check_options *opt,
                      check_result *res) {
    history *c = history_with_choice(ix->h, pick);
    if (!c) {
        snprintf(res->msg, sizeof res->msg, "internal error: a choice of an impossible writer");
        return res->verdict = VERDICT_UNKNOWN;
    }
    uint8_t *part = history_participants(c);
    verdict v = check_weak_on(c, part, level, opt, res);
    free(part);
    res->chosen = c;
    return v;
}

static void clear(check_result *res, check_level_id level) {
    check_result_free(res);
    memset(res, 0, sizeof *res);
    res->level = level;
    vec_init(res->cycle);
}

verdict check_weak_choice(const pg_index *ix, check_level_id level, const check_options *opt, check_result *res) {
    const history *h = ix->h;
    wch w;
    double t0 = monotonic_seconds();
    if (!wch_init(&w, h)) {
        wch_free(&w);
        snprintf(res->msg, sizeof res->msg, "a read of a repeated value has no possible writer (the axioms report it)");
        res->stage = "choice";
        return res->verdict = VERDICT_UNKNOWN;
    }
    gsat *s = wch_solver(&w);
    uint32_t *first = NULL;
    verdict v = VERDICT_UNKNOWN;
    uint64_t rounds = 0, same = 1;
    const char *why = "the choice search hit its limit";
    for (;;) {
        if (opt && opt->stop && opt->stop(opt->stop_ctx)) { why = "interrupted while choosing writers"; break; }
        if (rounds == WEAK_CHOICE_MAX_ROUNDS || (opt && opt->time_limit > 0 && monotonic_seconds() - t0 > opt->time_limit)) break;
        int r = gsat_solve(s, NULL, 0);
        if (r == GSAT_UNSAT) { v = VERDICT_FAIL; break; }
        if (r != GSAT_SAT) { why = "the choice search failed"; break; }
        wch_pick(&w, s);
        rounds++;
        clear(res, level);
        v = decide(ix, w.pick, level, opt, res);
        if (v == VERDICT_PASS) break;
        if (!first) first = xmalloc(((size_t)w.n + 1) * sizeof *first), memcpy(first, w.pick, (size_t)w.n * sizeof *first);
        if (v == VERDICT_FAIL && res->weak) explain(&w, res->chosen, res->weak);
        else {                                  /* no cycle to explain (an axiom under this choice): this choice alone */
            vec_clear(w.block);
            for (uint32_t i = 0; i < w.n; i++) depend(&w, h->amb_read[i]);
        }
        same &= w.block.len == 0;
        if (!w.block.len) { v = VERDICT_FAIL; break; }   /* the cycle holds whatever the reads saw */
        gsat_add_clause(s, w.block.data, (int)w.block.len);
        v = VERDICT_UNKNOWN;
    }
    gsat_free(s);
    if (v == VERDICT_FAIL) {
        clear(res, level);
        v = decide(ix, first, level, opt, res);
        if (v == VERDICT_FAIL) {
            char reason[sizeof res->msg];
            snprintf(reason, sizeof reason, "%s", res->msg);
            if (same) check_choice_message(h, res, reason);
            else {
                int len = snprintf(res->msg, sizeof res->msg, "%s; every choice of writers for the %u reads of a repeated "
                                   "value has a cycle (%llu sets of choices refuted), this one assumes", reason, h->num_amb,
                                   (unsigned long long)rounds);
                check_choice_writers(h, res, len);
            }
        } else {
            snprintf(res->msg, sizeof res->msg, "internal error: the first choice refuted did not fail again");
            v = res->verdict = VERDICT_UNKNOWN;
        }
    } else if (v != VERDICT_PASS) {
        clear(res, level);
        snprintf(res->msg, sizeof res->msg, "%s (%llu choices of writers tried for %u reads of a repeated value); no verdict",
                 why, (unsigned long long)rounds, h->num_amb);
        res->stage = "choice";
        v = res->verdict = VERDICT_UNKNOWN;
    }
    res->st.t_graph = monotonic_seconds() - t0;
    free(first);
    wch_free(&w);
    return v;
}
