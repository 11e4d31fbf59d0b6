/* incr_internal.h — the state of the incremental check (frontend/online/incr.h)
 * and what its files share.  The check of the settled part of a growing
 * register history (why a FAIL is final: doc/checker.md, "Online
 * checking") is done by
 *   incr.c          the state's life, the entry points, the end of input;
 *   incr_writes.c   the stored transactions and operations;
 *   incr_windex.c   every successful write (wops) and the (key, value) index;
 *   incr_settle.c   settling, a transaction joining the graph, solving;
 *   incr_graph.c    the graph: edges, variables, a key's writer lists, the
 *                   frontier, a new writer's pairs, a new reader's edges;
 *   incr_witness.c  the version order of the last model, a witness window.
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
 * summarized per node (frontend/online/reach_summary.h) as the highest sequence number,
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
 * reaches is sealed, and decided before every later writer of those
 * sessions; a key's top writers are the sealed ones no other sealed one
 * is decided after.  A new writer of a session taking part skips the
 * sealed writers; INV holds for them through a top writer, whose own INV
 * is established as for any writer (doc/checker.md, "What is incremental").
 *
 * Memory.  The arrays that grow with the stream and are read all over
 * (txns, wops and the write table, nodes, writers, rpool, ppool, keys,
 * wsa, settle_order; the summaries' per-node array) grow through
 * io/bigmem.h, which asks for transparent huge pages: at 10M transactions
 * they are GBs, a record a cache miss, and with 4 KB pages each miss
 * was a TLB miss too (doc/benchmarks.md, "follow45").
 *
 * Transactions arriving out of session order (a late one: a text
 * transaction completed after its successor, an indeterminate writer that
 * becomes observed) get an order label between their neighbours and no
 * sequence number, so nothing is decided from their ancestors. */
#ifndef ISOCHECK_ONLINE_INCR_INTERNAL_H
#define ISOCHECK_ONLINE_INCR_INTERNAL_H

#include <stdint.h>

#include "gsat.h"
#include "vec.h"
#include "frontend/history/dep_edge.h"
#include "frontend/history/u64map.h"
#include "frontend/online/incr.h"
#include "frontend/online/incr_engine.h"
#include "frontend/online/kept_model.h"
#include "frontend/online/reach_summary.h"

#define NONE UINT32_MAX
#define ORD_GAP ((uint64_t)1 << 24)     /* room for late transactions between two neighbours */
#define FRONT_EVERY 128                 /* nodes between two refreshes of the frontier (and at every check) */
#define OPS_BLOCK (1u << 17)            /* operations a block holds (a transaction with more gets one of its own) */
#define OPS_KEEP 65536                  /* the last transactions to settle whose operations stay (the witness) */
#define KEY_SESS_BITS 128               /* a key's session filter (ikey.sess_bits) */

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
 * half.  A value that is its low half sign-extended (most) needs no more
 * than these 12 bytes; another one has WOP_WIDE set and its high half in the
 * incr_check's list `wide` (by entry, sorted: entries are appended).  A
 * transaction's writes are consecutive entries, and its writer records
 * (made when it joins, for the entries without WOP_OVER, in entry order)
 * consecutive records from its node's first_rec: wop_rec. */
typedef struct iwop { uint32_t key, txn, vlo; } iwop;
typedef struct iwide { uint32_t at, hi; } iwide;
/* A key's own write index (incr_windex.c): top, its write of the greatest
 * value max (n > 0); n writes listed, sorted by value: the entry itself in
 * at when n is 1, else in the arena kwa from at (room for the next power
 * of two); n = KW_TABLE: the key's writes are in the global table.  stamp:
 * store_txn's scratch (the serial of the last transaction stored that
 * wrote the key), here because the store touches this record anyway. */
typedef struct ikw { uint32_t top, n, at, stamp; int64_t max; } ikw;
/* read_ops' scratch for a key, one record (it was five arrays, five cache
 * misses an operation once the keys outgrow the caches): stamp, the serial
 * of the transaction last read; flags, bit 1 own write seen, bit 2
 * external read seen; wpos, its entry in writes; own, ext_val: the values. */
typedef struct ikscr { uint32_t stamp, flags, wpos, unused; int64_t own, ext_val; } ikscr;
#define KW_TABLE UINT32_MAX
#define WOP_OVER 0x80000000u            /* transaction ids stay below both (store_txn) */
#define WOP_WIDE 0x40000000u
static inline uint32_t wop_txn(const iwop *w) { return w->txn & ~(WOP_OVER | WOP_WIDE); }
static inline int value_narrow(int64_t value) { return value == (int64_t)(int32_t)(uint32_t)(uint64_t)value; }
/* The room class of a list of n >= 2 entries in a pooled array (the keys'
 * writer lists, wsa; the keys' own write lists, kwa): room for 1 << class
 * entries, freed rooms kept on a free list per class. */
