/* test_hints.c — version order hints (`check --version-order`): the reader
 * (frontend/formats/version_hint.h), and the white-box answer
 * (frontend/reports/hint_check.h) against the brute-force oracle of
 * tests/brute_check.h given the same hint (it tries only the version
 * orders that put each listed pair in the listed order, and shares no
 * code with the pipeline: it maps values to writers by scanning the ops).
 *
 * Histories come from the workload simulator (tiny: the oracle tries every
 * order), with the store's own version order recorded beside them
 * (workload/version_out.h):
 *   - the order as recorded, complete: without faults the white-box
 *     verdict equals the black-box one (both PASS at the level the history
 *     was generated at), and with faults the oracle's;
 *   - corrupted (two versions of a key swapped): the oracle's verdict,
 *     a FAIL (finding or cycle) some of the time;
 *   - partial (a random subset of each key's versions, in order), correct
 *     or corrupted: the oracle's verdict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/recheck/verify_model.h"
#include "frontend/reports/hint_check.h"
#include "workload/gen_writer.h"
#include "workload/version_out.h"
#include "tests/brute_check.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

/* ---- the reader --------------------------------------------------------- */

static void text_form(void **state) {
    (void)state;
    const char *s = "# comment\n\n10: 1 4 2\n  x :init  7\n20:\n";
    version_hint vh;
    ic_error err; ic_error_clear(&err);
    assert_int_equal(version_hint_parse("t", s, strlen(s), &vh, &err), 1);
    assert_int_equal(vh.keys.len, 3);
    assert_string_equal(vh_text(&vh, vh.keys.data[0].name), "10");
    assert_int_equal(vh.keys.data[0].num, 3);
    assert_int_equal(vh.keys.data[0].line, 3);
    assert_string_equal(vh_text(&vh, vh.values.data[1].text), "4");
    assert_string_equal(vh_text(&vh, vh.keys.data[1].name), "x");
    assert_string_equal(vh_text(&vh, vh.values.data[3].text), "init");
    assert_int_equal(vh.values.data[4].line, 4);
    assert_int_equal(vh.keys.data[2].num, 0);
    version_hint_free(&vh);
}

static void json_form(void **state) {
    (void)state;
    const char *s = "{\"10\": [1, 4,\n 2], \"x\": [null, \"a b\"], \"e\": []}";
    version_hint vh;
    ic_error err; ic_error_clear(&err);
    assert_int_equal(version_hint_parse("j", s, strlen(s), &vh, &err), 1);
    assert_int_equal(vh.keys.len, 3);
    assert_int_equal(vh.keys.data[0].num, 3);
    assert_int_equal(vh.values.data[2].line, 2);
    assert_true(vh.values.data[3].is_init);
    assert_string_equal(vh_text(&vh, vh.values.data[4].text), "a b");
    version_hint_free(&vh);
}

static void expect_error(const char *s, long line, const char *part) {
    version_hint vh;
    ic_error err; ic_error_clear(&err);
    assert_int_equal(version_hint_parse("bad", s, strlen(s), &vh, &err), 0);
    if (err.line != line || !strstr(err.msg, part)) fail_msg("'%s': got line %ld '%s'", s, err.line, err.msg);
    assert_string_equal(err.file, "bad");
    version_hint_free(&vh);
}

static void malformed(void **state) {
    (void)state;
    expect_error("1: 2 3\n\n1: 4\n", 3, "listed twice");
    expect_error("1 2 3\n", 1, "KEY: VALUE");
    expect_error(": 2\n", 1, "no key");
    expect_error("{\"1\": [1, 2}\n", 1, "',' or ']'");
    expect_error("{\"1\": [1],\n \"1\": [2]}", 2, "listed twice");
    expect_error("{\"1\": [1]} x", 1, "after the closing");
    expect_error("{\"1\": [tru]}", 1, "expected a number");
    expect_error("{\n\"1\": [1]\n", 3, "'}'");
}

/* ---- hints as the tests make them ---------------------------------------- */

#define TH_KEYS 8
#define TH_VALS 32
typedef struct thint {
    int nkeys;
    int64_t key[TH_KEYS];
    int n[TH_KEYS];
    int64_t val[TH_KEYS][TH_VALS];           /* 0: the initial value */
} thint;

