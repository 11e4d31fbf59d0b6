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

typedef struct ext_read { uint32_t txn, src_txn, op; } ext_read;   /* its key: h->op_key[op]; src_txn: the writer's */

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
    const uint32_t ahead = HISTORY_PREFETCH_AHEAD, half = ahead / 2, region = HISTORY_PREFETCH_REGION;
    if (history_has_read_sources(h)) { history_read_source_prefetch(h, op + half); return; }   /* no lookups (read_sources.c) */
    if (op + region < h->num_ops) history_writer_prefetch_region(h, h->op_key[op + region]);
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
 * 8-byte record a key and a thread (at most `threads` tasks run at once),
 * stamped with transaction ids, which the ranges do not share: no reset
 * between tasks.  One record, not one array per field, so that an op
 * touches one cache line of them (the keys are random, the records far
 * past the caches at 22M).  Within transaction txn: `apps` counts its own
 * appends to the key so far, or is KEY_SEEN once the key's external read
 * is past (a read seen, or a register write hiding the snapshot). */
typedef struct key_rec { uint32_t txn, apps; } key_rec;
#define KEY_SEEN UINT32_MAX
typedef struct read_scratch { key_rec *rec; atomic_int busy; } read_scratch;
typedef VEC(ext_read) ext_read_vec;
typedef struct read_out {
    ext_read_vec *reads;         /* one list a key part (read_job.part_lo) */
    uint64_t graph_txns;
    int failed; ic_error err;
    uint32_t inter_op;           /* the range's first read of an overwritten write (HISTORY_NONE: none) */
} read_out;
typedef struct read_job {
    const pg_index *ix;
    uint32_t ntasks;
    read_out *out;
    read_scratch *scratch;
    unsigned threads;
    uint32_t nparts;
    const uint32_t *part_lo;     /* key part p is keys [part_lo[p], part_lo[p + 1]) */
    int all_in;                  /* every transaction takes part: a writer's in_graph byte (a cache miss a read) not read */
} read_job;

/* Final writes are the ones their own transaction does not overwrite
 * (history.h's OP_OVERWRITTEN: a transaction installs only its last write
 * of a key).  External reads: the first read per key that shows the
 * snapshot — a register read before an own write, or any list read, whose
 * external prefix (without the own appends so far) is what it read from
 * the snapshot.  INT makes the later reads agree with it.  A range stops
 * at its first read of nobody's, its own later or an aborted write; a
 * read of an overwritten (intermediate) write is only noted, as the
 * first of those is reported only when no range has one of the others. */
