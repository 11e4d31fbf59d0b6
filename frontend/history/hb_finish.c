/* hb_finish.c — the history made from its builder (hb_finish, contract in
 * history.h): transactions numbered session by session (INIT first), each
 * op field moved to its final slots one array at a time (in whole runs
 * when the builder kept its ops so, hb_internal.h; else op by op through
 * a destination array), an op's transaction indexed, then the writers
 * (history_index_writers, history.c). */
#include "frontend/history/history.h"
#include "frontend/history/hb_internal.h"
#include "frontend/history/repeat_internal.h"

#include <stdlib.h>
#include <string.h>

#include "par.h"
#include "vec.h"
#include "io/bigmem.h"
#include "frontend/history/predicate.h"

/* The builder's times, in the history's transaction numbering. */
static void finish_times(history_builder *b, history *h, const uint32_t *txn_new) {
    for (int k = 0; k < TIME_KINDS; k++) {
        vec_i64 *tv = &b->times[k];
        if (!tv->len) continue;
        int64_t *out = big_malloc((size_t)h->num_txns * sizeof *out);
        for (uint32_t t = 0; t < h->num_txns; t++) out[t] = HISTORY_TIME_NONE;
        for (size_t t = 0; t < tv->len; t++) out[txn_new[t]] = tv->data[t];
        h->times[k] = out;
    }
}


void history_txn_index(history *h) {
    uint32_t n = h->num_ops, nb = (uint32_t)(((uint64_t)n + (1u << HISTORY_TXN_BLOCK_SHIFT) - 1) >> HISTORY_TXN_BLOCK_SHIFT);
    uint32_t *base = big_malloc((nb ? nb : 1) * sizeof *base);
    uint8_t *delta = big_malloc(n ? n : 1);
    int fits = 1;
    for (uint32_t t = 0; t < h->num_txns && fits; t++)
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            if (!(op & ((1u << HISTORY_TXN_BLOCK_SHIFT) - 1))) base[op >> HISTORY_TXN_BLOCK_SHIFT] = t;
            uint32_t d = t - base[op >> HISTORY_TXN_BLOCK_SHIFT];
            if (d > UINT8_MAX) { fits = 0; break; }
            delta[op] = (uint8_t)d;
        }
    if (fits) { h->op_txn_base = base; h->op_txn_delta = delta; return; }
    free(base); free(delta);
    h->op_txn_full = big_malloc((n ? n : 1) * sizeof *h->op_txn_full);
    for (uint32_t t = 0; t < h->num_txns; t++)
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) h->op_txn_full[op] = t;
}

/* The op fields go to their final slots field by field: independent
 * tasks, each freeing the builder's copy once done (on several threads two
 * fields are in flight at once: a few bytes an op more, briefly). */
typedef struct scatter_ctx {
    history_builder *b;
    history *h;
    history_dest d;                     /* builder op -> op */
    uint32_t nkeys;
    void *spent_keys, *spent_values;    /* the builder's op_key and op_value once scattered, */
    size_t nwrites;                     /* cut at once to key_writes' and the writer table's size */
} scatter_ctx;
#define SCATTER_TASKS 4

/* out[dest of i] = in[i] for every builder op i, elements of `size` bytes. */
static void scatter_field(void *out, const void *in, size_t size, const history_dest *d) {
    char *o = out;
    const char *s = in;
    if (!d->dest) {                     /* runs: whole blocks */
        for (size_t j = 0; j < d->nruns; j++)
            memcpy(o + (size_t)d->run[j].dst * size, s + (size_t)d->run[j].src * size, (size_t)d->run[j].len * size);
    } else if (size == 1) {
        for (size_t i = 0; i < d->n; i++) o[d->dest[i]] = s[i];
    } else {
        for (size_t i = 0; i < d->n; i++) memcpy(o + (size_t)d->dest[i] * size, s + i * size, size);
    }
}

/* Op lines: an array only when no layout of history.h fits (the builder
 * knows when its lines follow from the transactions': hb_internal.h). */
static void scatter_lines(history_builder *b, history *h, const history_dest *d, uint32_t nkeys) {
    if (!b->lines_stored) { h->op_line_step = (uint32_t)b->line_step1; return; }
    uint32_t *line = big_malloc((size_t)h->num_ops * sizeof *line);
    scatter_field(line, b->op_line.data, sizeof *line, d);
    vec_free(b->op_line);
    int step1 = 1, step0 = 1;
    for (uint32_t t = 1; t < h->num_txns && (step1 || step0); t++) {
        const history_txn *tx = &h->txns[t];
        for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
            step1 &= line[op] == (uint64_t)tx->line + (op - tx->first_op);
            step0 &= line[op] == tx->line;
        }
    }
    h->op_line_step = (uint32_t)step1;
    if (step1 || step0) { free(line); return; }
    for (uint32_t k = 0; k < nkeys; k++) line[k] = 0;
    h->op_line = line;
}

