/* cli_follow.c — `isocheck check --follow` (contract in cli_follow.h).
 *
 * Output (stdout): on the first proven violation, as soon as it is proven,
 *     DETECTED after 1.234s: 120 transactions read, 118 completed, 117 checked
 * followed, once a batch check of the checked part has explained it, by its
 * report (as isocheck check prints it; -v tells both times on stderr);
 * and a line in parentheses saying how far it holds; with repeated values
 * (frontend/online/follow_repeat.h) "WITHDRAWN after ...: ..." when a
 * later check no longer finds it; at the end, "END after ...", then the
 * final report of the whole input (then "WITHDRAWN: ..." if it passes
 * while a violation printed still stood).
 * With --json each of these is one line: {"event": "violation", "time",
 * "detected", ...} (time: when explained; detected: when proven),
 * {"event": "withdrawn", ...}, {"event": "final", ...}.  Progress (transactions read, completed,
 * checked, the lag of the last check) goes to stderr on a terminal.
 * Stopped by SIGINT or SIGTERM (programs/interrupt.h): "STOPPED after ...
 * by SIGINT: ...", the violation's report if one was proven, and "no
 * verdict: stopped after N transactions"; exit 128 + the signal. */
#include "programs/cli_follow.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "io/json_out.h"
#include "frontend/online/follow_repeat.h"
#include "frontend/online/follow_run.h"
#include "programs/cli.h"
#include "programs/interrupt.h"

static double start_time;

static double elapsed(void) { return monotonic_seconds() - start_time; }

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

void cli_follow_print_withdrawn(const follow_final *f, const history *h, const report *rep, int json, int before_final) {
    if (!f->shown || json != before_final || report_verdict(rep) != VERDICT_PASS) return;
    char why[1024];
    follow_withdrawn_why(f->found.h, h, why, sizeof why);
    if (json) {
        printf("{\"event\": \"withdrawn\", \"time\": %.3f, \"final\": true, \"why\": ", elapsed());
        json_write_string(stdout, why);
        fputs("}\n", stdout);
    } else
        printf("WITHDRAWN: the violation printed while following does not hold in the whole input (the final check "
               "above passes): %s\n", why);
    fflush(stdout);
}

/* What the run tells, printed (follow_run.h's events). */
typedef struct printer {
    const follow_options *o;
    double at;                   /* when the violation was proven (before its explanation); 0: none pending */
} printer;

static int progress_shown;

static void clear_progress(void) {
    if (progress_shown) { fprintf(stderr, "\r\033[K"); fflush(stderr); progress_shown = 0; }
}

/* The violation is proven: the DETECTED line now, its report once the batch
 * check of the settled part has explained it. */
static void on_detected(void *ctx, const online_checker *oc, uint64_t read, uint64_t completed) {
    printer *p = ctx;
    p->at = elapsed();
    clear_progress();
    if (p->o->json) return;                               /* one event, with the report */
    printf("DETECTED after %.3fs: %llu transactions read, %llu completed, %u checked\n", p->at,
           (unsigned long long)read, (unsigned long long)completed, oc->settled);
    fflush(stdout);
}

static void on_violation(void *ctx, const online_checker *oc, uint64_t read, uint64_t completed) {
    printer *p = ctx;
    clear_progress();
    if (p->o->json) {
        printf("{\"event\": \"violation\", \"time\": %.3f, \"detected\": %.3f, \"read\": %llu, \"completed\": %llu, "
               "\"checked\": %u, \"provisional\": %s, \"qualifier\": ", elapsed(), p->at, (unsigned long long)read,
               (unsigned long long)completed, oc->settled, oc->provisional ? "true" : "false");
        json_write_string(stdout, oc->qualifier);
        fputs(", \"report\": ", stdout);
        json_inline(stdout, &oc->rep);
        fputs("}\n", stdout);
    } else {
        report_print_text(stdout, &oc->rep, 0);
        if (oc->qualifier[0]) printf("  (%s)\n", oc->qualifier);
    }
    fflush(stdout);
    if (p->o->verbose && !p->o->retire)
        fprintf(stderr, "isocheck: follow: violation proven at %.3fs, explained at %.3fs (%s)\n", p->at, elapsed(),
                oc->witness_txns ? "a witness of the last transactions to settle" : "the batch check of the settled part");
}

