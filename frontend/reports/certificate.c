/* certificate.c — build, write, read and verify certificates (contract in
 * certificate.h, format and soundness argument in doc/certificate.md).
 *
 * One routine, cert_edges(), validates a version order against the
 * history and enumerates the edges a commit order must respect; the
 * builder topologically sorts them, the verifier compares positions.
 *
 * Independence.  The verifier must not trust the checker, so it derives
 * the meaning of every read on its own, from the raw operation arrays
 * (op_kind, op_key, op_value, op_txn, the transactions) and history_list()
 * alone, replaying each participant's ops against the certificate's
 * version order (see "the verifier's own reading" below).  It calls none
 * of the history model's interpretation helpers (history_read_source,
 * history_external_source, history_txn_external_read,
 * history_txn_final_write, history_writer_of, history_participants), nor
 * the axiom checks, nor anything of the polygraph, depgraph.h or
 * verify_model.c: it re-checks the pipeline, so it shares none of its code
 * (only the builder, which the verifier then checks, sorts with depgraph.h). */
#include "frontend/reports/certificate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/checking/depgraph.h"
#include "frontend/formats/lex.h"
#include "frontend/history/u64map.h"

void cert_init(certificate *c) {
    memset(c, 0, sizeof *c);
    vec_init(c->vo.txns);
    vec_init(c->order);
    vec_init(c->order_line);
}

void cert_free(certificate *c) {
    version_order_free(&c->vo);
    free(c->key_line);
    vec_free(c->order);
    vec_free(c->order_line);
    c->key_line = NULL;
}

/* ---- names ------------------------------------------------------------- */

static int ext_ids_unique(const history *h) {
    u64map m;
    u64map_init(&m);
    int ok = 1;
    for (uint32_t t = 1; t < h->num_txns && ok; t++)
        if (u64map_put(&m, (uint64_t)h->txns[t].ext_id, t) != t) ok = 0;
    u64map_free(&m);
    return ok;
}

static const char *tname(const history *h, uint32_t t, char *buf, size_t n) {
    if (t == 0) snprintf(buf, n, "INIT");
    else snprintf(buf, n, "txn %" PRId64, h->txns[t].ext_id);
    return buf;
}

/* An op's value as text: a number, "init", or a list "[1 2 3]". */
static const char *vstr(const history *h, uint32_t op, char *buf, size_t n) {
    if (op == HISTORY_NONE) { snprintf(buf, n, "init"); return buf; }
    if ((h->op_kind[op] & OP_KIND_MASK) == OP_LIST_READ) {
        uint32_t len;
        const int64_t *l = history_list(h, op, &len);
        size_t at = (size_t)snprintf(buf, n, "[");
        for (uint32_t i = 0; i < len && at + 24 < n; i++) at += (size_t)snprintf(buf + at, n - at, i ? " %" PRId64 : "%" PRId64, l[i]);
        snprintf(buf + at, n - at, at + 24 >= n && len ? " ...]" : "]");
        return buf;
    }
    if (h->op_value[op] == VALUE_INIT) snprintf(buf, n, "init");
    else snprintf(buf, n, "%" PRId64, h->op_value[op]);
    return buf;
}

/* ---- the verifier's own reading of the history ------------------------------
 *
 * Everything below derives what each read means from the raw operations
 * (op_kind, op_key, op_value, op_txn, the transactions) and history_list()
 * alone, under the certificate's version order; it calls none of the
 * history model's interpretation helpers and nothing of the checker.
 *   - Version i of key k is its transaction's last write of k (registers),
 *     or all its appends to k in program order (lists); the list at
 *     version i is the appends of versions 1..i, concatenated.
 *   - A participant's ops on k are replayed in program order against one
 *     snapshot version s: a register read before an own write shows
 *     version s's value, after one the own write; a list read shows (list
 *     at s) ++ (own appends so far).  The first read fixes s; later reads
 *     must agree.  s gives WR v_s -> t and RW t -> v_{s+1}. */

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
        if (op_done(h, op)) { kop x = { h->op_key[op], op }; vec_push(*tmp, x); }
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
    const version_order *vo;
    int64_t *mark;           /* per version g: installed value / last element; INIT: VALUE_INIT */
    uint32_t *mark_op;       /* per version g: its final write op (INIT: op k) */
    uint32_t *llen;          /* per version g: list length */
    uint32_t *kel;           /* per key: offset of its full list in el */
    vec_i64 el;              /* per key, the versions' appends in version order */
    VEC(vmark) marks;        /* per key (mstart), sorted by value within a key */
    uint32_t *mstart;        /* per key: its marks[mstart[k] .. mstart[k+1]) */
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

/* Replay t's ops on key k (ops[0..n), program order) against the version
 * order.  1: consistent, *g the global index of its snapshot version
 * (UINT32_MAX: no read shows it) and *rop the read that showed it;
 * 0: *bad describes the inconsistent read, *rop is it. */
