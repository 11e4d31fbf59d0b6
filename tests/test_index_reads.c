/* test_index_reads.c — the index's read pass and writers (known_graph.c's
 * read_task and key_task) against a naive model of the same facts, on
 * random histories built through the builder: registers and lists, several
 * writes of a key in one transaction (only the last is installed), reads
 * after own writes (internal), list reads after own appends, failed
 * operations, aborted and indeterminate transactions.
 *
 * The model scans each participant's operations per key from scratch and
 * finds a read's writer by scanning every operation for the value: none of
 * the index's per-key records, writer searches, final-write flags or
 * buckets.  Compared: the WR edges (reader, writer, key) the index gives
 * (pg_index_base_each), its number of external reads, per key the
 * writers its units hold (INIT and every participant's final write) and,
 * for registers, the units' links (read-modify-write: a reader that
 * writes the key follows the version it read, first come first linked),
 * for one thread and pools of 2 and 3 (the same index for each). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "par.h"
#include "vec.h"
#include "frontend/checking/polygraph.h"

static uint64_t rng;
static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

enum { NKEYS = 6, MAXV = 64 };

/* What the generator knows per key: the installed versions so far (a
 * register: the values; a list: the list's length after each installing
 * transaction, the elements in `list`). */
typedef struct gen_key {
    int is_list;
    int64_t vals[MAXV]; uint32_t nvals;          /* register versions (readable ones) */
    int64_t list[4 * MAXV]; uint32_t len;        /* the list as installed so far */
    uint32_t cuts[MAXV]; uint32_t ncuts;         /* readable prefix lengths (0 first) */
} gen_key;

/* A random history whose reads all observe installed versions of
 * committed or indeterminate transactions (so the index accepts it). */
static history *gen(int lists) {
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_CALL, "gen");
    gen_key g[NKEYS];
    memset(g, 0, sizeof g);
    uint32_t key[NKEYS];
    for (int k = 0; k < NKEYS; k++) {
        key[k] = hb_key(b, k);
        g[k].is_list = lists && k % 2;
        g[k].vals[0] = VALUE_INIT; g[k].nvals = 1;
        g[k].cuts[0] = 0; g[k].ncuts = 1;
    }
    int64_t next = 1;
    uint32_t nsess = 2 + rnd(3), ntx = 10 + rnd(30);
    for (uint32_t i = 0; i < ntx; i++) {
        uint32_t t = hb_txn(b, hb_session(b, rnd(nsess), NULL), i + 1, i + 1);
        uint32_t st = rnd(10), status = st < 7 ? TXN_COMMITTED : st < 9 ? TXN_INDETERMINATE : TXN_ABORTED;
        int64_t own[NKEYS][8]; uint32_t nown[NKEYS] = {0}, wrote[NKEYS] = {0};
        int64_t lastw[NKEYS];
        uint32_t nops = 1 + rnd(7);
        for (uint32_t j = 0; j < nops; j++) {
            int k = (int)rnd(NKEYS);
            gen_key *gk = &g[k];
            unsigned fail = rnd(12) == 0 ? OP_FAILED : 0;
            if (rnd(2) && !(gk->is_list && nown[k] == 8)) {          /* a write or an append */
                int64_t v = next++;
                hb_op(b, t, (gk->is_list ? OP_APPEND : OP_WRITE) | fail, key[k], v, 0);
                if (fail) continue;
                wrote[k] = 1; lastw[k] = v;
                if (gk->is_list) own[k][nown[k]++] = v;
            } else if (!gk->is_list) {                               /* a register read */
                int64_t v = wrote[k] ? lastw[k] : gk->vals[rnd(gk->nvals)];
                hb_op(b, t, OP_READ | fail, key[k], v, 0);
            } else {                                                 /* a list read: a prefix, then own appends */
                int64_t l[4 * MAXV + 8];
                uint32_t n = gk->cuts[rnd(gk->ncuts)];
                memcpy(l, gk->list, n * sizeof *l);
                for (uint32_t a = 0; a < nown[k]; a++) l[n++] = own[k][a];
                hb_list_read(b, t, key[k], l, n, 0);
            }
        }
        hb_txn_status(b, t, (txn_status)status);
        if (status == TXN_ABORTED) continue;
        for (int k = 0; k < NKEYS; k++) {                            /* its versions become readable */
            gen_key *gk = &g[k];
            if (!wrote[k]) continue;
            if (!gk->is_list && gk->nvals < MAXV) gk->vals[gk->nvals++] = lastw[k];
            if (gk->is_list && nown[k] && gk->ncuts < MAXV && gk->len + nown[k] <= 4 * MAXV) {
                memcpy(gk->list + gk->len, own[k], nown[k] * sizeof *own[k]);
                gk->len += nown[k];
                gk->cuts[gk->ncuts++] = gk->len;
            }
        }
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    if (!h) fail_msg("builder refused the history: %s", err.msg);
    return h;
}

