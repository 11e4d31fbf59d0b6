/* run_list.c — the pipeline over the choices of appends of a list
 * history with repeated appends (contract in run_list.h).
 *
 * The choices are counted like an odometer over the keys with several
 * segmentations, all first segmentations first; after the first run the
 * keys behind the failing levels' cycles turn fastest.  Each run checks
 * only the levels no choice has passed yet.  The report given back is put
 * together from the runs: a passing level's line from the choice that
 * passed it, a failing level's line and anomalies from the first choice
 * (whose history has the same transactions and operations; the report
 * prints the history as loaded), with the choice named in its message. */
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
    report first;
    int have_first;
    report_level passed[LEVEL_COUNT];
    uint8_t ok[LEVEL_COUNT], unknown[LEVEL_COUNT];
    uint64_t tried;
    int exhausted, stopped;
    char cert_msg[400];          /* a certificate that did not verify as loaded (an internal error) */
} list_run;

/* The choice keys behind the first run's failing anomalies turn fastest. */
static void set_order(list_run *s) {
    uint32_t n = 0;
    uint8_t *in = xcalloc(s->nc + 1, 1);
    vec_foreach(report_anomaly, a, s->first.items)
        vec_foreach(dep_edge, e, a->edges)
            for (uint32_t i = 0; i < s->nc; i++)
                if (!in[i] && e->key == list_choice_key(s->lc, i)) { in[i] = 1; s->order[n++] = i; }
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

/* dst = a b c, cut to cap. */
static void cat3(char *dst, size_t cap, const char *a, const char *b, const char *c) {
    const char *part[3] = { a, b, c };
    size_t at = 0;
    for (int i = 0; i < 3; i++)
        for (const char *p = part[i]; *p && at + 1 < cap; p++) dst[at++] = *p;
    dst[at] = 0;
}

/* One choice checked at the levels still open (ro->want).  0 with err set
 * when its history cannot be checked. */
static int one_run(list_run *s, const run_check_options *ro, certificate *cert, int *cert_level, ic_error *err) {
    history *hc = history_with_list_choice(s->h, s->lc, s->pick);
    if (!hc) { ic_error_at(err, s->h->source, 0, "internal error: a choice of appends cannot be written out"); return 0; }
    report r;
    report_init(&r, hc, s->first.level_arg);
    certificate c;
    cert_init(&c);
    int cl = -1;
    if (!run_check(hc, ro, &r, cert ? &c : NULL, &cl, err)) { report_free(&r); cert_free(&c); history_free(hc); return 0; }
    s->tried++;
    for (int i = 0; i < r.num_levels; i++) {
        const report_level *L = &r.levels[i];
        if (L->verdict == VERDICT_PASS && !s->ok[L->level]) { s->ok[L->level] = 1; s->passed[L->level] = *L; }
        if (L->verdict == VERDICT_UNKNOWN) s->unknown[L->level] = 1;
    }
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
    if (!s->have_first) { s->first = r; s->have_first = 1; }
    else report_free(&r);
    history_free(hc);
    return 1;
}

/* The message of a level no choice passed. */
static void choice_msg(list_run *s, report_level *L, int proven) {
    char what[300] = "";
    for (uint32_t i = 0; i < s->nc && !what[0]; i++) {
        uint32_t *zero = xcalloc(s->nc + 1, sizeof *zero);
        if (!list_choice_describe(s->h, s->lc, zero, i, what, sizeof what)) what[0] = 0;
        free(zero);
    }
    char add[520];
    if (proven)
        snprintf(add, sizeof add, "whichever append of its values each of the %u list reads of a repeated value saw "
                 "(%llu choices of appends refuted)%s%s", list_choice_reads(s->lc), (unsigned long long)s->tried,
                 what[0] ? "; shown under the choice where " : "", what);
    else
        snprintf(add, sizeof add, "no choice of appends among the %llu tried passes (%s%.200s)", (unsigned long long)s->tried,
                 s->cert_msg[0] ? "internal error: a passing choice's certificate does not verify against the history "
                                  "as loaded: " : s->stopped ? "the time limit or an interrupt" :
                 list_choice_truncated(s->lc) ? "a key has more orders of its appends than are tried" : "the limit of choices",
                 s->cert_msg);
    char old[sizeof L->msg];
    snprintf(old, sizeof old, "%s", L->msg);
    if (!proven) { L->verdict = VERDICT_UNKNOWN; L->stage = "choice"; cat3(L->msg, sizeof L->msg, add, "", ""); }
    else cat3(L->msg, sizeof L->msg, old, old[0] ? ", " : "", add);
}

/* The report: the runs' lines put together into rep (see the header). */
static void compose(list_run *s, report *rep) {
    const run_check_options *o = s->o;
    report *f = &s->first;
    uint32_t failing = 0;
    int any_ok = 0, choice = s->nc > 0;
    for (int l = 0; l < LEVEL_COUNT; l++) {
        rep->no_times[l] = f->no_times[l];
        if (!o->want[l] || f->no_times[l]) continue;
        if (s->ok[l]) any_ok = 1; else failing |= 1u << l;
    }
    int fail_all = report_axioms_fail_all(f);
    vec_foreach(report_anomaly, a, f->items) {
        int keep = a->level == LEVEL_ANY ? (a->breaks & failing) != 0 : a->level >= 0 && (failing >> a->level & 1u);
        if (keep) { vec_push(rep->items, *a); if (a->level == LEVEL_ANY) rep->axiom_violations++; }
        else report_anomaly_free(a);
    }
    f->items.len = 0;
    if (rep->axiom_violations) {
        rep->axiom_violations = f->axiom_violations;
        rep->axiom_breaks = f->axiom_breaks;
        rep->axioms_per_level = f->axioms_per_level;
    }
    int per_level = !fail_all || any_ok || choice;
    if (fail_all && per_level) rep->axioms_per_level = 1;
    if (fail_all && !per_level) { rep->set_aside = f->set_aside; vec_init(f->set_aside); }
    int proven = s->exhausted && !list_choice_truncated(s->lc);
    for (int i = 0; i < LEVEL_COUNT; i++) {
        int l = (int)ladder_order[i];
        if (!o->want[l] || f->no_times[l]) continue;
        report_level L;
        memset(&L, 0, sizeof L);
        int have = 0;
        if (s->ok[l]) { L = s->passed[l]; have = 1; }
        for (int j = 0; j < f->num_levels && !have; j++)
            if (f->levels[j].level == l) { L = f->levels[j]; have = 1; }
        if (!have && !per_level) continue;
        if (!have) {
            L.level = l;
            L.verdict = VERDICT_FAIL;
            L.stage = "axioms";
            snprintf(L.msg, sizeof L.msg, "the history's read-axiom violations break it");
        }
        if (!s->ok[l] && choice) choice_msg(s, &L, proven && !s->unknown[l]);
        rep->levels[rep->num_levels++] = L;
    }
    report_check_ladder(rep);
}

int run_check_list_choice(const history *h, const run_check_options *o, report *rep, certificate *cert,
                          int *cert_level, ic_error *err) {
    if (cert_level) *cert_level = -1;
    int so = 1;
    for (int l = 0; l < LEVEL_COUNT; l++)
        if (o->want[l] && !level_session_order((check_level_id)l)) so = 0;
    list_choice *lc = list_choice_build(h, so);
    list_run s;
    memset(&s, 0, sizeof s);
    s.h = h; s.lc = lc; s.o = o;
    s.nc = list_choice_num(lc);
    s.pick = xcalloc(s.nc + 1, sizeof *s.pick);
    s.order = xcalloc(s.nc + 1, sizeof *s.order);
    for (uint32_t i = 0; i < s.nc; i++) s.order[i] = i;
    report_init(&s.first, h, rep->level_arg);
    run_check_options ro = *o;
    double t0 = monotonic_seconds();
    int cl = -1, ok = 1;
    certificate *kc = o->certificate && cert && cert_level ? cert : NULL;
    for (;;) {
        if (!one_run(&s, &ro, kc, &cl, err)) { ok = 0; break; }
        int left = 0;
        for (int l = 0; l < LEVEL_COUNT; l++) {
            ro.want[l] = o->want[l] && !s.ok[l] && !s.first.no_times[l];
            left |= ro.want[l];
        }
        if (!left) break;
        if (s.tried == 1) set_order(&s);
        if (!next_choice(&s)) { s.exhausted = 1; break; }
        if (s.tried >= LIST_CHOICE_MAX_ROUNDS) break;
        if ((o->check.time_limit > 0 && monotonic_seconds() - t0 > o->check.time_limit) ||
            (o->check.stop && o->check.stop(o->check.stop_ctx))) { s.stopped = 1; break; }
        ro.on_index = NULL;                 /* the hooks see the first choice's run */
        ro.on_level = NULL;
    }
    if (ok) {
        if (!s.nc) s.exhausted = 1;
        compose(&s, rep);
        if (kc && cl >= 0) *cert_level = cl;
    }
    report_free(&s.first);
    free(s.pick); free(s.order);
    list_choice_free(lc);
    return ok;
}
