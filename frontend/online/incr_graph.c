/* incr_graph.c — the graph of the settled participants: edges and
 * variables given to each level's engine and the kept model, a key's
 * writer lists, the frontier, the pairs of a new writer and the RW edges
 * of a new reader (the state and its invariants: incr_internal.h). */
#include "frontend/online/incr_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/checking/depgraph.h"
#include "io/bigmem.h"

/* ---- the graph ------------------------------------------------------- */

/* Give the edge a -kind-> b under lit (0: always on) to each level's graph
 * and the kept model.  An always-on RW edge whose ends are already joined
 * over SO and WR edges (incr_decided(a, b): a path, see below) is left out: a
 * cycle through it has one through the path, so acyclicity, every model
 * and every cycle the engine finds are the same (each made of edges that
 * are given, all real dependencies).  In the SI split graph the path is
 * start(a) -> commit(a) ~> start(b) -> commit(b), the edge start(a) ->
 * commit(b).  The SO and WR edges the path would take are given or, if
 * left out (add_txn), joined by a path of earlier ones in turn.  Half the
 * edges of a clean stream: at 200k transactions 0.74M of the 0.91M
 * always-on RW edges. */
void incr_edge(incr_check *ic, dep_kind kind, uint32_t a, uint32_t b, int lit) {
    if (!lit && kind == DEP_RW && a != 0 && a < b && incr_decided(ic, a, b)) {   /* INIT reaches by convention, not a path */
        ic->st.implied++;
        return;
    }
    for (int l = 0; l < 2; l++) {
        ilevel *L = &ic->lv[l];
        if (!L->on) continue;
        uint32_t x, y;
        dg_dep_nodes(L->split, kind, a, b, &x, &y);
        incr_g_edge(ic, l, (int)x, (int)y, lit);
    }
    if (!ic->om_off) om_add_edge(&ic->om, kind, a, b, lit);
    ic->st.edges++;
}

static int new_var(incr_check *ic) {
    int v = 0;                                             /* the same number everywhere: created together */
    if (ic->eng) v = ieng_var(ic->eng);
    else
        for (int l = 0; l < 2; l++)
            if (ic->lv[l].on) v = gsat_new_var(ic->lv[l].s);
    if (!ic->om_off && om_new_var(&ic->om) != v)         /* cannot happen: numbered together */
        incr_fall_back(ic, "internal error: variable numbering diverged", NULL);
    return v;
}


/* A writer record for node g's next final write (INIT's: g 0). */
uint32_t incr_new_writer_rec(incr_check *ic, uint32_t g) {
    iwriter w = { g, NONE, NONE };
    big_vec_push(ic->writers, w);
    return (uint32_t)ic->writers.len - 1;
}

/* The writer record of write `at` of wops: its transaction's node's first
 * record plus its distance from the transaction's first entry (a
 * transaction's entries are consecutive, its final writes first:
 * store_txn); NONE for a write overwritten in its transaction, or one whose
 * transaction has not joined.  The first entry is found by a short walk
 * back, or for a transaction of many writes by bisection (transaction ids
 * never decrease along wops): a bulk load of W writes read W times would
 * cost W^2/2 steps walked. */
uint32_t incr_wop_rec(const incr_check *ic, uint32_t at) {
    const iwop *w = &ic->wops.data[at];
    uint32_t t = wop_txn(w), g = ic->txns.data[t].g;
    if ((w->txn & WOP_OVER) || g == NONE) return NONE;
    uint32_t first = at;
    while (first > 0 && at - first < 16 && wop_txn(&ic->wops.data[first - 1]) == t) first--;
    if (at - first == 16) {
        uint32_t lo = 0, hi = first;               /* the first entry of t lies in [lo, hi] */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (wop_txn(&ic->wops.data[mid]) < t) lo = mid + 1;
            else hi = mid;
        }
        first = lo;
    }
    return ic->nodes.data[g].first_rec + (at - first);
}


