/* gsat_main.c — `gsat [options] FILE|-`: solve a DIMACS CNF or a MonoSAT
 * GNF file (graph acyclicity constraints, programs/gnf.h), answer in the
 * SAT-competition format (s/v lines; exit 10 SAT, 20 UNSAT, 0 UNKNOWN).
 * FILE.gnf, FILE.gnf.gz and standard input are read as GNF (a superset of
 * DIMACS without a mandatory header), other files as strict DIMACS;
 * --gnf / --cnf choose explicitly.  Gzip input is recognised by its magic.
 * Bad input or usage: `gsat: FILE:LINE: message`, exit 2; also when what
 * was written to standard output did not arrive (disk full); out of memory:
 * `gsat: out of memory while reading FILE` (or `while solving`), exit 2.
 * The model lists the variables the input names, in its numbering.  Arguments
 * go through programs/cmdline.h; the engine options are the solver's
 * (gsat_option_at: the engine's table in solver/options.h, then the
 * acyclicity theory's), given as --name=value or --name value. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"
#include "error.h"
#include "fatal.h"
#include "gsat.h"
#include "io/bigmem.h"
#include "io/output.h"
#include "programs/cmdline.h"
#include "solver/dimacs.h"
#include "solver/solver.h"
#include "solver/varnum.h"
#include "theory/acyclic.h"
#include "theory/graph_extract.h"
#include "programs/gnf.h"

enum { MAX_ENGINE_OPTIONS = 96 };   /* the engine's and the theories' (gsat_option_at) */
static const char *const parse_only_names[] = { "solver", "text", NULL };
static const char *const encoding_names[] = { "tc", "rank", "unary", "ve", NULL };   /* gp_encoding order */

/* Everything written to standard output must arrive: exit 2 if it did not. */
static int finish(int rc) {
    ic_error err;
    ic_error_clear(&err);
    if (cmdline_close_stdout(&err)) return rc;
    fprintf(stderr, "gsat: %s\n", err.msg);
    return 2;
}

static void print_stats(const gsat *s, double parse_seconds) {
    printf("c parse time: %.3f s\n", parse_seconds);
#define X(name, help) printf("c %-24s %lld\n", #name ":", (long long)s->st.name);
    GSAT_STATS(X)
#undef X
    printf("c %-24s %.3f\n", "solve time (s):", s->st.seconds);
    const acyclic *a = acyclic_find(s);
    if (a) {
        acyclic_stats as;
        acyclic_get_stats(a, &as);
        int64_t n = s->st.theory_conflicts + s->st.theory_explanations;
        printf("c %-24s %.2f\n", "theory clause avg lits:", n ? (double)s->st.theory_explanation_lits / (double)n : 0.0);
#define X(name, help) printf("c acyclic %-24s %lld\n", #name ":", (long long)as.name);
        ACYCLIC_STATS(X)
#undef X
    }
}

/* The model in the input's numbering (names: solver variable -> file's). */
static void print_model(const gsat *s, const vec_int *names) {
    char buf[96];
    size_t len = 0;
    int n = (int)names->len - 1;
    for (int v = 1; v <= n + 1; v++) {
        if (v <= n && !names->data[v]) continue;   /* an index the input does not name */
        char tok[16];
        int t = v <= n ? snprintf(tok, sizeof tok, " %d", varnum_file_lit(names, gsat_value(s, v) > 0 ? v : -v))
                       : snprintf(tok, sizeof tok, " 0");
        if (len + (size_t)t > 78) {
            if (fwrite(buf, 1, len, stdout) != len || fputc('\n', stdout) == EOF) output_stdout_failed(errno);
            len = 0;
        }
        if (len == 0) { buf[0] = 'v'; len = 1; }
        memcpy(buf + len, tok, (size_t)t);
        len += (size_t)t;
    }
    if (fwrite(buf, 1, len, stdout) != len || fputc('\n', stdout) == EOF) output_stdout_failed(errno);
}

/* Parse the command line into the variables below and the engine options
 * of s; -1 to go on, else the exit code (help or a printed error). */
