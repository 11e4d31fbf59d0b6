/* test_read_sources.c — the run's shared read sources (read_sources.c):
 * the same writers as the lookups, for every op, on any pool; never taken
 * by a copy of the history; the axioms' findings unchanged by them; and,
 * spilled alone (the history itself not spilled), the pages read back
 * leave again at history_spill_again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>

#include "frontend/checking/axioms.h"
#include "frontend/history/history.h"
#include "frontend/history/history_spill.h"
#include "io/spill.h"
#include "par.h"

/* n transactions of a write and reads on a register key, some of values
 * written several times (42: the lookups give the lowest op), some of
 * nobody's value, of the initial value, failed, after an own write; every
 * 10th transaction aborted (its writes read: aborted reads); a list key
 * appended and read too. */
static history *mixed_history(uint32_t n) {
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, "s.txt");
    uint32_t s = hb_session(b, 1, NULL), list = hb_key(b, 1000000), line = 1;
#define KEY_OF(i) ((i) % 5 == 0 ? (int64_t)((i) / 5 % 2) : (int64_t)((i) * 7919u % 61u))   /* 42 twice on keys 0 and 1 */
#define VALUE_OF(i) ((i) % 5 == 0 ? 42 : (int64_t)(i) + 100)
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = hb_txn(b, s, i + 1, line);
        uint32_t k = hb_key(b, KEY_OF(i)), k2 = hb_key(b, (int64_t)(i * 31u % 61u));
        int64_t v = VALUE_OF(i);
        if (i % 3 == 0) hb_op(b, t, OP_READ, k, 42, line++);                           /* a repeated value (maybe its own later) */
        else hb_op(b, t, OP_READ, hb_key(b, KEY_OF(i / 2)), VALUE_OF(i / 2), line++);   /* an earlier (or its own later) write */
        if (i % 10 == 0 && i) hb_op(b, t, OP_READ, hb_key(b, KEY_OF(i - 1)), VALUE_OF(i - 1), line++);   /* an aborted write */
        if (i % 7 == 0) hb_op(b, t, OP_READ, k2, VALUE_INIT, line++);
        hb_op(b, t, OP_READ | (i % 11 == 0 ? OP_FAILED : 0), k2, (int64_t)i + 7000000, line++);   /* nobody's */
        hb_op(b, t, OP_WRITE, k, v, line++);
        hb_op(b, t, OP_READ, k, v, line++);                                           /* after its own write */
        if (i % 4 == 0) hb_op(b, t, OP_APPEND, list, (int64_t)i + 1, line++);
        if (i % 4 == 2) { int64_t el[2] = { 1, (int64_t)i - 1 }; hb_list_read(b, t, list, el, i > 1 ? 2 : 1, line++); }
        if (i % 10 == 9) hb_txn_status(b, t, TXN_ABORTED);
    }
    hb_set_threads(b, 2);
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

/* Every op's answer from the lookups, before any sharing. */
static uint32_t *looked_up(const history *h, int external) {
    uint32_t *w = malloc((size_t)h->num_ops * sizeof *w);
    assert_non_null(w);
    for (uint32_t op = 0; op < h->num_ops; op++)
        w[op] = external ? (history_op_kind(h, op) == OP_READ || history_op_kind(h, op) == OP_LIST_READ ? history_external_source(h, op) : 0)
                         : history_read_source(h, op);
    return w;
}

static void same_as_lookups(const history *h, const uint32_t *src, const uint32_t *ext) {
    uint32_t reads = 0, found = 0;
    for (uint32_t op = 0; op < h->num_ops; op++) {
        assert_int_equal(history_read_source(h, op), src[op]);
        if (history_op_kind(h, op) == OP_READ || history_op_kind(h, op) == OP_LIST_READ)
            assert_int_equal(history_external_source(h, op), ext[op]);
        if (history_op_kind(h, op) != OP_READ) continue;
        reads++;
        found += src[op] != HISTORY_NONE;
        assert_int_equal(src[op], history_writer_of(h, h->op_key[op], history_op_value(h, op)));
    }
    assert_true(found > 0 && found < reads);          /* both kinds of answer asked */
}

static void shared_sources_are_the_lookups(void **state) {
    (void)state;
    for (uint32_t n = 12; n < 40000; n = n * 9 + 1) {    /* 40000: ops enough for several tasks */
        for (unsigned threads = 1; threads <= 3; threads += 2) {
            history *h = mixed_history(n);
            assert_true(h->num_repeated > 0);
            uint32_t *src = looked_up(h, 0), *ext = looked_up(h, 1);
            par_pool *pool = threads > 1 ? par_pool_new(threads) : NULL;
            assert_false(history_has_read_sources(h));
            history_share_read_sources(h, pool);
            assert_true(history_has_read_sources(h));
            for (uint32_t op = 0; op < h->num_ops; op++)  /* the array itself: reads' writers, else none */
                assert_int_equal(h->read_src[op], history_op_kind(h, op) == OP_READ ? src[op] : HISTORY_NONE);
            same_as_lookups(h, src, ext);
            /* a copy of the struct (a view) looks up, never takes the array */
            history copy = *h;
            assert_false(history_has_read_sources(&copy));
            for (uint32_t op = 0; op < h->num_ops; op++) assert_int_equal(history_read_source(&copy, op), src[op]);
            history_read_sources_done(&copy);             /* not its array: nothing freed */
            assert_true(history_has_read_sources(h));
            history_read_sources_done(h);                 /* not spilled: freed, lookups again */
            assert_false(history_has_read_sources(h));
            assert_null(h->read_src);
            same_as_lookups(h, src, ext);
            par_pool_free(pool);
            free(src); free(ext);
            history_free(h);
        }
    }
}

