/* test_write_renumber.c — frontend/formats/write.h: what a format reserves or
 * cannot spell is renumbered to the smallest unused number it can hold,
 * in order of first appearance; the rest is written as it is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/formats/parse.h"
#include "frontend/formats/write.h"

/* Session -2: txn -5 writes k1 := 5, k1 := 0 (overwrites), k-1 := -3;
 * session 0: txn 3 reads k1 = 0, k-1 = initial, k1 = 7 (nobody wrote 7). */
static history *sample(void) {
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "sample");
    uint32_t s1 = hb_session(b, -2, NULL), s2 = hb_session(b, 0, NULL);
    uint32_t k1 = hb_key(b, 1), km = hb_key(b, -1);
    uint32_t t = hb_txn(b, s1, -5, 1);
    hb_op(b, t, OP_WRITE, k1, 5, 1);
    hb_op(b, t, OP_WRITE, k1, 0, 2);
    hb_op(b, t, OP_WRITE, km, -3, 3);
    t = hb_txn(b, s2, 3, 4);
    hb_op(b, t, OP_READ, k1, 0, 4);
    hb_op(b, t, OP_READ, km, VALUE_INIT, 5);
    hb_op(b, t, OP_READ, k1, 7, 6);
    ic_error err;
    ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

static char *written(const history *h, int (*writer)(const history *, FILE *, ic_error *), size_t *len) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ic_error err;
    ic_error_clear(&err);
    assert_true(writer(h, f, &err));
    fclose(f);
    if (len) *len = n;
    return buf;
}

static void text_renumbers_zero_and_signs(void **state) {
    (void)state;
    history *h = sample();
    write_plan p;
    write_plan_build(h, FORMAT_TEXT, &p);
    /* values held: 5, 7 -> 0 and -3 take 1 and 2; key -1 takes 0; session -2 and txn -5 take 1 */
    assert_int_equal(write_renumbered(&p.value, 0), 1);
    assert_int_equal(write_renumbered(&p.value, -3), 2);
    assert_int_equal(write_renumbered(&p.value, 5), 5);
    assert_int_equal(write_renumbered(&p.key, -1), 0);
    assert_int_equal(write_renumbered(&p.key, 1), 1);
    assert_int_equal(write_renumbered(&p.session, -2), 1);
    assert_int_equal(write_renumbered(&p.session, 0), 0);
    assert_int_equal(write_renumbered(&p.txn, -5), 1);
    assert_int_equal(write_renumbered(&p.txn, 3), 3);
    char note[256];
    write_plan_describe(&p, h, "text", note, sizeof note);
    assert_string_equal(note, "renumbered what text cannot hold: value 0 -> 1 (and 1 more value); key -1 -> 0; "
                              "session -2 -> 1; transaction id -5 -> 1");
    write_plan_free(&p);
    char *t = written(h, write_text, NULL);
    assert_string_equal(t, "w(1,5,1,1)\nw(1,1,1,1)\nw(0,2,1,1)\nr(1,1,0,3)\nr(0,0,0,3)\nr(1,7,0,3)\n");
    free(t);
    history_free(h);
}

static void dbcop_renumbers_zero_only(void **state) {
    (void)state;
    history *h = sample();
    write_plan p;
    write_plan_build(h, FORMAT_DBCOP, &p);
    assert_int_equal(p.value.from.len, 1);
    assert_int_equal(write_renumbered(&p.value, 0), 1);
    assert_int_equal(write_renumbered(&p.value, -3), -3);        /* a u64 bit pattern reads back as -3 */
    assert_int_equal(p.key.from.len + p.session.from.len + p.txn.from.len, 0);
    write_plan_free(&p);
    /* and it reads back: the read of 0 is a read of the write of 1, not of INIT */
    size_t n;
    char *bin = written(h, write_dbcop, &n);
    ic_error err;
    ic_error_clear(&err);
    history *back = load_history_mem(bin, n, FORMAT_DBCOP, "back", &err);
    assert_non_null(back);
    uint32_t read0 = back->txns[2].first_op;
    assert_int_equal(history_op_value(back, read0), 1);
    assert_int_not_equal(history_read_source(back, read0), HISTORY_NONE);
    history_free(back);
    free(bin);
    history_free(h);
}

static void cobra_markers_and_gaps(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "markers");
    uint32_t s = hb_session(b, 0, NULL), k = hb_key(b, 1);
    uint32_t t = hb_txn(b, s, 0xdeadbeefLL, 1);
    hb_op(b, t, OP_WRITE, k, 1, 1);
    hb_op(b, t, OP_WRITE, k, 2, 1);
    hb_op(b, t, OP_WRITE, k, 0xbebeebeeLL, 1);
    hb_op(b, t, OP_WRITE, k, 4, 1);
    t = hb_txn(b, s, -1, 2);
    hb_op(b, t, OP_READ, k, 0x23332333LL, 2);
    t = hb_txn(b, s, 1, 3);
    ic_error err;
    ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    write_plan p;
    write_plan_build(h, FORMAT_COBRA, &p);
    assert_int_equal(write_renumbered(&p.value, 0xbebeebeeLL), 3);     /* 1, 2 are used: the gap at 3 */
    assert_int_equal(write_renumbered(&p.value, 0x23332333LL), 5);
    assert_int_equal(write_renumbered(&p.txn, 0xdeadbeefLL), 2);       /* 1 is used */
    assert_int_equal(write_renumbered(&p.txn, -1), 3);
    assert_int_equal(write_renumbered(&p.txn, 1), 1);
    write_plan_free(&p);
    /* elle holds everything */
    write_plan_build(h, FORMAT_ELLE, &p);
    assert_int_equal(p.value.from.len + p.key.from.len + p.session.from.len + p.txn.from.len, 0);
    write_plan_free(&p);
    history_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_renumbers_zero_and_signs),
        cmocka_unit_test(dbcop_renumbers_zero_only),
        cmocka_unit_test(cobra_markers_and_gaps),
    };
    return cmocka_run_group_tests_name("write_renumber", tests, NULL, NULL);
}
