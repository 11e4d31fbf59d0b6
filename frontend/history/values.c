/* values.c — an op's value in 4 bytes where it fits (history.h: op_val32,
 * op_val64, the escapes).
 *
 * Contract
 *   - A history's values are in one of two forms: narrow (op_val32, the
 *     few values that do not fit escaped to esc_op/esc_val) or wide
 *     (op_val64).  history_op_value reads either; the form is chosen by
 *     history_pack_values and is no part of what a history means.
 *   - Narrow when at most one op in HISTORY_ESC_RATIO needs an escape:
 *     escapes cost 12 bytes each and a binary search to read, so a
 *     history of mostly wide values (Cobra's 64-bit ids, Elle's named
 *     values) stays wide.
 *   - history_values_widen gives the wide form, which code that rewrites
 *     values (repeat.c, list_repeat.c) writes directly, packing again when
 *     done. */
#include "frontend/history/history.h"
#include "frontend/history/repeat_internal.h"

#include <stdlib.h>

#include "vec.h"
#include "io/bigmem.h"

#define HISTORY_ESC_RATIO 32

static int fits_narrow(int64_t v) { return v == VALUE_INIT || (v > HISTORY_V32_ESC && v <= INT32_MAX); }

int64_t history_op_value_escaped(const history *h, uint32_t op) {
    uint32_t lo = 0, hi = h->num_esc;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->esc_op[mid] < op) lo = mid + 1; else hi = mid;
    }
    return h->esc_val[lo];          /* present: op_val32[op] is HISTORY_V32_ESC */
}

void history_values_widen(history *h) {
    if (h->op_val64) return;
    int64_t *w = big_malloc((h->num_ops ? h->num_ops : 1) * sizeof *w);
    for (uint32_t op = 0; op < h->num_ops; op++) w[op] = history_op_value(h, op);
    free(h->op_val32); free(h->esc_op); free(h->esc_val);
    h->op_val32 = NULL; h->esc_op = NULL; h->esc_val = NULL; h->num_esc = 0;
    h->op_val64 = w;
}

void history_pack_values(history *h) {
    if (!h->op_val64) return;
    const int64_t *w = h->op_val64;
    uint32_t n = h->num_ops, esc = 0;
    for (uint32_t op = 0; op < n; op++) esc += !fits_narrow(w[op]);
    if ((uint64_t)esc * HISTORY_ESC_RATIO > n) return;
    int32_t *v = big_malloc((n ? n : 1) * sizeof *v);
    uint32_t *eo = xmalloc((esc ? esc : 1) * sizeof *eo);
    int64_t *ev = xmalloc((esc ? esc : 1) * sizeof *ev);
    uint32_t e = 0;
    for (uint32_t op = 0; op < n; op++) {
        int64_t x = w[op];
        if (x == VALUE_INIT) v[op] = HISTORY_V32_INIT;
        else if (fits_narrow(x)) v[op] = (int32_t)x;
        else { v[op] = HISTORY_V32_ESC; eo[e] = op; ev[e++] = x; }
    }
    free(h->op_val64);
    h->op_val64 = NULL;
    h->op_val32 = v; h->esc_op = eo; h->esc_val = ev; h->num_esc = esc;
}

/* Escapes collected out of op order, sorted by op. */
static int cmp_esc(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void history_scatter_values(history *h, const int64_t *vals, const history_dest *d) {
    size_t esc = 0, n = d->n;
    for (size_t i = 0; i < n; i++) esc += !fits_narrow(vals[i]);
    if ((uint64_t)esc * HISTORY_ESC_RATIO > h->num_ops) {
        h->op_val64 = big_malloc((h->num_ops ? h->num_ops : 1) * sizeof *h->op_val64);
        HISTORY_DEST_EACH(d, i, o, h->op_val64[o] = vals[i];);
        return;
    }
    int32_t *v = big_malloc((h->num_ops ? h->num_ops : 1) * sizeof *v);
    struct { uint32_t op; uint32_t i; } *e = xmalloc((esc ? esc : 1) * sizeof *e);
    size_t ne = 0;
    HISTORY_DEST_EACH(d, i, o, {
        int64_t x = vals[i];
        if (x == VALUE_INIT) v[o] = HISTORY_V32_INIT;
        else if (fits_narrow(x)) v[o] = (int32_t)x;
        else { v[o] = HISTORY_V32_ESC; e[ne].op = (uint32_t)o; e[ne++].i = (uint32_t)i; }
    });
    qsort(e, ne, sizeof *e, cmp_esc);
    h->esc_op = xmalloc((esc ? esc : 1) * sizeof *h->esc_op);
    h->esc_val = xmalloc((esc ? esc : 1) * sizeof *h->esc_val);
    for (size_t j = 0; j < ne; j++) { h->esc_op[j] = e[j].op; h->esc_val[j] = vals[e[j].i]; }
    free(e);
    h->num_esc = (uint32_t)ne;
    h->op_val32 = v;
}

void history_set_op_value(history *h, uint32_t op, int64_t v) {
    if (!h->op_val64 && (!fits_narrow(v) || h->op_val32[op] == HISTORY_V32_ESC)) history_values_widen(h);
    if (h->op_val64) h->op_val64[op] = v;
    else h->op_val32[op] = v == VALUE_INIT ? HISTORY_V32_INIT : (int32_t)v;
}
