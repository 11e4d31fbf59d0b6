/* cli_check.c — `isocheck check`: load, run the checking pipeline
 * (run_check.h: axioms, index, each level, interpretation of failures,
 * certificates; read anomalies, then the cycles among the rest), write the
 * certificate on PASS, print text or JSON, and optionally a Graphviz file
 * and an HTML report directory (cli_report.h).  Many histories (several
 * operands, or a directory of history files) go to cli_check_many.h.  -v prints stage
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
#include "io/bigmem.h"
#include "io/spill.h"
#include "io/output.h"
#include "par.h"
#include "frontend/formats/parse.h"
#include "frontend/run_check.h"
#include "frontend/reports/cert_file.h"
#include "programs/cli_check_many.h"
#include "programs/cli_follow.h"
#include "programs/cli_hints.h"
#include "programs/check_levels.h"
#include "programs/cli_report.h"
#include "programs/interrupt.h"

static double progress_start;
static int progress_shown;

/* Progress on stderr: only on a terminal, only after the first second. */
static void progress(void *ctx, const char *what) {
    interrupt_stage(what, (const char *)ctx);   /* where a signal finds the run (the watchdog says it) */
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
    interrupt_stage("checking", NULL);
    /* the checks read the index, not the history's per-op arrays: out of
     * resident memory until the re-check reads them (history.h; the history
     * loaded or its resolved form, never a view that shares their arrays) */
    if (ix->h == hs->h || ix->h == hs->h->resolved) history_spill(ix->h);
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

/* The command line of `isocheck check`. */
typedef struct check_args {
    const char *path, *dot_path, *cert_path, *level_arg, *report_dir;
    const char **paths;                 /* every operand (path is the first) */
    size_t num_paths;
    level_choice levels;
    cli_hint hint;
    int json, verbose, level, fmt_choice, follow, retire, white_only;   /* level: 0 si, 1 ser, 2 both (--follow, hints) */
    int retire_level;                   /* --follow --retire --level sser|strong-si: retire by time at it; else -1 */
    int64_t max_lag;                    /* --max-lag T (retiring by time), -1 not given */
    int64_t max_anomalies, threads;
    int max_anomalies_given;            /* --max-anomalies on the command line (else 10; the ladder: 1 a level) */
    double time_limit, follow_idle;
    load_options lopt;
} check_args;

/* The command line into a: -1 to go on, else the exit code. */
static int check_parse(int argc, char **argv, check_args *a) {
    memset(a, 0, sizeof *a);
    a->fmt_choice = -1;
    a->max_anomalies = 0;               /* not given: 10, set after parsing */
    a->follow_idle = -1;                /* --follow: a file ends only when told */
    a->max_lag = -1;
    a->threads = par_threads_default();
    cmd_opt opts[] = {
        CMD_CHOICE("format", 0, &a->fmt_choice, cli_format_names(), "F", "history format (default: detected)"),
        CMD_STR("level", 0, &a->level_arg, "L", "isolation level(s), listed below (default si)"),
        CMD_FLAG("json", 0, &a->json, "one JSON object (doc/json-schema.md)"),
        CMD_STR("dot", 0, &a->dot_path, "FILE", "Graphviz drawing of the anomalies"),
        CMD_STR("report", 0, &a->report_dir, "DIR", "an HTML report in DIR (new or empty): index.html, a page and an SVG "
                "drawing per anomaly, report.json; with many histories a subdirectory each (doc/cli.md, \"Report directories\")"),
        CMD_STR("certificate", 0, &a->cert_path, "FILE", "on PASS, a proof for 'isocheck verify HISTORY FILE'"),
        CMD_STR("version-order", 0, &a->hint.version_order, "FILE", "also check with the database's own (complete or partial) version order "
                "(doc/formats.md, \"Version order hints\"): both answers are printed, black-box and white-box"),
        CMD_STR("commit-order", 0, &a->hint.commit_order, "FILE", "also check with the database's commit order (transaction "
                "ids, oldest first; doc/formats.md, \"Commit order hints\"): SER by replaying it, SI under the version order it implies "
                "(doc/checker.md)"),
        CMD_FLAG("db-timestamps", 0, &a->hint.db_times, "also check with the history's own database timestamps: SER by "
                 "replay in commit timestamp order, SI by start and commit timestamps (doc/checker.md)"),
        CMD_FLAG("white-box-only", 0, &a->white_only, "with a hint: only the white-box answer (no black-box check: "
                 "the time and memory of the hint's check alone)"),
        CMD_INT("max-anomalies", 0, &a->max_anomalies, 1, 1000000000, "N", "at most N anomalies (default 10; --level ladder: the minimal one per failing level, "
                "and 10 from the read axioms)"),
        CMD_REAL("time-limit", 0, &a->time_limit, 0, 1e9, "S", "give up solving after S seconds: UNKNOWN, exit 2 (0: none)"),
        CMD_FLAG("failed-ops-abort", 0, &a->lopt.failed_ops_abort, "dbcop: a committed transaction with a failed operation is aborted"),
        CMD_FLAG("follow", 0, &a->follow, "check while the history is written (a growing file, or a pipe): print a violation as soon as it is proven, the final verdict at the end (text, Elle EDN/JSON); with repeated values the checked part is re-checked in batch as the input doubles, and a violation a later write of the same value undoes is WITHDRAWN (doc/cli.md)"),
        CMD_REAL("idle-end", 0, &a->follow_idle, 0, 1e9, "S", "with --follow: a file also ends after S seconds without new bytes (default: never; "
                 "a file ends at a line '# end' (text) or where its Elle vector/array closes, a pipe at EOF, either at SIGINT/SIGTERM)"),
        CMD_REAL("follow-idle", 0, &a->follow_idle, 0, 1e9, "S", "the same as --idle-end S"),
        CMD_FLAG("retire", 0, &a->retire, "with --follow (text): retire settled transactions behind fence transactions, in bounded memory; with --level sser or strong-si, "
                 "by the transactions' #@time invoke/complete times instead, no fences (doc/checker.md, \"Retiring by time\"); "
                 "the final report is of the live part; refuses repeated values (doc/checker.md, \"Retiring transactions\")"),
        CMD_INT("max-lag", 0, &a->max_lag, 0, INT64_MAX / 4, "T", "with --follow --retire --level sser or strong-si: the "
                "input promises that every transaction's #@time line is its last line and comes before any #@time line "
                "completing more than T time units after its invocation; then a session that stops does not hold "
                "retirement back (an input that breaks the promise is refused at its line, exit 2; doc/checker.md, "
                "\"A session that stops\")"),
        CMD_INT("threads", 0, &a->threads, 1, PAR_MAX_THREADS, "N", "threads for parsing and checking (default: the processors online; "
                "1: one thread; with --follow, 2 or more: a reader thread parses while the checks run); the output is the same for every N (with --follow: "
                "the final verdict; what is printed while following depends on when bytes arrive, with any N, and the final "
                "anomaly list keeps what was printed)"),
        CMD_FLAG("verbose", 'v', &a->verbose, "stage times, graph sizes, constraint counts, solver statistics on stderr"),
        CMD_END
    };
    cmd_spec spec = {
        "isocheck check", "[options] FILE|DIR|- ...",
        "Check a history against an isolation level.\n"
        "  PASS: the history satisfies the level; --certificate FILE writes a proof that\n"
        "        'isocheck verify HISTORY FILE' checks without any solver.\n"
        "  FAIL: up to N minimal named anomalies on disjoint transactions, each with its\n"
        "        transactions, operations, dependency edges and why each is forced.\n"
        "  Many histories (several operands, or a directory of history files): one line\n"
        "  each and a summary (doc/cli.md, \"Many histories\").\n",
        opts, "histories: FILE, DIR or -", 1, argc,
        NULL
    };
    static char epilog[3072];
    snprintf(epilog, sizeof epilog, "%s\n%s", check_levels_help(),
             "exit: 0 the history satisfies the level(s), 1 it does not (some level fails), 2 bad input,\n"
             "no answer (a level UNKNOWN, or verdicts that contradict the ladder: an internal error),\n"
             "or an output that cannot be written.  With a hint (--version-order, --commit-order,\n"
             "--db-timestamps): 1 if either answer is FAIL, else 2 if either has none.\n"
             "Many histories: 1 if any fails, else 2 if\n"
             "any has no answer or cannot be read, else 0.  130 (SIGINT) or 143 (SIGTERM):\n"
             "stopped by the signal, no verdict (what was found so far is printed).\n");
    spec.epilog = epilog;
    a->paths = xmalloc((size_t)(argc > 0 ? argc : 1) * sizeof *a->paths);
    int n, rc = cli_parse(&spec, argc, argv, a->paths, &n);
    if (rc >= 0) return rc;
    a->max_anomalies_given = a->max_anomalies != 0;
    if (!a->max_anomalies) a->max_anomalies = 10;
    a->path = a->paths[0];
    a->num_paths = (size_t)n;
    char lerr[512];
    if (!check_levels_parse(a->level_arg ? a->level_arg : "si", &a->levels, lerr, sizeof lerr)) {
        fprintf(stderr, "isocheck check: option --level: %s\n(try 'isocheck check --help')\n", lerr);
        return 2;
    }
    a->level = check_levels_si_ser(&a->levels);
    a->retire_level = a->retire && a->follow ? check_levels_retire_by_time(&a->levels) : -1;
    if (a->level < 0 && (a->follow || cli_hint_any(&a->hint)) && a->retire_level < 0) {
        fprintf(stderr, "isocheck check: %s checks si and ser only (--level si, ser or all; with --retire also sser or "
                "strong-si alone), not '%s'\n",
                a->follow ? "--follow" : a->hint.version_order ? "--version-order"
                : a->hint.commit_order ? "--commit-order" : "--db-timestamps", a->levels.arg);
        return 2;
    }
    if (a->retire && (!a->follow || a->cert_path)) {
        fprintf(stderr, "isocheck check: --retire needs --follow and no --certificate (the retired past is only summarized)\n");
        return 2;
    }
    if (a->max_lag >= 0 && a->retire_level < 0) {
        fprintf(stderr, "isocheck check: --max-lag needs --follow --retire --level sser or strong-si (retiring by time)\n");
        return 2;
    }
    if (!cli_hint_usage_ok(&a->hint, a->follow)) return 2;
    if (a->white_only && (!cli_hint_any(&a->hint) || a->cert_path || a->dot_path)) {
        fprintf(stderr, "isocheck check: --white-box-only needs a hint and no --certificate or --dot\n");
        return 2;
    }
    a->lopt.threads = (unsigned)a->threads;
    return -1;
}

/* What a check writes besides standard output, and the hint it reads. */
typedef struct check_files {
    output cert, dot;
    output_tree tree;                   /* --report DIR */
    cli_hint *hint;
} check_files;

static void check_files_drop(check_files *f) {
    output_discard(&f->cert);           /* a target stays as it was unless committed */
    output_discard(&f->dot);
    output_tree_discard(&f->tree);
    if (f->hint) cli_hint_free(f->hint);
}

/* Before any work: no output over an input, the hint read (a malformed one
 * stops here), the outputs opened (a bad path fails here, and the targets
 * stay untouched until their content is complete).  1, or 0 after an error
 * message with nothing left open. */
static int check_open(check_args *a, check_files *f) {
    memset(f, 0, sizeof *f);
    const char *outs[3] = { a->cert_path, a->dot_path, a->report_dir };
    const int is_dir[3] = { 0, 0, 1 };
    if (!cli_outputs_ok("isocheck check", a->path, outs, is_dir, 3)) return 0;
    if (!cli_hint_load(&a->hint)) return 0;
    f->hint = &a->hint;
    ic_error oerr;
    ic_error_clear(&oerr);
    if ((a->cert_path && !output_open(&f->cert, a->cert_path, 0, &oerr)) ||
        (a->dot_path && !output_open(&f->dot, a->dot_path, 0, &oerr)) ||
        (a->report_dir && !output_tree_open(&f->tree, a->report_dir, NULL, 0, &oerr))) {
        cli_error("isocheck check", &oerr);
        check_files_drop(f);
        return 0;
    }
    return 1;
}

/* The history, read in batch or followed (online first; then the batch
 * check of every byte read, or ff->ready: the incremental state's final
 * report).  -1 with *h set to go on, else the exit code (the follow ended
 * the command, or the input is bad), with f dropped. */
static int check_load(const check_args *a, check_files *f, follow_final *ff, history **h, double *load_seconds) {
    ic_error err;
    ic_error_clear(&err);
    progress_start = monotonic_seconds();
    load_report lrep;
    load_report_init(&lrep);
    int fmt = cli_format(a->fmt_choice);
    memset(ff, 0, sizeof *ff);
    *h = NULL;
    if (a->follow) {
        interrupt_stage("following the input", NULL);
        follow_options fo = { a->follow_idle, a->json, a->level != 1, a->level != 0, (size_t)a->max_anomalies,
                              (history_format)fmt, a->retire, 0, NULL, a->retire_level, a->max_lag >= 0, a->max_lag };
        fo.verbose = a->verbose;
        /* a PASS of the whole input from the incremental state (re-checked);
         * the JSON report names the batch stage, a certificate is the batch's */
        fo.final = ff;
        ff->batch_only = a->json || a->cert_path || getenv("ISOCHECK_FOLLOW_BATCH");
        int frc = cli_follow(a->path, &fo, &a->lopt, &lrep, h, &err);
        if (frc >= 0) {
            follow_final_free(ff);
            load_report_free(&lrep);
            check_files_drop(f);
            return frc;
        }
    } else {
        interrupt_stage("loading the history", NULL);
        interrupt_loading(1);           /* a signal ends the load within one block (interrupt.h) */
        *h = load_history_ex(a->path, (history_format)fmt, &a->lopt, &lrep, &err);
        interrupt_loading(0);
    }
    *load_seconds = monotonic_seconds() - progress_start;
    if (interrupt_signal()) {           /* what was read is not the history: no verdict */
        if (*h) printf("STOPPED by %s after loading %s (%u transactions)\nno verdict: stopped after loading, "
                       "before checking\n", interrupt_name(), a->path, (*h)->num_txns - 1);
        else printf("STOPPED by %s while loading %s\nno verdict: stopped while loading, before checking\n",
                    interrupt_name(), a->path);
        follow_final_free(ff);
        history_free(*h);
        *h = NULL;
        load_report_free(&lrep);
        check_files_drop(f);
        return interrupt_exit_code();
    }
    if (*h) {
        interrupt_stage_txns((*h)->num_txns - 1);
        interrupt_stage("indexing", NULL);
    }
    if (!*h) {
        follow_final_free(ff);
        ic_error_print(stderr, "isocheck", &err);
        load_report_free(&lrep);
        check_files_drop(f);
        return 2;
    }
    load_report_print_notes(stderr, &lrep, "isocheck", a->path);
    if (a->verbose) { fprintf(stderr, "load report (%s):\n", a->path); load_report_print(stderr, &lrep); }
    load_report_free(&lrep);
    return -1;
}

/* The report printed (with the white-box answer under --version-order),
 * the drawing and certificate committed; the exit code. */
static int check_print(const check_args *a, check_files *f, const history *h, report *rep, const certificate *cert,
                       int cert_level) {
    int rc = 0, wrc = -1;
    if (cert_level >= 0) {
        if (write_certificate(&f->cert, h, cert)) rep->certificate = a->cert_path;
        else rc = 2;
    } else if (a->cert_path) {
        int passed = 0;
        for (int i = 0; i < rep->num_levels; i++) passed |= rep->levels[i].verdict == VERDICT_PASS;
        if (passed)    /* said, never silent: the PASS stands (verified inside the check), the file is not written */
            fprintf(stderr, "isocheck check: no certificate written to %s: no passing level's certificate form can "
                    "state this history's chosen reads (a choice that is neither a predicate read's view nor a read of nil's "
                    "absent version; doc/certificate.md)\n", a->cert_path);
    }
    if (cli_hint_any(&a->hint)) {
        whitebox wb;
        wrc = cli_whitebox_run(h, f->hint, a->level, (unsigned)a->threads, a->time_limit, a->verbose, &wb)
            ? cli_print_both(stdout, a->white_only ? NULL : rep, &wb, a->json, a->verbose) : 2;
        whitebox_free(&wb);
    } else if (a->json && a->follow) cli_follow_print_final_json(stdout, rep);
    else if (a->json) report_print_json(stdout, rep);
    else report_print_text(stdout, rep, a->verbose);
    if (a->dot_path) {
        ic_error oerr;
        ic_error_clear(&oerr);
        report_print_dot(f->dot.f, rep);
        if (!output_commit(&f->dot, &oerr)) { cli_error("isocheck check: cannot write the drawing", &oerr); rc = 2; }
    }
    if (a->report_dir) {
        ic_error oerr;
        ic_error_clear(&oerr);
        if (!cli_report_pages(&f->tree, "", rep, NULL, &oerr) || !output_tree_commit(&f->tree, &oerr)) {
            cli_error("isocheck check: cannot write the report", &oerr);
            output_tree_discard(&f->tree);
            rc = 2;
        }
    }
    if (rep->internal_errors)
        fprintf(stderr, "isocheck: internal error: %u level%s passed while a level %s implies failed; "
                "no verdict (please report this history)\n", rep->internal_errors, rep->internal_errors == 1 ? "" : "s",
                rep->internal_errors == 1 ? "it" : "they");
    int code = wrc >= 0 ? wrc : cli_exit_code(report_verdict(rep));
    return rc ? rc : code;              /* an output that failed gives 2 whatever the verdict */
}

/* What run_check is asked for, from the command line. */
static void check_run_options(const check_args *a, run_check_options *ro) {
    run_check_options_default(ro);
    memcpy(ro->want, a->levels.want, sizeof ro->want);
    ro->max_anomalies = (size_t)a->max_anomalies;
    if (a->levels.ladder && !a->max_anomalies_given) ro->level_anomalies = 1;   /* the ladder: the minimal anomaly */
    ro->check.time_limit = a->time_limit;
    ro->check.threads = (unsigned)a->threads;
    ro->cycles_after_axioms = 1;          /* read anomalies, then the cycles among the rest */
}

/* Many histories (cli_check_many.h): the options that name one output
 * file, or follow one input, are refused. */
static int check_many_run(const check_args *a) {
    const char *one = a->follow ? "--follow" : a->cert_path ? "--certificate" : a->dot_path ? "--dot"
                    : a->hint.version_order ? "--version-order" : a->hint.commit_order ? "--commit-order"
                    : a->hint.db_times ? "--db-timestamps" : NULL;
    if (one) {
        fprintf(stderr, "isocheck check: %s takes one history; with many, use --report DIR\n", one);
        return 2;
    }
    if (a->report_dir) {
        ic_error err;
        ic_error_clear(&err);
        if (!output_tree_check(a->report_dir, &err)) { cli_error("isocheck check", &err); return 2; }
    }
    check_many m;
    memset(&m, 0, sizeof m);
    m.paths = a->paths;
    m.num_paths = a->num_paths;
    m.fmt = cli_format(a->fmt_choice);
    m.lopt = &a->lopt;
    check_run_options(a, &m.ro);
    m.ro.check.stop = interrupt_stop;   /* each level polls it (programs/interrupt.h) */
    m.level_arg = a->levels.arg;
    m.ladder = a->levels.ladder;
    for (int l = 0; l < LEVEL_COUNT; l++) m.need_times |= a->levels.named[l] && level_real_time((check_level_id)l);
    m.json = a->json;
    m.verbose = a->verbose;
    m.report_dir = a->report_dir;
    return cli_check_many(&m);
}

static int check_one(check_args *a);

int cli_check(int argc, char **argv) {
    check_args a;
    int rc = check_parse(argc, argv, &a);
    if (rc < 0 && !a.follow) {
        big_prefer_mappings();   /* stage after stage: freed arrays leave at once */
        spill_enable(cli_temp_dir());   /* the history's per-op arrays leave while the checks do not read them */
    }
    if (rc < 0) rc = cli_check_is_many(a.paths, a.num_paths, cli_format(a.fmt_choice)) ? check_many_run(&a) : check_one(&a);
    free(a.paths);
    return rc;
}

static int check_one(check_args *ap) {
    check_args a = *ap;
    int rc;
    check_files f;
    if (!check_open(&a, &f)) return 2;
    history *h;
    follow_final ff;
    double load_seconds = 0;
    interrupt_install();                /* SIGINT/SIGTERM: what is known, "no verdict", exit 128+N */
    rc = check_load(&a, &f, &ff, &h, &load_seconds);
    if (rc >= 0) { interrupt_restore(); return rc; }

    report rep;
    if (!check_levels_times_ok(&a.levels, h, "isocheck check")) {
        interrupt_restore();
        if (a.follow) follow_final_free(&ff);
        history_free(h);
        check_files_drop(&f);
        return 2;
    }
    report_init(&rep, h, a.levels.arg);
    rep.ladder = a.levels.ladder;
    run_check_options ro;
    check_run_options(&a, &ro);
    ro.check.stop = interrupt_stop;
    ro.check.progress = progress;
    ro.certificate = a.cert_path != NULL;
    interpret_trace trace;
    vec_init(trace);
    if (getenv("ISOCHECK_DEBUG_INTERPRET")) ro.trace = &trace;
    hook_state hs = { a.verbose, load_seconds, h, &trace };
    ro.on_index = on_index;
    ro.on_level = on_level;
    ro.hook_ctx = &hs;
    certificate cert;
    cert_init(&cert);
    int cert_level = -1, from_incr = 0;
    if (ff.ready) {
        char why[512] = "";
        from_incr = online_final_report(h, &ff, a.level != 1, a.level != 0, &rep, why, sizeof why);
        if (!from_incr)                 /* a bug of the incremental path: the batch check decides */
            fprintf(stderr, "isocheck: internal error: the incremental model does not verify (%s); checking in batch\n", why);
        else if (a.verbose)
            fprintf(stderr, "isocheck: follow: final verdict from the incremental state, its version orders re-checked "
                    "by verify_model\n");
    }
    ic_error err;
    ic_error_clear(&err);
    if (!from_incr && !a.white_only && !run_check(h, &ro, &rep, &cert, &cert_level, &err)) {
        ic_error_print(stderr, "isocheck", &err);
        rc = 2;
    } else {
        interrupt_reporting(1);         /* the answer is printed: the watchdog waits for it */
        /* what --follow printed as found is in the final list too (not with
         * repeated values: a later write may have undone it, follow_repeat.h) */
        if (a.follow && !h->num_repeated) online_found_merge(&ff.found, h, &rep, (size_t)a.max_anomalies);
        if (a.follow) cli_follow_print_withdrawn(&ff, h, &rep, a.json, 1);
        rc = check_print(&a, &f, h, &rep, &cert, cert_level);
        if (a.follow) cli_follow_print_withdrawn(&ff, h, &rep, a.json, 0);
    }
    if (a.follow) follow_final_free(&ff);
    for (int i = 0; i < rep.num_levels; i++)       /* a level the signal left undecided: its own exit code */
        if (interrupt_signal() && rep.levels[i].verdict == VERDICT_UNKNOWN) rc = interrupt_exit_code();
    interrupt_restore();
    cert_free(&cert);
    interpret_trace_free(&trace);
    report_free(&rep);
    history_free(h);
    check_files_drop(&f);               /* no certificate (no PASS): the target stays as it was */
    return rc;
}
