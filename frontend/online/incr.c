/* incr.c — the incremental check's life and entry points (contract in
 * frontend/online/incr.h; the state and its invariants: incr_internal.h). */
#include "frontend/online/incr_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void incr_fall_back(incr_check *ic, const char *fmt, const char *arg) {
    if (ic->fallback) return;
    ic->fallback = 1;
    snprintf(ic->why, sizeof ic->why, fmt, arg ? arg : "");
}

incr_check *incr_new(int want_si, int want_ser) {
    incr_check *ic = xcalloc(1, sizeof *ic);
    u64map_init(&ic->by_ext);
    u64map_init(&ic->sess_by_ext);
    int want[2] = { want_si, want_ser };
    for (int l = 0; l < 2; l++) {
        ilevel *L = &ic->lv[l];
        L->on = want[l];
        L->split = l == 0;
        if (!L->on) continue;
        L->s = gsat_new();
        if (!L->s) xalloc_fail(0);
        gsat_set_option(L->s, "phase", 1);       /* variables say "older writer first": start there */
        L->graph = gsat_graph_new(L->s, L->split ? 2 : 1);
        /* many small solves of one growing graph: a pass over every edge per
         * solve would make the stream quadratic (new nodes come last in the
         * order, so their edges mostly go forward anyway) */
        gsat_set_option(L->s, "theory_presort", 0);
        /* keep the assignment across checks: the next solve decides only
         * the new transactions' pairs (solver/warm.c; needs preprocess=0) */
        gsat_set_option(L->s, "keep_trail", 1);
        gsat_set_option(L->s, "preprocess", 0);
        gsat_set_option(L->s, "theory_keep_ends", 0);   /* nothing lists the engine's edges (online10) */
        /* the guarded edges' arrays by tail only: few scans (guard29) */
        gsat_set_option(L->s, "theory_in_arrays", 0);
    }
    om_init(&ic->om, want_si, want_ser);
    om_add_txn(&ic->om);                                  /* INIT */
    itxn init = { 0, NONE, 0, 0, 0, 0, 1, TXN_COMMITTED, 1 };
    vec_push(ic->txns, init);
    incr_set_settled(ic, 0);
    inode n0 = { 0, NONE, 0, NONE, 0 };
    vec_push(ic->nodes, n0);
    ic->reach = reach_new();
    for (int c = 0; c < 32; c++) ic->wsa_free[c] = ic->kwa_free[c] = NONE;
    ic->ops_block = OPS_BLOCK;
    ic->ops_keep = OPS_KEEP;
    return ic;
}

void incr_free(incr_check *ic) {
    if (!ic) return;
    ieng_stop(ic->eng);                               /* before the engines go */
    for (int l = 0; l < 2; l++) if (ic->lv[l].s) gsat_free(ic->lv[l].s);
    if (!ic->om_off) om_free(&ic->om);
    vec_free(ic->mval[0]); vec_free(ic->mval[1]);
    vec_foreach(isess, s, ic->sess) { vec_free(s->members); vec_free(s->order); }
    vec_foreach(opblock, b, ic->blocks) free(b->ops);
    vec_free(ic->blocks); vec_free(ic->wops); vec_free(ic->wide); free(ic->wslots); free(ic->wold); vec_free(ic->kw); vec_free(ic->kwa); vec_free(ic->cand); vec_free(ic->settle_order);
    vec_free(ic->rpool); vec_free(ic->ppool);
    vec_foreach(ikey, k, ic->keys) {
        vec_free(k->by_sess); vec_free(k->top);
    }
    vec_free(ic->wsa);
    vec_free(ic->txns); vec_free(ic->sbits); vec_free(ic->sess); vec_free(ic->nodes); reach_free(ic->reach); vec_free(ic->srcs);
    vec_free(ic->writers); vec_free(ic->keys); vec_free(ic->waiting);
    vec_free(ic->kscr);
    vec_free(ic->reads); vec_free(ic->writes); vec_free(ic->succ); vec_free(ic->front); vec_free(ic->front_tmp); vec_free(ic->used);
    u64map_free(&ic->by_ext); u64map_free(&ic->sess_by_ext);
    free(ic);
}

