/* frontend/online/retire_free.c — a key two unordered writes left
 * undecided: whether the checked part admits each candidate last, and the
 * stream's record of the candidates until a read decides (contract in
 * frontend/online/retire_free.h; why it is sound: doc/checker.md, "Two
 * writes no read orders"). */
#include "frontend/online/retire_free.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/history/levels.h"
#include "frontend/run_check.h"

_Static_assert(RETIRE_MAX_CANDS == sizeof ((retire_cands *)0)->value / sizeof (int64_t), "retire_cands holds the candidates");

/* S (the settled transactions of h) plus Z: a transaction of a session of
 * its own that reads, for each of ops[0, n) (writes of distinct keys), its
 * value of its key, invoked after every transaction of S completed. */
static history *with_reader(const history *h, const uint8_t *settled, const uint32_t *ops, uint32_t n,
                            ic_error *err) {
    history_builder *b = hb_new(h->format, h->loc, h->source);
    for (uint32_t k = 0; k < h->num_keys; k++) hb_key(b, h->key_ext[k]);       /* same key ids */
    int64_t last = 0, sess = 0, id = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        int64_t se = h->sessions[x->session].ext_id;
        if (se >= sess) sess = se;
        if (x->ext_id >= id) id = x->ext_id;
        if (!settled[t]) continue;
        uint32_t bt = hb_txn(b, hb_session(b, se, NULL), x->ext_id, x->line);
        hb_txn_status(b, bt, (txn_status)x->status);
        for (int k = 0; k < TIME_KINDS; k++)
            if (history_time(h, (history_time_kind)k, t) != HISTORY_TIME_NONE)
                hb_txn_time(b, bt, (history_time_kind)k, history_time(h, (history_time_kind)k, t));
        int64_t done = history_time(h, TIME_COMPLETE, t);
        if (done != HISTORY_TIME_NONE && done > last) last = done;
        for (uint32_t o = x->first_op; o < x->first_op + x->num_ops; o++)
            hb_op(b, bt, h->op_kind[o] & (unsigned)~(OP_OVERWRITTEN | OP_REPEATED), h->op_key[o], history_op_value(h, o),
                  history_op_line(h, o));
    }
    if (sess == INT64_MAX || id == INT64_MAX || last > INT64_MAX - 2) { hb_free(b); return NULL; }
    uint32_t z = hb_txn(b, hb_session(b, sess + 1, NULL), id + 1, 0);
    hb_txn_time(b, z, TIME_INVOKE, last + 1);
    hb_txn_time(b, z, TIME_COMPLETE, last + 2);
    for (uint32_t i = 0; i < n; i++) hb_op(b, z, OP_READ, h->op_key[ops[i]], history_op_value(h, ops[i]), 0);
    return hb_finish(b, err);
}

int retire_free_admits(const history *h, const uint8_t *settled, int level, const uint32_t *ops, uint32_t n) {
    ic_error err;
    ic_error_clear(&err);
    history *s = with_reader(h, settled, ops, n, &err);
    if (!s) return -1;
    report rep;
    report_init(&rep, s, level_name((check_level_id)level));
    run_check_options o;
    run_check_options_default(&o);
    for (int l = 0; l < LEVEL_COUNT; l++) o.want[l] = l == level;
    o.max_anomalies = 1;
    int cert_level;
    verdict v = VERDICT_UNKNOWN;
    if (run_check(s, &o, &rep, NULL, &cert_level, &err)) v = report_verdict(&rep);
    report_free(&rep);
    history_free(s);
    return v == VERDICT_PASS ? 1 : v == VERDICT_FAIL ? 0 : -1;
}

