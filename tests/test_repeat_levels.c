/* test_repeat_levels.c — histories whose written values repeat, at every
 * level (issue 35): run_check, the whole pipeline (resolved form, axioms,
 * every level's search or saturation with the choice of writer), against
 * the brute-force oracle of tests/brute_repeat.h (brute_repeat_levels: every
 * choice of writer per read, each judged by tests/brute_levels.h) on small
 * random executions whose writes reuse a value already written to the key
 * with probability 10 to 60 %.  Every level must be decided (no UNKNOWN),
 * agree with the oracle, and every PASS is re-verified (verify_every_pass);
 * the report's ladder stays consistent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/reports/cert_file.h"
#include "tests/cert_round_trip.h"
#include "frontend/reports/ladder.h"
#include "frontend/run_check.h"
#include "tests/brute_levels.h"
#include "tests/brute_repeat.h"
#include "tests/level_bv.h"
#include "tests/random_exec.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static int rg_reread;                   /* test_rc_later_reads: reads re-read a key, each from its own snapshot */

/* A random execution of tests/random_exec.h over registers (a write with
 * probability 2/5, up to 3 keys) and its history. */
static history *repeat_random_history(int pct, int64_t *inv, int64_t *cmp) {
    rx_exec e;
    rx_params p = { .max_keys = 3, .write_of_5 = 2, .pct = pct, .reread = rg_reread };
    rx_draw(&e, &p, rnd, inv, cmp);
    history *h = rx_build(&e, "repeat", rx_reg_emit, inv, cmp);
    assert_non_null(h);
    return h;
}

static void dump(const history *h) {
    for (uint32_t t = 1; t < h->num_txns; t++) {
        fprintf(stderr, "  T%u (txn %lld) s%u %s [%lld,%lld]:", t, (long long)h->txns[t].ext_id, h->txns[t].session,
                h->txns[t].status == TXN_COMMITTED ? "ok" : h->txns[t].status == TXN_ABORTED ? "fail" : "info",
                (long long)history_time(h, TIME_INVOKE, t), (long long)history_time(h, TIME_COMPLETE, t));
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
            fprintf(stderr, " %s(%u,%lld)", (h->op_kind[op] & OP_KIND_MASK) == OP_READ ? "r" : "w", h->op_key[op],
                    history_op_value(h, op) == VALUE_INIT ? 0LL : (long long)history_op_value(h, op));
        fputc('\n', stderr);
    }
}

typedef struct tally { int decided[LEVEL_COUNT], pass[LEVEL_COUNT], amb, weak_refuted; } tally;

static void one_history(const history *h, const int64_t *inv, const int64_t *cmp, tally *ty) {
    int out[BV_NLEVELS];
    brute_repeat_levels(h, inv, cmp, out);
    run_check_options o;
    run_check_options_default(&o);
    for (int l = 0; l < LEVEL_COUNT; l++) o.want[l] = bv_of((check_level_id)l) >= 0;
    o.max_anomalies = 3;
    o.verify_every_pass = 1;
    report rep;
    report_init(&rep, h, "all");
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(run_check(h, &o, &rep, NULL, NULL, &err), 1);
    assert_int_equal(rep.internal_errors, 0);
    const history *r = history_resolved(h, &err);
    ty->amb += r && r->num_amb;
    for (int i = 0; i < rep.num_levels; i++) {
        const report_level *L = &rep.levels[i];
        int b = bv_of((check_level_id)L->level);
        if (b < 0 || out[b] < 0) continue;
        int got = L->verdict == VERDICT_PASS;
        if (L->verdict == VERDICT_UNKNOWN || got != out[b]) {
            fprintf(stderr, "%s: run_check %s (%s: %s), oracle %d on:\n", level_name((check_level_id)L->level),
                    verdict_name(L->verdict), L->stage ? L->stage : "", L->msg, out[b]);
            dump(h);
            int direct[BV_NLEVELS];
            bv_check_all(h, inv, cmp, direct);
            for (int l = 0; l < BV_NLEVELS; l++) fprintf(stderr, " %s=%d/%d", bv_level_name[l], out[l], direct[l]);
            fputc('\n', stderr);
        }
        assert_int_not_equal(L->verdict, VERDICT_UNKNOWN);
        assert_int_equal(got, out[b]);
        ty->decided[L->level]++;
        ty->pass[L->level] += got;
        /* rc, ra or cc failing under every choice of writers (weak_choice.c) */
        ty->weak_refuted += r && r->num_amb && level_shape_of((check_level_id)L->level) < SHAPE_PC && L->verdict == VERDICT_FAIL && strstr(L->msg, "whichever write");
    }
    report_free(&rep);
}

