/* online_incr.c — incremental check of the settled part of a growing
 * register history (contract in online_incr.h; why a FAIL is final:
 * doc/checker.md, "Online checking").
 *
 * The encoding is the plain polygraph, kept in one gsat graph per level
 * (SER: node g per transaction; SI: the split graph, commit 2g, start
 * 2g+1, as depgraph.h): SO and WR edges unguarded, and for every pair of
 * writers e, d of a key either a decision or one variable x = "e before d"
 * guarding  e -WW-> d  and  r -RW-> d  for the readers r of e  (and the
 * mirror edges under -x).
 *
 * Decisions.  e is certainly before d when e is INIT, or e precedes d in
 * their session, or e reaches d over SO and WR edges: then the side
 * "d before e" closes a cycle (d -WW-> e after e ~> d).  Reachability is
 * summarized per node (online_reach.h) as the highest sequence number,
 * on each tracked session chain, of an ancestor (computed once, when the
 * node arrives, from its in-neighbours then present: an underestimate,
 * which only leaves more pairs to the solver).  SO and WR edges only
 * accumulate, so a decided pair stays decided.
 *
 * For a decided pair e < d the WW edge is implied by the path; the RW
 * edge from a reader r of e need not be in the graph when a path from r
 * to d starting with an RW edge to a writer decided after e, then SO/WR
 * edges only, is (in the SI split graph: start(r) -> commit(d0) ~> commit(d)):
 *   INV  for decided e < d and a reader r of e, r -RW-> d0 is in the graph
 *        (or r = d0) for some d0 with e < d0 decided and d0 = d or d0
 *        reaching d over SO and WR edges.
 * A new writer d adds the edges r -RW-> d only when INV does not already
 * hold through its previous writer p of the key on its session (e < p
 * decided), nor through e's next writer e' of the key on e's session, or
 * (for e = INIT) any other writer e', decided before d (INV for e < e',
 * then e' ~> d); a new reader r of e adds them to the first decided writer
 * on each session (later ones are reached from it by SO).
 *
 * Key pivots: a key's pivot P is the latest writer that every writer
 * arrived before it was decided before (when P arrived).  If P is decided
 * before a new writer d, so is each such e (e ~> P ~> d), and INV holds for
 * e < d through P: sessions whose writers all arrived before P are skipped.
 *
 * The frontier (refresh_front): a writer that every session taking part
 * reaches is retired, and decided before every later writer of those
 * sessions; a key's top writers are the retired ones no other retired one
 * is decided after.  A new writer of a session taking part skips the
 * retired writers; INV holds for them through a top writer, whose own INV
 * is established as for any writer (doc/checker.md, "What is incremental").
 *
 * Transactions arriving out of session order (a late one: a text
 * transaction completed after its successor, an indeterminate writer that
 * becomes observed) get an order label between their neighbours and no
 * sequence number, so nothing is decided from their ancestors. */
#include "frontend/online_incr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsat.h"
#include "vec.h"
#include "frontend/checking/depgraph.h"
#include "frontend/history/u64map.h"
#include "frontend/online_model.h"
#include "frontend/online_reach.h"

#define NONE UINT32_MAX
#define ORD_GAP ((uint64_t)1 << 24)     /* room for late transactions between two neighbours */
#define FRONT_EVERY 128                 /* nodes between two refreshes of the frontier (and at every check) */
#define OPS_BLOCK (1u << 17)            /* operations a block holds (a transaction with more gets one of its own) */
#define OPS_KEEP 65536                  /* the last transactions to settle whose operations stay (the witness) */

typedef struct itxn {
    int64_t ext;
    uint32_t sess;           /* stable session */
    uint32_t hpos;           /* position in its session (= in the current history, if any) */
    uint32_t g;              /* graph node, NONE until it takes part */
    uint32_t first_op, num_ops;   /* its operations (txn_ops), as first seen: a completed transaction never changes */
    uint8_t settled, status;
    uint8_t done;            /* its operations are needed no more (op_done) */
} itxn;

/* The operations of a transaction are needed until it takes part in the
 * graph (read_ops; an aborted one: until it settles), and by the witness
 * (incr_window_history) while it is among the last OPS_KEEP to settle.
 * They are kept in blocks, a block freed once all of its transactions are
 * past that: at 1M transactions the 8M operations were 224 MB for good.
 * What later transactions still look up, each successful write's key,
 * value and transaction, stays in wops (12 bytes a write).
 * A stored operation: kind, op_kind with OP_FAILED / OP_OVERWRITTEN; link,
 * a write's entry in wops, a read's write there once settling found it
 * (values are written once), else NONE. */
typedef struct iop { int64_t value; uint32_t key, line, link; uint8_t kind; } iop;
/* Operations numbered [start, start + len) (room for cap; NULL once freed);
 * pending: its transactions not done; last_settle: the settled count when
 * the last of them became done. */
typedef struct opblock { iop *ops; uint32_t start, len, cap, pending, last_settle; } opblock;
/* A successful write: txn, its transaction, with WOP_OVER set when it is
 * overwritten in it (a read of it is intermediate); vlo, the value's low
 * half.  A value that is its low half sign-extended (most: 12 bytes a
 * write, were 20 with the high half and the writer record, 32 MB at 1M)
 * needs no more; another one has WOP_WIDE set and its high half in the
 * incr_check's list `wide` (by entry, sorted: entries are appended).  A
 * transaction's writes are consecutive entries, and its writer records
 * (made when it joins, for the entries without WOP_OVER, in entry order)
 * consecutive records from its node's first_rec: wop_rec. */
typedef struct iwop { uint32_t key, txn, vlo; } iwop;
typedef struct iwide { uint32_t at, hi; } iwide;
#define WOP_OVER 0x80000000u            /* transaction ids stay below both (store_txn) */
#define WOP_WIDE 0x40000000u
static inline uint32_t wop_txn(const iwop *w) { return w->txn & ~(WOP_OVER | WOP_WIDE); }
static inline int value_narrow(int64_t value) { return value == (int64_t)(int32_t)(uint32_t)(uint64_t)value; }

typedef struct isess {
    int64_t ext;
    uint32_t hsess;          /* its index in the current history, NONE if absent */
    uint32_t chain, seq;     /* tracked chain (NONE) and the last sequence number given */
    int front_in;            /* it takes part in the frontier (refresh_front): its writers may skip the retired ones */
    vec_u32 members;         /* graph nodes of the session, in session order */
    vec_u32 order;           /* its transactions (stable ids), in session order */
} isess;

/* first_rec: the writer record of its first final write (wop_rec; in the
 * padding before ord) */
typedef struct inode { uint32_t txn, sess, seq, first_rec; uint64_t ord; } inode;
typedef struct ipair { uint32_t other; int lit; } ipair;   /* lit: this writer before other */
/* A writer: its node g, which also orders the writers of a key by arrival
 * (new_writer runs as its node is made, nodes numbered as made; INIT's is
 * 0), so no arrival number is kept; its key is known to every caller.  Its
 * readers and pairs are chains through two pools (rhead/phead the latest
 * added, NONE: none; the order is of no account: each reader, each pair is
 * handled on its own), not two small vectors per writer: 4M writers at 1M
 * transactions were 8M allocations, 32 bytes of vector headers per writer,
 * and the frees at the end.  12 bytes (no tails to append at, no reader
 * count, no key, no arrival number: 50 MB at 1M, was 84). */
