/* cli_gen.c — `isocheck gen`: generate a workload, run it on the embedded
 * MVCC simulator at a level (optionally with a fault), and write the
 * history plus its ground truth (OUT.truth, JSON). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "error.h"
#include "programs/cli.h"
#include "io/output.h"
#include "frontend/formats/parse.h"
#include "frontend/formats/write.h"
#include "workload/gen_writer.h"
#include "workload/commit_out.h"
#include "workload/version_out.h"
#include "workload/workload.h"

/* Histories for the in-memory writers (cobra, elle) stay below this many ops. */
#define MODEL_MAX_OPS 60000000ULL

static int given(const cmd_opt *opts, const char *name) {
    for (; opts->kind != CMD_KIND_END; opts++)
        if (!strcmp(opts->name, name)) return opts->given;
    return 0;
}

/* "a, b, c" -> { "a", "b", "c", NULL } in buf (names of presets). */
static void split_names(const char *list, char *buf, size_t n, const char **names, size_t max) {
    snprintf(buf, n, "%s", list);
    size_t k = 0;
    for (char *p = strtok(buf, ", "); p && k + 1 < max; p = strtok(NULL, ", ")) names[k++] = p;
    names[k] = NULL;
}

/* Progress on stderr when it is a terminal. */
typedef struct progress { int on; time_t last; } progress;

static void show_progress(void *ctx, uint64_t done, uint64_t total) {
    progress *pr = ctx;
    time_t now = time(NULL);
    if (!pr->on || (now == pr->last && done < total)) return;
    pr->last = now;
    int width = 40, fill = total ? (int)(width * done / total) : width;
    fprintf(stderr, "\rgen [%.*s%*s] %3d%% %" PRIu64 "/%" PRIu64 " txns", fill,
            "########################################", width - fill, "",
            total ? (int)(100 * done / total) : 100, done, total);
    if (done >= total) fputc('\n', stderr);
    fflush(stderr);
}

/* What the command line asks for besides the workload. */
typedef struct gen_request {
    const char *out, *truth_path, *vo_path, *co_path;   /* --version-order-out, --commit-order-out */
    int verbose, no_truth, force, times;
    int fmt_choice;              /* index in cli_write_format_names() */
} gen_request;

/* The command line into p (a preset, then the options given) and q:
 * -1 to go on, else the exit code. */
