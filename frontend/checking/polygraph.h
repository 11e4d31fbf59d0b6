/* polygraph.h — the checker's internal model: what is known about a
 * history's dependency graph and what is left to choose.
 *
 * Pipeline (one module each):
 *   known_graph.c  pg_index: participating transactions, external reads (a
 *                  list read's external prefix too, also after the reader's
 *                  own appends) and the version each read, per key the
 *                  writers collapsed into units
 *                  (read-modify-write chains), and the level-independent
 *                  known edges (SO, WR, edges inside units).
 *   known_base.c   those edges generated in order, or in parts on a pool.
 *   constraints.c  polygraph for one level (SER: one node per transaction,
 *                  SI: the split graph T/T' of doc/checker.md): known edges as
 *                  graph edges, and one either/or constraint per pair of
 *                  units whose order is not decided by reachability.
 *   reach.c        topological order and chain reachability of the known
 *                  graph: per node, the earliest reachable position on every
 *                  session chain (u reaches v iff reach[u][chain v] <= pos v),
 *                  stored as 8-bit offsets from where each chain stood at the
 *                  node's point of the order (16-bit rows where needed; reach_rows.c).
 *   prune.c        PolySI's pruning to a fixpoint on those summaries.
 *   encode.c       the remaining problem as guarded edges for the engine.
 *   index_chains.c the index's level-dependent parts: chains of WR edges
 *                  (levels without session order), the real-time clock.
 *   psi.c          psi's and rr's lazy search over the engine's models;
 *                  pred_rw.c which RW edges are predicate ones (rr).
 * The graph of each level (pg_init_level, check.h): doc/checker.md, "The
 * other levels that need a search".
 * (The independent re-check of a version order by definition is not part
 * of it: frontend/recheck/verify_model.h.)
 *
 * Units.  Under SI and SER, if transaction b reads key k from a and writes k
 * (read-modify-write), a is b's immediate predecessor in k's version order
 * (an intermediate writer c would give c -WW-> b and b -RW-> c: a cycle
 * without two adjacent RW edges).  Such links chain writers into units that
 * occupy consecutive versions; only whole units are ordered against each
 * other.  INIT's unit is first on every key.  A version with two
 * read-modify-write successors keeps the first as its link; the second
 * starts its own unit and the lost update shows up as a cycle.
 *
 * A unit pair (U, V) orders U before V ("side U<V") with the edges
 *     last(U) -WW-> head(V)     and     r -RW-> head(V) for every reader r of last(U);
 * every other dependency between the two units follows by transitivity. */
#ifndef ISOCHECK_POLYGRAPH_H
#define ISOCHECK_POLYGRAPH_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "vec.h"
#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/dep_edge.h"

/* "SO", "WR", "WW", "RW" or "FIXED". */
const char *dep_kind_name(dep_kind k);

/* An edge: node-level in a polygraph, transaction-level in the index's
 * base (12 bytes where a dep_edge takes 16); meta = key << 3 | kind. */
typedef struct pg_edge { uint32_t from, to, meta; } pg_edge;
typedef VEC(pg_edge) pg_edge_vec;
#define PG_META(kind, key) (((uint32_t)(key) << 3) | (uint32_t)(kind))
#define PG_KIND(meta) ((dep_kind)((meta) & 7u))
#define PG_KEY(meta)  ((meta) >> 3 == (UINT32_MAX >> 3) ? HISTORY_NONE : (meta) >> 3)

typedef struct pg_unit {
    uint32_t head, last;     /* transactions; INIT's unit has head 0 */
    uint32_t m_first;        /* its writers in version order: pg_index.members[m_first..],
                                pg_unit_len of them */
    uint32_t rd_first;       /* readers of last's version: pg_index.readers[rd_first..],
                                pg_unit_rd_num of them */
} pg_unit;

/* A unit's number of writers and its last version's number of readers:
 * up to the next unit's m_first and rd_first (units are stored in the
 * order of their members and readers, and units.data[units.len] is a
 * sentinel with the arrays' ends: 16 bytes a unit, not 24). */
static inline uint32_t pg_unit_len(const pg_unit *u) { return u[1].m_first - u->m_first; }
static inline uint32_t pg_unit_rd_num(const pg_unit *u) { return u[1].rd_first - u->rd_first; }

/* What the index assumes about the level (pg_index_opts_for: each level's).
 * The default (SI, SER, PSI) is { 1, 1, 0 }. */
