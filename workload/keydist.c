/* keydist.c — key distributions (see keydist.h). */
#include "workload/keydist.h"

#include <math.h>
#include <string.h>

#include "vec.h"

void keydist_init(keydist *d, keydist_kind kind, uint64_t n, double exponent) {
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->n = n ? n : 1;
    d->exponent = exponent;
    if (kind == KEYDIST_ZIPF) {
        d->cdf = xmalloc(d->n * sizeof *d->cdf);
        double sum = 0;
        for (uint64_t i = 0; i < d->n; i++) d->cdf[i] = sum += pow((double)(i + 1), -exponent);
        for (uint64_t i = 0; i < d->n; i++) d->cdf[i] /= sum;
        d->cdf[d->n - 1] = 1.0;
    } else if (kind == KEYDIST_HOTSPOT) {
        d->hot = d->n / 5 ? d->n / 5 : 1;
        d->hot_share = 0.8;
    }
}

void keydist_free(keydist *d) { free(d->cdf); d->cdf = NULL; }

uint64_t keydist_sample(const keydist *d, rng *r) {
    switch (d->kind) {
    case KEYDIST_ZIPF: {
        double u = rng_double(r);
        uint64_t lo = 0, hi = d->n - 1;       /* first i with cdf[i] > u */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (d->cdf[mid] > u) hi = mid; else lo = mid + 1;
        }
        return lo;
    }
    case KEYDIST_HOTSPOT:
        if (d->hot >= d->n || rng_chance(r, d->hot_share)) return rng_below(r, d->hot);
        return d->hot + rng_below(r, d->n - d->hot);
    case KEYDIST_UNIFORM:
    default:
        return rng_below(r, d->n);
    }
}

const char *keydist_name(keydist_kind k) {
    return k == KEYDIST_ZIPF ? "zipf" : k == KEYDIST_HOTSPOT ? "hotspot" : "uniform";
}

int keydist_parse(const char *s) {
    if (!strcmp(s, "uniform")) return KEYDIST_UNIFORM;
    if (!strcmp(s, "zipf") || !strcmp(s, "zipfian")) return KEYDIST_ZIPF;
    if (!strcmp(s, "hotspot")) return KEYDIST_HOTSPOT;
    return -1;
}
