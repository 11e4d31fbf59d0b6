/* proof_out.h — a DRAT proof file (gsat --proof), written through a
 * buffer of its own into an io/output.h file: a temporary file beside
 * the target, renamed over it only when complete (never a user's file
 * lost; "-" is standard output).
 *
 * Text DRAT: a line per clause, its literals in DIMACS and 0, a deletion
 * prefixed by "d ".  Binary DRAT (binary = 1): 'a' or 'd', then each
 * literal as the unsigned number 2|l| + (l < 0) in 7-bit groups, low group
 * first, the high bit set on all groups but the last, then a 0 byte.
 * Every write is checked: after the first failure nothing more is
 * written and proof_out_commit reports it (the file named, errno's
 * reason); the temporary file is then removed. */
#ifndef ISOCHECK_PROOF_OUT_H
#define ISOCHECK_PROOF_OUT_H

#include <stdint.h>

#include "error.h"
#include "io/output.h"

typedef struct proof_out {
    output o;
    char *buf;
    size_t len;
    int binary;
    int failed;                /* errno of the first failed write, or -1 if unknown; 0 none */
    int64_t added, deleted;
} proof_out;

/* Open path for writing (flags as output_open).  0 with err set. */
int proof_out_open(proof_out *p, const char *path, int binary, unsigned flags, ic_error *err);
/* One step: add (1) or delete (0) lits[0..n). */
void proof_out_step(proof_out *p, int add, const int *lits, int n);
/* Flush, check, close and move into place; 1, or 0 with err set.
 * Releases p either way. */
int proof_out_commit(proof_out *p, ic_error *err);
/* Give up: remove the temporary file; release p. */
void proof_out_discard(proof_out *p);

#endif
