/* hint_check.h — the white-box answer: a history checked with the
 * database's own (complete or partial) version order, read from a file
 * (frontend/formats/version_hint.h), resolved against the history,
 * validated and used (frontend/checking/hints.h); and its report.
 *
 * The black-box answer (run_check.h, no hint) is separate and unchanged;
 * `isocheck check --version-order FILE` prints both (doc/cli.md).
 *
 * Values are named as the history writes them (history_value_str); the
 * initial value as "init", or as the format writes it ("0" in text and
 * dbcop histories when 0 is not a written value, "nil"; JSON null).
 * A value the history never wrote to the key, a key the history never
 * uses, or any contradiction hints_validate finds is a *finding*: the
 * white-box verdict is FAIL with that reason, for every level asked.
 *
 * A commit order (a file, or the history's database timestamps) is
 * checked the same way (whitebox_run_commit; hint_commit.c).  A FAIL by a
 * cycle is named as the black-box answer names its anomalies
 * (interpret.h, classify.h): the interpretation's first anomaly, its name
 * and its one line, and its minimal cycle replaces the checker's. */
#ifndef ISOCHECK_HINT_CHECK_H
#define ISOCHECK_HINT_CHECK_H

#include <stdio.h>

#include "error.h"
#include "frontend/checking/check.h"
#include "frontend/checking/hints.h"
#include "frontend/formats/commit_order.h"
#include "frontend/formats/version_hint.h"

typedef enum whitebox_kind {
    WB_VERSION_ORDER = 0,        /* --version-order FILE */
    WB_COMMIT_ORDER,             /* --commit-order FILE */
    WB_DB_TIMES,                 /* --db-timestamps: the history's TIME_DB_COMMIT (and TIME_DB_START) */
} whitebox_kind;

enum { WB_MAX_STAGES = 12 };

typedef struct whitebox {
    const history *h;
    whitebox_kind kind;
    const char *hint_file;       /* NULL: the history's timestamps */
    int axioms_fail;             /* the history breaks an axiom: FAIL as the black-box answer says */
    char finding[2048];          /* non-empty: the hint contradicts the history (every level) */
    char level_finding[2][2048]; /* non-empty: a finding of one level's replay */
    char no_answer[1024];        /* non-empty: no white-box answer (every level): why */
    int want[2];                 /* by check_level_id */
    int complete;                /* the version order hint orders every version: polynomial path */
    const char *method[2];       /* how each level was decided (for the report) */
    check_result res[2];         /* the levels checked (when no finding and the axioms hold) */
    char an_name[2][160];        /* a cycle's anomaly, named as the black-box answer names them */
    char *an_detail[2];          /* its one line (interpret.h), or NULL */
    uint64_t hint_keys, hint_values, hint_pairs, edges_added, hint_txns;
    /* -v: the white-box stages in the order they ran, wall seconds each */
    int nstages;
    const char *stage_name[WB_MAX_STAGES];
    double stage_secs[WB_MAX_STAGES];
    double stage_cpu[WB_MAX_STAGES];   /* the process's CPU seconds (every thread) */
    double stage_t0, stage_c0;   /* when the stage running now began */
} whitebox;

/* The stage that just ended (name: a static string) recorded in wb's
 * stage times; the next one starts now. */
void whitebox_stage(whitebox *wb, const char *name);
/* "axioms 0.412s (cpu 0.410s)  replay ..." on one line to out (-v). */
void whitebox_print_stages(FILE *out, const whitebox *wb);

/* The white-box check of every level in want[] (check_level_id order)
 * with a version order hint.  Returns 1, or 0 with err when the history
 * cannot be indexed. */
int whitebox_run(const history *h, const version_hint *vh, const int want[2], const check_options *opt,
                 whitebox *wb, ic_error *err);
/* The same with a commit order (co), or with the history's own database
 * timestamps (co NULL): SER by replay in that order, SI by the start and
 * commit timestamps when the history has both, else under the version
 * order the commit order implies (frontend/checking/replay.h).  Ids are
 * the history's transaction ids; one that names no transaction, an
 * aborted one, a committed one left out, are findings; an id two
 * transactions share, or a missing timestamp, leaves no answer. */
int whitebox_run_commit(const history *h, const commit_order_file *co, const int want[2], const check_options *opt,
                        whitebox *wb, ic_error *err);
void whitebox_free(whitebox *wb);

/* The worst verdict of the levels asked for: FAIL if one fails (a finding
 * fails them all), else UNKNOWN if one has no answer, else PASS. */
verdict whitebox_verdict(const whitebox *wb);
/* Text lines "white-box PASS si: ..." / "white-box FAIL ser: ..." with
 * the cycle, after the black-box report. */
void whitebox_print_text(FILE *out, const whitebox *wb);
/* One JSON object (doc/json-schema.md, "white_box"). */
void whitebox_print_json(FILE *out, const whitebox *wb);

#endif
