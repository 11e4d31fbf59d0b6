/* incr_settle.c — settling the stored transactions (a reader after its
 * writers, a transaction after its committed predecessor), a settled one
 * joining the graph, and the solve when the kept model does not extend
 * (the state and its invariants: incr_internal.h). */
#include "frontend/online/incr_internal.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/checking/depgraph.h"
#include "io/bigmem.h"

/* ---- the history ----------------------------------------------------- */

uint32_t incr_stable_of(const incr_check *ic, const history *h, uint32_t t) {
    return t == 0 ? 0 : u64map_get(&ic->by_ext, (uint64_t)h->txns[t].ext_id);
}

/* The index in h of stable transaction id (NONE if h lacks it). */
uint32_t incr_h_index(incr_check *ic, const history *h, uint32_t id) {
    itxn *x = &ic->txns.data[id];
    uint32_t hs = ic->sess.data[x->sess].hsess;
    if (hs == NONE) return NONE;
    const history_session *s = &h->sessions[hs];
    if (x->hpos < s->num_txns && h->txns[s->first_txn + x->hpos].ext_id == x->ext) return s->first_txn + x->hpos;
    for (uint32_t p = 0; p < s->num_txns; p++)
        if (h->txns[s->first_txn + p].ext_id == x->ext) { x->hpos = p; return s->first_txn + p; }
    return NONE;
}

/* Store transaction t of h (stable session S). */
static uint32_t store_h_txn(incr_check *ic, const history *h, uint32_t t, uint32_t S) {
    const history_txn *x = &h->txns[t];
    VEC(incr_op) ops;
    vec_init(ops);
    for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
        incr_op o = { h->op_kind[op], h->op_key[op], history_op_value(h, op), history_op_line(h, op) };
        vec_push(ops, o);
    }
    uint32_t id = incr_store_txn(ic, x->ext_id, S, x->status, ops.data, x->num_ops);
    vec_free(ops);
    return id;
}

/* Map h's sessions and transactions to stable ids, storing the new ones.
 * 0 (fallback) if h is not a growth of the last history. */
static int map_history(incr_check *ic, const history *h) {
    vec_foreach(isess, s, ic->sess) s->hsess = NONE;
    for (uint32_t hs = 0; hs < h->num_sessions; hs++) {
        const history_session *hx = &h->sessions[hs];
        if (!hx->num_txns) continue;
        uint32_t S = incr_session_of(ic, hx->ext_id);
        isess *s = &ic->sess.data[S];
        if (s->hsess != NONE) { incr_fall_back(ic, "a session appears twice", NULL); return 0; }
        s->hsess = hs;
        uint32_t seen = (uint32_t)s->order.len;
        int append = !ic->rescan && seen <= hx->num_txns &&
                     (seen == 0 || h->txns[hx->first_txn + seen - 1].ext_id == ic->txns.data[s->order.data[seen - 1]].ext);
        if (append) {
            for (uint32_t pos = seen; pos < hx->num_txns; pos++)
                if (store_h_txn(ic, h, hx->first_txn + pos, S) == NONE) return 0;
            continue;
        }
        /* compare every transaction; new ones may come between known ones */
        uint32_t known = 0;
        vec_u32 order;
        vec_init(order);
        for (uint32_t pos = 0; pos < hx->num_txns; pos++) {
            uint32_t t = hx->first_txn + pos;
            uint32_t id = u64map_get(&ic->by_ext, (uint64_t)h->txns[t].ext_id);
            if (id == NONE) {
                id = store_h_txn(ic, h, t, S);
                if (id == NONE) { vec_free(order); return 0; }
                s = &ic->sess.data[S];
                s->order.len--;                       /* placed below, in h's order */
            } else {
                itxn *x = &ic->txns.data[id];
                if (x->sess != S || x->status != h->txns[t].status || x->num_ops != h->txns[t].num_ops) {
                    incr_fall_back(ic, "a transaction id appears twice, or a transaction changed", NULL);
                    vec_free(order);
                    return 0;
                }
                known++;
            }
            ic->txns.data[id].hpos = pos;
            vec_push(order, id);
        }
        s = &ic->sess.data[S];
        if (known != seen) { incr_fall_back(ic, "a completed transaction disappeared", NULL); vec_free(order); return 0; }
        vec_free(s->order);
        s->order = order;
    }
    return 1;
}

