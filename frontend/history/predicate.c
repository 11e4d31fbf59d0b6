/* predicate.c — predicates and the predicate side table (contract in
 * predicate.h). */
#include "frontend/history/predicate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "frontend/history/history.h"

/* Clojure's mod: the remainder takes the divisor's sign. */
static int64_t floor_mod(int64_t v, int64_t m) {
    if (m == -1 || m == 1) return 0;
    int64_t r = v % m;
    if (r != 0 && ((r < 0) != (m < 0))) r += m;
    return r;
}

int pred_match(const predicate *p, int64_t v) {
    switch ((pred_kind)p->kind) {
    case PRED_TRUE:  return 1;
    case PRED_EQ:    return v == p->a;
    case PRED_NE:    return v != p->a;
    case PRED_LT:    return v < p->a;
    case PRED_LE:    return v <= p->a;
    case PRED_GT:    return v > p->a;
    case PRED_GE:    return v >= p->a;
    case PRED_RANGE: return p->a <= v && v <= p->b;
    case PRED_MOD:   return p->a != 0 && floor_mod(v, p->a) == p->b;
    }
    return 0;
}

const char *pred_str(const predicate *p, const char *var, char *buf, size_t n) {
    static const char *const ops[] = { "", "=", "!=", "<", "<=", ">", ">=" };
    switch ((pred_kind)p->kind) {
    case PRED_TRUE: snprintf(buf, n, "true"); break;
    case PRED_RANGE: snprintf(buf, n, "%" PRId64 " <= %s <= %" PRId64, p->a, var, p->b); break;
    case PRED_MOD: snprintf(buf, n, "%s mod %" PRId64 " = %" PRId64, var, p->a, p->b); break;
    default: snprintf(buf, n, "%s %s %" PRId64, var, ops[p->kind], p->a); break;
    }
    return buf;
}

const char *pred_read_str(const pred_read *r, const char *var, char *buf, size_t n) {
    char pb[96];
    pred_str(&r->p, var, pb, sizeof pb);
    if (r->keyed) snprintf(buf, n, "key in %" PRId64 "..%" PRId64 " and %s", r->klo, r->khi, pb);
    else snprintf(buf, n, "%s", pb);
    return buf;
}

history_preds *preds_new(void) { return xcalloc(1, sizeof(history_preds)); }

void preds_free(history_preds *p) {
    if (!p) return;
    vec_free(p->reads); vec_free(p->facts); vec_free(p->dead); vec_free(p->init_present); vec_free(p->init_data);
    free(p);
}

void preds_remap_txns(history_preds *p, const uint32_t *txn_new) {
    for (size_t i = 0; i < p->reads.len; i++)
        if (p->reads.data[i].txn != HISTORY_NONE) p->reads.data[i].txn = txn_new[p->reads.data[i].txn];
}

history_preds *preds_clone(const history_preds *p, const uint32_t *txn_new) {
    history_preds *c = preds_new();
    for (size_t i = 0; i < p->reads.len; i++) {      /* every read (ops' tags stay valid) */
        pred_read r = p->reads.data[i];
        if (r.txn != HISTORY_NONE) r.txn = txn_new[r.txn];
        vec_push(c->reads, r);
    }
    for (size_t i = 0; i < p->facts.len; i++)         /* facts of the reads kept */
        if (c->reads.data[p->facts.data[i].read].txn != HISTORY_NONE) vec_push(c->facts, p->facts.data[i]);
    for (size_t i = 0; i < p->dead.len; i++) vec_push(c->dead, p->dead.data[i]);
    for (size_t i = 0; i < p->init_present.len; i++) {
        vec_push(c->init_present, p->init_present.data[i]);
        vec_push(c->init_data, p->init_data.data[i]);
    }
    return c;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void preds_seal(history_preds *p) {
    if (p->dead.len > 1) qsort(p->dead.data, p->dead.len, sizeof *p->dead.data, cmp_i64);
}

int preds_is_dead(const history_preds *p, int64_t v) {
    if (!p) return 0;
    size_t lo = 0, hi = p->dead.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->dead.data[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo < p->dead.len && p->dead.data[lo] == v;
}

int preds_version_data(const history_preds *p, uint32_t key, int64_t v, int64_t *data) {
    if (v == VALUE_INIT) {
        if (!p || key >= p->init_present.len || !p->init_present.data[key]) return 0;
        *data = p->init_data.data[key];
        return 1;
    }
    if (preds_is_dead(p, v)) return 0;
    *data = v;
    return 1;
}
