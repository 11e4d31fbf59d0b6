/* frontend/online/text_stream.c — the text format parsed in increments (contract in
 * frontend/online/text_stream.h). */
#include "frontend/online/text_stream.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/formats/text_line.h"
#include "frontend/history/history.h"

void text_stream_init(text_stream *ts, const char *name) {
    memset(ts, 0, sizeof *ts);
    ts->name = xmalloc(strlen(name) + 1);
    strcpy(ts->name, name);
    u64map_init(&ts->keys);
    u64map_init(&ts->txn_ids);
    u64map_init(&ts->sess_ids);
}

/* The operations of the transactions handed out by the last feed. */
static void release_done(text_stream *ts) {
    vec_foreach(incr_op *, o, ts->done_ops) free(*o);
    vec_clear(ts->done_ops);
    vec_clear(ts->done);
    vec_clear(ts->done_t);
}

void text_stream_free(text_stream *ts) {
    free(ts->name);
    vec_foreach(incr_op *, o, ts->done_ops) free(*o);
    vec_foreach(ts_sess, s, ts->sess) {
        vec_foreach(ts_open, o, s->open) free(o->ops);
        vec_free(s->open);
    }
    vec_free(ts->tag); vec_free(ts->sess); vec_free(ts->key_ext); vec_free(ts->key_vals);
    vec_free(ts->touched); vec_free(ts->done); vec_free(ts->done_ops); vec_free(ts->done_t);
    u64map_free(&ts->keys); u64map_free(&ts->txn_ids); u64map_free(&ts->sess_ids); free(ts->open_w);
    memset(ts, 0, sizeof *ts);
}

static uint32_t key_id(text_stream *ts, int64_t ext) {
    uint32_t k = u64map_get(&ts->keys, (uint64_t)ext);
    if (k != UINT32_MAX) return k;
    k = (uint32_t)ts->key_ext.len;
    vec_push(ts->key_ext, ext);
    ts_range none = { INT64_MAX, INT64_MIN };
    vec_push(ts->key_vals, none);
    u64map_put(&ts->keys, (uint64_t)ext, k);
    return k;
}

/* The hash of a write of value to key id in the open set (never 0: that
 * marks an empty slot). */
static uint64_t write_hash(uint32_t key, int64_t value) {
    uint64_t h = u64_mix((uint64_t)value ^ u64_mix((uint64_t)key + 0x9e3779b97f4a7c15ULL));
    return h ? h : 1;
}

/* The open set at cap slots (a power of two, room for every entry). */
static void open_rehash(text_stream *ts, size_t cap) {
    uint64_t *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < ts->open_cap; i++) {
        uint64_t x = ts->open_w[i];
        if (!x) continue;
        size_t j = x & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = x;
    }
    free(ts->open_w);
    ts->open_w = slots;
    ts->open_cap = cap;
}

/* Add hash h to the open set: 0 if it was there already. */
static int open_add(text_stream *ts, uint64_t h) {
    /* at most half full: short runs, so that a removal (which walks the rest of its run) is cheap */
    if (2 * (ts->open_len + 1) > ts->open_cap) open_rehash(ts, ts->open_cap ? 2 * ts->open_cap : 1024);
    size_t mask = ts->open_cap - 1, i = h & mask;
    for (; ts->open_w[i]; i = (i + 1) & mask)
        if (ts->open_w[i] == h) return 0;
    ts->open_w[i] = h;
    ts->open_len++;
    return 1;
}

/* Remove hash h from the open set (each write of a transaction handed
 * out is there once: a second was refused): the entries after it in its
 * run move back to where a lookup finds them without the hole. */
static void open_remove(text_stream *ts, uint64_t h) {
    size_t mask = ts->open_cap - 1, i = h & mask;
    for (; ts->open_w[i] != h; i = (i + 1) & mask)
        if (!ts->open_w[i]) return;               /* not there (cannot be): never loop */
    for (size_t j = (i + 1) & mask; ts->open_w[j]; j = (j + 1) & mask) {
        size_t home = ts->open_w[j] & mask;
        /* j's entry may fill the hole at i unless its home lies in (i, j] */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            ts->open_w[i] = ts->open_w[j];
            i = j;
        }
    }
    ts->open_w[i] = 0;
    ts->open_len--;
}

/* Append an operation to open transaction t of session s. */
static void add_op(text_stream *ts, uint32_t s, uint32_t t, unsigned kind, uint32_t key, int64_t value, long line) {
    incr_op op = { (uint8_t)kind, key, value, (uint32_t)line };
    ts_sess *ss = &ts->sess.data[s];
    size_t i = ss->open.len;
    while (ss->open.data[--i].t != t) {}          /* there: t is not done (the newest, nearly always) */
    ts_open *x = &ss->open.data[i];
    if (x->num_ops == x->cap_ops) {
        if (x->cap_ops >= UINT32_MAX / 2) xalloc_fail(SIZE_MAX);
        x->cap_ops = x->cap_ops ? 2 * x->cap_ops : 8;
        x->ops = xrealloc(x->ops, (size_t)x->cap_ops * sizeof *x->ops);
    }
    x->ops[x->num_ops++] = op;
    x->num_w += kind == OP_WRITE;
}

