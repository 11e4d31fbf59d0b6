/* version_read.c — a level's version order read off its known graph's
 * topological order (check.h, pg_version_order_read). */
#include "frontend/checking/check.h"
#include "par.h"

#include <stdlib.h>

typedef struct unit_pos { uint32_t pos, unit; } unit_pos;
static int cmp_unit_pos(const void *a, const void *b) {
    const unit_pos *x = a, *y = b;
    return x->pos < y->pos ? -1 : x->pos > y->pos ? 1 : (x->unit > y->unit) - (x->unit < y->unit);
}

/* Version order read off g->topo_pos: per key INIT's unit, then the other
 * units by the position of their head, each unit's writers consecutively.
 * Keys in ranges on the level's pool: each key's slice is known from its
 * units' sizes (a first pass), so the ranges write disjoint slices and the
 * order is the same for every pool. */
typedef struct vo_job {
    const polygraph *g;
    version_order *vo;
    const uint32_t *range;
    int fill;                    /* 0: count each key's writers into start[k + 1]; 1: place them */
} vo_job;

static void vo_task(void *ctx, size_t task) {
    const vo_job *j = ctx;
    const polygraph *g = j->g;
    const pg_index *ix = g->ix;
    version_order *vo = j->vo;
    VEC(unit_pos) tmp; vec_init(tmp);
    for (uint32_t k = j->range[task]; k < j->range[task + 1]; k++) {
        uint32_t s = ix->key_unit_start[k], e = ix->key_unit_start[k + 1];
        if (!j->fill) {
            uint32_t n = 0;
            for (uint32_t u = s; u < e; u++) n += pg_unit_len(&ix->units.data[u]);
            vo->start[k + 1] = n;
            continue;
        }
        vec_clear(tmp);
        int sorted = 1;
        for (uint32_t u = s + 1; u < e; u++) {
            if (u + 8 < e) __builtin_prefetch(&g->topo_pos[pg_node_t(g, ix->units.data[u + 8].head)]);   /* at random */
            unit_pos p = { g->topo_pos[pg_node_t(g, ix->units.data[u].head)], u };
            sorted &= !tmp.len || cmp_unit_pos(&vec_last(tmp), &p) < 0;
            vec_push(tmp, p);
        }
        if (!sorted) qsort(tmp.data, tmp.len, sizeof *tmp.data, cmp_unit_pos);   /* (pos, unit) pairs are distinct */
        uint32_t *out = vo->txns.data + vo->start[k];
        for (size_t i = 0; i <= tmp.len; i++) {
            const pg_unit *un = &ix->units.data[i == 0 ? s : tmp.data[i - 1].unit];
            for (uint32_t m = 0; m < pg_unit_len(un); m++) *out++ = ix->members.data[un->m_first + m];
        }
    }
    vec_free(tmp);
}

void pg_version_order_read(const polygraph *g, version_order *vo) {
    const pg_index *ix = g->ix;
    version_order_free(vo);
    vo->num_keys = ix->num_keys;
    vo->start = xmalloc(((size_t)ix->num_keys + 1) * sizeof *vo->start);
    vec_init(vo->txns);
    vec_u32 range; vec_init(range);
    unsigned threads = pg_threads_for(g, ix->units.len);
    uint32_t ntasks = pg_key_ranges(ix, threads, &range);
    par_pool *pool = threads > 1 ? g->pool : NULL;
    vo_job job = { g, vo, range.data, 0 };
    vo->start[0] = 0;
    par_pool_run_prio(pool, g->prio, ntasks, vo_task, &job);
    for (uint32_t k = 0; k < ix->num_keys; k++) vo->start[k + 1] += vo->start[k];
    vec_reserve(vo->txns, vo->start[ix->num_keys]);
    vo->txns.len = vo->start[ix->num_keys];
    job.fill = 1;
    par_pool_run_prio(pool, g->prio, ntasks, vo_task, &job);
    vec_free(range);
}