/* Every value stable transaction id read has a settled writer.  The write
 * a read finds is kept (op_link): read_ops needs it next, and a waiting
 * reader asks again at every check. */
static int reads_settled(incr_check *ic, uint32_t id) {
    const itxn *x = &ic->txns.data[id];
    iop *ops = incr_txn_ops(ic, x);                       /* not done: kept */
    for (uint32_t i = 0; i < x->num_ops; i++) {
        iop *o = &ops[i];
        if (!op_is_read(o->kind) || o->value == VALUE_INIT) continue;
        uint32_t w = o->link;
        if (w == NONE) {
            w = incr_writer_op(ic, o->key, o->value);
            if (w == NONE) return 0;
            o->link = w;
        }
        uint32_t wt = wop_txn(&ic->wops.data[w]);
        if (wt != id && !incr_is_settled(ic, wt)) return 0;
    }
    return 1;
}

/* The keys of h: same ids as before, new ones get INIT as their writer. */
static int map_keys(incr_check *ic, const history *h) {
    for (uint32_t k = 0; k < h->num_keys; k++) {
        uint64_t ident;
        if (h->key_name[k] != HISTORY_NONE) {
            ident = 0xcbf29ce484222325ULL;                    /* FNV-1a of the name */
            for (const char *p = h->strings + h->key_name[k]; *p; p++) ident = (ident ^ (uint8_t)*p) * 0x100000001b3ULL;
        } else ident = u64_mix((uint64_t)h->key_ext[k]);
        if (k < ic->keys.len) {
            if (ic->keys.data[k].ident != ident) { incr_fall_back(ic, "key ids changed between histories", NULL); return 0; }
            continue;
        }
        incr_store_key(ic, ident, h->key_ext[k], h->key_name[k] != HISTORY_NONE);
    }
    return 1;
}

/* Stable transaction id's external reads (source: stable txn) and final
 * writes, with the register axioms checked on the way (INT, aborted,
 * intermediate and own-future reads); 0 (fallback) if one breaks: the
 * batch check names it.  The state of each key the transaction touches
 * is a scratch record: for a transaction of up to RO_LOCAL operations
 * one on the stack, the record of the key's first operation in it (found
 * by a scan of the earlier operations), else the key's own in kscr, a
 * record a key in an array as large as the keys (a cache miss an
 * operation once the keys outgrow the caches: 3 % of the checking
 * thread's samples at 3-4M transactions of the 10M stream). */
