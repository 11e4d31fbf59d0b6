/* history_helpers.h — for tests: what the tests ask of the history model
 * and its writers that the library itself never needs. */
#ifndef ISOCHECK_TESTS_HISTORY_HELPERS_H
#define ISOCHECK_TESTS_HISTORY_HELPERS_H

#include <stdint.h>
#include <stdlib.h>

#include "frontend/history/history.h"
#include "frontend/formats/write.h"

/* The number of operations of builder transaction txn (builder-local
 * index): those of a copy of b holding only txn, finished (a copy with no
 * operation does not finish: 0). */
static inline uint32_t hb_txn_num_ops(const history_builder *b, uint32_t txn) {
    uint8_t *keep = calloc((size_t)hb_num_txns(b) + 1, 1);
    if (!keep) abort();
    keep[txn] = 1;
    ic_error err;
    ic_error_clear(&err);
    history *h = hb_finish(hb_clone(b, keep), &err);
    free(keep);
    uint32_t n = 0;
    for (uint32_t t = 1; h && t < h->num_txns; t++) n += h->txns[t].num_ops;
    history_free(h);
    return n;
}

/* history_write_file with no flags and no note: 1 on success. */
static inline int history_write(const history *h, history_format fmt, const char *path, ic_error *err) {
    return history_write_file(h, fmt, path, 0, NULL, 0, err);
}

#endif
