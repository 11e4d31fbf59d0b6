/* cli_follow.c — `isocheck check --follow` (contract in cli_follow.h).
 *
 * Output (stdout): on the first proven violation, as soon as it is proven,
 *     DETECTED after 1.234s: 120 transactions read, 118 completed, 117 checked
 * followed, once a batch check of the checked part has explained it, by its
 * report (as isocheck check prints it; -v tells both times on stderr);
 * at the end, "END after ...", then the final report of the whole input.
 * With --json each of these is one line: {"event": "violation", "time",
 * "detected", ...} (time: when explained; detected: when proven),
 * {"event": "final", ...}.  Progress (transactions read, completed,
 * checked, the lag of the last check) goes to stderr on a terminal. */
#include "programs/cli_follow.h"

#include <inttypes.h>
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "frontend/online/checker.h"
#include "frontend/online/incr.h"
#include "frontend/online/follow.h"
#include "frontend/online/retire.h"
#include "frontend/formats/parse.h"
#include "frontend/formats/write.h"
#include "frontend/checking/check.h"

/* -v counts the checks longer than this (CPU seconds): a violation whose
 * batch arrives while one runs is reported only after it (issue 17's
 * detection goal is 100 ms). */
#define FOLLOW_SLOW_CHECK 0.05

static double start_time;

static double elapsed(void) { return monotonic_seconds() - start_time; }

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
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

typedef struct detection {
    const follow_options *o;
    uint64_t read, completed;    /* the counts as of the check (set before it) */
    double at;                   /* when the violation was proven (before its explanation) */
} detection;

static int progress_shown;

/* The violation is proven: the DETECTED line now, its report once the batch
 * check of the settled part has explained it. */
static void on_detect(void *ctx, const online_checker *oc) {
    detection *d = ctx;
    d->at = elapsed();
    if (progress_shown) { fprintf(stderr, "\r\033[K"); progress_shown = 0; }
    if (d->o->json) return;                               /* one event, with the report */
    printf("DETECTED after %.3fs: %llu transactions read, %llu completed, %u checked\n", d->at,
           (unsigned long long)d->read, (unsigned long long)d->completed, oc->settled);
    fflush(stdout);
}

static void print_violation(const follow_options *o, const online_checker *oc, const detection *d) {
    if (o->json) {
        printf("{\"event\": \"violation\", \"time\": %.3f, \"detected\": %.3f, \"read\": %llu, \"completed\": %llu, "
               "\"checked\": %u, \"report\": ", elapsed(), d->at, (unsigned long long)d->read, (unsigned long long)d->completed, oc->settled);
        json_inline(stdout, &oc->rep);
        fputs("}\n", stdout);
    } else report_print_text(stdout, &oc->rep, 0);
    fflush(stdout);
}

static void progress(const follow_parse *fp, const online_checker *oc, double lag) {
    if (!isatty(2)) return;
    fprintf(stderr, "\r\033[Kisocheck: following: %u transactions read, %u completed, %u checked, lag %.3fs%s",
            fp->read, fp->completed, oc->settled, lag, oc->failed ? " (violation found)" : "");
    fflush(stderr);
    progress_shown = 1;
}

/* The checker's state was just freed: its pages back to the system
 * before the final load, which would otherwise grow next to them.  glibc
 * keeps freed heap pages (in the middle of the heap: most of them, here)
 * until asked; on a 1M-transaction stream that was ~0.8 GB held through
 * the final phase (doc/benchmarks.md). */
static void give_back_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

/* --retire: feed complete lines to a retire_stream and drop them; check
 * whenever the completed live part has grown by half (at least 1,000
 * transactions), so the work stays linear in the stream. */
