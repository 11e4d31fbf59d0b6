/* history.c — the history model and its builder (contract in history.h).
 *
 * The builder appends ops in arrival order, tagged with their builder
 * transaction; hb_finish() numbers transactions by session (INIT first),
 * then scatters each op field to its final slot one array at a time, so
 * the transient extra memory is one field plus a u32 per op.  The writers
 * (history_index_writers) are indexed here: key_writes, then the writer
 * table one region per key (history.h), in key ranges on the loader's
 * threads. */
#include "frontend/history/history.h"
#include "frontend/history/history_spill.h"
#include "frontend/history/hb_internal.h"
#include "frontend/history/repeat_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"
#include "vec.h"
#include "io/bigmem.h"
#include "frontend/history/predicate.h"
#include "frontend/history/u64map.h"

static uint32_t add_string(vec_char *pool, const char *s, size_t n) {
    if (pool->len + n + 1 > UINT32_MAX) xalloc_fail(pool->len + n + 1);
    uint32_t off = (uint32_t)pool->len;
    vec_reserve(*pool, pool->len + n + 1);
    memcpy(pool->data + pool->len, s, n);
    pool->len += n;
    pool->data[pool->len++] = 0;
    return off;
}

history_builder *hb_new(history_format format, history_loc_kind loc, const char *source) {
    history_builder *b = xcalloc(1, sizeof *b);
    b->format = format;
    b->loc = loc;
    const char *src = source ? source : "";
    b->source = xmalloc(strlen(src) + 1);
    strcpy(b->source, src);
    u64map_init(&b->session_ids);
    u64map_init(&b->int_keys);
    add_string(&b->strings, src, strlen(src));    /* offset 0: the source */
    b->line_step1 = b->line_step0 = 1;
    return b;
}

void hb_free(history_builder *b) {
    if (!b) return;
    free(b->source);
    vec_free(b->sessions); u64map_free(&b->session_ids);
    vec_free(b->txns);
    vec_free(b->op_kind); vec_free(b->op_key); vec_free(b->op_line); vec_free(b->op_txn); vec_free(b->run_txn);
    vec_free(b->op_value);
    vec_free(b->key_ext); vec_free(b->key_name); u64map_free(&b->int_keys);
    free(b->str_slots);
    vec_free(b->lists); vec_free(b->list_pool); vec_free(b->strings);
    vec_free(b->name_off);
    for (int k = 0; k < TIME_KINDS; k++) vec_free(b->times[k]);
    vec_free(b->op_pred); preds_free(b->preds);
    free(b);
}

uint32_t hb_session(history_builder *b, int64_t ext_id, const char *file) {
    uint32_t s = u64map_get(&b->session_ids, (uint64_t)ext_id);
    if (s != UINT32_MAX) return s;
    s = (uint32_t)b->sessions.len;
    hb_session_t hs = { ext_id, file ? add_string(&b->strings, file, strlen(file)) : 0, 0 };
    vec_push(b->sessions, hs);
    u64map_put(&b->session_ids, (uint64_t)ext_id, s);
    return s;
}

uint32_t hb_txn(history_builder *b, uint32_t session, int64_t ext_id, uint32_t line) {
    if (b->txns.len >= UINT32_MAX - 2) xalloc_fail(SIZE_MAX);
    hb_txn_t t = { .session = session, .pos = b->sessions.data[session].num_txns++, .line = line, .num_ops = 0,
                   .first_bop = UINT32_MAX, .status = TXN_COMMITTED, .ext_id = ext_id };
    big_vec_push(b->txns, t);
    return (uint32_t)b->txns.len - 1;
}

void hb_txn_status(history_builder *b, uint32_t txn, txn_status st) { b->txns.data[txn].status = (uint8_t)st; }
void hb_set_threads(history_builder *b, unsigned threads) { b->threads = threads; }

hb_room hb_reserve_ops(history_builder *b, size_t now, size_t next) {
    size_t at = b->op_kind.len + now, end = at + next;
    big_vec_reserve(b->op_kind, end);
    big_vec_reserve(b->op_key, end);
    big_vec_reserve(b->op_value, end);
    size_t ops = b->op_kind.len ? b->op_kind.len : 1, tnow = now * b->txns.len / ops + 1, tnext = next * b->txns.len / ops + 1;
    big_vec_reserve(b->txns, b->txns.len + tnow + tnext);
    hb_room r = { { b->op_kind.data + at, b->op_key.data + at, b->op_value.data + at, b->txns.data + b->txns.len + tnow },
                  { next * sizeof *b->op_kind.data, next * sizeof *b->op_key.data, next * sizeof *b->op_value.data,
                    tnext * sizeof *b->txns.data } };
    return r;
}

