/* list_repeat.c — values appended more than once to a list key: each
 * key's segmentations, and a history under one choice of them (contract
 * in list_repeat.h; doc/checker.md, "Repeated appends").
 *
 * Per key with a repeated append: its list reads with their external
 * prefixes, the longest committed one L, the boundaries (every committed
 * read's prefix length that agrees with L, and |L|), the writers (a
 * non-aborted transaction's successful appends to the key: its word), and
 * for each writer the earliest position its block may start (after every
 * prefix it read itself) and, with session order, the position its block
 * must end after (every prefix a committed reader earlier in its session
 * read).  A depth-first walk over L lists the segmentations in order of
 * their writers' transaction index (the earliest transaction first: the
 * first choice is the one a history in real-time order most likely
 * shows), up to LIST_SEG_CAP of them or LIST_SEG_STEPS steps a key. */
#include "frontend/history/list_repeat.h"
#include "frontend/history/repeat_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

#define LIST_SEG_CAP 64
#define LIST_SEG_STEPS 200000u

typedef struct lread { uint32_t op, ext; uint8_t committed, compat, own_ok; } lread;

typedef struct lkey {
    uint32_t key;
    uint32_t lop;                /* the read showing L (HISTORY_NONE: no committed read) */
    uint32_t len;                /* |L| */
    uint32_t nseg;               /* segmentations listed */
    size_t seg_off;              /* their position -> append op arrays, len each, in pos_ops */
    size_t read_off, nreads;     /* its reads in reads */
    uint32_t common;             /* positions all its segmentations agree on (0 when some are not listed) */
    uint8_t cut;                 /* its segmentations were not all listed (the cap or the step limit) */
} lkey;

struct list_choice {
    uint32_t nkeys;
    lkey *keys;
    uint32_t *key_index;         /* per key of the history: index in keys, or HISTORY_NONE */
    vec_u32 pos_ops;
    VEC(lread) reads;
    uint32_t nchoice, *choice;   /* indices of the keys with several segmentations */
    int truncated;
    uint32_t num_reads;
    uint32_t max_steps;          /* the step limit of walk, per key */
};

int history_has_repeated_appends(const history *h) {
    for (uint32_t i = 0; i < h->num_repeated; i++)
        if (history_op_kind(h, h->rep_ops[i]) == OP_APPEND) return 1;
    return 0;
}

/* External prefix length of list read r: the list without the reader's own
 * appends so far (when it ends with them: *own_ok). */
static uint32_t ext_of(const history *h, uint32_t r, int *own_ok) {
    uint32_t n, t = history_op_txn(h, r), k = h->op_key[r], m = 0;
    const int64_t *l = history_list(h, r, &n);
    for (uint32_t o = h->txns[t].first_op; o < r; o++)
        if (h->op_key[o] == k && history_op_kind(h, o) == OP_APPEND && !history_op_failed(h, o)) m++;
    *own_ok = m <= n;
    uint32_t i = n - (m <= n ? m : 0);
    for (uint32_t o = h->txns[t].first_op; o < r && *own_ok; o++)
        if (h->op_key[o] == k && history_op_kind(h, o) == OP_APPEND && !history_op_failed(h, o)) *own_ok = l[i++] == history_op_value(h, o);
    return *own_ok ? n - m : n;
}

/* ---- one key's segmentations ---------------------------------------------- */

typedef struct seg_ctx {
    const history *h;
    uint32_t key, len;
    const int64_t *L;
    uint32_t *widx;              /* per txn: writer index + 1 (0: not a writer of the key) */
    uint32_t nw, *wfirst, *wlen; /* per writer: its first append op (in key_writes) and count */
    const uint32_t *kw;          /* the key's writes */
    uint32_t *min_start, *lo_end;
    uint32_t *exact;             /* per writer: the position its block must start at (HISTORY_NONE: any) */
    uint32_t *req;               /* per pos: the writer whose block must start there (HISTORY_NONE: any) */
    uint8_t *used, *bound;       /* bound[pos]: a prefix ends at pos (0 .. len) */
    uint32_t *next_b;            /* per pos: the first boundary after it */
} seg_ctx;

