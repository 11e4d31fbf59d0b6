/* test_certificate.c — certificates: built from a version order, written,
 * read back and verified; hand-tampered ones rejected with the message
 * naming the first broken condition; malformed ones rejected with a line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/reports/cert_build.h"
#include "frontend/reports/cert_file.h"
#include "parse_helpers.h"

/* T1 (s1) writes x=1; T2 (s2) reads x=1, writes x=2; T3 (s1) reads x=2, writes y=5. */
static const char *H_CHAIN =
    "w(1,1,1,1)\n"
    "r(1,1,2,2)\n"
    "w(1,2,2,2)\n"
    "r(1,2,1,3)\n"
    "w(2,5,1,3)\n";

/* Write skew: T1 and T2 both read x and y initial, T1 writes x, T2 writes y. SI yes, SER no. */
static const char *H_SKEW =
    "r(1,0,1,1)\n"
    "r(2,0,1,1)\n"
    "w(1,1,1,1)\n"
    "r(1,0,2,2)\n"
    "r(2,0,2,2)\n"
    "w(2,2,2,2)\n";

static history *load(const char *text) {
    ic_error err;
    history *h = load_str(FORMAT_TEXT, text, &err);
    assert_non_null(h);
    return h;
}

/* Version order from (ext key, ext txn ...) lists; INIT is prepended. */
static void make_vo(const history *h, version_order *vo, const int64_t (*keys)[4], int nkeys) {
    vo->num_keys = h->num_keys;
    vo->start = calloc(h->num_keys + 1, sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        vec_push(vo->txns, 0u);
        for (int i = 0; i < nkeys; i++) {
            if (keys[i][0] != h->key_ext[k]) continue;
            for (int j = 1; j < 4 && keys[i][j]; j++)
                for (uint32_t t = 1; t < h->num_txns; t++)
                    if (h->txns[t].ext_id == keys[i][j]) vec_push(vo->txns, t);
        }
    }
    vo->start[h->num_keys] = (uint32_t)vo->txns.len;
}

static char *write_cert(const history *h, const certificate *c) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    cert_write(f, h, c);
    fclose(f);
    return buf;
}

/* Read text as a certificate for h, verify at level si; returns the status,
 * the message in msg, the line in *line. */
static cert_status run(const history *h, const char *text, int si, char *msg, size_t n, long *line) {
    input r;
    input_from_mem(&r, text, strlen(text), "cert");
    certificate c;
    cert_init(&c);
    ic_error err;
    ic_error_clear(&err);
    cert_status st = cert_read(&r, h, &c, &err);
    input_close(&r);
    if (st == CERT_OK) st = cert_verify(h, &c, si, &err, NULL);
    snprintf(msg, n, "%s", err.msg);
    if (line) *line = err.line;
    cert_free(&c);
    return st;
}

static void test_build_write_read_verify(void **state) {
    (void)state;
    history *h = load(H_CHAIN);
    static const int64_t keys[][4] = { { 1, 1, 2, 0 }, { 2, 3, 0, 0 } };
    version_order vo;
    make_vo(h, &vo, keys, 2);
    for (int si = 0; si <= 1; si++) {
        certificate c;
        cert_init(&c);
        ic_error err;
        ic_error_clear(&err);
        assert_int_equal(cert_build(h, &vo, si, &c, &err), CERT_OK);
        assert_int_equal(c.order.len, si ? 6 : 3);
        char *text = write_cert(h, &c);
        char msg[600];
        assert_int_equal(run(h, text, si, msg, sizeof msg, NULL), CERT_OK);
        if (!si) assert_int_equal(run(h, text, 1, msg, sizeof msg, NULL), CERT_OK);   /* SER proves SI */
        if (!si) assert_non_null(strstr(text, "\norder 1 2 3\n"));
        else assert_non_null(strstr(text, "\norder s1 c1 s2 c2 s3 c3\n"));
        assert_non_null(strstr(text, "\nkey 1 INIT 1 2\nkey 2 INIT 3\n"));
        free(text);
        cert_free(&c);
    }
    version_order_free(&vo);
    history_free(h);
}