typedef struct iwriter { uint32_t g, rhead, phead; } iwriter;
typedef struct rlink { uint32_t r, next; } rlink;                    /* a reader, the next of its writer's */
/* A pair's two links are entries 2k ("this writer before other": +x) and
 * 2k + 1 (-x) of the pool, x = pvar0 + k (pairs are the only variables,
 * made one per pair: checked in new_writer), so no literal is kept (8
 * bytes, not 12: 10 MB at 1M); pair_lit gives it. */
typedef struct plink { uint32_t other, next; } plink;   /* a pair (ipair), the next of its writer's */
/* The writers of a key on one session, in session order, with their nodes'
 * sequence numbers (searched): sess, the session; n, how many; last, the
 * last one (no look into the list when the whole session is decided before
 * a new writer); the list itself (ks_list) is last alone when n is 1, else
 * n entries at `at` in the shared arena wsa (room for the next power of two;
 * last repeats the final one); nret: the first nret are retired (see the
 * key's frontier).  The latest arrival among them is not kept
 * (ks_latest).  24 bytes an entry and no allocation of its own: at 1M
 * transactions 3.0M entries hold 4.0M writers, where a vector each (its
 * header, a malloc chunk) and the sessions' ids in a second array per key
 * took 162 MB for 32 MB of writers. */
typedef struct iws { uint32_t w, seq; } iws;   /* a writer and its node's sequence number */
typedef struct ikey_sess { uint32_t sess, n, nret, at; iws last; } ikey_sess;
/* last_g: the node of the latest writer to arrive (0: INIT alone); pivot_g,
 * pivot_w: the latest writer (node, record) that every writer arrived
 * before it was decided before (NONE: none yet).
 * by_sess[0, nret_sess) are wholly retired (nret = n), the others are not.
 * nretw: retired writers; top: the retired writers no other retired writer
 * is decided after (every retired writer is one of them or decided before
 * one) */
typedef struct ikey {
    uint64_t ident; int64_t ext; int named;
    uint32_t init_w, last_g, pivot_g, pivot_w, nret_sess, nretw;
    vec_u32 top;
    VEC(ikey_sess) by_sess;      /* grown by a quarter (its spare room is resident: at 1M 17% of 86 MB by half) */
} ikey;
typedef struct ilevel { gsat *s; int graph, split, on; } ilevel;
/* the sizes the comments above count on (a field added by mistake would
 * cost tens of MB at 1M transactions) */
_Static_assert(sizeof(iwop) == 12 && sizeof(iwriter) == 12 && sizeof(plink) == 8 && sizeof(ikey_sess) == 24 && sizeof(inode) == 24,
               "online_incr's per-write, per-writer and per-node records");

typedef struct ext_read { uint32_t key, src, op; } ext_read;    /* src: stable txn; op: its write read, in wops (NONE: INIT) */
typedef struct final_write { uint32_t key, op; } final_write;   /* op: in wops */
typedef VEC(ext_read) ext_read_vec;
typedef VEC(final_write) final_write_vec;

struct incr_check {
    ilevel lv[2];
    online_model om;         /* the last model, extended in place: most checks need no solve */
    int om_off;              /* it stopped paying (rebuilt more often than it answered): dropped */
    int dropped;             /* incr_drop_engines: the engines and the kept model are gone, their values in mval */
    VEC(uint8_t) mval[2];    /* per level, bit v: variable v's value in the last model */
    VEC(itxn) txns;          /* stable ids; 0 is INIT */
    VEC(opblock) blocks;     /* the operations of the stored transactions (iop's comment) */
    uint32_t nops;           /* operations stored */
    uint32_t ops_block, ops_keep;   /* OPS_BLOCK, OPS_KEEP (incr_set_ops_limits) */
    VEC(iwop) wops;          /* every successful write */
    VEC(iwide) wide;         /* the high halves of wops' wide values (iwop) */
    /* (key, value) -> its write in wops, open addressing, slot = index + 1
     * (0: empty, so a new table is calloc's zero pages).  The table doubles
     * without a pause: the old one stays for lookups while the writes
     * wops[wmoved, wmove_end) still wait to be moved into the new one, a
     * few at each insertion (a whole rehash at 4M writes was a 0.1 s check) */
    uint32_t *wslots, *wold;
    uint64_t wmask, woldmask, wlen, wmoved, wmove_end;
    vec_u32 cand;            /* stored, not yet tried for settling */
    u64map by_ext;
    VEC(isess) sess;
    u64map sess_by_ext;
    VEC(inode) nodes;        /* graph nodes; 0 is INIT */
    online_reach *reach;     /* the reachability summaries (online_reach.h) */
    vec_u32 srcs;            /* add_txn's scratch: the nodes a new node reads from */
    VEC(iwriter) writers;
    VEC(rlink) rpool;        /* the writers' reader chains */
    VEC(plink) ppool;        /* the writers' pair chains */
    int pvar0;               /* the first pair's variable (0: no pair yet) */
    VEC(ikey) keys;
    VEC(iws) wsa;            /* the keys' writer lists of two or more (ikey_sess) */
    uint32_t wsa_free[32];   /* per room size 1 << c: a free room (its first entry's w: the next), NONE */
    vec_u32 waiting;         /* completed, not settled */
    /* per-transaction scratch, indexed by key */
    vec_u32 stamp;
    vec_i64 own, ext_val;
    vec_u32 wpos;            /* per key: its entry in writes while read_ops reads a transaction that wrote it */
    vec_u32 flags;           /* bit 1: own write seen, bit 2: external read seen */
    uint32_t serial;
    uint32_t late;           /* transactions that joined between two of their session (no sequence number) */
    ext_read_vec reads;
    final_write_vec writes;
    int fallback, failed_level;
    int rescan;              /* compare every known transaction with h at each update */
    uint32_t settled;
    vec_u32 succ;            /* new_reader's scratch: the first decided successors */
    vec_u32 front;           /* per chain: a writer with a sequence number up to it is retired (file comment) */
    vec_u32 front_tmp;
    vec_u32 used;            /* per chain: the highest sequence number retired */
    uint32_t since_front;    /* nodes added since the last refresh of front */
    vec_u32 settle_order;    /* settled transactions (stable ids), in the order they settled */
    char why[400];
    incr_stats st;
};

static void fall_back(incr_check *ic, const char *fmt, const char *arg) {
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
    inode n0 = { 0, NONE, 0, NONE, 0 };
    vec_push(ic->nodes, n0);
    ic->reach = reach_new();
    for (int c = 0; c < 32; c++) ic->wsa_free[c] = NONE;
    ic->ops_block = OPS_BLOCK;
    ic->ops_keep = OPS_KEEP;
    return ic;
}

void incr_free(incr_check *ic) {
    if (!ic) return;
    for (int l = 0; l < 2; l++) if (ic->lv[l].s) gsat_free(ic->lv[l].s);
    if (!ic->om_off) om_free(&ic->om);
    vec_free(ic->mval[0]); vec_free(ic->mval[1]);
    vec_foreach(isess, s, ic->sess) { vec_free(s->members); vec_free(s->order); }
    vec_foreach(opblock, b, ic->blocks) free(b->ops);
    vec_free(ic->blocks); vec_free(ic->wops); vec_free(ic->wide); free(ic->wslots); free(ic->wold); vec_free(ic->cand); vec_free(ic->settle_order);
    vec_free(ic->rpool); vec_free(ic->ppool);
    vec_foreach(ikey, k, ic->keys) {
        vec_free(k->by_sess); vec_free(k->top);
    }
    vec_free(ic->wsa);
    vec_free(ic->txns); vec_free(ic->sess); vec_free(ic->nodes); reach_free(ic->reach); vec_free(ic->srcs);
    vec_free(ic->writers); vec_free(ic->keys); vec_free(ic->waiting);
    vec_free(ic->stamp); vec_free(ic->wpos); vec_free(ic->own); vec_free(ic->ext_val); vec_free(ic->flags);
    vec_free(ic->reads); vec_free(ic->writes); vec_free(ic->succ); vec_free(ic->front); vec_free(ic->front_tmp); vec_free(ic->used);
    u64map_free(&ic->by_ext); u64map_free(&ic->sess_by_ext);
    free(ic);
}