/* Reader r (a node) of writer w, at the head of its chain. */
static void push_reader(incr_check *ic, uint32_t w, uint32_t r) {
    iwriter *x = &ic->writers.data[w];
    rlink l = { r, x->rhead };
    x->rhead = (uint32_t)ic->rpool.len;
    big_vec_push(ic->rpool, l);
}

/* Pair (other, lit: w before other) of writer w, at the head of its chain. */
static void push_pair(incr_check *ic, uint32_t w, uint32_t other) {
    iwriter *x = &ic->writers.data[w];
    plink l = { other, x->phead };
    x->phead = (uint32_t)ic->ppool.len;
    big_vec_push(ic->ppool, l);
}


/* ---- the keys' writer lists (ikey_sess) --------------------------------- */

/* A room of class c in wsa: a freed one, else at the end. */
static uint32_t wsa_take(incr_check *ic, uint32_t c) {
    uint32_t at = ic->wsa_free[c];
    if (at != NONE) { ic->wsa_free[c] = ic->wsa.data[at].w; return at; }
    at = (uint32_t)ic->wsa.len;
    if (ic->wsa.len + ((size_t)1 << c) > UINT32_MAX) xalloc_fail(SIZE_MAX);
    big_vec_reserve(ic->wsa, ic->wsa.len + ((size_t)1 << c));
    ic->wsa.len += (size_t)1 << c;
    return at;
}


/* The latest writer to arrive among ks's (its record: records, made as
 * their writers arrive, order a key's arrivals; INIT's, made with the key,
 * comes first): the last one, unless a late transaction came (it may be
 * inserted before the end). */
static inline uint32_t ks_latest(const incr_check *ic, const ikey_sess *ks) {
    if (!ic->late) return ks->last.w;
    const iws *l = ks_list(ic, ks);
    uint32_t m = 0;
    for (uint32_t i = 0; i < ks->n; i++) if (l[i].w > m) m = l[i].w;
    return m;
}

/* Insert nw at position at (<= n) of ks's list. */
static void ks_insert(incr_check *ic, ikey_sess *ks, uint32_t at, iws nw) {
    uint32_t n = ks->n;
    if (n == 0) { ks->last = nw; ks->n = 1; return; }
    if (n == 1 || incr_room_class(n + 1) != incr_room_class(n)) {    /* a bigger room (taking it may move wsa) */
        uint32_t to = wsa_take(ic, incr_room_class(n + 1));
        memcpy(ic->wsa.data + to, ks_list(ic, ks), n * sizeof(iws));
        if (n >= 2) {                                      /* the old room goes on its free list */
            uint32_t c = incr_room_class(n);
            ic->wsa.data[ks->at].w = ic->wsa_free[c];
            ic->wsa_free[c] = ks->at;
        }
        ks->at = to;
    }
    iws *l = ic->wsa.data + ks->at;
    memmove(l + at + 1, l + at, (n - at) * sizeof *l);
    l[at] = nw;
    ks->n = n + 1;
    ks->last = l[n];
}


/* ---- the frontier ------------------------------------------------------ */

/* front[c]: the least, over the sessions that take part ("in"), of their
 * last node's ancestor summary on chain c, taken at each refresh.  A writer
 * whose sequence number is at most front on its chain is *sealed* (by
 * new_writer, when it looks at its session); used[c] is the highest
 * sequence number sealed on chain c.  A session joins at a refresh once
 * its last node's summary is at least used everywhere, so every in
 * session's last node always is (sealing needs front, hence every in
 * session's last node at the last refresh, at least the number), and so is
 * every later node of an in session (no late transaction: it is its
 * session's last, its summary at least its predecessor's): a sealed writer
 * is decided before every writer of an in session that arrives from now
 * on. */