/* Proven incrementally, not confirmed by the batch check: an internal error. */
static void on_unconfirmed(void *ctx, const online_checker *oc) {
    printer *p = ctx;
    if (!p->o->json) printf("  not confirmed: %s\n", oc->unknown_msg);
    p->at = 0;
}

/* Repeated values: the violation shown no longer holds on the part checked now. */
static void on_withdrawn(void *ctx, const char *why, uint64_t read, uint64_t completed, uint32_t checked) {
    const printer *p = ctx;
    clear_progress();
    if (p->o->json) {
        printf("{\"event\": \"withdrawn\", \"time\": %.3f, \"read\": %llu, \"completed\": %llu, \"checked\": %u, "
               "\"why\": ", elapsed(), (unsigned long long)read, (unsigned long long)completed, checked);
        json_write_string(stdout, why);
        fputs("}\n", stdout);
    } else
        printf("WITHDRAWN after %.3fs: the violation above does not hold on the %u transactions checked now "
               "(%llu read, %llu completed): %s\n", elapsed(), checked, (unsigned long long)read,
               (unsigned long long)completed, why);
    fflush(stdout);
}

static void on_progress(void *ctx, const follow_progress *g) {
    (void)ctx;
    if (!isatty(2)) return;
    if (g->retiring)
        fprintf(stderr, "\r\033[Kisocheck: following: %llu transactions read, %llu retired, %u live, lag %.3fs%s",
                (unsigned long long)g->read, (unsigned long long)g->retired, g->live, g->lag,
                g->failed ? " (violation found)" : "");
    else
        fprintf(stderr, "\r\033[Kisocheck: following: %u transactions read, %u completed, %u checked, lag %.3fs%s",
                (uint32_t)g->read, (uint32_t)g->completed, g->checked, g->lag, g->failed ? " (violation found)" : "");
    fflush(stderr);
    progress_shown = 1;
}

static void on_note(void *ctx, const char *msg) {
    (void)ctx;
    clear_progress();
    fprintf(stderr, "isocheck: note: %s\n", msg);
}

/* -v: how the checks were made. */
static void on_stats(void *ctx, const follow_summary *s) {
    const printer *p = ctx;
    clear_progress();
    if (!p->o->verbose) return;
    fprintf(stderr, "isocheck: follow: %u checks of the settled part: %u incremental, %u from scratch%s%s%s\n",
            s->checks, s->incr_checks, s->scratch_checks, s->fallback_why[0] ? " (" : "", s->fallback_why,
            s->fallback_why[0] ? ")" : "");
    if (s->incr) {
        const incr_stats *is = s->incr;
        fprintf(stderr, "isocheck: follow: incremental: %" PRIu64 " transactions, %" PRIu64 " writers, writer pairs %"
                PRIu64 " decided by reachability (%" PRIu64 " of them skipped behind a key's pivot), %" PRIu64
                " variables (%" PRIu64 " fixed by new readers), %" PRIu64
                " edges (%" PRIu64 " RW edges of readers covered by another, %" PRIu64 " WR/RW edges implied by a path), %" PRIu64 " checks answered by the kept model, %"
                PRIu64 " solves\n", is->txns_in_graph, is->writers, is->pairs_decided, is->pairs_skipped, is->pairs_var,
                is->pairs_pruned,
                is->edges, is->rw_covered, is->implied, is->kept_model, is->solves);
    }
    if (s->rechecks)
        fprintf(stderr, "isocheck: follow: repeated values: %u batch re-checks as the input grew, %u violations "
                "withdrawn\n", s->rechecks, s->withdrawn);
    fprintf(stderr, "isocheck: follow: CPU %.3fs parsing, %.3fs checking; longest check %.3fs, %lu over %.0f ms\n",
            s->t_parse, s->t_check, s->t_check_max, s->slow_checks, FOLLOW_SLOW_CHECK * 1000);
    if (s->reader_thread)
        fprintf(stderr, "isocheck: follow: a reader thread parsed while the checks ran: %u batches checked, %llu "
                "questions about a value written twice\n", s->reader_batches, (unsigned long long)s->reader_questions);
    fprintf(stderr, "isocheck: follow: %zu bytes read, %zu of them out of memory (%s)\n", s->bytes, s->spilled,
            s->spilled_where);
}

