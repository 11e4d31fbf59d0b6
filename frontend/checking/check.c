/* check.c — one level's check, end to end (see check.h): polygraph,
 * pruning, solving, and the independent re-check of every answer.  The
 * stages split into tasks run on the caller's pool (run_check's, shared by
 * the levels), else on one made for this check. */
#include "frontend/checking/check.h"
#include "frontend/checking/known_cycle.h"
#include "frontend/checking/weak.h"
#include "frontend/recheck/verify_model.h"
#include "frontend/checking/choice.h"
#include "frontend/checking/index_spill.h"
#include "frontend/history/history_spill.h"
#include "frontend/history/predicate.h"

#include <stdlib.h>
#include <string.h>

#include "monotonic.h"
#include "par.h"

const char *check_level_name(check_level_id l) { return level_name(l); }

pg_index_opts pg_index_opts_for(check_level_id level) {
    pg_index_opts o = { level_session_order(level), level_shape_of(level) != SHAPE_PC, level_real_time(level) };
    return o;
}

/* rr with predicate reads: no read-modify-write links (a transaction that
 * read a key by predicate only and writes it may follow a later writer:
 * the cycle through its predicate anti-dependency is allowed). */
static pg_index_opts opts_for_history(check_level_id level, const history *h) {
    pg_index_opts o = pg_index_opts_for(level);
    if (level_shape_of(level) == SHAPE_RR && h->op_pred) o.rmw_links = 0;
    return o;
}

int pg_index_fits(const pg_index *ix, check_level_id level) {
    pg_index_opts o = opts_for_history(level, ix->h);
    return o.session_order == ix->opts.session_order && o.rmw_links == ix->opts.rmw_links &&
           o.real_time == ix->opts.real_time;
}

void pg_init_level(polygraph *g, const pg_index *ix, check_level_id level) { pg_init_level_on(g, ix, level, NULL, 0); }
void pg_init_level_on(polygraph *g, const pg_index *ix, check_level_id level, par_pool *pool, int prio) {
    level_shape s = level_shape_of(level);
    if (s == SHAPE_RR) pg_init_rr_on(g, ix, pool, prio);
    else pg_init_shape_on(g, ix, s == SHAPE_SI || s == SHAPE_PC, s == SHAPE_PC, s == SHAPE_PSI, pool, prio);
}
const char *check_level_title(check_level_id l) { return level_title(l); }

void check_options_default(check_options *o) {
    memset(o, 0, sizeof *o);
    o->max_prune_rounds = 100;
    o->threads = 1;
}

void check_result_free(check_result *r) {
    version_order_free(&r->vo);
    vec_free(r->cycle);
    vec_free(r->forced);
    history_free(r->chosen);
    r->chosen = NULL;
    if (r->weak) { weak_result_free(r->weak); free(r->weak); r->weak = NULL; }
}

static void progress(const check_options *o, const char *what) {
    if (o && o->progress) o->progress(o->progress_ctx, what);
}

/* The level fails: find a cycle under the version order read off the
 * known graph, and confirm it by definition.  What follows (the re-check,
 * run_check's interpretation) reads the history, the version order and the
 * WW/RW known edges only: the reachability table, the constraints and the
 * order go before the re-check builds its own graph, and the known edges
 * right after their WW/RW part is copied out (exactly sized) — the peak of
 * a FAIL was all of them alive at once. */
/* The history the re-check reads: the index's, or with ambiguous reads the
 * resolved one with `choice` applied (res->chosen; choice is freed). */
static const history *recheck_history(const polygraph *g, uint32_t *choice, check_result *res) {
    const history *h = g->ix->h;
    if (!h->num_amb) { free(choice); return h; }
    if (!choice) choice = pg_choice_any(g->choice, h);
    for (uint32_t i = 0; g->prw && i < h->num_amb; i++)         /* rr: rc's own views are inert (predicate.h), */
        if (choice[i] == HISTORY_NONE && preds_is_rc_view_op(h, h->amb_read[i]))   /* any version, then set aside */
            for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1] && choice[i] == HISTORY_NONE; j++)
                if (!h->amb_why[j]) choice[i] = h->amb_cand[j];
    history_free(res->chosen);
    res->chosen = history_with_choice(h, choice);
    free(choice);
    if (g->prw && res->chosen) preds_set_aside_rc_views(res->chosen);
    return res->chosen;
}

/* A failure under a choice: it holds whichever write each ambiguous read
 * saw; the cycle shown assumes the writers named: those of the reads its
 * edges rest on (a WR edge's reader's read of its key, an RW edge's
 * reader's), not every ambiguous read of the cycle's transactions. */
