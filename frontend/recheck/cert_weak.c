/* cert_weak.c — a commit order checked against rc, ra or cc by definition
 * (certificate.h, cert_weak_verify).  Everything is recomputed from the raw
 * operations: which write each value comes from (a hash table of its own),
 * which writes their transaction overwrote, the participants, each read's
 * source.  Then, in this order: the commit order is a permutation of the
 * participants with INIT first; sessions follow it; every read is valid
 * and its source precedes it; a list read's prefix shows exactly the
 * writers of its key before its source; and no writer the level makes
 * visible to a reader comes after the version it read.  A read of a
 * repeated value (several writes of it to its key) reads from the writer
 * its certificate's read line names (cert_weak_verify_reads); a list read
 * holding a value appended twice is matched against its key's writers in
 * commit order (list_prefix_dup). */
#include "frontend/recheck/certificate.h"
#include "frontend/history/levels.h"
#include "frontend/history/predicate.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

typedef struct cw_slot { uint32_t a; int64_t b; uint32_t val; } cw_slot;
typedef struct cw_table { cw_slot *s; uint64_t mask; } cw_table;

typedef struct cw {
    const history *h;
    int level;
    cw_table writer;             /* (key, value) -> write op */
    cw_table writes;             /* (txn, key) -> its last write op */
    cw_table dup;                /* (key, value) -> 1: several ops wrote it (a repeated value) */
    const certificate *cert;     /* its view lines (may be NULL) */
    uint32_t *pnum;              /* cert_pred_numbers */
    const uint32_t *rf;          /* read lines (reader, key, writer), sorted by (reader, key) */
    size_t nrf;                  /* their count */
    uint8_t *dead;               /* per op: a write its transaction overwrote */
    uint32_t *next_app;          /* per append op: the txn's next append of the key, or NONE */
    uint8_t *first_app;          /* per append op: its txn's first append of the key */
    uint8_t *part;
    uint32_t *pos;               /* per txn: place in the order, NONE if absent */
    uint32_t *ext_start, *ext_op, *ext_src;   /* per txn: its external reads and their sources */
    ic_error *err;
} cw;

static void reject(cw *c, const char *fmt, ...) {
    if (c->err->set) return;
    c->err->set = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
    va_end(ap);
}

static uint64_t mix(uint32_t a, int64_t b) {
    uint64_t x = (uint64_t)b * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)a << 17 | (uint64_t)a >> 47);
    x ^= x >> 31; x *= 0xbf58476d1ce4e5b9ULL; x ^= x >> 29;
    return x;
}

static void table_init(cw_table *t, uint64_t n) {
    uint64_t cap = 16;
    while (cap < 2 * n + 2) cap <<= 1;
    t->s = xmalloc(cap * sizeof *t->s);
    for (uint64_t i = 0; i < cap; i++) t->s[i].val = NONE;
    t->mask = cap - 1;
}

static void table_put(cw_table *t, uint32_t a, int64_t b, uint32_t val) {
    uint64_t i = mix(a, b) & t->mask;
    while (t->s[i].val != NONE && !(t->s[i].a == a && t->s[i].b == b)) i = (i + 1) & t->mask;
    t->s[i].a = a; t->s[i].b = b; t->s[i].val = val;
}

static uint32_t table_get(const cw_table *t, uint32_t a, int64_t b) {
    uint64_t i = mix(a, b) & t->mask;
    while (t->s[i].val != NONE) {
        if (t->s[i].a == a && t->s[i].b == b) return t->s[i].val;
        i = (i + 1) & t->mask;
    }
    return NONE;
}

static int ok_op(const history *h, uint32_t op) { return !(h->op_kind[op] & OP_FAILED); }
static unsigned kind(const history *h, uint32_t op) { return h->op_kind[op] & OP_KIND_MASK; }
static int is_write(const history *h, uint32_t op) {
    return ok_op(h, op) && (kind(h, op) == OP_WRITE || kind(h, op) == OP_APPEND);
}

