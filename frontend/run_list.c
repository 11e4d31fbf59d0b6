/* run_list.c — the pipeline over the choices of appends of a list
 * history with repeated appends (contract in run_list.h).
 *
 * First the first choice (every key's first segmentation).  A level it
 * fails is checked next on the relaxation (history_without_choice_lists:
 * the lists of the keys with a choice left out), a subset of every
 * choice's constraints: a level that fails there fails whichever appends
 * were seen, and its report is the relaxation's.  The levels left are
 * searched: when the choices number at most LIST_CHOICE_MAX_ROUNDS, all of
 * them, like an odometer whose fastest digits are the keys behind the
 * first run's failing cycles (a level no choice passes fails, shown under
 * the first choice); otherwise by repair, up to LIST_CHOICE_REPAIRS runs:
 * the keys behind the last run's failing cycles take their next
 * segmentation (a level no choice tried passes is UNKNOWN).  Each run
 * checks only the levels no choice has passed yet.  The report given back
 * is put together from the runs (same transactions and operations; the
 * report prints the history as loaded): a passing level's line from the
 * choice that passed it, a failing level's line and anomalies from the
 * relaxation or the first choice, the choice named in its message.  The
 * elements whose appender is a choice are marked for the report
 * (list_choice_mark, history_set_list_assumed: report_assumed.h), so that
 * what rests on one is told as assumed. */
#include "frontend/run_list.h"
#include "frontend/history/list_repeat.h"
#include "frontend/reports/ladder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"

/* keep_certificate's order in run_check.c: the stronger level's certificate is kept */
static int cert_rank(int level) {
    static const check_level_id strongest_first[] = { LEVEL_SSER, LEVEL_SER, LEVEL_STRONG_SI, LEVEL_SI, LEVEL_PSI,
                                                       LEVEL_PC, LEVEL_SER_PLAIN, LEVEL_SI_PLAIN, LEVEL_RR, LEVEL_CC,
                                                       LEVEL_RA, LEVEL_RC };
    size_t n = sizeof strongest_first / sizeof strongest_first[0];
    for (size_t i = 0; i < n; i++)
        if ((int)strongest_first[i] == level) return (int)(n - i);
    return -1;
}

typedef struct list_run {
    const history *h;
    const list_choice *lc;
    const run_check_options *o;
    uint32_t nc, *pick, *order;
    report first, relaxed, last;     /* the first choice's, the relaxation's, the last choice's */
    int have_first, have_relaxed;
    report_level passed[LEVEL_COUNT];
    uint8_t ok[LEVEL_COUNT], unknown[LEVEL_COUNT], proven[LEVEL_COUNT];   /* proven: 1 by the relaxation, 2 by all choices */
    uint64_t tried;
    int exhausted, stopped;
    char cert_msg[400];          /* a certificate that did not verify as loaded (an internal error) */
} list_run;

/* dst = a b c, cut to cap. */
static void cat3(char *dst, size_t cap, const char *a, const char *b, const char *c) {
    const char *part[3] = { a, b, c };
    size_t at = 0;
    for (int i = 0; i < 3; i++)
        for (const char *p = part[i]; *p && at + 1 < cap; p++) dst[at++] = *p;
    dst[at] = 0;
}

/* The choice keys on the edges of r's cycles, into keys[] (at most nc); their count. */
static uint32_t cycle_keys(const list_run *s, const report *r, uint32_t *keys, uint8_t *in) {
    uint32_t n = 0;
    memset(in, 0, s->nc + 1);
    vec_foreach(report_anomaly, a, r->items)
        vec_foreach(dep_edge, e, a->edges)
            for (uint32_t i = 0; i < s->nc; i++)
                if (!in[i] && e->key == list_choice_key(s->lc, i)) { in[i] = 1; keys[n++] = i; }
    return n;
}

/* The choice keys behind the first run's failing cycles turn fastest. */
static void set_order(list_run *s) {
    uint8_t *in = xcalloc(s->nc + 1, 1);
    uint32_t n = cycle_keys(s, &s->first, s->order, in);
    for (uint32_t i = 0; i < s->nc; i++)
        if (!in[i]) s->order[n++] = i;
    free(in);
}

static int next_choice(list_run *s) {
    for (uint32_t j = 0; j < s->nc; j++) {
        uint32_t i = s->order[j];
        if (++s->pick[i] < list_choice_options(s->lc, i)) return 1;
        s->pick[i] = 0;
    }
    return 0;
}

/* Repair: the keys behind the last run's cycles take their next
 * segmentation; 0 when no cycle names a choice key. */
