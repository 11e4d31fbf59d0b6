/* test_levels_engine.c — check_level on every searched level (pc, psi,
 * si-plain, ser-plain, strong-si, sser, and si and ser again) against the
 * brute-force oracle of tests/brute_levels.h (doc/levels.md), which shares
 * no code with the checker:
 *   (a) thousands of small random histories (tests/levels_gen.h: registers
 *       and lists, aborted and indeterminate transactions, with times and,
 *       for some, without), the axioms then check_level on one index for all
 *       levels (the check builds the index a level needs) or on the index
 *       built for the level (pg_index_build_opts): the verdict equals the
 *       oracle's, a FAIL's cycle is re-checked by cycle_holds_level, and a
 *       real-time level without times is refused with the message saying so;
 *   (b) the examples of tests/data/levels get the verdicts their headers
 *       state, with their `# time:` lines as the history's times;
 *   (c) the cycles a level reports are ones it forbids (a psi cycle has one
 *       RW edge at most, a plain level's has no SO edge, ...). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/formats/parse.h"
#include "frontend/recheck/verify_model.h"
#include "frontend/reports/cert_build.h"
#include "frontend/reports/cert_file.h"
#include "tests/cert_round_trip.h"
#include "workload/gen_writer.h"
#include "workload/workload.h"
#include "sim_history.h"
#include "tests/brute_levels.h"
#include "tests/levels_gen.h"

static const check_level_id searched[] = {
    LEVEL_PC, LEVEL_PSI, LEVEL_SI_PLAIN, LEVEL_SER_PLAIN, LEVEL_STRONG_SI, LEVEL_SSER, LEVEL_SI, LEVEL_SER, LEVEL_RR,
};
#define NSEARCHED (sizeof searched / sizeof *searched)

static check_options *g_opt;                    /* check_level's options (NULL: the defaults) */
static int g_certify = 1;

static int bv_of(check_level_id l) {
    for (int b = 0; b < BV_NLEVELS; b++) if (!strcmp(bv_level_name[b], level_name(l))) return b;
    return -1;
}

static void dump(const history *h) {
    for (uint32_t t = 1; t < h->num_txns; t++) {
        fprintf(stderr, "  T%u s%u %s [%lld,%lld]:", t, h->txns[t].session,
                h->txns[t].status == TXN_COMMITTED ? "ok" : h->txns[t].status == TXN_ABORTED ? "fail" : "info",
                (long long)history_time(h, TIME_INVOKE, t), (long long)history_time(h, TIME_COMPLETE, t));
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            unsigned k = h->op_kind[op] & OP_KIND_MASK;
            int64_t v = history_op_value(h, op);
            if (k == OP_LIST_READ) {
                uint32_t n;
                const int64_t *l = history_list(h, op, &n);
                fprintf(stderr, " r(%u,[", h->op_key[op]);
                for (uint32_t i = 0; i < n; i++) fprintf(stderr, i ? " %lld" : "%lld", (long long)l[i]);
                fprintf(stderr, "])");
            } else
                fprintf(stderr, " %s(%u,%lld)", k == OP_READ ? "r" : k == OP_WRITE ? "w" : "a", h->op_key[op],
                        v == VALUE_INIT ? 0LL : (long long)v);
        }
        fputc('\n', stderr);
    }
}

typedef struct tally {
    int cmp[LEVEL_COUNT], holds[LEVEL_COUNT], refused, own_index, lists, info;
    int certs[LEVEL_COUNT], shuffled_ok, shuffled_bad, rt_swaps;
    int together;                /* version orders re-checked at every level at once, compared one by one */
} tally;

/* Each key's versions after INIT shuffled. */
static void shuffle_vo(const version_order *in, version_order *out) {
    out->num_keys = in->num_keys;
    out->start = malloc(((size_t)in->num_keys + 1) * sizeof *out->start);
    memcpy(out->start, in->start, ((size_t)in->num_keys + 1) * sizeof *out->start);
    vec_init(out->txns);
    for (size_t i = 0; i < in->txns.len; i++) vec_push(out->txns, in->txns.data[i]);
    for (uint32_t k = 0; k < in->num_keys; k++)
        for (uint32_t i = in->start[k + 1]; i > in->start[k] + 2; i--) {
            uint32_t j = in->start[k] + 1 + rnd(i - in->start[k] - 1), x = out->txns.data[i - 1];
            out->txns.data[i - 1] = out->txns.data[j];
            out->txns.data[j] = x;
        }
}