static void read_task(void *ctx, size_t task) {
    read_job *jb = ctx;
    const pg_index *ix = jb->ix;
    const history *h = ix->h;
    read_out *o = &jb->out[task];
    uint32_t nk = h->num_keys, nt = h->num_txns, nops = h->num_ops;
    o->reads = xcalloc(jb->nparts, sizeof *o->reads);
    uint32_t lo = (uint32_t)((uint64_t)nt * task / jb->ntasks), hi = (uint32_t)((uint64_t)nt * (task + 1) / jb->ntasks);
    read_scratch *sc = NULL;
    for (unsigned i = 0; !sc; i = (i + 1) % jb->threads)
        if (!atomic_exchange(&jb->scratch[i].busy, 1)) sc = &jb->scratch[i];
    if (!sc->rec) {
        sc->rec = big_malloc((size_t)(nk ? nk : 1) * sizeof *sc->rec);
        for (uint32_t k = 0; k < nk; k++) sc->rec[k] = (key_rec){ UINT32_MAX, 0 };
    }
    key_rec *rec = sc->rec;
    ic_error_clear(&o->err);
    o->inter_op = HISTORY_NONE;
    int ok = 1;
    for (uint32_t t = lo; t < hi && ok; t++) {
        if (!ix->in_graph[t]) continue;
        const history_txn *tx = &h->txns[t];
        o->graph_txns++;
        for (uint32_t i = 0; i < tx->num_ops && ok; i++) {
            uint32_t op = tx->first_op + i, k = h->op_key[op];
            prefetch_sources(h, op);
            if (op + HISTORY_PREFETCH_AHEAD / 2 < nops) HISTORY_PREFETCH(&rec[h->op_key[op + HISTORY_PREFETCH_AHEAD / 2]]);
            key_rec *kr = &rec[k];
            if (kr->txn != t) { kr->txn = t; kr->apps = 0; }
            if (history_op_is_write(h, op)) {
                if (history_op_kind(h, op) == OP_WRITE) kr->apps = KEY_SEEN;          /* hides the snapshot */
                else if (kr->apps != KEY_SEEN) kr->apps++;
                continue;
            }
            if (!history_op_is_read(h, op) || kr->apps == KEY_SEEN) continue;
            uint32_t own = kr->apps;
            kr->apps = KEY_SEEN;
            if (history_op_ambiguous(h, op)) continue;      /* its writer is a choice: choice.c */
            uint32_t src = history_snapshot_source(h, op, own);
            if (src == HISTORY_NONE) { ok = read_error(&o->err, h, op, "observes a value nobody wrote"); break; }
            uint32_t w = history_op_txn(h, src);
            if (w == t) { ok = read_error(&o->err, h, op, "observes the transaction's own later write"); break; }
            if (!jb->all_in && !ix->in_graph[w]) {
                ok = read_error(&o->err, h, op, "observes a write of an aborted transaction");
                break;
            }
            if (history_op_overwritten(h, src) && o->inter_op == HISTORY_NONE) o->inter_op = op;
            ext_read r = { t, w, op };
            uint32_t p = 0;
            while (k >= jb->part_lo[p + 1]) p++;
            big_vec_push(o->reads[p], r);
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

typedef struct key_job {
    pg_index *ix;
    const uint32_t *rstart;
    const ext_read *byk;
    const uint32_t *range;
    key_out *out;
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
    vec_u32 wtx, succ, pred, rcount, rfirst, rlist, fill, visited;
} key_work;

/* The participants' final writes of key k into w->wtx, INIT first.  A
 * key's writes are listed in op order, so their transactions ascend: wtx
 * is sorted, and a writer's local index is found by a search in it
 * (local_of) instead of in an array over all transactions (4 bytes a
 * transaction a thread, touched at random). */
static void key_writers(const history *h, const uint8_t *in_graph, uint32_t k, key_work *w) {
    vec_clear(w->wtx);
    vec_push(w->wtx, 0u);                   /* INIT writes every key first (its op k) */
    for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
        uint32_t op = h->key_writes[i], t = history_op_txn(h, op);
        if (!in_graph[t] || history_op_overwritten(h, op) || t <= vec_last(w->wtx)) continue;
        vec_push(w->wtx, t);
    }
}

/* Transaction t's local index among the key's writers, or UINT32_MAX. */
static inline uint32_t local_of(const key_work *w, uint32_t t) {
    const uint32_t *a = w->wtx.data;
    uint32_t lo = 0, n = (uint32_t)w->wtx.len;       /* a[0 .. lo + n) holds t if any */
    while (n > 1) {
        uint32_t half = n / 2;
        lo = a[lo + half] <= t ? lo + half : lo;
        n -= half;
    }
    return a[lo] == t ? lo : UINT32_MAX;
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
        uint32_t x = local_of(w, history_op_txn(h, wop));
        if (x == UINT32_MAX) break;         /* not a participant's write */
        if (x == prev) continue;            /* several appends of one txn */
        if (pred[x] != UINT32_MAX || succ[prev] != UINT32_MAX || x == 0) break;
        succ[prev] = x; pred[x] = prev; o->num_links++;
        prev = x;
    }
}

/* The readers of every version of key k (WR edges, read-modify-write
 * links), then each version's list of readers (rfirst, rlist). */
static void key_readers(const ext_read *first, const ext_read *end, key_work *w,
                        key_out *o, int rmw_links) {
    uint32_t nw = (uint32_t)w->wtx.len;
    uint32_t *succ = w->succ.data, *pred = w->pred.data, *rcount = w->rcount.data;
    for (const ext_read *r = first; r < end; r++) {
        uint32_t x = local_of(w, r->src_txn);
        rcount[x]++;
        uint32_t lt = local_of(w, r->txn);
        if (rmw_links && lt != UINT32_MAX && lt != x && succ[x] == UINT32_MAX && pred[lt] == UINT32_MAX) {
            succ[x] = lt; pred[lt] = x; o->num_links++;
        }
        if (r->src_txn != 0) o->num_wr++;    /* a WR edge (pg_index_base_each) */
    }
    w->rfirst.data[0] = 0;
    for (uint32_t i = 0; i < nw; i++) w->rfirst.data[i + 1] = w->rfirst.data[i] + rcount[i];
    vec_resize(w->rlist, w->rfirst.data[nw]);
    vec_resize(w->fill, nw);
    for (uint32_t i = 0; i < nw; i++) w->fill.data[i] = w->rfirst.data[i];
    for (const ext_read *r = first; r < end; r++) {
        uint32_t x = local_of(w, r->src_txn);
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
    key_work w;
    vec_init(w.wtx); vec_init(w.succ); vec_init(w.pred); vec_init(w.rcount); vec_init(w.rfirst); vec_init(w.rlist);
    vec_init(w.fill); vec_init(w.visited);
    for (uint32_t k = jb->range[task]; k < jb->range[task + 1]; k++) {
        ix->key_unit_start[k] = (uint32_t)o->units.len;         /* in the range's own arrays until joined */
        ix->key_wr_start[k] = (uint32_t)(o->base_wr.len / 2);
        ix->key_ue_start[k] = (uint32_t)o->base.len;
        key_writers(h, ix->in_graph, k, &w);
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
        key_readers(first, end, &w, o, ix->opts.rmw_links);
        key_units(k, &w, o);
    }
    vec_free(w.wtx); vec_free(w.succ); vec_free(w.pred); vec_free(w.rcount); vec_free(w.rfirst); vec_free(w.rlist);
    vec_free(w.fill); vec_free(w.visited);
}

/* The key ranges' arrays joined in key order, their offsets shifted; the
 * sentinel unit and the per-key starts' ends.  The units are written into
 * `spent` (a block no longer needed, resized), whose pages are in memory
 * already: fewer fresh pages for the kernel to clear. */
static void join_key_outs(pg_index *ix, key_out *out, uint32_t ntasks, const uint32_t *range, void *spent) {
    uint32_t nk = ix->num_keys;
    size_t nu = 0, nm = 0, nr = 0, nb = 0, nx = 0;
    for (uint32_t i = 0; i < ntasks; i++) {
        nu += out[i].units.len; nm += out[i].members.len; nr += out[i].readers.len; nb += out[i].base.len;
        nx += out[i].base_wr.len;
    }
    ix->units.data = big_realloc(spent, (nu + 1) * sizeof *ix->units.data);    /* pages written already */
    ix->units.cap = nu + 1;
    big_vec_reserve(ix->members, nm); big_vec_reserve(ix->readers, nr);   /* + sentinel */
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

/* The external reads bucketed by key (a counting sort into byk, rstart the
 * buckets' starts), one key part a task: a part's reads are its own lists
 * of every read range, taken in range order, so each key's reads keep the
 * order of one pass (by reader); the parts' starts in byk follow from the
 * lists' lengths, so no task waits for another. */
typedef struct bucket_job {
    const history *h;
    const read_out *rout;
    uint32_t nread;
    const uint32_t *part_lo;
    const size_t *part_base;     /* the part's first slot in byk */
    uint32_t *rstart, *fill;
    ext_read *byk;
} bucket_job;

static void bucket_task(void *ctx, size_t p) {
    bucket_job *jb = ctx;
    const history *h = jb->h;
    uint32_t lo = jb->part_lo[p], hi = jb->part_lo[p + 1];
    uint32_t *rstart = jb->rstart, *fill = jb->fill;     /* this part writes rstart[lo + 1 .. hi], fill[lo .. hi) */
    for (uint32_t i = 0; i < jb->nread; i++)
        vec_foreach(const ext_read, r, jb->rout[i].reads[p]) rstart[h->op_key[r->op] + 1]++;
    uint32_t at = (uint32_t)jb->part_base[p];
    for (uint32_t k = lo; k < hi; k++) { fill[k] = at; at += rstart[k + 1]; rstart[k + 1] = at; }
    for (uint32_t i = 0; i < jb->nread; i++)
        vec_foreach(const ext_read, r, jb->rout[i].reads[p]) jb->byk[fill[h->op_key[r->op]]++] = *r;
}

static ext_read *bucket_reads(const history *h, read_out *rout, uint32_t nread, const uint32_t *part_lo, uint32_t nparts,
                              struct par_pool *pool, uint32_t **rstart_out) {
    uint32_t nk = h->num_keys;
    size_t *base = xcalloc((size_t)nparts + 1, sizeof *base);
    for (uint32_t p = 0; p < nparts; p++) {
        base[p + 1] = base[p];
        for (uint32_t i = 0; i < nread; i++) base[p + 1] += rout[i].reads[p].len;
    }
    bucket_job jb = { h, rout, nread, part_lo, base, xcalloc((size_t)nk + 1, sizeof(uint32_t)),
                      xmalloc(((size_t)nk + 1) * sizeof(uint32_t)), big_malloc((base[nparts] ? base[nparts] : 1) * sizeof(ext_read)) };
    par_pool_run(nparts > 1 ? pool : NULL, nparts, bucket_task, &jb);
    free(jb.fill); free(base);
    *rstart_out = jb.rstart;
    return jb.byk;
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
    unsigned threads = par_pool_threads(pool);

    /* External reads, in transaction ranges on the pool (read_task); a
     * range stops at its first bad read, and the first range with one
     * gives the error one pass would. */
    uint32_t nread = threads > 1 ? 8 * threads : 1;
    if (nread > nt) nread = nt ? nt : 1;
    read_out *rout = xcalloc(nread, sizeof *rout);
    /* key parts of about equal numbers of writes, one a thread, for the
     * buckets (few parts: each range's list of a part stays large enough
     * for a mapping of its own, given back when freed) */
    uint32_t nparts = threads > 1 ? threads : 1, *part_lo = xmalloc(((size_t)nparts + 1) * sizeof *part_lo);
    for (uint32_t p = 0, k = 0; p <= nparts; p++) {
        uint64_t want = (uint64_t)h->key_write_start[nk] * p / nparts;
        while (k < nk && h->key_write_start[k] < want) k++;
        part_lo[p] = p == nparts ? nk : k;
    }
    part_lo[0] = 0;
    read_job rjob = { ix, nread, rout, xcalloc(threads, sizeof *rjob.scratch), threads, nparts, part_lo,
                      !memchr(ix->in_graph, 0, nt) };
    par_pool_run(threads > 1 ? pool : NULL, nread, read_task, &rjob);
    for (unsigned i = 0; i < threads; i++) {
        read_scratch *sc = &rjob.scratch[i];
        free(sc->rec);
    }
    free(rjob.scratch);
    int ok = 1;
    size_t nreads = 0;
    for (uint32_t i = 0; i < nread; i++) {
        if (ok && rout[i].failed) { *err = rout[i].err; ok = 0; }
        ix->num_graph_txns += rout[i].graph_txns;
        for (uint32_t p = 0; p < nparts; p++) nreads += rout[i].reads[p].len;
    }
    for (uint32_t i = 0; i < nread && ok; i++)          /* the first read of an intermediate write, as one pass would */
        if (rout[i].inter_op != HISTORY_NONE) ok = read_error(err, h, rout[i].inter_op, "observes an intermediate (overwritten) write");
    uint32_t *rstart = NULL;
    ext_read *byk = ok ? bucket_reads(h, rout, nread, part_lo, nparts, pool, &rstart) : NULL;
    for (uint32_t i = 0; i < nread; i++) {
        for (uint32_t p = 0; p < nparts && rout[i].reads; p++) vec_free(rout[i].reads[p]);
        free(rout[i].reads);
    }
    free(rout); free(part_lo);
    if (!ok) { pg_index_free(ix); return 0; }
    ix->num_ext_reads = nreads;

    /* Per key: writers, read-modify-write links, units — in key ranges on
     * the pool, each into arrays of its own, joined in key order (the
     * arrays of one pass over the keys). */
    ix->key_unit_start = xmalloc(((size_t)nk + 1) * sizeof *ix->key_unit_start);
    ix->key_wr_start = xmalloc(((size_t)nk + 1) * sizeof *ix->key_wr_start);
    ix->key_ue_start = xmalloc(((size_t)nk + 1) * sizeof *ix->key_ue_start);
    vec_u32 range; vec_init(range);
    uint32_t ntasks = key_ranges_by_reads(rstart, nk, threads, &range);
    key_out *out = xcalloc(ntasks, sizeof *out);
    key_job job = { ix, rstart, byk, range.data, out };
    par_pool_run(threads > 1 ? pool : NULL, ntasks, key_task, &job);
    join_key_outs(ix, out, ntasks, range.data, byk);      /* byk is spent: the units take its pages */
    byk = NULL;
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
    free(rstart);
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
