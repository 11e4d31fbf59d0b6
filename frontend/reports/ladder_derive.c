/* ladder_derive.c — a level's FAIL from a weaker level's (contract in
 * ladder_derive.h). */
#include "frontend/reports/ladder_derive.h"
#include "frontend/checking/weak.h"
#include "frontend/recheck/verify_model.h"
#include "frontend/reports/classify.h"
#include "frontend/reports/ladder.h"
#include "frontend/reports/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per key, INIT then every participant writer in transaction order. */
static void vo_by_transaction(const history *h, const uint8_t *part, version_order *vo) {
    vo->num_keys = h->num_keys;
    vo->start = xcalloc((size_t)h->num_keys + 1, sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        uint32_t last = HISTORY_NONE;
        vec_push(vo->txns, 0);
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t t = history_op_txn(h, h->key_writes[i]);
            if (t == 0 || t == last || !part[t]) continue;
            last = t;
            vec_push(vo->txns, t);
        }
        vo->start[k + 1] = (uint32_t)vo->txns.len;
    }
}

static long position(const version_order *vo, uint32_t k, uint32_t t) {
    for (uint32_t i = vo->start[k]; i < vo->start[k + 1]; i++)
        if (vo->txns.data[i] == t) return (long)(i - vo->start[k]);
    return -1;
}

/* Move writers so that every WW edge of the cycle goes forward in its key's
 * order (a later writer moved right before the one it must precede); 0
 * when the edges cannot all hold (a writer missing, or a cycle among one
 * key's edges). */
static int ww_forward(version_order *vo, const dep_edge *c, size_t n) {
    for (size_t round = 0; round <= n; round++) {
        int moved = 0;
        for (size_t i = 0; i < n; i++) {
            if (c[i].kind != DEP_WW) continue;
            uint32_t k = c[i].key;
            if (k >= vo->num_keys) return 0;
            long a = position(vo, k, c[i].from), b = position(vo, k, c[i].to);
            if (a < 0 || b <= 0) return 0;          /* nothing goes before INIT */
            if (a < b) continue;
            uint32_t *v = vo->txns.data + vo->start[k], t = v[a];
            memmove(v + b + 1, v + b, (size_t)(a - b) * sizeof *v);
            v[b] = t;
            moved = 1;
        }
        if (!moved) return 1;
    }
    return 0;
}

/* A premise edge t2 -> t1 of rc, ra or cc (t3 read key x from t1 while t2,
 * a writer of x, was visible to it) as a dependency cycle of its own: t2's
 * visibility to t3 (a read, the session, or a causal path of SO and WR
 * edges), then t3 -RW x-> t2, which holds under every version order that
 * puts t1 before t2 (always when t1 is INIT). */
static void premise_cycle(const history *h, const weak_result *w, const weak_edge *e, dep_edge_vec *out) {
    vec_clear(*out);
    uint32_t t2 = e->from, t3 = e->reader;
    if (e->via == WV_CAUSAL) {
        for (uint32_t i = e->path_first; i < e->path_first + e->path_len; i++) {
            const weak_edge *p = &w->paths.data[i];
            dep_edge d = { p->from, p->to, p->key, (uint8_t)(p->basis == WB_SO ? DEP_SO : DEP_WR) };
            vec_push(*out, d);
        }
    } else if (e->via == WV_SESSION) {
        dep_edge d = { t2, t3, HISTORY_NONE, DEP_SO };
        vec_push(*out, d);
    } else if (e->vis_op != HISTORY_NONE) {
        dep_edge d = { t2, t3, h->op_key[e->vis_op], DEP_WR };
        vec_push(*out, d);
    }
    dep_edge rw = { t3, t2, e->key, DEP_RW };
    vec_push(*out, rw);
}

