/* dimacs.h — DIMACS CNF parser, extensible to line-oriented formats built on
 * it (MonoSAT's GNF adds `digraph`, `edge`, `acyclic` ... lines).
 *
 * Input is read through solver/reader.h (file, "-" for stdin, or memory).
 * Clauses go straight into the solver with gsat_add_clause(); a clause may
 * span lines and ends with 0.  Lines may start with blanks.
 *
 * Line kinds, decided by the first token of a line:
 *   a number ('-' or a digit)      clause literals;
 *   "p"                            header `p cnf VARS CLAUSES`;
 *   "c"                            comment (plain mode: any token starting
 *                                  with 'c', as in classic DIMACS);
 *   "%"                            SATLIB end-of-data marker: stop reading;
 *   anything else (a keyword)      handed to the extension hook, if any,
 *                                  otherwise an error.
 *
 * The extension hook, dimacs_line_hook, receives the whole line (leading
 * blanks stripped, no newline, NUL-terminated) and its 1-based number.  It
 * returns 0 if it accepted the line, non-zero to stop parsing with an error;
 * it should fill err (ic_error_at(err, file, lineno, ...)); if it leaves err
 * unset the parser reports "unknown keyword 'X'".  A keyword line may not
 * interrupt an unterminated clause.  With a hook installed (or
 * header_optional set) the `p cnf` header may be missing; then variables
 * are created as literals mention them and the clause count is not checked.
 *
 * Errors (exit code 2 in gsat): missing file, empty input, bad or repeated
 * header, header after clauses, clause before the header, literal out of
 * range (beyond the header's variable count, or too large), stray text,
 * unterminated last clause, clause count different from the header's. */
#ifndef GSAT_DIMACS_H
#define GSAT_DIMACS_H

#include "error.h"
#include "gsat.h"
#include "solver/reader.h"

typedef int (*dimacs_line_hook)(void *ctx, const char *line, long lineno, ic_error *err);

typedef struct dimacs_opts {
    dimacs_line_hook hook;     /* NULL: plain DIMACS CNF */
    void *hook_ctx;
    int header_optional;       /* implied when hook is set */
} dimacs_opts;

typedef struct dimacs_info {
    long vars, clauses;        /* from the header (or as found without one) */
    int has_header;
    long lines;
} dimacs_info;

#define DIMACS_MAX_VAR (1 << 26)

/* Parse from an open reader into s.  opts and info may be NULL.
 * Returns 0 on success, -1 with err set. */
/* Line helpers shared with the GNF reader (theory/gnf.c): blanks are space,
 * tab, CR, VT, FF; dimacs_tokenize splits line in place into at most max
 * tokens and returns their number, or max + 1 if there are more. */
static inline int dimacs_is_blank(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
int dimacs_tokenize(char *line, char **tok, int max);

int dimacs_parse(gsat *s, reader *r, const dimacs_opts *opts, dimacs_info *info, ic_error *err);
/* Open path ("-" = stdin), parse, close. */
int dimacs_parse_file(gsat *s, const char *path, const dimacs_opts *opts, dimacs_info *info, ic_error *err);

#endif
