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
 * white-box verdict is FAIL with that reason, for every level asked. */
#ifndef ISOCHECK_HINT_CHECK_H
#define ISOCHECK_HINT_CHECK_H

#include <stdio.h>

#include "error.h"
#include "frontend/checking/check.h"
#include "frontend/checking/hints.h"
#include "frontend/formats/version_hint.h"

typedef struct whitebox {
    const history *h;
    const char *hint_file;
    int axioms_fail;             /* the history breaks an axiom: FAIL as the black-box answer says */
    char finding[2048];          /* non-empty: the hint contradicts the history */
    int want[2];                 /* by check_level_id */
    check_result res[2];         /* the levels checked (when no finding and the axioms hold) */
    uint64_t hint_keys, hint_values, hint_pairs, edges_added;
} whitebox;

/* The white-box check of every level in want[] (check_level_id order).
 * Returns 1, or 0 with err when the history cannot be indexed. */
int whitebox_run(const history *h, const version_hint *vh, const int want[2], const check_options *opt,
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
