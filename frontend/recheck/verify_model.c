/* verify_model.c — rebuild the dependency graph of a history under a given
 * version order, by definition, and check it for cycles (see the header):
 * the entry points; the reading of the history is vm_index.c's, the graph
 * and its search vm_graph.c's (vm_internal.h).
 *
 * Independence.  This is the re-check of every answer of the pipeline, so
 * it derives the meaning of every read itself, from the raw operations,
 * and includes nothing of the pipeline: only the history model and the
 * dependency and version-order types (tests/layering.sh, part "recheck").
 * Its graph and cycle search are its own on purpose, not depgraph.h's: a
 * re-check must share no code with what it re-checks. */
#include "frontend/recheck/vm_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long vo_index(const version_order *vo, uint32_t key, uint32_t t) {
    if (key >= vo->num_keys) return -1;
    for (uint32_t i = vo->start[key]; i < vo->start[key + 1]; i++)
        if (vo->txns.data[i] == t) return (long)(i - vo->start[key]);
    return -1;
}

int vm_dep_holds(const vm *m, const dep_edge *e, char *why, size_t wl) {
    const history *h = m->h;
    const version_order *vo = m->vo;
    if (e->from >= h->num_txns || e->to >= h->num_txns) { snprintf(why, wl, "no such transaction"); return 0; }
    if (!m->part[e->from] || !m->part[e->to]) { snprintf(why, wl, "T%u or T%u did not commit", e->from, e->to); return 0; }
    uint32_t s;
    switch (e->kind) {
    case DEP_SO:
        if (e->from != 0 && h->txns[e->from].session == h->txns[e->to].session && h->txns[e->from].pos < h->txns[e->to].pos) return 1;
        snprintf(why, wl, "T%u is not before T%u in one session", e->from, e->to);
        return 0;
    case DEP_WR:
        if (!vm_snapshot(m, e->to, e->key, &s, why, wl)) return 0;
        if (s != UINT32_MAX && vo->txns.data[vo->start[e->key] + s] == e->from) return 1;
        snprintf(why, wl, "T%u does not read key %u from T%u", e->to, e->key, e->from);
        return 0;
    case DEP_WW: {
        long a = vo_index(vo, e->key, e->from), b = vo_index(vo, e->key, e->to);
        if (a >= 0 && b >= 0 && a < b) return 1;
        snprintf(why, wl, "T%u's version of key %u is not before T%u's", e->from, e->key, e->to);
        return 0;
    }
    case DEP_RW: {
        if (!vm_snapshot(m, e->from, e->key, &s, why, wl)) return 0;
        long b = vo_index(vo, e->key, e->to);
        if (e->from != e->to && s != UINT32_MAX && b >= 0 && (long)s < b) return 1;
        snprintf(why, wl, "T%u does not read a version of key %u older than T%u's", e->from, e->key, e->to);
        return 0;
    }
    case DEP_RT: {
        const int64_t *inv = h->times[TIME_INVOKE], *cmp = h->times[TIME_COMPLETE];
        if (e->from != 0 && inv && cmp && h->txns[e->from].status == TXN_COMMITTED && cmp[e->from] != HISTORY_TIME_NONE &&
            inv[e->to] != HISTORY_TIME_NONE && cmp[e->from] < inv[e->to]) return 1;
        snprintf(why, wl, "T%u did not commit and complete before T%u was invoked", e->from, e->to);
        return 0;
    }
    default:
        snprintf(why, wl, "unknown dependency kind");
        return 0;
    }
}

vm_mode vm_mode_of(check_level_id level) {
    level_shape s = level_shape_of(level);
    vm_mode m = { s == SHAPE_SI || s == SHAPE_PC, level_session_order(level), level_real_time(level),
                  s == SHAPE_PC, s == SHAPE_PSI, s == SHAPE_RR };
    return m;
}

/* want[k] for the keys of edges c[0..n) (NULL if a key is out of range). */
static uint8_t *edge_keys(const history *h, const dep_edge *c, size_t n) {
    uint8_t *want = xcalloc(h->num_keys ? h->num_keys : 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (c[i].kind == DEP_SO || c[i].kind == DEP_RT) continue;
        if (c[i].key >= h->num_keys) { free(want); return NULL; }
        want[c[i].key] = 1;
    }
    return want;
}

/* The index of the cycle's keys: their ops are gathered in transaction
 * ranges on pool (NULL: the caller alone), a pass over every op. */
