/* incr_writes.c — the stored transactions: their operations in blocks,
 * each successful write indexed (incr_windex.c), the keys and sessions
 * (the state and its invariants: incr_internal.h). */
#include "frontend/online/incr_internal.h"

#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

/* ---- the stored operations (iop) ------------------------------------- */

/* The block holding operation number op (some block does). */
static opblock *op_block(const incr_check *ic, uint32_t op) {
    size_t lo = 0, hi = ic->blocks.len;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ic->blocks.data[mid].start <= op) lo = mid;
        else hi = mid;
    }
    return &ic->blocks.data[lo];
}

/* Transaction x's operations, NULL once they are freed (x done, its block
 * released). */
iop *incr_txn_ops(const incr_check *ic, const itxn *x) {
    if (!x->num_ops) return NULL;
    const opblock *b = op_block(ic, x->first_op);
    return b->ops ? b->ops + (x->first_op - b->start) : NULL;
}

/* Room for n operations numbered from ic->nops, in the last block (a new
 * one when they do not fit: a transaction's operations are in one block). */
static iop *ops_reserve(incr_check *ic, uint32_t n) {
    opblock *b = ic->blocks.len ? &vec_last(ic->blocks) : NULL;
    if (!b || b->cap - b->len < n) {
        opblock nb = { NULL, ic->nops, 0, n > ic->ops_block ? n : ic->ops_block, 0, 0 };
        nb.ops = xmalloc((size_t)nb.cap * sizeof *nb.ops);
        vec_push(ic->blocks, nb);
        b = &vec_last(ic->blocks);
    }
    iop *o = b->ops + b->len;
    b->len += n;
    b->pending++;
    ic->nops += n;
    return o;
}

/* Stable transaction id's operations are needed no more by settling or
 * the graph (it took part, or it is aborted and settled). */
void incr_op_done(incr_check *ic, uint32_t id) {
    itxn *x = &ic->txns.data[id];
    if (x->done || id == 0) return;
    x->done = 1;
    if (!x->num_ops) return;
    opblock *b = op_block(ic, x->first_op);
    b->pending--;
    b->last_settle = (uint32_t)ic->settle_order.len;
}

/* Free the blocks whose transactions are all done and not among the last
 * ops_keep to settle (the last block still fills). */
void incr_ops_release(incr_check *ic) {
    for (size_t i = 0; i + 1 < ic->blocks.len; i++) {
        opblock *b = &ic->blocks.data[i];
        if (b->ops && !b->pending && ic->settle_order.len - b->last_settle >= ic->ops_keep) {
            free(b->ops);
            b->ops = NULL;
            ic->st.op_blocks_freed++;
        }
    }
}

void incr_set_ops_limits(incr_check *ic, uint32_t block_ops, uint32_t keep_txns) {
    ic->ops_block = block_ops ? block_ops : 1;
    ic->ops_keep = keep_txns;
    if (ic->blocks.len) {                             /* the next transaction starts a block of the new size */
        opblock *b = &vec_last(ic->blocks);
        b->cap = b->len;
    }
}

/* A new key (the next id), named by its integer ident. */
void incr_store_key(incr_check *ic, uint64_t ident, int64_t ext, int named) {
    ikey n;
    memset(&n, 0, sizeof n);
    n.ident = ident;
    n.ext = ext;
    n.named = named;
    n.pivot_g = NONE;
    big_vec_push(ic->keys, n);
    uint32_t k = (uint32_t)ic->keys.len - 1;
    ic->keys.data[k].init_w = incr_new_writer_rec(ic, 0);
    incr_index_key(ic);
    ikscr z = { 0, 0, 0, 0, 0, 0 };
    big_vec_push(ic->kscr, z);
}

/* The stable session with this id (created on first use). */
uint32_t incr_session_of(incr_check *ic, int64_t ext) {
    uint32_t S = u64map_get(&ic->sess_by_ext, (uint64_t)ext);
    if (S != NONE) return S;
    isess n;
    memset(&n, 0, sizeof n);
    n.ext = ext;
    n.hsess = NONE;
    n.chain = reach_new_chain(ic->reach);
    vec_push(ic->sess, n);
    S = (uint32_t)ic->sess.len - 1;
    u64map_put(&ic->sess_by_ext, (uint64_t)ext, S);
    return S;
}

/* Store a completed transaction of session S (its operations, with
 * OP_OVERWRITTEN recomputed, and its writes indexed) at the end of the
 * session; it becomes a candidate.  NONE (fallback) on a reused id, a list
 * operation, or a value written twice. */
uint32_t incr_store_txn(incr_check *ic, int64_t ext, uint32_t S, uint8_t status, const incr_op *ops, uint32_t n) {
    uint32_t id = (uint32_t)ic->txns.len;
    if (u64map_put(&ic->by_ext, (uint64_t)ext, id) != id) {     /* one probe: put keeps a present id */
        incr_fall_back(ic, "a transaction id appears twice, or a transaction changed", NULL);
        return NONE;
    }
    isess *s = &ic->sess.data[S];
    itxn x = { ext, S, (uint32_t)s->order.len, NONE, ic->nops, n, 0, status, 0 };
    if ((uint64_t)ic->nops + n > UINT32_MAX - 1 || id >= WOP_WIDE) { incr_fall_back(ic, "too many transactions or operations", NULL); return NONE; }
    big_vec_push(ic->txns, x);
    vec_push(s->order, id);
    vec_push(ic->cand, id);
    uint32_t serial = ++ic->serial;
    for (uint32_t i = n; i-- > 0;) {                 /* backwards: a write is overwritten by a later one */
        unsigned k = ops[i].kind & OP_KIND_MASK;
        if (k != OP_READ && k != OP_WRITE) { incr_fall_back(ic, "list-append histories are checked from scratch", NULL); return NONE; }
        if (ops[i].key >= ic->keys.len) { incr_fall_back(ic, "internal error: an unknown key", NULL); return NONE; }
    }
    iop *o = n ? ops_reserve(ic, n) : NULL;
    for (uint32_t i = 0; i < n; i++) {
        iop y = { ops[i].value, ops[i].key, ops[i].line, NONE, (uint8_t)(ops[i].kind & (unsigned)~OP_OVERWRITTEN) };
        /* a read of its key's latest write (most are, now; fewer by the
         * time the batch settles, when later writes came): found now, in
         * the key's record */
        if (op_is_read(y.kind) && y.value != VALUE_INIT) y.link = incr_latest_write(ic, y.key, y.value);
        o[i] = y;
    }
    for (uint32_t i = n; i-- > 0;) {
        if (!op_is_write(o[i].kind)) continue;
        ikw *K = &ic->kw.data[o[i].key];           /* (its record is the index's next) */
        if (K->stamp == serial) o[i].kind |= OP_OVERWRITTEN;
        K->stamp = serial;
    }
    /* the final writes' entries first, the overwritten ones after them:
     * a final write's record is then its transaction's first plus its
     * distance from the first entry (wop_rec) */
    for (int over = 0; over <= 1; over++)
        for (uint32_t i = n; i-- > 0;) {
            if (!op_is_write(o[i].kind) || !(o[i].kind & OP_OVERWRITTEN) != !over) continue;
            o[i].link = incr_index_write(ic, o[i].key, o[i].value, id, over);
            if (o[i].link == NONE) { incr_fall_back(ic, "a value written twice to one key", NULL); return NONE; }
        }
    return id;
}
