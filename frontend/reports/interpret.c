/* interpret.c — minimal, named, explained anomalies from a failing version
 * order (contract in interpret.h).
 *
 * Graphs here are over transactions (SER) or the split nodes of SI, with
 * the graph type, numbering and searches of depgraph.h. */
#include "frontend/reports/interpret.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/reports/classify.h"
#include "frontend/checking/depgraph.h"
#include "frontend/history/u64map.h"
#include "par.h"

#define NONE UINT32_MAX
#define PAIR(k, t) (((uint64_t)(k) << 32) | (uint64_t)(t))

/* ---- graphs ------------------------------------------------------------- */

typedef struct igraph {
    int split;
    dg_graph g;                      /* arc ids: index in edges, DG_NONE for fixed edges */
    dep_edge_vec edges;
} igraph;

static void node_pair(int split, const dep_edge *e, uint32_t *x, uint32_t *y) {
    dg_dep_nodes(split, (dep_kind)e->kind, e->from, e->to, x, y);
}

/* The graph of g->edges (plus fixed edges for the txns with fixed[t] set). */
static void ig_finish(igraph *g, const history *h, const uint8_t *fixed) {
    dg_arc_vec arcs; vec_init(arcs);
    vec_reserve(arcs, g->edges.len);
    for (size_t i = 0; i < g->edges.len; i++) {
        dg_arc a = { 0, 0, (uint32_t)i };
        node_pair(g->split, &g->edges.data[i], &a.from, &a.to);
        vec_push(arcs, a);
    }
    if (g->split)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (fixed[t]) { dg_arc a = { dg_start(t), dg_commit(t), DG_NONE }; vec_push(arcs, a); }
    dg_build(&g->g, dg_num_nodes(g->split, h->num_txns), arcs.data, arcs.len, 1);
    vec_free(arcs);
}

static void ig_free(igraph *g) {
    dg_free(&g->g);
    vec_free(g->edges);
}

static void push_dep(dep_edge_vec *v, dep_kind kind, uint32_t key, uint32_t from, uint32_t to) {
    dep_edge e = { from, to, kind == DEP_SO ? HISTORY_NONE : key, (uint8_t)kind };
    vec_push(*v, e);
}

/* ---- context ------------------------------------------------------------ */

/* The fact graph, one graph for three: the arcs of a node are its known
 * edges (SO, WR, read-modify-write links) in the order they are generated,
 * then its forced edges in the caller's order, then (SI) the fixed arc.
 * cls[j] says which of the nested graphs arc j belongs to, so that reading
 * only the arcs of class <= c gives exactly the graph that class names, in
 * the same arc order as a graph of its own:
 *   CLS_KNOWN   known edges (and fixed arcs)      eid: PG_META(kind, key)
 *   CLS_HOLDS   forced edges that hold under the (repaired) version order
 *   CLS_FORCED  the other forced edges                eid: index in forced
 * No edge list is kept: an arc's edge is rebuilt from its two nodes and eid
 * (arc_edge), and the forced edges are read in the caller's array. */
enum { CLS_KNOWN = 0, CLS_HOLDS = 1, CLS_FORCED = 2 };

typedef struct ictx {
    const history *h;
    const version_order *vo;
    int si;
    uint8_t *part;
    uint32_t *vpos;              /* per op: for a txn's final write of a key, its version's index in
                                    vo->txns (NONE: not in the version order) */
    uint32_t *lr_start;          /* per key: its participants' list reads lr[lr_start[k]..] */
    vec_u32 lr;
    u64map lpos;                 /* (key, txn) -> index of txn's last element in the key's longest list */
    uint32_t *rd_start;          /* per global version: its readers rd[rd_start[g]..] */
    vec_u32 rd;
    uint8_t *rd_writes;          /* per reader in rd: it writes the key too */
    dg_graph g;                  /* the fact graph (above) */
    uint8_t *cls;                /* per arc */
    uint64_t num_known;          /* known edges (SO, WR, read-modify-write links) */
    int has_forced;              /* forced edges were given: the CLS_HOLDS and CLS_FORCED graphs exist */
    const dep_edge *forced;
    size_t nforced;
    version_order own_vo;        /* vo repaired to agree with the forced WW edges */
    struct par_pool *pool;       /* the set-up's passes run on it (NULL: on the caller alone) */
    int prio;
} ictx;

/* t's external read of key, as ctx_init once defined it: per key the first
 * op that is not an append, if it is a read (a register read before an own
 * write, any list read: its prefix without the own appends so far, counted
 * in *own).  NONE: no such read, or t does not take part. */
static uint32_t ext_read(const ictx *c, uint32_t t, uint32_t key, uint32_t *own) {
    const history *h = c->h;
    if (own) *own = 0;
    if (t == 0 || t >= h->num_txns || !c->part[t]) return NONE;
    const history_txn *tx = &h->txns[t];
    uint32_t apps = 0;
    for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
        if (h->op_key[op] != key || history_op_failed(h, op)) continue;
        if (history_op_kind(h, op) == OP_APPEND) { apps++; continue; }
        if (!history_op_is_read(h, op)) return NONE;
        if (own) *own = apps;
        return op;
    }
    return NONE;
}

/* The version t's external read of key observed, as its final write op (NONE: no read, or nobody wrote it). */
static uint32_t ext_src(const ictx *c, uint32_t t, uint32_t key) {
    uint32_t own, op = ext_read(c, t, key, &own);
    return op == NONE ? NONE : history_snapshot_source(c->h, op, own);
}

/* The writer txn whose version t's external read of key observed (NONE: no read). */
static uint32_t read_src(const ictx *c, uint32_t t, uint32_t key) {
    uint32_t w = ext_src(c, t, key);
    return w == NONE ? NONE : c->h->op_txn[w];
}

/* t's version of key: its index in vo->txns, or NONE. */
static uint32_t vidx(const ictx *c, uint32_t key, uint32_t t) {
    uint32_t f = history_txn_final_write(c->h, t, key);
    return f == NONE ? NONE : c->vpos[f];
}

/* The edge of arc j, which leaves node u (none for a fixed arc: 0). */
static int arc_edge(const ictx *c, uint32_t u, uint32_t j, dep_edge *e) {
    uint32_t id = c->g.eid[j];
    if (id == DG_NONE) return 0;
    if (c->cls[j] != CLS_KNOWN) { *e = c->forced[id]; return 1; }
    dep_kind k = PG_KIND(id);
    *e = (dep_edge){ dg_node_txn(c->si, u), dg_node_txn(c->si, c->g.adj[j]), k == DEP_SO ? HISTORY_NONE : PG_KEY(id),
                     (uint8_t)k };
    return 1;
}

/* ---- the set-up's whole-history passes, in ranges ------------------------
 * The fact graph is built from every participant's external reads: each
 * read's source lookup and its writer's final write are random accesses
 * into the history, the stage's whole cost (2 s of 4 s at 1M transactions
 * when done read by read in one loop).  They are independent per read, so
 * transactions are cut into ranges resolved on the caller's pool, each
 * into its own records in transaction order; the counts and the placing
 * then read the records range by range, in that same order, so the graph
 * is the same for any number of ranges or threads. */

/* The final write of src's key by src's transaction (src a write: the
 * writer index holds only those): history_txn_final_write, but scanning
 * only from src on, where the lookup of src has brought the ops already. */
static uint32_t writer_final_write(const history *h, uint32_t src) {
    uint32_t w = h->op_txn[src], k = h->op_key[src];
    if (w == 0) return history_txn_final_write(h, 0, k);
    uint32_t fw = src;
    for (uint32_t o = src + 1; o < h->num_ops && h->op_txn[o] == w; o++)   /* a transaction's ops are consecutive */
        if (h->op_key[o] == k && history_op_is_write(h, o)) fw = o;
    return fw;
}

/* Ranges for `work` items: 0 < interpret_ranges forces that many (tests);
 * else a few per thread of the pool when there is enough work, else one. */
unsigned interpret_ranges = 0;
uint32_t interpret_small_txn = 32;
#define IPAR_MIN_WORK 65536u

static uint32_t ipar_ranges(const ictx *c, uint64_t work) {
    if (interpret_ranges) return interpret_ranges;
    unsigned th = par_pool_threads(c->pool);
    return th > 1 && work >= IPAR_MIN_WORK ? 4 * th : 1;
}

