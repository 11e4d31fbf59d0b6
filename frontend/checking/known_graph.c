/* known_graph.c — the level-independent part of the polygraph (pg_index):
 * which transactions take part, who every external read read from, the
 * writers of every key collapsed into units, and what the known edges SO,
 * WR and those inside units are generated from (known_base.c: most of them
 * are WR edges, which the readers lists already say).  See polygraph.h
 * for the reasoning behind units.
 *
 * Everything is linear in the size of the history: per-key work uses
 * scratch arrays indexed by transaction, reset after each key. */
#include "frontend/checking/polygraph.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "io/bigmem.h"
#include "par.h"

#include <stdatomic.h>

const char *dep_kind_name(dep_kind k) {
    static const char *names[] = { "SO", "WR", "WW", "RW", "FIXED", "RT" };
    return (unsigned)k < 6 ? names[k] : "?";
}

typedef struct ext_read { uint32_t txn, src_op, op; } ext_read;     /* its key: h->op_key[op] */

static void push_dep(pg_edge_vec *v, dep_kind kind, uint32_t key, uint32_t from, uint32_t to) {
    pg_edge e = { from, to, PG_META(kind, key) };
    big_vec_push(*v, e);
}

static int read_error(ic_error *err, const history *h, uint32_t op, const char *what) {
    char where[600], kb[64];
    history_op_where(h, op, where, sizeof where);
    ic_error_at(err, NULL, 0, "%s: read of key %s %s (axioms must hold before checking)",
                where, history_key_str(h, h->op_key[op], kb, sizeof kb), what);
    return 0;
}

/* Finding the version a register read observed is a hash lookup with two
 * cache misses (history_writer_of): ask for those of the reads ahead of
 * op (history.h's two stages), so they overlap instead of one read after
 * another.  Hints only. */
static inline void prefetch_sources(const history *h, uint32_t op) {
    const uint32_t ahead = HISTORY_PREFETCH_AHEAD, half = ahead / 2;
    if (op + ahead < h->num_ops && h->op_kind[op + ahead] == OP_READ)
        history_writer_prefetch_slot(h, h->op_key[op + ahead], history_op_value(h, op + ahead));
    if (op + half < h->num_ops && h->op_kind[op + half] == OP_READ)
        history_writer_prefetch_op(h, h->op_key[op + half], history_op_value(h, op + half));
}

/* Which transactions take part: committed ones, and indeterminate ones a
 * participant observed (history_participants, to a fixpoint). */
static void mark_in_graph(pg_index *ix) {
    ix->in_graph = history_participants(ix->h);
}

/* The read pass for a range of transactions.  Its per-key scratch is one
 * set of arrays a thread (at most `threads` tasks run at once), stamped
 * with transaction ids, which the ranges do not share: no reset between
 * tasks. */
typedef struct read_scratch { uint32_t *last_w, *wrote, *read, *app_txn, *app_num; atomic_int busy; } read_scratch;
typedef struct read_out { VEC(ext_read) reads; uint64_t graph_txns; int failed; ic_error err; } read_out;
typedef struct read_job {
    const pg_index *ix;
    uint8_t *is_final;           /* per op; a range writes its own transactions' ops */
    uint32_t ntasks;
    read_out *out;
    read_scratch *scratch;
    unsigned threads;
} read_job;