static int cycle_holds_on(const history *h, const version_order *vo, int si, const dep_edge *c, size_t n, char *why,
                          size_t wl, struct par_pool *pool, int prio) {
    if (n == 0) { snprintf(why, wl, "empty cycle"); return 0; }
    vm m;
    memset(&m, 0, sizeof m);
    uint8_t *want = edge_keys(h, c, n);
    int ok = want && vm_build(&m, h, vo, want, pool, prio, NULL, why, wl);
    if (!want) snprintf(why, wl, "no such key");
    for (size_t i = 0; i < n && ok; i++) {
        if (!vm_dep_holds(&m, &c[i], why, wl)) { ok = 0; break; }
        if (c[i].to != c[(i + 1) % n].from) { snprintf(why, wl, "edges %zu and %zu do not meet", i, (i + 1) % n); ok = 0; break; }
        if (si && c[i].kind == DEP_RW && c[(i + 1) % n].kind == DEP_RW) {
            snprintf(why, wl, "two adjacent RW edges (allowed under SI)"); ok = 0; break;
        }
    }
    if (ok && si) {
        size_t rw = 0;
        for (size_t i = 0; i < n; i++) rw += c[i].kind == DEP_RW;
        if (rw == n) { snprintf(why, wl, "only RW edges"); ok = 0; }
    }
    vm_free(&m);
    free(want);
    return ok;
}

int cycle_holds(const history *h, const version_order *vo, int si,
                const dep_edge *c, size_t n, char *why, size_t wl) {
    return cycle_holds_on(h, vo, si, c, n, why, wl, NULL, 0);
}

static int has_edge(const dep_edge_vec *v, const dep_edge *e) {
    vec_foreach(const dep_edge, x, *v)
        if (x->from == e->from && x->to == e->to && x->key == e->key && x->kind == e->kind) return 1;
    return 0;
}

/* rr (Adya's PL-2.99): the cycle's edges hold — as the reads' edges, or
 * as those of a predicate read's view (vm_views.c) — and it is one rr
 * forbids: no predicate anti-dependency, or an item one.  An RW edge is a
 * predicate one when its reader reads the key by predicate only, or when
 * it holds as a view's edge only (the reader's own read of the key is
 * not before the edge's target). */
static int cycle_holds_rr(const history *h, const version_order *vo, const dep_edge *c, size_t n, char *why, size_t wl,
                          struct par_pool *pool, int prio) {
    if (n == 0) { snprintf(why, wl, "empty cycle"); return 0; }
    vm m;
    memset(&m, 0, sizeof m);
    dep_edge_vec views; vec_init(views);
    uint8_t *want = edge_keys(h, c, n);
    int ok = want && vm_build(&m, h, vo, want, pool, prio, NULL, why, wl) && vm_view_edges(&m, want, NULL, &views, why, wl);
    if (!want) snprintf(why, wl, "no such key");
    size_t prw = 0, item = 0;
    for (size_t i = 0; i < n && ok; i++) {
        int plain = vm_dep_holds(&m, &c[i], why, wl), view = !plain && has_edge(&views, &c[i]);
        if (!plain && !view) { ok = 0; break; }
        if (c[i].to != c[(i + 1) % n].from) { snprintf(why, wl, "edges %zu and %zu do not meet", i, (i + 1) % n); ok = 0; break; }
        if (c[i].kind != DEP_RW) continue;
        if (view || vm_pred_only(h, c[i].from, c[i].key)) prw++;
        else item++;
    }
    if (ok && prw && !item) { snprintf(why, wl, "only predicate anti-dependencies among its RW edges (allowed under rr)"); ok = 0; }
    vm_free(&m);
    vec_free(views);
    free(want);
    return ok;
}

/* Whether the cycle's shape is one the level forbids (the edges are
 * checked by cycle_holds). */
static int level_forbids(const history *h, check_level_id level, const dep_edge *c, size_t n, char *why, size_t wl) {
    level_shape s = level_shape_of(level);
    size_t rw = 0;
    for (size_t i = 0; i < n; i++) {
        dep_kind k = (dep_kind)c[i].kind, prev = (dep_kind)c[(i + n - 1) % n].kind;
        rw += k == DEP_RW;
        if (k == DEP_SO && !level_session_order(level)) { snprintf(why, wl, "an SO edge (no session order at %s)", level_name(level)); return 0; }
        if (k == DEP_RT && !level_real_time(level)) { snprintf(why, wl, "an RT edge (no real time at %s)", level_name(level)); return 0; }
        if (k == DEP_FIXED || k > DEP_RT) { snprintf(why, wl, "an edge of kind %d", (int)k); return 0; }
        if (s == SHAPE_PC && k == DEP_RW && (prev == DEP_RW || prev == DEP_WW)) {
            snprintf(why, wl, "an RW edge right after a %s edge (allowed under pc)", prev == DEP_RW ? "RW" : "WW"); return 0;
        }
    }
    if (s == SHAPE_PSI && rw > 1) { snprintf(why, wl, "%zu RW edges (allowed under psi)", rw); return 0; }
    (void)h;
    return 1;                                    /* rr: cycle_holds_rr tells the kinds of its RW edges */
}

int cycle_holds_level_on(const history *h, const version_order *vo, check_level_id level, const dep_edge *c, size_t n,
                         char *why, size_t wl, struct par_pool *pool, int prio) {
    if ((unsigned)level >= LEVEL_COUNT || level_shape_of(level) < SHAPE_PC) { snprintf(why, wl, "not a searched level"); return 0; }
    if (n && !level_forbids(h, level, c, n, why, wl)) return 0;
    if (level_shape_of(level) == SHAPE_RR) return cycle_holds_rr(h, vo, c, n, why, wl, pool, prio);
    return cycle_holds_on(h, vo, level_shape_of(level) == SHAPE_SI, c, n, why, wl, pool, prio);
}