/* Apply one operation as parse_text.c's apply_op does: 1, or 0 where the
 * batch builder (or the follow reader) would refuse the input. */
static int apply(text_stream *ts, const text_fields *f, long line) {
    int64_t value = f->value;
    if (ts->have_init && f->txn == ts->init_txn) {           /* the initial-state transaction goes on */
        if (f->kind != OP_WRITE || value != 0 || f->sess != ts->init_sess) return 0;
        key_id(ts, f->key);
        return 1;
    }
    if (value == 0) {
        if (f->kind == OP_WRITE) {
            if (ts->have_init || ts->have_last) return 0;
            ts->have_init = 1;
            ts->init_txn = f->txn;
            ts->init_sess = f->sess;
            key_id(ts, f->key);
            return 1;
        }
        value = VALUE_INIT;
    }
    uint32_t t, s;
    if (ts->have_last && f->txn == ts->last_txn && f->sess == ts->last_sess) { t = ts->last_t; s = ts->last_s; }
    else {
        s = u64map_get(&ts->sess_ids, (uint64_t)f->sess);
        if (s == UINT32_MAX) {
            ts_sess n;
            memset(&n, 0, sizeof n);
            n.ext = f->sess;
            vec_push(ts->sess, n);
            s = (uint32_t)ts->sess.len - 1;
            u64map_put(&ts->sess_ids, (uint64_t)f->sess, s);
        }
        t = u64map_get(&ts->txn_ids, (uint64_t)f->txn);
        if (t == UINT32_MAX) {
            if (ts->tag.len >= TS_DONE - 1 || s >= TS_DONE) xalloc_fail(SIZE_MAX);
            t = (uint32_t)ts->tag.len;
            vec_push(ts->tag, s);
            u64map_put(&ts->txn_ids, (uint64_t)f->txn, t);
            ts_open o = { f->txn, NULL, t, 0, 0, 0 };
            vec_push(ts->sess.data[s].open, o);
            if (ts->sess.data[s].touched != ts->round) {       /* only a new transaction completes one */
                ts->sess.data[s].touched = ts->round;
                vec_push(ts->touched, s);
            }
        } else if (ts->tag.data[t] & TS_DONE) return 0;               /* complete: growing, or in two sessions */
        else if (ts->tag.data[t] != s) return 0;                      /* in two sessions */
        ts->have_last = 1; ts->last_txn = f->txn; ts->last_sess = f->sess; ts->last_t = t; ts->last_s = s;
    }
    if (ts->tag.data[t] & TS_DONE) return 0;                        /* complete, and growing */
    uint32_t k = key_id(ts, f->key);
    if (f->kind == OP_WRITE) {                     /* values written to a key are unique (hash: a collision only
                                                    * hands the input to the batch parser) */
        if (!open_add(ts, write_hash(k, value))) return 0;
        /* and not written by a transaction handed out: asked (-1, cannot say: refused), unless
         * outside the range written to the key so far */
        ts_range *r = &ts->key_vals.data[k];
        int inside = value >= r->lo && value <= r->hi;
        if (value < r->lo) r->lo = value;
        if (value > r->hi) r->hi = value;
        if (inside && ts->completed && (!ts->written || ts->written(ts->written_ctx, k, value) != 0)) return 0;
    }
    add_op(ts, s, t, f->kind, k, value, line);
    return 1;
}

/* Open transaction x of session s is complete: it goes to the done list
 * (its operations with it, until the next call). */
static void complete(text_stream *ts, const ts_sess *s, const ts_open *x, int remove) {
    ts->tag.data[x->t] = TS_DONE | x->num_ops;     /* (num_ops < 2^31: add_op) */
    for (uint32_t i = 0; remove && i < x->num_ops; i++)   /* its writes: the caller's to know from now on */
        if (x->ops[i].kind == OP_WRITE) open_remove(ts, write_hash(x->ops[i].key, x->ops[i].value));
    incr_txn it = { x->ext, s->ext, TXN_COMMITTED, x->ops, x->num_ops };
    vec_push(ts->done, it);
    vec_push(ts->done_t, x->t);
    vec_push(ts->done_ops, x->ops);
    ts->completed++;
}

static int by_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* ts->done, listed session after session (complete's order), put in the
 * order of each transaction's first line (t; a session's are in order
 * already): the checker then stores writes about in the order their values
 * were written, so that most reads find their write as the key's latest,
 * in the key's own record (frontend/online/incr_windex.c).  done_t: each
 * one's t (scratch). */