/* The writer table, overwritten writes, append chains. */
static void tables(cw *c) {
    const history *h = c->h;
    uint64_t nw = 0;
    for (uint32_t op = 0; op < h->num_ops; op++) nw += is_write(h, op);
    table_init(&c->writer, nw);
    table_init(&c->writes, nw);
    table_init(&c->dup, nw);
    c->dead = xcalloc(h->num_ops ? h->num_ops : 1, 1);
    c->first_app = xcalloc(h->num_ops ? h->num_ops : 1, 1);
    c->next_app = xmalloc((h->num_ops ? h->num_ops : 1) * sizeof *c->next_app);
    uint32_t *last = xmalloc((h->num_keys ? h->num_keys : 1) * sizeof *last);
    uint32_t *stamp = xcalloc(h->num_keys ? h->num_keys : 1, sizeof *stamp);
    for (uint32_t t = 0; t < h->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            c->next_app[op] = NONE;
            if (!is_write(h, op)) continue;
            uint32_t k = h->op_key[op];
            if (table_get(&c->writer, k, history_op_value(h, op)) != NONE) table_put(&c->dup, k, history_op_value(h, op), 1);
            else table_put(&c->writer, k, history_op_value(h, op), op);
            table_put(&c->writes, t, k, op);
            if (stamp[k] == t + 1) { c->dead[last[k]] = 1; c->next_app[last[k]] = op; }
            else c->first_app[op] = 1;
            stamp[k] = t + 1; last[k] = op;
        }
    }
    free(last); free(stamp);
}

/* The read line of t and key: its first triple's index (*m triples), or NONE. */
static size_t line_at(const cw *c, uint32_t t, uint32_t key, size_t *m) {
    size_t lo = 0, hi = c->nrf;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uint32_t *e = c->rf + 3 * mid;
        if (e[0] < t || (e[0] == t && e[1] < key)) lo = mid + 1; else hi = mid;
    }
    *m = 0;
    while (lo + *m < c->nrf && c->rf[3 * (lo + *m)] == t && c->rf[3 * (lo + *m) + 1] == key) (*m)++;
    return *m ? lo : NONE;
}

/* The writer a read line names for t's nth external read of key (one
 * writer: every read's), or NONE. */
static uint32_t line_of(const cw *c, uint32_t t, uint32_t key, uint32_t nth) {
    size_t m, at = line_at(c, t, key, &m);
    if (at == NONE || (m > 1 && nth >= m)) return NONE;
    return c->rf[3 * (at + (m > 1 ? nth : 0)) + 2];
}

/* An indeterminate transaction listed in the commit order that appended a
 * value appended twice to its key: no list element names it, so the
 * certificate's claim that it committed is taken (its reads and writes are
 * then checked as any participant's; issue 35). */
static int claimed_appender(const cw *c, uint32_t t, const uint32_t *order, uint32_t len) {
    const history *h = c->h;
    if (h->txns[t].status != TXN_INDETERMINATE) return 0;
    int dup = 0;
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops && !dup; op++)
        dup = is_write(h, op) && kind(h, op) == OP_APPEND && table_get(&c->dup, h->op_key[op], history_op_value(h, op)) != NONE;
    for (uint32_t i = 0; i < len && dup; i++)
        if (order[i] == t) return 1;
    return 0;
}

/* INIT, the committed transactions, and observed indeterminate ones (a
 * read of a repeated value observes the writer its read line names; a
 * repeated append's indeterminate appender is a participant when the
 * commit order lists it, claimed_appender). */