static void read_task(void *ctx, size_t task) {
    read_job *jb = ctx;
    const pg_index *ix = jb->ix;
    const history *h = ix->h;
    uint8_t *is_final = jb->is_final;
    read_out *o = &jb->out[task];
    uint32_t nk = h->num_keys, nt = h->num_txns;
    uint32_t lo = (uint32_t)((uint64_t)nt * task / jb->ntasks), hi = (uint32_t)((uint64_t)nt * (task + 1) / jb->ntasks);
    read_scratch *sc = NULL;
    for (unsigned i = 0; !sc; i = (i + 1) % jb->threads)
        if (!atomic_exchange(&jb->scratch[i].busy, 1)) sc = &jb->scratch[i];
    if (!sc->last_w) {
        sc->last_w = xmalloc((size_t)(nk ? nk : 1) * sizeof *sc->last_w);    /* reverse pass */
        sc->wrote = xmalloc((size_t)(nk ? nk : 1) * sizeof *sc->wrote);      /* written before, this txn */
        sc->read = xmalloc((size_t)(nk ? nk : 1) * sizeof *sc->read);        /* read before, this txn */
        sc->app_txn = xmalloc((size_t)(nk ? nk : 1) * sizeof *sc->app_txn);  /* own appends so far: txn */
        sc->app_num = xmalloc((size_t)(nk ? nk : 1) * sizeof *sc->app_num);  /* ... and how many */
        for (uint32_t k = 0; k < nk; k++) sc->last_w[k] = sc->wrote[k] = sc->read[k] = sc->app_txn[k] = UINT32_MAX;
    }
    uint32_t *last_w = sc->last_w, *wrote = sc->wrote, *read = sc->read, *app_txn = sc->app_txn, *app_num = sc->app_num;
    ic_error_clear(&o->err);
    int ok = 1;
    /* Final writes (a transaction installs only its last write of a key)
     * and external reads: the first read per key that shows the snapshot —
     * a register read before an own write, or any list read, whose external
     * prefix (without the own appends so far) is what it read from the
     * snapshot.  INT makes the later reads agree with it. */
    for (uint32_t t = lo; t < hi && ok; t++) {
        if (!ix->in_graph[t]) continue;
        const history_txn *tx = &h->txns[t];
        o->graph_txns++;
        for (uint32_t i = tx->num_ops; i-- > 0;) {
            uint32_t op = tx->first_op + i;
            if (!history_op_is_write(h, op)) continue;
            uint32_t k = h->op_key[op];
            if (last_w[k] != t) { last_w[k] = t; is_final[op] = 1; }
        }
        for (uint32_t i = 0; i < tx->num_ops && ok; i++) {
            uint32_t op = tx->first_op + i, k = h->op_key[op];
            prefetch_sources(h, op);
            if (history_op_is_write(h, op)) {
                if (history_op_kind(h, op) == OP_WRITE) wrote[k] = t;          /* hides the snapshot */
                else if (app_txn[k] != t) { app_txn[k] = t; app_num[k] = 1; }
                else app_num[k]++;
                continue;
            }
            if (!history_op_is_read(h, op) || wrote[k] == t || read[k] == t) continue;
            read[k] = t;
            if (history_op_ambiguous(h, op)) continue;      /* its writer is a choice: choice.c */
            uint32_t src = history_snapshot_source(h, op, app_txn[k] == t ? app_num[k] : 0);
            if (src == HISTORY_NONE) { ok = read_error(&o->err, h, op, "observes a value nobody wrote"); break; }
            uint32_t w = history_op_txn(h, src);
            if (w == t) { ok = read_error(&o->err, h, op, "observes the transaction's own later write"); break; }
            if (!ix->in_graph[w]) { ok = read_error(&o->err, h, op, "observes a write of an aborted transaction"); break; }
            ext_read r = { t, src, op };
            big_vec_push(o->reads, r);
        }
    }
    o->failed = !ok;
    atomic_store(&sc->busy, 0);
}

/* The per-key part of the index, for a range of keys (see pg_index_build). */
typedef struct key_out {
    VEC(pg_unit) units;          /* m_first, rd_first and key_unit_start relative to the range's own arrays */
    vec_u32 members, readers;
    vec_u32 base_wr;             /* (reader, writer) of a unit's versions but its last */
    pg_edge_vec base;            /* WW and RW inside units */
    uint64_t num_writers, num_links, num_wr;
} key_out;

/* txn -> writer index of the key at hand, UINT32_MAX between keys: one a
 * thread, taken by a task while it runs (at most `threads` run at once) */
typedef struct key_scratch { uint32_t *local; atomic_int busy; } key_scratch;

typedef struct key_job {
    pg_index *ix;
    const uint32_t *rstart;
    const ext_read *byk;
    const uint8_t *is_final;
    const uint32_t *range;
    key_out *out;
    unsigned threads;
    key_scratch *scratch;
} key_job;

