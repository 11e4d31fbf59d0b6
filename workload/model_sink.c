/* model_sink.c — build the generated history in memory through the
 * history builder (see gen_writer.h). */
#include "workload/gen_writer.h"

#include "vec.h"

struct model_sink {
    history_builder *b;
    uint32_t *session;           /* workload session -> builder session */
    int committed_only;
    int times;                   /* model_sink_times() */
    sim_times last;              /* the times of the transaction about to come */
};

model_sink *model_sink_new(const char *source, uint32_t sessions, int committed_only) {
    model_sink *m = xcalloc(1, sizeof *m);
    m->b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, source);
    m->session = xmalloc((sessions ? sessions : 1) * sizeof *m->session);
    for (uint32_t s = 0; s < sessions; s++) m->session[s] = hb_session(m->b, (int64_t)s + 1, NULL);
    m->committed_only = committed_only;
    return m;
}

static int model_txn(void *ctx, uint32_t session, uint32_t pos, int64_t txn_id, int committed,
                     const sim_op *ops, uint32_t n, ic_error *err) {
    model_sink *m = ctx;
    (void)pos; (void)err;
    if (!committed && m->committed_only) return 1;
    uint32_t t = hb_txn(m->b, m->session[session], txn_id, 0);
    for (uint32_t i = 0; i < n; i++)
        hb_op(m->b, t, ops[i].write ? OP_WRITE : OP_READ, hb_key(m->b, ops[i].key),
              ops[i].value == 0 ? VALUE_INIT : ops[i].value, 0);
    if (!committed) hb_txn_status(m->b, t, TXN_ABORTED);
    if (m->times) {
        hb_txn_time(m->b, t, TIME_INVOKE, m->last.invoke);
        hb_txn_time(m->b, t, TIME_COMPLETE, m->last.complete);
        hb_txn_time(m->b, t, TIME_DB_START, m->last.start);
        if (m->last.commit >= 0) hb_txn_time(m->b, t, TIME_DB_COMMIT, m->last.commit);
    }
    return 1;
}

static void model_times(void *ctx, const sim_times *tm) { ((model_sink *)ctx)->last = *tm; }

sim_times_sink model_sink_times(model_sink *m) {
    m->times = 1;
    sim_times_sink s = { m, model_times };
    return s;
}

sim_sink model_sink_sink(model_sink *m) { sim_sink s = { m, model_txn }; return s; }

history *model_sink_finish(model_sink *m, ic_error *err) {
    history *h = hb_finish(m->b, err);
    free(m->session);
    free(m);
    return h;
}