#define RO_LOCAL 16
static int read_ops(incr_check *ic, uint32_t id) {
    const itxn *x = &ic->txns.data[id];
    const int local = x->num_ops <= RO_LOCAL;
    const uint32_t serial = local ? 1 : ++ic->serial;
    ikscr loc[RO_LOCAL];
    vec_clear(ic->reads);
    vec_clear(ic->writes);
    const iop *ops = incr_txn_ops(ic, x);                 /* not done: kept */
    for (uint32_t i = 0; i < x->num_ops; i++) {
        const iop *o = &ops[i];
        uint32_t k = o->key;
        int64_t v = o->value;
        ikscr *S;
        if (local) {
            uint32_t j = 0;
            while (ops[j].key != k) j++;                  /* stops at i at the latest */
            S = &loc[j];
            if (j == i) S->stamp = 0;                     /* the key's first operation: not seen */
        } else S = &ic->kscr.data[k];
        if (S->stamp != serial) { S->stamp = serial; S->flags = 0; }
        if (op_is_write(o->kind)) {
            S->own = v;
            if (!(S->flags & 1)) {
                final_write fw = { k, o->link };
                S->wpos = (uint32_t)ic->writes.len;
                vec_push(ic->writes, fw);
            } else ic->writes.data[S->wpos].op = o->link;   /* written again: its final write moves */
            S->flags |= 1;
            continue;
        }
        if (!op_is_read(o->kind)) continue;
        if (S->flags & 1) {
            if (v != S->own) { incr_fall_back(ic, "internal inconsistency (a read after the own write)", NULL); return 0; }
            continue;
        }
        if (S->flags & 2) {
            if (v != S->ext_val) { incr_fall_back(ic, "internal inconsistency (two reads disagree)", NULL); return 0; }
            continue;
        }
        S->flags |= 2;
        S->ext_val = v;
        uint32_t src = 0, wop = NONE;
        if (v != VALUE_INIT) {
            uint32_t w = o->link;                              /* found by reads_settled */
            if (w == NONE) w = incr_writer_op(ic, k, v);
            if (w == NONE) { incr_fall_back(ic, "a thin-air read among settled transactions", NULL); return 0; }
            uint32_t wt = wop_txn(&ic->wops.data[w]);
            if (wt == id) { incr_fall_back(ic, "a read of the transaction's own later write", NULL); return 0; }
            if (ic->wops.data[w].txn & WOP_OVER) { incr_fall_back(ic, "an intermediate read", NULL); return 0; }
            if (ic->txns.data[wt].status == TXN_ABORTED) { incr_fall_back(ic, "an aborted read", NULL); return 0; }
            src = wt;
            wop = w;
        }
        ext_read r = { k, src, wop };
        vec_push(ic->reads, r);
    }
    return 1;
}

/* Final writes by their entries in wops (add_txn). */
static int by_entry(const void *a, const void *b) {
    uint32_t x = ((const final_write *)a)->op, y = ((const final_write *)b)->op;
    return (x > y) - (x < y);
}

/* Add stable transaction id to the graph (a participant): node, SO and WR
 * edges, reachability summary, then its writes and reads.  An observed
 * indeterminate writer is added first. */
