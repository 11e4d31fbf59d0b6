/* incr_witness.c — what the incremental state says back: the version
 * order of the last model (for the independent re-check), its export by
 * external ids at the end of input, and a witness window of the last
 * transactions to settle (the state and its invariants: incr_internal.h). */
#include "frontend/online/incr_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatal.h"

static const incr_check *win_ic;
static int by_session_pos(const void *a, const void *b) {
    const itxn *x = &win_ic->txns.data[*(const uint32_t *)a], *y = &win_ic->txns.data[*(const uint32_t *)b];
    if (x->sess != y->sess) return x->sess < y->sess ? -1 : 1;
    return x->hpos < y->hpos ? -1 : x->hpos > y->hpos;
}

history *incr_window_history(const incr_check *ic, uint32_t last, const char *source, uint32_t *num_txns, ic_error *err) {
    *num_txns = 0;
    vec_foreach(const ikey, k, ic->keys) if (k->named) return NULL;
    size_t from = last >= ic->settle_order.len ? 0 : ic->settle_order.len - last;
    vec_u32 win;
    vec_init(win);
    uint8_t *in = xcalloc(ic->txns.len, 1);
    for (size_t i = from; i < ic->settle_order.len; i++) {
        uint32_t id = ic->settle_order.data[i];
        if (ic->txns.data[id].status != TXN_COMMITTED) continue;      /* participants only */
        if (ic->txns.data[id].num_ops && !incr_txn_ops(ic, &ic->txns.data[id])) {   /* freed (OPS_KEEP): no witness */
            free(in);
            vec_free(win);
            return NULL;
        }
        in[id] = 1;
        vec_push(win, id);
    }
    win_ic = ic;
    if (win.len) qsort(win.data, win.len, sizeof *win.data, by_session_pos);
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, source);
    uint32_t *key_id = xmalloc((ic->keys.len ? ic->keys.len : 1) * sizeof *key_id);
    for (size_t k = 0; k < ic->keys.len; k++) key_id[k] = HISTORY_NONE;
    for (size_t i = 0; i < win.len; i++) {
        const itxn *x = &ic->txns.data[win.data[i]];
        uint32_t kept = 0, t = HISTORY_NONE;
        const iop *ops = incr_txn_ops(ic, x);
        for (uint32_t op = 0; op < x->num_ops; op++) {
            const iop *o = &ops[op];
            if (op_is_read(o->kind) && o->value != VALUE_INIT) {
                uint32_t w = incr_writer_op(ic, o->key, o->value);
                if (w == NONE || !in[wop_txn(&ic->wops.data[w])]) continue;      /* its writer is outside: the read goes */
            }
            if (t == HISTORY_NONE) {
                uint32_t s = hb_session(b, ic->sess.data[x->sess].ext, NULL);
                t = hb_txn(b, s, x->ext, ops[0].line);
            }
            if (key_id[o->key] == HISTORY_NONE) key_id[o->key] = hb_key(b, ic->keys.data[o->key].ext);
            hb_op(b, t, o->kind & (unsigned)~OP_OVERWRITTEN, key_id[o->key], o->value, o->line);
            kept++;
        }
        *num_txns += kept > 0;
    }
    free(key_id);
    free(in);
    vec_free(win);
    return hb_finish(b, err);
}

uint8_t *incr_settled_flags(const incr_check *ic, const history *h) {
    uint8_t *f = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    if (h->num_txns) f[0] = 1;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        uint32_t id = incr_stable_of(ic, h, t);
        f[t] = id != NONE && ic->txns.data[id].settled;
    }
    return f;
}


/* ---- the witness ----------------------------------------------------- */

/* Writer a of a key before writer b in the last model (the pair is decided
 * or has a variable: see new_writer). */
static int model_before(const incr_check *ic, int level, uint32_t a, uint32_t b) {
    uint32_t ga = ic->writers.data[a].g, gb = ic->writers.data[b].g;
    if (incr_decided(ic, ga, gb)) return 1;
    if (incr_decided(ic, gb, ga)) return 0;
    for (uint32_t i = ic->writers.data[a].phead; i != NONE; i = ic->ppool.data[i].next)
        if (ic->ppool.data[i].other == b) {
            const int lit = incr_pair_lit(ic, i), v = lit < 0 ? -lit : lit;
            if (ic->dropped) return ((ic->mval[level].data[v >> 3] >> (v & 7)) & 1) == (lit > 0);
            if (ic->om_off) return gsat_value(ic->lv[level].s, lit) > 0;     /* the last solve's model */
            return (ic->om.val[level].data[v] != 0) == (lit > 0);
        }
    return -1;
}

