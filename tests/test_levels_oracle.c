/* test_levels_oracle.c — the brute-force oracle of every isolation level
 * (tests/brute_levels.h, doc/levels.md) against the documented examples,
 * itself, today's oracles and today's checker:
 *   (a) every example in tests/data/levels/ gets the verdicts its header
 *       states, for all eleven levels, by both of the oracle's methods;
 *   (b) monotonicity on thousands of small random histories: a history that
 *       satisfies a level satisfies every weaker one (doc/levels.md's order);
 *   (c) si and ser agree with tests/brute_check.h (registers) and
 *       tests/brute_list.h (lists, registers, indeterminate transactions);
 *   (d) si and ser agree with the checker (axioms, then check_level);
 *   (a') the anomaly catalogue (tests/data/anomalies) gets its stated si
 *       and ser verdicts;
 *   (e) the oracle's four methods agree: commit orders (every level) with
 *       version orders (psi, si, ser, their plain and real-time variants),
 *       saturation (rc, ra, cc) and replay (pc, si, ser and variants).
 * Random histories: 2-7 transactions, 1-3 sessions and keys, registers and
 * lists, aborted and indeterminate transactions, reads from an execution
 * whose visibility is serial, a snapshot, a random set per transaction or
 * per read, or arbitrary; times mostly follow the execution. */
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
#include "tests/brute_check.h"
#include "tests/brute_levels.h"
#include "tests/brute_levels_alt.h"
#include "tests/brute_list.h"
#include "tests/levels_gen.h"

#define LEVELS_DIR "tests/data/levels"

static unsigned stronger_closure[BV_NLEVELS];   /* levels weaker than l (transitively) */
static void ladder_closure(void) {
    for (int l = 0; l < BV_NLEVELS; l++) stronger_closure[l] = bv_direct_weaker[l];
    for (int it = 0; it < BV_NLEVELS; it++)
        for (int l = 0; l < BV_NLEVELS; l++)
            for (int w = 0; w < BV_NLEVELS; w++)
                if (stronger_closure[l] >> w & 1u) stronger_closure[l] |= stronger_closure[w];
}

static int level_id(const char *s, size_t n) {
    for (int l = 0; l < BV_NLEVELS; l++)
        if (strlen(bv_level_name[l]) == n && !memcmp(bv_level_name[l], s, n)) return l;
    return -1;
}

