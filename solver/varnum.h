/* varnum.h — numbering of the variables an input names.
 *
 * A DIMACS or GNF file may use any variable index up to INT32_MAX and
 * declare any count in its header; the solver allocates per variable, so
 * it gets variables for the indices the file names, not for the header's
 * count or the largest index.  When the named indices are dense (at most
 * about as many unnamed indices below the largest as named ones) the
 * file's numbering is kept: solver variable v is file variable v, and the
 * few unnamed ones stay as free variables.  Otherwise the named indices
 * are numbered 1..n in the file's order (the smallest becomes 1).  Either
 * way memory is proportional to the literals given.
 *
 * varnum_renumber() rewrites every nonzero literal of the spans in place
 * when it renumbers (sign kept, 0 stays 0) and fills names, one entry per
 * solver variable: names.data[v] = the file's index of solver variable v,
 * or 0 for an index the file does not name (names.data[0] = 0;
 * names.len - 1 solver variables).  It returns how many indices the file
 * names. */
#ifndef GSAT_VARNUM_H
#define GSAT_VARNUM_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"

typedef struct varnum_span {
    int *data;
    size_t len;
} varnum_span;

/* The variables of a literal stream, marked while it is read (so that
 * varnum_renumber need not read it again): a bitmap that grows with the
 * largest index while that stays within a multiple of the literals read,
 * and otherwise gives up (varnum_renumber then looks at the literals). */
typedef struct varnum_marks {
    uint64_t *bits;
    size_t words;
    int gave_up;
} varnum_marks;

void varnum_mark_grow(varnum_marks *m, uint32_t v, size_t literals);
/* Mark variable v (> 0); literals: how many have been read so far. */
static inline void varnum_mark(varnum_marks *m, uint32_t v, size_t literals) {
    if ((v >> 6) < m->words) m->bits[v >> 6] |= (uint64_t)1 << (v & 63);
    else varnum_mark_grow(m, v, literals);
}
void varnum_marks_free(varnum_marks *m);

/* max_var: at least the largest variable index in the spans.  marks (may
 * be NULL) holds the variables of spans[0] (its bitmap is taken over). */
size_t varnum_renumber(varnum_span *spans, size_t nspans, int max_var, varnum_marks *marks, vec_int *names);

/* The file's literal for solver literal lit (0 if the file does not name
 * its variable). */
static inline int varnum_file_lit(const vec_int *names, int lit) {
    return lit < 0 ? -names->data[-lit] : names->data[lit];
}

#endif