typedef VEC(uint64_t) vec_u64;
static int by_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Key K's writers (ids, INIT left out) in the order of level's last model,
 * into ws.  model_before is that order (a strict total order: the model's
 * graph is acyclic, and decided pairs are its paths), so any sort by it is
 * right; the cost is in the comparisons, each a cache miss or two.  Start
 * from node order, which a decided pair e < d follows when no transaction
 * came late (d joined after its ancestors), then sort by insertion: n - 1
 * comparisons plus one per pair the model puts against node order, where
 * comparing every pair (the first form) cost n(n-1)/2: 245M at 1M
 * transactions.  0 if a pair has neither a decision nor a variable (cannot
 * happen: new_writer gives each pair one).  Debug builds compare every
 * pair with the result.  Whatever comes out is re-checked independently
 * (vo_check) before anyone calls it a witness. */
static int key_order(const incr_check *ic, int level, const ikey *K, vec_u32 *ws, vec_u64 *tmp) {
    vec_clear(*ws);
    vec_clear(*tmp);
    vec_foreach(const ikey_sess, ks, K->by_sess)
        for (size_t j = 0; j < ks->n; j++) {
            uint32_t w = ks_list(ic, ks)[j].w;
            vec_push(*tmp, (uint64_t)ic->writers.data[w].g << 32 | w);
        }
    if (tmp->len > 1) qsort(tmp->data, tmp->len, sizeof *tmp->data, by_u64);
    vec_resize(*ws, tmp->len);
    uint32_t *a = ws->data;
    for (size_t i = 0; i < tmp->len; i++) {
        uint32_t x = (uint32_t)tmp->data[i];
        size_t j = i;
        for (; j > 0; j--) {
            int b = model_before(ic, level, a[j - 1], x);
            if (b < 0) return 0;
            if (b) break;
            a[j] = a[j - 1];
        }
        a[j] = x;
    }
#ifndef NDEBUG
    for (size_t i = 0; i < ws->len; i++)
        for (size_t j = i + 1; j < ws->len; j++)
            if (model_before(ic, level, a[i], a[j]) != 1)
                internal_error("isocheck", "a key's order disagrees with the model");
#endif
    return 1;
}

int incr_version_order(const incr_check *ic, const history *h, int level, version_order *vo) {
    const ilevel *L = &ic->lv[level];
    if (!L->on || ic->fallback || (!ic->om_off && !om_holds(&ic->om))) return 0;
    version_order_free(vo);
    vo->num_keys = h->num_keys;
    vo->start = xmalloc(((size_t)h->num_keys + 1) * sizeof *vo->start);
    vec_init(vo->txns);
    vec_u32 ws;
    vec_init(ws);
    vec_u64 tmp;
    vec_init(tmp);
    int ok = h->num_keys <= ic->keys.len;
    for (uint32_t k = 0; k < h->num_keys && ok; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        vec_push(vo->txns, 0u);                               /* INIT */
        ok = key_order(ic, level, &ic->keys.data[k], &ws, &tmp);
        for (size_t i = 0; i < ws.len && ok; i++) {
            uint32_t t = incr_h_index((incr_check *)ic, h, ic->nodes.data[ic->writers.data[ws.data[i]].g].txn);
            if (t == NONE) ok = 0;
            else vec_push(vo->txns, t);
        }
    }
    vo->start[h->num_keys] = (uint32_t)vo->txns.len;
    vec_free(ws);
    vec_free(tmp);
    return ok;
}


int incr_export_order(const incr_check *ic, int level, incr_order *out) {
    memset(out, 0, sizeof *out);
    if (!ic->lv[level].on || !incr_complete(ic) || (!ic->om_off && !om_holds(&ic->om))) return 0;
    /* each key's writers in the model's order (key_order); the final
     * report re-checks the result (vo_check) before it says PASS */
    vec_u32 ws;
    vec_init(ws);
    vec_u64 tmp;
    vec_init(tmp);
    int ok = 1;
    for (size_t k = 0; k < ic->keys.len && ok; k++) {
        const ikey *K = &ic->keys.data[k];
        if (!K->by_sess.len) continue;
        if (K->named) { ok = 0; break; }
        if (!(ok = key_order(ic, level, K, &ws, &tmp))) break;
        if (!ws.len) continue;
        vec_push(out->key_ext, K->ext);
        vec_push(out->start, (uint32_t)out->txn_ext.len);
        for (size_t i = 0; i < ws.len; i++)
            vec_push(out->txn_ext, ic->txns.data[ic->nodes.data[ic->writers.data[ws.data[i]].g].txn].ext);
    }
    vec_push(out->start, (uint32_t)out->txn_ext.len);
    vec_free(ws);
    vec_free(tmp);
    if (!ok) incr_order_free(out);
    return ok;
}
