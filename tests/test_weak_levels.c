/* test_weak_levels.c — the saturation checker of rc, ra and cc
 * (frontend/checking/weak.h, through check_level) and the independent
 * verifier of its commit orders (cert_weak_verify, certificate.h):
 *   (a) the examples of tests/data/levels/ get their stated rc/ra/cc verdicts;
 *   (b) thousands of small random histories (registers and lists, aborted
 *       and indeterminate transactions, reads from serial, causal,
 *       atomic-per-transaction, per-read or arbitrary visibility): the
 *       checker's verdict equals the brute-force oracle's
 *       (tests/brute_levels.h, method 1), rc ⇐ ra ⇐ cc, every PASS's commit
 *       order verifies, every FAIL's cycle is a closed chain of edges that
 *       hold in the history; rc's commit order as a certificate file
 *       (written, read back, verified) proves rc, and with its level line
 *       changed to ra or cc is rejected wherever that level fails;
 *   (c) the verifier against the oracle's own judgement of single orders:
 *       random and perturbed commit orders are accepted iff the oracle's
 *       axioms hold on them; malformed orders are rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/checking/weak.h"
#include "frontend/formats/parse.h"
#include "frontend/recheck/certificate.h"
#include "frontend/reports/cert_build.h"
#include "frontend/reports/cert_file.h"
#include "tests/brute_levels.h"
#include "par.h"

#define LEVELS_DIR "tests/data/levels"

static const check_level_id weak_ids[3] = { LEVEL_RC, LEVEL_RA, LEVEL_CC };
static const int bv_ids[3] = { BV_RC, BV_RA, BV_CC };

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

/* Runs the pipeline's order: axioms, then the level.  -1: an axiom level l relies on fails. */
static int checker(const history *h, check_level_id l, check_result *res) {
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t counts[AN_NUM_KINDS] = {0};
    axioms_check_kinds(h, &al, 1, counts);
    anomaly_list_free(&al);
    memset(res, 0, sizeof *res);
    if (axioms_level_count(counts, l)) return -1;    /* a read anomaly that breaks l (rc allows non-repeatable reads) */
    ic_error err; ic_error_clear(&err);
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    verdict v = check_level(&ix, l, NULL, res);
    pg_index_free(&ix);
    if (v == VERDICT_UNKNOWN) fprintf(stderr, "UNKNOWN: %s\n", res->msg);
    assert_int_not_equal(v, VERDICT_UNKNOWN);
    return v == VERDICT_PASS;
}

/* ---- the cycle of a FAIL holds edge by edge ------------------------------- */

static int writes_key(const history *h, uint32_t t, uint32_t key) {
    if (t == 0) return 1;
    for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
        if (h->op_key[op] == key && history_op_is_write(h, op)) return 1;
    return 0;
}

static void cycle_holds_weak(const history *h, const check_result *res) {
    const weak_result *w = res->weak;
    assert_non_null(w);
    assert_true(w->cycle.len >= 2);
    assert_int_equal(res->cycle.len, w->cycle.len);
    assert_non_null(w->anomaly);
    for (size_t i = 0; i < w->cycle.len; i++) {
        const weak_edge *e = &w->cycle.data[i], *nx = &w->cycle.data[(i + 1) % w->cycle.len];
        assert_int_equal(e->to, nx->from);
        assert_int_not_equal(e->from, e->to);
        char d[600];
        weak_edge_describe(h, w, e, d, sizeof d);
        assert_true(strlen(d) > 10);
        switch (e->basis) {
        case WB_SO:
            assert_int_equal(h->txns[e->from].session, h->txns[e->to].session);
            assert_true(e->from < e->to && e->from != 0);
            break;
        case WB_WR:
            assert_int_equal(history_op_txn(h, e->read_op), e->to);
            assert_int_equal(history_op_txn(h, history_external_source(h, e->read_op)), e->from);
            break;
        case WB_PREMISE:
            assert_true(writes_key(h, e->from, e->key) && writes_key(h, e->to, e->key));
            assert_int_equal(history_op_txn(h, history_external_source(h, e->read_op)), e->to);
            assert_int_equal(history_op_txn(h, e->read_op), e->reader);
            if (e->via == WV_EARLIER || e->via == WV_READ) {
                assert_int_equal(history_op_txn(h, e->vis_op), e->reader);
                assert_int_equal(history_op_txn(h, history_external_source(h, e->vis_op)), e->from);
                if (e->via == WV_EARLIER) assert_true(e->vis_op < e->read_op && h->op_key[e->vis_op] != e->key);
            } else if (e->via == WV_SESSION) {
                assert_true(h->txns[e->from].session == h->txns[e->reader].session && e->from < e->reader);
            } else {
                assert_int_equal(e->via, WV_CAUSAL);
                assert_true(e->path_len >= 2);
                assert_int_equal(w->paths.data[e->path_first].from, e->from);
                assert_int_equal(w->paths.data[e->path_first + e->path_len - 1].to, e->reader);
            }
            break;
        case WB_LIST: case WB_INIT:
            assert_true(writes_key(h, e->from, e->key) && writes_key(h, e->to, e->key));
            if (e->basis == WB_INIT) assert_int_equal(e->from, 0);
            break;
        default: fail();
        }
    }
}

