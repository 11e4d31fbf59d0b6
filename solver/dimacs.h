/* dimacs.h — DIMACS CNF input, extensible to line-oriented formats built on
 * it (MonoSAT's GNF adds `digraph`, `edge`, `acyclic` ... lines).
 *
 * Reading is three steps, so that memory follows what the input uses, not
 * what its header declares:
 *   dimacs_scan()        text -> clause literals as written (file numbering),
 *                        every line checked; keyword lines go to a hook;
 *   varnum_renumber()    the variables the input names -> solver variables
 *                        1..n, in the file's order (solver/varnum.h);
 *   dimacs_load()        the clauses into the solver.
 * dimacs_parse() does all three for plain DIMACS.
 *
 * Text: a clause may span lines and ends with 0; lines may start with
 * blanks (space, tab, CR, VT, FF).  Line kinds, by the first token:
 *   a number ('-' or a digit)      clause literals;
 *   "p"                            header `p cnf VARS CLAUSES`;
 *   "c"                            comment (plain mode: any token starting
 *                                  with 'c', as in classic DIMACS);
 *   "%"                            SATLIB end-of-data marker: stop reading;
 *   anything else (a keyword)      handed to the extension hook, if any,
 *                                  otherwise an error.
 * The hook, dimacs_line_hook, receives a line as [line, end): from its
 * first non-blank byte to its last one (*end is a blank or the newline,
 * so a token never runs past end; no NUL byte inside), and its 1-based
 * number.  It returns 0 if it accepted the line, non-zero to stop with an
 * error; it should fill err (ic_error_at(err, file, lineno, ...)); if it
 * leaves err unset the parser reports "unknown keyword 'X'".  A keyword
 * line may not interrupt an unterminated clause.  With a hook installed
 * (or header_optional set) the `p cnf` header may be missing; then the
 * clause count is not checked.
 *
 * Variables: any index up to DIMACS_MAX_VAR (INT32_MAX); only the ones the
 * input names become solver variables.  The header's count is checked
 * against the literals (a literal above it is an error) but allocates
 * nothing.
 *
 * Errors (exit code 2 in gsat): missing file, empty input, a NUL byte,
 * bad or repeated header, header after clauses, clause before the header,
 * literal out of range, a token glued to a literal ("12a", "1-2"), stray
 * text, unterminated last clause, clause count different from the
 * header's, a line longer than READER_MAX_LINE, read or gzip errors. */
#ifndef GSAT_DIMACS_H
#define GSAT_DIMACS_H

#include <stdint.h>

#include "error.h"
#include "gsat.h"
#include "vec.h"
#include "io/reader.h"
#include "solver/varnum.h"

#define DIMACS_MAX_VAR INT32_MAX

/* Return codes of the readers: DIMACS_TIMEOUT when opts->deadline passed
 * while reading (no error set; the caller answers "unknown"). */
enum { DIMACS_OK = 0, DIMACS_ERROR = -1, DIMACS_TIMEOUT = -2 };

typedef int (*dimacs_line_hook)(void *ctx, const char *line, const char *end, long lineno, ic_error *err);

typedef struct dimacs_opts {
    dimacs_line_hook hook;     /* NULL: plain DIMACS CNF */
    void *hook_ctx;
    int header_optional;       /* implied when hook is set */
    double deadline;           /* gsat_now() time to give up reading; 0: none */
    int text_only;             /* dimacs_parse(): check and number, load nothing */
} dimacs_opts;

/* The clauses as written. */
typedef struct dimacs_text {
    vec_int lits;              /* literals, each clause ended by 0 */
    long clauses;
    int max_var;               /* largest variable index named by a clause */
    long declared_vars, declared_clauses;   /* from the header; -1 without */
    long lines;
    varnum_marks marks;        /* the variables of lits */
} dimacs_text;

