/* interpret.c — minimal, named, explained anomalies from a failing version
 * order (contract in interpret.h): the candidate loop and the anomaly
 * records; the parts it uses are listed in interpret_internal.h. */
#include "frontend/reports/interpret_internal.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/reports/classify.h"
#include "frontend/checking/pred_rw.h"
#include "par.h"

/* ---- the anomaly record --------------------------------------------------- */

static void add_txn(report_anomaly *a, uint32_t t) {
    for (size_t i = 0; i < a->txns.len; i++) if (a->txns.data[i] == t) return;
    vec_push(a->txns, t);
}

static void add_op(report_anomaly *a, uint32_t op) {
    if (op == NONE) return;
    for (size_t i = 0; i < a->ops.len; i++) if (a->ops.data[i] == op) return;
    vec_push(a->ops, op);
}

/* Ops behind an edge: external read of the reader, final writes; with
 * sources, an RW edge's reader's source too (the version it read). */
static void edge_ops(const ictx *c, const dep_edge *e, report_anomaly *a, int sources) {
    const history *h = c->h;
    switch (e->kind) {
    case DEP_WR: add_op(a, history_txn_final_write(h, e->from, e->key)); add_op(a, ictx_ext_read(c, e->to, e->key, NULL)); break;
    case DEP_WW: add_op(a, history_txn_final_write(h, e->from, e->key)); add_op(a, history_txn_final_write(h, e->to, e->key)); break;
    case DEP_RW:
        add_op(a, ictx_ext_read(c, e->from, e->key, NULL)); add_op(a, history_txn_final_write(h, e->to, e->key));
        if (sources) {
            uint32_t s = ictx_read_src(c, e->from, e->key);
            if (s != NONE) { add_txn(a, s); add_op(a, history_txn_final_write(h, s, e->key)); }
        }
        break;
    default: break;
    }
}

/* A candidate's explanations: per cycle edge, and the facts they rely on in the order proven. */
typedef struct explained {
    VEC(edge_why) why;
    VEC(report_fact) facts;
} explained;

static void explained_clear(explained *x) {
    vec_foreach(edge_why, w, x->why) edge_why_free(w);
    vec_clear(x->why);
    vec_foreach(report_fact, f, x->facts) edge_why_free(&f->why);
    vec_clear(x->facts);
}

/* A cycle's edges explained, in order, into x (empty): each edge's
 * explanation is added to x->why and the facts it proved to x->facts, as
 * one loop over the edges would (ictx_explain_edge).  On a pool the edges
 * are first explained at once, each with facts of its own (empty); then,
 * in order, an edge's explanation is kept when it looked up no facts or
 * no edge before it proved any (it is then exactly the loop's, and its
 * facts follow the others'), else it is explained again after the edges
 * before it, on the caller — so the explanations and facts do not depend
 * on the pool (the bulk of an interpretation's serial part at 1M
 * transactions: a write skew's two edges, one search each).  At most
 * the pool's threads explain at once, each with a search state of its own. */
typedef struct spec_edge { edge_why w; VEC(report_fact) facts; int consulted; } spec_edge;
typedef struct spec_job { const ictx *c; const dep_edge *e; spec_edge *out; } spec_job;

static void spec_task(void *ctx, size_t i) {
    const spec_job *j = ctx;
    vec_init(j->out[i].facts);
    j->out[i].consulted = ictx_explain_edge(j->c, &j->e[i], &j->out[i].w, &j->out[i].facts);
}

_Atomic uint64_t interpret_spec_kept, interpret_spec_redone;

/* Graphs of more nodes are explained one edge after the other: each edge
 * explained at once holds a search state of 13 bytes a node (at 22M
 * transactions under SI, 570 MB). */
#define SPEC_MAX_NODES (16u << 20)

