/* cli_check.c — `isocheck check`: load, check the axioms, check each level
 * (frontend/check.h; the index is shared), interpret failures into named
 * anomalies (interpret.h), write a certificate on PASS (certificate.h),
 * print text or JSON, and optionally a Graphviz file.  -v prints stage
 * times, graph sizes, constraint counts and solver statistics on stderr; a
 * progress line appears on stderr for runs longer than a second when it is
 * a terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "frontend/anomaly.h"
#include "frontend/axioms.h"
#include "frontend/certificate.h"
#include "frontend/check.h"
#include "frontend/check_report.h"
#include "frontend/cli.h"
#include "frontend/interpret.h"
#include "frontend/parse.h"
#include "frontend/report.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: isocheck check [--format text|dbcop|cobra|elle|json] [--level si|ser|all] [--json]\n"
            "                      [--dot FILE] [--certificate FILE] [--max-anomalies N] [-v]\n"
            "                      [--time-limit SECONDS] [--failed-ops-abort] FILE|DIR|-\n"
            "Check a history against an isolation level (default si; all: si and ser).\n"
            "  PASS: the history satisfies the level; --certificate FILE writes a proof that\n"
            "        'isocheck verify HISTORY FILE' checks without any solver.\n"
            "  FAIL: up to N (default 10) minimal named anomalies on disjoint transactions, each\n"
            "        with its transactions, operations, dependency edges and why each is forced.\n"
            "  --json     one JSON object (doc/json-schema.md)     --dot FILE  Graphviz of the anomalies\n"
            "  -v         stage times, graph sizes, constraint counts and solver statistics on stderr\n"
            "  --time-limit S  give up solving after S seconds (UNKNOWN, exit 2)\n"
            "  --failed-ops-abort  dbcop: a committed transaction with a failed operation is aborted\n"
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

/* Write c to path; returns 1 on success. */
static int write_certificate(const char *path, const history *h, const certificate *c) {
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "isocheck check: cannot write certificate '%s'\n", path); return 0; }
    cert_write(f, h, c);
    if (fclose(f) != 0) { fprintf(stderr, "isocheck check: error writing certificate '%s'\n", path); return 0; }
    return 1;
}