static int replay(const creader *R, uint32_t t, uint32_t k, const uint32_t *ops, uint32_t n, uint32_t *g,
                  uint32_t *rop, const char **bad) {
    const history *h = R->h;
    uint32_t a = R->vo->start[k], b = R->vo->start[k + 1];
    int own_w = 0;
    int64_t own_v = 0;
    uint32_t nown = 0, first_app = 0;
    *g = UINT32_MAX; *rop = HISTORY_NONE;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = ops[i];
        unsigned kd = op_kd(h, op);
        if (kd == OP_WRITE) { own_w = 1; own_v = h->op_value[op]; continue; }
        if (kd == OP_APPEND) { if (!nown++) first_app = i; continue; }
        uint32_t x;
        if (kd == OP_READ) {
            int64_t v = h->op_value[op];
            if (own_w) {
                if (v != own_v) { *rop = op; *bad = "after its own write of the key it must see that write"; return 0; }
                continue;
            }
            x = *g != UINT32_MAX ? *g : find_mark(R, k, v);
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
                if (op_kd(h, ops[y]) == OP_APPEND) ok = l[j++] == h->op_value[ops[y]];
            if (!ok) { *rop = op; *bad = "the list does not end with the transaction's own appends so far"; return 0; }
            x = *g != UINT32_MAX ? *g : p == 0 ? a : find_mark(R, k, l[p - 1]);
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

/* Called per edge; returns 0 to stop.  ops: the read (WR: in `to`, RW: in
 * `from`) and the writes (WW: both; WR: from's; RW: to's), or HISTORY_NONE. */
typedef int (*edge_fn)(void *ctx, const dep_edge *e, uint32_t read_op, uint32_t wop_from, uint32_t wop_to);

static void key_err(ic_error *err, const history *h, const certificate *c, uint32_t k, const char *fmt, const char *a,
                    const char *b) {
    char kb[128], msg[700];
    snprintf(msg, sizeof msg, fmt, a, b);
    long line = c && c->key_line ? c->key_line[k] : 0;
    ic_error_at(err, c ? c->file : "", line, "key %s: %s", history_key_str(h, k, kb, sizeof kb), msg);
}

/* Validate vo against the participants part (c supplies line numbers for
 * messages; may be NULL) and enumerate SO, WW, WR and RW edges.  Returns
 * 1, or 0 with err set. */
static int cert_edges(const history *h, const version_order *vo, const certificate *c, const uint8_t *part,
                      edge_fn fn, void *ctx, ic_error *err) {
    char b1[96], b2[700];
    int ok = 0;
    if (vo->num_keys != h->num_keys) {
        ic_error_at(err, c ? c->file : "", 0, "the version order has %u keys, the history %u", vo->num_keys, h->num_keys);
        return 0;
    }
    uint32_t nk = h->num_keys, nt = h->num_txns;
    size_t nv = vo->txns.len;
    creader R;
    memset(&R, 0, sizeof R);
    R.h = h; R.vo = vo;
    R.mark = xmalloc((nv ? nv : 1) * sizeof *R.mark);
    R.mark_op = xmalloc((nv ? nv : 1) * sizeof *R.mark_op);
    R.llen = xcalloc(nv ? nv : 1, sizeof *R.llen);
    R.kel = xcalloc((size_t)nk + 1, sizeof *R.kel);
    R.mstart = xcalloc((size_t)nk + 1, sizeof *R.mstart);
    vec_init(R.el); vec_init(R.marks);
    VEC(wgroup) wg; vec_init(wg);
    vec_i64 wel; vec_init(wel);          /* the groups' appends */
    vec_u32 ops; vec_init(ops);
    kop_vec kops; vec_init(kops);
    uint32_t *listed = xcalloc(nt ? nt : 1, sizeof *listed);    /* key+1 once listed for that key */

    /* SO: consecutive participating transactions of each session */
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = HISTORY_NONE;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!part[t]) continue;
            if (prev != HISTORY_NONE) {
                dep_edge e = { prev, t, HISTORY_NONE, DEP_SO };
                if (!fn(ctx, &e, HISTORY_NONE, HISTORY_NONE, HISTORY_NONE)) goto out;
            }
            prev = t;
        }
    }
    /* every participant's version of each key it writes */
    for (uint32_t t = 1; t < nt; t++) {
        if (!part[t]) continue;
        txn_ops_by_key(h, t, &kops, &ops);
        for (uint32_t i = 0; i < ops.len; i++) {
            uint32_t op = ops.data[i], k = h->op_key[op];
            if (!op_writes(h, op)) continue;
            if (!wg.len || vec_last(wg).key != k || vec_last(wg).txn != t) {
                wgroup w = { k, t, op, (uint32_t)wel.len, 0 };
                vec_push(wg, w);
            }
            vec_last(wg).last_op = op;
            if (op_kd(h, op) == OP_APPEND) { vec_push(wel, h->op_value[op]); vec_last(wg).el_n++; }
        }
    }
    if (wg.len) qsort(wg.data, wg.len, sizeof *wg.data, cmp_wgroup);
    /* per key: the version order is a permutation of its writers; WW edges */
    for (uint32_t k = 0, gi = 0; k < nk; k++) {
        uint32_t a = vo->start[k], b = vo->start[k + 1];
        if (b <= a || b > nv || vo->txns.data[a] != 0) {
            key_err(err, h, c, k, "the version order does not start with INIT%s%s", "", "");
            goto out;
        }
        uint32_t gfirst = gi;
        while (gi < wg.len && wg.data[gi].key == k) gi++;
        R.kel[k] = (uint32_t)R.el.len;
        R.mstart[k] = (uint32_t)R.marks.len;
        R.mark[a] = VALUE_INIT; R.mark_op[a] = k; R.llen[a] = 0;
        vmark m0 = { k, VALUE_INIT, a };
        vec_push(R.marks, m0);
        for (uint32_t i = a + 1; i < b; i++) {
            uint32_t t = vo->txns.data[i];
            if (t == 0 || t >= nt) { key_err(err, h, c, k, "INIT or an unknown transaction after the first version%s%s", "", ""); goto out; }
            if (listed[t] == k + 1) { key_err(err, h, c, k, "%s is listed twice%s", tname(h, t, b1, sizeof b1), ""); goto out; }
            if (!part[t]) {
                key_err(err, h, c, k, "%s did not commit (%s) but is in the version order", tname(h, t, b1, sizeof b1),
                        h->txns[t].status == TXN_ABORTED ? "aborted" : "indeterminate and not in the commit order");
                goto out;
            }
            wgroup key_w = { k, t, 0, 0, 0 };
            const wgroup *w = gfirst < gi ? bsearch(&key_w, wg.data + gfirst, gi - gfirst, sizeof *wg.data, cmp_wgroup) : NULL;
            if (!w) { key_err(err, h, c, k, "%s does not write this key%s", tname(h, t, b1, sizeof b1), ""); goto out; }
            listed[t] = k + 1;
            R.mark[i] = h->op_value[w->last_op];
            R.mark_op[i] = w->last_op;
            for (uint32_t j = 0; j < w->el_n; j++) vec_push(R.el, wel.data[w->el_off + j]);
            R.llen[i] = (uint32_t)(R.el.len - R.kel[k]);
            vmark m = { k, R.mark[i], i };
            vec_push(R.marks, m);
            uint32_t p = vo->txns.data[i - 1];
            dep_edge e = { p, t, k, DEP_WW };
            if (!fn(ctx, &e, HISTORY_NONE, R.mark_op[i - 1], w->last_op)) goto out;
        }
        /* every participating writer listed? */
        for (uint32_t j = gfirst; j < gi; j++) {
            uint32_t t = wg.data[j].txn;
            if (listed[t] == k + 1) continue;
            if (c && c->key_line && c->key_line[k] == 0 && b - a == 1)
                key_err(err, h, c, k, "missing from the certificate (%s writes it)%s", tname(h, t, b1, sizeof b1), "");
            else
                key_err(err, h, c, k, "%s writes this key but is missing from the version order%s", tname(h, t, b1, sizeof b1), "");
            goto out;
        }
        if (R.marks.len - R.mstart[k] > 1)
            qsort(R.marks.data + R.mstart[k], R.marks.len - R.mstart[k], sizeof *R.marks.data, cmp_vmark);
    }
    R.mstart[nk] = (uint32_t)R.marks.len;
    /* every participant's reads: its snapshot per key, WR from it, RW to the next version */
    for (uint32_t t = 1; t < nt; t++) {
        if (!part[t]) continue;
        txn_ops_by_key(h, t, &kops, &ops);
        for (uint32_t i = 0; i < ops.len;) {
            uint32_t k = h->op_key[ops.data[i]], j = i;
            while (j < ops.len && h->op_key[ops.data[j]] == k) j++;
            uint32_t g, rop;
            const char *bad = NULL;
            if (!replay(&R, t, k, ops.data + i, j - i, &g, &rop, &bad)) {
                char where[400], val[160];
                snprintf(b2, sizeof b2, "'s read %s (%s): %s", vstr(h, rop, val, sizeof val), history_op_where(h, rop, where, sizeof where), bad);
                key_err(err, h, c, k, "%s%s", tname(h, t, b1, sizeof b1), b2);
                goto out;
            }
            i = j;
            if (g == UINT32_MAX) continue;
            uint32_t w = vo->txns.data[g];
            if (w != 0) {
                dep_edge e = { w, t, k, DEP_WR };
                if (!fn(ctx, &e, rop, R.mark_op[g], HISTORY_NONE)) goto out;
            }
            if (g + 1 < vo->start[k + 1] && vo->txns.data[g + 1] != t) {
                dep_edge e = { t, vo->txns.data[g + 1], k, DEP_RW };
                if (!fn(ctx, &e, rop, HISTORY_NONE, R.mark_op[g + 1])) goto out;
            }
        }
    }
    ok = 1;
