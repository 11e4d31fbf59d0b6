/* reach_rows.h — the reachability table's rows (reach_rows.c), for
 * reach.c: their frames, stored narrow or wide (polygraph.h), always
 * computed in their 16-bit form (a frame k, then per chain the offset from
 * frame k's position on it, PG_REACH_NONE for none).  Scratch arguments:
 * bit has room for num_chains rounded up to 8 bytes; val for 3 rows'
 * 16-bit forms, tmp for one.  Also what reach.c shares with its
 * incremental renewal (reach_incr.c): which nodes have rows, which
 * known edges are arcs. */
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

/* Offsets past pg_reach_delta_max (a testing knob) become none; 1 if an
 * entry did (a fact lost). */
int reach_rows_clamp(uint16_t *acc, uint32_t w);
/* The frames of a full table, from its topological order (order) and the
 * nodes' chains and positions (pg_node_chain, pg_node_pos); a node's frame
 * is its place in the order >> reach_frame_shift. */
void reach_rows_frames(polygraph *g, const uint32_t *order);
/* Position p on chain c into acc (frame k); 1 if it was dropped (before
 * the frame or 2^16 - 1 or more past it: a fact lost). */
int reach_rows_own(const polygraph *g, uint16_t *acc, uint32_t k, uint32_t c, uint32_t p);
/* Store frame k and offsets acc into row: narrow when they fit, else
 * wide (reuse: into the row's own wide row if it has one). */
void reach_rows_store(polygraph *g, uint8_t *row, uint32_t k, const uint16_t *restrict acc, int reuse, uint8_t *restrict bit);
/* A row's 16-bit form: returns its frame, its offsets into out. */
uint32_t reach_rows_load(const polygraph *g, const uint8_t *row, uint16_t *restrict out);
/* Row r's entries, moved to frame k (r's frame is k or later in a full
 * table), into acc; 1 if an entry of r could not be moved (a fact lost:
 * past 16 bits from frame k), 0 if acc took every entry of r. */
int reach_rows_into(const polygraph *g, uint16_t *acc, uint32_t k, const uint8_t *r, uint8_t *bit, uint16_t *tmp);
/* row dst = min(row dst, row src), resp. min(row dst, position p on chain
 * c); 1 if anything got smaller (then dst is stored anew, in an earlier
 * frame if it must). */
int reach_rows_relax(polygraph *g, uint8_t *dst, const uint8_t *src, uint16_t *restrict val, uint8_t *restrict bit);
int reach_rows_relax_own(polygraph *g, uint8_t *dst, uint32_t c, uint32_t p, uint16_t *restrict val, uint8_t *restrict bit);
/* A table of rows rows for g (narrow unless pg_reach_narrow_mode says
 * never; its frames are filled by reach_rows_frames), and its release. */
void reach_rows_alloc(polygraph *g, uint32_t rows);
void reach_rows_free(polygraph *g);

/* Rows.  Every node has one, unless g->reach_half (the split graph, when
 * the full table would be large: pg_reach_half_mode).  There every edge
 * joins a commit and a start node (D: commit -> start, fixed and RW:
 * start -> commit), so only commit nodes get rows (row t for transaction
 * t): a start node's entries are its own position and the rows of the
 * commits it has arcs to (the fixed one to its own commit, its RW ones),
 * and a commit's row takes its successors' entries that way.  Half the
 * table, for the cost of gathering a start node's entries from its arcs
 * wherever its row was read before, once per commit with an arc into it. */
static inline int has_row(const polygraph *g, uint32_t u) { return !g->reach_half || !(u & 1); }
static inline uint8_t *row_of(const polygraph *g, uint32_t u) {
    return g->reach + (size_t)(g->reach_half ? u >> 1 : u) * g->reach_stride;
}

/* The known graph's arcs are its edges but psi's (rw_lazy) known RW
 * edges and rr's predicate ones. */
static inline int no_arc(const polygraph *g, const pg_edge *e) {
    return g->rw_lazy && PG_KIND(e->meta) == DEP_RW && pg_rw_lazy(g, e->from, PG_KEY(e->meta));
}

struct dg_graph;
/* reach_incr.c: the table (valid for g->known[0 .. reach_edges)) relaxed
 * for the edges after those, along dg (the known graph now) and
 * g->topo_pos; 0 (the table unfinished: recompute it) when more than
 * limit rows would change. */
int reach_update_incrementally(polygraph *g, const struct dg_graph *dg, uint32_t limit);

#endif
