/* monotonic.h — the one clock for durations and deadlines: seconds on
 * CLOCK_MONOTONIC (never jumps with the wall clock).  Shared by the engine
 * (gsat_now), the checker's stage timings and the commands' progress. */
#ifndef ISOCHECK_MONOTONIC_H
#define ISOCHECK_MONOTONIC_H

#include <time.h>

static inline double monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
