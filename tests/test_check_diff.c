/* test_check_diff.c — differential test of the checker (frontend/checking/check.h)
 * against the brute-force oracle of tests/brute_check.h on thousands of tiny
 * histories, both levels:
 *   - random histories (reads pick any committed final write or INIT);
 *   - executions of a simulated multi-version store: correct snapshot
 *     isolation (first committer wins), serializable (commit-time read
 *     validation), and broken variants (no write-conflict check, stale
 *     snapshots, reads of the latest value regardless of snapshot).
 * As in isocheck check, the axioms are checked first (a violation fails
 * both levels, and the oracle must agree: it checks INT too).
 * Every PASS must come with a version order that vo_check() accepts, every
 * FAIL with a cycle that cycle_holds() confirms (check_level re-checks both;
 * the test checks them again). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/recheck/verify_model.h"
#include "tests/brute_check.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {          /* xorshift64*, uniform-ish in [0, n) */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

/* ---- random histories ---------------------------------------------------- */

typedef struct gop { int write, key, txn; int64_t value; } gop;

static history *random_history(void) {
    int nsess = 1 + (int)rnd(3), ntx = 2 + (int)rnd(5), nkeys = 1 + (int)rnd(3);
    gop ops[64]; int nops = 0;
    int sess_of[8], aborted[8], first[8], count[8];
    int64_t next_value = 1;
    for (int t = 0; t < ntx; t++) {
        sess_of[t] = (int)rnd((uint32_t)nsess);
        aborted[t] = rnd(10) == 0;
        first[t] = nops; count[t] = 1 + (int)rnd(4);
        for (int i = 0; i < count[t]; i++) {
            gop o = { (int)rnd(2), (int)rnd((uint32_t)nkeys), t, 0 };
            if (o.write) o.value = next_value++;
            ops[nops++] = o;
        }
    }
    /* reads: own latest write, else the txn's earlier external read, else a
     * committed final write of another txn or INIT */
    for (int t = 0; t < ntx; t++)
        for (int i = first[t]; i < first[t] + count[t]; i++) {
            if (ops[i].write) continue;
            int k = ops[i].key, done = 0;
            for (int j = i - 1; j >= first[t] && !done; j--)
                if (ops[j].key == k) { ops[i].value = ops[j].value; done = 1; }
            if (done) continue;
            int64_t cand[16]; int nc = 0;
            cand[nc++] = 0;
            for (int u = 0; u < ntx; u++) {
                if (u == t || aborted[u]) continue;
                int64_t last = 0;
                for (int j = first[u]; j < first[u] + count[u]; j++)
                    if (ops[j].write && ops[j].key == k) last = ops[j].value;
                if (last) cand[nc++] = last;
            }
            ops[i].value = cand[rnd((uint32_t)nc)];
        }
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "random");
    uint32_t keys[4];
    for (int k = 0; k < nkeys; k++) keys[k] = hb_key(b, k);
    for (int t = 0; t < ntx; t++) {
        uint32_t bt = hb_txn(b, hb_session(b, sess_of[t], NULL), t + 1, 0);
        for (int i = first[t]; i < first[t] + count[t]; i++)
            hb_op(b, bt, ops[i].write ? OP_WRITE : OP_READ, keys[ops[i].key], ops[i].value ? ops[i].value : VALUE_INIT, 0);
        if (aborted[t]) hb_txn_status(b, bt, TXN_ABORTED);
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

/* ---- simulated executions ----------------------------------------------- */

enum { SIM_SI, SIM_SER, SIM_NO_FCW, SIM_STALE, SIM_LATEST, SIM_MODES };

typedef struct ver { int64_t value; int commit; } ver;

static int sim_large;      /* larger tier: more transactions and sessions */

static history *simulated_history(int mode) {
    enum { MAXK = 3, MAXV = 32 };
    int nsess = 1 + (int)rnd(3), nkeys = 1 + (int)rnd(3), ntx_total = 2 + (int)rnd(5);
    if (sim_large) { nsess = 2 + (int)rnd(2); nkeys = 1 + (int)rnd(2); ntx_total = 6 + (int)rnd(5); }
    ver store[MAXK][MAXV]; int nver[MAXK];
    for (int k = 0; k < nkeys; k++) { store[k][0].value = 0; store[k][0].commit = 0; nver[k] = 1; }
    int clock = 0;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "sim");
    uint32_t keys[MAXK];
    for (int k = 0; k < nkeys; k++) keys[k] = hb_key(b, k);
    /* per session: the running transaction */
    struct run { int active, snap, nops, planned; uint32_t txn; int wrote[MAXK]; int64_t wval[MAXK]; int read[MAXK]; } run[4];
    memset(run, 0, sizeof run);
    int started = 0, finished = 0;
    int64_t next_value = 1;
    while (finished < ntx_total) {
        int s = (int)rnd((uint32_t)nsess);
        struct run *r = &run[s];
        if (!r->active) {
            if (started == ntx_total) { continue; }
            started++;
            r->active = 1; r->nops = 0; r->planned = 1 + (int)rnd(sim_large ? 3 : 4);
            r->snap = mode == SIM_STALE && clock > 0 ? (int)rnd((uint32_t)clock + 1) : clock;
            memset(r->wrote, 0, sizeof r->wrote); memset(r->read, 0, sizeof r->read);
            r->txn = hb_txn(b, hb_session(b, s, NULL), started, 0);
            continue;
        }
        if (r->nops < r->planned) {
            int k = (int)rnd((uint32_t)nkeys);
            if (rnd(2)) {
                int64_t v = next_value++;
                r->wrote[k] = 1; r->wval[k] = v;
                hb_op(b, r->txn, OP_WRITE, keys[k], v, 0);
            } else {
                int64_t v;
                if (r->wrote[k]) v = r->wval[k];
                else {
                    int limit = mode == SIM_LATEST ? clock : r->snap;
                    int i = nver[k] - 1;
                    while (store[k][i].commit > limit) i--;
                    v = store[k][i].value;
                }
                r->read[k] = 1;
                hb_op(b, r->txn, OP_READ, keys[k], v ? v : VALUE_INIT, 0);
            }
            r->nops++;
            continue;
        }
        /* commit or abort */
        int conflict = 0;
        for (int k = 0; k < nkeys; k++) {
            int changed = store[k][nver[k] - 1].commit > r->snap;
            if (r->wrote[k] && changed && mode != SIM_NO_FCW) conflict = 1;
            if (mode == SIM_SER && r->read[k] && changed) conflict = 1;
        }
        if (conflict) hb_txn_status(b, r->txn, TXN_ABORTED);
        else {
            clock++;
            for (int k = 0; k < nkeys; k++)
                if (r->wrote[k] && nver[k] < MAXV) { store[k][nver[k]].value = r->wval[k]; store[k][nver[k]].commit = clock; nver[k]++; }
        }
        r->active = 0;
        finished++;
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

/* ---- comparison ------------------------------------------------------- */

typedef struct tally { int pass[2], fail[2], skipped, solved, axioms; } tally;

/* Version orders the brute force would enumerate (product of factorials). */
static uint64_t brute_cost(const history *h) {
    uint64_t cost = 1;
    for (uint32_t k = 0; k < h->num_keys; k++) {
        uint32_t w = 0, last = UINT32_MAX;
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t t = history_op_txn(h, h->key_writes[i]);
            if (t && t != last && h->txns[t].status == TXN_COMMITTED) w++;
            last = t;
        }
        for (uint32_t f = 2; f <= w; f++) cost *= f;
    }
    return cost;
}

static void compare(history *h, tally *tl) {
    if (brute_cost(h) > 20000) { tl->skipped++; history_free(h); return; }
    int expect[2] = { brute_check(h, 1), brute_check(h, 0) };
    if (expect[0] < 0 || expect[1] < 0) { tl->skipped++; history_free(h); return; }
    /* as isocheck check does: the axioms first; a violation fails both levels */
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t violations = axioms_check(h, &al, 1);
    anomaly_list_free(&al);
    if (violations) {
        assert_int_equal(expect[0], 0);
        assert_int_equal(expect[1], 0);
        tl->fail[0]++; tl->fail[1]++; tl->axioms++;
        history_free(h);
        return;
    }
    ic_error err; ic_error_clear(&err);
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    for (int l = 0; l < 2; l++) {
        check_result res;
        verdict v = check_level(&ix, l == 0 ? LEVEL_SI : LEVEL_SER, NULL, &res);
        if (v == VERDICT_UNKNOWN) fprintf(stderr, "checker error: %s\n", res.msg);
        tl->solved += res.st.solver_called;
        assert_int_not_equal(v, VERDICT_UNKNOWN);
        if ((v == VERDICT_PASS) != (expect[l] == 1)) {
            fprintf(stderr, "level %s: checker %s, brute force %s on:\n", l ? "ser" : "si",
                    v == VERDICT_PASS ? "PASS" : "FAIL", expect[l] ? "PASS" : "FAIL");
            for (uint32_t t = 1; t < h->num_txns; t++) {
                fprintf(stderr, "  T%u s%u%s:", t, h->txns[t].session, h->txns[t].status ? " aborted" : "");
                for (uint32_t i = 0; i < h->txns[t].num_ops; i++) {
                    uint32_t op = h->txns[t].first_op + i;
                    int64_t val = history_op_value(h, op);
                    fprintf(stderr, " %c(%u,%lld)", history_op_is_write(h, op) ? 'w' : 'r', h->op_key[op],
                            val == VALUE_INIT ? 0LL : (long long)val);
                }
                fprintf(stderr, "\n");
            }
        }
        assert_int_equal(v == VERDICT_PASS, expect[l] == 1);
        char why[300];
        if (v == VERDICT_PASS) {
            assert_int_equal(vo_check(h, &res.vo, l == 0, NULL, why, sizeof why), 1);
            tl->pass[l]++;
        } else {
            assert_true(res.cycle.len >= 1);
            assert_true(cycle_holds(h, &res.vo, l == 0, res.cycle.data, res.cycle.len, why, sizeof why));
            tl->fail[l]++;
        }
        check_result_free(&res);
    }
    pg_index_free(&ix);
    history_free(h);
}

static void random_histories_agree(void **state) {
    (void)state;
    rng_state = 0x9e3779b97f4a7c15ULL;
    tally tl; memset(&tl, 0, sizeof tl);
    for (int i = 0; i < 2500; i++) compare(random_history(), &tl);
    fprintf(stderr, "random: SI %d pass %d fail, SER %d pass %d fail, %d skipped, %d solver calls\n",
            tl.pass[0], tl.fail[0], tl.pass[1], tl.fail[1], tl.skipped, tl.solved);
    /* the generator must exercise both verdicts */
    assert_true(tl.pass[0] > 100 && tl.fail[0] > 100 && tl.pass[1] > 100 && tl.fail[1] > 100);
}

static void simulated_histories_agree(void **state) {
    (void)state;
    rng_state = 0x243f6a8885a308d3ULL;
    tally per[SIM_MODES];
    memset(per, 0, sizeof per);
    for (int i = 0; i < 3000; i++) compare(simulated_history(i % SIM_MODES), &per[i % SIM_MODES]);
    for (int m = 0; m < SIM_MODES; m++)
        fprintf(stderr, "sim mode %d: SI %d pass %d fail, SER %d pass %d fail (%d by the axioms), %d skipped, %d solver calls\n", m,
                per[m].pass[0], per[m].fail[0], per[m].pass[1], per[m].fail[1], per[m].axioms, per[m].skipped, per[m].solved);
    /* correct SI executions are SI; serializable ones are serializable */
    assert_int_equal(per[SIM_SI].fail[0], 0);
    assert_int_equal(per[SIM_SER].fail[1], 0);
    assert_true(per[SIM_NO_FCW].fail[0] > 0);
    assert_true(per[SIM_SI].fail[1] > 0);          /* write skew and friends */
}

/* Larger executions (6-10 transactions, up to 3 sessions): more writers
 * per key, so constraints survive pruning and the solver decides them. */
static void larger_simulated_histories_agree(void **state) {
    (void)state;
    rng_state = 0x13198a2e03707344ULL;
    sim_large = 1;
    tally per[SIM_MODES];
    memset(per, 0, sizeof per);
    int solved = 0, checked = 0;
    for (int i = 0; i < 1500; i++) compare(simulated_history(i % SIM_MODES), &per[i % SIM_MODES]);
    sim_large = 0;
    for (int m = 0; m < SIM_MODES; m++) {
        fprintf(stderr, "large sim mode %d: SI %d pass %d fail, SER %d pass %d fail (%d by the axioms), %d skipped, %d solver calls\n", m,
                per[m].pass[0], per[m].fail[0], per[m].pass[1], per[m].fail[1], per[m].axioms, per[m].skipped, per[m].solved);
        solved += per[m].solved;
        checked += per[m].pass[0] + per[m].fail[0];
    }
    assert_int_equal(per[SIM_SI].fail[0], 0);
    assert_int_equal(per[SIM_SER].fail[1], 0);
    assert_true(checked > 1000);
    assert_true(solved > 50);
}

/* The same with only one session tracked by the reachability summary (as
 * for histories with very many sessions): less pruning, same verdicts. */
static void few_chains_agree(void **state) {
    (void)state;
    rng_state = 0xa4093822299f31d0ULL;
    pg_chain_limit = 1;
    sim_large = 1;
    tally tl; memset(&tl, 0, sizeof tl);
    for (int i = 0; i < 600; i++) compare(simulated_history(i % SIM_MODES), &tl);
    rng_state = 0x082efa98ec4e6c89ULL;
    sim_large = 0;
    for (int i = 0; i < 600; i++) compare(random_history(), &tl);
    pg_chain_limit = 0;
    fprintf(stderr, "one chain: SI %d pass %d fail, SER %d pass %d fail, %d skipped, %d solver calls\n",
            tl.pass[0], tl.fail[0], tl.pass[1], tl.fail[1], tl.skipped, tl.solved);
    assert_true(tl.pass[0] > 100 && tl.fail[0] > 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_histories_agree),
        cmocka_unit_test(simulated_histories_agree),
        cmocka_unit_test(larger_simulated_histories_agree),
        cmocka_unit_test(few_chains_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
