/* cli_gen.c — `isocheck gen`: generate a workload, run it on the embedded
 * MVCC simulator at a level (optionally with a fault), and write the
 * history plus its ground truth (OUT.truth, JSON). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "error.h"
#include "frontend/cli.h"
#include "frontend/parse.h"
#include "frontend/write.h"
#include "bench/workload/gen_writer.h"
#include "bench/workload/workload.h"

/* Histories for the in-memory writers (cobra, elle) stay below this many ops. */
#define MODEL_MAX_OPS 60000000ULL

/* X(long name, argument, help) — the numeric options. */
#define GEN_OPTIONS(X) \
    X("sessions",      "N", "client sessions (default 20)") \
    X("txns",          "N", "committed transactions per session (default 100)") \
    X("ops",           "N", "operations per transaction (default 15)") \
    X("keys",          "N", "number of keys (default 10000)") \
    X("reads",         "F", "read fraction 0..1 (default 0.5)") \
    X("dist",          "D", "key distribution: uniform, zipf, hotspot (default zipf)") \
    X("zipf",          "S", "zipf exponent (default 0.5)") \
    X("long-fraction", "F", "fraction of long transactions (default 0)") \
    X("long-ops",      "N", "operations per long transaction (default 150)") \
    X("level",         "L", "ser (commit-time validation), si (snapshot, first-committer-wins), rc (default si)") \
    X("fault",         "F", "fault to inject (default none; see below)") \
    X("fault-rate",    "F", "fraction of transactions (dirty reads: reads) faulted (default 0.1)") \
    X("lag",           "N", "replica lag in commits (default 2*sessions)") \
    X("seed",          "S", "random seed (default 1)")

static void usage(FILE *out) {
    fprintf(out, "usage: isocheck gen [--preset P] [options] [--format text|dbcop|cobra|elle] -o OUT\n"
                 "Generate a workload, execute it on the embedded multi-version store and write the\n"
                 "history (cobra: a directory) and its ground truth to OUT.truth (JSON).\n\n"
                 "  --preset P           %s\n", workload_preset_names());
    char opt[64];
#define X(name, arg, help) snprintf(opt, sizeof opt, "--%s %s", name, arg); fprintf(out, "  %-20s %s\n", opt, help);
    GEN_OPTIONS(X)
#undef X
    fprintf(out, "  --format F           text (default), dbcop, cobra, elle\n"
                 "  -o OUT               output (\"-\": stdout, text and elle only)\n"
                 "  --no-retry           record aborted transactions without running them again\n"
                 "  --truth FILE         write the ground truth to FILE (default OUT.truth when OUT\n"
                 "                       is a file or directory path, not stdout or a device)\n"
                 "  --no-truth           do not write the ground truth file\n"
                 "  -v                   print the ground truth to stderr\n\nfaults:\n");
    for (int f = 0; f < FAULT_COUNT; f++) fprintf(out, "  %-20s %s\n", sim_fault_name((sim_fault)f), sim_fault_desc((sim_fault)f));
    fprintf(out, "\ntext leaves aborted transactions out (the format has no aborts); the same --seed\n"
                 "reproduces the same history byte for byte.\n");
}

static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-') return 0;
    *v = x;
    return 1;
}

static int parse_frac(const char *s, double *v) {
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(x)) return 0;
    *v = x;
    return 1;
}

static int set_option(workload_params *p, const char *name, const char *val) {
    uint64_t u = 0;
    double d = 0;
#define U32(field) (parse_u64(val, &u) && u <= UINT32_MAX ? (p->field = (uint32_t)u, 1) : 0)
    if (!strcmp(name, "sessions")) return U32(sessions);
    if (!strcmp(name, "txns")) return U32(txns_per_session);
    if (!strcmp(name, "ops")) return U32(ops_per_txn);
    if (!strcmp(name, "long-ops")) return U32(long_ops);
    if (!strcmp(name, "lag")) return U32(lag);
#undef U32
    if (!strcmp(name, "keys")) return parse_u64(val, &u) ? (p->keys = u, 1) : 0;
    if (!strcmp(name, "seed")) return parse_u64(val, &u) ? (p->seed = u, 1) : 0;
    if (!strcmp(name, "reads")) return parse_frac(val, &d) ? (p->read_fraction = d, 1) : 0;
    if (!strcmp(name, "zipf")) return parse_frac(val, &d) ? (p->zipf_exponent = d, 1) : 0;
    if (!strcmp(name, "long-fraction")) return parse_frac(val, &d) ? (p->long_fraction = d, 1) : 0;
    if (!strcmp(name, "fault-rate")) return parse_frac(val, &d) ? (p->fault_rate = d, 1) : 0;
    int k;
    if (!strcmp(name, "dist")) return (k = keydist_parse(val)) >= 0 ? (p->dist = (keydist_kind)k, 1) : 0;
    if (!strcmp(name, "level")) return (k = sim_level_parse(val)) >= 0 ? (p->level = (sim_level)k, 1) : 0;
    if (!strcmp(name, "fault")) return (k = sim_fault_parse(val)) >= 0 ? (p->fault = (sim_fault)k, 1) : 0;
    return 0;
}