typedef struct pg_index_opts {
    int session_order;           /* SO edges; 0 (plain levels): none, and the
                                    reachability chains are paths of WR edges */
    int rmw_links;               /* read-modify-write links and a list reader's own
                                    version right after its prefix (units); 0 (pc):
                                    only the versions a list read shows are linked */
    int real_time;               /* RT as known edges through clock nodes (below) */
} pg_index_opts;

typedef struct pg_index {
    const history *h;
    pg_index_opts opts;
    uint8_t *in_graph;           /* per node transaction: 1 if it takes part (history_participants) */
    /* Node transactions: the history's num_txns, then (real_time) the
     * clock's ticks, which are no transactions of the history: tick j is
     * node transaction h->num_txns + j, in a chain tick j -> tick j + 1;
     * the j-th committed participant by completion time has an RT edge
     * into tick j, and tick j into every participant invoked after that
     * completion and before the next one's (doc/checker.md, "Real time"). */
    uint32_t num_node_txns;
    uint32_t num_ticks;
    /* Chains: NULL when they are the history's sessions; else per node
     * transaction its chain (HISTORY_NONE: none) and position on it, and
     * per chain its length (num_chain_sets of them). */
    uint32_t *chain_sess, *chain_pos, *chain_len;
    uint32_t num_chain_sets;
    uint32_t num_keys;
    uint32_t *key_unit_start;    /* num_keys + 1; key k's units are [start[k], start[k+1]),
                                    the first is INIT's */
    VEC(pg_unit) units;          /* units.len of them, then the sentinel (pg_unit_len) */
    vec_u32 members;             /* writer transactions, grouped per unit */
    vec_u32 readers;             /* reader transactions, grouped per unit */
    /* The base edges (SO, WR, those inside units, then RT and a hint's;
     * between transactions) are not stored whole: pg_index_base_each
     * gives them, pg_index_num_base counts them.  In order: per key k,
     * its WR edges by reader (one external read of k per reader): those
     * from the units' readers (writer: the unit's last, not INIT) and the
     * pairs (reader, writer) base_wr[2 * i], [2 * i + 1] for i in
     * [key_wr_start[k], key_wr_start[k + 1]) (readers of a unit's other
     * versions); then base_unit[key_ue_start[k] .. key_ue_start[k + 1])
     * (WW and RW inside units).  Then SO between consecutive participants
     * of each session (opts.session_order), then base_tail (RT, a hint's
     * sides).  WR edges are about 80 % of them: kept as the readers they
     * are already. */
    uint32_t *key_wr_start, *key_ue_start;   /* num_keys + 1 each */
    vec_u32 base_wr;
    pg_edge_vec base_unit, base_tail;
    uint64_t num_base_fixed;     /* the edges before base_tail */
    int base_released;           /* freed after the last copy (below) */
    atomic_uint base_copies;     /* pg_init calls still to copy base; the one that brings it
                                    to 0 frees it (0 from the start: base is kept) */
    uint64_t num_writers, num_ext_reads, num_links, num_graph_txns;
} pg_index;

/* Unit u's key: the k with key_unit_start[k] <= u < key_unit_start[k + 1]
 * (a binary search; no array of 4 bytes a unit).  INIT's unit of a key is
 * the one with head 0 (pg_unit_is_init), no search. */
