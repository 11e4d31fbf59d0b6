/* run_list.h — the pipeline over a history whose list keys have repeated
 * appends (issue 35; doc/checker.md, "Repeated appends"), called by
 * run_check for such a history.
 *
 * Which append each position of a list shows is a choice per key
 * (list_repeat.h: the key's segmentations, pruned).  The choices are tried
 * lazily, each written out as a history of unique list values and checked
 * by the whole pipeline (run_check), at every level still undecided: a
 * level holds iff some choice passes it (its report line and certificate
 * are that choice's); it fails when every choice fails — the report is the
 * first choice's, and the level's message says "whichever append ... saw"
 * with the number of choices refuted and the choice the cycle shown
 * assumes.  A key whose segmentation is forced is no choice: a history
 * whose repeated appends are all forced is checked once.  After
 * LIST_CHOICE_MAX_ROUNDS choices, at the time limit, or when a key had more
 * segmentations than are listed, a level no choice passed is UNKNOWN
 * (stage "choice").  The certificate kept is verified against the history
 * as loaded (the verifiers read a list's version by its length, so no
 * choice needs naming beyond the version order). */
#ifndef ISOCHECK_RUN_LIST_H
#define ISOCHECK_RUN_LIST_H

#include "frontend/run_check.h"

#define LIST_CHOICE_MAX_ROUNDS 4096
#define LIST_CHOICE_REPAIRS 64

int run_check_list_choice(const history *h, const run_check_options *o, report *rep, certificate *cert,
                          int *cert_level, ic_error *err);

#endif
