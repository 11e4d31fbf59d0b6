/* cli_decode.c — `isocheck decode HISTORY MODEL`: a SAT solver's answer to
 * an `isocheck encode` instance turned into a verdict; a model becomes a
 * certificate that `isocheck verify` checks (frontend/reports/cert_build.h, cert_file.h),
 * an UNSAT that isocheck's own check confirms (export.h) becomes check's
 * report; a wrong answer exits 2. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "frontend/reports/cert_build.h"
#include "frontend/reports/cert_file.h"
#include "frontend/reports/check_report.h"
#include "frontend/reports/report.h"
#include "frontend/run_check.h"
#include "programs/cli.h"
#include "frontend/checking/export.h"
#include "io/output.h"
#include "frontend/formats/parse.h"

/* A confirmed FAIL, reported as `isocheck check --level L` reports it
 * (the same pipeline: anomalies named and explained).  Returns the exit
 * code: 1, or 2 if the pipeline does not find the failure again. */
static int print_failure(const history *h, check_level_id level, const char *path) {
    report rep;
    report_init(&rep, h, check_level_name(level));
    run_check_options ro;
    run_check_options_default(&ro);
    ro.want[LEVEL_SI] = level == LEVEL_SI;
    ro.want[LEVEL_SER] = level == LEVEL_SER;
    ic_error err;
    ic_error_clear(&err);
    int rc = 2;
    if (!run_check(h, &ro, &rep, NULL, NULL, &err)) ic_error_print(stderr, "isocheck", &err);
    else if (report_verdict(&rep) != VERDICT_FAIL)
        fprintf(stderr, "isocheck decode: internal error: %s fails by the decoded answer, but 'isocheck check' "
                "does not find the failure again\n", path);
    else {
        report_print_text(stdout, &rep, 0);
        rc = cli_exit_code(VERDICT_FAIL);
    }
    report_free(&rep);
    return rc;
}

int cli_decode(int argc, char **argv) {
    const char *out_path = NULL;
    int no_prune = 0, level = 0, fmt_choice = -1;
    cmd_opt opts[] = {
        CMD_CHOICE("format", 0, &fmt_choice, cli_format_names(), "F", "history format (default: detected)"),
        CMD_CHOICE("level", 0, &level, cli_level_names, "L", "the level given to 'isocheck encode' (default si)"),
        CMD_FLAG("no-prune", 0, &no_prune, "the instance was encoded with --no-prune"),
        CMD_STR("output", 'o', &out_path, "CERTIFICATE", "on SAT, write the certificate here (default stdout)"),
        CMD_END
    };
    cmd_spec spec = {
        "isocheck decode", "[options] HISTORY MODEL",
        "Read a solver's answer (competition 's'/'v' lines, MiniSat's result file, or bare\n"
        "literals) to the instance 'isocheck encode' wrote with the same --level/--no-prune.\n"
        "SAT: the model's version order is re-checked and written as a certificate ('isocheck\n"
        "verify HISTORY CERTIFICATE' checks it).  UNSAT: confirmed by isocheck's own check,\n"
        "then reported as 'isocheck check --level L' reports it; an UNSAT the check does not\n"
        "confirm is a wrong answer (exit 2).\n",
        opts, "HISTORY MODEL", 2, 2,
        "exit: 0 the history satisfies the level, 1 it does not, 2 bad input, a wrong answer,\n"
        "or an output that cannot be written.\n"
    };
    const char *paths[2];
    int np, rc = cli_parse(&spec, argc, argv, paths, &np);
    if (rc >= 0) return rc;
    if (!cli_outputs_ok("isocheck decode", paths[0], &out_path, NULL, 1) ||
        !cli_outputs_ok("isocheck decode", paths[1], &out_path, NULL, 1))
        return 2;
    export_options o = { level == 1 ? LEVEL_SER : LEVEL_SI, no_prune };
    int fmt = cli_format(fmt_choice);

    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(paths[0], (history_format)fmt, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    sat_model m;
    sat_model_init(&m);
    input r;
    if (!input_open(&r, paths[1], &err)) { ic_error_print(stderr, "isocheck", &err); history_free(h); return 2; }
    int ok = sat_model_read(&r, &m, &err);
    input_close(&r);
    if (!ok) { ic_error_print(stderr, "isocheck", &err); history_free(h); return 2; }

    check_result res;
    memset(&res, 0, sizeof res);
    if (!export_decode(h, &o, &m, &res, &err)) { ic_error_print(stderr, "isocheck", &err); rc = 2; goto done; }
    if (res.verdict == VERDICT_PASS) {
        certificate c;
        cert_init(&c);
        if (cert_build(h, &res.vo, o.level == LEVEL_SI, &c, &err) != CERT_OK) {
            fprintf(stderr, "isocheck decode: internal error: no certificate from the model's version order: %s\n", err.msg);
            rc = 2;
        } else {
            output out;
            if (!output_open(&out, out_path ? out_path : "-", 0, &err)) { cli_error("isocheck decode", &err); rc = 2; }
            else {
                cert_write(out.f, h, &c);
                if (!output_commit(&out, &err)) { cli_error("isocheck decode: cannot write the certificate", &err); rc = 2; }
                else {
                    fprintf(out_path ? stdout : stderr, "PASS %s: the model gives a version order that satisfies %s%s%s\n",
                            check_level_name(o.level), check_level_title(o.level),
                            out_path ? "; certificate in " : "", out_path ? out_path : "");
                    rc = cli_exit_code(VERDICT_PASS);
                }
            }
        }
        cert_free(&c);
    } else if (res.verdict == VERDICT_FAIL) {
        rc = print_failure(h, o.level, paths[0]);
    } else {
        fprintf(stderr, "isocheck decode: %s%s%s\n", res.stage ? res.stage : "", res.stage ? ": " : "", res.msg);
        rc = 2;
    }
done:
    check_result_free(&res);
    sat_model_free(&m);
    history_free(h);
    return rc;
}
