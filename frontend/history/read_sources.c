/* read_sources.c — every register read's writer, looked up once a run and
 * shared (history.h: history_share_read_sources).
 *
 * A writer lookup (history_writer_of) is a hash probe with two cache
 * misses (the slot, then the value of the op in it); the axioms, the
 * index's read pass and the interpretation each looked up every external
 * read's (1M si,ser: 5 % of the run's CPU in history_writer_of).  Here one
 * pass on the pool fills read_src[op] = history_writer_of(key, value) for
 * every OP_READ op (failed and ambiguous ones too: the same function of
 * the same arguments, HISTORY_NONE where nobody wrote the value, the
 * lowest op where several did) and HISTORY_NONE for every other op;
 * history_read_source() then answers from it.  The array is tied to its
 * history by address (read_src_of == h): a copy of the struct (a view, a
 * history with choices) never takes it, it looks up as before.
 *
 * Memory: 4 bytes an op (1M: 32 MB), made at the start stage, where the
 * run is ~100 MB under its peak; once the axioms and the index are done
 * history_read_sources_done spills it where the program spills (io/spill.h:
 * the interpretation reads it back and interpret.c's history_spill_again
 * drops the pages again, whether history_spill spilled it with the
 * history's arrays or it alone was spilled: a history the program did not
 * spill after the index) and frees it elsewhere: the levels' graphs never
 * hold it. */
#include "frontend/history/history.h"

#include <stdlib.h>

#include "io/bigmem.h"
#include "io/spill.h"
#include "par.h"

typedef struct src_job { const history *h; uint32_t *src; uint32_t ntasks; } src_job;

/* Ops [lo, hi): the lookups of the reads ahead asked for in the three
 * stages history.h describes (region bounds, slot, op), as the index did. */
static void src_task(void *ctx, size_t i) {
    const src_job *jb = ctx;
    const history *h = jb->h;
    uint32_t n = h->num_ops;
    uint32_t lo = (uint32_t)((uint64_t)n * i / jb->ntasks), hi = (uint32_t)((uint64_t)n * (i + 1) / jb->ntasks);
    const uint32_t ahead = HISTORY_PREFETCH_AHEAD, half = ahead / 2, region = HISTORY_PREFETCH_REGION;
    for (uint32_t op = lo; op < hi; op++) {
        if (op + region < n) history_writer_prefetch_region(h, h->op_key[op + region]);
        if (op + ahead < n && (h->op_kind[op + ahead] & OP_KIND_MASK) == OP_READ)
            history_writer_prefetch_slot(h, h->op_key[op + ahead], history_op_value(h, op + ahead));
        if (op + half < n && (h->op_kind[op + half] & OP_KIND_MASK) == OP_READ)
            history_writer_prefetch_op(h, h->op_key[op + half], history_op_value(h, op + half));
        jb->src[op] = (h->op_kind[op] & OP_KIND_MASK) == OP_READ ? history_writer_of(h, h->op_key[op], history_op_value(h, op))
                                                                  : HISTORY_NONE;
    }
}

void history_share_read_sources(const history *h, par_pool *pool) {
    /* once spilled, the history's arrays stay out: a later run looks up */
    if (!h || !h->num_ops || h->read_src_of == h || h->spilled) return;
    history *m = (history *)h;              /* a cache beside the history: no byte of the model changes */
    uint32_t *src = big_malloc((size_t)h->num_ops * sizeof *src);
    unsigned th = par_pool_threads(pool);
    src_job jb = { h, src, th > 1 && h->num_ops >= 65536 ? 4 * th : 1 };
    par_pool_run(pool, jb.ntasks, src_task, &jb);
    m->read_src = src;
    m->read_src_of = h;
}

void history_read_sources_done(const history *h) {
    if (!h || h->read_src_of != h || h->read_src_out) return;
    history *m = (history *)h;
    /* spilled: out of resident memory, kept for the interpretation (and
     * for an index built after the axioms, without a pool: read back) */
    if (spill_enabled() && spill_block(m->read_src, (size_t)h->num_ops * sizeof *h->read_src)) { m->read_src_out = 1; return; }
    free(m->read_src);
    m->read_src = NULL;
    m->read_src_of = NULL;
}
