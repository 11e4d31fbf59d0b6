/* test_classify.c — the level test and the names of hand-built cycles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "frontend/reports/classify.h"

#define SO(a, b)     { a, b, HISTORY_NONE, DEP_SO }
#define WR(a, b, k)  { a, b, k, DEP_WR }
#define WW(a, b, k)  { a, b, k, DEP_WW }
#define RW(a, b, k)  { a, b, k, DEP_RW }
#define N(c) (sizeof (c) / sizeof (c)[0])

static void expect(const dep_edge *c, size_t n, int si, int violates, anomaly_kind kind, const char *adya) {
    cycle_class r = classify_cycle(c, n, si);
    if (r.kind != kind) fprintf(stderr, "got %s, want %s\n", anomaly_name(r.kind), anomaly_name(kind));
    assert_int_equal(r.violates, violates);
    assert_int_equal(cycle_violates(c, n, si), violates);
    assert_int_equal(r.kind, kind);
    assert_string_equal(r.adya, adya);
}

static void test_g0_g1c(void **state) {
    (void)state;
    const dep_edge g0[] = { WW(1, 2, 0), WW(2, 1, 1) };
    expect(g0, N(g0), 1, 1, AN_G0, "G0");
    expect(g0, N(g0), 0, 1, AN_G0, "G0");
    const dep_edge g1c[] = { WR(1, 2, 0), WW(2, 3, 1), WR(3, 1, 2) };
    expect(g1c, N(g1c), 1, 1, AN_G1C, "G1c");
    const dep_edge g1c2[] = { WR(1, 2, 0), WW(2, 1, 1) };   /* reads from, yet overwritten by, the other */
    expect(g1c2, N(g1c2), 1, 1, AN_G1C, "G1c");
}

/* G0 and G1c through session order (a session's two writes ordered the
 * other way round by another transaction's; a transaction reading a later
 * one of its session): named, with the -process class.  And every cycle
 * psi forbids (at most one RW edge), of two to five edges of any kinds, is
 * named: never the unnamed "cycle". */
static void test_process_cycles_and_psi_names(void **state) {
    (void)state;
    const dep_edge g0p[] = { SO(9, 11), WW(11, 15, 0), WW(15, 9, 1) };
    expect(g0p, N(g0p), 1, 1, AN_G0, "G0-process");
    const dep_edge g1cp[] = { SO(1, 2), WR(2, 1, 0) };
    expect(g1cp, N(g1cp), 1, 1, AN_G1C, "G1c-process");
    const dep_edge g1cp2[] = { SO(1, 2), WW(2, 3, 0), WR(3, 1, 1) };   /* one WW back edge, no RW */
    expect(g1cp2, N(g1cp2), 1, 1, AN_WRITES_FOLLOW_READS, "G1c-process");
    const dep_kind kinds[] = { DEP_SO, DEP_WR, DEP_WW, DEP_RW, DEP_RT };
    size_t named = 0;
    for (size_t n = 2; n <= 5; n++) {
        size_t total = 1;
        for (size_t i = 0; i < n; i++) total *= 5;
        for (size_t code = 0; code < total; code++) {
            dep_edge c[5];
            size_t x = code, rw = 0;
            for (size_t i = 0; i < n; i++, x /= 5) {
                dep_kind k = kinds[x % 5];
                c[i].from = (uint32_t)i + 1;
                c[i].to = (uint32_t)((i + 1) % n) + 1;
                c[i].key = k == DEP_SO || k == DEP_RT ? HISTORY_NONE : (uint32_t)i;
                c[i].kind = (uint8_t)k;
                rw += k == DEP_RW;
            }
            if (rw > 1) continue;
            cycle_class r = classify_cycle_rule(c, n, RULE_AT_MOST_ONE_RW);
            assert_true(r.violates);
            if (r.kind == AN_CYCLE) {
                fprintf(stderr, "unnamed:");
                for (size_t i = 0; i < n; i++) fprintf(stderr, " %d", c[i].kind);
                fprintf(stderr, "\n");
            }
            assert_int_not_equal(r.kind, AN_CYCLE);
            named++;
        }
    }
    assert_true(named > 1000);
}

static void test_lost_update_and_read_skew(void **state) {
    (void)state;
    const dep_edge lu[] = { RW(3, 8, 0), WW(8, 3, 0) };
    expect(lu, N(lu), 1, 1, AN_LOST_UPDATE, "G-single");
    const dep_edge not_lu[] = { RW(3, 8, 0), WW(8, 3, 1) };     /* different keys: read skew */
    expect(not_lu, N(not_lu), 1, 1, AN_READ_SKEW, "G-single");
    const dep_edge rs[] = { RW(1, 2, 0), WW(2, 3, 1), WR(3, 1, 1) };
    expect(rs, N(rs), 1, 1, AN_READ_SKEW, "G-single");
    const dep_edge fr[] = { WR(1, 2, 0), RW(2, 1, 1) };
    expect(fr, N(fr), 1, 1, AN_FRACTURED_READ, "G-single");
}

