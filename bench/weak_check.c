/* weak_check.c — the weak levels on one history, for bench/weak.sh: loads
 * FILE, runs the axioms, then weak_check (frontend/checking/weak.h) for
 * each level named (rc, ra, cc), printing per level the verdict, the
 * seconds it took and the premise edges it added.  Exit 0 all pass, 1 a
 * level fails, 2 bad input.  Until the CLI takes --level rc/ra/cc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monotonic.h"
#include "par.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/weak.h"
#include "frontend/formats/parse.h"

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: weak_check FILE LEVEL...\n"); return 2; }
    double t0 = monotonic_seconds();
    ic_error err; ic_error_clear(&err);
    history *h = load_history(argv[1], FORMAT_AUTO, &err);
    if (!h) { fprintf(stderr, "weak_check: %s\n", err.msg); return 2; }
    double t1 = monotonic_seconds();
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t bad = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    uint8_t *part = history_participants(h);
    double t2 = monotonic_seconds();
    printf("load %.2f s, axioms %.2f s (%llu anomalies), %u transactions, %u ops\n", t1 - t0, t2 - t1,
           (unsigned long long)bad, h->num_txns, h->num_ops);
    int rc = 0;
    const char *th = getenv("THREADS");
    par_pool *pool = par_pool_new(th ? (unsigned)atoi(th) : 2);
    for (int i = 2; i < argc; i++) {
        int l = level_by_name(argv[i]);
        if (l < 0) { fprintf(stderr, "weak_check: unknown level %s\n", argv[i]); return 2; }
        weak_result w;
        double s = monotonic_seconds();
        verdict v = weak_check(h, part, (check_level_id)l, pool, &w);
        printf("%s %s %.2f s (index %.2f, premise %.2f, sort %.2f), cpu so far %.2f s, %llu premise edges, %llu edges besides SO: %s\n",
               argv[i], verdict_name(v), monotonic_seconds() - s, w.t_index, w.t_premise, w.t_sort, (double)clock() / CLOCKS_PER_SEC,
               (unsigned long long)w.premise_edges, (unsigned long long)w.edges, v == VERDICT_PASS ? "" : w.msg);
        if (v != VERDICT_PASS) rc = 1;
        weak_result_free(&w);
    }
    par_pool_free(pool);
    free(part);
    history_free(h);
    return rc;
}