/* ---- (a) the documented examples ------------------------------------------- */

static void one_example(const char *name) {
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/%s", LEVELS_DIR, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int expect[3] = { -1, -1, -1 };
    while (fgets(line, sizeof line, f)) {
        if (line[0] == ';') line[0] = '#';
        int want = !strncmp(line, "# holds:", 8) ? 1 : !strncmp(line, "# fails:", 8) ? 0 : -1;
        if (want < 0) continue;
        for (char *p = line + 8; *p;) {
            while (*p == ' ' || *p == '\n') p++;
            size_t n = strcspn(p, " \n");
            if (!n) break;
            for (int i = 0; i < 3; i++)
                if ((n == 3 && !memcmp(p, "all", 3)) || (strlen(bv_level_name[bv_ids[i]]) == n && !memcmp(p, bv_level_name[bv_ids[i]], n)))
                    expect[i] = want;
            p += n;
        }
    }
    fclose(f);
    ic_error err; ic_error_clear(&err);
    history *h = load_history(path, FORMAT_AUTO, &err);
    assert_non_null(h);
    for (int i = 0; i < 3; i++) {
        assert_int_not_equal(expect[i], -1);
        check_result res;
        int got = checker(h, weak_ids[i], &res);
        if (got < 0) got = 0;
        if (got != expect[i]) fprintf(stderr, "%s: %s: checker %d, documented %d (%s)\n", name, bv_level_name[bv_ids[i]], got, expect[i], res.msg);
        assert_int_equal(got, expect[i]);
        if (res.weak && res.verdict == VERDICT_FAIL) {
            cycle_holds_weak(h, &res);
            fprintf(stderr, "  %s %s: %s\n", name, bv_level_name[bv_ids[i]], res.msg);
        }
        check_result_free(&res);
    }
    history_free(h);
}

static void documented_examples(void **state) {
    (void)state;
    DIR *d = opendir(LEVELS_DIR);
    assert_non_null(d);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || (strcmp(e->d_name + n - 4, ".txt") && strcmp(e->d_name + n - 4, ".edn"))) continue;
        one_example(e->d_name);
        files++;
    }
    closedir(d);
    assert_true(files >= 15);
}

#include "tests/weak_gen.h"

/* ---- (b) random histories against the oracle -------------------------------- */

/* The certificate file of a commit order at level (cert_build_weak,
 * cert_write, cert_read, cert_verify_level: what `check --certificate`
 * writes and `verify` reads): the status verify gives. */
static cert_status file_round_trip(const history *h, check_level_id made_at, check_level_id level, const uint32_t *order,
                                   uint32_t len) {
    certificate c, back;
    cert_init(&c);
    cert_init(&back);
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(cert_build_weak(h, order, len, made_at, &c, &err), CERT_OK);
    c.level = level;                              /* the level line, as a user might change it */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    cert_write(f, h, &c);
    fclose(f);
    input r;
    input_from_mem(&r, buf, n, "cert");
    cert_status st = cert_read(&r, h, &back, &err);
    input_close(&r);
    assert_int_equal(st, CERT_OK);
    assert_int_equal(back.level, level);
    assert_int_equal(back.order.len, len - 1);
    st = cert_verify_level(h, &back, level, &err, NULL);
    if (st != CERT_OK) assert_true(err.msg[0] != 0);
    free(buf);
    cert_free(&c);
    cert_free(&back);
    return st;
}