/* The simulator's version order text ("K: init V V ...") as a thint. */
static void thint_parse(thint *t, const char *text) {
    memset(t, 0, sizeof *t);
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        if (!eol) eol = p + strlen(p);
        if (*p != '#' && eol > p) {
            assert_true(t->nkeys < TH_KEYS);
            int ki = t->nkeys++;
            char *e;
            t->key[ki] = strtoll(p, &e, 10);
            p = e + 1;                                   /* the colon */
            while (p < eol) {
                while (p < eol && *p == ' ') p++;
                if (p >= eol) break;
                assert_true(t->n[ki] < TH_VALS);
                if (strncmp(p, "init", 4) == 0) { t->val[ki][t->n[ki]++] = 0; p += 4; }
                else { t->val[ki][t->n[ki]++] = strtoll(p, &e, 10); p = e; }
            }
        }
        p = *eol ? eol + 1 : eol;
    }
}

static char *thint_text(const thint *t, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    for (int k = 0; k < t->nkeys; k++) {
        fprintf(f, "%lld:", (long long)t->key[k]);
        for (int i = 0; i < t->n[k]; i++)
            if (t->val[k][i]) fprintf(f, " %lld", (long long)t->val[k][i]); else fprintf(f, " init");
        fputc('\n', f);
    }
    fclose(f);
    return buf;
}

/* ---- the oracle's reading of a hint ---------------------------------------- */

typedef struct ohint { const history *h; const thint *t; } ohint;

/* Each listed value's version before the next one's: the key by key_ext,
 * the writer by a scan of the committed transactions' ops. */
static void oracle_amend(brute_state *b, void *ctx) {
    const ohint *o = ctx;
    const history *h = o->h;
    b->has_must = 1;
    for (int ki = 0; ki < o->t->nkeys; ki++) {
        int k = -1;
        for (uint32_t x = 0; x < h->num_keys; x++) if (h->key_ext[x] == o->t->key[ki]) k = (int)x;
        assert_true(k >= 0);
        int prev = -1;
        for (int i = 0; i < o->t->n[ki]; i++) {
            int64_t v = o->t->val[ki][i];
            int w = -1;
            if (v == 0) w = 0;
            else
                for (uint32_t t = 1; t < h->num_txns && w < 0; t++) {
                    if (h->txns[t].status != TXN_COMMITTED) continue;
                    for (uint32_t j = 0; j < h->txns[t].num_ops; j++) {
                        uint32_t op = h->txns[t].first_op + j;
                        if ((int)h->op_key[op] == k && history_op_value(h, op) == v &&
                            (h->op_kind[op] & OP_KIND_MASK) == OP_WRITE) w = (int)t;
                    }
                }
            assert_true(w >= 0);
            if (prev >= 0 && prev != w) b->must[k][prev][w] = 1;
            prev = w;
        }
    }
}

static int oracle(const history *h, const thint *t, int si) {
    ohint o = { h, t };
    return brute_check_with(h, si, oracle_amend, &o);
}

/* vo lists each hinted value's writer before the next one's (the same
 * scan as the oracle's). */
static void vo_respects(const history *h, const version_order *vo, const thint *t) {
    brute_state b;
    memset(&b, 0, sizeof b);
    ohint o = { h, t };
    oracle_amend(&b, &o);
    for (uint32_t k = 0; k < vo->num_keys && k < BRUTE_MAX_KEYS; k++) {
        int pos[BRUTE_MAX_TXNS];
        for (int i = 0; i < BRUTE_MAX_TXNS; i++) pos[i] = -1;
        for (uint32_t i = vo->start[k]; i < vo->start[k + 1]; i++)
            if (vo->txns.data[i] < BRUTE_MAX_TXNS) pos[vo->txns.data[i]] = (int)(i - vo->start[k]);
        for (int a = 0; a < BRUTE_MAX_TXNS; a++)
            for (int c = 0; c < BRUTE_MAX_TXNS; c++)
                if (b.must[k][a][c] && !(pos[a] >= 0 && pos[a] < pos[c])) fail_msg("the order shown does not extend the hint");
    }
}

/* The white-box verdict of one level: 0 PASS, 1 FAIL, 2 none; *finding
 * set when the hint was found to contradict the history. */
