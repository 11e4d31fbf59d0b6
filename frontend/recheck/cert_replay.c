/* cert_replay.c — the certificate verifier's own reading of a history
 * under a version order, and the edges a commit order must respect
 * (cert_edges(), contract in certificate.h; doc/certificate.md).
 *
 * Independence.  The verifier must not trust the checker, so it derives
 * the meaning of every read from the raw operation arrays (op_kind,
 * op_key, op_value, op_txn, the transactions) and history_list() alone.
 * It calls none of the history model's interpretation helpers
 * (history_read_source, history_external_source, history_txn_external_read,
 * history_txn_final_write, history_writer_of, history_participants), nor
 * the axiom checks, nor anything of the polygraph, depgraph.h or
 * verify_model.c: it re-checks the pipeline, so it shares none of its
 * code.  (The builder, reports/cert_build.c, enumerates its edges here and
 * sorts them with depgraph.h; the verifier then checks what it built.)
 *
 * How it reads a history under a version order:
 *   - Version i of key k is its transaction's last write of k (registers),
 *     or all its appends to k in program order (lists); the list at
 *     version i is the appends of versions 1..i, concatenated.
 *   - A participant's ops on k are replayed in program order against one
 *     snapshot version s: a register read before an own write shows
 *     version s's value, after one the own write; a list read shows (list
 *     at s) ++ (own appends so far).  The first read fixes s; later reads
 *     must agree.  s gives WR v_s -> t and RW t -> v_{s+1}.  A list read's
 *     snapshot is the version whose list is as long as its external
 *     prefix (lists grow with each version), whose elements must match:
 *     a value appended twice needs no naming (issue 35). */
#include "frontend/recheck/certificate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/history/predicate.h"
#include "frontend/recheck/cert_internal.h"

static int op_done(const history *h, uint32_t op) { return !(h->op_kind[op] & OP_FAILED); }
static unsigned op_kd(const history *h, uint32_t op) { return h->op_kind[op] & OP_KIND_MASK; }
static int op_writes(const history *h, uint32_t op) {
    return op_done(h, op) && (op_kd(h, op) == OP_WRITE || op_kd(h, op) == OP_APPEND);
}

/* A participant's version of a key: its last write (and, for lists, its
 * appends el[el_off .. el_off + el_n) in program order). */
typedef struct wgroup { uint32_t key, txn, last_op; uint32_t el_off, el_n; } wgroup;
static int cmp_wgroup(const void *a, const void *b) {
    const wgroup *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->txn > y->txn) - (x->txn < y->txn);
}

/* (key, installed value or last element) -> global version index */
typedef struct vmark { uint32_t key; int64_t value; uint32_t g; } vmark;
static int cmp_vmark(const void *a, const void *b) {
    const vmark *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->value > y->value) - (x->value < y->value);
}

/* Transaction t's successful ops, grouped by key, in program order within
 * a key (insertion sort: transactions are short; qsort for long ones). */
typedef struct kop { uint32_t key, op; } kop;
typedef VEC(kop) kop_vec;
static int cmp_kop(const void *a, const void *b) {
    const kop *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->op > y->op) - (x->op < y->op);
}
static void txn_ops_by_key(const history *h, uint32_t t, kop_vec *tmp, vec_u32 *out) {
    vec_clear(*tmp);
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
        if (op_done(h, op) && !preds_is_rc_view_op(h, op)) { kop x = { h->op_key[op], op }; vec_push(*tmp, x); }
    if (tmp->len > 32) qsort(tmp->data, tmp->len, sizeof *tmp->data, cmp_kop);
    else
        for (size_t i = 1; i < tmp->len; i++) {
            kop x = tmp->data[i];
            size_t j = i;
            for (; j > 0 && cmp_kop(&tmp->data[j - 1], &x) > 0; j--) tmp->data[j] = tmp->data[j - 1];
            tmp->data[j] = x;
        }
    vec_clear(*out);
    for (size_t i = 0; i < tmp->len; i++) vec_push(*out, tmp->data[i].op);
}