/* The axioms find the same violations, with the same words, with the
 * shared sources as without (thin-air, aborted and own-later reads here). */
static void axioms_unchanged_by_sharing(void **state) {
    (void)state;
    history *h = mixed_history(500);
    anomaly_list a, b;
    anomaly_list_init(&a); anomaly_list_init(&b);
    uint64_t ca[AN_NUM_KINDS], cb[AN_NUM_KINDS];
    uint64_t na = axioms_check_kinds(h, &a, 0, ca);
    history_share_read_sources(h, NULL);
    assert_true(history_has_read_sources(h));
    uint64_t nb = axioms_check_kinds(h, &b, 0, cb);
    assert_true(na > 0);
    assert_true(ca[AN_THIN_AIR_READ] > 0 && ca[AN_ABORTED_READ] > 0);
    assert_int_equal(na, nb);
    assert_memory_equal(ca, cb, sizeof ca);
    assert_int_equal(a.items.len, b.items.len);
    for (size_t i = 0; i < a.items.len; i++) {
        assert_int_equal(a.items.data[i].kind, b.items.data[i].kind);
        assert_string_equal(a.items.data[i].detail, b.items.data[i].detail);
    }
    anomaly_list_free(&a); anomaly_list_free(&b);
    history_free(h);                                    /* frees the array too (ASan: no leak) */
}

/* Resident kB of [p, p + len): its pages present in the process's page
 * table (/proc/self/pagemap, bit 63 a page: what RSS counts; mincore would
 * report the page cache for a file's pages). */
static long resident_kb(const void *p, size_t len) {
    FILE *f = fopen("/proc/self/pagemap", "rb");
    assert_non_null(f);
    long kb = 0;
    assert_int_equal(fseeko(f, (off_t)((uintptr_t)p / 4096 * 8), SEEK_SET), 0);
    for (size_t i = 0; i < len / 4096; i++) {
        uint64_t e;
        assert_int_equal(fread(&e, sizeof e, 1, f), 1);
        if (e >> 63 & 1) kb += 4;
    }
    fclose(f);
    return kb;
}

/* The read sources spilled and the history not (history_spill not called,
 * as for a history the program does not spill after the index): the
 * interpretation reads them back, and history_spill_again (interpret.c,
 * after it) makes those pages leave again, the answers the same.  The
 * array's whole pages are spilled as history_read_sources_done's
 * spill_block spills them (spill_pages: spill_block refuses under
 * AddressSanitizer, whose blocks have no mapping of their own). */
static void spilled_alone_dropped_again(void **state) {
    (void)state;
    struct statfs sf;
    if (statfs("/tmp", &sf) != 0 || (unsigned long)sf.f_type == 0x01021994ul) { skip(); return; }   /* tmpfs: no spill */
    spill_enable("/tmp");
    history *h = mixed_history(40000);
    uint32_t *src = looked_up(h, 0);
    history_share_read_sources(h, NULL);
    uintptr_t a = ((uintptr_t)h->read_src + 4095) & ~(uintptr_t)4095;
    uintptr_t z = ((uintptr_t)(h->read_src + h->num_ops)) & ~(uintptr_t)4095;
    assert_true(z > a + 64 * 4096);
    assert_int_equal(spill_pages((void *)a, z - a), z - a);
    h->read_src_out = 1;                              /* what history_read_sources_done records */
    assert_false(h->spilled);
    assert_true(resident_kb((void *)a, z - a) < 16);  /* out of the process */
    for (uint32_t op = 0; op < h->num_ops; op++) assert_int_equal(history_read_source(h, op), src[op]);
    assert_true(resident_kb((void *)a, z - a) >= (long)((z - a) / 1024) - 16);   /* read back */
    history_spill_again(h);
    assert_true(resident_kb((void *)a, z - a) < 16);  /* left again (before: stayed resident) */
    for (uint32_t op = 0; op < h->num_ops; op++) assert_int_equal(history_read_source(h, op), src[op]);
    /* the pages back to plain memory before the block is freed: the
     * allocator may write in a freed block (AddressSanitizer's does) */
    history_spill_forget(h);
    assert_true(mmap((void *)a, z - a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == (void *)a);
    free(src);
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_sources_are_the_lookups),
        cmocka_unit_test(axioms_unchanged_by_sharing),
        cmocka_unit_test(spilled_alone_dropped_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