out:
    free(R.mark); free(R.mark_op); free(R.llen); free(R.kel); free(R.mstart); vec_free(R.el); vec_free(R.marks);
    vec_free(wg); vec_free(wel); vec_free(ops); vec_free(kops); free(listed);
    return ok;
}

/* ---- building ----------------------------------------------------------- */

typedef struct build_ctx { int si; vec_u32 from, to; } build_ctx;

/* Nodes: SER txn; SI 2t (start), 2t+1 (commit). */
static int collect_edge(void *vctx, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt) {
    (void)r; (void)wf; (void)wt;
    build_ctx *b = vctx;
    uint32_t x, y;
    if (!b->si) { x = e->from; y = e->to; }
    else if (e->kind == DEP_RW) { x = CERT_START(e->from); y = CERT_COMMIT(e->to); }
    else { x = CERT_COMMIT(e->from); y = CERT_START(e->to); }
    vec_push(b->from, x);
    vec_push(b->to, y);
    return 1;
}

cert_status cert_build(const history *h, const version_order *vo, int si, certificate *c, ic_error *err) {
    cert_free(c);
    cert_init(c);
    c->si = si;
    c->vo.num_keys = vo->num_keys;
    c->vo.start = xmalloc(((size_t)vo->num_keys + 1) * sizeof *c->vo.start);
    memcpy(c->vo.start, vo->start, ((size_t)vo->num_keys + 1) * sizeof *c->vo.start);
    vec_reserve(c->vo.txns, vo->txns.len);
    for (size_t i = 0; i < vo->txns.len; i++) vec_push(c->vo.txns, vo->txns.data[i]);

    /* participants: INIT, the committed transactions and the indeterminate
     * ones the version order lists (they committed in this witness) */
    uint8_t *part = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    part[0] = 1;
    for (uint32_t t = 1; t < h->num_txns; t++) part[t] = h->txns[t].status == TXN_COMMITTED;
    for (size_t i = 0; i < vo->txns.len; i++) {
        uint32_t t = vo->txns.data[i];
        if (t < h->num_txns && h->txns[t].status == TXN_INDETERMINATE) part[t] = 1;
    }
    build_ctx b = { si, { 0 }, { 0 } };
    vec_init(b.from); vec_init(b.to);
    cert_status rc = CERT_OK;
    if (!cert_edges(h, vo, NULL, part, collect_edge, &b, err)) { rc = CERT_REJECT; goto out; }
    uint32_t n = si ? 2 * h->num_txns : h->num_txns;
    if (si)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (part[t]) { vec_push(b.from, CERT_START(t)); vec_push(b.to, CERT_COMMIT(t)); }
    /* any topological order will do (depgraph.h; nodes outside part have
     * no edges, and are left out of the order) */
    dg_arc_vec arcs; vec_init(arcs);
    vec_reserve(arcs, b.from.len);
    for (size_t i = 0; i < b.from.len; i++) { dg_arc a = { b.from.data[i], b.to.data[i], DG_NONE }; vec_push(arcs, a); }
    dg_graph g;
    dg_build(&g, n, arcs.data, arcs.len, 0);
    vec_free(arcs);
    uint32_t *order = xmalloc((n ? n : 1) * sizeof *order);
    if (dg_topo_order(&g, 0, 0, order)) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t u = order[i], t = si ? u >> 1 : u;
            if (part[t] && t != 0) { vec_push(c->order, u); vec_push(c->order_line, 0); }
        }
    } else {
        ic_error_at(err, "", 0, "the version order leaves a dependency cycle (%s); no commit order exists", si ? "SI" : "SER");
        rc = CERT_REJECT;
    }
    dg_free(&g);
    free(order);