typedef struct creader {
    const history *h;
    const certificate *c;    /* its reads_from: the writer of a repeated value's read */
    const version_order *vo;
    int64_t *mark;           /* per version g: installed value / last element; INIT: VALUE_INIT */
    uint32_t *mark_op;       /* per version g: its final write op (INIT: op k) */
    uint32_t *llen;          /* per version g: list length */
    uint32_t *kel;           /* per key: offset of its full list in el */
    vec_i64 el;              /* per key, the versions' appends in version order */
    VEC(vmark) marks;        /* per key (mstart), sorted by value within a key */
    uint32_t *mstart;        /* per key: its marks[mstart[k] .. mstart[k+1]) */
    uint32_t *pnum;          /* cert_pred_numbers: a predicate read's number in its transaction */
    uint32_t bad_line;       /* the certificate line a rejection is about (a view line), or 0 */
} creader;

static uint32_t find_mark(const creader *R, uint32_t key, int64_t value) {
    size_t lo = R->mstart[key], hi = R->mstart[key + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (R->marks.data[mid].value < value) lo = mid + 1; else hi = mid;
    }
    if (lo < R->mstart[key + 1] && R->marks.data[lo].value == value) return R->marks.data[lo].g;
    return UINT32_MAX;
}

/* The version of a list key (versions a .. b) whose list has p elements:
 * lists grow with every version, so at most one has; a list read names its
 * version by its length, which a value appended twice cannot make
 * ambiguous (issue 35), and the caller compares the elements.
 * UINT32_MAX when none has. */
static uint32_t version_of_length(const creader *R, uint32_t a, uint32_t b, uint32_t p) {
    uint32_t lo = a, hi = b;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (R->llen[mid] < p) lo = mid + 1; else hi = mid;
    }
    return lo < b && R->llen[lo] == p ? lo : UINT32_MAX;
}

/* Whether c's read line of t and k names one writer (or several equal ones). */
static int one_writer(const certificate *c, uint32_t t, uint32_t k) {
    size_t lo = 0, hi = c->reads_from.len / 3;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uint32_t *e = c->reads_from.data + 3 * mid;
        if (e[0] < t || (e[0] == t && e[1] < k)) lo = mid + 1; else hi = mid;
    }
    for (size_t i = lo + 1; i < c->reads_from.len / 3; i++) {
        const uint32_t *e = c->reads_from.data + 3 * i;
        if (e[0] != t || e[1] != k) break;
        if (e[2] != c->reads_from.data[3 * lo + 2]) return 0;
    }
    return 1;
}

/* A read of v by t on k: when several versions of k installed v (a
 * repeated value), the certificate must name the writer (reads_from),
 * and *x becomes its version; a named writer must have installed v.  1, or
 * 0 with *bad. */
static int named_writer(const creader *R, uint32_t t, uint32_t k, int64_t v, uint32_t *x, const char **bad) {
    uint32_t w = R->c ? cert_read_from(R->c, t, k) : HISTORY_NONE;
    if (w != HISTORY_NONE && !one_writer(R->c, t, k)) {
        *bad = "its read line names several writers, but at this level a transaction's reads of a key show one version";
        return 0;
    }
    size_t lo = R->mstart[k], hi = R->mstart[k + 1], n = 0;
    for (size_t i = lo; i < hi; i++) n += R->marks.data[i].value == v;    /* short: the key's versions */
    if (w == HISTORY_NONE) {
        if (n <= 1) return 1;
        *bad = "several transactions installed the value: the certificate must name which one it read (a 'read' line)";
        return 0;
    }
    for (uint32_t g = R->vo->start[k]; g < R->vo->start[k + 1]; g++)
        if (R->vo->txns.data[g] == w) {
            if (R->mark[g] != v) break;
            *x = g;
            return 1;
        }
    *bad = "the certificate names a writer that did not install the value it read";
    return 0;
}

/* Replay t's ops on key k (ops[0..n), program order) against the version
 * order.  1: consistent, *g the global index of its snapshot version
 * (UINT32_MAX: no read shows it) and *rop the read that showed it;
 * 0: *bad describes the inconsistent read, *rop is it. */
