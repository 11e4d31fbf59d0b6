/* frontend/online/elle_stream.c — Elle EDN / JSON lines read in increments
 * (contract in elle_stream.h). */
#include "frontend/online/elle_stream.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/formats/parse.h"
#include "frontend/history/load_report.h"

#define ES_MAX_WAIT ((size_t)4 << 20)   /* a chunk that does not parse waits up to this size */

/* Values written to a key by the transactions handed out lie in
 * [lo, hi]: a value outside needs no question (as text_stream.c). */
typedef struct es_range { int64_t lo, hi; } es_range;

void elle_stream_init(elle_stream *es, const char *name, history_format fmt) {
    memset(es, 0, sizeof *es);
    es->name = xmalloc(strlen(name) + 1);
    strcpy(es->name, name);
    es->fmt = fmt;
    es->wrapped = -1;
    u64map_init(&es->keys);
    u64map_init(&es->txn_ids);
}

void elle_stream_free(elle_stream *es) {
    free(es->name);
    u64map_free(&es->keys);
    u64map_free(&es->txn_ids);
    vec_free(es->key_ext);
    vec_free(es->done);
    vec_free(es->done_ops);
    vec_free(es->buf);
    free(es->ranges);
    memset(es, 0, sizeof *es);
}

static int refuse(elle_stream *es) {
    es->failed = 1;
    vec_clear(es->done);
    vec_clear(es->done_ops);
    return 0;
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ','; }

/* The first byte of c[0..n) that is not blank or in an EDN comment (n: none). */
static size_t first_form(const char *c, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (blank(c[i])) i++;
        else if (c[i] == ';') while (i < n && c[i] != '\n') i++;
        else break;
    }
    return i;
}

/* Whether c[0..n) holds nothing but the vector's closing bracket (blanks
 * and EDN comments around it): the vector closed after the last chunk, with
 * no transaction since (the batch reader refuses such a chunk as an empty
 * history, so parse_chunk cannot see it). */
static int only_close(const char *c, size_t n) {
    size_t i = first_form(c, n);
    return i < n && c[i] == ']' && i + 1 + first_form(c + i + 1, n - i - 1) == n;
}

/* Where the vector's closing bracket may be in the chunk c[0..n) (whole
 * lines): alone on the last line holding a form (blanks and an EDN comment
 * around it: "] ; end", comment lines after it), else the last byte but
 * blanks when it is a ']' ("{...}]"); n if neither.  (Blanked, the chunk
 * parses only if that bracket closes none of the chunk's: then it closes
 * the vector, the chunk starting between two of its forms.) */
static size_t close_at(const char *c, size_t n) {
    for (size_t end = n; end > 0;) {
        size_t start = end - 1;                          /* the line c[start..end) */
        while (start > 0 && c[start - 1] != '\n') start--;
        size_t f = first_form(c + start, end - start);
        if (f < end - start) {                           /* the last line holding a form */
            if (only_close(c + start, end - start)) return start + f;
            break;
        }
        end = start;
    }
    size_t e = n;
    while (e > 0 && blank(c[e - 1])) e--;
    return e && c[e - 1] == ']' ? e - 1 : n;
}

/* How many times the chunk names an :index ("index" in JSON). */
static uint64_t count_index(const elle_stream *es, const char *c, size_t n) {
    const char *pat = es->fmt == FORMAT_JSON ? "\"index\"" : ":index";
    size_t k = strlen(pat);
    uint64_t count = 0;
    for (const char *p = c; (p = memchr(p, pat[0], (size_t)(c + n - p))) != NULL; p++)
        if ((size_t)(c + n - p) >= k && !memcmp(p, pat, k)) count++;
    return count;
}

/* The chunk c[0..n) parsed: NULL while it does not (yet) read; rep filled. */
static history *parse_chunk(elle_stream *es, char *c, size_t n, load_report *rep) {
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem_ex(c, n, es->fmt, es->name, NULL, rep, &err);
    if (h || es->wrapped != 1) return h;
    size_t e = close_at(c, n);                           /* the vector's closing bracket, at its end? */
    if (e == n) return NULL;
    c[e] = ' ';
    load_report_free(rep);
    load_report_init(rep);
    ic_error_clear(&err);
    h = load_history_mem_ex(c, n, es->fmt, es->name, NULL, rep, &err);
    if (h) es->closed = 1;
    return h;
}

/* The key id of h's key k (a new id for a new key). */
static uint32_t key_id(elle_stream *es, int64_t ext) {
    uint32_t id = u64map_get(&es->keys, (uint64_t)ext);
    if (id != UINT32_MAX) return id;
    id = (uint32_t)es->key_ext.len;
    u64map_put(&es->keys, (uint64_t)ext, id);
    vec_push(es->key_ext, ext);
    es->ranges = xrealloc(es->ranges, es->key_ext.len * sizeof *es->ranges);
    es->ranges[id].lo = 1;
    es->ranges[id].hi = 0;                               /* empty */
    return id;
}

/* Whether a write of value to key id was handed out before: 0 no, else
 * (yes, or cannot say) refused. */
