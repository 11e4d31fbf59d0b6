/* fuzz_gnf_body.h — what the GNF and DIMACS fuzz targets (and the replay
 * in tests/test_fuzz_regress.c) do with one input: read it into a solver;
 * on success solve it under a small conflict limit (debug builds check
 * every model against the clauses and the acyclicity constraints).
 * Findings: a crash or sanitizer report, an error without a message. */
#ifndef FUZZ_GNF_BODY_H
#define FUZZ_GNF_BODY_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gsat.h"
#include "solver/dimacs.h"
#include "programs/gnf.h"

static void fuzz_solve(gsat *s, const int *assumptions, int n) {
    gsat_set_conflict_limit(s, 2000);
    gsat_set_time_limit(s, 5);
    gsat_solve(s, assumptions, n);
}

static void fuzz_gnf_one(const uint8_t *data, size_t size) {
#ifdef FUZZ_SKIP_NUL
    /* (make fuzz FUZZ_CFLAGS=-DFUZZ_SKIP_NUL) while a NUL at the start of a
     * line crashes the GNF reader, almost every finding is that one */
    if (memchr(data, 0, size)) return;
#endif
    gsat *s = gsat_new();
    gnf_info info;
    memset(&info, 0, sizeof info);
    ic_error err;
    ic_error_clear(&err);
    if (gnf_parse_mem(s, "fuzz.gnf", (const char *)data, size, &info, &err) < 0) {
        if (!err.set) abort();
    } else {
        fuzz_solve(s, info.assumptions.data, (int)info.assumptions.len);
    }
    gnf_info_free(&info);
    gsat_free(s);
}

static void fuzz_dimacs_one(const uint8_t *data, size_t size) {
    gsat *s = gsat_new();
    reader r;
    reader_open_mem(&r, "fuzz.cnf", (const char *)data, size);
    ic_error err;
    ic_error_clear(&err);
    dimacs_info info;
    if (dimacs_parse(s, &r, NULL, &info, &err) < 0) {
        if (!err.set) abort();
    } else {
        fuzz_solve(s, NULL, 0);
    }
    dimacs_info_free(&info);
    reader_close(&r);
    gsat_free(s);
}

#endif