/* Ranges of keys with about equal numbers of external reads, 8 a thread. */
static uint32_t key_ranges_by_reads(const uint32_t *rstart, uint32_t nk, unsigned threads, vec_u32 *range) {
    uint32_t ntasks = threads > 1 ? 8 * threads : 1;
    if (ntasks > nk) ntasks = nk ? nk : 1;
    uint64_t per = (uint64_t)rstart[nk] / ntasks + 1;
    vec_clear(*range);
    vec_push(*range, 0u);
    for (uint32_t k = 0; k < nk; k++)
        if ((uint64_t)rstart[k + 1] >= per * range->len && range->len < ntasks) vec_push(*range, k + 1);
    if (vec_last(*range) != nk) vec_push(*range, nk);
    return (uint32_t)range->len - 1;
}

/* One task's working arrays for the key at hand, indexed by the key's
 * writers (local index, INIT first): the writers' transactions, the links
 * between consecutive versions, the readers of each version (rlist from
 * rfirst, rcount of them) and the units walk's marks. */
typedef struct key_work {
    uint32_t *local;             /* txn -> local index, the task's key_scratch */
    vec_u32 wtx, succ, pred, rcount, rfirst, rlist, fill, visited;
} key_work;

/* The participants' final writes of key k into w->wtx (INIT first) and
 * their local indices into w->local. */
static void key_writers(const history *h, const uint8_t *in_graph, const uint8_t *is_final, uint32_t k, key_work *w) {
    uint32_t *local = w->local;
    vec_clear(w->wtx);
    for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
        uint32_t op = h->key_writes[i], t = history_op_txn(h, op);
        if (!in_graph[t] || !is_final[op]) continue;
        if (local[t] != UINT32_MAX) continue;
        local[t] = (uint32_t)w->wtx.len;
        vec_push(w->wtx, t);
    }
    if (w->wtx.len == 0 || w->wtx.data[0] != 0) {
        /* INIT always writes every key first; be defensive. */
        for (size_t i = 0; i < w->wtx.len; i++) local[w->wtx.data[i]] = UINT32_MAX;
        vec_clear(w->wtx);
        local[0] = 0; vec_push(w->wtx, 0u);
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t op = h->key_writes[i], t = history_op_txn(h, op);
            if (!in_graph[t] || !is_final[op] || local[t] != UINT32_MAX) continue;
            local[t] = (uint32_t)w->wtx.len; vec_push(w->wtx, t);
        }
    }
}

/* Elle list reads show a prefix of the version order itself: the longest
 * observed list's writers follow INIT in exactly that order (the axioms
 * make all of a key's lists prefixes of one order).  A list ending with
 * its reader's own appends puts the reader's version right after its
 * external prefix.  Links those versions in w.  Without rmw_links (pc),
 * only external prefixes count: the longest one, the reader's own
 * appends cut off (its version need not follow its prefix's there). */
static void list_links(const history *h, uint32_t k, const ext_read *first, const ext_read *end, key_work *w,
                       key_out *o, int rmw_links) {
    uint32_t best = HISTORY_NONE, best_len = 0, reader = HISTORY_NONE;
    for (const ext_read *r = first; r < end; r++) {
        uint32_t len;
        if (history_op_kind(h, r->op) != OP_LIST_READ) continue;
        const int64_t *el = history_list(h, r->op, &len);
        if (!rmw_links)                     /* pc: the external prefix alone */
            while (len > 0) {
                uint32_t wop = history_writer_of(h, k, el[len - 1]);
                if (wop == HISTORY_NONE || history_op_txn(h, wop) != r->txn) break;
                len--;
            }
        if (len > best_len) { best_len = len; best = r->op; reader = r->txn; }
    }
    if (best == HISTORY_NONE) return;
    uint32_t len;
    const int64_t *els = history_list(h, best, &len);
    uint32_t *succ = w->succ.data, *pred = w->pred.data;
    uint32_t prev = 0;                      /* INIT's local index */
    if (!rmw_links) len = best_len;
    for (uint32_t j = 0; j < len; j++) {
        uint32_t wop = history_writer_of(h, k, els[j]);
        if (wop == HISTORY_NONE) break;
        if (!rmw_links && history_op_txn(h, wop) == reader) break;   /* pc: the reader's own suffix says nothing */
        uint32_t x = w->local[history_op_txn(h, wop)];
        if (x == UINT32_MAX) break;         /* not a participant's write */
        if (x == prev) continue;            /* several appends of one txn */
        if (pred[x] != UINT32_MAX || succ[prev] != UINT32_MAX || x == 0) break;
        succ[prev] = x; pred[x] = prev; o->num_links++;
        prev = x;
    }
}