static void run(int pct, int rounds, uint64_t seed) {
    rng_state = seed;
    tally ty;
    memset(&ty, 0, sizeof ty);
    for (int it = 0; it < rounds; it++) {
        int64_t inv[RX_T + 1], cmp[RX_T + 1];
        history *h = repeat_random_history(pct, inv, cmp);
        one_history(h, inv, cmp, &ty);
        history_free(h);
    }
    fprintf(stderr, "repeat %d%%: %d histories with ambiguous reads, %d levels failing whichever write was read\n", pct,
            ty.amb, ty.weak_refuted);
    for (int i = 0; i < LEVEL_COUNT; i++) {
        check_level_id l = ladder_order[i];
        if (bv_of(l) < 0) continue;
        fprintf(stderr, "  %-9s decided %4d, pass %4d\n", level_name(l), ty.decided[l], ty.pass[l]);
        assert_true(ty.decided[l] >= rounds / 2);
        assert_true(ty.pass[l] > 0 && ty.pass[l] < ty.decided[l]);    /* both answers occur */
    }
    assert_true(ty.amb >= rounds / 25);
    assert_true(ty.weak_refuted > 0);
}

static void test_levels_10(void **s) { (void)s; run(10, 600, 21); }
static void test_levels_30(void **s) { (void)s; run(30, 600, 22); }
static void test_levels_60(void **s) { (void)s; run(60, 800, 23); }

/* brute_levels.h serves other suites too */
static void (*const unused_helpers[])(void) = {
    (void (*)(void))bv_check, (void (*)(void))bv_anomaly, (void (*)(void))bv_acyclic, (void (*)(void))brute_repeat_check,
    (void (*)(void))brute_repeat_list_levels,
};

static void test_weak_certificates(void **s) {
    (void)s;
    static const check_level_id weak[] = { LEVEL_RC, LEVEL_RA, LEVEL_CC };
    int with_lines[3] = { 0 }, wrong[3] = { 0 };
    rng_state = 24;
    for (int it = 0; it < 400; it++) {
        int64_t inv[RX_T + 1], cmp[RX_T + 1];
        history *h = repeat_random_history(60, inv, cmp);
        for (int i = 0; i < 3; i++) {
            run_check_options o;
            run_check_options_default(&o);
            o.want[weak[i]] = 1;
            o.certificate = 1;
            report rep;
            report_init(&rep, h, "cert");
            certificate c;
            cert_init(&c);
            int lv = -1;
            ic_error err;
            ic_error_clear(&err);
            assert_int_equal(run_check(h, &o, &rep, &c, &lv, &err), 1);
            assert_int_equal(rep.internal_errors, 0);
            char msg[600];
            if (lv == (int)weak[i] && c.reads_from.len) {
                with_lines[i]++;
                assert_int_equal(cert_round_trip(h, &c, weak[i], msg, sizeof msg), CERT_OK);
                size_t j = 0;                 /* a committed reader's line (an unobserved indeterminate one takes no part) */
                while (j + 3 < c.reads_from.len && h->txns[c.reads_from.data[j]].status != TXN_COMMITTED) j += 3;
                if (h->txns[c.reads_from.data[j]].status == TXN_COMMITTED) {
                    uint32_t w = c.reads_from.data[j + 2];
                    c.reads_from.data[j + 2] = c.reads_from.data[j];  /* the reader itself */
                    assert_int_equal(cert_round_trip(h, &c, weak[i], msg, sizeof msg), CERT_REJECT);
                    assert_non_null(strstr(msg, "the read at"));
                    c.reads_from.data[j + 2] = w;
                    wrong[i]++;
                }
                size_t keep = c.reads_from.len;
                c.reads_from.len = 0;                                 /* no read lines */
                assert_int_equal(cert_round_trip(h, &c, weak[i], msg, sizeof msg), CERT_REJECT);
                assert_non_null(strstr(msg, "no 'read' line names which one it read"));
                c.reads_from.len = keep;
            }
            cert_free(&c);
            report_free(&rep);
        }
        history_free(h);
    }
    fprintf(stderr, "certificates with read lines (a wrong writer rejected): rc %d (%d), ra %d (%d), cc %d (%d)\n",
            with_lines[0], wrong[0], with_lines[1], wrong[1], with_lines[2], wrong[2]);
    for (int i = 0; i < 3; i++) assert_true(wrong[i] > 0);
}


