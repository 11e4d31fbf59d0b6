/* gsat_main.c — `gsat [options] FILE|-`: solve a DIMACS CNF or a MonoSAT
 * GNF file (graph acyclicity constraints, theory/gnf.h), answer in the
 * SAT-competition format (s/v lines; exit 10 SAT, 20 UNSAT, 0 UNKNOWN).
 * FILE.gnf, FILE.gnf.gz and standard input are read as GNF (a superset of
 * DIMACS without a mandatory header), other files as strict DIMACS;
 * --gnf / --cnf choose explicitly.  Gzip input is recognised by its magic.
 * Bad input or usage: `gsat: FILE:LINE: message`, exit 2; out of memory:
 * `gsat: out of memory while reading FILE` (or `while solving`), exit 2.
 * The model lists the variables the input names, in its numbering.  Engine
 * options come from the table in solver/options.h as --name=value. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "gsat.h"
#include "solver/dimacs.h"
#include "solver/options.h"
#include "solver/solver.h"
#include "solver/varnum.h"
#include "theory/acyclic.h"
#include "theory/graph_extract.h"
#include "theory/gnf.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: gsat [options] FILE|-\n"
            "Solve a DIMACS CNF formula or a MonoSAT GNF file with acyclicity constraints\n"
            "(FILE, or standard input for '-'; gzip-compressed input is fine).\n"
            "Prints 's SATISFIABLE' and the model as 'v' lines (exit 10),\n"
            "'s UNSATISFIABLE' (exit 20) or 's UNKNOWN' (exit 0, a limit was hit).\n"
            "Bad input: 'gsat: FILE:LINE: message', exit 2 (also when out of memory).\n\n"
            "options:\n"
            "  -h, --help              this help\n"
            "  -v, --verbose           statistics as 'c' lines\n"
            "  -n, --no-model          do not print the 'v' lines\n"
            "  --gnf, --cnf            read as GNF / strict DIMACS (default: GNF for\n"
            "                          *.gnf, *.gnf.gz and '-', DIMACS otherwise)\n"
            "  --assume                solve a GNF 'solve L1 L2 ...' line under assumptions\n"
            "                          (default: assert them, same answer; with --assume\n"
            "                          an UNSAT answer lists the failed ones as 'c failed:')\n"
            "  --time-limit=SECONDS    give up (s UNKNOWN) after this long, reading included\n"
            "  --parse-only[=text]     read the input into the solver, do not solve (=text:\n"
            "                          only check and number the text); prints c lines, exit 0\n"
            "  --to-cnf=MODE           do not solve: print the problem as DIMACS with acyclicity\n"
            "                          as clauses (tc, rank, unary, ve: doc/encodings.md)\n"
            "  --conflict-limit=N      give up (s UNKNOWN) after N conflicts\n"
            "engine options (--name=value):\n");
#define X(name, def, lo, hi, help) \
    fprintf(out, "  --%-18s %s [%lld, %lld..%lld]\n", #name "=N", help, (long long)(def), (long long)(lo), (long long)(hi));
    GSAT_OPTIONS(X)
#undef X
}

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "gsat: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try 'gsat --help')\n");
    return 2;
}

/* "--name=value" or "--name value": returns the value string or NULL. */
static const char *option_value(int argc, char **argv, int *i, const char *arg, size_t namelen) {
    if (arg[namelen] == '=') return arg + namelen + 1;
    if (arg[namelen] == 0 && *i + 1 < argc) return argv[++*i];
    return NULL;
}

static int parse_int64(const char *t, long long *out) {
    char *end;
    errno = 0;
    long long v = strtoll(t, &end, 10);
    if (errno || end == t || *end) return 0;
    *out = v;
    return 1;
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
        printf("c acyclic: %lld edges (%lld guarded), %lld inserts, %lld Pearce-Kelly searches visiting %lld nodes,\n"
               "c acyclic: %lld conflicts (avg %.2f guards), %lld implied, %lld reasons, %lld presorts\n",
               (long long)as.edges, (long long)as.guarded_edges, (long long)as.inserts, (long long)as.pk_searches,
               (long long)as.pk_visited, (long long)as.conflicts,
               as.conflicts ? (double)as.conflict_lits / (double)as.conflicts : 0.0, (long long)as.implied,
               (long long)as.reasons, (long long)as.presorts);
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
            fwrite(buf, 1, len, stdout);
            fputc('\n', stdout);
            len = 0;
        }
        if (len == 0) { buf[0] = 'v'; len = 1; }
        memcpy(buf + len, tok, (size_t)t);
        len += (size_t)t;
    }
    fwrite(buf, 1, len, stdout);
    fputc('\n', stdout);
}

