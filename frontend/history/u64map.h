/* u64map.h — open-addressing hash map from 64-bit keys to 32-bit values.
 *
 * One flat table (no per-entry allocation), linear probing, grows at load
 * 1/2.  Used for external ids -> dense ids (keys, sessions, transactions). */
#ifndef ISOCHECK_U64MAP_H
#define ISOCHECK_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct u64map {
    uint64_t *keys;
    uint32_t *vals;
    uint8_t  *used;
    size_t    cap, len;      /* cap is 0 or a power of two */
} u64map;

void u64map_init(u64map *m);
void u64map_free(u64map *m);
/* Value for key, or UINT32_MAX if absent. */
uint32_t u64map_get(const u64map *m, uint64_t key);
/* Insert key -> val unless present; returns the value now stored. */
uint32_t u64map_put(u64map *m, uint64_t key, uint32_t val);

static inline uint64_t u64_mix(uint64_t x) {   /* splitmix64 finalizer */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

#endif