/* rc: a transaction's reads of a key may see different versions (a
 * non-repeatable read), also two different writes of one repeated value;
 * each later read is a choice of its own (weak_choice.c), and the
 * certificate's read line names each read's writer.  A fixed history that
 * holds rc only so (txn 4 reads key 1 = 5 first from txn 1, then from txn
 * 3: tests/data/repeat/rc-later-reads.txt), then random histories whose
 * reads re-read keys, rc against the oracle (brute_repeat_levels: every read
 * its own choice). */
static history *rc_later_history(void) {
    static const int ops[][4] = {   /* write?, key, value, txn */
        { 1, 1, 5, 1 }, { 1, 2, 7, 1 }, { 1, 3, 4, 2 }, { 1, 4, 3, 2 }, { 0, 2, 7, 3 }, { 0, 3, 4, 3 }, { 1, 1, 5, 3 },
        { 1, 5, 1, 3 }, { 1, 4, 8, 3 }, { 0, 1, 5, 4 }, { 0, 4, 3, 4 }, { 0, 5, 1, 4 }, { 0, 1, 5, 4 } };
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "rc-later");
    uint32_t txn[5] = { 0 };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        int t = ops[i][3];
        if (!txn[t]) txn[t] = hb_txn(b, hb_session(b, t, NULL), t, (uint32_t)i + 1);
        hb_op(b, txn[t], ops[i][0] ? OP_WRITE : OP_READ, hb_key(b, ops[i][1]), ops[i][2], (uint32_t)i + 1);
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

/* rc's verdict on h from run_check: 1 PASS, 0 FAIL (else the test fails);
 * its certificate into c (*lv: -1 when none). */
static int rc_certificate(const history *h, certificate *c, int *lvp) {
    run_check_options o;
    run_check_options_default(&o);
    o.want[LEVEL_SI] = 0;
    o.want[LEVEL_RC] = 1;
    o.certificate = 1;
    report rep;
    report_init(&rep, h, "cert");
    int lv = -1;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(run_check(h, &o, &rep, c, &lv, &err), 1);
    assert_int_equal(rep.internal_errors, 0);
    int pass = -1;
    for (int i = 0; i < rep.num_levels; i++)
        if (rep.levels[i].level == LEVEL_RC) {
            assert_int_not_equal(rep.levels[i].verdict, VERDICT_UNKNOWN);
            pass = rep.levels[i].verdict == VERDICT_PASS;
        }
    if (pass < 0) pass = report_verdict(&rep) == VERDICT_PASS;   /* the axioms fail every level: no level line */
    report_free(&rep);
    *lvp = lv;
    return pass;
}

