/* weak_index.c — the history read once for a weak-level check
 * (weak_internal.h): each participant's external reads with the
 * transaction whose version each read, the keys each participant writes,
 * each key's writers, session predecessors, and the list order L.
 *
 * A read is external when it shows the transaction's snapshot: a register
 * read before the transaction's own write of the key, every list read (its
 * external prefix: the list without the transaction's own appends so far).
 * Reads the axioms stage rejects (thin-air, aborted, future, intermediate;
 * list reads that disagree) make wk_index_build return 0: the level is
 * then not decided here.  Linear in the history (list reads: in their
 * lengths), plus a sort of each transaction's written keys. */
#include "frontend/checking/weak_internal.h"
#include "frontend/history/predicate.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int wk_writes(const wk *w, uint32_t t, uint32_t key) {
    uint32_t lo = w->wk_start[t], hi = w->wk_start[t + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (w->wk_key[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo < w->wk_start[t + 1] && w->wk_key[lo] == key;
}

typedef struct scan {
    uint32_t *stamp, *own_app;   /* per key, for the current transaction (stamp: txn + 1) */
    uint8_t *own_w;
    int64_t *own_v;              /* per key: the current transaction's last write */
    uint32_t *lp_op, *lp_len;    /* per list key: the longest external prefix read */
    vec_u32 reads, srcs, keys;
} scan;

/* The source transaction of external read op (m own appends before it),
 * or HISTORY_NONE with w->why set. */
static uint32_t read_source(wk *w, uint32_t t, uint32_t op, uint32_t m) {
    const history *h = w->h;
    uint32_t so = history_snapshot_source(h, op, m);
    const char *bad = NULL;
    if (so == HISTORY_NONE) bad = "a read of a value nobody wrote";
    else if (history_op_txn(h, so) == t) bad = "a read of the transaction's own later write";
    else if (!w->part[history_op_txn(h, so)]) bad = "a read of a non-participant's write (aborted)";
    else if (history_op_overwritten(h, so)) bad = "a read of an overwritten (intermediate) write";
    if (!bad) return history_op_txn(h, so);
    char wb[128];
    snprintf(w->why, sizeof w->why, "%s at %s", bad, history_op_where(h, op, wb, sizeof wb));
    return HISTORY_NONE;
}

static int broken(wk *w, const char *what, uint32_t op) {
    char wb[128];
    snprintf(w->why, sizeof w->why, "%s at %s", what, history_op_where(w->h, op, wb, sizeof wb));
    return 0;
}

/* List read op of t after m own appends to its key: it ends with those
 * appends, and every element before them was appended by another
 * participant. */
static int list_shape(wk *w, uint32_t t, uint32_t op, uint32_t m) {
    const history *h = w->h;
    uint32_t n, key = h->op_key[op];
    const int64_t *l = history_list(h, op, &n);
    if (m > n) return broken(w, "a list read that misses its own appends", op);
    uint32_t i = n;
    for (uint32_t o = op; o-- > h->txns[t].first_op && i > n - m;)
        if (h->op_key[o] == key && history_op_kind(h, o) == OP_APPEND && !history_op_failed(h, o) && l[--i] != history_op_value(h, o))
            return broken(w, "a list read that does not end with its own appends", op);
    for (i = 0; i < n - m;) {                  /* whole appends of other participants */
        uint32_t a = history_writer_of(h, key, l[i]);
        if (a == HISTORY_NONE || history_op_txn(h, a) == t || !w->part[history_op_txn(h, a)])
            return broken(w, "a list read with an element no other participant appended", op);
        const history_txn *u = &h->txns[history_op_txn(h, a)];
        for (uint32_t o = u->first_op; o < u->first_op + u->num_ops; o++) {
            if (h->op_key[o] != key || history_op_kind(h, o) != OP_APPEND || history_op_failed(h, o)) continue;
            if (i >= n - m || l[i] != history_op_value(h, o))
                return broken(w, "a list read that shows part of a transaction's appends", op);
            i++;
        }
    }
    return 1;
}

/* Predicate reads (predicate.h): a lowered op stands at its predicate
 * read's place in the transaction, also when it was added after the
 * transaction's last op (preds_op_rank), and rc's premise asks which reads
 * came earlier: each transaction's reads sorted by that place (stable),
 * w->rank their places. */
static void rank_reads(wk *w) {
    const history *h = w->h;
    uint32_t total = w->rd_start[w->n];
    w->rank = xmalloc(((size_t)total + 1) * sizeof *w->rank);
    for (uint32_t t = 0; t < w->n; t++)
        for (uint32_t i = w->rd_start[t]; i < w->rd_start[t + 1]; i++) {       /* insertion sort: short */
            wk_read x = w->rd[i];
            uint32_t r = preds_op_rank(h, x.op), j = i;
            for (; j > w->rd_start[t] && w->rank[j - 1] > r; j--) { w->rd[j] = w->rd[j - 1]; w->rank[j] = w->rank[j - 1]; }
            w->rd[j] = x;
            w->rank[j] = r;
        }
}

/* One participant's ops: its external reads and written keys. */
static int scan_txn(wk *w, scan *s, uint32_t t) {
    const history *h = w->h;
    const history_txn *tx = &h->txns[t];
    size_t k0 = s->keys.len;
    for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
        uint32_t ahead = op + HISTORY_PREFETCH_AHEAD, half = op + HISTORY_PREFETCH_AHEAD / 2;
        if (ahead < h->num_ops && history_op_kind(h, ahead) == OP_READ) history_writer_prefetch_slot(h, h->op_key[ahead], history_op_value(h, ahead));
        if (half < h->num_ops && history_op_kind(h, half) == OP_READ) history_writer_prefetch_op(h, h->op_key[half], history_op_value(h, half));
        if (history_op_failed(h, op)) continue;
        uint32_t key = h->op_key[op];
        if (s->stamp[key] != t + 1) { s->stamp[key] = t + 1; s->own_app[key] = 0; s->own_w[key] = 0; }
        op_kind k = history_op_kind(h, op);
        if (k == OP_WRITE || k == OP_APPEND) {
            if (!s->own_w[key] && !s->own_app[key]) vec_push(s->keys, key);
            if (k == OP_WRITE) s->own_w[key] = 1; else s->own_app[key]++;
            s->own_v[key] = history_op_value(h, op);
            continue;
        }
        if (k == OP_READ && s->own_w[key]) {                       /* reads its own write */
            if (history_op_value(h, op) != s->own_v[key]) return broken(w, "a read that misses its own last write", op);
            continue;
        }
        uint32_t m = k == OP_LIST_READ ? s->own_app[key] : 0;
        if (k == OP_LIST_READ && !list_shape(w, t, op, m)) return 0;
        uint32_t src = read_source(w, t, op, m);
        if (src == HISTORY_NONE) return 0;
        vec_push(s->reads, op);
        vec_push(s->srcs, src);
        if (k == OP_LIST_READ) {
            uint32_t n;
            history_list(h, op, &n);
            if (s->lp_op[key] == HISTORY_NONE || n - m > s->lp_len[key]) { s->lp_op[key] = op; s->lp_len[key] = n - m; }
        }
    }
    size_t nk = s->keys.len - k0;
    if (nk > 1) qsort(s->keys.data + k0, nk, sizeof *s->keys.data, cmp_u32);
    return 1;
}

/* External prefix length of list read op of t (its own appends before it discounted). */
static uint32_t prefix_len(const history *h, uint32_t op) {
    uint32_t n, t = history_op_txn(h, op), key = h->op_key[op], own = 0;
    history_list(h, op, &n);
    for (uint32_t o = h->txns[t].first_op; o < op; o++)
        own += h->op_key[o] == key && history_op_kind(h, o) == OP_APPEND && !history_op_failed(h, o);
    return n - own;
}

/* Keys whose list reads disagree (a read's external prefix is not a prefix
 * of the longest one; the axioms stage reports these): bad[key] = 1. */
static void lists_agree(const wk *w, const scan *s, uint8_t *bad) {
    const history *h = w->h;
    for (uint32_t i = 0; i < s->reads.len; i++) {
        uint32_t op = s->reads.data[i], key = h->op_key[op];
        if (history_op_kind(h, op) != OP_LIST_READ || op == s->lp_op[key] || bad[key]) continue;
        uint32_t n, ln, m = prefix_len(h, op);
        const int64_t *l = history_list(h, op, &n), *L = history_list(h, s->lp_op[key], &ln);
        if (memcmp(l, L, (size_t)m * sizeof *l)) bad[key] = 1;
    }
}

static void key_writers(wk *w) {
    const history *h = w->h;
    w->kw_start = xmalloc(((size_t)h->num_keys + 1) * sizeof *w->kw_start);
    vec_u32 out; vec_init(out);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        w->kw_start[k] = (uint32_t)out.len;
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t t = history_op_txn(h, h->key_writes[i]);
            if (t == 0 || !w->part[t] || (out.len > w->kw_start[k] && vec_last(out) == t)) continue;
            vec_push(out, t);
        }
    }
    w->kw_start[h->num_keys] = (uint32_t)out.len;
    w->kw_txn = out.data;
}