/* The readers of every version of key k (WR edges, read-modify-write
 * links), then each version's list of readers (rfirst, rlist). */
static void key_readers(const history *h, const ext_read *first, const ext_read *end, key_work *w,
                        key_out *o, int rmw_links) {
    uint32_t nw = (uint32_t)w->wtx.len;
    uint32_t *succ = w->succ.data, *pred = w->pred.data, *rcount = w->rcount.data;
    for (const ext_read *r = first; r < end; r++) {
        uint32_t x = w->local[history_op_txn(h, r->src_op)];
        rcount[x]++;
        uint32_t lt = w->local[r->txn];
        if (rmw_links && lt != UINT32_MAX && lt != x && succ[x] == UINT32_MAX && pred[lt] == UINT32_MAX) {
            succ[x] = lt; pred[lt] = x; o->num_links++;
        }
        if (history_op_txn(h, r->src_op) != 0) o->num_wr++;    /* a WR edge (pg_index_base_each) */
    }
    w->rfirst.data[0] = 0;
    for (uint32_t i = 0; i < nw; i++) w->rfirst.data[i + 1] = w->rfirst.data[i] + rcount[i];
    vec_resize(w->rlist, w->rfirst.data[nw]);
    vec_resize(w->fill, nw);
    for (uint32_t i = 0; i < nw; i++) w->fill.data[i] = w->rfirst.data[i];
    for (const ext_read *r = first; r < end; r++) {
        uint32_t x = w->local[history_op_txn(h, r->src_op)];
        w->rlist.data[w->fill.data[x]++] = r->txn;
    }
}

/* Units: walk links from every head (INIT's first); writers left
 * unvisited lie on link cycles — break each at an arbitrary writer.
 * Each link prev -> x gives WW, and RW from prev's other readers. */
static void key_units(uint32_t k, key_work *w, key_out *o) {
    uint32_t nw = (uint32_t)w->wtx.len;
    const uint32_t *wtx = w->wtx.data, *succ = w->succ.data, *pred = w->pred.data;
    const uint32_t *rfirst = w->rfirst.data, *rlist = w->rlist.data;
    uint32_t *visited = w->visited.data;
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < nw; i++) {
            if (visited[i] || (pass == 0 && pred[i] != UINT32_MAX)) continue;
            pg_unit u;
            u.head = wtx[i];
            u.m_first = (uint32_t)o->members.len;      /* its length: up to the next one's */
            uint32_t x = i, prev = UINT32_MAX;
            while (x != UINT32_MAX && !visited[x]) {
                visited[x] = 1;
                big_vec_push(o->members, wtx[x]);
                if (prev != UINT32_MAX) {
                    uint32_t a = wtx[prev], b = wtx[x];
                    for (uint32_t j = rfirst[prev]; j < rfirst[prev + 1] && a != 0; j++) {   /* WR from a non-last */
                        big_vec_push(o->base_wr, rlist[j]); big_vec_push(o->base_wr, a);
                    }
                    if (a != 0) push_dep(&o->base, DEP_WW, k, a, b);
                    for (uint32_t j = rfirst[prev]; j < rfirst[prev + 1]; j++)
                        if (rlist[j] != b) push_dep(&o->base, DEP_RW, k, rlist[j], b);
                }
                prev = x;
                x = succ[x];
            }
            u.last = wtx[prev];
            u.rd_first = (uint32_t)o->readers.len;      /* rcount[prev] readers, up to the next one's */
            for (uint32_t j = rfirst[prev]; j < rfirst[prev + 1]; j++) big_vec_push(o->readers, rlist[j]);
            big_vec_push(o->units, u);
        }
    }
}

