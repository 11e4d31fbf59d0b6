/* export.h — isocheck encode / decode as library calls: the exact problem
 * the checker would hand its engine, recorded for other solvers, and a
 * model from any solver turned back into a verdict (and a version order
 * for a certificate).
 *
 * export_encode() runs the axioms and the level's stages (check.h) and
 * records the remaining problem in p: one variable per either/or
 * constraint (named after the writers it orders) and one graph.  When the
 * stages decide FAIL before any solver, p is one empty clause with the
 * reason as a comment (unsatisfiable, as the level is).  res gets what the
 * stages found (verdict VERDICT_UNKNOWN with stage "exported" when a solver is
 * needed).  p is reset first.  A history with a value appended twice to a
 * list key is refused (0, err set): which append each position shows is a
 * choice no single instance states (doc/checker.md, "Repeated appends").
 *
 * export_decode() repeats the same stages (the numbering is deterministic)
 * and takes the constraint variables from m: SAT gives PASS with
 * res->vo (confirmed by definition, as after gsat).  UNSAT is a claim
 * about every version order, so it is not taken on trust: the checker's
 * own solver decides, and its FAIL (with its confirmed cycle, as
 * `isocheck check` finds it) is the result.  A wrong answer is
 * VERDICT_UNKNOWN with stage "model" and a message saying what is wrong:
 * UNSAT for a history the checker's own solver passes, SAT although the
 * stages decided FAIL, a constraint variable left unassigned, a model
 * whose choices leave a cycle (also what a model of a differently
 * encoded problem gives).
 * Both return 0 and set err only when the history cannot be indexed. */
#ifndef ISOCHECK_EXPORT_H
#define ISOCHECK_EXPORT_H

#include "error.h"
#include "frontend/checking/check.h"
#include "frontend/history/history.h"
#include "frontend/checking/sat_model.h"
#include "theory/graph_problem.h"

typedef struct export_options {
    check_level_id level;
    int no_prune;
} export_options;

int export_encode(const history *h, const export_options *o, graph_problem *p, check_result *res, ic_error *err);
int export_decode(const history *h, const export_options *o, const sat_model *m, check_result *res, ic_error *err);

#endif