static int fits(const seg_ctx *s, uint32_t pos, uint32_t w) {
    uint32_t e = pos + s->wlen[w];
    if (s->used[w] || e > s->len || s->next_b[pos] < e || pos < s->min_start[w] || e <= s->lo_end[w]) return 0;
    if (s->exact[w] != HISTORY_NONE && s->exact[w] != pos) return 0;
    if (s->req[pos] != HISTORY_NONE && s->req[pos] != w) return 0;
    for (uint32_t j = 0; j < s->wlen[w]; j++)
        if (history_op_value(s->h, s->kw[s->wfirst[w] + j]) != s->L[pos + j]) return 0;
    return 1;
}

static const history *sort_h;          /* qsort has no context: set under the caller's only thread */
static int cmp_line(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint32_t lx = sort_h->txns[history_op_txn(sort_h, x)].line, ly = sort_h->txns[history_op_txn(sort_h, y)].line;
    if (lx != ly) return lx < ly ? -1 : 1;
    return (x > y) - (x < y);
}

/* Depth-first over L; at each position the candidate appends in the
 * order of their transactions in the file (a history logged as it
 * completes lists its appends' writers roughly in commit order). */
static void walk(seg_ctx *s, list_choice *lc, lkey *K) {
    const history *h = s->h;
    uint32_t *pos_at = xmalloc(((size_t)s->len + 2) * sizeof *pos_at), *next_c = xmalloc(((size_t)s->len + 2) * sizeof *next_c);
    uint32_t *coff = xmalloc(((size_t)s->len + 2) * sizeof *coff), *cn = xmalloc(((size_t)s->len + 2) * sizeof *cn);
    uint32_t *chosen = xmalloc(((size_t)s->len + 1) * sizeof *chosen), depth = 0, steps = 0;
    vec_u32 cand;
    vec_init(cand);
    pos_at[0] = 0; next_c[0] = 0; cn[0] = UINT32_MAX;
    K->seg_off = lc->pos_ops.len;
    for (;;) {
        if (++steps > lc->max_steps) { lc->truncated = 1; K->cut = 1; break; }
        uint32_t pos = pos_at[depth];
        int advanced = 0;
        if (pos == s->len) {
            if (K->nseg == LIST_SEG_CAP) { lc->truncated = 1; K->cut = 1; K->common = 0; break; }
            for (uint32_t d = 0; d < depth; d++)
                for (uint32_t j = 0; j < s->wlen[chosen[d]]; j++) vec_push(lc->pos_ops, s->kw[s->wfirst[chosen[d]] + j]);
            K->nseg++;
        } else {
            if (cn[depth] == UINT32_MAX) {              /* first visit: this position's candidates, in file order */
                uint32_t one[1];
                const uint32_t *ws;
                uint32_t n = history_writers_of(h, s->key, s->L[pos], one, &ws);
                cand.len = depth ? coff[depth - 1] + cn[depth - 1] : 0;
                coff[depth] = (uint32_t)cand.len;
                for (uint32_t a = 0; a < n; a++) {
                    uint32_t w = s->widx[history_op_txn(h, ws[a])];
                    if (w && s->kw[s->wfirst[w - 1]] == ws[a]) vec_push(cand, ws[a]);
                }
                cn[depth] = (uint32_t)cand.len - coff[depth];
                sort_h = h;
                if (cn[depth] > 1) qsort(cand.data + coff[depth], cn[depth], sizeof *cand.data, cmp_line);
                sort_h = NULL;
            }
            while (next_c[depth] < cn[depth]) {
                uint32_t op = cand.data[coff[depth] + next_c[depth]++], w = s->widx[history_op_txn(h, op)] - 1;
                if (!fits(s, pos, w)) continue;
                s->used[w] = 1;
                chosen[depth] = w;
                pos_at[depth + 1] = pos + s->wlen[w];
                next_c[depth + 1] = 0;
                cn[depth + 1] = UINT32_MAX;
                depth++;
                advanced = 1;
                break;
            }
        }
        if (advanced) continue;
        if (!depth) break;
        depth--;
        s->used[chosen[depth]] = 0;
    }
    vec_free(cand);
    free(pos_at); free(next_c); free(coff); free(cn); free(chosen);
}

typedef struct so_ent { uint32_t session, pos, p, w; uint8_t writer; } so_ent;

static int cmp_so(const void *a, const void *b) {
    const so_ent *x = a, *y = b;
    if (x->session != y->session) return x->session < y->session ? -1 : 1;
    if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
    return (int)y->writer - (int)x->writer;          /* a writer before the reads of its own position */
}