int incr_failed_level(const incr_check *ic) { return ic->failed_level; }
void incr_set_rescan(incr_check *ic) { ic->rescan = 1; }
void incr_set_time_limit(incr_check *ic, double seconds) {
    for (int l = 0; l < 2; l++) if (ic->lv[l].on && ic->lv[l].s) gsat_set_time_limit(ic->lv[l].s, seconds);
}
const char *incr_why(const incr_check *ic) { return ic->why; }
const incr_stats *incr_get_stats(const incr_check *ic) { return &ic->st; }

/* ---- the graph ------------------------------------------------------- */

static int decided(const incr_check *ic, uint32_t e, uint32_t d);

/* Give the edge a -kind-> b under lit (0: always on) to each level's graph
 * and the kept model.  An always-on RW edge whose ends are already joined
 * over SO and WR edges (decided(a, b): a path, see below) is left out: a
 * cycle through it has one through the path, so acyclicity, every model
 * and every cycle the engine finds are the same (each made of edges that
 * are given, all real dependencies).  In the SI split graph the path is
 * start(a) -> commit(a) ~> start(b) -> commit(b), the edge start(a) ->
 * commit(b).  The SO and WR edges the path would take are given or, if
 * left out (add_txn), joined by a path of earlier ones in turn.  Half the
 * edges of a clean stream: at 200k transactions 0.74M of the 0.91M
 * always-on RW edges. */
static void edge(incr_check *ic, dep_kind kind, uint32_t a, uint32_t b, int lit) {
    if (!lit && kind == DEP_RW && a != 0 && a < b && decided(ic, a, b)) {   /* INIT reaches by convention, not a path */
        ic->st.implied++;
        return;
    }
    for (int l = 0; l < 2; l++) {
        ilevel *L = &ic->lv[l];
        if (!L->on) continue;
        uint32_t x, y;
        dg_dep_nodes(L->split, kind, a, b, &x, &y);
        gsat_graph_add_edge(L->s, L->graph, (int)x, (int)y, lit);
    }
    if (!ic->om_off) om_add_edge(&ic->om, kind, a, b, lit);
    ic->st.edges++;
}

static int new_var(incr_check *ic) {
    int v = 0;                                             /* the same number everywhere: created together */
    for (int l = 0; l < 2; l++)
        if (ic->lv[l].on) v = gsat_new_var(ic->lv[l].s);
    if (!ic->om_off && om_new_var(&ic->om) != v)         /* cannot happen: numbered together */
        fall_back(ic, "internal error: variable numbering diverged", NULL);
    return v;
}

/* e is certainly before d in every version order that could avoid a
 * cycle (see the file comment). */
static int decided(const incr_check *ic, uint32_t e, uint32_t d) {
    if (e == 0) return 1;
    const inode *x = &ic->nodes.data[e], *y = &ic->nodes.data[d];
    if (x->sess == y->sess) return x->ord < y->ord;
    uint32_t c = ic->sess.data[x->sess].chain;
    /* d's summary, fixed when d arrived, holds no later node (e > d) */
    return x->seq && c != NONE && e < d && reach_reaches(ic->reach, d, y->sess, y->seq, c, x->seq);
}