static int repair(list_run *s, const report *r) {
    uint32_t *keys = xmalloc((s->nc + 1) * sizeof *keys);
    uint8_t *in = xmalloc(s->nc + 1);
    uint32_t n = cycle_keys(s, r, keys, in);
    for (uint32_t j = 0; j < n; j++) s->pick[keys[j]] = (s->pick[keys[j]] + 1) % list_choice_options(s->lc, keys[j]);
    free(keys); free(in);
    return n > 0;
}

/* hc checked at the levels ro->want.  relax: the relaxation (its passes
 * say nothing; its failures are proofs).  The report is kept as the first
 * (the first run), the relaxation's, or the last one.  0 with err set when
 * it cannot be checked. */
static int check_one(list_run *s, history *hc, const run_check_options *ro, int relax, certificate *cert,
                     int *cert_level, ic_error *err) {
    if (!hc) { ic_error_at(err, s->h->source, 0, "internal error: a choice of appends cannot be written out"); return 0; }
    report r;
    report_init(&r, hc, s->first.level_arg);
    certificate c;
    cert_init(&c);
    int cl = -1;
    if (!run_check(hc, ro, &r, cert && !relax ? &c : NULL, &cl, err)) { report_free(&r); cert_free(&c); history_free(hc); return 0; }
    for (int i = 0; i < r.num_levels; i++) {
        const report_level *L = &r.levels[i];
        if (relax) { s->proven[L->level] = L->verdict == VERDICT_FAIL; continue; }
        if (L->verdict == VERDICT_PASS && !s->ok[L->level]) { s->ok[L->level] = 1; s->passed[L->level] = *L; }
        if (L->verdict == VERDICT_UNKNOWN) s->unknown[L->level] = 1;
    }
    if (relax && !r.num_levels && report_axioms_fail_all(&r))
        for (int l = 0; l < LEVEL_COUNT; l++) s->proven[l] = ro->want[l] && (r.axiom_breaks >> l & 1u);
    if (!relax) s->tried++;
    if (cert && cl >= 0 && cert_rank(cl) > cert_rank(*cert_level)) {
        ic_error e;
        ic_error_clear(&e);
        if (cert_verify_level(s->h, &c, (check_level_id)cl, &e, NULL) == CERT_OK) {    /* as loaded: verify's reading */
            cert_free(cert);
            *cert = c;
            cert_init(&c);
            *cert_level = cl;
        } else {
            s->ok[cl] = 0;
            s->unknown[cl] = 1;
            cat3(s->cert_msg, sizeof s->cert_msg, e.msg, "", "");
        }
    }
    cert_free(&c);
    if (relax) { s->relaxed = r; s->have_relaxed = 1; }
    else if (!s->have_first) { s->first = r; s->have_first = 1; }
    else { report_free(&s->last); s->last = r; }
    history_free(hc);
    return 1;
}

/* The message of a level no choice passed: proven 1 (the relaxation), 2
 * (every choice), 0 (not proven: UNKNOWN). */
static void choice_msg(list_run *s, report_level *L, int proven) {
    char what[360] = "";
    for (uint32_t i = 0; i < s->nc && !what[0]; i++) {
        uint32_t *zero = xcalloc(s->nc + 1, sizeof *zero);
        if (!list_choice_describe(s->h, s->lc, zero, i, what, sizeof what)) what[0] = 0;
        free(zero);
    }
    if (what[0] && s->nc > 1) {                  /* the cycle shown rests on every key's first order */
        size_t n = strlen(what);
        snprintf(what + n, sizeof what - n, " (and each of the other %u keys with a choice in its first order)", s->nc - 1);
    }
    char add[520];
    if (proven == 1)
        snprintf(add, sizeof add, "whichever append of its values each of the %u list reads of a repeated value saw "
                 "(it fails with only the list reads every choice shows alike, %u keys with a choice)",
                 list_choice_reads(s->lc), s->nc);
    else if (proven == 2)
        snprintf(add, sizeof add, "whichever append of its values each of the %u list reads of a repeated value saw "
                 "(%llu choices of appends refuted)%s%s", list_choice_reads(s->lc), (unsigned long long)s->tried,
                 what[0] ? "; shown under the choice where " : "", what);
    else
        snprintf(add, sizeof add, "no choice of appends among the %llu tried passes (%s%.200s); the anomalies listed are "
                 "the first choice's", (unsigned long long)s->tried,
                 s->cert_msg[0] ? "internal error: a passing choice's certificate does not verify against the history "
                                  "as loaded: " : s->stopped ? "the time limit or an interrupt" :
                 list_choice_truncated(s->lc) ? "a key has more orders of its appends than are tried" : "the limit of choices",
                 s->cert_msg);
    char old[sizeof L->msg];
    snprintf(old, sizeof old, "%s", L->msg);
    if (!proven) { L->verdict = VERDICT_UNKNOWN; L->stage = "choice"; cat3(L->msg, sizeof L->msg, add, "", ""); }
    else cat3(L->msg, sizeof L->msg, old, old[0] ? ", " : "", add);
}

