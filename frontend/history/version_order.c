/* version_order.c — freeing a version order (the type: version_order.h). */
#include "frontend/history/version_order.h"

#include <stdlib.h>

void version_order_free(version_order *vo) {
    free(vo->start);
    vec_free(vo->txns);
    vo->start = NULL;
    vo->num_keys = 0;
}