static void dump(const history *h, const int64_t *inv, const int64_t *cmp) {
    for (uint32_t t = 1; t < h->num_txns; t++) {
        fprintf(stderr, "  T%u s%u %s", t, h->txns[t].session,
                h->txns[t].status == TXN_COMMITTED ? "ok" : h->txns[t].status == TXN_ABORTED ? "fail" : "info");
        if (inv) fprintf(stderr, " [%lld,%lld]", (long long)inv[t], (long long)cmp[t]);
        fputc(':', stderr);
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

/* ---- (a) the documented examples ------------------------------------------ */

static void one_example(const char *name) {
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/%s", LEVELS_DIR, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int expect[BV_NLEVELS];
    for (int l = 0; l < BV_NLEVELS; l++) expect[l] = -1;
    long times[64][3];
    int ntimes = 0, headers = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == ';') line[0] = '#';              /* Elle EDN comments */
        int want = !strncmp(line, "# holds:", 8) ? 1 : !strncmp(line, "# fails:", 8) ? 0 : -1;
        if (want >= 0) {
            headers++;
            for (char *p = line + 8; *p;) {
                while (*p == ' ' || *p == '\n') p++;
                size_t n = strcspn(p, " \n");
                if (!n) break;
                int l = level_id(p, n);
                if (l < 0) fprintf(stderr, "%s: unknown level %.*s\n", name, (int)n, p);
                assert_true(l >= 0);
                assert_int_equal(expect[l], -1);          /* each level once */
                expect[l] = want;
                p += n;
            }
        } else if (!strncmp(line, "# time:", 7)) {
            assert_true(ntimes < 64);
            assert_int_equal(sscanf(line + 7, "%ld %ld %ld", &times[ntimes][0], &times[ntimes][1], &times[ntimes][2]), 3);
            ntimes++;
        }
    }
    fclose(f);
    assert_int_equal(headers, 2);
    for (int l = 0; l < BV_NLEVELS; l++) assert_int_not_equal(expect[l], -1);   /* every level stated */
    ic_error err; ic_error_clear(&err);
    history *h = load_history(path, FORMAT_AUTO, &err);
    if (!h) fprintf(stderr, "%s: %s\n", path, err.msg);
    assert_non_null(h);
    int64_t inv[64], cmp[64];
    assert_true(h->num_txns <= 64);
    int timed = 0;
    for (uint32_t t = 1; t < h->num_txns; t++)
        for (int i = 0; i < ntimes; i++)
            if (times[i][0] == h->txns[t].ext_id) { inv[t] = times[i][1]; cmp[t] = times[i][2]; timed++; }
    assert_int_equal(timed, (int)h->num_txns - 1);       /* a time for every transaction */
    int out[BV_NLEVELS];
    bv_check_all(h, inv, cmp, out);
    for (int l = 0; l < BV_NLEVELS; l++) {
        if (out[l] != expect[l]) fprintf(stderr, "%s: %s: oracle %d, documented %d\n", name, bv_level_name[l], out[l], expect[l]);
        assert_int_equal(out[l], expect[l]);
        int g = bv_graph_check(h, l, inv, cmp, 1000000);
        if (g >= 0) assert_int_equal(g, expect[l]);
        g = bv_saturation_check(h, l);
        if (g >= 0) assert_int_equal(g, expect[l]);
        g = bv_replay_check(h, l, inv, cmp);
        if (g >= 0) assert_int_equal(g, expect[l]);
    }
    history_free(h);
}

static void documented_examples(void **state) {
    (void)state;
    DIR *d = opendir(LEVELS_DIR);
    assert_non_null(d);
    int files = 0;
    unsigned sep = 0;                                    /* pairs (stronger fails, weaker holds) */
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || (strcmp(e->d_name + n - 4, ".txt") && strcmp(e->d_name + n - 4, ".edn"))) continue;
        one_example(e->d_name);
        files++;
    }
    closedir(d);
    (void)sep;
    fprintf(stderr, "levels examples: %d files\n", files);
    assert_true(files >= 15);
}

/* Every adjacent pair of the ladder is separated by some example: checked
 * from the files' own headers by the oracle's verdicts. */
static void every_pair_separated(void **state) {
    (void)state;
    unsigned separated[BV_NLEVELS] = {0};
    DIR *d = opendir(LEVELS_DIR);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || (strcmp(e->d_name + n - 4, ".txt") && strcmp(e->d_name + n - 4, ".edn"))) continue;
        char path[512], line[512];
        snprintf(path, sizeof path, "%s/%s", LEVELS_DIR, e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        long times[64][3];
        int ntimes = 0;
        while (fgets(line, sizeof line, f))
            if ((line[0] == '#' || line[0] == ';') && !strncmp(line + 1, " time:", 6) && ntimes < 64 &&
                sscanf(line + 7, "%ld %ld %ld", &times[ntimes][0], &times[ntimes][1], &times[ntimes][2]) == 3)
                ntimes++;
        fclose(f);
        ic_error err; ic_error_clear(&err);
        history *h = load_history(path, FORMAT_AUTO, &err);
        assert_non_null(h);
        int64_t inv[64] = {0}, cmp[64] = {0};
        for (uint32_t t = 1; t < h->num_txns && t < 64; t++)
            for (int i = 0; i < ntimes; i++)
                if (times[i][0] == h->txns[t].ext_id) { inv[t] = times[i][1]; cmp[t] = times[i][2]; }
        int out[BV_NLEVELS];
        bv_check_all(h, inv, cmp, out);
        for (int s = 0; s < BV_NLEVELS; s++)
            for (int w = 0; w < BV_NLEVELS; w++)
                if ((bv_direct_weaker[s] >> w & 1u) && out[s] == 0 && out[w] == 1) separated[s] |= 1u << w;
        history_free(h);
    }
    closedir(d);
    for (int s = 0; s < BV_NLEVELS; s++)
        for (int w = 0; w < BV_NLEVELS; w++)
            if ((bv_direct_weaker[s] >> w & 1u) && !(separated[s] >> w & 1u)) {
                fprintf(stderr, "no example separates %s from %s\n", bv_level_name[s], bv_level_name[w]);
                fail();
            }
}