static void test_session_guarantees(void **state) {
    (void)state;
    const dep_edge ryw[] = { SO(1, 2), RW(2, 1, 0) };
    expect(ryw, N(ryw), 1, 1, AN_READ_YOUR_WRITES, "G-single-process");
    const dep_edge mw[] = { SO(1, 2), WW(2, 1, 0) };
    expect(mw, N(mw), 1, 1, AN_MONOTONIC_WRITES, "G0-process");
    const dep_edge mr[] = { WR(5, 1, 0), SO(1, 2), RW(2, 5, 0) };
    expect(mr, N(mr), 1, 1, AN_MONOTONIC_READS, "G-single-process");
    const dep_edge wfr[] = { WR(5, 1, 0), SO(1, 2), WW(2, 5, 1) };
    expect(wfr, N(wfr), 1, 1, AN_WRITES_FOLLOW_READS, "G1c-process");
    /* the RW edge listed first: rotation does not matter */
    const dep_edge mr2[] = { RW(2, 5, 0), WR(5, 1, 0), SO(1, 2) };
    expect(mr2, N(mr2), 1, 1, AN_MONOTONIC_READS, "G-single-process");
}

static void test_causality(void **state) {
    (void)state;
    /* yugabyte's shape: T7 -WW-> T15 -WR-> T6 -SO-> T7: the session read
     * T15's write, then wrote a version ordered before T15's */
    const dep_edge c1[] = { WW(7, 15, 10), WR(15, 6, 13), SO(6, 7) };
    expect(c1, N(c1), 1, 1, AN_WRITES_FOLLOW_READS, "G1c-process");
    const dep_edge c3[] = { WR(1, 2, 0), SO(2, 3), WR(3, 4, 1), RW(4, 1, 0) };
    expect(c3, N(c3), 1, 1, AN_CAUSALITY, "G-single-process");
    const dep_edge c2[] = { WR(1, 2, 0), WR(2, 3, 1), RW(3, 1, 0) };
    expect(c2, N(c2), 1, 1, AN_CAUSALITY, "G-single");
}

static void test_long_fork_write_skew_si_vs_ser(void **state) {
    (void)state;
    const dep_edge lf[] = { WR(1, 3, 0), RW(3, 2, 1), WR(2, 4, 1), RW(4, 1, 0) };
    expect(lf, N(lf), 1, 1, AN_LONG_FORK, "G-nonadjacent");
    expect(lf, N(lf), 0, 1, AN_LONG_FORK, "G-nonadjacent");
    const dep_edge ws[] = { RW(1, 2, 0), RW(2, 1, 1) };
    expect(ws, N(ws), 1, 0, AN_WRITE_SKEW, "G2-item");     /* allowed under SI */
    expect(ws, N(ws), 0, 1, AN_WRITE_SKEW, "G2-item");
    const dep_edge ws3[] = { RW(1, 2, 0), RW(2, 3, 1), RW(3, 1, 2) };
    expect(ws3, N(ws3), 1, 0, AN_WRITE_SKEW, "G2-item");
    expect(ws3, N(ws3), 0, 1, AN_WRITE_SKEW, "G2-item");
    /* adjacent RW somewhere makes the whole cycle SI-allowed */
    const dep_edge mix[] = { RW(1, 2, 0), RW(2, 3, 1), WR(3, 1, 2) };
    expect(mix, N(mix), 1, 0, AN_CYCLE, "G2-item");
    expect(mix, N(mix), 0, 1, AN_CYCLE, "G2-item");
    /* wrap-around adjacency: last and first */
    const dep_edge wrap[] = { RW(1, 2, 0), WR(2, 3, 1), RW(3, 1, 2) };
    expect(wrap, N(wrap), 1, 0, AN_CYCLE, "G2-item");
    /* two RW, not adjacent, with a WW: unnamed cycle */
    const dep_edge gn[] = { RW(1, 2, 0), WW(2, 3, 1), RW(3, 4, 2), WR(4, 1, 3) };
    expect(gn, N(gn), 1, 1, AN_CYCLE, "G-nonadjacent");
}

static void test_axiom_classes(void **state) {
    (void)state;
    assert_string_equal(anomaly_adya(AN_ABORTED_READ), "G1a");
    assert_string_equal(anomaly_adya(AN_INTERMEDIATE_READ), "G1b");
    assert_null(anomaly_adya(AN_THIN_AIR_READ));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_g0_g1c),
        cmocka_unit_test(test_process_cycles_and_psi_names),
        cmocka_unit_test(test_lost_update_and_read_skew),
        cmocka_unit_test(test_session_guarantees),
        cmocka_unit_test(test_causality),
        cmocka_unit_test(test_long_fork_write_skew_si_vs_ser),
        cmocka_unit_test(test_axiom_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