static int add_txn(incr_check *ic, uint32_t id) {
    if (ic->txns.data[id].g != NONE) return 1;
    if (!read_ops(ic, id)) return 0;
    for (size_t i = 0; i < ic->reads.len; i++) {     /* writers first (indeterminate ones now take part) */
        uint32_t src = ic->reads.data[i].src;
        if (src == NONE || !ic->txns.data[src].settled) { incr_fall_back(ic, "a reader settled before its writer", NULL); return 0; }
        if (ic->txns.data[src].g != NONE) continue;
        ext_read_vec keep = ic->reads;                /* the recursion reuses the scratch */
        final_write_vec keepw = ic->writes;
        vec_init(ic->reads); vec_init(ic->writes);
        int ok = add_txn(ic, src);
        vec_free(ic->reads); vec_free(ic->writes);
        ic->reads = keep; ic->writes = keepw;
        if (!ok) return 0;
    }
    if (++ic->since_front >= FRONT_EVERY) incr_refresh_front(ic);
    itxn *x = &ic->txns.data[id];
    isess *s = &ic->sess.data[x->sess];
    uint32_t g = (uint32_t)ic->nodes.len;
    inode n = { id, x->sess, 0, NONE, 0 };
    size_t at = s->members.len;
    while (at > 0 && ic->txns.data[ic->nodes.data[s->members.data[at - 1]].txn].hpos > x->hpos) at--;
    uint32_t prev = at > 0 ? s->members.data[at - 1] : NONE;
    uint32_t next = at < s->members.len ? s->members.data[at] : NONE;
    if (next == NONE) {
        n.ord = (prev == NONE ? 0 : ic->nodes.data[prev].ord) + ORD_GAP;
        n.seq = ++s->seq;
    } else {                                          /* a late transaction: between its neighbours */
        ic->late++;
        uint64_t lo = prev == NONE ? 0 : ic->nodes.data[prev].ord, hi = ic->nodes.data[next].ord;
        if (hi - lo < 2) { incr_fall_back(ic, "too many transactions arrived out of session order", NULL); return 0; }
        n.ord = lo + (hi - lo) / 2;
    }
    big_vec_push(ic->nodes, n);
    vec_push(s->members, 0u);
    memmove(s->members.data + at + 1, s->members.data + at, (s->members.len - 1 - at) * sizeof *s->members.data);
    s->members.data[at] = g;
    x->g = g;
    incr_op_done(ic, id);                                  /* read_ops is behind it */
    ic->st.txns_in_graph++;
    for (int l = 0; l < 2; l++)
        if (ic->lv[l].on) incr_g_nodes(ic, l, ic->lv[l].split ? 2 : 1);
    if (!ic->om_off) om_add_txn(&ic->om);
    /* reachability summary: the ancestors of its in-neighbours, and itself */
    vec_clear(ic->srcs);
    for (size_t i = 0; i < ic->reads.len; i++) vec_push(ic->srcs, ic->txns.data[ic->reads.data[i].src].g);
    if (reach_add_node(ic->reach, n.sess, s->chain, n.seq, prev, ic->srcs.data, ic->srcs.len) != g) {
        incr_fall_back(ic, "internal error: reachability numbering diverged", NULL);
        return 0;
    }
    /* known edges */
    if (ic->lv[0].on) {
        incr_g_edge(ic, 0, (int)dg_start(g), (int)dg_commit(g), 0);
        if (!ic->om_off) om_add_edge(&ic->om, DEP_FIXED, g, g, 0);
    }
    if (prev != NONE) incr_edge(ic, DEP_SO, prev, g, 0);
    if (next != NONE) incr_edge(ic, DEP_SO, g, next, 0);
    for (size_t i = 0; i < ic->reads.len; i++) {
        /* A WR edge from a writer that g's session predecessor already has
         * as an ancestor (or is: the SO edge) is implied by that path and
         * the SO edge, and so is a second one from the same writer (two
         * keys read from it): left out (incr_edge() says why that is exact);
         * four in five WR edges of a clean stream.  Not incr_decided(src, g):
         * g's summary holds src through this very edge. */
        uint32_t src = ic->reads.data[i].src;
        if (src == 0) continue;
        uint32_t sg = ic->txns.data[src].g;
        int implied = prev != NONE && (sg == prev || incr_decided(ic, sg, prev));
        for (size_t j = 0; j < i && j < 64 && !implied; j++) implied = ic->reads.data[j].src == src;
        if (implied) ic->st.implied++;
        else incr_edge(ic, DEP_WR, sg, g, 0);
    }
    /* the writer records in the order of their writes' entries (wop_rec):
     * store_txn indexed them backwards, so reversed they are in order; a
     * key written twice moves its write, and then they are sorted */
    final_write *fw = ic->writes.data;
    size_t nfw = ic->writes.len;
    for (size_t i = 0; i < nfw / 2; i++) { final_write tmp = fw[i]; fw[i] = fw[nfw - 1 - i]; fw[nfw - 1 - i] = tmp; }
    for (size_t i = 1; i < nfw; i++)
        if (fw[i - 1].op > fw[i].op) { qsort(fw, nfw, sizeof *fw, by_entry); break; }
    ic->nodes.data[g].first_rec = (uint32_t)ic->writers.len;
    for (size_t i = 0; i < ic->writes.len; i++) incr_new_writer(ic, ic->writes.data[i].key, g);
    for (size_t i = 0; i < ic->reads.len; i++) {
        uint32_t src = ic->reads.data[i].src, k = ic->reads.data[i].key, op = ic->reads.data[i].op;
        uint32_t w = src == 0 ? ic->keys.data[k].init_w : incr_wop_rec(ic, op);
        if (w == NONE) { incr_fall_back(ic, "a read of a version that is not its writer's last", NULL); return 0; }
        incr_new_reader(ic, k, w, g);
    }
    return 1;
}

