/* interpret_setup.c — the interpreter's context: the fact graph, each
 * final write's version position and each version's readers, built by
 * whole-history passes cut into ranges on a pool (interpret_internal.h). */
#include "fatal.h"
#include "frontend/reports/interpret_internal.h"

#include <stdlib.h>
#include <string.h>

#include "par.h"

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
    uint32_t w = history_op_txn(h, src), k = h->op_key[src];
    if (w == 0) return history_txn_final_write(h, 0, k);
    uint32_t fw = src;
    for (uint32_t o = src + 1; o < h->num_ops && history_op_txn(h, o) == w; o++)   /* a transaction's ops are consecutive */
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
 * op order: the read op, the writer read from (NONE: no edge), and
 * flags: RF_WW the read-modify-write link is there, RF_WRITES the reader
 * writes the key.  Beside them, in the
 * same order, the reads of an initial version (PAIR(key, reader)) and the
 * reads of a version by a transaction that writes the key too
 * (PAIR(version, reader)), both only when the version is in vo. */
enum { RF_WW = 1, RF_WRITES = 2 };
typedef struct read_part {
    uint32_t t0, t1;
    size_t n;
    uint32_t *op, *w, *own;          /* own: the reader's own appends before the read */
    uint8_t *ww;
    ivec_u64 init_rd, rmw_rd;
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
                p->own = xrealloc(p->own, cap * sizeof *p->own);
            }
            p->op[p->n] = op;
            p->own[p->n++] = own;
        }
    }
    free(seen); free(app_txn); free(app_num);
    p->ww = xmalloc(p->n ? p->n : 1);
    /* Two loops, each asking ahead for the random accesses it will make:
     * the source (the writer index's slot, then the op in it, its kind
     * too) and the writer's final write; then that version's index. */
    const size_t ahead = HISTORY_PREFETCH_AHEAD;
    for (size_t r = 0; r < p->n; r++) {
        if (history_has_read_sources(h)) {         /* the run's shared sources (read_sources.c): no lookups */
            if (r + ahead / 2 < p->n && history_op_kind(h, p->op[r + ahead / 2]) == OP_READ) {
                uint32_t s = h->read_src[p->op[r + ahead / 2]];
                if (s < h->num_ops) HISTORY_OP_PREFETCH(h, s);
            }
        } else {
            if (r + ahead < p->n) {
                uint32_t q = p->op[r + ahead];
                history_writer_prefetch_slot(h, h->op_key[q], history_read_value(h, q));
            }
            if (r + ahead / 2 < p->n && h->writer_slots) {
                uint32_t q = p->op[r + ahead / 2];
                uint32_t s = h->writer_slots[history_writer_home(h, h->op_key[q], history_read_value(h, q))];
                if (s < h->num_ops) HISTORY_OP_PREFETCH(h, s);
            }
        }
        uint32_t op = p->op[r], t = history_op_txn(h, op), k = h->op_key[op];
#ifdef GSAT_DEBUG
        uint32_t own_ref;                        /* the read is t's external read of k, as ext_read defines it */
        if (ictx_ext_read(c, t, k, &own_ref) != op || own_ref != p->own[r])
            internal_error("isocheck", "interpretation: a read is not its transaction's external read");
#endif
        uint32_t src = history_snapshot_source(h, op, p->own[r]);
        uint32_t w = src == HISTORY_NONE || history_op_txn(h, src) == t ? NONE : history_op_txn(h, src);
        int writes = history_txn_final_write(h, t, k) != NONE;
        /* the writer's final write only where a read-modify-write link may
         * be (the reader writes the key): a scan of the writer's ops at
         * random, which the other reads need not pay */
#ifdef GSAT_DEBUG
        uint32_t fw = w == NONE ? NONE : writer_final_write(h, src);
        if (w != NONE && fw != history_txn_final_write(h, w, k))
            internal_error("isocheck", "interpretation: a version is not its writer's final write");
#else
        uint32_t fw = w == NONE || !writes ? NONE : writer_final_write(h, src);
#endif
        p->ww[r] = (uint8_t)((fw != NONE && fw == src && writes ? RF_WW : 0) | (writes ? RF_WRITES : 0));
        p->w[r] = w;
    }
    /* the initial versions' readers and the readers that write the key,
     * for the versions in vo (the only ones whose readers are asked for) */
    vec_init(p->init_rd); vec_init(p->rmw_rd);
    for (size_t r = 0; r < p->n; r++) {
        uint32_t w = p->w[r];
        if (w == NONE || (w != 0 && !(p->ww[r] & RF_WRITES))) continue;
        uint32_t k = h->op_key[p->op[r]], g = ictx_version_of(c, k, w), t = history_op_txn(h, p->op[r]);
        if (g == NONE) continue;
        if (w == 0) vec_push(p->init_rd, PAIR(k, t));
        if (p->ww[r] & RF_WRITES) vec_push(p->rmw_rd, PAIR(g, t));
    }
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The parts' initial-version readers and read-modify-write readers, each
 * sorted (keys are distinct: one external read of a key a transaction). */
