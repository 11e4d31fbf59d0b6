/* load_parts.c — where the load and index stages of `isocheck check` spend
 * their time (issue 37): loads FILE as `check` does (load_history_ex with
 * THREADS threads, default 2), then runs, one after another, the axioms
 * (axioms_check_kinds) and the index (pg_index_build_on on a pool of
 * THREADS), and prints each part's wall and process CPU seconds; the
 * `check` stage "index" runs the two at once (run_check.c).
 *
 *   cc -O2 -DNDEBUG -Iinclude -I. -o build/bench/load_parts bench/load_parts.c \
 *      build/obj/libisocheck.a build/obj/libgsat.a -lpthread -lm
 *   [THREADS=2] build/bench/load_parts FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "par.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/polygraph.h"
#include "frontend/formats/parse.h"
#include "io/bigmem.h"
#include "frontend/history/repeat_internal.h"

static double clk(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double w0, c0;
static void start(void) { w0 = clk(CLOCK_MONOTONIC); c0 = clk(CLOCK_PROCESS_CPUTIME_ID); }
static void stop(const char *what) {
    printf("%-8s wall %6.3f s  cpu %6.3f s\n", what, clk(CLOCK_MONOTONIC) - w0, clk(CLOCK_PROCESS_CPUTIME_ID) - c0);
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: load_parts FILE\n"); return 2; }
    big_prefer_mappings();
    unsigned threads = getenv("THREADS") ? (unsigned)atoi(getenv("THREADS")) : 2;
    par_pool *pool = threads >= 2 ? par_pool_new(threads) : NULL;
    load_options lo; memset(&lo, 0, sizeof lo);
    lo.threads = threads;
    ic_error err; ic_error_clear(&err);
    start();
    history *h = load_history_ex(argv[1], FORMAT_AUTO, &lo, NULL, &err);
    if (!h) { fprintf(stderr, "%s\n", err.msg); return 2; }
    stop("load");
    if (getenv("PARTS")) {                  /* the writer table again, and every register read's writer */
        for (int rep = 0; rep < 3; rep++) {
            free(h->key_write_start); free(h->key_writes); free(h->writer_slots);
            h->key_write_start = NULL; h->key_writes = NULL; h->writer_slots = NULL;
            start();
            history_index_writers(h, &err);
            stop("writers");
        }
        uint32_t dist[] = { HISTORY_PREFETCH_AHEAD, 32, 64, 128 };
        for (int rep = 0; rep < 4; rep++) {
            uint64_t sum = 0;
            start();
            for (uint32_t op = 0; op < h->num_ops; op++) {
                uint32_t a = op + dist[rep], b = op + dist[rep] / 2;
                if (a < h->num_ops && history_op_kind(h, a) == OP_READ) history_writer_prefetch_slot(h, h->op_key[a], history_op_value(h, a));
                if (b < h->num_ops && history_op_kind(h, b) == OP_READ) history_writer_prefetch_op(h, h->op_key[b], history_op_value(h, b));
                if (history_op_kind(h, op) == OP_READ) sum += history_writer_of(h, h->op_key[op], history_op_value(h, op));
            }
            stop("lookups");
            if (!sum) printf("no writers\n");
        }
    }
    anomaly_list al; anomaly_list_init(&al);
    uint64_t counts[AN_NUM_KINDS];
    start();
    uint64_t found = axioms_check_kinds(h, &al, 10, counts);
    stop("axioms");
    pg_index ix;
    start();
    if (!pg_index_build_on(&ix, h, &err, pool)) { fprintf(stderr, "%s\n", err.msg); return 2; }
    stop("index");
    printf("%u txns, %u ops, %u keys; %llu axiom violations\n", h->num_txns, h->num_ops, h->num_keys, (unsigned long long)found);
    anomaly_list_free(&al);
    pg_index_free(&ix);
    history_free(h);
    par_pool_free(pool);
    return 0;
}
