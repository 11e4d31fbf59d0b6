/* rng.h — the workload's own pseudo-random numbers: xoshiro256** seeded by
 * splitmix64.  Same seed, same stream on every platform (no rand()), so a
 * generated history is reproduced byte for byte by its seed. */
#ifndef WORKLOAD_RNG_H
#define WORKLOAD_RNG_H

#include <stdint.h>

typedef struct rng { uint64_t s[4]; } rng;

static inline uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Independent streams: one per (seed, stream) pair. */
static inline void rng_seed(rng *r, uint64_t seed, uint64_t stream) {
    uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL + 0x632be59bd9b4e019ULL);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng *r) {
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rng_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double rng_double(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* Uniform in [0, n), n > 0, unbiased (Lemire's multiply-and-reject). */
static inline uint64_t rng_below(rng *r, uint64_t n) {
    __uint128_t m = (__uint128_t)rng_next(r) * n;
    uint64_t lo = (uint64_t)m;
    if (lo < n) {
        uint64_t floor = -n % n;
        while (lo < floor) { m = (__uint128_t)rng_next(r) * n; lo = (uint64_t)m; }
    }
    return (uint64_t)(m >> 64);
}

static inline int rng_chance(rng *r, double p) { return p > 0 && rng_double(r) < p; }

#endif