static void choice_message(const history *h, check_result *res, const char *reason) {
    int len = h->preds && h->preds->choices_attached   /* reads' choices of versions (preds_attach_choices) */
        ? snprintf(res->msg, sizeof res->msg, "%s, whichever version each of the %u reads with several possible versions "
                   "saw (a predicate read's of a key it did not return, a read of nil); the cycle shown assumes", reason,
                   h->num_amb)
        : snprintf(res->msg, sizeof res->msg, "%s, whichever write of its value each of the %u reads of a repeated "
                   "value saw; the cycle shown assumes", reason, h->num_amb);
    const char *sep = "";
    for (uint32_t i = 0; i < h->num_amb && len > 0 && (size_t)len < sizeof res->msg - 100; i++) {
        uint32_t r = h->amb_read[i], t = history_op_txn(h, r), in = 0;
        vec_foreach(const dep_edge, e, res->cycle)
            in |= e->key == h->op_key[r] && ((e->kind == DEP_WR && e->to == t) || (e->kind == DEP_RW && e->from == t));
        if (!in) continue;
        uint32_t w = history_read_source(res->chosen, r);
        if (w == HISTORY_NONE) continue;
        char kb[64], vb[96];
        len += snprintf(res->msg + len, sizeof res->msg - (size_t)len, "%s txn %lld read %s=%s from txn %lld", sep,
                        (long long)h->txns[t].ext_id, history_key_str(h, h->op_key[r], kb, sizeof kb),
                        history_value_str(res->chosen, history_op_value(res->chosen, w), vb, sizeof vb),
                        (long long)h->txns[history_op_txn(h, w)].ext_id);
        sep = ",";
    }
    if (!*sep && len > 0 && (size_t)len < sizeof res->msg - 20) snprintf(res->msg + len, sizeof res->msg - (size_t)len, " any");
}

/* check_options.spill_index: the index out of resident memory where no stage reads it */
static void spill_index(const polygraph *g, const check_options *opt) {
    if (opt && opt->spill_index == g->ix) pg_index_spill(g->ix);
}

static verdict confirm_failure(polygraph *g, const check_options *opt, check_result *res, const char *stage) {
    const history *h = recheck_history(g, NULL, res);
    if (!h) {
        snprintf(res->msg, sizeof res->msg, "internal error: no possible writer for an ambiguous read");
        return res->verdict = VERDICT_UNKNOWN;
    }
    double t0 = monotonic_seconds();
    pg_version_order_read(g, &res->vo);
    pg_reach_free(g);
    vec_free(g->cons);
    free(g->topo_pos);
    g->topo_pos = NULL;
    vec_free(res->forced);
    size_t nf = 0;
    vec_foreach(const pg_edge, e, g->known) nf += PG_KIND(e->meta) == DEP_WW || PG_KIND(e->meta) == DEP_RW;
    vec_reserve(res->forced, nf);
    vec_foreach(const pg_edge, e, g->known) {
        dep_kind k = PG_KIND(e->meta);
        if (k != DEP_WW && k != DEP_RW) continue;
        dep_edge d = { pg_node_txn(g, e->from), pg_node_txn(g, e->to), PG_KEY(e->meta), (uint8_t)k };
        vec_push(res->forced, d);
    }
    dep_edge_vec known; vec_init(known);      /* under a choice: a cycle of known edges (known_cycle.h) */
    if (res->chosen && !strcmp(stage, "known graph") && !(g->ix->h->preds && g->ix->h->preds->choices_attached))
        pg_known_cycle(g, &known);
    vec_free(g->known);
    spill_index(g, opt);
    char why[300] = "";
    vec_clear(res->cycle);
    int rc = vo_check_level_on(h, &res->vo, res->level, &res->cycle, why, sizeof why, g->pool, g->prio);
    res->st.t_verify += monotonic_seconds() - t0;
    res->stage = stage;
    if (rc == 0 && known.len && cycle_holds_level(g->ix->h, &res->vo, res->level, known.data, known.len, why, sizeof why)) {
        history_free(res->chosen);            /* it holds whichever writer each read saw: shown, and explained, */
        res->chosen = NULL;                   /* on the history with no writer chosen */
        vec_free(res->cycle);
        res->cycle = known;
        snprintf(res->msg, sizeof res->msg, "%s, whichever write of its value each of the %u reads of a repeated value saw; "
                 "the cycle shown is of known edges", g->fail_reason, g->ix->h->num_amb);
        return res->verdict = VERDICT_FAIL;
    }
    vec_free(known);
    if (rc == 0 && cycle_holds_level_on(h, &res->vo, res->level, res->cycle.data, res->cycle.len, why, sizeof why, g->pool,
                                        g->prio)) {
        if (res->chosen) choice_message(g->ix->h, res, g->fail_reason);
        else snprintf(res->msg, sizeof res->msg, "%s", g->fail_reason);
        return res->verdict = VERDICT_FAIL;
    }
    if (rc == 1) snprintf(res->msg, sizeof res->msg, "internal error: %s found a violation (%s) but the version order "
                          "read off the known graph has no cycle", stage, g->fail_reason);
    else snprintf(res->msg, sizeof res->msg, "internal error: the failure could not be confirmed: %s", why);
    return res->verdict = VERDICT_UNKNOWN;
}

