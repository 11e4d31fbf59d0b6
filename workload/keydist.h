/* keydist.h — which key an operation touches: uniform, zipfian (exponent
 * s, key 0 the most popular) or hotspot (80% of accesses to the first 20%
 * of the keys).  Sampling is O(log n) (zipf: binary search in a cumulative
 * table built once, 8 bytes per key) or O(1). */
#ifndef WORKLOAD_KEYDIST_H
#define WORKLOAD_KEYDIST_H

#include <stdint.h>

#include "workload/rng.h"

typedef enum { KEYDIST_UNIFORM = 0, KEYDIST_ZIPF, KEYDIST_HOTSPOT } keydist_kind;

typedef struct keydist {
    keydist_kind kind;
    uint64_t n;          /* keys 0..n-1 */
    double exponent;     /* zipf */
    double *cdf;         /* zipf: cdf[i] = P(key <= i) */
    uint64_t hot;        /* hotspot: keys [0, hot) get hot_share of accesses */
    double hot_share;
} keydist;

/* n >= 1; exponent > 0 for zipf. */
void keydist_init(keydist *d, keydist_kind kind, uint64_t n, double exponent);
void keydist_free(keydist *d);
uint64_t keydist_sample(const keydist *d, rng *r);

const char *keydist_name(keydist_kind k);
/* "uniform", "zipf"/"zipfian", "hotspot"; -1 if unknown. */
int keydist_parse(const char *s);

#endif
