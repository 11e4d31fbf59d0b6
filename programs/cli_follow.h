/* cli_follow.h — `isocheck check --follow`: check a history while it is
 * written (online_follow.h reads it, online_check.h judges it), print each
 * proven violation as it is found, then hand every byte read to the batch
 * check for the final verdict. */
#ifndef ISOCHECK_CLI_FOLLOW_H
#define ISOCHECK_CLI_FOLLOW_H

#include <stddef.h>
#include <stdio.h>

#include "frontend/history/history.h"
#include "frontend/reports/report.h"

typedef struct follow_options {
    double idle;                 /* a regular file ends after this many seconds without new bytes */
    int json;                    /* one JSON event per line */
    int want_si, want_ser;
    size_t max_anomalies;
    history_format fmt;          /* FORMAT_AUTO: detect */
    int retire;                  /* keep only the live part (text; frontend/online_retire.h) */
    int verbose;                 /* at the end, how the checks were done (stderr) */
} follow_options;

/* Follow path until its end.  Returns -1 with *data, *n (every byte read,
 * or with o->retire the live part at the end as text, the retired past
 * summarized as the initial state; the caller frees *data) and *fmt (as detected) for the final batch
 * check, or an exit code (2: bad input, printed). */
int cli_follow(const char *path, const follow_options *o, char **data, size_t *n, history_format *fmt);

/* The final report as the last --json event (one line). */
void cli_follow_print_final_json(FILE *out, const report *r);

#endif
