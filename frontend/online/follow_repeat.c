/* frontend/online/follow_repeat.c — following a stream whose written values
 * repeat: the pacing of its batch re-checks, whether a violation found on
 * a part of it is provisional, and why one was withdrawn (contract in
 * frontend/online/follow_repeat.h). */
#include "frontend/online/follow_repeat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/history/u64map.h"

int follow_recheck_due(const follow_recheck *rc, size_t bytes, double now) {
    if (bytes <= rc->last_bytes) return 0;
    if (!rc->checks || bytes >= 2 * rc->last_bytes) return 1;
    double wait = FOLLOW_RECHECK_PAUSE * rc->last_cost;
    if (wait < FOLLOW_RECHECK_MIN_WAIT) wait = FOLLOW_RECHECK_MIN_WAIT;
    return now - rc->last_end >= wait;
}

double follow_recheck_wake(const follow_recheck *rc, size_t bytes) {
    if (bytes <= rc->last_bytes || !rc->checks) return 0;
    double wait = FOLLOW_RECHECK_PAUSE * rc->last_cost;
    if (wait < FOLLOW_RECHECK_MIN_WAIT) wait = FOLLOW_RECHECK_MIN_WAIT;
    return rc->last_end + wait;
}

void follow_recheck_done(follow_recheck *rc, size_t bytes, double start, double end) {
    rc->last_bytes = bytes;
    rc->last_end = end;
    rc->last_cost = end - start;
    rc->checks++;
}

/* Whether op is the first of its transaction on its key and a register
 * read (an external read: the only kind a writer is chosen for). */
static int external_read(const history *h, uint32_t op) {
    if (history_op_kind(h, op) != OP_READ || history_op_failed(h, op)) return 0;
    const history_txn *x = &h->txns[history_op_txn(h, op)];
    for (uint32_t o = x->first_op; o < op; o++)
        if (h->op_key[o] == h->op_key[op]) return 0;
    return 1;
}

/* "txn E (FILE:LINE)" of transaction t into buf. */
static const char *txn_named(const history *h, uint32_t t, char *buf, size_t n) {
    char where[300];
    snprintf(buf, n, "txn %lld (%s)", (long long)h->txns[t].ext_id, history_txn_where(h, t, where, sizeof where));
    return buf;
}

/* Each transaction of h with its external id in the map (value: index). */
static void map_ext(const history *h, u64map *m) {
    u64map_init(m);
    for (uint32_t t = 1; t < h->num_txns; t++) u64map_put(m, (uint64_t)h->txns[t].ext_id, t);
}

int follow_repeat_doubt(const history *h, const history *proof, char *why, size_t n) {
    uint8_t *in = calloc(h->num_txns ? h->num_txns : 1, 1);
    if (!in) xalloc_fail(h->num_txns);
    u64map m;
    map_ext(h, &m);
    for (uint32_t t = 1; t < proof->num_txns; t++) {
        uint32_t i = u64map_get(&m, (uint64_t)proof->txns[t].ext_id);
        if (i != UINT32_MAX) in[i] = 1;
    }
    u64map_free(&m);
    int doubt = 0;
    for (uint32_t t = 1; t < h->num_txns && !doubt; t++) {
        if (!in[t]) continue;
        const history_txn *x = &h->txns[t];
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops && !doubt; op++) {
            if (history_op_value(h, op) == VALUE_INIT || !external_read(h, op)) continue;
            uint32_t one[1];
            const uint32_t *ws;
            uint32_t nw = history_writers_of(h, h->op_key[op], history_op_value(h, op), one, &ws);
            if (nw < 2) continue;
            for (uint32_t i = 0; i < nw && !doubt; i++) {
                uint32_t wt = history_op_txn(h, ws[i]);
                if (history_rule_out_of(h, op, ws[i]) != RULE_POSSIBLE) continue;   /* never a candidate */
                if (in[wt] && h->txns[wt].status != TXN_INDETERMINATE) continue;
                char kb[64], vb[64], wn[360], rn[360];
                snprintf(why, n, "%s %s key %s = %s too, which %s read", txn_named(h, wt, wn, sizeof wn),
                         in[wt] ? "(indeterminate: it takes part only once a read shows it) writes"
                                : "(not in the part checked yet) writes",
                         history_key_str(h, h->op_key[op], kb, sizeof kb),
                         history_value_str(h, history_op_value(h, op), vb, sizeof vb), txn_named(h, t, rn, sizeof rn));
                doubt = 1;
            }
        }
    }
    free(in);
    return doubt;
}

void follow_withdrawn_why(const history *named, const history *h, char *why, size_t n) {
    u64map m;
    map_ext(h, &m);
    int found = 0;
    for (uint32_t nt = 1; named && nt < named->num_txns && !found; nt++) {
        uint32_t t = u64map_get(&m, (uint64_t)named->txns[nt].ext_id);
        if (t == UINT32_MAX) continue;
        const history_txn *x = &h->txns[t];
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops && !found; op++) {
            if (history_op_value(h, op) == VALUE_INIT || !external_read(h, op)) continue;
            uint32_t one[1];
            const uint32_t *ws;
            uint32_t nw = history_writers_of(h, h->op_key[op], history_op_value(h, op), one, &ws);
            if (nw < 2) continue;
            char kb[64], vb[64], rn[360], w1[360], w2[360];
            uint32_t a = history_op_txn(h, ws[0]), b = history_op_txn(h, ws[nw - 1]);
            snprintf(why, n, "%s read key %s = %s, which %u transactions write (%s%s%s): the check chooses which "
                     "write it saw", txn_named(h, t, rn, sizeof rn), history_key_str(h, h->op_key[op], kb, sizeof kb),
                     history_value_str(h, history_op_value(h, op), vb, sizeof vb), nw, txn_named(h, a, w1, sizeof w1),
                     nw == 2 ? " and " : ", ..., ", txn_named(h, b, w2, sizeof w2));
            found = 1;
        }
    }
    u64map_free(&m);
    if (!found)
        snprintf(why, n, "values read in the part it was found on were written again later (%u writes of repeated "
                 "values now), and a read may have seen another write of its value", h->num_repeated);
}

history *follow_refuse_retire(history *h, ic_error *err) {
    h = history_refuse_repeated(h, err);
    if (!h && err->set && strstr(err->msg, "written twice")) {
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len, "; --retire does not follow repeated values (a retired "
                 "writer may be the one a later read of its value saw: doc/checker.md); check --follow without "
                 "--retire does");
    }
    return h;
}