static void ipar_run(const ictx *c, size_t ntasks, par_task_fn fn, void *ctx) {
    par_pool_run_prio(c->pool, c->prio, ntasks, fn, ctx);
}

/* The external reads of one range of transactions, in transaction then
 * op order: the read op, the writer read from (NONE: no edge), its
 * version's index in vo->txns (NONE: none), and flags: RF_WW the
 * read-modify-write link is there, RF_WRITES the reader writes the key. */
enum { RF_WW = 1, RF_WRITES = 2 };
typedef struct read_part {
    uint32_t t0, t1;
    size_t n;
    uint32_t *op, *w, *g;
    uint8_t *ww;
} read_part;

typedef struct read_job { const ictx *c; read_part *parts; } read_job;

/* Range i: first the reads in order (per key, a transaction's first op
 * that is not an append, if it is a read; its own appends before it
 * counted as ext_read does), then their sources, looked up a few reads
 * ahead of use (history.h's two-stage prefetch). */
static void read_task(void *ctx, size_t i) {
    const read_job *j = ctx;
    const ictx *c = j->c;
    const history *h = c->h;
    read_part *p = &j->parts[i];
    size_t cap = 0;
    /* per key: the txn whose first non-append op on it was met, and its
     * appends before that — only for transactions of more than
     * interpret_small_txn ops (allocated on the first: one set a thread at
     * once, each as large as the keys); smaller ones compare their ops
     * pairwise */
    uint32_t nk = h->num_keys + 1, *seen = NULL, *app_txn = NULL, *app_num = NULL;
    for (uint32_t t = p->t0; t < p->t1; t++) {
        if (!c->part[t]) continue;
        const history_txn *tx = &h->txns[t];
        int small = tx->num_ops <= interpret_small_txn;
        if (!small && !seen) {
            seen = xmalloc((size_t)nk * sizeof *seen); app_txn = xmalloc((size_t)nk * sizeof *app_txn);
            app_num = xmalloc((size_t)nk * sizeof *app_num);
            memset(seen, 0xff, (size_t)nk * sizeof *seen);
            memset(app_txn, 0xff, (size_t)nk * sizeof *app_txn);
        }
        for (uint32_t o = 0; o < tx->num_ops; o++) {
            uint32_t op = tx->first_op + o, k = h->op_key[op], own = 0;
            if (history_op_failed(h, op)) continue;
            if (small) {
                if (history_op_kind(h, op) == OP_APPEND) continue;
                int seen_before = 0;
                for (uint32_t q = tx->first_op; q < op && !seen_before; q++) {
                    if (h->op_key[q] != k || history_op_failed(h, q)) continue;
                    if (history_op_kind(h, q) == OP_APPEND) own++;
                    else seen_before = 1;
                }
                if (seen_before) continue;
            } else {
                if (seen[k] == t) continue;
                if (history_op_kind(h, op) == OP_APPEND) {
                    if (app_txn[k] != t) { app_txn[k] = t; app_num[k] = 0; }
                    app_num[k]++;
                    continue;
                }
                seen[k] = t;
                own = app_txn[k] == t ? app_num[k] : 0;
            }
            if (!history_op_is_read(h, op)) continue;
            if (p->n == cap) {
                cap = cap ? 2 * cap : 1024;
                p->op = xrealloc(p->op, cap * sizeof *p->op);
                p->w = xrealloc(p->w, cap * sizeof *p->w);
                p->g = xrealloc(p->g, cap * sizeof *p->g);
            }
            p->op[p->n] = op;
            p->g[p->n++] = own;                                  /* own appends, until resolved */
        }
    }
    free(seen); free(app_txn); free(app_num);
    p->ww = xmalloc(p->n ? p->n : 1);
    /* Two loops, each asking ahead for the random accesses it will make:
     * the source (the writer index's slot, then the op in it, its kind
     * too) and the writer's final write; then that version's index. */
    const size_t ahead = HISTORY_PREFETCH_AHEAD;
    for (size_t r = 0; r < p->n; r++) {
        if (r + ahead < p->n) {
            uint32_t q = p->op[r + ahead];
            history_writer_prefetch_slot(h, h->op_key[q], history_read_value(h, q));
        }
        if (r + ahead / 2 < p->n && h->writer_slots) {
            uint32_t q = p->op[r + ahead / 2];
            uint32_t s = h->writer_slots[history_writer_home(h, h->op_key[q], history_read_value(h, q))];
            if (s < h->num_ops) {
                HISTORY_PREFETCH(&h->op_key[s]); HISTORY_PREFETCH(&h->op_value[s]);
                HISTORY_PREFETCH(&h->op_txn[s]); HISTORY_PREFETCH(&h->op_kind[s]);
            }
        }
        uint32_t op = p->op[r], t = h->op_txn[op], k = h->op_key[op];
#ifdef GSAT_DEBUG
        uint32_t own_ref;                        /* the read is t's external read of k, as ext_read defines it */
        if (ext_read(c, t, k, &own_ref) != op || own_ref != p->g[r]) abort();
#endif
        uint32_t src = history_snapshot_source(h, op, p->g[r]);
        uint32_t w = src == HISTORY_NONE || h->op_txn[src] == t ? NONE : h->op_txn[src];
        uint32_t fw = w == NONE ? NONE : writer_final_write(h, src);
#ifdef GSAT_DEBUG
        if (w != NONE && fw != history_txn_final_write(h, w, k)) abort();
#endif
        int writes = history_txn_final_write(h, t, k) != NONE;
        p->ww[r] = (uint8_t)((fw != NONE && fw == src && writes ? RF_WW : 0) | (writes ? RF_WRITES : 0));
        p->g[r] = fw;
        p->w[r] = w;
    }
    for (size_t r = 0; r < p->n; r++) {
        if (r + ahead < p->n && p->g[r + ahead] != NONE) HISTORY_PREFETCH(&c->vpos[p->g[r + ahead]]);
        if (p->g[r] != NONE) p->g[r] = c->vpos[p->g[r]];
    }
}

static void read_parts_free(read_part *parts, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) { free(parts[i].op); free(parts[i].w); free(parts[i].g); free(parts[i].ww); }
    free(parts);
}

/* The participants' external reads, resolved (above), in ranges. */
static read_part *read_parts(const ictx *c, uint32_t *nparts) {
    const history *h = c->h;
    uint32_t nt = h->num_txns > 1 ? h->num_txns - 1 : 0;       /* INIT reads nothing */
    uint32_t n = ipar_ranges(c, h->num_ops);
    if (n > nt) n = nt ? nt : 1;
    read_part *parts = xcalloc(n, sizeof *parts);
    for (uint32_t i = 0; i < n; i++) {
        parts[i].t0 = 1 + (uint32_t)((uint64_t)nt * i / n);
        parts[i].t1 = 1 + (uint32_t)((uint64_t)nt * (i + 1) / n);
    }
    read_job job = { c, parts };
    ipar_run(c, n, read_task, &job);
    *nparts = n;
    return parts;
}

/* The fact graph's arcs in their order (the participants' external reads
 * in transaction order: WR, then the read-modify-write link; then SO; then
 * the forced edges in the caller's order, of class CLS_HOLDS when holds[i];
 * then SI's fixed arcs), and the readers of each version in the same read
 * order: task j of nr counts (fill NULL: into g.start[x + 1] and
 * rd_start[g + 1]) or places (at fill[x]++, rd_fill[g]++) those that leave
 * its nodes x and read its versions g, ranges of about n/nr each.  Each
 * task writes its own ranges only and meets every arc in the one order, so
 * the graph does not depend on nr.  known[j]: its known arcs. */
static int forced_in_facts(const history *h, const dep_edge *e);

typedef struct arc_job {
    ictx *c;
    const read_part *parts;
    uint32_t nparts, nr;
    const uint8_t *holds;
    uint32_t *fill, *rd_fill;
    uint64_t *known;
} arc_job;