/* The anomaly catalogue (tests/data/anomalies, text and Elle): every file
 * states its si and ser verdicts ("si: PASS", "ser: FAIL ..."); the oracle
 * must give them, and its other levels must be consistent with them. */
static void anomaly_catalogue(void **state) {
    (void)state;
    ladder_closure();
    DIR *d = opendir("tests/data/anomalies");
    assert_non_null(d);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || (strcmp(e->d_name + n - 4, ".txt") && strcmp(e->d_name + n - 4, ".edn"))) continue;
        char path[512], line[512];
        snprintf(path, sizeof path, "tests/data/anomalies/%s", e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        int want[2] = {-1, -1};
        while (fgets(line, sizeof line, f)) {
            if (line[0] != '#' && line[0] != ';') continue;
            const char *p = line + 1;
            while (*p == ' ') p++;
            int l = !strncmp(p, "si: ", 4) ? 0 : !strncmp(p, "ser: ", 5) ? 1 : -1;
            if (l < 0) continue;
            p = strchr(p, ':') + 2;
            want[l] = !strncmp(p, "PASS", 4) ? 1 : !strncmp(p, "FAIL", 4) ? 0 : -1;
        }
        fclose(f);
        if (want[0] < 0 || want[1] < 0) continue;
        ic_error err; ic_error_clear(&err);
        history *h = load_history(path, FORMAT_AUTO, &err);
        assert_non_null(h);
        int out[BV_NLEVELS];
        bv_check_all(h, NULL, NULL, out);
        if (out[BV_SI] >= 0) {
            if (out[BV_SI] != want[0] || out[BV_SER] != want[1])
                fprintf(stderr, "%s: oracle si %d ser %d, catalogue %d %d\n", e->d_name, out[BV_SI], out[BV_SER], want[0], want[1]);
            assert_int_equal(out[BV_SI], want[0]);
            assert_int_equal(out[BV_SER], want[1]);
            for (int a = 0; a < BV_NLEVELS; a++)
                for (int w = 0; w < BV_NLEVELS; w++)
                    if ((stronger_closure[a] >> w & 1u) && out[a] == 1) assert_int_equal(out[w], 1);
            files++;
        }
        history_free(h);
    }
    closedir(d);
    fprintf(stderr, "anomaly catalogue: %d files agree on si and ser\n", files);
    assert_true(files >= 20);
}

/* ---- random histories: tests/levels_gen.h (shared with test_levels_engine) ---- */

/* ---- (b) monotonicity, (e) the two methods -------------------------------- */

