/* list_repeat.h — values appended more than once to a list key (issue 35;
 * doc/checker.md, "Repeated appends").
 *
 * A list read shows whole versions: its external prefix (the list without
 * the reader's own appends) is a run of whole appends of writers in
 * version order, and every list read of a key is a prefix of one order,
 * so all reads agree on which append sits at each position.  With a value
 * appended twice, which append a position shows is a choice, made once
 * per key: a *segmentation* of the key's longest committed external prefix
 * L into whole appends of distinct transactions.  Only segmentations no
 * level can refute from the list alone are listed (pruning, every level):
 *   - each block is all of a non-aborted transaction's successful appends
 *     to the key, in program order, its values as L shows them (so a list
 *     [1 2 1] whose two 1s are two appends takes two different ones);
 *   - a committed read's external prefix ends between two blocks;
 *   - a transaction's block starts at or after the end of every external
 *     prefix it read of the key itself (its version is installed after
 *     what it read: an own read also keeps it out of its own prefix);
 *   - with session_order: no block lies inside the prefix a committed
 *     reader earlier in the block's session read (SO;WR would be a cycle at
 *     every level with session order);
 *   - with adjacent (every level checked has the SI or SER shape, or is rr
 *     without predicate reads): a
 *     writer's block starts where the prefix it read ends (its version
 *     comes right after the one it read), and a committed writer that read
 *     a prefix shorter than L must sit there.
 * A key whose segmentation is forced (one left) is no choice; a key with
 * none left is checked under a best-effort mapping (each position the
 * first unused append of its value) that the axioms or the levels refute.
 *
 * history_with_list_choice writes one choice out as a history of unique
 * list values (each repeated append a named value of its own, shown as
 * written; the same ids under every choice), which the ordinary pipeline
 * checks: repeated register values in it are resolved as usual. */
#ifndef ISOCHECK_LIST_REPEAT_H
#define ISOCHECK_LIST_REPEAT_H

#include <stdint.h>

#include "frontend/history/history.h"

typedef struct list_choice list_choice;

/* Whether some value is appended twice to a list key (cheap: rep_ops). */
int history_has_repeated_appends(const history *h);

/* The segmentations of every key with a repeated append; NULL when there
 * is none.  max_steps bounds the search of each key's (0: the default,
 * LIST_SEG_STEPS in list_repeat.c); a key cut short is truncated. */
list_choice *list_choice_build(const history *h, int session_order, int adjacent, uint32_t max_steps);
void list_choice_free(list_choice *lc);

/* The keys with several segmentations left (the choice), and each one's
 * count of segmentations (the choice's digits: pick[i] < options(i)). */
uint32_t list_choice_num(const list_choice *lc);
uint32_t list_choice_options(const list_choice *lc, uint32_t i);
uint32_t list_choice_key(const list_choice *lc, uint32_t i);
/* 1 when some key had more segmentations than are listed (a cap): a FAIL
 * over every listed choice is then not a proof. */
int list_choice_truncated(const list_choice *lc);
/* Committed list reads of a choice key whose list holds a repeated value. */
uint32_t list_choice_reads(const list_choice *lc);

/* h under the choice pick[0 .. list_choice_num) (NULL: every first
 * segmentation): a new history, freed by history_free. */
history *history_with_list_choice(const history *h, const list_choice *lc, const uint32_t *pick);

/* The relaxation: h under the first choice with every list read of a key
 * with several segmentations left out (flagged OP_FAILED: it took no
 * effect) unless every segmentation gives it the same appends (its
 * prefix within the positions they all agree on).  Its constraints are a
 * subset of every choice's, so a level it fails fails whichever appends
 * were seen.  (A key whose segmentations are not all listed keeps none,
 * also one cut short with a single order listed.) */
history *history_without_choice_lists(const history *h, const list_choice *lc);

/* One sentence naming the choice made for a read: the first committed
 * list read of choice key i whose prefix ends in a repeated value, "txn 4
 * read key 1 = [1 5] with 5 appended by txn 2".  0 when there is none. */
int list_choice_describe(const history *h, const list_choice *lc, const uint32_t *pick, uint32_t i, char *buf,
                         size_t n);

/* ---- what the report states (report_assumed.h; doc/checker.md, "Repeated
 * appends": what the report states) ---------------------------------------
 * A list read's external prefix (the list without its transaction's own
 * appends so far, when it ends with them; else the whole list) has length
 * history_list_external_len.  An element of it has an established appender
 * when every segmentation of its key agrees on it (or its value was
 * appended once); else (several segmentations disagree there, a key cut
 * short or with none left and a value appended twice, a read not a prefix
 * of L past where it agrees with L) its appender is the choice the report
 * was made under.
 *
 * list_choice_mark flags those elements in chosen (one byte per element of
 * every list read, the reads in op order, each read's list in order; NULL:
 * allocated, zeroed) and returns it; several choices' marks may be ORed
 * into one array (run_list.c: the two groups of levels).
 * history_set_list_assumed gives h (as loaded, read-only otherwise) the
 * form the reports read as its resolved one (h->resolved, which a history
 * with repeated appends never gets from history_resolved: run_check checks
 * it through its choices): h's copy in which each marked element reads
 * VALUE_INIT (a value no one appends) and each list read with a marked
 * element carries OP_AMBIGUOUS (num_amb, amb_read; no candidates listed).
 * None marked: h->resolved is left NULL.  Either way a form set by an
 * earlier call is freed first, and chosen is freed. */
uint32_t history_list_external_len(const history *h, uint32_t r);
uint8_t *list_choice_mark(const history *h, const list_choice *lc, uint8_t *chosen);
void history_set_list_assumed(const history *h, uint8_t *chosen);

#endif
