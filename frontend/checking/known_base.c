/* known_base.c — the index's base edges, generated from its units in their
 * order (contract in polygraph.h: pg_index_base_each, pg_index_base_fill;
 * the order: per key its WR edges by reader, then the edges inside its
 * units; then SO per session; then base_tail).
 *
 * pg_index_base_fill gives the same edges with their places in that
 * order, from tasks on a pool: the order is cut into parts (ranges of
 * keys of about equal numbers of units, ranges of sessions of about equal
 * numbers of transactions, the tail), each part's edges are counted, the
 * counts summed into each part's first place, and each part then
 * generated on its own.  Every edge gets the place pg_index_base_each
 * would give it, whatever the thread count. */
#include "frontend/checking/polygraph.h"

#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "par.h"

/* A key's WR edges by reader: (reader, writer) pairs, sorted stably by
 * reader (a key's readers are distinct: one external read a transaction
 * a key).  Runs of 16 by insertion, then merged bottom-up through tmp
 * (room for n): no comparison through a pointer, as qsort's. */
typedef struct rw_pair { uint32_t reader, writer; } rw_pair;
#define PAIR_RUN 16
static void sort_pairs(rw_pair *p, size_t n, rw_pair *tmp) {
    for (size_t lo = 0; lo < n; lo += PAIR_RUN) {
        size_t hi = lo + PAIR_RUN < n ? lo + PAIR_RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            rw_pair x = p[i];
            size_t j = i;
            for (; j > lo && p[j - 1].reader > x.reader; j--) p[j] = p[j - 1];
            p[j] = x;
        }
    }
    rw_pair *a = p, *b = tmp;
    for (size_t w = PAIR_RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, k = lo;
            while (i < mid && j < hi) b[k++] = a[j].reader < a[i].reader ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        rw_pair *t = a; a = b; b = t;
    }
    if (a != p) memcpy(p, a, n * sizeof *p);
}

/* Where the edges go: fn(ctx, e) in order, or at(ctx, place, e). */
typedef struct base_sink {
    pg_base_fn fn;
    pg_base_at_fn at;
    void *ctx;
    uint64_t next;               /* the next edge's place */
} base_sink;
static inline void emit(base_sink *s, const pg_edge *e) {
    if (s->at) s->at(s->ctx, s->next, e);
    else s->fn(s->ctx, e);
    s->next++;
}

typedef struct base_scratch { VEC(rw_pair) p, tmp; } base_scratch;

/* Key k's edges: its WR edges by reader, then those inside its units. */
static void key_edges(const pg_index *ix, uint32_t k, base_scratch *sc, base_sink *s) {
    vec_clear(sc->p);
    for (uint32_t u = ix->key_unit_start[k]; u < ix->key_unit_start[k + 1]; u++) {
        const pg_unit *U = &ix->units.data[u];
        if (U->last == 0) continue;                  /* reads of INIT: no edge */
        for (uint32_t j = U->rd_first; j < U->rd_first + pg_unit_rd_num(U); j++) {
            rw_pair x = { ix->readers.data[j], U->last };
            vec_push(sc->p, x);
        }
    }
    for (uint32_t i = ix->key_wr_start[k]; i < ix->key_wr_start[k + 1]; i++) {
        rw_pair x = { ix->base_wr.data[2 * i], ix->base_wr.data[2 * i + 1] };
        vec_push(sc->p, x);
    }
    vec_reserve(sc->tmp, sc->p.len);
    sort_pairs(sc->p.data, sc->p.len, sc->tmp.data);
    for (size_t i = 0; i < sc->p.len; i++) {
        pg_edge e = { sc->p.data[i].writer, sc->p.data[i].reader, PG_META(DEP_WR, k) };
        emit(s, &e);
    }
    for (uint32_t i = ix->key_ue_start[k]; i < ix->key_ue_start[k + 1]; i++) emit(s, &ix->base_unit.data[i]);
}

/* Keys [k0, k1)'s edges, counted without generating them. */
static uint64_t keys_count(const pg_index *ix, uint32_t k0, uint32_t k1) {
    uint64_t n = (uint64_t)(ix->key_wr_start[k1] - ix->key_wr_start[k0]) + (ix->key_ue_start[k1] - ix->key_ue_start[k0]);
    for (uint32_t u = ix->key_unit_start[k0]; u < ix->key_unit_start[k1]; u++)
        if (ix->units.data[u].last != 0) n += pg_unit_rd_num(&ix->units.data[u]);
    return n;
}

/* Session order between consecutive participants of sessions [s0, s1). */
static uint64_t sessions_edges(const pg_index *ix, uint32_t s0, uint32_t s1, base_sink *s) {
    const history *h = ix->h;
    uint64_t n = 0;
    if (!ix->opts.session_order) return 0;
    for (uint32_t c = s0; c < s1; c++) {
        uint32_t prev = UINT32_MAX;
        for (uint32_t i = 0; i < h->sessions[c].num_txns; i++) {
            uint32_t t = h->sessions[c].first_txn + i;
            if (!ix->in_graph[t]) continue;
            if (prev != UINT32_MAX) {
                n++;
                if (s) { pg_edge e = { prev, t, PG_META(DEP_SO, HISTORY_NONE) }; emit(s, &e); }
            }
            prev = t;
        }
    }
    return n;
}

