/* acyclic.c — the graph acyclicity theory (see acyclic.h). */
#include "theory/acyclic.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"
#include "theory/pk_order.h"

/* The theory's own options (gsat_add_options): the engine keeps the values. */
enum { OPT_PROPAGATE, OPT_PROPAGATE_BUDGET, OPT_PHASE, OPT_PHASE_BUDGET, OPT_PRESORT, OPT_KEEP_ENDS, OPT_IN_ARRAYS, NUM_OPTIONS };
static const gsat_option options[NUM_OPTIONS] = {
    {"theory_propagate", 1, 0, 2, "acyclicity: imply edges off that would close a cycle: 0 off, 1 from the Pearce-Kelly window, 2 also a bounded search"},
    {"theory_propagate_budget", 64, 1, 1000000000, "acyclicity, theory_propagate=2: nodes searched each way per new edge"},
    {"theory_phase", 1, 0, 1, "branch on an edge variable with the value that agrees with the current topological order"},
    {"theory_phase_budget", 1024, 0, 1000000000, "theory_phase: nodes searched to see whether a backward edge closes a cycle"},
    {"theory_presort", 1, 0, 1, "re-sort the order once per solve for the edges it will turn on (a pass over every edge; "
     "0: never, for many small solves of one growing graph)"},
    {"theory_keep_ends", 1, 0, 1, "keep the ends of always-on edges once frozen into the order's arrays (8 bytes an edge; "
     "0: a caller that never lists the edges drops them)"},
    /* read at the first guarded edge (latch_sides) */
    {"theory_in_arrays", 1, 0, 1, "keep the guarded edges into each node as arrays too (8 bytes an edge, 4 a node): "
     "propagation scans the smaller side (0: out-edges only, for few scans)"},
};

/* A guarded edge (or an always-on one that can never be on: a self-loop
 * or one that closed a cycle when added).  Always-on edges have no record:
 * their ends are on the fixed list, and the order holds them as PK_FIXED
 * arcs (frozen into arrays, see pk_freeze_fixed); they never leave it, are
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
    const int64_t *opt;   /* values of options[], owned by the engine */
    pk_order pk;

    edge *e;              /* indexed by guarded id: these ids are the ones used below */
    int num_guarded, cap_guarded;
    /* Which edge ids have a record (acyclic_edge_ends): bit e of rec_bits,
     * records being numbered in the order of their edge ids; rec_rank[k]:
     * the records below edge id 512 k, for k < rank_len.  1/8 byte an edge
     * id where a table of the records' edge ids took 4 bytes a record. */
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

    int *guard_head;      /* per literal index (2v, 2v+1): first edge it guards */
    int *implied_edge;    /* per variable: the edge whose cycle implied it */
    int *implied_limit;   /* per variable: edge-trail length at implication */
    uint8_t *vflag;       /* per variable: VF_* (one byte, where two bytes and two stamps of 4 were) */
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

static const theory_ops ops;
static void flush_taken_back(acyclic *a);

enum {
    VF_WATCHED = 1,       /* the engine reports it (gsat_theory_watch) */
    VF_PENDING = 2,       /* implied, on the pending list */
    VF_GONE = 4,          /* taken back by th_unassign since the last flush */
    VF_SEEN = 8,          /* in the clause being built (unmark_seen clears it) */
};

/* ---- small helpers ------------------------------------------------------ */

static inline int lit_index(int lit) { return lit > 0 ? 2 * lit : 2 * -lit + 1; }
static inline int lit_var(int lit) { return lit > 0 ? lit : -lit; }

static void ensure_vars(acyclic *a, int var) {
    if (var < a->cap_vars) return;
    /* every variable at once, at its exact count (a reader adds edges after
     * naming them all); later growth by half again */
    int all = gsat_num_vars(a->s), cap = (var > all ? var : all) + 1;
    if (cap < a->cap_vars + a->cap_vars / 2) cap = a->cap_vars + a->cap_vars / 2;   /* zeroed whole: not doubled */
    if (cap < 64) cap = 64;
    a->guard_head = big_realloc(a->guard_head, 2 * (size_t)cap * sizeof *a->guard_head);
    a->implied_edge = big_realloc(a->implied_edge, (size_t)cap * sizeof *a->implied_edge);
    BIG_GROW_ZERO(a->implied_limit, a->cap_vars, cap);
    BIG_GROW_ZERO(a->vflag, a->cap_vars, cap);
    for (int i = 2 * a->cap_vars; i < 2 * cap; i++) a->guard_head[i] = -1;
    for (int v = a->cap_vars; v < cap; v++) a->implied_edge[v] = -1;
    a->cap_vars = cap;
}

/* A clause's guards are deduplicated with VF_SEEN, set as each goes into
 * the clause: clear it for the literals of out from index `from` on. */
static void unmark_seen(acyclic *a, const vec_int *out, size_t from) {
    for (size_t k = from; k < out->len; k++) a->vflag[lit_var(out->data[k])] &= (uint8_t)~VF_SEEN;
}

static uint32_t new_seen2_stamp(acyclic *a) {
    if (++a->nstamp == 0) {
        memset(a->seen2, 0, (size_t)a->cap_nodes * sizeof *a->seen2);
        a->nstamp = 1;
    }
    return a->nstamp;
}

static inline int guard_value(const acyclic *a, int lit) { return gsat_lit_value_now(a->s, lit); }

/* Trail length of the edges enabled at level 0: they cost nothing in an
 * explanation (their guards are false for good). */
static inline int level0_end(const acyclic *a) {
    return a->trail_lim.len ? a->trail_lim.data[0] : (int)a->trail.len;
}

/* theory_keep_ends off: forget the ends of the always-on edges once all
 * are in the order (a small list is kept for the next ones). */
static void forget_ends(acyclic *a) {
    if (a->opt[OPT_KEEP_ENDS] || a->fixed_in_pk != a->num_fixed || a->fixed_base == a->num_fixed) return;
    a->fixed_base = a->num_fixed;
    if (a->cap_fixed > 65536) {
        free(a->fixed);
        a->fixed = NULL;
        a->cap_fixed = 0;
    }
}

/* Put the always-on edges added since the order was last used into it:
 * straight into its frozen arrays if they are a quarter of those in it or
 * more (bulk loading: O(them + the blocks they touch)), else onto the
 * per-node lists, from which the order merges them into its frozen arrays
 * block by block (pk_order.h: no step touches the whole graph).  Each went
 * forward in the order when added and nothing has reordered since (every
 * user of the order calls this first), so none searches. */
static void sync_fixed(acyclic *a) {
    if (a->fixed_in_pk == a->num_fixed) return;
    size_t from = a->fixed_in_pk, n = a->num_fixed - from;
    if (n > a->fixed_in_pk / 4 && pk_freeze(&a->pk, a->fixed + 2 * (from - a->fixed_base), n)) a->fixed_in_pk = a->num_fixed;
    for (; a->fixed_in_pk < a->num_fixed; a->fixed_in_pk++) {
        const int *ends = a->fixed + 2 * (a->fixed_in_pk - a->fixed_base);
        if (!pk_insert_cost(&a->pk, ends[0], ends[1], PK_FIXED, 0)) {
            /* cannot happen (it went forward and nothing reordered); were it
             * to, an edge silently missing could make a cyclic graph pass */
            fprintf(stderr, "gsat: internal error: an always-on edge no longer fits the order\n");
            abort();
        }
        assert(!a->pk.searched);
    }
    forget_ends(a);
}

/* ---- explanations ------------------------------------------------------- */

/* Push onto out the negated guards of a path src ~> dst through edges with
 * trail index < limit, one with the fewest guarded edges (0-1 BFS, Dial
 * style: cost-0 edges extend the current layer, cost-1 edges the next).
 * Only nodes ordered between src and dst can lie on such a path.  Guards
 * already marked VF_SEEN are skipped, the others marked (the caller
 * clears the marks: unmark_seen).  Returns the literals added,
 * -1 if there is no such path. */