void incr_refresh_front(incr_check *ic) {
    ic->since_front = 0;
    if (ic->late) return;                        /* no fast path any more (new_writer) */
    const uint32_t W = reach_chains(ic->reach);
    while (ic->front.len < W) { vec_push(ic->front, 0u); vec_push(ic->used, 0u); }   /* a new chain */
    vec_resize(ic->front_tmp, 2 * (size_t)W);
    uint32_t *lo = ic->front_tmp.data, *row = lo + W;
    for (uint32_t c = 0; c < W; c++) lo[c] = UINT32_MAX;
    int any = 0;
    const uint32_t fw = (uint32_t)ic->writers.len;
    vec_foreach(isess, s, ic->sess) {
        if (!s->members.len) continue;
        reach_row(ic->reach, vec_last(s->members), row);
        if (!s->front_in) {
            uint32_t c = 0;
            while (c < W && row[c] >= ic->used.data[c]) c++;
            if (c < W) continue;                 /* not yet: its writers take the full scan */
            s->front_in = 1;
            s->in_w = fw;
        }
        for (uint32_t c = 0; c < W; c++) if (row[c] < lo[c]) lo[c] = row[c];
        any = 1;
    }
    for (uint32_t c = 0; c < W; c++) {
        if (!any) lo[c] = 0;
        if (lo[c] < ic->used.data[c]) {          /* cannot happen: every in session's last node is at least used */
            incr_fall_back(ic, "internal error: the frontier fell behind a sealed writer", NULL);
            return;
        }
        ic->front.data[c] = lo[c];
    }
    ic->front_w = fw;
}

/* incr_decided(e, d) for two sealed writers, or a sealed writer e and a
 * writer d of a session in the frontier (sequence numbers set, no late
 * transaction: within a session they order as the order labels; writer
 * records order arrivals as nodes do; INIT is never one), from their itop
 * records: no node is read, and often no row either:
 *
 * Claim: if d's session takes part since a refresh R' (in_w) at or after
 * the one whose front sealed e (e->fw), and d arrived after R' (its record
 * is at least writers.len then, the greater of the two), then e reaches d.
 * The last node l of d's session at R' has a row at least front(R') (the
 * least over the sessions taking part), d comes after l on the session
 * and rows grow along a session, so d's row on e's chain is at least
 * front(R') there, which is at least e's sequence number: front(R_e) by
 * the sealing, and every later front is at least used, which the sealing
 * raised to it.  So the answer is the row's, exactly (debug builds
 * compare), without d's row: a sealing compared each top writer m with
 * the writer x sealed, whose row (an old one, sealed now) was 12 % of the
 * checking thread's samples at 3-4M transactions of the 10M stream, and
 * x usually arrived after m was sealed. */
static inline int top_decided(const incr_check *ic, const itop *e, const itop *d) {
    if (e->sess == d->sess) return e->seq < d->seq;
    const isess *ds = &ic->sess.data[d->sess];
    const uint32_t c = ic->sess.data[e->sess].chain;
    if (!e->seq || c == NONE || e->w >= d->w) return 0;
    if (ds->front_in && d->w >= e->fw && d->w >= ds->in_w) {
        assert(reach_reaches(ic->reach, ic->writers.data[d->w].g, d->sess, d->seq, c, e->seq));
        return 1;
    }
    const uint32_t dg = reach_in_order(ic->reach) ? REACH_NONE : ic->writers.data[d->w].g;
    return reach_reaches(ic->reach, dg, d->sess, d->seq, c, e->seq);
}

/* Seal key K's session entry si (every writer on it is within the
 * frontier): count its writers, keep top (drop the writers it is decided
 * after, add its last writer unless it is decided before one kept), and
 * move the entry to the sealed part of by_sess. */
