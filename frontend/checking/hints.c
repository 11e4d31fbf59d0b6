/* hints.c — a version order hint checked against the history, turned into
 * known edges, and the white-box answer confirmed under an order that
 * extends it (contract in hints.h). */
#include "frontend/checking/hints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"
#include "par.h"
#include "frontend/recheck/verify_model.h"

void hint_order_init(hint_order *o) { memset(o, 0, sizeof *o); }

void hint_order_free(hint_order *o) {
    vec_free(o->keys);
    vec_free(o->items);
    vec_free(o->unit_start);
    vec_free(o->units);
    memset(o, 0, sizeof *o);
}

#define PREFIX "version order hint contradicts the history: "

/* "T<id> wrote V (where)" for write op into buf. */
static const char *name_write(const history *h, uint32_t op, char *buf, size_t n) {
    char v[96], w[640];
    uint32_t t = history_op_txn(h, op);
    if (t == 0) { snprintf(buf, n, "the initial value"); return buf; }
    snprintf(buf, n, "%s (T%lld, %s)", history_value_str(h, history_op_value(h, op), v, sizeof v), (long long)h->txns[t].ext_id,
             history_op_where(h, op, w, sizeof w));
    return buf;
}

/* Why the index put b's version right after a's on key k: b's read of a's
 * version (read-modify-write), else a list read. */
static const char *why_linked(const history *h, uint32_t a, uint32_t b, uint32_t k, char *buf, size_t n) {
    uint32_t rd = history_txn_external_read(h, b, k), wa = history_txn_final_write(h, a, k);
    char w[640], v[96];
    if (a == 0) snprintf(v, sizeof v, "the initial value");
    else history_value_str(h, history_op_value(h, wa), v, sizeof v);
    if (rd != HISTORY_NONE && history_external_source(h, rd) == wa)
        snprintf(buf, n, "T%lld read %s at %s and wrote the key after it", (long long)h->txns[b].ext_id, v,
                 history_op_where(h, rd, w, sizeof w));
    else snprintf(buf, n, "a list read shows the two versions next to each other");
    return buf;
}

/* Another transaction than t that read the same version of k as t's
 * external read and writes k too (HISTORY_NONE: none).  Then the chain
 * link into t is contested: both cannot follow that version, a lost
 * update, whatever any hint says. */
static uint32_t rival_of(const history *h, const pg_index *ix, uint32_t k, uint32_t t) {
    uint32_t rd = history_txn_external_read(h, t, k);
    if (rd == HISTORY_NONE) return HISTORY_NONE;
    uint32_t src = history_external_source(h, rd);
    for (uint32_t u = ix->key_unit_start[k]; u < ix->key_unit_start[k + 1]; u++) {
        const pg_unit *un = &ix->units.data[u];
        for (uint32_t m = 0; m < pg_unit_len(un); m++) {
            uint32_t x = ix->members.data[un->m_first + m];
            if (x == 0 || x == t || history_txn_final_write(h, x, k) == HISTORY_NONE) continue;
            uint32_t xr = history_txn_external_read(h, x, k);
            if (xr != HISTORY_NONE && history_external_source(h, xr) == src) return x;
        }
    }
    return HISTORY_NONE;
}

/* The finding when the link into t is contested (rival_of): 1 with msg. */
static int lost_update(const history *h, uint32_t k, uint32_t t, uint32_t rival, unsigned line, char *msg, size_t cap) {
    char kn[128], v[96], a[640], b[640];
    history_key_str(h, k, kn, sizeof kn);
    uint32_t src = history_external_source(h, history_txn_external_read(h, t, k));
    if (src == HISTORY_NONE || history_op_txn(h, src) == 0) snprintf(v, sizeof v, "the initial value");
    else history_value_str(h, history_op_value(h, src), v, sizeof v);
    snprintf(msg, cap, "T%lld (%s) and T%lld (%s) both read %s of key %s and wrote it: a lost update, "
             "which no version order avoids, whatever the hint says (hint line %u)",
             (long long)h->txns[t].ext_id, history_op_where(h, history_txn_external_read(h, t, k), a, sizeof a),
             (long long)h->txns[rival].ext_id, history_op_where(h, history_txn_external_read(h, rival, k), b, sizeof b),
             v, kn, line);
    return 1;
}