static int explain_path(acyclic *a, int src, int dst, int limit, vec_int *out) {
    sync_fixed(a);
    pk_order *pk = &a->pk;
    int *par_node = pk->par_node, *par_edge = pk->par_edge;   /* scratch between insertions */
    const int hi = pk->ord[dst], free_below = level0_end(a);
    uint32_t stamp = pk_new_stamp(pk), *seen = pk->mark;
    vec_clear(a->cur);
    vec_clear(a->next);
    seen[src] = stamp;
    par_node[src] = -1;
    vec_push(a->cur, ((reach){src, -1}));
    int found = src == dst;
    while (!found && (a->cur.len || a->next.len)) {
        if (!a->cur.len) {              /* next layer: settle what is not settled yet */
            for (size_t i = 0; i < a->next.len; i++) {
                reach r = a->next.data[i];
                if (seen[r.node] == stamp) continue;
                seen[r.node] = stamp;
                par_edge[r.node] = r.edge;
                par_node[r.node] = a->e[r.edge].from;
                if (r.node == dst) { found = 1; break; }
                vec_push(a->cur, r);
            }
            vec_clear(a->next);
            continue;
        }
        int w = vec_pop(a->cur).node, nf;
        const int *fixed = pk_fixed_out(pk, w, &nf);
        for (int i = 0; i < nf && !found; i++) {   /* always on: free */
            int z = fixed[i];
            if (seen[z] == stamp || pk->ord[z] > hi) continue;
            seen[z] = stamp;
            par_node[z] = w;
            par_edge[z] = PK_FIXED;
            if (z == dst) found = 1;
            else vec_push(a->cur, ((reach){z, PK_FIXED}));
        }
        const pk_adj *adj = &pk->out[w];
        const pk_arc *arcs = pk_arcs(pk, adj);
        for (int i = 0; i < adj->len && !found; i++) {
            int z = arcs[i].node, id = (int)arcs[i].edge;
            if (seen[z] == stamp || pk->ord[z] > hi) continue;
            if (id == PK_FIXED || a->e[id].pos < free_below) {
                if (id != PK_FIXED && a->e[id].pos >= limit) continue;
                seen[z] = stamp;
                par_node[z] = w;
                par_edge[z] = id;
                if (z == dst) found = 1;
                else vec_push(a->cur, ((reach){z, id}));
            } else if (a->e[id].pos < limit) {
                vec_push(a->next, ((reach){z, id}));
            }
        }
    }
    if (!found) return -1;
    int added = 0;
    for (int v = dst; v != src; v = par_node[v]) {
        if (par_edge[v] == PK_FIXED) continue;
        const edge *ed = &a->e[par_edge[v]];
        if (ed->pos >= free_below && !(a->vflag[lit_var(ed->lit)] & VF_SEEN)) {
            a->vflag[lit_var(ed->lit)] |= VF_SEEN;
            vec_push(*out, -ed->lit);
            added++;
        }
    }
    return added;
}

/* ---- propagation -------------------------------------------------------- */

static void imply_off(acyclic *a, int id) {
    const edge *ed = &a->e[id];
    int v = lit_var(ed->lit);
    if (a->vflag[v] & VF_PENDING) return;            /* already implied this round */
    a->vflag[v] |= VF_PENDING;
    a->implied_edge[v] = id;
    a->implied_limit[v] = (int)a->trail.len;
    vec_push(a->pending, -ed->lit);
    a->st.implied++;
}

static inline void consider(acyclic *a, int id) {
    const edge *ed = &a->e[id];
    a->st.prop_scans++;
    if (ed->pos >= 0 || guard_value(a, ed->lit) != 0) return;
    imply_off(a, id);
}

/* Blocks up to the one of node v (empty). */
static void gcsr_cover(gcsr *g, int v) {
    int need = (v >> g->shift) + 1;
    size_t slots = ((size_t)1 << g->shift) + 1;
    if (g->nblk >= need) return;
    if (need > g->cap_blk) {
        int cap = g->cap_blk ? 2 * g->cap_blk : 4;
        if (cap < need) cap = need;
        g->blk = xrealloc(g->blk, (size_t)cap * sizeof *g->blk);
        g->start = xrealloc(g->start, (size_t)cap * slots * sizeof *g->start);
        g->cap_blk = cap;
    }
    memset(g->blk + g->nblk, 0, (size_t)(need - g->nblk) * sizeof *g->blk);
    memset(g->start + (size_t)g->nblk * slots, 0, (size_t)(need - g->nblk) * slots * sizeof *g->start);
    g->nblk = need;
}

/* Rebuild block b of one side: per node, its edges newer than the build
 * (from the list, newest first), then those of the build. */
static void gblock_build(acyclic *a, int side, int b) {
    gcsr *g = &a->gc[side];
    gblock *k = &g->blk[b];
    const int nodes = 1 << g->shift, first = b << g->shift;
    uint32_t *st = g->start + (size_t)b * ((size_t)nodes + 1);
    size_t total = (size_t)k->len + k->fresh;
    reach *arcs = xmalloc((total ? total : 1) * sizeof *arcs);
    uint32_t at = 0;
    for (int i = 0; i < nodes; i++) {
        uint32_t s = st[i], e = st[i + 1];           /* st[i + 1] is rewritten next round, after this read */
        st[i] = at;
        int v = first + i;
        if (v < a->pk.num_nodes) {
            for (int p = g->head[v]; p >= 0; p = g->pool.data[p].next) {
                int id = g->pool.data[p].edge;
                arcs[at++] = (reach){side ? a->e[id].from : a->e[id].to, id};
                g->pool.data[p].edge = -1;
                g->pool_dead++;
            }
            g->head[v] = -1;
        }
        if (e > s) memcpy(arcs + at, k->arcs + s, (size_t)(e - s) * sizeof *arcs);
        at += e - s;
    }
    st[nodes] = at;
    assert(at == total);
    free(k->arcs);
    g->built += (size_t)at - k->len;
    g->fresh -= k->fresh;
    k->arcs = arcs;
    k->len = at;
    k->edges = a->num_guarded;
    k->fresh = 0;
    a->st.block_builds++;
}

/* Drop the pool's dead entries (half of it or more): live ones keep their
 * order, so each list still runs to older entries. */
static void pool_compact(acyclic *a, int side) {
    gcsr *g = &a->gc[side];
    size_t n = g->pool.len, at = 0;
    int *moved = xmalloc((n ? n : 1) * sizeof *moved);
    for (size_t p = 0; p < n; p++) {
        glink l = g->pool.data[p];
        if (l.edge < 0) continue;
        moved[p] = (int)at;
        l.next = l.next < 0 ? -1 : moved[l.next];     /* older: moved already */
        int v = side ? a->e[l.edge].to : a->e[l.edge].from;
        if (g->head[v] == (int)p) g->head[v] = (int)at;
        g->pool.data[at++] = l;
    }
    free(moved);
    g->pool.len = at;
    g->pool_dead = 0;
    a->st.pool_compactions++;
    if (g->pool.cap > 4096 && g->pool.cap > at + at / 2) {    /* the dead entries' pages go back */
        g->pool.cap = at + at / 2 > 4096 ? at + at / 2 : 4096;
        g->pool.data = xrealloc(g->pool.data, g->pool.cap * sizeof *g->pool.data);
    }
}

/* Every block of one side in one pass over the edge records (sequential:
 * for bulk loading, where block by block would follow the lists). */
static void gcsr_build_all(acyclic *a, int side) {
    gcsr *g = &a->gc[side];
    const int n = a->pk.num_nodes, m = a->num_guarded, nodes = 1 << g->shift;
    if (!n) return;
    gcsr_cover(g, n - 1);
    const size_t slots = (size_t)nodes + 1;
    for (int b = 0; b < g->nblk; b++) { free(g->blk[b].arcs); g->blk[b] = (gblock){0}; }
    memset(g->start, 0, (size_t)g->nblk * slots * sizeof *g->start);
    for (int id = 0; id < m; id++) {                 /* the edges on the lists */
        const edge *ed = &a->e[id];
        if (!ed->lit || ed->from == ed->to) continue;
        int v = side ? ed->to : ed->from;
        g->start[(size_t)v + (size_t)(v >> g->shift) + 1]++;
    }
    for (int b = 0; b < g->nblk; b++) {
        uint32_t *st = g->start + (size_t)b * slots;
        for (int i = 0; i < nodes; i++) st[i + 1] += st[i];
        g->blk[b].len = st[nodes];
        g->blk[b].arcs = xmalloc((st[nodes] ? st[nodes] : 1) * sizeof *g->blk[b].arcs);
        g->blk[b].edges = m;
    }
    for (int id = m - 1; id >= 0; id--) {           /* newest first, as on the lists */
        const edge *ed = &a->e[id];
        if (!ed->lit || ed->from == ed->to) continue;
        int v = side ? ed->to : ed->from, b = v >> g->shift;
        uint32_t *cur = &g->start[(size_t)v + (size_t)b];
        g->blk[b].arcs[(*cur)++] = (reach){side ? ed->from : ed->to, id};
    }
    for (int b = 0; b < g->nblk; b++) {             /* each slot moved to its node's end: back one */
        uint32_t *st = g->start + (size_t)b * slots;
        memmove(st + 1, st, (size_t)nodes * sizeof *st);
        st[0] = 0;
    }
    g->built = 0;
    for (int b = 0; b < g->nblk; b++) g->built += g->blk[b].len;
    g->fresh = 0;
    for (int v = 0; v < n; v++) g->head[v] = -1;     /* every edge is in its block now */
    vec_free(g->pool);                               /* bulk loading filled it: give it back */
    g->pool_dead = 0;
    a->st.block_builds += g->nblk;
}

