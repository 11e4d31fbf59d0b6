/* test_interpret_readers.c — the interpreter's readers of a version, asked
 * for one version at a time (ictx_readers: a writer's from its WR arcs in
 * the fact graph, INIT's from the list kept aside) and the readers that
 * write the key too (the lost-update scan's), against a reference that
 * reads the history by definition: per version of the order, the
 * participants, in transaction order, whose external read of the key
 * observed that writer's version.  Random register and list histories
 * (reads of the initial version, of another transaction's intermediate
 * write, after own appends, read-modify-writes), under version orders that
 * list a writer twice or a transaction that does not write the key; SER
 * and SI (the split graph); one range and several, on a pool and not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/reports/interpret_internal.h"
#include "par.h"

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint32_t rnd(uint32_t n) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

enum { MAXT = 40, MAXO = 5, MAXK = 4, MAXL = 64 };

/* Even keys are registers, odd keys lists; values are unique per key. */
static history *random_history(void) {
    int ntx = 4 + (int)rnd(MAXT - 4), nkeys = 2 + (int)rnd(MAXK - 1), nsess = 1 + (int)rnd(4);
    int64_t written[MAXK][MAXL];         /* every value written to key k so far (registers and lists) */
    int nw[MAXK] = { 0 };
    int64_t next = 1;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "random-readers");
    uint32_t keys[MAXK];
    for (int k = 0; k < nkeys; k++) keys[k] = hb_key(b, k);
    for (int t = 0; t < ntx; t++) {
        uint32_t bt = hb_txn(b, hb_session(b, (int)rnd((uint32_t)nsess), NULL), t + 1, 0);
        int nops = 1 + (int)rnd(MAXO);
        for (int i = 0; i < nops; i++) {
            int k = (int)rnd((uint32_t)nkeys), w = rnd(5) < 2 && nw[k] < MAXL;
            if (k % 2 == 0) {
                if (w) { written[k][nw[k]++] = next; hb_op(b, bt, OP_WRITE, keys[k], next++, 0); }
                else {
                    uint32_t at = rnd((uint32_t)nw[k] + 1);       /* 0: the initial value */
                    hb_op(b, bt, OP_READ, keys[k], at ? written[k][at - 1] : VALUE_INIT, 0);
                }
            } else if (w) {
                written[k][nw[k]++] = next; hb_op(b, bt, OP_APPEND, keys[k], next++, 0);
            } else {
                uint32_t len = nw[k] ? rnd((uint32_t)nw[k] + 1) : 0;   /* a prefix of the appends so far */
                hb_list_read(b, bt, keys[k], written[k], len, 0);
            }
        }
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

/* The reference: the transaction that wrote (key, value) (INIT for the
 * initial value), by a scan of every op; NONE if none did. */
static uint32_t ref_writer(const history *h, uint32_t key, int64_t v) {
    if (v == VALUE_INIT) return 0;
    for (uint32_t t = 1; t < h->num_txns; t++)
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            op_kind k = (op_kind)(h->op_kind[op] & OP_KIND_MASK);
            if (h->op_key[op] == key && (k == OP_WRITE || k == OP_APPEND) && history_op_value(h, op) == v) return t;
        }
    return NONE;
}

/* t's source of key by definition: its first op on key that is no append;
 * if a read, the writer of what it shows without t's own appends before
 * it (a list: the last element of that prefix, INIT when empty).  NONE:
 * no external read, nobody wrote it, or t itself. */
static uint32_t ref_source(const history *h, uint32_t t, uint32_t key) {
    uint32_t own = 0;
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        if (h->op_key[op] != key) continue;
        op_kind k = (op_kind)(h->op_kind[op] & OP_KIND_MASK);
        if (k == OP_APPEND) { own++; continue; }
        if (k == OP_WRITE) return NONE;
        uint32_t w;
        if (k == OP_READ) w = ref_writer(h, key, history_op_value(h, op));
        else {
            uint32_t n;
            const int64_t *l = history_list(h, op, &n);
            if (own > n) return NONE;
            w = n - own ? ref_writer(h, key, l[n - own - 1]) : 0;
        }
        return w == t ? NONE : w;
    }
    return NONE;
}

static int ref_writes(const history *h, uint32_t t, uint32_t key) {
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
        op_kind k = (op_kind)(h->op_kind[op] & OP_KIND_MASK);
        if (h->op_key[op] == key && (k == OP_WRITE || k == OP_APPEND)) return 1;
    }
    return t == 0;
}

/* Per key: INIT, its writers in a random order, now and then one listed
 * twice and a transaction that does not write the key. */
