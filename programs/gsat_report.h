/* gsat_report.h — what gsat prints besides the answer line, and how it
 * stops on a signal:
 *   - the statistics of `gsat -v` (and of an interrupted run) as `c` lines;
 *   - the model as `v` lines in the input's numbering;
 *   - the progress table of `gsat -v`, MiniSat's way: a `c` line after
 *     each learned-clause reduction (conflicts, decisions, restarts,
 *     learned clauses made and kept, their mean length, level-0 facts,
 *     seconds), a header before the search and a rule after it;
 *   - SIGINT and SIGTERM during the search: the first sets a flag that the
 *     search polls (gsat_set_terminate: after each conflict) and the run
 *     ends with `s UNKNOWN` (exit 0, as MiniSat's INDETERMINATE); a second
 *     one, or one outside the search (reading the input), removes the
 *     temporary files of io/tmp_registry.h (an unfinished proof) and ends
 *     the process by that signal (128+N), as isocheck ends.  A signal the
 *     program inherited as ignored stays ignored.
 * Every write to standard output is checked (output_stdout_failed). */
#ifndef GSAT_REPORT_H
#define GSAT_REPORT_H

#include "gsat.h"
#include "vec.h"

void gsat_print_stats(const gsat *s, double parse_seconds);
/* names: solver variable -> the file's (solver/varnum.h). */
void gsat_print_model(const gsat *s, const vec_int *names);

/* Install the progress table's hook (gsat -v). */
void gsat_progress_start(gsat *s);
/* The table's last line and its rule (once the search ended). */
void gsat_progress_end(gsat *s);

/* Install the SIGINT/SIGTERM handler and the solver's terminate hook. */
void gsat_signals_install(gsat *s);
/* Whether the search runs (a signal then interrupts it, else ends gsat). */
void gsat_signals_searching(int on);
/* The signal that interrupted the search, 0 if none. */
int gsat_interrupted(void);

#endif