static void order_done(text_stream *ts) {
    size_t n = ts->done.len;
    int sorted = 1;
    for (size_t i = 1; i < n && sorted; i++) sorted = ts->done_t.data[i - 1] < ts->done_t.data[i];
    if (sorted) return;
    uint64_t *key = xmalloc(n * sizeof *key);
    for (size_t i = 0; i < n; i++) key[i] = (uint64_t)ts->done_t.data[i] << 32 | i;
    qsort(key, n, sizeof *key, by_u64);
    incr_txn *to = xmalloc(n * sizeof *to);
    for (size_t i = 0; i < n; i++) to[i] = ts->done.data[(uint32_t)key[i]];
    memcpy(ts->done.data, to, n * sizeof *to);
    free(to);
    free(key);
}

int text_stream_feed(text_stream *ts, const char *data, size_t base, size_t n, ic_error *err) {
    release_done(ts);
    if (ts->failed) return 0;
    if (ts->consumed < base) {                    /* a caller's bug: bytes not parsed are gone */
        ic_error_at(err, ts->name, 0, "internal error: the follow reader dropped bytes not parsed yet");
        ts->failed = 1;
        return -1;
    }
    ts->round++;
    if (ts->round == 0) {                         /* wrapped: no session may look touched */
        vec_foreach(ts_sess, s, ts->sess) s->touched = 0;
        ts->round = 1;
    }
    vec_clear(ts->touched);
    size_t at = ts->consumed - base;              /* offsets in data from here on */
    while (n > at && data[n - 1] != '\n') n--;   /* complete lines only */
    vec_char buf;
    vec_init(buf);
    int rc = 1;
    while (at < n) {
        const char *nl = memchr(data + at, '\n', n - at);
        size_t len = (size_t)(nl - (data + at));
        if (len > 0 && data[at + len - 1] == '\r') len--;
        vec_reserve(buf, len + 1);
        memcpy(buf.data, data + at, len);
        buf.data[len] = 0;
        ts->line++;
        const char *lp = buf.data;               /* a UTF-8 byte-order mark is skipped, as batch does */
        size_t ll = len;
        if (ts->line == 1 && ll >= 3 && !memcmp(lp, "\xEF\xBB\xBF", 3)) { lp += 3; ll -= 3; }
        text_fields f;
        int r = text_lex_line(lp, ll, &f, ts->name, ts->line, err);
        if (r < 0) { rc = -1; break; }
        if (r > 0 && !apply(ts, &f, ts->line)) { rc = 0; break; }
        at = (size_t)(nl - data) + 1;
    }
    vec_free(buf);
    if (rc <= 0) { ts->failed = 1; return rc; }
    if (base + n > ts->consumed) ts->consumed = base + n;
    /* every transaction but the last of each session is complete; their
     * writes leave the open set one by one, or, when they are most of it,
     * the set is made again of the rest (a removal walks a run: a cache
     * miss each once a big feed made the set big) */
    size_t leaving = 0;
    vec_foreach(uint32_t, sp, ts->touched) {
        const ts_sess *s = &ts->sess.data[*sp];
        for (size_t i = 0; i + 1 < s->open.len; i++) leaving += s->open.data[i].num_w;
    }
    int rebuild = leaving > ts->open_len - leaving + ts->sess.len;
    vec_foreach(uint32_t, sp, ts->touched) {
        ts_sess *s = &ts->sess.data[*sp];
        for (size_t i = 0; i + 1 < s->open.len; i++) complete(ts, s, &s->open.data[i], !rebuild);
        if (s->open.len > 1) {
            s->open.data[0] = vec_last(s->open);
            s->open.len = 1;
        }
    }
    order_done(ts);
    if (rebuild) {
        size_t left = ts->open_len - leaving, cap = 1024;
        while (2 * (left + 1) > cap) cap *= 2;
        if (cap == ts->open_cap) memset(ts->open_w, 0, cap * sizeof *ts->open_w);
        else {
            free(ts->open_w);
            ts->open_w = xcalloc(cap, sizeof *ts->open_w);
            ts->open_cap = cap;
        }
        ts->open_len = 0;
        vec_foreach(const ts_sess, s, ts->sess)
            vec_foreach(const ts_open, x, s->open)
                for (uint32_t i = 0; i < x->num_ops; i++)
                    if (x->ops[i].kind == OP_WRITE) open_add(ts, write_hash(x->ops[i].key, x->ops[i].value));
    }
    return 1;
}

uint32_t text_stream_done_ops(const text_stream *ts, int64_t ext) {
    uint32_t t = u64map_get(&ts->txn_ids, (uint64_t)ext);
    return t != UINT32_MAX && (ts->tag.data[t] & TS_DONE) ? ts->tag.data[t] & ~TS_DONE : UINT32_MAX;
}

int text_stream_finish(text_stream *ts) {
    release_done(ts);
    if (ts->failed) return 0;
    vec_foreach(ts_sess, s, ts->sess) {
        for (size_t i = 0; i < s->open.len; i++) complete(ts, s, &s->open.data[i], 0);
        s->open.len = 0;
    }
    free(ts->open_w);                             /* all handed out */
    ts->open_w = NULL;
    ts->open_cap = ts->open_len = 0;
    ts->failed = 1;                               /* nothing may follow the end */
    return 1;
}
