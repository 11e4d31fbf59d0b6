/* interp_time.c — the failing level's interpretation alone (issue 37:
 * `[ser] interpret` at 1M).  Loads FILE, builds the index, checks LEVEL
 * (ser by default) once, then runs interpret_failure REPS times on a pool
 * of the machine's processors as run_check does, printing per run its
 * wall and process CPU seconds and the anomalies found.  Link it against
 * a tree's libraries to compare two trees in one sitting (bench/interp.sh
 * style: alternate the binaries).
 *
 *   cc -O2 -DNDEBUG -Iinclude -I. -o build/bench/interp_time bench/interp_time.c \
 *      build/obj/libisocheck.a build/obj/libgsat.a -lpthread -lm
 *   build/bench/interp_time FILE [ser|si] [REPS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "par.h"
#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"
#include "bench/bench_setup.h"
#include "frontend/reports/interpret.h"
#include "frontend/reports/report.h"

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: interp_time FILE [ser|si] [REPS]\n"); return 2; }
    int si = argc > 2 && !strcmp(argv[2], "si");
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned th = cpus > 0 ? (unsigned)cpus : 1;
    par_pool *pool; history *h; pg_index ix;
    int rc = bench_load_index(argv[1], th, &pool, &h, &ix);
    if (rc) return rc;
    check_options co;
    check_options_default(&co);
    co.pool = pool;
    co.threads = th;
    check_result res;
    verdict v = check_level(&ix, si ? LEVEL_SI : LEVEL_SER, &co, &res);
    pg_index_free(&ix);
    if (v != VERDICT_FAIL) { fprintf(stderr, "the level does not fail: nothing to interpret\n"); return 1; }
    for (int r = 0; r < reps; r++) {
        report rep;
        report_init(&rep, h, si ? "si" : "ser");
        double t0 = monotonic_seconds(), c0 = bench_cpu_seconds();
        size_t n = interpret_failure(&rep, si ? 0 : 1, &res.vo, res.cycle.data, res.cycle.len, res.forced.data,
                                     res.forced.len, 10, NULL, pool, 1);
        printf("interpret %.3f s wall %.3f s cpu: %zu anomalies\n", monotonic_seconds() - t0, bench_cpu_seconds() - c0, n);
        fflush(stdout);
        report_free(&rep);
    }
    check_result_free(&res);
    history_free(h);
    par_pool_free(pool);
    return 0;
}