/* After dimacs_parse(). */
typedef struct dimacs_info {
    long vars;                 /* variables the input names */
    long clauses;
    long declared_vars;        /* the header's count, -1 without a header */
    int has_header;
    long lines;
    vec_int names;             /* names.data[v]: the file's index of solver variable v,
                                  0 if unnamed (solver/varnum.h); free with dimacs_info_free */
} dimacs_info;

/* Scan the text from r into t (initialised here; free with
 * dimacs_text_free, also after an error).  Returns DIMACS_OK,
 * DIMACS_ERROR with err set, or DIMACS_TIMEOUT. */
int dimacs_scan(reader *r, const dimacs_opts *opts, dimacs_text *t, ic_error *err);
void dimacs_text_free(dimacs_text *t);

/* Add the clauses in lits[0..n) (each ended by 0, solver numbering) to s.
 * Returns DIMACS_OK, or DIMACS_TIMEOUT when deadline (> 0) passed. */
int dimacs_load(gsat *s, const int *lits, size_t n, double deadline);
/* The same after asserting units[0..nunits) (DIMACS literals) first: the
 * clauses they satisfy are never stored, the literals they falsify are
 * dropped, and all units are propagated once at the end. */
int dimacs_load_after_units(gsat *s, const int *units, size_t nunits, const int *lits, size_t n, double deadline);

/* For readers that tie variables together after a load: for each v of
 * vars[0..n) and each pair of clauses (-v p) (v -p) among the binary
 * clauses the engine keeps at level 0 (as loaded: clauses satisfied when
 * added are not kept, literals false then are dropped), each(state, v, p)
 * with p a DIMACS literal: v = p.  Reads the engine's watch lists (no
 * copy of the clauses); v may repeat, pairs may be reported twice. */
void dimacs_equivalences(gsat *s, const int *vars, size_t n, void *state, void (*each)(void *state, int v, int p));

/* Scan, number and load plain DIMACS from r into s.  opts and info may be
 * NULL.  Returns DIMACS_OK, DIMACS_ERROR with err set, or DIMACS_TIMEOUT. */
int dimacs_parse(gsat *s, reader *r, const dimacs_opts *opts, dimacs_info *info, ic_error *err);
/* Open path ("-" = stdin), parse, close. */
int dimacs_parse_file(gsat *s, const char *path, const dimacs_opts *opts, dimacs_info *info, ic_error *err);
void dimacs_info_free(dimacs_info *info);

/* ---- helpers for the keyword lines of formats built on DIMACS (GNF) ---- */
static inline int dimacs_is_blank(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The next blank-separated token of [*p, end): *tok, *len; *p moves past
 * it.  Returns 0 when only blanks are left. */
static inline int dimacs_token(const char **p, const char *end, const char **tok, size_t *len) {
    const char *q = *p;
    while (q < end && dimacs_is_blank((unsigned char)*q)) q++;
    const char *s = q;
    while (q < end && !dimacs_is_blank((unsigned char)*q)) q++;
    *p = q;
    *tok = s;
    *len = (size_t)(q - s);
    return q > s;
}

/* Token t[0..n) as a decimal integer (optional sign, digits only, leading
 * zeros allowed) in [lo, hi]: 1 and *out, else 0. */
int dimacs_int(const char *t, size_t n, int64_t lo, int64_t hi, int64_t *out);

/* Room for `more` elements past v->len, with v's memory made resident up
 * to there (and a step beyond) in one system call instead of one page
 * fault per page, which is costly under virtualisation.  *populated is
 * the caller's bookkeeping for v, 0 at first. */
void dimacs_reserve_slow(vec_int *v, size_t need, size_t *populated);
static inline void dimacs_reserve(vec_int *v, size_t more, size_t *populated) {
    if (v->len + more > *populated) dimacs_reserve_slow(v, v->len + more, populated);
}

/* Token t[0..n) for a message: at most 40 bytes, non-printable bytes as '?'. */
void dimacs_shown(const char *t, size_t n, char out[48]);

#endif
