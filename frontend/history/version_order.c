/* version_order.c — freeing and copying a version order (the type: version_order.h). */
#include "frontend/history/version_order.h"

#include <stdlib.h>
#include <string.h>

void version_order_free(version_order *vo) {
    free(vo->start);
    vec_free(vo->txns);
    vo->start = NULL;
    vo->num_keys = 0;
}

void version_order_copy(version_order *dst, const version_order *src) {
    version_order_free(dst);
    vec_init(dst->txns);
    dst->num_keys = src->num_keys;
    dst->start = xmalloc(((size_t)src->num_keys + 1) * sizeof *dst->start);
    memcpy(dst->start, src->start, ((size_t)src->num_keys + 1) * sizeof *dst->start);
    for (size_t i = 0; i < src->txns.len; i++) vec_push(dst->txns, src->txns.data[i]);
}