static void random_agree(void **state) {
    (void)state;
    rng_state = 0x5851f42d4c957f2dULL;
    par_pool *pool = par_pool_new(3);
    int n_hold[3] = {0}, n_fail[3] = {0}, anomalies = 0, strict = 0, lists = 0, info = 0, aborted = 0, orders = 0, names = 0;
    int files = 0, files_rejected = 0;
    for (int it = 0; it < 6000; it++) {
        int mode;
        history *h = weak_random_history(&mode);
        int out[BV_NLEVELS];
        bv_check_all(h, NULL, NULL, out);
        if (out[BV_RC] < 0) { history_free(h); continue; }
        lists += h->has_lists;
        for (uint32_t t = 1; t < h->num_txns; t++) { info += h->txns[t].status == TXN_INDETERMINATE; aborted += h->txns[t].status == TXN_ABORTED; }
        int got[3];
        uint8_t *part = history_participants(h);
        for (int i = 0; i < 3; i++) {
            /* weak_check itself (it rejects every non-cycle anomaly), then the
             * pipeline's way (axioms, check_level), which must agree when the
             * axioms pass */
            check_result res;
            memset(&res, 0, sizeof res);
            weak_result *w = xcalloc(1, sizeof *w);
            res.weak = w;
            verdict v = weak_check(h, part, weak_ids[i], NULL, w);
            if (v == VERDICT_FAIL) weak_cycle_deps(w, &res.cycle);
            got[i] = v == VERDICT_PASS;
            if (v == VERDICT_UNKNOWN) {              /* only on what the axioms stage rejects */
                anomaly_list al;
                anomaly_list_init(&al);
                uint64_t bad = axioms_check(h, &al, 1);
                anomaly_list_free(&al);
                if (!bad && !bv_anomaly(h)) { fprintf(stderr, "%s\n", w->msg); weak_dump(h); }
                assert_true(bad || bv_anomaly(h));
                anomalies += i == 0;
            }
            if (got[i] != out[bv_ids[i]]) {
                fprintf(stderr, "%s: checker %d, oracle %d (%s) on:\n", bv_level_name[bv_ids[i]], got[i], out[bv_ids[i]], w->msg);
                weak_dump(h);
            }
            assert_int_equal(got[i], out[bv_ids[i]]);
            if (weak_ids[i] == LEVEL_CC) {           /* the same answer on a pool (cc's reads in tasks) */
                weak_result wp;
                weak_set_scan_slack(it % 2 ? INT_MIN / 2 : INT_MAX / 2);   /* binary searches, or scans only */
                assert_int_equal(weak_check(h, part, LEVEL_CC, pool, &wp), v);
                weak_set_scan_slack(16);
                assert_int_equal(wp.cycle.len, w->cycle.len);
                for (size_t e = 0; e < wp.cycle.len; e++)
                    assert_true(wp.cycle.data[e].from == w->cycle.data[e].from && wp.cycle.data[e].to == w->cycle.data[e].to &&
                                wp.cycle.data[e].basis == w->cycle.data[e].basis);
                assert_int_equal(wp.order_len, w->order_len);
                if (wp.order_len) assert_memory_equal(wp.order, w->order, wp.order_len * sizeof *wp.order);
                weak_result_free(&wp);
            }
            check_result pipe;
            int p = checker(h, weak_ids[i], &pipe);
            if (p >= 0) assert_int_equal(p, got[i]);
            else if (got[i]) strict += i == 0;       /* the axioms stage rejects what the level allows */
            check_result_free(&pipe);
            if (got[i]) {
                n_hold[i]++;
                ic_error err;
                assert_int_equal(cert_weak_verify(h, weak_ids[i], w->order, w->order_len, &err), CERT_OK);
                weak_orders_vs_oracle(h, i, w->order, w->order_len);
                orders++;
            } else {
                n_fail[i]++;
                if (v == VERDICT_FAIL) { cycle_holds_weak(h, &res); names += !strncmp(w->tap, "TAP-", 4) && strcmp(w->tap, "TAP-g"); }
            }
            check_result_free(&res);
        }
        /* the certificate files: a passing level's verifies at that level
         * (and, when a stronger one fails, is rejected there: no commit
         * order proves a failing level) */
        if (got[0]) {
            weak_result w0;
            assert_int_equal(weak_check(h, part, LEVEL_RC, NULL, &w0), VERDICT_PASS);
            for (int i = 0; i < 3; i++) {
                cert_status st = file_round_trip(h, LEVEL_RC, weak_ids[i], w0.order, w0.order_len);
                if (i == 0) assert_int_equal(st, CERT_OK);
                if (!got[i]) { assert_int_equal(st, CERT_REJECT); files_rejected++; }
            }
            files++;
            weak_result_free(&w0);
        }
        free(part);
        assert_true(got[0] >= got[1] && got[1] >= got[2]);      /* cc ⇒ ra ⇒ rc */
        history_free(h);
    }
    par_pool_free(pool);
    for (int i = 0; i < 3; i++) fprintf(stderr, "%s: %d hold, %d fail\n", bv_level_name[bv_ids[i]], n_hold[i], n_fail[i]);
    fprintf(stderr, "%d where the axioms stage rejects a history rc allows\n", strict);
    fprintf(stderr, "%d with an axiom broken, %d with lists, %d indeterminate, %d aborted transactions; "
            "%d commit orders verified; %d cycles with a premise edge\n", anomalies, lists, info, aborted, orders, names);
    fprintf(stderr, "%d certificate files of rc's order round-tripped, %d rejected at a failing ra or cc\n", files, files_rejected);
    assert_true(files > 500 && files_rejected > 100);
    for (int i = 0; i < 3; i++) assert_true(n_hold[i] > 500 && n_fail[i] > 500);
    assert_true(lists > 1000 && info > 500 && aborted > 500 && names > 500);
    assert_true(n_fail[1] - n_fail[0] > 100 && n_fail[2] - n_fail[1] > 20);     /* the levels differ */
}