/* The naive model ------------------------------------------------------ */

static uint32_t op_txn(const history *h, uint32_t op) {
    for (uint32_t t = 0; t < h->num_txns; t++)
        if (op >= h->txns[t].first_op && op < h->txns[t].first_op + h->txns[t].num_ops) return t;
    fail();
    return 0;
}

/* The successful write or append of value v to key k, by a scan of every op. */
static uint32_t writer_scan(const history *h, uint32_t k, int64_t v) {
    for (uint32_t op = 0; op < h->num_ops; op++) {
        unsigned kind = h->op_kind[op] & OP_KIND_MASK;
        if (h->op_key[op] == k && (kind == OP_WRITE || kind == OP_APPEND) && !(h->op_kind[op] & OP_FAILED) &&
            history_op_value(h, op) == v)
            return op;
    }
    return HISTORY_NONE;
}

/* Participants: INIT, committed ones, and to a fixpoint indeterminate
 * ones whose write a participant's read (any list element) observed. */
static void participants(const history *h, uint8_t *p) {
    for (uint32_t t = 0; t < h->num_txns; t++) p[t] = t == 0 || h->txns[t].status == TXN_COMMITTED;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t op = 0; op < h->num_ops; op++) {
            unsigned kind = h->op_kind[op] & OP_KIND_MASK;
            if ((h->op_kind[op] & OP_FAILED) || (kind != OP_READ && kind != OP_LIST_READ) || !p[op_txn(h, op)]) continue;
            uint32_t n = 1;
            const int64_t *l = NULL;
            int64_t v = history_op_value(h, op);
            if (kind == OP_LIST_READ) l = history_list(h, op, &n);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t w = writer_scan(h, h->op_key[op], l ? l[i] : v);
                if (w == HISTORY_NONE) continue;
                uint32_t u = op_txn(h, w);
                if (!p[u] && h->txns[u].status == TXN_INDETERMINATE) { p[u] = 1; changed = 1; }
            }
        }
    }
}

typedef struct wr { uint32_t reader, writer, key; } wr;
typedef VEC(wr) wr_vec;
static int wr_cmp(const void *a, const void *b) {
    const wr *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->reader != y->reader) return x->reader < y->reader ? -1 : 1;
    return x->writer < y->writer ? -1 : x->writer > y->writer;
}

/* Per participant and key: its first op on the key that is not failed
 * decides (a register write hides the snapshot); the first read after
 * only own appends is the external one.  Each (reader, writer, key) to
 * *out (INIT's too), the count returned. */
static uint32_t model_reads(const history *h, const uint8_t *p, wr_vec *out) {
    uint32_t count = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!p[t]) continue;
        for (uint32_t k = 0; k < h->num_keys; k++) {
            uint32_t own = 0;
            for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
                unsigned kind = h->op_kind[op] & OP_KIND_MASK;
                if (h->op_key[op] != k || (h->op_kind[op] & OP_FAILED)) continue;
                if (kind == OP_WRITE) break;
                if (kind == OP_APPEND) { own++; continue; }
                int64_t v = history_op_value(h, op);
                if (kind == OP_LIST_READ) {
                    uint32_t n;
                    const int64_t *l = history_list(h, op, &n);
                    assert_true(n >= own);
                    v = n - own ? l[n - own - 1] : VALUE_INIT;
                }
                uint32_t w = writer_scan(h, k, v);
                assert_int_not_equal(w, HISTORY_NONE);
                count++;
                uint32_t wt = op_txn(h, w);
                wr e = { t, wt, k };
                vec_push(*out, e);
                break;
            }
        }
    }
    return count;
}