static void participants(cw *c, const uint32_t *order, uint32_t len) {
    const history *h = c->h;
    c->part = xcalloc(h->num_txns, 1);
    uint32_t *work = xmalloc(h->num_txns * sizeof *work), nw = 0;
    c->part[0] = 1;
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (h->txns[t].status == TXN_COMMITTED || claimed_appender(c, t, order, len)) { c->part[t] = 1; work[nw++] = t; }
    while (nw) {
        uint32_t t = work[--nw];
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            if (!ok_op(h, op) || (kind(h, op) != OP_READ && kind(h, op) != OP_LIST_READ)) continue;
            uint32_t n = 1;
            int64_t one = history_op_value(h, op);
            const int64_t *v = &one;
            if (kind(h, op) == OP_LIST_READ) v = history_list(h, op, &n);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t w = table_get(&c->writer, h->op_key[op], v[i]);
                if (w == NONE) continue;
                size_t m = 1, at = NONE;
                if (table_get(&c->dup, h->op_key[op], v[i]) != NONE && (at = line_at(c, t, h->op_key[op], &m)) == NONE) continue;
                for (size_t j = 0; j < m; j++) {       /* a unique value's writer, or every writer its read line names */
                    uint32_t u = at == NONE ? history_op_txn(h, w) : c->rf[3 * (at + j) + 2];
                    if (u < h->num_txns && !c->part[u] && h->txns[u].status == TXN_INDETERMINATE) { c->part[u] = 1; work[nw++] = u; }
                }
            }
        }
    }
    free(work);
}

static int check_order(cw *c, const uint32_t *order, uint32_t len) {
    const history *h = c->h;
    c->pos = xmalloc(h->num_txns * sizeof *c->pos);
    memset(c->pos, 0xff, h->num_txns * sizeof *c->pos);
    if (!len || order[0] != 0) { reject(c, "the commit order does not start with the initial state"); return 0; }
    uint32_t np = 0;
    for (uint32_t t = 0; t < h->num_txns; t++) np += c->part[t];
    for (uint32_t i = 0; i < len; i++) {
        uint32_t t = order[i];
        if (t >= h->num_txns || !c->part[t]) { reject(c, "commit order entry %" PRIu32 " is not a participant", i); return 0; }
        if (c->pos[t] != NONE) { reject(c, "txn %" PRId64 " is twice in the commit order", h->txns[t].ext_id); return 0; }
        c->pos[t] = i;
    }
    if (len != np) { reject(c, "the commit order lists %" PRIu32 " of the %" PRIu32 " participants", len, np); return 0; }
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = NONE;
        for (uint32_t t = h->sessions[s].first_txn; t < h->sessions[s].first_txn + h->sessions[s].num_txns; t++) {
            if (!c->part[t]) continue;
            if (prev != NONE && c->pos[prev] > c->pos[t]) {
                reject(c, "txn %" PRId64 " precedes txn %" PRId64 " in its session but not in the commit order",
                       h->txns[prev].ext_id, h->txns[t].ext_id);
                return 0;
            }
            prev = t;
        }
    }
    return 1;
}

/* The transaction whose final write of key holds value, checked as a
 * source for a read by t; NONE after a rejection. */
static uint32_t source_of(cw *c, uint32_t t, uint32_t read_op, uint32_t key, int64_t value, int final, uint32_t nth) {
    const history *h = c->h;
    char wb[128];
    uint32_t w = table_get(&c->writer, key, value);
    if (w != NONE && kind(h, read_op) == OP_READ && table_get(&c->dup, key, value) != NONE) {
        uint32_t n = line_of(c, t, key, nth);    /* a read line must name the writer, which installed the value */
        uint32_t last = n < h->num_txns ? table_get(&c->writes, n, key) : NONE;
        const char *why = n == NONE ? "a value several transactions wrote, and no 'read' line names which one it read"
                        : last == NONE || history_op_value(h, last) != value ? "a writer (named by its 'read' line) that did not install that value"
                        : n == t ? "its own later write" : !c->part[n] ? "an aborted transaction's write" : NULL;
        if (why) {
            size_t m, at = line_at(c, t, key, &m);
            reject(c, "the read at %s shows %s%s", history_op_where(h, read_op, wb, sizeof wb), why,
                   at != NONE && m > 1 && nth >= m ? " (its read line names fewer writers than the transaction's reads of the key)" : "");
            if (at != NONE && c->cert && c->cert->reads_from_line.len > at) c->err->line = c->cert->reads_from_line.data[at];
            return NONE;
        }
        return n;
    }
    uint32_t src;
    if (value == VALUE_INIT && kind(h, read_op) == OP_READ) src = 0;
    else {
        if (value == VALUE_INIT) w = NONE;
        const char *bad = w == NONE ? "a value nobody wrote" : history_op_txn(h, w) == t ? "its own later write"
                        : !c->part[history_op_txn(h, w)] ? "an aborted transaction's write" : final && c->dead[w] ? "an overwritten write" : NULL;
        if (bad) { reject(c, "the read at %s shows %s", history_op_where(h, read_op, wb, sizeof wb), bad); return NONE; }
        src = history_op_txn(h, w);
    }
    size_t m, at = kind(h, read_op) == OP_READ && c->nrf ? line_at(c, t, key, &m) : NONE;
    if (at != NONE && m > 1 && nth < m && c->rf[3 * (at + nth) + 2] != src) {   /* a line naming each read's writer */
        reject(c, "the read at %s shows a unique value, whose writer is not the one its read line names",
               history_op_where(h, read_op, wb, sizeof wb));
        if (c->cert && c->cert->reads_from_line.len > at) c->err->line = c->cert->reads_from_line.data[at];
        return NONE;
    }
    return src;
}