void hb_room_touch(const hb_room *r) {
    for (int i = 0; i < 4; i++) big_populate(r->p[i], r->bytes[i]);
}
uint32_t hb_num_txns(const history_builder *b) { return (uint32_t)b->txns.len; }
uint32_t hb_num_ops(const history_builder *b) { return (uint32_t)b->op_kind.len; }
uint32_t hb_txn_num_ops(const history_builder *b, uint32_t txn) { return b->txns.data[txn].num_ops; }
uint32_t hb_num_keys(const history_builder *b) { return (uint32_t)b->key_ext.len; }
txn_status hb_txn_status_of(const history_builder *b, uint32_t txn) { return (txn_status)b->txns.data[txn].status; }
int hb_key_int(const history_builder *b, uint32_t k, int64_t *ext) {
    if (b->key_name.data && k < b->key_name.len && b->key_name.data[k] != HISTORY_NONE) return 0;
    *ext = b->key_ext.data[k];
    return 1;
}
void hb_op_get(const history_builder *b, uint32_t i, uint32_t *txn, unsigned *kind, uint32_t *key, int64_t *value,
               uint32_t *line) {
    *txn = hb_op_txn_of(b, i); *kind = b->op_kind.data[i]; *key = b->op_key.data[i]; *value = b->op_value.data[i];
    *line = hb_op_line_of(b, i, *txn);
}

void hb_txn_time(history_builder *b, uint32_t txn, history_time_kind k, int64_t v) {
    vec_i64 *tv = &b->times[k];
    while (tv->len <= txn) vec_push(*tv, HISTORY_TIME_NONE);
    tv->data[txn] = v;
}


uint32_t hb_key(history_builder *b, int64_t ext_key) {
    uint32_t k = u64map_get(&b->int_keys, (uint64_t)ext_key);
    if (k != UINT32_MAX) return k;
    k = (uint32_t)b->key_ext.len;
    vec_push(b->key_ext, ext_key);
    vec_push(b->key_name, HISTORY_NONE);
    u64map_put(&b->int_keys, (uint64_t)ext_key, k);
    return k;
}

void hb_key_prefetch(const history_builder *b, int64_t ext_key) { u64map_prefetch(&b->int_keys, (uint64_t)ext_key); }

uint32_t hb_key_find(const history_builder *b, int64_t ext_key) {
    uint32_t k = u64map_get(&b->int_keys, (uint64_t)ext_key);
    return k == UINT32_MAX ? HISTORY_NONE : k;
}

static uint64_t str_hash(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;          /* FNV-1a */
    for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ULL; }
    return h;
}

static void str_slots_insert(history_builder *b, uint32_t k) {
    const char *s = b->strings.data + b->key_name.data[k];
    size_t mask = b->str_cap - 1, i = str_hash(s, strlen(s)) & mask;
    while (b->str_slots[i] != HISTORY_NONE) i = (i + 1) & mask;
    b->str_slots[i] = k;
    b->str_len++;
}

uint32_t hb_key_str(history_builder *b, const char *s, size_t len) {
    if (b->str_cap) {
        size_t mask = b->str_cap - 1;
        for (size_t i = str_hash(s, len) & mask; b->str_slots[i] != HISTORY_NONE; i = (i + 1) & mask) {
            uint32_t k = b->str_slots[i];
            const char *have = b->strings.data + b->key_name.data[k];
            if (strlen(have) == len && !memcmp(have, s, len)) return k;
        }
    }
    if ((b->str_len + 1) * 2 > b->str_cap) {
        size_t old = b->str_cap;
        b->str_cap = old ? old * 2 : 64;
        free(b->str_slots);
        b->str_slots = xmalloc(b->str_cap * sizeof *b->str_slots);
        memset(b->str_slots, 0xff, b->str_cap * sizeof *b->str_slots);
        b->str_len = 0;
        for (uint32_t k = 0; k < b->key_name.len; k++)
            if (b->key_name.data[k] != HISTORY_NONE) str_slots_insert(b, k);
    }
    uint32_t k = (uint32_t)b->key_ext.len;
    vec_push(b->key_ext, 0);
    vec_push(b->key_name, add_string(&b->strings, s, len));
    str_slots_insert(b, k);
    return k;
}