static void explain_cycle(const ictx *c, const dep_edge_vec *mc, explained *x) {
    if (par_pool_threads(c->pool) < 2 || mc->len < 2 || c->g.n > SPEC_MAX_NODES) {
        for (size_t i = 0; i < mc->len; i++) {
            edge_why w;
            ictx_explain_edge(c, &mc->data[i], &w, &x->facts);
            vec_push(x->why, w);
        }
        return;
    }
    spec_edge *sp = xcalloc(mc->len, sizeof *sp);
    spec_job job = { c, mc->data, sp };
    par_pool_run_prio(c->pool, c->prio, mc->len, spec_task, &job);
    for (size_t i = 0; i < mc->len; i++) {
        if (!sp[i].consulted || !x->facts.len) {     /* the loop's own explanation: its facts come next */
            vec_foreach(report_fact, f, sp[i].facts) vec_push(x->facts, *f);
            vec_push(x->why, sp[i].w);
            atomic_fetch_add_explicit(&interpret_spec_kept, 1, memory_order_relaxed);
        } else {
            edge_why w;
            edge_why_free(&sp[i].w);
            vec_foreach(report_fact, f, sp[i].facts) edge_why_free(&f->why);
            ictx_explain_edge(c, &mc->data[i], &w, &x->facts);
            vec_push(x->why, w);
            atomic_fetch_add_explicit(&interpret_spec_redone, 1, memory_order_relaxed);
        }
        vec_free(sp[i].facts);
    }
    free(sp);
}

/* The transactions and operations an explanation shows: its cycle's, the
 * writes of the fact it proves and the list read that shows one. */
static void why_ops(const ictx *c, const edge_why *w, uint32_t key, report_anomaly *a) {
    vec_foreach(const dep_edge, e, w->alt) { add_txn(a, e->from); add_txn(a, e->to); edge_ops(c, e, a, 1); }
    if (w->status == WHY_LISTED) { add_txn(a, history_op_txn(c->h, w->read_op)); add_op(a, w->read_op); }
    if (w->status == WHY_FORCED && key != HISTORY_NONE)
        for (int i = 0; i < 2; i++) {
            uint32_t t = i ? w->after : w->before;
            if (t != NONE) { add_txn(a, t); add_op(a, history_txn_final_write(c->h, t, key)); }
        }
}

/* Move a minimal cycle and its explanations into a new report entry. */
static void emit(report *r, const ictx *c, int level, const dep_edge_vec *mc, explained *x) {
    cycle_class cl = classify_cycle_rule(mc->data, mc->len, c->rule);
    report_anomaly *a = report_add(r, cl.kind, level);
    snprintf(a->adya, sizeof a->adya, "%s", cl.adya);
    if (!strncmp(cl.adya, "G2-item", 7) && c->h->preds) {   /* Adya: G2-item needs an item anti-dependency */
        int item = 0;
        for (size_t i = 0; i < mc->len; i++)
            item |= mc->data[i].kind == DEP_RW && !pred_rw_reads_by_predicate(c->h, mc->data[i].from, mc->data[i].key)
                    && (i >= x->why.len || x->why.data[i].status != WHY_VIEW);   /* a view's: a predicate one */
        if (!item) snprintf(a->adya, sizeof a->adya, "G2%s", cl.adya + 7);
    }
    for (size_t i = 0; i < mc->len; i++) { vec_push(a->edges, mc->data[i]); add_txn(a, mc->data[i].from); }
    a->num_cycle_txns = (uint32_t)a->txns.len;
    for (size_t i = 0; i < mc->len; i++) edge_ops(c, &mc->data[i], a, 0);
    for (size_t i = 0; i < x->why.len; i++) {
        why_ops(c, &x->why.data[i], mc->data[i].key, a);
        if (x->why.data[i].status == WHY_CHOSEN || x->why.data[i].status == WHY_VIEW) a->chosen = 1;
        vec_push(a->why, x->why.data[i]);
    }
    vec_foreach(const report_fact, f, x->facts) { why_ops(c, &f->why, f->fact.key, a); vec_push(a->facts, *f); }
    vec_clear(x->why); vec_clear(x->facts);        /* their vectors now belong to the report */
    if (a->chosen) {                               /* not named as if observed */
        a->shape = a->kind;
        snprintf(a->shape_adya, sizeof a->shape_adya, "%s", a->adya);
        a->kind = AN_CYCLE;
        a->adya[0] = 0;
    }
    size_t keep = 0;
    for (size_t i = 0; i < a->txns.len; i++) if (a->txns.data[i] != 0) a->txns.data[keep++] = a->txns.data[i];
    a->txns.len = keep;
    if (a->num_cycle_txns > keep) a->num_cycle_txns = (uint32_t)keep;
    /* ops in history order: reads before writes within a transaction */
    for (size_t i = 1; i < a->ops.len; i++)
        for (size_t j = i; j > 0 && a->ops.data[j - 1] > a->ops.data[j]; j--) {
            uint32_t t = a->ops.data[j]; a->ops.data[j] = a->ops.data[j - 1]; a->ops.data[j - 1] = t;
        }
    report_describe_cycle_in(c->h, c->amb ? c->amb : c->h, a, c->rule == RULE_NO_ADJ_RW);
}