static void seal_session(incr_check *ic, ikey *K, size_t si, uint32_t chain) {
    ikey_sess *ks = &K->by_sess.data[si];
    if (ks->last.seq > ic->used.data[chain]) ic->used.data[chain] = ks->last.seq;
    ic->st.sealed += ks->n - ks->nseal;
    K->nsealw += ks->n - ks->nseal;
    ks->nseal = ks->n;
    const itop x = { ks->last.w, ks->sess, ks->last.seq, ic->front_w };
    size_t kept = 0;
    int below = 0;
    for (size_t i = 0; i < K->top.len; i++) {
        const itop m = K->top.data[i];
        if (top_decided(ic, &m, &x)) continue;        /* m < x: x covers it */
        below = below || top_decided(ic, &x, &m);
        K->top.data[kept++] = m;
    }
    K->top.len = kept;
    if (!below) {
        /* room one by one at first: top holds about one writer a key (1.1
         * at 400k transactions), and a room of vec's four would take 64
         * bytes a key where one takes malloc's smallest chunk, as the
         * four 4-byte ids did */
        if (K->top.len == K->top.cap) {
            K->top.cap = K->top.cap ? 2 * K->top.cap : 1;
            K->top.data = xrealloc(K->top.data, K->top.cap * sizeof *K->top.data);
        }
        K->top.data[K->top.len++] = x;
    }
    size_t to = K->nseal_sess++;
    if (to != si) {
        ikey_sess t = K->by_sess.data[to]; K->by_sess.data[to] = K->by_sess.data[si]; K->by_sess.data[si] = t;
    }
}

/* d's entry in K's session list (made if new; a wholly sealed one moves
 * back to the part not sealed). */
static ikey_sess *writer_session(ikey *K, uint32_t sess) {
    uint32_t *const word = &K->sess_bits[sess % KEY_SESS_BITS / 32];
    const uint32_t bit = 1u << (sess % 32);
    size_t mi = 0;
    if (*word & bit)                             /* else no entry: none to look for */
        while (mi < K->by_sess.len && K->by_sess.data[mi].sess != sess) mi++;
    else {
        mi = K->by_sess.len;
#ifndef NDEBUG
        for (size_t i = 0; i < K->by_sess.len; i++) assert(K->by_sess.data[i].sess != sess);
#endif
    }
    if (mi == K->by_sess.len) {
        *word |= bit;
        if (K->by_sess.len == K->by_sess.cap) {
            K->by_sess.cap = K->by_sess.cap < 4 ? 4 : K->by_sess.cap + K->by_sess.cap / 4;
            K->by_sess.data = xrealloc(K->by_sess.data, K->by_sess.cap * sizeof *K->by_sess.data);
        }
        ikey_sess n;
        memset(&n, 0, sizeof n);
        n.sess = sess;
        K->by_sess.data[K->by_sess.len++] = n;
    } else if (mi < K->nseal_sess) {
        /* a wholly sealed session gets a writer: back to the other part */
        size_t to = --K->nseal_sess;
        ikey_sess t = K->by_sess.data[to]; K->by_sess.data[to] = K->by_sess.data[mi]; K->by_sess.data[mi] = t;
        mi = to;
    }
    return &K->by_sess.data[mi];
}

/* The node of writer p of session sess (an entry of its ikey_sess list):
 * with no late transaction member i of the session is the node numbered
 * i + 1 (add_txn), and the session's members (4 bytes a transaction, by
 * session) are a smaller array than the writer records (12 bytes a
 * write, scattered): the record was a cache miss for a third of the new
 * writers by the end of the 10M stream. */
static uint32_t own_writer_node(const incr_check *ic, uint32_t sess, iws p) {
    const isess *s = &ic->sess.data[sess];
    if (ic->late || !p.seq || p.seq > s->members.len) return ic->writers.data[p.w].g;
    const uint32_t g = s->members.data[p.seq - 1];
    assert(g == ic->writers.data[p.w].g);
    return g;
}

/* A variable x = "e before d" for writers e (node a) and d (node g) of a
 * key, guarding e -WW-> d, r -RW-> d for e's readers r, and d -WW-> e
 * under -x.  0: fell back (pair_lit's numbering broke). */
static int pair_variable(incr_check *ic, uint32_t e, uint32_t d, uint32_t a, uint32_t g) {
    int x = new_var(ic);
    if (!ic->pvar0) ic->pvar0 = x;
    if (x != ic->pvar0 + (int)(ic->ppool.len / 2)) {     /* pair_lit's numbering */
        incr_fall_back(ic, "internal error: pair variables not consecutive", NULL);
        return 0;
    }
    ic->st.pairs_var++;
    incr_edge(ic, DEP_WW, a, g, x);
    for (uint32_t r = ic->writers.data[e].rhead; r != NONE; r = ic->rpool.data[r].next) {
        uint32_t rd = ic->rpool.data[r].r;
        if (rd != g) incr_edge(ic, DEP_RW, rd, g, x);
    }
    incr_edge(ic, DEP_WW, g, a, -x);
    push_pair(ic, e, d);                     /* entry 2k: x */
    push_pair(ic, d, e);                     /* 2k + 1: -x */
    return 1;
}