static void arc_task(void *ctx, size_t j) {
    const arc_job *jb = ctx;
    ictx *c = jb->c;
    const history *h = c->h;
    uint32_t nn = c->g.n, nv = (uint32_t)c->vo->txns.len;
    uint32_t x0 = (uint32_t)((uint64_t)nn * j / jb->nr), x1 = (uint32_t)((uint64_t)nn * (j + 1) / jb->nr);
    uint32_t g0 = (uint32_t)((uint64_t)nv * j / jb->nr), g1 = (uint32_t)((uint64_t)nv * (j + 1) / jb->nr);
    uint32_t *deg = jb->fill ? NULL : c->g.start, *fill = jb->fill, *rd_fill = jb->rd_fill;
    uint64_t n = 0;
#define ARC(x, y, id, cl) do { \
        if (deg) deg[(x) + 1]++; \
        else { uint32_t a_ = fill[x]++; c->g.adj[a_] = (y); c->g.eid[a_] = (id); c->cls[a_] = (uint8_t)(cl); } \
    } while (0)
    for (uint32_t i = 0; i < jb->nparts; i++) {
        const read_part *p = &jb->parts[i];
        for (size_t r = 0; r < p->n; r++) {
            uint32_t w = p->w[r], g = p->g[r];
            if (w == NONE) continue;
            uint32_t xw = c->si ? dg_commit(w) : w;          /* WR and WW leave w's commit node */
            int in_x = xw >= x0 && xw < x1, in_g = g != NONE && g >= g0 && g < g1;
            if (!in_x && !in_g) continue;
            uint32_t t = h->op_txn[p->op[r]], k = h->op_key[p->op[r]];
            for (int kind = DEP_WR; in_x && kind <= DEP_WW; kind++) {
                if (kind == DEP_WR ? w == 0 : !(p->ww[r] & RF_WW)) continue;
                uint32_t x, y;
                dg_dep_nodes(c->si, (dep_kind)kind, w, t, &x, &y);
                ARC(x, y, PG_META(kind, k), CLS_KNOWN);
                n++;
            }
            if (!in_g) continue;
            if (deg) c->rd_start[g + 1]++;
            else { c->rd_writes[rd_fill[g]] = (p->ww[r] & RF_WRITES) != 0; c->rd.data[rd_fill[g]++] = t; }
        }
    }
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = NONE;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!c->part[t]) continue;
            if (prev != NONE) {
                uint32_t x, y;
                dg_dep_nodes(c->si, DEP_SO, prev, t, &x, &y);
                if (x >= x0 && x < x1) { ARC(x, y, PG_META(DEP_SO, UINT32_MAX >> 3), CLS_KNOWN); n++; }
            }
            prev = t;
        }
    }
    for (size_t i = 0; i < c->nforced; i++)
        if (forced_in_facts(h, &c->forced[i])) {
            uint32_t x, y;
            node_pair(c->si, &c->forced[i], &x, &y);
            /* only forced edges that hold under the version order are in
             * CLS_HOLDS: a failing history lets pruning derive both orders
             * of some pairs, and an explanation should not mix the two */
            if (x >= x0 && x < x1) ARC(x, y, (uint32_t)i, jb->holds[i] ? CLS_HOLDS : CLS_FORCED);
        }
    if (c->si)
        for (uint32_t t = x0 / 2; t < h->num_txns && dg_start(t) < x1; t++)
            if (c->part[t] && dg_start(t) >= x0) ARC(dg_start(t), dg_commit(t), DG_NONE, CLS_KNOWN);
#undef ARC
    jb->known[j] = n;
}

/* Does forced edge e hold under the (repaired) version order: its a's version before its b's? */
static int forced_holds(const ictx *c, const dep_edge *e) {
    const history *h = c->h;
    if (e->from >= h->num_txns || e->to >= h->num_txns || e->from == e->to || e->key >= h->num_keys) return 0;
    uint32_t gb = vidx(c, e->key, e->to);
    uint32_t a = e->kind == DEP_WW ? e->from : read_src(c, e->from, e->key);
    uint32_t ga = a == NONE ? NONE : vidx(c, e->key, a);
    return ga != NONE && gb != NONE && ga < gb;
}

static int forced_in_facts(const history *h, const dep_edge *e) {
    return e->from < h->num_txns && e->to < h->num_txns && e->from != e->to;
}

/* Version ranges of keys: a part's keys hold about 1/n of vo's versions. */
typedef struct key_part { uint32_t k0, k1; vec_u32 out; } key_part;

static key_part *key_parts(const ictx *c, uint32_t *nparts) {
    const version_order *vo = c->vo;
    uint32_t nk = vo->num_keys < c->h->num_keys ? vo->num_keys : c->h->num_keys;
    uint32_t n = ipar_ranges(c, vo->txns.len);
    if (n > nk) n = nk ? nk : 1;
    key_part *parts = xcalloc(n, sizeof *parts);
    uint64_t total = vo->start[nk];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        parts[i].k0 = k;
        uint64_t until = total * (i + 1) / n;
        while (k < nk && (i + 1 == n || vo->start[k + 1] <= until)) k++;
        parts[i].k1 = k;
        vec_init(parts[i].out);
    }
    *nparts = n;
    return parts;
}

static void key_parts_free(key_part *parts, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) vec_free(parts[i].out);
    free(parts);
}

typedef struct key_job { ictx *c; key_part *parts; } key_job;

/* vpos of the final writes of a range of keys: each op is one key's. */
static void vpos_task(void *ctx, size_t i) {
    const key_job *j = ctx;
    ictx *c = j->c;
    const history *h = c->h;
    const uint32_t *vt = c->vo->txns.data;
    uint32_t g1 = c->vo->start[j->parts[i].k1];
    const uint32_t ahead = HISTORY_PREFETCH_AHEAD;
    for (uint32_t k = j->parts[i].k0; k < j->parts[i].k1; k++)
        for (uint32_t g = c->vo->start[k]; g < c->vo->start[k + 1]; g++) {
            /* the writer's transaction, then its ops, asked for ahead */
            if (g + ahead < g1 && vt[g + ahead] < h->num_txns) HISTORY_PREFETCH(&h->txns[vt[g + ahead]]);
            if (g + ahead / 2 < g1 && vt[g + ahead / 2] < h->num_txns) {
                const history_txn *tx = &h->txns[vt[g + ahead / 2]];
                HISTORY_PREFETCH(&h->op_key[tx->first_op]); HISTORY_PREFETCH(&h->op_kind[tx->first_op]);
            }
            uint32_t f = history_txn_final_write(h, vt[g], k);
            if (f != NONE && c->vpos[f] == NONE) c->vpos[f] = g;
        }
}

/* Which forced edges hold, for a range of them. */
typedef struct holds_job { const ictx *c; uint8_t *holds; size_t nparts; } holds_job;
/* Range i of the forced edges: forced_holds, in three loops that each ask
 * ahead for their random accesses (the two transactions' ops; the source
 * of the read behind an RW edge; the two versions' indices).  Debug
 * builds compare every answer with forced_holds. */
