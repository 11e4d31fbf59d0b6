/* index_chains.c — the parts of a pg_index that depend on the level's
 * base relation (pg_index_opts): the reachability chains of the levels
 * without session order, and the real-time clock of the levels with real
 * time.  known_graph.c calls pg_index_chains() last, on the finished base
 * edges.
 *
 * Chains without session order.  Reachability (reach.c) and the hot-key
 * scan (constraints.c) need every chain to be a path of the known graph;
 * sessions are no longer paths when SO is not in the base relation.  So
 * the chains become paths of WR edges: in a topological order of the WR
 * edges among participants (Kahn), a transaction continues the chain of
 * one of the writers it read from whose chain it would extend (that writer
 * is its chain's last transaction so far), else it starts a chain of its
 * own; transactions left on WR cycles get chains of their own (the level
 * fails on the cycle anyway).  Consecutive transactions of a chain are
 * joined by a WR edge a -> b, which on the split graph is commit(a) ->
 * start(b): the path start(a) commit(a) start(b) commit(b) the positions
 * 2p, 2p + 1 of pg_node_pos expect.
 *
 * The clock (doc/checker.md, "Real time").  a RT b iff a is committed,
 * complete(a) < invoke(b) (both known).  Sorting the committed
 * participants by completion, a_0 .. a_{m-1} (ties by index), the index
 * adds m tick node transactions x_0 .. x_{m-1} and the RT edges
 * a_j -> x_j, x_j -> x_{j+1}, and x_{j(b)} -> b for every participant b
 * with an invocation time, j(b) the last j with complete(a_j) < invoke(b).
 * A tick has no operations: it reads and writes nothing, and takes part
 * like a committed transaction (its fixed edge too).  The ticks form one
 * more chain (the last one), a path by construction.  Between
 * transactions, a path through ticks a -> x_j -> ... -> x_k -> b exists
 * iff j <= k = j(b), i.e. complete(a) <= complete(a_{j(b)}) < invoke(b):
 * exactly a RT b, with 3m edges instead of up to m^2. */
#include "frontend/checking/polygraph.h"

#include <stdlib.h>
#include <string.h>

/* A chain a transaction may join: chain c while its last transaction is
 * still `tail`, an ancestor of the transaction (or no offer: c ==
 * UINT32_MAX). */
typedef struct offer { uint32_t c, tail; } offer;

static inline int offer_ok(const offer *o, const vec_u32 *tail) {
    return o->c != UINT32_MAX && tail->data[o->c] == o->tail;
}

/* Offer o to a transaction holding slots s[0], s[1]: kept in a slot whose
 * offer no longer holds, unless a slot offers its chain already. */
static void offer_to(offer *s, offer o, const vec_u32 *tail) {
    if (!offer_ok(&o, tail)) return;
    for (int i = 0; i < 2; i++)
        if (s[i].c == o.c) { s[i] = o; return; }  /* the same chain: the newest tail holds */
    if (!offer_ok(&s[0], tail)) s[0] = o;
    else if (!offer_ok(&s[1], tail)) s[1] = o;
}

/* dep_chains' two passes over the base edges: the D edges (WR, and the
 * WW of read-modify-write links) counted, then listed per source. */
typedef struct chain_pass { uint32_t *indeg, *ostart, *fill, *out; } chain_pass;
static int chain_edge(const pg_edge *e) {
    return (PG_KIND(e->meta) == DEP_WR || PG_KIND(e->meta) == DEP_WW) && e->from != 0 && e->from != e->to;
}
static void chain_count(void *ctx, const pg_edge *e) {
    chain_pass *cp = ctx;
    if (chain_edge(e)) { cp->indeg[e->to]++; cp->ostart[e->from + 1]++; }
}
static void chain_fill(void *ctx, const pg_edge *e) {
    chain_pass *cp = ctx;
    if (chain_edge(e)) cp->out[cp->fill[e->from]++] = e->to;
}

/* Chains without session order (session_order 0): per transaction its
 * chain and position, HISTORY_NONE for INIT and non-participants.  A
 * greedy chain cover of the D edges (WR, and the WW edges of the
 * read-modify-write links) in Kahn order; see the file comment. */