typedef struct gsat_args {
    const char *path;
    int verbose, no_model, gnf, cnf, keep_assumptions, to_cnf, parse_only;   /* parse_only: -1 no, 0 into the solver, 1 text only */
    double time_limit;
    int64_t conflict_limit;
} gsat_args;

static int parse_args(gsat *s, int argc, char **argv, gsat_args *a) {
    int64_t engine[MAX_ENGINE_OPTIONS];
    char engine_help[MAX_ENGINE_OPTIONS][200];
    cmd_opt opts[16 + MAX_ENGINE_OPTIONS] = {
        CMD_FLAG("verbose", 'v', &a->verbose, "statistics as 'c' lines"),
        CMD_FLAG("no-model", 'n', &a->no_model, "do not print the 'v' lines"),
        CMD_FLAG("gnf", 0, &a->gnf, "read as GNF (default for *.gnf, *.gnf.gz and '-')"),
        CMD_FLAG("cnf", 0, &a->cnf, "read as strict DIMACS (default for other names)"),
        CMD_FLAG("assume", 0, &a->keep_assumptions, "solve a GNF 'solve L1 L2 ...' line under assumptions (default:\n"
                 "                         assert them, same answer; with --assume an UNSAT answer lists\n"
                 "                         the failed ones as 'c failed:')"),
        CMD_REAL("time-limit", 0, &a->time_limit, 0, 1e9, "SECONDS", "give up (s UNKNOWN) after this long, reading included (0: none)"),
        CMD_INT("conflict-limit", 0, &a->conflict_limit, 0, INT64_MAX, "N", "give up (s UNKNOWN) after N conflicts"),
        CMD_OPT_CHOICE("parse-only", &a->parse_only, parse_only_names, "WHAT", "read the input, do not solve; prints c lines, exit 0 (=text:\n"
                       "                         only check and number the text)"),
        CMD_CHOICE("to-cnf", 0, &a->to_cnf, encoding_names, "MODE", "do not solve: print the problem as DIMACS with acyclicity as\n"
                   "                         clauses (doc/encodings.md)"),
    };
    int k = 0;
    while (opts[k].kind != CMD_KIND_END) k++;
    int first_engine = k;
    gsat_option o;
    for (int i = 0; gsat_option_at(s, i, &o); i++) {
        if (i == MAX_ENGINE_OPTIONS) internal_error("gsat", "more than %d engine options", MAX_ENGINE_OPTIONS);
        engine[i] = o.def;
        snprintf(engine_help[i], sizeof engine_help[0], "%s [default %lld, %lld..%lld]", o.help,
                 (long long)o.def, (long long)o.lo, (long long)o.hi);
        opts[k++] = (cmd_opt)CMD_INT(o.name, 0, &engine[i], o.lo, o.hi, "N", engine_help[i]);
    }
    opts[k] = (cmd_opt)CMD_END;
    cmd_spec spec = {
        "gsat", "[options] [FILE|-]",
        "Solve a DIMACS CNF formula or a MonoSAT GNF file with acyclicity constraints\n"
        "(FILE, or standard input for '-' or no FILE; gzip-compressed input is fine).\n"
        "Prints 's SATISFIABLE' and the model as 'v' lines (exit 10),\n"
        "'s UNSATISFIABLE' (exit 20) or 's UNKNOWN' (exit 0, a limit was hit).\n"
        "Bad input: 'gsat: FILE:LINE: message', exit 2 (also out of memory); so is usage,\n"
        "or output that "
        "cannot be written.  Engine options (the last ones below) also take\n"
        "--name=value with '_' or '-'.\n",
        opts, "at most one input: FILE or -", 0, 1, NULL
    };
    ic_error err;
    ic_error_clear(&err);
    int n;
    switch (cmdline_parse(&spec, argc, argv, &a->path, &n, &err)) {
    case CMDLINE_OK: if (!a->path) a->path = "-"; break;   /* no FILE: standard input, as MiniSat reads it */
    case CMDLINE_HELP: cmdline_help(stdout, &spec); return 0;
    default: fprintf(stderr, "gsat: %s (try 'gsat --help')\n", err.msg); return 2;
    }
    if (a->gnf && a->cnf) { fprintf(stderr, "gsat: give at most one of --gnf and --cnf (try 'gsat --help')\n"); return 2; }
    for (int i = first_engine; i < k; i++)
        if (opts[i].given && !gsat_set_option(s, opts[i].name, *(int64_t *)opts[i].dest))
            internal_error("gsat", "the engine refuses option %s", opts[i].name);
    return -1;
}