int cli_check(int argc, char **argv) {
    const char *path = NULL, *fmt_name = NULL, *level = "si", *dot_path = NULL, *cert_path = NULL;
    int json = 0, verbose = 0;
    load_options lopt = { 0 };
    long max_anomalies = 10;
    double time_limit = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) verbose = 1;
        else if (!strcmp(a, "--failed-ops-abort")) lopt.failed_ops_abort = 1;
        else if (!strcmp(a, "--time-limit") && i + 1 < argc) time_limit = strtod(argv[++i], NULL);
        else if (!strcmp(a, "--format") && i + 1 < argc) fmt_name = argv[++i];
        else if (!strncmp(a, "--format=", 9)) fmt_name = a + 9;
        else if (!strcmp(a, "--level") && i + 1 < argc) level = argv[++i];
        else if (!strncmp(a, "--level=", 8)) level = a + 8;
        else if (!strcmp(a, "--dot") && i + 1 < argc) dot_path = argv[++i];
        else if (!strncmp(a, "--dot=", 6)) dot_path = a + 6;
        else if (!strcmp(a, "--certificate") && i + 1 < argc) cert_path = argv[++i];
        else if (!strncmp(a, "--certificate=", 14)) cert_path = a + 14;
        else if ((!strcmp(a, "--max-anomalies") && i + 1 < argc) || !strncmp(a, "--max-anomalies=", 16)) {
            const char *v = a[15] == '=' ? a + 16 : argv[++i];
            char *end;
            max_anomalies = strtol(v, &end, 10);
            if (*end || end == v || max_anomalies < 1) {
                fprintf(stderr, "isocheck check: --max-anomalies expects a positive integer, found '%s'\n", v);
                return 2;
            }
        }
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "isocheck check: unknown option '%s'\n", a); usage(stderr); return 2; }
        else if (!path) path = a;
        else { fprintf(stderr, "isocheck check: more than one history given\n"); return 2; }
    }
    if (!path) { usage(stderr); return 2; }
    int want[2] = { 0, 0 };
    if (!strcmp(level, "si")) want[LEVEL_SI] = 1;
    else if (!strcmp(level, "ser")) want[LEVEL_SER] = 1;
    else if (!strcmp(level, "all")) want[LEVEL_SI] = want[LEVEL_SER] = 1;
    else { fprintf(stderr, "isocheck check: unknown level '%s' (si, ser or all)\n", level); return 2; }
    int fmt = history_format_from_name(fmt_name);
    if (fmt < 0) { fprintf(stderr, "isocheck check: unknown format '%s'\n", fmt_name); return 2; }

    ic_error err;
    ic_error_clear(&err);
    progress_start = wall();
    load_report lrep;
    load_report_init(&lrep);
    history *h = load_history_ex(path, (history_format)fmt, &lopt, &lrep, &err);
    double load_seconds = wall() - progress_start;
    if (!h) { ic_error_print(stderr, "isocheck", &err); load_report_free(&lrep); return 2; }
    load_report_print_notes(stderr, &lrep, "isocheck", path);
    if (verbose) { fprintf(stderr, "load report (%s):\n", path); load_report_print(stderr, &lrep); }
    load_report_free(&lrep);

    report rep;
    report_init(&rep, h, level);
    anomaly_list axioms;
    anomaly_list_init(&axioms);
    uint64_t found = axioms_check(h, &axioms, (size_t)max_anomalies);
    int rc = 0;
    if (found) report_add_axioms(&rep, &axioms, found);
    else {
        double t0 = wall();
        pg_index ix;
        if (!pg_index_build(&ix, h, &err)) {
            ic_error_print(stderr, "isocheck", &err);
            anomaly_list_free(&axioms); report_free(&rep); history_free(h);
            return 2;
        }
        if (verbose)
            fprintf(stderr, "load %.3fs  index %.3fs: %llu transactions, %u sessions, %u keys, %llu writes installed, "
                    "%llu external reads, %llu read-modify-write links, %zu writer units\n",
                    load_seconds, wall() - t0, (unsigned long long)ix.num_graph_txns - 1, h->num_sessions, h->num_keys,
                    (unsigned long long)ix.num_writers, (unsigned long long)ix.num_ext_reads,
                    (unsigned long long)ix.num_links, ix.units.len - ix.num_keys);
        check_options opt;
        check_options_default(&opt);
        opt.time_limit = time_limit;
        opt.progress = progress;
        certificate cert;
        cert_init(&cert);
        /* Debug builds (make test) turn every PASS into a certificate and
         * verify it; release builds do so when one is asked for. */
#ifdef GSAT_DEBUG
        const int self_check = 1;
#else
        const int self_check = 0;
#endif
        int cert_level = -1;         /* level of the certificate built */
        for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--) {     /* SER first: its certificate proves SI too */
            if (!want[lv]) continue;
            check_result res;
            opt.progress_ctx = (void *)check_level_name((check_level_id)lv);
            check_level(&ix, (check_level_id)lv, &opt, &res);
            progress_clear();
            if (verbose) check_print_stats(stderr, &res);
            else if (res.verdict == CHECK_ERROR) fprintf(stderr, "isocheck: %s\n", res.msg);
            report_level *L = &rep.levels[rep.num_levels++];
            memset(L, 0, sizeof *L);
            L->level = lv;
            L->verdict = res.verdict == CHECK_PASS ? 0 : res.verdict == CHECK_FAIL ? 1 : 2;
            L->stage = res.stage ? res.stage : "";
            snprintf(L->msg, sizeof L->msg, "%s", res.msg);
            if (res.verdict == CHECK_FAIL) {
                L->violations = interpret_failure(&rep, lv, &res.vo, res.cycle.data, res.cycle.len, res.forced.data,
                                                  res.forced.len, (size_t)max_anomalies);
            } else if (res.verdict == CHECK_PASS && ((cert_path && cert_level < 0) || self_check)) {
                /* the witness as a certificate, checked by `isocheck verify`'s code */
                certificate one;
                cert_init(&one);
                ic_error cerr;
                ic_error_clear(&cerr);
                if (cert_build(h, &res.vo, lv == LEVEL_SI, &one, &cerr) == CERT_OK &&
                    cert_verify(h, &one, lv == LEVEL_SI, &cerr, NULL) == CERT_OK) {
                    if (cert_path && cert_level < 0) { cert_free(&cert); cert = one; cert_init(&one); cert_level = lv; }
                } else {
                    L->verdict = 2;
                    snprintf(L->msg, sizeof L->msg, "internal error: the certificate does not verify: %.400s", cerr.msg);
                }
                cert_free(&one);
            }
            check_result_free(&res);
        }
        /* report SI before SER */
        if (rep.num_levels == 2) { report_level t = rep.levels[0]; rep.levels[0] = rep.levels[1]; rep.levels[1] = t; }
        if (cert_level >= 0) {
            if (write_certificate(cert_path, h, &cert)) rep.certificate = cert_path;
            else rc = 2;
        }
        cert_free(&cert);
        pg_index_free(&ix);
    }
    if (json) report_print_json(stdout, &rep);
    else report_print_text(stdout, &rep, verbose);
    if (dot_path) {
        FILE *f = fopen(dot_path, "w");
        if (!f) { fprintf(stderr, "isocheck check: cannot write '%s'\n", dot_path); rc = 2; }
        else { report_print_dot(f, &rep); if (fclose(f) != 0) rc = 2; }
    }
    int verdict = report_exit_code(&rep);
    if (verdict) rc = verdict;
    anomaly_list_free(&axioms);
    report_free(&rep);
    history_free(h);
    return rc;
}