/* A new writer's scan of its key's earlier writers (incr_new_writer). */
typedef struct wscan {
    ikey *K;
    uint32_t d, g, sess;         /* the new writer, its node and session */
    uint32_t pw, pg, pseq;       /* its previous writer of the key on its session (NONE: none), its node, its sequence number */
    int fast;                    /* its session takes part in the frontier and no transaction came late */
    int pivot_ok;                /* the key's pivot is decided before d */
    int all_before;              /* every earlier writer is decided before d: d becomes the pivot */
    int other_before;            /* a writer other than INIT is decided before d */
    size_t nsess;                /* K's sessions; entry nsess stands for INIT */
} wscan;

/* The writers of K's session entry si (si == nsess: INIT) against d: each
 * pair decided, or given a variable; the candidates for INV to ic->succ.
 * 0: fell back. */
static int scan_session(incr_check *ic, wscan *ws, size_t si) {
    ikey *K = ws->K;
    const uint32_t d = ws->d, g = ws->g, sess = ws->sess, pg = ws->pg;
    const int fast = ws->fast, pivot_ok = ws->pivot_ok;
    const size_t nsess = ws->nsess;
    if (si == nsess) {
        /* INIT (node 0), decided before d and p: a candidate only with
         * neither p nor another writer decided before d, as the loop below
         * would find, without reading INIT's writer record (one a key,
         * cold: a third of new_writer's own samples at 3M transactions of
         * the 10M stream, only to learn its node 0) */
        ic->st.pairs_decided++;
        if (pg == NONE && !ws->other_before) vec_push(ic->succ, K->init_w);
        return 1;
    }
    const uint32_t ssid = K->by_sess.data[si].sess;
    const size_t jr = fast ? K->by_sess.data[si].nseal : 0;   /* the writers before jr are sealed */
    if (fast && ssid != sess) {
        /* every writer of the session within the frontier: sealed (d is
         * not: its sequence number is past every refresh) */
        uint32_t fc = ic->sess.data[ssid].chain;
        const uint32_t ls = K->by_sess.data[si].last.seq;
        if (fc < ic->front.len && ls && ls <= ic->front.data[fc]) {
            seal_session(ic, K, si, fc);   /* swaps in an entry already looked at */
            ws->other_before = 1;
            return 1;
        }
    }
    if (!ic->late && ssid == sess) {
        /* d's own session, d its last writer (no late transaction): the
         * writers before p are decided before p (INV holds through p),
         * p is decided before d and a candidate (its next is d) */
        const size_t nown = K->by_sess.data[si].n;
        if (nown - 1 > jr) {
            ic->st.pairs_decided += nown - 1 - jr;
            ws->other_before = 1;
            vec_push(ic->succ, ks_list(ic, &K->by_sess.data[si])[nown - 2].w);
        }
        return 1;
    }
    if (pivot_ok && ks_latest(ic, &K->by_sess.data[si]) < K->pivot_w) {
        ic->st.pairs_decided += K->by_sess.data[si].n - jr;
        ic->st.pairs_skipped += K->by_sess.data[si].n - jr;
        ws->other_before = 1;                    /* a by_sess entry holds a writer */
        return 1;
    }
    size_t n = K->by_sess.data[si].n, j0 = 0;
    /* Writers of another session: incr_decided(e, d) is "e's sequence number
     * (kept beside the list) is at most d's ancestor summary on e's
     * chain", so it needs neither e's node nor its session (cache
     * misses: a third of the encoding's time); likewise before p. */
    const int other = ssid != sess;
    const iws *sq = ks_list(ic, &K->by_sess.data[si]);
    uint32_t c = other ? ic->sess.data[ssid].chain : NONE, bd = 0, bp = 0;
    if (c != NONE) {
        bd = reach_get(ic->reach, g, c);
        bp = pg == NONE ? bd : reach_get(ic->reach, pg, c);
    }
    if (other && !ic->late) {
        /* the writers of another session decided before both d and p (a
         * prefix: with no late transaction, sequence numbers grow along
         * the session) take the loop's first `continue`: count them only;
         * with no p, all but the last of the writers decided before d
         * (INV holds through the next one, also decided before d) */
        if (c != NONE) {
            uint32_t bound = bd < bp ? bd : bp;
            size_t lo = jr, hi = n;                  /* first writer with seq > bound */
            const uint32_t ls = K->by_sess.data[si].last.seq;
            if (ls && ls <= bound) {
                /* the whole session (the common case): with p, every
                 * writer takes the first `continue`; without, the last
                 * one is the candidate (decided before d, no next) */
                ic->st.pairs_decided += n - jr;
                ws->other_before = 1;
                if (pg == NONE) vec_push(ic->succ, K->by_sess.data[si].last.w);
                return 1;
            }
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (sq[mid].seq <= bound) lo = mid + 1;
                else hi = mid;
            }
            j0 = pg == NONE && lo > jr ? lo - 1 : lo;
            ic->st.pairs_decided += j0 - jr;
            ws->other_before |= lo > 0;
        }
    }
    if (j0 < jr) j0 = jr;
    for (size_t j = j0; j < n; j++) {
        uint32_t e = sq[j].w;
        if (e == d) continue;
#define BEFORE(k, bound) (c != NONE && sq[k].seq && sq[k].seq <= (bound))   /* incr_decided(writer k of si, d or p) */
        if (other ? BEFORE(j, bd) : incr_decided(ic, ic->writers.data[e].g, g)) {
            ic->st.pairs_decided++;
            ws->other_before = 1;
            if (pg != NONE && (other ? BEFORE(j, bp) : incr_decided(ic, ic->writers.data[e].g, pg))) continue;   /* INV holds through p */
            /* INV through a later writer e' decided before d: e's next on
             * its session */
            if (j + 1 < n &&
                (other ? BEFORE(j + 1, bd) : incr_decided(ic, ic->writers.data[sq[j + 1].w].g, g))) continue;
#undef BEFORE
            vec_push(ic->succ, e);                   /* a candidate: see below */
            continue;
        }
        uint32_t a = ic->writers.data[e].g;
        ws->all_before = 0;
        if (incr_decided(ic, g, a)) ic->st.pairs_decided++;           /* d has no readers yet */
        else if (!pair_variable(ic, e, d, a, g)) return 0;
    }
    return 1;
}