/* ---- prefetching the transactions about to join ---------------------- */

/* add_txn's time is mostly first touches of records scattered over arrays
 * that outgrow the caches (a transaction's key records, their session
 * lists and top writers, the writes it read), each a miss the one before
 * it waits for.  So the settled transactions joining in one batch are
 * walked ahead in stages, each stage loading what the previous one
 * prefetched and prefetching the next level: the transaction record
 * PF_TXN ahead, its operations PF_OPS ahead, its keys and the writes it
 * read PF_KEYS ahead, and the keys' lists and the writers' transactions
 * PF_LISTS ahead.  Prefetches only: nothing is written, and an address
 * that is stale by then (a vector grown meanwhile) costs a wasted load. */
#define PF_TXN 16
#define PF_OPS 10
#define PF_KEYS 5
#define PF_LISTS 2
#define PF_CHAIN 1

static inline void pf(const void *p) { __builtin_prefetch(p, 0, 3); }

static void prefetch_ahead(const incr_check *ic, const uint32_t *got, size_t n, size_t i) {
    if (i + PF_TXN < n) pf(&ic->txns.data[got[i + PF_TXN]]);
    if (i + PF_OPS < n) {
        const itxn *x = &ic->txns.data[got[i + PF_OPS]];
        const iop *o = x->done ? NULL : incr_txn_ops(ic, x);
        if (o)
            for (uint32_t b = 0; b < x->num_ops * (uint32_t)sizeof *o; b += 64) pf((const char *)o + b);
    }
    for (int stage = 0; stage < 2; stage++) {
        size_t at = i + (stage ? PF_LISTS : PF_KEYS);
        if (at >= n) continue;
        const itxn *x = &ic->txns.data[got[at]];
        const iop *o = x->done ? NULL : incr_txn_ops(ic, x);
        if (!o || x->num_ops > 64) continue;
        for (uint32_t j = 0; j < x->num_ops; j++) {
            const ikey *K = &ic->keys.data[o[j].key];
            const int rd = op_is_read(o[j].kind) && o[j].link != NONE;
            if (!stage) {
                pf(K);
                pf((const char *)K + sizeof *K - 1);
                if (rd) pf(&ic->wops.data[o[j].link]);
                continue;
            }
            if (K->by_sess.data) pf(K->by_sess.data);
            if (K->top.data) pf(K->top.data);
            if (rd) pf(&ic->txns.data[wop_txn(&ic->wops.data[o[j].link])]);
            else if (op_is_write(o[j].kind) && K->pivot_g != NONE) {
                pf(&ic->nodes.data[K->pivot_g]);
                pf(&ic->writers.data[K->pivot_w]);
            }
        }
    }
    /* a writer's key's pivot, mostly the one candidate of new_writer
     * (decided before the new writer, INV through no other): its readers'
     * chain, whose links new_writer walks for their RW edges (follow50:
     * the pivot's node, its record and the chain's first link were two
     * thirds of new_writer's own samples, each a miss) */
    if (i + PF_CHAIN < n) {
        const itxn *x = &ic->txns.data[got[i + PF_CHAIN]];
        const iop *o = x->done ? NULL : incr_txn_ops(ic, x);
        for (uint32_t j = 0; o && x->num_ops <= 64 && j < x->num_ops; j++) {
            if (!op_is_write(o[j].kind)) continue;
            const ikey *K = &ic->keys.data[o[j].key];
            if (K->pivot_g == NONE) continue;
            uint32_t r = ic->writers.data[K->pivot_w].rhead;
            if (r != NONE) pf(&ic->rpool.data[r]);
        }
    }
}