int64_t hb_name(history_builder *b, const char *s, size_t len) {
    if (b->name_off.len >= UINT32_MAX - 1) xalloc_fail(SIZE_MAX);
    vec_push(b->name_off, add_string(&b->strings, s, len));
    return VALUE_NAME_BASE + (int64_t)(b->name_off.len - 1);
}

/* An op's transaction and line (hb_internal.h: kept per op, or following
 * from the transactions). */
uint32_t hb_op_txn_of(const history_builder *b, uint32_t i) {
    if (b->ops_mixed) return b->op_txn.data[i];
    size_t lo = 0, hi = b->run_txn.len;              /* the last run starting at or before i */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->txns.data[b->run_txn.data[mid]].first_bop <= i) lo = mid; else hi = mid;
    }
    return b->run_txn.data[lo];
}

uint32_t hb_op_line_of(const history_builder *b, uint32_t i, uint32_t txn) {
    if (b->lines_stored) return b->op_line.data[i];
    const hb_txn_t *tx = &b->txns.data[txn];
    return tx->line + (b->line_step1 ? i - tx->first_bop : 0);
}

/* The ops so far given their lines, one a op from now on (ops still in runs). */
static void lines_store(history_builder *b) {
    size_t n = b->op_kind.len;
    big_vec_reserve(b->op_line, n);
    b->op_line.len = n;
    for (size_t j = 0; j < b->run_txn.len; j++) {
        uint32_t t = b->run_txn.data[j];
        const hb_txn_t *tx = &b->txns.data[t];
        for (uint32_t k = 0; k < tx->num_ops; k++) b->op_line.data[tx->first_bop + k] = hb_op_line_of(b, tx->first_bop + k, t);
    }
    b->lines_stored = 1;
}

/* The ops so far given their transactions, one a op from now on. */
static void ops_go_mixed(history_builder *b) {
    if (!b->lines_stored) lines_store(b);
    vec_resize(b->op_txn, b->op_kind.len);
    for (size_t j = 0; j < b->run_txn.len; j++) {
        uint32_t t = b->run_txn.data[j];
        const hb_txn_t *tx = &b->txns.data[t];
        for (uint32_t k = 0; k < tx->num_ops; k++) b->op_txn.data[tx->first_bop + k] = t;
    }
    vec_free(b->run_txn);
    b->ops_mixed = 1;
}

uint32_t hb_op(history_builder *b, uint32_t txn, unsigned kind, uint32_t key, int64_t value, uint32_t line) {
    if (b->op_kind.len >= UINT32_MAX / 2) xalloc_fail(SIZE_MAX);
    unsigned k = kind & OP_KIND_MASK;
    if (k == OP_APPEND || k == OP_LIST_READ) b->has_lists = 1;
    uint32_t i = (uint32_t)b->op_kind.len;
    hb_txn_t *tx = &b->txns.data[txn];
    if (!b->ops_mixed) {
        if (tx->num_ops == 0) { tx->first_bop = i; big_vec_push(b->run_txn, txn); }
        else if (tx->first_bop + tx->num_ops != i) ops_go_mixed(b);     /* continues after another's ops */
    }
    if (!b->lines_stored) {
        int s1 = b->line_step1 && (uint64_t)line == (uint64_t)tx->line + tx->num_ops, s0 = b->line_step0 && line == tx->line;
        if (s1 || s0) { b->line_step1 = s1; b->line_step0 = s0; }
        else lines_store(b);
    }
    if (b->ops_mixed) big_vec_push(b->op_txn, txn);
    if (b->lines_stored) big_vec_push(b->op_line, line);
    big_vec_push(b->op_kind, (uint8_t)kind);
    big_vec_push(b->op_key, key);
    big_vec_push(b->op_value, value);
    tx->num_ops++;
    return i;
}

uint32_t hb_list_read(history_builder *b, uint32_t txn, uint32_t key,
                      const int64_t *vals, uint32_t n, uint32_t line) {
    history_list_ref r = { b->list_pool.len, n };
    vec_reserve(b->list_pool, b->list_pool.len + n);
    if (n) memcpy(b->list_pool.data + b->list_pool.len, vals, n * sizeof *vals);
    b->list_pool.len += n;
    vec_push(b->lists, r);
    return hb_op(b, txn, OP_LIST_READ, key, (int64_t)(b->lists.len - 1), line);
}