/* At a solve's start: after bulk loading, every block at once. */
static void gcsr_sync(acyclic *a) {
    for (int side = 0; side < a->sides; side++)
        if (a->gc[side].fresh > a->gc[side].built) gcsr_build_all(a, side);
}

/* Guarded edge id, node v's on one side, goes onto v's fresh list. */
static void gcsr_listed(acyclic *a, int side, int v, int id) {
    gcsr *g = &a->gc[side];
    if (g->pool.len >= INT_MAX) xalloc_fail(SIZE_MAX);
    vec_push(g->pool, ((glink){id, g->head[v]}));
    g->head[v] = (int)g->pool.len - 1;
    gcsr_cover(g, v);
    gblock *k = &g->blk[v >> g->shift];
    g->fresh++;
    if (++k->fresh > (k->len >> 2) + ((1u << g->shift) >> 2) && g->fresh <= g->built) {
        gblock_build(a, side, v >> g->shift);
        if (g->pool_dead >= (1u << g->shift) >> 2 && 2 * g->pool_dead >= g->pool.len) pool_compact(a, side);
    }
}

/* Node v's guarded edges of one side older than its block's build: *n
 * of them (its fresh list holds the rest, ids >= *old). */
static inline const reach *gcsr_arcs(const acyclic *a, int side, int v, int *n, int *old) {
    const gcsr *g = &a->gc[side];
    int b = v >> g->shift;
    if (b >= g->nblk) { *n = 0; *old = 0; return NULL; }
    const uint32_t *st = g->start + v + b;
    *n = (int)(st[1] - st[0]);
    *old = g->blk[b].edges;
    return g->blk[b].arcs + st[0];
}

/* Order of the hits of a scan from the backward set (scan_candidates):
 * by their head's place in that set (node: the place), newest first. */
static int cmp_hit(const void *x, const void *y) {
    const reach *p = x, *q = y;
    if (p->node != q->node) return p->node < q->node ? -1 : 1;
    return p->edge > q->edge ? -1 : p->edge < q->edge;
}

static int cmp_node(const void *x, const void *y) {
    const reach *p = x, *q = y;
    return (p->node > q->node) - (p->node < q->node);
}

/* Guarded, unassigned edges x->y with x in fwd (marked fwd_stamp in
 * fwd_marks) and y in bwd (bwd_stamp in bwd_marks): each closes a cycle
 * y ~> u -> v ~> x, so its guard is off.  Scanned from the smaller set:
 * its out-edges or in-edges.  Without the in-edges' arrays
 * (theory_in_arrays 0) always from fwd, whichever set is larger (on the
 * 200k prefix of the 1M stream: 18k scans, the forward sets 1.26M nodes
 * in all, the smaller sets 0.35M; on rw100k.gnf the scans' time doubles:
 * doc/benchmarks.md, guard29); the hits are then taken (consider: the
 * first edge of a guard gives its reason) in the order a scan from bwd
 * gives: by their head's place in bwd, newest first, so that the search
 * is the same either way (the order alone moves a hard search by half its
 * time either way: rw100k.gnf took 30 or 51 s). */
static void scan_candidates(acyclic *a, const vec_int *fwd, const uint32_t *fwd_marks, uint32_t fwd_stamp,
                            const vec_int *bwd, const uint32_t *bwd_marks, uint32_t bwd_stamp) {
    int n, old, by_bwd = fwd->len > bwd->len;
    if (by_bwd && a->sides == 2) {
        const glink *pool = a->gc[1].pool.data;
        for (size_t i = 0; i < bwd->len; i++) {
            int v = bwd->data[i];
            const reach *r = gcsr_arcs(a, 1, v, &n, &old);
            for (int p = a->gc[1].head[v]; p >= 0; p = pool[p].next)
                if (fwd_marks[a->e[pool[p].edge].from] == fwd_stamp) consider(a, pool[p].edge);
            for (int k = 0; k < n; k++)
                if (fwd_marks[r[k].node] == fwd_stamp) consider(a, r[k].edge);
        }
        return;
    }
    const glink *pool = a->gc[0].pool.data;
    vec_clear(a->cand);
    for (size_t i = 0; i < fwd->len; i++) {
        int u = fwd->data[i];
        const reach *r = gcsr_arcs(a, 0, u, &n, &old);
        for (int p = a->gc[0].head[u]; p >= 0; p = pool[p].next) {
            int id = pool[p].edge;
            if (bwd_marks[a->e[id].to] != bwd_stamp) continue;
            if (by_bwd) vec_push(a->cand, ((reach){a->e[id].to, id}));
            else consider(a, id);
        }
        for (int k = 0; k < n; k++) {
            if (bwd_marks[r[k].node] != bwd_stamp) continue;
            if (by_bwd) vec_push(a->cand, r[k]);
            else consider(a, r[k].edge);
        }
    }
    if (a->cand.len > 1) {
        /* each hit's head -> its place in bwd: both sorted by node, merged */
        size_t nb = bwd->len, j = 0;
        reach *place = xmalloc(nb * sizeof *place);
        for (size_t i = 0; i < nb; i++) place[i] = (reach){bwd->data[i], (int)i};
        qsort(place, nb, sizeof *place, cmp_node);
        qsort(a->cand.data, a->cand.len, sizeof *a->cand.data, cmp_node);
        for (size_t i = 0; i < a->cand.len; i++) {
            while (j < nb && place[j].node < a->cand.data[i].node) j++;
            /* every head is in bwd (marked with its stamp as it went in); were
             * one not, it would go last, after every head that is */
            assert(j < nb && place[j].node == a->cand.data[i].node);
            a->cand.data[i].node = j < nb && place[j].node == a->cand.data[i].node ? place[j].edge : (int)nb;
        }
        free(place);
        qsort(a->cand.data, a->cand.len, sizeof *a->cand.data, cmp_hit);
    }
    for (size_t i = 0; i < a->cand.len; i++) consider(a, a->cand.data[i].edge);
}

/* Bounded search from `start` (forward or backward), marks in `marks`. */
static void bounded_search(acyclic *a, int start, int forward, uint32_t *marks, uint32_t stamp,
                           int64_t budget, vec_int *set) {
    vec_clear(*set);
    vec_clear(a->stack);
    marks[start] = stamp;
    vec_push(a->stack, start);
    vec_push(*set, start);
    while (a->stack.len && (int64_t)set->len < budget) {
        int w = vec_pop(a->stack), nf;
        const int *fixed = forward ? pk_fixed_out(&a->pk, w, &nf) : pk_fixed_in(&a->pk, w, &nf);
        for (int i = 0; i < nf && (int64_t)set->len < budget; i++) {
            int z = fixed[i];
            if (marks[z] == stamp) continue;
            marks[z] = stamp;
            vec_push(a->stack, z);
            vec_push(*set, z);
        }
        const pk_adj *adj = forward ? &a->pk.out[w] : &a->pk.in[w];
        const pk_arc *arcs = pk_arcs(&a->pk, adj);
        for (int i = 0; i < adj->len && (int64_t)set->len < budget; i++) {
            int z = arcs[i].node;
            if (marks[z] == stamp) continue;
            marks[z] = stamp;
            vec_push(a->stack, z);
            vec_push(*set, z);
        }
    }
}

static void propagate_after_insert(acyclic *a, int id) {
    int mode = (int)a->opt[OPT_PROPAGATE];
    if (mode == 0) return;
    pk_order *pk = &a->pk;
    if (pk->searched && pk->fwd.len && pk->bwd.len)
        scan_candidates(a, &pk->fwd, pk->mark, pk->fwd_stamp, &pk->bwd, pk->mark, pk->stamp);
    if (mode >= 2) {
        int64_t budget = a->opt[OPT_PROPAGATE_BUDGET];
        const edge *ed = &a->e[id];
        if (!a->seen2) a->seen2 = big_calloc((size_t)a->cap_nodes, sizeof *a->seen2);
        uint32_t st = pk_new_stamp(pk), st2 = new_seen2_stamp(a);
        bounded_search(a, ed->from, 0, a->seen2, st2, budget, &pk->bwd);
        bounded_search(a, ed->to, 1, pk->mark, st, budget, &pk->fwd);
        scan_candidates(a, &pk->fwd, pk->mark, st, &pk->bwd, a->seen2, st2);
    }
}

/* ---- enabling edges ----------------------------------------------------- */

/* Insert edge id; 0 if it would close a cycle, the cycle's path (head to
 * tail, fewest guards that cost: see explain_path) then in a->cycle.
 * Arcs cost 0 in Pearce-Kelly's search if always on or inserted at level
 * 0, which is "pos < level0_end" for as long as they stay. */