typedef struct vstate {
    const pg_index *ix;
    const history *h;
    uint32_t *unit_of, *idx_of;  /* per txn, on the key being checked */
    uint32_t *seen;              /* per txn: key stamp when listed on it */
    uint32_t *closed;            /* per unit: key stamp once another unit followed it */
    uint32_t *last_idx;          /* per unit: index of its last listed member */
    uint32_t *last_op;           /* per txn: its last listed op on the key */
} vstate;

/* Key ki of the hint: its items in order.  Appends its distinct units to
 * o->units.  1, or 0 with msg. */
static int validate_key(vstate *s, hint_order *o, uint32_t ki, char *msg, size_t cap) {
    const history *h = s->h;
    const pg_index *ix = s->ix;
    const hint_key *hk = &o->keys.data[ki];
    uint32_t k = hk->key, stamp = ki + 1;
    char a[800], b[800], c[800], kn[128];
    history_key_str(h, k, kn, sizeof kn);
    for (uint32_t u = ix->key_unit_start[k]; u < ix->key_unit_start[k + 1]; u++) {
        const pg_unit *un = &ix->units.data[u];
        for (uint32_t m = 0; m < pg_unit_len(un); m++) {
            uint32_t t = ix->members.data[un->m_first + m];
            s->unit_of[t] = u; s->idx_of[t] = m;
        }
    }
    uint32_t prev_t = HISTORY_NONE, prev_op = HISTORY_NONE, prev_unit = HISTORY_NONE;
    for (uint32_t i = hk->first; i < hk->first + hk->num; i++) {
        uint32_t op = o->items.data[i].op, t = history_op_txn(h, op);
        if (t != 0 && h->txns[t].status == TXN_ABORTED) {
            snprintf(msg, cap, PREFIX "key %s lists %s, but that transaction aborted: it installs no version (hint line %u)",
                     kn, name_write(h, op, a, sizeof a), o->items.data[i].line);
            return 0;
        }
        if (!ix->in_graph[t]) continue;                   /* an unobserved indeterminate transaction */
        if (t == prev_t) {                                /* the same transaction's writes, together */
            if (op <= prev_op) {
                snprintf(msg, cap, PREFIX "key %s lists %s after %s, against the transaction's own order of writes "
                         "(hint line %u)", kn, name_write(h, op, a, sizeof a), name_write(h, prev_op, b, sizeof b),
                         o->items.data[i].line);
                return 0;
            }
            prev_op = op;
            s->last_op[t] = op;
            continue;
        }
        if (s->seen[t] == stamp) {
            snprintf(msg, cap, PREFIX "key %s lists %s apart from %s, written by the same transaction: a transaction's "
                     "writes are installed at once (hint line %u)", kn, name_write(h, op, a, sizeof a),
                     name_write(h, s->last_op[t], b, sizeof b), o->items.data[i].line);
            return 0;
        }
        s->seen[t] = stamp;
        s->last_op[t] = op;
        if (t == 0 && prev_t != HISTORY_NONE) {
            snprintf(msg, cap, PREFIX "key %s lists the initial value after %s: the initial version is the first "
                     "(hint line %u)", kn, name_write(h, prev_op, b, sizeof b), o->items.data[i].line);
            return 0;
        }
        uint32_t u = s->unit_of[t], m = s->idx_of[t];
        if ((u == prev_unit || s->closed[u] == stamp) && m <= s->last_idx[u]) {    /* reversed */
            const pg_unit *un = &ix->units.data[u];
            uint32_t later = ix->members.data[un->m_first + s->last_idx[u]], succ = ix->members.data[un->m_first + m + 1];
            uint32_t rv = rival_of(h, ix, k, succ);
            if (rv != HISTORY_NONE) return !lost_update(h, k, succ, rv, o->items.data[i].line, msg, cap);
            snprintf(msg, cap, PREFIX "key %s lists %s after %s, but the history orders the former first, in a chain "
                     "of consecutive versions (%s) (hint line %u)", kn, name_write(h, op, a, sizeof a),
                     name_write(h, history_txn_final_write(h, later, k), b, sizeof b),
                     why_linked(h, t, succ, k, c, sizeof c), o->items.data[i].line);
            return 0;
        }
        if (u != prev_unit) {
            if (u == ix->key_unit_start[k] && prev_unit != HISTORY_NONE) {
                char why[400];
                uint32_t rv = m > 0 ? rival_of(h, ix, k, t) : HISTORY_NONE;
                if (rv != HISTORY_NONE) return !lost_update(h, k, t, rv, o->items.data[i].line, msg, cap);
                if (m > 0) why_linked(h, ix->members.data[ix->units.data[u].m_first + m - 1], t, k, why, sizeof why);
                else snprintf(why, sizeof why, "a list read shows it first");
                snprintf(msg, cap, PREFIX "key %s lists %s after %s, but the history fixes %s among the first "
                         "versions, in the initial value's chain (%s) (hint line %u)", kn, name_write(h, op, a, sizeof a),
                         name_write(h, prev_op, b, sizeof b), name_write(h, op, c, sizeof c), why,
                         o->items.data[i].line);
                return 0;
            }
            if (s->closed[u] == stamp) {               /* u resumes after another unit: split */
                const pg_unit *un = &ix->units.data[u];
                uint32_t pa = ix->members.data[un->m_first + m - 1];   /* m > last_idx >= 0 */
                uint32_t rv = rival_of(h, ix, k, t);
                if (rv != HISTORY_NONE) return !lost_update(h, k, t, rv, o->items.data[i].line, msg, cap);
                char why[400], d[800];
                why_linked(h, pa, t, k, why, sizeof why);
                snprintf(msg, cap, PREFIX "key %s lists %s between %s and %s, but the history fixes the latter's "
                         "version right after the former's (%s) (hint line %u)", kn, name_write(h, prev_op, c, sizeof c),
                         name_write(h, history_txn_final_write(h, pa, k), a, sizeof a), name_write(h, op, d, sizeof d),
                         why, o->items.data[i].line);
                return 0;
            }
            if (prev_unit != HISTORY_NONE) s->closed[prev_unit] = stamp;
            s->last_idx[u] = m;
            vec_push(o->units, u);
            prev_unit = u;
        } else s->last_idx[u] = m;
        prev_t = t;
        prev_op = op;
    }
    return 1;
}

