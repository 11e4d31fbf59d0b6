/* known_aside.c — a level's base edges out of its known graph while the
 * engine solves (contract in check.h, pg_known_aside / pg_known_back).
 *
 * The known graph's first edges are the index's base edges, as pg_init
 * copied them (each at its place of pg_index_base_each's order); the
 * engine holds them all the same once they are loaded into it, and
 * nothing reads them again until the model is applied.  So they go for
 * the solve (at 1M transactions under SI: 4.9M edges, 59 MB at the
 * peak of the run) and are regenerated from the index afterwards, in the
 * same order (pg_index_base_fill, on the level's pool): the known graph,
 * its order and everything read off it are the same as if they had
 * stayed.  A hash of the edges, taken before they go, is compared with the
 * regenerated ones: a difference is an internal error (never a changed
 * answer). */
#include "frontend/checking/check.h"
#include "par.h"

#include <stdlib.h>

#include <string.h>

static uint64_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Order-sensitive: position i enters edge i's term.  The terms are
 * summed, so that ranges of edges are hashed on the pool and their sums
 * added: the same hash for every pool. */
static uint64_t edge_term(const pg_edge *e, uint64_t i) {
    return mix(((uint64_t)e->from << 32 | e->to) + 0x632be59bd9b4e019ULL * (e->meta + i));
}
#define HASH_CHUNK ((size_t)1 << 18)
typedef struct hash_job { const pg_edge *e; size_t n; uint64_t *sum; } hash_job;
static void hash_task(void *ctx, size_t task) {
    const hash_job *j = ctx;
    size_t lo = task * HASH_CHUNK, hi = lo + HASH_CHUNK < j->n ? lo + HASH_CHUNK : j->n;
    uint64_t s = 0;
    for (size_t i = lo; i < hi; i++) s += edge_term(&j->e[i], i);
    j->sum[task] = s;
}
static uint64_t edges_hash(const polygraph *g, const pg_edge *e, size_t n) {
    size_t ntasks = n / HASH_CHUNK + 1;
    hash_job j = { e, n, xcalloc(ntasks, sizeof *j.sum) };
    par_pool_run_prio(pg_threads_for(g, n) > 1 ? g->pool : NULL, g->prio, ntasks, hash_task, &j);
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    for (size_t i = 0; i < ntasks; i++) h += j.sum[i];
    free(j.sum);
    return h;
}

void pg_known_aside(polygraph *g, size_t initial, known_aside *a) {
    memset(a, 0, sizeof *a);
    const pg_index *ix = g->ix;
    /* only when the prefix is exactly the base edges, and the index keeps
     * them until this level's check ends (pg_index_release_base_after) */
    if (g->rw_lazy || ix->base_released || initial == 0 || initial != pg_index_num_base(ix) || g->known.len < initial)
        return;
    a->n = initial;
    a->hash = edges_hash(g, g->known.data, initial);
    size_t rest = g->known.len - initial;
    memmove(g->known.data, g->known.data + initial, rest * sizeof *g->known.data);
    g->known.len = rest;
    vec_fit(g->known);
    a->aside = 1;
}

/* Base edge i as the level's node edge, at its place. */
static void base_at(void *ctx, uint64_t i, const pg_edge *e) {
    polygraph *g = ctx;
    pg_edge x = { 0, 0, e->meta };
    pg_dep_nodes(g, PG_KIND(e->meta), e->from, e->to, &x.from, &x.to);
    g->known.data[i] = x;
}

int pg_known_back(polygraph *g, known_aside *a) {
    if (!a->aside) return 1;
    a->aside = 0;
    pg_edge_vec rest = g->known;
    vec_init(g->known);
    pg_known_reserve(g, a->n + rest.len);
    int same = pg_index_num_base(g->ix) == a->n;
    if (same) {
        pg_index_base_fill(g->ix, pg_threads_for(g, a->n) > 1 ? g->pool : NULL, g->prio, base_at, g);
        g->known.len = a->n;
        same = edges_hash(g, g->known.data, a->n) == a->hash;
    }
    pg_known_reserve(g, rest.len);
    if (rest.len) memcpy(g->known.data + g->known.len, rest.data, rest.len * sizeof *rest.data);
    g->known.len += rest.len;
    vec_free(rest);
    return same;
}