static int follow_retiring(const char *path, const follow_options *o, const load_options *lopt, load_report *lrep,
                           history **hout, ic_error *lerr) {
    ic_error err;
    ic_error_clear(&err);
    if (o->fmt != FORMAT_AUTO && o->fmt != FORMAT_TEXT) {
        fprintf(stderr, "isocheck: --retire reads the text format only\n");
        return 2;
    }
    follow_input in;
    if (!follow_open(&in, path, o->idle, 0.05, getenv("TMPDIR"), &err)) {
        ic_error_print(stderr, "isocheck", &err);
        return 2;
    }
    retire_stream rs;
    retire_stream_init(&rs, path, o->want_si, o->want_ser, o->max_anomalies);
    detection det = { o, 0, 0, 0 };
    rs.oc.on_detect = on_detect;
    rs.oc.detect_ctx = &det;
    int rc = -1, got, detected = o->fmt == FORMAT_TEXT;
    uint64_t read = 0, completed_total = 0;
    for (;;) {
        got = follow_read(&in, &err);
        if (got < 0) { rc = 2; break; }
        int at_end = got == 0;
        if (!detected && in.data.len) {
            history_format f = detect_format((const unsigned char *)in.data.data, in.data.len);
            if (f != FORMAT_AUTO || at_end) {
                if (f != FORMAT_TEXT) {
                    ic_error_at(&err, path, 0, "--retire reads the text format only (found %s)", f == FORMAT_AUTO ? "no known format" : history_format_name(f));
                    rc = 2;
                    break;
                }
                detected = 1;
            } else continue;
        }
        size_t upto = in.data.len;
        if (!at_end) while (upto > 0 && in.data.data[upto - 1] != '\n') upto--;
        if (upto) {
            uint32_t before = retire_stream_completed(&rs), live_before = retire_stream_live(&rs);
            if (!retire_stream_feed(&rs, in.data.data, upto, at_end, &err)) { rc = 2; break; }
            memmove(in.data.data, in.data.data + upto, in.data.len - upto);      /* the bytes are in rs now */
            in.data.len -= upto;
            in.base += upto;                      /* (gone: a regular file is still checked to only grow) */
            read += retire_stream_live(&rs) - live_before;
            completed_total += retire_stream_completed(&rs) - before;
        }
        double arrived = elapsed();
        uint32_t live = retire_stream_completed(&rs);
        if (!rs.oc.failed && !at_end && rs.fresh >= 1000 && rs.fresh * 2 >= live) {
            det.read = read;
            det.completed = completed_total;
            int out = retire_stream_check(&rs);
            if (out == ONLINE_VIOLATION) {
                if (progress_shown) { fprintf(stderr, "\r\033[K"); progress_shown = 0; }
                print_violation(o, &rs.oc, &det);
            }
            if (isatty(2)) {
                fprintf(stderr, "\r\033[Kisocheck: following: %llu transactions read, %llu retired, %u live, lag %.3fs%s",
                        (unsigned long long)read, (unsigned long long)rs.retired, retire_stream_live(&rs), elapsed() - arrived,
                        rs.oc.failed ? " (violation found)" : "");
                fflush(stderr);
                progress_shown = 1;
            }
        }
        if (at_end) break;
    }
    if (progress_shown) { fprintf(stderr, "\r\033[K"); fflush(stderr); progress_shown = 0; }
    char *buf = NULL;                     /* the final check: the live part, every transaction complete, as text */
    size_t len = 0;
    if (rc < 0) {
        history *h = retire_stream_history(&rs, 1, &err);
        if (h) {
            FILE *m = open_memstream(&buf, &len);
            if (!m) xalloc_fail(0);
            int ok = write_text(h, m, &err);
            if (fclose(m) != 0) xalloc_fail(len);
            history_free(h);
            if (!ok) { free(buf); buf = NULL; len = 0; rc = 2; }
        } else if (err.set) rc = 2;
        if (rc < 0) {
            if (o->json)
                printf("{\"event\": \"end\", \"time\": %.3f, \"transactions\": %llu, \"retired\": %llu, \"peak_live\": %u}\n",
                       elapsed(), (unsigned long long)read, (unsigned long long)rs.retired, rs.peak_live);
            else
                printf("END after %.3fs: %llu transactions read, %llu retired, at most %u live; the live part, checked in batch:\n",
                       elapsed(), (unsigned long long)read, (unsigned long long)rs.retired, rs.peak_live);
            fflush(stdout);
        }
    }
    if (rc == 2) ic_error_print(stderr, "isocheck", &err);
    retire_stream_free(&rs);
    follow_close(&in);
    if (rc < 0) {
        give_back_memory();
        *hout = load_history_mem_ex(buf ? buf : "", len, FORMAT_TEXT, path, lopt, lrep, lerr);
    }
    free(buf);
    return rc;
}

/* follow_spill, and the note (once) when the bytes must stay in memory. */
static int spill(follow_input *in, size_t upto, ic_error *err) {
    int r = follow_spill(in, upto, err);
    if (r == 0 && in->note[0]) {
        fprintf(stderr, "isocheck: note: %s: the input read stays in memory\n", in->note);
        in->note[0] = 0;
    }
    return r;
}

/* The state of one followed input (cli_follow). */
typedef struct follow_run {
    const follow_options *o;
    const char *path;
    follow_input in;
    follow_parse fp;
    online_checker oc;
    detection det;
    size_t checked_bytes;
    double t_parse, t_check, t_check_max;
    unsigned long slow_checks;   /* over FOLLOW_SLOW_CHECK: a violation arriving then waits */
} follow_run;

/* The bytes that arrived: parse what completed and check it.  -1 an input
 * error (err set), ARRIVAL_NONE nothing completed (or the text stopped
 * being followed: r->fp.stopped), else an online_outcome. */
