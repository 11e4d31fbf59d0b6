/* history_helpers.h — for tests: what the tests ask of the history model
 * and its writers that the library itself never needs. */
#ifndef ISOCHECK_TESTS_HISTORY_HELPERS_H
#define ISOCHECK_TESTS_HISTORY_HELPERS_H

#include <stdint.h>
#include <stdlib.h>

#include "frontend/history/history.h"
#include "frontend/formats/write.h"

/* history_write_file with no flags and no note: 1 on success. */
static inline int history_write(const history *h, history_format fmt, const char *path, ic_error *err) {
    return history_write_file(h, fmt, path, 0, NULL, 0, err);
}

#endif