static void session_links(wk *w) {
    const history *h = w->h;
    w->prev_so = xmalloc((size_t)w->n * sizeof *w->prev_so);
    w->prev_so[0] = HISTORY_NONE;
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = HISTORY_NONE;
        for (uint32_t t = h->sessions[s].first_txn; t < h->sessions[s].first_txn + h->sessions[s].num_txns; t++) {
            w->prev_so[t] = HISTORY_NONE;
            if (!w->part[t]) continue;
            w->prev_so[t] = prev;
            prev = t;
        }
    }
}

/* L for list read op with external prefix l[0 .. len): each writer it
 * shows before the next, every other writer of the key after the last
 * (mark: per transaction, stamped with `stamp`). */
static void list_read_order(wk *w, uint32_t op, uint32_t len, uint32_t *mark, uint32_t stamp) {
    const history *h = w->h;
    uint32_t n, last = 0, key = h->op_key[op];
    const int64_t *l = history_list(h, op, &n);
    for (uint32_t i = 0; i < len; i++) {
        uint32_t t = history_op_txn(h, history_writer_of(h, key, l[i]));   /* list_shape checked every element */
        if (t == last) continue;
        if (last) wk_push_extra(w, last, t, op, HISTORY_NONE, WB_LIST, WV_NONE);
        mark[t] = stamp;
        last = t;
    }
    for (uint32_t i = w->kw_start[key]; i < w->kw_start[key + 1]; i++)
        if (mark[w->kw_txn[i]] != stamp && last != 0) wk_push_extra(w, last, w->kw_txn[i], op, HISTORY_NONE, WB_LIST, WV_NONE);
}

