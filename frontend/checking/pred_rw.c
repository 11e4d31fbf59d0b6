/* pred_rw.c — the transactions that read a key by predicate only
 * (contract in pred_rw.h). */
#include "frontend/checking/pred_rw.h"

#include <stdlib.h>

#include "vec.h"
#include "frontend/history/predicate.h"

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether some predicate read has an rr view of a key (predicate.h). */
static int has_views(const history *h) {
    if (!h->preds) return 0;
    for (size_t i = 0; i < h->preds->facts.len; i++)
        if (pred_fact_is_view(&h->preds->facts.data[i])) return 1;
    return 0;
}

pred_rw *pred_rw_build(const history *h) {
    int views = has_views(h);
    if ((!h->op_pred && !views) || !h->num_keys) return NULL;
    /* per key, for the transaction at hand: 1 written, 2 item-read, 4 predicate-read, 8 listed */
    uint8_t *seen = xcalloc(h->num_keys, 1);
    vec_u32 touched; vec_init(touched);
    VEC(uint64_t) out; vec_init(out);
    VEC(uint64_t) rmw; vec_init(rmw);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *tx = &h->txns[t];
        for (uint32_t o = tx->first_op; o < tx->first_op + tx->num_ops; o++) {
            uint32_t k = h->op_key[o];
            if (k >= h->num_keys) continue;
            if (!seen[k]) { vec_push(touched, k); seen[k] = 8; }   /* 8: listed */
            if (history_op_is_write(h, o)) { seen[k] |= 1; continue; }
            if (!history_op_is_read(h, o) || (seen[k] & 1)) continue;
            uint32_t tag = history_op_pred(h, o);
            seen[k] |= (tag != PRED_TAG_NONE && !pred_tag_returned(tag)) ? 4 : 2;
        }
        for (size_t i = 0; i < touched.len; i++) {
            uint32_t k = touched.data[i];
            if ((seen[k] & 6) == 4) vec_push(out, (uint64_t)t << 32 | k);
            if ((seen[k] & 3) == 3) vec_push(rmw, (uint64_t)t << 32 | k);
            seen[k] = 0;
        }
        vec_clear(touched);
    }
    free(seen);
    vec_free(touched);
    if (!out.len && !views) { vec_free(out); vec_free(rmw); return NULL; }
    if (out.len) qsort(out.data, out.len, sizeof *out.data, cmp_u64);   /* already sorted by t; keys not */
    if (rmw.len) qsort(rmw.data, rmw.len, sizeof *rmw.data, cmp_u64);
    pred_rw *p = xmalloc(sizeof *p);
    p->pairs = out.data;
    p->n = out.len;
    p->rmw = rmw.data;
    p->nrmw = rmw.len;
    return p;
}

static int has_pair(const uint64_t *a, size_t n, uint32_t t, uint32_t key) {
    uint64_t x = (uint64_t)t << 32 | key;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && a[lo] == x;
}

int pred_rw_has(const pred_rw *p, uint32_t t, uint32_t key) { return p && has_pair(p->pairs, p->n, t, key); }
int pred_rw_rmw(const pred_rw *p, uint32_t t, uint32_t key) { return p && has_pair(p->rmw, p->nrmw, t, key); }

void pred_rw_free(pred_rw *p) {
    if (!p) return;
    free(p->pairs);
    free(p->rmw);
    free(p);
}

int pred_rw_reads_by_predicate(const history *h, uint32_t t, uint32_t key) {
    if (!h->op_pred || t == 0 || t >= h->num_txns) return 0;
    const history_txn *tx = &h->txns[t];
    int pred = 0;
    for (uint32_t o = tx->first_op; o < tx->first_op + tx->num_ops; o++) {
        if (h->op_key[o] != key) continue;
        if (history_op_is_write(h, o)) break;
        if (!history_op_is_read(h, o)) continue;
        uint32_t tag = history_op_pred(h, o);
        if (tag == PRED_TAG_NONE || pred_tag_returned(tag)) return 0;
        pred = 1;
    }
    return pred;
}
