/* cli_check.c — `isocheck check`: load, check the axioms, then each level
 * (frontend/check.h), print the verdicts.  -v prints stage times, graph
 * sizes, constraint counts and solver statistics on stderr; a progress
 * line appears on stderr for runs longer than a second when it is a
 * terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "frontend/anomaly.h"
#include "frontend/axioms.h"
#include "frontend/check.h"
#include "frontend/check_report.h"
#include "frontend/cli.h"
#include "frontend/parse.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: isocheck check [--format text|dbcop|cobra|elle] [--level si|ser|all] [--json]\n"
            "                      [--max-anomalies N] [-v] [--time-limit SECONDS] FILE|DIR|-\n"
            "Check a history against an isolation level (default si; all: si and ser).\n"
            "Prints PASS, or FAIL with the anomaly or the dependency cycle that shows it.\n"
            "-v: stage times, graph sizes, constraint counts and solver statistics on stderr.\n"
            "exit: 0 the history satisfies the level, 1 it does not, 2 bad input or no answer.\n");
}

static double progress_start;
static int progress_shown;

static double wall(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Progress on stderr: only on a terminal, only after the first second. */
static void progress(void *ctx, const char *what) {
    double el = wall() - progress_start;
    if (el < 1.0 || !isatty(2)) return;
    fprintf(stderr, "\r\033[Kisocheck: %s: %s (%.1fs)", (const char *)ctx, what, el);
    fflush(stderr);
    progress_shown = 1;
}

static void progress_clear(void) {
    if (progress_shown) { fprintf(stderr, "\r\033[K"); fflush(stderr); progress_shown = 0; }
}

/* Check each requested level; the index is shared.  Exit code: 2 if any
 * level had no answer, else 1 if any failed, else 0. */
static int check_levels(const history *h, const char *level, int json, int verbose, double time_limit, double load_s) {
    ic_error err;
    ic_error_clear(&err);
    double t0 = wall();
    pg_index ix;
    if (!pg_index_build(&ix, h, &err)) { ic_error_print(stderr, "isocheck", &err); return 2; }
    double t_index = wall() - t0;
    if (verbose)
        fprintf(stderr, "load %.3fs  index %.3fs: %llu transactions, %u sessions, %u keys, %llu writes installed, "
                "%llu external reads, %llu read-modify-write links, %zu writer units\n",
                load_s, t_index, (unsigned long long)ix.num_graph_txns - 1, h->num_sessions, h->num_keys,
                (unsigned long long)ix.num_writers, (unsigned long long)ix.num_ext_reads,
                (unsigned long long)ix.num_links, ix.units.len - ix.num_keys);
    check_level_id levels[2];
    int nlevels = 0;
    if (!strcmp(level, "si") || !strcmp(level, "all")) levels[nlevels++] = LEVEL_SI;
    if (!strcmp(level, "ser") || !strcmp(level, "all")) levels[nlevels++] = LEVEL_SER;
    int any_fail = 0, any_error = 0;
    if (json && nlevels > 1) printf("{\"results\": [");
    for (int i = 0; i < nlevels; i++) {
        check_options opt;
        check_options_default(&opt);
        opt.time_limit = time_limit;
        opt.progress = progress;
        opt.progress_ctx = (void *)check_level_name(levels[i]);
        check_result res;
        check_level(&ix, levels[i], &opt, &res);
        progress_clear();
        if (json) { if (i) printf(", "); check_print_json(stdout, h, &res); }
        else check_print_text(stdout, h, &res);
        if (verbose) check_print_stats(stderr, &res);
        else if (res.verdict == CHECK_ERROR) fprintf(stderr, "isocheck: %s\n", res.msg);
        any_fail |= res.verdict == CHECK_FAIL;
        any_error |= res.verdict == CHECK_ERROR;
        check_result_free(&res);
    }
    if (json) printf(nlevels > 1 ? "]}\n" : "\n");
    fflush(stdout);
    pg_index_free(&ix);
    return any_error ? 2 : any_fail ? 1 : 0;
}

int cli_check(int argc, char **argv) {
    const char *path = NULL, *fmt_name = NULL, *level = "si";
    int json = 0, verbose = 0;
    long max_anomalies = 10;
    double time_limit = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) verbose = 1;
        else if (!strcmp(a, "--time-limit") && i + 1 < argc) time_limit = strtod(argv[++i], NULL);
        else if (!strcmp(a, "--format") && i + 1 < argc) fmt_name = argv[++i];
        else if (!strncmp(a, "--format=", 9)) fmt_name = a + 9;
        else if (!strcmp(a, "--level") && i + 1 < argc) level = argv[++i];
        else if (!strncmp(a, "--level=", 8)) level = a + 8;
        else if (!strcmp(a, "--max-anomalies") && i + 1 < argc) max_anomalies = strtol(argv[++i], NULL, 10);
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "isocheck check: unknown option '%s'\n", a); usage(stderr); return 2; }
        else if (!path) path = a;
        else { fprintf(stderr, "isocheck check: more than one history given\n"); return 2; }
    }
    if (!path) { usage(stderr); return 2; }
    if (strcmp(level, "si") && strcmp(level, "ser") && strcmp(level, "all")) {
        fprintf(stderr, "isocheck check: unknown level '%s' (si, ser or all)\n", level);
        return 2;
    }
    int fmt = history_format_from_name(fmt_name);
    if (fmt < 0) { fprintf(stderr, "isocheck check: unknown format '%s'\n", fmt_name); return 2; }
    if (max_anomalies < 1) max_anomalies = 1;

    ic_error err;
    ic_error_clear(&err);
    progress_start = wall();
    history *h = load_history(path, (history_format)fmt, &err);
    double load_seconds = wall() - progress_start;
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }

    anomaly_list anomalies;
    anomaly_list_init(&anomalies);
    uint64_t found = axioms_check(h, &anomalies, (size_t)max_anomalies);
    int rc;
    if (found) {
        rc = 1;
        if (json) {
            printf("{\"verdict\": \"FAIL\", \"level\": \"%s\", \"violations\": %llu, \"anomalies\": [", level,
                   (unsigned long long)found);
            for (size_t i = 0; i < anomalies.items.len; i++) {
                if (i) printf(", ");
                anomaly_print_json(stdout, h, &anomalies.items.data[i]);
            }
            printf("]}\n");
        } else {
            for (size_t i = 0; i < anomalies.items.len; i++) anomaly_print_text(stdout, h, &anomalies.items.data[i]);
            if (found > anomalies.items.len)
                printf("(%llu more violations not shown; --max-anomalies N)\n", (unsigned long long)(found - anomalies.items.len));
        }
    } else {
        rc = check_levels(h, level, json, verbose, time_limit, load_seconds);
    }
    anomaly_list_free(&anomalies);
    history_free(h);
    return rc;
}
