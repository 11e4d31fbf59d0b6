/* history_spill.c — a history's per-op arrays and writer table moved out
 * of resident memory between the index and the re-check (history.h:
 * history_spill; the mechanism is io/spill.h).  The arrays listed are the
 * large ones that the checking stages (graph, pruning, encoding, solving)
 * do not read; what does read them (the re-check, the interpretation, the
 * reports) faults their pages back in, with the same bytes. */
#include "frontend/history/history.h"

#include "io/spill.h"
#include "frontend/history/history_spill.h"

/* The arrays, with their bytes (NULL where absent); the last, the
 * transactions' records, only when history_spill_txns asks (the graph
 * and pruning read them: each node's session and place). */
enum { NUM_ARRAYS = 11, NUM_AT_INDEX = 10 };
static void arrays(const history *h, void **p, size_t *bytes) {
    size_t n = h->num_ops;
    p[0] = h->op_kind; bytes[0] = n;
    p[1] = h->op_key; bytes[1] = n * sizeof *h->op_key;
    p[2] = h->op_val32; bytes[2] = n * sizeof *h->op_val32;
    p[3] = h->op_val64; bytes[3] = n * sizeof *h->op_val64;
    p[4] = h->op_txn_delta; bytes[4] = n;
    p[5] = h->op_txn_full; bytes[5] = n * sizeof *h->op_txn_full;
    p[6] = h->op_line; bytes[6] = n * sizeof *h->op_line;
    p[7] = h->key_writes; bytes[7] = h->key_write_start ? (size_t)h->key_write_start[h->num_keys] * sizeof *h->key_writes : 0;
    p[8] = h->writer_slots; bytes[8] = (size_t)h->writer_cap * sizeof *h->writer_slots;
    p[9] = h->read_src_of == h ? h->read_src : NULL; bytes[9] = n * sizeof *h->read_src;   /* read_sources.c */
    p[10] = h->txns; bytes[10] = (size_t)h->num_txns * sizeof *h->txns;
}

void history_spill(const history *h) {
    if (!h || !spill_enabled()) return;
    if (h->spilled) { history_spill_again(h); return; }
    void *p[NUM_ARRAYS]; size_t bytes[NUM_ARRAYS];
    arrays(h, p, bytes);
    for (int i = 0; i < NUM_AT_INDEX; i++) if (p[i]) (void)spill_block(p[i], bytes[i]);
    ((history *)h)->spilled = 1;          /* which pages are resident, not a byte of the history */
}

void history_spill_again(const history *h) {
    if (!h || (!h->spilled && !h->read_src_out)) return;    /* read_src_out alone: read_sources.c spilled only it */
    void *p[NUM_ARRAYS]; size_t bytes[NUM_ARRAYS];
    arrays(h, p, bytes);
    for (int i = 0; i < NUM_ARRAYS; i++) if (p[i]) spill_drop(p[i], bytes[i]);   /* only the blocks spilled */
}

void history_spill_forget(history *h) {
    if (!h || (!h->spilled && !h->read_src_out)) return;    /* read_src_out: history_read_sources_done spilled it */
    void *p[NUM_ARRAYS]; size_t bytes[NUM_ARRAYS];
    arrays(h, p, bytes);
    for (int i = 0; i < NUM_ARRAYS; i++) spill_forget(p[i], bytes[i]);
    h->spilled = 0;
    h->read_src_out = 0;
}

void history_spill_txns(const history *h) {
    if (!h || !h->spilled || !spill_enabled()) return;
    void *p[NUM_ARRAYS]; size_t bytes[NUM_ARRAYS];
    arrays(h, p, bytes);
    if (p[NUM_AT_INDEX]) (void)spill_block(p[NUM_AT_INDEX], bytes[NUM_AT_INDEX]);   /* spilled before: dropped */
}