/* With session order: lo_end[w] = the longest prefix a committed reader
 * earlier in w's session read. */
static void session_bounds(seg_ctx *s, const lread *rd, size_t nr) {
    const history *h = s->h;
    VEC(so_ent) e; vec_init(e);
    for (uint32_t w = 0; w < s->nw; w++) {
        const history_txn *tx = &h->txns[history_op_txn(h, s->kw[s->wfirst[w]])];
        so_ent x = { tx->session, tx->pos, 0, w, 1 };
        vec_push(e, x);
    }
    for (size_t i = 0; i < nr; i++) {
        if (!rd[i].committed || !rd[i].compat) continue;
        const history_txn *tx = &h->txns[history_op_txn(h, rd[i].op)];
        so_ent x = { tx->session, tx->pos, rd[i].ext, 0, 0 };
        vec_push(e, x);
    }
    if (e.len) qsort(e.data, e.len, sizeof *e.data, cmp_so);
    uint32_t best = 0;
    for (size_t i = 0; i < e.len; i++) {
        if (i && e.data[i].session != e.data[i - 1].session) best = 0;
        if (e.data[i].writer) s->lo_end[e.data[i].w] = best;
        else if (e.data[i].p > best) best = e.data[i].p;
    }
    vec_free(e);
}

static void key_segments(const history *h, list_choice *lc, lkey *K, uint32_t *widx, int session_order, int adjacent) {
    seg_ctx s = { .h = h, .key = K->key, .widx = widx };
    const lread *rd = lc->reads.data + K->read_off;
    K->lop = HISTORY_NONE;
    for (size_t i = 0; i < K->nreads; i++)
        if (rd[i].committed && (K->lop == HISTORY_NONE || rd[i].ext > K->len)) { K->lop = rd[i].op; K->len = rd[i].ext; }
    uint32_t dummy;
    s.L = K->lop == HISTORY_NONE ? NULL : history_list(h, K->lop, &dummy);
    s.len = K->len;
    for (size_t i = 0; i < K->nreads; i++) {       /* agrees with L */
        lread *r = &lc->reads.data[K->read_off + i];
        uint32_t n;
        const int64_t *l = history_list(h, r->op, &n);
        r->compat = r->ext <= s.len && (!r->ext || !memcmp(l, s.L, r->ext * sizeof *l));
    }
    s.kw = h->key_writes + h->key_write_start[K->key];
    uint32_t nkw = h->key_write_start[K->key + 1] - h->key_write_start[K->key];
    s.wfirst = xmalloc((nkw + 1) * sizeof *s.wfirst);
    s.wlen = xmalloc((nkw + 1) * sizeof *s.wlen);
    for (uint32_t j = 0; j < nkw; j++) {
        uint32_t t = history_op_txn(h, s.kw[j]);
        if (t == 0 || h->txns[t].status == TXN_ABORTED || history_op_kind(h, s.kw[j]) != OP_APPEND) continue;
        if (!widx[t]) { s.wfirst[s.nw] = j; s.wlen[s.nw] = 0; widx[t] = ++s.nw; }
        s.wlen[widx[t] - 1]++;
    }
    s.min_start = xcalloc(s.nw + 1, sizeof *s.min_start);
    s.lo_end = xcalloc(s.nw + 1, sizeof *s.lo_end);
    s.used = xcalloc(s.nw + 1, 1);
    s.exact = xmalloc((s.nw + 1) * sizeof *s.exact);
    memset(s.exact, 0xff, (s.nw + 1) * sizeof *s.exact);
    s.req = xmalloc(((size_t)s.len + 1) * sizeof *s.req);
    memset(s.req, 0xff, ((size_t)s.len + 1) * sizeof *s.req);
    for (size_t i = 0; i < K->nreads; i++) {
        uint32_t w = widx[history_op_txn(h, rd[i].op)];
        if (!w) continue;
        if (rd[i].ext > s.min_start[w - 1]) s.min_start[w - 1] = rd[i].ext;
        if (!adjacent || !rd[i].compat) continue;
        /* SI and SER shapes: a writer's version comes right after the one it
         * read (checker.md, "What the reads say"); a committed writer's read
         * of a shorter list than L puts its block there */
        if (s.exact[w - 1] == HISTORY_NONE) s.exact[w - 1] = rd[i].ext;
        else if (s.exact[w - 1] != rd[i].ext) s.exact[w - 1] = s.len + 1;     /* two snapshots: nowhere */
    }
    for (uint32_t w = 0; adjacent && w < s.nw; w++) {
        uint32_t p = s.exact[w];
        if (p >= s.len || h->txns[history_op_txn(h, s.kw[s.wfirst[w]])].status != TXN_COMMITTED) continue;
        if (s.req[p] != HISTORY_NONE && s.req[p] != w) s.req[p] = s.nw;          /* two writers: none fits */
        else s.req[p] = w;
    }
    if (session_order) session_bounds(&s, rd, K->nreads);
    s.bound = xcalloc((size_t)s.len + 1, 1);
    s.next_b = xmalloc(((size_t)s.len + 1) * sizeof *s.next_b);
    s.bound[s.len] = 1;
    for (size_t i = 0; i < K->nreads; i++)
        if (rd[i].committed && rd[i].compat) s.bound[rd[i].ext] = 1;
    uint32_t nb = s.len;
    for (uint32_t p = s.len + 1; p-- > 0;) { s.next_b[p] = nb; if (s.bound[p]) nb = p; }
    int was = lc->truncated;
    lc->truncated = 0;
    if (s.len) walk(&s, lc, K);
    else K->nseg = 1;
    K->common = 0;
    if (!lc->truncated && K->nseg > 1) {
        const uint32_t *a = lc->pos_ops.data + K->seg_off;
        for (uint32_t c = 0; c < K->len; c++, K->common = c) {
            int same = 1;
            for (uint32_t j = 1; j < K->nseg && same; j++) same = a[(size_t)j * K->len + c] == a[c];
            if (!same) break;
        }
    }
    lc->truncated |= was;                               /* no committed read shows an append: nothing to choose */
    for (uint32_t j = 0; j < nkw; j++) widx[history_op_txn(h, s.kw[j])] = 0;
    free(s.wfirst); free(s.wlen); free(s.min_start); free(s.lo_end); free(s.used); free(s.bound); free(s.next_b);
    free(s.exact); free(s.req);
}

