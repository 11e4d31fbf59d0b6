/* export.c — isocheck encode / decode (contract in export.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "frontend/checking/anomaly.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/export.h"
#include "frontend/history/list_repeat.h"

/* The axioms fail: the level fails without a graph.  Returns 1 if so,
 * with the first violation's text in why. */
static int axioms_fail(const history *h, char *why, size_t n) {
    anomaly_list l;
    anomaly_list_init(&l);
    uint64_t found = axioms_check(h, &l, 1);
    if (found) snprintf(why, n, "%s: %s", anomaly_name(l.items.data[0].kind),
                        l.items.data[0].detail ? l.items.data[0].detail : "");
    anomaly_list_free(&l);
    return found != 0;
}

static void fail_by_axioms(check_result *res, check_level_id level, const char *why) {
    memset(res, 0, sizeof *res);
    res->level = level;
    res->verdict = VERDICT_FAIL;
    res->stage = "axioms";
    snprintf(res->msg, sizeof res->msg, "%s", why);
}

int export_encode(const history *h, const export_options *o, graph_problem *p, check_result *res, ic_error *err) {
    if (history_has_repeated_appends(h)) {      /* the choice of appends is no single instance (run_list.h) */
        ic_error_at(err, h->source, 0, "a value appended twice to a list key: which append each list position shows "
                    "is a choice that one instance cannot encode (check it with 'isocheck check'; issue 35)");
        return 0;
    }
    gp_reset(p);
    gp_comment(p, "isocheck encode: level %s, %s", check_level_name(o->level), o->no_prune ? "no pruning" : "pruned");
    char why[400];
    if (axioms_fail(h, why, sizeof why)) {
        fail_by_axioms(res, o->level, why);
        gp_comment(p, "isocheck decided before solving that the level fails (axioms: %s)", why);
        gp_add_clause(p, NULL, 0);
        return 1;
    }
    pg_index ix;
    if (!pg_index_build(&ix, h, err)) return 0;
    graph_sink k = graph_sink_problem(p);
    check_external ext = { .no_prune = o->no_prune, .sink = &k };
    check_level_ext(&ix, o->level, NULL, &ext, res);
    pg_index_free(&ix);
    return 1;
}

static int model_value(void *m, int var) { return sat_model_value(m, var); }

/* The solver's answer cannot be right for this problem: VERDICT_UNKNOWN. */
static void wrong_answer(check_result *res, check_level_id level, const char *fmt, ...) {
    memset(res, 0, sizeof *res);
    res->level = level;
    res->verdict = VERDICT_UNKNOWN;
    res->stage = "model";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->msg, sizeof res->msg, fmt, ap);
    va_end(ap);
}

int export_decode(const history *h, const export_options *o, const sat_model *m, check_result *res, ic_error *err) {
    char why[400];
    if (axioms_fail(h, why, sizeof why)) {
        if (m->status == 10) wrong_answer(res, o->level, "the model says satisfiable, but the history fails the axioms (%s)", why);
        else fail_by_axioms(res, o->level, why);
        return 1;
    }
    if (m->status != 10 && m->status != 20) {
        wrong_answer(res, o->level, "the solver's answer gives neither SAT nor UNSAT");
        return 1;
    }
    pg_index ix;
    if (!pg_index_build(&ix, h, err)) return 0;
    /* first learn how many constraint variables the stages leave */
    graph_problem p;
    gp_init(&p);
    graph_sink k = graph_sink_problem(&p);
    check_external probe = { .no_prune = o->no_prune, .sink = &k };
    check_level_ext(&ix, o->level, NULL, &probe, res);
    int decided_fail = res->verdict == VERDICT_FAIL;
    int vars = p.num_vars;
    gp_free(&p);
    check_result_free(res);
    if (decided_fail) {
        check_level_ext(&ix, o->level, NULL, &(check_external){ .no_prune = o->no_prune }, res);
        if (m->status == 10) {
            check_result_free(res);
            wrong_answer(res, o->level, "the model says satisfiable, but the level fails before solving");
        }
        pg_index_free(&ix);
        return 1;
    }
    for (int v = 1; m->status == 10 && v <= vars; v++)
        if (!sat_model_value(m, v)) {
            wrong_answer(res, o->level, "the model gives no value to constraint variable %d (of 1..%d)", v, vars);
            pg_index_free(&ix);
            return 1;
        }
    if (m->status == 20) {
        /* UNSAT is a claim about every version order: confirmed by the
         * checker's own solver before it becomes a FAIL. */
        check_level(&ix, o->level, NULL, res);
        if (res->verdict == VERDICT_PASS) {
            check_result_free(res);
            wrong_answer(res, o->level, "the answer says UNSATISFIABLE, but the history satisfies %s: isocheck's own "
                         "check finds a version order (re-checked by definition); a wrong answer, or the answer "
                         "to another problem", check_level_title(o->level));
        }
        pg_index_free(&ix);
        return 1;
    }
    check_external ext = { .no_prune = o->no_prune, .model_value = model_value, .model_ctx = (void *)m };
    check_level_ext(&ix, o->level, NULL, &ext, res);
    if (res->verdict == VERDICT_UNKNOWN) {
        char was[sizeof res->msg];
        const char *w = res->msg;
        if (!strncmp(w, "internal error: ", 16)) w += 16;   /* not ours: the answer's */
        snprintf(was, sizeof was, "%s", w);
        check_result_free(res);
        wrong_answer(res, o->level, "the model's choices do not give a version order that satisfies %s (%s): a wrong "
                     "answer, or a model of another problem (encoded from another history, or with another "
                     "--level or --no-prune than given here)", check_level_title(o->level), was);
    }
    pg_index_free(&ix);
    return 1;
}
