/* test_interpret.c — every catalogue anomaly (tests/data/anomalies, text format)
 * interpreted under a version order: the expected name, the minimal
 * cycle's transactions (from the file's "# si: FAIL cycle 1,2 ..." line),
 * the explanation of each WW/RW edge, and the text, JSON and DOT output;
 * and on random failing histories, with the checker's forced edges, that
 * every explanation is made of facts only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/reports/classify.h"
#include "frontend/reports/interpret.h"
#include "frontend/formats/parse.h"
#include "frontend/reports/report.h"
#include "par.h"
#include "brute_explain.h"

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
            uint32_t t = history_op_txn(h, h->key_writes[i]);
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

/* ---- an independent minimality check ------------------------------------
 * Which dependency kinds hold from a to b under vo, by definition (bit per
 * dep_kind).  Used to assert that no proper subset of the anomaly's
 * transactions carries a violating cycle. */
static long vpos(const version_order *vo, uint32_t k, uint32_t t) {
    for (uint32_t i = vo->start[k]; i < vo->start[k + 1]; i++) if (vo->txns.data[i] == t) return (long)(i - vo->start[k]);
    return -1;
}

static uint32_t ext_read(const history *h, uint32_t t, uint32_t k) {
    for (uint32_t i = 0; i < h->txns[t].num_ops; i++) {
        uint32_t op = h->txns[t].first_op + i;
        if (h->op_key[op] != k) continue;
        return history_op_is_read(h, op) ? op : HISTORY_NONE;
    }
    return HISTORY_NONE;
}

static unsigned kinds_between(const history *h, const version_order *vo, uint32_t a, uint32_t b) {
    unsigned m = 0;
    if (a != b && h->txns[a].session == h->txns[b].session && h->txns[a].pos < h->txns[b].pos) m |= 1u << DEP_SO;
    for (uint32_t k = 0; k < h->num_keys; k++) {
        long pa = vpos(vo, k, a), pb = vpos(vo, k, b);
        if (pa >= 0 && pb >= 0 && pa < pb) m |= 1u << DEP_WW;
        uint32_t rb = ext_read(h, b, k), ra = ext_read(h, a, k);
        if (rb != HISTORY_NONE) {
            uint32_t src = history_read_source(h, rb);
            if (src != HISTORY_NONE && history_op_txn(h, src) == a) m |= 1u << DEP_WR;
        }
        if (ra != HISTORY_NONE && pb >= 0 && a != b) {
            uint32_t src = history_read_source(h, ra);
            long ps = src == HISTORY_NONE ? -1 : vpos(vo, k, history_op_txn(h, src));
            if (ps >= 0 && ps < pb) m |= 1u << DEP_RW;
        }
    }
    return m;
}

/* Is there a violating cycle through exactly the transactions t[0..n) in this order? */
static int order_violates(const history *h, const version_order *vo, const uint32_t *t, int n, int si) {
    unsigned km[8];
    for (int i = 0; i < n; i++) { km[i] = kinds_between(h, vo, t[i], t[(i + 1) % n]); if (!km[i]) return 0; }
    if (!si) return 1;
    /* choose a kind per edge: some choice with no two cyclically adjacent RW */
    int total = 1;
    for (int i = 0; i < n; i++) total *= 4;
    for (int c = 0; c < total; c++) {
        int kind[8], ok = 1, x = c;
        for (int i = 0; i < n; i++) { kind[i] = x % 4; x /= 4; if (!(km[i] >> kind[i] & 1u)) ok = 0; }
        for (int i = 0; ok && i < n; i++) if (kind[i] == DEP_RW && kind[(i + 1) % n] == DEP_RW) ok = 0;
        if (ok) return 1;
    }
    return 0;
}