/* Items of f for the levels in mask (an axiom item: one that breaks one of them) moved to rep. */
static void take_items(report *rep, report *f, uint32_t mask) {
    size_t kept = 0;
    vec_foreach(report_anomaly, a, f->items) {
        int keep = a->level == LEVEL_ANY ? (a->breaks & mask) != 0 : a->level >= 0 && (mask >> a->level & 1u);
        if (keep) vec_push(rep->items, *a);
        else f->items.data[kept++] = *a;
        if (keep && a->level == LEVEL_ANY) {
            rep->axiom_violations = f->axiom_violations;
            rep->axiom_breaks |= f->axiom_breaks;
            rep->axioms_per_level = 1;
        }
    }
    f->items.len = kept;
}

/* The report: the runs' lines put together into rep (see the header). */
/* No key has two orders listed, but one was cut short: the first run's
 * PASSes stand (re-checked under that order), its FAILs are no proof
 * (another order of the cut key may pass): UNKNOWN, without their anomalies. */
static void cut_short(report *rep, report *f) {
    for (int j = 0; j < f->num_levels; j++) {
        report_level L = f->levels[j];
        if (L.verdict == VERDICT_FAIL) {
            L.verdict = VERDICT_UNKNOWN;
            L.stage = "choice";
            snprintf(L.msg, sizeof L.msg, "a key has more orders of its appends than are tried; the one tried fails, "
                     "which proves nothing about the others");
        }
        rep->levels[rep->num_levels++] = L;
    }
    report_check_ladder(rep);
}

static void compose(list_run *s, report *rep) {
    const run_check_options *o = s->o;
    report *f = &s->first;
    uint32_t from_first = 0, from_relaxed = 0;
    for (int l = 0; l < LEVEL_COUNT; l++) {
        rep->no_times[l] = f->no_times[l];
        if (!o->want[l] || f->no_times[l] || s->ok[l]) continue;
        if (s->proven[l] == 1) from_relaxed |= 1u << l; else from_first |= 1u << l;
    }
    if (!s->nc && list_choice_truncated(s->lc)) {  /* one order listed, the rest cut short: no proof */
        cut_short(rep, f);
        return;
    }
    if (!s->nc) {                                /* no choice: the first run's report as it is */
        vec_foreach(report_anomaly, a, f->items) vec_push(rep->items, *a);
        f->items.len = 0;
        rep->axiom_violations = f->axiom_violations;
        rep->axiom_breaks = f->axiom_breaks;
        rep->axioms_per_level = f->axioms_per_level;
        vec_free(rep->set_aside);
        rep->set_aside = f->set_aside; vec_init(f->set_aside);
        for (int j = 0; j < f->num_levels; j++) rep->levels[rep->num_levels++] = f->levels[j];
        report_check_ladder(rep);
        return;
    }
    take_items(rep, f, from_first);
    if (s->have_relaxed) take_items(rep, &s->relaxed, from_relaxed);
    int proven = s->exhausted && !list_choice_truncated(s->lc);
    for (int i = 0; i < LEVEL_COUNT; i++) {
        int l = (int)ladder_order[i];
        if (!o->want[l] || f->no_times[l]) continue;
        report_level L;
        memset(&L, 0, sizeof L);
        int have = 0;
        const report *src = s->proven[l] == 1 ? &s->relaxed : f;
        if (s->ok[l]) { L = s->passed[l]; have = 1; }
        for (int j = 0; j < src->num_levels && !have; j++)
            if (src->levels[j].level == l) { L = src->levels[j]; have = 1; }
        if (!have) {
            L.level = l;
            L.verdict = VERDICT_FAIL;
            L.stage = "axioms";
            snprintf(L.msg, sizeof L.msg, "the history's read-axiom violations break it");
        }
        if (!s->ok[l] && s->nc)
            choice_msg(s, &L, s->proven[l] == 1 ? 1 : proven && !s->unknown[l] ? 2 : 0);
        rep->levels[rep->num_levels++] = L;
    }
    report_check_ladder(rep);
}

/* The levels still open into ro->want; 0 when none is. */
static int open_levels(const list_run *s, run_check_options *ro) {
    int left = 0;
    for (int l = 0; l < LEVEL_COUNT; l++) {
        ro->want[l] = s->o->want[l] && !s->ok[l] && !s->proven[l] && !s->first.no_times[l];
        left |= ro->want[l];
    }
    return left;
}