int hints_validate(const pg_index *ix, hint_order *o, char *msg, size_t cap) {
    const history *h = ix->h;
    vstate s = { ix, h, NULL, NULL, NULL, NULL, NULL, NULL };
    s.unit_of = xmalloc((size_t)h->num_txns * sizeof *s.unit_of);
    s.idx_of = xmalloc((size_t)h->num_txns * sizeof *s.idx_of);
    s.seen = xcalloc(h->num_txns, sizeof *s.seen);
    s.last_op = xmalloc((size_t)h->num_txns * sizeof *s.last_op);
    s.closed = xcalloc(ix->units.len + 1, sizeof *s.closed);
    s.last_idx = xmalloc((ix->units.len + 1) * sizeof *s.last_idx);
    vec_clear(o->unit_start);
    vec_clear(o->units);
    o->pairs = 0;
    int ok = 1;
    for (uint32_t ki = 0; ki < o->keys.len && ok; ki++) {
        vec_push(o->unit_start, (uint32_t)o->units.len);
        ok = validate_key(&s, o, ki, msg, cap);
        uint32_t n = (uint32_t)o->units.len - vec_last(o->unit_start);
        o->pairs += n > 1 ? n - 1 : 0;
    }
    vec_push(o->unit_start, (uint32_t)o->units.len);
    free(s.unit_of); free(s.idx_of); free(s.seen); free(s.last_op); free(s.closed); free(s.last_idx);
    return ok;
}

uint64_t hints_apply(pg_index *ix, const hint_order *o) {
    uint64_t added = 0;
    for (uint32_t ki = 0; ki < o->keys.len; ki++) {
        uint32_t k = o->keys.data[ki].key;
        for (uint32_t i = o->unit_start.data[ki] + 1; i < o->unit_start.data[ki + 1]; i++) {
            const pg_unit *U = &ix->units.data[o->units.data[i - 1]], *V = &ix->units.data[o->units.data[i]];
            if (U->last != 0) { pg_edge e = { U->last, V->head, PG_META(DEP_WW, k) }; pg_index_base_push(ix, e); added++; }
            for (uint32_t j = 0; j < pg_unit_rd_num(U); j++) {
                uint32_t r = ix->readers.data[U->rd_first + j];
                if (r == V->head) continue;
                pg_edge e = { r, V->head, PG_META(DEP_RW, k) };
                pg_index_base_push(ix, e);
                added++;
            }
        }
    }
    return added;
}

