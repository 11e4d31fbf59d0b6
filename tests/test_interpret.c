/* test_interpret.c — every catalogue anomaly (tests/data/anomalies, text format)
 * interpreted under a version order: the expected name, the minimal
 * cycle's transactions (from the file's "# si: FAIL cycle 1,2 ..." line),
 * the explanation of each WW/RW edge, and the text, JSON and DOT output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/classify.h"
#include "frontend/interpret.h"
#include "frontend/parse.h"
#include "frontend/report.h"

#define CATALOGUE "tests/data/anomalies/"

/* Per key: INIT, then the participating writers in history order. */
static void history_order_vo(const history *h, version_order *vo) {
    uint8_t *part = history_participants(h);
    vo->num_keys = h->num_keys;
    vo->start = calloc(h->num_keys + 1, sizeof *vo->start);
    vec_init(vo->txns);
    for (uint32_t k = 0; k < h->num_keys; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        vec_push(vo->txns, 0u);
        uint32_t last = 0;
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t t = h->op_txn[h->key_writes[i]];
            if (t == 0 || t == last || !part[t]) continue;
            vec_push(vo->txns, t);
            last = t;
        }
    }
    vo->start[h->num_keys] = (uint32_t)vo->txns.len;
    free(part);
}

/* "# si: FAIL cycle 1,2,3 RW,WR,WR" -> sorted txn ids in want[]; returns their count, 0 for PASS */
static int expected_cycle(const char *path, const char *level, int64_t *want) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512], tag[32];
    int n = -1;
    snprintf(tag, sizeof tag, "# %s: ", level);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, tag, strlen(tag))) continue;
        const char *p = line + strlen(tag);
        if (!strncmp(p, "PASS", 4)) { n = 0; break; }
        if (strncmp(p, "FAIL cycle ", 11)) { n = -2; break; }
        p += 11;
        n = 0;
        while (*p >= '0' && *p <= '9') {
            want[n++] = strtoll(p, (char **)&p, 10);
            if (*p == ',') p++;
        }
        break;
    }
    fclose(f);
    return n;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

typedef struct expect { const char *file; anomaly_kind si, ser; } expect;

static const expect catalogue[] = {
    { "causality.txt", AN_CAUSALITY, AN_CAUSALITY },
    { "circular_flow.txt", AN_G1C, AN_G1C },
    { "fractured_read.txt", AN_FRACTURED_READ, AN_FRACTURED_READ },
    { "long_fork.txt", AN_LONG_FORK, AN_LONG_FORK },
    { "lost_update.txt", AN_LOST_UPDATE, AN_LOST_UPDATE },
    { "monotonic_reads.txt", AN_MONOTONIC_READS, AN_MONOTONIC_READS },
    { "read_only_anomaly.txt", AN_NUM_KINDS, AN_CYCLE },
    { "read_skew.txt", AN_FRACTURED_READ, AN_FRACTURED_READ },
    { "read_your_writes.txt", AN_READ_YOUR_WRITES, AN_READ_YOUR_WRITES },
    { "stale_after_rmw.txt", AN_LOST_UPDATE, AN_LOST_UPDATE },
    { "write_skew.txt", AN_NUM_KINDS, AN_WRITE_SKEW },
};

static void check_one(const expect *x, int level) {
    char path[256];
    snprintf(path, sizeof path, CATALOGUE "%s", x->file);
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(path, FORMAT_TEXT, &err);
    if (!h) fprintf(stderr, "%s: %s\n", path, err.msg);
    assert_non_null(h);
    version_order vo;
    history_order_vo(h, &vo);
    report r;
    report_init(&r, h, level == 0 ? "si" : "ser");
    size_t n = interpret_failure(&r, level, &vo, NULL, 0, NULL, 0, 5);
    int64_t want[16];
    int nw = expected_cycle(path, level == 0 ? "si" : "ser", want);
    anomaly_kind kind = level == 0 ? x->si : x->ser;
    fprintf(stderr, "  %s %s: %zu anomalies%s%s\n", x->file, level == 0 ? "si" : "ser", n, n ? ", first " : "",
            n ? anomaly_name(r.items.data[0].kind) : "");
    if (kind == AN_NUM_KINDS) {
        assert_int_equal(nw, 0);
        assert_int_equal(n, 0);
    } else {
        assert_true(nw > 0);
        assert_int_equal(n, 1);          /* one anomaly: the catalogue histories have one each */
        const report_anomaly *a = &r.items.data[0];
        assert_int_equal(a->kind, kind);
        assert_int_equal(a->num_cycle_txns, nw);
        int64_t got[16];
        for (int i = 0; i < nw; i++) got[i] = h->txns[a->txns.data[i]].ext_id;
        qsort(got, (size_t)nw, sizeof got[0], cmp_i64);
        qsort(want, (size_t)nw, sizeof want[0], cmp_i64);
        for (int i = 0; i < nw; i++) assert_int_equal(got[i], want[i]);
        assert_int_equal(cycle_violates(a->edges.data, a->edges.len, level == 0), 1);
        assert_int_equal(a->why.len, a->edges.len);
        /* every WW/RW fact is explained: forced (with an adjoining cycle that holds
         * together: consecutive edges meet, it closes) or the initial version */
        for (size_t i = 0; i < a->edges.len; i++) {
            const edge_why *w = &a->why.data[i];
            uint8_t k = a->edges.data[i].kind;
            if (k == DEP_SO || k == DEP_WR) { assert_int_equal(w->status, WHY_OBSERVED); continue; }
            assert_true(w->status == WHY_FORCED || w->status == WHY_INIT);
            if (w->status == WHY_FORCED) {
                assert_true(w->alt.len >= 2);
                for (size_t j = 0; j < w->alt.len; j++) assert_int_equal(w->alt.data[j].to, w->alt.data[(j + 1) % w->alt.len].from);
                assert_int_equal(cycle_violates(w->alt.data, w->alt.len, level == 0), 1);
                /* it uses the opposite order: WW after -> before, or an RW edge into before */
                int uses = 0;
                for (size_t j = 0; j < w->alt.len; j++) {
                    const dep_edge *e = &w->alt.data[j];
                    if ((e->kind == DEP_WW && e->from == w->after && e->to == w->before) || (e->kind == DEP_RW && e->to == w->before))
                        uses = 1;
                }
                assert_true(uses);
            }
        }
        /* all three writers run on it */
        char *buf = NULL; size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        report_print_text(f, &r, 0);
        report_print_json(f, &r);
        report_print_dot(f, &r);
        fclose(f);
        assert_non_null(strstr(buf, anomaly_name(kind)));
        assert_non_null(strstr(buf, "digraph isocheck {"));
        free(buf);
    }
    report_free(&r);
    version_order_free(&vo);
    history_free(h);
}

static void test_catalogue_si(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++) check_one(&catalogue[i], 0);
}

static void test_catalogue_ser(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++) check_one(&catalogue[i], 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue_si),
        cmocka_unit_test(test_catalogue_ser),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