/* A witness: the known graph (plus the solver's choices, already added)
 * is acyclic; read the version order off it and re-check by definition. */
static verdict confirm_success(polygraph *g, const check_options *opt, check_result *res, uint32_t *choice) {
    const history *h = recheck_history(g, choice, res);
    if (!h) {
        snprintf(res->msg, sizeof res->msg, "internal error: the model chose an impossible writer");
        return res->verdict = VERDICT_UNKNOWN;
    }
    double t0 = monotonic_seconds();
    if (!pg_order(g)) {
        snprintf(res->msg, sizeof res->msg, "internal error: the solver's model leaves a cycle");
        return res->verdict = VERDICT_UNKNOWN;
    }
    pg_version_order_read(g, &res->vo);
    /* The re-check reads the history, the version order and the order's
     * positions (a hint it tests on its own arcs) only: the known edges (12
     * bytes each, the model's sides included) and the constraints (their
     * counts are copied already) go before its own graph, a PASS's peak,
     * and the index is spilled (index_spill.h). */
    res->st.known_edges_final = g->known.len;
    vec_free(g->known);
    vec_free(g->cons);
    spill_index(g, opt);
    char why[300] = "";
    vec_clear(res->cycle);
    int rc = vo_check_level_ranked_on(h, &res->vo, res->level, g->topo_pos, g->num_nodes, NULL, &res->cycle, why,
                                      sizeof why, g->pool, g->prio);   /* the order: a hint (verify_model.h) */
    free(g->topo_pos); g->topo_pos = NULL;
    res->st.t_verify += monotonic_seconds() - t0;
    if (rc == 1) return res->verdict = VERDICT_PASS;
    if (rc == 0) snprintf(res->msg, sizeof res->msg, "internal error: the model's version order has a cycle under %s",
                          level_name(res->level));
    else snprintf(res->msg, sizeof res->msg, "internal error: the model's version order is invalid: %s", why);
    vec_clear(res->cycle);
    return res->verdict = VERDICT_UNKNOWN;
}

static void copy_graph_stats(const polygraph *g, check_stats *st) {
    st->nodes = g->num_nodes;
    st->known_edges_final = g->known.len;
    st->pairs_total = g->pairs_total;
    st->pairs_decided_scan = g->pairs_decided_scan;
    st->cons_initial = g->cons_initial;
    st->cons_pruned = g->cons_pruned;
    st->cons_final = g->cons.len;
    st->edges_covering = g->edges_covering;
    st->prune_rounds = g->prune_rounds;
}

/* Make the side each constraint variable chose known (value(ctx, var) > 0:
 * side u<v), then confirm by definition.  The sides read the constraints
 * and the index, not the known edges: ranges of constraints are tasks on
 * the pool, each into its own vector, beside known_back (task 0, with ka:
 * the base edges are aside; 0.1 s and 0.06 s at 1M, each serial); the
 * ranges' edges are then added in constraint order, as one loop would.
 * value must answer from several threads at once (model_bits) then. */
static int known_back(polygraph *g, known_aside *ka, check_result *res);
typedef struct side_job {
    polygraph *g;
    int var0, back_ok;
    int (*value)(void *, int);
    void *ctx;
    size_t nr;                   /* ranges, each into out[range] */
    dep_edge_vec *out;
    known_aside *ka;
    check_result *res;
} side_job;

static void side_task(void *ctx, size_t task) {
    side_job *j = ctx;
    if (j->ka && task-- == 0) { j->back_ok = known_back(j->g, j->ka, j->res); return; }
    size_t n = j->g->cons.len, c0 = n * task / j->nr, c1 = n * (task + 1) / j->nr;
    for (size_t i = c0; i < c1; i++) {
        pg_cons c = j->g->cons.data[i];
        if (j->value(j->ctx, j->var0 + (int)i) > 0) pg_side_deps(j->g, c.u, c.v, &j->out[task]);
        else pg_side_deps(j->g, c.v, c.u, &j->out[task]);
    }
}