void hb_op_make_empty_list_read(history_builder *b, uint32_t i) {
    history_list_ref r = { b->list_pool.len, 0 };
    vec_push(b->lists, r);
    b->op_kind.data[i] = (uint8_t)((b->op_kind.data[i] & ~OP_KIND_MASK) | OP_LIST_READ);
    b->op_value.data[i] = (int64_t)(b->lists.len - 1);
    b->has_lists = 1;
}

void hb_op_tag(history_builder *b, uint32_t i, uint32_t tag) {
    while (b->op_pred.len <= i) vec_push(b->op_pred, PRED_TAG_NONE);
    b->op_pred.data[i] = tag;
}

void hb_op_set(history_builder *b, uint32_t i, unsigned kind, int64_t value) {
    b->op_kind.data[i] = (uint8_t)kind;
    b->op_value.data[i] = value;
}

void hb_set_preds(history_builder *b, history_preds *p) {
    preds_free(b->preds);
    b->preds = p;
}

history_builder *hb_clone(const history_builder *b, const uint8_t *keep) {
    history_builder *c = hb_new(b->format, b->loc, b->source);
    vec_clear(c->strings);                    /* the whole pool, offsets unchanged */
    vec_reserve(c->strings, b->strings.len);
    if (b->strings.len) memcpy(c->strings.data, b->strings.data, b->strings.len);
    c->strings.len = b->strings.len;
    for (size_t i = 0; i < b->name_off.len; i++) vec_push(c->name_off, b->name_off.data[i]);
    for (size_t k = 0; k < b->key_ext.len; k++) {     /* same key ids, same lookups */
        vec_push(c->key_ext, b->key_ext.data[k]);
        vec_push(c->key_name, b->key_name.data[k]);
        if (b->key_name.data[k] == HISTORY_NONE) u64map_put(&c->int_keys, (uint64_t)b->key_ext.data[k], (uint32_t)k);
    }
    if (b->str_cap) {
        c->str_cap = b->str_cap;
        c->str_len = b->str_len;
        c->str_slots = xmalloc(b->str_cap * sizeof *c->str_slots);
        memcpy(c->str_slots, b->str_slots, b->str_cap * sizeof *c->str_slots);
    }
    uint32_t *sess_new = xmalloc((b->sessions.len ? b->sessions.len : 1) * sizeof *sess_new);
    for (size_t s = 0; s < b->sessions.len; s++) sess_new[s] = HISTORY_NONE;
    uint32_t *txn_new = xmalloc((b->txns.len ? b->txns.len : 1) * sizeof *txn_new);
    for (size_t t = 0; t < b->txns.len; t++) {
        txn_new[t] = HISTORY_NONE;
        if (keep && !keep[t]) continue;
        const hb_txn_t *bt = &b->txns.data[t];
        uint32_t s = bt->session;
        if (sess_new[s] == HISTORY_NONE) {            /* only sessions that keep a transaction */
            hb_session_t hs = b->sessions.data[s];
            hs.num_txns = 0;
            sess_new[s] = (uint32_t)c->sessions.len;
            vec_push(c->sessions, hs);
            u64map_put(&c->session_ids, (uint64_t)hs.ext_id, sess_new[s]);
        }
        txn_new[t] = hb_txn(c, sess_new[s], bt->ext_id, bt->line);
        c->txns.data[txn_new[t]].status = bt->status;
        for (int k = 0; k < TIME_KINDS; k++)
            if (t < b->times[k].len && b->times[k].data[t] != HISTORY_TIME_NONE)
                hb_txn_time(c, txn_new[t], (history_time_kind)k, b->times[k].data[t]);
    }
    free(sess_new);
    size_t run = 0;                                   /* ops in runs: the run of op i */
    for (size_t i = 0; i < b->op_kind.len; i++) {
        while (!b->ops_mixed && run + 1 < b->run_txn.len && b->txns.data[b->run_txn.data[run + 1]].first_bop <= i) run++;
        uint32_t bt = b->ops_mixed ? b->op_txn.data[i] : b->run_txn.data[run];
        uint32_t t = txn_new[bt], line = hb_op_line_of(b, (uint32_t)i, bt);
        if (t == HISTORY_NONE) continue;
        unsigned kind = b->op_kind.data[i];
        if ((kind & OP_KIND_MASK) == OP_LIST_READ) {
            const history_list_ref *r = &b->lists.data[b->op_value.data[i]];
            uint32_t j = hb_list_read(c, t, b->op_key.data[i], b->list_pool.data + r->off, r->len, line);
            c->op_kind.data[j] = (uint8_t)kind;
        } else hb_op(c, t, kind, b->op_key.data[i], b->op_value.data[i], line);
        if (i < b->op_pred.len && b->op_pred.data[i] != PRED_TAG_NONE) hb_op_tag(c, (uint32_t)c->op_kind.len - 1, b->op_pred.data[i]);
    }
    if (b->preds) c->preds = preds_clone(b->preds, txn_new);
    free(txn_new);
    c->has_lists = b->has_lists;
    return c;
}