static int white_box(const history *h, const thint *t, int si, int *finding) {
    size_t len;
    char *text = thint_text(t, &len);
    version_hint vh;
    ic_error err; ic_error_clear(&err);
    assert_int_equal(version_hint_parse("hint", text, len, &vh, &err), 1);
    free(text);
    check_options o;
    check_options_default(&o);
    int want[2] = { si, !si };
    whitebox wb;
    assert_int_equal(whitebox_run(h, &vh, want, &o, &wb, &err), 1);
    int v = (int)whitebox_verdict(&wb);          /* 0 PASS, 1 FAIL, 2 UNKNOWN */
    *finding = wb.finding[0] != 0;
    if (v == 1 && !wb.finding[0] && !wb.axioms_fail) {       /* a cycle: it must hold by definition */
        const check_result *r = &wb.res[si ? LEVEL_SI : LEVEL_SER];
        char why[300];
        assert_true(r->cycle.len > 0);
        assert_true(cycle_holds(h, &r->vo, si, r->cycle.data, r->cycle.len, why, sizeof why));
        vo_respects(h, &r->vo, t);
    }
    if (v == 0) {                                                /* the witness is valid */
        const check_result *r = &wb.res[si ? LEVEL_SI : LEVEL_SER];
        char why[300];
        assert_int_equal(vo_check(h, &r->vo, si, NULL, why, sizeof why), 1);
        vo_respects(h, &r->vo, t);
    }
    whitebox_free(&wb);
    version_hint_free(&vh);
    return v;
}

static int black_box(const history *h, int si) {
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t bad = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    if (bad) return 1;
    pg_index ix;
    ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    check_result r;
    verdict v = check_level(&ix, si ? LEVEL_SI : LEVEL_SER, NULL, &r);
    check_result_free(&r);
    pg_index_free(&ix);
    return (int)v;                                  /* 0 PASS, 1 FAIL, 2 UNKNOWN */
}

/* ---- simulated histories with their version order ------------------------ */

typedef struct sim_case { history *h; char *vo; size_t vo_len; } sim_case;

static void sim_case_make(sim_case *c, sim_level level, sim_fault fault, uint64_t seed) {
    workload_params p;
    workload_defaults(&p);
    p.sessions = 2 + rnd(2);
    p.txns_per_session = 2 + rnd(2);
    p.ops_per_txn = 2 + rnd(2);
    p.keys = 2 + rnd(2);
    p.dist = KEYDIST_UNIFORM;
    p.level = level;
    p.fault = fault;
    p.fault_rate = 0.5;
    p.seed = seed;
    ic_error err; ic_error_clear(&err);
    model_sink *m = model_sink_new("sim", p.sessions, 1);
    sim_sink inner = model_sink_sink(m);
    vo_tee *t = vo_tee_new(&inner);
    sim_sink sink = vo_tee_sink(t);
    sim_truth truth;
    assert_true(sim_run(&p, &sink, &truth, NULL, NULL, &err));
    c->h = model_sink_finish(m, &err);
    assert_non_null(c->h);
    FILE *f = open_memstream(&c->vo, &c->vo_len);
    assert_non_null(f);
    assert_true(vo_tee_write(t, f));
    fclose(f);
    vo_tee_free(t);
}

static void sim_case_free(sim_case *c) {
    history_free(c->h);
    free(c->vo);
}

/* Swap two versions of one key that has at least two (INIT included
 * sometimes): 1 if anything was swapped. */
static int corrupt(thint *t) {
    int cand[TH_KEYS], nc = 0;
    for (int k = 0; k < t->nkeys; k++) if (t->n[k] >= 3) cand[nc++] = k;
    if (!nc) return 0;
    int k = cand[rnd((uint32_t)nc)];
    int lo = rnd(4) == 0 ? 0 : 1;                 /* now and then the initial value */
    int i = lo + (int)rnd((uint32_t)(t->n[k] - lo - 1));
    int j = i + 1 + (int)rnd((uint32_t)(t->n[k] - i - 1));
    int64_t x = t->val[k][i]; t->val[k][i] = t->val[k][j]; t->val[k][j] = x;
    return 1;
}

/* Keep a random subset of each key's listed versions (in order), and a
 * random subset of the keys. */