/* Per key: participant writers but INIT, in transaction order, with their
 * positions sorted for counting (kpos). */
typedef struct cw_keys { uint32_t *start, *txn, *kpos; } cw_keys;

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void key_writers(const cw *c, cw_keys *k) {
    const history *h = c->h;
    k->start = xcalloc((size_t)h->num_keys + 1, sizeof *k->start);
    uint32_t *stamp = xcalloc(h->num_keys ? h->num_keys : 1, sizeof *stamp);
    for (int pass = 0; pass < 2; pass++) {
        uint32_t *fill = pass ? xmalloc(((size_t)h->num_keys + 1) * sizeof *fill) : NULL;
        if (pass) { memcpy(fill, k->start, ((size_t)h->num_keys + 1) * sizeof *fill); memset(stamp, 0, (h->num_keys ? h->num_keys : 1) * sizeof *stamp); }
        for (uint32_t t = 1; t < h->num_txns; t++) {
            if (!c->part[t]) continue;
            for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
                uint32_t key = h->op_key[op];
                if (!is_write(h, op) || stamp[key] == t) continue;
                stamp[key] = t;
                if (pass) { k->txn[fill[key]] = t; k->kpos[fill[key]++] = c->pos[t]; }
                else k->start[key + 1]++;
            }
        }
        if (!pass) {
            for (uint32_t key = 0; key < h->num_keys; key++) k->start[key + 1] += k->start[key];
            k->txn = xmalloc(((size_t)k->start[h->num_keys] + 1) * sizeof *k->txn);
            k->kpos = xmalloc(((size_t)k->start[h->num_keys] + 1) * sizeof *k->kpos);
        }
        free(fill);
    }
    for (uint32_t key = 0; key < h->num_keys; key++)
        qsort(k->kpos + k->start[key], k->start[key + 1] - k->start[key], sizeof *k->kpos, cmp_u32);
    free(stamp);
}

/* Writers of key placed before position p. */
static uint32_t writers_before(const cw_keys *k, uint32_t key, uint32_t p) {
    uint32_t lo = k->start[key], hi = k->start[key + 1], a = lo;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->kpos[mid] < p) lo = mid + 1; else hi = mid;
    }
    return lo - a;
}

static const cw *sort_cw;        /* qsort has no context: set under the caller's only thread */
static int cmp_pos(const void *a, const void *b) {
    uint32_t x = sort_cw->pos[*(const uint32_t *)a], y = sort_cw->pos[*(const uint32_t *)b];
    return (x > y) - (x < y);
}

/* list_prefix for a list holding a value appended twice to its key (issue
 * 35): no element names its writer, so the prefix is matched against the
 * key's writers in commit order, whole appends each: it must be exactly the
 * first j of them, the reader not among them; the j-th is its source. */