/* ---- finish --------------------------------------------------------- */

uint32_t history_writer_of(const history *h, uint32_t key, int64_t value) {
    if (!h->writer_slots || key >= h->num_keys) return HISTORY_NONE;
    uint64_t lo = 2 * (uint64_t)h->key_write_start[key], hi = 2 * (uint64_t)h->key_write_start[key + 1];
    if (lo == hi) return HISTORY_NONE;
    for (uint64_t i = history_writer_home(h, key, value);; i = i + 1 == hi ? lo : i + 1) {
        uint32_t op = h->writer_slots[i];
        if (op == HISTORY_NONE) return HISTORY_NONE;
        if (history_op_value(h, op) == value) return op;      /* the region holds key's writes only */
    }
}

/* The file a session came from (cobra: its T<n>.log; else the source). */
static const char *history_session_file(const history *h, uint32_t session) {
    if (session >= h->num_sessions) return h->source;
    return h->strings + h->sessions[session].file;
}

static void where_error(const history *h, uint32_t op, ic_error *err, const char *msg) {
    uint32_t t = history_op_txn(h, op);
    const char *file = t ? history_session_file(h, h->txns[t].session) : h->source;
    if (h->loc == LOC_OFFSET) ic_error_at_offset(err, file, history_op_line(h, op), "%s", msg);
    else ic_error_at(err, file, history_op_line(h, op), "%s", msg);
}

/* A key is a register or a list, not both; 0 (err set) at the first op
 * that mixes them. */
int history_check_key_kinds(history *h, ic_error *err) {
    uint8_t *kind = xcalloc(h->num_keys ? h->num_keys : 1, 1);    /* 0 unseen, 1 register, 2 list */
    int ok = 1;
    for (uint32_t op = h->num_keys; op < h->num_ops && ok; op++) {  /* INIT's ops fit both */
        op_kind k = history_op_kind(h, op);
        uint8_t want = k == OP_APPEND || k == OP_LIST_READ ? 2 : 1;
        uint8_t *have = &kind[h->op_key[op]];
        if (!*have) *have = want;
        if (*have == want) continue;
        char kb[64], msg[256];
        snprintf(msg, sizeof msg, "key %s is used both as a register (read/write) and as a list (append/list read)",
                 history_key_str(h, h->op_key[op], kb, sizeof kb));
        where_error(h, op, err, msg);
        ok = 0;
    }
    free(kind);
    return ok;
}

/* The writer table's regions of keys [lo, hi) (history_index_writers_into). */
static void fill_writers(history *h, uint32_t lo, uint32_t hi) {
    const uint32_t *start = h->key_write_start, *writes = h->key_writes, ahead = HISTORY_PREFETCH_AHEAD;
    for (uint32_t k = lo; k < hi; k++) {
        uint64_t rlo = 2 * (uint64_t)start[k], rhi = 2 * (uint64_t)start[k + 1];
        for (uint32_t j = start[k]; j < start[k + 1]; j++) {
            if (j + ahead < start[hi]) {
                uint32_t a = writes[j + ahead];
                HISTORY_PREFETCH(h->op_val64 ? (const void *)&h->op_val64[a] : (const void *)&h->op_val32[a]);
            }
            uint32_t op = writes[j];
            int64_t value = history_op_value(h, op);
            uint64_t i = history_writer_home(h, k, value);
            for (;; i = i + 1 == rhi ? rlo : i + 1) {
                uint32_t other = h->writer_slots[i];
                if (other == HISTORY_NONE) break;
                if (history_op_value(h, other) == value) {
                    /* a repeated register value or appended value: repeat.c, list_repeat.c */
                    h->op_kind[other] |= OP_REPEATED;
                    h->op_kind[op] |= OP_REPEATED;
                    break;
                }
            }
            if (!(h->op_kind[op] & OP_REPEATED)) h->writer_slots[i] = op;
        }
    }
}