/* A writer record for node g's next final write (INIT's: g 0). */
static uint32_t new_writer_rec(incr_check *ic, uint32_t g) {
    iwriter w = { g, NONE, NONE };
    vec_push(ic->writers, w);
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
static uint32_t wop_rec(const incr_check *ic, uint32_t at) {
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

/* The literal of pair link i (plink): this writer before the other. */
static inline int pair_lit(const incr_check *ic, uint32_t i) {
    int x = ic->pvar0 + (int)(i >> 1);
    return i & 1 ? -x : x;
}

/* Reader r (a node) of writer w, at the head of its chain. */
static void push_reader(incr_check *ic, uint32_t w, uint32_t r) {
    iwriter *x = &ic->writers.data[w];
    rlink l = { r, x->rhead };
    x->rhead = (uint32_t)ic->rpool.len;
    vec_push(ic->rpool, l);
}

/* Pair (other, lit: w before other) of writer w, at the head of its chain. */
static void push_pair(incr_check *ic, uint32_t w, uint32_t other) {
    iwriter *x = &ic->writers.data[w];
    plink l = { other, x->phead };
    x->phead = (uint32_t)ic->ppool.len;
    vec_push(ic->ppool, l);
}

/* ---- the keys' writer lists (ikey_sess) --------------------------------- */

/* The room class of a list of n >= 2 writers: room for 1 << c. */
static uint32_t room_class(uint32_t n) {
    uint32_t c = 1;
    while ((1u << c) < n) c++;
    return c;
}

/* A room of class c in wsa: a freed one, else at the end. */
static uint32_t wsa_take(incr_check *ic, uint32_t c) {
    uint32_t at = ic->wsa_free[c];
    if (at != NONE) { ic->wsa_free[c] = ic->wsa.data[at].w; return at; }
    at = (uint32_t)ic->wsa.len;
    if (ic->wsa.len + ((size_t)1 << c) > UINT32_MAX) xalloc_fail(SIZE_MAX);
    vec_resize(ic->wsa, ic->wsa.len + ((size_t)1 << c));
    return at;
}

static inline const iws *ks_list(const incr_check *ic, const ikey_sess *ks) {
    return ks->n >= 2 ? ic->wsa.data + ks->at : &ks->last;
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
    if (n == 1 || room_class(n + 1) != room_class(n)) {    /* a bigger room (taking it may move wsa) */
        uint32_t to = wsa_take(ic, room_class(n + 1));
        memcpy(ic->wsa.data + to, ks_list(ic, ks), n * sizeof(iws));
        if (n >= 2) {                                      /* the old room goes on its free list */
            uint32_t c = room_class(n);
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
 * whose sequence number is at most front on its chain is *retired* (by
 * new_writer, when it looks at its session); used[c] is the highest
 * sequence number retired on chain c.  A session joins at a refresh once
 * its last node's summary is at least used everywhere, so every in
 * session's last node always is (retiring needs front, hence every in
 * session's last node at the last refresh, at least the number), and so is
 * every later node of an in session (no late transaction: it is its
 * session's last, its summary at least its predecessor's): a retired writer
 * is decided before every writer of an in session that arrives from now
 * on. */
static void refresh_front(incr_check *ic) {
    ic->since_front = 0;
    if (ic->late) return;                        /* no fast path any more (new_writer) */
    const uint32_t W = reach_chains(ic->reach);
    while (ic->front.len < W) { vec_push(ic->front, 0u); vec_push(ic->used, 0u); }   /* a new chain */
    vec_resize(ic->front_tmp, 2 * (size_t)W);
    uint32_t *lo = ic->front_tmp.data, *row = lo + W;
    for (uint32_t c = 0; c < W; c++) lo[c] = UINT32_MAX;
    int any = 0;
    vec_foreach(isess, s, ic->sess) {
        if (!s->members.len) continue;
        reach_row(ic->reach, vec_last(s->members), row);
        if (!s->front_in) {
            uint32_t c = 0;
            while (c < W && row[c] >= ic->used.data[c]) c++;
            if (c < W) continue;                 /* not yet: its writers take the full scan */
            s->front_in = 1;
        }
        for (uint32_t c = 0; c < W; c++) if (row[c] < lo[c]) lo[c] = row[c];
        any = 1;
    }
    for (uint32_t c = 0; c < W; c++) {
        if (!any) lo[c] = 0;
        if (lo[c] < ic->used.data[c]) {          /* cannot happen: every in session's last node is at least used */
            fall_back(ic, "internal error: the frontier fell behind a retired writer", NULL);
            return;
        }
        ic->front.data[c] = lo[c];
    }
}

/* Retire key K's session entry si (every writer on it is within the
 * frontier): count its writers, keep top (drop the writers it is decided
 * after, add its last writer unless it is decided before one kept), and
 * move the entry to the retired part of by_sess. */
static void retire_session(incr_check *ic, ikey *K, size_t si, uint32_t chain) {
    ikey_sess *ks = &K->by_sess.data[si];
    if (ks->last.seq > ic->used.data[chain]) ic->used.data[chain] = ks->last.seq;
    ic->st.retired += ks->n - ks->nret;
    K->nretw += ks->n - ks->nret;
    ks->nret = ks->n;
    const uint32_t x = ks->last.w, xg = ic->writers.data[x].g;
    size_t kept = 0;
    int below = 0;
    for (size_t i = 0; i < K->top.len; i++) {
        uint32_t m = K->top.data[i], mg = ic->writers.data[m].g;
        if (decided(ic, mg, xg)) continue;       /* m < x: x covers it */
        below |= decided(ic, xg, mg);
        K->top.data[kept++] = m;
    }
    K->top.len = kept;
    if (!below) vec_push(K->top, x);
    size_t to = K->nret_sess++;
    if (to != si) {
        ikey_sess t = K->by_sess.data[to]; K->by_sess.data[to] = K->by_sess.data[si]; K->by_sess.data[si] = t;
    }
}

/* Writer d (graph node g) of key joins: every pair with an earlier writer
 * is decided or gets a variable. */
static void new_writer(incr_check *ic, uint32_t key, uint32_t g) {
    uint32_t d = new_writer_rec(ic, g);
    ic->st.writers++;
    ikey *K = &ic->keys.data[key];
    K->last_g = g;
    uint32_t sess = ic->nodes.data[g].sess;
    size_t mi = 0;
    while (mi < K->by_sess.len && K->by_sess.data[mi].sess != sess) mi++;
    if (mi == K->by_sess.len) {
        if (K->by_sess.len == K->by_sess.cap) {
            K->by_sess.cap = K->by_sess.cap < 4 ? 4 : K->by_sess.cap + K->by_sess.cap / 4;
            K->by_sess.data = xrealloc(K->by_sess.data, K->by_sess.cap * sizeof *K->by_sess.data);
        }
        ikey_sess n;
        memset(&n, 0, sizeof n);
        n.sess = sess;
        K->by_sess.data[K->by_sess.len++] = n;
    } else if (mi < K->nret_sess) {
        /* a wholly retired session gets a writer: back to the other part */
        size_t to = --K->nret_sess;
        ikey_sess t = K->by_sess.data[to]; K->by_sess.data[to] = K->by_sess.data[mi]; K->by_sess.data[mi] = t;
        mi = to;
    }
    ikey_sess *mine = &K->by_sess.data[mi];
    uint32_t at = mine->n;
    uint64_t ord = ic->nodes.data[g].ord;
    /* with no late transaction d is its session's last node: no search */
    while (ic->late && at > 0 && ic->nodes.data[ic->writers.data[ks_list(ic, mine)[at - 1].w].g].ord > ord) at--;
    if (at < mine->nret) mine->nret = at;               /* a late one (the frontier is not used any more) */
    uint32_t p = at > 0 ? ks_list(ic, mine)[at - 1].w : NONE;
    iws nw = { d, ic->nodes.data[g].seq };
    ks_insert(ic, mine, at, nw);
    uint32_t pg = p == NONE ? NONE : ic->writers.data[p].g;

    /* The frontier (file comment): when d's session is in and no
     * transaction came late, every retired writer is decided before d, and
     * INV holds for each through a writer of top (INV for e < m, then
     * m ~> d); the retired sessions are not looked at, nor the retired
     * prefix of the others, and top's writers are candidates below. */
    const int fast = !ic->late && ic->sess.data[sess].front_in;
    /* The key's pivot: every writer that arrived before it is decided before
     * it (checked when it arrived; decisions are stable).  If the pivot is
     * decided before d, so is every such writer e (e ~> pivot ~> d), and INV
     * holds for e < d through the pivot (INV for e < pivot, then pivot ~> d):
     * the pair needs neither a variable nor edges, and a session whose
     * writers all arrived before the pivot is not looked at.  The pivot's
     * own session is (its last arrival is the pivot or later), so INV for
     * pivot < d is established below as for any writer. */
    const int pivot_ok = K->pivot_g != NONE && decided(ic, K->pivot_g, g);
    int all_before = 1;                          /* every earlier writer is decided before d: d becomes the pivot */
    size_t nsess = K->by_sess.len;
    int other_before = fast && K->nretw > 0;     /* a writer other than INIT is decided before d */
    for (size_t si = fast ? K->nret_sess : 0; si <= nsess; si++) {
        const uint32_t ssid = si < nsess ? K->by_sess.data[si].sess : NONE;
        const size_t jr = fast && si < nsess ? K->by_sess.data[si].nret : 0;   /* the writers before jr are retired */
        if (fast && si < nsess && ssid != sess) {
            /* every writer of the session within the frontier: retired (d is
             * not: its sequence number is past every refresh) */
            uint32_t fc = ic->sess.data[ssid].chain;
            const uint32_t ls = K->by_sess.data[si].last.seq;
            if (fc < ic->front.len && ls && ls <= ic->front.data[fc]) {
                retire_session(ic, K, si, fc);   /* swaps in an entry already looked at */
                other_before = 1;
                continue;
            }
        }
        if (!ic->late && si < nsess && ssid == sess) {
            /* d's own session, d its last writer (no late transaction): the
             * writers before p are decided before p (INV holds through p),
             * p is decided before d and a candidate (its next is d) */
            const size_t nown = K->by_sess.data[si].n;
            if (nown - 1 > jr) {
                ic->st.pairs_decided += nown - 1 - jr;
                other_before = 1;
                vec_push(ic->succ, ks_list(ic, &K->by_sess.data[si])[nown - 2].w);
            }
            continue;
        }
        if (pivot_ok && si < nsess && ks_latest(ic, &K->by_sess.data[si]) < K->pivot_w) {
            ic->st.pairs_decided += K->by_sess.data[si].n - jr;
            ic->st.pairs_skipped += K->by_sess.data[si].n - jr;
            other_before = 1;                    /* a by_sess entry holds a writer */
            continue;
        }
        size_t n = si == nsess ? 1 : K->by_sess.data[si].n, j0 = 0;
        /* Writers of another session: decided(e, d) is "e's sequence number
         * (kept beside the list) is at most d's ancestor summary on e's
         * chain", so it needs neither e's node nor its session (cache
         * misses: a third of the encoding's time); likewise before p. */
        const int other = si < nsess && ssid != sess;
        const iws *sq = si < nsess ? ks_list(ic, &K->by_sess.data[si]) : NULL;
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
                    other_before = 1;
                    if (pg == NONE) vec_push(ic->succ, K->by_sess.data[si].last.w);
                    continue;
                }
                while (lo < hi) {
                    size_t mid = (lo + hi) / 2;
                    if (sq[mid].seq <= bound) lo = mid + 1;
                    else hi = mid;
                }
                j0 = pg == NONE && lo > jr ? lo - 1 : lo;
                ic->st.pairs_decided += j0 - jr;
                other_before |= lo > 0;
            }
        }
        if (j0 < jr) j0 = jr;
        for (size_t j = j0; j < n; j++) {
            uint32_t e = si == nsess ? K->init_w : sq[j].w;
            if (e == d) continue;
#define BEFORE(k, bound) (c != NONE && sq[k].seq && sq[k].seq <= (bound))   /* decided(writer k of si, d or p) */
            if (other ? BEFORE(j, bd) : decided(ic, ic->writers.data[e].g, g)) {
                ic->st.pairs_decided++;
                if (si < nsess) other_before = 1;
                if (pg != NONE && (other ? BEFORE(j, bp) : decided(ic, ic->writers.data[e].g, pg))) continue;   /* INV holds through p */
                /* INV through a later writer e' decided before d: e's next on
                 * its session, or (for INIT) any other */
                if (si < nsess && j + 1 < n &&
                    (other ? BEFORE(j + 1, bd) : decided(ic, ic->writers.data[sq[j + 1].w].g, g))) continue;
#undef BEFORE
                if (si == nsess && other_before) continue;
                vec_push(ic->succ, e);                   /* a candidate: see below */
                continue;
            }
            uint32_t a = ic->writers.data[e].g;
            all_before = 0;
            if (decided(ic, g, a)) {
                ic->st.pairs_decided++;                                    /* d has no readers yet */
            } else {
                int x = new_var(ic);
                if (!ic->pvar0) ic->pvar0 = x;
                if (x != ic->pvar0 + (int)(ic->ppool.len / 2)) {     /* pair_lit's numbering */
                    fall_back(ic, "internal error: pair variables not consecutive", NULL);
                    vec_clear(ic->succ);
                    return;
                }
                ic->st.pairs_var++;
                edge(ic, DEP_WW, a, g, x);
                for (uint32_t r = ic->writers.data[e].rhead; r != NONE; r = ic->rpool.data[r].next) {
                    uint32_t rd = ic->rpool.data[r].r;
                    if (rd != g) edge(ic, DEP_RW, rd, g, x);
                }
                edge(ic, DEP_WW, g, a, -x);
                push_pair(ic, e, d);                     /* entry 2k: x */
                push_pair(ic, d, e);                     /* 2k + 1: -x */
            }
        }
    }
    if (fast && K->nretw) {
        /* the retired writers: decided before d, not looked at; of top, the
         * candidates are those whose INV is not known to hold through p or
         * through their session's next writer (decided before d) */
        ic->st.pairs_decided += K->nretw;
        ic->st.pairs_skipped += K->nretw;
        ic->st.pairs_retired += K->nretw;
        for (size_t i = 0; i < K->top.len; i++) {
            uint32_t m = K->top.data[i], mg = ic->writers.data[m].g;
            if (pg != NONE && decided(ic, mg, pg)) continue;
            uint32_t ms = ic->nodes.data[mg].sess;
            size_t ki = 0;
            while (ki < K->by_sess.len && K->by_sess.data[ki].sess != ms) ki++;
            const ikey_sess *ks = &K->by_sess.data[ki];    /* m's session: it holds m */
            const iws *kl = ks_list(ic, ks);
            if (ks->nret > 0 && ks->nret < ks->n && kl[ks->nret - 1].w == m &&
                decided(ic, ic->writers.data[kl[ks->nret].w].g, g)) continue;
            vec_push(ic->succ, m);
        }
    }
    /* The candidates: writers e decided before d whose INV is not known to
     * hold through p or their session's next.  INV holds for e through any
     * other writer f decided after e and before d (INV for e < f, then
     * f ~> d), so only the latest candidates (that no other one follows)
     * give their readers RW edges to d. */
    for (size_t i = 0; i < ic->succ.len; i++) {
        uint32_t e = ic->succ.data[i], a = ic->writers.data[e].g;
        int covered = 0;
        for (size_t j = 0; j < ic->succ.len && !covered; j++) {
            uint32_t f = ic->writers.data[ic->succ.data[j]].g;
            covered = j != i && decided(ic, a, f) && !decided(ic, f, a);
        }
        if (covered) {                           /* count its readers (the stats only: no count kept) */
            for (uint32_t r = ic->writers.data[e].rhead; r != NONE; r = ic->rpool.data[r].next) ic->st.rw_covered++;
            continue;
        }
        for (uint32_t r = ic->writers.data[e].rhead; r != NONE; r = ic->rpool.data[r].next) {
            uint32_t rd = ic->rpool.data[r].r;
            if (rd != g) edge(ic, DEP_RW, rd, g, 0);
        }
    }
    vec_clear(ic->succ);
    if (all_before) { K->pivot_g = g; K->pivot_w = d; }
}

/* Reader r (graph node) of writer w joins: RW edges to every writer after
 * w, under the pair variables w has, and to w's first decided successor
 * on each session (INV). */
static void new_reader(incr_check *ic, uint32_t key, uint32_t w, uint32_t r) {
    push_reader(ic, w, r);
    uint32_t a = ic->writers.data[w].g;
    for (uint32_t i = ic->writers.data[w].phead; i != NONE; i = ic->ppool.data[i].next) {
        ipair pr = { ic->ppool.data[i].other, pair_lit(ic, i) };
        uint32_t og = ic->writers.data[pr.other].g;
        if (og == r) continue;
        if (decided(ic, og, r)) {
            /* pruning, locally: side "w before other" now has r -RW-> other
             * while other reaches r, a cycle; so other comes first (a
             * level-0 fact, never decided on again) */
            int unit = -pr.lit;
            for (int l = 0; l < 2; l++)
                if (ic->lv[l].on) gsat_add_clause(ic->lv[l].s, &unit, 1);
            if (!ic->om_off) om_unit(&ic->om, unit);
            ic->st.pairs_pruned++;
        } else edge(ic, DEP_RW, r, og, pr.lit);
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
            if (!decided(ic, a, dg)) continue;
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
            covered = j != i && decided(ic, ic->succ.data[j], dg) && !decided(ic, dg, ic->succ.data[j]);
        if (covered) { ic->st.rw_covered++; continue; }
        edge(ic, DEP_RW, r, dg, 0);
    }
    vec_clear(ic->succ);
}

/* ---- the stored transactions ----------------------------------------- */

static uint64_t wr_hash(uint32_t key, int64_t value) {
    return u64_mix((uint64_t)value ^ ((uint64_t)key * 0x9e3779b97f4a7c15ULL));
}

/* The high half of wide entry `at` of wops (it is listed). */
static uint32_t wide_hi(const incr_check *ic, uint32_t at) {
    size_t lo = 0, hi = ic->wide.len;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ic->wide.data[mid].at <= at) lo = mid;
        else hi = mid;
    }
    return ic->wide.data[lo].hi;
}