static void holds_task(void *ctx, size_t i) {
    const holds_job *j = ctx;
    const ictx *c = j->c;
    const history *h = c->h;
    size_t a = c->nforced * i / j->nparts, b = c->nforced * (i + 1) / j->nparts, n = b - a;
    const dep_edge *fe = c->forced + a;
    uint32_t *fa = xmalloc((n + 1) * sizeof *fa), *fb = xmalloc((n + 1) * sizeof *fb), *own = xmalloc((n + 1) * sizeof *own);
    const size_t ahead = HISTORY_PREFETCH_AHEAD;
    /* 1: b's final write; a's (WW) or the read behind the edge (RW: fa holds the read op) */
    for (size_t f = 0; f < n; f++) {
        if (f + ahead < n) {
            const dep_edge *e = &fe[f + ahead];
            if (e->from < h->num_txns) HISTORY_PREFETCH(&h->txns[e->from]);
            if (e->to < h->num_txns) HISTORY_PREFETCH(&h->txns[e->to]);
        }
        if (f + ahead / 2 < n) {
            const dep_edge *e = &fe[f + ahead / 2];
            if (e->from < h->num_txns) HISTORY_PREFETCH(&h->op_key[h->txns[e->from].first_op]);
            if (e->to < h->num_txns) HISTORY_PREFETCH(&h->op_key[h->txns[e->to].first_op]);
        }
        const dep_edge *e = &fe[f];
        fa[f] = fb[f] = NONE;
        if (!forced_in_facts(h, e) || e->key >= h->num_keys) continue;
        fb[f] = history_txn_final_write(h, e->to, e->key);
        if (fb[f] == NONE) continue;
        fa[f] = e->kind == DEP_WW ? history_txn_final_write(h, e->from, e->key) : ext_read(c, e->from, e->key, &own[f]);
    }
    /* 2: RW: the source of that read, and its writer's final write */
    for (size_t f = 0; f < n; f++) {
        if (fe[f].kind == DEP_WW) continue;
        if (f + ahead < n && fe[f + ahead].kind != DEP_WW && fa[f + ahead] != NONE) {
            uint32_t q = fa[f + ahead];
            history_writer_prefetch_slot(h, h->op_key[q], history_read_value(h, q));
        }
        if (f + ahead / 2 < n && fe[f + ahead / 2].kind != DEP_WW && fa[f + ahead / 2] != NONE) {
            uint32_t q = fa[f + ahead / 2];
            history_writer_prefetch_op(h, h->op_key[q], history_read_value(h, q));
        }
        if (fa[f] == NONE) continue;
        uint32_t src = history_snapshot_source(h, fa[f], own[f]);
        fa[f] = src == NONE ? NONE : writer_final_write(h, src);
    }
    /* 3: the two versions' indices */
    for (size_t f = 0; f < n; f++) {
        if (f + ahead < n) {
            if (fa[f + ahead] != NONE) HISTORY_PREFETCH(&c->vpos[fa[f + ahead]]);
            if (fb[f + ahead] != NONE) HISTORY_PREFETCH(&c->vpos[fb[f + ahead]]);
        }
        uint32_t ga = fa[f] == NONE ? NONE : c->vpos[fa[f]], gb = fb[f] == NONE ? NONE : c->vpos[fb[f]];
        j->holds[a + f] = ga != NONE && gb != NONE && ga < gb;
#ifdef GSAT_DEBUG
        if (j->holds[a + f] != (forced_in_facts(h, &fe[f]) && fe[f].key < h->num_keys && forced_holds(c, &fe[f])))
            abort();
#endif
    }
    free(fa); free(fb); free(own);
}

static void ctx_init(ictx *c, const history *h, const version_order *vo, int si, const dep_edge *forced, size_t nf,
                     struct par_pool *pool, int prio) {
    memset(c, 0, sizeof *c);
    c->h = h; c->vo = vo; c->si = si;
    c->pool = pool; c->prio = prio;
    c->forced = forced; c->nforced = nf; c->has_forced = nf != 0;
    c->part = history_participants(h);
    u64map_init(&c->lpos);
    c->vpos = xmalloc(((size_t)h->num_ops + 1) * sizeof *c->vpos);
    memset(c->vpos, 0xff, ((size_t)h->num_ops + 1) * sizeof *c->vpos);       /* NONE */
    uint32_t nkp;
    key_part *kp = key_parts(c, &nkp);
    key_job kj = { c, kp };
    ipar_run(c, nkp, vpos_task, &kj);
    key_parts_free(kp, nkp);
    /* the fact graph in compressed form, counted then placed (stable: each
     * node's arcs in the order above), and the readers of each version */
    uint32_t nn = dg_num_nodes(si, h->num_txns), nv = (uint32_t)vo->txns.len;
    c->g.n = nn;
    c->g.start = xcalloc((size_t)nn + 1, sizeof *c->g.start);
    c->rd_start = xcalloc((size_t)nv + 2, sizeof *c->rd_start);
    vec_init(c->rd);
    uint32_t nrp;
    read_part *rp = read_parts(c, &nrp);
    uint8_t *holds = xmalloc(nf ? nf : 1);
    holds_job hj = { c, holds, nf ? ipar_ranges(c, nf) : 1 };
    if (hj.nparts > nf && nf) hj.nparts = nf;
    ipar_run(c, hj.nparts, holds_task, &hj);
    /* every task meets every arc: one a thread (ranges for tests) */
    uint32_t nr = interpret_ranges ? interpret_ranges : ipar_ranges(c, (uint64_t)nn + nv) > 1 ? par_pool_threads(pool) : 1;
    if (nr > nn) nr = nn ? nn : 1;
    uint64_t *known = xcalloc(nr, sizeof *known);
    arc_job aj = { c, rp, nrp, nr, holds, NULL, NULL, known };
    ipar_run(c, nr, arc_task, &aj);                                  /* count */
    for (uint32_t u = 0; u < nn; u++) c->g.start[u + 1] += c->g.start[u];
    size_t m = c->g.start[nn];
    c->g.adj = xmalloc((m + 1) * sizeof *c->g.adj);
    c->g.eid = xmalloc((m + 1) * sizeof *c->g.eid);
    c->cls = xmalloc(m + 1);
    for (uint32_t g = 0; g < nv; g++) c->rd_start[g + 1] += c->rd_start[g];
    vec_resize(c->rd, c->rd_start[nv]);
    c->rd_writes = xmalloc(c->rd_start[nv] + 1);
    uint32_t *fill = xmalloc(((size_t)nn + 1) * sizeof *fill);
    memcpy(fill, c->g.start, ((size_t)nn + 1) * sizeof *fill);
    uint32_t *rd_fill = xmalloc(((size_t)nv + 1) * sizeof *rd_fill);
    memcpy(rd_fill, c->rd_start, ((size_t)nv + 1) * sizeof *rd_fill);
    aj.fill = fill; aj.rd_fill = rd_fill;
    ipar_run(c, nr, arc_task, &aj);                                  /* place */
    c->num_known = 0;
    for (uint32_t j = 0; j < nr; j++) c->num_known += known[j];
    free(known); free(rd_fill); free(holds);
    read_parts_free(rp, nrp);
    free(fill);
    /* list reads per key, and where each writer's elements end in the
     * longest one (the axioms make every list a prefix of it) */
    c->lr_start = xcalloc((size_t)h->num_keys + 1, sizeof *c->lr_start);
    vec_init(c->lr);
    if (h->has_lists) {
        for (uint32_t op = 0; op < h->num_ops; op++)
            if (history_op_is_read(h, op) && history_op_kind(h, op) == OP_LIST_READ && c->part[h->op_txn[op]])
                c->lr_start[h->op_key[op] + 1]++;
        for (uint32_t k = 0; k < h->num_keys; k++) c->lr_start[k + 1] += c->lr_start[k];
        vec_resize(c->lr, c->lr_start[h->num_keys]);
        uint32_t *at = xmalloc(((size_t)h->num_keys + 1) * sizeof *at);
        memcpy(at, c->lr_start, ((size_t)h->num_keys + 1) * sizeof *at);
        for (uint32_t op = 0; op < h->num_ops; op++)
            if (history_op_is_read(h, op) && history_op_kind(h, op) == OP_LIST_READ && c->part[h->op_txn[op]])
                c->lr.data[at[h->op_key[op]]++] = op;
        free(at);
        for (uint32_t k = 0; k < h->num_keys; k++) {
            uint32_t best = NONE, best_len = 0, n;
            for (uint32_t i = c->lr_start[k]; i < c->lr_start[k + 1]; i++) {
                history_list(h, c->lr.data[i], &n);
                if (best == NONE || n > best_len) { best = c->lr.data[i]; best_len = n; }
            }
            if (best == NONE) continue;
            const int64_t *l = history_list(h, best, &n);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t w = history_writer_of(h, k, l[i]);
                if (w != HISTORY_NONE) u64map_put(&c->lpos, PAIR(k, h->op_txn[w]), i);
            }
        }
    }
}

/* A list read of key that shows a's version before b's: it holds a's
 * elements and b's later or not at all (the shortest such read), or NONE. */
static uint32_t list_shows(const ictx *c, uint32_t key, uint32_t a, uint32_t b) {
    if (!c->lr_start || key >= c->h->num_keys) return NONE;
    uint32_t pa = u64map_get(&c->lpos, PAIR(key, a));
    if (pa == NONE) return NONE;
    uint32_t pb = u64map_get(&c->lpos, PAIR(key, b));
    if (pb != NONE && pb < pa) return NONE;
    uint32_t best = NONE, best_len = UINT32_MAX, n;
    for (uint32_t i = c->lr_start[key]; i < c->lr_start[key + 1]; i++) {
        history_list(c->h, c->lr.data[i], &n);
        if (n > pa && n < best_len) { best = c->lr.data[i]; best_len = n; }
    }
    return best;
}