static void key_task(void *ctx, size_t task) {
    key_job *jb = ctx;
    pg_index *ix = jb->ix;
    const history *h = ix->h;
    key_out *o = &jb->out[task];
    uint32_t nt = h->num_txns;
    key_scratch *ks = NULL;
    for (unsigned i = 0; !ks; i = (i + 1) % jb->threads)
        if (!atomic_exchange(&jb->scratch[i].busy, 1)) ks = &jb->scratch[i];
    if (!ks->local) {
        ks->local = big_malloc((size_t)(nt ? nt : 1) * sizeof *ks->local);
        for (uint32_t t = 0; t < nt; t++) ks->local[t] = UINT32_MAX;
    }
    key_work w = { .local = ks->local };
    vec_init(w.wtx); vec_init(w.succ); vec_init(w.pred); vec_init(w.rcount); vec_init(w.rfirst); vec_init(w.rlist);
    vec_init(w.fill); vec_init(w.visited);
    for (uint32_t k = jb->range[task]; k < jb->range[task + 1]; k++) {
        ix->key_unit_start[k] = (uint32_t)o->units.len;         /* in the range's own arrays until joined */
        ix->key_wr_start[k] = (uint32_t)(o->base_wr.len / 2);
        ix->key_ue_start[k] = (uint32_t)o->base.len;
        key_writers(h, ix->in_graph, jb->is_final, k, &w);
        uint32_t nw = (uint32_t)w.wtx.len;
        o->num_writers += nw - 1;
        vec_resize(w.succ, nw); vec_resize(w.pred, nw); vec_resize(w.rcount, nw + 1); vec_resize(w.rfirst, nw + 1);
        vec_resize(w.visited, nw);
        for (uint32_t i = 0; i < nw; i++) {
            w.succ.data[i] = w.pred.data[i] = UINT32_MAX; w.rcount.data[i] = 0; w.visited.data[i] = 0;
        }
        w.rcount.data[nw] = 0;
        const ext_read *first = jb->byk + jb->rstart[k], *end = jb->byk + jb->rstart[k + 1];
        if (h->has_lists) list_links(h, k, first, end, &w, o, ix->opts.rmw_links);
        key_readers(h, first, end, &w, o, ix->opts.rmw_links);
        key_units(k, &w, o);
        for (uint32_t i = 0; i < nw; i++) w.local[w.wtx.data[i]] = UINT32_MAX;
    }
    vec_free(w.wtx); vec_free(w.succ); vec_free(w.pred); vec_free(w.rcount); vec_free(w.rfirst); vec_free(w.rlist);
    vec_free(w.fill); vec_free(w.visited);
    atomic_store(&ks->busy, 0);
}

/* The key ranges' arrays joined in key order, their offsets shifted; the
 * sentinel unit and the per-key starts' ends. */
