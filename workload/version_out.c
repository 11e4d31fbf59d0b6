/* version_out.c — recording the store's version order (contract in
 * version_out.h). */
#include "workload/version_out.h"

#include <inttypes.h>
#include <stdlib.h>

#include "vec.h"
#include "frontend/history/u64map.h"

typedef struct vo_key { int64_t key; vec_i64 values; } vo_key;

struct vo_tee {
    const sim_sink *inner;
    u64map index;                /* key -> position in keys */
    VEC(vo_key) keys;
};

static int tee_txn(void *ctx, uint32_t session, uint32_t pos, int64_t txn_id, int committed, const sim_op *ops,
                   uint32_t n_ops, ic_error *err) {
    vo_tee *t = ctx;
    if (committed)
        for (uint32_t i = 0; i < n_ops; i++) {
            if (!ops[i].write) continue;
            int last = 1;                            /* only a transaction's last write of a key is installed */
            for (uint32_t j = i + 1; j < n_ops && last; j++) last = !(ops[j].write && ops[j].key == ops[i].key);
            if (!last) continue;
            uint32_t at = u64map_get(&t->index, (uint64_t)ops[i].key);
            if (at == UINT32_MAX) {
                at = (uint32_t)t->keys.len;
                u64map_put(&t->index, (uint64_t)ops[i].key, at);
                vo_key k = { ops[i].key, { NULL, 0, 0 } };
                vec_push(t->keys, k);
            }
            vec_push(t->keys.data[at].values, ops[i].value);
        }
    return t->inner->txn(t->inner->ctx, session, pos, txn_id, committed, ops, n_ops, err);
}

vo_tee *vo_tee_new(const sim_sink *inner) {
    vo_tee *t = xmalloc(sizeof *t);
    t->inner = inner;
    u64map_init(&t->index);
    vec_init(t->keys);
    return t;
}

sim_sink vo_tee_sink(vo_tee *t) {
    sim_sink s = { t, tee_txn };
    return s;
}

static int cmp_key(const void *a, const void *b) {
    const vo_key *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

int vo_tee_write(const vo_tee *t, FILE *f) {
    vo_key *sorted = xmalloc((t->keys.len ? t->keys.len : 1) * sizeof *sorted);
    for (size_t i = 0; i < t->keys.len; i++) sorted[i] = t->keys.data[i];
    qsort(sorted, t->keys.len, sizeof *sorted, cmp_key);
    fprintf(f, "# the simulator's version order: per key, its committed versions in commit order\n");
    for (size_t i = 0; i < t->keys.len; i++) {
        fprintf(f, "%" PRId64 ": init", sorted[i].key);
        vec_foreach(const int64_t, v, sorted[i].values) fprintf(f, " %" PRId64, *v);
        fputc('\n', f);
    }
    free(sorted);
    return !ferror(f);
}

void vo_tee_free(vo_tee *t) {
    if (!t) return;
    vec_foreach(vo_key, k, t->keys) vec_free(k->values);
    vec_free(t->keys);
    u64map_free(&t->index);
    free(t);
}