static void test_write_skew_si_only(void **state) {
    (void)state;
    history *h = load(H_SKEW);
    static const int64_t keys[][4] = { { 1, 1, 0, 0 }, { 2, 2, 0, 0 } };
    version_order vo;
    make_vo(h, &vo, keys, 2);
    certificate c;
    cert_init(&c);
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(cert_build(h, &vo, 0, &c, &err), CERT_REJECT);
    assert_non_null(strstr(err.msg, "dependency cycle"));
    ic_error_clear(&err);
    assert_int_equal(cert_build(h, &vo, 1, &c, &err), CERT_OK);
    char *text = write_cert(h, &c), msg[600];
    assert_int_equal(run(h, text, 1, msg, sizeof msg, NULL), CERT_OK);
    assert_int_equal(run(h, text, 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "the certificate orders start and commit events (level si); it does not prove serializability");
    /* a SER order for it must break an RW edge */
    const char *ser = "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\nkey 2 INIT 2\norder 1 2\nend\n";
    assert_int_equal(run(h, ser, 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "RW 1: txn 2 reads 1=init, which txn 1's 1=1 overwrites next; so txn 2 must come before txn 1, "
                             "but the commit order puts txn 1 first");
    free(text);
    cert_free(&c);
    version_order_free(&vo);
    history_free(h);
}

#define CHAIN_HEAD "isocheck-certificate 1\nlevel ser\n"

static void expect_reject(const char *cert, int si, const char *want, long want_line) {
    history *h = load(H_CHAIN);
    char msg[600];
    long line = -1;
    cert_status st = run(h, cert, si, msg, sizeof msg, &line);
    if (strcmp(msg, want)) fprintf(stderr, "got: %s\n", msg);
    assert_int_equal(st, CERT_REJECT);
    assert_string_equal(msg, want);
    if (want_line >= 0) assert_int_equal(line, want_line);
    history_free(h);
}

static void expect_malformed(const char *cert, const char *want, long want_line) {
    history *h = load(H_CHAIN);
    char msg[600];
    long line = -1;
    cert_status st = run(h, cert, 0, msg, sizeof msg, &line);
    if (strcmp(msg, want)) fprintf(stderr, "got: %s\n", msg);
    assert_int_equal(st, CERT_MALFORMED);
    assert_string_equal(msg, want);
    assert_int_equal(line, want_line);
    history_free(h);
}

static void test_tampered(void **state) {
    (void)state;
    char msg[600];
    history *h = load(H_CHAIN);
    assert_int_equal(run(h, CHAIN_HEAD "key 1 INIT 1 2\nkey 2 INIT 3\norder 1 2 3\nend\n", 0, msg, sizeof msg, NULL), CERT_OK);
    history_free(h);
    /* swapped versions: T2 read T1's x, so T1's version cannot follow T2's */
    expect_reject(CHAIN_HEAD "key 1 INIT 2 1\nkey 2 INIT 3\norder 1 2 3\nend\n", 0,
                  "WW 1: txn 2's 1=2 is the version right before txn 1's 1=1; so txn 2 must come before txn 1, "
                  "but the commit order puts txn 1 first", 5);
    /* wrong commit order */
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2\nkey 2 INIT 3\norder 2 1 3\nend\n", 0,
                  "WW 1: txn 1's 1=1 is the version right before txn 2's 1=2; so txn 1 must come before txn 2, "
                  "but the commit order puts txn 2 first", 5);
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2\nkey 2 INIT 3\norder 3 1 2\nend\n", 0,
                  "SO: txn 1 precedes txn 3 in session 1; so txn 1 must come before txn 3, but the commit order puts txn 3 first",
                  5);
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2\nkey 2 INIT 3\norder 1 3 2\nend\n", 0,
                  "WR 1: txn 3 reads 1=2 written by txn 2; so txn 2 must come before txn 3, but the commit order puts txn 3 first",
                  5);
    /* missing key */
    expect_reject(CHAIN_HEAD "key 2 INIT 3\norder 1 2 3\nend\n", 0, "key 1: missing from the certificate (txn 1 writes it)", 0);
    /* a writer left out of a key's order */
    expect_reject(CHAIN_HEAD "key 1 INIT 2\nkey 2 INIT 3\norder 1 2 3\nend\n", 0,
                  "key 1: txn 1 writes this key but is missing from the version order", 3);
    /* unknown transaction / key, non-writer, repeats */
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2\nkey 2 INIT 3\norder 1 2 99\nend\n", 0, "unknown transaction 99", 5);
    expect_reject(CHAIN_HEAD "key 7 INIT 1\nend\n", 0, "unknown key 7 (not in the history)", 3);
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2\nkey 2 INIT 3 1\norder 1 2 3\nend\n", 0, "key 2: txn 1 does not write this key", 4);
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2 1\nkey 2 INIT 3\norder 1 2 3\nend\n", 0, "key 1: txn 1 is listed twice", 3);
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2\nkey 1 INIT 1 2\nend\n", 0, "key 1 listed twice (first on line 3)", 4);
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2\nkey 2 INIT 3\norder 1 2\nend\n", 0, "txn 3 is missing from the commit order", 0);
    expect_reject(CHAIN_HEAD "key 1 INIT 1 2\nkey 2 INIT 3\norder 1 2 3 2\nend\n", 0, "txn 2 appears twice in the commit order", 5);
    /* SI: events */
    expect_reject("isocheck-certificate 1\nlevel si\nkey 1 INIT 1 2\nkey 2 INIT 3\norder s1 c1 s2 s3 c2 c3\nend\n", 1,
                  "WR 1: txn 3 reads 1=2 written by txn 2; so txn 2 must commit before txn 3 starts, but the order has s3 first", 5);
    expect_reject("isocheck-certificate 1\nlevel si\nkey 1 INIT 1 2\nkey 2 INIT 3\norder s1 c1 c2 s2 s3 c3\nend\n", 1,
                  "txn 2 commits before it starts (c2 before s2)", 5);
}