/* Key k's installed writers: INIT, then every participant with a final
 * (last successful) write of k, ascending. */
static void model_writers(const history *h, const uint8_t *p, uint32_t k, vec_u32 *out) {
    vec_clear(*out);
    vec_push(*out, 0u);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (!p[t]) continue;
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            unsigned kind = h->op_kind[op] & OP_KIND_MASK;
            if (h->op_key[op] == k && (kind == OP_WRITE || kind == OP_APPEND) && !(h->op_kind[op] & OP_FAILED)) {
                vec_push(*out, t);
                break;
            }
        }
    }
}

/* Register keys: the read-modify-write links of key k, as pairs (writer
 * of the version read, reader that writes k too), taken in the order of
 * the readers while neither end is linked yet that way; sorted. */
static void model_links(const history *h, const uint8_t *p, const wr_vec *reads, uint32_t k, const vec_u32 *writers,
                        wr_vec *out) {
    vec_clear(*out);
    vec_u32 has_succ, has_pred; vec_init(has_succ); vec_init(has_pred);
    for (size_t i = 0; i < reads->len; i++) {       /* sorted by (key, reader) */
        const wr *r = &reads->data[i];
        int writes = 0;
        for (size_t j = 0; j < writers->len; j++) writes |= writers->data[j] == r->reader;
        if (r->key != k || !writes || r->writer == r->reader) continue;
        int linked = 0;
        for (size_t j = 0; j < has_succ.len; j++) linked |= has_succ.data[j] == r->writer;
        for (size_t j = 0; j < has_pred.len; j++) linked |= has_pred.data[j] == r->reader;
        if (linked) continue;
        vec_push(has_succ, r->writer); vec_push(has_pred, r->reader);
        wr e = { r->reader, r->writer, k };
        vec_push(*out, e);
    }
    (void)h; (void)p;
    vec_free(has_succ); vec_free(has_pred);
}

static int u32_cmp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void collect_wr(void *ctx, const pg_edge *e) {
    if (PG_KIND(e->meta) != DEP_WR) return;
    wr x = { e->to, e->from, PG_KEY(e->meta) };
    vec_push(*(wr_vec *)ctx, x);
}

/* The index of h (on a pool of `threads`, 1: none) against the model. */
static void check_index(const history *h, unsigned threads) {
    uint8_t *p = calloc(h->num_txns, 1);
    assert_non_null(p);
    participants(h, p);
    wr_vec want, got; vec_init(want); vec_init(got);
    uint32_t nreads = model_reads(h, p, &want);
    par_pool *pool = threads > 1 ? par_pool_new(threads) : NULL;
    pg_index ix; ic_error err; ic_error_clear(&err);
    if (!pg_index_build_on(&ix, h, &err, pool)) fail_msg("index refused: %s", err.msg);
    par_pool_free(pool);
    assert_int_equal(ix.num_ext_reads, nreads);
    pg_index_base_each(&ix, collect_wr, &got);
    if (want.len) qsort(want.data, want.len, sizeof *want.data, wr_cmp);
    wr_vec all = want;                               /* INIT's readers too (links from INIT) */
    vec_init(want);
    for (size_t i = 0; i < all.len; i++) if (all.data[i].writer != 0) vec_push(want, all.data[i]);
    if (got.len) qsort(got.data, got.len, sizeof *got.data, wr_cmp);
    assert_int_equal(got.len, want.len);
    for (size_t i = 0; i < want.len; i++) {
        assert_int_equal(got.data[i].key, want.data[i].key);
        assert_int_equal(got.data[i].reader, want.data[i].reader);
        assert_int_equal(got.data[i].writer, want.data[i].writer);
    }
    vec_u32 mw, iw; vec_init(mw); vec_init(iw);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        model_writers(h, p, k, &mw);
        vec_clear(iw);
        for (uint32_t u = ix.key_unit_start[k]; u < ix.key_unit_start[k + 1]; u++) {
            const pg_unit *U = &ix.units.data[u];
            for (uint32_t m = 0; m < pg_unit_len(U); m++) vec_push(iw, ix.members.data[U->m_first + m]);
        }
        qsort(iw.data, iw.len, sizeof *iw.data, u32_cmp);
        assert_int_equal(iw.len, mw.len);
        assert_memory_equal(iw.data, mw.data, mw.len * sizeof *mw.data);
        if (h->has_lists) continue;
        /* the units are the chains of those links: consecutive members */
        wr_vec links, ulinks; vec_init(links); vec_init(ulinks);
        model_links(h, p, &all, k, &mw, &links);
        for (uint32_t u = ix.key_unit_start[k]; u < ix.key_unit_start[k + 1]; u++) {
            const pg_unit *U = &ix.units.data[u];
            for (uint32_t m = 1; m < pg_unit_len(U); m++) {
                wr e = { ix.members.data[U->m_first + m], ix.members.data[U->m_first + m - 1], k };
                vec_push(ulinks, e);
            }
        }
        if (links.len) qsort(links.data, links.len, sizeof *links.data, wr_cmp);
        if (ulinks.len) qsort(ulinks.data, ulinks.len, sizeof *ulinks.data, wr_cmp);
        assert_int_equal(ulinks.len, links.len);
        for (size_t i = 0; i < links.len; i++) {
            assert_int_equal(ulinks.data[i].reader, links.data[i].reader);
            assert_int_equal(ulinks.data[i].writer, links.data[i].writer);
        }
        vec_free(links); vec_free(ulinks);
    }
    vec_free(mw); vec_free(iw); vec_free(all);
    vec_free(want); vec_free(got);
    pg_index_free(&ix);
    free(p);
}