static int out_of_time(list_run *s, double t0) {
    const check_options *c = &s->o->check;
    s->stopped = (c->time_limit > 0 && monotonic_seconds() - t0 > c->time_limit) || (c->stop && c->stop(c->stop_ctx));
    return s->stopped;
}

/* The search over the choices for the levels still open (see the header). */
static int search(list_run *s, run_check_options *ro, certificate *kc, int *cl, double t0, ic_error *err) {
    uint64_t product = 1;
    for (uint32_t i = 0; i < s->nc && product <= LIST_CHOICE_MAX_ROUNDS; i++) product *= list_choice_options(s->lc, i);
    int all = product <= LIST_CHOICE_MAX_ROUNDS;
    if (all) set_order(s);
    for (uint32_t round = 0;; round++) {
        int more = all ? next_choice(s) : round < LIST_CHOICE_REPAIRS && repair(s, round ? &s->last : &s->first);
        if (!more) { s->exhausted = all; return 1; }
        if (out_of_time(s, t0)) return 1;
        if (!check_one(s, history_with_list_choice(s->h, s->lc, s->pick), ro, 0, kc, cl, err)) return 0;
        if (!open_levels(s, ro)) return 1;
    }
}

/* A level at which a writer's version comes right after the one it read
 * (no lost update): the SI and SER shapes, and rr without predicate reads
 * (ser-plain's condition then). */
static int adjacent_level(const history *h, int l) {
    level_shape sh = level_shape_of((check_level_id)l);
    return sh == SHAPE_SI || sh == SHAPE_SER || (sh == SHAPE_RR && !h->preds);
}

static int has_cycles(const report *rep) {
    vec_foreach(const report_anomaly, a, rep->items) if (a->edges.len) return 1;
    return 0;
}

/* chosen: the elements whose appender is a choice under lc, ORed in when
 * rep shows a cycle (list_choice_mark: what the report states,
 * report_assumed.h; a group without cycles adds none, so the SI/SER
 * group's stronger pruning stands when the other shows none). */
static int drive(const history *h, const run_check_options *o, report *rep, certificate *cert, int *cert_level,
                 uint8_t **chosen, ic_error *err) {
    if (cert_level) *cert_level = -1;
    int so = 1, adjacent = 1;
    for (int l = 0; l < LEVEL_COUNT; l++) {
        if (!o->want[l]) continue;
        if (!level_session_order((check_level_id)l)) so = 0;
        if (!adjacent_level(h, l)) adjacent = 0;
    }
    list_choice *lc = list_choice_build(h, so, adjacent, o->list_order_steps);
    list_run s;
    memset(&s, 0, sizeof s);
    s.h = h; s.lc = lc; s.o = o;
    s.nc = list_choice_num(lc);
    s.pick = xcalloc(s.nc + 1, sizeof *s.pick);
    s.order = xcalloc(s.nc + 1, sizeof *s.order);
    for (uint32_t i = 0; i < s.nc; i++) s.order[i] = i;
    report_init(&s.first, h, rep->level_arg);
    report_init(&s.relaxed, h, rep->level_arg);
    report_init(&s.last, h, rep->level_arg);
    run_check_options ro = *o;
    double t0 = monotonic_seconds();
    int cl = -1;
    certificate *kc = o->certificate && cert && cert_level ? cert : NULL;
    int ok = check_one(&s, history_with_list_choice(h, lc, s.pick), &ro, 0, kc, &cl, err);
    ro.on_index = NULL;                     /* the hooks see the first choice's run */
    ro.on_level = NULL;
    if (ok && s.nc && open_levels(&s, &ro) && !out_of_time(&s, t0))
        ok = check_one(&s, history_without_choice_lists(h, lc), &ro, 1, NULL, NULL, err);
    if (ok && s.nc && open_levels(&s, &ro)) ok = search(&s, &ro, kc, &cl, t0, err);
    if (ok) {
        if (!s.nc) s.exhausted = 1;
        compose(&s, rep);
        if (kc && cl >= 0) *cert_level = cl;
        if (has_cycles(rep)) *chosen = list_choice_mark(h, lc, *chosen);   /* the elements its cycles may rest on */
    }
    report_free(&s.first); report_free(&s.relaxed); report_free(&s.last);
    free(s.pick); free(s.order);
    list_choice_free(lc);
    return ok;
}

static int ladder_index(int level) {
    for (int i = 0; i < LEVEL_COUNT; i++)
        if ((int)ladder_order[i] == level) return i;
    return LEVEL_COUNT;
}