static void join_key_outs(pg_index *ix, key_out *out, uint32_t ntasks, const uint32_t *range) {
    uint32_t nk = ix->num_keys;
    size_t nu = 0, nm = 0, nr = 0, nb = 0, nx = 0;
    for (uint32_t i = 0; i < ntasks; i++) {
        nu += out[i].units.len; nm += out[i].members.len; nr += out[i].readers.len; nb += out[i].base.len;
        nx += out[i].base_wr.len;
    }
    big_vec_reserve(ix->units, nu + 1); big_vec_reserve(ix->members, nm); big_vec_reserve(ix->readers, nr);   /* + sentinel */
    big_vec_reserve(ix->base_unit, nb); big_vec_reserve(ix->base_wr, nx);
    for (uint32_t i = 0; i < ntasks; i++) {
        key_out *o = &out[i];
        uint32_t u0 = (uint32_t)ix->units.len, m0 = (uint32_t)ix->members.len, r0 = (uint32_t)ix->readers.len;
        uint32_t x0 = (uint32_t)(ix->base_wr.len / 2), e0 = (uint32_t)ix->base_unit.len;
        for (uint32_t k = range[i]; k < range[i + 1]; k++) {
            ix->key_unit_start[k] += u0; ix->key_wr_start[k] += x0; ix->key_ue_start[k] += e0;
        }
        vec_foreach(pg_unit, u, o->units) { u->m_first += m0; u->rd_first += r0; }
#define JOIN(dst, src) do { if ((src).len) memcpy((dst).data + (dst).len, (src).data, (src).len * sizeof *(src).data); \
                            (dst).len += (src).len; vec_free(src); } while (0)
        JOIN(ix->units, o->units); JOIN(ix->members, o->members); JOIN(ix->readers, o->readers);
        JOIN(ix->base_unit, o->base); JOIN(ix->base_wr, o->base_wr);
#undef JOIN
        ix->num_writers += o->num_writers;
        ix->num_links += o->num_links;
        ix->num_base_fixed += o->num_wr;
    }
    ix->key_unit_start[nk] = (uint32_t)ix->units.len;
    ix->key_wr_start[nk] = (uint32_t)(ix->base_wr.len / 2);
    ix->key_ue_start[nk] = (uint32_t)ix->base_unit.len;
    ix->num_base_fixed += ix->base_unit.len;
    ix->units.data[ix->units.len] = (pg_unit){ 0, 0, (uint32_t)ix->members.len, (uint32_t)ix->readers.len };
}

int pg_index_build(pg_index *ix, const history *h, ic_error *err) { return pg_index_build_on(ix, h, err, NULL); }

int pg_index_build_on(pg_index *ix, const history *h, ic_error *err, struct par_pool *pool) {
    pg_index_opts o = { 1, 1, 0 };
    return pg_index_build_opts(ix, h, err, pool, o);
}