int main(int argc, char **argv) {
    double start = gsat_now();
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    const char *path = NULL;
    int verbose = 0, no_model = 0, format = 0, keep_assumptions = 0;   /* format: 1 GNF, -1 CNF, 0 by name */
    double time_limit = 0;
    long long conflict_limit = -1;
    int to_cnf = 0, parse_only = 0;   /* parse_only: 1 into the solver, 2 text only */
    gp_encoding to_cnf_mode = GP_RANK_BIN;
    gsat *s = gsat_new();

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { usage(stdout); gsat_free(s); return 0; }
        if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) { verbose = 1; continue; }
        if (strcmp(a, "-n") == 0 || strcmp(a, "--no-model") == 0) { no_model = 1; continue; }
        if (strcmp(a, "--gnf") == 0) { format = 1; continue; }
        if (strncmp(a, "--to-cnf=", 9) == 0) {
            if (!gp_encoding_parse(a + 9, &to_cnf_mode)) {
                gsat_free(s);
                return usage_error("unknown encoding in '%s' (tc, rank, unary or ve)", a);
            }
            to_cnf = 1;
            continue;
        }
        if (strcmp(a, "--cnf") == 0) { format = -1; continue; }
        if (strcmp(a, "--assume") == 0) { keep_assumptions = 1; continue; }
        if (strcmp(a, "--parse-only") == 0) { parse_only = 1; continue; }
        if (strcmp(a, "--parse-only=text") == 0) { parse_only = 2; continue; }
        if (strcmp(a, "-") == 0 || a[0] != '-') {
            if (path) { gsat_free(s); return usage_error("more than one input file ('%s')", a); }
            path = a;
            continue;
        }
        if (strncmp(a, "--time-limit", 12) == 0 && (a[12] == 0 || a[12] == '=')) {
            const char *val = option_value(argc, argv, &i, a, 12);
            char *end;
            if (val) { errno = 0; time_limit = strtod(val, &end); }
            if (!val || errno || end == val || *end || time_limit < 0) {
                gsat_free(s);
                return usage_error("--time-limit needs a number of seconds, got '%s'", val ? val : "");
            }
            continue;
        }
        if (strncmp(a, "--conflict-limit", 16) == 0 && (a[16] == 0 || a[16] == '=')) {
            const char *val = option_value(argc, argv, &i, a, 16);
            if (!val || !parse_int64(val, &conflict_limit) || conflict_limit < 0) {
                gsat_free(s);
                return usage_error("--conflict-limit needs a non-negative integer, got '%s'", val ? val : "");
            }
            continue;
        }
        if (a[0] == '-' && a[1] == '-') {
            const char *eq = strchr(a, '=');
            char name[64];
            size_t nl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (nl >= sizeof name) nl = sizeof name - 1;
            memcpy(name, a + 2, nl);
            name[nl] = 0;
            for (char *p = name; *p; p++) if (*p == '-') *p = '_';
            int known = 0;
#define X(oname, def, lo, hi, help) if (strcmp(name, #oname) == 0) known = 1;
            GSAT_OPTIONS(X)
#undef X
            if (!known) { gsat_free(s); return usage_error("unknown option '%s'", a); }
            long long v;
            if (!eq || !parse_int64(eq + 1, &v) || !gsat_set_option(s, name, v)) {
                gsat_free(s);
                return usage_error("bad value in '%s' (see gsat --help for the range)", a);
            }
            continue;
        }
        gsat_free(s);
        return usage_error("unknown option '%s'", a);
    }
    if (!path) { gsat_free(s); return usage_error("%s", "no input file (use '-' for standard input)"); }

    ic_error err;
    ic_error_clear(&err);
    if (format == 0) {
        size_t n = strlen(path);
        int gnf_name = (n >= 4 && strcmp(path + n - 4, ".gnf") == 0) || (n >= 7 && strcmp(path + n - 7, ".gnf.gz") == 0);
        format = (gnf_name || strcmp(path, "-") == 0) ? 1 : -1;
    }
    gnf_info info;
    memset(&info, 0, sizeof info);
    double t0 = gsat_now(), deadline = time_limit > 0 ? start + time_limit : 0;
    int parsed;
    char stage[600];
    snprintf(stage, sizeof stage, "gsat: out of memory while reading %s", path);
    xalloc_stage = stage;
    if (format > 0) {
        gnf_opts go = {deadline, parse_only == 2};
        parsed = gnf_parse_file(s, path, &go, &info, &err);
    } else {
        dimacs_info di;
        dimacs_opts dopts = {NULL, NULL, 0, deadline, parse_only == 2};
        parsed = dimacs_parse_file(s, path, &dopts, &di, &err);
        info.vars = di.vars;
        info.clauses = di.clauses;
        info.declared_vars = di.declared_vars;
        info.names = di.names;
    }
    xalloc_stage = "gsat: out of memory while solving";
    if (parsed == DIMACS_TIMEOUT) {
        printf("s UNKNOWN\n");
        fflush(stdout);
        gnf_info_free(&info);
        gsat_free(s);
        return 0;
    }
    if (parsed < 0) {
        gnf_info_free(&info);
        fflush(stdout);
        ic_error_print(stderr, "gsat", &err);
        gsat_free(s);
        return 2;
    }
    double parse_seconds = gsat_now() - t0;
    if (parse_only) {
        printf("c gsat: read %s: %ld variables named, %ld clauses, %ld graphs, %ld edges in %.3f s%s\n", path,
               info.vars, info.clauses, info.graphs, info.edges, parse_seconds,
               parse_only == 2 ? " (text only)" : "");
        fflush(stdout);
        gnf_info_free(&info);
        gsat_free(s);
        return 0;
    }
    if (verbose) {
        printf("c gsat: %ld variables, %ld clauses\n", info.vars, info.clauses);
        if (info.graphs)
            printf("c gsat: %ld graphs (%ld acyclic), %ld nodes, %ld edges, %zu assumptions\n", info.graphs,
                   info.acyclic_graphs, info.nodes, info.edges, info.assumptions.len);
        fflush(stdout);
    }
    if (to_cnf) {
        /* the problem as read, acyclicity encoded as clauses, on stdout */
        graph_problem p, cnf;
        gp_init(&p); gp_init(&cnf);
        gp_from_solver(s, info.assumptions.data, (int)info.assumptions.len, &p);
        gp_comment(&p, "gsat --to-cnf=%s %s", gp_encoding_name(to_cnf_mode), path);
        gp_encode_stats est;
        int ok = gp_encode_cnf(&p, to_cnf_mode, 20000000, &cnf, &est);
        if (!ok) fprintf(stderr, "gsat: the %s encoding needs at least %lld clauses (limit 20000000)\n",
                         gp_encoding_name(to_cnf_mode), (long long)est.predicted);
        ok = ok && gp_write_dimacs(&cnf, stdout);
        gp_free(&p); gp_free(&cnf);
        gnf_info_free(&info);
        gsat_free(s);
        return ok ? 0 : 2;
    }
    if (time_limit > 0) {             /* the limit counts from the start, reading included */
        double left = start + time_limit - gsat_now();
        gsat_set_time_limit(s, left > 1e-6 ? left : 1e-6);
    }
    gsat_set_conflict_limit(s, conflict_limit);
    /* A file has one solve: its assumptions hold for that solve only, so
     * asserting them as unit clauses gives the same answer and model, and
     * makes them level-0 facts (nothing to re-assign after each conflict).
     * --assume keeps them as assumptions (reports the failed ones). */
    int res;
    if (!keep_assumptions) {
        for (size_t i = 0; i < info.assumptions.len; i++) gsat_add_clause(s, &info.assumptions.data[i], 1);
        res = gsat_solve(s, NULL, 0);
    } else {
        res = gsat_solve(s, info.assumptions.data, (int)info.assumptions.len);
    }
    if (verbose) print_stats(s, parse_seconds);
    if (res == GSAT_SAT) {
        printf("s SATISFIABLE\n");
        if (!no_model) print_model(s, &info.names);
    } else if (res == GSAT_UNSAT) {
        printf("s UNSATISFIABLE\n");
        if (keep_assumptions && info.assumptions.len) {
            printf("c failed:");
            for (size_t i = 0; i < info.assumptions.len; i++)
                if (gsat_failed(s, info.assumptions.data[i])) printf(" %d", varnum_file_lit(&info.names, info.assumptions.data[i]));
            printf("\n");
        }
    } else {
        printf("s UNKNOWN\n");
    }
    fflush(stdout);
    gnf_info_free(&info);
    gsat_free(s);
    return res;
}
