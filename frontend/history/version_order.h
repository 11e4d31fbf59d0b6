/* version_order.h — a version order of a history: per key, the order in
 * which its versions were installed.
 *
 * Key k's versions are txns[start[k] .. start[k + 1]): INIT (transaction 0)
 * first, then every participating transaction that writes k, once each,
 * oldest first.  The checker reads one off a solver's model, the
 * re-checkers (frontend/recheck/) check one by definition, a certificate
 * carries one.  This header is the type alone; what makes a version order
 * valid for a history is the re-checkers' contract (verify_model.h,
 * certificate.h). */
#ifndef ISOCHECK_VERSION_ORDER_H
#define ISOCHECK_VERSION_ORDER_H

#include <stdint.h>

#include "vec.h"

typedef struct version_order {
    uint32_t num_keys;
    uint32_t *start;         /* num_keys + 1: key k's versions are txns[start[k] .. start[k+1]) */
    vec_u32 txns;
} version_order;

/* Frees start and txns; vo is then an empty version order (num_keys 0). */
void version_order_free(version_order *vo);
/* *dst (freed first) becomes a copy of src. */
void version_order_copy(version_order *dst, const version_order *src);

#endif
