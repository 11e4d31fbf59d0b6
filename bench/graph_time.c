/* graph_time.c — one level's graph stage alone (issue 37: `[si] graph`,
 * `[ser] graph`).  Loads FILE and builds the index once, then REPS times
 * builds the level's polygraph as check_level does, timing its parts:
 * init (pg_init_level: the base edges copied, the reader summaries),
 * reach (the first pg_reach: adjacency, order, table), scan (the rest of
 * pg_build_constraints), order (one pg_order, as pruning and the re-check
 * run it), and aside+back (the base edges out and back, as around the
 * solver).  Per part: wall and process CPU seconds; a last line with the
 * counts -v prints, so that two trees' runs can be compared.  Link it
 * against a tree's libraries to compare trees in one sitting (alternate
 * the binaries; `uptime` beside the figures).
 *
 *   cc -O2 -DNDEBUG -Iinclude -I. -o build/bench/graph_time bench/graph_time.c \
 *      build/obj/libisocheck.a build/obj/libgsat.a -lpthread -lm
 *   build/bench/graph_time FILE [si|ser] [REPS] [THREADS] */
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

typedef struct clock2 { double wall, cpu; } clock2;
static clock2 now2(void) { clock2 c = { monotonic_seconds(), bench_cpu_seconds() }; return c; }
static void part(const char *name, clock2 *t) {
    clock2 n = now2();
    printf(" %s %.3f/%.3f", name, n.wall - t->wall, n.cpu - t->cpu);
    *t = n;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: graph_time FILE [si|ser] [REPS] [THREADS]\n"); return 2; }
    int si = !(argc > 2 && !strcmp(argv[2], "ser"));
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned th = argc > 4 ? (unsigned)atoi(argv[4]) : cpus > 0 ? (unsigned)cpus : 1;
    par_pool *pool; history *h; pg_index ix;
    int rc = bench_load_index(argv[1], th, &pool, &h, &ix);
    if (rc) return rc;
    printf("graph_time %s %s threads %u (wall/cpu s)\n", argv[1], si ? "si" : "ser", th);
    for (int r = 0; r < reps; r++) {
        polygraph g;
        clock2 t = now2(), t0 = t;
#ifdef GT_BASE
        pg_init_level(&g, &ix, si ? LEVEL_SI : LEVEL_SER);
#else
        pg_init_level_on(&g, &ix, si ? LEVEL_SI : LEVEL_SER, pool, 0);
#endif
        g.pool = pool;
        g.threads = par_pool_threads(pool);
        size_t initial = g.known.len;
        part("init", &t);
        int ok = pg_reach(&g);
        part("reach", &t);
        ok = ok && pg_build_constraints(&g);
        part("scan", &t);
        clock2 n = now2();
        printf(" | graph %.3f/%.3f |", n.wall - t0.wall, n.cpu - t0.cpu);
        t = n;
        pg_order(&g);
        part("order", &t);
        known_aside ka;
        pg_known_aside(&g, initial, &ka);
        int back = pg_known_back(&g, &ka);
        part("aside+back", &t);
        printf("\n  ok %d back %d known %zu cons %zu pairs %llu decided %llu covering %llu\n", ok, back, g.known.len,
               g.cons.len, (unsigned long long)g.pairs_total, (unsigned long long)g.pairs_decided_scan,
               (unsigned long long)g.edges_covering);
        fflush(stdout);
        pg_free(&g);
    }
    pg_index_free(&ix);
    history_free(h);
    par_pool_free(pool);
    return 0;
}