static uint32_t list_prefix_dup(cw *c, const cw_keys *k, uint32_t t, uint32_t op, const int64_t *l, uint32_t m) {
    const history *h = c->h;
    uint32_t key = h->op_key[op], n = k->start[key + 1] - k->start[key], src = 0, i = 0;
    uint32_t *w = xmalloc((n ? n : 1) * sizeof *w);
    memcpy(w, k->txn + k->start[key], n * sizeof *w);
    sort_cw = c;
    qsort(w, n, sizeof *w, cmp_pos);
    sort_cw = NULL;
    char wb[128];
    for (uint32_t j = 0; i < m; j++) {
        const char *bad = j == n ? "shows more appends than its key's writers make" : w[j] == t ? "shows its own later appends" : NULL;
        for (uint32_t o = bad ? 0 : h->txns[w[j]].first_op; !bad && o < h->txns[w[j]].first_op + h->txns[w[j]].num_ops; o++)
            if (h->op_key[o] == key && is_write(h, o) && (i >= m || l[i++] != history_op_value(h, o)))
                bad = "is not the appends of its key's writers in commit order";
        if (bad) {
            reject(c, "the list read at %s %s", history_op_where(h, op, wb, sizeof wb), bad);
            free(w);
            return NONE;
        }
        src = w[j];
    }
    free(w);
    return src;
}

/* A list read's external prefix l[0 .. m): whole appends of writers in
 * commit order, exactly the writers placed before its source.  Its source. */
static uint32_t list_prefix(cw *c, const cw_keys *k, uint32_t t, uint32_t op, const int64_t *l, uint32_t m) {
    const history *h = c->h;
    uint32_t key = h->op_key[op], groups = 0, src = 0;
    char wb[128];
    for (uint32_t i = 0; i < m; i++)
        if (table_get(&c->dup, key, l[i]) != NONE) return list_prefix_dup(c, k, t, op, l, m);
    for (uint32_t i = 0; i < m;) {
        uint32_t w = table_get(&c->writer, key, l[i]);
        uint32_t u = source_of(c, t, op, key, l[i], 0, 0);
        if (u == NONE) return NONE;
        if (!c->first_app[w]) { reject(c, "the list read at %s shows part of a transaction's appends", history_op_where(h, op, wb, sizeof wb)); return NONE; }
        for (i++; c->next_app[w] != NONE; i++) {
            if (i >= m || table_get(&c->writer, key, l[i]) != c->next_app[w]) {
                reject(c, "the list read at %s shows part of a transaction's appends", history_op_where(h, op, wb, sizeof wb));
                return NONE;
            }
            w = c->next_app[w];
        }
        if (groups && c->pos[u] <= c->pos[src]) {
            reject(c, "the list read at %s shows appends in another order than the commit order", history_op_where(h, op, wb, sizeof wb));
            return NONE;
        }
        src = u; groups++;
    }
    if (src && writers_before(k, key, c->pos[src]) != groups - 1) {
        reject(c, "the list read at %s misses a writer the commit order places before its last one", history_op_where(h, op, wb, sizeof wb));
        return NONE;
    }
    return src;
}

/* A predicate read's view of a key it did not return: the version its
 * view line names (*v), checked by cert_view_value; a marker no write
 * installed needs a line.  1, or 0 after a rejection (at the line). */
static int view_value(cw *c, uint32_t op, int64_t *v) {
    const history *h = c->h;
    char wb[128];
    uint32_t line, w;
    const char *bad = NULL;
    int st = cert_view_value(h, c->cert, c->pnum, op, v, &w, &line, &bad);
    if (st == CV_NOLINE && table_get(&c->writer, h->op_key[op], *v) == NONE && *v != VALUE_INIT) {
        reject(c, "the read at %s: which version it saw is a choice (a predicate read's of a key it left out, or a read "
               "of nil), and no line of the certificate names it ('view' for a predicate read, 'read' for a read of nil)",
               history_op_where(h, op, wb, sizeof wb));
        return 0;
    }
    if (st != CV_BAD) return 1;
    reject(c, "the read at %s: %s", history_op_where(h, op, wb, sizeof wb), bad);
    c->err->line = line;
    return 0;
}