#ifdef GSAT_DEBUG
/* Is `eid` (a guarded id or PK_FIXED) an enabled edge from -> to? */
static int is_enabled_arc(const acyclic *a, int from, int to, int eid) {
    if (eid != PK_FIXED) {
        const edge *ed = &a->e[eid];
        return ed->from == from && ed->to == to && ed->pos >= 0 && a->trail.data[ed->pos] == eid;
    }
    int nf;
    const int *fixed = pk_fixed_out(&a->pk, from, &nf);
    for (int i = 0; i < nf; i++) if (fixed[i] == to) return 1;
    const pk_adj *adj = &a->pk.out[from];
    const pk_arc *arcs = pk_arcs(&a->pk, adj);
    for (int i = 0; i < adj->len; i++) if (arcs[i].node == to && arcs[i].edge == PK_FIXED) return 1;
    return 0;
}

/* The path of a->cycle runs through enabled edges from `from` back to `to`. */
static void check_cycle_path(const acyclic *a, int from, int to) {
    int at = from;
    for (size_t i = 0; i < a->cycle.len; i++) {
        int prev = a->pk.par_node[at];
        if (prev < 0 || a->pk.par_edge[at] != a->cycle.data[i] || !is_enabled_arc(a, prev, at, a->cycle.data[i])) {
            fprintf(stderr, "gsat: internal error: acyclicity conflict path broken\n");
            abort();
        }
        at = prev;
    }
    if (at != to) { fprintf(stderr, "gsat: internal error: acyclicity conflict path incomplete\n"); abort(); }
}
#endif

/* Insert from -> to into the order as edge `eid` (a guarded id or
 * PK_FIXED); 0 if it would close a cycle, the cycle's path (head to tail,
 * fewest guards that cost: see explain_path) then in a->cycle.  Arcs cost 0
 * in Pearce-Kelly's search if always on or inserted at level 0, which is
 * "pos < level0_end" for as long as they stay. */
static int insert_arc(acyclic *a, int from, int to, int eid, int cost) {
    sync_fixed(a);
    a->st.inserts++;
    if (!pk_insert_cost(&a->pk, from, to, eid, cost)) {
        vec_clear(a->cycle);
        pk_cycle_path(&a->pk, &a->cycle);
#ifdef GSAT_DEBUG
        check_cycle_path(a, from, to);
#endif
        return 0;
    }
    return 1;
}

/* Enable guarded edge id (see insert_arc). */
static int enable(acyclic *a, int id) {
    edge *ed = &a->e[id];
    if (!insert_arc(a, ed->from, ed->to, id, a->trail_lim.len > 0)) return 0;
    ed->pos = (int)a->trail.len;
    vec_push(a->trail, id);
    propagate_after_insert(a, id);
    return 1;
}

/* The conflict clause for an edge guarded by lit (0: always on) whose
 * insertion failed: its guard and the guards on the path Pearce-Kelly's
 * search found back from its head to its tail (a->cycle), those not on for
 * good. */
static void conflict_clause(acyclic *a, int lit, vec_int *out) {
    const int free_below = level0_end(a);
    const size_t from = out->len;
    int n = 0;
    if (lit) { vec_push(*out, -lit); a->vflag[lit_var(lit)] |= VF_SEEN; n++; }
    for (size_t i = 0; i < a->cycle.len; i++) {
        if (a->cycle.data[i] == PK_FIXED) continue;
        const edge *pe = &a->e[a->cycle.data[i]];
        if (pe->pos >= free_below && !(a->vflag[lit_var(pe->lit)] & VF_SEEN)) {
            a->vflag[lit_var(pe->lit)] |= VF_SEEN;
            vec_push(*out, -pe->lit);
            n++;
        }
    }
    unmark_seen(a, out, from);
    a->st.conflicts++;
    a->st.conflict_lits += n;
}

/* ---- theory_ops --------------------------------------------------------- */

/* Once per solve, before the first edge of the solve is inserted: re-sort
 * the order so that it also agrees with the edges the solve is about to
 * turn on: those whose guard is already true (level-0 facts not yet
 * reported) and those guarded by assumptions.  They arrive one at a time,
 * and inserting many edges against the order makes Pearce–Kelly reorder
 * large windows again and again; a sort is O(nodes + edges) once.
 * Kahn's algorithm over the enabled edges, which must stay respected, plus
 * those soon-on edges, respected when they can be: when every remaining
 * node waits on some predecessor, take one that waits on soon-on edges
 * only (the enabled edges are acyclic, so one exists). */
static int soon_on(const acyclic *a, const edge *ed, const uint8_t *assumed) {
    if (ed->pos >= 0 || !ed->lit || ed->from == ed->to) return 0;
    if (guard_value(a, ed->lit) > 0) return 1;
    return assumed && assumed[lit_index(ed->lit)];
}

static void presort(acyclic *a) {
    a->presort_due = 0;
    sync_fixed(a);
    uint8_t *assumed = NULL;
    if (a->assumed.len) {
        assumed = xcalloc(2 * (size_t)a->cap_vars, 1);
        for (size_t i = 0; i < a->assumed.len; i++) {
            int lit = a->assumed.data[i];
            if (lit_var(lit) < a->cap_vars) assumed[lit_index(lit)] = 1;
        }
    }
    size_t soft = 0;
    for (int id = 0; id < a->num_guarded; id++) soft += soon_on(a, &a->e[id], assumed);
    if (!soft) { free(assumed); return; }
    int n = a->pk.num_nodes;
    int *start = xcalloc((size_t)n + 2, sizeof *start), *head = xmalloc(soft * sizeof *head);
    int *indeg_all = xcalloc((size_t)n, sizeof *indeg_all), *indeg_hard = xcalloc((size_t)n, sizeof *indeg_hard);
    /* CSR of the soon-on edges by source */
    for (int id = 0; id < a->num_guarded; id++)
        if (soon_on(a, &a->e[id], assumed)) { start[a->e[id].from + 2]++; indeg_all[a->e[id].to]++; }
    for (int v = 0; v < n; v++) start[v + 2] += start[v + 1];
    for (int id = 0; id < a->num_guarded; id++)
        if (soon_on(a, &a->e[id], assumed)) head[start[a->e[id].from + 1]++] = a->e[id].to;
    free(assumed);
    for (int v = 0; v < n; v++) {
        int nf;
        const int *fixed = pk_fixed_out(&a->pk, v, &nf);
        for (int k = 0; k < nf; k++) { indeg_all[fixed[k]]++; indeg_hard[fixed[k]]++; }
        const pk_arc *arcs = pk_arcs(&a->pk, &a->pk.out[v]);
        for (int k = 0; k < a->pk.out[v].len; k++) { indeg_all[arcs[k].node]++; indeg_hard[arcs[k].node]++; }
    }
    int *q1 = xmalloc((size_t)n * sizeof *q1), *q2 = xmalloc((size_t)n * sizeof *q2), *order = xmalloc((size_t)n * sizeof *order);
    uint8_t *done = xcalloc((size_t)n, 1);
    int h1 = 0, t1 = 0, h2 = 0, t2 = 0, k = 0;
    for (int p = 0; p < n; p++) {             /* seeded in the current order: ties keep it */
        int v = a->pk.node_at[p];
        if (!indeg_all[v]) q1[t1++] = v;
        else if (!indeg_hard[v]) q2[t2++] = v;
    }
    while (k < n) {
        int v;
        if (h1 < t1) v = q1[h1++];
        else { assert(h2 < t2); v = q2[h2++]; }
        if (done[v]) continue;
        done[v] = 1;
        order[k++] = v;
        int nf;
        const int *fixed = pk_fixed_out(&a->pk, v, &nf);
        const pk_arc *arcs = pk_arcs(&a->pk, &a->pk.out[v]);
        for (int j = 0; j < nf + a->pk.out[v].len; j++) {   /* frozen arcs first, as inserted */
            int w = j < nf ? fixed[j] : arcs[j - nf].node;
            if (--indeg_hard[w] == 0 && indeg_all[w] > 1) q2[t2++] = w;
            if (--indeg_all[w] == 0) q1[t1++] = w;
        }
        for (int j = start[v]; j < start[v + 1]; j++)
            if (--indeg_all[head[j]] == 0) q1[t1++] = head[j];
    }
    for (int p = 0; p < n; p++) { a->pk.node_at[p] = order[p]; a->pk.ord[order[p]] = p; }
    free(start); free(head); free(indeg_all); free(indeg_hard); free(q1); free(q2); free(order); free(done);
    a->st.presorts++;
}

static inline void maybe_presort(acyclic *a) {
    if (a->presort_due && !a->trail_lim.len) {
        if (a->opt[OPT_PRESORT]) presort(a);
        else a->presort_due = 0;
    }
}