/* The base version order for a weak level's cycle (ladder_derive.h). */
static void base_vo(const history *h, const uint8_t *part, const version_order *base, version_order *vo) {
    if (base && base->start && base->num_keys == h->num_keys) version_order_copy(vo, base);
    else vo_by_transaction(h, part, vo);
}

/* A weak level's cycle at level: the cycle itself when its WW edges can
 * all go forward in one version order, else the first premise edge's own
 * cycle (premise_cycle) that holds.  1 with *cycle and *vo set. */
static int weak_cycle_at(const history *h, const uint8_t *part, check_level_id level, const check_result *weaker,
                         const version_order *base, dep_edge_vec *cycle, version_order *vo) {
    char why[300] = "";
    base_vo(h, part, base, vo);
    if (ww_forward(vo, weaker->cycle.data, weaker->cycle.len) &&
        cycle_holds_level(h, vo, level, weaker->cycle.data, weaker->cycle.len, why, sizeof why)) {
        for (size_t i = 0; i < weaker->cycle.len; i++) vec_push(*cycle, weaker->cycle.data[i]);
        return 1;
    }
    version_order_free(vo);
    if (!weaker->weak) return 0;
    vec_foreach(const weak_edge, e, weaker->weak->cycle) {
        if (e->basis != WB_PREMISE) continue;
        premise_cycle(h, weaker->weak, e, cycle);
        dep_edge first = { e->to, e->from, e->key, DEP_WW };      /* t1's version before t2's */
        base_vo(h, part, base, vo);
        if (ww_forward(vo, &first, 1) && cycle_holds_level(h, vo, level, cycle->data, cycle->len, why, sizeof why))
            return 1;
        version_order_free(vo);
    }
    vec_clear(*cycle);
    return 0;
}

int ladder_derive_fail(const history *h, const uint8_t *part, check_level_id level, const check_result *weaker,
                       const version_order *base, check_result *res) {
    if (weaker->verdict != VERDICT_FAIL || !weaker->cycle.len || weaker->chosen || level == weaker->level ||
        level_shape_of(level) < SHAPE_PC || !level_implies(level, weaker->level))
        return 0;
    version_order vo;
    memset(&vo, 0, sizeof vo);
    dep_edge_vec cycle;
    vec_init(cycle);
    char why[300] = "";
    int ok;
    if (weaker->weak || !weaker->vo.start) {
        ok = weak_cycle_at(h, part, level, weaker, base, &cycle, &vo);
    } else {
        version_order_copy(&vo, &weaker->vo);
        for (size_t i = 0; i < weaker->cycle.len; i++) vec_push(cycle, weaker->cycle.data[i]);
        ok = cycle_holds_level(h, &vo, level, cycle.data, cycle.len, why, sizeof why);
        if (!ok) version_order_free(&vo);
    }
    if (!ok) { vec_free(cycle); return 0; }
    memset(res, 0, sizeof *res);
    res->verdict = VERDICT_FAIL;
    res->level = level;
    res->stage = "implied";
    res->vo = vo;
    res->cycle = cycle;
    vec_init(res->forced);
    for (size_t i = 0; i < weaker->forced.len; i++) vec_push(res->forced, weaker->forced.data[i]);
    snprintf(res->msg, sizeof res->msg, "fails: implied by %s's FAIL (%s implies %s; %s's cycle re-checked at %s)",
             level_name(weaker->level), level_name(level), level_name(weaker->level), level_name(weaker->level),
             level_name(level));
    return 1;
}