/* Participant t's reads: valid, their sources before t; its external reads recorded. */
static int reads_of(cw *c, const cw_keys *k, uint32_t t, uint32_t *own_w, int64_t *own_v, uint32_t *own_n, uint32_t *ext_n,
                    vec_u32 *ops, vec_u32 *srcs) {
    const history *h = c->h;
    char wb[128];
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        if (!ok_op(h, op)) continue;
        uint32_t key = h->op_key[op];
        if (own_w[key] != t + 1) { own_w[key] = t + 1; own_n[key] = 0; own_v[key] = VALUE_INIT; ext_n[key] = 0; }
        unsigned kd = kind(h, op);
        if (kd == OP_WRITE || kd == OP_APPEND) { own_n[key]++; own_v[key] = history_op_value(h, op); continue; }
        uint32_t src;
        if (kd == OP_READ) {
            if (own_n[key]) {
                if (history_op_value(h, op) != own_v[key]) { reject(c, "the read at %s does not show its own last write", history_op_where(h, op, wb, sizeof wb)); return 0; }
                continue;
            }
            int64_t v = history_op_value(h, op);
            if (!view_value(c, op, &v)) return 0;
            src = source_of(c, t, op, key, v, 1, ext_n[key]++);   /* its nth external read of the key */
        } else {
            uint32_t n, m = own_n[key];
            const int64_t *l = history_list(h, op, &n);
            /* the suffix must be the own appends so far: walk them backwards from the last */
            if (m > n) { reject(c, "the list read at %s misses its own appends", history_op_where(h, op, wb, sizeof wb)); return 0; }
            uint32_t i = n;
            for (uint32_t o = op; o-- > h->txns[t].first_op && i > n - m;)
                if (h->op_key[o] == key && is_write(h, o) && l[--i] != history_op_value(h, o)) {
                    reject(c, "the list read at %s does not end with its own appends", history_op_where(h, op, wb, sizeof wb));
                    return 0;
                }
            src = list_prefix(c, k, t, op, l, n - m);
        }
        if (src == NONE) return 0;
        if (src && c->pos[src] > c->pos[t]) { reject(c, "the read at %s reads from a later transaction in the commit order", history_op_where(h, op, wb, sizeof wb)); return 0; }
        vec_push(*ops, op);
        vec_push(*srcs, src);
    }
    return 1;
}

/* Transaction t's external register reads of key: before its own write. */
static size_t count_external(const history *h, uint32_t t, uint32_t key) {
    size_t n = 0;
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        if (h->op_key[op] != key || !ok_op(h, op)) continue;
        if (kind(h, op) != OP_READ) break;
        n++;
    }
    return n;
}

static int all_reads(cw *c, const cw_keys *k) {
    const history *h = c->h;
    char wb[128];
    size_t nk = h->num_keys ? h->num_keys : 1;
    uint32_t *own_w = xcalloc(nk, sizeof *own_w), *own_n = xcalloc(nk, sizeof *own_n), *ext_n = xcalloc(nk, sizeof *ext_n);
    int64_t *own_v = xcalloc(nk, sizeof *own_v);
    vec_u32 ops, srcs; vec_init(ops); vec_init(srcs);
    c->ext_start = xcalloc((size_t)h->num_txns + 1, sizeof *c->ext_start);
    int ok = 1;
    for (uint32_t t = 1; t < h->num_txns && ok; t++) {
        c->ext_start[t] = (uint32_t)ops.len;
        if (c->part[t]) ok = reads_of(c, k, t, own_w, own_v, own_n, ext_n, &ops, &srcs);
        c->ext_start[t + 1] = (uint32_t)ops.len;
    }
    for (size_t i = 0; ok && i < c->nrf;) {    /* a line of several writers: one per external read of the key */
        size_t m;
        uint32_t t = c->rf[3 * i], key = c->rf[3 * i + 1];
        line_at(c, t, key, &m);
        if (m > 1 && t < h->num_txns && c->part[t] && count_external(h, t, key) != m) {
            reject(c, "the read line of txn %" PRId64 " and key %s names %zu writers, not one per external read of the key",
                   h->txns[t].ext_id, history_key_str(h, key, wb, sizeof wb), m);
            if (c->cert && c->cert->reads_from_line.len > i) c->err->line = c->cert->reads_from_line.data[i];
            ok = 0;
        }
        i += m ? m : 1;
    }
    c->ext_op = ops.data; c->ext_src = srcs.data;
    free(own_w); free(own_n); free(own_v); free(ext_n);
    return ok;
}


