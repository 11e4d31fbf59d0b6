/* hint_direct.c — a version order hint that lists every version, checked
 * without the index (contract: whitebox_direct in hint_check_internal.h).
 *
 * The usual path for a complete hint (hint_check.c) builds the pipeline's
 * index to validate the hint against what the history proves (units:
 * read-modify-write chains), then re-checks the order it states with
 * verify_model.  When the hint lists each version itself — every listed
 * write a participant's final write of its key, INIT's value (if listed)
 * first, and as many versions listed as the history installs — that order
 * is the version order, and the re-check decides it alone: a PASS under
 * SI (or under SER, which implies SI) means the dependency graph of that
 * order is acyclic for the level, so nothing the validation looks for can
 * hold (a reversed or split read-modify-write chain is a two-edge cycle
 * of WR/WW or RW/WW under both levels, a wrong list prefix an
 * inconsistent read).  Only a PASS is taken from here; any other answer,
 * or a hint this path does not cover (list keys, repeated values,
 * predicate reads, a version left out or a unit's member unlisted), goes
 * back to the usual path, which names the finding or the cycle as before.
 *
 * The hint's pairs are counted as the validation counts them: consecutive
 * listed versions, less those the history links (the later one's
 * transaction read the earlier one's value of the key and wrote it, one
 * unit); under a PASS that is exactly the index's unit chain. */
#include <stdlib.h>
#include <string.h>

#include "frontend/reports/hint_check_internal.h"

/* The value t's first successful op on k reads, when it is a register read
 * before any own write of k (1), else 0.  w is t's write of k: the ops
 * after it do not matter, the ones before it are its neighbours in memory
 * (walked back while they are t's). */
static int first_read_of(const history *h, uint32_t t, uint32_t k, uint32_t w, int64_t *v) {
    uint32_t first = w;
    for (uint32_t op = w; op-- > 0 && history_op_txn(h, op) == t;)
        if (h->op_key[op] == k && !history_op_failed(h, op)) first = op;
    if (first == w || history_op_kind(h, first) != OP_READ) return 0;
    *v = history_op_value(h, first);
    return 1;
}

/* The hint's items fetched ahead: items are in key order, their ops all
 * over the history (millions of random lookups on a large one). */
HISTORY_PREFETCH_FN void prefetch_item(const history *h, const uint8_t *part, const hint_order *o, size_t i) {
    if (i + HISTORY_PREFETCH_AHEAD < o->items.len) {
        uint32_t op = o->items.data[i + HISTORY_PREFETCH_AHEAD].op, b = op >= 8 ? op - 8 : 0;
        HISTORY_OP_PREFETCH(h, op); HISTORY_OP_PREFETCH(h, b);
    }
    if (i + HISTORY_PREFETCH_AHEAD / 2 < o->items.len) HISTORY_PREFETCH(&part[history_op_txn(h, o->items.data[i + HISTORY_PREFETCH_AHEAD / 2].op)]);
}

/* The order the hint states, when it lists each version: 1 with vo and
 * *pairs; 0: not this path's hint.  One pass over the items. */