static verdict apply_model_back(polygraph *g, const check_options *opt, int var0, int (*value)(void *, int), void *ctx,
                                known_aside *ka, check_result *res) {
    unsigned threads = ka ? pg_threads_for(g, g->cons.len) : 1;
    side_job j = { g, var0, 1, value, ctx, threads > 1 ? 4 * (size_t)threads : 1, NULL, ka, res };
    j.out = xcalloc(j.nr, sizeof *j.out);        /* zeroed: empty vectors */
    par_pool_run_prio(threads > 1 ? g->pool : NULL, g->prio, j.nr + (ka != NULL), side_task, &j);
    size_t n = 0;
    for (size_t r = 0; r < j.nr; r++) n += j.out[r].len;
    if (j.back_ok) pg_known_reserve(g, n);
    for (size_t r = 0; r < j.nr; r++) {
        if (j.back_ok) vec_foreach(const dep_edge, e, j.out[r]) pg_add_dep(g, (dep_kind)e->kind, e->key, e->from, e->to);
        vec_free(j.out[r]);
    }
    free(j.out);
    if (!j.back_ok) return VERDICT_UNKNOWN;
    uint32_t *choice = g->choice ? pg_choice_model(g->choice, value, ctx) : NULL;
    return confirm_success(g, opt, res, choice);
}

/* The solver's choices, copied out so that the solver can be freed before
 * the re-check allocates its own (the peak memory of a PASS). */
typedef struct model_bits { int var0; uint8_t *val; } model_bits;
static int model_bits_value(void *ctx, int var) {
    const model_bits *m = ctx;
    return m->val[var - m->var0] ? 1 : -1;
}

/* Orient every constraint so that "true" agrees with the known graph's
 * topological order (as of the last pruning round) and make true the
 * initial phase: the solver starts from the order the known graph
 * suggests, which for histories from real executions is nearly a model. */
static void orient_constraints(polygraph *g) {
    const pg_index *ix = g->ix;
    for (size_t i = 0; i < g->cons.len; i++) {
        pg_cons *c = &g->cons.data[i];
        uint32_t pu = g->topo_pos[pg_node_t(g, ix->units.data[c->u].head)];
        uint32_t pv = g->topo_pos[pg_node_t(g, ix->units.data[c->v].head)];
        if (pu > pv) { uint32_t t = c->u; c->u = c->v; c->v = t; }
    }
}

/* Whether opt->stop asks to stop (a signal, programs/interrupt.h): then
 * res is UNKNOWN, "no verdict: interrupted <when> level L", stage
 * "interrupted".  Polled between the stages (building, pruning,
 * encoding; the solver polls it itself after each conflict). */
static int stopped(const check_options *opt, check_result *res, const char *when) {
    if (!opt || !opt->stop || !opt->stop(opt->stop_ctx)) return 0;
    snprintf(res->msg, sizeof res->msg, "no verdict: interrupted %s level %s", when, check_level_name(res->level));
    res->stage = "interrupted";
    res->verdict = VERDICT_UNKNOWN;
    return 1;
}

static void set_phase(void *s, int var, int value) { gsat_set_phase(s, var, value); }

/* The base edges go aside once the engine holds them (pg_known_aside),
 * and come back right after each gsat_free (known_back). */
typedef struct aside_ctx { polygraph *g; size_t initial; known_aside *ka; } aside_ctx;
static void put_aside(void *ctx) {
    const aside_ctx *c = ctx;
    pg_known_aside(c->g, c->initial, c->ka);
}
static int known_back(polygraph *g, known_aside *ka, check_result *res) {
    if (pg_known_back(g, ka)) return 1;
    snprintf(res->msg, sizeof res->msg, "internal error: the base edges regenerated after solving differ from the level's");
    res->verdict = VERDICT_UNKNOWN;
    return 0;
}

/* One solver run on g's problem: *sp the solver (its model or its
 * failure), the constraints' first variable returned.  careful: backtrack
 * whole levels (no partial backtracking).  The base edges are aside in ka
 * when it returns with a solver (known_back after gsat_free). */
