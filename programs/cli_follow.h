/* cli_follow.h — `isocheck check --follow`: check a history while it is
 * written (frontend/online/follow.h reads it, frontend/online/checker.h
 * judges it), print each proven violation as it is found, then hand every
 * byte read to the batch check for the final verdict — or, when the
 * incremental state covers the whole text input and passes, the version
 * orders of its models, which the final report uses once the library's
 * re-check accepts them (frontend/online/final.h: a PASS is never said from
 * the incremental state alone). */
#ifndef ISOCHECK_CLI_FOLLOW_H
#define ISOCHECK_CLI_FOLLOW_H

#include <stddef.h>
#include <stdio.h>

#include "frontend/history/history.h"
#include "frontend/history/load_report.h"
#include "frontend/formats/parse.h"
#include "frontend/reports/report.h"

#include "frontend/online/final.h"

typedef struct follow_options {
    double idle;                 /* a regular file ends after this many seconds without new bytes */
    int json;                    /* one JSON event per line */
    int want_si, want_ser;
    size_t max_anomalies;
    history_format fmt;          /* FORMAT_AUTO: detect */
    int retire;                  /* keep only the live part (text; frontend/online/retire.h) */
    int verbose;                 /* at the end, how the checks were done (stderr) */
    follow_final *final;         /* non-NULL: the final verdict may come from the incremental state */
    int retire_level;            /* with retire: a real-time level retires by time (retire_time.h); -1 fences */
    int has_max_lag;             /* retiring by time: --max-lag max_lag (retire_time.h) */
    int64_t max_lag;
} follow_options;

/* Follow path until its end.  Returns -1 with *h, the history of the
 * final check: every byte read (or with o->retire the live part at the
 * end as text, the retired past summarized as the initial state), loaded
 * by the batch loader with lopt and lrep once the checker's state is
 * freed (and its memory handed back to the system), the bytes read from
 * where they were kept (frontend/online/follow.h, follow_load) — *h NULL with err
 * set if that load fails; or an exit code (2: bad input, printed). */
int cli_follow(const char *path, const follow_options *o, const load_options *lopt, load_report *lrep, history **h,
               ic_error *err);

/* After the final check (rep, of h): a violation printed while following
 * and not withdrawn (f->shown) that the final check does not confirm —
 * every wanted level passes — is withdrawn now, with why (repeated values:
 * frontend/online/follow_repeat.h): text after the final report, --json
 * (before_final) an event before the final one. */
void cli_follow_print_withdrawn(const follow_final *f, const history *h, const report *rep, int json, int before_final);

/* The final report as the last --json event (one line). */
void cli_follow_print_final_json(FILE *out, const report *r);

#endif
