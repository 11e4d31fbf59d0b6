/* cli_check.c — `isocheck check`: load, run the checking pipeline
 * (run_check.h: axioms, index, each level, interpretation of failures,
 * certificates), write the certificate on PASS, print text or JSON, and
 * optionally a Graphviz file.  -v prints stage
 * times, graph sizes, constraint counts and solver statistics on stderr; a
 * progress line appears on stderr for runs longer than a second when it is
 * a terminal. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "monotonic.h"
#include "frontend/reports/check_report.h"
#include "programs/cli.h"
#include "io/output.h"
#include "par.h"
#include "frontend/formats/parse.h"
#include "frontend/run_check.h"
#include "frontend/reports/cert_file.h"
#include "programs/cli_follow.h"
#include "programs/cli_hints.h"

static double progress_start;
static int progress_shown;

/* Progress on stderr: only on a terminal, only after the first second. */
static void progress(void *ctx, const char *what) {
    double el = monotonic_seconds() - progress_start;
    if (el < 1.0 || !isatty(2)) return;
    fprintf(stderr, "\r\033[Kisocheck: %s: %s (%.1fs)", (const char *)ctx, what, el);
    fflush(stderr);
    progress_shown = 1;
}

static void progress_clear(void) {
    if (progress_shown) { fprintf(stderr, "\r\033[K"); fflush(stderr); progress_shown = 0; }
}

/* Write c through the output opened for it; 1 on success. */
static int write_certificate(output *o, const history *h, const certificate *c) {
    ic_error err;
    ic_error_clear(&err);
    cert_write(o->f, h, c);
    if (output_commit(o, &err)) return 1;
    cli_error("isocheck check: cannot write the certificate", &err);
    return 0;
}

/* What the pipeline's hooks print: -v statistics, errors, the
 * interpretation's candidates when ISOCHECK_DEBUG_INTERPRET is set. */
typedef struct hook_state {
    int verbose;
    double load_seconds;
    const history *h;
    interpret_trace *trace;
} hook_state;

static void on_index(void *ctx, const pg_index *ix, double seconds) {
    const hook_state *hs = ctx;
    if (!hs->verbose) return;
    fprintf(stderr, "load %.3fs  index %.3fs: %llu transactions, %u sessions, %u keys, %llu writes installed, "
            "%llu external reads, %llu read-modify-write links, %zu writer units\n",
            hs->load_seconds, seconds, (unsigned long long)ix->num_graph_txns - 1, hs->h->num_sessions,
            hs->h->num_keys, (unsigned long long)ix->num_writers, (unsigned long long)ix->num_ext_reads,
            (unsigned long long)ix->num_links, ix->units.len - ix->num_keys);
}

static void on_level(void *ctx, const check_result *res) {
    hook_state *hs = ctx;
    progress_clear();
    if (hs->verbose) check_print_stats(stderr, res);
    else if (res->verdict == VERDICT_UNKNOWN) fprintf(stderr, "isocheck: %s\n", res->msg);
    vec_foreach(const interpret_candidate, ca, *hs->trace) {
        fprintf(stderr, "candidate |S|=%u len=%zu unforced=%u:", ca->num_txns, ca->cycle.len, ca->unforced);
        vec_foreach(const dep_edge, e, ca->cycle)
            fprintf(stderr, " %" PRId64 "-%s-", hs->h->txns[e->from].ext_id, dep_kind_name((dep_kind)e->kind));
        fprintf(stderr, "\n");
    }
    interpret_trace_free(hs->trace);
}