static void test_malformed(void **state) {
    (void)state;
    expect_malformed("", "empty file: expected 'isocheck-certificate 1'", 0);
    expect_malformed("isocheck-certificate 2\n", "expected format version 1, found '2'", 1);
    expect_malformed("isocheck-certificate 1\nkey 1 INIT\n", "expected 'level si' or 'level ser' before 'key 1 INIT'", 2);
    expect_malformed(CHAIN_HEAD "key 1 INIT 1 2\n", "expected 'end' as the last line (truncated certificate?)", 3);
    expect_malformed(CHAIN_HEAD "key 1 INIT x\nend\n", "expected a transaction id, found 'x'", 3);
    expect_malformed(CHAIN_HEAD "order 1 INIT\nend\n", "expected a transaction, found 'INIT' (INIT is implicitly first)", 3);
    expect_malformed(CHAIN_HEAD "frobnicate\nend\n", "expected 'key', 'read', 'view', 'order' or 'end', found 'frobnicate'", 3);
    expect_malformed(CHAIN_HEAD "end\nkey 1 INIT\n", "expected nothing after 'end', found 'key 1 INIT'", 4);
    expect_malformed("isocheck-certificate 1\nlevel si\norder 1\nend\n", "expected an event sTXN or cTXN, found '1'", 3);
    /* each kind of line: header, level, key, order, end */
    expect_malformed("isocheck-certificate 1 x\n", "expected end of line, found 'x'", 1);
    expect_malformed(CHAIN_HEAD "level ser\n", "expected one 'level' line, found a second one", 3);
    expect_malformed("isocheck-certificate 1\nlevel foo\n", "expected a level with certificates (rc, ra, cc, pc, psi, si, ser, si-plain, ser-plain, rr, strong-si, sser), found 'foo'", 2);
    expect_malformed(CHAIN_HEAD "key \"a INIT\n", "expected '\"' closing the key, found end of line", 3);
    expect_malformed(CHAIN_HEAD "key 1x INIT\nend\n", "expected a space after the key, found 'x INIT'", 3);
    expect_malformed(CHAIN_HEAD "key 1\nend\n", "expected the key's version order (INIT first), found end of line", 3);
    expect_malformed(CHAIN_HEAD "key 1 INIT 1,2\nend\n", "expected a space between transactions, found ',2'", 3);
    expect_malformed(CHAIN_HEAD "order 1,2\nend\n", "expected a space between events, found ',2'", 3);
    expect_malformed(CHAIN_HEAD "end x\n", "expected end of line, found 'x'", 3);
    expect_reject(CHAIN_HEAD "key \"x\" INIT\nend\n", 0, "unknown key \"x\" (not in the history)", 3);
    expect_reject(CHAIN_HEAD "key 1 INIT #9\nend\n", 0, "unknown transaction #9", 3);
}

/* cert_edges(), the enumeration the builder and the verifier share: its
 * edges in the documented order with their operations, and a callback
 * that returns 0 stops it. */
typedef struct seen { dep_edge e[16]; uint32_t r[16], wf[16], wt[16]; int n, stop_at; } seen;

static int record_edge(void *ctx, const dep_edge *e, uint32_t r, uint32_t wf, uint32_t wt) {
    seen *s = ctx;
    assert_true(s->n < 16);
    s->e[s->n] = *e; s->r[s->n] = r; s->wf[s->n] = wf; s->wt[s->n] = wt;
    return ++s->n != s->stop_at;
}