static int direct_order(const history *h, const uint8_t *part, const hint_order *o, version_order *vo, uint64_t *pairs) {
    memset(vo, 0, sizeof *vo);
    uint32_t nk = h->num_keys;
    uint64_t versions = 0, listed = 0;
    for (uint32_t op = nk; op < h->num_ops; op++)           /* ops 0..nk-1 are INIT's */
        versions += history_op_is_write(h, op) && !history_op_overwritten(h, op) && part[history_op_txn(h, op)];
    if (o->items.len < versions || o->items.len > versions + o->keys.len) return 0;   /* not each version once */
    uint32_t *count = xcalloc((size_t)nk + 1, sizeof *count);
    vec_foreach(const hint_key, hk, o->keys) count[hk->key] = hk->num;
    vo->num_keys = nk;
    vo->start = xmalloc(((size_t)nk + 1) * sizeof *vo->start);
    uint32_t at = 0;
    for (uint32_t k = 0; k < nk; k++) { vo->start[k] = at; at += 1 + count[k]; }   /* INIT's item: room to spare */
    vo->start[nk] = at;
    vec_init(vo->txns);
    vec_reserve(vo->txns, at);
    int ok = 1;
    *pairs = 0;
    vec_foreach(const hint_key, hk, o->keys) {
        uint32_t fill = vo->start[hk->key];
        vo->txns.data[fill++] = 0;
        for (uint32_t i = hk->first; i < hk->first + hk->num && ok; i++) {
            prefetch_item(h, part, o, i);
            uint32_t op = o->items.data[i].op, t = history_op_txn(h, op);
            if (t == 0) { ok = i == hk->first; continue; }       /* INIT's value: first or not here */
            ok = history_op_is_write(h, op) && !history_op_overwritten(h, op) && part[t];
            vo->txns.data[fill++] = t;
            listed++;
            int64_t v;
            if (i > hk->first && !(first_read_of(h, t, hk->key, op, &v) && v == history_op_value(h, o->items.data[i - 1].op)))
                ++*pairs;                                        /* not one unit */
        }
        if (!ok) break;
        count[hk->key] = fill - vo->start[hk->key];
    }
    if (ok && listed == versions) {                          /* close the gaps INIT's items left */
        uint32_t n = 0;
        for (uint32_t k = 0; k < nk; k++) {
            uint32_t c = count[k] ? count[k] : 1, from = vo->start[k];
            vo->start[k] = n;
            if (!count[k]) vo->txns.data[n] = 0;
            else memmove(vo->txns.data + n, vo->txns.data + from, c * sizeof *vo->txns.data);
            n += c;
        }
        vo->start[nk] = n;
        vo->txns.len = n;
    } else {
        version_order_free(vo);
        ok = 0;
    }
    free(count);
    return ok;
}

static void copy_order(version_order *dst, const version_order *src) {
    dst->num_keys = src->num_keys;
    dst->start = xmalloc(((size_t)src->num_keys + 1) * sizeof *dst->start);
    memcpy(dst->start, src->start, ((size_t)src->num_keys + 1) * sizeof *dst->start);
    vec_init(dst->txns);
    vec_reserve(dst->txns, src->txns.len);
    if (src->txns.len) memcpy(dst->txns.data, src->txns.data, src->txns.len * sizeof *dst->txns.data);
    dst->txns.len = src->txns.len;
}

int whitebox_direct_order(const history *h, const hint_order *o, version_order *vo, uint64_t *pairs) {
    memset(vo, 0, sizeof *vo);
    if (h->has_lists || h->num_repeated || h->preds) return 0;
    uint8_t *part = history_participants(h);
    int ok = direct_order(h, part, o, vo, pairs);
    free(part);
    return ok;
}

int whitebox_direct_check(whitebox *wb, const history *h, version_order *vo, uint64_t pairs, const int want[2],
                          const check_options *opt) {
    /* the level that vouches for the hint first: SI when asked (SER implies it) */
    int first = want[LEVEL_SI] ? LEVEL_SI : LEVEL_SER, second = first == LEVEL_SI && want[LEVEL_SER] ? LEVEL_SER : -1;
    check_result *r = &wb->res[first];
    r->level = (check_level_id)first;
    if (second < 0) { r->vo = *vo; memset(vo, 0, sizeof *vo); }   /* moved */
    else copy_order(&r->vo, vo);
    verdict v = hints_check_vo(h, (check_level_id)first, opt, r);
    whitebox_stage(wb, first == LEVEL_SI ? "si re-check" : "ser re-check");
    if (v != VERDICT_PASS) {                   /* the usual path names what is wrong */
        check_result_free(r);
        memset(r, 0, sizeof *r);
        vec_init(r->cycle);
        version_order_free(vo);
        return 0;
    }
    if (second >= 0) {
        wb->res[second].level = (check_level_id)second;
        wb->res[second].vo = *vo;              /* moved */
        memset(vo, 0, sizeof *vo);
        hints_check_vo(h, (check_level_id)second, opt, &wb->res[second]);
        whitebox_stage(wb, "ser re-check");
    }
    wb->complete = 1;
    wb->hint_pairs = pairs;
    for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--) wb->method[lv] = "the hint's complete version order";
    return 1;
}
