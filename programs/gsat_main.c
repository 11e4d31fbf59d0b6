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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"
#include "error.h"
#include "fatal.h"
#include "gsat.h"
#include "io/bigmem.h"
#include "io/output.h"
#include "io/proof_out.h"
#include "programs/cmdline.h"
#include "solver/dimacs.h"
#include "solver/solver.h"
#include "solver/varnum.h"
#include "theory/acyclic.h"
#include "theory/graph_extract.h"
#include "programs/gnf.h"
#include "programs/gsat_report.h"
#include "solver/proof.h"

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

/* Parse the command line into the variables below and the engine options
 * of s; -1 to go on, else the exit code (help or a printed error). */
typedef struct gsat_args {
    const char *path;
    int verbose, no_model, gnf, cnf, keep_assumptions, to_cnf, parse_only;   /* parse_only: -1 no, 0 into the solver, 1 text only */
    double time_limit;
    int64_t conflict_limit;
    int quiet, proof_binary;
    const char *proof;               /* --proof FILE, or NULL */
} gsat_args;

static int parse_args(gsat *s, int argc, char **argv, gsat_args *a) {
    int64_t engine[MAX_ENGINE_OPTIONS];
    char engine_help[MAX_ENGINE_OPTIONS][200];
    cmd_opt opts[16 + MAX_ENGINE_OPTIONS] = {
        CMD_FLAG("verbose", 'v', &a->verbose, "progress table and statistics as 'c' lines"),
        CMD_FLAG("quiet", 'q', &a->quiet, "print only the 's' line (and the 'v' lines)"),
        CMD_STR("proof", 0, &a->proof, "FILE", "pure CNF: write a DRAT proof of unsatisfiability to FILE\n"
                "                         (doc/search.md \"Proofs\")"),
        CMD_FLAG("binary-proof", 0, &a->proof_binary, "write the --proof in binary DRAT"),
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
        "'s UNSATISFIABLE' (exit 20) or 's UNKNOWN' (exit 0: a limit was hit, or SIGINT\n"
        "or SIGTERM stopped the search; a second signal, or one while reading, ends gsat\n"
        "by that signal).  Every other output line is a 'c' comment.\n"
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
    if (a->quiet && a->verbose) { fprintf(stderr, "gsat: give at most one of -q and -v (try 'gsat --help')\n"); return 2; }
    const char *clash = !a->proof ? NULL : a->to_cnf >= 0 ? "--to-cnf" : a->parse_only >= 0 ? "--parse-only"
                      : a->keep_assumptions ? "--assume" : NULL;
    if (clash) { fprintf(stderr, "gsat: --proof and %s do not go together (try 'gsat --help')\n", clash); return 2; }
    if (a->proof_binary && !a->proof) { fprintf(stderr, "gsat: --binary-proof needs --proof FILE (try 'gsat --help')\n"); return 2; }
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

/* The proof trace's hook: solver numbering to the file's, then the file. */
typedef struct proof_sink {
    proof_out out;
    const vec_int *names;
    vec_int lits;
} proof_sink;

static void proof_step(void *state, int add, const int *lits, int n) {
    proof_sink *p = state;
    vec_clear(p->lits);
    for (int i = 0; i < n; i++) {
        int f = varnum_file_lit(p->names, lits[i]);
        if (!f) internal_error("gsat", "proof: literal %d names no variable of the input", lits[i]);
        vec_push(p->lits, f);
    }
    proof_out_step(&p->out, add, p->lits.data, n);
}

/* Solve what was read and print the answer (and the model, the failed
 * assumptions, the statistics); the exit code. */
static int solve_and_print(gsat *s, const gsat_args *a, const gnf_info *info, int cnf, double start, double parse_seconds) {
    if (a->time_limit > 0) {            /* the limit counts from the start, reading included */
        double left = start + a->time_limit - gsat_now();
        gsat_set_time_limit(s, left > 1e-6 ? left : 1e-6);
    }
    gsat_set_conflict_limit(s, a->conflict_limit);
    gsat_signals_searching(1);          /* from here a signal stops the search (before -v's header) */
    if (a->verbose) gsat_progress_start(s);
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
    gsat_signals_searching(0);
    if (res == GSAT_ERROR) {            /* out of memory in the engine, while reading or solving */
        fprintf(stderr, "gsat: %s (%s)\n", gsat_error(s), a->path);
        return 2;
    }
    if (a->verbose) gsat_progress_end(s);
    int sig = res == GSAT_UNKNOWN ? gsat_interrupted() : 0;
    if (sig && !a->quiet) printf("c interrupted by %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    if (a->verbose || (sig && !a->quiet)) gsat_print_stats(s, parse_seconds);
    if (res == GSAT_SAT) {
        printf("s SATISFIABLE\n");
        if (!a->no_model) gsat_print_model(s, &info->names);
    } else if (res == GSAT_UNSAT) {
        printf("s UNSATISFIABLE\n");
        if (a->keep_assumptions && info->assumptions.len && !a->quiet) {
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

/* --proof: refused for a problem beyond CNF; else the trace goes to p.
 * -1 to go on, else the exit code (a message printed). */
static int proof_begin(gsat *s, const gsat_args *a, const gnf_info *info, proof_sink *p) {
    if (info->graphs || info->assumptions.len) {
        fprintf(stderr, "gsat: %s: --proof is for pure CNF only; this problem has %s\n", a->path,
                info->graphs ? "graphs (acyclicity constraints are not traced)" : "a 'solve' line (assumptions)");
        return 2;
    }
    p->names = &info->names;
    solver_set_proof(s, p, proof_step);
    return -1;
}

/* Open --proof FILE before reading: not the input, not standard output.
 * 1, or 0 with a message printed. */
static int proof_open(const gsat_args *a, proof_sink *p) {
    ic_error err;
    ic_error_clear(&err);
    if (!strcmp(a->proof, "-")) {
        fprintf(stderr, "gsat: --proof -: the answer goes to standard output; give the proof a file\n");
        return 0;
    }
    if (!output_check_input(a->proof, 0, a->path, &err) || !proof_out_open(&p->out, a->proof, a->proof_binary, 0, &err)) {
        ic_error_print(stderr, "gsat", &err);
        return 0;
    }
    return 1;
}

/* Finish --proof after the answer: exit code rc, or 2 if it could not be written. */
static int proof_close(gsat *s, const gsat_args *a, proof_sink *p, int rc) {
    solver_set_proof(s, NULL, NULL);
    ic_error err;
    ic_error_clear(&err);
    if (rc == 2) { proof_out_discard(&p->out); return rc; }
    int64_t added = p->out.added, deleted = p->out.deleted;
    if (!proof_out_commit(&p->out, &err)) {
        fflush(stdout);
        ic_error_print(stderr, "gsat", &err);
        return 2;
    }
    if (a->verbose) printf("c proof: %lld clauses added, %lld deleted (%s)\n", (long long)added, (long long)deleted, a->proof);
    return rc;
}

int main(int argc, char **argv) {
    double start = gsat_now();
    big_prefer_heap();                           /* memory freed after reading is reused */
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (argc == 2 && !strcmp(argv[1], "--version")) { printf("gsat %s\n", ISOCHECK_VERSION); return finish(0); }
    gsat *s = gsat_new();
    if (!s) xalloc_fail(0);
    gsat_args a = { NULL, 0, 0, 0, 0, 0, -1, -1, 0, -1, 0, 0, NULL };
    int rc = parse_args(s, argc, argv, &a);
    if (rc >= 0) { gsat_free(s); return finish(rc); }
    gp_encoding to_cnf_mode = GP_RANK_BIN;
    if (a.to_cnf >= 0 && !gp_encoding_parse(encoding_names[a.to_cnf], &to_cnf_mode))
        internal_error("gsat", "encoding '%s' unknown to the encoder", encoding_names[a.to_cnf]);
    gsat_signals_install(s);
    proof_sink proof;
    memset(&proof, 0, sizeof proof);
    if (a.proof && !proof_open(&a, &proof)) { gsat_free(s); return finish(2); }

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
    } else if (a.proof && (rc = proof_begin(s, &a, &info, &proof)) >= 0) {
        /* refused: rc set */
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
    if (a.proof) rc = proof_close(s, &a, &proof, parsed == DIMACS_TIMEOUT ? 0 : rc);
    vec_free(proof.lits);
    gnf_info_free(&info);
    gsat_free(s);
    return finish(rc);
}