int pg_index_build_opts(pg_index *ix, const history *h, ic_error *err, struct par_pool *pool, pg_index_opts opts) {
    memset(ix, 0, sizeof *ix);
    ix->h = h;
    ix->opts = opts;
    ix->num_keys = h->num_keys;
    mark_in_graph(ix);

    uint32_t nk = h->num_keys, nt = h->num_txns;
    uint8_t *is_final = big_calloc(h->num_ops ? h->num_ops : 1, 1);
    unsigned threads = par_pool_threads(pool);

    /* Final writes and external reads, in transaction ranges on the pool
     * (read_task); a range stops at its first bad read, and the first
     * range with one gives the error one pass would. */
    uint32_t nread = threads > 1 ? 8 * threads : 1;
    if (nread > nt) nread = nt ? nt : 1;
    read_out *rout = xcalloc(nread, sizeof *rout);
    read_job rjob = { ix, is_final, nread, rout, xcalloc(threads, sizeof *rjob.scratch), threads };
    par_pool_run(threads > 1 ? pool : NULL, nread, read_task, &rjob);
    for (unsigned i = 0; i < threads; i++) {
        read_scratch *sc = &rjob.scratch[i];
        free(sc->last_w); free(sc->wrote); free(sc->read); free(sc->app_txn); free(sc->app_num);
    }
    free(rjob.scratch);
    int ok = 1;
    size_t nreads = 0;
    for (uint32_t i = 0; i < nread; i++) {
        if (ok && rout[i].failed) { *err = rout[i].err; ok = 0; }
        ix->num_graph_txns += rout[i].graph_txns;
        nreads += rout[i].reads.len;
    }
#define EACH_READ(r, body) for (uint32_t ti_ = 0; ti_ < nread; ti_++) \
        for (size_t i_ = 0; i_ < rout[ti_].reads.len; i_++) { const ext_read *r = &rout[ti_].reads.data[i_]; body }
    EACH_READ(r, if (ok && !is_final[r->src_op]) ok = read_error(err, h, r->op, "observes an intermediate (overwritten) write");)
    if (!ok) {
        for (uint32_t i = 0; i < nread; i++) vec_free(rout[i].reads);
        free(rout); free(is_final); pg_index_free(ix); return 0;
    }
    ix->num_ext_reads = nreads;

    /* Bucket the external reads by key (counting sort). */
    uint32_t *rstart = xcalloc((size_t)nk + 1, sizeof *rstart);
    EACH_READ(r, rstart[h->op_key[r->op] + 1]++;)
    for (uint32_t k = 0; k < nk; k++) rstart[k + 1] += rstart[k];
    ext_read *byk = big_malloc((nreads ? nreads : 1) * sizeof *byk);
    {
        uint32_t *fill = xmalloc(((size_t)nk + 1) * sizeof *fill);
        memcpy(fill, rstart, ((size_t)nk + 1) * sizeof *fill);
        EACH_READ(r, byk[fill[h->op_key[r->op]]++] = *r;)
        free(fill);
    }
#undef EACH_READ
    for (uint32_t i = 0; i < nread; i++) vec_free(rout[i].reads);
    free(rout);

    /* Per key: writers, read-modify-write links, units — in key ranges on
     * the pool, each into arrays of its own, joined in key order (the
     * arrays of one pass over the keys). */
    ix->key_unit_start = xmalloc(((size_t)nk + 1) * sizeof *ix->key_unit_start);
    ix->key_wr_start = xmalloc(((size_t)nk + 1) * sizeof *ix->key_wr_start);
    ix->key_ue_start = xmalloc(((size_t)nk + 1) * sizeof *ix->key_ue_start);
    vec_u32 range; vec_init(range);
    uint32_t ntasks = key_ranges_by_reads(rstart, nk, threads, &range);
    key_out *out = xcalloc(ntasks, sizeof *out);
    key_job job = { ix, rstart, byk, is_final, range.data, out, threads, NULL };
    job.scratch = xcalloc(threads, sizeof *job.scratch);
    par_pool_run(threads > 1 ? pool : NULL, ntasks, key_task, &job);
    for (unsigned i = 0; i < threads; i++) free(job.scratch[i].local);
    free(job.scratch);
    join_key_outs(ix, out, ntasks, range.data);
    free(out);
    vec_free(range);
    if (ntasks > 1) big_release_free();          /* the ranges' arrays, mostly below the mapping threshold */

    /* Session order between consecutive participating transactions. */
    for (uint32_t s = 0; s < h->num_sessions && opts.session_order; s++) {
        uint32_t prev = UINT32_MAX;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!ix->in_graph[t]) continue;
            if (prev != UINT32_MAX) ix->num_base_fixed++;      /* an SO edge (pg_index_base_each) */
            prev = t;
        }
    }

    pg_index_chains(ix);                         /* the level's chains and clock (index_chains.c) */
    /* kept while checking: no doubling slack */
    vec_fit(ix->members); vec_fit(ix->readers); vec_fit(ix->base_wr); vec_fit(ix->base_unit);
    ix->units.data = xrealloc(ix->units.data, (ix->units.len + 1) * sizeof *ix->units.data);   /* the sentinel stays */
    ix->units.cap = ix->units.len + 1;
    free(rstart); free(byk); free(is_final);
    return 1;
}

void pg_index_release_base_after(pg_index *ix, unsigned levels) {
    atomic_store(&ix->base_copies, levels);
}

/* The base edges are the one part of an index that a level changes: the
 * levels sharing it are otherwise read-only (hence the const), and the
 * counter makes the last copy, on whatever thread, the one that frees. */
void pg_index_base_copied(const pg_index *ix) {
    pg_index *mix = (pg_index *)ix;
    if (atomic_load(&mix->base_copies) && atomic_fetch_sub(&mix->base_copies, 1) == 1) {
        vec_free(mix->base_wr); vec_free(mix->base_unit); vec_free(mix->base_tail);
        mix->base_released = 1;
    }
}

void pg_index_free(pg_index *ix) {
    free(ix->in_graph);
    free(ix->chain_sess); free(ix->chain_pos); free(ix->chain_len);
    free(ix->key_unit_start);
    vec_free(ix->units);
    vec_free(ix->members);
    vec_free(ix->readers);
    vec_free(ix->base_wr); vec_free(ix->base_unit); vec_free(ix->base_tail);
    free(ix->key_wr_start); free(ix->key_ue_start);
    memset(ix, 0, sizeof *ix);
}