static void scatter_task(void *ctx, size_t task) {
    scatter_ctx *sc = ctx;
    history_builder *b = sc->b;
    history *h = sc->h;
    if (task == 0) {
        h->op_kind = big_malloc(h->num_ops);
        scatter_field(h->op_kind, b->op_kind.data, 1, &sc->d);
        vec_free(b->op_kind);
        h->op_key = big_malloc((size_t)h->num_ops * sizeof *h->op_key);
        scatter_field(h->op_key, b->op_key.data, sizeof *h->op_key, &sc->d);
        sc->spent_keys = big_realloc(b->op_key.data, sc->nwrites * sizeof(uint32_t)); vec_init(b->op_key);
    } else if (task == 1) {
        history_scatter_values(h, b->op_value.data, &sc->d);
        sc->spent_values = big_realloc(b->op_value.data, (2 * sc->nwrites + 1) * sizeof(uint32_t)); vec_init(b->op_value);
    } else if (task == 2) {
        scatter_lines(b, h, &sc->d, sc->nkeys);
    } else {
        history_txn_index(h);
    }
}

/* Two serial loops of hb_finish in ranges (par.h): the transactions
 * renumbered session by session (txn_new, h->txns: each builder
 * transaction writes its own slots), and the successful writes counted
 * (a sum a range).  The same result for any number of threads. */
#define FINISH_TASKS 4
typedef struct finish_job {
    history_builder *b;
    history *h;
    uint32_t *txn_new;
    uint32_t ntasks;
    size_t writes[FINISH_TASKS];
} finish_job;

static void finish_txns_task(void *ctx, size_t i) {
    finish_job *jb = ctx;
    const history_builder *b = jb->b;
    history *h = jb->h;
    size_t n = b->txns.len, lo = n * i / jb->ntasks, hi = n * (i + 1) / jb->ntasks;
    for (size_t t = lo; t < hi; t++) {
        const hb_txn_t *bt = &b->txns.data[t];
        uint32_t nt = h->sessions[bt->session].first_txn + bt->pos;
        jb->txn_new[t] = nt;
        h->txns[nt] = (history_txn){ 0, bt->num_ops, bt->session, bt->pos, bt->ext_id, bt->line, bt->status };
    }
}

static void finish_writes_task(void *ctx, size_t i) {
    finish_job *jb = ctx;
    const uint8_t *kind = jb->b->op_kind.data;
    size_t n = jb->b->op_kind.len, lo = n * i / jb->ntasks, hi = n * (i + 1) / jb->ntasks, w = 0;
    for (size_t j = lo; j < hi; j++) {
        unsigned k = kind[j];
        w += ((k & OP_KIND_MASK) == OP_WRITE || (k & OP_KIND_MASK) == OP_APPEND) && !(k & OP_FAILED);
    }
    jb->writes[i] = w;
}

/* Where every builder op goes: runs while the builder kept them (one a
 * transaction: 12 bytes instead of 4 an op), else an array. */
static history_dest finish_dest(const history_builder *b, const history *h, const uint32_t *txn_new, size_t nops) {
    history_dest d = { NULL, NULL, nops, 0 };
    if (!b->ops_mixed) {
        history_run *run = xmalloc((b->run_txn.len ? b->run_txn.len : 1) * sizeof *run);
        for (size_t j = 0; j < b->run_txn.len; j++) {
            uint32_t t = b->run_txn.data[j];
            const hb_txn_t *bt = &b->txns.data[t];
            run[j] = (history_run){ bt->first_bop, h->txns[txn_new[t]].first_op, bt->num_ops };
        }
        d.run = run;
        d.nruns = b->run_txn.len;
        return d;
    }
    uint32_t *cursor = xmalloc((size_t)h->num_txns * sizeof *cursor);
    for (uint32_t t = 0; t < h->num_txns; t++) cursor[t] = h->txns[t].first_op;
    uint32_t *dest = big_malloc(nops * sizeof *dest);
    for (size_t i = 0; i < nops; i++) dest[i] = cursor[txn_new[b->op_txn.data[i]]]++;
    free(cursor);
    d.dest = dest;
    return d;
}