/* Whether c has a read line naming several different writers. */
static int several_writers(const certificate *c) {
    for (size_t i = 3; i < c->reads_from.len; i += 3)
        if (c->reads_from.data[i] == c->reads_from.data[i - 3] && c->reads_from.data[i + 1] == c->reads_from.data[i - 2] &&
            c->reads_from.data[i + 2] != c->reads_from.data[i - 1]) return 1;
    return 0;
}

static void test_rc_later_reads(void **s) {
    (void)s;
    history *h = rc_later_history();
    int64_t inv[RX_T + 1] = { 0 }, cmp[RX_T + 1] = { 0 };
    int out[BV_NLEVELS];
    brute_repeat_levels(h, inv, cmp, out);
    assert_int_equal(out[bv_of(LEVEL_RC)], 1);
    assert_int_equal(out[bv_of(LEVEL_RA)], 0);
    certificate c;
    cert_init(&c);
    int lv;
    assert_int_equal(rc_certificate(h, &c, &lv), 1);
    assert_int_equal(lv, LEVEL_RC);
    assert_true(several_writers(&c));
    char msg[600];
    assert_int_equal(cert_round_trip(h, &c, LEVEL_RC, msg, sizeof msg), CERT_OK);
    assert_int_equal(c.reads_from.len, 6);                /* read 4 1 1 3: txn 1's, then txn 3's */
    uint32_t w0 = c.reads_from.data[2], w1 = c.reads_from.data[5];
    c.reads_from.data[5] = w0;                            /* both reads from txn 1: the premise breaks */
    assert_int_equal(cert_round_trip(h, &c, LEVEL_RC, msg, sizeof msg), CERT_REJECT);
    assert_non_null(strstr(msg, "which it read another key from before, writes the key after it in the commit order"));
    c.reads_from.data[5] = w1;
    c.reads_from.len = 3;                                 /* one writer for both reads */
    assert_int_equal(cert_round_trip(h, &c, LEVEL_RC, msg, sizeof msg), CERT_REJECT);
    c.reads_from.len = 6;
    c.level = LEVEL_RA;                                   /* ra: a transaction's reads of a key see one version */
    assert_int_equal(cert_round_trip(h, &c, LEVEL_RA, msg, sizeof msg), CERT_REJECT);
    cert_free(&c);
    history_free(h);

    rng_state = 25;
    rg_reread = 1;
    int multi = 0, compared = 0, pass = 0;
    for (int it = 0; it < 1500; it++) {
        history *r = repeat_random_history(60, inv, cmp);
        brute_repeat_levels(r, inv, cmp, out);
        cert_init(&c);
        int got = rc_certificate(r, &c, &lv);
        if (out[bv_of(LEVEL_RC)] >= 0) {
            if (got != out[bv_of(LEVEL_RC)]) { dump(r); fail_msg("rc: run_check %s, the oracle %d", got ? "PASS" : "FAIL", out[bv_of(LEVEL_RC)]); }
            compared++;
            pass += got;
        }
        if (lv == LEVEL_RC && several_writers(&c)) {
            multi++;
            assert_int_equal(cert_round_trip(r, &c, LEVEL_RC, msg, sizeof msg), CERT_OK);
        }
        cert_free(&c);
        history_free(r);
    }
    rg_reread = 0;
    fprintf(stderr, "rc with re-reads: %d compared with the oracle (%d pass), %d certificates naming two writers of one "
            "value for one transaction's reads of a key\n", compared, pass, multi);
    assert_true(compared > 1000 && pass > 100 && compared - pass > 5 && multi > 50);
}

int main(void) {
    (void)unused_helpers;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_10),
        cmocka_unit_test(test_levels_30),
        cmocka_unit_test(test_levels_60),
        cmocka_unit_test(test_weak_certificates),
        cmocka_unit_test(test_rc_later_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
