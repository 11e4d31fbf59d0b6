/* u64map.c — see u64map.h. */
#include "frontend/history/u64map.h"

#include <stdlib.h>

#include "vec.h"

void u64map_init(u64map *m) { m->keys = NULL; m->vals = NULL; m->used = NULL; m->cap = m->len = 0; }

void u64map_free(u64map *m) { free(m->keys); free(m->vals); free(m->used); u64map_init(m); }

uint32_t u64map_get(const u64map *m, uint64_t key) {
    if (!m->cap) return UINT32_MAX;
    size_t mask = m->cap - 1;
    for (size_t i = u64_mix(key) & mask;; i = (i + 1) & mask) {
        if (!m->used[i]) return UINT32_MAX;
        if (m->keys[i] == key) return m->vals[i];
    }
}

static void insert_new(u64map *m, uint64_t key, uint32_t val) {
    size_t mask = m->cap - 1, i = u64_mix(key) & mask;
    while (m->used[i]) i = (i + 1) & mask;
    m->used[i] = 1; m->keys[i] = key; m->vals[i] = val; m->len++;
}

static void grow(u64map *m) {
    u64map old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->len = 0;
    m->keys = xmalloc(m->cap * sizeof *m->keys);
    m->vals = xmalloc(m->cap * sizeof *m->vals);
    m->used = xcalloc(m->cap, 1);
    for (size_t i = 0; i < old.cap; i++)
        if (old.used[i]) insert_new(m, old.keys[i], old.vals[i]);
    u64map_free(&old);
}

uint32_t u64map_put(u64map *m, uint64_t key, uint32_t val) {
    uint32_t have = u64map_get(m, key);
    if (have != UINT32_MAX) return have;
    if ((m->len + 1) * 2 > m->cap) grow(m);
    insert_new(m, key, val);
    return val;
}