static inline uint32_t incr_room_class(uint32_t n) {
    uint32_t c = 1;
    while ((1u << c) < n) c++;
    return c;
}

typedef struct isess {
    int64_t ext;
    uint32_t hsess;          /* its index in the current history, NONE if absent */
    uint32_t chain, seq;     /* tracked chain (NONE) and the last sequence number given */
    int front_in;            /* it takes part in the frontier (refresh_front): its writers may skip the sealed ones */
    uint32_t in_w;           /* front_in: the writer records made before the refresh it joined at (front_w then) */
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
 * handled on its own), not two small vectors per writer, so a writer is
 * 12 bytes and no allocation (no tails to append at, no reader count, no
 * key, no arrival number; the memory per writer at 1M transactions is in
 * doc/benchmarks.md). */
typedef struct iwriter { uint32_t g, rhead, phead; } iwriter;
typedef struct rlink { uint32_t r, next; } rlink;                    /* a reader, the next of its writer's */
/* A pair's two links are entries 2k ("this writer before other": +x) and
 * 2k + 1 (-x) of the pool, x = pvar0 + k (pairs are the only variables,
 * made one per pair: checked in new_writer), so no literal is kept (8
 * bytes a link); pair_lit gives it. */
typedef struct plink { uint32_t other, next; } plink;   /* a pair (ipair), the next of its writer's */
/* The writers of a key on one session, in session order, with their nodes'
 * sequence numbers (searched): sess, the session; n, how many; last, the
 * last one (no look into the list when the whole session is decided before
 * a new writer); the list itself (ks_list) is last alone when n is 1, else
 * n entries at `at` in the shared arena wsa (room for the next power of two;
 * last repeats the final one); nseal: the first nseal are sealed (see the
 * key's frontier).  The latest arrival among them is not kept
 * (ks_latest).  24 bytes an entry and no allocation of its own: at 1M
 * transactions 3.0M entries hold 4.0M writers, where a vector each (its
 * header, a malloc chunk) and the sessions' ids in a second array per key
 * took 162 MB for 32 MB of writers. */
typedef struct iws { uint32_t w, seq; } iws;   /* a writer and its node's sequence number */
typedef struct ikey_sess { uint32_t sess, n, nseal, at; iws last; } ikey_sess;
/* last_g: the node of the latest writer to arrive (0: INIT alone); pivot_g,
 * pivot_w: the latest writer (node, record) that every writer arrived
 * before it was decided before (NONE: none yet).
 * by_sess[0, nseal_sess) are wholly sealed (nseal = n), the others are not.
 * nsealw: sealed writers; top: the sealed writers no other sealed writer
 * is decided after (every sealed writer is one of them or decided before
 * one), each with its session and sequence number (itop), so that
 * comparing them needs neither its writer record nor its node: the loop
 * of seal_session over top was a fifth of a new writer's time, in misses
 * on exactly those two records (sealed writers are of a stream with no
 * late transaction, so their sequence numbers are set, and order a
 * session like the order labels).  No node either (it was a miss on the
 * writer record of each writer sealed): writer records, made as their
 * nodes join, order writers by arrival as the nodes do.  fw: front_w when
 * it was sealed, the refresh whose front sealed it, which decides it
 * before a later writer of a session in the frontier without that
 * writer's row (top_decided). */
typedef struct itop { uint32_t w, sess, seq, fw; } itop;
typedef struct ikey {
    uint64_t ident; int64_t ext; int named;
    uint32_t init_w, last_g, pivot_g, pivot_w, nseal_sess, nsealw;
    /* bit (sess % KEY_SESS_BITS) set for every session in by_sess: a session
     * whose bit is clear has no entry, so no scan (86% of new writers at 1M
     * start the key's entry).  Exact below KEY_SESS_BITS sessions: with 32
     * bits, by the end of the 10M stream (100 sessions, about 33 of them
     * with an entry in a key) most bits were set by some other session, and
     * the scan over the whole list (24 bytes an entry) was a tenth of the
     * checking thread (doc/benchmarks.md, "follow45") */
    uint32_t sess_bits[KEY_SESS_BITS / 32];
    VEC(itop) top;
    VEC(ikey_sess) by_sess;      /* grown by a quarter (its spare room is resident: at 1M 17% of 86 MB by half) */
} ikey;
typedef struct ilevel { gsat *s; int graph, split, on; } ilevel;
/* the sizes the comments above count on (a field added by mistake would
 * cost tens of MB at 1M transactions) */
