/* bench_setup.h — the set-up every one-stage timing program in bench/
 * shares (graph_time.c, interp_time.c): the process's CPU clock, and FILE
 * loaded and indexed as `check` does (load_history_ex on TH threads, then
 * pg_index_build_on a pool of TH threads, none when TH is 1).  Header-only:
 * each program is one translation unit linked against a tree's libraries. */
#ifndef BENCH_SETUP_H
#define BENCH_SETUP_H

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "par.h"
#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"

static inline double bench_cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Load PATH and build its index; 0 on success, else the error is printed
 * and the program's exit code (2) returned.  *pool: NULL when TH is 1. */
static inline int bench_load_index(const char *path, unsigned th, par_pool **pool, history **h, pg_index *ix) {
    *pool = th > 1 ? par_pool_new(th) : NULL;
    load_options lo; memset(&lo, 0, sizeof lo);
    lo.threads = th;
    ic_error err; ic_error_clear(&err);
    *h = load_history_ex(path, FORMAT_AUTO, &lo, NULL, &err);
    if (!*h) { fprintf(stderr, "%s\n", err.msg); return 2; }
    if (!pg_index_build_on(ix, *h, &err, *pool)) { fprintf(stderr, "%s\n", err.msg); return 2; }
    return 0;
}

#endif