/* Per key, reorder vo's writers to agree with the forced WW edges of that
 * key (topological order, ties by the original position), so that cycles of
 * forced edges hold under it.  A key whose forced edges are cyclic keeps
 * the rest of its order as given. */
static void repair_vo(const history *h, const version_order *vo, const dep_edge *forced, size_t nf, version_order *out) {
    out->num_keys = vo->num_keys;
    out->start = xmalloc(((size_t)vo->num_keys + 1) * sizeof *out->start);
    memcpy(out->start, vo->start, ((size_t)vo->num_keys + 1) * sizeof *out->start);
    vec_init(out->txns);
    vec_reserve(out->txns, vo->txns.len);
    for (size_t i = 0; i < vo->txns.len; i++) vec_push(out->txns, vo->txns.data[i]);
    /* forced WW edges grouped by key */
    uint32_t *fs = xcalloc((size_t)vo->num_keys + 1, sizeof *fs);
    for (size_t i = 0; i < nf; i++) if (forced[i].kind == DEP_WW && forced[i].key < vo->num_keys) fs[forced[i].key + 1]++;
    for (uint32_t k = 0; k < vo->num_keys; k++) fs[k + 1] += fs[k];
    uint32_t *fe = xmalloc((fs[vo->num_keys] + 1) * sizeof *fe), *fill = xmalloc(((size_t)vo->num_keys + 1) * sizeof *fill);
    memcpy(fill, fs, ((size_t)vo->num_keys + 1) * sizeof *fill);
    for (size_t i = 0; i < nf; i++) if (forced[i].kind == DEP_WW && forced[i].key < vo->num_keys) fe[fill[forced[i].key]++] = (uint32_t)i;
    uint32_t *loc = xmalloc(h->num_txns * sizeof *loc);
    for (uint32_t t = 0; t < h->num_txns; t++) loc[t] = NONE;
    dg_arc_vec arcs; vec_init(arcs);
    vec_u32 order; vec_init(order);
    for (uint32_t k = 0; k < vo->num_keys; k++) {
        if (fs[k] == fs[k + 1]) continue;
        uint32_t a = vo->start[k], w = vo->start[k + 1] - a;
        for (uint32_t i = 0; i < w; i++) loc[vo->txns.data[a + i]] = i;
        vec_clear(arcs);
        for (uint32_t j = fs[k]; j < fs[k + 1]; j++) {
            const dep_edge *e = &forced[fe[j]];
            if (e->from >= h->num_txns || e->to >= h->num_txns || loc[e->from] == NONE || loc[e->to] == NONE) continue;
            dg_arc arc = { loc[e->from], loc[e->to], DG_NONE };
            vec_push(arcs, arc);
        }
        /* the earliest ready writer first; on a cycle of forced edges the earliest left */
        dg_graph g;
        dg_build(&g, w, arcs.data, arcs.len, 0);
        vec_resize(order, w);
        dg_topo_order(&g, 1, 1, order.data);
        dg_free(&g);
        for (uint32_t i = 0; i < w; i++) out->txns.data[a + i] = vo->txns.data[a + order.data[i]];
        /* INIT must stay first: if a forced edge put something before it, restore the original order */
        if (out->txns.data[a] != 0) for (uint32_t i = 0; i < w; i++) out->txns.data[a + i] = vo->txns.data[a + i];
        for (uint32_t i = 0; i < w; i++) loc[vo->txns.data[a + i]] = NONE;
    }
    vec_free(arcs); vec_free(order);
    free(loc); free(fs); free(fe); free(fill);
}

static void ctx_free(ictx *c) {
    free(c->part);
    free(c->vpos);
    u64map_free(&c->lpos);
    free(c->lr_start); vec_free(c->lr);
    free(c->rd_start); vec_free(c->rd); free(c->rd_writes);
    dg_free(&c->g);
    free(c->cls);
    version_order_free(&c->own_vo);
}

/* ---- why a version order fact is forced ----------------------------------- */

typedef struct xedge { uint32_t x, y; dep_edge e; } xedge;
typedef VEC(xedge) xedge_vec;

static int cmp_xedge(const void *a, const void *b) {
    const xedge *p = a, *q = b;
    return (p->x > q->x) - (p->x < q->x);
}

static void add_x(const ictx *c, xedge_vec *v, dep_kind kind, uint32_t key, uint32_t from, uint32_t to) {
    if (from == to) return;
    xedge xe;
    xe.e = (dep_edge){ from, to, key, (uint8_t)kind };
    node_pair(c->si, &xe.e, &xe.x, &xe.y);
    vec_push(*v, xe);
}

/* Would "b's version of key precedes a's" close a violating cycle with what
 * the history fixes?  If so, put that cycle (starting with its hypothetical
 * edge) in alt and return 1. */
static int opposite_cycle(const ictx *c, int maxcls, uint32_t a, uint32_t b, uint32_t key, dep_edge_vec *alt) {
    const history *h = c->h;
    xedge_vec ex; vec_init(ex);
    add_x(c, &ex, DEP_WW, key, b, a);
    uint32_t gb = vidx(c, key, b);
    if (gb != NONE)
        for (uint32_t i = c->rd_start[gb]; i < c->rd_start[gb + 1]; i++) add_x(c, &ex, DEP_RW, key, c->rd.data[i], a);
    /* b's read-modify-write ancestors s are before b, hence before a: their
     * other readers read a version older than their successor's */
    uint32_t v = b;
    for (int steps = 0; steps < 64 && v != 0; steps++) {
        uint32_t s = read_src(c, v, key);
        if (s == NONE || history_txn_final_write(h, v, key) == NONE) break;
        uint32_t gs = vidx(c, key, s);
        if (gs == NONE) break;
        for (uint32_t i = c->rd_start[gs]; i < c->rd_start[gs + 1]; i++)
            if (c->rd.data[i] != v) add_x(c, &ex, DEP_RW, key, c->rd.data[i], v);
        v = s;
    }
    if (ex.len) qsort(ex.data, ex.len, sizeof *ex.data, cmp_xedge);
    const dg_graph *g = &c->g;
    uint32_t *par = xmalloc((size_t)g->n * sizeof *par);        /* parent node */
    uint32_t *pe = xmalloc((size_t)g->n * sizeof *pe);          /* arc into node: its index, NONE-1-i extra i */
    uint32_t *queue = xmalloc((size_t)g->n * sizeof *queue);
    vec_u32 stamp_nodes; vec_init(stamp_nodes);
    for (uint32_t u = 0; u < g->n; u++) par[u] = NONE;
    int found = 0;
    size_t best_len = SIZE_MAX;
    for (size_t ti = 0; ti < ex.len; ti++) {
        uint32_t y = ex.data[ti].y;
        int dup = 0;
        for (size_t tj = 0; tj < ti; tj++) if (ex.data[tj].y == y) { dup = 1; break; }
        if (dup) continue;
        /* BFS from y over known + extra edges until a source x of an extra edge x->y */
        for (size_t i = 0; i < stamp_nodes.len; i++) par[stamp_nodes.data[i]] = NONE;
        vec_clear(stamp_nodes);
        uint32_t qh = 0, qt = 0, hit = NONE, hit_edge = NONE;
        queue[qt++] = y; par[y] = y; pe[y] = NONE; vec_push(stamp_nodes, y);
        while (qh < qt && hit == NONE) {
            uint32_t u = queue[qh++];
            /* does an extra edge u -> y close it? */
            size_t lo = 0, hi = ex.len;
            while (lo < hi) { size_t mid = (lo + hi) / 2; if (ex.data[mid].x < u) lo = mid + 1; else hi = mid; }
            for (size_t j = lo; j < ex.len && ex.data[j].x == u; j++)
                if (ex.data[j].y == y) { hit = u; hit_edge = (uint32_t)j; break; }
            if (hit != NONE) break;
            for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
                uint32_t w = g->adj[j];
                if (c->cls[j] > maxcls || par[w] != NONE) continue;
                par[w] = u; pe[w] = j; queue[qt++] = w; vec_push(stamp_nodes, w);
            }
            for (size_t j = lo; j < ex.len && ex.data[j].x == u; j++) {
                uint32_t w = ex.data[j].y;
                if (par[w] != NONE) continue;
                par[w] = u; pe[w] = NONE - 1 - (uint32_t)j; queue[qt++] = w; vec_push(stamp_nodes, w);
            }
        }
        if (hit == NONE) continue;
        /* path y ~> hit, then the extra edge hit -> y */
        dep_edge_vec cyc; vec_init(cyc);
        for (uint32_t w = hit; w != y; w = par[w]) {
            uint32_t id = pe[w];
            dep_edge d;
            if (id >= NONE - ex.len) vec_push(cyc, ex.data[NONE - 1 - id].e);
            else if (arc_edge(c, par[w], id, &d)) vec_push(cyc, d);      /* else a fixed arc */
        }
        /* cyc holds the path backwards; the cycle is extra edge, then the path forwards */
        if (cyc.len + 1 < best_len) {
            best_len = cyc.len + 1;
            vec_clear(*alt);
            vec_push(*alt, ex.data[hit_edge].e);
            for (size_t i = cyc.len; i-- > 0;) vec_push(*alt, cyc.data[i]);
            /* start at the opposite WW edge b -> a when the cycle uses it */
            for (size_t r = 0; r < alt->len; r++) {
                const dep_edge *e = &alt->data[r];
                if (e->kind != DEP_WW || e->from != b || e->to != a || e->key != key || r == 0) continue;
                dep_edge_vec tmp; vec_init(tmp);
                for (size_t i = 0; i < alt->len; i++) vec_push(tmp, alt->data[(r + i) % alt->len]);
                vec_clear(*alt);
                for (size_t i = 0; i < tmp.len; i++) vec_push(*alt, tmp.data[i]);
                vec_free(tmp);
                break;
            }
            found = 1;
        }
        vec_free(cyc);
        if (best_len <= 2) break;
    }
    free(par); free(pe); free(queue); vec_free(stamp_nodes); vec_free(ex);
    return found;
}

