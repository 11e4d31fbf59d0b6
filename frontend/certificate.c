/* certificate.c — build, write, read and verify certificates (contract in
 * certificate.h, format and soundness argument in doc/certificate.md).
 *
 * One routine, cert_edges(), validates a version order against the
 * history and enumerates the edges a commit order must respect; the
 * builder topologically sorts them, the verifier compares positions. */
#include "frontend/certificate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/axioms.h"
#include "frontend/lex.h"
#include "frontend/u64map.h"

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

static const char *vstr(const history *h, uint32_t op, char *buf, size_t n) {
    int64_t v = op == HISTORY_NONE ? VALUE_INIT
              : history_op_is_read(h, op) ? history_read_value(h, op) : h->op_value[op];
    if (op == HISTORY_NONE || v == VALUE_INIT) snprintf(buf, n, "init");
    else snprintf(buf, n, "%" PRId64, v);
    return buf;
}

/* ---- participation and edges -------------------------------------------- */

/* Called per edge; returns 0 to stop.  ops: the read (WR: in `to`, RW: in
 * `from`) and the writes (WW: both; WR: from's; RW: to's), or HISTORY_NONE. */
typedef int (*edge_fn)(void *ctx, const dep_edge *e, uint32_t read_op, uint32_t wop_from, uint32_t wop_to);

static void key_err(ic_error *err, const history *h, const certificate *c, uint32_t k, const char *fmt, const char *a,
                    const char *b) {
    char kb[128], msg[400];
    snprintf(msg, sizeof msg, fmt, a, b);
    long line = c && c->key_line ? c->key_line[k] : 0;
    ic_error_at(err, c ? c->file : "", line, "key %s: %s", history_key_str(h, k, kb, sizeof kb), msg);
}

/* Validate vo (c supplies line numbers for messages; may be NULL) and
 * enumerate SO, WR, WW and RW edges.  Returns 1, or 0 with err set. */