static int solve_once(polygraph *g, const check_options *opt, check_result *res, int careful, known_aside *ka,
                      gsat **sp, int *r) {
    double t0 = monotonic_seconds();
    gsat *s = gsat_new();
    if (!s) xalloc_fail(0);
    gsat_set_option(s, "phase", 1);
    gsat_set_option(s, "theory_keep_ends", 0);   /* the checker never lists the engine's edges */
    if (careful) gsat_set_option(s, "partial_backtrack", 0);
    /* one solve, the model read, then gsat_free: a SAT answer need not take
     * back its assignment (at 1M SI, 0.7M edges out of the order, a tenth
     * of the solve); psi solves again after adding edges: level 0 there */
    if (!g->rw_lazy) gsat_set_option(s, "keep_trail", 1);
    uint64_t guarded = 0;
    pg_edge_vec rw_known; vec_init(rw_known);
    if (g->rw_lazy) psi_take_rw(g, &rw_known);
    progress(opt, "encoding");
    vec_fit(g->cons);                            /* read-only from here on */
    if (opt && opt->spill_index == g->ix) history_spill_txns(g->ix->h);   /* the engine reads no transaction */
    aside_ctx ac = { g, res->st.known_edges_initial, ka };
    int var0 = pg_encode_then(g, s, &guarded, put_aside, &ac);
    spill_index(g, opt);                         /* read again when the model is applied */
    if (g->choice) pg_choice_phases(g->choice, g, set_phase, s);
    res->st.vars = (uint64_t)gsat_num_vars(s);
    res->st.guarded_edges = guarded;
    res->st.t_encode += monotonic_seconds() - t0;
    if (stopped(opt, res, "after encoding")) {
        vec_free(rw_known);
        gsat_free(s);
        known_back(g, ka, res);                  /* for -v's count; a failure says so in res->msg */
        *sp = NULL;
        *r = GSAT_UNKNOWN;
        return var0;
    }
    progress(opt, "solving");
    t0 = monotonic_seconds();
    if (opt && opt->time_limit > 0) gsat_set_time_limit(s, opt->time_limit);
    if (opt && opt->stop) gsat_set_terminate(s, opt->stop_ctx, opt->stop);
    *r = g->rw_lazy ? psi_solve(g, s, var0, &rw_known, &res->st.psi_rounds) : gsat_solve(s, NULL, 0);
    if (g->rw_lazy) {                            /* the known RW edges go back (the re-check's forced edges) */
        pg_known_reserve(g, rw_known.len);
        vec_foreach(const pg_edge, e, rw_known) g->known.data[g->known.len++] = *e;
        vec_free(rw_known);
    }
    res->st.t_solve += monotonic_seconds() - t0;
    res->st.solver_called = 1;
    gsat_get_stats(s, &res->st.solver);
    *sp = s;
    return var0;
}

static int gsat_model_value(void *s, int var) { return gsat_value(s, var); }

static verdict solve(polygraph *g, const check_options *opt, check_result *res) {
    orient_constraints(g);
    gsat *s;
    int r, var0;
    /* Repeated values add clauses to the acyclicity problem (choice.h).
     * The engine's partial backtracking once gave models that break a
     * clause (issue 35; fixed in the engine, gsat40): every clause of the
     * encoding is still checked against the model, and a model that breaks
     * one is solved again backtracking whole levels (never seen since). */
    known_aside ka;
    memset(&ka, 0, sizeof ka);
    var0 = solve_once(g, opt, res, 0, &ka, &s, &r);
    if (!s) return VERDICT_UNKNOWN;                  /* interrupted after encoding (res says so) */
    if (g->choice && r == GSAT_SAT && !pg_choice_clauses_hold(g->choice, gsat_model_value, s)) {
        gsat_free(s);
        if (!known_back(g, &ka, res)) return VERDICT_UNKNOWN;
        var0 = solve_once(g, opt, res, 1, &ka, &s, &r);
        if (!s) return VERDICT_UNKNOWN;
    }
    verdict v;
    if (r == GSAT_SAT) {
        progress(opt, "re-checking the model");
        int nv = gsat_num_vars(s) - var0 + 1;          /* the constraints', then the choices' (choice.h) */
        model_bits m = { var0, xmalloc(nv > 0 ? (size_t)nv : 1) };
        for (int i = 0; i < nv; i++) m.val[i] = gsat_value(s, var0 + i) > 0;
        gsat_free(s);
        v = apply_model_back(g, opt, var0, model_bits_value, &m, &ka, res);   /* known_back beside the sides */
        free(m.val);
    } else if (r == GSAT_UNSAT) {
        gsat_free(s);
        snprintf(g->fail_reason, sizeof g->fail_reason, "no version order avoids a cycle (solver)");
        v = known_back(g, &ka, res) ? confirm_failure(g, opt, res, "solver") : VERDICT_UNKNOWN;
    } else {
        const char *e = gsat_error(s);           /* out of memory inside the engine */
        if (e) snprintf(res->msg, sizeof res->msg, "the solver failed (%s); no verdict", e);
        else if (opt && opt->stop && opt->stop(opt->stop_ctx))
            snprintf(res->msg, sizeof res->msg, "no verdict: interrupted while solving level %s", check_level_name(res->level));
        else snprintf(res->msg, sizeof res->msg, "the solver hit its limit; no verdict");
        gsat_free(s);
        known_back(g, &ka, res);                 /* the count of known edges in -v */
        v = res->verdict = VERDICT_UNKNOWN;
    }
    return v;
}