static int gen_parse(int argc, char **argv, workload_params *p, gen_request *q) {
    workload_defaults(p);
    *q = (gen_request){ 0 };
    int no_retry = 0, preset = -1;
    int dist = (int)p->dist, level = (int)p->level, fault = (int)p->fault;
    uint64_t sessions = p->sessions, txns = p->txns_per_session, ops = p->ops_per_txn, keys = p->keys,
             long_ops = p->long_ops, lag = p->lag, seed = p->seed, fence_every = 0, first_txns = 0;
    double reads = p->read_fraction, zipf = p->zipf_exponent, long_fraction = p->long_fraction, fault_rate = p->fault_rate,
           repeat_values = 0;
    char preset_buf[256];
    const char *preset_names[16];
    split_names(workload_preset_names(), preset_buf, sizeof preset_buf, preset_names, 16);
    const char *dist_names[] = { keydist_name(KEYDIST_UNIFORM), keydist_name(KEYDIST_ZIPF), keydist_name(KEYDIST_HOTSPOT), NULL };
    const char *level_names[] = { sim_level_name(SIM_SER), sim_level_name(SIM_SI), sim_level_name(SIM_RC), NULL };
    const char *fault_names[FAULT_COUNT + 1];
    for (int f = 0; f < FAULT_COUNT; f++) fault_names[f] = sim_fault_name((sim_fault)f);
    fault_names[FAULT_COUNT] = NULL;
    cmd_opt opts[] = {
        CMD_CHOICE("preset", 0, &preset, preset_names, "P", "a workload of the PolySI paper (other options override it)"),
        CMD_U64("sessions", 0, &sessions, 1, 1000000, "N", "client sessions (default 20)"),
        CMD_U64("txns", 0, &txns, 1, INT32_MAX, "N", "committed transactions per session (default 100)"),
        CMD_U64("first-session-txns", 0, &first_txns, 0, INT32_MAX, "N", "session 1 commits only N transactions and "
                "stops, the others --txns each (default 0: as the others; a client that stops early: doc/checker.md, "
                "\"A session that stops\")"),
        CMD_U64("ops", 0, &ops, 1, 1000000, "N", "operations per transaction (default 15)"),
        CMD_U64("keys", 0, &keys, 1, (uint64_t)1 << 32, "N", "number of keys (default 10000)"),
        CMD_REAL("reads", 0, &reads, 0, 1, "F", "read fraction (default 0.5)"),
        CMD_CHOICE("dist", 0, &dist, dist_names, "D", "key distribution (default zipf)"),
        CMD_REAL("zipf", 0, &zipf, 0, 10, "S", "zipf exponent, > 0 (default 0.5)"),
        CMD_REAL("long-fraction", 0, &long_fraction, 0, 1, "F", "fraction of long transactions (default 0)"),
        CMD_U64("long-ops", 0, &long_ops, 1, 1000000, "N", "operations per long transaction (default 150)"),
        CMD_CHOICE("level", 0, &level, level_names, "L", "ser: commit-time validation, si: snapshot and first-committer-wins (default si)"),
        CMD_CHOICE("fault", 0, &fault, fault_names, "F", "fault to inject (default none; see below)"),
        CMD_REAL("fault-rate", 0, &fault_rate, 0, 1, "F", "fraction of transactions (dirty reads: reads) faulted (default 0.1)"),
        CMD_U64("lag", 0, &lag, 0, UINT32_MAX, "N", "replica lag in commits (default 2*sessions)"),
        CMD_REAL("repeat-values", 0, &repeat_values, 0, 1, "F", "this fraction of writes write again a value the key held before (default 0: every value unique; issue 35)"),
        CMD_U64("fence-every", 0, &fence_every, 0, UINT32_MAX - 1, "N", "after every N transactions each session runs a fence transaction on a reserved key (default 0: none; doc/checker.md)"),
        CMD_U64("seed", 0, &seed, 0, UINT64_MAX, "S", "random seed (default 1)"),
        CMD_CHOICE("format", 0, &q->fmt_choice, cli_write_format_names(), "F", "output format (default text)"),
        CMD_STR("output", 'o', &q->out, "OUT", "output (\"-\": stdout, text and elle only)"),
        CMD_FLAG("force", 0, &q->force, "replace an existing OUT and OUT.truth (cobra: the *.log files in OUT)"),
        CMD_FLAG("times", 0, &q->times, "write each transaction's real invoke/complete times and the store's start/commit timestamps (text and elle; doc/workload.md)"),
        CMD_FLAG("no-retry", 0, &no_retry, "record aborted transactions without running them again"),
        CMD_STR("truth", 0, &q->truth_path, "FILE", "ground truth to FILE (default OUT.truth when OUT is a path)"),
        CMD_FLAG("no-truth", 0, &q->no_truth, "no ground truth file"),
        CMD_STR("version-order-out", 0, &q->vo_path, "FILE", "the store's own version order to FILE, for 'check --version-order' (doc/formats.md)"),
        CMD_STR("commit-order-out", 0, &q->co_path, "FILE", "the store's own commit order (committed transaction ids) to FILE, for 'check --commit-order' (doc/formats.md)"),
        CMD_FLAG("verbose", 'v', &q->verbose, "print the ground truth to stderr"),
        CMD_END
    };
    char epilog[2048];
    size_t el = (size_t)snprintf(epilog, sizeof epilog, "faults:\n");
    for (int f = 0; f < FAULT_COUNT && el < sizeof epilog; f++)
        el += (size_t)snprintf(epilog + el, sizeof epilog - el, "  %-20s %s\n", sim_fault_name((sim_fault)f), sim_fault_desc((sim_fault)f));
    if (el < sizeof epilog)
        snprintf(epilog + el, sizeof epilog - el, "\ntext leaves aborted transactions out (the format has no aborts); the same --seed\n"
                 "reproduces the same history byte for byte.  An existing OUT or OUT.truth is only\n"
                 "replaced with --force.\n");
    cmd_spec spec = {
        "isocheck gen", "[--preset P] [options] [--format text|dbcop|cobra|elle] -o OUT",
        "Generate a workload, execute it on the embedded multi-version store and write the\n"
        "history (cobra: a directory) and its ground truth to OUT.truth (JSON).\n",
        opts, "no operands (the output is -o OUT)", 0, 0, epilog
    };
    int n, rc = cli_parse(&spec, argc, argv, NULL, &n);
    if (rc >= 0) return rc;
    if (!q->out) { fprintf(stderr, "isocheck gen: no output given (-o OUT)\n(try 'isocheck gen --help')\n"); return 2; }
    int fmt = cli_write_format(q->fmt_choice);
    if (q->times && fmt != FORMAT_TEXT && fmt != FORMAT_ELLE) {
        fprintf(stderr, "isocheck gen: --times: %s has no per-transaction times (use text or elle)\n",
                cli_write_format_names()[q->fmt_choice]);
        return 2;
    }
    if (preset >= 0) workload_preset(p, preset_names[preset]);     /* explicit options override it */
    if (given(opts, "sessions")) p->sessions = (uint32_t)sessions;
    if (given(opts, "txns")) p->txns_per_session = (uint32_t)txns;
    if (given(opts, "ops")) p->ops_per_txn = (uint32_t)ops;
    if (given(opts, "keys")) p->keys = keys;
    if (given(opts, "reads")) p->read_fraction = reads;
    if (given(opts, "dist")) p->dist = (keydist_kind)dist;
    if (given(opts, "zipf")) p->zipf_exponent = zipf;
    if (given(opts, "long-fraction")) p->long_fraction = long_fraction;
    if (given(opts, "long-ops")) p->long_ops = (uint32_t)long_ops;
    if (given(opts, "level")) p->level = (sim_level)level;
    if (given(opts, "fault")) p->fault = (sim_fault)fault;
    if (given(opts, "fault-rate")) p->fault_rate = fault_rate;
    if (given(opts, "lag")) p->lag = (uint32_t)lag;
    if (given(opts, "seed")) p->seed = seed;
    p->fence_every = (uint32_t)fence_every;
    p->first_session_txns = (uint32_t)first_txns;
    p->repeat_values = repeat_values;
    if (no_retry) p->retry = 0;
    return -1;
}