out:
    vec_free(b.from); vec_free(b.to);
    free(part);
    return rc;
}

/* ---- writing ------------------------------------------------------------ */

static void write_txn(FILE *out, const history *h, int unique, uint32_t t) {
    if (t == 0) fputs("INIT", out);
    else if (unique) fprintf(out, "%" PRId64, h->txns[t].ext_id);
    else fprintf(out, "#%u", t);
}

static void write_key(FILE *out, const history *h, uint32_t k) {
    if (h->key_name[k] == HISTORY_NONE) { fprintf(out, "%" PRId64, h->key_ext[k]); return; }
    fputc('"', out);
    for (const char *p = h->strings + h->key_name[k]; *p; p++) {
        if (*p == '"' || *p == '\\') fputc('\\', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

void cert_write(FILE *out, const history *h, const certificate *c) {
    int unique = ext_ids_unique(h);
    fprintf(out, "isocheck-certificate 1\n");
    fprintf(out, "# history %s: %u transactions, %u keys\n", h->source ? h->source : "-", h->num_txns - 1, h->num_keys);
    fprintf(out, "level %s\n", c->si ? "si" : "ser");
    fprintf(out, "# version order per key, oldest first: key KEY INIT WRITER...\n");
    for (uint32_t k = 0; k < c->vo.num_keys; k++) {
        fputs("key ", out);
        write_key(out, h, k);
        for (uint32_t i = c->vo.start[k]; i < c->vo.start[k + 1]; i++) { fputc(' ', out); write_txn(out, h, unique, c->vo.txns.data[i]); }
        fputc('\n', out);
    }
    fprintf(out, c->si ? "# commit order of events, earliest first: sT = T starts, cT = T commits\n"
                       : "# commit order of transactions, earliest first\n");
    for (size_t i = 0; i < c->order.len; i++) {
        if (i % 16 == 0) fputs(i ? "\norder" : "order", out);
        fputc(' ', out);
        uint32_t x = c->order.data[i];
        if (c->si) { fputc(x & 1 ? 'c' : 's', out); x >>= 1; }
        write_txn(out, h, unique, x);
    }
    if (c->order.len) fputc('\n', out);
    fprintf(out, "end\n");
}

/* ---- reading ------------------------------------------------------------ */

static uint64_t fnv64(const char *s, size_t n) {
    uint64_t x = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) { x ^= (unsigned char)s[i]; x *= 1099511628211ULL; }
    return x;
}

typedef struct lookup {
    const history *h;
    int unique;
    u64map txn, ikey, skey;
} lookup;

static void lookup_init(lookup *L, const history *h) {
    L->h = h;
    L->unique = ext_ids_unique(h);
    u64map_init(&L->txn); u64map_init(&L->ikey); u64map_init(&L->skey);
    if (L->unique) for (uint32_t t = 1; t < h->num_txns; t++) u64map_put(&L->txn, (uint64_t)h->txns[t].ext_id, t);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        if (h->key_name[k] == HISTORY_NONE) u64map_put(&L->ikey, (uint64_t)h->key_ext[k], k);
        else { const char *s = h->strings + h->key_name[k]; u64map_put(&L->skey, fnv64(s, strlen(s)), k); }
    }
}

static void lookup_free(lookup *L) { u64map_free(&L->txn); u64map_free(&L->ikey); u64map_free(&L->skey); }

static uint32_t find_skey(const lookup *L, const char *s, size_t n) {
    const history *h = L->h;
    uint32_t k = u64map_get(&L->skey, fnv64(s, n));
    if (k != UINT32_MAX) {
        const char *ks = h->strings + h->key_name[k];
        if (strlen(ks) == n && !memcmp(ks, s, n)) return k;
    }
    for (k = 0; k < h->num_keys; k++) {     /* hash collision: rare, scan */
        if (h->key_name[k] == HISTORY_NONE) continue;
        const char *ks = h->strings + h->key_name[k];
        if (strlen(ks) == n && !memcmp(ks, s, n)) return k;
    }
    return UINT32_MAX;
}

typedef struct rd {
    input *r;
    const char *name;
    ic_error *err;
    cert_status st;
} rd;

static cert_status bad(rd *R, const char *fmt, const char *found) {
    ic_error_at(R->err, R->name, R->r->line, fmt, found);
    return R->st = CERT_MALFORMED;
}

static int word_is(const char *p, const char *w) {
    size_t n = strlen(w);
    return !strncmp(p, w, n) && (p[n] == 0 || p[n] == ' ' || p[n] == '\t');
}

/* A transaction token at *p: INIT (allow_init), #N or an external id.
 * 1: ok (*t), 0: malformed (err set), -1: unknown (err set, REJECT). */
static int parse_txn(rd *R, const lookup *L, const char **p, int allow_init, uint32_t *t) {
    char fb[48];
    if (!strncmp(*p, "INIT", 4) && ((*p)[4] == 0 || (*p)[4] == ' ' || (*p)[4] == '\t')) {
        if (!allow_init) { bad(R, "expected a transaction, found %s (INIT is implicitly first)", "'INIT'"); return 0; }
        *p += 4; *t = 0; return 1;
    }
    int64_t v;
    if (**p == '#') {
        (*p)++;
        if (lex_i64(p, &v) != 1) { bad(R, "expected a transaction index after '#', found %s", lex_found(*p, fb, sizeof fb)); return 0; }
        if (v <= 0 || (uint64_t)v >= L->h->num_txns) {
            ic_error_at(R->err, R->name, R->r->line, "unknown transaction #%" PRId64, v);
            R->st = CERT_REJECT; return -1;
        }
        *t = (uint32_t)v; return 1;
    }
    int rc = lex_i64(p, &v);
    if (rc != 1) { bad(R, "expected a transaction id, found %s", lex_found(*p, fb, sizeof fb)); return 0; }
    uint32_t x = L->unique ? u64map_get(&L->txn, (uint64_t)v) : UINT32_MAX;
    if (x == UINT32_MAX) {
        ic_error_at(R->err, R->name, R->r->line, "unknown transaction %" PRId64 "%s", v,
                    L->unique ? "" : " (the history's ids are not unique: use #index)");
        R->st = CERT_REJECT; return -1;
    }
    *t = x;
    return 1;
}

static int end_of_token(const char *p) { return *p == 0 || *p == ' ' || *p == '\t'; }

cert_status cert_read(input *r, const history *h, certificate *c, ic_error *err) {
    cert_free(c);
    cert_init(c);
    snprintf(c->file, sizeof c->file, "%s", r->name ? r->name : "");
    rd R = { r, c->file, err, CERT_OK };
    lookup L;
    lookup_init(&L, h);
    uint32_t nk = h->num_keys;
    c->key_line = xcalloc(nk ? nk : 1, sizeof *c->key_line);
    VEC(uint32_t) kk; vec_init(kk);      /* (key, txn) pairs in file order */
    vec_u32 kt; vec_init(kt);
    int header = 0, level = -1, ended = 0;
    char *line, fb[48];
    size_t len;
    while ((line = input_line(r, &len))) {
        /* a NUL byte anywhere is bad input, also on a line that would look blank or a comment before it */
        if (len != strlen(line)) { bad(&R, "expected text, found %s", "a NUL byte"); goto out; }
        const char *p = line;
        lex_space(&p);
        if (!*p || *p == '#') continue;
        if (ended) { bad(&R, "expected nothing after 'end', found %s", lex_found(p, fb, sizeof fb)); goto out; }
        if (!header) {
            if (!word_is(p, "isocheck-certificate")) { bad(&R, "expected 'isocheck-certificate 1', found %s", lex_found(p, fb, sizeof fb)); goto out; }
            p += 20; lex_space(&p);
            if (!(p[0] == '1' && end_of_token(p + 1))) { bad(&R, "expected format version 1, found %s", lex_found(p, fb, sizeof fb)); goto out; }
            p++; lex_space(&p);
            if (*p) { bad(&R, "expected end of line, found %s", lex_found(p, fb, sizeof fb)); goto out; }
            header = 1;
            continue;
        }
        if (word_is(p, "level")) {
            p += 5; lex_space(&p);
            if (level >= 0) { bad(&R, "expected one 'level' line, found %s", "a second one"); goto out; }
            if (word_is(p, "si")) { level = 1; p += 2; }
            else if (word_is(p, "ser")) { level = 0; p += 3; }
            else { bad(&R, "expected level 'si' or 'ser', found %s", lex_found(p, fb, sizeof fb)); goto out; }
            lex_space(&p);
            if (*p) { bad(&R, "expected end of line, found %s", lex_found(p, fb, sizeof fb)); goto out; }
            c->si = level;
            continue;
        }
        if (level < 0) { bad(&R, "expected 'level si' or 'level ser' before %s", lex_found(p, fb, sizeof fb)); goto out; }
        if (word_is(p, "end")) {
            p += 3; lex_space(&p);
            if (*p) { bad(&R, "expected end of line, found %s", lex_found(p, fb, sizeof fb)); goto out; }
            ended = 1;
            continue;
        }
        if (word_is(p, "key")) {
            p += 3; lex_space(&p);
            uint32_t k = UINT32_MAX;
            char kshow[160];
            if (*p == '"') {
                vec_char s; vec_init(s);
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
                    vec_push(s, *p++);
                }
                if (*p != '"') { vec_free(s); bad(&R, "expected '\"' closing the key, found %s", "end of line"); goto out; }
                p++;
                k = find_skey(&L, s.data ? s.data : "", s.len);
                snprintf(kshow, sizeof kshow, "\"%.*s\"", (int)(s.len > 120 ? 120 : s.len), s.data ? s.data : "");
                vec_free(s);
            } else {
                int64_t v;
                int rc = lex_i64(&p, &v);
                if (rc != 1) { bad(&R, "expected a key (an integer or a quoted string), found %s", lex_found(p, fb, sizeof fb)); goto out; }
                k = u64map_get(&L.ikey, (uint64_t)v);
                snprintf(kshow, sizeof kshow, "%" PRId64, v);
            }
            if (!end_of_token(p)) { bad(&R, "expected a space after the key, found %s", lex_found(p, fb, sizeof fb)); goto out; }
            if (k == UINT32_MAX) {
                ic_error_at(err, R.name, r->line, "unknown key %s (not in the history)", kshow);
                R.st = CERT_REJECT; goto out;
            }
            if (c->key_line[k]) {
                ic_error_at(err, R.name, r->line, "key %s listed twice (first on line %u)", kshow, c->key_line[k]);
                R.st = CERT_REJECT; goto out;
            }
            c->key_line[k] = (uint32_t)r->line;
            lex_space(&p);
            int first = 1;
            while (*p) {
                uint32_t t;
                int rc = parse_txn(&R, &L, &p, first, &t);
                if (rc <= 0) goto out;
                if (!end_of_token(p)) { bad(&R, "expected a space between transactions, found %s", lex_found(p, fb, sizeof fb)); goto out; }
                vec_push(kk, k); vec_push(kt, t);
                first = 0;
                lex_space(&p);
            }
            if (first) { bad(&R, "expected the key's version order (INIT first), found %s", "end of line"); goto out; }
            continue;
        }
        if (word_is(p, "order")) {
            p += 5; lex_space(&p);
            while (*p) {
                uint32_t ev_kind = 0;
                if (level == 1) {
                    if (*p == 's' || *p == 'c') ev_kind = *p++ == 'c';
                    else { bad(&R, "expected an event sTXN or cTXN, found %s", lex_found(p, fb, sizeof fb)); goto out; }
                }
                uint32_t t;
                int rc = parse_txn(&R, &L, &p, 0, &t);
                if (rc <= 0) goto out;
                if (!end_of_token(p)) { bad(&R, "expected a space between events, found %s", lex_found(p, fb, sizeof fb)); goto out; }
                vec_push(c->order, level == 1 ? (t << 1 | ev_kind) : t);
                vec_push(c->order_line, (uint32_t)r->line);
                lex_space(&p);
            }
            continue;
        }
        bad(&R, "expected 'key', 'order' or 'end', found %s", lex_found(p, fb, sizeof fb));
        goto out;
    }
    if (r->io_error) { ic_error_at(err, R.name, 0, "read error"); R.st = CERT_MALFORMED; goto out; }
    if (!header) { ic_error_at(err, R.name, 0, "empty file: expected 'isocheck-certificate 1'"); R.st = CERT_MALFORMED; goto out; }
    if (!ended) { ic_error_at(err, R.name, r->line, "expected 'end' as the last line (truncated certificate?)"); R.st = CERT_MALFORMED; goto out; }
    /* per-key orders in key order (a key's entries are contiguous in the file) */
    c->vo.num_keys = nk;
    c->vo.start = xcalloc((size_t)nk + 1, sizeof *c->vo.start);
    for (size_t i = 0; i < kk.len; i++) c->vo.start[kk.data[i] + 1]++;
    for (uint32_t k = 0; k < nk; k++) {
        if (!c->vo.start[k + 1]) c->vo.start[k + 1] = 1;     /* absent: INIT only */
        c->vo.start[k + 1] += c->vo.start[k];
    }
    vec_resize(c->vo.txns, c->vo.start[nk]);
    for (uint32_t k = 0; k < nk; k++) c->vo.txns.data[c->vo.start[k]] = 0;
    {
        uint32_t *fill = xmalloc(((size_t)nk + 1) * sizeof *fill);
        memcpy(fill, c->vo.start, ((size_t)nk + 1) * sizeof *fill);
        for (size_t i = 0; i < kk.len; i++) c->vo.txns.data[fill[kk.data[i]]++] = kt.data[i];
        free(fill);
    }
out:
    vec_free(kk); vec_free(kt);
    lookup_free(&L);
    return R.st;
}