/* A PASS at level l with witness vo: its certificate verifies after a
 * round trip through the file; certificates of shuffled version orders
 * (with the witness's commit order) are accepted only when the re-check
 * of verify_model accepts the order too; at the real-time levels moving a
 * transaction before one that completed before it was invoked is refused. */
static void certify(const history *h, check_level_id l, const version_order *vo, tally *tl) {
    certificate c;
    cert_init(&c);
    ic_error err; ic_error_clear(&err);
    char msg[600];
    cert_status st = cert_build_level(h, vo, l, &c, &err);
    if (st != CERT_OK) { fprintf(stderr, "%s: cert_build: %s\n", level_name(l), err.msg); dump(h); fail(); }
    st = cert_round_trip(h, &c, l, msg, sizeof msg);
    if (st != CERT_OK) { fprintf(stderr, "%s: the certificate does not verify: %s\n", level_name(l), msg); dump(h); fail(); }
    tl->certs[l]++;
    for (int k = 0; k < 3; k++) {
        certificate bad = c;                     /* the same order, a shuffled version order */
        shuffle_vo(vo, &bad.vo);
        ic_error_clear(&err);
        int accepted = cert_verify_level(h, &bad, l, &err, NULL) == CERT_OK;
        char why[300] = "";
        int vm = vo_check_level_on(h, &bad.vo, l, NULL, why, sizeof why, NULL, 0);
        if (accepted && vm != 1) { fprintf(stderr, "%s: a shuffled certificate verifies, the re-check says %d\n", level_name(l), vm); dump(h); fail(); }
        if (k == 0) {                            /* every searched level at once (vo_check_levels_on) = one by one */
            check_level_id all[LEVEL_COUNT];
            int out[LEVEL_COUNT];
            size_t na = 0;
            for (int m = 0; m < LEVEL_COUNT; m++) if (level_shape_of((check_level_id)m) >= SHAPE_PC) all[na++] = (check_level_id)m;
            vo_check_levels_on(h, &bad.vo, all, na, out, NULL, 0);
            for (size_t m = 0; m < na; m++) {
                char w2[300] = "";
                assert_int_equal(out[m], vo_check_level_on(h, &bad.vo, all[m], NULL, w2, sizeof w2, NULL, 0));
            }
            tl->together++;
        }
        if (accepted) tl->shuffled_ok++; else tl->shuffled_bad++;
        if (vm == 1) {                           /* a witness the re-check accepts gets a certificate */
            certificate again;
            cert_init(&again);
            ic_error_clear(&err);
            assert_int_equal(cert_build_level(h, &bad.vo, l, &again, &err), CERT_OK);
            assert_int_equal(cert_round_trip(h, &again, l, msg, sizeof msg), CERT_OK);
            cert_free(&again);
        }
        version_order_free(&bad.vo);
    }
    if (level_real_time(l)) {                   /* move b right before a, where a RT b */
        for (size_t i = 0; i < c.order.len; i++)
            for (size_t j = i + 1; j < c.order.len; j++) {
                uint32_t a = c.order.data[i], b = c.order.data[j];
                if (c.si && (!(a & 1) || (b & 1))) continue;          /* cA ... sB */
                uint32_t ta = c.si ? a >> 1 : a, tb = c.si ? b >> 1 : b;
                if (h->txns[ta].status != TXN_COMMITTED || history_time(h, TIME_COMPLETE, ta) >= history_time(h, TIME_INVOKE, tb))
                    continue;
                certificate moved = c;
                vec_init(moved.order);
                for (size_t q = 0; q < c.order.len; q++) {
                    if (q == i) vec_push(moved.order, b);
                    if (q != j) vec_push(moved.order, c.order.data[q]);
                }
                moved.order_line.len = 0;
                ic_error_clear(&err);
                st = cert_verify_level(h, &moved, l, &err, NULL);
                if (st == CERT_OK) { fprintf(stderr, "%s: an order against real time verifies\n", level_name(l)); dump(h); fail(); }
                vec_free(moved.order);
                tl->rt_swaps++;
                i = j = c.order.len;
            }
    }
    cert_free(&c);
}