static int replay(creader *R, uint32_t t, uint32_t k, const uint32_t *ops, uint32_t n, uint32_t *g,
                  uint32_t *rop, const char **bad) {
    const history *h = R->h;
    uint32_t a = R->vo->start[k], b = R->vo->start[k + 1];
    int own_w = 0;
    int64_t own_v = 0;
    uint32_t nown = 0, first_app = 0;
    *g = UINT32_MAX; *rop = HISTORY_NONE;
    R->bad_line = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = ops[i];
        unsigned kd = op_kd(h, op);
        if (kd == OP_WRITE) { own_w = 1; own_v = history_op_value(h, op); continue; }
        if (kd == OP_APPEND) { if (!nown++) first_app = i; continue; }
        uint32_t x;
        if (kd == OP_READ) {
            int64_t v = history_op_value(h, op);
            if (own_w) {
                if (v != own_v) { R->bad_line = 0; *rop = op; *bad = "after its own write of the key it must see that write"; return 0; }
                continue;
            }
            uint32_t vw, vline;                  /* a predicate read's view of a key it left out: its view line */
            int vs = cert_view_value(h, R->c, R->pnum, op, &v, &vw, &vline, bad);
            R->bad_line = vline;                 /* this read's failures below are about its view line */
            if (vs == CV_BAD) { *rop = op; return 0; }
            if (vs == CV_NOLINE && find_mark(R, k, v) == UINT32_MAX) {
                *rop = op;
                *bad = "which version it saw is a choice (a predicate read's of a key it left out, or a read of nil), and no "
                       "line of the certificate names it ('view' for a predicate read, 'read' for a read of nil)";
                return 0;
            }
            x = *g != UINT32_MAX ? *g : find_mark(R, k, v);
            if (*g == UINT32_MAX && x != UINT32_MAX && !named_writer(R, t, k, v, &x, bad)) { *rop = op; return 0; }
            if (x == UINT32_MAX || x < a || x >= b || R->mark[x] != v || R->vo->txns.data[x] == t) {
                *rop = op;
                *bad = *g != UINT32_MAX ? "it must see what its earlier read of the key saw"
                                        : "the value is no other transaction's installed version in the certificate";
                return 0;
            }
        } else {
            uint32_t len;
            const int64_t *l = history_list(h, op, &len);
            uint32_t j = len >= nown ? len - nown : 0, p = j;
            int ok = len >= nown;
            for (uint32_t y = first_app; ok && nown && y < i; y++)
                if (op_kd(h, ops[y]) == OP_APPEND) ok = l[j++] == history_op_value(h, ops[y]);
            if (!ok) { *rop = op; *bad = "the list does not end with the transaction's own appends so far"; return 0; }
            x = *g != UINT32_MAX ? *g : version_of_length(R, a, b, p);
            if (x == UINT32_MAX || x < a || x >= b || R->vo->txns.data[x] == t || R->llen[x] != p ||
                (p && memcmp(l, R->el.data + R->kel[k], p * sizeof *l))) {
                *rop = op;
                *bad = *g != UINT32_MAX ? "without its own appends the list differs from its earlier read"
                                        : "without its own appends the list is not the list of any version in the certificate";
                return 0;
            }
        }
        if (*g == UINT32_MAX) { *g = x; *rop = op; }
    }
    return 1;
}

static void key_err(ic_error *err, const history *h, const certificate *c, uint32_t k, const char *fmt, const char *a,
                    const char *b) {
    char kb[128], msg[700];
    snprintf(msg, sizeof msg, fmt, a, b);
    long line = c && c->key_line ? c->key_line[k] : 0;
    ic_error_at(err, c ? c->file : "", line, "key %s: %s", history_key_str(h, k, kb, sizeof kb), msg);
}

/* ---- the edges ----------------------------------------------------------- */

/* One cert_edges() pass. */
typedef struct edge_walk {
    const history *h;
    const version_order *vo;
    const certificate *c;        /* for messages; may be NULL */
    const uint8_t *part;
    cert_edge_fn fn;
    void *ctx;
    ic_error *err;
    creader R;
    VEC(wgroup) wg;              /* every participant's version of each key it writes */
    vec_i64 wel;                 /* the groups' appends */
    vec_u32 ops;                 /* one transaction's ops by key (scratch) */
    kop_vec kops;
    uint32_t *listed;            /* per txn: key+1 once listed for that key */
} edge_walk;

/* SO: consecutive participating transactions of each session. */
static int so_edges(edge_walk *W) {
    const history *h = W->h;
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = HISTORY_NONE;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!W->part[t]) continue;
            if (prev != HISTORY_NONE) {
                dep_edge e = { prev, t, HISTORY_NONE, DEP_SO };
                if (!W->fn(W->ctx, &e, HISTORY_NONE, HISTORY_NONE, HISTORY_NONE)) return 0;
            }
            prev = t;
        }
    }
    return 1;
}

