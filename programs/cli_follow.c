/* cli_follow.c — `isocheck check --follow` (contract in cli_follow.h).
 *
 * Output (stdout): on the first proven violation
 *     DETECTED after 1.234s: 120 transactions read, 118 completed, 117 checked
 * followed by the report of the checked part (as isocheck check prints it);
 * at the end, "END after ...", then the final report of the whole input.
 * With --json each of these is one line: {"event": "violation", ...},
 * {"event": "final", ...}.  Progress (transactions read, completed,
 * checked, the lag of the last check) goes to stderr on a terminal. */
#include "programs/cli_follow.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "frontend/online_check.h"
#include "frontend/online_follow.h"

static double start_time;

static double elapsed(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9 - start_time;
}

/* The report as one JSON line, without its newline. */
static void json_inline(FILE *out, const report *r) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) xalloc_fail(0);
    report_print_json(m, r);
    if (fclose(m) != 0) xalloc_fail(len);
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '\n') buf[i] = ' ';                 /* raw newlines are only whitespace in JSON */
    while (len > 0 && buf[len - 1] == ' ') len--;
    fwrite(buf, 1, len, out);
    free(buf);
}

void cli_follow_print_final_json(FILE *out, const report *r) {
    fprintf(out, "{\"event\": \"final\", \"time\": %.3f, \"report\": ", elapsed());
    json_inline(out, r);
    fputs("}\n", out);
}

static void print_violation(const follow_options *o, const online_checker *oc, const follow_parse *fp) {
    double t = elapsed();
    if (o->json) {
        printf("{\"event\": \"violation\", \"time\": %.3f, \"read\": %u, \"completed\": %u, \"checked\": %u, \"report\": ",
               t, fp->read, fp->completed, oc->settled);
        json_inline(stdout, &oc->rep);
        fputs("}\n", stdout);
    } else {
        printf("DETECTED after %.3fs: %u transactions read, %u completed, %u checked\n", t, fp->read, fp->completed,
               oc->settled);
        report_print_text(stdout, &oc->rep, 0);
    }
    fflush(stdout);
}

static int progress_shown;

static void progress(const follow_parse *fp, const online_checker *oc, double lag) {
    if (!isatty(2)) return;
    fprintf(stderr, "\r\033[Kisocheck: following: %u transactions read, %u completed, %u checked, lag %.3fs%s",
            fp->read, fp->completed, oc->settled, lag, oc->failed ? " (violation found)" : "");
    fflush(stderr);
    progress_shown = 1;
}

int cli_follow(const char *path, const follow_options *o, char **data, size_t *n, history_format *fmt) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    start_time = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    ic_error err;
    ic_error_clear(&err);
    follow_input in;
    if (!follow_open(&in, path, o->idle, 0.05, &err)) {
        ic_error_print(stderr, "isocheck", &err);
        return 2;
    }
    follow_parse fp;
    follow_parse_init(&fp, o->fmt);
    online_checker oc;
    online_init(&oc, o->want_si, o->want_ser, o->max_anomalies);
    int rc = -1, got;
    size_t checked_bytes = 0;
    while ((got = follow_read(&in, &err)) > 0) {
        if (oc.failed) continue;                          /* final: only the end matters now */
        double arrived = elapsed();
        /* only lines that ended since the last check can complete something */
        if (!memchr(in.data.data + checked_bytes, '\n', in.data.len - checked_bytes)) continue;
        checked_bytes = in.data.len;
        history *h;
        int st = follow_completed(&fp, in.data.data, in.data.len, path, 0, &h, &err);
        if (st < 0) { rc = 2; break; }
        if (st == 0 || !h) continue;
        int out = online_check(&oc, h);
        history_free(h);
        if (out == ONLINE_VIOLATION) {
            if (progress_shown) { fprintf(stderr, "\r\033[K"); progress_shown = 0; }
            print_violation(o, &oc, &fp);
        }
        progress(&fp, &oc, elapsed() - arrived);
    }
    if (progress_shown) { fprintf(stderr, "\r\033[K"); fflush(stderr); progress_shown = 0; }
    if (got < 0) rc = 2;
    if (rc == 2) ic_error_print(stderr, "isocheck", &err);
    else {
        if (fp.fmt == FORMAT_AUTO) {                      /* nothing detected yet: the batch loader decides */
            if (in.data.len && (in.data.data[0] == (char)0x1f)) {
                fprintf(stderr, "isocheck: %s: gzip-compressed input cannot be followed\n", path);
                rc = 2;
            }
        } else if (fp.fmt == FORMAT_DBCOP || fp.fmt == FORMAT_COBRA) rc = 2;
        if (rc < 0) {
            if (o->json) printf("{\"event\": \"end\", \"time\": %.3f, \"bytes\": %zu}\n", elapsed(), in.data.len);
            else printf("END after %.3fs: %zu bytes read; the whole input, checked in batch:\n", elapsed(), in.data.len);
            fflush(stdout);
            *fmt = fp.fmt;
            *n = in.data.len;
            *data = in.data.data;
            vec_init(in.data);                            /* handed to the caller */
        }
    }
    online_free(&oc);
    follow_parse_free(&fp);
    follow_close(&in);
    return rc;
}
