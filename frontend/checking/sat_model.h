/* sat_model.h — a SAT solver's answer read back from its output, whichever
 * solver wrote it:
 *   - SAT competition style: "s SATISFIABLE" / "s UNSATISFIABLE" and "v" lines
 *     (cadical, kissat, gsat, MonoSAT);
 *   - MiniSat's result file: "SAT" / "UNSAT" then one line of literals;
 *   - bare literal lines (a status line is then optional: literals mean SAT).
 * Lines starting with 'c' are comments.  Literals end at an optional 0;
 * a variable not mentioned is unassigned.  Errors name the line. */
#ifndef ISOCHECK_SAT_MODEL_H
#define ISOCHECK_SAT_MODEL_H

#include "error.h"
#include "io/input.h"

typedef struct sat_model {
    int status;              /* 10 SAT, 20 UNSAT, 0 unknown (no status, no literals) */
    int num_vars;            /* largest variable mentioned */
    signed char *val;        /* val[1..num_vars]: 1 true, -1 false, 0 unassigned */
} sat_model;

void sat_model_init(sat_model *m);
void sat_model_free(sat_model *m);
/* 1 on success; 0 with err set (file:line, what was expected/found). */
int  sat_model_read(input *r, sat_model *m, ic_error *err);
/* 1 true, -1 false, 0 unassigned or out of range. */
int  sat_model_value(const sat_model *m, int var);

#endif
