/* frontend/online/checker.c — the settled part of a growing history, and the check
 * whose FAIL is final (contract in frontend/online/checker.h; why it is final:
 * doc/checker.md, "Online checking"). */
#include "frontend/online/checker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/online/incr.h"
#include "frontend/run_check.h"

void online_init(online_checker *oc, int want_si, int want_ser, size_t max_anomalies) {
    memset(oc, 0, sizeof *oc);
    oc->want[LEVEL_SI] = want_si;
    oc->want[LEVEL_SER] = want_ser;
    oc->max_anomalies = max_anomalies ? max_anomalies : 10;
}

void online_free(online_checker *oc) {
    if (oc->proof) { report_free(&oc->rep); history_free(oc->proof); }
    oc->proof = NULL;
    incr_free(oc->incr);
    oc->incr = NULL;
}

/* Whether the value v of key has a writer whose transaction is settled. */
static int source_settled(const history *h, const uint8_t *settled, uint32_t key, int64_t v) {
    if (v == VALUE_INIT) return 1;
    uint32_t w = history_writer_of(h, key, v);
    return w != HISTORY_NONE && settled[history_op_txn(h, w)];
}

uint8_t *online_settled(const history *h, uint32_t *num) {
    uint8_t *settled = xmalloc(h->num_txns ? h->num_txns : 1);
    memset(settled, 1, h->num_txns);
    /* Greatest fixpoint: drop a transaction with a read whose writer is
     * missing or dropped, until nothing changes.  Chains of waiting
     * readers are short in practice; each round is linear. */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t t = 1; t < h->num_txns; t++) {
            if (!settled[t]) continue;
            const history_txn *x = &h->txns[t];
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                if (!history_op_is_read(h, op)) continue;
                uint32_t key = h->op_key[op];
                int ok = 1;
                if (history_op_kind(h, op) == OP_LIST_READ) {
                    uint32_t n;
                    const int64_t *l = history_list(h, op, &n);
                    for (uint32_t i = 0; i < n && ok; i++) ok = source_settled(h, settled, key, l[i]);
                } else ok = source_settled(h, settled, key, history_op_value(h, op));
                if (!ok) { settled[t] = 0; changed = 1; break; }
            }
        }
    }
    uint32_t count = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) count += settled[t];
    if (num) *num = count;
    return settled;
}

history *history_subset(const history *h, const uint8_t *keep, ic_error *err) {
    history_builder *b = hb_new(h->format, h->loc, h->source);
    for (uint32_t i = 0; i < h->num_names; i++) {           /* same named-value ids */
        const char *s = h->strings + h->name_off[i];
        hb_name(b, s, strlen(s));
    }
    for (uint32_t k = 0; k < h->num_keys; k++) {             /* same key ids */
        if (h->key_name[k] != HISTORY_NONE) {
            const char *s = h->strings + h->key_name[k];
            hb_key_str(b, s, strlen(s));
        } else hb_key(b, h->key_ext[k]);
    }
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!keep[t]) continue;
        const history_txn *x = &h->txns[t];
        const history_session *s = &h->sessions[x->session];
        uint32_t bs = hb_session(b, s->ext_id, s->file ? h->strings + s->file : NULL);
        uint32_t bt = hb_txn(b, bs, x->ext_id, x->line);
        hb_txn_status(b, bt, (txn_status)x->status);
        for (int k = 0; k < TIME_KINDS; k++)                        /* the real-time levels need them */
            if (history_time(h, (history_time_kind)k, t) != HISTORY_TIME_NONE)
                hb_txn_time(b, bt, (history_time_kind)k, history_time(h, (history_time_kind)k, t));
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            unsigned kind = h->op_kind[op] & (unsigned)~(OP_OVERWRITTEN | OP_REPEATED);   /* the builder sets them again */
            if (history_op_kind(h, op) == OP_LIST_READ) {
                if (history_op_failed(h, op)) continue;                     /* takes no part anywhere */
                uint32_t n;
                const int64_t *l = history_list(h, op, &n);
                hb_list_read(b, bt, h->op_key[op], l, n, history_op_line(h, op));
            } else hb_op(b, bt, kind, h->op_key[op], history_op_value(h, op), history_op_line(h, op));
        }
    }
    return hb_finish(b, err);
}

/* Check S for the wanted levels into oc->rep (report of S): its worst
 * verdict (UNKNOWN also when the check could not run; oc->unknown_msg). */
