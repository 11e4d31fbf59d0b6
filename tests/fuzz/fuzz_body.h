/* fuzz_body.h — what every parser fuzz target (and the regression test
 * over tests/data/fuzz-regress/) does with one input:
 *   parse it; on success run the axioms and the stats, write it back in its
 *   own format, parse that again and insist on the same shape.
 * Any crash, sanitizer report, leak or abort() is a finding. */
#ifndef FUZZ_BODY_H
#define FUZZ_BODY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/checking/axioms.h"
#include "frontend/reports/history_stats.h"
#include "frontend/formats/parse.h"
#include "frontend/formats/write.h"

/* Cobra: the input is up to 4 session logs separated by "LOG|". */
static history *fuzz_load_cobra(const uint8_t *data, size_t size, ic_error *err) {
    input logs[4];
    size_t n = 0, start = 0;
    for (size_t i = 0; i + 4 <= size && n < 3; i++)
        if (!memcmp(data + i, "LOG|", 4)) {
            static const char *const names[3] = { "T0.log", "T1.log", "T2.log" };
            input_from_mem(&logs[n], data + start, i - start, names[n]);
            n++;
            start = i + 4;
            i += 3;
        }
    input_from_mem(&logs[n++], data + start, size - start, "Tlast.log");
    history *h = parse_cobra_logs(logs, n, "fuzz", NULL, err);
    for (size_t i = 0; i < n; i++) input_close(&logs[i]);
    return h;
}

static void fuzz_one(const uint8_t *data, size_t size, history_format fmt) {
    ic_error err;
    ic_error_clear(&err);
    history *h = fmt == FORMAT_COBRA ? fuzz_load_cobra(data, size, &err) : load_history_mem(data, size, fmt, "fuzz", &err);
    if (!h) {
        if (!err.set) abort();                 /* a failure must say why */
        return;
    }
    anomaly_list l;
    anomaly_list_init(&l);
    axioms_check(h, &l, 4);
    anomaly_list_free(&l);
    history_stats s1;
    history_stats_compute(h, &s1);
    if (fmt != FORMAT_COBRA) {                 /* cobra writes a directory */
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        int ok = fmt == FORMAT_TEXT ? write_text(h, out, &err)
               : fmt == FORMAT_DBCOP ? write_dbcop(h, out, &err) : write_elle(h, out, &err);   /* JSON: as EDN */
        fclose(out);
        if (ok) {
            ic_error_clear(&err);
            history *back = load_history_mem(buf, len, fmt == FORMAT_JSON ? FORMAT_ELLE : fmt, "fuzz-rewritten", &err);
            if (!back) { fprintf(stderr, "rewritten history does not load: %s\n", err.msg); abort(); }
            history_stats s2;
            history_stats_compute(back, &s2);
            if (s1.txns != s2.txns || s1.writes != s2.writes || s1.ops != s2.ops || s1.reads != s2.reads ||
                s1.aborted != s2.aborted || s1.keys != s2.keys || s1.init_reads != s2.init_reads) {
                fprintf(stderr, "rewritten history differs\n");
                abort();
            }
            history_free(back);
        }
        free(buf);
    }
    history_free(h);
}

#endif