/* Presorting waits for the first callback of the solve: by then the
 * level-0 facts of the solve are known (guard_value). */
static void th_solve_start(void *t, const int *assumptions, int n) {
    acyclic *a = t;
    vec_clear(a->assumed);
    for (int i = 0; i < n; i++) vec_push(a->assumed, assumptions[i]);
    a->presort_due = 1;
    sync_fixed(a);
    gcsr_sync(a);
}

static int th_assigned(void *t, int lit) {
    acyclic *a = t;
    flush_taken_back(a);
    if (lit_var(lit) >= a->cap_vars) return 0;
    maybe_presort(a);
    for (int id = a->guard_head[lit_index(lit)]; id >= 0; id = a->e[id].next_guarded) {
        if (a->e[id].pos >= 0) continue;
        if (!enable(a, id)) { a->conflict_edge = id; return 1; }
    }
    return 0;
}

static void th_new_level(void *t) {
    acyclic *a = t;
    flush_taken_back(a);
    maybe_presort(a);
    vec_push(a->trail_lim, (int)a->trail.len);
}

static void drop_pending(acyclic *a) {
    for (size_t i = 0; i < a->pending.len; i++) a->vflag[lit_var(a->pending.data[i])] &= (uint8_t)~VF_PENDING;
    vec_clear(a->pending);
}

/* The edge trail may have holes: entries of edges disabled by
 * th_unassign (their pos no longer names the entry).
 *
 * Above level 0 (option keep_trail) edges may be on above the level of
 * their guard: edges of true guards added to the graph there, guards told
 * late (watched after they were set); always-on edges are never on the
 * trail (fixed arcs of the order, add_fixed), so no backtrack removes them.  A
 * backtrack that keeps such an edge's guard, told, keeps the edge: it
 * stays in the order and moves to the top of the edge trail (at level 0:
 * on for good).  A guard that is kept but not told (it sits after the
 * engine's new head) is told again, and its edges go off until then. */
static void th_backtrack(void *t, int level) {
    acyclic *a = t;
    flush_taken_back(a);
    drop_pending(a);
    if (level < 0 || (size_t)level >= a->trail_lim.len) return;
    size_t keep = (size_t)a->trail_lim.data[level];
    vec_clear(a->late);
    while (a->trail.len > keep) {
        int id = vec_pop(a->trail);
        edge *ed = &a->e[id];
        if (ed->pos != (int)a->trail.len) continue;      /* a hole */
        if (a->late_on && guard_value(a, ed->lit) > 0 && gsat_theory_told(a->s, a->th, ed->lit)) {
            vec_push(a->late, id);
            continue;
        }
        pk_remove(&a->pk, ed->from, ed->to, id);
        ed->pos = -1;
    }
    vec_shrink(a->trail_lim, (size_t)level);
    for (size_t i = a->late.len; i-- > 0;) {            /* in their old order */
        a->e[a->late.data[i]].pos = (int)a->trail.len;
        vec_push(a->trail, a->late.data[i]);
    }
}

/* Partial backtracking takes back single literals: their edges are
 * recorded in taken_back and stay in the order until the partial
 * backtrack is over (flush_taken_back, on the next call of any other
 * kind), so that th_implied_still judges later implied literals by the
 * graph they were implied in.  Disabled edges leave holes in the edge
 * trail: positions of later edges, level marks and the limits of lazy
 * reasons stay valid.  Pending implications may rest on those edges. */
static void flush_taken_back(acyclic *a) {
    if (!a->gone.len) return;
    for (size_t i = 0; i < a->gone.len; i++) a->vflag[a->gone.data[i]] &= (uint8_t)~VF_GONE;
    vec_clear(a->gone);
    for (size_t i = 0; i < a->taken_back.len; i++) {
        edge *ed = &a->e[a->taken_back.data[i].edge];
        pk_remove(&a->pk, ed->from, ed->to, a->taken_back.data[i].edge);
        ed->pos = -1;
    }
    vec_clear(a->taken_back);
}

static void th_unassign(void *t, int lit) {
    acyclic *a = t;
    if (!lit) { flush_taken_back(a); return; }      /* a partial backtrack starts */
    drop_pending(a);
    if (lit_var(lit) >= a->cap_vars) return;
    if (!(a->vflag[lit_var(lit)] & VF_GONE)) {
        a->vflag[lit_var(lit)] |= VF_GONE;
        vec_push(a->gone, lit_var(lit));
    }
    for (int id = a->guard_head[lit_index(lit)]; id >= 0; id = a->e[id].next_guarded)
        if (a->e[id].pos >= 0) vec_push(a->taken_back, ((reach){a->e[id].pos, id}));
}

/* lit was implied because its edge u->v would close a cycle with a path
 * v ~> u of edges older than the implication; its reason is the one with
 * the fewest guards.  If no edge taken back could lie on that path, it
 * stands: an edge x->y can lie on one only if it is older and ord[v] <=
 * ord[x] < ord[y] <= ord[u].  Otherwise the path is searched: lit stays
 * (with that path as its reason) only if none of its guards was taken
 * back. */
static int th_implied_still(void *t, int lit, vec_int *reason) {
    acyclic *a = t;
    int id = a->implied_edge[lit_var(lit)];
    assert(id >= 0 && a->e[id].lit == -lit);
    const edge *ed = &a->e[id];
    const int *ord = a->pk.ord, lo = ord[ed->to], hi = ord[ed->from];
    const int limit = a->implied_limit[lit_var(lit)];
    size_t i = 0;
    for (; i < a->taken_back.len; i++) {
        const reach r = a->taken_back.data[i];       /* node: trail position, edge */
        const edge *g = &a->e[r.edge];
        if (r.node < limit && ord[g->from] >= lo && ord[g->to] <= hi) break;
    }
    if (i == a->taken_back.len) return 1;
    const size_t from = reason->len;
    vec_push(*reason, lit);
    a->vflag[lit_var(lit)] |= VF_SEEN;
    if (explain_path(a, ed->to, ed->from, limit, reason) < 0) assert(0 && "an implied edge lost its cycle");
    unmark_seen(a, reason, from);
    for (size_t k = 1; k < reason->len; k++)
        if (a->vflag[lit_var(reason->data[k])] & VF_GONE) { vec_clear(*reason); return 0; }
    a->st.reasons++;
    a->st.reason_lits += (int64_t)reason->len;
    return 1;
}

static int th_propagate(void *t, vec_int *out) {
    acyclic *a = t;
    flush_taken_back(a);
    int n = 0;
    for (size_t i = 0; i < a->pending.len; i++) {
        int lit = a->pending.data[i];
        a->vflag[lit_var(lit)] &= (uint8_t)~VF_PENDING;
        if (guard_value(a, lit) == 0) { vec_push(*out, lit); n++; }
    }
    vec_clear(a->pending);
    return n;
}

static void th_reason(void *t, int lit, vec_int *out) {
    acyclic *a = t;
    flush_taken_back(a);
    int id = a->implied_edge[lit_var(lit)];
    assert(id >= 0 && a->e[id].lit == -lit);
    const edge *ed = &a->e[id];
    const size_t from = out->len;
    vec_push(*out, lit);
    a->vflag[lit_var(lit)] |= VF_SEEN;
    int n = explain_path(a, ed->to, ed->from, a->implied_limit[lit_var(lit)], out);
    unmark_seen(a, out, from);
    assert(n >= 0);
    a->st.reasons++;
    a->st.reason_lits += n + 1;
}

static void th_conflict(void *t, vec_int *out) {
    acyclic *a = t;
    flush_taken_back(a);
    assert(a->conflict_edge >= 0);
    conflict_clause(a, a->e[a->conflict_edge].lit, out);
    a->conflict_edge = -1;
}

static int th_final_check(void *t) {
    acyclic *a = t;
    flush_taken_back(a);
    (void)a;
#ifdef GSAT_DEBUG
    if (!acyclic_verify(a)) {
        fprintf(stderr, "gsat: internal error: acyclicity theory inconsistent at final check\n");
        abort();
    }
#endif
    return 0;
}

/* Does v reach u through enabled edges?  Only nodes ordered between them
 * can be on such a path; gives up (-1) after `budget` nodes. */