/* The list order L.  When a key's reads agree (each external prefix is a
 * prefix of the longest), the longest one's order implies every other's:
 * it alone is added.  When they disagree, every read's order is added (a
 * cycle follows: doc/levels.md, L). */
static void list_order(wk *w, const scan *s) {
    const history *h = w->h;
    uint32_t *mark = xcalloc(w->n, sizeof *mark), stamp = 0;
    uint8_t *bad = xcalloc(h->num_keys ? h->num_keys : 1, 1);
    lists_agree(w, s, bad);
    for (uint32_t key = 0; key < h->num_keys; key++)
        if (s->lp_op[key] != HISTORY_NONE && !bad[key] && s->lp_len[key]) list_read_order(w, s->lp_op[key], s->lp_len[key], mark, ++stamp);
    for (uint32_t i = 0; i < s->reads.len; i++) {
        uint32_t op = s->reads.data[i];
        if (history_op_kind(h, op) == OP_LIST_READ && bad[h->op_key[op]]) list_read_order(w, op, prefix_len(h, op), mark, ++stamp);
    }
    free(mark);
    free(bad);
}

int wk_index_build(wk *w) {
    const history *h = w->h;
    w->n = h->num_txns;
    vec_init(w->extra);
    w->init_edge = -1;
    scan s;
    memset(&s, 0, sizeof s);
    size_t nk = h->num_keys ? h->num_keys : 1;
    s.stamp = xcalloc(nk, sizeof *s.stamp);
    s.own_app = xcalloc(nk, sizeof *s.own_app);
    s.own_w = xcalloc(nk, 1);
    s.own_v = xcalloc(nk, sizeof *s.own_v);
    s.lp_op = xmalloc(nk * sizeof *s.lp_op);
    s.lp_len = xcalloc(nk, sizeof *s.lp_len);
    memset(s.lp_op, 0xff, nk * sizeof *s.lp_op);
    w->rd_start = xmalloc(((size_t)w->n + 1) * sizeof *w->rd_start);
    w->wk_start = xmalloc(((size_t)w->n + 1) * sizeof *w->wk_start);
    int ok = 1;
    for (uint32_t t = 0; t < w->n; t++) {
        w->rd_start[t] = (uint32_t)s.reads.len;
        w->wk_start[t] = (uint32_t)s.keys.len;
        if (ok && t && w->part[t]) ok = scan_txn(w, &s, t);
    }
    w->rd_start[w->n] = (uint32_t)s.reads.len;
    w->wk_start[w->n] = (uint32_t)s.keys.len;
    w->rd = xmalloc((s.reads.len ? s.reads.len : 1) * sizeof *w->rd);
    for (size_t i = 0; i < s.reads.len; i++) { w->rd[i].op = s.reads.data[i]; w->rd[i].src = s.srcs.data[i]; }
    if (h->op_pred) rank_reads(w);
    w->wk_key = s.keys.data;
    key_writers(w);
    session_links(w);
    if (ok && h->has_lists) list_order(w, &s);
    vec_free(s.reads); vec_free(s.srcs);
    free(s.stamp); free(s.own_app); free(s.own_w); free(s.own_v); free(s.lp_op); free(s.lp_len);
    return ok;
}

void wk_index_free(wk *w) {
    free(w->rd_start); free(w->rd); free(w->rank);
    free(w->wk_start); free(w->wk_key);
    free(w->kw_start); free(w->kw_txn);
    free(w->prev_so);
    vec_free(w->extra);
}
