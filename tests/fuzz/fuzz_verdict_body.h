/* fuzz_verdict_body.h — the verdict-preserving fuzz target (and its
 * replay in tests/test_fuzz_regress.c, inputs "verdict-*"):
 *   parse the input (any format, auto-detected); check SI and SER; write
 *   the history in each format that can hold it (text, dbcop, cobra,
 *   elle), read it back, check again: the verdicts must be the same
 *   (write.h promises it: writers refuse what they cannot hold and
 *   renumber only one-to-one).
 * A verdict is the axioms' and then the level's: PASS or FAIL.  A check
 * that hits its time limit gives no verdict and is not compared; any other
 * checker error ("internal error: ...") is a finding, as is a written
 * history that does not load or changes a verdict: abort(), after a line
 * on stderr saying which. */
#ifndef FUZZ_VERDICT_BODY_H
#define FUZZ_VERDICT_BODY_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"
#include "frontend/formats/write.h"
#include "io/output.h"

/* 0 PASS, 1 FAIL, -1 no verdict (time limit, or too big to index). */
static int fuzz_verdict(const history *h, check_level_id level, const char *what) {
    anomaly_list l;
    anomaly_list_init(&l);
    uint64_t bad = axioms_check(h, &l, 1);
    anomaly_list_free(&l);
    if (bad) return 1;
    pg_index ix;
    ic_error err;
    ic_error_clear(&err);
    if (!pg_index_build(&ix, h, &err)) return -1;
    check_options o;
    check_options_default(&o);
    o.time_limit = 2.0;
    check_result res;
    check_level(&ix, level, &o, &res);
    pg_index_free(&ix);
    int v = res.verdict == VERDICT_PASS ? 0 : res.verdict == VERDICT_FAIL ? 1 : -1;
    if (v < 0 && !strstr(res.msg, "limit")) {
        fprintf(stderr, "fuzz_verdict: %s %s: checker error: %s\n", what, check_level_name(level), res.msg);
        abort();
    }
    check_result_free(&res);
    return v;
}

/* Cobra writes a directory: a fresh one per call, removed after. */
static void fuzz_remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

static history *fuzz_rewrite_cobra(const history *h) {
    char dir[128];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fuzzvXXXXXX", tmp && *tmp && strlen(tmp) < 100 ? tmp : "/tmp");
    if (!mkdtemp(dir)) { perror("fuzz_verdict: mkdtemp"); abort(); }
    ic_error err;
    ic_error_clear(&err);
    history *back = NULL;
    if (write_cobra(h, dir, OUTPUT_FORCE, &err)) {
        ic_error_clear(&err);
        back = load_history(dir, FORMAT_COBRA, &err);
        if (!back) {
            fprintf(stderr, "fuzz_verdict: cobra: the written history does not load: %s\n", err.msg);
            fuzz_remove_dir(dir);
            abort();
        }
    }
    fuzz_remove_dir(dir);
    return back;
}

/* h written in fmt and read back, or NULL if the writer refuses it. */
static history *fuzz_rewrite(const history *h, history_format fmt) {
    ic_error err;
    ic_error_clear(&err);
    if (fmt == FORMAT_COBRA) return fuzz_rewrite_cobra(h);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int ok = fmt == FORMAT_TEXT ? write_text(h, out, &err) : fmt == FORMAT_DBCOP ? write_dbcop(h, out, &err)
                                                                                 : write_elle(h, out, &err);
    fclose(out);
    history *back = NULL;
    if (ok) {
        ic_error_clear(&err);
        back = load_history_mem(buf, len, fmt, "fuzz-rewritten", &err);
        if (!back) {
            fprintf(stderr, "fuzz_verdict: %s: the written history does not load: %s\n", history_format_name(fmt), err.msg);
            abort();
        }
    }
    free(buf);
    return back;
}

static void fuzz_verdict_one(const uint8_t *data, size_t size) {
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(data, size, FORMAT_AUTO, "fuzz", &err);
    if (!h) {
        if (!err.set) abort();                 /* a failure must say why */
        return;
    }
    int want[2] = { fuzz_verdict(h, LEVEL_SI, "input"), fuzz_verdict(h, LEVEL_SER, "input") };
    static const history_format fmts[] = { FORMAT_TEXT, FORMAT_DBCOP, FORMAT_COBRA, FORMAT_ELLE };
    for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++) {
        history *back = fuzz_rewrite(h, fmts[f]);
        if (!back) continue;
        for (int lv = LEVEL_SI; lv <= LEVEL_SER; lv++) {
            int got = fuzz_verdict(back, (check_level_id)lv, history_format_name(fmts[f]));
            if (want[lv] >= 0 && got >= 0 && got != want[lv]) {
                fprintf(stderr, "fuzz_verdict: %s %s: %s as read, %s once written as %s and read back\n",
                        history_format_name(h->format), check_level_name((check_level_id)lv), want[lv] ? "FAIL" : "PASS",
                        got ? "FAIL" : "PASS", history_format_name(fmts[f]));
                abort();
            }
        }
        history_free(back);
    }
    history_free(h);
}

#endif
