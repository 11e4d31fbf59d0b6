/* weak_level.c — check_level() for rc, ra and cc (check.h): weak_check()
 * on the index's history and participants (with ambiguous reads of
 * repeated values: on the history under a choice, weak_choice.c), its answer as a check_result
 * (stage "saturation"; FAIL: the cycle as dependency edges; PASS: the
 * version order the commit order induces).  Debug builds re-check every
 * PASS's commit order with the independent cert_weak_verify()
 * (frontend/recheck/certificate.h); a commit order it rejects makes the
 * level UNKNOWN. */
#include "frontend/checking/check.h"
#include "frontend/checking/weak.h"
#include "frontend/recheck/certificate.h"

#include <stdlib.h>
#include <string.h>

#include "monotonic.h"
#include "par.h"

int check_level_is_weak(check_level_id l) {
    level_shape s = level_shape_of(l);
    return s == SHAPE_WEAK_RC || s == SHAPE_WEAK_RA || s == SHAPE_WEAK_CC;
}

/* Per key, its participant writers in commit order (INIT first). */
static void vo_from_commit_order(const history *h, const weak_result *w, version_order *vo) {
    vo->num_keys = h->num_keys;
    vo->start = xcalloc((size_t)h->num_keys + 1, sizeof *vo->start);
    vec_init(vo->txns);
    uint32_t *stamp = xcalloc(h->num_keys ? h->num_keys : 1, sizeof *stamp);
    for (int pass = 0; pass < 2; pass++) {
        uint32_t *fill = NULL;
        if (pass) {
            for (uint32_t k = 0; k < h->num_keys; k++) vo->start[k + 1] += vo->start[k];
            vec_resize(vo->txns, vo->start[h->num_keys]);
            fill = xmalloc(((size_t)h->num_keys + 1) * sizeof *fill);
            memcpy(fill, vo->start, ((size_t)h->num_keys + 1) * sizeof *fill);
            memset(stamp, 0, (h->num_keys ? h->num_keys : 1) * sizeof *stamp);
        }
        for (uint32_t i = 0; i < w->order_len; i++) {
            uint32_t t = w->order[i];
            for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
                uint32_t k = h->op_key[op];
                if (!history_op_is_write(h, op) || stamp[k] == i + 1) continue;
                stamp[k] = i + 1;
                if (pass) vo->txns.data[fill[k]++] = t; else vo->start[k + 1]++;
            }
        }
        free(fill);
    }
    free(stamp);
}

/* w (allocated, filled) as the check_result of its level. */
static verdict weak_as_result(const history *h, weak_result *w, double seconds, check_result *res) {
    memset(res, 0, sizeof *res);
    res->level = w->level;
    vec_init(res->cycle);
    res->weak = w;
    res->stage = "saturation";
    res->st.t_graph = seconds;
    res->st.nodes = w->participants;
    res->st.known_edges_final = w->edges;
    snprintf(res->msg, sizeof res->msg, "%s", w->msg);
    verdict v = w->verdict;
    if (v == VERDICT_FAIL) weak_cycle_deps(w, &res->cycle);
    if (v == VERDICT_PASS) {
        vo_from_commit_order(h, w, &res->vo);
#ifdef GSAT_DEBUG
        double t0 = monotonic_seconds();
        ic_error err;
        if (cert_weak_verify(h, (int)w->level, w->order, w->order_len, &err) != CERT_OK) {
            snprintf(res->msg, sizeof res->msg, "internal error: the commit order does not verify: %.400s", err.msg);
            v = VERDICT_UNKNOWN;
        }
        res->st.t_verify = monotonic_seconds() - t0;
#endif
    }
    return res->verdict = v;
}

verdict check_weak_on(const history *h, const uint8_t *part, check_level_id level, const check_options *opt,
                      check_result *res) {
    double t0 = monotonic_seconds();
    weak_result *w = xcalloc(1, sizeof *w);
    par_pool *own = opt && opt->pool ? NULL : par_pool_new(opt ? opt->threads : 1);
    weak_check_levels(h, part, &level, 1, opt && opt->pool ? opt->pool : own, w);
    par_pool_free(own);
    return weak_as_result(h, w, monotonic_seconds() - t0, res);
}

void check_weak_levels(const pg_index *ix, const check_level_id *levels, size_t n, const check_options *opt,
                       check_result *res) {
    if (ix->h->num_amb) {                        /* ambiguous reads: each level chooses (weak_choice.c) */
        for (size_t i = 0; i < n; i++) {
            memset(&res[i], 0, sizeof res[i]);
            res[i].level = levels[i];
            vec_init(res[i].cycle);
            check_weak_choice(ix, levels[i], opt, &res[i]);
        }
        return;
    }
    double t0 = monotonic_seconds();
    weak_result *w = xcalloc(n ? n : 1, sizeof *w);
    par_pool *own = opt && opt->pool ? NULL : par_pool_new(opt ? opt->threads : 1);
    weak_check_levels(ix->h, ix->in_graph, levels, n, opt && opt->pool ? opt->pool : own, w);
    par_pool_free(own);
    double each = (monotonic_seconds() - t0) / (double)(n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        weak_result *one = xmalloc(sizeof *one);
        *one = w[i];
        weak_as_result(ix->h, one, each, &res[i]);
    }
    free(w);
}

verdict check_weak_level(const pg_index *ix, check_level_id level, const check_options *opt, check_result *res) {
    check_weak_levels(ix, &level, 1, opt, res);
    return res->verdict;
}