/* ---- verifying ---------------------------------------------------------- */

typedef struct verify_ctx {
    const history *h;
    const certificate *c;
    int si;
    uint32_t *ps, *pc;       /* SI: positions of start / commit; SER: pc only */
    uint32_t *idx_s, *idx_c; /* order index of each event (for line numbers) */
    ic_error *err;
    uint64_t edges;
} verify_ctx;

static void edge_text(const history *h, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt, char *buf, size_t n) {
    char a[96], b[96], kb[128], v1[32], v2[32];
    tname(h, e->from, a, sizeof a);
    tname(h, e->to, b, sizeof b);
    if (e->kind != DEP_SO) history_key_str(h, e->key, kb, sizeof kb);
    switch (e->kind) {
    case DEP_SO: snprintf(buf, n, "SO: %s precedes %s in session %" PRId64, a, b, h->sessions[h->txns[e->to].session].ext_id); break;
    case DEP_WR: snprintf(buf, n, "WR %s: %s reads %s=%s written by %s", kb, b, kb, vstr(h, r, v1, sizeof v1), a); break;
    case DEP_WW: snprintf(buf, n, "WW %s: %s's %s=%s is the version right before %s's %s=%s", kb, a, kb,
                          vstr(h, wf, v1, sizeof v1), b, kb, vstr(h, wt, v2, sizeof v2)); break;
    case DEP_RW: snprintf(buf, n, "RW %s: %s reads %s=%s, which %s's %s=%s overwrites next", kb, a, kb,
                          vstr(h, r, v1, sizeof v1), b, kb, vstr(h, wt, v2, sizeof v2)); break;
    default: snprintf(buf, n, "?");
    }
}