static void ladder_is_monotone(void **state) {
    (void)state;
    ladder_closure();
    rng_state = 0x9e3779b97f4a7c15ULL;
    int holds[BV_NLEVELS] = {0}, fails[BV_NLEVELS] = {0}, undecided = 0, anomalies = 0, graph_cmp = 0, sat_cmp = 0, replay_cmp = 0;
    int sep[BV_NLEVELS][BV_NLEVELS];                    /* [s][w]: w holds, s fails */
    memset(sep, 0, sizeof sep);
    for (int i = 0; i < 16000; i++) {
        int64_t inv[MAXT + 1], cmp[MAXT + 1];
        history *h = random_history(inv, cmp, 0);
        int out[BV_NLEVELS];
        bv_check_all(h, inv, cmp, out);
        if (out[BV_RC] < 0) { undecided++; history_free(h); continue; }
        if (bv_anomaly(h)) anomalies++;
        /* no predicate reads here: rr is ser-plain (doc/levels.md); the
         * histories that separate them are test_predicates.c's */
        if (out[BV_RR] != out[BV_SER_PLAIN]) { fprintf(stderr, "rr %d, ser-plain %d on:\n", out[BV_RR], out[BV_SER_PLAIN]); dump(h, inv, cmp); }
        assert_int_equal(out[BV_RR], out[BV_SER_PLAIN]);
        for (int l = 0; l < BV_NLEVELS; l++) {
            assert_true(out[l] == 0 || out[l] == 1);
            if (out[l]) holds[l]++; else fails[l]++;
            for (int w = 0; w < BV_NLEVELS; w++) if (out[w] == 1 && out[l] == 0) sep[l][w]++;
            for (int w = 0; w < BV_NLEVELS; w++)
                if ((stronger_closure[l] >> w & 1u) && out[l] == 1 && out[w] != 1) {
                    fprintf(stderr, "%s holds but %s fails on:\n", bv_level_name[l], bv_level_name[w]);
                    dump(h, inv, cmp);
                    fail();
                }
            /* (e) method 4 (pc, si*, ser*), method 3 (rc, ra, cc) and method 2 (psi and up) */
            if (i % 2 == 1) {
                int rp = bv_replay_check(h, l, inv, cmp);
                if (rp >= 0) {
                    replay_cmp++;
                    if (rp != out[l]) { fprintf(stderr, "%s: commit orders %d, replay %d on:\n", bv_level_name[l], out[l], rp); dump(h, inv, cmp); }
                    assert_int_equal(rp, out[l]);
                }
            }
            int sat = bv_saturation_check(h, l);
            if (sat >= 0) {
                sat_cmp++;
                if (sat != out[l]) { fprintf(stderr, "%s: commit orders %d, saturation %d on:\n", bv_level_name[l], out[l], sat); dump(h, inv, cmp); }
                assert_int_equal(sat, out[l]);
            }
            if (i % 2 == 0) {
                int g = bv_graph_check(h, l, inv, cmp, 5040);
                if (g >= 0) {
                    graph_cmp++;
                    if (g != out[l]) { fprintf(stderr, "%s: commit orders %d, version orders %d on:\n", bv_level_name[l], out[l], g); dump(h, inv, cmp); }
                    assert_int_equal(g, out[l]);
                }
            }
        }
        history_free(h);
    }
    for (int l = 0; l < BV_NLEVELS; l++) fprintf(stderr, "%-9s holds %4d fails %4d\n", bv_level_name[l], holds[l], fails[l]);
    fprintf(stderr, "%d undecided, %d with a non-cycle anomaly, %d method-2, %d method-3 and %d method-4 comparisons\n",
            undecided, anomalies, graph_cmp, sat_cmp, replay_cmp);
    assert_true(sat_cmp > 40000 && replay_cmp > 50000);
    /* both verdicts, at every level, and no level equal to its weaker neighbour everywhere */
    for (int l = 0; l < BV_NLEVELS; l++) assert_true(holds[l] >= 100 && fails[l] >= 100);
    for (int s = 0; s < BV_NLEVELS; s++)
        for (int w = 0; w < BV_NLEVELS; w++)
            if ((bv_direct_weaker[s] >> w & 1u) && !(s == BV_SER_PLAIN && w == BV_RR)) {   /* rr: above */
                fprintf(stderr, "%s holds, %s fails: %d\n", bv_level_name[w], bv_level_name[s], sep[s][w]);
                assert_true(sep[s][w] >= 20);
            }
    fprintf(stderr, "pc holds, psi fails: %d; psi holds, pc fails: %d\n", sep[BV_PSI][BV_PC], sep[BV_PC][BV_PSI]);
    assert_true(sep[BV_PSI][BV_PC] >= 20 && sep[BV_PC][BV_PSI] >= 20);
    assert_true(graph_cmp > 5000);
}

/* ---- (c) today's oracles, (d) today's checker ------------------------------ */

typedef struct tally { int agree[2], pipeline[2], brute[2], list[2], skipped, with_lists, with_aborted, with_info; } tally;