int cli_check(int argc, char **argv) {
    const char *dot_path = NULL, *cert_path = NULL, *hint_path = NULL;
    int json = 0, verbose = 0, level = 0, fmt_choice = -1;
    int64_t max_anomalies = 10;
    double time_limit = 0, follow_idle = 5;
    int follow = 0, retire = 0;
    int64_t threads = par_threads_default();
    load_options lopt = { 0 };
    cmd_opt opts[] = {
        CMD_CHOICE("format", 0, &fmt_choice, cli_format_names(), "F", "history format (default: detected)"),
        CMD_CHOICE("level", 0, &level, cli_level_all_names, "L", "isolation level (default si; all: si and ser)"),
        CMD_FLAG("json", 0, &json, "one JSON object (doc/json-schema.md)"),
        CMD_STR("dot", 0, &dot_path, "FILE", "Graphviz drawing of the anomalies"),
        CMD_STR("certificate", 0, &cert_path, "FILE", "on PASS, a proof for 'isocheck verify HISTORY FILE'"),
        CMD_STR("version-order", 0, &hint_path, "FILE", "also check with the database's own (complete or partial) version order "
                "(doc/formats.md, \"Version order hints\"): both answers are printed, black-box and white-box"),
        CMD_INT("max-anomalies", 0, &max_anomalies, 1, 1000000000, "N", "at most N anomalies (default 10)"),
        CMD_REAL("time-limit", 0, &time_limit, 0, 1e9, "S", "give up solving after S seconds: UNKNOWN, exit 2 (0: none)"),
        CMD_FLAG("failed-ops-abort", 0, &lopt.failed_ops_abort, "dbcop: a committed transaction with a failed operation is aborted"),
        CMD_FLAG("follow", 0, &follow, "check while the history is written (a growing file, or a pipe): print a violation as soon as it is proven, the final verdict at the end (text, Elle EDN/JSON)"),
        CMD_REAL("follow-idle", 0, &follow_idle, 0, 1e9, "S", "with --follow: a file ends after S seconds without new bytes (default 5; a pipe ends at EOF)"),
        CMD_FLAG("retire", 0, &retire, "with --follow (text): retire settled transactions behind fence transactions, in bounded memory; the final report is of the live part (doc/checker.md, \"Retiring transactions\")"),
        CMD_INT("threads", 0, &threads, 1, PAR_MAX_THREADS, "N", "threads for parsing and checking (default: the processors online; "
                "1: one thread); the output is the same for every N"),
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
        "or an output that cannot be written.  With --version-order: 1 if either answer\n"
        "is FAIL, else 2 if either has none.\n"
    };
    const char *path;
    int n, rc = cli_parse(&spec, argc, argv, &path, &n);
    if (rc >= 0) return rc;
    int fmt = cli_format(fmt_choice);
    if (retire && (!follow || cert_path)) {
        fprintf(stderr, "isocheck check: --retire needs --follow and no --certificate (the retired past is only summarized)\n");
        return 2;
    }
    if (hint_path && follow) {
        fprintf(stderr, "isocheck check: --version-order is not available with --follow\n");
        return 2;
    }
    lopt.threads = (unsigned)threads;
    const char *outs[2] = { cert_path, dot_path };
    if (!cli_outputs_ok("isocheck check", path, outs, NULL, 2)) return 2;
    version_hint vh;                    /* read first: a malformed hint stops before any work */
    memset(&vh, 0, sizeof vh);
    if (hint_path && !cli_hint_load(hint_path, &vh)) return 2;
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
            version_hint_free(&vh);
            return 2;
        }
    }

    ic_error err;
    ic_error_clear(&err);
    progress_start = monotonic_seconds();
    load_report lrep;
    load_report_init(&lrep);
    history *h;
    follow_final ff;
    memset(&ff, 0, sizeof ff);
    if (follow) {                       /* online first; then the batch check of every byte read */
        follow_options fo = { follow_idle, json, level != 1, level != 0, (size_t)max_anomalies, (history_format)fmt, retire, 0, NULL };
        fo.verbose = verbose;
        /* a PASS of the whole input from the incremental state (re-checked);
         * the JSON report names the batch stage, a certificate is the batch's */
        if (!json && !cert_path && !getenv("ISOCHECK_FOLLOW_BATCH")) fo.final = &ff;
        int frc = cli_follow(path, &fo, &lopt, &lrep, &h, &err);
        if (frc >= 0) {
            for (int l = 0; l < 2; l++) incr_order_free(&ff.order[l]);
            load_report_free(&lrep);
            output_discard(&cert_out); output_discard(&dot_out);
            return frc;
        }
    } else h = load_history_ex(path, (history_format)fmt, &lopt, &lrep, &err);
    double load_seconds = monotonic_seconds() - progress_start;
    if (!h) {
        for (int l = 0; l < 2; l++) incr_order_free(&ff.order[l]);
        ic_error_print(stderr, "isocheck", &err);
        load_report_free(&lrep);
        output_discard(&cert_out); output_discard(&dot_out);
        version_hint_free(&vh);
        return 2;
    }
    load_report_print_notes(stderr, &lrep, "isocheck", path);
    if (verbose) { fprintf(stderr, "load report (%s):\n", path); load_report_print(stderr, &lrep); }
    load_report_free(&lrep);

    report rep;
    report_init(&rep, h, cli_level_all_names[level]);
    run_check_options ro;
    run_check_options_default(&ro);
    ro.want[LEVEL_SI] = level != 1;       /* si or all */
    ro.want[LEVEL_SER] = level != 0;      /* ser or all */
    ro.max_anomalies = (size_t)max_anomalies;
    ro.check.time_limit = time_limit;
    ro.check.progress = progress;
    ro.check.threads = (unsigned)threads;
    ro.certificate = cert_path != NULL;
    interpret_trace trace;
    vec_init(trace);
    if (getenv("ISOCHECK_DEBUG_INTERPRET")) ro.trace = &trace;
    hook_state hs = { verbose, load_seconds, h, &trace };
    ro.on_index = on_index;
    ro.on_level = on_level;
    ro.hook_ctx = &hs;
    certificate cert;
    cert_init(&cert);
    int cert_level = -1;
    rc = 0;
    int from_incr = 0;
    if (ff.ready) {
        char why[512] = "";
        from_incr = online_final_report(h, &ff, level != 1, level != 0, &rep, why, sizeof why);
        if (!from_incr)                 /* a bug of the incremental path: the batch check decides */
            fprintf(stderr, "isocheck: internal error: the incremental model does not verify (%s); checking in batch\n", why);
        else if (verbose)
            fprintf(stderr, "isocheck: follow: final verdict from the incremental state, its version orders re-checked "
                    "by verify_model\n");
    }
    if (!from_incr && !run_check(h, &ro, &rep, &cert, &cert_level, &err)) {
        ic_error_print(stderr, "isocheck", &err);
        cert_free(&cert); interpret_trace_free(&trace); report_free(&rep); history_free(h); version_hint_free(&vh);
        output_discard(&cert_out); output_discard(&dot_out);
        return 2;
    }
    if (cert_level >= 0) {
        if (write_certificate(&cert_out, h, &cert)) rep.certificate = cert_path;
        else rc = 2;
    }
    cert_free(&cert);
    interpret_trace_free(&trace);
    whitebox wb;
    int wrc = -1;
    if (hint_path) {
        wrc = cli_whitebox_run(h, &vh, level, (unsigned)threads, time_limit, verbose, &wb)
            ? cli_print_both(stdout, &rep, &wb, json, verbose) : 2;
        whitebox_free(&wb);
    } else if (json && follow) cli_follow_print_final_json(stdout, &rep);
    else if (json) report_print_json(stdout, &rep);
    else report_print_text(stdout, &rep, verbose);
    output_discard(&cert_out);          /* no certificate (no PASS): the target stays as it was */
    if (dot_path) {
        ic_error oerr;
        ic_error_clear(&oerr);
        report_print_dot(dot_out.f, &rep);
        if (!output_commit(&dot_out, &oerr)) { cli_error("isocheck check: cannot write the drawing", &oerr); rc = 2; }
    }
    int code = wrc >= 0 ? wrc : cli_exit_code(report_verdict(&rep));
    if (rc == 0) rc = code;             /* an output that failed gives 2 whatever the verdict */
    report_free(&rep);
    history_free(h);
    version_hint_free(&vh);
    return rc;
}
