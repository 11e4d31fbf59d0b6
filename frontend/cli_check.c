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
#include "frontend/cli_follow.h"
#include "frontend/interpret.h"
#include "frontend/output.h"
#include "frontend/parse.h"
#include "frontend/report.h"

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

static const char *const level_names[] = { "si", "ser", "all", NULL };

/* Write c through the output opened for it; 1 on success. */
static int write_certificate(output *o, const history *h, const certificate *c) {
    ic_error err;
    ic_error_clear(&err);
    cert_write(o->f, h, c);
    if (output_commit(o, &err)) return 1;
    cli_error("isocheck check: cannot write the certificate", &err);
    return 0;
}

int cli_check(int argc, char **argv) {
    const char *dot_path = NULL, *cert_path = NULL;
    int json = 0, verbose = 0, level = 0, fmt_choice = -1;
    int64_t max_anomalies = 10;
    double time_limit = 0, follow_idle = 5;
    int follow = 0;
    load_options lopt = { 0 };
    cmd_opt opts[] = {
        CMD_CHOICE("format", 0, &fmt_choice, cli_format_names, "F", "history format (default: detected)"),
        CMD_CHOICE("level", 0, &level, level_names, "L", "isolation level (default si; all: si and ser)"),
        CMD_FLAG("json", 0, &json, "one JSON object (doc/json-schema.md)"),
        CMD_STR("dot", 0, &dot_path, "FILE", "Graphviz drawing of the anomalies"),
        CMD_STR("certificate", 0, &cert_path, "FILE", "on PASS, a proof for 'isocheck verify HISTORY FILE'"),
        CMD_INT("max-anomalies", 0, &max_anomalies, 1, 1000000000, "N", "at most N anomalies (default 10)"),
        CMD_REAL("time-limit", 0, &time_limit, 0, 1e9, "S", "give up solving after S seconds: UNKNOWN, exit 2 (0: none)"),
        CMD_FLAG("failed-ops-abort", 0, &lopt.failed_ops_abort, "dbcop: a committed transaction with a failed operation is aborted"),
        CMD_FLAG("follow", 0, &follow, "check while the history is written (a growing file, or a pipe): print a violation as soon as it is proven, the final verdict at the end (text, Elle EDN/JSON)"),
        CMD_REAL("follow-idle", 0, &follow_idle, 0, 1e9, "S", "with --follow: a file ends after S seconds without new bytes (default 5; a pipe ends at EOF)"),
        CMD_FLAG("verbose", 'v', &verbose, "stage times, graph sizes, constraint counts, solver statistics on stderr"),
        CMD_END
    };
    cmd_spec spec = {
        "isocheck check", "[options] FILE|DIR|-",
        "Check a history against an isolation level.\n"
        "  PASS: the history satisfies the level; --certificate FILE writes a proof that\n"
        "        'isocheck verify HISTORY FILE' checks without any solver.\n"
        "  FAIL: up to N minimal named anomalies on disjoint transactions, each with its\n"
        "        transactions, operations, dependency edges and why each is forced.\n",
        opts, "one history: FILE, DIR or -", 1, 1,
        "exit: 0 the history satisfies the level, 1 it does not, 2 bad input, no answer,\n"
        "or an output that cannot be written.\n"
    };
    const char *path;
    int n, rc = cli_parse(&spec, argc, argv, &path, &n);
    if (rc >= 0) return rc;
    int want[2];
    want[LEVEL_SI] = level != 1;       /* si or all */
    want[LEVEL_SER] = level != 0;      /* ser or all */
    int fmt = cli_format(fmt_choice);
    const char *outs[2] = { cert_path, dot_path };
    if (!cli_outputs_ok("isocheck check", path, outs, NULL, 2)) return 2;
    /* open the outputs first: a bad path fails before any work, and the
     * targets stay untouched until their content is complete */
    output cert_out, dot_out;
    memset(&cert_out, 0, sizeof cert_out);
    memset(&dot_out, 0, sizeof dot_out);
    {
        ic_error oerr;
        ic_error_clear(&oerr);
        if ((cert_path && !output_open(&cert_out, cert_path, 0, &oerr)) ||
            (dot_path && !output_open(&dot_out, dot_path, 0, &oerr))) {
            cli_error("isocheck check", &oerr);
            output_discard(&cert_out);
            return 2;
        }
    }

    ic_error err;
    ic_error_clear(&err);
    progress_start = wall();
    load_report lrep;
    load_report_init(&lrep);
    history *h;
    if (follow) {                       /* online first; then the batch check of every byte read */
        follow_options fo = { follow_idle, json, want[LEVEL_SI], want[LEVEL_SER], (size_t)max_anomalies, (history_format)fmt };
        char *bytes = NULL;
        size_t nbytes = 0;
        history_format ffmt = (history_format)fmt;
        int frc = cli_follow(path, &fo, &bytes, &nbytes, &ffmt);
        if (frc >= 0) {
            load_report_free(&lrep);
            output_discard(&cert_out); output_discard(&dot_out);
            return frc;
        }
        h = load_history_mem_ex(bytes, nbytes, ffmt, path, &lopt, &lrep, &err);
        free(bytes);
    } else h = load_history_ex(path, (history_format)fmt, &lopt, &lrep, &err);
    double load_seconds = wall() - progress_start;
    if (!h) {
        ic_error_print(stderr, "isocheck", &err);
        load_report_free(&lrep);
        output_discard(&cert_out); output_discard(&dot_out);
        return 2;
    }
    load_report_print_notes(stderr, &lrep, "isocheck", path);
    if (verbose) { fprintf(stderr, "load report (%s):\n", path); load_report_print(stderr, &lrep); }
    load_report_free(&lrep);

    report rep;
    report_init(&rep, h, level_names[level]);
    anomaly_list axioms;
    anomaly_list_init(&axioms);
    uint64_t found = axioms_check(h, &axioms, (size_t)max_anomalies);
    rc = 0;
    if (found) report_add_axioms(&rep, &axioms, found);
    else {
        double t0 = wall();
        pg_index ix;
        if (!pg_index_build(&ix, h, &err)) {
            ic_error_print(stderr, "isocheck", &err);
            anomaly_list_free(&axioms); report_free(&rep); history_free(h);
            output_discard(&cert_out); output_discard(&dot_out);
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
            if (write_certificate(&cert_out, h, &cert)) rep.certificate = cert_path;
            else rc = 2;
        }
        cert_free(&cert);
        pg_index_free(&ix);
    }
    if (json && follow) cli_follow_print_final_json(stdout, &rep);
    else if (json) report_print_json(stdout, &rep);
    else report_print_text(stdout, &rep, verbose);
    output_discard(&cert_out);          /* no certificate (no PASS): the target stays as it was */
    if (dot_path) {
        ic_error oerr;
        ic_error_clear(&oerr);
        report_print_dot(dot_out.f, &rep);
        if (!output_commit(&dot_out, &oerr)) { cli_error("isocheck check: cannot write the drawing", &oerr); rc = 2; }
    }
    int verdict = report_exit_code(&rep);
    if (rc == 0) rc = verdict;          /* an output that failed gives 2 whatever the verdict */
    anomaly_list_free(&axioms);
    report_free(&rep);
    history_free(h);
    return rc;
}