/* The END line (or event), before the final load. */
static void on_ended(void *ctx, const follow_summary *s) {
    const printer *p = ctx;
    clear_progress();
    if (s->retiring) {
        if (p->o->json)
            printf("{\"event\": \"end\", \"time\": %.3f, \"transactions\": %llu, \"retired\": %llu, \"peak_live\": %u}\n",
                   elapsed(), (unsigned long long)s->txns, (unsigned long long)s->retired, s->peak_live);
        else
            printf("END after %.3fs: %llu transactions read, %llu retired, at most %u live; the live part, checked in batch:\n",
                   elapsed(), (unsigned long long)s->txns, (unsigned long long)s->retired, s->peak_live);
    } else if (p->o->json) printf("{\"event\": \"end\", \"time\": %.3f, \"bytes\": %zu}\n", elapsed(), s->bytes);
    else printf("END after %.3fs: %zu bytes read; the whole input, %s:\n", elapsed(), s->bytes,
                s->from_incr ? "the incremental model re-checked" : "checked in batch");
    fflush(stdout);
}

/* A signal stopped the run (programs/interrupt.h): what is known — the
 * violation proven, if any, again — and no verdict. */
static void on_stopped(void *ctx, const online_checker *oc, const follow_summary *s) {
    const printer *p = ctx;
    clear_progress();
    if (p->o->json) {
        printf("{\"event\": \"stopped\", \"time\": %.3f, \"signal\": \"%s\", \"read\": %llu, \"completed\": %llu, "
               "\"checked\": %u, \"bytes\": %zu", elapsed(), interrupt_name(), (unsigned long long)s->txns,
               (unsigned long long)s->completed, s->checked, s->bytes);
        if (oc->failed) { fputs(", \"report\": ", stdout); json_inline(stdout, &oc->rep); }
        fputs("}\n", stdout);
    } else {
        if (s->retiring)
            printf("STOPPED after %.3fs by %s: %llu transactions read, %llu retired, %llu completed, %u checked\n",
                   elapsed(), interrupt_name(), (unsigned long long)s->txns, (unsigned long long)s->retired,
                   (unsigned long long)s->completed, s->checked);
        else
            printf("STOPPED after %.3fs by %s: %zu bytes, %llu transactions read, %llu completed, %u checked\n", elapsed(),
                   interrupt_name(), s->bytes, (unsigned long long)s->txns, (unsigned long long)s->completed, s->checked);
        if (oc->failed) report_print_text(stdout, &oc->rep, 0);
        printf("no verdict: stopped after %llu transactions%s\n", (unsigned long long)s->txns,
               !oc->failed ? "" : oc->provisional ? " (the violation above is provisional: see above)"
               : " (the violation above holds in every history that contains them and writes none of the values they "
                 "read again)");
    }
    fflush(stdout);
}

int cli_follow(const char *path, const follow_options *o, const load_options *lopt, load_report *lrep, history **hout,
               ic_error *lerr) {
    start_time = monotonic_seconds();
    follow_config c = { o->idle, cli_temp_dir(), o->want_si, o->want_ser, o->max_anomalies, o->fmt, o->retire, o->final,
                        interrupt_stop, NULL, o->retire_level, o->has_max_lag, o->max_lag };
    printer p = { o, 0 };
    follow_events ev = { &p, on_detected, on_violation, on_unconfirmed, on_progress, on_note, on_stats, on_ended,
                         on_stopped, on_withdrawn };
    ic_error err;
    ic_error_clear(&err);
    int rc = follow_run(path, &c, &ev, lopt, lrep, hout, &err, lerr);
    clear_progress();
    if (rc == FOLLOW_RUN_STOPPED) return interrupt_exit_code();
    if (rc == 2 && interrupt_signal()) {          /* (an open() or read a signal cut short) */
        printf("STOPPED after %.3fs by %s\nno verdict: stopped after 0 transactions\n", elapsed(), interrupt_name());
        return interrupt_exit_code();
    }
    if (rc == 2) ic_error_print(stderr, "isocheck", &err);
    return rc;
}