/* Is e one of the checker's forced edges (one in the fact graph)?  A scan:
 * asked only for a fact no cycle explains, and no dearer than one search of
 * the fact graph, where a sorted copy would cost 16 bytes an edge. */
static int is_forced(const ictx *c, const dep_edge *e) {
    for (size_t i = 0; i < c->nforced; i++) {
        const dep_edge *f = &c->forced[i];
        if (f->from == e->from && f->to == e->to && f->key == e->key && f->kind == e->kind && forced_in_facts(c->h, f))
            return 1;
    }
    return 0;
}

static void explain_edge(const ictx *c, const dep_edge *e, edge_why *w) {
    memset(w, 0, sizeof *w);
    vec_init(w->alt);
    w->before = w->after = w->read_op = NONE;
    if (e->kind == DEP_SO || e->kind == DEP_WR) { w->status = WHY_OBSERVED; return; }
    uint32_t a, b = e->to;
    if (e->kind == DEP_WW) a = e->from;
    else a = read_src(c, e->from, e->key);
    w->before = a; w->after = b;
    if (a == 0) { w->status = WHY_INIT; return; }
    if (a == NONE) { w->status = WHY_CHOSEN; return; }
    /* a list read that shows the order is the plainest reason */
    uint32_t lop = list_shows(c, e->key, a, b);
    if (lop != NONE) { w->status = WHY_LISTED; w->read_op = lop; return; }
    w->status = opposite_cycle(c, CLS_KNOWN, a, b, e->key, &w->alt) ? WHY_FORCED : WHY_CHOSEN;
    /* with the checker's forced edges (each decided because its other side
     * closed a cycle) the opposite order may close a cycle too: first those
     * that hold under the version order, then all */
    if (w->status == WHY_CHOSEN && c->has_forced)
        w->status = opposite_cycle(c, CLS_HOLDS, a, b, e->key, &w->alt) ? WHY_FORCED : WHY_CHOSEN;
    if (w->status == WHY_CHOSEN && c->has_forced)
        w->status = opposite_cycle(c, CLS_FORCED, a, b, e->key, &w->alt) ? WHY_FORCED : WHY_CHOSEN;
    if (w->status == WHY_CHOSEN && is_forced(c, e)) w->status = WHY_DECIDED;
}

/* ---- dependencies between a few transactions, by definition ---------------- */

/* All SO/WR/WW/RW dependencies x -> y (x, y in S) under vo; one per kind and pair. */
static void induced_edges(const ictx *c, const uint32_t *S, size_t m, dep_edge_vec *out) {
    const history *h = c->h;
    for (size_t i = 0; i < m; i++) {
        uint32_t x = S[i];
        const history_txn *tx = &h->txns[x];
        for (size_t j = 0; j < m; j++) {
            uint32_t y = S[j];
            if (x == y) continue;
            const history_txn *ty = &h->txns[y];
            if (x != 0 && tx->session == ty->session && tx->pos < ty->pos) push_dep(out, DEP_SO, 0, x, y);
            for (uint32_t o = 0; o < tx->num_ops; o++) {
                uint32_t op = tx->first_op + o, k = h->op_key[op];
                uint32_t gy = vidx(c, k, y);
                if (history_op_is_write(h, op) && gy != NONE) {
                    uint32_t gx = vidx(c, k, x);
                    if (gx != NONE && gx < gy) { if (history_txn_final_write(h, x, k) == op) push_dep(out, DEP_WW, k, x, y); }
                }
                if (history_op_is_write(h, op)) {
                    uint32_t s = read_src(c, y, k);
                    if (s == x && history_txn_final_write(h, x, k) == op) push_dep(out, DEP_WR, k, x, y);
                }
                if (history_op_is_read(h, op) && gy != NONE && ext_read(c, x, k, NULL) == op) {
                    uint32_t s = read_src(c, x, k);
                    uint32_t gs = s == NONE ? NONE : vidx(c, k, s);
                    if (gs != NONE && gs < gy) push_dep(out, DEP_RW, k, x, y);
                }
            }
        }
    }
}

static uint32_t edge_weight(const dep_edge *e) {
    static const uint32_t rank[] = { 0, 1, 2, 3, 0 };
    return 16 + rank[e->kind <= DEP_FIXED ? e->kind : 0];
}

/* Shortest violating cycle among the dependencies between S's transactions. */
/* Dependencies between S's transactions in the fact graph (known and
 * forced edges), plus the session order between any two of them. */
static void induced_fact_edges(const ictx *c, const uint32_t *S, size_t m, dep_edge_vec *out) {
    const history *h = c->h;
    const dg_graph *g = &c->g;
    u64map in; u64map_init(&in);
    for (size_t i = 0; i < m; i++) u64map_put(&in, S[i], 1);
    for (size_t i = 0; i < m; i++) {
        uint32_t t = S[i];
        for (int half = 0; half < (c->si ? 2 : 1); half++) {         /* split: start, then commit */
            uint32_t u = !c->si ? t : half == 0 ? dg_start(t) : dg_commit(t);
            for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
                dep_edge e;
                if (!arc_edge(c, u, j, &e)) continue;
                if (e.kind == DEP_SO || u64map_get(&in, e.to) == NONE) continue;
                vec_push(*out, e);
            }
        }
        for (size_t j = 0; j < m; j++) {
            uint32_t y = S[j];
            if (t != 0 && y != t && h->txns[t].session == h->txns[y].session && h->txns[t].pos < h->txns[y].pos)
                push_dep(out, DEP_SO, 0, t, y);
        }
    }
    u64map_free(&in);
}

static int shortest_cycle_among(const ictx *c, const uint32_t *S, size_t m, dep_edge_vec *E, dep_edge_vec *out);

static int minimal_cycle(const ictx *c, const uint32_t *S, size_t m, int facts, dep_edge_vec *out) {
    dep_edge_vec E; vec_init(E);
    if (facts) induced_fact_edges(c, S, m, &E);
    else induced_edges(c, S, m, &E);
    int ok = shortest_cycle_among(c, S, m, &E, out);
    vec_free(E);
    return ok;
}

