/* weak_gen.h — random small histories for test_weak_levels.c, and the
 * oracle's judgement of single commit orders.  Included once, after rnd()
 * and tests/brute_levels.h.
 *
 * An execution: up to 8 transactions in up to 4 sessions over up to 4 keys
 * (registers, lists or both), each committed, aborted or indeterminate
 * (which ran or not); each read shows the writes of the transactions it
 * sees in execution order, then its own.  What a transaction sees: every
 * earlier one (serial), a random set closed under what those saw with its
 * session (causal), a random set (atomic), a random set per read, or, now
 * and then, the write of any transaction (anomalies). */
#ifndef ISOCHECK_TESTS_WEAK_GEN_H
#define ISOCHECK_TESTS_WEAK_GEN_H

enum { WG_T = 8, WG_OPS = 5, WG_K = 4, WG_L = 40 };
enum { WG_SERIAL, WG_CAUSAL, WG_ATOMIC, WG_PER_READ, WG_ANY, WG_MODES };

typedef struct wg_op { int write, key, n; int64_t value, list[WG_L]; } wg_op;
typedef struct wg_txn { int sess, status, ran, nops; wg_op ops[WG_OPS]; } wg_txn;

static void wg_view(const wg_txn *t, int ntx, uint32_t vis, int key, int is_list, wg_op *o) {
    o->value = 0; o->n = 0;
    for (int i = 0; i < ntx; i++) {
        if (!(vis >> i & 1u) || !t[i].ran) continue;
        for (int j = 0; j < t[i].nops; j++) {
            const wg_op *w = &t[i].ops[j];
            if (!w->write || w->key != key) continue;
            if (is_list) { if (o->n < WG_L) o->list[o->n++] = w->value; }
            else o->value = w->value;
        }
    }
}

static uint32_t wg_visible(const wg_txn *t, const uint32_t *seen, int i, int mode) {
    uint32_t before = (1u << i) - 1, vis = before;
    if (mode == WG_SERIAL) return before;
    vis = rnd(1u << i);
    if (mode == WG_CAUSAL) {
        for (int u = 0; u < i; u++) if (t[u].sess == t[i].sess) vis |= 1u << u;
        for (int u = i - 1; u >= 0; u--) if (vis >> u & 1u) vis |= seen[u];
    }
    return vis;
}

static history *weak_random_history(int *mode_out) {
    wg_txn t[WG_T];
    uint32_t seen[WG_T];
    memset(t, 0, sizeof t);
    int mode = (int)rnd(WG_MODES), ntx = 2 + (int)rnd(WG_T - 1), nk = 1 + (int)rnd(WG_K), nsess = 1 + (int)rnd(4);
    int lists = (int)rnd(3), is_list[WG_K];
    for (int k = 0; k < nk; k++) is_list[k] = lists == 2 || (lists == 1 && rnd(2));
    int64_t next = 1;
    for (int i = 0; i < ntx; i++) {
        wg_txn *x = &t[i];
        x->sess = (int)rnd((uint32_t)nsess);
        uint32_t r = rnd(20);
        x->status = r < 16 ? TXN_COMMITTED : r < 18 ? TXN_ABORTED : TXN_INDETERMINATE;
        x->ran = x->status == TXN_COMMITTED || (x->status == TXN_INDETERMINATE && rnd(2));
        x->nops = 1 + (int)rnd(WG_OPS);
        for (int j = 0; j < x->nops; j++) {
            x->ops[j].key = (int)rnd((uint32_t)nk);
            x->ops[j].write = rnd(5) < 2;
            if (x->ops[j].write) x->ops[j].value = next++;
        }
        uint32_t vis = wg_visible(t, seen, i, mode);
        seen[i] = vis;
        for (int j = 0; j < x->nops; j++) {
            wg_op *o = &x->ops[j];
            if (o->write) continue;
            uint32_t v = mode == WG_PER_READ ? rnd(1u << i) : vis;
            wg_view(t, i, v, o->key, is_list[o->key], o);
            for (int q = 0; q < j; q++) {
                const wg_op *w = &x->ops[q];
                if (!w->write || w->key != o->key) continue;
                if (is_list[o->key]) { if (o->n < WG_L) o->list[o->n++] = w->value; }
                else o->value = w->value;
            }
        }
    }
    if (mode == WG_ANY)                 /* some reads of any write, maybe a later or overwritten one */
        for (int i = 0; i < ntx; i++)
            for (int j = 0; j < t[i].nops; j++) {
                wg_op *o = &t[i].ops[j];
                int u = (int)rnd((uint32_t)ntx);
                if (o->write || rnd(4)) continue;
                for (int q = 0; q < t[u].nops; q++)
                    if (t[u].ops[q].write && t[u].ops[q].key == o->key) {
                        if (is_list[o->key]) { o->n = 1; o->list[0] = t[u].ops[q].value; }
                        else o->value = t[u].ops[q].value;
                        if (rnd(2)) break;
                    }
            }
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "weak");
    uint32_t keys[WG_K];
    for (int k = 0; k < nk; k++) keys[k] = hb_key(b, k);
    for (int i = 0; i < ntx; i++) {
        uint32_t bt = hb_txn(b, hb_session(b, t[i].sess, NULL), i + 1, (uint32_t)i + 1);
        hb_txn_status(b, bt, (txn_status)t[i].status);
        for (int j = 0; j < t[i].nops; j++) {
            const wg_op *o = &t[i].ops[j];
            if (o->write) hb_op(b, bt, is_list[o->key] ? OP_APPEND : OP_WRITE, keys[o->key], o->value, (uint32_t)i + 1);
            else if (is_list[o->key]) hb_list_read(b, bt, keys[o->key], o->list, (uint32_t)o->n, (uint32_t)i + 1);
            else hb_op(b, bt, OP_READ, keys[o->key], o->value ? o->value : VALUE_INIT, (uint32_t)i + 1);
        }
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    *mode_out = mode;
    return h;
}