/* The settle loop's test of a candidate (reads_settled) loads, for each
 * read linked as it was stored, its write's entry in wops for the writer's
 * transaction: a write anywhere in the stream's past, so a miss.  Loaded
 * PF_SETTLE candidates ahead. */
#define PF_SETTLE 8
#define OM_DROP_TXNS 100000     /* a graph this large drops the kept model at the next solve */

static void prefetch_writes_read(const incr_check *ic, uint32_t id) {
    const itxn *x = &ic->txns.data[id];
    const iop *o = x->settled || x->done || x->num_ops > 64 ? NULL : incr_txn_ops(ic, x);
    if (!o) return;
    for (uint32_t j = 0; j < x->num_ops; j++)
        if (op_is_read(o[j].kind) && o[j].link != NONE) pf(&ic->wops.data[o[j].link]);
}

/* The growing arrays the next check fills (and the next batch's store:
 * transactions, writes): the part past each one's length, as much as it
 * grew since the last check and a quarter more, within its capacity, is
 * faulted in by the engines' thread (ieng_populate) while this one solves,
 * reports and takes the next batch; otherwise the pushes stop at each
 * fresh 2 MB page while the kernel clears it (follow50: page faults were
 * about 5 % of the checking thread at 2-3M transactions of the 10M
 * stream, the writer records' and the write index's most).  Only the
 * pages change: no byte, no length, no capacity (an array that grows
 * past its capacity moves as before; the request for its old place then
 * costs at most its pages). */
static void prefault_one(incr_check *ic, int i, void *data, size_t len, size_t cap, size_t elem) {
    size_t grew = len > ic->pf_len[i] ? len - ic->pf_len[i] : 0;
    ic->pf_len[i] = len;
    size_t ahead = grew + grew / 4;
    if (ahead > cap - len) ahead = cap - len;
    if (data && ahead) ieng_populate(ic->eng, (char *)data + len * elem, ahead * elem);
}

static void prefault_next(incr_check *ic) {
#define PREFAULT(i, v) prefault_one(ic, i, (v).data, (v).len, (v).cap, sizeof *(v).data)
    PREFAULT(0, ic->txns); PREFAULT(1, ic->wops); PREFAULT(2, ic->nodes); PREFAULT(3, ic->writers);
    PREFAULT(4, ic->rpool); PREFAULT(5, ic->ppool); PREFAULT(6, ic->wsa); PREFAULT(7, ic->kwa);
    PREFAULT(8, ic->settle_order);
#undef PREFAULT
}

/* Settle the candidates to a fixpoint, add the settled participants to
 * the graphs, and solve if the kept model does not extend. */