#define WRITER_RANGES 4
typedef struct writer_job { history *h; uint32_t ntasks; } writer_job;
static void writer_task(void *ctx, size_t i) {
    writer_job *jb = ctx;
    uint32_t nk = jb->h->num_keys;
    fill_writers(jb->h, (uint32_t)((uint64_t)nk * i / jb->ntasks), (uint32_t)((uint64_t)nk * (i + 1) / jb->ntasks));
}

/* Build key_writes and the (key,value) index (repeat_internal.h); flags repeated values; 1. */
int history_index_writers(history *h, ic_error *err) { return history_index_writers_into(h, err, NULL, NULL, 1); }

/* key_writes in key parts (keys [klo[p], klo[p + 1]) a task): each task
 * reads every op but counts, places and flags only its own keys' writes,
 * so no two tasks write one slot, counter or op's flags (an op's kind is
 * read only once its key says it is the task's).  Pass 0 counts
 * (start[k + 1]), pass 1 places, in op order: key_writes is the same for
 * any number of parts. */
typedef struct kw_job {
    history *h;
    const uint32_t *klo;
    uint32_t *start, *cur, *writes;
    int pass;
} kw_job;

static void kw_count(history *h, uint32_t lo, uint32_t span, uint32_t *start) {
    const uint32_t *key = h->op_key;
    for (uint32_t op = 0; op < h->num_ops; op++) {
        uint32_t k = key[op];
        if (k - lo < span && history_op_is_write(h, op)) start[k + 1]++;
    }
}

/* A write is overwritten when a later write of its transaction has its
 * key: in a short transaction found among its own ops (in the caches),
 * else as the key's previous write being at or after the transaction's
 * first op (a load from all over `writes`, which the short ones, nearly
 * all, do without). */
static void kw_place(history *h, uint32_t lo, uint32_t span, const uint32_t *start, uint32_t *cur, uint32_t *writes) {
    const uint32_t *key = h->op_key;
    for (uint32_t t = 0; t < h->num_txns; t++) {
        uint32_t first = h->txns[t].first_op, end = first + h->txns[t].num_ops;
        int short_txn = end - first <= 16;
        for (uint32_t op = first; op < end; op++) {
            uint32_t k = key[op];
            if (k - lo >= span || !history_op_is_write(h, op)) continue;
            if (short_txn) {
                for (uint32_t o = op + 1; o < end; o++)
                    if (key[o] == k && history_op_is_write(h, o)) { h->op_kind[op] |= OP_OVERWRITTEN; break; }
            } else if (cur[k] > start[k] && writes[cur[k] - 1] >= first) h->op_kind[writes[cur[k] - 1]] |= OP_OVERWRITTEN;
            writes[cur[k]++] = op;
        }
    }
}

static void kw_task(void *ctx, size_t p) {
    kw_job *jb = ctx;
    uint32_t lo = jb->klo[p], span = jb->klo[p + 1] - lo;
    if (jb->pass == 0) kw_count(jb->h, lo, span, jb->start);
    else kw_place(jb->h, lo, span, jb->start, jb->cur, jb->writes);
}

/* The same, key_writes and the writer table made from the blocks given
 * (NULL: fresh ones), resized: pages the loader wrote already are not
 * faulted in and zeroed again (hb_finish hands the builder's op keys and
 * values; about 1.5-2 s a GB zeroed on this machine); key_writes in key
 * parts and the table in key ranges on `threads` threads (the same arrays
 * for every count). */