static int late(cw *c, uint32_t t3, uint32_t i, uint32_t t2, const char *how) {
    const history *h = c->h;
    uint32_t t1 = c->ext_src[i], op = c->ext_op[i];
    char wb[128], kb[64], src[48];
    if (t2 == 0 || t2 == t1 || t2 == t3 || c->pos[t2] < c->pos[t1] || table_get(&c->writes, t2, h->op_key[op]) == NONE)
        return 1;
    if (t1) snprintf(src, sizeof src, "txn %" PRId64, h->txns[t1].ext_id);
    else snprintf(src, sizeof src, "the initial state");
    reject(c, "txn %" PRId64 " reads key %s at %s from %s although txn %" PRId64 ", %s, writes the key "
           "after it in the commit order", h->txns[t3].ext_id, history_key_str(h, h->op_key[op], kb, sizeof kb),
           history_op_where(h, op, wb, sizeof wb), src, h->txns[t2].ext_id, how);
    return 0;
}

/* Op's place in its transaction for rc's "earlier": an op lowered from a
 * predicate read stands at the read's place (pred_read.pos; its ops are
 * one read, none earlier than another), any other at its index. */
static uint32_t place(const history *h, uint32_t op) {
    uint32_t i = op - h->txns[history_op_txn(h, op)].first_op, tag = h->op_pred ? h->op_pred[op] : PRED_TAG_NONE;
    if (tag != PRED_TAG_NONE && h->preds && pred_tag_read(tag) < h->preds->reads.len) {
        uint32_t pos = h->preds->reads.data[pred_tag_read(tag)].pos;
        if (pos != PRED_POS_NONE && pos <= i) return 2 * pos;
    }
    return 2 * i + 1;
}

static int premises_rc_ra(cw *c) {
    const history *h = c->h;
    size_t nk = h->num_keys ? h->num_keys : 1;
    uint32_t *lw = xcalloc(nk, sizeof *lw), *lw_sess = xcalloc(nk, sizeof *lw_sess);
    int ok = 1;
    for (uint32_t s = 0; s < h->num_sessions && ok; s++)
        for (uint32_t t3 = h->sessions[s].first_txn; t3 < h->sessions[s].first_txn + h->sessions[s].num_txns && ok; t3++) {
            if (!c->part[t3]) continue;
            for (uint32_t i = c->ext_start[t3]; i < c->ext_start[t3 + 1] && ok; i++) {
                uint32_t x = h->op_key[c->ext_op[i]];
                if (c->level == LEVEL_RA && lw_sess[x] == s + 1) ok = late(c, t3, i, lw[x], "an earlier transaction of its session");
                int rc = c->level == LEVEL_RC;  /* rc: the reads before α (by place with predicate reads) */
                uint32_t pi = rc && h->op_pred ? place(h, c->ext_op[i]) : 0;
                uint32_t end = rc && !h->op_pred ? i : c->ext_start[t3 + 1];
                for (uint32_t j = c->ext_start[t3]; j < end && ok; j++) {
                    if (rc && (h->op_key[c->ext_op[j]] == x || (h->op_pred && place(h, c->ext_op[j]) >= pi))) continue;
                    ok = late(c, t3, i, c->ext_src[j], c->level == LEVEL_RC ? "which it read another key from before" : "which it read from");
                }
            }
            for (uint32_t op = h->txns[t3].first_op; op < h->txns[t3].first_op + h->txns[t3].num_ops; op++)
                if (is_write(h, op)) { lw[h->op_key[op]] = t3; lw_sess[h->op_key[op]] = s + 1; }
        }
    free(lw); free(lw_sess);
    return ok;
}

/* cc: vector clocks in commit order (the order contains SO and WR by now):
 * vc[t * ns + s] is the last transaction of session s that reaches t or is t.
 * Per read and per session writing its key, the first writer after the
 * source in the commit order must not reach the reader. */