static verdict check_settled(online_checker *oc, const history *s) {
    report_init(&oc->rep, s, oc->want[LEVEL_SI] && oc->want[LEVEL_SER] ? "all" : oc->want[LEVEL_SER] ? "ser" : "si");
    run_check_options o;
    run_check_options_default(&o);
    o.want[LEVEL_SI] = oc->want[LEVEL_SI];
    o.want[LEVEL_SER] = oc->want[LEVEL_SER];
    o.max_anomalies = oc->max_anomalies;
    o.check.time_limit = oc->time_limit;
    o.check.stop = oc->stop;
    o.check.stop_ctx = oc->stop_ctx;
    int cert_level;
    ic_error err;
    ic_error_clear(&err);
    if (!run_check(s, &o, &oc->rep, NULL, &cert_level, &err)) {
        snprintf(oc->unknown_msg, sizeof oc->unknown_msg, "%s", err.msg);
        return VERDICT_UNKNOWN;             /* the caller frees the report */
    }
    verdict v = report_verdict(&oc->rep);
    if (v == VERDICT_UNKNOWN)
        for (int i = 0; i < oc->rep.num_levels; i++)
            if (oc->rep.levels[i].verdict == VERDICT_UNKNOWN) {
                snprintf(oc->unknown_msg, sizeof oc->unknown_msg, "%s", oc->rep.levels[i].msg);
                break;
            }
    return v;
}

/* Leave the incremental path for good (why: its reason). */
static void leave_incremental(online_checker *oc, const char *why) {
    snprintf(oc->fallback_why, sizeof oc->fallback_why, "%s", why);
    incr_free(oc->incr);
    oc->incr = NULL;
    oc->from_scratch = 1;
}

/* A violation the incremental path proved: explained (and confirmed)
 * once, by a batch check of S.  Returns the outcome. */
static int explain(online_checker *oc, const history *h) {
    uint8_t *settled = incr_settled_flags(oc->incr, h);
    ic_error err;
    ic_error_clear(&err);
    history *s = history_subset(h, settled, &err);
    free(settled);
    if (!s) {
        snprintf(oc->unknown_msg, sizeof oc->unknown_msg, "%s", err.msg);
        return ONLINE_UNKNOWN;
    }
    verdict batch = check_settled(oc, s);
    if (batch == VERDICT_FAIL) {
        oc->failed = 1;
        oc->proof = s;
        return ONLINE_VIOLATION;
    }
    report_free(&oc->rep);
    history_free(s);
    if (batch == VERDICT_PASS) {
        snprintf(oc->unknown_msg, sizeof oc->unknown_msg, "internal error: the incremental check found a %s violation "
                 "that the batch check of the settled part does not confirm",
                 incr_failed_level(oc->incr) == LEVEL_SER ? "ser" : "si");
        leave_incremental(oc, oc->unknown_msg);
    }
    return ONLINE_UNKNOWN;
}

static void start_incremental(online_checker *oc) {
    if (oc->incr) return;
    oc->incr = incr_new(oc->want[LEVEL_SI], oc->want[LEVEL_SER]);
    if (oc->time_limit > 0) incr_set_time_limit(oc->incr, oc->time_limit);
    if (oc->engine_thread) incr_set_engine_thread(oc->incr);
}

/* The incremental path: 1 done (*out set), 0 fall back to a check from
 * scratch of this same history. */
static int check_incremental(online_checker *oc, const history *h, int *out) {
    start_incremental(oc);
    uint32_t num, fresh;
    int r = incr_update(oc->incr, h, &num, &fresh);
    if (r == INCR_FALLBACK) { leave_incremental(oc, incr_why(oc->incr)); return 0; }
    oc->seen = h->num_txns - 1;
    *out = ONLINE_NO_VIOLATION;
    if (!fresh) return 1;
    oc->settled = num;
    oc->checks++;
    oc->incr_checks++;
    if (r == INCR_PASS) return 1;
    if (oc->on_detect) oc->on_detect(oc->detect_ctx, oc);
    *out = explain(oc, h);
    return 1;
}