static int reaches(acyclic *a, int v, int u, int budget) {
    sync_fixed(a);
    const int *ord = a->pk.ord;
    int hi = ord[u];
    uint32_t stamp = pk_new_stamp(&a->pk), *seen = a->pk.mark;
    vec_clear(a->stack);
    vec_push(a->stack, v);
    seen[v] = stamp;
    int visited = 0;
    while (a->stack.len) {
        int w = vec_pop(a->stack), nf;
        if (++visited > budget) return -1;
        const int *fixed = pk_fixed_out(&a->pk, w, &nf);
        for (int i = 0; i < nf; i++) {
            int z = fixed[i];
            if (z == u) return 1;
            if (ord[z] < hi && seen[z] != stamp) { seen[z] = stamp; vec_push(a->stack, z); }
        }
        const pk_adj *adj = &a->pk.out[w];
        const pk_arc *arcs = pk_arcs(&a->pk, adj);
        for (int i = 0; i < adj->len; i++) {
            int z = arcs[i].node;
            if (z == u) return 1;
            if (ord[z] < hi && seen[z] != stamp) { seen[z] = stamp; vec_push(a->stack, z); }
        }
    }
    return 0;
}

/* Branching on a guard: rank a literal 0 if it turns on edges that all
 * agree with the current order (inserted in O(1), no cycle possible), 1 if
 * it turns on nothing, 2 if some edge goes against the order.  Keep the
 * engine's choice (the saved phase) unless its negation ranks better; when
 * both go against the order, check (a search of the order window, the one
 * Pearce–Kelly would do on insertion, bounded by theory_phase_budget)
 * whether the engine's choice closes a cycle now, and if so take the other. */
static int lit_rank(const acyclic *a, int lit) {
    int id = a->guard_head[lit_index(lit)];
    if (id < 0) return 1;
    const int *ord = a->pk.ord;
    for (; id >= 0; id = a->e[id].next_guarded)
        if (ord[a->e[id].from] > ord[a->e[id].to] && a->e[id].pos < 0) return 2;
    return 0;
}

static int closes_cycle(acyclic *a, int lit) {
    int budget = (int)a->opt[OPT_PHASE_BUDGET];
    if (budget <= 0) return 0;
    const int *ord = a->pk.ord;
    for (int id = a->guard_head[lit_index(lit)]; id >= 0; id = a->e[id].next_guarded) {
        const edge *ed = &a->e[id];
        if (ord[ed->from] > ord[ed->to] && ed->pos < 0 && reaches(a, ed->to, ed->from, budget) == 1) return 1;
    }
    return 0;
}

static int th_phase(void *t, int lit) {
    acyclic *a = t;
    if (!a->opt[OPT_PHASE]) return 0;                /* no opinion */
    flush_taken_back(a);
    if (lit_var(lit) >= a->cap_vars) return 0;
    int mine = lit_rank(a, lit), other = lit_rank(a, -lit);
    if (other < mine) return -lit;
    if (mine == 2 && other == 2 && closes_cycle(a, lit)) return -lit;
    return lit;
}

static void th_destroy(void *t) {
    acyclic *a = t;
    pk_free(&a->pk);
    free(a->e); free(a->rec_bits); free(a->rec_rank); free(a->fixed);
    free(a->guard_head); free(a->implied_edge); free(a->implied_limit);
    free(a->vflag);
    for (int side = 0; side < 2; side++) {
        for (int b = 0; b < a->gc[side].nblk; b++) free(a->gc[side].blk[b].arcs);
        free(a->gc[side].blk); free(a->gc[side].start); free(a->gc[side].head);
        vec_free(a->gc[side].pool);
    }
    free(a->seen2);
    vec_free(a->trail); vec_free(a->trail_lim); vec_free(a->pending); vec_free(a->taken_back);
    vec_free(a->assumed); vec_free(a->late);
    vec_free(a->gone);
    vec_free(a->stack); vec_free(a->cur); vec_free(a->next); vec_free(a->cycle); vec_free(a->cand);
    for (size_t g = 0; g < a->graphs.len; g++) vec_free(a->graphs.data[g].node);
    vec_free(a->graphs);
    free(a);
}

static const theory_ops ops = {
    .name = "acyclic",
    .assigned = th_assigned,
    .new_level = th_new_level,
    .backtrack = th_backtrack,
    .propagate = th_propagate,
    .reason = th_reason,
    .conflict = th_conflict,
    .final_check = th_final_check,
    .destroy = th_destroy,
    .unassign = th_unassign,
    .implied_still = th_implied_still,
    .solve_start = th_solve_start,
};

const theory_ops *acyclic_theory_ops(void) { return &ops; }

/* ---- construction ------------------------------------------------------- */

const int64_t *acyclic_add_options(gsat *s) { return gsat_add_options(s, options, NUM_OPTIONS); }

const acyclic *acyclic_find(const gsat *s) { return gsat_theory_find(s, &ops); }

acyclic *acyclic_of(gsat *s) {
    acyclic *found = gsat_theory_find(s, &ops);
    if (found) return found;
    const int64_t *opt = acyclic_add_options(s);
    if (!opt) return NULL;
    acyclic *a = xcalloc(1, sizeof *a);
    a->s = s;
    a->opt = opt;
    pk_init(&a->pk);
    a->gc[0].shift = a->gc[1].shift = GBLOCK_SHIFT;
    a->conflict_edge = -1;
    a->th = gsat_add_theory(s, &ops, a);
    if (a->th < 0) { th_destroy(a); return NULL; }
    gsat_theory_set_phase(s, a->th, th_phase);
    /* The engine counts levels from its current one; mirror them. */
    for (int l = 0; l < gsat_decision_level(s); l++) th_new_level(a);
    return a;
}

void acyclic_set_block_shift(acyclic *a, int shift) {
    assert(!a->pk.num_nodes && shift >= 0 && shift <= 20);
    a->pk.blk_shift = a->gc[0].shift = a->gc[1].shift = shift;
}

int acyclic_num_nodes(const acyclic *a) { return a->pk.num_nodes; }
int acyclic_num_edges(const acyclic *a) { return a->num_edges; }
acyclic_graph_vec *acyclic_graphs(acyclic *a) { return &a->graphs; }

int acyclic_add_nodes(acyclic *a, int count) {
    int first = pk_add_nodes(&a->pk, count), n = a->pk.num_nodes;
    if (n > a->cap_nodes) {
        int cap = a->pk.cap_nodes;
        for (int side = 0; side < 2; side++)
            if (side < a->sides || !side) a->gc[side].head = big_realloc(a->gc[side].head, (size_t)cap * sizeof *a->gc[side].head);
        if (a->seen2) {
            a->seen2 = big_realloc(a->seen2, (size_t)cap * sizeof *a->seen2);
            for (int v = a->cap_nodes; v < cap; v++) a->seen2[v] = 0;
        }
        a->cap_nodes = cap;
    }
    for (int side = 0; side < 2; side++)
        if (side < a->sides || !side)
            for (int v = first; v < n; v++) a->gc[side].head[v] = -1;
    return first;
}

void acyclic_reserve_edges(acyclic *a, int always_on, int guarded) {
    size_t listed = a->num_fixed - a->fixed_base;
    if (always_on > 0 && listed + (size_t)always_on > a->cap_fixed) {
        a->cap_fixed = listed + (size_t)always_on;
        a->fixed = big_realloc(a->fixed, 2 * a->cap_fixed * sizeof *a->fixed);
    }
    if (guarded <= 0 || (int64_t)a->num_guarded + guarded <= a->cap_guarded) return;
    if ((int64_t)a->num_guarded + guarded > INT32_MAX) return;      /* add_edge grows as it goes */
    a->cap_guarded = a->num_guarded + guarded;
    a->e = big_realloc(a->e, (size_t)a->cap_guarded * sizeof *a->e);
}

/* Edge id `id` (above every edge id with a record) gets the next record:
 * its bit, the rank blocks up to its own (those before it count the
 * records so far, its own as well: they all sit below). */
static void mark_record(acyclic *a, int id) {
    size_t k = (size_t)id >> 9;
    if (k >= a->rank_cap) {
        size_t cap = a->rank_cap ? 2 * a->rank_cap : 64;
        if (cap <= k) cap = k + 1;
        BIG_GROW_ZERO(a->rec_bits, 8 * a->rank_cap, 8 * cap);
        a->rec_rank = big_realloc(a->rec_rank, cap * sizeof *a->rec_rank);
        a->rank_cap = cap;
    }
    for (; a->rank_len <= k; a->rank_len++) a->rec_rank[a->rank_len] = (uint32_t)a->num_guarded;
    a->rec_bits[(size_t)id >> 6] |= (uint64_t)1 << (id & 63);
}

/* The records with an edge id below e. */
static int records_below(const acyclic *a, int e) {
    size_t k = (size_t)e >> 9;
    if (k >= a->rank_len) return a->num_guarded;
    uint32_t n = a->rec_rank[k];
    for (size_t w = 8 * k; w < (size_t)e >> 6; w++) n += (uint32_t)__builtin_popcountll(a->rec_bits[w]);
    if (e & 63) n += (uint32_t)__builtin_popcountll(a->rec_bits[(size_t)e >> 6] & (((uint64_t)1 << (e & 63)) - 1));
    return (int)n;
}