static uint32_t txn_of(const history *h, int64_t ext) {
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (h->txns[t].ext_id == ext) return t;
    fail();
    return 0;
}

/* the op of t on key k of the kind, with the value */
static uint32_t find_op(const history *h, uint32_t t, uint32_t k, unsigned kind, int64_t v) {
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
        if (h->op_key[op] == k && (h->op_kind[op] & OP_KIND_MASK) == kind && history_op_value(h, op) == v) return op;
    fail();
    return 0;
}

static void test_edges_enumeration(void **state) {
    (void)state;
    history *h = load(H_CHAIN);
    static const int64_t keys[][4] = { { 1, 1, 2, 0 }, { 2, 3, 0, 0 } };
    version_order vo;
    make_vo(h, &vo, keys, 2);
    uint32_t t1 = txn_of(h, 1), t2 = txn_of(h, 2), t3 = txn_of(h, 3), x = 0, y = 1;
    assert_int_equal(h->key_ext[x], 1);
    uint8_t part[8] = { 1, 1, 1, 1 };
    assert_true(h->num_txns <= 8);
    seen s;
    memset(&s, 0, sizeof s);
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(cert_edges(h, &vo, NULL, part, record_edge, &s, &err), 1);
    /* SO; WW per key (INIT's write of key k is op k); per reader in
     * transaction order (T3, in T1's session, is transaction 2) its WR;
     * no RW: each read shows the version right before the reader's own */
    assert_true(t3 < t2);
    const dep_edge want[] = {
        { t1, t3, HISTORY_NONE, DEP_SO },
        { 0, t1, x, DEP_WW }, { t1, t2, x, DEP_WW }, { 0, t3, y, DEP_WW },
        { t2, t3, x, DEP_WR }, { t1, t2, x, DEP_WR },
    };
    assert_int_equal(s.n, 6);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(s.e[i].from, want[i].from);
        assert_int_equal(s.e[i].to, want[i].to);
        assert_int_equal(s.e[i].key, want[i].key);
        assert_int_equal(s.e[i].kind, want[i].kind);
    }
    assert_int_equal(s.r[0], HISTORY_NONE);
    assert_int_equal(s.wf[1], x);
    assert_int_equal(s.wt[1], find_op(h, t1, x, OP_WRITE, 1));
    assert_int_equal(s.wf[2], find_op(h, t1, x, OP_WRITE, 1));
    assert_int_equal(s.wt[2], find_op(h, t2, x, OP_WRITE, 2));
    assert_int_equal(s.r[4], find_op(h, t3, x, OP_READ, 2));
    assert_int_equal(s.wf[4], find_op(h, t2, x, OP_WRITE, 2));
    assert_int_equal(s.wt[4], HISTORY_NONE);
    assert_int_equal(s.r[5], find_op(h, t2, x, OP_READ, 1));
    assert_int_equal(s.wf[5], find_op(h, t1, x, OP_WRITE, 1));
    /* a version order without T2's version of key 1 is no version order */
    static const int64_t skip[][4] = { { 1, 1, 0, 0 }, { 2, 3, 0, 0 } };
    version_order vo2;
    make_vo(h, &vo2, skip, 2);
    memset(&s, 0, sizeof s);
    assert_int_equal(cert_edges(h, &vo2, NULL, part, record_edge, &s, &err), 0);
    assert_string_equal(err.msg, "key 1: txn 2 writes this key but is missing from the version order");
    version_order_free(&vo2);
    /* a callback that says stop stops it */
    memset(&s, 0, sizeof s);
    s.stop_at = 2;
    ic_error_clear(&err);
    assert_int_equal(cert_edges(h, &vo, NULL, part, record_edge, &s, &err), 0);
    assert_int_equal(s.n, 2);
    version_order_free(&vo);
    history_free(h);
    /* RW: in write skew each reads the initial version the other's write
     * overwrites next; the edge carries the read and that write */
    h = load(H_SKEW);
    static const int64_t skew[][4] = { { 1, 1, 0, 0 }, { 2, 2, 0, 0 } };
    make_vo(h, &vo, skew, 2);
    t1 = txn_of(h, 1); t2 = txn_of(h, 2);
    memset(&s, 0, sizeof s);
    assert_int_equal(cert_edges(h, &vo, NULL, part, record_edge, &s, &err), 1);
    int rw = 0;
    for (int i = 0; i < s.n; i++) {
        if (s.e[i].kind != DEP_RW) continue;
        uint32_t a = s.e[i].from, b = s.e[i].to, k = s.e[i].key;
        assert_true((a == t1 && b == t2 && k == y) || (a == t2 && b == t1 && k == x));
        assert_int_equal(s.r[i], find_op(h, a, k, OP_READ, VALUE_INIT));
        assert_int_equal(s.wf[i], HISTORY_NONE);
        assert_int_equal(s.wt[i], find_op(h, b, k, OP_WRITE, b == t1 ? 1 : 2));
        rw++;
    }
    assert_int_equal(rw, 2);
    version_order_free(&vo);
    history_free(h);
}

