/* test_data.c — every history in ../shared/data loads with the right
 * counts and has no axiom violations (they are all SI histories or cycle
 * violations).  dbcop runs are named S_T_O_K_R_dist: S sessions, T txns per
 * session, O ops per txn, at most K keys.  Skipped if the data is absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "frontend/checking/axioms.h"
#include "frontend/reports/history_stats.h"
#include "parse_helpers.h"

static char data[512];

static int have_data(void) {
    struct stat st;
    return stat(data, &st) == 0 && S_ISDIR(st.st_mode);
}

static history *load_checked(const char *rel, history_format want, history_stats *s) {
    char path[1024];
    snprintf(path, sizeof path, "%s/polysi-histories/%s", data, rel);
    ic_error err; ic_error_clear(&err);
    history *h = load_history(path, FORMAT_AUTO, &err);
    if (!h) fprintf(stderr, "%s: %ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(h);
    assert_int_equal(h->format, want);
    history_stats_compute(h, s);
    anomaly_list l; anomaly_list_init(&l);
    uint64_t n = axioms_check(h, &l, 1);
    if (n) fprintf(stderr, "%s: %s\n", rel, l.items.data[0].detail);
    assert_int_equal(n, 0);
    anomaly_list_free(&l);
    return h;
}

static void dbcop_runs_match_their_names(void **state) {
    (void)state;
    if (!have_data()) { fprintf(stderr, "data directory %s absent: skipped\n", data); skip(); }
    const char *groups[] = { "fig7", "fig8_9_10" };
    int runs = 0;
    for (int g = 0; g < 2; g++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/polysi-histories/%s", data, groups[g]);
        DIR *d = opendir(dir);
        assert_non_null(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            unsigned S, T, O, K;
            if (sscanf(e->d_name, "%u_%u_%u_%u_", &S, &T, &O, &K) != 4) continue;
            char rel[512];
            snprintf(rel, sizeof rel, "%s/%s/hist-00000", groups[g], e->d_name);
            history_stats s;
            history *h = load_checked(rel, FORMAT_DBCOP, &s);
            assert_int_equal(s.sessions, S);
            assert_int_equal(s.txns, (uint64_t)S * T);
            assert_int_equal(s.committed, s.txns);
            assert_int_equal(s.ops, (uint64_t)S * T * O);
            assert_true(s.keys <= K);
            history_free(h);
            runs++;
        }
        closedir(d);
    }
    assert_int_equal(runs, 34);
}

typedef struct expected { const char *rel; history_format fmt; uint64_t sessions, txns, aborted, ops, reads, keys; } expected;

static void named_histories(void **state) {
    (void)state;
    if (!have_data()) { fprintf(stderr, "data directory %s absent: skipped\n", data); skip(); }
    static const expected table[] = {
        { "violations/galera/galera.txt",       FORMAT_TEXT,  2,     7,   0,     14,      4,     1 },
        { "violations/yugabyte/yugabyte.txt",   FORMAT_TEXT,  2,    20,   0,    200,    103,    20 },
        { "violations/dgraph/history.bincode",  FORMAT_DBCOP, 10,  800, 320,  16000,   8038,  1000 },
        { "fig8_9_10/rubis-10000/hist-00000",   FORMAT_COBRA, 24, 9358,   0,  47027,  35770, 31235 },
        { "fig8_9_10/tpcc-10000/hist-00000",    FORMAT_COBRA, 24, 13870,  0, 320217, 256711, 78703 },
        { "fig8_9_10/twitter-10000/hist-00000", FORMAT_COBRA, 25, 9571,   0,  49817,  34384, 10003 },
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        const expected *x = &table[i];
        history_stats s;
        history *h = load_checked(x->rel, x->fmt, &s);
        assert_int_equal(s.sessions, x->sessions);
        assert_int_equal(s.txns, x->txns);
        assert_int_equal(s.aborted, x->aborted);
        assert_int_equal(s.ops, x->ops);
        assert_int_equal(s.reads, x->reads);
        assert_int_equal(s.keys, x->keys);
        history_free(h);
    }
}

int main(void) {
    const char *env = getenv("DATA");
    snprintf(data, sizeof data, "%s", env && *env ? env : "../shared/data");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dbcop_runs_match_their_names),
        cmocka_unit_test(named_histories),
    };
    return cmocka_run_group_tests_name("data", tests, NULL, NULL);
}
