/* reach_rows.h — the reachability table's rows (reach_rows.c), for
 * reach.c: stored narrow or wide (polygraph.h), always computed in their
 * 16-bit form (a base, then per chain the offset from it, PG_REACH_NONE
 * for none).  Scratch arguments: bit has room for num_chains rounded up
 * to 8 bytes; val for 3 rows' 16-bit forms. */
#ifndef ISOCHECK_REACH_ROWS_H
#define ISOCHECK_REACH_ROWS_H

#include "frontend/checking/polygraph.h"

/* The hot loops are plain min/saturating-add loops over 16-bit offsets;
 * -O2's "very cheap" vectorizer leaves them scalar, so GCC is told to use
 * its "cheap" model for them (other compilers decide alone). */
#if defined(__GNUC__) && !defined(__clang__)
#define VECTORIZE __attribute__((optimize("vect-cost-model=cheap")))
#else
#define VECTORIZE
#endif

/* acc[x] = min(acc[x], src[x] + sh), saturating at PG_REACH_NONE. */
void reach_rows_min_shifted(uint16_t *restrict acc, const uint16_t *restrict src, uint32_t w, uint32_t sh);
/* Offsets past pg_reach_delta_max (a testing knob) become none. */
void reach_rows_clamp(uint16_t *acc, uint32_t w);
/* Store base bu and offsets acc into row: narrow when they fit, else
 * wide (reuse: into the row's own wide row if it has one). */
void reach_rows_store(polygraph *g, uint8_t *row, uint32_t bu, const uint16_t *restrict acc, int reuse, uint8_t *restrict bit);
/* A row's 16-bit form: its base, its offsets into out. */
uint32_t reach_rows_load(const polygraph *g, const uint8_t *row, uint16_t *restrict out);
/* Row r's entries, moved to base bu, into acc. */
void reach_rows_into(const polygraph *g, uint16_t *acc, const uint8_t *r, uint32_t bu, uint8_t *bit);
/* row dst = min(row dst, row src), resp. min(row dst, position p on chain
 * c); 1 if anything got smaller (then dst is stored anew). */
int reach_rows_relax(polygraph *g, uint8_t *dst, const uint8_t *src, uint16_t *restrict val, uint8_t *restrict bit);
int reach_rows_relax_own(polygraph *g, uint8_t *dst, uint32_t c, uint32_t p, uint16_t *restrict val, uint8_t *restrict bit);
/* A table of rows rows for g (its layout chosen here, from the nodes'
 * topological order, chains and positions), and its release. */
void reach_rows_alloc(polygraph *g, uint32_t rows, const uint32_t *order, const uint32_t *chain, const uint32_t *pos);
void reach_rows_free(polygraph *g);

#endif