static int check_edge(void *vctx, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt) {
    verify_ctx *V = vctx;
    V->edges++;
    if (e->from == 0) return 1;            /* INIT precedes everything */
    uint32_t x, y, ix;
    if (!V->si) { x = V->pc[e->from]; y = V->pc[e->to]; ix = V->idx_c[e->to]; }
    else if (e->kind == DEP_RW) { x = V->ps[e->from]; y = V->pc[e->to]; ix = V->idx_c[e->to]; }
    else { x = V->pc[e->from]; y = V->ps[e->to]; ix = V->idx_s[e->to]; }
    if (x < y) return 1;
    char a[96], b[96], et[700];
    tname(V->h, e->from, a, sizeof a);
    tname(V->h, e->to, b, sizeof b);
    edge_text(V->h, e, r, wf, wt, et, sizeof et);
    long line = V->c->order_line.len > ix ? (long)V->c->order_line.data[ix] : 0;
    if (!V->si)
        ic_error_at(V->err, V->c->file, line, "%s; so %s must come before %s, but the commit order puts %s first", et, a, b, b);
    else if (e->kind == DEP_RW)
        ic_error_at(V->err, V->c->file, line, "%s; so %s must start before %s commits, but the order has c%" PRId64 " first",
                    et, a, b, V->h->txns[e->to].ext_id);
    else
        ic_error_at(V->err, V->c->file, line, "%s; so %s must commit before %s starts, but the order has s%" PRId64 " first",
                    et, a, b, V->h->txns[e->to].ext_id);
    return 0;
}

