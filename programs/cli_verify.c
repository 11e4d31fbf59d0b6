/* cli_verify.c — `isocheck verify [--level L] HISTORY CERT`: check a
 * certificate (frontend/recheck/certificate.h) without any solver.
 * exit 0: the certificate proves the level; 1: it does not (the first
 * broken condition is named); 2: bad usage, history or certificate syntax. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "frontend/recheck/certificate.h"
#include "frontend/reports/cert_file.h"
#include "programs/cli.h"
#include "frontend/formats/parse.h"

int cli_verify(int argc, char **argv) {
    int fmt_choice = -1;
    const char *level_arg = NULL;
    load_options lopt = { 0 };
    cmd_opt opts[] = {
        CMD_CHOICE("format", 0, &fmt_choice, cli_format_names(), "F", "history format (default: detected)"),
        CMD_STR("level", 0, &level_arg, "L", "level to prove (default: the certificate's): any level a certificate "
                "can prove (rc, ra, cc, pc, psi, si, ser, si-plain, ser-plain, rr, strong-si, sser)"),
        CMD_FLAG("failed-ops-abort", 0, &lopt.failed_ops_abort, "read the history as 'check --failed-ops-abort' did"),
        CMD_END
    };
    cmd_spec spec = {
        "isocheck verify", "[options] HISTORY CERTIFICATE",
        "Check a certificate written by 'isocheck check --certificate FILE' against the history,\n"
        "without any solver (format: doc/certificate.md).\n",
        opts, "HISTORY CERTIFICATE", 2, 2,
        "exit: 0 the certificate proves the level, 1 it does not, 2 bad input or usage.\n"
    };
    const char *paths[2];
    int np, rc = cli_parse(&spec, argc, argv, paths, &np);
    if (rc >= 0) return rc;
    int level = level_arg ? level_by_name(level_arg) : -1;
    if (level_arg && (level < 0 || !cert_form_of((check_level_id)level))) {
        fprintf(stderr, "isocheck verify: option --level: no certificate proves '%s' (rc, ra, cc, pc, psi, si, ser, "
                "si-plain, ser-plain, rr, strong-si or sser)\n", level_arg);
        return 2;
    }
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_ex(paths[0], (history_format)cli_format(fmt_choice), &lopt, NULL, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    input r;
    if (!input_open(&r, paths[1], &err)) { ic_error_print(stderr, "isocheck", &err); history_free(h); return 2; }
    certificate c;
    cert_init(&c);
    cert_status st = cert_read(&r, h, &c, &err);
    input_close(&r);
    if (st == CERT_MALFORMED) { ic_error_print(stderr, "isocheck", &err); rc = 2; }
    else {
        check_level_id lv = level >= 0 ? (check_level_id)level : c.level;
        uint64_t edges = 0;
        if (st == CERT_OK) st = cert_verify_level(h, &c, lv, &err, &edges);
        if (st == CERT_OK) {
            printf("VALID %s: the certificate proves %s for %s (%u transactions, %u keys, %llu edges checked)\n",
                   level_name(lv), level_title(lv), paths[0], h->num_txns - 1, h->num_keys, (unsigned long long)edges);
            rc = cli_exit_code(VERDICT_PASS);
        } else {
            printf("INVALID %s: ", level_name(lv));
            ic_error_print(stdout, "certificate", &err);
            rc = cli_exit_code(VERDICT_FAIL);
        }
    }
    cert_free(&c);
    history_free(h);
    return rc;
}
