/* verdict.h — the answer of a check, the one type every part speaks: a
 * level's check (check_result), a report's levels and its worst verdict,
 * the online checker, the library API (which maps it onto the public
 * isocheck_verdict, same values, in frontend/api.c) and the programs
 * (which map it onto an exit code, programs/cli.h).
 *
 *   VERDICT_PASS     the history satisfies the level (the answer re-checked);
 *   VERDICT_FAIL     a violation, proven;
 *   VERDICT_UNKNOWN  no answer: a limit was hit, or an answer could not be
 *                    confirmed (an internal error); never a PASS.
 *
 * Ordered by severity: verdict_worse() of several is FAIL if any fails,
 * else UNKNOWN if any has no answer, else PASS. */
#ifndef ISOCHECK_VERDICT_H
#define ISOCHECK_VERDICT_H

typedef enum verdict { VERDICT_PASS = 0, VERDICT_FAIL = 1, VERDICT_UNKNOWN = 2 } verdict;

/* "PASS", "FAIL", "UNKNOWN". */
static inline const char *verdict_name(verdict v) {
    return v == VERDICT_PASS ? "PASS" : v == VERDICT_FAIL ? "FAIL" : "UNKNOWN";
}

/* The worse of a and b: FAIL, then UNKNOWN, then PASS. */
static inline verdict verdict_worse(verdict a, verdict b) {
    if (a == VERDICT_FAIL || b == VERDICT_FAIL) return VERDICT_FAIL;
    if (a == VERDICT_UNKNOWN || b == VERDICT_UNKNOWN) return VERDICT_UNKNOWN;
    return VERDICT_PASS;
}

#endif
