/* acyclic_internal.h — the acyclicity theory's shared state, for its own
 * files only (theory/acyclic*.c, theory/guard_arcs.c); the rest of the
 * engine sees theory/acyclic.h.
 *
 * Which file owns what:
 *   acyclic.c           the theory_ops callbacks that mirror the engine's
 *                       trail (assign, levels, backtrack, partial backtrack),
 *                       creation and destruction
 *   acyclic_build.c     adding nodes and edges (always-on and guarded), the
 *                       always-on edges' list and its hand-over to the order
 *   acyclic_records.c   edge records: which edge ids have one, and the ends
 *                       of every edge id
 *   guard_arcs.c        the guarded edges of each node as blocked arrays (gcsr)
 *   acyclic_propagate.c enabling an edge (insertion into the order) and the
 *                       implications the insertion's window gives
 *   acyclic_explain.c   conflict clauses and lazy reasons
 *   acyclic_presort.c   re-sorting the order once per solve
 *   acyclic_phase.c     the order-guided branching phase
 *   acyclic_verify.c    independent checks of the whole state (tests, debug)
 *
 * Invariants every file keeps:
 *  - An edge is enabled iff its record's pos >= 0, and then trail[pos] is
 *    its id and the order holds its arc (with its guarded id).  Always-on
 *    edges have no record (unless they can never be on) and are arcs
 *    PK_FIXED of the order once fixed_in_pk passes them.
 *  - Every user of the order calls sync_fixed first (the listed always-on
 *    edges go into it), and every callback calls flush_taken_back first
 *    (edges of literals taken back by partial backtracking leave it).
 *  - pk.mark, pk.par_node and pk.par_edge are scratch between insertions:
 *    searches here may use them; seen2 is the theory's own second set.
 *  - VF_SEEN marks are set only while a clause is being built and cleared
 *    before it is handed to the engine (unmark_seen). */
#ifndef GSAT_ACYCLIC_INTERNAL_H
#define GSAT_ACYCLIC_INTERNAL_H

#include <stdint.h>

#include "theory/acyclic.h"
#include "theory/acyclic_options.h"
#include "theory/pk_order.h"

/* The theory's options (acyclic_options.h): indices into the values the
 * engine keeps (a->opt), read as OPTION(a, theory_phase). */
enum {
#define X(name, def, lo, hi, help) ACYCLIC_OPT_##name,
    ACYCLIC_OPTIONS(X)
#undef X
    ACYCLIC_NUM_OPTIONS
};
#define OPTION(a, name) ((a)->opt[ACYCLIC_OPT_##name])

/* A guarded edge (or an always-on one that can never be on: a self-loop
 * or one that closed a cycle when added).  Always-on edges have no record:
 * their ends are on the fixed list, and the order holds them as PK_FIXED
 * arcs (frozen into arrays, see pk_freeze); they never leave it, are
 * free in every explanation and are not on the edge trail.  Edge ids of the
 * theory's API count both kinds in the order they were added. */
typedef struct edge {
    int from, to;
    int lit;              /* guard (DIMACS); 0 only for an edge never on */
    int pos;              /* index on the edge trail, -1 when off */
    int next_guarded;     /* next edge with the same guard literal */
} edge;

typedef struct reach { int node, edge; } reach;

/* The guarded edges out of (or into) the nodes of one block (GBLOCK_SHIFT:
 * 4096 nodes) as an array: node v's are arcs[start[v + b] .. start[v + b + 1])
 * (block b, one slot more than nodes for its end), newest first, those
 * with id < edges.  Newer ones (fresh: added since the block's build) are
 * on the node's fresh list only: head[v], newest first, through the pool.
 * A block is rebuilt when its fresh edges exceed a quarter of its arcs and
 * of its nodes: O(block) each time, amortized O(1) an edge, never a pass
 * over the whole graph.  The build empties its nodes' lists; their pool
 * entries are then dead (edge -1), and the pool is compacted when they
 * are half of it (O(pool), amortized O(1) an entry).  So an edge is held
 * once here (its arc), plus 8 bytes while fresh: the records have no
 * links of their own.  The in side (tails) too unless theory_in_arrays
 * is 0: then the propagation scans the forward set's out-edges only
 * (scan_candidates). */