/* The stages decided FAIL before any solver: the exported instance is
 * one empty clause, with the reason as a comment. */
static void early_failure(const polygraph *g, const check_external *ext, check_result *res) {
    if (!ext->sink) return;
    char text[400];
    snprintf(text, sizeof text, "isocheck decided before solving that the level fails (%s: %s)",
             res->stage ? res->stage : "?", g->fail_reason);
    gs_comment(ext->sink, text);
    gs_add_clause(ext->sink, NULL, 0);
}

/* isocheck encode / decode: the problem goes to ext->sink, the answer
 * comes from ext's model (see check.h). */
static verdict external(polygraph *g, const check_options *opt, const check_external *ext, check_result *res) {
    double t0 = monotonic_seconds();
    if (ext->no_prune) pg_order(g);           /* topo_pos current, as pruning leaves it */
    orient_constraints(g);                    /* the same instance solve() hands gsat */
    uint64_t guarded = 0;
    int var0 = ext->sink ? pg_encode_sink(g, ext->sink, &guarded) : 1;
    res->st.vars = g->cons.len;
    res->st.guarded_edges = guarded;
    res->st.t_encode = monotonic_seconds() - t0;
    if (ext->model_unsat) {
        snprintf(g->fail_reason, sizeof g->fail_reason, "no version order avoids a cycle (external solver)");
        return confirm_failure(g, opt, res, "external solver");
    }
    if (ext->model_value) return apply_model_back(g, opt, var0, ext->model_value, ext->model_ctx, NULL, res);
    res->stage = "exported";
    snprintf(res->msg, sizeof res->msg, "encoded for an external solver");
    return res->verdict = VERDICT_UNKNOWN;
}

verdict check_level(const pg_index *ix, check_level_id level, const check_options *opt, check_result *res) {
    return check_level_ext(ix, level, opt, NULL, res);
}

static verdict check_graph(const pg_index *ix, check_level_id level, const check_options *opt,
                           const check_external *ext, par_pool *pool, check_result *res) {
    polygraph g;
    double t0 = monotonic_seconds();
    progress(opt, "building the polygraph");
    pg_init_level_on(&g, ix, level, pool, opt->priority);
    g.pool = pool;
    g.prio = opt->priority;
    g.threads = par_pool_threads(pool);
    res->st.known_edges_initial = g.known.len;
    int ok = pg_build_constraints(&g);
    res->st.t_graph = monotonic_seconds() - t0;
    verdict v;
    if (ok && stopped(opt, res, "after building the polygraph of")) {
        copy_graph_stats(&g, &res->st);
        pg_free(&g);
        return VERDICT_UNKNOWN;
    }
    if (!ok) {
        copy_graph_stats(&g, &res->st);
        v = confirm_failure(&g, opt, res, g.fail_stage ? g.fail_stage : "known graph");
        if (ext) early_failure(&g, ext, res);
        pg_free(&g);
        return v;
    }
    if (!ext || !ext->no_prune) {
        progress(opt, "pruning");
        spill_index(&g, opt);                   /* the renewal reads none of it; the rounds read units back */
        t0 = monotonic_seconds();
        ok = pg_prune(&g, opt->max_prune_rounds);
        res->st.t_prune = monotonic_seconds() - t0;
    }
    copy_graph_stats(&g, &res->st);
    if (ok) g.choice = pg_choice_build(&g);     /* repeated values: candidates left for this level */
    /* Nothing after pruning asks for reachability (topo_pos is kept): free
     * the largest array before the solver and the re-check allocate theirs. */
    pg_reach_free(&g);
    if (ok && !ext && stopped(opt, res, "after pruning")) v = VERDICT_UNKNOWN;
    else if (!ok) {
        v = confirm_failure(&g, opt, res, "pruning");
        if (ext) early_failure(&g, ext, res);
    }
    else if (ext) v = external(&g, opt, ext, res);
    else if (g.cons.len == 0 && !g.rw_lazy && !g.choice) { res->stage = "pruning"; v = confirm_success(&g, opt, res, NULL); }
    else { res->stage = "solver"; v = solve(&g, opt, res); }
    if (g.known.data) res->st.known_edges_final = g.known.len;   /* else confirm_success counted and freed them */
    pg_choice_free(g.choice);
    pg_free(&g);
    return v;
}