/* Runs the simulator into the history at out: streamed (text, dbcop) or
 * built in memory and written (cobra, elle).  1 done, 0 failed (err set),
 * -1 failed and said why. */
/* The recorders in front of the history's sink and times sink (NULL: not
 * asked for). */
typedef struct gen_tees { vo_tee *vo; co_tee *co; sim_sink mid; sim_times_sink ts; } gen_tees;

static sim_sink tee_up(const gen_request *q, const sim_sink *inner, sim_times_sink *ts, gen_tees *tees) {
    sim_sink sink = *inner;
    if (q->vo_path) sink = vo_tee_sink(tees->vo = vo_tee_new(inner));
    tees->mid = sink;
    tees->ts = *ts;
    if (q->co_path) {
        tees->co = co_tee_new(&tees->mid, &tees->ts, cli_write_format(q->fmt_choice) == FORMAT_DBCOP);
        sink = co_tee_sink(tees->co);
        *ts = co_tee_times(tees->co);
    }
    return sink;
}

static int gen_history(const workload_params *p, const gen_request *q, unsigned flags, sim_truth *truth, gen_tees *tees,
                       ic_error *err) {
    int fmt = cli_write_format(q->fmt_choice);
    uint64_t total = (uint64_t)p->sessions * p->txns_per_session;
    progress pr = { isatty(2) && total >= 100000, 0 };
    int ok;
    if (fmt == FORMAT_TEXT || fmt == FORMAT_DBCOP) {
        gen_writer *w = gen_writer_open((history_format)fmt, q->out, p, cli_temp_dir(), err);
        if (!w) return 0;
        sim_times_sink ts = { NULL, NULL };
        if (q->times) ts = gen_writer_times(w);
        sim_sink inner = gen_writer_sink(w), sink = tee_up(q, &inner, &ts, tees);
        ok = sim_run_timed(p, &sink, &ts, truth, show_progress, &pr, err);
        ok = gen_writer_close(w, ok, err);
    } else {
        uint64_t longest = p->long_fraction > 0 && p->long_ops > p->ops_per_txn ? p->long_ops : p->ops_per_txn;
        if (total * longest > MODEL_MAX_OPS) {
            fprintf(stderr, "isocheck gen: %s output is built in memory and limited to %llu operations; "
                            "use text or dbcop (streamed) and convert\n", cli_write_format_names()[q->fmt_choice],
                    (unsigned long long)MODEL_MAX_OPS);
            return -1;
        }
        model_sink *m = model_sink_new(q->out, p->sessions, 0);
        sim_times_sink ts = { NULL, NULL };
        if (q->times) ts = model_sink_times(m);
        sim_sink inner = model_sink_sink(m), sink = tee_up(q, &inner, &ts, tees);
        ok = sim_run_timed(p, &sink, &ts, truth, show_progress, &pr, err);
        history *h = model_sink_finish(m, err);
        ok = ok && h && history_write_file(h, (history_format)fmt, q->out, flags, NULL, 0, err);
        if (h) history_free(h);
    }
    return ok;
}