/* Shortest violating cycle using edges E between S's transactions. */
static int shortest_cycle_among(const ictx *c, const uint32_t *S, size_t m, dep_edge_vec *E_, dep_edge_vec *out) {
    dep_edge_vec E = *E_;
    /* local node ids: transaction i of S is node i (SER) or split nodes i's */
    u64map loc; u64map_init(&loc);
    for (size_t i = 0; i < m; i++) u64map_put(&loc, S[i], (uint32_t)i);
    dg_arc_vec arcs; vec_init(arcs);
    uint32_t *weight = xmalloc((E.len + 1) * sizeof *weight);
    for (size_t i = 0; i < E.len; i++) {
        dep_edge d = E.data[i];
        d.from = u64map_get(&loc, d.from); d.to = u64map_get(&loc, d.to);
        dg_arc l = { 0, 0, (uint32_t)i };
        node_pair(c->si, &d, &l.from, &l.to);
        weight[i] = edge_weight(&E.data[i]);
        vec_push(arcs, l);
    }
    if (c->si) for (uint32_t i = 0; i < m; i++) { dg_arc l = { dg_start(i), dg_commit(i), DG_NONE }; vec_push(arcs, l); }
    dg_graph g;
    dg_build(&g, dg_num_nodes(c->si, (uint32_t)m), arcs.data, arcs.len, 1);
    vec_u32 ids; vec_init(ids);
    int ok = dg_min_weight_cycle(&g, weight, &ids);
    vec_clear(*out);
    vec_foreach(const uint32_t, id, ids) if (*id != DG_NONE) vec_push(*out, E.data[*id]);
    vec_free(ids); dg_free(&g); vec_free(arcs); free(weight);
    /* between the same two transactions, prefer the key of a neighbouring
     * edge (a -RW x-> b -WW x-> a is a lost update, with y it is read skew) */
    for (size_t i = 0; i < out->len && out->len > 1; i++) {
        dep_edge *d = &out->data[i];
        uint32_t kp = out->data[(i + out->len - 1) % out->len].key, kn = out->data[(i + 1) % out->len].key;
        if (d->kind == DEP_SO || d->key == kp || d->key == kn) continue;
        for (size_t j = 0; j < E.len; j++) {
            const dep_edge *x = &E.data[j];
            if (x->from == d->from && x->to == d->to && x->kind == d->kind && (x->key == kp || x->key == kn)) { d->key = x->key; break; }
        }
    }
    /* rotate to start at the smallest transaction index */
    if (out->len) {
        size_t r = 0;
        for (size_t i = 1; i < out->len; i++) if (out->data[i].from < out->data[r].from) r = i;
        dep_edge_vec tmp; vec_init(tmp);
        for (size_t i = 0; i < out->len; i++) vec_push(tmp, out->data[(r + i) % out->len]);
        vec_clear(*out);
        for (size_t i = 0; i < tmp.len; i++) vec_push(*out, tmp.data[i]);
        vec_free(tmp);
    }
    u64map_free(&loc);
    return ok && cycle_violates(out->data, out->len, c->si);
}

/* ---- violating cycles under the version order, avoiding used txns -------- */

static void vo_graph(const ictx *c, const uint8_t *excl, igraph *g) {
    const history *h = c->h;
    const version_order *vo = c->vo;
    memset(g, 0, sizeof *g);
    g->split = c->si;
    vec_init(g->edges);
    uint8_t *use = xcalloc(h->num_txns, 1);
    for (uint32_t t = 0; t < h->num_txns; t++) use[t] = c->part[t] && !excl[t];
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = NONE;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!use[t]) continue;
            if (prev != NONE) push_dep(&g->edges, DEP_SO, 0, prev, t);
            prev = t;
        }
    }
    for (uint32_t k = 0; k < vo->num_keys; k++) {
        uint32_t a = vo->start[k], b = vo->start[k + 1], prev = NONE;
        for (uint32_t i = a; i < b; i++) {
            uint32_t t = vo->txns.data[i];
            if (!use[t]) continue;
            if (prev != NONE) push_dep(&g->edges, DEP_WW, k, prev, t);
            prev = t;
        }
        for (uint32_t i = a; i < b; i++) {
            uint32_t w = vo->txns.data[i], nx = NONE;
            for (uint32_t j = i + 1; j < b; j++) if (use[vo->txns.data[j]]) { nx = vo->txns.data[j]; break; }
            for (uint32_t r = c->rd_start[i]; r < c->rd_start[i + 1]; r++) {
                uint32_t t = c->rd.data[r];
                if (!use[t]) continue;
                if (use[w] && w != 0) push_dep(&g->edges, DEP_WR, k, w, t);
                if (nx != NONE && nx != t) push_dep(&g->edges, DEP_RW, k, t, nx);
            }
        }
    }
    ig_finish(g, h, use);
    free(use);
}

/* Transactions of a short violating cycle avoiding excl, sorted; 0 if none. */
static int find_cycle_txns(const ictx *c, const uint8_t *excl, int facts, vec_u32 *S) {
    igraph own;
    igraph g = { c->si, c->g, { NULL, 0, 0 } };             /* the fact graph: every arc */
    if (!facts) { vo_graph(c, excl, &own); g = own; }
    dg_mask mask = { facts ? excl : NULL, g.split ? 1u : 0u };
    vec_u32 cyc, cur; vec_init(cyc); vec_init(cur);
    int found = dg_find_cycle(&g.g, mask, &cyc);
    if (found) {
        uint32_t *par = xmalloc((size_t)g.g.n * sizeof *par), *queue = xmalloc((size_t)g.g.n * sizeof *queue);
        size_t tries = cyc.len < 16 ? cyc.len : 16;
        if (g.g.n > 200000 && tries > 4) tries = 4;          /* each try is a full BFS */
        vec_u32 best; vec_init(best);
        for (size_t i = 0; i < tries; i++)
            if (dg_shortest_cycle_through(&g.g, mask, cyc.data[i], par, queue, &cur) && (!best.len || cur.len < best.len)) {
                vec_clear(best);
                for (size_t j = 0; j < cur.len; j++) vec_push(best, cur.data[j]);
            }
        const vec_u32 *use = best.len ? &best : &cyc;
        vec_clear(*S);
        for (size_t i = 0; i < use->len; i++) {
            uint32_t t = dg_node_txn(g.split, use->data[i]);
            int dup = 0;
            for (size_t j = 0; j < S->len; j++) if (S->data[j] == t) dup = 1;
            if (!dup) vec_push(*S, t);
        }
        free(par); free(queue); vec_free(best);
    }
    vec_free(cyc); vec_free(cur);
    if (!facts) ig_free(&own);
    return found;
}

/* ---- the anomaly record --------------------------------------------------- */

static void add_txn(report_anomaly *a, uint32_t t) {
    for (size_t i = 0; i < a->txns.len; i++) if (a->txns.data[i] == t) return;
    vec_push(a->txns, t);
}

static void add_op(report_anomaly *a, uint32_t op) {
    if (op == NONE) return;
    for (size_t i = 0; i < a->ops.len; i++) if (a->ops.data[i] == op) return;
    vec_push(a->ops, op);
}

/* Ops behind an edge: external read of the reader, final writes. */
static void edge_ops(const ictx *c, const dep_edge *e, report_anomaly *a) {
    const history *h = c->h;
    switch (e->kind) {
    case DEP_WR: add_op(a, history_txn_final_write(h, e->from, e->key)); add_op(a, ext_read(c, e->to, e->key, NULL)); break;
    case DEP_WW: add_op(a, history_txn_final_write(h, e->from, e->key)); add_op(a, history_txn_final_write(h, e->to, e->key)); break;
    case DEP_RW: add_op(a, ext_read(c, e->from, e->key, NULL)); add_op(a, history_txn_final_write(h, e->to, e->key)); break;
    default: break;
    }
}

static void free_whys(void *v) {
    VEC(edge_why) *w = v;
    for (size_t i = 0; i < w->len; i++) vec_free(w->data[i].alt);
    vec_clear(*w);
}