/* The checker's verdict at every searched level: 1 PASS, 0 FAIL, -1 refused. */
static void checker_verdicts(const history *h, int shared_index, int got[LEVEL_COUNT], int axf[LEVEL_COUNT], tally *tl) {
    anomaly_list al;
    uint64_t viol[2];                            /* the axioms with external prefixes only, whole lists */
    for (int w = 0; w < 2; w++) {
        anomaly_list_init(&al);
        viol[w] = axioms_check_lists(h, &al, 1, w);
        anomaly_list_free(&al);
    }
    assert_true(viol[1] || !viol[0]);           /* whole lists say more */
    uint64_t violations = viol[0];
    pg_index ix;
    ic_error err; ic_error_clear(&err);
    if (!violations) assert_true(pg_index_build(&ix, h, &err));
    for (size_t i = 0; i < NSEARCHED; i++) {
        check_level_id l = searched[i];
        axf[l] = violations || (viol[1] && axioms_whole_lists(l));
        if (axf[l]) { got[l] = 0; continue; }
        check_result res;
        verdict v;
        if (shared_index || pg_index_fits(&ix, l)) v = check_level(&ix, l, g_opt, &res);
        else {
            pg_index own;
            assert_true(pg_index_build_opts(&own, h, &err, NULL, pg_index_opts_for(l)));
            assert_true(pg_index_fits(&own, l));
            v = check_level(&own, l, g_opt, &res);
            pg_index_free(&own);
            tl->own_index++;
        }
        if (v == VERDICT_UNKNOWN) {
            if (!level_real_time(l) || !strstr(res.msg, "needs invocation and completion times")) {
                fprintf(stderr, "%s: UNKNOWN: %s\n", level_name(l), res.msg);
                dump(h);
                fail();
            }
            got[l] = -1;
        } else got[l] = v == VERDICT_PASS;
        if (v == VERDICT_FAIL) {                 /* (c) the cycle is one the level forbids, under res.vo */
            char why[300] = "";
            if (!cycle_holds_level(h, &res.vo, l, res.cycle.data, res.cycle.len, why, sizeof why)) {
                fprintf(stderr, "%s: the reported cycle does not hold: %s\n", level_name(l), why);
                dump(h);
                fail();
            }
        }
        if (v == VERDICT_PASS) {                 /* the witness passes the re-check on its own */
            char why[300] = "";
            assert_int_equal(vo_check_level_on(h, &res.vo, l, NULL, why, sizeof why, NULL, 0), 1);
            if (g_certify && cert_form_of(l)) certify(h, l, &res.vo, tl);
        }
        check_result_free(&res);
    }
    if (!violations) pg_index_free(&ix);
}

