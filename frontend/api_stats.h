/* api_stats.h — how the library's checks were decided: for tests, which
 * check that the incremental path answers most checks of a growing
 * history.  Not part of the public API (include/isocheck.h). */
#ifndef ISOCHECK_API_STATS_H
#define ISOCHECK_API_STATS_H

#include <stdint.h>

typedef struct api_check_stats {
    uint32_t incremental;        /* checks that went through the incremental path */
    uint32_t incremental_pass;   /* ... and were answered there (a PASS re-checked by definition) */
    uint32_t pipeline;           /* checks answered by the batch pipeline */
} api_check_stats;

struct isocheck_history;
const api_check_stats *isocheck_history_check_stats(const struct isocheck_history *h);

#endif