static int cert_edges(const history *h, const version_order *vo, const certificate *c, const uint8_t *part,
                      edge_fn fn, void *ctx, ic_error *err) {
    char b1[96], b2[96], b3[64], b4[64];
    int ok = 0;
    if (vo->num_keys != h->num_keys) {
        ic_error_at(err, c ? c->file : "", 0, "the version order has %u keys, the history %u", vo->num_keys, h->num_keys);
        return 0;
    }
    /* SO: consecutive participating transactions of each session */
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = HISTORY_NONE;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!part[t]) continue;
            if (prev != HISTORY_NONE) {
                dep_edge e = { prev, t, HISTORY_NONE, DEP_SO };
                if (!fn(ctx, &e, HISTORY_NONE, HISTORY_NONE, HISTORY_NONE)) return 0;
            }
            prev = t;
        }
    }
    /* external reads (first op of a participating txn on a key is a read), grouped by key */
    uint32_t nk = h->num_keys;
    uint32_t *rstart = xcalloc((size_t)nk + 1, sizeof *rstart);
    uint32_t *seen = xmalloc(((size_t)nk + 1) * sizeof *seen);
    for (uint32_t k = 0; k < nk; k++) seen[k] = UINT32_MAX;
    vec_u32 rops; vec_init(rops);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!part[t] || h->txns[t].status != TXN_COMMITTED) continue;   /* indeterminate reads are not kept */
        const history_txn *tx = &h->txns[t];
        for (uint32_t i = 0; i < tx->num_ops; i++) {
            uint32_t op = tx->first_op + i, k = h->op_key[op];
            if (seen[k] == t || history_op_failed(h, op)) continue;
            seen[k] = t;
            if (history_op_is_read(h, op)) { vec_push(rops, op); rstart[k + 1]++; }
        }
    }
    for (uint32_t k = 0; k < nk; k++) rstart[k + 1] += rstart[k];
    uint32_t *rsorted = xmalloc((rops.len ? rops.len : 1) * sizeof *rsorted);
    {
        uint32_t *fill = xmalloc(((size_t)nk + 1) * sizeof *fill);
        memcpy(fill, rstart, ((size_t)nk + 1) * sizeof *fill);
        for (size_t i = 0; i < rops.len; i++) rsorted[fill[h->op_key[rops.data[i]]]++] = rops.data[i];
        free(fill);
    }
    /* per key: the version order, WW edges, then its reads */
    uint32_t *listed = xmalloc(h->num_txns * sizeof *listed);    /* key+1 when listed for that key */
    uint32_t *vpos = xmalloc(h->num_txns * sizeof *vpos);        /* index in the key's order */
    uint32_t *wop = xmalloc(h->num_txns * sizeof *wop);          /* final write op on the key */
    for (uint32_t t = 0; t < h->num_txns; t++) listed[t] = 0;
    for (uint32_t k = 0; k < nk; k++) {
        uint32_t a = vo->start[k], b = vo->start[k + 1];
        if (b <= a || b > vo->txns.len || vo->txns.data[a] != 0) {
            key_err(err, h, c, k, "the version order does not start with INIT%s%s", "", "");
            goto out;
        }
        listed[0] = k + 1; vpos[0] = 0; wop[0] = k;
        for (uint32_t i = a + 1; i < b; i++) {
            uint32_t t = vo->txns.data[i];
            if (t == 0 || t >= h->num_txns) { key_err(err, h, c, k, "INIT or an unknown transaction after the first version%s%s", "", ""); goto out; }
            if (listed[t] == k + 1) { key_err(err, h, c, k, "%s is listed twice%s", tname(h, t, b1, sizeof b1), ""); goto out; }
            if (!part[t]) {
                key_err(err, h, c, k, "%s did not commit (%s) but is in the version order", tname(h, t, b1, sizeof b1),
                        h->txns[t].status == TXN_ABORTED ? "aborted" : "indeterminate and never read");
                goto out;
            }
            uint32_t w = history_txn_final_write(h, t, k);
            if (w == HISTORY_NONE) { key_err(err, h, c, k, "%s does not write this key%s", tname(h, t, b1, sizeof b1), ""); goto out; }
            listed[t] = k + 1; vpos[t] = i - a; wop[t] = w;
            uint32_t p = vo->txns.data[i - 1];
            dep_edge e = { p, t, k, DEP_WW };
            if (!fn(ctx, &e, HISTORY_NONE, wop[p], w)) goto out;
        }
        /* every participating writer listed? */
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t t = h->op_txn[h->key_writes[i]];
            if (t == 0 || !part[t] || listed[t] == k + 1) continue;
            if (c && c->key_line && c->key_line[k] == 0 && b - a == 1)
                key_err(err, h, c, k, "missing from the certificate (%s writes it)%s", tname(h, t, b1, sizeof b1), "");
            else
                key_err(err, h, c, k, "%s writes this key but is missing from the version order%s", tname(h, t, b1, sizeof b1), "");
            goto out;
        }
        for (uint32_t i = rstart[k]; i < rstart[k + 1]; i++) {
            uint32_t op = rsorted[i], t = h->op_txn[op];
            uint32_t src = history_read_source(h, op);
            uint32_t w = src == HISTORY_NONE ? HISTORY_NONE : h->op_txn[src];
            if (w == HISTORY_NONE || w == t || listed[w] != k + 1 || wop[w] != src) {
                char where[600];
                key_err(err, h, c, k, "%s reads a value that is no committed transaction's final write (%s)",
                        tname(h, t, b1, sizeof b1), history_op_where(h, op, where, sizeof where));
                goto out;
            }
            if (history_op_kind(h, op) == OP_LIST_READ) {
                /* a list read observes versions 1..m of the order, in order */
                uint32_t n, m = 0, prev = 0;
                const int64_t *l = history_list(h, op, &n);
                for (uint32_t j = 0; j < n; j++) {
                    uint32_t eop = history_writer_of(h, k, l[j]);
                    uint32_t et = eop == HISTORY_NONE ? HISTORY_NONE : h->op_txn[eop];
                    if (et == prev && j) continue;
                    m++;
                    if (et == HISTORY_NONE || a + m >= b || vo->txns.data[a + m] != et) {
                        snprintf(b3, sizeof b3, "%u", j + 1);
                        key_err(err, h, c, k, "%s's list read is not a prefix of the version order (element %s)",
                                tname(h, t, b1, sizeof b1), b3);
                        goto out;
                    }
                    prev = et;
                }
            }
            if (w != 0) {
                dep_edge e = { w, t, k, DEP_WR };
                if (!fn(ctx, &e, op, src, HISTORY_NONE)) goto out;
            }
            uint32_t nx = a + vpos[w] + 1;
            if (nx < b && vo->txns.data[nx] != t) {
                uint32_t x = vo->txns.data[nx];
                dep_edge e = { t, x, k, DEP_RW };
                if (!fn(ctx, &e, op, HISTORY_NONE, wop[x])) goto out;
            }
        }
    }
    ok = 1;