int history_index_writers_into(history *h, ic_error *err, void *for_writes, void *for_slots, unsigned threads) {
    (void)err;                                      /* nothing is refused now (issue 35) */
    history_pack_values(h);                         /* values rewritten as op_val64 go narrow again */
    uint32_t nk = h->num_keys, nparts = threads > 1 ? threads : 1;
    uint32_t *klo = xmalloc(((size_t)nparts + 1) * sizeof *klo);
    for (uint32_t p = 0; p <= nparts; p++) klo[p] = (uint32_t)((uint64_t)nk * p / nparts);
    uint32_t *start = xcalloc((size_t)nk + 1, sizeof *start);
    kw_job kj = { h, klo, start, NULL, NULL, 0 };
    par_run(threads, nparts, kw_task, &kj);
    for (uint32_t k = 0; k < nk; k++) start[k + 1] += start[k];
    size_t nw = start[nk];
    uint32_t *writes = big_realloc(for_writes, (nw ? nw : 1) * sizeof *writes);
    uint32_t *cur = xmalloc(((size_t)nk + 1) * sizeof *cur);
    memcpy(cur, start, ((size_t)nk + 1) * sizeof *cur);
    kj.cur = cur; kj.writes = writes; kj.pass = 1;
    par_run(threads, nparts, kw_task, &kj);
    free(cur); free(klo);
    h->key_write_start = start;
    h->key_writes = writes;

    /* the writer table, key by key: each key's region (twice its writes,
     * history.h) is filled in op order, so the first of repeated writes
     * stays in it; the values are the only loads from all over the ops
     * (asked for ahead), the region itself is small.  Key ranges are
     * independent (their ops, flags and regions are their own): on
     * `threads` threads, WRITER_RANGES a thread. */
    uint64_t cap = 2 * (uint64_t)nw;
    h->writer_cap = cap;
    h->writer_slots = big_realloc(for_slots, (cap + 1) * sizeof *h->writer_slots);   /* + 1: a home past an empty last region */
    memset(h->writer_slots, 0xff, (cap + 1) * sizeof *h->writer_slots);
    writer_job job = { h, threads > 1 ? WRITER_RANGES * threads : 1 };
    par_run(threads, job.ntasks, writer_task, &job);
    return history_index_repeats(h);
}


void history_free(history *h) {
    if (!h) return;
    history_spill_forget(h);
    free(h->source); free(h->sessions); free(h->txns);
    free(h->op_kind); free(h->op_key); free(h->op_val32); free(h->op_val64); free(h->esc_op); free(h->esc_val);
    free(h->op_line); free(h->op_txn_base); free(h->op_txn_delta); free(h->op_txn_full);
    free(h->key_ext); free(h->key_name); free(h->key_write_start); free(h->key_writes);
    free(h->writer_slots); free(h->read_src_of == h ? h->read_src : NULL); free(h->lists); free(h->list_pool); free(h->strings);
    free(h->name_off);
    for (int k = 0; k < TIME_KINDS; k++) free(h->times[k]);
    preds_free(h->preds); free(h->op_pred);
    free(h->rep_ops); free(h->amb_read); free(h->amb_start); free(h->amb_cand); free(h->amb_why);
    history_free(h->resolved);
    free(h);
}

/* ---- queries ---------------------------------------------------------- */

const int64_t *history_list(const history *h, uint32_t op, uint32_t *len) {
    const history_list_ref *r = &h->lists[history_op_value(h, op)];
    static const int64_t empty[1] = { 0 };
    *len = r->len;
    return r->len ? h->list_pool + r->off : empty;     /* the pool may be NULL */
}

int64_t history_read_value(const history *h, uint32_t op) {
    if (history_op_kind(h, op) != OP_LIST_READ) return history_op_value(h, op);
    uint32_t n;
    const int64_t *l = history_list(h, op, &n);
    return n ? l[n - 1] : VALUE_INIT;
}

uint32_t history_read_source(const history *h, uint32_t op) {
    if (h->read_src_of == h && history_op_kind(h, op) == OP_READ) return h->read_src[op];   /* read_sources.c */
    return history_writer_of(h, h->op_key[op], history_read_value(h, op));
}

int history_value_is_named(const history *h, int64_t v) {
    return v >= VALUE_NAME_BASE && (uint64_t)v - (uint64_t)VALUE_NAME_BASE < h->num_names;
}

const char *history_value_str(const history *h, int64_t v, char *buf, size_t n) {
    if (v == VALUE_INIT) snprintf(buf, n, "init");
    else if (history_value_is_named(h, v)) snprintf(buf, n, "%s", h->strings + h->name_off[(uint64_t)v - (uint64_t)VALUE_NAME_BASE]);
    else snprintf(buf, n, "%" PRId64, v);
    return buf;
}

const char *history_key_str(const history *h, uint32_t key, char *buf, size_t n) {
    if (h->key_name[key] != HISTORY_NONE) snprintf(buf, n, "%s", h->strings + h->key_name[key]);
    else snprintf(buf, n, "%" PRId64, h->key_ext[key]);
    return buf;
}