int cli_gen(int argc, char **argv) {
    workload_params p;
    gen_request q;
    int rc = gen_parse(argc, argv, &p, &q);
    if (rc >= 0) return rc;
    const char *out = q.out;
    int fmt = cli_write_format(q.fmt_choice);
    ic_error err;
    ic_error_clear(&err);
    if (!workload_validate(&p, &err)) { ic_error_print(stderr, "isocheck gen", &err); return 2; }

    /* the ground truth goes beside a history file or directory, not beside stdout or a device */
    struct stat st;
    int plain = strcmp(out, "-") && (stat(out, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
    char *tp = NULL;
    if (!q.no_truth && (q.truth_path || plain)) {
        size_t tn = strlen(q.truth_path ? q.truth_path : out) + 8;
        tp = xmalloc(tn);
        if (q.truth_path) snprintf(tp, tn, "%s", q.truth_path); else snprintf(tp, tn, "%s.truth", out);
    }
    /* nothing is replaced without --force; everything is checked before the run */
    unsigned flags = q.force ? OUTPUT_FORCE : OUTPUT_NO_CLOBBER;
    const char *outs[4] = { out, tp, q.vo_path, q.co_path };
    output truth_out, vo_out, co_out;
    memset(&truth_out, 0, sizeof truth_out);
    memset(&vo_out, 0, sizeof vo_out);
    memset(&co_out, 0, sizeof co_out);
    if (!cli_outputs_ok("isocheck gen", NULL, outs, NULL, 4) ||
        (q.vo_path && !output_open(&vo_out, q.vo_path, flags, &err)) ||
        (q.co_path && !output_open(&co_out, q.co_path, flags, &err)) ||
        !output_may_write(out, fmt == FORMAT_COBRA || fmt == FORMAT_VIPER, flags, &err) ||
        (tp && !output_open(&truth_out, tp, flags, &err))) {
        if (err.set) cli_error("isocheck gen", &err);
        output_discard(&vo_out);
        output_discard(&co_out);
        free(tp);
        return 2;
    }
    free(tp);

    sim_truth truth;
    gen_tees tees = { NULL, NULL, { NULL, NULL }, { NULL, NULL } };
    int ok = gen_history(&p, &q, flags, &truth, &tees, &err);
    if (ok > 0 && tees.vo && (!vo_tee_write(tees.vo, vo_out.f) || !output_commit(&vo_out, &err))) {
        if (!err.set) ic_error_at(&err, q.vo_path, 0, "cannot write the version order");
        ok = 0;
    }
    if (ok > 0 && tees.co && (!co_tee_write(tees.co, co_out.f) || !output_commit(&co_out, &err))) {
        if (!err.set) ic_error_at(&err, q.co_path, 0, "cannot write the commit order");
        ok = 0;
    }
    vo_tee_free(tees.vo);
    co_tee_free(tees.co);
    if (ok <= 0) {
        if (ok == 0) ic_error_print(stderr, "isocheck gen", &err);
        output_discard(&truth_out);
        output_discard(&vo_out);
        output_discard(&co_out);
        return 2;
    }
    if (truth_out.f) {
        sim_truth_json(truth_out.f, &p, &truth);
        if (!output_commit(&truth_out, &err)) { cli_error("isocheck gen: cannot write the ground truth", &err); return 2; }
    }
    if (q.verbose) sim_truth_json(stderr, &p, &truth);
    return 0;
}