static void random_run(int n, int full) {
    tally tl; memset(&tl, 0, sizeof tl);
    for (int i = 0; i < n; i++) {
        int64_t inv[MAXT + 1], cmp[MAXT + 1];
        int with_times = rnd(8) != 0;
        history *h = random_history(inv, cmp, with_times);
        int out[BV_NLEVELS];
        bv_check_all(h, inv, cmp, out);
        if (out[BV_RC] < 0) { history_free(h); continue; }
        int got[LEVEL_COUNT];
        int axf[LEVEL_COUNT];
        checker_verdicts(h, i % 2, got, axf, &tl);
        tl.lists += h->has_lists;
        for (uint32_t t = 1; t < h->num_txns; t++) tl.info += h->txns[t].status == TXN_INDETERMINATE;
        for (size_t j = 0; j < NSEARCHED; j++) {
            check_level_id l = searched[j];
            int want = out[bv_of(l)];
            if (!with_times && level_real_time(l)) {
                assert_int_equal(got[l], axf[l] ? 0 : -1);   /* refused, never a silent check */
                tl.refused++;
                continue;
            }
            if (got[l] != want) {
                fprintf(stderr, "%s: checker %d, oracle %d on (history %d):\n", level_name(l), got[l], want, i);
                dump(h);
            }
            assert_int_equal(got[l], want);
            tl.cmp[l]++;
            tl.holds[l] += want;
        }
        history_free(h);
    }
    for (size_t j = 0; j < NSEARCHED; j++) {
        check_level_id l = searched[j];
        fprintf(stderr, "%-9s %d compared, %d hold\n", level_name(l), tl.cmp[l], tl.holds[l]);
        assert_true(tl.cmp[l] > n / 2 && tl.holds[l] > n / 15 && tl.cmp[l] - tl.holds[l] > n / 15);
    }
    if (!full) return;
    fprintf(stderr, "%d refusals without times, %d checks on an index built for the level, %d with lists, %d info\n",
            tl.refused, tl.own_index, tl.lists, tl.info);
    fprintf(stderr, "certificates verified:");
    for (size_t j = 0; j < NSEARCHED; j++) fprintf(stderr, " %s %d", level_name(searched[j]), tl.certs[searched[j]]);
    fprintf(stderr, "; shuffled version orders accepted %d, rejected %d; orders against real time rejected %d\n",
            tl.shuffled_ok, tl.shuffled_bad, tl.rt_swaps);
    for (size_t j = 0; j < NSEARCHED; j++) assert_true(tl.certs[searched[j]] > 200 || !cert_form_of(searched[j]));
    assert_true(tl.shuffled_bad > 500 && tl.rt_swaps > 200 && tl.together > 500);
    assert_true(tl.refused > 100 && tl.own_index > 1000 && tl.lists > 500 && tl.info > 300);
}

static void random_histories(void **state) {
    (void)state;
    rng_state = 0x5851f42d4c957f2dULL;
    random_run(3000, 1);
}

/* The same with every testing knob that may change how, never what, the
 * stages decide: two threads splitting every stage, one reachability
 * chain, offsets of at most 3, the half table wherever allowed, pruning's
 * stop rule on every table, incremental renewals. */
static void random_histories_knobs(void **state) {
    (void)state;
    rng_state = 0x2545f4914f6cdd1dULL;
    check_options opt;
    check_options_default(&opt);
    opt.threads = 2;
    g_opt = &opt; g_certify = 0;
    pg_par_min_work = 0; pg_chain_limit = 1; pg_reach_delta_max = 3;
    pg_reach_half_mode = PG_REACH_HALF_ALWAYS; pg_prune_stop = PG_PRUNE_STOP_ALWAYS; pg_reach_mode = PG_REACH_INCREMENTAL;
    random_run(1500, 0);
    pg_par_min_work = 1u << 15; pg_chain_limit = 0; pg_reach_delta_max = 0xFFFE;
    pg_reach_half_mode = PG_REACH_HALF_AUTO; pg_prune_stop = PG_PRUNE_STOP_AUTO; pg_reach_mode = PG_REACH_AUTO;
    g_opt = NULL; g_certify = 1;
}

/* ---- simulated histories: hundreds of transactions, no oracle --------------- */

static history *simulate(sim_level level, sim_fault fault, uint64_t seed) {
    return sim_history(level, fault, (sim_shape){ 12, 25, 5, 40 }, seed);
}

/* Times on a simulated history: every transaction [0, 1] (no real-time
 * edge: strong-si must equal si and sser ser), or by position in its
 * session, [2 pos, 2 pos + 1] (real time across sessions). */
static void set_times(history *h, int by_pos) {
    for (int k = TIME_INVOKE; k <= TIME_COMPLETE; k++) {
        free(h->times[k]);
        h->times[k] = malloc(h->num_txns * sizeof(int64_t));
        h->times[k][0] = HISTORY_TIME_NONE;
        for (uint32_t t = 1; t < h->num_txns; t++)
            h->times[k][t] = (by_pos ? 2 * (int64_t)h->txns[t].pos : 0) + (k == TIME_COMPLETE);
    }
}