/* Of top (the sealed writers, decided before d and not looked at), the
 * candidates: those whose INV is not known to hold through p or through
 * their session's next writer (decided before d). */
static void top_candidates(incr_check *ic, const wscan *ws) {
    const ikey *K = ws->K;
    const uint32_t g = ws->g, pg = ws->pg;
    const itop p = { ws->pw, ws->sess, ws->pseq, 0 };
    ic->st.pairs_decided += K->nsealw;
    ic->st.pairs_skipped += K->nsealw;
    ic->st.pairs_sealed += K->nsealw;
    for (size_t i = 0; i < K->top.len; i++) {
        const uint32_t m = K->top.data[i].w, ms = K->top.data[i].sess;
        if (pg != NONE && top_decided(ic, &K->top.data[i], &p)) continue;
        size_t ki = 0;
        while (ki < K->by_sess.len && K->by_sess.data[ki].sess != ms) ki++;
        const ikey_sess *ks = &K->by_sess.data[ki];    /* m's session: it holds m */
        const iws *kl = ks_list(ic, ks);
        if (ks->nseal > 0 && ks->nseal < ks->n && kl[ks->nseal - 1].w == m &&
            incr_decided(ic, ic->writers.data[kl[ks->nseal].w].g, g)) continue;
        vec_push(ic->succ, m);
    }
}