static void compare_si_ser(history *h, const int64_t *inv, const int64_t *cmp, tally *tl) {
    int out[BV_NLEVELS];
    bv_check_all(h, inv, cmp, out);
    if (out[BV_SI] < 0) { tl->skipped++; return; }
    int mine[2] = { out[BV_SI], out[BV_SER] };
    int has_info = 0, has_lists = h->has_lists;
    int has_aborted = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        has_info |= h->txns[t].status == TXN_INDETERMINATE;
        has_aborted |= h->txns[t].status == TXN_ABORTED;
    }
    tl->with_lists += has_lists; tl->with_aborted += has_aborted; tl->with_info += has_info;
    for (int l = 0; l < 2; l++) {
        if (!has_info && !has_lists) {              /* brute_check: registers, committed / aborted */
            int b = brute_check(h, l == 0);
            if (b >= 0) {
                if (b != mine[l]) { fprintf(stderr, "%s: brute_check %d, levels oracle %d on:\n", l ? "ser" : "si", b, mine[l]); dump(h, NULL, NULL); }
                assert_int_equal(b, mine[l]);
                tl->brute[l]++;
            }
        }
        int bl = brute_list_check(h, l == 0);
        if (bl >= 0) {
            if (bl != mine[l]) { fprintf(stderr, "%s: brute_list %d, levels oracle %d on:\n", l ? "ser" : "si", bl, mine[l]); dump(h, NULL, NULL); }
            assert_int_equal(bl, mine[l]);
            tl->list[l]++;
        }
    }
    /* the checker, as isocheck check runs it: the axioms, then each level */
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t violations = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    int got[2];
    if (violations) got[0] = got[1] = 0;
    else {
        ic_error err; ic_error_clear(&err);
        pg_index ix;
        assert_true(pg_index_build(&ix, h, &err));
        for (int l = 0; l < 2; l++) {
            check_result res;
            verdict v = check_level(&ix, l == 0 ? LEVEL_SI : LEVEL_SER, NULL, &res);
            assert_int_not_equal(v, VERDICT_UNKNOWN);
            got[l] = v == VERDICT_PASS;
            check_result_free(&res);
        }
        pg_index_free(&ix);
    }
    for (int l = 0; l < 2; l++) {
        if (got[l] != mine[l]) { fprintf(stderr, "%s: checker %d, levels oracle %d on:\n", l ? "ser" : "si", got[l], mine[l]); dump(h, NULL, NULL); }
        assert_int_equal(got[l], mine[l]);
        tl->pipeline[l]++;
        tl->agree[l] += mine[l];
    }
}

static void si_ser_agree(void **state) {
    (void)state;
    rng_state = 0x243f6a8885a308d3ULL;
    tally tl; memset(&tl, 0, sizeof tl);
    for (int i = 0; i < 2500; i++) {
        int64_t inv[MAXT + 1], cmp[MAXT + 1];
        history *h = random_history(inv, cmp, 0);
        compare_si_ser(h, inv, cmp, &tl);
        history_free(h);
    }
    fprintf(stderr, "si/ser: %d/%d compared with the checker (%d/%d hold), %d/%d with brute_check, %d/%d with brute_list, %d skipped\n",
            tl.pipeline[0], tl.pipeline[1], tl.agree[0], tl.agree[1], tl.brute[0], tl.brute[1], tl.list[0], tl.list[1], tl.skipped);
    fprintf(stderr, "si/ser: %d with lists, %d with aborted, %d with indeterminate transactions\n", tl.with_lists, tl.with_aborted, tl.with_info);
    assert_true(tl.with_lists > 500 && tl.with_aborted > 300 && tl.with_info > 300);
    for (int l = 0; l < 2; l++) {
        assert_true(tl.pipeline[l] > 2000 && tl.brute[l] > 200 && tl.list[l] > 1000);
        assert_true(tl.agree[l] > 200 && tl.pipeline[l] - tl.agree[l] > 200);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(documented_examples),
        cmocka_unit_test(every_pair_separated),
        cmocka_unit_test(anomaly_catalogue),
        cmocka_unit_test(ladder_is_monotone),
        cmocka_unit_test(si_ser_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
