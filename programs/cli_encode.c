/* cli_encode.c — `isocheck encode`: the exact problem the checker solves,
 * for another solver: MonoSAT's GNF, or DIMACS CNF with acyclicity encoded
 * in clauses (frontend/checking/export.h, theory/graph_problem.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "fatal.h"
#include "programs/cli.h"
#include "frontend/checking/export.h"
#include "io/output.h"
#include "frontend/formats/parse.h"

static const char *const cnf_names[] = { "tc", "rank", "unary", "ve", NULL };

int cli_encode(int argc, char **argv) {
    const char *out_path = NULL;
    int gnf = 0, no_prune = 0, verbose = 0, level = 0, fmt_choice = -1, cnf = -1;
    int64_t max_clauses = 20000000;
    cmd_opt opts[] = {
        CMD_FLAG("gnf", 0, &gnf, "MonoSAT's graph format (gsat and MonoSAT read it)"),
        CMD_CHOICE("cnf", 0, &cnf, cnf_names, "MODE", "DIMACS with acyclicity as clauses: tc (transitive closure),\n"
                   "                         rank (binary positions), unary (order-encoded positions),\n"
                   "                         ve (vertex elimination)"),
        CMD_CHOICE("format", 0, &fmt_choice, cli_format_names(), "F", "history format (default: detected)"),
        CMD_CHOICE("level", 0, &level, cli_level_names, "L", "isolation level (default si)"),
        CMD_FLAG("no-prune", 0, &no_prune, "the problem before pruning"),
        CMD_INT("max-clauses", 0, &max_clauses, 0, INT64_MAX, "N", "refuse a CNF over N clauses (default 20000000; 0: no limit)"),
        CMD_STR("output", 'o', &out_path, "OUT", "output file (default stdout; never the input)"),
        CMD_FLAG("verbose", 'v', &verbose, "sizes on stderr"),
        CMD_END
    };
    cmd_spec spec = {
        "isocheck encode", "(--gnf | --cnf MODE) [options] HISTORY",
        "Write the problem 'isocheck check' hands its engine (after pruning unless --no-prune).\n"
        "Comment lines name each constraint variable (key, writers) and node; variables\n"
        "1..N keep their meaning in every format, so 'isocheck decode' reads any solver's model.\n"
        "See doc/encodings.md.\n",
        opts, "one history: FILE, DIR or -", 1, 1, "exit: 0 written, 2 bad input, usage or output.\n"
    };
    const char *path;
    int n, rc = cli_parse(&spec, argc, argv, &path, &n);
    if (rc >= 0) return rc;
    if (gnf == (cnf >= 0)) {
        fprintf(stderr, "isocheck encode: give exactly one of --gnf and --cnf MODE\n(try 'isocheck encode --help')\n");
        return 2;
    }
    if (!cli_outputs_ok("isocheck encode", path, &out_path, NULL, 1)) return 2;
    gp_encoding enc = GP_TC;
    if (cnf >= 0 && !gp_encoding_parse(cnf_names[cnf], &enc))
        internal_error("isocheck encode", "encoding '%s' unknown to the encoder", cnf_names[cnf]);
    export_options o = { level == 1 ? LEVEL_SER : LEVEL_SI, no_prune };
    int fmt = cli_format(fmt_choice);

    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(path, (history_format)fmt, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    graph_problem p, cnfp;
    gp_init(&p); gp_init(&cnfp);
    check_result res;
    memset(&res, 0, sizeof res);
    rc = 0;
    output out;
    memset(&out, 0, sizeof out);
    if (!export_encode(h, &o, &p, &res, &err)) { ic_error_print(stderr, "isocheck", &err); rc = 2; goto done; }
    if (res.verdict == VERDICT_FAIL)
        fprintf(stderr, "isocheck encode: note: the level fails before solving (%s: %s); the instance is one empty clause\n",
                res.stage, res.msg);
    gp_encode_stats st;
    memset(&st, 0, sizeof st);
    const graph_problem *w = &p;
    if (cnf >= 0) {
        if (!gp_encode_cnf(&p, enc, max_clauses, &cnfp, &st)) {
            fprintf(stderr, "isocheck encode: the %s encoding needs at least %lld clauses, over the limit of %lld "
                    "(--max-clauses N; 0: no limit)\n", gp_encoding_name(enc), (long long)st.predicted, (long long)max_clauses);
            rc = 2;
            goto done;
        }
        w = &cnfp;
    }
    if (!output_open(&out, out_path ? out_path : "-", 0, &err)) { cli_error("isocheck encode", &err); rc = 2; goto done; }
    int written = cnf >= 0 ? gp_write_dimacs(w, out.f) : gp_write_gnf(w, out.f);
    if (!written && out.is_stdout && ferror(stdout)) output_stdout_failed(errno);   /* before anything else runs */
    int ok = 0;
    if (written || ferror(out.f)) ok = output_commit(&out, &err) && written;   /* a stream error: commit names it */
    else { ic_error_at(&err, out.path, 0, "could not write the problem"); output_discard(&out); }
    if (!ok) { cli_error("isocheck encode", &err); rc = 2; goto done; }
    if (verbose)
        fprintf(stderr, "isocheck encode: %s, %s: %d constraint variables, %zu graph nodes, %zu edges, %zu clauses; "
                "output %d variables, %zu clauses (%lld auxiliary variables, %lld components, %lld edges dropped)\n",
                check_level_name(o.level), cnf >= 0 ? gp_encoding_name(enc) : "gnf", p.num_vars,
                p.graphs.len ? (size_t)p.graphs.data[0].num_nodes : 0, gp_num_edges(&p), gp_num_clauses(&p),
                w->num_vars, gp_num_clauses(w), (long long)st.aux_vars, (long long)st.components,
                (long long)st.edges_dropped);
done:
    check_result_free(&res);
    gp_free(&p); gp_free(&cnfp);
    history_free(h);
    return rc;
}