static int premises_cc(cw *c, const cw_keys *k, const uint32_t *order, uint32_t len) {
    const history *h = c->h;
    uint32_t ns = h->num_sessions ? h->num_sessions : 1;
    uint32_t *vc = xcalloc((size_t)h->num_txns * ns, sizeof *vc);
    for (uint32_t i = 1; i < len; i++) {
        uint32_t t = order[i], *row = vc + (size_t)t * ns;
        for (uint32_t p = t; p-- > h->sessions[h->txns[t].session].first_txn;)
            if (c->part[p]) { memcpy(row, vc + (size_t)p * ns, ns * sizeof *row); break; }
        for (uint32_t j = c->ext_start[t]; j < c->ext_start[t + 1]; j++) {
            const uint32_t *o = vc + (size_t)c->ext_src[j] * ns;
            if (c->ext_src[j]) for (uint32_t s = 0; s < ns; s++) if (o[s] > row[s]) row[s] = o[s];
        }
        row[h->txns[t].session] = t;
    }
    int ok = 1;
    for (uint32_t t3 = 1; t3 < h->num_txns && ok; t3++) {
        if (!c->part[t3]) continue;
        const uint32_t *v3 = vc + (size_t)t3 * ns;
        for (uint32_t i = c->ext_start[t3]; i < c->ext_start[t3 + 1] && ok; i++) {
            uint32_t x = h->op_key[c->ext_op[i]], p1 = c->pos[c->ext_src[i]];
            for (uint32_t a = k->start[x]; a < k->start[x + 1] && ok;) {
                uint32_t s = h->txns[k->txn[a]].session, b = a;
                while (b < k->start[x + 1] && h->txns[k->txn[b]].session == s) b++;
                uint32_t lo = a, hi = b;             /* first of the session's writers after the source */
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (c->pos[k->txn[mid]] <= p1) lo = mid + 1; else hi = mid;
                }
                if (lo < b && k->txn[lo] != t3 && k->txn[lo] <= v3[s])
                    ok = late(c, t3, i, k->txn[lo], "which reaches it by session order and reads");
                a = b;
            }
        }
    }
    free(vc);
    return ok;
}

cert_status cert_weak_verify(const history *h, int level, const uint32_t *order, uint32_t len, ic_error *err) {
    return cert_weak_verify_reads(h, level, order, len, NULL, 0, err);
}

cert_status cert_weak_verify_reads(const history *h, int level, const uint32_t *order, uint32_t len,
                                   const uint32_t *reads, size_t nreads, ic_error *err) {
    certificate c;
    cert_init(&c);
    for (size_t i = 0; i < 3 * nreads; i++) vec_push(c.reads_from, reads[i]);
    cert_status st = cert_weak_verify_cert(h, level, order, len, &c, err);
    cert_free(&c);
    return st;
}

cert_status cert_weak_verify_cert(const history *h, int level, const uint32_t *order, uint32_t len,
                                  const certificate *cert, ic_error *err) {
    const uint32_t *reads = cert->reads_from.data;
    size_t nreads = cert->reads_from.len / 3;
    ic_error_clear(err);
    if (level != LEVEL_RC && level != LEVEL_RA && level != LEVEL_CC) {
        snprintf(err->msg, sizeof err->msg, "not a level certified by a commit order alone");
        err->set = 1;
        return CERT_MALFORMED;
    }
    cw c;
    memset(&c, 0, sizeof c);
    c.h = h; c.level = level; c.err = err; c.rf = reads; c.nrf = nreads;
    c.cert = cert; c.pnum = cert_pred_numbers(h);
    tables(&c);
    participants(&c, order, len);
    cw_keys k;
    memset(&k, 0, sizeof k);
    int ok = check_order(&c, order, len);
    if (ok) { key_writers(&c, &k); ok = all_reads(&c, &k); }
    if (ok) ok = level == LEVEL_CC ? premises_cc(&c, &k, order, len) : premises_rc_ra(&c);
    free(c.writer.s); free(c.writes.s); free(c.dup.s); free(c.dead); free(c.next_app); free(c.first_app);
    free(c.part); free(c.pos); free(c.ext_start); free(c.ext_op); free(c.ext_src); free(c.pnum);
    free(k.start); free(k.txn); free(k.kpos);
    return ok ? CERT_OK : CERT_REJECT;
}