list_choice *list_choice_build(const history *h, int session_order, int adjacent, uint32_t max_steps) {
    if (!history_has_repeated_appends(h)) return NULL;
    list_choice *lc = xcalloc(1, sizeof *lc);
    lc->max_steps = max_steps ? max_steps : LIST_SEG_STEPS;
    lc->key_index = xmalloc((h->num_keys ? h->num_keys : 1) * sizeof *lc->key_index);
    memset(lc->key_index, 0xff, (h->num_keys ? h->num_keys : 1) * sizeof *lc->key_index);
    for (uint32_t i = 0; i < h->num_repeated; i++) {
        uint32_t k = h->op_key[h->rep_ops[i]];
        if (history_op_kind(h, h->rep_ops[i]) == OP_APPEND && lc->key_index[k] == HISTORY_NONE) lc->key_index[k] = lc->nkeys++;
    }
    lc->keys = xcalloc(lc->nkeys, sizeof *lc->keys);
    for (uint32_t k = 0; k < h->num_keys; k++)
        if (lc->key_index[k] != HISTORY_NONE) lc->keys[lc->key_index[k]].key = k;
    vec_init(lc->pos_ops); vec_init(lc->reads);
    VEC(lread) *per = xcalloc(lc->nkeys, sizeof *per);
    for (uint32_t op = 0; op < h->num_ops; op++) {
        uint32_t ki = lc->key_index[h->op_key[op]];
        if (ki == HISTORY_NONE || history_op_kind(h, op) != OP_LIST_READ || history_op_failed(h, op)) continue;
        uint8_t st = h->txns[history_op_txn(h, op)].status;
        if (st == TXN_ABORTED) continue;
        int own_ok;
        lread r = { op, ext_of(h, op, &own_ok), st == TXN_COMMITTED, 0, (uint8_t)own_ok };
        vec_push(per[ki], r);
    }
    uint32_t *widx = xcalloc(h->num_txns, sizeof *widx);
    for (uint32_t i = 0; i < lc->nkeys; i++) {
        lkey *K = &lc->keys[i];
        K->read_off = lc->reads.len;
        K->nreads = per[i].len;
        for (size_t j = 0; j < per[i].len; j++) vec_push(lc->reads, per[i].data[j]);
        vec_free(per[i]);
        key_segments(h, lc, K, widx, session_order, adjacent);
    }
    free(per); free(widx);
    lc->choice = xmalloc((lc->nkeys + 1) * sizeof *lc->choice);
    for (uint32_t i = 0; i < lc->nkeys; i++) {
        if (lc->keys[i].nseg < 2) continue;
        lc->choice[lc->nchoice++] = i;
        const lread *rd = lc->reads.data + lc->keys[i].read_off;
        for (size_t j = 0; j < lc->keys[i].nreads; j++) {
            uint32_t n, rep = 0;
            const int64_t *l = history_list(h, rd[j].op, &n);
            for (uint32_t x = 0; x < rd[j].ext && !rep; x++) {
                uint32_t w = history_writer_of(h, lc->keys[i].key, l[x]);
                rep = w != HISTORY_NONE && (h->op_kind[w] & OP_REPEATED);
            }
            lc->num_reads += rd[j].committed && rd[j].compat && rep;
        }
    }
    return lc;
}