/* The candidates (ic->succ): writers e decided before d (node g) whose INV
 * is not known to hold through p or their session's next.  INV holds for
 * e through any other writer f decided after e and before d (INV for
 * e < f, then f ~> d), so only the latest candidates (that no other one
 * follows) give their readers RW edges to d. */
static void candidate_edges(incr_check *ic, uint32_t g) {
    for (size_t i = 0; i < ic->succ.len; i++) {
        uint32_t e = ic->succ.data[i], a = ic->writers.data[e].g;
        int covered = 0;
        for (size_t j = 0; j < ic->succ.len && !covered; j++) {
            uint32_t f = ic->writers.data[ic->succ.data[j]].g;
            covered = j != i && incr_decided(ic, a, f) && !incr_decided(ic, f, a);
        }
        if (covered) {                           /* count its readers (the stats only: no count kept) */
            for (uint32_t r = ic->writers.data[e].rhead; r != NONE; r = ic->rpool.data[r].next) ic->st.rw_covered++;
            continue;
        }
        for (uint32_t r = ic->writers.data[e].rhead; r != NONE; r = ic->rpool.data[r].next) {
            uint32_t rd = ic->rpool.data[r].r;
            if (rd != g) incr_edge(ic, DEP_RW, rd, g, 0);
        }
    }
}

/* Writer d (graph node g) of key joins: every pair with an earlier writer
 * is decided or gets a variable. */
void incr_new_writer(incr_check *ic, uint32_t key, uint32_t g) {
    uint32_t d = incr_new_writer_rec(ic, g);
    ic->st.writers++;
    ikey *K = &ic->keys.data[key];
    K->last_g = g;
    uint32_t sess = ic->nodes.data[g].sess;
    ikey_sess *mine = writer_session(K, sess);
    uint32_t at = mine->n;
    uint64_t ord = ic->nodes.data[g].ord;
    /* with no late transaction d is its session's last node: no search */
    while (ic->late && at > 0 && ic->nodes.data[ic->writers.data[ks_list(ic, mine)[at - 1].w].g].ord > ord) at--;
    if (at < mine->nseal) mine->nseal = at;               /* a late one (the frontier is not used any more) */
    /* p, d's previous writer of the key on its session: with no late
     * transaction the entry's last, kept in the entry itself (not its list
     * in wsa: a cache miss, a third of new writers by the end of the 10M
     * stream have a p) */
    iws p = { NONE, 0 };
    if (at > 0) p = at == mine->n ? mine->last : ks_list(ic, mine)[at - 1];
    iws nw = { d, ic->nodes.data[g].seq };
    ks_insert(ic, mine, at, nw);
    wscan ws = { K, d, g, sess, p.w, p.w == NONE ? NONE : own_writer_node(ic, sess, p), p.seq, 0, 0, 1, 0, K->by_sess.len };
    /* The frontier (file comment): when d's session is in and no
     * transaction came late, every sealed writer is decided before d, and
     * INV holds for each through a writer of top (INV for e < m, then
     * m ~> d); the sealed sessions are not looked at, nor the sealed
     * prefix of the others, and top's writers are candidates below. */
    ws.fast = !ic->late && ic->sess.data[sess].front_in;
    /* The key's pivot: every writer that arrived before it is decided before
     * it (checked when it arrived; decisions are stable).  If the pivot is
     * decided before d, so is every such writer e (e ~> pivot ~> d), and INV
     * holds for e < d through the pivot (INV for e < pivot, then pivot ~> d):
     * the pair needs neither a variable nor edges, and a session whose
     * writers all arrived before the pivot is not looked at.  The pivot's
     * own session is (its last arrival is the pivot or later), so INV for
     * pivot < d is established below as for any writer. */
    ws.pivot_ok = K->pivot_g != NONE && incr_decided(ic, K->pivot_g, g);
    ws.other_before = ws.fast && K->nsealw > 0;
    for (size_t si = ws.fast ? K->nseal_sess : 0; si <= ws.nsess; si++)
        if (!scan_session(ic, &ws, si)) { vec_clear(ic->succ); return; }
    if (ws.fast && K->nsealw) top_candidates(ic, &ws);
    candidate_edges(ic, g);
    vec_clear(ic->succ);
    if (ws.all_before) { K->pivot_g = g; K->pivot_w = d; }
}