size_t ladder_derive_report(report *r, const check_result *res) {
    const dep_edge *c = res->cycle.data;
    size_t n = res->cycle.len;
    cycle_class cl = classify_cycle_rule(c, n, level_cycle_rule(res->level));
    int chosen = 0;
    for (size_t i = 0; i < n; i++) chosen |= c[i].kind == DEP_WW || c[i].kind == DEP_RW;
    report_anomaly *a = report_add(r, chosen ? AN_CYCLE : cl.kind, (int)res->level);
    a->chosen = (uint8_t)chosen;
    a->shape = cl.kind;
    snprintf(chosen ? a->shape_adya : a->adya, sizeof a->adya, "%s", cl.adya);
    for (size_t i = 0; i < n; i++) {
        vec_push(a->edges, c[i]);
        int seen = c[i].from == 0;
        for (size_t j = 0; j < a->txns.len; j++) seen |= a->txns.data[j] == c[i].from;
        if (!seen) vec_push(a->txns, c[i].from);
    }
    a->num_cycle_txns = (uint32_t)a->txns.len;
    report_describe_cycle(r->h, a, level_cycle_rule(res->level) == RULE_NO_ADJ_RW);
    return 1;
}

static void copy_why(edge_why *dst, const edge_why *src) {
    *dst = *src;
    vec_init(dst->alt);
    vec_init(dst->basis);
    for (size_t i = 0; i < src->alt.len; i++) vec_push(dst->alt, src->alt.data[i]);
    for (size_t i = 0; i < src->basis.len; i++) vec_push(dst->basis, src->basis.data[i]);
}

/* A forced fact's proof is the cycle the other order would close: it must
 * be one this level forbids too, or the fact is not forced here. */
static int forced_here(const edge_why *w, cycle_rule rule) {
    return w->status != WHY_FORCED || classify_cycle_rule(w->alt.data, w->alt.len, rule).violates;
}

int ladder_derive_adopt(report *r, check_level_id level, const report_anomaly *a, const version_order *vo) {
    if (!a || a->chosen || !a->edges.len || !vo || !vo->start) return 0;
    cycle_rule rule = level_cycle_rule(level);
    for (size_t i = 0; i < a->why.len; i++) if (!forced_here(&a->why.data[i], rule)) return 0;
    for (size_t i = 0; i < a->facts.len; i++) if (!forced_here(&a->facts.data[i].why, rule)) return 0;
    cycle_class cl = classify_cycle_rule(a->edges.data, a->edges.len, rule);
    char why[300];
    if (!cl.violates || !cycle_holds_level(r->h, vo, level, a->edges.data, a->edges.len, why, sizeof why)) return 0;
    size_t keep = 0;                                /* drop the level's own (the re-checked cycle, unexplained) */
    for (size_t i = 0; i < r->items.len; i++) {
        if (r->items.data[i].level == (int)level) report_anomaly_free(&r->items.data[i]);
        else r->items.data[keep++] = r->items.data[i];
    }
    r->items.len = keep;
    report_anomaly *b = report_add(r, cl.kind, (int)level);
    snprintf(b->adya, sizeof b->adya, "%s", cl.adya);
    b->breaks = a->breaks;
    b->num_cycle_txns = a->num_cycle_txns;
    b->shape = a->shape;
    snprintf(b->shape_adya, sizeof b->shape_adya, "%s", a->shape_adya);
    for (size_t i = 0; i < a->txns.len; i++) vec_push(b->txns, a->txns.data[i]);
    for (size_t i = 0; i < a->ops.len; i++) vec_push(b->ops, a->ops.data[i]);
    for (size_t i = 0; i < a->edges.len; i++) vec_push(b->edges, a->edges.data[i]);
    for (size_t i = 0; i < a->why.len; i++) {
        edge_why w;
        copy_why(&w, &a->why.data[i]);
        vec_push(b->why, w);
    }
    for (size_t i = 0; i < a->facts.len; i++) {
        report_fact f = a->facts.data[i];
        copy_why(&f.why, &a->facts.data[i].why);
        vec_push(b->facts, f);
    }
    if (cl.kind == a->kind && a->detail) {
        size_t n = strlen(a->detail) + 1;
        b->detail = xmalloc(n);
        memcpy(b->detail, a->detail, n);
    } else report_describe_cycle(r->h, b, level_cycle_rule(level) == RULE_NO_ADJ_RW);
    return 1;
}