int incr_failed_level(const incr_check *ic) { return ic->failed_level; }
void incr_set_rescan(incr_check *ic) { ic->rescan = 1; }
int incr_set_engine_thread(incr_check *ic) {
    if (ic->eng || ic->fallback || ic->dropped) return ic->eng != NULL;
    gsat *s[2];
    int graph[2];
    for (int l = 0; l < 2; l++) { s[l] = ic->lv[l].on ? ic->lv[l].s : NULL; graph[l] = ic->lv[l].graph; }
    ic->eng = ieng_start(s, graph);
    return ic->eng != NULL;
}
void incr_set_time_limit(incr_check *ic, double seconds) {
    for (int l = 0; l < 2; l++) if (ic->lv[l].on && ic->lv[l].s) gsat_set_time_limit(ic->lv[l].s, seconds);
}
const char *incr_why(const incr_check *ic) { return ic->why; }
const incr_stats *incr_get_stats(const incr_check *ic) { return &ic->st; }

void incr_add_key(incr_check *ic, int64_t ext_key) {
    if (!ic->fallback) incr_store_key(ic, u64_mix((uint64_t)ext_key), ext_key, 0);
}

uint32_t incr_num_keys(const incr_check *ic) { return (uint32_t)ic->keys.len; }

int incr_written(const incr_check *ic, uint32_t key, int64_t value) {
    if (ic->fallback) return -1;                 /* a store may have stopped half way */
    return incr_writer_op(ic, key, value) != NONE;
}

int incr_add_txn(incr_check *ic, const incr_txn *t) {
    if (ic->fallback) return 0;
    return incr_store_txn(ic, t->ext_id, incr_session_of(ic, t->session), t->status, t->ops, t->num_ops) != NONE;
}

int incr_check_added(incr_check *ic, uint32_t *num_settled, uint32_t *fresh) {
    *fresh = 0;
    *num_settled = ic->settled;
    if (ic->dropped) incr_fall_back(ic, "internal error: a check after the engines were dropped", NULL);
    if (ic->fallback) return INCR_FALLBACK;
    return incr_settle_and_solve(ic, num_settled, fresh);
}

/* Window order: by session, then position in it. */

/* ---- the end of input ------------------------------------------------ */

int incr_drop_engines(incr_check *ic) {
    if (ic->dropped) return 1;
    if (ic->fallback || (!ic->om_off && !om_holds(&ic->om))) return 0;
    /* one bit a variable says what model_before read only if the solver's
     * model assigns every variable (it does after a solve): else keep all */
    for (int l = 0; ic->om_off && l < 2; l++)
        if (ic->lv[l].on)
            for (int v = 1, nv = gsat_num_vars(ic->lv[l].s); v <= nv; v++)
                if (gsat_value(ic->lv[l].s, v) == 0) return 0;
    for (int l = 0; l < 2; l++) {
        ilevel *L = &ic->lv[l];
        if (!L->on) continue;
        int nv = gsat_num_vars(L->s);
        vec_resize(ic->mval[l], (size_t)nv / 8 + 1);
        memset(ic->mval[l].data, 0, ic->mval[l].len);
        for (int v = 1; v <= nv; v++) {
            int val = ic->om_off ? gsat_value(L->s, v) > 0 : ic->om.val[l].data[v] != 0;   /* as model_before read it */
            if (val) ic->mval[l].data[v >> 3] |= (uint8_t)(1u << (v & 7));
        }
    }
    ieng_stop(ic->eng);                               /* idle since the last check: ended before the engines go */
    ic->eng = NULL;
    for (int l = 0; l < 2; l++)
        if (ic->lv[l].s) { gsat_free(ic->lv[l].s); ic->lv[l].s = NULL; }
    if (!ic->om_off) { om_free(&ic->om); ic->om_off = 1; }
    ic->dropped = 1;
    return 1;
}

int incr_complete(const incr_check *ic) {
    return !ic->fallback && !ic->waiting.len && !ic->cand.len && ic->settled + 1 == ic->txns.len;
}

void incr_order_free(incr_order *o) {
    vec_free(o->key_ext); vec_free(o->start); vec_free(o->txn_ext);
}