/* The level's check on ix; then it is done with ix's base edges (its
 * pg_init copied them; pg_known_back may regenerate them until here): a
 * caller that has them freed after the last use counts two uses a level
 * (pg_index_release_base_after, run_check.c). */
static verdict check_on(const pg_index *ix, check_level_id level, const check_options *opt,
                        const check_external *ext, par_pool *pool, check_result *res) {
    verdict v = check_graph(ix, level, opt, ext, pool, res);
    pg_index_base_copied(ix);
    return v;
}

/* The real-time levels need every participant's times (an indeterminate
 * one may lack its completion: it precedes nothing).  0 with res->msg set
 * when they are missing. */
static int times_present(const pg_index *ix, check_level_id level, check_result *res) {
    const history *h = ix->h;
    const char *name = level_name(level);
    if (!history_has_times(h, TIME_INVOKE)) {     /* completions may all be missing: every one :info */
        snprintf(res->msg, sizeof res->msg, "%s needs invocation and completion times; this history has none", name);
        return 0;
    }
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!ix->in_graph[t]) continue;
        int64_t inv = history_time(h, TIME_INVOKE, t), cmp = history_time(h, TIME_COMPLETE, t);
        int committed = h->txns[t].status == TXN_COMMITTED;
        if (inv == HISTORY_TIME_NONE || (committed && cmp == HISTORY_TIME_NONE)) {
            snprintf(res->msg, sizeof res->msg, "%s needs invocation and completion times; transaction %lld has no %s time",
                     name, (long long)h->txns[t].ext_id, inv == HISTORY_TIME_NONE ? "invocation" : "completion");
            return 0;
        }
        if (committed && cmp < inv) {
            snprintf(res->msg, sizeof res->msg, "%s: transaction %lld completes (%lld) before it is invoked (%lld)",
                     name, (long long)h->txns[t].ext_id, (long long)cmp, (long long)inv);
            return 0;
        }
    }
    return 1;
}

/* Run one searched level on ix, or on an index of its own when ix does
 * not fit it (pg_index_opts_for). */
static verdict check_fitted(const pg_index *ix, check_level_id level, const check_options *opt,
                            const check_external *ext, par_pool *pool, check_result *res) {
    if (pg_index_fits(ix, level)) return check_on(ix, level, opt, ext, pool, res);
    pg_index mine;
    ic_error err; ic_error_clear(&err);
    if (!pg_index_build_opts(&mine, ix->h, &err, pool, opts_for_history(level, ix->h))) {
        snprintf(res->msg, sizeof res->msg, "%s", err.msg);
        return res->verdict = VERDICT_UNKNOWN;
    }
    verdict v = check_on(&mine, level, opt, ext, pool, res);
    pg_index_free(&mine);
    return v;
}

/* si-plain and ser-plain hold whenever si and ser do: a version order
 * that satisfies the session level satisfies its plain level, whose graph
 * has the same edges but SO (doc/checker.md, "The session level first").
 * So the plain level first runs its session level, whose session chains
 * make it as fast as that level; on PASS its version order is re-checked
 * by definition at the plain level and is the plain level's certificate
 * (stage "session level").  Returns 1 with res filled then (or when
 * interrupted); 0 (res cleared) when the plain level needs its own
 * search: the session level did not pass, or the re-check refused (never
 * expected). */
/* A stronger level's passing version order (check_options.implied_vo),
 * re-checked at this level: 1 with res a PASS, else 0 (res cleared). */