static void check_released(const pg_index *ix) {
    if (ix->base_released) internal_error("isocheck", "pg_index_base_each after the base edges were released");
}

/* Every base edge, in order, on the caller's thread. */
static void all_edges(const pg_index *ix, base_sink *s) {
    check_released(ix);
    base_scratch sc; memset(&sc, 0, sizeof sc);
    for (uint32_t k = 0; k < ix->num_keys; k++) key_edges(ix, k, &sc, s);
    vec_free(sc.p); vec_free(sc.tmp);
    sessions_edges(ix, 0, ix->h->num_sessions, s);
    vec_foreach(const pg_edge, e, ix->base_tail) emit(s, e);
}

void pg_index_base_each(const pg_index *ix, pg_base_fn fn, void *ctx) {
    base_sink s = { fn, NULL, ctx, 0 };
    all_edges(ix, &s);
}

/* ---- in parts, on a pool ------------------------------------------------ */

enum { PART_KEYS, PART_SESSIONS, PART_TAIL };
typedef struct base_part { int kind; uint32_t lo, hi; uint64_t first, count; } base_part;
typedef VEC(base_part) base_part_vec;
typedef struct base_job {
    const pg_index *ix;
    base_part *part;
    pg_base_at_fn at;
    void *ctx;
} base_job;

static void count_task(void *ctx, size_t i) {
    const base_job *j = ctx;
    base_part *p = &j->part[i];
    if (p->kind == PART_KEYS) p->count = keys_count(j->ix, p->lo, p->hi);
    else if (p->kind == PART_SESSIONS) p->count = sessions_edges(j->ix, p->lo, p->hi, NULL);
    else p->count = j->ix->base_tail.len;
}

static void fill_task(void *ctx, size_t i) {
    const base_job *j = ctx;
    const base_part *p = &j->part[i];
    base_sink s = { NULL, j->at, j->ctx, p->first };
    if (p->kind == PART_KEYS) {
        base_scratch sc; memset(&sc, 0, sizeof sc);
        for (uint32_t k = p->lo; k < p->hi; k++) key_edges(j->ix, k, &sc, &s);
        vec_free(sc.p); vec_free(sc.tmp);
    } else if (p->kind == PART_SESSIONS) sessions_edges(j->ix, p->lo, p->hi, &s);
    else vec_foreach(const pg_edge, e, j->ix->base_tail) emit(&s, e);
    if (s.next != p->first + p->count) internal_error("isocheck", "the base edges of a part were miscounted");
}

/* The parts: key ranges (pg_key_ranges), session ranges of about equal
 * numbers of transactions, a few a thread, then the tail. */
static void base_parts(const pg_index *ix, unsigned threads, base_part_vec *parts) {
    vec_u32 range; vec_init(range);
    uint32_t nk = pg_key_ranges(ix, threads, &range);
    for (uint32_t i = 0; i < nk; i++) {
        base_part p = { PART_KEYS, range.data[i], range.data[i + 1], 0, 0 };
        vec_push(*parts, p);
    }
    vec_free(range);
    const history *h = ix->h;
    uint64_t per = (uint64_t)h->num_txns / (4 * (uint64_t)threads) + 1, acc = 0;
    uint32_t lo = 0;
    for (uint32_t c = 0; c < h->num_sessions; c++) {
        acc += h->sessions[c].num_txns;
        if (acc >= per || c + 1 == h->num_sessions) {
            base_part p = { PART_SESSIONS, lo, c + 1, 0, 0 };
            vec_push(*parts, p);
            lo = c + 1;
            acc = 0;
        }
    }
    base_part t = { PART_TAIL, 0, 0, 0, 0 };
    vec_push(*parts, t);
}

void pg_index_base_fill(const pg_index *ix, struct par_pool *pool, int prio, pg_base_at_fn at, void *ctx) {
    unsigned threads = par_pool_threads(pool);
    if (threads <= 1 || pg_index_num_base(ix) < pg_par_min_work) {
        base_sink s = { NULL, at, ctx, 0 };
        all_edges(ix, &s);
        return;
    }
    check_released(ix);
    base_part_vec parts; vec_init(parts);
    base_parts(ix, threads, &parts);
    base_job job = { ix, parts.data, at, ctx };
    par_pool_run_prio(pool, prio, parts.len, count_task, &job);
    uint64_t first = 0;
    for (size_t i = 0; i < parts.len; i++) { parts.data[i].first = first; first += parts.data[i].count; }
    if (first != pg_index_num_base(ix)) internal_error("isocheck", "the base edges were miscounted");
    par_pool_run_prio(pool, prio, parts.len, fill_task, &job);
    vec_free(parts);
}