/* Does vo put every key's listed units in the hint's order?  pos: per
 * txn scratch. */
static int vo_extends(const pg_index *ix, const hint_order *o, const version_order *vo, uint32_t *pos) {
    for (uint32_t ki = 0; ki < o->keys.len; ki++) {
        uint32_t k = o->keys.data[ki].key;
        for (uint32_t i = vo->start[k]; i < vo->start[k + 1]; i++) pos[vo->txns.data[i]] = i;
        for (uint32_t i = o->unit_start.data[ki] + 1; i < o->unit_start.data[ki + 1]; i++)
            if (pos[ix->units.data[o->units.data[i - 1]].last] >= pos[ix->units.data[o->units.data[i]].head]) return 0;
    }
    return 1;
}

/* vo rearranged to extend the hint: on each listed key, the slots its
 * listed units take in vo are given to them in the hint's order (the
 * others stay where they are); units stay whole. */
static void vo_rearrange(const pg_index *ix, const hint_order *o, version_order *vo, uint32_t *unit_of) {
    vec_u32 seq; vec_init(seq);
    uint8_t *listed = calloc(ix->units.len + 1, 1);
    for (uint32_t ki = 0; ki < o->keys.len; ki++) {
        uint32_t k = o->keys.data[ki].key, us = o->unit_start.data[ki], ue = o->unit_start.data[ki + 1];
        if (ue - us < 2) continue;
        for (uint32_t u = ix->key_unit_start[k]; u < ix->key_unit_start[k + 1]; u++)
            for (uint32_t m = 0; m < pg_unit_len(&ix->units.data[u]); m++) unit_of[ix->members.data[ix->units.data[u].m_first + m]] = u;
        for (uint32_t i = us; i < ue; i++) listed[o->units.data[i]] = 1;
        vec_clear(seq);
        uint32_t next = us;
        for (uint32_t i = vo->start[k]; i < vo->start[k + 1];) {
            uint32_t u = unit_of[vo->txns.data[i]];
            i += pg_unit_len(&ix->units.data[u]);
            vec_push(seq, listed[u] ? o->units.data[next++] : u);
        }
        uint32_t *out = vo->txns.data + vo->start[k];
        vec_foreach(const uint32_t, u, seq) {
            const pg_unit *un = &ix->units.data[*u];
            for (uint32_t m = 0; m < pg_unit_len(un); m++) *out++ = ix->members.data[un->m_first + m];
        }
        for (uint32_t i = us; i < ue; i++) listed[o->units.data[i]] = 0;
    }
    free(listed);
    vec_free(seq);
}

verdict hints_check_level(const pg_index *ix, const hint_order *o, check_level_id level,
                                const check_options *opt, check_result *res) {
    const history *h = ix->h;
    verdict v = check_level(ix, level, opt, res);
    int has_vo = res->vo.num_keys == ix->num_keys && res->vo.start != NULL;
    if (!has_vo) return v;
    uint32_t *scratch = xmalloc(((size_t)h->num_txns + 1) * sizeof *scratch);
    int extends = vo_extends(ix, o, &res->vo, scratch);
    if (v == VERDICT_PASS && !extends) {
        snprintf(res->msg, sizeof res->msg, "internal error: the white-box witness does not extend the hint");
        v = res->verdict = VERDICT_UNKNOWN;
    } else if (v == VERDICT_FAIL && extends) {
        /* the confirmed cycle holds under an order that extends the hint */
    } else if (v == VERDICT_FAIL || (v == VERDICT_UNKNOWN && (strstr(res->msg, "the failure could not be confirmed") ||
                                                        strstr(res->msg, "found a violation")))) {
        /* a FAIL (or an unconfirmed one) under an order the hint excludes:
         * confirm it again under one that extends the hint */
        vo_rearrange(ix, o, &res->vo, scratch);
        char why[300] = "";
        vec_clear(res->cycle);
        int rc = vo_check(h, &res->vo, level == LEVEL_SI, &res->cycle, why, sizeof why);
        if (rc == 0 && cycle_holds(h, &res->vo, level == LEVEL_SI, res->cycle.data, res->cycle.len, why, sizeof why)) {
            if (v != VERDICT_FAIL) snprintf(res->msg, sizeof res->msg, "no order that extends the hint avoids a cycle");
            v = res->verdict = VERDICT_FAIL;
        } else {
            snprintf(res->msg, sizeof res->msg, "internal error: the white-box failure could not be confirmed under an "
                     "order that extends the hint (%s)", rc == 1 ? "that order has no cycle" : why);
            vec_clear(res->cycle);
            v = res->verdict = VERDICT_UNKNOWN;
        }
    }
    free(scratch);
    return v;
}

