/* u64map.c — see u64map.h. */
#include "frontend/history/u64map.h"

#include <stdlib.h>

#include "vec.h"

#define EMPTY UINT32_MAX

void u64map_init(u64map *m) { m->slots = NULL; m->cap = m->len = 0; m->dense = NULL; m->dense_cap = 0; }

void u64map_free(u64map *m) { free(m->slots); free(m->dense); u64map_init(m); }

uint32_t u64map_get(const u64map *m, uint64_t key) {
    if (key < m->dense_cap) return m->dense[key];
    if (!m->cap) return UINT32_MAX;
    size_t mask = m->cap - 1;
    for (size_t i = u64_mix(key) & mask;; i = (i + 1) & mask) {
        const u64map_slot *sl = &m->slots[i];
        if (sl->val == EMPTY) return UINT32_MAX;
        if (sl->key == key) return sl->val;
    }
}

static void insert_new(u64map *m, uint64_t key, uint32_t val) {
    size_t mask = m->cap - 1, i = u64_mix(key) & mask;
    while (m->slots[i].val != EMPTY) i = (i + 1) & mask;
    m->slots[i].key = key; m->slots[i].val = val;
}

/* The table at cap slots, with the entries of old whose keys are not in
 * the dense part. */
static void rehash(u64map *m, size_t cap) {
    u64map_slot *old = m->slots;
    size_t old_cap = m->cap;
    m->cap = cap;
    m->slots = xmalloc(cap * sizeof *m->slots);
    for (size_t i = 0; i < cap; i++) m->slots[i].val = EMPTY;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].val == EMPTY) continue;
        if (old[i].key < m->dense_cap) m->dense[old[i].key] = old[i].val;
        else insert_new(m, old[i].key, old[i].val);
    }
    free(old);
}

uint32_t u64map_put(u64map *m, uint64_t key, uint32_t val) {
    uint32_t have = u64map_get(m, key);
    if (have != UINT32_MAX) return have;
    if (val == EMPTY) return UINT32_MAX;          /* not storable (see u64map.h) */
    m->len++;
    if (key >= m->dense_cap && key < 4 * (uint64_t)m->len + 60) {
        /* grow the dense part past key (at least doubling), and move the
         * table's keys that now fall below it */
        size_t cap = m->dense_cap ? 2 * m->dense_cap : 64;
        while (cap <= key) cap *= 2;
        m->dense = xrealloc(m->dense, cap * sizeof *m->dense);
        for (size_t i = m->dense_cap; i < cap; i++) m->dense[i] = EMPTY;
        m->dense_cap = cap;
        if (m->cap) rehash(m, m->cap);
    }
    if (key < m->dense_cap) { m->dense[key] = val; return val; }
    if (m->len * 2 > m->cap) rehash(m, m->cap ? 2 * m->cap : 64);   /* len: an upper bound of the table's */
    insert_new(m, key, val);
    return val;
}