static void gather_readers(ictx *c, const read_part *parts, uint32_t n) {
    vec_init(c->init_rd); vec_init(c->rmw_rd);
    for (uint32_t i = 0; i < n; i++) {
        vec_foreach(const uint64_t, x, parts[i].init_rd) vec_push(c->init_rd, *x);
        vec_foreach(const uint64_t, x, parts[i].rmw_rd) vec_push(c->rmw_rd, *x);
    }
    if (c->init_rd.len) qsort(c->init_rd.data, c->init_rd.len, sizeof *c->init_rd.data, cmp_u64);
    if (c->rmw_rd.len) qsort(c->rmw_rd.data, c->rmw_rd.len, sizeof *c->rmw_rd.data, cmp_u64);
}

static void read_parts_free(read_part *parts, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        free(parts[i].op); free(parts[i].w); free(parts[i].own); free(parts[i].ww);
        vec_free(parts[i].init_rd); vec_free(parts[i].rmw_rd);
    }
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
 * the forced edges in the caller's order, of class CLS_UNSET (whether one
 * holds is asked when a search needs it: ictx_arc_within);
 * then SI's fixed arcs): task j of nr counts (fill NULL: into g.start[x +
 * 1]) or places (at fill[x]++) those that leave its nodes x, a range of
 * about n/nr.  Each task writes its own range only and meets every arc in
 * the one order, so the graph does not depend on nr.  known[j]: its known
 * arcs. */

typedef struct arc_job {
    ictx *c;
    const read_part *parts;
    uint32_t nparts, nr;
    uint32_t *fill;
    uint64_t *known;
} arc_job;

static void arc_task(void *ctx, size_t j) {
    const arc_job *jb = ctx;
    ictx *c = jb->c;
    const history *h = c->h;
    uint32_t nn = c->g.n;
    uint32_t x0 = (uint32_t)((uint64_t)nn * j / jb->nr), x1 = (uint32_t)((uint64_t)nn * (j + 1) / jb->nr);
    uint32_t *deg = jb->fill ? NULL : c->g.start, *fill = jb->fill;
    uint64_t n = 0;
#define ARC(x, y, id, cl) do { \
        if (deg) deg[(x) + 1]++; \
        else { uint32_t a_ = fill[x]++; c->g.adj[a_] = (y); c->g.eid[a_] = (id); c->cls[a_] = (uint8_t)(cl); } \
    } while (0)
    for (uint32_t i = 0; i < jb->nparts; i++) {
        const read_part *p = &jb->parts[i];
        for (size_t r = 0; r < p->n; r++) {
            uint32_t w = p->w[r];
            if (w == NONE || (w == 0 && !(p->ww[r] & RF_WW))) continue;   /* INIT: a WW arc at most */
            uint32_t xw = c->si ? dg_commit(w) : w;          /* WR and WW leave w's commit node */
            if (xw < x0 || xw >= x1) continue;
            uint32_t t = history_op_txn(h, p->op[r]), k = h->op_key[p->op[r]];
            for (int kind = DEP_WR; kind <= DEP_WW; kind++) {
                if (kind == DEP_WR ? w == 0 : !(p->ww[r] & RF_WW)) continue;
                uint32_t x, y;
                dg_dep_nodes(c->si, (dep_kind)kind, w, t, &x, &y);
                ARC(x, y, PG_META(kind, k), CLS_KNOWN);
                n++;
            }
        }
    }
    for (uint32_t s = 0; c->so && s < h->num_sessions; s++) {       /* session order, when a fact */
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
        if (interp_forced_in_facts(h, &c->forced[i])) {
            uint32_t x, y;
            interp_node_pair(c->si, &c->forced[i], &x, &y);
            /* only forced edges that hold under the version order are in
             * CLS_HOLDS: a failing history lets pruning derive both orders
             * of some pairs, and an explanation should not mix the two */
            if (x >= x0 && x < x1) ARC(x, y, (uint32_t)i, CLS_UNSET);
        }
    if (c->si)
        for (uint32_t t = x0 / 2; t < h->num_txns && dg_start(t) < x1; t++)
            if (c->part[t] && dg_start(t) >= x0) ARC(dg_start(t), dg_commit(t), DG_NONE, CLS_KNOWN);
#undef ARC
    jb->known[j] = n;
}