/* No subset of fewer transactions (in any order) has a violating cycle. */
static void assert_minimal(const history *h, const version_order *vo, const report_anomaly *a, int si) {
    int n = (int)a->num_cycle_txns;
    const uint32_t *T = a->txns.data;          /* in cycle order */
    assert_int_equal(order_violates(h, vo, T, n, si), 1);      /* the oracle sees the cycle itself */
    for (int mask = 1; mask < (1 << n) - 1; mask++) {
        uint32_t sub[8];
        int m = 0;
        for (int i = 0; i < n; i++) if (mask >> i & 1) sub[m++] = T[i];
        if (m < 2) continue;
        /* all orders with sub[0] first */
        int perm[8];
        for (int i = 0; i < m; i++) perm[i] = i;
        for (;;) {
            uint32_t ord[8];
            for (int i = 0; i < m; i++) ord[i] = sub[perm[i]];
            if (order_violates(h, vo, ord, m, si)) {
                fprintf(stderr, "smaller violating cycle on %d of %d transactions\n", m, n);
                fail();
            }
            /* next permutation of perm[1..m) */
            int i = m - 2;
            while (i >= 1 && perm[i] > perm[i + 1]) i--;
            if (i < 1) break;
            int j = m - 1;
            while (perm[j] < perm[i]) j--;
            int tmp = perm[i]; perm[i] = perm[j]; perm[j] = tmp;
            for (int l = i + 1, r = m - 1; l < r; l++, r--) { tmp = perm[l]; perm[l] = perm[r]; perm[r] = tmp; }
        }
    }
    /* and the reported cycle itself holds edge by edge */
    for (size_t i = 0; i < a->edges.len; i++) {
        const dep_edge *e = &a->edges.data[i];
        assert_true(kinds_between(h, vo, e->from, e->to) >> e->kind & 1u);
    }
}

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
    size_t n = interpret_failure(&r, level, &vo, NULL, 0, NULL, 0, 5, NULL, NULL, 0);
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
        assert_minimal(h, &vo, a, level == 0);
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

/* A version-order fact a list read shows is explained by that read: the
 * issue-13 G-single (the WW edge comes from txn 1's read [1] after its own
 * append) and the Elle paper's example (both WW/RW facts from list reads). */
static void list_facts_explained_by_reads(void **state) {
    (void)state;
    static const struct { const char *file; int64_t reader[2]; } cases[] = {
        { "list_own_append_gsingle.edn", { 1, -1 } },
        { "elle_paper_example.edn", { 3, 4 } },
    };
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        char path[256];
        snprintf(path, sizeof path, CATALOGUE "%s", cases[ci].file);
        ic_error err; ic_error_clear(&err);
        history *h = load_history(path, FORMAT_ELLE, &err);
        assert_non_null(h);
        pg_index ix;
        assert_true(pg_index_build(&ix, h, &err));
        check_result res;
        assert_int_equal(check_level(&ix, LEVEL_SI, NULL, &res), VERDICT_FAIL);
        report r;
        report_init(&r, h, "si");
        r.num_levels = 1;
        r.levels[0].level = 0;
        r.levels[0].verdict = VERDICT_FAIL;
        assert_int_equal(interpret_failure(&r, 0, &res.vo, res.cycle.data, res.cycle.len, res.forced.data, res.forced.len, 5, NULL, NULL, 0), 1);
        const report_anomaly *a = &r.items.data[0];
        assert_int_equal(a->kind, AN_READ_SKEW);
        int listed = 0;
        for (size_t i = 0; i < a->edges.len; i++) {
            const edge_why *w = &a->why.data[i];
            if (w->status != WHY_LISTED) continue;
            assert_int_equal(history_op_kind(h, w->read_op), OP_LIST_READ);
            assert_int_equal(h->txns[history_op_txn(h, w->read_op)].ext_id, cases[ci].reader[listed]);
            listed++;
        }
        assert_int_equal(listed, cases[ci].reader[1] < 0 ? 1 : 2);
        char *buf = NULL; size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        report_print_text(f, &r, 0);
        report_print_json(f, &r);
        fclose(f);
        assert_non_null(strstr(buf, "\"status\": \"listed\", \"before\": "));
        assert_non_null(strstr(buf, ci == 0 ? "forced: txn 1's read 1=[1] lists txn 1's 1 but not txn 2's, which must come later"
                                            : "forced: txn 3's read 256=[1 2 4] lists txn 3's 256 but not txn 4's, which must come later"));
        free(buf);
        report_free(&r);
        check_result_free(&res);
        pg_index_free(&ix);
        history_free(h);
    }
}

