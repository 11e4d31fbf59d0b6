/* fuzz_cert_body.h — what the certificate fuzz target (and the replay in
 * tests/test_fuzz_regress.c) does with one input: the certificate reader
 * and verifier against a history.
 *
 * Input: "HISTORY\n%%\nCERTIFICATE" (a text history), or a certificate
 * alone (checked against a built-in history with several keys and a
 * write skew, so that si certificates can be valid and ser ones cannot).
 * Findings: a crash or sanitizer report, a failure without a message, and
 * a certificate that verifies for a level the checker says fails (a
 * certificate that proves something false). */
#ifndef FUZZ_CERT_BODY_H
#define FUZZ_CERT_BODY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/checking/axioms.h"
#include "frontend/reports/cert_build.h"
#include "frontend/reports/cert_file.h"
#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"

static const char fuzz_cert_history[] =
    "w(1,1,1,1)\nw(2,1,1,1)\n"
    "r(1,1,2,2)\nr(2,1,2,2)\nw(1,2,2,2)\n"
    "r(1,1,3,3)\nr(2,1,3,3)\nw(2,2,3,3)\n"
    "r(1,2,1,4)\nw(3,1,1,4)\n";

/* Does the checker find that h satisfies the level? (1 yes, 0 no, -1 no answer) */
static int fuzz_checker_says(const history *h, int si) {
    anomaly_list l;
    anomaly_list_init(&l);
    uint64_t bad = axioms_check(h, &l, 1);
    anomaly_list_free(&l);
    if (bad) return 0;
    ic_error err;
    ic_error_clear(&err);
    pg_index ix;
    if (!pg_index_build(&ix, h, &err)) return -1;
    check_options opt;
    check_options_default(&opt);
    opt.time_limit = 5;
    check_result res;
    check_level(&ix, si ? LEVEL_SI : LEVEL_SER, &opt, &res);
    int says = res.verdict == VERDICT_PASS ? 1 : res.verdict == VERDICT_FAIL ? 0 : -1;
    check_result_free(&res);
    pg_index_free(&ix);
    return says;
}

static void fuzz_cert_one(const uint8_t *data, size_t size) {
    const char *hist = fuzz_cert_history;
    size_t hist_len = sizeof fuzz_cert_history - 1;
    const uint8_t *cert = data;
    size_t cert_len = size;
    for (size_t i = 0; i + 4 <= size; i++)
        if (!memcmp(data + i, "\n%%\n", 4)) {
            hist = (const char *)data;
            hist_len = i + 1;
            cert = data + i + 4;
            cert_len = size - i - 4;
            break;
        }
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(hist, hist_len, FORMAT_TEXT, "fuzz-history", &err);
    if (!h) {
        if (!err.set) abort();
        return;
    }
    input r;
    input_from_mem(&r, cert, cert_len, "fuzz-certificate");
    certificate c;
    cert_init(&c);
    cert_status st = cert_read(&r, h, &c, &err);
    input_close(&r);
    if (st != CERT_OK && !err.set) abort();
    for (int si = 0; st == CERT_OK && si <= 1; si++) {
        ic_error verr;
        ic_error_clear(&verr);
        cert_status v = cert_verify(h, &c, si, &verr, NULL);
        if (v != CERT_OK && !verr.set) abort();
        if (v == CERT_OK && fuzz_checker_says(h, si) == 0) {
            fprintf(stderr, "a certificate verifies %s for a history the checker says fails it\n", si ? "si" : "ser");
            abort();
        }
    }
    cert_free(&c);
    history_free(h);
}

#endif