_Static_assert(sizeof(iwop) == 12 && sizeof(iwriter) == 12 && sizeof(plink) == 8 && sizeof(ikey_sess) == 24 && sizeof(inode) == 24 &&
               sizeof(ikey) == 112,
               "incr's per-write, per-writer and per-node records");

typedef struct ext_read { uint32_t key, src, op; } ext_read;    /* src: stable txn; op: its write read, in wops (NONE: INIT) */
typedef struct final_write { uint32_t key, op; } final_write;   /* op: in wops */
typedef VEC(ext_read) ext_read_vec;
typedef VEC(final_write) final_write_vec;

struct incr_check {
    ilevel lv[2];
    incr_engine *eng;        /* the engines' calls on a thread of their own (incr_set_engine_thread), or NULL: made here */
    online_model om;         /* the last model, extended in place: most checks need no solve */
    int om_off;              /* it stopped paying (rebuilt more often than it answered): dropped */
    int dropped;             /* incr_drop_engines: the engines and the kept model are gone, their values in mval */
    VEC(uint8_t) mval[2];    /* per level, bit v: variable v's value in the last model */
    VEC(itxn) txns;          /* stable ids; 0 is INIT */
    /* bit id set iff txns[id].settled: the settle loop's test of each read's
     * writer (and of a transaction's session predecessor) reads this dense
     * copy, 1.25 MB at 10M transactions, instead of the writer's 32-byte
     * record, a cache miss a read once the stream outgrows the caches */
    VEC(uint64_t) sbits;
    VEC(opblock) blocks;     /* the operations of the stored transactions (iop's comment) */
    uint32_t nops;           /* operations stored */
    uint32_t ops_block, ops_keep;   /* OPS_BLOCK, OPS_KEEP (incr_set_ops_limits) */
    VEC(iwop) wops;          /* every successful write */
    VEC(iwide) wide;         /* the high halves of wops' wide values (iwop) */
    VEC(ikw) kw;             /* per key: its writes (ikw), most keys' whole index */
    VEC(uint32_t) kwa;       /* the keys' lists of two or more writes */
    uint32_t kwa_free[32];   /* per room size 1 << c: a free room (its first entry: the next), NONE */
    /* the keys of kw's KW_TABLE: (key, value) -> its write in wops, open
     * addressing, slot = index + 1 (0: empty, so a new table is calloc's
     * zero pages).  The table doubles without a pause: the old one stays
     * for lookups while its slots from wmoved on still wait to be moved
     * into the new one, a few at each insertion (a whole rehash at 4M
     * writes was a 0.1 s check) */
    uint32_t *wslots, *wold;
    uint64_t wmask, woldmask, wlen, wmoved;
    vec_u32 cand;            /* stored, not yet tried for settling */
    u64map by_ext;
    VEC(isess) sess;
    u64map sess_by_ext;
    VEC(inode) nodes;        /* graph nodes; 0 is INIT */
    online_reach *reach;     /* the reachability summaries (frontend/online/reach_summary.h) */
    vec_u32 srcs;            /* add_txn's scratch: the nodes a new node reads from */
    VEC(iwriter) writers;
    VEC(rlink) rpool;        /* the writers' reader chains */
    VEC(plink) ppool;        /* the writers' pair chains */
    int pvar0;               /* the first pair's variable (0: no pair yet) */
    VEC(ikey) keys;
    VEC(iws) wsa;            /* the keys' writer lists of two or more (ikey_sess) */
    uint32_t wsa_free[32];   /* per room size 1 << c: a free room (its first entry's w: the next), NONE */
    vec_u32 waiting;         /* completed, not settled */
    VEC(ikscr) kscr;         /* per key: read_ops' scratch */
    uint32_t serial;
    uint32_t late;           /* transactions that joined between two of their session (no sequence number) */
    ext_read_vec reads;
    final_write_vec writes;
    int fallback, failed_level;
    int rescan;              /* compare every known transaction with h at each update */
    uint32_t settled;
    vec_u32 succ;            /* new_reader's scratch: the first decided successors */
    vec_u32 front;           /* per chain: a writer with a sequence number up to it is sealed (file comment) */
    vec_u32 front_tmp;
    vec_u32 used;            /* per chain: the highest sequence number sealed */
    uint32_t front_w;        /* the writer records made before the last refresh of front */
    uint32_t since_front;    /* nodes added since the last refresh of front */
    vec_u32 settle_order;    /* settled transactions (stable ids), in the order they settled */
    size_t pf_len[9];        /* the lengths of the arrays prefaulted at the last check (incr_settle.c, prefault_next) */
    char why[400];
    incr_stats st;
};

/* incr.c */
void incr_fall_back(incr_check *ic, const char *fmt, const char *arg);