/* Every participant's version of each key it writes, by key and transaction. */
static void write_groups(edge_walk *W) {
    const history *h = W->h;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!W->part[t]) continue;
        txn_ops_by_key(h, t, &W->kops, &W->ops);
        for (uint32_t i = 0; i < W->ops.len; i++) {
            uint32_t op = W->ops.data[i], k = h->op_key[op];
            if (!op_writes(h, op)) continue;
            if (!W->wg.len || vec_last(W->wg).key != k || vec_last(W->wg).txn != t) {
                wgroup w = { k, t, op, (uint32_t)W->wel.len, 0 };
                vec_push(W->wg, w);
            }
            vec_last(W->wg).last_op = op;
            if (op_kd(h, op) == OP_APPEND) { vec_push(W->wel, history_op_value(h, op)); vec_last(W->wg).el_n++; }
        }
    }
    if (W->wg.len) qsort(W->wg.data, W->wg.len, sizeof *W->wg.data, cmp_wgroup);
}

/* Key k's version order is a permutation of its participating writers
 * wg[gfirst .. gend); each version goes into the reader's index; the WW
 * edges.  1, or 0 with err set. */
static int key_versions(edge_walk *W, uint32_t k, uint32_t gfirst, uint32_t gend) {
    const history *h = W->h;
    const version_order *vo = W->vo;
    const certificate *c = W->c;
    creader *R = &W->R;
    char b1[96];
    uint32_t a = vo->start[k], b = vo->start[k + 1];
    if (b <= a || b > vo->txns.len || vo->txns.data[a] != 0) {
        key_err(W->err, h, c, k, "the version order does not start with INIT%s%s", "", "");
        return 0;
    }
    R->kel[k] = (uint32_t)R->el.len;
    R->mstart[k] = (uint32_t)R->marks.len;
    R->mark[a] = VALUE_INIT; R->mark_op[a] = k; R->llen[a] = 0;
    vmark m0 = { k, VALUE_INIT, a };
    vec_push(R->marks, m0);
    for (uint32_t i = a + 1; i < b; i++) {
        uint32_t t = vo->txns.data[i];
        if (t == 0 || t >= h->num_txns) { key_err(W->err, h, c, k, "INIT or an unknown transaction after the first version%s%s", "", ""); return 0; }
        if (W->listed[t] == k + 1) { key_err(W->err, h, c, k, "%s is listed twice%s", cert_txn_name(h, t, b1, sizeof b1), ""); return 0; }
        if (!W->part[t]) {
            key_err(W->err, h, c, k, "%s did not commit (%s) but is in the version order", cert_txn_name(h, t, b1, sizeof b1),
                    h->txns[t].status == TXN_ABORTED ? "aborted" : "indeterminate and not in the commit order");
            return 0;
        }
        wgroup key_w = { k, t, 0, 0, 0 };
        const wgroup *w = gfirst < gend ? bsearch(&key_w, W->wg.data + gfirst, gend - gfirst, sizeof *W->wg.data, cmp_wgroup) : NULL;
        if (!w) { key_err(W->err, h, c, k, "%s does not write this key%s", cert_txn_name(h, t, b1, sizeof b1), ""); return 0; }
        W->listed[t] = k + 1;
        R->mark[i] = history_op_value(h, w->last_op);
        R->mark_op[i] = w->last_op;
        for (uint32_t j = 0; j < w->el_n; j++) vec_push(R->el, W->wel.data[w->el_off + j]);
        R->llen[i] = (uint32_t)(R->el.len - R->kel[k]);
        vmark m = { k, R->mark[i], i };
        vec_push(R->marks, m);
        dep_edge e = { vo->txns.data[i - 1], t, k, DEP_WW };
        if (!W->fn(W->ctx, &e, HISTORY_NONE, R->mark_op[i - 1], w->last_op)) return 0;
    }
    /* every participating writer listed? */
    for (uint32_t j = gfirst; j < gend; j++) {
        uint32_t t = W->wg.data[j].txn;
        if (W->listed[t] == k + 1) continue;
        if (c && c->key_line && c->key_line[k] == 0 && b - a == 1)
            key_err(W->err, h, c, k, "missing from the certificate (%s writes it)%s", cert_txn_name(h, t, b1, sizeof b1), "");
        else
            key_err(W->err, h, c, k, "%s writes this key but is missing from the version order%s", cert_txn_name(h, t, b1, sizeof b1), "");
        return 0;
    }
    if (R->marks.len - R->mstart[k] > 1)
        qsort(R->marks.data + R->mstart[k], R->marks.len - R->mstart[k], sizeof *R->marks.data, cmp_vmark);
    return 1;
}