static const char *where(const history *h, uint32_t txn, uint32_t line, char *buf, size_t n) {
    if (txn == 0) { snprintf(buf, n, "<initial state>"); return buf; }
    const char *file = history_session_file(h, h->txns[txn].session);
    if (h->loc == LOC_CALL) snprintf(buf, n, "call %u", line);
    else if (h->format == FORMAT_SYNTHETIC) snprintf(buf, n, "%s: txn %u", file, txn);
    else if (h->loc == LOC_OFFSET) snprintf(buf, n, "%s: byte %u", file, line);
    else snprintf(buf, n, "%s:%u", file, line);
    return buf;
}

const char *history_op_where(const history *h, uint32_t op, char *buf, size_t n) {
    return where(h, history_op_txn(h, op), history_op_line(h, op), buf, n);
}

const char *history_txn_where(const history *h, uint32_t txn, char *buf, size_t n) {
    return where(h, txn, h->txns[txn].line, buf, n);
}

uint32_t history_txn_final_write(const history *h, uint32_t t, uint32_t key) {
    if (t == 0) return key < h->num_keys ? key : HISTORY_NONE;   /* INIT's op k writes key k */
    if (t >= h->num_txns) return HISTORY_NONE;
    const history_txn *tx = &h->txns[t];
    uint32_t found = HISTORY_NONE;
    for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++)
        if (h->op_key[op] == key && history_op_is_write(h, op)) found = op;
    return found;
}

uint32_t history_snapshot_source(const history *h, uint32_t op, uint32_t own_appends) {
    if (history_op_kind(h, op) != OP_LIST_READ) return history_read_source(h, op);
    uint32_t n;
    const int64_t *l = history_list(h, op, &n);
    if (own_appends > n) return HISTORY_NONE;
    uint32_t m = n - own_appends;                      /* the external prefix l[0..m) */
    return history_writer_of(h, h->op_key[op], m ? l[m - 1] : VALUE_INIT);
}

uint32_t history_external_source(const history *h, uint32_t op) {
    if (history_op_kind(h, op) != OP_LIST_READ) return history_read_source(h, op);
    uint32_t t = history_op_txn(h, op), k = h->op_key[op], own = 0;
    for (uint32_t o = h->txns[t].first_op; o < op; o++)
        own += h->op_key[o] == k && history_op_kind(h, o) == OP_APPEND && !history_op_failed(h, o);
    return history_snapshot_source(h, op, own);
}

uint32_t history_txn_external_read(const history *h, uint32_t t, uint32_t key) {
    if (t == 0 || t >= h->num_txns) return HISTORY_NONE;
    const history_txn *tx = &h->txns[t];
    for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
        if (h->op_key[op] != key || history_op_failed(h, op)) continue;
        op_kind k = history_op_kind(h, op);
        if (k == OP_WRITE) return HISTORY_NONE;        /* an own write hides the snapshot */
        if (k == OP_READ || k == OP_LIST_READ) return op;
    }
    return HISTORY_NONE;
}

/* Mark the writer of (key, value) if it is an indeterminate transaction
 * other than t that is not marked yet; push it on the work list. */
static void observe(const history *h, uint8_t *p, vec_u32 *work, uint32_t t, uint32_t key, int64_t value) {
    uint32_t w = history_writer_of(h, key, value);
    if (w == HISTORY_NONE) return;
    uint32_t u = history_op_txn(h, w);
    if (u == t || p[u] || h->txns[u].status != TXN_INDETERMINATE) return;
    p[u] = 1;
    vec_push(*work, u);
}

uint8_t *history_participants(const history *h) {
    uint8_t *p = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    vec_u32 work; vec_init(work);
    p[0] = 1;
    int any_indeterminate = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        p[t] = h->txns[t].status == TXN_COMMITTED;
        any_indeterminate |= h->txns[t].status == TXN_INDETERMINATE;
    }
    for (uint32_t t = 1; t < h->num_txns && any_indeterminate; t++)     /* the work list only when it has work */
        if (p[t]) vec_push(work, t);
    while (any_indeterminate && work.len) {
        uint32_t t = work.data[--work.len];
        const history_txn *tx = &h->txns[t];
        for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
            if (!history_op_is_read(h, op)) continue;
            if (history_op_kind(h, op) == OP_READ) { observe(h, p, &work, t, h->op_key[op], history_op_value(h, op)); continue; }
            uint32_t n;
            const int64_t *l = history_list(h, op, &n);
            for (uint32_t i = 0; i < n; i++) observe(h, p, &work, t, h->op_key[op], l[i]);
        }
    }
    vec_free(work);
    return p;
}