/* The engine calls of a check (incr_engine.h): queued for the engines'
 * thread when there is one (incr_set_engine_thread), else made here; the
 * settle loop syncs before it solves, so every other gsat call finds the
 * engines idle. */
static inline void incr_g_nodes(incr_check *ic, int l, int count) {
    if (ic->eng) ieng_nodes(ic->eng, l, count);
    else gsat_graph_add_nodes(ic->lv[l].s, ic->lv[l].graph, count);
}
static inline void incr_g_edge(incr_check *ic, int l, int from, int to, int lit) {
    if (ic->eng) ieng_edge(ic->eng, l, from, to, lit);
    else gsat_graph_add_edge(ic->lv[l].s, ic->lv[l].graph, from, to, lit);
}
static inline void incr_g_unit(incr_check *ic, int l, int lit) {
    if (ic->eng) ieng_unit(ic->eng, l, lit);
    else gsat_add_clause(ic->lv[l].s, &lit, 1);
}

/* incr_windex.c */
uint32_t incr_writer_op(const incr_check *ic, uint32_t key, int64_t value);
uint32_t incr_index_write(incr_check *ic, uint32_t key, int64_t value, uint32_t txn, int over);
void incr_index_key(incr_check *ic);
/* The write of value to key if it is the key's write of the greatest value
 * (a lookup in the key's record alone), else NONE. */
static inline uint32_t incr_latest_write(const incr_check *ic, uint32_t key, int64_t value) {
    const ikw *k = &ic->kw.data[key];
    return k->n && value == k->max ? k->top : NONE;
}

/* incr_writes.c */
iop *incr_txn_ops(const incr_check *ic, const itxn *x);
void incr_op_done(incr_check *ic, uint32_t id);
void incr_ops_release(incr_check *ic);
void incr_store_key(incr_check *ic, uint64_t ident, int64_t ext, int named);
uint32_t incr_session_of(incr_check *ic, int64_t ext);
uint32_t incr_store_txn(incr_check *ic, int64_t ext, uint32_t S, uint8_t status, const incr_op *ops, uint32_t n);

/* incr_graph.c */
void incr_edge(incr_check *ic, dep_kind kind, uint32_t a, uint32_t b, int lit);
uint32_t incr_new_writer_rec(incr_check *ic, uint32_t g);
uint32_t incr_wop_rec(const incr_check *ic, uint32_t at);
void incr_refresh_front(incr_check *ic);
void incr_new_writer(incr_check *ic, uint32_t key, uint32_t g);
void incr_new_reader(incr_check *ic, uint32_t key, uint32_t w, uint32_t r);

/* incr_settle.c */
uint32_t incr_stable_of(const incr_check *ic, const history *h, uint32_t t);
uint32_t incr_h_index(incr_check *ic, const history *h, uint32_t id);
int incr_settle_and_solve(incr_check *ic, uint32_t *num_settled, uint32_t *fresh);

/* e is certainly before d in every version order that could avoid a
 * cycle (see the file comment). */
static inline int incr_decided(const incr_check *ic, uint32_t e, uint32_t d) {
    if (e == 0) return 1;
    const inode *x = &ic->nodes.data[e], *y = &ic->nodes.data[d];
    if (x->sess == y->sess) return x->ord < y->ord;
    uint32_t c = ic->sess.data[x->sess].chain;
    /* d's summary, fixed when d arrived, holds no later node (e > d) */
    return x->seq && c != NONE && e < d && reach_reaches(ic->reach, d, y->sess, y->seq, c, x->seq);
}

/* The literal of pair link i (plink): this writer before the other. */
static inline int incr_pair_lit(const incr_check *ic, uint32_t i) {
    int x = ic->pvar0 + (int)(i >> 1);
    return i & 1 ? -x : x;
}

static inline const iws *ks_list(const incr_check *ic, const ikey_sess *ks) {
    return ks->n >= 2 ? ic->wsa.data + ks->at : &ks->last;
}

static inline int incr_is_settled(const incr_check *ic, uint32_t id) {
    return (size_t)(id >> 6) < ic->sbits.len && (ic->sbits.data[id >> 6] >> (id & 63)) & 1;
}
static inline void incr_set_settled(incr_check *ic, uint32_t id) {
    ic->txns.data[id].settled = 1;
    while (ic->sbits.len <= (size_t)(id >> 6)) vec_push(ic->sbits, (uint64_t)0);
    ic->sbits.data[id >> 6] |= (uint64_t)1 << (id & 63);
}

static inline int op_is_read(uint8_t kind) { return (kind & OP_KIND_MASK) == OP_READ && !(kind & OP_FAILED); }
static inline int op_is_write(uint8_t kind) { return (kind & OP_KIND_MASK) == OP_WRITE && !(kind & OP_FAILED); }


#endif