/* On simulated SI and SER histories, with and without faults: the ladder's
 * implications hold between the checker's verdicts, strong-si = si and
 * sser = ser without real-time edges, and every PASS is certified. */
static void simulated_ladder(void **state) {
    (void)state;
    int pass[LEVEL_COUNT] = {0}, n = 0;
    static const struct { check_level_id strong, weak; } implies[] = {
        { LEVEL_SSER, LEVEL_SER }, { LEVEL_SSER, LEVEL_STRONG_SI }, { LEVEL_STRONG_SI, LEVEL_SI }, { LEVEL_SER, LEVEL_SI },
        { LEVEL_SI, LEVEL_PC }, { LEVEL_SI, LEVEL_PSI }, { LEVEL_SI, LEVEL_SI_PLAIN }, { LEVEL_SER, LEVEL_SER_PLAIN },
        { LEVEL_SER_PLAIN, LEVEL_SI_PLAIN },
    };
    rng_state = 0x9e3779b97f4a7c15ULL;
    tally tl; memset(&tl, 0, sizeof tl);
    for (int lv = 0; lv < 2; lv++)
        for (int f = 0; f < FAULT_COUNT; f++)
            for (uint64_t seed = 1; seed <= 2; seed++)
                for (int by_pos = 0; by_pos < 2; by_pos++) {
                    history *h = simulate(lv ? SIM_SER : SIM_SI, (sim_fault)f, seed);
                    set_times(h, by_pos);
                    int got[LEVEL_COUNT], axf[LEVEL_COUNT];
                    checker_verdicts(h, (int)seed & 1, got, axf, &tl);
                    for (size_t i = 0; i < sizeof implies / sizeof *implies; i++)
                        if (got[implies[i].strong] == 1 && got[implies[i].weak] != 1) {
                            fprintf(stderr, "%s holds, %s fails (sim %d fault %d seed %d)\n", level_name(implies[i].strong),
                                    level_name(implies[i].weak), lv, f, (int)seed);
                            fail();
                        }
                    if (!by_pos) {
                        assert_int_equal(got[LEVEL_STRONG_SI], got[LEVEL_SI]);
                        assert_int_equal(got[LEVEL_SSER], got[LEVEL_SER]);
                    }
                    if (f == FAULT_NONE) assert_int_equal(got[lv ? LEVEL_SER : LEVEL_SI], 1);
                    for (int l = 0; l < LEVEL_COUNT; l++) pass[l] += got[l] == 1;
                    n++;
                    history_free(h);
                }
    fprintf(stderr, "%d simulated histories:", n);
    for (size_t j = 0; j < NSEARCHED; j++) fprintf(stderr, " %s %d", level_name(searched[j]), pass[searched[j]]);
    fprintf(stderr, " pass\n");
    assert_true(pass[LEVEL_SER] > 0 && pass[LEVEL_SER] < n);
}

/* ---- (b) the documented examples ------------------------------------------ */