/* Entry at of wops is a write of value to key. */
static inline int wop_is(const incr_check *ic, uint32_t at, uint32_t key, int64_t value) {
    const iwop *w = &ic->wops.data[at];
    if (w->key != key || w->vlo != (uint32_t)(uint64_t)value) return 0;
    if (!(w->txn & WOP_WIDE)) return value_narrow(value);
    return !value_narrow(value) && wide_hi(ic, at) == (uint32_t)((uint64_t)value >> 32);
}

/* The value entry at of wops wrote. */
static inline int64_t wop_value(const incr_check *ic, uint32_t at) {
    const iwop *w = &ic->wops.data[at];
    if (!(w->txn & WOP_WIDE)) return (int64_t)(int32_t)w->vlo;
    return (int64_t)((uint64_t)wide_hi(ic, at) << 32 | w->vlo);
}

/* The write of value to key in table t (mask m), or NONE; *slot (if
 * given) gets where the probe ended: that write's slot or the empty one. */
static uint32_t wtable_find(const incr_check *ic, const uint32_t *t, uint64_t m, uint32_t key, int64_t value,
                            uint64_t *slot) {
    uint64_t i = wr_hash(key, value) & m;
    for (;; i = (i + 1) & m) {
        uint32_t op = t[i];
        if (!op || wop_is(ic, op - 1, key, value)) {
            if (slot) *slot = i;
            return op ? op - 1 : NONE;
        }
    }
}