/* ---- random failing histories: explanations made of facts ----------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd(uint32_t n) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

/* Sessions of register transactions; a read shows the txn's own last write,
 * else its earlier read, else the last write of a random earlier txn (or
 * INIT): stale reads, so most such histories fail and pruning decides some
 * pairs (the forced edges). */
static history *random_failing_history_of(int maxt) {
    enum { MAXT = 24, MAXO = 4 };
    int nsess = 2 + (int)rnd(3), ntx = maxt <= 8 ? maxt : 8 + (int)rnd((uint32_t)maxt - 8), nkeys = 2 + (int)rnd(3);
    int sess[MAXT], cnt[MAXT], wr[MAXT][MAXO], key[MAXT][MAXO];
    int64_t val[MAXT][MAXO], next = 1;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "random");
    uint32_t keys[5];
    for (int k = 0; k < nkeys; k++) keys[k] = hb_key(b, k);
    for (int t = 0; t < ntx; t++) {
        sess[t] = (int)rnd((uint32_t)nsess);
        cnt[t] = 1 + (int)rnd(MAXO);
        uint32_t bt = hb_txn(b, hb_session(b, sess[t], NULL), t + 1, 0);
        for (int i = 0; i < cnt[t]; i++) {
            int k = (int)rnd((uint32_t)nkeys);
            key[t][i] = k; wr[t][i] = (int)rnd(2);
            int64_t v = 0;
            if (wr[t][i]) v = next++;
            else {
                for (int j = i - 1; j >= 0 && !v; j--) if (key[t][j] == k) v = val[t][j];
                if (!v) {
                    int u = (int)rnd((uint32_t)t + 1) - 1;       /* -1: INIT */
                    for (int j = 0; u >= 0 && j < cnt[u]; j++) if (wr[u][j] && key[u][j] == k) v = val[u][j];
                }
            }
            val[t][i] = v;
            hb_op(b, bt, wr[t][i] ? OP_WRITE : OP_READ, keys[k], v ? v : VALUE_INIT, 0);
        }
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

static history *random_failing_history(void) { return random_failing_history_of(24); }

static int in_deps(const dep_edge_vec *v, const dep_edge *e) {
    for (size_t i = 0; i < v->len; i++) {
        const dep_edge *f = &v->data[i];
        if (f->from == e->from && f->to == e->to && f->key == e->key && f->kind == e->kind) return 1;
    }
    return 0;
}

/* The text and JSON of a report whose anomaly ai rests on a chosen fact:
 * named a cycle under the chosen order, with the shape it would have. */
static void check_chosen_text(report *r, size_t ai) {
    const report_anomaly *a = &r->items.data[ai];
    char *buf = NULL; size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    r->num_levels = 1; r->levels[0].level = a->level; r->levels[0].verdict = VERDICT_FAIL;
    report_print_text(f, r, 0);
    report_print_json(f, r);
    fclose(f);
    char want[200];
    snprintf(want, sizeof want, ". cycle under the chosen version order (shaped as %s", anomaly_name(a->shape));
    assert_non_null(strstr(buf, want));
    assert_non_null(strstr(buf, "no version order avoids a violating cycle; this one holds under the order found"));
    snprintf(want, sizeof want, "\"chosen\": true, \"shape\": \"%s\"", anomaly_name(a->shape));
    assert_non_null(strstr(buf, want));
    r->num_levels = 0;
    free(buf);
}

/* Interpret every failing level of h and check each explanation by brute
 * force (brute_explain.h); returns the failing levels. */
static int brute_check_explanations(const history *h, bx_stats *st) {
    anomaly_list al; anomaly_list_init(&al);
    uint64_t bad = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    if (bad) return 0;
    ic_error err; ic_error_clear(&err);
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    int failing = 0;
    for (int level = 0; level < 2; level++) {
        check_result res;
        verdict v = check_level(&ix, level == 0 ? LEVEL_SI : LEVEL_SER, NULL, &res);
        assert_true(v != VERDICT_UNKNOWN);
        if (v == VERDICT_FAIL) {
            failing++;
            report r;
            report_init(&r, h, level == 0 ? "si" : "ser");
            size_t n = interpret_failure(&r, level, &res.vo, res.cycle.data, res.cycle.len, res.forced.data,
                                         res.forced.len, 5, NULL, NULL, 0);
            assert_true(n >= 1);
            for (size_t ai = 0; ai < n; ai++) {
                const report_anomaly *a = &r.items.data[ai];
                assert_true(a->edges.len >= 1);
                for (size_t i = 0; i < a->edges.len; i++)
                    assert_int_equal(a->edges.data[i].to, a->edges.data[(i + 1) % a->edges.len].from);
                assert_int_equal(cycle_violates(a->edges.data, a->edges.len, level == 0), 1);
                assert_int_equal(a->why.len, a->edges.len);
                for (size_t i = 0; i < a->why.len; i++)
                    if (a->why.data[i].status == WHY_DECIDED) assert_true(in_deps(&res.forced, &a->edges.data[i]));
                if (a->chosen) {                 /* not named as if observed */
                    assert_int_equal(a->kind, AN_CYCLE);
                    assert_string_equal(a->adya, "");
                    check_chosen_text(&r, ai);
                }
                char msg[400];
                if (!bx_check_anomaly(h, level == 0, a, st, msg, sizeof msg)) {
                    report_print_text(stderr, &r, 1);
                    fail_msg("unsound explanation (%s): %s", level == 0 ? "si" : "ser", msg);
                }
            }
            report_free(&r);
        }
        check_result_free(&res);
    }
    pg_index_free(&ix);
    return failing;
}

/* On small random failing histories, every explanation (the facts proven
 * first, then each forced edge) is checked against every version order:
 * its cycle holds in each order where the claim is false and the facts
 * proven before it hold, so it neither assumes what it proves nor leans on
 * anything proven from that. */
static void explanations_hold_without_their_claim(void **state) {
    (void)state;
    bx_stats st;
    memset(&st, 0, sizeof st);
    int failing = 0;
    for (int iter = 0; iter < 1500; iter++) {
        history *h = random_failing_history_of(8 + iter % 5);
        failing += brute_check_explanations(h, &st);
        history_free(h);
    }
    fprintf(stderr, "  %d failing levels: %u explanations checked against every order, %u vacuous, %u skipped, "
            "%u decided, %u chosen\n", failing, st.checked, st.vacuous, st.skipped, st.decided, st.chosen);
    assert_true(failing > 300 && st.checked > 300);
    assert_true(st.vacuous * 20 < st.checked);
}

/* Sessions of transactions on list keys (even) and register keys (odd):
 * per key at most one op a transaction, an append or write of a fresh
 * value, or a read of a random prefix of the key's list so far (a
 * register: of a random earlier write): stale, so most such histories
 * fail; every list read is a prefix of the final order, so the list
 * axioms hold. */
static history *random_failing_list_history(int ntx) {
    enum { MAXK = 3, MAXL = 24 };
    int nsess = 2 + (int)rnd(2), nkeys = 2 + (int)rnd(MAXK - 1);
    int64_t list[MAXK][MAXL], next = 1;
    int len[MAXK] = { 0 };
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "random-list");
    uint32_t keys[MAXK];
    for (int k = 0; k < nkeys; k++) keys[k] = hb_key(b, k);
    for (int t = 0; t < ntx; t++) {
        uint32_t bt = hb_txn(b, hb_session(b, (int)rnd((uint32_t)nsess), NULL), t + 1, 0);
        int nops = 1 + (int)rnd(3), used[MAXK] = { 0 };
        for (int i = 0; i < nops; i++) {
            int k = (int)rnd((uint32_t)nkeys);
            if (used[k]) continue;
            used[k] = 1;
            int w = rnd(2) && len[k] < MAXL;
            if (w) list[k][len[k]++] = next;
            if (k % 2 == 0) {                    /* a list key */
                if (w) hb_op(b, bt, OP_APPEND, keys[k], next++, 0);
                else hb_list_read(b, bt, keys[k], list[k], len[k] ? rnd((uint32_t)len[k] + 1) : 0, 0);
            } else if (w) hb_op(b, bt, OP_WRITE, keys[k], next++, 0);      /* a register key: its writes */
            else {
                uint32_t at = rnd((uint32_t)len[k] + 1);
                hb_op(b, bt, OP_READ, keys[k], at ? list[k][at - 1] : VALUE_INIT, 0);
            }
        }
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

/* The same on histories with list-append keys: list reads are facts of
 * the history too (each shows a prefix of its key's version order). */
static void list_explanations_hold_without_their_claim(void **state) {
    (void)state;
    bx_stats st;
    memset(&st, 0, sizeof st);
    int failing = 0;
    for (int iter = 0; iter < 1500; iter++) {
        history *h = random_failing_list_history(6 + iter % 4);
        failing += brute_check_explanations(h, &st);
        history_free(h);
    }
    fprintf(stderr, "  %d failing levels: %u explanations checked against every order, %u vacuous, %u skipped, "
            "%u decided, %u chosen\n", failing, st.checked, st.vacuous, st.skipped, st.decided, st.chosen);
    assert_true(failing > 200 && st.checked > 100);
    assert_true(st.vacuous * 20 < st.checked);
}

/* The smallest circular case once reported: one session, txn 3 read 1=1
 * from txn 1 although txn 2 wrote 1 in between.  The explanation of
 * "txn 3's 1 precedes txn 2's" rests on txn 1's 1 preceding txn 2's
 * (proven first, from their session order), never on itself. */
static void session_order_fact_proven_first(void **state) {
    (void)state;
    const char *text = "w(1,1,0,1)\nw(1,2,0,2)\nr(1,1,0,3)\nw(1,3,0,3)\n";
    char path[] = "/tmp/isocheck-test-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    ic_error lerr; ic_error_clear(&lerr);
    history *h = load_history(path, FORMAT_TEXT, &lerr);
    unlink(path);
    assert_non_null(h);
    bx_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(brute_check_explanations(h, &st), 2);
    assert_true(st.checked >= 2);
    ic_error err; ic_error_clear(&err);
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    check_result res;
    assert_int_equal(check_level(&ix, LEVEL_SER, NULL, &res), VERDICT_FAIL);
    report r;
    report_init(&r, h, "ser");
    assert_int_equal(interpret_failure(&r, 1, &res.vo, res.cycle.data, res.cycle.len, res.forced.data, res.forced.len, 5, NULL, NULL, 0), 1);
    r.num_levels = 1; r.levels[0].level = 1; r.levels[0].verdict = VERDICT_FAIL;
    char *buf = NULL; size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    report_print_text(f, &r, 0);
    fclose(f);
    assert_non_null(strstr(buf, "1. txn 1's 1 precedes txn 2's\n          forced: txn 1 ran before txn 2 in their session"));
    assert_non_null(strstr(buf, "(txn 1's 1 precedes txn 2's: fact 1)"));
    assert_null(strstr(buf, "txn 2 -WW 1-> txn 3 -WW 1-> txn 2"));
    assert_non_null(strstr(buf, "r(1)=1 [line 3]"));                   /* the read it relies on is shown */
    free(buf);
    buf = NULL; len = 0;
    f = open_memstream(&buf, &len);
    report_print_json(f, &r);
    fclose(f);
    assert_non_null(strstr(buf, "\"facts\": [{\"before\": 1, \"after\": 2, \"before_index\": 1, \"after_index\": 2, \"key\": \"1\", "
                                "\"why\": {\"status\": \"forced\""));
    assert_non_null(strstr(buf, "\"kind\": \"RW\", \"key\": \"1\", \"text\": \"txn 3 read 1=1, which txn 2's 1=2 overwrote\", "
                                "\"basis\": {\"kind\": \"proven\", \"before\": 1, \"after\": 2, \"before_index\": 1, "
                                "\"after_index\": 2, \"fact\": 0}"));
    assert_non_null(strstr(buf, "\"chosen\": false"));
    free(buf);
    buf = NULL; len = 0;
    f = open_memstream(&buf, &len);
    report_print_dot(f, &r);
    fclose(f);
    assert_non_null(strstr(buf, "a0_t1 -> a0_t2 [label=\"SO (fact 1)\""));       /* the fact's cycle, dotted */
    free(buf);
    report_free(&r);
    check_result_free(&res);
    pg_index_free(&ix);
    history_free(h);
}

/* ---- the set-up's passes in ranges and on threads: the same report ------ */

/* The text and JSON report of one interpretation, and its trace. */
static char *interpret_text(const history *h, int level, const check_result *res, par_pool *pool, unsigned ranges) {
    interpret_ranges = ranges;
    interpret_small_txn = ranges >= 1000 ? 0 : 32;       /* then per-key arrays for every transaction */
    report r;
    report_init(&r, h, level == 0 ? "si" : "ser");
    interpret_trace tr; vec_init(tr);
    size_t n = interpret_failure(&r, level, &res->vo, res->cycle.data, res->cycle.len, res->forced.data,
                                 res->forced.len, 5, &tr, pool, 1);
    interpret_ranges = 0;
    interpret_small_txn = 32;
    r.num_levels = 1;
    r.levels[0].level = level;
    r.levels[0].verdict = VERDICT_FAIL;
    r.levels[0].violations = n;
    char *buf = NULL; size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    report_print_text(f, &r, 1);
    report_print_json(f, &r);
    fprintf(f, "%zu anomalies, %zu candidates\n", n, tr.len);
    vec_foreach(const interpret_candidate, ca, tr) {
        fprintf(f, "%u txns, unforced %u:", ca->num_txns, ca->unforced);
        vec_foreach(const dep_edge, e, ca->cycle) fprintf(f, " %u-%u>%u@%u", e->from, e->kind, e->to, e->key);
        fprintf(f, "\n");
    }
    fclose(f);
    interpret_trace_free(&tr);
    report_free(&r);
    return buf;
}

/* Every level that fails, interpreted in one range on the caller (the
 * reference) and then in 2, 3, 7 and more ranges than transactions (that
 * one with per-key arrays for every transaction's reads, the others
 * comparing a small transaction's ops pairwise), on the caller alone and
 * on pools of 2 and 3 threads: the same text. */
static int same_in_ranges(history *h, par_pool *p2, par_pool *p3) {
    ic_error err; ic_error_clear(&err);
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    int compared = 0;
    for (int level = 0; level < 2; level++) {
        check_result res;
        if (check_level(&ix, level == 0 ? LEVEL_SI : LEVEL_SER, NULL, &res) == VERDICT_FAIL) {
            char *want = interpret_text(h, level, &res, NULL, 1);
            static const struct { unsigned ranges; int pool; } runs[] = { { 2, 0 }, { 3, 0 }, { 7, 2 }, { 3, 3 }, { 1000, 2 }, { 0, 3 } };
            for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
                char *got = interpret_text(h, level, &res, runs[i].pool == 2 ? p2 : runs[i].pool == 3 ? p3 : NULL,
                                           runs[i].ranges);
                if (strcmp(want, got)) fprintf(stderr, "ranges %u, pool %d:\n%s\n-- instead of --\n%s\n", runs[i].ranges, runs[i].pool, got, want);
                assert_string_equal(want, got);
                free(got);
            }
            free(want);
            compared++;
        }
        check_result_free(&res);
    }
    pg_index_free(&ix);
    return compared;
}

static void ranges_and_threads_same_report(void **state) {
    (void)state;
    par_pool *p2 = par_pool_new(2), *p3 = par_pool_new(3);
    int compared = 0;
    uint64_t kept0 = atomic_load(&interpret_spec_kept), redone0 = atomic_load(&interpret_spec_redone);
    uint64_t pre0 = atomic_load(&interpret_pre_taken);
    /* the catalogue, lists included */
    static const struct { const char *file; history_format fmt; } files[] = {
        { "write_skew.txt", FORMAT_TEXT }, { "lost_update.txt", FORMAT_TEXT }, { "long_fork.txt", FORMAT_TEXT },
        { "chained_rmw.txt", FORMAT_TEXT }, { "stale_after_rmw.txt", FORMAT_TEXT }, { "read_skew.txt", FORMAT_TEXT },
        { "elle_paper_example.edn", FORMAT_ELLE }, { "list_own_append_gsingle.edn", FORMAT_ELLE },
        { "list_own_append_g1c.edn", FORMAT_ELLE }, { "list_split_appends.edn", FORMAT_ELLE },
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, CATALOGUE "%s", files[i].file);
        ic_error err; ic_error_clear(&err);
        history *h = load_history(path, files[i].fmt, &err);
        assert_non_null(h);
        anomaly_list al; anomaly_list_init(&al);
        uint64_t bad = axioms_check(h, &al, 1);
        anomaly_list_free(&al);
        if (!bad) compared += same_in_ranges(h, p2, p3);
        history_free(h);
    }
    /* random failing histories, with forced edges */
    for (int iter = 0; iter < 300; iter++) {
        history *h = random_failing_history();
        anomaly_list al; anomaly_list_init(&al);
        uint64_t bad = axioms_check(h, &al, 1);
        anomaly_list_free(&al);
        if (!bad) compared += same_in_ranges(h, p2, p3);
        history_free(h);
    }
    par_pool_free(p2); par_pool_free(p3);
    uint64_t kept = atomic_load(&interpret_spec_kept) - kept0, redone = atomic_load(&interpret_spec_redone) - redone0;
    uint64_t pre = atomic_load(&interpret_pre_taken) - pre0;
    fprintf(stderr, "  %d failing levels interpreted alike in ranges and on threads; cycle edges explained ahead on a "
            "pool: %llu kept, %llu explained again in order; forced classes searched ahead and taken: %llu\n", compared,
            (unsigned long long)kept, (unsigned long long)redone, (unsigned long long)pre);
    assert_true(compared > 150);
    /* both ways of explain_cycle are exercised: an edge explained ahead and
     * kept, and one explained again after the facts proven before it */
    assert_true(kept > 100);
    assert_true(redone > 0);
    assert_true(pre > 0);        /* and a proof's search of a forced class taken from ahead */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue_si),
        cmocka_unit_test(test_catalogue_ser),
        cmocka_unit_test(list_facts_explained_by_reads),
        cmocka_unit_test(explanations_hold_without_their_claim),
        cmocka_unit_test(session_order_fact_proven_first),
        cmocka_unit_test(list_explanations_hold_without_their_claim),
        cmocka_unit_test(ranges_and_threads_same_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
