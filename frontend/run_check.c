/* run_check.c — the checking pipeline (contract in run_check.h). */
#include "frontend/run_check.h"

#include <string.h>

#include "monotonic.h"
#include "frontend/checking/axioms.h"

void run_check_options_default(run_check_options *o) {
    memset(o, 0, sizeof *o);
    o->want[LEVEL_SI] = 1;
    o->max_anomalies = 10;
    check_options_default(&o->check);
#ifdef GSAT_DEBUG
    o->verify_every_pass = 1;
#endif
}

/* On PASS: the witness as a certificate, checked by `isocheck verify`'s
 * code; kept in *keep when wanted.  0 (with L's message) if it fails. */
static void certify(const history *h, const check_result *res, report_level *L, certificate *keep, int *keep_level) {
    certificate one;
    cert_init(&one);
    ic_error cerr;
    ic_error_clear(&cerr);
    int si = res->level == LEVEL_SI;
    if (cert_build(h, &res->vo, si, &one, &cerr) == CERT_OK && cert_verify(h, &one, si, &cerr, NULL) == CERT_OK) {
        if (keep) { cert_free(keep); *keep = one; cert_init(&one); *keep_level = (int)res->level; }
    } else {
        L->verdict = 2;
        snprintf(L->msg, sizeof L->msg, "internal error: the certificate does not verify: %.400s", cerr.msg);
    }
    cert_free(&one);
}

int run_check(const history *h, const run_check_options *o, report *rep, certificate *cert, int *cert_level,
              ic_error *err) {
    if (cert_level) *cert_level = -1;
    anomaly_list axioms;
    anomaly_list_init(&axioms);
    uint64_t found = axioms_check(h, &axioms, o->max_anomalies);
    if (found) report_add_axioms(rep, &axioms, found);
    anomaly_list_free(&axioms);
    if (found) return 1;

    double t0 = monotonic_seconds();
    pg_index ix;
    if (!pg_index_build(&ix, h, err)) return 0;
    if (o->on_index) o->on_index(o->hook_ctx, &ix, monotonic_seconds() - t0);
    check_options copt = o->check;
    for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--) {     /* SER first: its certificate proves SI too */
        if (!o->want[lv]) continue;
        check_result res;
        copt.progress_ctx = (void *)check_level_name((check_level_id)lv);
        check_level(&ix, (check_level_id)lv, &copt, &res);
        report_level *L = &rep->levels[rep->num_levels++];
        memset(L, 0, sizeof *L);
        L->level = lv;
        L->verdict = res.verdict == CHECK_PASS ? 0 : res.verdict == CHECK_FAIL ? 1 : 2;
        L->stage = res.stage ? res.stage : "";
        snprintf(L->msg, sizeof L->msg, "%s", res.msg);
        if (res.verdict == CHECK_FAIL) {
            L->violations = interpret_failure(rep, lv, &res.vo, res.cycle.data, res.cycle.len, res.forced.data,
                                              res.forced.len, o->max_anomalies, o->trace);
        } else if (res.verdict == CHECK_PASS) {
            int keep = o->certificate && cert && cert_level && *cert_level < 0;
            if (keep || o->verify_every_pass) certify(h, &res, L, keep ? cert : NULL, cert_level);
        }
        if (o->on_level) o->on_level(o->hook_ctx, &res);
        check_result_free(&res);
    }
    if (rep->num_levels == 2) { report_level t = rep->levels[0]; rep->levels[0] = rep->levels[1]; rep->levels[1] = t; }
    pg_index_free(&ix);
    return 1;
}