/* Reader r (graph node) of writer w joins: RW edges to every writer after
 * w, under the pair variables w has, and to w's first decided successor
 * on each session (INV). */
void incr_new_reader(incr_check *ic, uint32_t key, uint32_t w, uint32_t r) {
    push_reader(ic, w, r);
    uint32_t a = ic->writers.data[w].g;
    for (uint32_t i = ic->writers.data[w].phead; i != NONE; i = ic->ppool.data[i].next) {
        ipair pr = { ic->ppool.data[i].other, incr_pair_lit(ic, i) };
        uint32_t og = ic->writers.data[pr.other].g;
        if (og == r) continue;
        if (incr_decided(ic, og, r)) {
            /* pruning, locally: side "w before other" now has r -RW-> other
             * while other reaches r, a cycle; so other comes first (a
             * level-0 fact, never decided on again) */
            int unit = -pr.lit;
            for (int l = 0; l < 2; l++)
                if (ic->lv[l].on) incr_g_unit(ic, l, unit);
            if (!ic->om_off) om_unit(&ic->om, unit);
            ic->st.pairs_pruned++;
        } else incr_edge(ic, DEP_RW, r, og, pr.lit);
    }
    const ikey *K = &ic->keys.data[key];
    const inode *an = &ic->nodes.data[a];
    uint32_t ca = a == 0 ? NONE : ic->sess.data[an->sess].chain;
    /* With no late transaction, a writer decided after a arrived after a
     * (its ancestor summary, or its order label, was fixed when it arrived,
     * before a's sequence number or label existed): a session with no later
     * arrival has none, and when w is the key's latest arrival no session
     * has one. */
    const size_t nks = !ic->late && a != 0 && a == K->last_g ? 0 : K->by_sess.len;
    for (size_t ki = 0; ki < nks; ki++) {
        const ikey_sess *ks = &K->by_sess.data[ki];
        const uint32_t ksess = ks->sess;
        const iws *kl = ks_list(ic, ks);
        size_t j = 0;
        if (!ic->late && a != 0 && ks_latest(ic, ks) <= w) continue;
        if (!ic->late && a != 0 && (ksess == an->sess || (an->seq && ca != NONE))) {
            /* "decided after a" is monotone along the session (its order
             * labels, or its ancestor summaries, only grow): the first one
             * by binary search; the loop below confirms it */
            size_t lo = 0, hi = ks->n;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                const inode *dn = &ic->nodes.data[ic->writers.data[kl[mid].w].g];
                int after = ksess == an->sess ? dn->ord > an->ord
                                                 : reach_reaches(ic->reach, ic->writers.data[kl[mid].w].g, ksess, kl[mid].seq, ca, an->seq);
                if (after) hi = mid;
                else lo = mid + 1;
            }
            j = lo;
        }
        for (; j < ks->n; j++) {
            uint32_t dg = ic->writers.data[kl[j].w].g;
            if (!incr_decided(ic, a, dg)) continue;
            vec_push(ic->succ, dg);
            break;
        }
    }
    /* Only the first ones: a successor that another reaches (and does not
     * reach back) gets no edge, INV holds through the other (r -RW-> d0
     * ~> d0'); in the split graph too (start(r) -> commit(d0) ~> commit(d0')).
     * r itself may be one (it writes the key too): no edge, INV holds with
     * d0 = r. */
    for (size_t i = 0; i < ic->succ.len; i++) {
        uint32_t dg = ic->succ.data[i];
        if (dg == r) continue;
        int covered = 0;
        for (size_t j = 0; j < ic->succ.len && !covered; j++)
            covered = j != i && incr_decided(ic, ic->succ.data[j], dg) && !incr_decided(ic, dg, ic->succ.data[j]);
        if (covered) { ic->st.rw_covered++; continue; }
        incr_edge(ic, DEP_RW, r, dg, 0);
    }
    vec_clear(ic->succ);
}