/* The stored successful write of value to key (an index in wops), or NONE:
 * in the new table, else among those not moved yet, in the old one (one
 * found there is in no other: a moved one would be in the new). */
static uint32_t writer_op(const incr_check *ic, uint32_t key, int64_t value) {
    if (!ic->wslots) return NONE;
    uint32_t op = wtable_find(ic, ic->wslots, ic->wmask, key, value, NULL);
    if (op == NONE && ic->wold) op = wtable_find(ic, ic->wold, ic->woldmask, key, value, NULL);
    return op;
}

/* Move up to n of the writes still waiting into the new table; the old
 * table goes once none waits. */
static void wtable_move(incr_check *ic, uint64_t n) {
    for (; n && ic->wmoved < ic->wmove_end; n--, ic->wmoved++) {
        const iwop *w = &ic->wops.data[ic->wmoved];
        uint64_t j = wr_hash(w->key, wop_value(ic, (uint32_t)ic->wmoved)) & ic->wmask;
        while (ic->wslots[j]) j = (j + 1) & ic->wmask;
        ic->wslots[j] = (uint32_t)ic->wmoved + 1;
    }
    if (ic->wold && ic->wmoved == ic->wmove_end) { free(ic->wold); ic->wold = NULL; }
}

/* Index transaction txn's successful write of value to key: its entry in
 * wops, or NONE if another write wrote that value.  Every entry of wops is
 * in the tables (wlen == wops.len). */
static uint32_t index_write(incr_check *ic, uint32_t key, int64_t value, uint32_t txn, int over) {
    if ((ic->wlen + 1) * 2 > ic->wmask + 1 || !ic->wslots) {
        /* twice the room: the wlen writes waiting are moved, 4 a write,
         * before wlen more come (the next doubling), so the new table is at
         * most half full and the old one (none waits by then) is gone */
        wtable_move(ic, UINT64_MAX);
        uint64_t cap = ic->wslots ? (ic->wmask + 1) * 2 : 16;   /* small: tests cross many doublings */
        ic->wold = ic->wslots;
        ic->woldmask = ic->wmask;
        ic->wslots = xcalloc(cap, sizeof *ic->wslots);
        ic->wmask = cap - 1;
        ic->wmoved = 0;
        ic->wmove_end = ic->wold ? ic->wlen : 0;
    }
    wtable_move(ic, 4);
    uint64_t i;                  /* one probe of the new table: the match, or the slot for the new write */
    if (wtable_find(ic, ic->wslots, ic->wmask, key, value, &i) != NONE ||
        (ic->wold && wtable_find(ic, ic->wold, ic->woldmask, key, value, NULL) != NONE)) return NONE;
    const int wide = !value_narrow(value);
    iwop w = { key, txn | (over ? WOP_OVER : 0) | (wide ? WOP_WIDE : 0), (uint32_t)(uint64_t)value };
    uint32_t at = (uint32_t)ic->wops.len;
    vec_push(ic->wops, w);
    if (wide) {
        iwide x = { at, (uint32_t)((uint64_t)value >> 32) };
        vec_push(ic->wide, x);
    }
    ic->wslots[i] = at + 1;
    ic->wlen++;
    return at;
}

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
static iop *txn_ops(const incr_check *ic, const itxn *x) {
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
static void op_done(incr_check *ic, uint32_t id) {
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
static void ops_release(incr_check *ic) {
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

static int op_is_read(uint8_t kind) { return (kind & OP_KIND_MASK) == OP_READ && !(kind & OP_FAILED); }
static int op_is_write(uint8_t kind) { return (kind & OP_KIND_MASK) == OP_WRITE && !(kind & OP_FAILED); }

/* A new key (the next id), named by its integer ident. */
static void add_key(incr_check *ic, uint64_t ident, int64_t ext, int named) {
    ikey n;
    memset(&n, 0, sizeof n);
    n.ident = ident;
    n.ext = ext;
    n.named = named;
    n.pivot_g = NONE;
    vec_push(ic->keys, n);
    uint32_t k = (uint32_t)ic->keys.len - 1;
    ic->keys.data[k].init_w = new_writer_rec(ic, 0);
    vec_push(ic->stamp, 0u);
    vec_push(ic->own, 0);
    vec_push(ic->wpos, 0);
    vec_push(ic->ext_val, 0);
    vec_push(ic->flags, 0u);
}

/* The stable session with this id (created on first use). */
static uint32_t session_of(incr_check *ic, int64_t ext) {
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
static uint32_t store_txn(incr_check *ic, int64_t ext, uint32_t S, uint8_t status, const incr_op *ops, uint32_t n) {
    uint32_t id = (uint32_t)ic->txns.len;
    if (u64map_put(&ic->by_ext, (uint64_t)ext, id) != id) {     /* one probe: put keeps a present id */
        fall_back(ic, "a transaction id appears twice, or a transaction changed", NULL);
        return NONE;
    }
    isess *s = &ic->sess.data[S];
    itxn x = { ext, S, (uint32_t)s->order.len, NONE, ic->nops, n, 0, status, 0 };
    if ((uint64_t)ic->nops + n > UINT32_MAX - 1 || id >= WOP_WIDE) { fall_back(ic, "too many transactions or operations", NULL); return NONE; }
    vec_push(ic->txns, x);
    vec_push(s->order, id);
    vec_push(ic->cand, id);
    uint32_t serial = ++ic->serial;
    for (uint32_t i = n; i-- > 0;) {                 /* backwards: a write is overwritten by a later one */
        unsigned k = ops[i].kind & OP_KIND_MASK;
        if (k != OP_READ && k != OP_WRITE) { fall_back(ic, "list-append histories are checked from scratch", NULL); return NONE; }
        if (ops[i].key >= ic->keys.len) { fall_back(ic, "internal error: an unknown key", NULL); return NONE; }
    }
    iop *o = n ? ops_reserve(ic, n) : NULL;
    for (uint32_t i = 0; i < n; i++) {
        iop y = { ops[i].value, ops[i].key, ops[i].line, NONE, (uint8_t)(ops[i].kind & (unsigned)~OP_OVERWRITTEN) };
        o[i] = y;
    }
    for (uint32_t i = n; i-- > 0;) {
        if (!op_is_write(o[i].kind)) continue;
        if (ic->stamp.data[o[i].key] == serial) o[i].kind |= OP_OVERWRITTEN;
        ic->stamp.data[o[i].key] = serial;
    }
    /* the final writes' entries first, the overwritten ones after them:
     * a final write's record is then its transaction's first plus its
     * distance from the first entry (wop_rec) */
    for (int over = 0; over <= 1; over++)
        for (uint32_t i = n; i-- > 0;) {
            if (!op_is_write(o[i].kind) || !(o[i].kind & OP_OVERWRITTEN) != !over) continue;
            o[i].link = index_write(ic, o[i].key, o[i].value, id, over);
            if (o[i].link == NONE) { fall_back(ic, "a value written twice to one key", NULL); return NONE; }
        }
    return id;
}

/* ---- the history ----------------------------------------------------- */

static uint32_t stable_of(const incr_check *ic, const history *h, uint32_t t) {
    return t == 0 ? 0 : u64map_get(&ic->by_ext, (uint64_t)h->txns[t].ext_id);
}

/* The index in h of stable transaction id (NONE if h lacks it). */
static uint32_t h_index(incr_check *ic, const history *h, uint32_t id) {
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
        incr_op o = { h->op_kind[op], h->op_key[op], h->op_value[op], history_op_line(h, op) };
        vec_push(ops, o);
    }
    uint32_t id = store_txn(ic, x->ext_id, S, x->status, ops.data, x->num_ops);
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
        uint32_t S = session_of(ic, hx->ext_id);
        isess *s = &ic->sess.data[S];
        if (s->hsess != NONE) { fall_back(ic, "a session appears twice", NULL); return 0; }
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
                    fall_back(ic, "a transaction id appears twice, or a transaction changed", NULL);
                    vec_free(order);
                    return 0;
                }
                known++;
            }
            ic->txns.data[id].hpos = pos;
            vec_push(order, id);
        }
        s = &ic->sess.data[S];
        if (known != seen) { fall_back(ic, "a completed transaction disappeared", NULL); vec_free(order); return 0; }
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
    iop *ops = txn_ops(ic, x);                       /* not done: kept */
    for (uint32_t i = 0; i < x->num_ops; i++) {
        iop *o = &ops[i];
        if (!op_is_read(o->kind) || o->value == VALUE_INIT) continue;
        uint32_t w = o->link;
        if (w == NONE) {
            w = writer_op(ic, o->key, o->value);
            if (w == NONE) return 0;
            o->link = w;
        }
        uint32_t wt = wop_txn(&ic->wops.data[w]);
        if (wt != id && !ic->txns.data[wt].settled) return 0;
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
            if (ic->keys.data[k].ident != ident) { fall_back(ic, "key ids changed between histories", NULL); return 0; }
            continue;
        }
        add_key(ic, ident, h->key_ext[k], h->key_name[k] != HISTORY_NONE);
    }
    return 1;
}