/* Lost updates need no search: two transactions that read the same
 * version of a key and both write it conflict under every version order
 * (each must directly follow that version).  Pairs into lu. */
static void lost_update_pairs(const ictx *c, vec_u32 *lu) {
    const ivec_u64 *v = &c->rmw_rd;                  /* PAIR(version, reader that writes its key), sorted */
    for (size_t i = 0; i + 1 < v->len;) {
        size_t j = i + 1;
        while (j < v->len && v->data[j] >> 32 == v->data[i] >> 32) j++;
        if (j - i >= 2) { vec_push(*lu, (uint32_t)v->data[i]); vec_push(*lu, (uint32_t)v->data[i + 1]); }
        i = j;
    }
}

void interpret_trace_free(interpret_trace *t) {
    vec_foreach(interpret_candidate, ca, *t) vec_free(ca->cycle);
    vec_free(*t);
}

/* S := the transactions of cycle (n edges), in order, each once. */
static void cycle_txns(const history *h, const dep_edge *cycle, size_t n, vec_u32 *S) {
    vec_clear(*S);
    for (size_t i = 0; i < n; i++) {
        int dup = 0;
        for (size_t j = 0; j < S->len; j++) if (S->data[j] == cycle[i].from) dup = 1;
        if (!dup && cycle[i].from < h->num_txns) vec_push(*S, cycle[i].from);
    }
}

/* Under a choice of writers, the rounds before the checker's cycle (phase
 * -1 of interpret_failure): 1, S a cycle of the fact graph without the
 * arcs resting on an assumed writer (while budget is left); else 2, S the
 * checker's cycle's transactions when no anomaly took one of them; else 0. */
static int established_first(ictx *c, const uint8_t *excl, const dep_edge *cycle, size_t n, int budget,
                             vec_u32 *S) {
    if (budget && ictx_find_cycle_txns(c, excl, 1, 1, S)) return 1;
    for (size_t i = 0; i < n; i++) if (excl[cycle[i].from] || excl[cycle[i].to]) return 0;
    cycle_txns(c->h, cycle, n, S);
    return 2;
}