static inline uint32_t pg_unit_key(const pg_index *ix, uint32_t u) {
    uint32_t lo = 0, hi = ix->num_keys;                 /* key_unit_start[lo] <= u < [hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ix->key_unit_start[mid] <= u) lo = mid; else hi = mid;
    }
    return lo;
}
static inline int pg_unit_is_init(const pg_index *ix, uint32_t u) { return ix->units.data[u].head == 0; }

/* The base edges in their order (above), each to fn; the number of them. */
typedef void (*pg_base_fn)(void *ctx, const pg_edge *e);
void pg_index_base_each(const pg_index *ix, pg_base_fn fn, void *ctx);
/* The same edges from tasks on pool (NULL: inline) at priority prio:
 * at(ctx, i, e) for base edge i (its place in pg_index_base_each's
 * order), from several threads at once in no particular order (at writes
 * place i only); every edge with the place pg_index_base_each gives it,
 * for every pool (known_base.c). */
typedef void (*pg_base_at_fn)(void *ctx, uint64_t i, const pg_edge *e);
struct par_pool;
void pg_index_base_fill(const pg_index *ix, struct par_pool *pool, int prio, pg_base_at_fn at, void *ctx);
static inline uint64_t pg_index_num_base(const pg_index *ix) { return ix->num_base_fixed + ix->base_tail.len; }
/* Add an edge after them (the clock's RT edges, a hint's sides). */
static inline void pg_index_base_push(pg_index *ix, pg_edge e) { vec_push(ix->base_tail, e); }

/* Build the index.  Returns 0 and fills err when the history breaks an
 * axiom the checker relies on (reads of aborted, intermediate, unwritten or
 * own future values) — isocheck runs the axiom checks first. */
int  pg_index_build(pg_index *ix, const history *h, ic_error *err);
/* The index for other levels than si and ser: pg_index_opts_for, in check.h. */
struct par_pool;
int  pg_index_build_opts(pg_index *ix, const history *h, ic_error *err, struct par_pool *pool, pg_index_opts opts);
/* index_chains.c: the chains and clock of ix->opts, on the finished base
 * edges (pg_index_build_opts' last step). */
void pg_index_chains(pg_index *ix);
/* The same, the per-key part in key ranges on pool (NULL: inline): the
 * same index for every pool. */
struct par_pool;
int  pg_index_build_on(pg_index *ix, const history *h, ic_error *err, struct par_pool *pool);
void pg_index_free(pg_index *ix);
/* A caller that runs a known number of levels on one index (each copies
 * base into its own known graph in pg_init, possibly on its own thread)
 * may have the stored part of base (the pairs, the edges inside units,
 * the tail) freed right after the last copy; pg_index_base_each must not
 * be called after that.  pg_index_base_copied is pg_init's part. */
void pg_index_release_base_after(pg_index *ix, unsigned levels);
void pg_index_base_copied(const pg_index *ix);


/* An undecided pair of units of one key: variable true means u before v. */
typedef struct pg_cons { uint32_t u, v; } pg_cons;
typedef VEC(pg_cons) pg_cons_vec;

typedef struct polygraph {
    const pg_index *ix;
    int split;                   /* 1: SI split graph, 0: SER */
    int ww_commit;               /* pc: a WW edge a -> b is commit(a) -> commit(b) (split) */
    const struct pred_rw *prw;   /* rr: the predicate-only reads (pred_rw.h), owned; with it
                                    rw_lazy concerns their RW edges only, every other RW
                                    edge is an arc (pg_rw_lazy) */
    int rw_lazy;                 /* psi: RW edges are kept in known but are no graph arcs
                                    (reach, encode skip them); the solver's models are
                                    checked for RW edges closing a D path (psi.c) */
    unsigned threads;            /* per-key stages split for this many threads (0, 1: one);
                                    every result is the same for every count */
    struct par_pool *pool;       /* where the split stages' tasks run (par.h; NULL: inline) */
    int prio;                    /* their priority in that pool */
    uint32_t num_nodes;          /* split ? 2 * num_txns : num_txns */
    uint32_t num_chains;         /* tracked sessions (all of them unless there are very many) */
    uint32_t *chain_of_session;  /* session -> chain, UINT32_MAX: not tracked */
    pg_edge_vec known;           /* unguarded edges (split: fixed edges implicit) */
    pg_cons_vec cons;            /* remaining constraints */
    /* reachability summary of the known graph (reach.c) */
    /* One row per row node (pg_reach_has_row: every node, or with
     * reach_half the commit nodes, row t for transaction t).  A row holds
     * per chain c the earliest position on c the node reaches, as an
     * offset from its *frame*: frame k is where every chain stood at
     * position k << reach_frame_shift of the topological order the last
     * full table was built along (reach_frame[k * num_chains + c]: the
     * least position of c's nodes placed from that point on), a lower
     * bound of what any node placed after it reaches on c, so the offsets
     * are the reachability's lag however far the sessions drift apart.  Stored
     * narrow (doc/checker.md, "Reachability"): a 4-byte head (the frame),
     * one byte an entry (0xFF: none) and, on the split graph, a parity bit
     * an entry: SER's entry is F + d, the split graph's F + 2 d + bit.  A
     * row whose entries do not fit a byte is wide: its head is
     * PG_REACH_WIDE + i and wide row i holds the frame (two 16-bit halves)
     * and 16-bit offsets, PG_REACH_NONE for none.  An offset too large for
     * 16 bits is stored as none: a fact lost, never a false one (read
     * with pg_reach_at).  With reach_half a start node T' has no row: it
     * reaches its own position and what the commits it has arcs to reach:
     * its own T by the fixed edge when sclass[t] & PG_SOUT_OWN, and when
     * sclass[t] & PG_SOUT_MORE its other arcs (RW targets), listed as
     * transactions in sout[sout_start[t] .. sout_start[t + 1]).  The class
     * byte spares the lookup of the list for the start nodes (nearly all of
     * them) whose one arc is the fixed edge. */
    uint8_t *reach;              /* the narrow rows */
    uint32_t reach_stride;       /* bytes a narrow row: 4 + num_chains (+ parity bits), a multiple of 4;
                                    4: heads only, every row wide (pg_reach_narrow_mode) */
    uint32_t reach_bits_at;      /* split graph: where a narrow row's parity bits start (0: SER, none) */
    uint32_t reach_wstride;      /* 16-bit entries a wide row: num_chains + 2, rounded up to even */
    uint32_t *reach_frame;       /* the frames' positions, num_chains a frame (reach_rows.c) */
    uint16_t *reach_frame16;     /* the same modulo 2^16 (the build's loops) */
    uint64_t *reach_jump;        /* per frame, a bound of every chain's distance from frame 0 (reach_rows.c) */
    uint32_t reach_frames;       /* frames: (num_nodes >> reach_frame_shift) + 1 */
    uint32_t reach_frame_shift;  /* a frame spans 2^reach_frame_shift nodes of the order */
    _Atomic(uint16_t *) *reach_wide;   /* the wide rows, PG_REACH_WIDE_CHUNK a chunk */
    uint32_t reach_wide_chunks;  /* chunk pointers (every row can be wide) */
    atomic_uint reach_wide_len;  /* wide rows in use */
    int reach_valid;             /* reach is the table of known.data[0 .. reach_edges) */
    size_t reach_edges;
    size_t reach_incr_failed;    /* fewest new edges an incremental renewal gave up on (0: none) */
    int reach_half;              /* split graph, rows for the commits only (pg_reach_half_mode) */
    uint8_t *sclass;             /* with reach_half: per transaction, PG_SOUT_* of its start node */
    uint32_t *sout_start, *sout; /* with reach_half: start nodes' arcs but the fixed one, as of the table */
    struct reach_scratch *reach_scratch;   /* from the first table until pruning ends: the known
                                              graph's adjacency and order arrays, kept from one
                                              pg_reach / pg_order to the next (reach.c; NULL: each
                                              call makes and frees its own) */
    int reach_keep;              /* pg_prune leaves the table (else it frees it before its
                                    last order when nothing after asks for it; tests set it) */
    uint32_t *topo_pos;          /* node -> position in a topological order */
    int acyclic;                 /* result of the last pg_reach() */
    /* per unit: reader summary (chain, max position) for the blocked tests,
     * built by pg_build_constraints beside the first table */
    uint32_t *rsum_start;        /* units + 1 */
    vec_u32 rsum;                /* pairs (chain, maxpos) */
    uint8_t *unit_slow;          /* SER: a reader of last(U) writes the key (the split
                                    graph, where pg_side_blocked does not ask: 0) */
    /* counts */
    uint64_t pairs_total;        /* unit pairs considered (excluding INIT's) */
    uint64_t pairs_decided_scan; /* decided by the initial scan */
    uint64_t cons_initial;       /* constraints after the scan */
    uint64_t cons_pruned;        /* decided by pruning rounds */
    uint64_t edges_covering;     /* edges added for decided pairs */
    uint32_t prune_rounds;
    struct pg_choice *choice;    /* ambiguous reads' candidates (choice.h; NULL: none); check.c owns it */
    char fail_reason[256];       /* why pg_build_constraints/pg_prune said "fails" */
    const char *fail_stage;      /* "known graph" (SO, WR, units) or "pruning" */
} polygraph;

/* A node transaction's chain and position (the history's session, or the
 * index's own chains), and the chains' number and lengths. */
static inline uint32_t pg_txn_session(const pg_index *ix, uint32_t t) {
    return ix->chain_sess ? ix->chain_sess[t] : ix->h->txns[t].session;
}
static inline uint32_t pg_txn_pos(const pg_index *ix, uint32_t t) {
    return ix->chain_sess ? ix->chain_pos[t] : ix->h->txns[t].pos;
}
static inline uint32_t pg_num_sessions(const pg_index *ix) {
    return ix->chain_sess ? ix->num_chain_sets : ix->h->num_sessions;
}
static inline uint32_t pg_session_len(const pg_index *ix, uint32_t s) {
    return ix->chain_sess ? ix->chain_len[s] : ix->h->sessions[s].num_txns;
}

/* Node ids. */
static inline uint32_t pg_node_t(const polygraph *g, uint32_t txn) { return g->split ? 2 * txn : txn; }
static inline uint32_t pg_node_tp(const polygraph *g, uint32_t txn) { return g->split ? 2 * txn + 1 : txn; }
static inline uint32_t pg_node_txn(const polygraph *g, uint32_t node) { return g->split ? node >> 1 : node; }
static inline uint32_t pg_node_chain(const polygraph *g, uint32_t node) {
    uint32_t s = pg_txn_session(g->ix, pg_node_txn(g, node));
    return s == HISTORY_NONE ? HISTORY_NONE : g->chain_of_session[s];
}
static inline uint32_t pg_node_pos(const polygraph *g, uint32_t node) {
    uint32_t p = pg_txn_pos(g->ix, pg_node_txn(g, node));
    return g->split ? 2 * p + !(node & 1) : p;
}
/* The node edge of a dependency: on the split graph D edges (SO, WR, WW,
 * RT) commit -> start, except WW commit -> commit under pc; RW start ->
 * commit (depgraph.h's dg_dep_nodes but for pc). */
static inline void pg_dep_nodes(const polygraph *g, dep_kind kind, uint32_t from, uint32_t to, uint32_t *x, uint32_t *y) {
    if (!g->split) { *x = from; *y = to; }
    else if (kind == DEP_RW) { *x = 2 * from + 1; *y = 2 * to; }
    else if (kind == DEP_FIXED) { *x = 2 * from + 1; *y = 2 * from; }
    else if (kind == DEP_WW && g->ww_commit) { *x = 2 * from; *y = 2 * to; }
    else { *x = 2 * from; *y = 2 * to + 1; }
}
/* The node a side's edges into head(V) enter for a WW edge: V's start,
 * its commit under pc (and SER's only node). */
static inline uint32_t pg_node_ww_in(const polygraph *g, uint32_t txn) {
    return g->ww_commit ? pg_node_t(g, txn) : pg_node_tp(g, txn);
}
#define PG_REACH_NONE 0xFFFFu
/* A start node's arcs (polygraph.sclass): the fixed one to its own
 * commit, others (listed in sout). */
#define PG_SOUT_OWN 1u
#define PG_SOUT_MORE 2u
/* Largest offset stored (default 0xFFFE; a testing knob: lowered, rows
 * lose facts, which may cost speed only). */
extern uint32_t pg_reach_delta_max;
/* Largest byte a narrow row stores (default 0xFE; a testing knob:
 * lowered, more rows are wide; the facts are the same). */
extern uint32_t pg_reach_narrow_max;
/* Whether a table stores narrow rows: auto and always do (rows relative to
 * their frames stay narrow however far the sessions drift), never keeps
 * heads only, every row wide (a testing knob; the facts are the same). */
typedef enum { PG_REACH_NARROW_AUTO = 0, PG_REACH_NARROW_ALWAYS, PG_REACH_NARROW_NEVER } pg_reach_narrow_id;
extern pg_reach_narrow_id pg_reach_narrow_mode;
#define PG_REACH_NARROW_NONE 0xFFu
#define PG_REACH_WIDE 0x80000000u
#define PG_REACH_WIDE_CHUNK 1024u
/* Nodes of the topological order a frame spans, log2 (0: automatic, about
 * 64 a chain, so that a chain advances a few dozen positions a frame; a testing
 * knob), and the frames at most this far apart whose rows are merged in
 * 16 bits (0: all that can be; a testing knob: farther ones take the
 * 32-bit path). */
extern uint32_t pg_reach_frame_shift, pg_reach_frame_near;
static inline uint32_t pg_load32(const void *p) {
    uint32_t b;
    memcpy(&b, p, sizeof b);
    return b;
}
static inline int pg_reach_head_wide(uint32_t head) { return head - PG_REACH_WIDE < UINT32_MAX - PG_REACH_WIDE; }
/* Wide row i. */
static inline const uint16_t *pg_reach_wide_row(const polygraph *g, uint32_t i) {
    return atomic_load_explicit(&g->reach_wide[i / PG_REACH_WIDE_CHUNK], memory_order_relaxed) +
           (size_t)(i % PG_REACH_WIDE_CHUNK) * g->reach_wstride;
}
/* A row's frame. */
static inline uint32_t pg_reach_row_frame(const polygraph *g, const uint8_t *row) {
    uint32_t h = pg_load32(row);
    return pg_reach_head_wide(h) ? pg_load32(pg_reach_wide_row(g, h - PG_REACH_WIDE)) : h;
}
static inline int pg_reach_has_row(const polygraph *g, uint32_t u) { return !g->reach_half || !(u & 1); }
/* Row node u's row. */
static inline const uint8_t *pg_reach_row(const polygraph *g, uint32_t u) {
    return g->reach + (size_t)(g->reach_half ? u >> 1 : u) * g->reach_stride;
}
/* pg_reach_row_at of a wide row (head h). */
uint32_t pg_reach_wide_at(const polygraph *g, uint32_t h, uint32_t c);
/* The position on chain c a row of head h (its first 4 bytes, read
 * before) holds (UINT32_MAX: none). */
static inline uint32_t pg_reach_row_head_at(const polygraph *g, const uint8_t *row, uint32_t h, uint32_t c) {
    if (pg_reach_head_wide(h)) return pg_reach_wide_at(g, h, c);
    uint32_t d = row[4 + c];
    if (d == PG_REACH_NARROW_NONE) return UINT32_MAX;
    uint32_t f = g->reach_frame[(size_t)h * g->num_chains + c];
    if (!g->reach_bits_at) return f + d;
    return f + 2 * d + ((row[g->reach_bits_at + (c >> 3)] >> (c & 7)) & 1u);
}
/* The position on chain c a row holds (UINT32_MAX: none). */
static inline uint32_t pg_reach_row_at(const polygraph *g, const uint8_t *row, uint32_t c) {
    return pg_reach_row_head_at(g, row, pg_load32(row), c);
}
/* Row r (an index: a node, or a transaction with reach_half) in its
 * 16-bit form: returns its frame, the offsets from it (PG_REACH_NONE:
 * none) into out[0 .. num_chains).  Both layouts read the same (tests). */
uint32_t pg_reach_row_get(const polygraph *g, uint32_t r, uint16_t *out);
/* The earliest position on chain c that node u reaches as far as the table
 * knows (UINT32_MAX: none known).  Never smaller than the true one. */
static inline uint32_t pg_reach_at(const polygraph *g, uint32_t u, uint32_t c) {
    if (pg_reach_has_row(g, u)) return pg_reach_row_at(g, pg_reach_row(g, u), c);
    uint32_t t = u >> 1, best = pg_node_chain(g, u) == c ? pg_node_pos(g, u) : UINT32_MAX;
    uint8_t cls = g->sclass[t];
    if (cls & PG_SOUT_OWN) {
        uint32_t p = pg_reach_row_at(g, g->reach + (size_t)t * g->reach_stride, c);
        best = p < best ? p : best;
    }
    if (!(cls & PG_SOUT_MORE)) return best;
    for (uint32_t j = g->sout_start[t]; j < g->sout_start[t + 1]; j++) {
        uint32_t p = pg_reach_row_at(g, g->reach + (size_t)g->sout[j] * g->reach_stride, c);
        best = p < best ? p : best;
    }
    return best;
}
/* u reaches v in the known graph (as of the last pg_reach); 0 also when
 * v's session is not tracked or the fact was lost to the 16-bit offsets
 * (unknown: callers only lose pruning). */
static inline int pg_reaches(const polygraph *g, uint32_t u, uint32_t v) {
    if (u == v) return 1;
    uint32_t c = pg_node_chain(g, v);
    if (c == HISTORY_NONE) return 0;
    return pg_reach_at(g, u, c) <= pg_node_pos(g, v);
}

/* Ask the cache for what pg_reach_at(g, u, .) reads: every line of u's
 * row (for a start node of a half table, its class and its commit's row,
 * which its fixed arc reaches).  The table is read at random; asked a few
 * queries ahead, the misses overlap.  Performance only: nothing changes. */
HISTORY_PREFETCH_FN void pg_reach_prefetch(const polygraph *g, uint32_t u) {
    if (!g->reach) return;
    const char *r = (const char *)(g->reach + (size_t)(g->reach_half ? u >> 1 : u) * g->reach_stride);
    if (!pg_reach_has_row(g, u)) HISTORY_PREFETCH(&g->sclass[u >> 1]);
    for (size_t o = 0; o < g->reach_stride; o += 64) HISTORY_PREFETCH(r + o);
    HISTORY_PREFETCH(r + g->reach_stride - 1);
}

/* Room for n more known edges, growing by exactly that much: the edge
 * list is the largest array of a level but one, and grows a few times by a
 * fraction (scan, pruning rounds), where doubling would reserve up to as
 * much again. */
static inline void pg_known_reserve(polygraph *g, size_t n) {
    if (g->known.len + n <= g->known.cap) return;
    g->known.cap = g->known.len + n;
    g->known.data = xrealloc(g->known.data, g->known.cap * sizeof *g->known.data);
}

/* Append a transaction-level dependency to the known edges, as the
 * level's node edge. */
void pg_add_dep(polygraph *g, dep_kind kind, uint32_t key, uint32_t from, uint32_t to);

/* constraints.c: the level's known graph and the initial constraints.
 * Returns 1 normally, 0 when the known graph already has a cycle or a pair
 * has both sides blocked (then the history fails the level). */
void pg_init(polygraph *g, const pg_index *ix, int split);
/* pg_init_level (the graph of any searched level): check.h. */
void pg_init_shape(polygraph *g, const pg_index *ix, int split, int ww_commit, int rw_lazy);
/* rr (doc/checker.md, "The level rr"): SER's graph, whose predicate
 * anti-dependencies (pred_rw.h) are no arcs and block no side; each model's
 * item RW edges are checked against paths of the whole graph (psi.c).
 * Without predicate-only reads it is pg_init_shape(g, ix, 0, 0, 0). */
void pg_init_rr(polygraph *g, const pg_index *ix);
/* The same with the base edges' copy split into tasks on pool (NULL:
 * inline) at priority prio, which g keeps (g->pool, g->prio, g->threads)
 * for the later stages: the same graph for every pool. */
void pg_init_shape_on(polygraph *g, const pg_index *ix, int split, int ww_commit, int rw_lazy, struct par_pool *pool,
                      int prio);
void pg_init_rr_on(polygraph *g, const pg_index *ix, struct par_pool *pool, int prio);
/* Whether RW edge from -> to on key is lazy: no arc of the engine's graph
 * nor of the known graph's reachability (psi: every RW edge; rr: a
 * predicate anti-dependency; nodes are SER's, transactions). */
int pg_rw_lazy(const polygraph *g, uint32_t from_node, uint32_t key);
/* At most this many sessions get a reachability chain (0: automatic, all
 * unless nodes x sessions is too large).  A tuning and testing knob. */
extern uint32_t pg_chain_limit;
/* Bytes the reachability table may take, counted as 2 an entry over the
 * rows it will have (the commits only in a half table): more sessions
 * than fit get no chain, the largest kept (default 6 GB: every one of 100
 * sessions at 22M transactions).  A tuning and testing knob. */
extern uint64_t pg_reach_budget;
/* Keys with at most this many units (INIT's not counted) are scanned by
 * transitivity (scan_order.c, n^2 / 64 words of bit sets a key), larger
 * ones group by group (a lookup per unit and session).  Both give the same
 * result on a table that holds every fact; a testing knob (0: every key
 * group by group). */
extern uint32_t pg_scan_order_max;
/* Below this much work (units, constraints, nodes x chains) a stage runs on
 * one thread whatever g->threads says: starting threads would cost more.
 * A tuning and testing knob (tests set 0 to split even tiny problems). */
extern uint64_t pg_par_min_work;
static inline unsigned pg_threads_for(const polygraph *g, uint64_t work) {
    return g->threads > 1 && work >= pg_par_min_work ? g->threads : 1;
}
void pg_free(polygraph *g);
/* Key ranges of about equal numbers of units into *range (bounds, key
 * order), 8 per thread; returns how many.  One range for one thread. */
uint32_t pg_key_ranges(const pg_index *ix, unsigned threads, vec_u32 *range);
/* The first table (pg_reach) and, beside it on g's pool, the reader
 * summaries; then the scan: constraints and covering edges (above). */
int  pg_build_constraints(polygraph *g);

/* The edges of one side of a pair (u before v), as dependencies. */
void pg_side_deps(const polygraph *g, uint32_t u, uint32_t v, dep_edge_vec *out);
/* Side u<v would close a cycle with the known graph. */
int  pg_side_blocked(const polygraph *g, uint32_t u, uint32_t v);
/* Ask the cache for what pg_side_blocked(g, u, v) and (g, v, u) read at
 * random (the heads' rows, the last writers' chain places), some tests
 * before they run (prune.c).  Performance only: nothing changes. */
HISTORY_PREFETCH_FN void pg_txn_place_prefetch(const pg_index *ix, uint32_t t) {
    if (ix->chain_sess) { HISTORY_PREFETCH(&ix->chain_sess[t]); HISTORY_PREFETCH(&ix->chain_pos[t]); }
    else HISTORY_PREFETCH(&ix->h->txns[t]);
}
HISTORY_PREFETCH_FN void pg_side_prefetch(const polygraph *g, uint32_t u, uint32_t v) {
    const pg_index *ix = g->ix;
    const pg_unit *U = &ix->units.data[u], *V = &ix->units.data[v];
    uint32_t hu = U->head, hv = V->head;
    pg_reach_prefetch(g, pg_node_t(g, hv));
    pg_reach_prefetch(g, pg_node_t(g, hu));
    if (pg_node_ww_in(g, hv) != pg_node_t(g, hv)) {
        pg_reach_prefetch(g, pg_node_ww_in(g, hv));
        pg_reach_prefetch(g, pg_node_ww_in(g, hu));
    }
    if (U->last) pg_txn_place_prefetch(ix, U->last);
    if (V->last) pg_txn_place_prefetch(ix, V->last);
}
/* The edges making side u<v known (those the known graph implies are
 * skipped), appended to out (g only read: safe from several threads at
 * once); scratch is the caller's.  Returns the number of edges. */
uint64_t pg_side_edges(const polygraph *g, uint32_t u, uint32_t v, dep_edge_vec *scratch, pg_edge_vec *out);

/* reach.c: recompute topo_pos and reach; returns g->acyclic. */
int  pg_reach(polygraph *g);
/* Only topo_pos and acyclic (reach is left as it was). */
int  pg_order(polygraph *g);
/* How pg_reach renews a table after edges were added: incrementally unless
 * that would touch a quarter of the nodes (auto), or always one way (a
 * testing knob: both give the same table). */
typedef enum { PG_REACH_AUTO = 0, PG_REACH_FULL, PG_REACH_INCREMENTAL } pg_reach_mode_id;
extern pg_reach_mode_id pg_reach_mode;
/* Rows for the split graph's commit nodes only: half the table.  A start
 * node's entries are gathered from its arcs wherever its row is read; its
 * class byte (sclass) makes the usual one, the fixed arc to its own
 * commit, a single row read, as with a row of its own (1M SI: the same CPU
 * time as the whole table, 813 MB peak instead of 1000; before the class
 * byte it cost 1.15-1.4x).  Auto when the whole table would pass
 * PG_REACH_HALF_ABOVE bytes (64 MB: SI from about 160k transactions at 100
 * sessions), or always / never (a testing knob: the answers are the same;
 * the pruning rule counts nodes, not rows, so that the layout changes no
 * count either). */
typedef enum { PG_REACH_HALF_AUTO = 0, PG_REACH_HALF_ALWAYS, PG_REACH_HALF_NEVER } pg_reach_half_id;
extern pg_reach_half_id pg_reach_half_mode;
#define PG_REACH_HALF_ABOVE ((uint64_t)64 << 20)
/* Whether a full table's build skips the successors a row already
 * reaches through the exact rows merged before (reach.c, row_build): on,
 * or never (a testing knob: the table is the same either way).
 * pg_reach_skipped counts the successors skipped (tests). */
extern int pg_reach_skip;
extern _Atomic uint64_t pg_reach_skipped;
/* Free the reachability table, the reader summaries and the kept arrays
 * (below): nothing after pruning tests reachability (pg_side_blocked,
 * pg_reaches) again.  pg_reach_drop_table: all but the kept arrays. */
void pg_reach_free(polygraph *g);
void pg_reach_drop_table(polygraph *g);
/* Keep (on) or free (off) the arrays pg_reach and pg_order make for the
 * known graph (its adjacency, a topological order) from one call to the
 * next: a renewal then writes over the pages of the last one instead of
 * taking fresh ones from the kernel, which zeroes each.  On from a
 * polygraph's first table (pg_reach) until pg_prune returns (or
 * pg_reach_free); the results are the same either way. */
void pg_reach_keep_scratch(polygraph *g, int on);

/* The whole table's rows, one per node (whatever the layout: half a
 * table counts as the whole one, so that the pruning rule that reads this
 * decides the same for both). */
uint64_t pg_reach_rows(const polygraph *g);
/* About what renewing the table for the edges added since the last
 * pg_reach would cost, in rows of a full table (0: nothing to renew). */
uint64_t pg_reach_renewal_rows(const polygraph *g);

/* prune.c: prune until a round decides nothing, max_rounds were run, or
 * (pg_prune_stop) another round is not expected to pay for its table;
 * returns 1, or 0 when the level fails.  topo_pos is left the known
 * graph's Kahn order either way.  When the last step is that order alone
 * (no round follows), the table and the reader summaries are freed before
 * it (pg_reach_drop_table), unless g->reach_keep or the choice of candidates
 * for ambiguous reads and views (choice.h, which reads the table after
 * pruning) may follow: the order's arrays then take their place instead
 * of coming on top (1M SI: 114 + 46 MB). */
int  pg_prune(polygraph *g, int max_rounds);
/* When pruning stops before its fixpoint: by the expected yield of the
 * next round, for tables that are not small (auto), always (a testing knob: the rule on
 * every table), or never (to the fixpoint).  Verdicts are the same:
 * pruning only decides what the solver would. */
typedef enum { PG_PRUNE_STOP_AUTO = 0, PG_PRUNE_STOP_ALWAYS, PG_PRUNE_STOP_NEVER } pg_prune_stop_id;
extern pg_prune_stop_id pg_prune_stop;

#endif