/* Stable transaction id's external reads (source: stable txn) and final
 * writes, with the register axioms checked on the way (INT, aborted,
 * intermediate and own-future reads); 0 (fallback) if one breaks: the
 * batch check names it. */
static int read_ops(incr_check *ic, uint32_t id) {
    const itxn *x = &ic->txns.data[id];
    uint32_t serial = ++ic->serial;
    vec_clear(ic->reads);
    vec_clear(ic->writes);
    const iop *ops = txn_ops(ic, x);                 /* not done: kept */
    for (uint32_t i = 0; i < x->num_ops; i++) {
        const iop *o = &ops[i];
        uint32_t k = o->key;
        int64_t v = o->value;
        if (ic->stamp.data[k] != serial) { ic->stamp.data[k] = serial; ic->flags.data[k] = 0; }
        if (op_is_write(o->kind)) {
            ic->own.data[k] = v;
            if (!(ic->flags.data[k] & 1)) {
                final_write fw = { k, o->link };
                ic->wpos.data[k] = (uint32_t)ic->writes.len;
                vec_push(ic->writes, fw);
            } else ic->writes.data[ic->wpos.data[k]].op = o->link;   /* written again: its final write moves */
            ic->flags.data[k] |= 1;
            continue;
        }
        if (!op_is_read(o->kind)) continue;
        if (ic->flags.data[k] & 1) {
            if (v != ic->own.data[k]) { fall_back(ic, "internal inconsistency (a read after the own write)", NULL); return 0; }
            continue;
        }
        if (ic->flags.data[k] & 2) {
            if (v != ic->ext_val.data[k]) { fall_back(ic, "internal inconsistency (two reads disagree)", NULL); return 0; }
            continue;
        }
        ic->flags.data[k] |= 2;
        ic->ext_val.data[k] = v;
        uint32_t src = 0, wop = NONE;
        if (v != VALUE_INIT) {
            uint32_t w = o->link;                              /* found by reads_settled */
            if (w == NONE) w = writer_op(ic, k, v);
            if (w == NONE) { fall_back(ic, "a thin-air read among settled transactions", NULL); return 0; }
            uint32_t wt = wop_txn(&ic->wops.data[w]);
            if (wt == id) { fall_back(ic, "a read of the transaction's own later write", NULL); return 0; }
            if (ic->wops.data[w].txn & WOP_OVER) { fall_back(ic, "an intermediate read", NULL); return 0; }
            if (ic->txns.data[wt].status == TXN_ABORTED) { fall_back(ic, "an aborted read", NULL); return 0; }
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
        if (src == NONE || !ic->txns.data[src].settled) { fall_back(ic, "a reader settled before its writer", NULL); return 0; }
        if (ic->txns.data[src].g != NONE) continue;
        ext_read_vec keep = ic->reads;                /* the recursion reuses the scratch */
        final_write_vec keepw = ic->writes;
        vec_init(ic->reads); vec_init(ic->writes);
        int ok = add_txn(ic, src);
        vec_free(ic->reads); vec_free(ic->writes);
        ic->reads = keep; ic->writes = keepw;
        if (!ok) return 0;
    }
    if (++ic->since_front >= FRONT_EVERY) refresh_front(ic);
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
        if (hi - lo < 2) { fall_back(ic, "too many transactions arrived out of session order", NULL); return 0; }
        n.ord = lo + (hi - lo) / 2;
    }
    vec_push(ic->nodes, n);
    vec_push(s->members, 0u);
    memmove(s->members.data + at + 1, s->members.data + at, (s->members.len - 1 - at) * sizeof *s->members.data);
    s->members.data[at] = g;
    x->g = g;
    op_done(ic, id);                                  /* read_ops is behind it */
    ic->st.txns_in_graph++;
    for (int l = 0; l < 2; l++)
        if (ic->lv[l].on) gsat_graph_add_nodes(ic->lv[l].s, ic->lv[l].graph, ic->lv[l].split ? 2 : 1);
    if (!ic->om_off) om_add_txn(&ic->om);
    /* reachability summary: the ancestors of its in-neighbours, and itself */
    vec_clear(ic->srcs);
    for (size_t i = 0; i < ic->reads.len; i++) vec_push(ic->srcs, ic->txns.data[ic->reads.data[i].src].g);
    if (reach_add_node(ic->reach, n.sess, s->chain, n.seq, prev, ic->srcs.data, ic->srcs.len) != g) {
        fall_back(ic, "internal error: reachability numbering diverged", NULL);
        return 0;
    }
    /* known edges */
    if (ic->lv[0].on) {
        gsat_graph_add_edge(ic->lv[0].s, ic->lv[0].graph, (int)dg_start(g), (int)dg_commit(g), 0);
        if (!ic->om_off) om_add_edge(&ic->om, DEP_FIXED, g, g, 0);
    }
    if (prev != NONE) edge(ic, DEP_SO, prev, g, 0);
    if (next != NONE) edge(ic, DEP_SO, g, next, 0);
    for (size_t i = 0; i < ic->reads.len; i++) {
        /* A WR edge from a writer that g's session predecessor already has
         * as an ancestor (or is: the SO edge) is implied by that path and
         * the SO edge, and so is a second one from the same writer (two
         * keys read from it): left out (edge() says why that is exact);
         * four in five WR edges of a clean stream.  Not decided(src, g):
         * g's summary holds src through this very edge. */
        uint32_t src = ic->reads.data[i].src;
        if (src == 0) continue;
        uint32_t sg = ic->txns.data[src].g;
        int implied = prev != NONE && (sg == prev || decided(ic, sg, prev));
        for (size_t j = 0; j < i && j < 64 && !implied; j++) implied = ic->reads.data[j].src == src;
        if (implied) ic->st.implied++;
        else edge(ic, DEP_WR, sg, g, 0);
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
    for (size_t i = 0; i < ic->writes.len; i++) new_writer(ic, ic->writes.data[i].key, g);
    for (size_t i = 0; i < ic->reads.len; i++) {
        uint32_t src = ic->reads.data[i].src, k = ic->reads.data[i].key, op = ic->reads.data[i].op;
        uint32_t w = src == 0 ? ic->keys.data[k].init_w : wop_rec(ic, op);
        if (w == NONE) { fall_back(ic, "a read of a version that is not its writer's last", NULL); return 0; }
        new_reader(ic, k, w, g);
    }
    return 1;
}

/* Settle the candidates to a fixpoint, add the settled participants to
 * the graphs, and solve if the kept model does not extend. */
static int settle_and_solve(incr_check *ic, uint32_t *num_settled, uint32_t *fresh) {
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
            if (p > 0 && !ic->txns.data[order->data[p - 1]].settled) continue;
            if (!reads_settled(ic, id)) continue;
            x->settled = 1;
            vec_push(got, id);
            changed = 1;
        }
    }
    vec_foreach(uint32_t, c, cand) if (!ic->txns.data[*c].settled) vec_push(ic->waiting, *c);
    vec_free(cand);
    ic->settled += (uint32_t)got.len;
    vec_foreach(uint32_t, g, got) vec_push(ic->settle_order, *g);
    *num_settled = ic->settled;
    *fresh = (uint32_t)got.len;
    if (got.len) refresh_front(ic);
    for (size_t i = 0; i < got.len && !ic->fallback; i++) {
        uint8_t st = ic->txns.data[got.data[i]].status;
        if (st == TXN_COMMITTED) add_txn(ic, got.data[i]);
        else if (st == TXN_ABORTED) op_done(ic, got.data[i]);      /* never takes part (an indeterminate one may) */
    }
    vec_free(got);
    if (!ic->fallback) ops_release(ic);
    if (ic->fallback) return INCR_FALLBACK;
    if (!*fresh) return INCR_PASS;
    if (!ic->om_off && om_holds(&ic->om)) { ic->st.kept_model++; return INCR_PASS; }   /* the old choices extend: no solve */
    for (int l = 1; l >= 0; l--) {                  /* SER (1) first, then SI (0) */
        if (!ic->lv[l].on) continue;
        ic->st.solves++;
        int r = gsat_solve(ic->lv[l].s, NULL, 0);
        if (r == GSAT_UNSAT) { ic->failed_level = l; return INCR_FAIL; }
        if (r != GSAT_SAT) {
            const char *e = gsat_error(ic->lv[l].s);
            fall_back(ic, e ? "the solver failed: %s" : "the solver hit a limit", e);
            return INCR_FALLBACK;
        }
    }
    if (ic->om_off) return INCR_PASS;
    if (ic->om.resets >= 4 && ic->om.resets > 2 * ic->st.kept_model) {
        /* rebuilding it costs a pass over the graph per solve: when the new
         * edges keep contradicting the old choices, drop it and just solve */
        om_free(&ic->om);
        ic->om_off = 1;
        return INCR_PASS;
    }
    gsat *models[2] = { ic->lv[0].s, ic->lv[1].s };
    if (!om_reset(&ic->om, models)) { fall_back(ic, "internal error: the solver's model leaves a cycle", NULL); return INCR_FALLBACK; }
    return INCR_PASS;
}


