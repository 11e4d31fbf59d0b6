/* cli_encode.c — `isocheck encode`: the exact problem the checker solves,
 * for another solver: MonoSAT's GNF, or DIMACS CNF with acyclicity encoded
 * in clauses (frontend/export.h, theory/graph_problem.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "frontend/cli.h"
#include "frontend/export.h"
#include "frontend/parse.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: isocheck encode [--format text|dbcop|cobra|elle] [--level si|ser] [--no-prune] [-v]\n"
            "                       (--gnf | --cnf=tc|rank|unary|ve) [--max-clauses N] [-o OUT] HISTORY\n"
            "Write the problem 'isocheck check' hands its engine (after pruning unless --no-prune):\n"
            "  --gnf       MonoSAT's graph format (gsat and MonoSAT read it)\n"
            "  --cnf=MODE  DIMACS with acyclicity as clauses: tc (transitive closure), rank (binary\n"
            "              positions), unary (order-encoded positions), ve (vertex elimination)\n"
            "Comment lines name each constraint variable (key, writers) and node; variables\n"
            "1..N keep their meaning in every format, so 'isocheck decode' reads any solver's model.\n"
            "A CNF over --max-clauses (default 20000000) is refused.\n"
            "See doc/encodings.md.  exit: 0 written, 2 bad input or usage.\n");
}

int cli_encode(int argc, char **argv) {
    const char *path = NULL, *fmt_name = NULL, *level = "si", *out_path = NULL, *cnf = NULL;
    int gnf = 0, no_prune = 0, verbose = 0;
    long long max_clauses = 20000000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--gnf")) gnf = 1;
        else if (!strncmp(a, "--cnf=", 6)) cnf = a + 6;
        else if (!strcmp(a, "--cnf") && i + 1 < argc) cnf = argv[++i];
        else if (!strcmp(a, "--no-prune")) no_prune = 1;
        else if (!strcmp(a, "-v")) verbose = 1;
        else if (!strcmp(a, "--max-clauses") && i + 1 < argc) {
            char *end;
            max_clauses = strtoll(argv[++i], &end, 10);
            if (*end || max_clauses < 0) { fprintf(stderr, "isocheck encode: --max-clauses wants a number >= 0\n"); return 2; }
        }
        else if (!strcmp(a, "-o") && i + 1 < argc) out_path = argv[++i];
        else if (!strcmp(a, "--format") && i + 1 < argc) fmt_name = argv[++i];
        else if (!strncmp(a, "--format=", 9)) fmt_name = a + 9;
        else if (!strcmp(a, "--level") && i + 1 < argc) level = argv[++i];
        else if (!strncmp(a, "--level=", 8)) level = a + 8;
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "isocheck encode: unknown option '%s'\n", a); usage(stderr); return 2; }
        else if (!path) path = a;
        else { fprintf(stderr, "isocheck encode: more than one history given\n"); return 2; }
    }
    if (!path || gnf == (cnf != NULL)) {
        if (path) fprintf(stderr, "isocheck encode: give exactly one of --gnf and --cnf=MODE\n");
        usage(stderr);
        return 2;
    }
    gp_encoding enc = GP_TC;
    if (cnf && !gp_encoding_parse(cnf, &enc)) {
        fprintf(stderr, "isocheck encode: unknown CNF encoding '%s' (tc, rank, unary or ve)\n", cnf);
        return 2;
    }
    export_options o = { LEVEL_SI, no_prune };
    if (!strcmp(level, "ser")) o.level = LEVEL_SER;
    else if (strcmp(level, "si")) { fprintf(stderr, "isocheck encode: unknown level '%s' (si or ser)\n", level); return 2; }
    int fmt = history_format_from_name(fmt_name);
    if (fmt < 0) { fprintf(stderr, "isocheck encode: unknown format '%s'\n", fmt_name); return 2; }

    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(path, (history_format)fmt, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    graph_problem p, cnfp;
    gp_init(&p); gp_init(&cnfp);
    check_result res;
    int rc = 0;
    if (!export_encode(h, &o, &p, &res, &err)) { ic_error_print(stderr, "isocheck", &err); rc = 2; goto done; }
    if (res.verdict == CHECK_FAIL)
        fprintf(stderr, "isocheck encode: note: the level fails before solving (%s: %s); the instance is one empty clause\n",
                res.stage, res.msg);
    gp_encode_stats st;
    memset(&st, 0, sizeof st);
    const graph_problem *w = &p;
    if (cnf) {
        if (!gp_encode_cnf(&p, enc, max_clauses, &cnfp, &st)) {
            fprintf(stderr, "isocheck encode: the %s encoding needs at least %lld clauses, over the limit of %lld "
                    "(--max-clauses N; 0: no limit)\n", gp_encoding_name(enc), (long long)st.predicted, max_clauses);
            rc = 2;
            goto done;
        }
        w = &cnfp;
    }
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) { fprintf(stderr, "isocheck encode: cannot write '%s'\n", out_path); rc = 2; goto done; }
    int ok = cnf ? gp_write_dimacs(w, out) : gp_write_gnf(w, out);
    if (out_path && fclose(out) != 0) ok = 0;
    if (!ok) { fprintf(stderr, "isocheck encode: write error on '%s'\n", out_path ? out_path : "stdout"); rc = 2; goto done; }
    if (verbose)
        fprintf(stderr, "isocheck encode: %s, %s: %d constraint variables, %zu graph nodes, %zu edges, %zu clauses; "
                "output %d variables, %zu clauses (%lld auxiliary variables, %lld components, %lld edges dropped)\n",
                check_level_name(o.level), cnf ? gp_encoding_name(enc) : "gnf", p.num_vars,
                p.graphs.len ? (size_t)p.graphs.data[0].num_nodes : 0, gp_num_edges(&p), gp_num_clauses(&p),
                w->num_vars, gp_num_clauses(w), (long long)st.aux_vars, (long long)st.components,
                (long long)st.edges_dropped);
done:
    check_result_free(&res);
    gp_free(&p); gp_free(&cnfp);
    history_free(h);
    return rc;
}
