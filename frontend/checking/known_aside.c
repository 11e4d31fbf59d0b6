/* known_aside.c — a level's base edges out of its known graph while the
 * engine solves (contract in check.h, pg_known_aside / pg_known_back).
 *
 * The known graph's first edges are the index's base edges, as pg_init
 * copied them (pg_index_base_each, in its order, through pg_add_dep); the
 * engine holds them all the same once they are loaded into it, and
 * nothing reads them again until the model is applied.  So they go for
 * the solve (at 1M transactions under SI: 4.9M edges, 59 MB at the
 * peak of the run) and are regenerated from the index afterwards, in the
 * same order: the known graph, its order and everything read off it are
 * the same as if they had stayed.  A hash of the edges, taken before they
 * go, is compared with the regenerated ones: a difference is an internal
 * error (never a changed answer). */
#include "frontend/checking/check.h"

#include <string.h>

static uint64_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Order-sensitive: position i enters every term. */
static uint64_t edges_hash(const pg_edge *e, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ mix(((uint64_t)e[i].from << 32 | e[i].to) + 0x632be59bd9b4e019ULL * (e[i].meta + (uint64_t)i))) *
            0x100000001b3ULL;
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
    a->hash = edges_hash(g->known.data, initial);
    size_t rest = g->known.len - initial;
    memmove(g->known.data, g->known.data + initial, rest * sizeof *g->known.data);
    g->known.len = rest;
    vec_fit(g->known);
    a->aside = 1;
}

static void add_base(void *ctx, const pg_edge *e) {
    pg_add_dep(ctx, PG_KIND(e->meta), PG_KEY(e->meta), e->from, e->to);
}

int pg_known_back(polygraph *g, known_aside *a) {
    if (!a->aside) return 1;
    a->aside = 0;
    pg_edge_vec rest = g->known;
    vec_init(g->known);
    pg_known_reserve(g, a->n + rest.len);
    pg_index_base_each(g->ix, add_base, g);
    int same = g->known.len == a->n && edges_hash(g->known.data, a->n) == a->hash;
    pg_known_reserve(g, rest.len);
    if (rest.len) memcpy(g->known.data + g->known.len, rest.data, rest.len * sizeof *rest.data);
    g->known.len += rest.len;
    vec_free(rest);
    return same;
}