/* Read path (GNF or DIMACS, by a.gnf/a.cnf or the file name) into s; info
 * the names, counts and assumptions, *cnf whether it was read as DIMACS.
 * DIMACS_OK, DIMACS_TIMEOUT (deadline passed) or an error with err set. */
static int read_input(gsat *s, const gsat_args *a, double deadline, gnf_info *info, int *cnf, ic_error *err) {
    const char *path = a->path;
    int format = a->gnf ? 1 : a->cnf ? -1 : 0;   /* 1 GNF, -1 CNF, 0 by name */
    int parse_only = a->parse_only + 1;          /* 0 no, 1 into the solver, 2 text only */
    if (format == 0) {
        size_t n = strlen(path);
        int gnf_name = (n >= 4 && strcmp(path + n - 4, ".gnf") == 0) || (n >= 7 && strcmp(path + n - 7, ".gnf.gz") == 0);
        format = (gnf_name || strcmp(path, "-") == 0) ? 1 : -1;
    }
    memset(info, 0, sizeof *info);
    *cnf = format < 0;
    static char stage[600];
    snprintf(stage, sizeof stage, "gsat: out of memory while reading %s", path);
    xalloc_stage = stage;
    int parsed;
    if (format > 0) {
        gnf_opts go = {deadline, parse_only == 2, !a->keep_assumptions && a->to_cnf < 0 && parse_only == 0};
        parsed = gnf_parse_file(s, path, &go, info, err);
    } else {
        dimacs_info di;
        dimacs_opts dopts = {NULL, NULL, 0, deadline, parse_only == 2};
        parsed = dimacs_parse_file(s, path, &dopts, &di, err);
        info->vars = di.vars;
        info->clauses = di.clauses;
        info->declared_vars = di.declared_vars;
        info->names = di.names;
    }
    xalloc_stage = "gsat: out of memory while solving";
    return parsed;
}

/* --to-cnf: the problem as read, acyclicity encoded as clauses, on stdout.
 * The exit code. */
static int write_cnf(gsat *s, const gnf_info *info, gp_encoding mode, const char *path) {
    graph_problem p, cnf;
    gp_init(&p); gp_init(&cnf);
    gp_from_solver(s, info->assumptions.data, (int)info->assumptions.len, &p);
    gp_comment(&p, "gsat --to-cnf=%s %s", gp_encoding_name(mode), path);
    gp_encode_stats est;
    int ok = gp_encode_cnf(&p, mode, 20000000, &cnf, &est);
    if (!ok) fprintf(stderr, "gsat: the %s encoding needs at least %lld clauses (limit 20000000)\n",
                     gp_encoding_name(mode), (long long)est.predicted);
    if (ok && !gp_write_dimacs(&cnf, stdout)) {
        ok = 0;
        if (ferror(stdout)) output_stdout_failed(errno);   /* the failed write's, before anything else runs */
    }
    gp_free(&p); gp_free(&cnf);
    return ok ? 0 : 2;
}

/* Solve what was read and print the answer (and the model, the failed
 * assumptions, the statistics); the exit code. */