static void thin(thint *t) {
    int pct = (int)rnd(101);
    thint out;
    memset(&out, 0, sizeof out);
    for (int k = 0; k < t->nkeys; k++) {
        if (rnd(5) == 0) continue;
        int ko = out.nkeys++;
        out.key[ko] = t->key[k];
        for (int i = 0; i < t->n[k]; i++)
            if ((int)rnd(100) < pct) out.val[ko][out.n[ko]++] = t->val[k][i];
    }
    *t = out;
}

typedef struct tally { int cases, skipped, fail, finding, white_fail_black_pass; } tally;

/* One history, one hint, one level: the white-box verdict equals the
 * oracle's (with the same hint). */
static void agree(const history *h, const thint *t, int si, tally *ty) {
    int want = oracle(h, t, si);
    if (want < 0) { ty->skipped++; return; }
    int finding;
    int got = white_box(h, t, si, &finding);
    if (got != (want ? 0 : 1)) {
        size_t len;
        char *text = thint_text(t, &len);
        fail_msg("level %s: white-box %d, oracle %s; hint:\n%s", si ? "si" : "ser", got, want ? "PASS" : "FAIL", text);
    }
    ty->cases++;
    ty->fail += got == 1;
    ty->finding += finding;
    if (got == 1 && black_box(h, si) == 0) ty->white_fail_black_pass++;
}

static const sim_fault faults[] = { FAULT_NONE, FAULT_LOST_UPDATE, FAULT_LONG_FORK, FAULT_CAUSALITY };

/* The store's own order, complete: without faults PASS at the level the
 * history was generated at, as the black-box answer; with them, the
 * oracle's verdict. */
static void complete_order_agrees(void **state) {
    (void)state;
    tally ty = { 0 };
    for (int it = 0; it < 300; it++) {
        sim_level lv = it & 1 ? SIM_SER : SIM_SI;
        sim_fault f = faults[it % 8 < 4 ? 0 : rnd(4)];
        sim_case c;
        sim_case_make(&c, lv, f, 1000 + (uint64_t)it);
        thint t;
        thint_parse(&t, c.vo);
        int si = lv == SIM_SI;
        if (f == FAULT_NONE) {
            int finding;
            assert_int_equal(black_box(c.h, si), 0);
            assert_int_equal(white_box(c.h, &t, si, &finding), 0);
        }
        agree(c.h, &t, si, &ty);
        agree(c.h, &t, !si, &ty);
        sim_case_free(&c);
    }
    fprintf(stderr, "complete: %d cases %d skipped %d fail %d findings %d white-fail-black-pass\n", ty.cases, ty.skipped, ty.fail, ty.finding, ty.white_fail_black_pass);
    assert_true(ty.cases > 400);
    assert_true(ty.fail > 0);
}

/* Two versions swapped: the oracle's verdict, and FAIL often. */
static void corrupted_order_agrees(void **state) {
    (void)state;
    tally ty = { 0 };
    for (int it = 0; it < 300; it++) {
        sim_level lv = it & 1 ? SIM_SER : SIM_SI;
        sim_case c;
        sim_case_make(&c, lv, FAULT_NONE, 5000 + (uint64_t)it);
        thint t;
        thint_parse(&t, c.vo);
        if (corrupt(&t)) agree(c.h, &t, lv == SIM_SI, &ty);
        sim_case_free(&c);
    }
    fprintf(stderr, "corrupted: %d cases %d skipped %d fail %d findings %d white-fail-black-pass\n", ty.cases, ty.skipped, ty.fail, ty.finding, ty.white_fail_black_pass);
    assert_true(ty.cases > 100);
    assert_true(ty.fail > ty.cases / 4);
    assert_true(ty.finding > 0);
    assert_true(ty.white_fail_black_pass > 0);      /* a PASS of the first question, FAIL of the second */
}

/* Random parts of the order, correct or corrupted: the oracle's verdict. */
static void partial_order_agrees(void **state) {
    (void)state;
    tally ty = { 0 };
    for (int it = 0; it < 400; it++) {
        sim_level lv = it & 1 ? SIM_SER : SIM_SI;
        sim_fault f = faults[rnd(4)];
        sim_case c;
        sim_case_make(&c, lv, f, 9000 + (uint64_t)it);
        thint t;
        thint_parse(&t, c.vo);
        if (it % 3 == 0) corrupt(&t);
        thin(&t);
        agree(c.h, &t, (int)rnd(2), &ty);
        sim_case_free(&c);
    }
    fprintf(stderr, "partial: %d cases %d skipped %d fail %d findings %d white-fail-black-pass\n", ty.cases, ty.skipped, ty.fail, ty.finding, ty.white_fail_black_pass);
    assert_true(ty.cases > 300);
    assert_true(ty.fail > 0 && ty.fail < ty.cases);
}