/* Does forced edge e hold under the (repaired) version order: its a's
 * version before its b's?  (a: WW's writer, RW's reader's source.) */
static int forced_holds(const ictx *c, const dep_edge *e) {
    const history *h = c->h;
    if (e->from >= h->num_txns || e->to >= h->num_txns || e->from == e->to || e->key >= h->num_keys) return 0;
    uint32_t gb = ictx_vidx(c, e->key, e->to);
    uint32_t a = e->kind == DEP_WW ? e->from : ictx_read_src(c, e->from, e->key);
    uint32_t ga = a == NONE ? NONE : ictx_vidx(c, e->key, a);
    return ga != NONE && gb != NONE && ga < gb;
}

int ictx_arc_within(const ictx *c, uint32_t j, int maxcls) {
    uint8_t k = c->cls[j];
    if (k == CLS_UNSET) {
        if (maxcls >= CLS_FORCED) return 1;
        if (maxcls < CLS_HOLDS) return 0;
        uint32_t f = c->g.eid[j];
        k = atomic_load_explicit(&c->holds[f], memory_order_relaxed);
        if (!k) {                                /* asked once (twice at worst, on two threads: the same answer) */
            k = forced_holds(c, &c->forced[f]) ? CLS_HOLDS : CLS_FORCED;
            atomic_store_explicit(&c->holds[f], k, memory_order_relaxed);
        }
    }
    return k <= maxcls;
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

/* Each key's versions sorted by writer (vsort: ties by position), so that
 * a writer's version is found by a binary search of its key's slice of
 * vo: the slices are read in sequence, where a position per final write
 * op (what was kept before) was filled by a look-up of every version's
 * writer's ops at random (0.2 s CPU at 1M) for the few versions ever
 * asked for.  Slices of a few versions are sorted in place, longer ones
 * through a buffer of (writer, position) pairs. */
uint32_t interpret_vsort_small = 32;
static void vsort_task(void *ctx, size_t i) {
    const key_job *j = ctx;
    ictx *c = j->c;
    const uint32_t *vt = c->vo->txns.data;
    uint32_t *vs = c->vsort;
    ivec_u64 buf; vec_init(buf);
    for (uint32_t k = j->parts[i].k0; k < j->parts[i].k1; k++) {
        uint32_t a = c->vo->start[k], b = c->vo->start[k + 1];
        if (b <= a) continue;
        if (b - a <= interpret_vsort_small) {
            for (uint32_t g = a; g < b; g++) {           /* insertion: (writer, position) ascending */
                uint32_t x = g;
                for (; x > a && vt[vs[x - 1]] > vt[g]; x--) vs[x] = vs[x - 1];
                vs[x] = g;
            }
            continue;
        }
        vec_clear(buf);
        for (uint32_t g = a; g < b; g++) vec_push(buf, PAIR(vt[g], g));
        qsort(buf.data, buf.len, sizeof *buf.data, cmp_u64);
        for (uint32_t g = a; g < b; g++) vs[g] = (uint32_t)buf.data[g - a];
    }
    vec_free(buf);
}

uint32_t ictx_version_of(const ictx *c, uint32_t key, uint32_t t) {
    const version_order *vo = c->vo;
    if (key >= vo->num_keys || key >= c->h->num_keys) return NONE;
    uint32_t lo = vo->start[key], hi = vo->start[key + 1];
    const uint32_t *vt = vo->txns.data;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (vt[c->vsort[mid]] < t) lo = mid + 1; else hi = mid;
    }
    return lo < vo->start[key + 1] && vt[c->vsort[lo]] == t ? c->vsort[lo] : NONE;
}

int ictx_rt(const ictx *c, uint32_t a, uint32_t b) {
    if (!c->rt || a == 0 || b == 0 || a == b || c->h->txns[a].status != TXN_COMMITTED) return 0;
    int64_t done = history_time(c->h, TIME_COMPLETE, a), start = history_time(c->h, TIME_INVOKE, b);
    return done != HISTORY_TIME_NONE && start != HISTORY_TIME_NONE && done < start;
}