static int solve_and_print(gsat *s, const gsat_args *a, const gnf_info *info, int cnf, double start, double parse_seconds) {
    if (a->time_limit > 0) {            /* the limit counts from the start, reading included */
        double left = start + a->time_limit - gsat_now();
        gsat_set_time_limit(s, left > 1e-6 ? left : 1e-6);
    }
    gsat_set_conflict_limit(s, a->conflict_limit);
    /* A file has one solve: its assumptions hold for that solve only, so
     * asserting them as unit clauses gives the same answer and model, and
     * makes them level-0 facts (nothing to re-assign after each conflict).
     * --assume keeps them as assumptions (reports the failed ones). */
    int res;
    if (!a->keep_assumptions) {
        if (cnf)                        /* the GNF reader asserted them while loading */
            for (size_t i = 0; i < info->assumptions.len; i++) gsat_add_clause(s, &info->assumptions.data[i], 1);
        res = gsat_solve(s, NULL, 0);
    } else {
        res = gsat_solve(s, info->assumptions.data, (int)info->assumptions.len);
    }
    if (res == GSAT_ERROR) {            /* out of memory in the engine, while reading or solving */
        fprintf(stderr, "gsat: %s (%s)\n", gsat_error(s), a->path);
        return 2;
    }
    if (a->verbose) print_stats(s, parse_seconds);
    if (res == GSAT_SAT) {
        printf("s SATISFIABLE\n");
        if (!a->no_model) print_model(s, &info->names);
    } else if (res == GSAT_UNSAT) {
        printf("s UNSATISFIABLE\n");
        if (a->keep_assumptions && info->assumptions.len) {
            printf("c failed:");
            for (size_t i = 0; i < info->assumptions.len; i++)
                if (gsat_failed(s, info->assumptions.data[i]))
                    printf(" %d", varnum_file_lit(&info->names, info->assumptions.data[i]));
            printf("\n");
        }
    } else {
        printf("s UNKNOWN\n");
    }
    return res;
}

int main(int argc, char **argv) {
    double start = gsat_now();
    big_prefer_heap();                           /* memory freed after reading is reused */
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (argc == 2 && !strcmp(argv[1], "--version")) { printf("gsat %s\n", ISOCHECK_VERSION); return finish(0); }
    gsat *s = gsat_new();
    if (!s) xalloc_fail(0);
    gsat_args a = { NULL, 0, 0, 0, 0, 0, -1, -1, 0, -1 };
    int rc = parse_args(s, argc, argv, &a);
    if (rc >= 0) { gsat_free(s); return finish(rc); }
    gp_encoding to_cnf_mode = GP_RANK_BIN;
    if (a.to_cnf >= 0 && !gp_encoding_parse(encoding_names[a.to_cnf], &to_cnf_mode))
        internal_error("gsat", "encoding '%s' unknown to the encoder", encoding_names[a.to_cnf]);

    ic_error err;
    ic_error_clear(&err);
    gnf_info info;
    double t0 = gsat_now(), deadline = a.time_limit > 0 ? start + a.time_limit : 0;
    int cnf;
    int parsed = read_input(s, &a, deadline, &info, &cnf, &err);
    if (parsed == DIMACS_TIMEOUT) {
        printf("s UNKNOWN\n");
        rc = 0;
    } else if (parsed < 0) {
        fflush(stdout);
        ic_error_print(stderr, "gsat", &err);
        rc = 2;
    } else if (a.parse_only >= 0) {
        printf("c gsat: read %s: %ld variables named, %ld clauses, %ld graphs, %ld edges in %.3f s%s\n", a.path,
               info.vars, info.clauses, info.graphs, info.edges, gsat_now() - t0,
               a.parse_only == 1 ? " (text only)" : "");
        rc = 0;
    } else {
        double parse_seconds = gsat_now() - t0;
        if (a.verbose) {
            printf("c gsat: %ld variables, %ld clauses\n", info.vars, info.clauses);
            if (info.graphs)
                printf("c gsat: %ld graphs (%ld acyclic), %ld nodes, %ld edges, %zu assumptions\n", info.graphs,
                       info.acyclic_graphs, info.nodes, info.edges, info.assumptions.len);
            fflush(stdout);
        }
        rc = a.to_cnf >= 0 ? write_cnf(s, &info, to_cnf_mode, a.path) : solve_and_print(s, &a, &info, cnf, start, parse_seconds);
    }
    gnf_info_free(&info);
    gsat_free(s);
    return finish(rc);
}
