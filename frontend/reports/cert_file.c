/* cert_file.c — certificates in the text format of doc/certificate.md
 * (contract in cert_file.h). */
#include "frontend/reports/cert_file.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/formats/lex.h"
#include "frontend/history/u64map.h"

/* Are the transactions' external ids unique (then they name them, else
 * "#index")? */
static int ext_ids_unique(const history *h) {
    u64map m;
    u64map_init(&m);
    int ok = 1;
    for (uint32_t t = 1; t < h->num_txns && ok; t++)
        if (u64map_put(&m, (uint64_t)h->txns[t].ext_id, t) != t) ok = 0;
    u64map_free(&m);
    return ok;
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
    int legacy = c->level == LEVEL_SI || c->level == LEVEL_SER;   /* their form says which */
    const cert_form *f = cert_form_of(c->level);
    fprintf(out, "level %s\n", legacy ? (c->si ? "si" : "ser") : level_name(c->level));
    if (!f || !f->weak) fprintf(out, "# version order per key, oldest first: key KEY INIT WRITER...\n");
    for (uint32_t k = 0; f && !f->weak && k < c->vo.num_keys; k++) {
        fputs("key ", out);
        write_key(out, h, k);
        for (uint32_t i = c->vo.start[k]; i < c->vo.start[k + 1]; i++) { fputc(' ', out); write_txn(out, h, unique, c->vo.txns.data[i]); }
        fputc('\n', out);
    }
    if (c->reads_from.len)
        fprintf(out, "# reads of a value several transactions wrote, or of nil (an absent version): read READER KEY WRITER\n");
    for (size_t i = 0; i + 2 < c->reads_from.len; i += 3) {    /* a (reader, key)'s writers on one line */
        const uint32_t *e = c->reads_from.data + i;
        if (i && e[-3] == e[0] && e[-2] == e[1]) { fputc(' ', out); write_txn(out, h, unique, e[2]); continue; }
        if (i) fputc('\n', out);
        fputs("read ", out);
        write_txn(out, h, unique, e[0]);
        fputc(' ', out);
        write_key(out, h, e[1]);
        fputc(' ', out);
        write_txn(out, h, unique, e[2]);
    }
    if (c->reads_from.len) fputc('\n', out);
    if (c->views.len)
        fprintf(out, "# predicate reads' views of keys they did not return: view READER N KEY WRITER (its N-th predicate read)\n");
    for (size_t i = 0; i + 3 < c->views.len; i += 4) {
        fputs("view ", out);
        write_txn(out, h, unique, c->views.data[i]);
        fprintf(out, " %" PRIu32 " ", c->views.data[i + 1]);
        write_key(out, h, c->views.data[i + 2]);
        fputc(' ', out);
        write_txn(out, h, unique, c->views.data[i + 3]);
        fputc('\n', out);
    }
    if (f && !f->ordered) fprintf(out, "# no commit order: the version orders are the certificate\n");
    else if (f && f->weak) fprintf(out, "# commit order of transactions, earliest first (INIT precedes them): the certificate\n");
    else fprintf(out, c->si ? "# commit order of events, earliest first: sT = T starts, cT = T commits\n"
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

/* One cert_read(): the input, the certificate being filled and the
 * version orders' (key, transaction) pairs in file order. */
typedef struct rd {
    input *r;
    const char *name;
    ic_error *err;
    cert_status st;
    const lookup *L;
    certificate *c;
    int level;                   /* -1 until the 'level' line: 0 transactions, 1 events, 2 no order (psi) */
    vec_u32 kk, kt;
    int weak;                    /* rc, ra, cc: no 'key' lines (cert_form.weak) */
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

/* The first line: "isocheck-certificate 1".  1, or 0 (malformed). */
static int read_header(rd *R, const char *p) {
    char fb[48];
    if (!word_is(p, "isocheck-certificate")) { bad(R, "expected 'isocheck-certificate 1', found %s", lex_found(p, fb, sizeof fb)); return 0; }
    p += 20; lex_space(&p);
    if (!(p[0] == '1' && end_of_token(p + 1))) { bad(R, "expected format version 1, found %s", lex_found(p, fb, sizeof fb)); return 0; }
    p++; lex_space(&p);
    if (*p) { bad(R, "expected end of line, found %s", lex_found(p, fb, sizeof fb)); return 0; }
    return 1;
}

/* After "level": a level with a certificate form (certificate.h; si, ser,
 * pc, psi, si-plain, ser-plain, strong-si, sser, rc, ra, cc, rr), once.  1, or 0
 * (malformed). */
static int read_level(rd *R, const char *p) {
    char fb[48], name[32];
    if (R->level >= 0) { bad(R, "expected one 'level' line, found %s", "a second one"); return 0; }
    size_t n = strcspn(p, " \t");
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
    int l = n < sizeof name ? level_by_name(name) : -1;
    const cert_form *f = l >= 0 ? cert_form_of((check_level_id)l) : NULL;
    if (!f) { bad(R, "expected a level with certificates (rc, ra, cc, pc, psi, si, ser, si-plain, ser-plain, rr, strong-si, sser), "
                  "found %s", lex_found(p, fb, sizeof fb)); return 0; }
    p += n;
    R->level = !f->ordered ? 2 : f->events;
    R->weak = f->weak;
    lex_space(&p);
    if (*p) { bad(R, "expected end of line, found %s", lex_found(p, fb, sizeof fb)); return 0; }
    R->c->si = f->events;
    R->c->level = (check_level_id)l;
    return 1;
}

/* After "key": the key (an integer or a quoted string) at *p; *k is
 * UINT32_MAX when the history has no such key, show its text for
 * messages.  1, or 0 (malformed). */
static int read_key_name(rd *R, const char **p, uint32_t *k, char *show, size_t n) {
    char fb[48];
    if (**p == '"') {
        vec_char s; vec_init(s);
        (*p)++;
        while (**p && **p != '"') {
            if (**p == '\\' && ((*p)[1] == '"' || (*p)[1] == '\\')) (*p)++;
            vec_push(s, *(*p)++);
        }
        if (**p != '"') { vec_free(s); bad(R, "expected '\"' closing the key, found %s", "end of line"); return 0; }
        (*p)++;
        *k = find_skey(R->L, s.data ? s.data : "", s.len);
        snprintf(show, n, "\"%.*s\"", (int)(s.len > 120 ? 120 : s.len), s.data ? s.data : "");
        vec_free(s);
        return 1;
    }
    int64_t v;
    if (lex_i64(p, &v) != 1) { bad(R, "expected a key (an integer or a quoted string), found %s", lex_found(*p, fb, sizeof fb)); return 0; }
    *k = u64map_get(&R->L->ikey, (uint64_t)v);
    snprintf(show, n, "%" PRId64, v);
    return 1;
}

/* A key of the history and the space after it (the read and view lines).
 * 1, or 0 (R->st says why: malformed, or a key the history lacks). */
static int read_known_key(rd *R, const char **p, uint32_t *k) {
    char fb[48], kshow[160];
    if (!read_key_name(R, p, k, kshow, sizeof kshow)) return 0;
    if (*k == UINT32_MAX) {
        ic_error_at(R->err, R->name, R->r->line, "unknown key %s (not in the history)", kshow);
        R->st = CERT_REJECT; return 0;
    }
    if (!end_of_token(*p)) { bad(R, "expected a space after the key, found %s", lex_found(*p, fb, sizeof fb)); return 0; }
    lex_space(p);
    return 1;
}

/* After "key": a key and its version order.  1, or 0 (R->st says why). */
static int read_key_line(rd *R, const char *p) {
    char fb[48], kshow[160];
    uint32_t k = UINT32_MAX;
    if (!read_key_name(R, &p, &k, kshow, sizeof kshow)) return 0;
    if (!end_of_token(p)) { bad(R, "expected a space after the key, found %s", lex_found(p, fb, sizeof fb)); return 0; }
    if (k == UINT32_MAX) {
        ic_error_at(R->err, R->name, R->r->line, "unknown key %s (not in the history)", kshow);
        R->st = CERT_REJECT; return 0;
    }
    if (R->c->key_line[k]) {
        ic_error_at(R->err, R->name, R->r->line, "key %s listed twice (first on line %u)", kshow, R->c->key_line[k]);
        R->st = CERT_REJECT; return 0;
    }
    R->c->key_line[k] = (uint32_t)R->r->line;
    lex_space(&p);
    int first = 1;
    while (*p) {
        uint32_t t;
        if (parse_txn(R, R->L, &p, first, &t) <= 0) return 0;
        if (!end_of_token(p)) { bad(R, "expected a space between transactions, found %s", lex_found(p, fb, sizeof fb)); return 0; }
        vec_push(R->kk, k); vec_push(R->kt, t);
        first = 0;
        lex_space(&p);
    }
    if (first) { bad(R, "expected the key's version order (INIT first), found %s", "end of line"); return 0; }
    return 1;
}

/* After "read": READER KEY WRITER..., in (reader, key) order, each pair
 * once: one writer for all the reader's external reads of the key, or one
 * per read in program order (a triple each).  1, or 0 (R->st says why). */
static int read_reads_from_line(rd *R, const char *p) {
    char fb[48];
    uint32_t rt, k = UINT32_MAX, wt;
    if (parse_txn(R, R->L, &p, 0, &rt) <= 0) return 0;
    if (!end_of_token(p)) { bad(R, "expected a space after the reader, found %s", lex_found(p, fb, sizeof fb)); return 0; }
    lex_space(&p);
    if (!read_known_key(R, &p, &k)) return 0;
    vec_u32 *v = &R->c->reads_from;
    if (v->len && (v->data[v->len - 3] > rt || (v->data[v->len - 3] == rt && v->data[v->len - 2] >= k))) {
        ic_error_at(R->err, R->name, R->r->line, "read lines must be in order of reader and key, each pair once");
        R->st = CERT_REJECT; return 0;
    }
    do {                                         /* one writer, or one per external read of the key (rc) */
        if (parse_txn(R, R->L, &p, 1, &wt) <= 0) return 0;
        if (!end_of_token(p)) { bad(R, "expected a space between writers, found %s", lex_found(p, fb, sizeof fb)); return 0; }
        lex_space(&p);
        vec_push(*v, rt); vec_push(*v, k); vec_push(*v, wt);
        vec_push(R->c->reads_from_line, (uint32_t)R->r->line);
    } while (*p);
    return 1;
}

/* After "view": READER N KEY WRITER, in (reader, N, key) order, each
 * triple once (N: the reader's N-th predicate read, from 1).  1, or 0
 * (R->st says why). */
static int read_view_line(rd *R, const char *p) {
    char fb[48];
    uint32_t rt, k = UINT32_MAX, wt;
    int64_t n;
    if (parse_txn(R, R->L, &p, 0, &rt) <= 0) return 0;
    if (!end_of_token(p)) { bad(R, "expected a space after the reader, found %s", lex_found(p, fb, sizeof fb)); return 0; }
    lex_space(&p);
    const char *at = p;
    if (lex_i64(&p, &n) != 1 || n < 1 || n > UINT32_MAX - 1 || !end_of_token(p)) {
        bad(R, "expected the number of the reader's predicate read (1 for its first), found %s", lex_found(at, fb, sizeof fb));
        return 0;
    }
    lex_space(&p);
    if (!read_known_key(R, &p, &k)) return 0;
    if (parse_txn(R, R->L, &p, 1, &wt) <= 0) return 0;
    lex_space(&p);
    if (*p) { bad(R, "expected end of line, found %s", lex_found(p, fb, sizeof fb)); return 0; }
    vec_u32 *v = &R->c->views;
    uint32_t nn = (uint32_t)n;
    if (v->len) {
        const uint32_t *e = v->data + v->len - 4;
        if (e[0] > rt || (e[0] == rt && (e[1] > nn || (e[1] == nn && e[2] >= k)))) {
            ic_error_at(R->err, R->name, R->r->line, "view lines must be in order of reader, predicate read and key, each once");
            R->st = CERT_REJECT; return 0;
        }
    }
    vec_push(*v, rt); vec_push(*v, nn); vec_push(*v, k); vec_push(*v, wt);
    vec_push(R->c->views_line, (uint32_t)R->r->line);
    return 1;
}

/* After "order": transactions (SER) or events sTXN / cTXN (SI).  1, or 0
 * (R->st says why). */
static int read_order_line(rd *R, const char *p) {
    char fb[48];
    if (R->level == 2) { bad(R, R->c->level == LEVEL_RR ? "expected no 'order' line in an rr certificate (it has none), found %s"
                                                        : "expected no 'order' line in a psi certificate (it has none), found %s", "one"); return 0; }
    while (*p) {
        uint32_t ev_kind = 0;
        if (R->level == 1) {
            if (*p == 's' || *p == 'c') ev_kind = *p++ == 'c';
            else { bad(R, "expected an event sTXN or cTXN, found %s", lex_found(p, fb, sizeof fb)); return 0; }
        }
        uint32_t t;
        if (parse_txn(R, R->L, &p, 0, &t) <= 0) return 0;
        if (!end_of_token(p)) { bad(R, "expected a space between events, found %s", lex_found(p, fb, sizeof fb)); return 0; }
        vec_push(R->c->order, R->level == 1 ? (t << 1 | ev_kind) : t);
        vec_push(R->c->order_line, (uint32_t)R->r->line);
        lex_space(&p);
    }
    return 1;
}

/* One line that is not blank or a comment.  1, or 0 (R->st says why). */
static int read_line(rd *R, const char *p, int *header, int *ended) {
    char fb[48];
    if (*ended) { bad(R, "expected nothing after 'end', found %s", lex_found(p, fb, sizeof fb)); return 0; }
    if (!*header) return *header = read_header(R, p);
    if (word_is(p, "level")) { p += 5; lex_space(&p); return read_level(R, p); }
    if (R->level < 0) { bad(R, "expected 'level si' or 'level ser' before %s", lex_found(p, fb, sizeof fb)); return 0; }
    if (word_is(p, "end")) {
        p += 3; lex_space(&p);
        if (*p) { bad(R, "expected end of line, found %s", lex_found(p, fb, sizeof fb)); return 0; }
        return *ended = 1;
    }
    if (word_is(p, "key") && R->weak) {
        bad(R, "expected no 'key' line in a certificate of rc, ra or cc (the commit order is the certificate), found %s", "one");
        return 0;
    }
    if (word_is(p, "key")) { p += 3; lex_space(&p); return read_key_line(R, p); }
    if (word_is(p, "order")) { p += 5; lex_space(&p); return read_order_line(R, p); }
    if (word_is(p, "read")) { p += 4; lex_space(&p); return read_reads_from_line(R, p); }
    if (word_is(p, "view")) { p += 4; lex_space(&p); return read_view_line(R, p); }
    bad(R, "expected 'key', 'read', 'view', 'order' or 'end', found %s", lex_found(p, fb, sizeof fb));
    return 0;
}

/* The per-key version orders from the (key, transaction) pairs, in key
 * order (a key's entries are contiguous in the file; an absent key has
 * INIT only). */
static void assemble_versions(certificate *c, uint32_t nk, const vec_u32 *kk, const vec_u32 *kt) {
    c->vo.num_keys = nk;
    c->vo.start = xcalloc((size_t)nk + 1, sizeof *c->vo.start);
    for (size_t i = 0; i < kk->len; i++) c->vo.start[kk->data[i] + 1]++;
    for (uint32_t k = 0; k < nk; k++) {
        if (!c->vo.start[k + 1]) c->vo.start[k + 1] = 1;
        c->vo.start[k + 1] += c->vo.start[k];
    }
    vec_resize(c->vo.txns, c->vo.start[nk]);
    for (uint32_t k = 0; k < nk; k++) c->vo.txns.data[c->vo.start[k]] = 0;
    uint32_t *fill = xmalloc(((size_t)nk + 1) * sizeof *fill);
    memcpy(fill, c->vo.start, ((size_t)nk + 1) * sizeof *fill);
    for (size_t i = 0; i < kk->len; i++) c->vo.txns.data[fill[kk->data[i]]++] = kt->data[i];
    free(fill);
}

cert_status cert_read(input *r, const history *h, certificate *c, ic_error *err) {
    cert_free(c);
    cert_init(c);
    snprintf(c->file, sizeof c->file, "%s", r->name ? r->name : "");
    lookup L;
    lookup_init(&L, h);
    rd R = { r, c->file, err, CERT_OK, &L, c, -1, { 0 }, { 0 }, 0 };
    vec_init(R.kk); vec_init(R.kt);
    c->key_line = xcalloc(h->num_keys ? h->num_keys : 1, sizeof *c->key_line);
    int header = 0, ended = 0;
    char *line;
    size_t len;
    while ((line = input_line(r, &len))) {
        /* a NUL byte anywhere is bad input, also on a line that would look blank or a comment before it */
        if (len != strlen(line)) { bad(&R, "expected text, found %s", "a NUL byte"); goto out; }
        const char *p = line;
        lex_space(&p);
        if (!*p || *p == '#') continue;
        if (!read_line(&R, p, &header, &ended)) goto out;
    }
    if (r->io_error) { ic_error_at(err, R.name, 0, "read error"); R.st = CERT_MALFORMED; goto out; }
    if (!header) { ic_error_at(err, R.name, 0, "empty file: expected 'isocheck-certificate 1'"); R.st = CERT_MALFORMED; goto out; }
    if (!ended) { ic_error_at(err, R.name, r->line, "expected 'end' as the last line (truncated certificate?)"); R.st = CERT_MALFORMED; goto out; }
    assemble_versions(c, h->num_keys, &R.kk, &R.kt);
out:
    vec_free(R.kk); vec_free(R.kt);
    lookup_free(&L);
    return R.st;
}