int retire_free_admit(const history *h, const uint8_t *settled, int level, const retire_time_free *g,
                      retire_admitted *adm) {
    uint32_t checks = 0, combos = 1, keys = 0;
    for (uint32_t i = 0; i < g->nkeys; i++) {   /* each key's candidates alone, as for one key */
        adm[i].n = 0;
        if (!g->n[i]) continue;                          /* not freed in this plan */
        if (g->n[i] > RETIRE_MAX_CANDS) return 0;
        for (uint32_t c = 0; c < g->n[i]; c++) {
            if (++checks > RETIRE_MAX_CHECKS) return 0;
            int a = retire_free_admits(h, settled, level, &g->cand[i][c], 1);
            if (a < 0) return 0;
            if (a) adm[i].op[adm[i].n++] = g->cand[i][c];
        }
        if (!adm[i].n) return 0;
        combos *= adm[i].n;                              /* at most 4^8 */
        keys++;
    }
    if (keys < 2) return 1;
    /* then every combination of one admitted candidate per key, together: a
     * candidate S admits alone is never dropped (a later read of it alone
     * would be a false FAIL); one combination refused refuses the keys
     * together, and the caller frees the first key alone */
    if ((uint64_t)combos + checks > RETIRE_MAX_CHECKS) return 0;
    uint32_t pick[RETIRE_MAX_FREE] = { 0 };
    for (uint32_t x = 0; x < combos; x++) {
        uint32_t ops[RETIRE_MAX_FREE], m = 0;
        for (uint32_t j = 0; j < g->nkeys; j++)
            if (adm[j].n) ops[m++] = adm[j].op[pick[j]];
        if (retire_free_admits(h, settled, level, ops, m) != 1) return 0;
        for (uint32_t j = 0; j < g->nkeys; j++) {        /* the next combination */
            if (!adm[j].n) continue;
            if (++pick[j] < adm[j].n) break;
            pick[j] = 0;
        }
    }
    return 1;
}

static retire_cands *slot(const retire_stream *rs, int64_t key) {
    uint32_t i = rs->undecided ? u64map_get(&rs->cand_index, (uint64_t)key) : UINT32_MAX;
    return i == UINT32_MAX ? NULL : &rs->cands.data[i];
}

void retire_free_record(retire_stream *rs, int64_t key, const int64_t *values, uint32_t n) {
    uint32_t i = u64map_get(&rs->cand_index, (uint64_t)key);
    if (i == UINT32_MAX) {
        i = (uint32_t)rs->cands.len;
        retire_cands z;
        memset(&z, 0, sizeof z);
        z.key = key;
        vec_push(rs->cands, z);
        u64map_put(&rs->cand_index, (uint64_t)key, i);
    }
    retire_cands *c = &rs->cands.data[i];
    if (!c->n) rs->undecided++;
    c->n = n;
    memcpy(c->value, values, n * sizeof *values);
}

void retire_free_drop(retire_stream *rs, int64_t key) {
    retire_cands *c = slot(rs, key);
    if (c && c->n) { c->n = 0; rs->undecided--; }
}

int retire_free_has(const retire_stream *rs, int64_t key, int64_t value) {
    const retire_cands *c = slot(rs, key);
    for (uint32_t i = 0; c && i < c->n; i++)
        if (c->value[i] == value) return 1;
    return 0;
}

void retire_free_collapse(retire_stream *rs, size_t from) {
    if (!rs->undecided) return;
    for (size_t i = from; i < rs->ops.len; i++) {      /* the least line per key first */
        const retire_op *o = &rs->ops.data[i];
        if (o->kind != OP_READ || !retire_free_has(rs, o->key, o->value)) continue;
        uint32_t best = o->line;
        int64_t v = o->value;
        for (size_t j = i + 1; j < rs->ops.len; j++) {
            const retire_op *p = &rs->ops.data[j];
            if (p->kind == OP_READ && p->key == o->key && p->line < best && retire_free_has(rs, p->key, p->value)) {
                best = p->line;
                v = p->value;
            }
        }
        uint32_t s = u64map_get(&rs->summary_index, (uint64_t)o->key);
        rs->summary.data[s] = v;                        /* the decided last version */
        retire_free_drop(rs, o->key);
    }
}