static void random_vo(const history *h, version_order *vo) {
    vo->num_keys = h->num_keys;
    vo->start = xmalloc(((size_t)h->num_keys + 1) * sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        vec_push(vo->txns, 0);
        size_t first = vo->txns.len;
        for (uint32_t t = 1; t < h->num_txns; t++)
            if (ref_writes(h, t, k)) {
                vec_push(vo->txns, t);
                size_t j = first + rnd((uint32_t)(vo->txns.len - first));   /* shuffle in */
                uint32_t x = vo->txns.data[j]; vo->txns.data[j] = t; vo->txns.data[vo->txns.len - 1] = x;
            }
        if (vo->txns.len > first && rnd(3) == 0) {
            uint32_t again = vo->txns.data[first + rnd((uint32_t)(vo->txns.len - first))];
            vec_push(vo->txns, again);
        }
        if (rnd(3) == 0) vec_push(vo->txns, 1 + rnd(h->num_txns - 1));
    }
    vo->start[h->num_keys] = (uint32_t)vo->txns.len;
}

static size_t vidx_checked;

/* Every version's readers, the read-modify-write list and every
 * transaction's version of every key, against the reference. */
static size_t compare_readers(const history *h, const version_order *vo, int level, par_pool *pool, unsigned ranges) {
    interpret_ranges = ranges;
    ictx c;
    ictx_init(&c, h, vo, level, NULL, 0, pool, 1);
    interpret_ranges = 0;
    size_t checked = 0, nrmw = 0;
    vec_u32 got; vec_init(got);
    for (uint32_t k = 0; k < vo->num_keys; k++)
        for (uint32_t g = vo->start[k]; g < vo->start[k + 1]; g++) {
            uint32_t w = vo->txns.data[g], first = g;
            for (uint32_t i = vo->start[k]; i < g; i++) if (vo->txns.data[i] == w) { first = i; break; }
            int versioned = first == g && ref_writes(h, w, k);   /* a later entry, a non-writer: no readers */
            vec_clear(got);
            ictx_readers(&c, k, g, &got);
            size_t n = 0, nw = 0;
            for (uint32_t t = 1; t < h->num_txns; t++) {
                if (!versioned || ref_source(h, t, k) != w) continue;
                assert_true(n < got.len);
                assert_int_equal(got.data[n], t);               /* in transaction order */
                n++;
                if (ref_writes(h, t, k)) {
                    assert_true(nrmw + nw < c.rmw_rd.len);
                    assert_true(c.rmw_rd.data[nrmw + nw] == PAIR(g, t));
                    nw++;
                }
            }
            assert_int_equal(got.len, n);
            nrmw += nw;
            checked += n;
        }
    assert_int_equal(c.rmw_rd.len, nrmw);
    /* every (key, transaction)'s version: the first entry of t in the
     * key's slice when t writes the key, else none (a listed non-writer) */
    for (uint32_t k = 0; k < vo->num_keys; k++)
        for (uint32_t t = 0; t < h->num_txns; t++) {
            uint32_t want = NONE;
            for (uint32_t g = vo->start[k]; g < vo->start[k + 1] && want == NONE && ref_writes(h, t, k); g++)
                if (vo->txns.data[g] == t) want = g;
            assert_int_equal(ictx_vidx(&c, k, t), want);
            vidx_checked += want != NONE;
        }
    assert_int_equal(ictx_vidx(&c, vo->num_keys, 1), NONE);
    vec_free(got);
    ictx_free(&c);
    return checked;
}

static void readers_by_definition(void **state) {
    (void)state;
    par_pool *p2 = par_pool_new(2);
    size_t checked = 0, init_reads = 0;
    for (int iter = 0; iter < 400; iter++) {
        history *h = random_history();
        version_order vo;
        random_vo(h, &vo);
        for (uint32_t t = 1; t < h->num_txns; t++)
            for (uint32_t k = 0; k < h->num_keys; k++) init_reads += ref_source(h, t, k) == 0;
        static const struct { int level; unsigned ranges; int pool; uint32_t vsort_small; } runs[] = {
            { LEVEL_SER, 1, 0, 32 }, { LEVEL_SI, 1, 0, 0 }, { LEVEL_SER, 3, 1, 0 }, { LEVEL_SI, 7, 1, 32 },
        };
        for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
            interpret_vsort_small = runs[i].vsort_small;        /* in place, or through the buffer */
            checked += compare_readers(h, &vo, runs[i].level, runs[i].pool ? p2 : NULL, runs[i].ranges);
        }
        interpret_vsort_small = 32;
        version_order_free(&vo);
        history_free(h);
    }
    par_pool_free(p2);
    fprintf(stderr, "  %zu readers compared (%zu reads of an initial version), %zu versions found\n", checked, init_reads,
            vidx_checked);
    assert_true(checked > 10000);
    assert_true(vidx_checked > 10000);
    assert_true(init_reads > 1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readers_by_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