static history *load_elle(const char *text) {
    ic_error err;
    history *h = load_str(FORMAT_ELLE, text, &err);
    assert_non_null(h);
    return h;
}

/* A list read after the reader's own append shows its snapshot: the order
 * that puts the reader first contradicts [1 2] and is rejected by the
 * verifier's own replay, before any commit order is looked at. */
static void test_list_read_after_own_append(void **state) {
    (void)state;
    history *h = load_elle("{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                           "{:type :ok, :f :txn, :process 1, :index 2, :value [[:append 1 2] [:r 1 [1 2]]]}\n");
    char msg[600];
    long line;
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1 2\norder 1 2\nend\n", 0, msg, sizeof msg, NULL), CERT_OK);
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 2 1\norder 2 1\nend\n", 0, msg, sizeof msg, &line), CERT_REJECT);
    assert_string_equal(msg, "key 1: txn 2's read [1 2] (t:2): without its own appends the list is not the list of any version in "
                             "the certificate");
    assert_int_equal(line, 3);
    /* right versions, wrong commit order: the WR edge of the prefix read */
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1 2\norder 2 1\nend\n", 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "WW 1: txn 1's 1=1 is the version right before txn 2's 1=2; so txn 1 must come before txn 2, but the commit order puts txn 2 first");
    history_free(h);
}

/* The verifier replays reads itself: an INT violation is rejected without
 * any axiom check. */
static void test_internal_read_rejected(void **state) {
    (void)state;
    history *h = load("w(1,1,1,1)\nw(1,2,1,1)\nr(1,1,1,1)\n");
    char msg[600];
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\norder 1\nend\n", 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "key 1: txn 1's read 1 (t:3): after its own write of the key it must see that write");
    history_free(h);
    h = load("w(1,1,1,1)\nr(1,1,2,2)\nr(1,0,2,2)\n");
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\norder 1 2\nend\n", 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "key 1: txn 2's read init (t:3): it must see what its earlier read of the key saw");
    history_free(h);
}

/* Indeterminate transactions take part exactly when the commit order lists
 * them; one whose write is read must; aborted ones never. */
static void test_indeterminate_participation(void **state) {
    (void)state;
    history *h = load_elle("{:type :info, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}\n"
                           "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]]]}\n"
                           "{:type :info, :f :txn, :process 2, :index 3, :value [[:append 2 5]]}\n"
                           "{:type :fail, :f :txn, :process 3, :index 4, :value [[:append 2 6]]}\n");
    char msg[600];
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\norder 1 2\nend\n", 0, msg, sizeof msg, NULL), CERT_OK);
    /* the unread one may have committed or not */
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\nkey 2 INIT 3\norder 1 3 2\nend\n", 0, msg, sizeof msg, NULL), CERT_OK);
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\nkey 2 INIT 3\norder 1 2\nend\n", 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "key 2: txn 3 did not commit (indeterminate and not in the commit order) but is in the version order");
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\norder 1 3 2\nend\n", 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "key 2: missing from the certificate (txn 3 writes it)");
    /* the read one must have committed */
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\norder 2\nend\n", 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "key 1: txn 2's read [1] (t:2): without its own appends the list is not the list of any version in the certificate");
    assert_int_equal(run(h, "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\nkey 2 INIT 4\norder 1 4 2\nend\n", 0, msg, sizeof msg, NULL), CERT_REJECT);
    assert_string_equal(msg, "txn 4 did not commit (aborted) but is in the commit order");
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_write_read_verify),
        cmocka_unit_test(test_write_skew_si_only),
        cmocka_unit_test(test_tampered),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_edges_enumeration),
        cmocka_unit_test(test_list_read_after_own_append),
        cmocka_unit_test(test_internal_read_rejected),
        cmocka_unit_test(test_indeterminate_participation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