#define GBLOCK_SHIFT 12          /* the default (acyclic_set_block_shift) */
typedef struct gblock { reach *arcs; int edges; uint32_t len, fresh; } gblock;
typedef struct glink { int edge, next; } glink;   /* a fresh edge; the node's next (older) entry, -1: none */
typedef struct gcsr {
    gblock *blk;
    uint32_t *start;
    int *head;            /* per node: its newest fresh entry in pool, -1: none */
    VEC(glink) pool;
    size_t pool_dead;     /* pool entries whose edge is in its block now */
    int nblk, cap_blk, shift;
    size_t built, fresh;  /* arcs in the blocks, and on the lists only; more fresh than built: bulk loading,
                           * one sequential pass at the next solve's start builds every block (gcsr_sync) */
} gcsr;

struct acyclic {
    gsat *s;
    int th;
    const int64_t *opt;   /* the options' values (OPTION), owned by the engine */
    pk_order pk;

    edge *e;              /* indexed by guarded id: these ids are the ones used below */
    int num_guarded, cap_guarded;
    /* Which edge ids have a record (acyclic_edge_ends): bit e of rec_bits,
     * records being numbered in the order of their edge ids; rec_rank[k]:
     * the records below edge id 512 k, for k < rank_len (1/8 byte an edge
     * id; a record's guarded id is the rank of its edge id's bit). */
    uint64_t *rec_bits;
    uint32_t *rec_rank;
    size_t rank_len, rank_cap;
    int num_edges;        /* edge ids given out: guarded records + fixed list */
    /* The always-on edges, numbered 0 .. num_fixed-1 in the order added:
     * those below fixed_in_pk are in the order (frozen or on its lists: the
     * order merges them block by block), the rest go forward in it.  The
     * list holds the ends of those from fixed_base on (fixed[2 (f -
     * fixed_base)], and + 1); fixed_base is 0 unless theory_keep_ends is
     * off, when the ends of the edges in the order are dropped. */
    int *fixed;
    size_t num_fixed, cap_fixed, fixed_base;
    size_t fixed_in_pk;
    int order_used;       /* sync_fixed has run: the order was read or changed (acyclic_add_fixed_edges) */

    int *guard_head;      /* per literal index (2v, 2v+1): first edge it guards */
    int *implied_edge;    /* per variable: the edge whose cycle implied it */
    int *implied_limit;   /* per variable: edge-trail length at implication */
    uint8_t *vflag;       /* per variable: VF_* flags */
    int cap_vars;

    /* The guarded edges out of each node, and into it unless
     * theory_in_arrays is 0, as arrays (scanning them is the propagation's
     * inner loop; lists through the edge records would miss the cache), by
     * blocks of nodes (gcsr): each block rebuilt alone. */
    gcsr gc[2];           /* 0: out-edges (heads), 1: in-edges (tails), kept when sides == 2 */
    int sides;            /* 0 until the first guarded edge, then 1 + theory_in_arrays then */
    /* Searches here mark nodes in the order's stamp array (pk.mark, free
     * between insertions); the bounded search of theory_propagate=2 needs a
     * second set (NULL until then). */
    uint32_t *seen2;
    int cap_nodes;
    uint32_t nstamp;

    vec_int trail;        /* enabled edges, in order */
    vec_int trail_lim;    /* trail length at the start of each level > 0 */
    vec_int pending;      /* implied literals not yet handed to the engine */
    VEC(reach) taken_back;/* edges of literals th_unassign took back, still enabled */
    vec_int gone;         /* variables taken back since the last flush (VF_GONE set) */
    vec_int stack;
    VEC(reach) cur, next;
    int conflict_edge;
    vec_int cycle;        /* edge ids of the path that made the last insertion fail */
    VEC(reach) cand;      /* scan_candidates: hits to take in the backward set's order */

    vec_int late;         /* th_backtrack: edges that stay on, set aside */
    int late_on;          /* edges were added above level 0 (keep_trail): see th_backtrack */
    acyclic_graph_vec graphs;
    int presort_due;      /* a solve began and the order is not presorted for it yet */
    vec_int assumed;      /* that solve's assumptions */
    acyclic_stats st;
};