out:
    (void)b2; (void)b4;
    free(rstart); free(seen); free(rsorted); vec_free(rops);
    free(listed); free(vpos); free(wop);
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

    uint8_t *part = history_participants(h);
    build_ctx b = { si, { 0 }, { 0 } };
    vec_init(b.from); vec_init(b.to);
    cert_status rc = CERT_OK;
    if (!cert_edges(h, vo, NULL, part, collect_edge, &b, err)) { rc = CERT_REJECT; goto out; }
    uint32_t n = si ? 2 * h->num_txns : h->num_txns;
    if (si)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (part[t]) { vec_push(b.from, CERT_START(t)); vec_push(b.to, CERT_COMMIT(t)); }
    /* Kahn's algorithm over CSR adjacency, smallest-index-first is not
     * needed: any topological order will do. */
    uint32_t *start = xcalloc((size_t)n + 1, sizeof *start), *indeg = xcalloc(n, sizeof *indeg);
    for (size_t i = 0; i < b.from.len; i++) { start[b.from.data[i] + 1]++; indeg[b.to.data[i]]++; }
    for (uint32_t u = 0; u < n; u++) start[u + 1] += start[u];
    uint32_t *adj = xmalloc((b.from.len ? b.from.len : 1) * sizeof *adj), *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, start, ((size_t)n + 1) * sizeof *fill);
    for (size_t i = 0; i < b.from.len; i++) adj[fill[b.from.data[i]]++] = b.to.data[i];
    uint32_t *queue = xmalloc((size_t)n * sizeof *queue), qh = 0, qt = 0, expected = 0;
    for (uint32_t u = 0; u < n; u++) {
        if (!part[si ? u >> 1 : u]) continue;
        expected++;
        if (!indeg[u]) queue[qt++] = u;
    }
    while (qh < qt) {
        uint32_t u = queue[qh++];
        if ((si ? u >> 1 : u) != 0) { vec_push(c->order, u); vec_push(c->order_line, 0); }
        for (uint32_t j = start[u]; j < start[u + 1]; j++)
            if (--indeg[adj[j]] == 0) queue[qt++] = adj[j];
    }
    if (qt != expected) {
        ic_error_at(err, "", 0, "the version order leaves a dependency cycle (%s); no commit order exists", si ? "SI" : "SER");
        rc = CERT_REJECT;
    }
    free(start); free(indeg); free(adj); free(fill); free(queue);
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
    /* the axioms first: a certificate says nothing about them */
    {
        anomaly_list al;
        anomaly_list_init(&al);
        uint64_t n = axioms_check(h, &al, 1);
        if (n) {
            anomaly *a = &al.items.data[0];
            ic_error_at(err, "", 0, "the history violates an axiom: %s: %s", anomaly_name(a->kind),
                        a->detail ? a->detail : anomaly_summary(a->kind));
        }
        anomaly_list_free(&al);
        if (n) return CERT_REJECT;
    }
    uint8_t *part = history_participants(h);
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
                        h->txns[t].status == TXN_ABORTED ? "aborted" : "indeterminate and never read");
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