static void weak_dump(const history *h) {
    for (uint32_t t = 1; t < h->num_txns; t++) {
        fprintf(stderr, "  T%u s%u %s:", t, h->txns[t].session,
                h->txns[t].status == TXN_COMMITTED ? "ok" : h->txns[t].status == TXN_ABORTED ? "fail" : "info");
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            unsigned k = h->op_kind[op] & OP_KIND_MASK;
            if (k == OP_LIST_READ) {
                uint32_t n;
                const int64_t *l = history_list(h, op, &n);
                fprintf(stderr, " r(%u,[", h->op_key[op]);
                for (uint32_t i = 0; i < n; i++) fprintf(stderr, i ? " %lld" : "%lld", (long long)l[i]);
                fprintf(stderr, "])");
            } else
                fprintf(stderr, " %s(%u,%lld)", k == OP_READ ? "r" : k == OP_WRITE ? "w" : "a", h->op_key[op],
                        history_op_value(h, op) == VALUE_INIT ? 0LL : (long long)history_op_value(h, op));
        }
        fputc('\n', stderr);
    }
}

/* The oracle on one commit order (history transactions, INIT first, every
 * participant once): the base relation in it, the lists, the axioms. */
static int wg_oracle_order(const bv_hist *b, int level, const uint32_t *order, uint32_t len) {
    int ord[BV_MAX_TXNS];
    uint32_t before[BV_MAX_TXNS], acc = 0;
    assert_int_equal((int)len, b->n);
    for (uint32_t i = 0; i < len; i++) {
        ord[i] = b->idx[order[i]];
        assert_true(ord[i] >= 0);
        before[ord[i]] = acc;
        acc |= 1u << ord[i];
    }
    for (int q = 0; q < b->n; q++) if (b->base_in[BV_BASE_SESSION][q] & ~before[q]) return 0;
    return bv_lists_ok_co(b, ord) && bv_axioms_hold(b, BV_BASE_SESSION, bv_level_axiom[level], ord, before);
}

/* The verifier against the oracle: on the checker's order, on orders one
 * swap away from it and on random orders (INIT first). */
static void weak_orders_vs_oracle(const history *h, int i, const uint32_t *order, uint32_t len) {
    static bv_hist b;
    static const check_level_id ids[3] = { LEVEL_RC, LEVEL_RA, LEVEL_CC };
    static const int bvl[3] = { BV_RC, BV_RA, BV_CC };
    bv_prepare(&b, h, NULL, NULL);
    assert_false(b.too_big || b.anomaly);
    uint32_t o[BV_MAX_TXNS];
    ic_error err;
    assert_true(wg_oracle_order(&b, bvl[i], order, len));
    for (int trial = 0; trial < 6 && len > 2; trial++) {
        memcpy(o, order, len * sizeof *o);
        if (trial < 3) {
            uint32_t a = 1 + rnd(len - 2), t = o[a]; o[a] = o[a + 1]; o[a + 1] = t;
        } else
            for (uint32_t a = len - 1; a > 1; a--) { uint32_t c = 1 + rnd(a), t = o[a]; o[a] = o[c]; o[c] = t; }
        int want = wg_oracle_order(&b, bvl[i], o, len);
        int got = cert_weak_verify(h, ids[i], o, len, &err) == CERT_OK;
        if (got != want) {
            fprintf(stderr, "%s: verifier %d, oracle %d (%s) on order", bv_level_name[bvl[i]], got, want, err.msg);
            for (uint32_t a = 0; a < len; a++) fprintf(stderr, " T%u", o[a]);
            fprintf(stderr, " of:\n");
            weak_dump(h);
        }
        assert_int_equal(got, want);
    }
}

#endif
