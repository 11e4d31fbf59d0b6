/* final.c — a PASS from the incremental state, confirmed (contract in
 * final.h). */
#include "frontend/online/final.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/checking/check.h"
#include "frontend/history/u64map.h"

int online_confirm_pass(const history *h, const int want[2], const version_order vo[2], report *rep, char *why,
                        size_t whylen) {
    for (int l = 0; l < 2; l++) {
        if (!want[l]) continue;
        why[0] = 0;
        if (vo_check(h, &vo[l], l == LEVEL_SI, NULL, why, whylen) != 1) {
            if (!why[0]) snprintf(why, whylen, "a cycle at %s", check_level_name((check_level_id)l));
            return 0;
        }
    }
    for (int l = 0; l < 2; l++) {                     /* the levels in the batch report's order: si, then ser */
        if (!want[l]) continue;
        report_level *L = &rep->levels[rep->num_levels++];
        memset(L, 0, sizeof *L);
        L->level = l;
        L->verdict = VERDICT_PASS;
        L->stage = "incremental";
    }
    return 1;
}

/* o's writers per key, as a version order of h (INIT first on every key);
 * keys and txns map h's external ids to its ids.  0 with why set when o
 * names a key or transaction h lacks. */
static int order_on(const history *h, const incr_order *o, const u64map *keys, const u64map *txns, version_order *vo,
                    char *why, size_t whylen) {
    int ok = 1;
    uint32_t *of_key = xmalloc(((size_t)h->num_keys + 1) * sizeof *of_key);
    for (uint32_t k = 0; k < h->num_keys; k++) of_key[k] = UINT32_MAX;
    for (size_t i = 0; i < o->key_ext.len && ok; i++) {
        uint32_t k = u64map_get(keys, (uint64_t)o->key_ext.data[i]);
        if (k == UINT32_MAX) { snprintf(why, whylen, "a key the history lacks"); ok = 0; }
        else of_key[k] = (uint32_t)i;
    }
    vo->num_keys = h->num_keys;
    vo->start = xmalloc(((size_t)h->num_keys + 1) * sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t k = 0; k < h->num_keys && ok; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        vec_push(vo->txns, 0u);
        uint32_t i = of_key[k];
        if (i == UINT32_MAX) continue;
        for (uint32_t j = o->start.data[i]; j < o->start.data[i + 1] && ok; j++) {
            uint32_t t = u64map_get(txns, (uint64_t)o->txn_ext.data[j]);
            if (t == UINT32_MAX) { snprintf(why, whylen, "a transaction the history lacks"); ok = 0; }
            else vec_push(vo->txns, t);
        }
    }
    vo->start[h->num_keys] = (uint32_t)vo->txns.len;
    free(of_key);
    return ok;
}

int online_final_report(const history *h, follow_final *f, int want_si, int want_ser, report *rep, char *why,
                        size_t whylen) {
    int ok = f->ready, want[2] = { want_si, want_ser };
    u64map keys, txns;
    u64map_init(&keys);
    u64map_init(&txns);
    for (uint32_t k = 0; k < h->num_keys && ok; k++) {
        if (h->key_name[k] != HISTORY_NONE) { snprintf(why, whylen, "a named key"); ok = 0; }
        else u64map_put(&keys, (uint64_t)h->key_ext[k], k);
    }
    for (uint32_t t = 1; t < h->num_txns && ok; t++)
        if (u64map_put(&txns, (uint64_t)h->txns[t].ext_id, t) != t) { snprintf(why, whylen, "a transaction id twice"); ok = 0; }
    version_order vo[2];
    memset(vo, 0, sizeof vo);
    for (int l = 0; l < 2 && ok; l++)
        if (want[l]) ok = order_on(h, &f->order[l], &keys, &txns, &vo[l], why, whylen);
    if (ok) ok = online_confirm_pass(h, want, vo, rep, why, whylen);
    for (int l = 0; l < 2; l++) {
        version_order_free(&vo[l]);
        incr_order_free(&f->order[l]);
    }
    u64map_free(&keys);
    u64map_free(&txns);
    f->ready = 0;
    return ok;
}

void follow_final_free(follow_final *f) {
    for (int l = 0; l < 2; l++) incr_order_free(&f->order[l]);
    online_found_free(&f->found);
    f->ready = 0;
}