void ictx_init(ictx *c, const history *h, const version_order *vo, int level, const dep_edge *forced, size_t nf,
                     struct par_pool *pool, int prio) {
    memset(c, 0, sizeof *c);
    c->rule = level_cycle_rule((check_level_id)level);
    int si = c->rule == RULE_NO_ADJ_RW || c->rule == RULE_AT_MOST_ONE_RW;
    c->h = h; c->vo = vo; c->si = si;
    c->so = level_session_order((check_level_id)level);
    c->rt = level_real_time((check_level_id)level) && history_has_times(h, TIME_INVOKE) &&
            history_has_times(h, TIME_COMPLETE);
    c->pool = pool; c->prio = prio;
    c->forced = forced; c->nforced = nf; c->has_forced = nf != 0;
    c->part = history_participants(h);
    u64map_init(&c->lpos);
    c->vsort = xmalloc((vo->txns.len + 1) * sizeof *c->vsort);
    uint32_t nkp;
    key_part *kp = key_parts(c, &nkp);
    key_job kj = { c, kp };
    ipar_run(c, nkp, vsort_task, &kj);
    key_parts_free(kp, nkp);
    /* the fact graph in compressed form, counted then placed (stable: each
     * node's arcs in the order above), the initial versions' readers and
     * the readers that write the key (read order, then sorted) */
    uint32_t nn = dg_num_nodes(si, h->num_txns), nv = (uint32_t)vo->txns.len;
    c->g.n = nn;
    c->g.start = xcalloc((size_t)nn + 1, sizeof *c->g.start);
    uint32_t nrp;
    read_part *rp = read_parts(c, &nrp);
    /* every task meets every arc: one a thread (ranges for tests) */
    uint32_t nr = interpret_ranges ? interpret_ranges : ipar_ranges(c, (uint64_t)nn + nv) > 1 ? par_pool_threads(pool) : 1;
    if (nr > nn) nr = nn ? nn : 1;
    uint64_t *known = xcalloc(nr, sizeof *known);
    arc_job aj = { c, rp, nrp, nr, NULL, known };
    ipar_run(c, nr, arc_task, &aj);                                  /* count */
    for (uint32_t u = 0; u < nn; u++) c->g.start[u + 1] += c->g.start[u];
    size_t m = c->g.start[nn];
    c->g.adj = xmalloc((m + 1) * sizeof *c->g.adj);
    c->g.eid = xmalloc((m + 1) * sizeof *c->g.eid);
    c->cls = xmalloc(m + 1);
    c->holds = xcalloc(nf + 1, sizeof *c->holds);
    /* placed at start[x]++ (no copy of the offsets: 12 bytes a node and a
     * version at 1M transactions); each then holds its successor's start,
     * and one move back restores them */
    aj.fill = c->g.start;
    ipar_run(c, nr, arc_task, &aj);                                  /* place */
    memmove(c->g.start + 1, c->g.start, (size_t)nn * sizeof *c->g.start);
    c->g.start[0] = 0;
    c->num_known = 0;
    for (uint32_t j = 0; j < nr; j++) c->num_known += known[j];
    free(known);
    gather_readers(c, rp, nrp);
    read_parts_free(rp, nrp);
    /* list reads per key, and where each writer's elements end in the
     * longest one (the axioms make every list a prefix of it) */
    c->lr_start = xcalloc((size_t)h->num_keys + 1, sizeof *c->lr_start);
    vec_init(c->lr);
    if (h->has_lists) {
        for (uint32_t op = 0; op < h->num_ops; op++)
            if (history_op_is_read(h, op) && history_op_kind(h, op) == OP_LIST_READ && c->part[history_op_txn(h, op)])
                c->lr_start[h->op_key[op] + 1]++;
        for (uint32_t k = 0; k < h->num_keys; k++) c->lr_start[k + 1] += c->lr_start[k];
        vec_resize(c->lr, c->lr_start[h->num_keys]);
        uint32_t *at = xmalloc(((size_t)h->num_keys + 1) * sizeof *at);
        memcpy(at, c->lr_start, ((size_t)h->num_keys + 1) * sizeof *at);
        for (uint32_t op = 0; op < h->num_ops; op++)
            if (history_op_is_read(h, op) && history_op_kind(h, op) == OP_LIST_READ && c->part[history_op_txn(h, op)])
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
                if (w != HISTORY_NONE) u64map_put(&c->lpos, PAIR(k, history_op_txn(h, w)), i);
            }
        }
    }
}

