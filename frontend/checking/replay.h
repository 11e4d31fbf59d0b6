/* replay.h — checking a history against the database's commit order
 * (an "expected serialization order": Clark et al.'s Enne) and its start
 * and commit timestamps (Chronos / Aion style), in linear or N log N time,
 * without the polygraph or the solver (doc/checker.md, "Checking with a
 * commit order or timestamps").
 *
 * A commit_hint is a total order of the participating transactions
 * (history_participants), from a file (resolved by
 * frontend/reports/hint_check.c) or from the history's TIME_DB_COMMIT
 * (commit_hint_from_times).  Given the hint is trusted for nothing: every
 * function below checks it against the history, and a contradiction is a
 * *finding*, one sentence naming the transactions, operations, values,
 * file lines and timestamps involved (a FAIL of the white-box question:
 * the hint is wrong, or the database is).
 *
 *   replay_session_order  a session's transactions commit in session order.
 *   replay_ser            SER in that order: transactions replayed one
 *                         after the other against each key's current
 *                         version; every external read (a register read
 *                         before the transaction's own write; a list
 *                         read's prefix without its own appends) must
 *                         show exactly the current version (the whole
 *                         list, element by element).  O(N + M).
 *   replay_si_times       SI by the timestamps: start <= commit; a
 *                         session's next transaction starts at or after
 *                         the previous one commits; two writers of a key
 *                         never overlap (a commit at or before the other's
 *                         start separates them; else a lost update /
 *                         write conflict); every external read shows the
 *                         version of the last writer committed at or
 *                         before the reader's start (a version committed
 *                         at the start timestamp is visible).
 *                         O(N log N + M).
 *   replay_reads_from     every external read's writer commits before the
 *                         reader (SI without start timestamps: a start
 *                         precedes its commit).  O(M).
 *   replay_version_order  the version order a commit order implies (each
 *                         key's writers in commit order), for the
 *                         polynomial check of a complete version order
 *                         (hints.h, Emme).
 * Returns: 1 consistent; 0 a finding in msg. */
#ifndef ISOCHECK_REPLAY_H
#define ISOCHECK_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/history/history.h"
#include "frontend/history/version_order.h"

typedef struct commit_hint {
    const uint8_t *part;         /* per txn: takes part (history_participants) */
    uint32_t n;                  /* participants in the order, INIT excluded */
    uint32_t *order;             /* n transactions, oldest commit first */
    uint32_t *pos;               /* per txn: its index in order, HISTORY_NONE: not in it */
    uint32_t *line;              /* per txn: its line in the file (0: none), or NULL */
    const char *source;          /* the file, or NULL: the history's timestamps */
} commit_hint;

void commit_hint_free(commit_hint *ch);

/* The order of the participants by TIME_DB_COMMIT (ties: history order,
 * so a session's transactions stay in session order).  1; 0 with a
 * finding (two writers of one key commit at the same timestamp); -1 with
 * msg when a participant has no commit timestamp (no answer). */
int commit_hint_from_times(const history *h, const uint8_t *part, commit_hint *ch, char *msg, size_t cap);

int replay_session_order(const history *h, const commit_hint *ch, char *msg, size_t cap);
int replay_ser(const history *h, const commit_hint *ch, char *msg, size_t cap);
/* -1 with msg when a participant lacks a start or commit timestamp. */
int replay_si_times(const history *h, const uint8_t *part, char *msg, size_t cap);
int replay_reads_from(const history *h, const commit_hint *ch, char *msg, size_t cap);
void replay_version_order(const history *h, const commit_hint *ch, version_order *vo);

#endif