static int has_record(const acyclic *a, int e) {
    return ((size_t)e >> 9) < a->rank_len && (a->rec_bits[(size_t)e >> 6] >> (e & 63) & 1);
}

/* A new record (guarded id) for edge id `id`. */
static int new_record(acyclic *a, int id, int from, int to, int lit) {
    if (a->num_guarded == a->cap_guarded) {
        if (a->num_guarded >= PK_FIXED - 1) xalloc_fail(SIZE_MAX);    /* guarded ids must stay below PK_FIXED */
        a->cap_guarded = a->cap_guarded ? 2 * a->cap_guarded : 64;
        if (a->cap_guarded >= PK_FIXED) a->cap_guarded = PK_FIXED - 1;
        a->e = big_realloc(a->e, (size_t)a->cap_guarded * sizeof *a->e);
    }
    mark_record(a, id);
    int g = a->num_guarded++;
    a->e[g] = (edge){from, to, lit, -1, -1};
    return g;
}

/* An always-on edge: onto the fixed list; into the order now only if it
 * goes against it (a search), else at the next use of the order. */
static void add_fixed(acyclic *a, int id, int from, int to) {
    int forward = a->pk.ord[from] < a->pk.ord[to];
    if (forward) a->st.inserts++;                     /* as insert_arc counts the others */
    else {
        while (!insert_arc(a, from, to, PK_FIXED, 0)) {
            vec_int cl; vec_init(cl);
            conflict_clause(a, 0, &cl);
            int ok = gsat_add_clause(a->s, cl.data, (int)cl.len);
            vec_free(cl);
            /* Above level 0 (keep_trail) the clause took back a guard of
             * the cycle (solver/warm.c): try again; the edge is on for good. */
            if (ok && a->late_on) { flush_taken_back(a); continue; }
            /* closes a cycle of edges on for good: kept as a record that is never on */
            new_record(a, id, from, to, 0);
            return;
        }
    }
    size_t listed = a->num_fixed - a->fixed_base;
    if (listed == a->cap_fixed) {
        a->cap_fixed = a->cap_fixed ? 2 * a->cap_fixed : 64;
        a->fixed = big_realloc(a->fixed, 2 * a->cap_fixed * sizeof *a->fixed);
    }
    a->fixed[2 * listed] = from;
    a->fixed[2 * listed + 1] = to;
    a->num_fixed++;
    if (!forward) {                                  /* synced before, and this one inserted */
        a->fixed_in_pk = a->num_fixed;
        forget_ends(a);
    }
}

/* The first guarded edge fixes the sides kept (theory_in_arrays then):
 * the in side's heads are made for the nodes so far. */
static void latch_sides(acyclic *a) {
    a->sides = a->opt[OPT_IN_ARRAYS] ? 2 : 1;
    if (a->sides < 2) return;
    a->gc[1].head = big_realloc(a->gc[1].head, ((size_t)a->cap_nodes ? (size_t)a->cap_nodes : 1) * sizeof *a->gc[1].head);
    for (int v = 0; v < a->pk.num_nodes; v++) a->gc[1].head[v] = -1;
}

int acyclic_add_edge(acyclic *a, int from, int to, int lit) {
    flush_taken_back(a);
    if (a->num_edges == INT32_MAX) xalloc_fail(SIZE_MAX);
    if (gsat_decision_level(a->s) > 0) a->late_on = 1;   /* keep_trail: see th_backtrack */
    int id = a->num_edges++;
    a->st.edges++;
    if (from == to) {                 /* a self-loop can never be on */
        new_record(a, id, from, to, lit);
        if (lit) gsat_add_clause(a->s, (int[]){-lit}, 1);
        else gsat_add_clause(a->s, NULL, 0);
        return id;
    }
    if (!lit) { add_fixed(a, id, from, to); return id; }
    int g = new_record(a, id, from, to, lit);
    edge *ed = &a->e[g];
    int v = lit_var(lit);
    a->st.guarded_edges++;
    gsat_reserve_vars(a->s, v);
    ensure_vars(a, v);
    ed->next_guarded = a->guard_head[lit_index(lit)];
    a->guard_head[lit_index(lit)] = g;
    if (!a->sides) latch_sides(a);
    for (int side = 0; side < a->sides; side++) gcsr_listed(a, side, side ? to : from, g);
    if (!(a->vflag[v] & VF_WATCHED)) {
        /* the engine delivers the guard later if it is already set */
        a->vflag[v] |= VF_WATCHED;
        gsat_theory_watch(a->s, a->th, v);
        return id;
    }
    if (guard_value(a, lit) <= 0) return id;
    /* Above level 0 (keep_trail) a true guard may still wait on the
     * trail to be reported: then it is, with its edges. */
    if (a->late_on && !gsat_theory_told(a->s, a->th, lit)) return id;
    /* The guard is watched, true, and was reported already: insert now.
     * Above level 0 (keep_trail) the conflict clause takes back only what
     * it must (solver/warm.c); then the edge may close another cycle, or
     * wait for its guard.  Otherwise (level 0) one clause, as always. */
    while (!enable(a, g)) {
        vec_int cl; vec_init(cl);
        conflict_clause(a, lit, &cl);
        int ok = gsat_add_clause(a->s, cl.data, (int)cl.len);
        vec_free(cl);
        if (!ok || !a->late_on || guard_value(a, lit) <= 0 || !gsat_theory_told(a->s, a->th, lit)) return id;
        flush_taken_back(a);
    }
    return id;
}

/* Batch loading of always-on edges (the checker's known edges: tens of
 * millions, numbered so that they go forward).  While the order is the
 * identity on the map's nodes (a new graph whose nodes are consecutive,
 * nothing reordered yet: checked once, in one pass), an edge from < to is
 * forward without reading the order, and goes straight onto the fixed
 * list as add_fixed would put it; any other edge takes acyclic_add_edge's
 * path, after which the order may have changed and every edge does. */
void acyclic_add_fixed_edges(acyclic *a, const int *map, const int *ends, size_t n) {
    if (!n) return;
    flush_taken_back(a);
    size_t nodes = 0;
    for (size_t i = 0; i < 2 * n; i++) if ((size_t)ends[i] + 1 > nodes) nodes = (size_t)ends[i] + 1;
    int base = map[0], ident = gsat_decision_level(a->s) == 0;
    for (size_t v = 0; v < nodes && ident; v++)
        ident = map[v] == base + (int)v && a->pk.ord[base + (int)v] == base + (int)v;
    size_t listed = a->num_fixed - a->fixed_base;
    if (ident && listed + n > a->cap_fixed) {
        a->cap_fixed = listed + n;
        a->fixed = big_realloc(a->fixed, 2 * a->cap_fixed * sizeof *a->fixed);
    }
    for (size_t i = 0; i < n; i++) {
        int from = map[ends[2 * i]], to = map[ends[2 * i + 1]];
        if (ident && from < to) {
            if (a->num_edges == INT32_MAX) xalloc_fail(SIZE_MAX);
            a->num_edges++;
            a->st.edges++;
            a->st.inserts++;                      /* as add_fixed counts a forward edge */
            listed = a->num_fixed - a->fixed_base;
            a->fixed[2 * listed] = from;
            a->fixed[2 * listed + 1] = to;
            a->num_fixed++;
            continue;
        }
        acyclic_add_edge(a, from, to, 0);
        ident = 0;
    }
}

/* ---- inspection ----------------------------------------------------------- */

void acyclic_get_stats(const acyclic *a, acyclic_stats *out) {
    *out = a->st;
    out->pk_searches = a->pk.searches;
    out->pk_visited = a->pk.visited;
    out->block_merges = a->pk.block_merges;
}


void acyclic_edge_ends(const acyclic *a, int e, int *from, int *to, int *lit) {
    int lo = records_below(a, e);
    if (has_record(a, e)) {
        *from = a->e[lo].from; *to = a->e[lo].to; *lit = a->e[lo].lit;
        return;
    }
    size_t f = (size_t)(e - lo);
    *lit = 0;
    if (f < a->fixed_base) { *from = *to = -1; return; }      /* dropped (theory_keep_ends 0) */
    *from = a->fixed[2 * (f - a->fixed_base)]; *to = a->fixed[2 * (f - a->fixed_base) + 1];
}

/* The always-on arcs in the order on one side (frozen, then those on the
 * lists), as (from, to) pairs. */
