/* set_aside.c — the history without the reads that break the read axioms
 * (contract in set_aside.h). */
#include "frontend/checking/set_aside.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/checking/axioms.h"

#define SET_ASIDE_ROUNDS 8

static int by_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Mark the reads of every violation in view failed; how many were new. */
static size_t mark(history *view, const anomaly_list *l, vec_u32 *ops) {
    size_t added = 0;
    vec_foreach(const anomaly, a, l->items)
        vec_foreach(const uint32_t, op, a->ops) {
            if (*op >= view->num_ops || history_op_txn(view, *op) == 0 || !history_op_is_read(view, *op)) continue;
            view->op_kind[*op] |= OP_FAILED;
            vec_push(*ops, *op);
            added++;
        }
    return added;
}

int set_aside_reads(const history *h, history *view, vec_u32 *ops) {
    *view = *h;
    view->op_kind = xmalloc((h->num_ops ? h->num_ops : 1) * sizeof *view->op_kind);
    memcpy(view->op_kind, h->op_kind, h->num_ops * sizeof *view->op_kind);
    vec_init(*ops);
    for (int round = 0; round < SET_ASIDE_ROUNDS; round++) {
        anomaly_list l;
        anomaly_list_init(&l);
        uint64_t found = axioms_check(view, &l, 0);
        size_t added = found ? mark(view, &l, ops) : 0;
        anomaly_list_free(&l);
        if (!found) {
            qsort(ops->data, ops->len, sizeof *ops->data, by_u32);
            return 1;
        }
        if (!added) break;                 /* a violation with no read to set aside */
    }
    set_aside_free(view);
    vec_free(*ops);
    return 0;
}

void set_aside_free(history *view) {
    free(view->op_kind);
    view->op_kind = NULL;
}