int incr_update(incr_check *ic, const history *h, uint32_t *num_settled, uint32_t *fresh) {
    *fresh = 0;
    *num_settled = ic->settled;
    if (ic->dropped) fall_back(ic, "internal error: a check after the engines were dropped", NULL);
    if (ic->fallback) return INCR_FALLBACK;
    if (h->has_lists) { fall_back(ic, "list-append histories are checked from scratch", NULL); return INCR_FALLBACK; }
    if (!map_keys(ic, h) || !map_history(ic, h)) return INCR_FALLBACK;
    return settle_and_solve(ic, num_settled, fresh);
}

void incr_add_key(incr_check *ic, int64_t ext_key) {
    if (!ic->fallback) add_key(ic, u64_mix((uint64_t)ext_key), ext_key, 0);
}

uint32_t incr_num_keys(const incr_check *ic) { return (uint32_t)ic->keys.len; }

int incr_written(const incr_check *ic, uint32_t key, int64_t value) {
    if (ic->fallback) return -1;                 /* a store may have stopped half way */
    return writer_op(ic, key, value) != NONE;
}

int incr_add_txn(incr_check *ic, const incr_txn *t) {
    if (ic->fallback) return 0;
    return store_txn(ic, t->ext_id, session_of(ic, t->session), t->status, t->ops, t->num_ops) != NONE;
}

int incr_check_added(incr_check *ic, uint32_t *num_settled, uint32_t *fresh) {
    *fresh = 0;
    *num_settled = ic->settled;
    if (ic->dropped) fall_back(ic, "internal error: a check after the engines were dropped", NULL);
    if (ic->fallback) return INCR_FALLBACK;
    return settle_and_solve(ic, num_settled, fresh);
}

/* Window order: by session, then position in it. */
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
        if (ic->txns.data[id].num_ops && !txn_ops(ic, &ic->txns.data[id])) {   /* freed (OPS_KEEP): no witness */
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
        const iop *ops = txn_ops(ic, x);
        for (uint32_t op = 0; op < x->num_ops; op++) {
            const iop *o = &ops[op];
            if (op_is_read(o->kind) && o->value != VALUE_INIT) {
                uint32_t w = writer_op(ic, o->key, o->value);
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
        uint32_t id = stable_of(ic, h, t);
        f[t] = id != NONE && ic->txns.data[id].settled;
    }
    return f;
}

/* ---- the witness ----------------------------------------------------- */

/* Writer a of a key before writer b in the last model (the pair is decided
 * or has a variable: see new_writer). */
static int model_before(const incr_check *ic, int level, uint32_t a, uint32_t b) {
    uint32_t ga = ic->writers.data[a].g, gb = ic->writers.data[b].g;
    if (decided(ic, ga, gb)) return 1;
    if (decided(ic, gb, ga)) return 0;
    for (uint32_t i = ic->writers.data[a].phead; i != NONE; i = ic->ppool.data[i].next)
        if (ic->ppool.data[i].other == b) {
            const int lit = pair_lit(ic, i), v = lit < 0 ? -lit : lit;
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
            if (model_before(ic, level, a[i], a[j]) != 1) {
                fprintf(stderr, "online_incr: internal error: a key's order disagrees with the model\n");
                abort();
            }
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
            uint32_t t = h_index((incr_check *)ic, h, ic->nodes.data[ic->writers.data[ws.data[i]].g].txn);
            if (t == NONE) ok = 0;
            else vec_push(vo->txns, t);
        }
    }
    vo->start[h->num_keys] = (uint32_t)vo->txns.len;
    vec_free(ws);
    vec_free(tmp);
    return ok;
}

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