int incr_settle_and_solve(incr_check *ic, uint32_t *num_settled, uint32_t *fresh) {
    vec_u32 cand = ic->cand;
    vec_init(ic->cand);
    vec_foreach(uint32_t, w, ic->waiting) vec_push(cand, *w);
    vec_clear(ic->waiting);
    /* settle to a fixpoint: a reader settles after its writers */
    vec_u32 got;
    vec_init(got);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < cand.len; i++) {
            if (i + PF_SETTLE < cand.len) prefetch_writes_read(ic, cand.data[i + PF_SETTLE]);
            uint32_t id = cand.data[i];
            itxn *x = &ic->txns.data[id];
            if (x->settled) continue;
            /* in session order too: a transaction waits for its committed
             * predecessor, so committed transactions join the graph in session
             * order, never late (their reachability summaries then hold every
             * ancestor); aborted and indeterminate ones may never join, and
             * never hold their session up */
            const vec_u32 *order = &ic->sess.data[x->sess].order;
            uint32_t p = x->hpos;
            while (p > 0 && ic->txns.data[order->data[p - 1]].status != TXN_COMMITTED) p--;
            if (p > 0 && !incr_is_settled(ic, order->data[p - 1])) continue;
            if (!reads_settled(ic, id)) continue;
            incr_set_settled(ic, id);
            vec_push(got, id);
            changed = 1;
        }
    }
    vec_foreach(uint32_t, c, cand) if (!incr_is_settled(ic, *c)) vec_push(ic->waiting, *c);
    vec_free(cand);
    ic->settled += (uint32_t)got.len;
    vec_foreach(uint32_t, g, got) big_vec_push(ic->settle_order, *g);
    *num_settled = ic->settled;
    *fresh = (uint32_t)got.len;
    if (got.len) incr_refresh_front(ic);
    for (size_t i = 0; i < got.len && !ic->fallback; i++) {
        prefetch_ahead(ic, got.data, got.len, i);
        uint8_t st = ic->txns.data[got.data[i]].status;
        if (st == TXN_COMMITTED) add_txn(ic, got.data[i]);
        else if (st == TXN_ABORTED) incr_op_done(ic, got.data[i]);      /* never takes part (an indeterminate one may) */
    }
    vec_free(got);
    /* the engines are the caller's again (incr_engine.h) */
    if (ic->eng && !ieng_sync(ic->eng)) incr_fall_back(ic, "internal error: variable numbering diverged", NULL);
    if (!ic->fallback) incr_ops_release(ic);
    if (ic->fallback) return INCR_FALLBACK;
    if (ic->eng && *fresh) prefault_next(ic);
    if (!*fresh) return INCR_PASS;
    if (!ic->om_off && om_holds(&ic->om)) { ic->st.kept_model++; return INCR_PASS; }   /* the old choices extend: no solve */
    for (int l = 1; l >= 0; l--) {                  /* SER (1) first, then SI (0) */
        if (!ic->lv[l].on) continue;
        ic->st.solves++;
        int r = gsat_solve(ic->lv[l].s, NULL, 0);
        if (r == GSAT_UNSAT) { ic->failed_level = l; return INCR_FAIL; }
        if (r != GSAT_SAT) {
            const char *e = gsat_error(ic->lv[l].s);
            incr_fall_back(ic, e ? "the solver failed: %s" : "the solver hit a limit", e);
            return INCR_FALLBACK;
        }
    }
    if (ic->om_off) return INCR_PASS;
    if ((ic->om.resets >= 4 && ic->om.resets > 2 * ic->st.kept_model) || ic->st.txns_in_graph > OM_DROP_TXNS) {
        /* rebuilding it costs a pass over the graph per solve: when the new
         * edges keep contradicting the old choices, drop it and just solve;
         * and in a large graph at the first solve: keeping it costs a
         * second order of every edge, and each rebuild a pass over a graph
         * that only grows, more than the solves it saves (follow46: the 1M
         * stream in file order kept it, answering 10 checks of 14, for
         * 13.2-14.4 s of checking CPU against 10.7-12.1 s without it; the
         * 10M stream 132 of 153, its longest check 4.1 s) */
        om_free(&ic->om);
        ic->om_off = 1;
        return INCR_PASS;
    }
    gsat *models[2] = { ic->lv[0].s, ic->lv[1].s };
    if (!om_reset(&ic->om, models)) { incr_fall_back(ic, "internal error: the solver's model leaves a cycle", NULL); return INCR_FALLBACK; }
    return INCR_PASS;
}

int incr_update(incr_check *ic, const history *h, uint32_t *num_settled, uint32_t *fresh) {
    *fresh = 0;
    *num_settled = ic->settled;
    if (ic->dropped) incr_fall_back(ic, "internal error: a check after the engines were dropped", NULL);
    if (ic->fallback) return INCR_FALLBACK;
    if (h->has_lists) { incr_fall_back(ic, "list-append histories are checked from scratch", NULL); return INCR_FALLBACK; }
    if (!map_keys(ic, h) || !map_history(ic, h)) return INCR_FALLBACK;
    return incr_settle_and_solve(ic, num_settled, fresh);
}