/* ---- (c) malformed orders ------------------------------------------------------ */

static void malformed_orders(void **state) {
    (void)state;
    rng_state = 0x1405u;
    int checked = 0;
    for (int it = 0; it < 400; it++) {
        int mode;
        history *h = weak_random_history(&mode);
        check_result res;
        if (checker(h, LEVEL_RA, &res) == 1) {
            const weak_result *w = res.weak;
            uint32_t n = w->order_len, *o = malloc((n + 2) * sizeof *o);
            ic_error err;
            memcpy(o, w->order, n * sizeof *o);
            assert_int_equal(cert_weak_verify(h, LEVEL_RA, o, n, &err), CERT_OK);
            assert_int_equal(cert_weak_verify(h, LEVEL_SI, o, n, &err), CERT_MALFORMED);
            if (n > 1) {
                assert_int_equal(cert_weak_verify(h, LEVEL_RA, o, n - 1, &err), CERT_REJECT);   /* one missing */
                o[n] = o[n - 1];
                assert_int_equal(cert_weak_verify(h, LEVEL_RA, o, n + 1, &err), CERT_REJECT);   /* one twice */
                uint32_t t = o[0]; o[0] = o[1]; o[1] = t;                                          /* INIT not first */
                assert_int_equal(cert_weak_verify(h, LEVEL_RA, o, n, &err), CERT_REJECT);
                o[1] = o[0]; o[0] = 0;
                for (uint32_t x = 1; x < h->num_txns; x++)
                    if (h->txns[x].status == TXN_ABORTED) {                                      /* a non-participant */
                        o[n] = x;
                        assert_int_equal(cert_weak_verify(h, LEVEL_RA, o, n + 1, &err), CERT_REJECT);
                        break;
                    }
                checked++;
            }
            free(o);
        }
        check_result_free(&res);
        history_free(h);
    }
    assert_true(checked > 100);
}

int main(void) {
    (void)bv_acyclic;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(documented_examples),
        cmocka_unit_test(random_agree),
        cmocka_unit_test(malformed_orders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