enum {
    VF_WATCHED = 1,       /* the engine reports it (gsat_theory_watch) */
    VF_PENDING = 2,       /* implied, on the pending list */
    VF_GONE = 4,          /* taken back by th_unassign since the last flush */
    VF_SEEN = 8,          /* in the clause being built (unmark_seen clears it) */
};

static inline int lit_index(int lit) { return lit > 0 ? 2 * lit : 2 * -lit + 1; }
static inline int lit_var(int lit) { return lit > 0 ? lit : -lit; }

static inline int guard_value(const acyclic *a, int lit) { return gsat_lit_value_now(a->s, lit); }

/* Trail length of the edges enabled at level 0: they cost nothing in an
 * explanation (their guards are false for good). */
static inline int level0_end(const acyclic *a) {
    return a->trail_lim.len ? a->trail_lim.data[0] : (int)a->trail.len;
}

/* A clause's guards are deduplicated with VF_SEEN, set as each goes into
 * the clause: clear it for the literals of out from index `from` on. */
static inline void unmark_seen(acyclic *a, const vec_int *out, size_t from) {
    for (size_t k = from; k < out->len; k++) a->vflag[lit_var(out->data[k])] &= (uint8_t)~VF_SEEN;
}

/* acyclic.c */
void acyclic_flush_taken_back(acyclic *a);
/* Partial backtracking's edges leave the order (see acyclic.c). */
static inline void flush_taken_back(acyclic *a) {
    if (a->gone.len) acyclic_flush_taken_back(a);
}

/* acyclic_build.c */
void acyclic_sync_fixed(acyclic *a);
/* The listed always-on edges go into the order (see acyclic_build.c). */
static inline void sync_fixed(acyclic *a) {
    a->order_used = 1;
    if (a->fixed_in_pk != a->num_fixed) acyclic_sync_fixed(a);
}

/* acyclic_records.c */
int  acyclic_new_record(acyclic *a, int id, int from, int to, int lit);

/* guard_arcs.c */
void gcsr_sync(acyclic *a);
void gcsr_listed(acyclic *a, int side, int v, int id);
/* Node v's guarded edges of one side older than its block's build: *n
 * of them (its fresh list holds the rest, ids >= *old); NULL when none (a
 * block not built yet has no array). */
static inline const reach *gcsr_arcs(const acyclic *a, int side, int v, int *n, int *old) {
    const gcsr *g = &a->gc[side];
    int b = v >> g->shift;
    if (b >= g->nblk) { *n = 0; *old = 0; return NULL; }
    const uint32_t *st = g->start + v + b;
    *n = (int)(st[1] - st[0]);
    *old = g->blk[b].edges;
    return *n ? g->blk[b].arcs + st[0] : NULL;
}

/* Ask the cache for what enabling lit's edges will touch first: each
 * off edge's list heads in the order (pk.out[from], pk.in[to]; a miss
 * each at 2M nodes, the larger part of an insertion that goes forward).
 * Issued when the literal is chosen or told, they overlap one another
 * and the misses still under way; performance only, nothing changes. */
static inline void prefetch_guard_ends(const acyclic *a, int lit) {
    for (int id = a->guard_head[lit_index(lit)]; id >= 0; id = a->e[id].next_guarded) {
        const edge *ed = &a->e[id];
        if (ed->pos >= 0) continue;
        __builtin_prefetch(&a->pk.out[ed->from], 1);
        __builtin_prefetch(&a->pk.in[ed->to], 1);
    }
}

/* acyclic_propagate.c */
int  acyclic_insert_arc(acyclic *a, int from, int to, int eid, int cost);
int  acyclic_enable(acyclic *a, int id);

/* acyclic_explain.c */
int  acyclic_explain_path(acyclic *a, int src, int dst, int limit, vec_int *out);
void acyclic_conflict_clause(acyclic *a, int lit, vec_int *out);
int  acyclic_th_implied_still(void *t, int lit, vec_int *reason);
void acyclic_th_reason(void *t, int lit, vec_int *out);
void acyclic_th_conflict(void *t, vec_int *out);

/* acyclic_presort.c */
void acyclic_presort(acyclic *a);

/* acyclic_phase.c */
int  acyclic_th_phase(void *t, int lit);

/* acyclic_verify.c (debug builds) */
#ifdef GSAT_DEBUG
void acyclic_check_cycle_path(const acyclic *a, int from, int to);
#endif

#endif