int cycle_holds_level(const history *h, const version_order *vo, check_level_id level,
                      const dep_edge *c, size_t n, char *why, size_t wl) {
    return cycle_holds_level_on(h, vo, level, c, n, why, wl, NULL, 0);
}

/* rr: the views of kind (b) under every other choice of theirs (vm_views_other;
 * at most VM_VIEW_TRIES in all, in mixed radix), until one passes: 1, else 0. */
#define VM_VIEW_TRIES 256
static int other_views_pass(const vm *m, const vec_u32 *n, vreads *r, const uint8_t *part, struct par_pool *pool, int prio) {
    uint32_t *pick = xcalloc(n->len + 1, sizeof *pick);
    int pass = 0;
    char why[300];
    for (int tries = 0; tries < VM_VIEW_TRIES && !pass; tries++) {
        vec_clear(r->views);
        if (vm_view_edges(m, NULL, pick, &r->views, why, sizeof why))
            pass = vm_graph_check(m->h, m->vo, vm_mode_of(LEVEL_RR), part, r, NULL, 0, NULL, pool, prio, NULL, why, sizeof why) == 1;
        size_t i = 0;                              /* the next choice: pick + 1 */
        while (i < n->len && ++pick[i] >= n->data[i]) pick[i++] = 0;
        if (i == n->len) break;                    /* every one tried */
    }
    free(pick);
    return pass;
}

int vo_check_level_on(const history *h, const version_order *vo, check_level_id level, dep_edge_vec *cycle,
                      char *why, size_t wl, struct par_pool *pool, int prio) {
    return vo_check_level_ranked_on(h, vo, level, NULL, 0, NULL, cycle, why, wl, pool, prio);
}

int vo_check_level_ranked_on(const history *h, const version_order *vo, check_level_id level, const uint32_t *rank,
                             size_t nrank, int *by_rank, dep_edge_vec *cycle, char *why, size_t wl,
                             struct par_pool *pool, int prio) {
    if (by_rank) *by_rank = 0;
    vm m;
    vreads r; memset(&r, 0, sizeof r);
    vec_u32 other; vec_init(other);
    int rr = (unsigned)level < LEVEL_COUNT && vm_mode_of(level).rr;
    int ok = vm_build(&m, h, vo, NULL, pool, prio, &r, why, wl);    /* index and replay, key by key */
    if (ok && rr) ok = vm_view_edges(&m, NULL, NULL, &r.views, why, wl);
    if (!ok || !rr || !vm_views_other(&m, &other)) {   /* the rest of the index goes before the graph comes */
        uint8_t *part = m.part; m.part = NULL;
        vm_free(&m);
        m.part = part;
    }
    int rc = ok ? vm_graph_check(h, vo, vm_mode_of(level), m.part, &r, rank, nrank, by_rank, pool, prio, cycle, why, wl) : -1;
    if (rc == 0 && other.len && other_views_pass(&m, &other, &r, m.part, pool, prio)) {   /* kind (b): another view */
        rc = 1;
        if (cycle) vec_clear(*cycle);
    }
    vreads_free(&r);
    vm_free(&m);
    vec_free(other);
    return rc;
}

void vo_check_levels_on(const history *h, const version_order *vo, const check_level_id *levels, size_t n, int *out,
                        struct par_pool *pool, int prio) {
    vm m;
    vreads r; memset(&r, 0, sizeof r);
    char why[300];
    int ok = vm_build(&m, h, vo, NULL, pool, prio, &r, why, sizeof why), views = 1;
    for (size_t i = 0; i < n && ok; i++)           /* rr's views, for the rr levels only (vg_emit_views) */
        if ((unsigned)levels[i] < LEVEL_COUNT && vm_mode_of(levels[i]).rr && !r.views.len && views)
            views = vm_view_edges(&m, NULL, NULL, &r.views, why, sizeof why);
    uint8_t *part = m.part; m.part = NULL;
    vm_free(&m);
    for (size_t i = 0; i < n; i++) {
        int valid = (unsigned)levels[i] < LEVEL_COUNT && level_shape_of(levels[i]) >= SHAPE_PC;
        if (valid && vm_mode_of(levels[i]).rr && !views) valid = 0;
        out[i] = ok && valid ? vm_graph_check(h, vo, vm_mode_of(levels[i]), part, &r, NULL, 0, NULL, pool, prio, NULL, why, sizeof why) : -1;
    }
    vreads_free(&r);
    free(part);
}

int vo_check(const history *h, const version_order *vo, int si,
             dep_edge_vec *cycle, char *why, size_t wl) {
    return vo_check_on(h, vo, si, cycle, why, wl, NULL, 0);
}

int vo_check_on(const history *h, const version_order *vo, int si, dep_edge_vec *cycle, char *why, size_t wl,
                struct par_pool *pool, int prio) {
    return vo_check_level_on(h, vo, si ? LEVEL_SI : LEVEL_SER, cycle, why, wl, pool, prio);
}