/* Every participant's reads: its snapshot per key, WR from it, RW to the
 * next version.  1, or 0 with err set. */
static int read_edges(edge_walk *W) {
    const history *h = W->h;
    const version_order *vo = W->vo;
    char b1[96], b2[700];
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!W->part[t]) continue;
        txn_ops_by_key(h, t, &W->kops, &W->ops);
        const uint32_t *ops = W->ops.data;
        for (uint32_t i = 0; i < W->ops.len;) {
            uint32_t k = h->op_key[ops[i]], j = i;
            while (j < W->ops.len && h->op_key[ops[j]] == k) j++;
            uint32_t g, rop;
            const char *bad = NULL;
            if (!replay(&W->R, t, k, ops + i, j - i, &g, &rop, &bad)) {
                char where[400], val[160];
                snprintf(b2, sizeof b2, "'s read %s (%s): %s", cert_value_str(h, rop, val, sizeof val),
                         history_op_where(h, rop, where, sizeof where), bad);
                if (W->R.bad_line) {             /* a view line's fault: its line */
                    char kb[128];
                    ic_error_at(W->err, W->c ? W->c->file : "", W->R.bad_line, "key %s: %s%s",
                                history_key_str(h, k, kb, sizeof kb), cert_txn_name(h, t, b1, sizeof b1), b2);
                } else key_err(W->err, h, W->c, k, "%s%s", cert_txn_name(h, t, b1, sizeof b1), b2);
                return 0;
            }
            i = j;
            if (g == UINT32_MAX) continue;
            uint32_t w = vo->txns.data[g];
            if (w != 0) {
                dep_edge e = { w, t, k, DEP_WR };
                if (!W->fn(W->ctx, &e, rop, W->R.mark_op[g], HISTORY_NONE)) return 0;
            }
            if (g + 1 < vo->start[k + 1] && vo->txns.data[g + 1] != t) {
                dep_edge e = { t, vo->txns.data[g + 1], k, DEP_RW };
                if (!W->fn(W->ctx, &e, rop, HISTORY_NONE, W->R.mark_op[g + 1])) return 0;
            }
        }
    }
    return 1;
}

int cert_edges(const history *h, const version_order *vo, const certificate *c, const uint8_t *part,
               cert_edge_fn fn, void *ctx, ic_error *err) {
    if (vo->num_keys != h->num_keys) {
        ic_error_at(err, c ? c->file : "", 0, "the version order has %u keys, the history %u", vo->num_keys, h->num_keys);
        return 0;
    }
    uint32_t nk = h->num_keys, nt = h->num_txns;
    size_t nv = vo->txns.len;
    edge_walk W;
    memset(&W, 0, sizeof W);
    W.h = h; W.vo = vo; W.c = c; W.part = part; W.fn = fn; W.ctx = ctx; W.err = err;
    creader *R = &W.R;
    R->h = h; R->vo = vo; R->c = c;
    R->pnum = cert_pred_numbers(h);
    R->mark = xmalloc((nv ? nv : 1) * sizeof *R->mark);
    R->mark_op = xmalloc((nv ? nv : 1) * sizeof *R->mark_op);
    R->llen = xcalloc(nv ? nv : 1, sizeof *R->llen);
    R->kel = xcalloc((size_t)nk + 1, sizeof *R->kel);
    R->mstart = xcalloc((size_t)nk + 1, sizeof *R->mstart);
    vec_init(R->el); vec_init(R->marks);
    vec_init(W.wg); vec_init(W.wel); vec_init(W.ops); vec_init(W.kops);
    W.listed = xcalloc(nt ? nt : 1, sizeof *W.listed);

    int ok = so_edges(&W);
    if (ok) write_groups(&W);
    for (uint32_t k = 0, gi = 0; ok && k < nk; k++) {
        uint32_t gfirst = gi;
        while (gi < W.wg.len && W.wg.data[gi].key == k) gi++;
        ok = key_versions(&W, k, gfirst, gi);
    }
    if (ok) {
        R->mstart[nk] = (uint32_t)R->marks.len;
        ok = read_edges(&W);
    }
    free(R->mark); free(R->mark_op); free(R->llen); free(R->kel); free(R->mstart); vec_free(R->el); vec_free(R->marks);
    free(R->pnum);
    vec_free(W.wg); vec_free(W.wel); vec_free(W.ops); vec_free(W.kops); free(W.listed);
    return ok;
}