static int is_option(const char *name) {
#define X(n, arg, help) if (!strcmp(name, n)) return 1;
    GEN_OPTIONS(X)
#undef X
    return 0;
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

int cli_gen(int argc, char **argv) {
    workload_params p;
    workload_defaults(&p);
    const char *out = NULL, *fmt_name = "text", *truth_path = NULL;
    int verbose = 0, truth_file = 1;
    /* A preset first, so that explicit options override it wherever they are. */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--preset") && !workload_preset(&p, argv[i + 1])) {
            fprintf(stderr, "isocheck gen: unknown preset '%s' (known: %s)\n", argv[i + 1], workload_preset_names());
            return 2;
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        if (!strcmp(a, "-v")) { verbose = 1; continue; }
        if (!strcmp(a, "--no-truth")) { truth_file = 0; continue; }
        if (!strcmp(a, "--no-retry")) { p.retry = 0; continue; }
        if (!strcmp(a, "-o") || !strcmp(a, "--format") || !strcmp(a, "--preset") || !strcmp(a, "--truth") ||
            (a[0] == '-' && a[1] == '-' && is_option(a + 2))) {
            if (i + 1 >= argc) { fprintf(stderr, "isocheck gen: option '%s' needs a value\n", a); return 2; }
            const char *val = argv[++i];
            if (!strcmp(a, "-o")) out = val;
            else if (!strcmp(a, "--truth")) truth_path = val;
            else if (!strcmp(a, "--format")) fmt_name = val;
            else if (!strcmp(a, "--preset")) continue;
            else if (!set_option(&p, a + 2, val)) {
                fprintf(stderr, "isocheck gen: bad value '%s' for %s\n", val, a);
                return 2;
            }
            continue;
        }
        fprintf(stderr, "isocheck gen: unknown argument '%s'\n", a);
        usage(stderr);
        return 2;
    }
    if (!out) { fprintf(stderr, "isocheck gen: no output given (-o OUT)\n"); usage(stderr); return 2; }
    int fmt = history_format_from_name(fmt_name);
    if (fmt <= 0 || fmt == FORMAT_SYNTHETIC) { fprintf(stderr, "isocheck gen: unknown format '%s'\n", fmt_name); return 2; }
    ic_error err;
    ic_error_clear(&err);
    if (!workload_validate(&p, &err)) { ic_error_print(stderr, "isocheck gen", &err); return 2; }

    uint64_t total = (uint64_t)p.sessions * p.txns_per_session;
    progress pr = { isatty(2) && total >= 100000, 0 };
    sim_truth truth;
    int ok;
    if (fmt == FORMAT_TEXT || fmt == FORMAT_DBCOP) {
        gen_writer *w = gen_writer_open((history_format)fmt, out, &p, &err);
        if (!w) { ic_error_print(stderr, "isocheck gen", &err); return 2; }
        sim_sink sink = gen_writer_sink(w);
        ok = sim_run(&p, &sink, &truth, show_progress, &pr, &err);
        ok = gen_writer_close(w, ok, &err);
    } else {
        uint64_t longest = p.long_fraction > 0 && p.long_ops > p.ops_per_txn ? p.long_ops : p.ops_per_txn;
        if (total * longest > MODEL_MAX_OPS) {
            fprintf(stderr, "isocheck gen: %s output is built in memory and limited to %llu operations; "
                            "use text or dbcop (streamed) and convert\n", fmt_name, (unsigned long long)MODEL_MAX_OPS);
            return 2;
        }
        model_sink *m = model_sink_new(out, p.sessions, 0);
        sim_sink sink = model_sink_sink(m);
        ok = sim_run(&p, &sink, &truth, show_progress, &pr, &err);
        history *h = model_sink_finish(m, &err);
        ok = ok && h && history_write(h, (history_format)fmt, out, &err);
        if (h) history_free(h);
    }
    if (!ok) { ic_error_print(stderr, "isocheck gen", &err); return 2; }
    struct stat st;
    int plain = strcmp(out, "-") && (stat(out, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
    if (truth_file && (truth_path || plain)) {
        size_t n = strlen(truth_path ? truth_path : out) + 8;
        char *tp = malloc(n);
        if (!tp) return 2;
        if (truth_path) snprintf(tp, n, "%s", truth_path); else snprintf(tp, n, "%s.truth", out);
        FILE *tf = fopen(tp, "w");
        if (!tf) { fprintf(stderr, "isocheck gen: %s: cannot create: %s\n", tp, strerror(errno)); free(tp); return 2; }
        sim_truth_json(tf, &p, &truth);
        if (fclose(tf) != 0) { fprintf(stderr, "isocheck gen: %s: write error\n", tp); free(tp); return 2; }
        free(tp);
    }
    if (verbose) sim_truth_json(stderr, &p, &truth);
    return 0;
}