cert_status cert_verify(const history *h, const certificate *c, int si, ic_error *err, uint64_t *edges_checked) {
    if (edges_checked) *edges_checked = 0;
    if (!si && c->si) {
        ic_error_at(err, c->file, 0, "the certificate orders start and commit events (level si); it does not prove serializability");
        return CERT_REJECT;
    }
    /* Participants: INIT, the committed transactions, and the indeterminate
     * ones the certificate puts in its commit order (it claims they
     * committed; then all their writes and reads count).  No axiom check
     * is needed first: replaying every participant's reads against the
     * version order (cert_edges) covers INT and aborted, intermediate and
     * thin-air reads. */
    uint8_t *part = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    part[0] = 1;
    for (uint32_t t = 1; t < h->num_txns; t++) part[t] = h->txns[t].status == TXN_COMMITTED;
    for (size_t i = 0; i < c->order.len; i++) {
        uint32_t t = c->si ? c->order.data[i] >> 1 : c->order.data[i];
        if (t < h->num_txns && h->txns[t].status == TXN_INDETERMINATE) part[t] = 1;
    }
    verify_ctx V = { h, c, si, NULL, NULL, NULL, NULL, err, 0 };
    V.ps = xmalloc(h->num_txns * sizeof *V.ps);
    V.pc = xmalloc(h->num_txns * sizeof *V.pc);
    V.idx_s = xmalloc(h->num_txns * sizeof *V.idx_s);
    V.idx_c = xmalloc(h->num_txns * sizeof *V.idx_c);
    for (uint32_t t = 0; t < h->num_txns; t++) V.ps[t] = V.pc[t] = V.idx_s[t] = V.idx_c[t] = UINT32_MAX;
    V.ps[0] = 0; V.pc[0] = 1;
    cert_status rc = CERT_REJECT;
    char a[96];
    /* positions: SER txns at 2i+2 (start and commit coincide), SI events at i+2 */
    for (size_t i = 0; i < c->order.len; i++) {
        uint32_t x = c->order.data[i], t = c->si ? x >> 1 : x, is_commit = c->si ? (x & 1) : 2;
        long line = c->order_line.len > i ? (long)c->order_line.data[i] : 0;
        if (t == 0 || t >= h->num_txns) { ic_error_at(err, c->file, line, "unknown transaction in the commit order"); goto out; }
        if (!part[t]) {
            ic_error_at(err, c->file, line, "%s did not commit (%s) but is in the commit order", tname(h, t, a, sizeof a),
                        "aborted");
            goto out;
        }
        uint32_t pos = (uint32_t)(c->si ? i + 2 : 2 * i + 2);
        if (is_commit != 0 && V.pc[t] != UINT32_MAX) {
            ic_error_at(err, c->file, line, "%s%s appears twice in the commit order", c->si ? "the commit of " : "", tname(h, t, a, sizeof a));
            goto out;
        }
        if (is_commit != 1 && V.ps[t] != UINT32_MAX) {
            ic_error_at(err, c->file, line, "the start of %s appears twice in the order", tname(h, t, a, sizeof a));
            goto out;
        }
        if (is_commit == 1 && V.ps[t] == UINT32_MAX) {
            ic_error_at(err, c->file, line, "%s commits before it starts (c%" PRId64 " before s%" PRId64 ")", tname(h, t, a, sizeof a),
                        h->txns[t].ext_id, h->txns[t].ext_id);
            goto out;
        }
        if (is_commit != 0) { V.pc[t] = pos; V.idx_c[t] = (uint32_t)i; }
        if (is_commit != 1) { V.ps[t] = pos; V.idx_s[t] = (uint32_t)i; }
    }
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!part[t] || V.pc[t] != UINT32_MAX) continue;
        if (c->si && V.ps[t] != UINT32_MAX) ic_error_at(err, c->file, 0, "%s starts but never commits in the order", tname(h, t, a, sizeof a));
        else ic_error_at(err, c->file, 0, "%s is missing from the commit order", tname(h, t, a, sizeof a));
        goto out;
    }
    if (cert_edges(h, &c->vo, c, part, check_edge, &V, err)) rc = CERT_OK;
    if (edges_checked) *edges_checked = V.edges;
out:
    free(part);
    free(V.ps); free(V.pc); free(V.idx_s); free(V.idx_c);
    return rc;
}