static void one_example(const char *dir, const char *name, int *checked) {
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int expect[BV_NLEVELS];
    for (int l = 0; l < BV_NLEVELS; l++) expect[l] = -1;
    long times[64][3];
    int ntimes = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == ';') line[0] = '#';
        int want = !strncmp(line, "# holds:", 8) ? 1 : !strncmp(line, "# fails:", 8) ? 0 : -1;
        if (want >= 0) {
            for (char *p = line + 8; *p;) {
                while (*p == ' ' || *p == '\n') p++;
                size_t n = strcspn(p, " \n");
                if (!n) break;
                for (int l = 0; l < BV_NLEVELS; l++)
                    if (strlen(bv_level_name[l]) == n && !memcmp(bv_level_name[l], p, n)) expect[l] = want;
                p += n;
            }
        } else if (!strncmp(line, "# time:", 7) && ntimes < 64) {
            assert_int_equal(sscanf(line + 7, "%ld %ld %ld", &times[ntimes][0], &times[ntimes][1], &times[ntimes][2]), 3);
            ntimes++;
        }
    }
    fclose(f);
    ic_error err; ic_error_clear(&err);
    history *h = load_history(path, FORMAT_AUTO, &err);
    assert_non_null(h);
    /* the times beside the history, as a format with time fields gives them
     * (the files' own #@time lines say the same: replaced here) */
    for (int k = TIME_INVOKE; k <= TIME_COMPLETE; k++) {
        free(h->times[k]);
        h->times[k] = malloc(h->num_txns * sizeof(int64_t));
        for (uint32_t t = 0; t < h->num_txns; t++) h->times[k][t] = HISTORY_TIME_NONE;
    }
    for (uint32_t t = 1; t < h->num_txns; t++)
        for (int i = 0; i < ntimes; i++)
            if (times[i][0] == h->txns[t].ext_id) {
                h->times[TIME_INVOKE][t] = times[i][1];
                if (h->txns[t].status != TXN_INDETERMINATE) h->times[TIME_COMPLETE][t] = times[i][2];
            }
    tally tl; memset(&tl, 0, sizeof tl);
    int got[LEVEL_COUNT], axf[LEVEL_COUNT];
    checker_verdicts(h, 1, got, axf, &tl);
    for (size_t j = 0; j < NSEARCHED; j++) {
        check_level_id l = searched[j];
        int want = expect[bv_of(l)];
        if (got[l] != want) fprintf(stderr, "%s: %s: checker %d, documented %d\n", name, level_name(l), got[l], want);
        assert_int_equal(got[l], want);
        (*checked)++;
    }
    history_free(h);
}

static void documented_examples(void **state) {
    (void)state;
    const char *dir = "tests/data/levels";
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0, checked = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || (strcmp(e->d_name + n - 4, ".txt") && strcmp(e->d_name + n - 4, ".edn"))) continue;
        one_example(dir, e->d_name, &checked);
        files++;
    }
    closedir(d);
    fprintf(stderr, "%d examples, %d verdicts as documented\n", files, checked);
    assert_true(files >= 16);
}

/* A real-time level on a history without times is refused by name
 * (tests/data/levels/serial.txt with its #@time lines left out). */
static void no_times_refused(void **state) {
    (void)state;
    char path[] = "/tmp/test_levels_engine.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *in = fopen("tests/data/levels/serial.txt", "r"), *out = fdopen(fd, "w");
    assert_non_null(in); assert_non_null(out);
    char line[512];
    int dropped = 0;
    while (fgets(line, sizeof line, in))
        if (strncmp(line, "#@time", 6) == 0) dropped++;
        else assert_true(fputs(line, out) >= 0);
    fclose(in);
    assert_int_equal(fclose(out), 0);
    assert_int_equal(dropped, 3);
    ic_error err; ic_error_clear(&err);
    history *h = load_history(path, FORMAT_AUTO, &err);
    remove(path);
    assert_non_null(h);
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    check_result res;
    assert_int_equal(check_level(&ix, LEVEL_SSER, NULL, &res), VERDICT_UNKNOWN);
    assert_string_equal(res.msg, "sser needs invocation and completion times; this history has none");
    check_result_free(&res);
    assert_int_equal(check_level(&ix, LEVEL_STRONG_SI, NULL, &res), VERDICT_UNKNOWN);
    assert_non_null(strstr(res.msg, "strong-si needs invocation and completion times"));
    check_result_free(&res);
    assert_int_equal(check_level(&ix, LEVEL_SER_PLAIN, NULL, &res), VERDICT_PASS);
    check_result_free(&res);
    pg_index_free(&ix);
    history_free(h);
}

int main(void) {
    (void)bv_anomaly; (void)bv_acyclic;          /* the oracle's, unused here */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_times_refused),
        cmocka_unit_test(documented_examples),
        cmocka_unit_test(random_histories),
        cmocka_unit_test(random_histories_knobs),
        cmocka_unit_test(simulated_ladder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