size_t interpret_failure(report *r, int level, const version_order *vo_in, const dep_edge *cycle, size_t n,
                         const dep_edge *forced, size_t nforced, size_t max, interpret_trace *trace,
                         struct par_pool *pool, int prio) {
    const history *h = r->h;
    if (!vo_in || !vo_in->start || vo_in->num_keys != h->num_keys || max == 0) return 0;
    version_order rvo;
    interp_repair_vo(h, vo_in, forced, nforced, &rvo, pool, prio);
    ictx c;
    ictx_init(&c, h, &rvo, level, forced, nforced, pool, prio);
    c.own_vo = rvo;
    c.amb = r->choice_of && r->choice_of->num_amb ? r->choice_of
          : r->choice_of && r->choice_of->resolved && r->choice_of->resolved->num_amb ? r->choice_of->resolved : NULL;
    uint8_t *excl = xcalloc(h->num_txns, 1);
    vec_u32 S; vec_init(S);
    dep_edge_vec mc, fb; vec_init(mc); vec_init(fb);
    explained why, fbwhy;
    memset(&why, 0, sizeof why); memset(&fbwhy, 0, sizeof fbwhy);
    size_t count = 0;
    int have = 0;
    if (cycle && n) { cycle_txns(h, cycle, n, &S); have = 1; }
    /* Candidates: violating cycles.  One whose WW/RW facts are all forced
     * is reported, and its transactions are set aside (the next ones are
     * independent).  Work is bounded by a budget of graph edges. */
    /* a round costs a few dozen traversals of the graphs (cycle search and
     * shortening, one search per fact explained) */
    uint64_t unit = 20 * (c.num_known + h->num_txns + vo_in->txns.len);
    uint64_t budget = 20000000 + 2 * unit, spent = 0;
    /* candidates: the checker's cycle, then cycles of the fact graph (every
     * edge read off the history or forced), then cycles under the version
     * order.  A candidate with a fact that is merely chosen is kept as a
     * fallback, and its transactions are set aside like a reported one's. */
    /* Lost updates come right after the checker's cycle. */
    vec_u32 lu; vec_init(lu);
    lost_update_pairs(&c, &lu);
    size_t lu_next = 0;
    int phase = 0;
    /* a level no rule over cycles characterizes (RULE_GIVEN: pc, rc, ra,
     * cc): the checker's cycle alone, as it is */
    int given = c.rule == RULE_GIVEN;
    /* Under a choice of writers (c.amb), cycles of established edges
     * first: the fact graph's without the arcs resting on an assumed
     * writer (phase -1) before the checker's cycle, when its transactions
     * are still free, then each phase's search without them before the
     * search with them (strict). */
    int strict = c.amb != NULL, checker_later = 0;
    if (c.amb && have && !given && c.has_forced) { phase = -1; have = 0; checker_later = 1; }
    for (int rounds = 0; count < max && rounds < (given ? 1 : 4096) && (rounds == 0 || spent < budget || phase == -1);
         rounds++) {
        int from_checker = have && (rounds == 0 || checker_later);
        int use_facts = 0;
        if (phase == -1 && !have) {
            int e = established_first(&c, excl, cycle, n, spent < budget, &S);
            use_facts = e == 1;
            have = from_checker = e == 2;
            if (e != 1) phase = 0;
        }
        if (!have && !use_facts) {
            if (phase == 0) {
                while (lu_next < lu.len && (excl[lu.data[lu_next]] || excl[lu.data[lu_next + 1]])) lu_next += 2;
                if (lu_next < lu.len) {
                    vec_clear(S); vec_push(S, lu.data[lu_next]); vec_push(S, lu.data[lu_next + 1]);
                    lu_next += 2;
                } else phase = c.has_forced ? 1 : 2;
            }
            if (phase == 1 && strict && !ictx_find_cycle_txns(&c, excl, 1, 1, &S)) strict = 0;
            if (phase == 1 && !strict && !ictx_find_cycle_txns(&c, excl, 1, 0, &S)) { phase = 2; strict = c.amb != NULL; }
            if (phase == 2 && strict && !ictx_find_cycle_txns(&c, excl, 0, 1, &S)) strict = 0;
            if (phase == 2 && !strict && !ictx_find_cycle_txns(&c, excl, 0, 0, &S)) break;
            use_facts = phase == 1;
        }
        have = 0;
        spent += unit;
        int ok = !given && S.len <= 256 && ictx_minimal_cycle(&c, S.data, S.len, use_facts, &mc);
        if (!ok && use_facts && !given) ok = S.len <= 256 && ictx_minimal_cycle(&c, S.data, S.len, 0, &mc);
        if (!ok && from_checker) {          /* keep the checker's cycle as it is */
            vec_clear(mc);
            for (size_t i = 0; i < n; i++) vec_push(mc, cycle[i]);
            ok = cycle_violates_rule(mc.data, mc.len, c.rule);
        }
        if (!ok) { if (phase != 0) for (size_t i = 0; i < S.len; i++) excl[S.data[i]] = 1; continue; }
        explained_clear(&why);
        explain_cycle(&c, &mc, &why);
        uint32_t unforced = NONE;
        for (size_t i = 0; i < mc.len; i++)
            if (why.why.data[i].status == WHY_CHOSEN && unforced == NONE) unforced = mc.data[i].to;
        if (trace) {
            interpret_candidate ca = { (uint32_t)S.len, { NULL, 0, 0 }, unforced };
            vec_init(ca.cycle);
            for (size_t i = 0; i < mc.len; i++) vec_push(ca.cycle, mc.data[i]);
            vec_push(*trace, ca);
        }
        if (unforced != NONE) {
            if (!fb.len) {
                for (size_t i = 0; i < mc.len; i++) vec_push(fb, mc.data[i]);
                fbwhy = why;
                memset(&why, 0, sizeof why);
            }
            for (size_t i = 0; i < S.len; i++) excl[S.data[i]] = 1;
            continue;
        }
        emit(r, &c, level, &mc, &why);
        for (size_t i = 0; i < mc.len; i++) excl[mc.data[i].from] = 1;
        count++;
    }
    if (count == 0 && fb.len) { emit(r, &c, level, &fb, &fbwhy); count = 1; }
    explained_clear(&why); explained_clear(&fbwhy);
    vec_free(why.why); vec_free(why.facts); vec_free(fbwhy.why); vec_free(fbwhy.facts);
    vec_free(mc); vec_free(fb); vec_free(S); vec_free(lu);
    free(excl);
    ictx_free(&c);
    history_spill_again(h);          /* the pages it read back leave again before the next level's graph */
    return count;
}