/* src's levels, items and axiom facts added to rep (the levels of the two
 * groups are disjoint); an axiom item only when rep has none yet. */
static void merge(report *rep, report *src, const int *want) {
    int had_axioms = rep->axiom_violations > 0;
    int src_all = report_axioms_fail_all(src);
    vec_foreach(report_anomaly, a, src->items) {
        if (a->level == LEVEL_ANY && had_axioms) { report_anomaly_free(a); continue; }
        vec_push(rep->items, *a);
    }
    src->items.len = 0;                  /* moved; the array goes with report_free */
    if (!had_axioms) { rep->axiom_violations = src->axiom_violations; rep->axiom_breaks |= src->axiom_breaks; }
    for (int l = 0; l < LEVEL_COUNT; l++) rep->no_times[l] |= src->no_times[l];
    for (int j = 0; j < src->num_levels; j++) rep->levels[rep->num_levels++] = src->levels[j];
    if (src_all) {                       /* its levels fail by the axioms: as lines of their own here */
        for (int l = 0; l < LEVEL_COUNT; l++) {
            if (!want[l] || !(src->axiom_breaks >> l & 1u) || src->no_times[l]) continue;
            report_level *L = &rep->levels[rep->num_levels];
            memset(L, 0, sizeof *L);
            L->level = l; L->verdict = VERDICT_FAIL; L->stage = "axioms";
            snprintf(L->msg, sizeof L->msg, "the history's read-axiom violations break it");
            rep->num_levels++;
        }
    }
    if (!rep->set_aside.len) { vec_free(rep->set_aside); rep->set_aside = src->set_aside; vec_init(src->set_aside); }
}

/* What the report states (report_assumed.h): with a cycle shown, h gets
 * the form that marks the list elements whose appender is the choice
 * (history_set_list_assumed); else none.  chosen is consumed. */
static void set_assumed(const history *h, const report *rep, int ok, uint8_t *chosen) {
    if (!ok || !has_cycles(rep)) { free(chosen); chosen = NULL; }
    history_set_list_assumed(h, chosen);
}

/* Levels of the SI and SER shapes (and rr) prune more (list_repeat.h, adjacent):
 * when others are asked too, the two groups are driven apart and their
 * reports merged in the ladder's order. */
int run_check_list_choice(const history *h, const run_check_options *o, report *rep, certificate *cert,
                          int *cert_level, ic_error *err) {
    run_check_options os = *o, ow = *o;
    int ns = 0, nw = 0;
    for (int l = 0; l < LEVEL_COUNT; l++) {
        int strong = adjacent_level(h, l);
        os.want[l] = o->want[l] && strong;
        ow.want[l] = o->want[l] && !strong;
        ns += os.want[l]; nw += ow.want[l];
    }
    uint8_t *chosen = NULL;
    if (!ns || !nw) {
        int ok = drive(h, o, rep, cert, cert_level, &chosen, err);
        set_assumed(h, rep, ok, chosen);
        return ok;
    }
    if (cert_level) *cert_level = -1;
    report rw, rs;
    report_init(&rw, h, rep->level_arg);
    report_init(&rs, h, rep->level_arg);
    certificate cw, cs;
    cert_init(&cw); cert_init(&cs);
    int lw = -1, ls = -1, ok = drive(h, &ow, &rw, &cw, &lw, &chosen, err);
    os.on_index = NULL;
    if (ok) ok = drive(h, &os, &rs, &cs, &ls, &chosen, err);
    if (ok) {
        merge(rep, &rw, ow.want);
        merge(rep, &rs, os.want);
        rep->axioms_per_level = rep->num_levels > 0 && rep->axiom_violations > 0;
        for (int i = 1; i < rep->num_levels; i++)      /* the ladder's order */
            for (int j = i; j > 0 && ladder_index(rep->levels[j - 1].level) > ladder_index(rep->levels[j].level); j--) {
                report_level t = rep->levels[j]; rep->levels[j] = rep->levels[j - 1]; rep->levels[j - 1] = t;
            }
        report_check_ladder(rep);
        certificate *best = cert_rank(ls) > cert_rank(lw) ? &cs : &cw;
        if (cert && cert_level && (ls >= 0 || lw >= 0)) {
            cert_free(cert);
            *cert = *best;
            cert_init(best);
            *cert_level = best == &cs ? ls : lw;
        }
    }
    set_assumed(h, rep, ok, chosen);                       /* the two groups' marks together */
    report_free(&rw); report_free(&rs);
    cert_free(&cw); cert_free(&cs);
    return ok;
}