void list_choice_free(list_choice *lc) {
    if (!lc) return;
    free(lc->keys); free(lc->key_index); vec_free(lc->pos_ops); vec_free(lc->reads); free(lc->choice);
    free(lc);
}

uint32_t list_choice_num(const list_choice *lc) { return lc ? lc->nchoice : 0; }
uint32_t list_choice_options(const list_choice *lc, uint32_t i) { return lc->keys[lc->choice[i]].nseg; }
uint32_t list_choice_key(const list_choice *lc, uint32_t i) { return lc->keys[lc->choice[i]].key; }
int list_choice_truncated(const list_choice *lc) { return lc && lc->truncated; }
uint32_t list_choice_reads(const list_choice *lc) { return lc ? lc->num_reads : 0; }

/* ---- a history under one choice -------------------------------------------- */

/* Key K's segmentation under pick (position -> append op), NULL when none is listed. */
static const uint32_t *seg_of(const list_choice *lc, uint32_t ki, const uint32_t *pick) {
    const lkey *K = &lc->keys[ki];
    if (!K->nseg || !K->len) return NULL;
    uint32_t s = 0;
    if (K->nseg > 1 && pick)
        for (uint32_t i = 0; i < lc->nchoice; i++)
            if (lc->choice[i] == ki) s = pick[i];
    return lc->pos_ops.data + K->seg_off + (size_t)s * K->len;
}

/* The new elements of list read r of a key with repeated appends. */
static void map_list(const history *h, const history *c, const list_choice *lc, uint32_t r, const uint32_t *pick,
                     int64_t *out) {
    uint32_t n, k = h->op_key[r], t = history_op_txn(h, r);
    const lkey *K = &lc->keys[lc->key_index[k]];
    const int64_t *l = history_list(h, r, &n);
    int own_ok;
    uint32_t ext = ext_of(h, r, &own_ok), i = 0, Ln;
    const uint32_t *seg = seg_of(lc, lc->key_index[k], pick);
    const int64_t *L = K->lop != HISTORY_NONE ? history_list(h, K->lop, &Ln) : NULL;
    for (; seg && i < ext && i < K->len && l[i] == L[i]; i++) out[i] = history_op_value(c, seg[i]);
    if (own_ok) {
        uint32_t j = ext;
        for (uint32_t o = h->txns[t].first_op; o < r; o++)
            if (h->op_key[o] == k && history_op_kind(h, o) == OP_APPEND && !history_op_failed(h, o)) out[j++] = history_op_value(c, o);
    }
    for (uint32_t end = own_ok ? ext : n; i < end; i++) {     /* best effort: the first unused append of the value */
        uint32_t one[1], pickop = HISTORY_NONE;
        const uint32_t *ws;
        uint32_t m = history_writers_of(h, k, l[i], one, &ws);
        out[i] = l[i];
        for (uint32_t a = 0; a < m && pickop == HISTORY_NONE; a++) {
            int taken = history_op_txn(h, ws[a]) == t || h->txns[history_op_txn(h, ws[a])].status == TXN_ABORTED;
            for (uint32_t b = 0; b < i && !taken; b++) taken = out[b] == history_op_value(c, ws[a]);
            if (!taken) pickop = ws[a];
        }
        if (pickop == HISTORY_NONE && m) pickop = ws[0];
        if (pickop != HISTORY_NONE) out[i] = history_op_value(c, pickop);
    }
}