history *hb_finish(history_builder *b, ic_error *err) {
    size_t nops = b->op_kind.len;
    if (nops == 0) {
        ic_error_at(err, b->source, 0, "empty history: no operations found");
        hb_free(b);
        return NULL;
    }
    history *h = xcalloc(1, sizeof *h);
    h->format = b->format;
    h->loc = b->loc;
    h->source = b->source; b->source = NULL;
    h->has_lists = b->has_lists;

    uint32_t nkeys = (uint32_t)b->key_ext.len;
    uint32_t nsess = (uint32_t)b->sessions.len;
    uint32_t ntx = (uint32_t)b->txns.len + 1;
    if ((uint64_t)nops + nkeys >= UINT32_MAX) xalloc_fail(SIZE_MAX);

    /* sessions: transactions numbered session by session, INIT is 0 */
    h->num_sessions = nsess;
    h->sessions = xmalloc((nsess ? nsess : 1) * sizeof *h->sessions);
    uint32_t next = 1;
    for (uint32_t s = 0; s < nsess; s++) {
        hb_session_t *bs = &b->sessions.data[s];
        h->sessions[s] = (history_session){ next, bs->num_txns, bs->ext_id, bs->file };
        next += bs->num_txns;
    }
    h->num_txns = ntx;
    h->txns = big_calloc(ntx, sizeof *h->txns);
    uint32_t *txn_new = xmalloc((ntx - 1 ? ntx - 1 : 1) * sizeof *txn_new);
    finish_job fj = { b, h, txn_new, FINISH_TASKS, { 0 } };
    par_run(b->threads, FINISH_TASKS, finish_txns_task, &fj);
    h->txns[0] = (history_txn){ 0, nkeys, HISTORY_NONE, 0, VALUE_INIT, 0, TXN_COMMITTED };
    uint32_t op = 0;
    for (uint32_t t = 0; t < ntx; t++) { h->txns[t].first_op = op; op += h->txns[t].num_ops; }
    h->num_ops = op;

    history_dest d = finish_dest(b, h, txn_new, nops);
    /* the writes (INIT's one a key), counted before the op kinds move: the
     * spent arrays are cut to what they become right away, so the load
     * holds no more than with fresh ones (history_index_writers_into
     * resizes them to the exact count in any case) */
    par_run(b->threads, FINISH_TASKS, finish_writes_task, &fj);
    size_t nwrites = nkeys;
    for (int i = 0; i < FINISH_TASKS; i++) nwrites += fj.writes[i];
    scatter_ctx sc = { b, h, d, nkeys, NULL, NULL, nwrites ? nwrites : 1 };
    par_run(b->threads, SCATTER_TASKS, scatter_task, &sc);
    if (b->op_pred.len) {                              /* predicate tags follow their ops */
        h->op_pred = xmalloc((size_t)h->num_ops * sizeof *h->op_pred);
        for (uint32_t i = 0; i < h->num_ops; i++) h->op_pred[i] = PRED_TAG_NONE;
        size_t tagged = b->op_pred.len;                /* tags given up to some op: the rest none */
        vec_resize(b->op_pred, nops);
        for (size_t i = tagged; i < nops; i++) b->op_pred.data[i] = PRED_TAG_NONE;
        scatter_field(h->op_pred, b->op_pred.data, sizeof *h->op_pred, &d);
    }
    free((void *)d.dest); free((void *)d.run);
    if (b->preds) { preds_remap_txns(b->preds, txn_new); preds_seal(b->preds); h->preds = b->preds; b->preds = NULL; }
    finish_times(b, h, txn_new);
    free(txn_new);
    for (uint32_t k = 0; k < nkeys; k++) {             /* INIT writes every key */
        h->op_kind[k] = OP_WRITE; h->op_key[k] = k;
        if (h->op_val64) h->op_val64[k] = VALUE_INIT; else h->op_val32[k] = HISTORY_V32_INIT;
    }

    h->num_keys = nkeys;
    h->key_ext = b->key_ext.data; vec_init(b->key_ext);
    h->key_name = b->key_name.data; vec_init(b->key_name);
    h->num_lists = (uint32_t)b->lists.len;
    h->lists = b->lists.data; vec_init(b->lists);
    h->list_pool = b->list_pool.data; vec_init(b->list_pool);
    h->strings = b->strings.data; h->strings_len = b->strings.len; vec_init(b->strings);
    h->num_names = (uint32_t)b->name_off.len;
    h->name_off = b->name_off.data; vec_init(b->name_off);
    unsigned threads = b->threads;
    hb_free(b);

    /* the builder's op keys (4 bytes an op) and values (8) become
     * key_writes (4 bytes a write) and the writer table (8): written
     * pages, resized, instead of fresh ones */
    if (!history_check_key_kinds(h, err)) { free(sc.spent_keys); free(sc.spent_values); history_free(h); return NULL; }
    if (!history_index_writers_into(h, err, sc.spent_keys, sc.spent_values, threads)) { history_free(h); return NULL; }
    return h;
}

