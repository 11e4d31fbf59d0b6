/* u64map.h — open-addressing hash map from 64-bit keys to 32-bit values.
 *
 * One flat table of slots (no per-entry allocation), linear probing, grows
 * at load 1/2.  Used for external ids -> dense ids (keys, sessions,
 * transactions).  A slot holds key and value together, so a probe is one
 * cache line: loading a history looks a key up per operation, and with the
 * keys, values and marks in three arrays that cost three cache misses a
 * lookup once the map outgrew the caches (half of `isocheck stats`'s time
 * at 4M transactions).  Values are dense ids: UINT32_MAX marks an empty
 * slot and cannot be stored. */
#ifndef ISOCHECK_U64MAP_H
#define ISOCHECK_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct u64map_slot { uint64_t key; uint32_t val; } u64map_slot;
typedef struct u64map {
    u64map_slot *slots;
    size_t    cap, len;      /* cap is 0 or a power of two; len counts both parts */
    /* Keys below dense_cap live in dense[key] instead (UINT32_MAX: none):
     * ids that are small integers (most formats' keys and transactions)
     * then cost 4 bytes and no hashing, and the array stays in the caches
     * far longer than the table would.  It grows only to hold a key below
     * 4 times the number of entries (at most 8 slots an entry: sparse ids
     * stay in the table). */
    uint32_t *dense;
    size_t    dense_cap;
} u64map;

void u64map_init(u64map *m);
void u64map_free(u64map *m);
/* Value for key, or UINT32_MAX if absent. */
uint32_t u64map_get(const u64map *m, uint64_t key);
/* Insert key -> val unless present; returns the value now stored
 * (val < UINT32_MAX). */
uint32_t u64map_put(u64map *m, uint64_t key, uint32_t val);

/* A hint that key is looked up soon (its dense slot, or its table slot). */
static inline void u64map_prefetch(const u64map *m, uint64_t key);

static inline uint64_t u64_mix(uint64_t x) {   /* splitmix64 finalizer */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static inline void u64map_prefetch(const u64map *m, uint64_t key) {
#if defined(__GNUC__)
    if (key < m->dense_cap) __builtin_prefetch(&m->dense[key]);
    else if (m->cap) __builtin_prefetch(&m->slots[u64_mix(key) & (m->cap - 1)]);
#else
    (void)m; (void)key;
#endif
}

#endif