history *history_with_list_choice(const history *h, const list_choice *lc, const uint32_t *pick) {
    history *c = history_dup(h);
    size_t cap = c->strings_len;
    char vb[96], text[128];
    for (uint32_t op = 0; op < h->num_ops; op++) {
        c->op_kind[op] &= (uint8_t)~OP_REPEATED;
        if (!(h->op_kind[op] & OP_REPEATED) || history_op_kind(h, op) != OP_APPEND) continue;
        snprintf(text, sizeof text, "%s", history_value_str(h, history_op_value(h, op), vb, sizeof vb));   /* shown as written */
        c->op_val64[op] = history_add_name(c, &cap, text);
    }
    size_t total = 0, nl = 0;
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (history_op_kind(h, op) == OP_LIST_READ) { uint32_t n; history_list(h, op, &n); total += n; nl++; }
    history_list_ref *refs = xmalloc((nl ? nl : 1) * sizeof *refs);
    int64_t *pool = xmalloc((total ? total : 1) * sizeof *pool);
    size_t at = 0, li = 0;
    for (uint32_t op = 0; op < h->num_ops; op++) {
        if (history_op_kind(h, op) != OP_LIST_READ) continue;
        uint32_t n;
        const int64_t *l = history_list(h, op, &n);
        if (lc->key_index[h->op_key[op]] != HISTORY_NONE && h->txns[history_op_txn(h, op)].status != TXN_ABORTED &&
            !history_op_failed(h, op))
            map_list(h, c, lc, op, pick, pool + at);
        else memcpy(pool + at, l, n * sizeof *l);
        refs[li].off = at; refs[li].len = n;
        c->op_val64[op] = (int64_t)li++;
        at += n;
    }
    free(c->lists); free(c->list_pool);
    c->lists = refs; c->list_pool = pool; c->num_lists = (uint32_t)nl;
    ic_error e;
    ic_error_clear(&e);
    if (!history_index_writers(c, &e)) { history_free(c); return NULL; }
    return c;
}

int list_choice_describe(const history *h, const list_choice *lc, const uint32_t *pick, uint32_t i, char *buf,
                         size_t n) {
    const lkey *K = &lc->keys[lc->choice[i]];
    const lread *rd = lc->reads.data + K->read_off;
    const uint32_t *seg = seg_of(lc, lc->choice[i], pick);
    for (size_t j = 0; j < K->nreads && seg; j++) {
        if (!rd[j].committed || !rd[j].compat || !rd[j].ext) continue;
        uint32_t w = seg[rd[j].ext - 1];
        if (!(h->op_kind[w] & OP_REPEATED)) continue;
        char kb[64], vb[64], lb[160];
        uint32_t len;
        const int64_t *l = history_list(h, rd[j].op, &len);
        size_t at = 0;
        lb[at++] = '[';
        for (uint32_t x = 0; x < len && at + 24 < sizeof lb; x++)
            at += (size_t)snprintf(lb + at, sizeof lb - at, "%s%s", x ? " " : "", history_value_str(h, l[x], vb, sizeof vb));
        snprintf(lb + at, sizeof lb - at, "%s]", at + 24 >= sizeof lb ? " ..." : "");
        snprintf(buf, n, "txn %lld read key %s = %s with %s appended by txn %lld",
                 (long long)h->txns[history_op_txn(h, rd[j].op)].ext_id, history_key_str(h, K->key, kb, sizeof kb), lb,
                 history_value_str(h, history_op_value(h, w), vb, sizeof vb), (long long)h->txns[history_op_txn(h, w)].ext_id);
        return 1;
    }
    return 0;
}

history *history_without_choice_lists(const history *h, const list_choice *lc) {
    history *c = history_with_list_choice(h, lc, NULL);
    if (!c) return NULL;
    for (uint32_t i = 0; i < lc->nkeys; i++) {          /* a read every choice shows alike stays */
        const lkey *K = &lc->keys[i];
        if (K->nseg < 2 && !K->cut) continue;    /* a key cut short: its one listed order is no proof */
        for (size_t j = 0; j < K->nreads; j++) {
            const lread *r = &lc->reads.data[K->read_off + j];
            if (!r->compat || r->ext > K->common) c->op_kind[r->op] |= OP_FAILED;
        }
    }
    return c;
}

/* ---- what the report states (list_repeat.h) -------------------------------- */

uint32_t history_list_external_len(const history *h, uint32_t r) {
    int own_ok;
    return ext_of(h, r, &own_ok);
}