int hints_complete(const pg_index *ix, const hint_order *o) {
    uint64_t listed = 0, units = 0;
    for (uint32_t k = 0; k < ix->num_keys; k++) units += ix->key_unit_start[k + 1] - ix->key_unit_start[k] - 1;
    for (uint32_t ki = 0; ki < o->keys.len; ki++) {
        uint32_t k = o->keys.data[ki].key;
        for (uint32_t i = o->unit_start.data[ki]; i < o->unit_start.data[ki + 1]; i++)
            listed += o->units.data[i] != ix->key_unit_start[k];          /* INIT's unit is first anyway */
    }
    return listed == units;             /* listed units are distinct units of their key (hints_validate) */
}

void hints_complete_order(const pg_index *ix, const hint_order *o, version_order *vo) {
    uint32_t nk = ix->num_keys;
    uint32_t *listed = xmalloc((size_t)nk * sizeof *listed);
    for (uint32_t k = 0; k < nk; k++) listed[k] = HISTORY_NONE;
    for (uint32_t ki = 0; ki < o->keys.len; ki++) listed[o->keys.data[ki].key] = ki;
    vo->num_keys = nk;
    vo->start = xmalloc(((size_t)nk + 1) * sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t k = 0; k < nk; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        uint32_t init_unit = ix->key_unit_start[k];
        const pg_unit *u0 = &ix->units.data[init_unit];
        for (uint32_t m = 0; m < pg_unit_len(u0); m++) vec_push(vo->txns, ix->members.data[u0->m_first + m]);
        uint32_t ki = listed[k];
        if (ki == HISTORY_NONE) continue;
        for (uint32_t i = o->unit_start.data[ki]; i < o->unit_start.data[ki + 1]; i++) {
            if (o->units.data[i] == init_unit) continue;
            const pg_unit *un = &ix->units.data[o->units.data[i]];
            for (uint32_t m = 0; m < pg_unit_len(un); m++) vec_push(vo->txns, ix->members.data[un->m_first + m]);
        }
    }
    vo->start[nk] = (uint32_t)vo->txns.len;
    free(listed);
}

verdict hints_check_vo(const history *h, check_level_id level, const check_options *opt, check_result *res) {
    int si = level == LEVEL_SI;
    par_pool *pool = opt && opt->threads > 1 ? par_pool_new(opt->threads) : NULL;
    double t0 = monotonic_seconds();
    char why[400] = "";
    vec_clear(res->cycle);
    int rc = vo_check_on(h, &res->vo, si, &res->cycle, why, sizeof why, pool, 0);
    par_pool_free(pool);
    res->st.t_verify = monotonic_seconds() - t0;
    res->stage = "version order";
    if (rc == 1) return res->verdict = VERDICT_PASS;
    if (rc == 0 && cycle_holds(h, &res->vo, si, res->cycle.data, res->cycle.len, why, sizeof why)) {
        snprintf(res->msg, sizeof res->msg, "the dependency graph under the given version order has a cycle");
        return res->verdict = VERDICT_FAIL;
    }
    if (rc == 0) {
        snprintf(res->msg, sizeof res->msg, "internal error: the cycle under the given version order does not hold (%s)", why);
        vec_clear(res->cycle);
        return res->verdict = VERDICT_UNKNOWN;
    }
    vec_clear(res->cycle);
    snprintf(res->msg, sizeof res->msg, "a read contradicts the given version order: %s", why);
    return res->verdict = VERDICT_FAIL;
}