static int implied_pass(const pg_index *ix, check_level_id level, const check_options *opt, par_pool *pool,
                        check_result *res) {
    if (!opt->implied_vo) return 0;
    const history *h = ix->h;
    history *chosen = NULL;
    if (h->num_amb) {
        /* with reads of repeated values a PASS also names the writer each
         * such read saw (choice.h): the passing level's, under which its
         * order is re-checked here (not with predicate reads' views) */
        if (!opt->implied_chosen || h->preds || h->op_pred) return 0;
        uint32_t *pick = xmalloc(((size_t)h->num_amb + 1) * sizeof *pick);
        for (uint32_t i = 0; i < h->num_amb; i++) pick[i] = history_read_source(opt->implied_chosen, h->amb_read[i]);
        chosen = history_with_choice(h, pick);
        free(pick);
        if (!chosen) return 0;
        h = chosen;
    }
    double t0 = monotonic_seconds();
    char why[300] = "";
    int rc = vo_check_level_on(h, opt->implied_vo, level, &res->cycle, why, sizeof why, pool, opt->priority);
    res->st.t_verify += monotonic_seconds() - t0;
    vec_clear(res->cycle);
    if (rc != 1) { history_free(chosen); return 0; }
    res->chosen = chosen;
    version_order_copy(&res->vo, opt->implied_vo);
    res->stage = "implied";
    snprintf(res->msg, sizeof res->msg, "the version order that passed %s, re-checked at %s", level_name(opt->implied_from),
             level_name(level));
    res->verdict = VERDICT_PASS;
    return 1;
}

static int session_level_first(const pg_index *ix, check_level_id level, const check_options *opt,
                               par_pool *pool, check_result *res) {
    /* rr holds where ser does (ser => ser-plain => rr, doc/levels.md) */
    check_level_id sess = level == LEVEL_SI_PLAIN ? LEVEL_SI : level == LEVEL_SER_PLAIN || level == LEVEL_RR ? LEVEL_SER : level;
    if (sess == level || opt->session_level_fails) return 0;
    res->level = sess;
    verdict v = check_fitted(ix, sess, opt, NULL, pool, res);
    res->level = level;
    if (v == VERDICT_PASS) {
        double t0 = monotonic_seconds();
        char why[300] = "";
        vec_clear(res->cycle);
        /* with ambiguous reads, under the writers the session level chose */
        if (level == LEVEL_RR && res->chosen) preds_set_aside_rc_views(res->chosen);   /* rr: rc's own views inert */
        const history *h = res->chosen ? res->chosen : ix->h;
        int rc = vo_check_level_on(h, &res->vo, level, &res->cycle, why, sizeof why, pool, opt->priority);
        res->st.t_verify += monotonic_seconds() - t0;
        if (rc == 1) { res->stage = "session level"; return 1; }
    } else if (v == VERDICT_UNKNOWN && opt->stop && opt->stop(opt->stop_ctx)) {
        return 1;                                /* interrupted: no search after it */
    }
    check_result_free(res);
    memset(res, 0, sizeof *res);
    res->level = level;
    vec_init(res->cycle);
    return 0;
}

verdict check_level_ext(const pg_index *ix, check_level_id level, const check_options *opt,
                        const check_external *ext, check_result *res) {
    memset(res, 0, sizeof *res);
    res->level = level;
    vec_init(res->cycle);
    if (stopped(opt, res, "before checking")) return VERDICT_UNKNOWN;
    if (check_level_is_weak(level)) return check_weak_level(ix, level, opt, res);   /* rc, ra, cc: weak_level.c */
    check_options defaults;
    if (!opt) { check_options_default(&defaults); opt = &defaults; }
    if ((unsigned)level >= LEVEL_COUNT || level_shape_of(level) < SHAPE_PC) {
        snprintf(res->msg, sizeof res->msg, "level %s is not decided by this search", level_name(level));
        res->stage = "refused";
        return res->verdict = VERDICT_UNKNOWN;
    }
    if (ext && (level_shape_of(level) == SHAPE_PSI || (level_shape_of(level) == SHAPE_RR && (ix->h->op_pred || ix->h->preds)))) {
        snprintf(res->msg, sizeof res->msg, "%s is not one acyclicity constraint%s: it cannot be exported", level_name(level),
                 level_shape_of(level) == SHAPE_RR ? " with predicate reads" : "");
        res->stage = "refused";
        return res->verdict = VERDICT_UNKNOWN;
    }
    if (level_real_time(level) && !times_present(ix, level, res)) {
        res->stage = "refused";
        return res->verdict = VERDICT_UNKNOWN;
    }
    par_pool *own = opt->pool ? NULL : par_pool_new(opt->threads);
    par_pool *pool = opt->pool ? opt->pool : own;
    verdict v;
    if (!ext && implied_pass(ix, level, opt, pool, res)) v = res->verdict;
    else if (!ext && session_level_first(ix, level, opt, pool, res)) v = res->verdict;
    else v = check_fitted(ix, level, opt, ext, pool, res);
    par_pool_free(own);
    return v;
}