#define ARRIVAL_NONE (-2)
static int follow_arrival(follow_run *r, ic_error *err) {
    follow_input *in = &r->in;
    follow_parse *fp = &r->fp;
    history *h;
    double t0 = cpu_seconds();
    /* text: only the new lines; else (or once the batch parser must word an input error) all of them */
    int st = follow_delta(fp, in->data.data, in->base, in->data.len, r->path, err), out;
    double t1 = cpu_seconds();
    if (st > 0) {
        r->t_parse += t1 - t0;
        if (!fp->ts.done.len) return ARRIVAL_NONE;
        r->det.read = fp->read;
        r->det.completed = fp->completed;
        out = online_check_delta(&r->oc, fp->ts.key_ext.data, (uint32_t)fp->ts.key_ext.len, fp->ts.done.data,
                                 fp->ts.done.len, fp->completed);
        if (out == ONLINE_NEED_HISTORY) {       /* a fallback, or a violation to explain: the history so far */
            if (!follow_all(in, err)) return -1;
            st = follow_completed(fp, in->data.data, in->data.len, r->path, 0, &h, err);
            if (st < 0) return -1;
            out = st > 0 && h ? online_check(&r->oc, h) : ONLINE_NO_VIOLATION;
            history_free(h);
        }
    } else {
        if (st == 0) {
            if (!follow_all(in, err)) return -1;
            st = follow_completed(fp, in->data.data, in->data.len, r->path, 0, &h, err);
        }
        t1 = cpu_seconds();
        r->t_parse += t1 - t0;
        if (st < 0) return -1;
        if (st == 0 || !h) return ARRIVAL_NONE;
        r->det.read = fp->read;
        r->det.completed = fp->completed;
        out = online_check(&r->oc, h);
        history_free(h);
    }
    t1 = cpu_seconds() - t1;
    r->t_check += t1;
    if (t1 > r->t_check_max) r->t_check_max = t1;
    if (t1 > FOLLOW_SLOW_CHECK) r->slow_checks++;
    return out;
}

/* -v: how the checks were made. */
static void print_how(const follow_run *r) {
    const online_checker *oc = &r->oc;
    fprintf(stderr, "isocheck: follow: %u checks of the settled part: %u incremental, %u from scratch%s%s%s\n",
            oc->checks, oc->incr_checks, oc->scratch_checks, oc->fallback_why[0] ? " (" : "", oc->fallback_why,
            oc->fallback_why[0] ? ")" : "");
    if (oc->incr) {
        const incr_stats *is = incr_get_stats(oc->incr);
        fprintf(stderr, "isocheck: follow: incremental: %" PRIu64 " transactions, %" PRIu64 " writers, writer pairs %"
                PRIu64 " decided by reachability (%" PRIu64 " of them skipped behind a key's pivot), %" PRIu64
                " variables (%" PRIu64 " fixed by new readers), %" PRIu64
                " edges (%" PRIu64 " RW edges of readers covered by another, %" PRIu64 " WR/RW edges implied by a path), %" PRIu64 " checks answered by the kept model, %"
                PRIu64 " solves\n", is->txns_in_graph, is->writers, is->pairs_decided, is->pairs_skipped, is->pairs_var,
                is->pairs_pruned,
                is->edges, is->rw_covered, is->implied, is->kept_model, is->solves);
    }
    fprintf(stderr, "isocheck: follow: CPU %.3fs parsing, %.3fs checking; longest check %.3fs, %lu over %.0f ms\n",
            r->t_parse, r->t_check, r->t_check_max, r->slow_checks, FOLLOW_SLOW_CHECK * 1000);
    fprintf(stderr, "isocheck: follow: %zu bytes read, %zu of them out of memory (%s)\n", follow_total(&r->in), r->in.base,
            r->in.spill_fd < 0 ? "none" : r->in.spill_fd == r->in.fd ? "read again from the file" : "in a temporary file");
}

/* The end of a text input the incremental path has followed: the last
 * transaction of each session completes; if everything is settled and
 * passes, the models' version orders go to the final report, which
 * re-checks them (online/final.h) instead of a second pipeline. */
static void follow_finish(follow_run *r) {
    double t0 = cpu_seconds();
    r->oc.on_detect = NULL;
    text_stream *ts = &r->fp.ts;
    if (text_stream_finish(ts))
        r->o->final->ready = online_finish_delta(&r->oc, ts->key_ext.data, (uint32_t)ts->key_ext.len, ts->done.data,
                                                 ts->done.len, text_stream_read(ts), r->o->final->order);
    r->t_check += cpu_seconds() - t0;
}