static void dep_chains(pg_index *ix, uint32_t *sess, uint32_t *pos, vec_u32 *len) {
    const history *h = ix->h;
    uint32_t n = h->num_txns;
    uint32_t *indeg = xcalloc(n ? n : 1, sizeof *indeg);
    uint32_t *ostart = xcalloc((size_t)n + 1, sizeof *ostart);
    chain_pass cp = { indeg, ostart, NULL, NULL };
    pg_index_base_each(ix, chain_count, &cp);
    for (uint32_t t = 0; t < n; t++) ostart[t + 1] += ostart[t];
    uint32_t *out = xmalloc((ostart[n] ? ostart[n] : 1) * sizeof *out);
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, ostart, ((size_t)n + 1) * sizeof *fill);
    cp.fill = fill; cp.out = out;
    pg_index_base_each(ix, chain_fill, &cp);
    free(fill);
    offer *slot = xmalloc((n ? 2 * (size_t)n : 2) * sizeof *slot);
    for (uint32_t t = 0; t < n; t++) {
        sess[t] = pos[t] = HISTORY_NONE;
        slot[2 * t].c = slot[2 * t + 1].c = UINT32_MAX;
        slot[2 * t].tail = slot[2 * t + 1].tail = 0;
    }
    vec_u32 q; vec_init(q);
    for (uint32_t t = 1; t < n; t++) if (ix->in_graph[t] && !indeg[t]) vec_push(q, t);
    vec_u32 tail; vec_init(tail);             /* per chain: its last transaction */
    uint32_t scan = 1;
    for (size_t qi = 0;; qi++) {
        if (qi == q.len) {                    /* what is left lies on or behind D cycles */
            while (scan < n && (!ix->in_graph[scan] || sess[scan] != HISTORY_NONE || !indeg[scan])) scan++;
            if (scan >= n) break;
            indeg[scan] = 0;
            vec_push(q, scan);
        }
        uint32_t t = q.data[qi];
        offer *s = &slot[2 * t], spare = { UINT32_MAX, 0 };
        int k = offer_ok(&s[0], &tail) ? 0 : offer_ok(&s[1], &tail) ? 1 : -1;
        if (k >= 0) {
            uint32_t c = s[k].c;
            sess[t] = c; pos[t] = len->data[c]; tail.data[c] = t; len->data[c]++;
            if (offer_ok(&s[1 - k], &tail)) spare = s[1 - k];
        } else {
            sess[t] = (uint32_t)tail.len; pos[t] = 0; vec_push(tail, t); vec_push(*len, 1u);
        }
        offer mine = { sess[t], t };
        for (uint32_t j = ostart[t]; j < ostart[t + 1]; j++) {
            uint32_t b = out[j];
            if (sess[b] == HISTORY_NONE) {
                offer_to(&slot[2 * b], mine, &tail);
                offer_to(&slot[2 * b], spare, &tail);
            }
            if (indeg[b] && --indeg[b] == 0 && sess[b] == HISTORY_NONE) vec_push(q, b);
        }
    }
    vec_free(q); vec_free(tail);
    free(indeg); free(ostart); free(out); free(slot);
}

typedef struct by_time { int64_t t; uint32_t txn; } by_time;
static int cmp_by_time(const void *a, const void *b) {
    const by_time *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return (x->txn > y->txn) - (x->txn < y->txn);
}

static void push_rt(pg_index *ix, uint32_t from, uint32_t to) {
    pg_edge e = { from, to, PG_META(DEP_RT, HISTORY_NONE) };
    pg_index_base_push(ix, e);
}

/* The clock's ticks and RT edges (see the file comment); returns the
 * number of ticks. */
static uint32_t clock_ticks(pg_index *ix) {
    const history *h = ix->h;
    uint32_t n = h->num_txns;
    VEC(by_time) done; vec_init(done);
    for (uint32_t t = 1; t < n; t++) {
        int64_t c = history_time(h, TIME_COMPLETE, t);
        if (ix->in_graph[t] && h->txns[t].status == TXN_COMMITTED && c != HISTORY_TIME_NONE) {
            by_time b = { c, t };
            vec_push(done, b);
        }
    }
    if (done.len > 1) qsort(done.data, done.len, sizeof *done.data, cmp_by_time);
    uint32_t m = (uint32_t)done.len;
    for (uint32_t j = 0; j < m; j++) {
        push_rt(ix, done.data[j].txn, n + j);
        if (j + 1 < m) push_rt(ix, n + j, n + j + 1);
    }
    for (uint32_t b = 1; b < n; b++) {
        int64_t inv = history_time(h, TIME_INVOKE, b);
        if (!ix->in_graph[b] || inv == HISTORY_TIME_NONE) continue;
        uint32_t lo = 0, hi = m;              /* first j with complete(a_j) >= inv */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (done.data[mid].t < inv) lo = mid + 1; else hi = mid;
        }
        if (lo > 0) push_rt(ix, n + lo - 1, b);
    }
    vec_free(done);
    return m;
}

void pg_index_chains(pg_index *ix) {
    const history *h = ix->h;
    uint32_t n = h->num_txns;
    ix->num_node_txns = n;
    if (ix->opts.session_order && !ix->opts.real_time) return;
    uint32_t m = ix->opts.real_time ? clock_ticks(ix) : 0;
    ix->num_ticks = m;
    ix->num_node_txns = n + m;
    size_t N = (size_t)n + m;
    ix->in_graph = xrealloc(ix->in_graph, N ? N : 1);
    memset(ix->in_graph + n, 1, m);
    ix->chain_sess = xmalloc((N ? N : 1) * sizeof *ix->chain_sess);
    ix->chain_pos = xmalloc((N ? N : 1) * sizeof *ix->chain_pos);
    vec_u32 len; vec_init(len);
    if (ix->opts.session_order) {
        for (uint32_t t = 0; t < n; t++) { ix->chain_sess[t] = h->txns[t].session; ix->chain_pos[t] = h->txns[t].pos; }
        for (uint32_t s = 0; s < h->num_sessions; s++) vec_push(len, h->sessions[s].num_txns);
    } else {
        dep_chains(ix, ix->chain_sess, ix->chain_pos, &len);
    }
    if (m) {
        uint32_t c = (uint32_t)len.len;
        for (uint32_t j = 0; j < m; j++) { ix->chain_sess[n + j] = c; ix->chain_pos[n + j] = j; }
        vec_push(len, m);
    }
    ix->num_chain_sets = (uint32_t)len.len;
    vec_fit(len);
    ix->chain_len = len.data;
}
