/* strtab.c — see strtab.h. */
#include "frontend/strtab.h"

#include <string.h>

void strtab_init(strtab *t) {
    memset(t, 0, sizeof *t);
}

void strtab_free(strtab *t) {
    vec_free(t->pool);
    vec_free(t->off);
    vec_free(t->len);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint64_t hash(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;          /* FNV-1a */
    for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ULL; }
    return h ^ (h >> 29);
}

static void place(strtab *t, uint32_t id) {
    size_t mask = t->cap - 1;
    size_t i = hash(strtab_text(t, id), t->len.data[id]) & mask;
    while (t->slots[i] != UINT32_MAX) i = (i + 1) & mask;
    t->slots[i] = id;
}

uint32_t strtab_intern(strtab *t, const char *s, size_t len, int *added) {
    if (t->cap) {
        size_t mask = t->cap - 1;
        for (size_t i = hash(s, len) & mask; t->slots[i] != UINT32_MAX; i = (i + 1) & mask) {
            uint32_t id = t->slots[i];
            if (t->len.data[id] == len && !memcmp(strtab_text(t, id), s, len)) {
                if (added) *added = 0;
                return id;
            }
        }
    }
    if (t->off.len >= UINT32_MAX - 1 || t->pool.len + len + 1 > UINT32_MAX) xalloc_fail(t->pool.len + len + 1);
    uint32_t id = (uint32_t)t->off.len;
    vec_push(t->off, (uint32_t)t->pool.len);
    vec_push(t->len, (uint32_t)len);
    vec_reserve(t->pool, t->pool.len + len + 1);
    if (len) memcpy(t->pool.data + t->pool.len, s, len);
    t->pool.len += len;
    t->pool.data[t->pool.len++] = 0;
    if ((t->off.len) * 2 > t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        free(t->slots);
        t->slots = xmalloc(t->cap * sizeof *t->slots);
        memset(t->slots, 0xff, t->cap * sizeof *t->slots);
        for (uint32_t i = 0; i < t->off.len; i++) place(t, i);
    } else place(t, id);
    if (added) *added = 1;
    return id;
}