static int written_before(const elle_stream *es, uint32_t key, int64_t value) {
    const es_range *r = &es->ranges[key];
    if (r->lo > r->hi || value < r->lo || value > r->hi) return 0;
    return !es->written || es->written(es->written_ctx, key, value) != 0;
}

/* Everything in h reads the same in pieces as whole (elle_stream.h); the
 * key ids map to kmap. */
static int takes(elle_stream *es, const history *h, const load_report *rep, uint64_t indexes, uint32_t *kmap) {
    if (rep->named_values || rep->no_process || h->has_lists || indexes < rep->records) return 0;
    for (uint32_t k = 0; k < h->num_keys; k++) {
        if (h->key_name[k] != HISTORY_NONE) return 0;
        kmap[k] = key_id(es, h->key_ext[k]);
    }
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        if (u64map_get(&es->txn_ids, (uint64_t)x->ext_id) != UINT32_MAX) return 0;
        if (x->status != TXN_COMMITTED && !x->num_ops) return 0;
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            op_kind kind = history_op_kind(h, op);
            if (kind != OP_READ && kind != OP_WRITE) return 0;
            if (kind == OP_WRITE && written_before(es, kmap[h->op_key[op]], history_op_value(h, op))) return 0;
        }
    }
    return 1;
}

/* h's transactions into es->done, in session order per session. */
static void hand_out(elle_stream *es, const history *h, const uint32_t *kmap) {
    for (uint32_t t = 1; t < h->num_txns; t++) es->done_ops.len += h->txns[t].num_ops;
    vec_reserve(es->done_ops, es->done_ops.len);
    es->done_ops.len = 0;
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        const history_session *hs = &h->sessions[s];
        for (uint32_t t = hs->first_txn; t < hs->first_txn + hs->num_txns; t++) {
            const history_txn *x = &h->txns[t];
            incr_txn it = { x->ext_id, hs->ext_id, x->status, NULL, x->num_ops };
            size_t at = es->done_ops.len;
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                uint32_t key = kmap[h->op_key[op]];
                incr_op o = { (uint8_t)history_op_kind(h, op), key, history_op_value(h, op),
                              (uint32_t)es->line + history_op_line(h, op) };
                vec_push(es->done_ops, o);
                if (o.kind == OP_WRITE) {
                    es_range *r = &es->ranges[key];
                    if (r->lo > r->hi) r->lo = r->hi = o.value;
                    else if (o.value < r->lo) r->lo = o.value;
                    else if (o.value > r->hi) r->hi = o.value;
                }
            }
            it.ops = es->done_ops.data + at;         /* (no reallocation: reserved above) */
            vec_push(es->done, it);
            u64map_put(&es->txn_ids, (uint64_t)x->ext_id, 1);
            es->completed++;
        }
    }
}

/* The chunk c[0..len) parsed: its lines counted, its bytes consumed. */
static int consume(elle_stream *es, const char *c, size_t len) {
    for (size_t i = 0; i < len; i++) es->line += c[i] == '\n';
    es->consumed += len;
    return 1;
}

int elle_stream_feed(elle_stream *es, const char *data, size_t base, size_t n) {
    vec_clear(es->done);
    vec_clear(es->done_ops);
    if (es->failed) return 0;
    size_t from = es->consumed - base, m = n;
    while (m > from && data[m - 1] != '\n') m--;
    if (m <= from) return 1;                             /* no new complete line */
    size_t len = m - from;
    vec_clear(es->buf);
    vec_reserve(es->buf, len + 1);
    memcpy(es->buf.data, data + from, len);
    es->buf.len = len;
    char *c = es->buf.data;
    if (es->wrapped < 0) {                               /* how the history starts */
        size_t i = first_form(c, len);
        if (i == len) return 1;                          /* nothing but blanks yet: wait */
        if (c[i] == '[' || c[i] == '(') {
            if (es->fmt == FORMAT_JSON || c[i] == '(') return refuse(es);   /* (a JSON array's commas) */
            es->wrapped = 1;
            es->open_at = es->consumed + i;
        } else es->wrapped = 0;
    }
    if (es->wrapped == 1 && es->open_at >= es->consumed && es->open_at < es->consumed + len)
        c[es->open_at - es->consumed] = ' ';             /* read without the vector's brackets */
    if (es->wrapped == 1 && only_close(c, len)) {        /* "]" on a line of its own, after the last chunk */
        es->closed = 1;
        return consume(es, c, len);
    }
    load_report rep;
    load_report_init(&rep);
    history *h = parse_chunk(es, c, len, &rep);
    if (!h) {                                            /* a map cut between lines, or an error: wait */
        load_report_free(&rep);
        return len >= ES_MAX_WAIT ? refuse(es) : 1;
    }
    uint32_t *kmap = xmalloc(((size_t)h->num_keys + 1) * sizeof *kmap);
    int ok = takes(es, h, &rep, count_index(es, c, len), kmap);
    if (ok) hand_out(es, h, kmap);
    free(kmap);
    history_free(h);
    load_report_free(&rep);
    if (!ok) return refuse(es);
    return consume(es, c, len);
}
