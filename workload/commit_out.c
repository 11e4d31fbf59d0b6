/* commit_out.c — recording the store's commit order (contract in
 * commit_out.h). */
#include "workload/commit_out.h"

#include <inttypes.h>
#include <stdlib.h>

#include "vec.h"

/* A committed transaction: where it serializes (the commit timestamp of a
 * writer, the snapshot of a read-only one, which goes after the writer of
 * that timestamp), in the order the sink saw it. */
typedef struct co_entry { int64_t at; uint32_t read_only, seq; int64_t id; } co_entry;

struct co_tee {
    const sim_sink *inner;
    const sim_times_sink *inner_ts;
    int ordinal;
    sim_times last;              /* the times of the transaction the sink is given next */
    VEC(co_entry) txns;          /* ids: the transaction's, or (ordinal) session << 32 | its index in the session */
    vec_u32 given;               /* ordinal: per session, the transactions given so far */
};

static void tee_times(void *ctx, const sim_times *tm) {
    co_tee *t = ctx;
    t->last = *tm;
    if (t->inner_ts && t->inner_ts->times) t->inner_ts->times(t->inner_ts->ctx, tm);
}

static int tee_txn(void *ctx, uint32_t session, uint32_t pos, int64_t txn_id, int committed, const sim_op *ops,
                   uint32_t n_ops, ic_error *err) {
    co_tee *t = ctx;
    int64_t id = txn_id;
    if (t->ordinal) {
        while (t->given.len <= session) vec_push(t->given, 0);
        id = (int64_t)((uint64_t)session << 32 | t->given.data[session]);
        t->given.data[session]++;
    }
    if (committed) {
        uint32_t writes = 0;
        for (uint32_t i = 0; i < n_ops; i++) writes |= ops[i].write;
        co_entry e = { writes ? t->last.commit : t->last.start, !writes, (uint32_t)t->txns.len, id };
        vec_push(t->txns, e);
    }
    return t->inner->txn(t->inner->ctx, session, pos, txn_id, committed, ops, n_ops, err);
}

co_tee *co_tee_new(const sim_sink *inner, const sim_times_sink *inner_ts, int ordinal) {
    co_tee *t = xcalloc(1, sizeof *t);
    t->inner = inner;
    t->inner_ts = inner_ts;
    t->ordinal = ordinal;
    vec_init(t->txns);
    vec_init(t->given);
    return t;
}

sim_sink co_tee_sink(co_tee *t) {
    sim_sink s = { t, tee_txn };
    return s;
}

sim_times_sink co_tee_times(co_tee *t) {
    sim_times_sink s = { t, tee_times };
    return s;
}

static int cmp_entry(const void *a, const void *b) {
    const co_entry *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    if (x->read_only != y->read_only) return x->read_only < y->read_only ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

int co_tee_write(const co_tee *t, FILE *f) {
    co_entry *e = xmalloc((t->txns.len ? t->txns.len : 1) * sizeof *e);
    for (size_t i = 0; i < t->txns.len; i++) e[i] = t->txns.data[i];
    qsort(e, t->txns.len, sizeof *e, cmp_entry);
    uint64_t *first = xcalloc(t->given.len + 1, sizeof *first);     /* ordinal: a session's first id */
    for (size_t s = 0; s < t->given.len; s++) first[s + 1] = first[s] + t->given.data[s];
    fprintf(f, "# the simulator's commit order: committed transaction ids, a read-only one at its snapshot\n");
    for (size_t i = 0; i < t->txns.len; i++) {
        if (!t->ordinal) fprintf(f, "%" PRId64 "\n", e[i].id);
        else fprintf(f, "%" PRIu64 "\n", 1 + first[(uint64_t)e[i].id >> 32] + ((uint64_t)e[i].id & 0xffffffffu));
    }
    free(first);
    free(e);
    return !ferror(f);
}

void co_tee_free(co_tee *t) {
    if (!t) return;
    vec_free(t->txns);
    vec_free(t->given);
    free(t);
}