int cli_follow(const char *path, const follow_options *o, const load_options *lopt, load_report *lrep, history **hout,
               ic_error *lerr) {
    start_time = monotonic_seconds();
    *hout = NULL;
    if (o->retire) return follow_retiring(path, o, lopt, lrep, hout, lerr);
    ic_error err;
    ic_error_clear(&err);
    follow_run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.path = path;
    if (!follow_open(&r.in, path, o->idle, 0.05, getenv("TMPDIR"), &err)) {
        ic_error_print(stderr, "isocheck", &err);
        return 2;
    }
    follow_parse_init(&r.fp, o->fmt);
    online_init(&r.oc, o->want_si, o->want_ser, o->max_anomalies);
    r.oc.source = path;
    follow_parse_checker(&r.fp, &r.oc);           /* the text reader asks it about the writes handed out */
    r.det.o = o;
    r.oc.on_detect = on_detect;
    r.oc.detect_ctx = &r.det;
    int rc = -1, got;
    while ((got = follow_read(&r.in, &err)) > 0) {
        if (r.oc.failed || r.fp.stopped[0]) continue;   /* final: only the end matters now */
        double arrived = elapsed();
        /* only lines that ended since the last check can complete something */
        if (!memchr(r.in.data.data + (r.checked_bytes - r.in.base), '\n', follow_total(&r.in) - r.checked_bytes)) continue;
        r.checked_bytes = follow_total(&r.in);
        int out = follow_arrival(&r, &err);
        if (out == -1) { rc = 2; break; }
        if (r.fp.stopped[0]) {
            if (progress_shown) { fprintf(stderr, "\r\033[K"); progress_shown = 0; }
            fprintf(stderr, "isocheck: note: %s: not checked while it is written; the final check reads every byte\n",
                    r.fp.stopped);
            continue;
        }
        if (out == ARRIVAL_NONE) continue;
        if (out == ONLINE_VIOLATION) {
            if (progress_shown) { fprintf(stderr, "\r\033[K"); progress_shown = 0; }
            print_violation(o, &r.oc, &r.det);
            if (o->verbose) fprintf(stderr, "isocheck: follow: violation proven at %.3fs, explained at %.3fs (%s)\n", r.det.at,
                                    elapsed(), r.oc.witness_txns ? "a witness of the last transactions to settle"
                                                                 : "the batch check of the settled part");
        } else if (r.det.at > 0 && !r.oc.failed) {       /* proven incrementally, not confirmed: an internal error */
            if (!o->json) printf("  not confirmed: %s\n", r.oc.unknown_msg);
            r.det.at = 0;
        }
        progress(&r.fp, &r.oc, elapsed() - arrived);
        /* the parsed bytes only matter to the final check: out of memory */
        if (r.fp.delta == 1 && !r.oc.failed && spill(&r.in, r.fp.ts.consumed, &err) < 0) { rc = 2; break; }
    }
    if (progress_shown) { fprintf(stderr, "\r\033[K"); fflush(stderr); progress_shown = 0; }
    if (got == 0 && rc < 0 && o->final && r.fp.delta == 1 && !r.fp.stopped[0] && !r.oc.failed &&
        r.fp.ts.consumed == follow_total(&r.in))
        follow_finish(&r);
    if (o->verbose) print_how(&r);
    if (got < 0) rc = 2;
    /* the checker's state goes, and its memory back to the system, before
     * the final load: the final phase holds only what a batch check would */
    history_format detected = r.fp.fmt;
    online_free(&r.oc);
    follow_parse_free(&r.fp);
    give_back_memory();
    if (rc == 2) ic_error_print(stderr, "isocheck", &err);
    else {
        if (detected == FORMAT_AUTO) {                      /* nothing detected yet: the batch loader decides */
            /* (nothing was spilled: only parsed text is) */
            if (!r.in.base && r.in.data.len && (r.in.data.data[0] == (char)0x1f)) {
                fprintf(stderr, "isocheck: %s: gzip-compressed input cannot be followed\n", path);
                rc = 2;
            }
        } else if (detected == FORMAT_DBCOP || detected == FORMAT_COBRA) rc = 2;
        if (rc < 0) {
            if (o->json) printf("{\"event\": \"end\", \"time\": %.3f, \"bytes\": %zu}\n", elapsed(), follow_total(&r.in));
            else printf("END after %.3fs: %zu bytes read; the whole input, %s:\n", elapsed(), follow_total(&r.in),
                        o->final && o->final->ready ? "the incremental model re-checked" : "checked in batch");
            fflush(stdout);
            /* every byte, by the batch loader, read from where it was kept */
            *hout = follow_load(&r.in, detected, lopt, lrep, lerr);
        }
    }
    follow_close(&r.in);
    return rc;
}