static void order_fixed_pairs(const acyclic *a, int side, vec_int *out) {
    for (int v = 0; v < a->pk.num_nodes; v++) {
        int nf;
        const int *fx = side ? pk_fixed_in(&a->pk, v, &nf) : pk_fixed_out(&a->pk, v, &nf);
        for (int i = 0; i < nf; i++) { vec_push(*out, side ? fx[i] : v); vec_push(*out, side ? v : fx[i]); }
        const pk_adj *adj = side ? &a->pk.in[v] : &a->pk.out[v];
        const pk_arc *arcs = pk_arcs(&a->pk, adj);
        for (int i = 0; i < (int)adj->len; i++)
            if (arcs[i].edge == PK_FIXED) { vec_push(*out, side ? arcs[i].node : v); vec_push(*out, side ? v : arcs[i].node); }
    }
}

static int cmp_pair(const void *x, const void *y) {
    const int *p = x, *q = y;
    return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

/* The always-on arcs in the order are the ones it should hold: both sides
 * alike, and (ends kept) exactly the first fixed_in_pk listed edges. */
static int verify_fixed_arcs(const acyclic *a) {
    vec_int out, in;
    vec_init(out); vec_init(in);
    order_fixed_pairs(a, 0, &out);
    order_fixed_pairs(a, 1, &in);
    int ok = out.len == in.len && out.len == 2 * a->fixed_in_pk && out.len == 2 * pk_fixed_count(&a->pk);
    if (ok && out.len) {
        qsort(out.data, out.len / 2, 2 * sizeof *out.data, cmp_pair);
        qsort(in.data, in.len / 2, 2 * sizeof *in.data, cmp_pair);
        ok = !memcmp(out.data, in.data, out.len * sizeof *out.data);
        if (ok && !a->fixed_base) {
            vec_clear(in);
            for (size_t i = 0; i < 2 * a->fixed_in_pk; i++) vec_push(in, a->fixed[i]);
            qsort(in.data, in.len / 2, 2 * sizeof *in.data, cmp_pair);
            ok = !memcmp(out.data, in.data, out.len * sizeof *out.data);
        }
    }
    vec_free(out); vec_free(in);
    return ok;
}

int acyclic_verify_order(const acyclic *a) {
    const int *ord = a->pk.ord;
    int on = 0;
    for (size_t i = 0; i < a->trail.len; i++) {
        const edge *ed = &a->e[a->trail.data[i]];
        if (ed->pos != (int)i) continue;                   /* a hole */
        on++;
        if (ord[ed->from] >= ord[ed->to]) return 0;
    }
    /* every always-on edge respects the order (frozen, listed, and those
     * not in it yet), and every arc on a list */
    for (int v = 0; v < a->pk.num_nodes; v++) {
        int nf;
        const int *heads = pk_fixed_out(&a->pk, v, &nf);
        for (int i = 0; i < nf; i++) if (ord[v] >= ord[heads[i]]) return 0;
    }
    for (size_t f = a->fixed_base; f < a->num_fixed; f++)
        if (ord[a->fixed[2 * (f - a->fixed_base)]] >= ord[a->fixed[2 * (f - a->fixed_base) + 1]]) return 0;
    /* every enabled edge is on the trail once, every always-on one in the
     * order once */
    int64_t arcs = 0;
    for (int v = 0; v < a->pk.num_nodes; v++)
        for (int k = 0; k < a->pk.out[v].len; k++) {
            const pk_arc *arc = &pk_arcs(&a->pk, &a->pk.out[v])[k];
            if (ord[v] >= ord[arc->node]) return 0;
            if (arc->edge != PK_FIXED) arcs++;
        }
    for (int id = 0; id < a->num_guarded; id++)
        if (a->e[id].pos >= 0 && (a->e[id].pos >= (int)a->trail.len || a->trail.data[a->e[id].pos] != id)) return 0;
    if (arcs != on || !verify_fixed_arcs(a)) return 0;
    /* the guarded edges of each node, each side kept: its fresh list (ids
     * from its block's build on) then its block's arcs (older ids), newest
     * first (strictly descending: no edge twice), each with this node as
     * its end on that side and the right other end, as many as the records
     * give it (so every edge once); the pool's live entries are those on
     * the lists, its dead ones counted */
    if (a->pk.num_nodes) {
        int *deg = xcalloc((size_t)a->pk.num_nodes, sizeof *deg);
        for (int side = 0; side < a->sides; side++) {
            const gcsr *g = &a->gc[side];
            size_t live = 0, dead = 0;
            for (size_t p = 0; p < g->pool.len; p++) dead += g->pool.data[p].edge < 0;
            memset(deg, 0, (size_t)a->pk.num_nodes * sizeof *deg);
            for (int id = 0; id < a->num_guarded; id++)
                if (a->e[id].lit && a->e[id].from != a->e[id].to) deg[side ? a->e[id].to : a->e[id].from]++;
            int ok = dead == g->pool_dead;
            for (int v = 0; v < a->pk.num_nodes && ok; v++) {
                int n, old, k = 0, last = INT_MAX;
                const reach *r = gcsr_arcs(a, side, v, &n, &old);
                for (int p = g->head[v]; p >= 0 && ok; p = g->pool.data[p].next, k++, live++) {
                    int id = g->pool.data[p].edge;
                    ok = p < (int)g->pool.len && id >= old && id < last && id < a->num_guarded &&
                         (side ? a->e[id].to : a->e[id].from) == v;
                    last = id;
                }
                for (int i = 0; i < n && ok; i++, k++) {
                    int id = r[i].edge;
                    ok = id < old && id < last && id >= 0 && (side ? a->e[id].to : a->e[id].from) == v &&
                         r[i].node == (side ? a->e[id].from : a->e[id].to);
                    last = id;
                }
                ok = ok && k == deg[v];
            }
            if (!ok || live + dead != g->pool.len) { free(deg); return 0; }
        }
        free(deg);
    }
    for (int v = 0; v < a->pk.num_nodes; v++)
        if (a->pk.node_at[ord[v]] != v) return 0;
    /* no clause is being built: every VF_SEEN mark was cleared */
    for (int v = 0; v < a->cap_vars; v++)
        if (a->vflag[v] & VF_SEEN) return 0;
    return 1;
}

int acyclic_verify(const acyclic *a) {
    int n = a->pk.num_nodes;
    if (!acyclic_verify_order(a)) return 0;
    /* every edge that should be on is on, and only those */
    for (int id = 0; id < a->num_guarded; id++) {
        const edge *ed = &a->e[id];
        if (ed->from == ed->to) { if (ed->pos >= 0) return 0; continue; }
        int should = ed->lit == 0 || guard_value(a, ed->lit) > 0;
        if (should != (ed->pos >= 0)) return 0;
    }
    /* independent DFS over the on-edges (the always-on ones: those in the
     * order, which verify_fixed_arcs matched to the fixed list when it is
     * kept, and the listed ones not in it yet; ids num_guarded + their
     * index in fe): colour 0 new, 1 open, 2 done */
    vec_int fev;
    vec_init(fev);
    order_fixed_pairs(a, 0, &fev);
    for (size_t f = a->fixed_in_pk > a->fixed_base ? a->fixed_in_pk : a->fixed_base; f < a->num_fixed; f++) {
        vec_push(fev, a->fixed[2 * (f - a->fixed_base)]);
        vec_push(fev, a->fixed[2 * (f - a->fixed_base) + 1]);
    }
    const int *fe = fev.data;
    size_t m = (size_t)a->num_guarded + fev.len / 2;
    int *head = malloc(((size_t)n + 1) * sizeof *head), *nxt = malloc((m + 1) * sizeof *nxt);
    unsigned char *colour = calloc((size_t)n + 1, 1);
    int *stack = malloc(((size_t)n + 1) * sizeof *stack), *it = malloc(((size_t)n + 1) * sizeof *it);
    if (!head || !nxt || !colour || !stack || !it) xalloc_fail((size_t)n);
    for (int v = 0; v < n; v++) head[v] = -1;
    for (size_t id = 0; id < m; id++) {
        int from;
        if (id < (size_t)a->num_guarded) {
            if (a->e[id].pos < 0) continue;
            from = a->e[id].from;
        } else {
            from = fe[2 * (id - (size_t)a->num_guarded)];
        }
        nxt[id] = head[from];
        head[from] = (int)id;
    }
    int ok = 1;
    for (int r = 0; r < n && ok; r++) {
        if (colour[r]) continue;
        int sp = 0;
        stack[sp] = r; it[sp] = head[r]; sp++; colour[r] = 1;
        while (sp && ok) {
            int top = sp - 1, id = it[top];
            if (id < 0) { colour[stack[top]] = 2; sp--; continue; }
            it[top] = nxt[id];
            int z = id < a->num_guarded ? a->e[id].to : fe[2 * ((size_t)id - (size_t)a->num_guarded) + 1];
            if (colour[z] == 1) ok = 0;
            else if (colour[z] == 0) { colour[z] = 1; stack[sp] = z; it[sp] = head[z]; sp++; }
        }
    }
    free(head); free(nxt); free(colour); free(stack); free(it); vec_free(fev);
    return ok;
}