/* Move a minimal cycle and its explanations into a new report entry. */
static void emit(report *r, const ictx *c, int level, const dep_edge_vec *mc, void *whyv) {
    VEC(edge_why) *why = whyv;
    cycle_class cl = classify_cycle(mc->data, mc->len, c->si);
    report_anomaly *a = report_add(r, cl.kind, level);
    snprintf(a->adya, sizeof a->adya, "%s", cl.adya);
    for (size_t i = 0; i < mc->len; i++) { vec_push(a->edges, mc->data[i]); add_txn(a, mc->data[i].from); }
    a->num_cycle_txns = (uint32_t)a->txns.len;
    for (size_t i = 0; i < mc->len; i++) edge_ops(c, &mc->data[i], a);
    for (size_t i = 0; i < why->len; i++) {
        vec_foreach(const dep_edge, e, why->data[i].alt) { add_txn(a, e->from); add_txn(a, e->to); edge_ops(c, e, a); }
        if (why->data[i].status == WHY_LISTED) { add_txn(a, c->h->op_txn[why->data[i].read_op]); add_op(a, why->data[i].read_op); }
        vec_push(a->why, why->data[i]);
    }
    vec_clear(*why);                 /* the alt vectors now belong to the report */
    size_t keep = 0;
    for (size_t i = 0; i < a->txns.len; i++) if (a->txns.data[i] != 0) a->txns.data[keep++] = a->txns.data[i];
    a->txns.len = keep;
    if (a->num_cycle_txns > keep) a->num_cycle_txns = (uint32_t)keep;
    /* ops in history order: reads before writes within a transaction */
    for (size_t i = 1; i < a->ops.len; i++)
        for (size_t j = i; j > 0 && a->ops.data[j - 1] > a->ops.data[j]; j--) {
            uint32_t t = a->ops.data[j]; a->ops.data[j] = a->ops.data[j - 1]; a->ops.data[j - 1] = t;
        }
    report_describe_cycle(c->h, a, c->si);
}

void interpret_trace_free(interpret_trace *t) {
    vec_foreach(interpret_candidate, ca, *t) vec_free(ca->cycle);
    vec_free(*t);
}

size_t interpret_failure(report *r, int level, const version_order *vo_in, const dep_edge *cycle, size_t n,
                         const dep_edge *forced, size_t nforced, size_t max, interpret_trace *trace) {
    return interpret_failure_on(r, level, vo_in, cycle, n, forced, nforced, max, trace, NULL, 0);
}

size_t interpret_failure_on(report *r, int level, const version_order *vo_in, const dep_edge *cycle, size_t n,
                            const dep_edge *forced, size_t nforced, size_t max, interpret_trace *trace,
                            struct par_pool *pool, int prio) {
    const history *h = r->h;
    if (!vo_in || !vo_in->start || vo_in->num_keys != h->num_keys || max == 0) return 0;
    version_order rvo;
    repair_vo(h, vo_in, forced, nforced, &rvo);
    ictx c;
    ctx_init(&c, h, &rvo, level == 0, forced, nforced, pool, prio);
    c.own_vo = rvo;
    uint8_t *excl = xcalloc(h->num_txns, 1);
    vec_u32 S; vec_init(S);
    dep_edge_vec mc, fb; vec_init(mc); vec_init(fb);
    VEC(edge_why) why, fbwhy; vec_init(why); vec_init(fbwhy);
    size_t count = 0;
    int have = 0;
    if (cycle && n) {
        for (size_t i = 0; i < n; i++) {
            int dup = 0;
            for (size_t j = 0; j < S.len; j++) if (S.data[j] == cycle[i].from) dup = 1;
            if (!dup && cycle[i].from < h->num_txns) vec_push(S, cycle[i].from);
        }
        have = 1;
    }
    /* Candidates: violating cycles.  One whose WW/RW facts are all forced
     * is reported, and its transactions are set aside (the next ones are
     * independent).  Work is bounded by a budget of graph edges. */
    /* a round costs a few dozen traversals of the graphs (cycle search and
     * shortening, one search per fact explained) */
    uint64_t unit = 20 * (c.num_known + h->num_txns + vo_in->txns.len);
    uint64_t budget = 20000000 + 2 * unit, spent = 0;
    /* candidates: the checker's cycle, then cycles of the fact graph (every
     * edge read off the history or forced), then cycles under the version
     * order.  A candidate with a fact that is merely chosen is kept as a
     * fallback, and its transactions are set aside like a reported one's. */
    /* Lost updates need no search: two transactions that read the same
     * version of a key and both write it conflict under every version order
     * (each must directly follow that version).  They come right after the
     * checker's cycle. */
    vec_u32 lu; vec_init(lu);
    for (uint32_t k = 0; k < vo_in->num_keys; k++)
        for (uint32_t g = c.vo->start[k]; g < c.vo->start[k + 1]; g++) {
            uint32_t first = NONE;
            for (uint32_t i = c.rd_start[g]; i < c.rd_start[g + 1]; i++) {
                uint32_t t = c.rd.data[i];
                if (!c.rd_writes[i]) continue;               /* t's final write of k: none */
                if (first == NONE) { first = t; continue; }
                vec_push(lu, first); vec_push(lu, t);
                break;
            }
        }
    size_t lu_next = 0;
    int phase = 0;
    for (int rounds = 0; count < max && rounds < 4096 && (rounds == 0 || spent < budget); rounds++) {
        int from_checker = have && rounds == 0;
        int use_facts = 0;
        if (!have) {
            if (phase == 0) {
                while (lu_next < lu.len && (excl[lu.data[lu_next]] || excl[lu.data[lu_next + 1]])) lu_next += 2;
                if (lu_next < lu.len) {
                    vec_clear(S); vec_push(S, lu.data[lu_next]); vec_push(S, lu.data[lu_next + 1]);
                    lu_next += 2;
                } else phase = c.has_forced ? 1 : 2;
            }
            if (phase == 1 && !find_cycle_txns(&c, excl, 1, &S)) phase = 2;
            if (phase == 2 && !find_cycle_txns(&c, excl, 0, &S)) break;
            use_facts = phase == 1;
        }
        have = 0;
        spent += unit;
        int ok = S.len <= 256 && minimal_cycle(&c, S.data, S.len, use_facts, &mc);
        if (!ok && use_facts) ok = S.len <= 256 && minimal_cycle(&c, S.data, S.len, 0, &mc);
        if (!ok && from_checker) {          /* keep the checker's cycle as it is */
            vec_clear(mc);
            for (size_t i = 0; i < n; i++) vec_push(mc, cycle[i]);
            ok = cycle_violates(mc.data, mc.len, c.si);
        }
        if (!ok) { if (phase != 0) for (size_t i = 0; i < S.len; i++) excl[S.data[i]] = 1; continue; }
        free_whys(&why);
        uint32_t unforced = NONE;
        for (size_t i = 0; i < mc.len; i++) {
            edge_why w;
            explain_edge(&c, &mc.data[i], &w);
            if (w.status == WHY_CHOSEN && unforced == NONE) unforced = mc.data[i].to;
            vec_push(why, w);
        }
        if (trace) {
            interpret_candidate ca = { (uint32_t)S.len, { NULL, 0, 0 }, unforced };
            vec_init(ca.cycle);
            for (size_t i = 0; i < mc.len; i++) vec_push(ca.cycle, mc.data[i]);
            vec_push(*trace, ca);
        }
        if (unforced != NONE) {
            if (!fb.len) {
                for (size_t i = 0; i < mc.len; i++) vec_push(fb, mc.data[i]);
                for (size_t i = 0; i < why.len; i++) vec_push(fbwhy, why.data[i]);
                vec_clear(why);
            }
            for (size_t i = 0; i < S.len; i++) excl[S.data[i]] = 1;
            continue;
        }
        emit(r, &c, level, &mc, &why);
        for (size_t i = 0; i < mc.len; i++) excl[mc.data[i].from] = 1;
        count++;
    }
    if (count == 0 && fb.len) { emit(r, &c, level, &fb, &fbwhy); count = 1; }
    free_whys(&why); free_whys(&fbwhy);
    vec_free(why); vec_free(fbwhy); vec_free(mc); vec_free(fb); vec_free(S); vec_free(lu);
    free(excl);
    ctx_free(&c);
    return count;
}