int online_check_delta(online_checker *oc, const int64_t *key_ext, uint32_t num_keys, const incr_txn *txns, size_t n,
                       uint32_t seen) {
    if (oc->failed) return ONLINE_NO_VIOLATION;
    if (oc->from_scratch || oc->explain_pending) return ONLINE_NEED_HISTORY;
    start_incremental(oc);
    for (uint32_t k = incr_num_keys(oc->incr); k < num_keys; k++) incr_add_key(oc->incr, key_ext[k]);
    for (size_t i = 0; i < n; i++)
        if (!incr_add_txn(oc->incr, &txns[i])) { leave_incremental(oc, incr_why(oc->incr)); return ONLINE_NEED_HISTORY; }
    uint32_t num, fresh;
    int r = incr_check_added(oc->incr, &num, &fresh);
    if (r == INCR_FALLBACK) { leave_incremental(oc, incr_why(oc->incr)); return ONLINE_NEED_HISTORY; }
    oc->seen = seen;
    if (!fresh) return ONLINE_NO_VIOLATION;
    oc->settled = num;
    oc->checks++;
    oc->incr_checks++;
    if (r == INCR_PASS) return ONLINE_NO_VIOLATION;
    if (oc->on_detect) oc->on_detect(oc->detect_ctx, oc);
    /* a witness among the last transactions to settle (the violation is new:
     * every cycle of it goes through one settled now), growing 4x at a time */
    for (uint32_t last = fresh; oc->source && last < num; last *= 4) {
        ic_error err;
        ic_error_clear(&err);
        uint32_t wtx;
        history *w = incr_window_history(oc->incr, last, oc->source, &wtx, &err);
        if (!w) break;
        verdict batch = check_settled(oc, w);
        if (batch == VERDICT_FAIL) {
            oc->failed = 1;
            oc->proof = w;
            oc->witness_txns = wtx;
            return ONLINE_VIOLATION;
        }
        report_free(&oc->rep);
        history_free(w);
        if (batch == VERDICT_UNKNOWN) break;
        if (last > UINT32_MAX / 4) break;
    }
    oc->explain_pending = 1;
    return ONLINE_NEED_HISTORY;
}

int online_check(online_checker *oc, const history *h) {
    if (oc->failed) return ONLINE_NO_VIOLATION;
    if (oc->explain_pending) {
        oc->explain_pending = 0;
        return explain(oc, h);
    }
    int out;
    if (!oc->from_scratch && check_incremental(oc, h, &out)) return out;
    uint32_t num;
    uint8_t *settled = online_settled(h, &num);
    oc->seen = h->num_txns - 1;
    /* S only grows with the completed transactions: same size, same S */
    if (num == 0 || (num == oc->settled && oc->checks > 0)) { free(settled); return ONLINE_NO_VIOLATION; }
    oc->settled = num;
    ic_error err;
    ic_error_clear(&err);
    history *s = history_subset(h, settled, &err);     /* owned here: kept as the proof */
    free(settled);
    if (!s) {
        snprintf(oc->unknown_msg, sizeof oc->unknown_msg, "%s", err.msg);
        return ONLINE_UNKNOWN;
    }
    oc->checks++;
    oc->scratch_checks++;
    verdict batch = check_settled(oc, s);
    if (batch == VERDICT_FAIL && oc->on_detect) oc->on_detect(oc->detect_ctx, oc);
    if (batch == VERDICT_FAIL) {
        oc->failed = 1;
        oc->proof = s;
        return ONLINE_VIOLATION;
    }
    report_free(&oc->rep);
    history_free(s);
    return batch == VERDICT_UNKNOWN ? ONLINE_UNKNOWN : ONLINE_NO_VIOLATION;
}

int online_finish_delta(online_checker *oc, const int64_t *key_ext, uint32_t num_keys, const incr_txn *txns, size_t n,
                        uint32_t read, incr_order order[2]) {
    memset(order, 0, 2 * sizeof *order);
    if (oc->failed || oc->from_scratch || oc->explain_pending || !oc->incr) return 0;
    for (uint32_t k = incr_num_keys(oc->incr); k < num_keys; k++) incr_add_key(oc->incr, key_ext[k]);
    for (size_t i = 0; i < n; i++)
        if (!incr_add_txn(oc->incr, &txns[i])) return 0;
    uint32_t num, fresh;
    if (incr_check_added(oc->incr, &num, &fresh) != INCR_PASS || num != read || !incr_complete(oc->incr)) return 0;
    if (fresh) { oc->settled = num; oc->checks++; oc->incr_checks++; }
    incr_drop_engines(oc->incr);                  /* no check follows: the export needs only the values */
    for (int l = 0; l < 2; l++)
        if (oc->want[l] && !incr_export_order(oc->incr, l, &order[l])) {
            for (int m = 0; m < 2; m++) incr_order_free(&order[m]);
            return 0;
        }
    return 1;
}