/* Is value v of key k appended more than once (its appender a choice when nothing settles it)? */
static int repeated_value(const history *h, uint32_t k, int64_t v) {
    uint32_t w = history_writer_of(h, k, v);
    return w != HISTORY_NONE && (h->op_kind[w] & OP_REPEATED) != 0;
}

/* The elements of list read r's external prefix whose appender is a choice, flagged in out (map_list's walk). */
static void mark_list(const history *h, const list_choice *lc, uint32_t r, uint8_t *out) {
    uint32_t n, k = h->op_key[r], Ln, i = 0;
    const lkey *K = &lc->keys[lc->key_index[k]];
    const int64_t *l = history_list(h, r, &n);
    int own_ok;
    uint32_t ext = ext_of(h, r, &own_ok);
    const int64_t *L = K->lop != HISTORY_NONE ? history_list(h, K->lop, &Ln) : NULL;
    const uint32_t *a = K->nseg && K->len && L ? lc->pos_ops.data + K->seg_off : NULL;
    for (; a && i < ext && i < K->len && l[i] == L[i]; i++) {
        int chosen = 0;
        if (K->cut) chosen = (h->op_kind[a[i]] & OP_REPEATED) != 0;    /* not every segmentation listed */
        else for (uint32_t s = 1; s < K->nseg && !chosen; s++) chosen = a[(size_t)s * K->len + i] != a[i];
        out[i] |= (uint8_t)chosen;
    }
    for (uint32_t end = own_ok ? ext : n; i < end; i++) out[i] |= (uint8_t)repeated_value(h, k, l[i]);   /* best effort */
}

uint8_t *list_choice_mark(const history *h, const list_choice *lc, uint8_t *chosen) {
    size_t total = 0, at = 0;
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (history_op_kind(h, op) == OP_LIST_READ) { uint32_t n; history_list(h, op, &n); total += n; }
    if (!chosen) chosen = xcalloc(total + 1, 1);
    for (uint32_t op = 0; lc && op < h->num_ops; op++) {
        if (history_op_kind(h, op) != OP_LIST_READ) continue;
        uint32_t n;
        history_list(h, op, &n);
        if (lc->key_index[h->op_key[op]] != HISTORY_NONE && h->txns[history_op_txn(h, op)].status != TXN_ABORTED &&
            !history_op_failed(h, op))
            mark_list(h, lc, op, chosen + at);
        at += n;
    }
    return chosen;
}

void history_set_list_assumed(const history *h, uint8_t *chosen) {
    history *m = (history *)h;                   /* a cache beside h, like history_resolved's */
    history_free(m->resolved);
    m->resolved = NULL;
    size_t total = 0, any = 0;
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (history_op_kind(h, op) == OP_LIST_READ) { uint32_t n; history_list(h, op, &n); total += n; }
    for (size_t i = 0; chosen && i < total && !any; i++) any = chosen[i];
    if (!any) { free(chosen); return; }
    history *c = history_dup(h);
    size_t nl = 0, at = 0, li = 0;
    for (uint32_t op = 0; op < h->num_ops; op++) nl += history_op_kind(h, op) == OP_LIST_READ;
    history_list_ref *refs = xmalloc((nl ? nl : 1) * sizeof *refs);
    int64_t *pool = xmalloc((total ? total : 1) * sizeof *pool);
    vec_u32 amb;
    vec_init(amb);
    for (uint32_t op = 0; op < h->num_ops; op++) {
        if (history_op_kind(h, op) != OP_LIST_READ) continue;
        uint32_t n, marked = 0;
        const int64_t *l = history_list(h, op, &n);
        for (uint32_t i = 0; i < n; i++) {
            pool[at + i] = chosen[at + i] ? VALUE_INIT : l[i];
            marked |= chosen[at + i];
        }
        if (marked) { c->op_kind[op] |= OP_AMBIGUOUS; vec_push(amb, op); }
        refs[li].off = at; refs[li].len = n;
        c->op_val64[op] = (int64_t)li++;
        at += n;
    }
    free(c->lists); free(c->list_pool);
    c->lists = refs; c->list_pool = pool; c->num_lists = (uint32_t)nl;
    c->num_amb = (uint32_t)amb.len;
    c->amb_read = amb.data;                      /* in op order */
    c->amb_start = xcalloc(amb.len + 1, sizeof *c->amb_start);
    m->resolved = c;
    free(chosen);
}