static void registers_match_model(void **state) {
    (void)state;
    rng = 0x9e3779b97f4a7c15ull;
    for (int round = 0; round < 150; round++) {
        history *h = gen(0);
        for (unsigned th = 1; th <= 3; th++) check_index(h, th);
        history_free(h);
    }
}

static void lists_match_model(void **state) {
    (void)state;
    rng = 0x243f6a8885a308d3ull;
    for (int round = 0; round < 150; round++) {
        history *h = gen(1);
        for (unsigned th = 1; th <= 3; th++) check_index(h, th);
        history_free(h);
    }
}

/* A read of an aborted transaction's write is refused by the read pass
 * (the writer's in_graph byte is read only when some transaction does not
 * take part), on one thread and on pools; with the writer committed
 * instead, the same history is indexed, its read a WR edge. */
static history *aborted_read_history(txn_status writer_status) {
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_CALL, "gen");
    uint32_t x = hb_key(b, 1), y = hb_key(b, 2);
    for (uint32_t i = 0; i < 40; i++) {               /* filler: committed writes and reads of INIT */
        uint32_t t = hb_txn(b, hb_session(b, i % 3, NULL), 100 + i, 100 + i);
        hb_op(b, t, OP_WRITE, y, 1000 + i, 0);
        hb_op(b, t, OP_READ, x, VALUE_INIT, 0);
    }
    uint32_t w = hb_txn(b, hb_session(b, 0, NULL), 1, 1);
    hb_op(b, w, OP_WRITE, x, 7, 0);
    hb_txn_status(b, w, writer_status);
    uint32_t r = hb_txn(b, hb_session(b, 1, NULL), 2, 2);
    hb_op(b, r, OP_READ, x, 7, 0);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

static void aborted_writer_refused(void **state) {
    (void)state;
    for (int committed = 0; committed < 2; committed++) {
        history *h = aborted_read_history(committed ? TXN_COMMITTED : TXN_ABORTED);
        for (unsigned threads = 1; threads <= 3; threads++) {
            par_pool *pool = threads > 1 ? par_pool_new(threads) : NULL;
            pg_index ix;
            ic_error err; ic_error_clear(&err);
            int ok = pg_index_build_on(&ix, h, &err, pool);
            if (committed) {
                assert_true(ok);
                assert_int_equal(ix.num_ext_reads, 41);
                pg_index_free(&ix);
            } else {
                assert_false(ok);
                assert_non_null(strstr(err.msg, "observes a write of an aborted transaction"));
            }
            par_pool_free(pool);
        }
        history_free(h);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registers_match_model),
        cmocka_unit_test(lists_match_model),
        cmocka_unit_test(aborted_writer_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