/* A complete order that lists each version is checked without the index
 * (frontend/reports/hint_direct.c): its PASS, its order and its pair count
 * must be those of the usual path (the index's validation, which merges a
 * read-modify-write chain into one unit, and hints_complete_order). */
static void direct_matches_index(void **state) {
    (void)state;
    int merged = 0, cases = 0;
    for (int it = 0; it < 200; it++) {
        sim_level lv = it & 1 ? SIM_SER : SIM_SI;
        sim_case c;
        sim_case_make(&c, lv, FAULT_NONE, 20000 + (uint64_t)it);
        const history *h = c.h;
        thint t;
        thint_parse(&t, c.vo);
        size_t len;
        char *text = thint_text(&t, &len);
        version_hint vh;
        ic_error err; ic_error_clear(&err);
        assert_int_equal(version_hint_parse("hint", text, len, &vh, &err), 1);
        free(text);
        check_options o;
        check_options_default(&o);
        int want[2] = { 1, lv == SIM_SER };
        whitebox wb;
        assert_int_equal(whitebox_run(h, &vh, want, &o, &wb, &err), 1);
        assert_int_equal(whitebox_verdict(&wb), VERDICT_PASS);
        assert_true(wb.complete);
        for (int i = 0; i < wb.nstages; i++) assert_string_not_equal(wb.stage_name[i], "index");   /* the direct path */
        /* the usual path's reading of the same hint */
        hint_order ho;
        hint_order_init(&ho);
        uint64_t listed = 0;
        for (int ki = 0; ki < t.nkeys; ki++) {
            uint32_t k = HISTORY_NONE;
            for (uint32_t x = 0; x < h->num_keys; x++) if (h->key_ext[x] == t.key[ki]) k = x;
            assert_true(k != HISTORY_NONE);
            hint_key hk = { k, (uint32_t)ho.items.len, (uint32_t)t.n[ki] };
            for (int i = 0; i < t.n[ki]; i++) {
                hint_item item = { t.val[ki][i] ? history_writer_of(h, k, t.val[ki][i]) : k, 1 };
                assert_true(item.op != HISTORY_NONE);
                vec_push(ho.items, item);
            }
            listed += t.n[ki] > 1 ? (uint64_t)t.n[ki] - 1 : 0;
            vec_push(ho.keys, hk);
        }
        pg_index ix;
        assert_true(pg_index_build(&ix, h, &err));
        char msg[2048];
        assert_int_equal(hints_validate(&ix, &ho, msg, sizeof msg), 1);
        assert_true(hints_complete(&ix, &ho));
        assert_int_equal(wb.hint_pairs, ho.pairs);
        merged += ho.pairs < listed;
        version_order vo;
        hints_complete_order(&ix, &ho, &vo);
        for (int lvl = 0; lvl < 2; lvl++) {
            if (!want[lvl]) continue;
            const version_order *got = &wb.res[lvl].vo;
            assert_int_equal(got->num_keys, vo.num_keys);
            assert_memory_equal(got->start, vo.start, ((size_t)vo.num_keys + 1) * sizeof *vo.start);
            assert_int_equal(got->txns.len, vo.txns.len);
            assert_memory_equal(got->txns.data, vo.txns.data, vo.txns.len * sizeof *vo.txns.data);
        }
        cases++;
        version_order_free(&vo);
        pg_index_free(&ix);
        hint_order_free(&ho);
        whitebox_free(&wb);
        version_hint_free(&vh);
        sim_case_free(&c);
    }
    fprintf(stderr, "direct: %d cases, %d with a read-modify-write chain merged\n", cases, merged);
    assert_true(merged > 10);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_form),
        cmocka_unit_test(json_form),
        cmocka_unit_test(malformed),
        cmocka_unit_test(complete_order_agrees),
        cmocka_unit_test(corrupted_order_agrees),
        cmocka_unit_test(partial_order_agrees),
        cmocka_unit_test(direct_matches_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
