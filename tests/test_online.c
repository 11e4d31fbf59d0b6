/* test_online.c — online checking (frontend/online/checker.h) against batch
 * checks of every prefix.
 *
 * Histories arrive one completed transaction at a time:
 *   - executions of the workload simulator (bench/workload), every level
 *     and every injected fault, in the order transactions end (a reader of
 *     an aborted write may end before its writer: it waits);
 *   - random list-append histories (Elle's model) with :fail and :info
 *     transactions and snapshots taken anywhere, delivered with readers
 *     sometimes ahead of their writers.
 * After each arrival, the prefix is checked twice: online (settled part,
 * report on the first proven violation) and as a batch (axioms then
 * check_level on the whole prefix, as isocheck check does).  Asserted:
 *   - a violation reported online is a batch FAIL of that prefix, and of
 *     every later prefix (it is never taken back); so is a batch FAIL of a
 *     prefix in which no reader waits for its writer;
 *   - when every transaction of the prefix is settled, the online verdict
 *     equals the batch verdict: so the violation is reported exactly at the
 *     first prefix where the batch check fails;
 *   - the report names an anomaly for a level that fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isocheck.h"
#include "workload/workload.h"
#include "frontend/api_stats.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/recheck/verify_model.h"
#include "frontend/online/checker.h"
#include "frontend/online/incr.h"
#include "batch_verdict.h"
#include "history_helpers.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {          /* xorshift64*, uniform-ish in [0, n) */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

typedef struct stream_stats {
    int histories, failing, reported_at_first, waited;
    uint32_t incr_checks, scratch_checks, fell_back;   /* how online_check checked */
    uint64_t kept_model, solves;                       /* incremental: answered by the kept model, engine solves */
    uint32_t orders;                                   /* the last model's version orders re-checked at a stream's end */
} stream_stats;

static incr_stats last_incr;              /* the incremental state's counts at the end of the last stream */
static uint32_t ops_block, ops_keep;      /* nonzero block: each stream's incremental state frees its operations early */
static uint64_t total_freed;              /* op_blocks_freed over every stream so far */
static uint64_t total_skipped;            /* pairs_skipped over every stream so far */
static uint64_t total_sealed;            /* pairs_sealed over every stream so far */
static int engine_thread;                 /* the engines' calls on their own thread (incr_set_engine_thread) */
static uint64_t total_edges, total_vars, total_pruned, total_implied;   /* over every stream so far */

/* One arrival order: the builder's transactions in order[0..n).  Checks
 * every prefix online and in batch for both levels. */
static void check_stream(const history_builder *b, const uint32_t *order, uint32_t n, stream_stats *st) {
    uint8_t *keep = calloc(hb_num_txns(b) + 1, 1);
    online_checker oc;
    online_init(&oc, 1, 1, 10);
    oc.engine_thread = engine_thread;
    if (ops_block) {                          /* made here: online_check keeps it */
        oc.incr = incr_new(1, 1);
        incr_set_ops_limits(oc.incr, ops_block, ops_keep);
        if (engine_thread) assert_true(incr_set_engine_thread(oc.incr));
    }
    int reported = -1, first_batch_fail = -1, failed_before[2] = { 0, 0 };
    history *last = NULL;
    for (uint32_t i = 0; i < n; i++) {
        keep[order[i]] = 1;
        if (hb_txn_num_ops(b, order[i]) == 0) continue;
        ic_error err;
        ic_error_clear(&err);
        history *h = hb_finish(hb_clone(b, keep), &err);
        if (!h) { free(keep); online_free(&oc); history_free(last); return; }      /* nothing to check yet */
        int was_failed = oc.failed;
        int rc = online_check(&oc, h);
        assert_int_not_equal(rc, ONLINE_UNKNOWN);
        if (rc == ONLINE_VIOLATION) {
            assert_false(was_failed);
            reported = (int)i;
            /* the report names a failing level and its anomaly */
            int any = 0;
            for (int l = 0; l < oc.rep.num_levels; l++) any |= oc.rep.levels[l].verdict == VERDICT_FAIL;
            assert_true(any || oc.rep.axiom_violations > 0);
            assert_true(oc.rep.items.len > 0);
        }
        /* A FAIL of a prefix with no waiting reader stays a FAIL (monotone);
         * a prefix with a reader ahead of its writer may fail (thin-air) and
         * pass later: that is why such readers wait. */
        int all_settled = oc.settled == h->num_txns - 1, fails[2];
        for (int lv = 0; lv < 2; lv++) {
            fails[lv] = batch_fails(h, (check_level_id)lv);
            if (failed_before[lv]) assert_true(fails[lv]);
            if (all_settled) failed_before[lv] |= fails[lv];
        }
        int batch_fail = fails[0] || fails[1];
        if (batch_fail && first_batch_fail < 0) first_batch_fail = (int)i;
        if (oc.failed) assert_true(batch_fail);                      /* never ahead of the truth */
        if (all_settled) assert_int_equal(oc.failed, batch_fail);
        else st->waited++;
        history_free(last);
        last = h;
    }
    /* the last model's version orders (incr_version_order, as the library
     * answers PASS with) pass the independent re-check */
    if (last && oc.incr && !oc.failed && !oc.from_scratch && !oc.explain_pending)
        for (int lv = 0; lv < 2; lv++) {
            version_order vo;
            memset(&vo, 0, sizeof vo);
            if (incr_version_order(oc.incr, last, lv, &vo)) {
                char why[200] = "";
                assert_int_equal(vo_check(last, &vo, lv == LEVEL_SI, NULL, why, sizeof why), 1);
                st->orders++;
            }
            version_order_free(&vo);
        }
    history_free(last);
    st->histories++;
    st->incr_checks += oc.incr_checks;
    memset(&last_incr, 0, sizeof last_incr);
    if (oc.incr) {
        last_incr = *incr_get_stats(oc.incr);
        st->kept_model += last_incr.kept_model;
        st->solves += last_incr.solves;
        total_skipped += last_incr.pairs_skipped;
        total_sealed += last_incr.pairs_sealed;
        total_freed += last_incr.op_blocks_freed;
        total_edges += last_incr.edges;
        total_vars += last_incr.pairs_var;
        total_pruned += last_incr.pairs_pruned;
        total_implied += last_incr.implied;
    }
    st->scratch_checks += oc.scratch_checks;
    if (oc.fallback_why[0]) { st->fell_back++; if (getenv("ONLINE_VERBOSE")) print_message("fell back: %s\n", oc.fallback_why); }
    if (first_batch_fail >= 0) st->failing++;
    if (first_batch_fail >= 0 && reported == first_batch_fail) st->reported_at_first++;
    online_free(&oc);
    free(keep);
}

/* ---- the workload simulator ------------------------------------------------ */

typedef struct sim_capture {
    history_builder *b;
    vec_u32 order;
    int indeterminate;           /* mark some transactions :info (committed or not: the checker cannot tell) */
    isocheck_history *api;       /* also fed to the library, checked after each transaction (or NULL) */
    stream_stats *st;
} sim_capture;

/* The library's verdict for a level: 1 FAIL, 0 PASS. */
static int api_fails(isocheck_history *api, isocheck_level lv) {
    isocheck_result *r = isocheck_check(api, lv);
    int v = isocheck_result_verdict(r);
    assert_int_not_equal(v, ISOCHECK_UNKNOWN);
    if (v == ISOCHECK_FAIL) assert_non_null(strstr(isocheck_result_text(r), "FAIL"));
    else assert_non_null(strstr(isocheck_result_text(r), "PASS"));
    isocheck_result_free(r);
    return v == ISOCHECK_FAIL;
}

static int capture_txn(void *ctx, uint32_t session, uint32_t pos, int64_t txn_id, int committed,
                       const sim_op *ops, uint32_t n_ops, ic_error *err) {
    (void)pos; (void)err;
    sim_capture *c = ctx;
    uint32_t t = hb_txn(c->b, hb_session(c->b, session + 1, NULL), txn_id, 0);
    for (uint32_t i = 0; i < n_ops; i++)
        hb_op(c->b, t, ops[i].write ? OP_WRITE : OP_READ, hb_key(c->b, ops[i].key),
              ops[i].value ? ops[i].value : VALUE_INIT, 0);
    if (c->indeterminate && rnd(5) == 0) hb_txn_status(c->b, t, TXN_INDETERMINATE);
    else if (!committed) hb_txn_status(c->b, t, TXN_ABORTED);
    vec_push(c->order, t);
    if (c->api) {
        /* the library gets the same transaction, then checks everything so far;
         * the batch check of the same prefix must agree at both levels */
        int at = isocheck_txn_begin(c->api, (int64_t)session + 1, txn_id);
        assert_true(at > 0);
        for (uint32_t i = 0; i < n_ops; i++) {
            int rc = !ops[i].write ? (ops[i].value ? isocheck_read(c->api, at, ops[i].key, ops[i].value)
                                                   : isocheck_read_initial(c->api, at, ops[i].key))
                                   : isocheck_write(c->api, at, ops[i].key, ops[i].value);
            assert_int_equal(rc, ISOCHECK_OK);
        }
        if (!committed) assert_int_equal(isocheck_txn_abort(c->api, at), ISOCHECK_OK);
        ic_error e2;
        ic_error_clear(&e2);
        history *h = hb_finish(hb_clone(c->b, NULL), &e2);
        assert_non_null(h);
        for (int lv = 0; lv < 2; lv++) {
            int fails = batch_fails(h, (check_level_id)lv);
            assert_int_equal(api_fails(c->api, (isocheck_level)lv), fails);
            c->st->failing += fails;
        }
        history_free(h);
    }
    return 1;
}

/* The simulator's executions, every level and fault, streamed in the order
 * transactions end, or (shuffle) with some arriving after their successor
 * (out of session order, readers before writers); indeterminate: some
 * transactions :info.  Returns the number of histories. */
static int simulator_streams(stream_stats *st, uint32_t sessions, uint32_t txns, uint32_t keys, int shuffle,
                             int indeterminate, uint64_t seeds) {
    int cases = 0;
    for (int level = SIM_SER; level <= SIM_RC; level++)
        for (int fault = FAULT_NONE; fault < FAULT_COUNT; fault++)
            for (uint64_t seed = 1; seed <= seeds; seed++) {
                workload_params p;
                workload_defaults(&p);
                p.sessions = sessions;
                p.txns_per_session = txns;
                p.ops_per_txn = 3;
                p.keys = keys;
                p.read_fraction = 0.5;
                p.level = (sim_level)level;
                p.fault = (sim_fault)fault;
                p.fault_rate = fault == FAULT_NONE ? 0.3 : 0.05;
                p.lag = 2;
                p.seed = seed * 7919 + (uint64_t)fault + 31 * sessions;
                rng_state = p.seed * 0x9E3779B97F4A7C15ULL + 1;
                sim_capture c = { hb_new(FORMAT_SYNTHETIC, LOC_LINE, "sim"), { NULL, 0, 0 }, indeterminate, NULL, st };
                sim_sink sink = { &c, capture_txn };
                sim_truth truth;
                ic_error err;
                ic_error_clear(&err);
                assert_true(sim_run(&p, &sink, &truth, NULL, NULL, &err));
                if (shuffle)
                    for (size_t i = 0; i + 1 < c.order.len; i++)
                        if (rnd(3) == 0) { uint32_t x = c.order.data[i]; c.order.data[i] = c.order.data[i + 1]; c.order.data[i + 1] = x; }
                check_stream(c.b, c.order.data, (uint32_t)c.order.len, st);
                hb_free(c.b);
                vec_free(c.order);
                cases++;
            }
    return cases;
}

static void report_stats(const char *what, const stream_stats *st) {
    print_message("%s: %d histories, %d fail in batch, %d reported online at the first failing prefix, "
                  "%d prefixes with waiting readers\n", what, st->histories, st->failing, st->reported_at_first, st->waited);
    print_message("%s: %u incremental checks (%" PRIu64 " answered by the kept model, %" PRIu64 " engine solves), "
                  "%u from scratch, %u histories fell back; %u version orders of the last model re-checked\n", what,
                  st->incr_checks, st->kept_model, st->solves, st->scratch_checks, st->fell_back, st->orders);
}

static void test_simulator_prefixes(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    int cases = simulator_streams(&st, 3, 6, 4, 0, 0, 3);
    report_stats("simulator", &st);
    assert_int_equal(st.histories, cases);
    assert_true(st.failing >= 5);              /* the faults and rc make violations: the test can fail */
    /* the incremental path did the checking: only the aborted and intermediate
     * read faults (an axiom, named by the batch check) leave it */
    assert_true(st.incr_checks > 10 * st.scratch_checks);
    assert_true(st.kept_model > 0 && st.solves > 0);          /* both ways of answering were taken */
    assert_true(st.orders > 0);
}

/* Larger executions (pairs decided by reachability, and pair variables),
 * transactions out of session order, :info transactions: the incremental
 * path still agrees with the batch check of every prefix. */
static void test_simulator_shuffled(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    int cases = simulator_streams(&st, 4, 10, 5, 1, 1, 2);
    report_stats("simulator, out of order, :info", &st);
    assert_int_equal(st.histories, cases);
    assert_true(st.failing >= 5);
    assert_true(st.incr_checks > 5 * st.scratch_checks);
    assert_true(st.kept_model > 0 && st.solves > 0);          /* both ways of answering were taken */
}

/* More sessions and longer streams, in order and shuffled: the engine
 * keeps its assignment from check to check (option keep_trail), so new
 * units and edges keep meeting decided pairs; the verdict of every prefix
 * still equals the batch check's. */
static void test_simulator_longer(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    int cases = simulator_streams(&st, 6, 16, 6, 0, 0, 1);
    uint64_t skipped_before = total_skipped, sealed_before = total_sealed;
    cases += simulator_streams(&st, 6, 16, 6, 1, 1, 1);
    report_stats("simulator, 6 sessions of 16", &st);
    assert_true(total_skipped > skipped_before);              /* the key pivots took sessions out of new writers' scans */
    assert_true(total_sealed > sealed_before);              /* and so did the frontier */
    assert_int_equal(st.histories, cases);
    assert_true(st.failing >= 5);
    assert_true(st.incr_checks > 5 * st.scratch_checks);
    assert_true(st.solves > 0);
    assert_true(st.orders > 0);
}

/* The engines' calls on a thread of their own (incr_engine.h, as --follow
 * makes them with --threads 2): the same streams give the same verdicts
 * at every prefix (checked against batch, as above) and the same counts,
 * checks, solves, variables, edges and units as with the calls made on
 * the checking thread. */
static void test_engine_thread(void **state) {
    (void)state;
    stream_stats st[2];
    uint64_t sums[2][6];
    for (int on = 0; on < 2; on++) {
        memset(&st[on], 0, sizeof st[on]);
        engine_thread = on;
        uint64_t e0 = total_edges, v0 = total_vars, p0 = total_pruned, i0 = total_implied, k0 = total_skipped, s0 = total_sealed;
        int cases = simulator_streams(&st[on], 4, 10, 5, 1, 1, 2);
        cases += simulator_streams(&st[on], 6, 16, 6, 0, 0, 1);
        assert_int_equal(st[on].histories, cases);
        uint64_t x[6] = { total_edges - e0, total_vars - v0, total_pruned - p0, total_implied - i0, total_skipped - k0,
                          total_sealed - s0 };
        memcpy(sums[on], x, sizeof x);
    }
    engine_thread = 0;
    report_stats("simulator, engines on their own thread", &st[1]);
    assert_memory_equal(&st[0], &st[1], sizeof st[0]);
    assert_memory_equal(sums[0], sums[1], sizeof sums[0]);
    assert_true(sums[1][0] > 0 && sums[1][1] > 0 && sums[1][2] > 0);   /* edges, variables and units went through it */
    assert_true(st[1].failing >= 5 && st[1].solves > 0);
}

/* More sessions than a key's session filter has bits (ikey.sess_bits: bit
 * sess % KEY_SESS_BITS, 128), so sessions share bits (128 and 129 those of
 * 0 and 1; one transaction a session keeps the prefixes few): a new writer
 * whose session's bit is set by another session still makes its own
 * entry, one whose bit is clear skips the scan (debug builds assert that no
 * entry was missed); every prefix still gets the batch check's verdict.
 * Entries found through their bit: the other tests. */
static void test_many_sessions(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    int cases = simulator_streams(&st, 130, 1, 5, 0, 0, 1);
    report_stats("simulator, 130 sessions", &st);
    assert_int_equal(st.histories, cases);
    assert_true(st.failing >= 3);
    assert_true(st.incr_checks > 5 * st.scratch_checks);
}

/* Blocks of a few operations, freed as soon as their transactions took part
 * (keep 0), or once out of the last 3 to settle: aborted, :info and late
 * transactions (which may wait, or join only when observed) keep their
 * operations as long as they are needed, and every prefix still gets the
 * batch check's verdict; blocks were freed (the test exercises the path). */
static void test_ops_freed(void **state) {
    (void)state;
    for (uint32_t keep = 0; keep <= 3; keep += 3) {
        stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
        uint64_t freed_before = total_freed;
        ops_block = 4;
        ops_keep = keep;
        int cases = simulator_streams(&st, 4, 10, 5, 0, 0, 1);
        cases += simulator_streams(&st, 4, 10, 5, 1, 1, 1);
        ops_block = 0;
        report_stats("simulator, operations freed early", &st);
        assert_int_equal(st.histories, cases);
        assert_true(st.failing >= 5);
        assert_true(st.incr_checks > 5 * st.scratch_checks);
        assert_true(total_freed > freed_before);
    }
}

/* The witness window needs the operations of its transactions: within the
 * last keep to settle it is built (a read of a writer outside dropped),
 * past them it is refused (NULL, no error: the caller explains from the
 * whole input), never built from freed operations. */
static void test_window_after_free(void **state) {
    (void)state;
    incr_check *ic = incr_new(1, 0);
    incr_set_ops_limits(ic, 2, 4);
    incr_add_key(ic, 7);
    uint32_t num, fresh;
    for (int64_t i = 1; i <= 12; i++) {          /* one session: each reads its predecessor's write */
        incr_op ops[2] = { { OP_READ, 0, i == 1 ? VALUE_INIT : i - 1, (uint32_t)(2 * i) }, { OP_WRITE, 0, i, (uint32_t)(2 * i + 1) } };
        incr_txn t = { i, 1, TXN_COMMITTED, ops, 2 };
        assert_true(incr_add_txn(ic, &t));
        assert_int_equal(incr_check_added(ic, &num, &fresh), INCR_PASS);
        assert_int_equal(fresh, 1);
    }
    assert_true(incr_get_stats(ic)->op_blocks_freed >= 6);
    ic_error err;
    ic_error_clear(&err);
    uint32_t n;
    history *w = incr_window_history(ic, 3, "w", &n, &err);
    assert_non_null(w);
    assert_int_equal(n, 3);
    assert_int_equal(w->num_txns, 4);                         /* INIT and 10, 11, 12 */
    assert_int_equal(w->num_ops - w->txns[0].num_ops, 5);     /* 10's read of 9 dropped (INIT's are the builder's) */
    assert_int_equal(history_op_line(w, w->txns[w->num_txns - 1].first_op), 24);   /* lines as stored */
    history_free(w);
    assert_null(incr_window_history(ic, 12, "w", &n, &err));
    assert_false(err.set);
    incr_free(ic);
}

/* ---- hand-made streams: a pair the scans may leave out ------------------- */

/* One transaction per string, arriving in this order: "S op op ...", S its
 * session, an op "wK V" or "rK V" (K a key letter, V a value, 0: INIT). */
static void hand_stream(const char *const *txns, uint32_t n, stream_stats *st) {
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "hand");
    vec_u32 order;
    vec_init(order);
    for (uint32_t i = 0; i < n; i++) {
        const char *p = txns[i];
        int64_t sess = strtoll(p, (char **)&p, 10);
        uint32_t t = hb_txn(b, hb_session(b, sess, NULL), (int64_t)i + 1, i + 1);
        while (*p) {
            if (*p == ' ') { p++; continue; }
            uint8_t kind = *p == 'w' ? OP_WRITE : OP_READ;
            uint32_t key = hb_key(b, p[1] - 'a');
            int64_t v = strtoll(p + 2, (char **)&p, 10);
            hb_op(b, t, kind, key, v ? v : VALUE_INIT, i + 1);
        }
        vec_push(order, t);
    }
    check_stream(b, order.data, n, st);
    vec_free(order);
    hb_free(b);
}

/* Streams where a new writer's pairs with older writers, or a new reader's
 * RW edges, are exactly what closes the cycle, around a key's pivot (the
 * latest writer every earlier one is decided before): a scan that left out
 * the wrong session would miss the violation, and check_stream's batch
 * comparison after every arrival would fail. */
static void test_hand_pivot(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    /* lost update: T2 (the pivot: it read T1) and T3 both read T1's x and
     * write x.  T2 is not decided before T3, so T1's session must be looked
     * at: T2 -RW-> T3 comes from T1 < T3 (T2 reads T1) */
    const char *lost[] = { "1 wa1", "2 ra1 wa2", "3 ra1 wa3" };
    hand_stream(lost, 3, &st);
    assert_int_equal(st.failing, 1);
    assert_int_equal(st.reported_at_first, 1);
    assert_int_equal(last_incr.pairs_skipped, 0);
    /* the pivot T2 is decided before T3 (T3 read it): T1's session is left
     * out of T3's scan, T1's reader T4 has T4 -RW-> T2 ~> T3 already, and
     * the cycle T4 -RW-> T2 -WR-> T3 -RW-> T4 (T3 read b's INIT, T4 wrote
     * it) is found (SER; SI allows its two adjacent RW edges) */
    const char *skip[] = { "1 wa1", "4 ra1 wb1", "2 ra1 wa2", "3 ra2 wa3 rb0" };
    hand_stream(skip, 4, &st);
    assert_int_equal(st.failing, 2);
    assert_int_equal(st.reported_at_first, 2);
    assert_true(last_incr.pairs_skipped >= 1);
    /* the same without the read of b: no cycle, the skip still taken */
    const char *clean[] = { "1 wa1", "4 ra1 wb1", "2 ra1 wa2", "3 ra2 wa3 rb1", "5 ra3 rb1" };
    hand_stream(clean, 5, &st);
    assert_int_equal(st.failing, 2);
    assert_true(last_incr.pairs_skipped >= 1);
    /* a new reader of an old version: T1's session has a later writer T2
     * (arrived after T1), so T3 -RW-> T2 is added; T3 read T2's b: a cycle */
    const char *fractured[] = { "1 wa1", "1 wa2 wb2", "2 ra1 rb2" };
    hand_stream(fractured, 3, &st);
    assert_int_equal(st.failing, 3);
    assert_int_equal(st.reported_at_first, 3);
    /* a reader of INIT: every session's first writer follows it */
    const char *init[] = { "1 wa1 wb1", "2 ra0 rb1" };
    hand_stream(init, 2, &st);
    assert_int_equal(st.failing, 4);
    assert_int_equal(st.reported_at_first, 4);
    /* no pivot past an undecided pair: T1 and T2 write a concurrently, so
     * T2 is no pivot, and T3 (which read T2) still meets T1: their pair is a
     * variable, and both of its sides close a cycle (R1 read a from T1 and c
     * from T3: T1 before T3 gives R1 -RW-> T3 -WR-> R1; R3 read a from T3 and
     * b from T1: T3 before T1 gives R3 -RW-> T1 -WR-> R3).  Had T2 become the
     * pivot, T1's session would leave T3's scan, the pair would be lost with
     * both cycles, and the stream would pass */
    const char *undecided[] = { "1 wa1 wb1", "2 wa2", "3 ra2 wa3 wc3", "4 ra1 rc3", "5 ra3 rb1" };
    hand_stream(undecided, 5, &st);
    assert_int_equal(st.failing, 5);
    assert_int_equal(st.reported_at_first, 5);
    assert_int_equal(last_incr.pairs_skipped, 0);
    assert_int_equal(st.histories, 6);
    assert_int_equal(st.fell_back, 0);
    assert_true(st.incr_checks > 0);
}

/* Sessions past a key's session filter (ikey.sess_bits, KEY_SESS_BITS =
 * 128 bits): 130 sessions read b first, then sessions 0, 128, 1 and 129
 * take turns writing a, each reading the write before it, so that the
 * second writer of session 128 (129) finds the bit of its session set by
 * session 0 (1) and its own entry by scanning the list; its previous
 * writer is its entry's last and that writer's node its own session's
 * (incr_graph.c, own_writer_node; debug builds assert the node).  A lost
 * update of sessions 128 and 0 at the end must be reported online at the
 * first prefix whose batch check fails; a session that took another's
 * entry, or a previous writer of another session, makes the kept model
 * differ from the batch check on some prefix (test_many_sessions has one
 * transaction a session: no session there writes twice). */
static void test_hand_shared_bits(void **state) {
    (void)state;
    enum { SESSIONS = 130, ROUNDS = 4 };
    static const uint32_t turn[4] = { 0, 128, 1, 129 };
    static char text[SESSIONS + 4 * ROUNDS + 2][48];
    const char *txns[SESSIONS + 4 * ROUNDS + 2];
    uint32_t n = 0;
    for (uint32_t s = 0; s < SESSIONS; s++, n++) {
        snprintf(text[n], sizeof text[n], "%u rb0", s);
        txns[n] = text[n];
    }
    long long v = 0;
    for (uint32_t r = 0; r < ROUNDS; r++)
        for (uint32_t i = 0; i < 4; i++, n++, v++) {
            snprintf(text[n], sizeof text[n], "%u ra%lld wa%lld", turn[i], v, v + 1);
            txns[n] = text[n];
        }
    snprintf(text[n], sizeof text[n], "128 ra%lld wa%lld", v, v + 1);
    txns[n] = text[n]; n++;
    snprintf(text[n], sizeof text[n], "0 ra%lld wa%lld", v, v + 2);
    txns[n] = text[n]; n++;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    hand_stream(txns, n, &st);
    assert_int_equal(st.histories, 1);
    assert_int_equal(st.failing, 1);
    assert_int_equal(st.reported_at_first, 1);
    assert_int_equal(st.fell_back, 0);
    assert_true(st.incr_checks > 0);
}

/* Streams around the always-on edges left out because a path of given SO
 * and WR edges joins their ends (frontend/online/incr.c, edge and add_txn): the
 * cycle of each violation runs through such a path, or through an edge
 * that only looks implied; leaving out one that is not (say, asking the
 * new node's own summary, which holds its sources through these very
 * edges) loses the cycle, a PASS where the batch check fails. */
static void test_hand_implied(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    /* read skew: T3 reads T1's b and x's INIT, T1 overwrote x.  T3's WR edge
     * from T1 is implied by T1 -WR-> T2 -SO-> T3 (left out); the cycle
     * T1 ~> T3 -RW-> T1 takes the path */
    const char *via_path[] = { "1 wa1 wb1 wx1", "2 ra1", "2 rb1 rx0" };
    hand_stream(via_path, 3, &st);
    assert_int_equal(st.failing, 1);
    assert_int_equal(st.reported_at_first, 1);
    assert_int_equal(last_incr.implied, 1);
    /* the same, T2 reading nothing of T1: T3's WR edge is the only way from
     * T1 and is given */
    const char *no_path[] = { "1 wa1 wb1 wx1", "2 rz0", "2 rb1 rx0" };
    hand_stream(no_path, 3, &st);
    assert_int_equal(st.failing, 2);
    assert_int_equal(st.reported_at_first, 2);
    assert_int_equal(last_incr.implied, 0);
    /* two keys read from one writer: one WR edge, and the cycle through it
     * (T2 read y's INIT, T1 overwrote it) */
    const char *twice[] = { "1 wa1 wb1 wy1", "2 ra1 rb1 ry0" };
    hand_stream(twice, 2, &st);
    assert_int_equal(st.failing, 3);
    assert_int_equal(st.reported_at_first, 3);
    assert_int_equal(last_incr.implied, 1);
    /* an always-on RW edge left out: T3 overwrites a, read by T2 from T1
     * (decided before T3: T1 -WR-> T2 -WR-> T3), and T2 -RW-> T3 is implied
     * by T2 -WR-> T3; T3's second transaction's WR edge from T3 by SO */
    const char *rw_clean[] = { "1 wa1", "2 ra1 wc1", "3 rc1 wa3", "3 ra3" };
    hand_stream(rw_clean, 4, &st);
    assert_int_equal(st.failing, 3);
    assert_int_equal(last_incr.implied, 2);
    /* the same with y's INIT read by T3 and overwritten by T1: the cycle
     * T3 -RW-> T1 -WR-> T2 -WR-> T3 */
    const char *rw_cycle[] = { "1 wa1 wy1", "2 ra1 wc1", "3 rc1 wa3 ry0" };
    hand_stream(rw_cycle, 3, &st);
    assert_int_equal(st.failing, 4);
    assert_int_equal(st.reported_at_first, 4);
    assert_int_equal(last_incr.implied, 1);
    assert_int_equal(st.histories, 5);
    assert_int_equal(st.fell_back, 0);
    assert_true(st.incr_checks > 0);
}

/* Values whose low 32 bits agree (1 and 2^32 + 1, -1 and 2^32 - 1): the
 * write index keeps the low half, and the high half only for a value that
 * is not its low half sign-extended (frontend/online/incr.c, iwop), so a lookup
 * that compared the low halves only would take one for the other — a
 * "value written twice" fallback, or a read given the wrong writer. */
static void test_wide_values(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    const char *clean[] = { "1 wa1", "2 ra1 wa4294967297", "1 ra4294967297 wb-1", "2 rb-1 wb4294967295",
                            "3 rb4294967295 wc-4294967296", "3 rc-4294967296" };
    hand_stream(clean, 6, &st);
    assert_int_equal(st.failing, 0);
    assert_int_equal(last_incr.writers, 5);
    /* a lost update on wide values: T2 and T3 both read T1's and write */
    const char *lost[] = { "1 wa4294967297", "2 ra4294967297 wa-1", "3 ra4294967297 wa4294967295" };
    hand_stream(lost, 3, &st);
    assert_int_equal(st.failing, 1);
    assert_int_equal(st.reported_at_first, 1);
    /* a read of 1 after its session read 2^32 + 1, which overwrote 1: stale
     * (T4 -RW-> T2 -WR-> T3 -SO-> T4) */
    const char *stale[] = { "1 wa1", "2 ra1 wa4294967297", "3 ra4294967297", "3 ra1" };
    hand_stream(stale, 4, &st);
    assert_int_equal(st.failing, 2);
    assert_int_equal(st.reported_at_first, 2);
    /* 40 writes of a sharing their low half (1 + i 2^32), and of b negative
     * narrow values, through table doublings (16 slots first): each insert
     * and read probes past entries of the same key and low half (a lookup
     * that did not compare the high halves falls back), and the moves into
     * a doubled table hash each value again (a negative one read back
     * without its sign would not be found: its reader would wait) */
    static char buf[40][64];
    const char *many[40];
    for (int i = 0; i < 40; i++) {
        int64_t a = 1 + ((int64_t)i << 32);
        if (i == 0) snprintf(buf[i], sizeof buf[i], "1 wa%" PRId64 " wb%d", a, -(i + 1));
        else snprintf(buf[i], sizeof buf[i], "1 ra%" PRId64 " rb%d wa%" PRId64 " wb%d", a - ((int64_t)1 << 32), -i, a, -(i + 1));
        many[i] = buf[i];
    }
    hand_stream(many, 40, &st);
    assert_int_equal(st.failing, 2);
    assert_int_equal(st.waited, 0);
    assert_int_equal(last_incr.txns_in_graph, 40);
    /* 20 keys written with negative values, then read by another session,
     * after the doublings moved them */
    for (int i = 0; i < 40; i++) {
        snprintf(buf[i], sizeof buf[i], "%d %c%c%d", i < 20 ? 1 : 2, i < 20 ? 'w' : 'r', 'a' + i % 20, -(i % 20 + 1));
        many[i] = buf[i];
    }
    hand_stream(many, 40, &st);
    assert_int_equal(st.failing, 2);
    assert_int_equal(st.waited, 0);
    assert_int_equal(last_incr.txns_in_graph, 40);
    assert_int_equal(st.histories, 5);
    assert_int_equal(st.fell_back, 0);
}

/* Streams around the frontier (frontend/online/incr.c: a writer every session in
 * it reaches is sealed, and new writers of in sessions leave it out,
 * giving its readers' RW edges through the key's top writers): in each, the
 * pair or edge a wrong skip would lose is exactly what closes the cycle, so
 * a wrong skip is a PASS where the batch check fails (check_stream). */
/* One transaction writes 200 keys, two of them twice (the first write
 * overwritten in it), then two sessions read one key's final version from
 * it: clean (the second reads the first's write) or a lost update (both
 * overwrite it).  The reader must join the writer record of that key,
 * found from the write's entry (wop_rec: a short walk back, bisection past
 * 16 entries, the final writes' entries before the overwritten ones); a
 * wrong record gives the reader another key's writers, and the batch
 * comparison after every arrival fails. */
static void test_bulk_writer(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    const uint32_t picks[] = { 0, 3, 5, 17, 100, 150, 199 };
    for (int lost = 0; lost <= 1; lost++)
        for (size_t p = 0; p < sizeof picks / sizeof *picks; p++) {
            uint32_t j = picks[p], line = 1;
            history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "bulk");
            uint32_t t0 = hb_txn(b, hb_session(b, 1, NULL), 1, line);
            hb_op(b, t0, OP_WRITE, hb_key(b, 3), 777, line++);
            for (uint32_t k = 0; k < 200; k++) hb_op(b, t0, OP_WRITE, hb_key(b, k), 10000 + k, line++);
            hb_op(b, t0, OP_WRITE, hb_key(b, 150), 779, line++);
            int64_t fin = j == 150 ? 779 : 10000 + (int64_t)j;
            uint32_t ta = hb_txn(b, hb_session(b, 2, NULL), 2, line);
            hb_op(b, ta, OP_READ, hb_key(b, j), fin, line++);
            hb_op(b, ta, OP_WRITE, hb_key(b, j), 20000 + j, line++);
            uint32_t tb = hb_txn(b, hb_session(b, 3, NULL), 3, line);
            hb_op(b, tb, OP_READ, hb_key(b, j), lost ? fin : 20000 + j, line++);
            hb_op(b, tb, OP_WRITE, hb_key(b, j), 30000 + j, line++);
            uint32_t order[] = { t0, ta, tb };
            int failing = st.failing;
            check_stream(b, order, 3, &st);
            assert_int_equal(st.failing - failing, lost);
            assert_int_equal(last_incr.writers, 200 + 2);         /* T0's final writes, and T2's and T3's */
            hb_free(b);
        }
    assert_int_equal(st.fell_back, 0);                            /* every check incremental */
}

static void test_hand_frontier(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    /* T1 is sealed when T4 writes a (every session's last node read it), and
     * T4 leaves its session out: T1 is the key's top, so its reader T2 gets
     * T2 -RW-> T4; with T4 -WR-> T5 -RW-> T2 (T5 read c's INIT, T2 wrote c)
     * a cycle (SER; SI allows the two adjacent RW edges) */
    const char *top[] = { "1 wa1", "2 ra1 wc2", "3 ra1", "3 wa3 we3", "4 re3 rc0" };
    hand_stream(top, 5, &st);
    assert_int_equal(st.failing, 1);
    assert_int_equal(st.reported_at_first, 1);
    assert_true(last_incr.pairs_sealed >= 1);
    /* the same without the read of c: no cycle, the skip still taken */
    const char *clean[] = { "1 wa1", "2 ra1 wc2", "3 ra1", "3 wa3 we3", "4 re3 rc2" };
    hand_stream(clean, 5, &st);
    assert_int_equal(st.failing, 1);
    assert_true(last_incr.pairs_sealed >= 1);
    /* nothing is sealed unless every in session reaches it: T1 and T4 write a
     * concurrently (session 3's first transaction T1' read nothing, so the
     * frontier on session 1 stays 0), and both orders of the pair close a
     * cycle (T5 read a from T1 and c from T4; T6 read a from T4 and b from
     * T1).  Sealing T1 would drop the pair */
    const char *concurrent[] = { "3 rd0", "1 wa1 wb1", "2 wa2", "3 ra2 wa3 wc3", "4 ra1 rc3", "5 ra3 rb1" };
    hand_stream(concurrent, 6, &st);
    assert_int_equal(st.failing, 2);
    assert_int_equal(st.reported_at_first, 2);
    assert_int_equal(last_incr.sealed, 0);
    /* a session joins the frontier only once its last node reaches every
     * sealed writer: T1 is sealed when T3 writes a; session 3 (T4 read
     * nothing) is not in when T5 writes a, concurrently with T1; the pair
     * (T1, T5) is again a variable both of whose sides close a cycle */
    const char *join[] = { "1 wa1 wb1", "2 ra1", "2 wa2", "3 rz0", "3 wa3 wc3", "4 ra1 rc3", "5 ra3 rb1" };
    hand_stream(join, 7, &st);
    assert_int_equal(st.failing, 3);
    assert_int_equal(st.reported_at_first, 3);
    assert_true(last_incr.sealed >= 1);
    /* two concurrent sealed writers T1, T2 of a are both top: T3 read a
     * from T1, and T7 (which reached both through T6) leaves both sessions
     * out; T3 -RW-> T7 -WR-> T8 -RW-> T3 closes the cycle only if T1 still
     * gives its readers RW edges to T7 */
    const char *twotop[] = { "1 wa1 wb1", "2 wa2 we2", "1 re2", "2 rb1", "3 ra1 re2 wc3", "4 rb1 re2",
                             "4 wa4 wf4", "5 rf4 rc0" };
    hand_stream(twotop, 8, &st);
    assert_int_equal(st.failing, 4);
    assert_int_equal(st.reported_at_first, 4);
    assert_true(last_incr.pairs_sealed >= 2);
    /* a top writer T1 whose session has a later writer T5 not decided before
     * T6: T1 stays a candidate (INV does not hold through T5), its reader T2
     * gets T2 -RW-> T6, and T6 -WR-> T7 -RW-> T2 closes the cycle */
    const char *next[] = { "1 wa1", "2 ra1 wc2", "3 ra1", "2 wa2", "1 wa4", "3 wa5 we5", "4 re5 rc0" };
    hand_stream(next, 7, &st);
    assert_int_equal(st.failing, 5);
    assert_int_equal(st.reported_at_first, 5);
    assert_true(last_incr.pairs_sealed >= 1);
    assert_int_equal(st.histories, 6);
    assert_int_equal(st.fell_back, 0);
}

/* The library (include/isocheck.h): transactions added one at a time, a
 * check of both levels after each; the verdict equals the batch check of
 * the same history every time, and most checks are answered by the
 * incremental path (a PASS there is re-checked by definition). */
static void test_library_grows(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    uint32_t incremental = 0, incremental_pass = 0, pipeline = 0;
    for (int fault = FAULT_NONE; fault < FAULT_COUNT; fault++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            workload_params p;
            workload_defaults(&p);
            p.sessions = 4;
            p.txns_per_session = 8;
            p.ops_per_txn = 3;
            p.keys = 5;
            p.read_fraction = 0.5;
            p.level = SIM_SI;
            p.fault = (sim_fault)fault;
            p.fault_rate = 0.05;
            p.seed = seed * 104729 + (uint64_t)fault;
            sim_capture c = { hb_new(FORMAT_SYNTHETIC, LOC_LINE, "sim"), { NULL, 0, 0 }, 0, isocheck_history_new(), &st };
            sim_sink sink = { &c, capture_txn };
            sim_truth truth;
            ic_error err;
            ic_error_clear(&err);
            assert_true(sim_run(&p, &sink, &truth, NULL, NULL, &err));
            const api_check_stats *as = isocheck_history_check_stats(c.api);
            incremental += as->incremental;
            incremental_pass += as->incremental_pass;
            pipeline += as->pipeline;
            isocheck_history_free(c.api);
            hb_free(c.b);
            vec_free(c.order);
        }
    print_message("library: %d failing checks; %u incremental (%u PASS answered there), %u by the pipeline\n",
                  st.failing, incremental, incremental_pass, pipeline);
    assert_true(st.failing >= 5);
    assert_true(incremental_pass > pipeline);
}

/* ---- random list-append ---------------------------------------------------- */

enum { LT = 10, LK = 3, LOPS = 3, LMAX = 64 };

static void test_list_prefixes(void **state) {
    (void)state;
    stream_stats st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    rng_state = 0x5eed0717ULL;
    for (int iter = 0; iter < 120; iter++) {
        int ntx = 3 + (int)rnd(LT - 2), nproc = 1 + (int)rnd(3);
        /* the store after each commit: lists per key */
        int64_t lists[LT + 1][LK][LMAX];
        int len[LT + 1][LK];
        memset(len, 0, sizeof len);
        history_builder *b = hb_new(FORMAT_ELLE, LOC_LINE, "random");
        uint32_t keys[LK];
        for (int k = 0; k < LK; k++) keys[k] = hb_key(b, k);
        int64_t next_value = 1;
        int committed = 0;
        uint32_t order[LT];
        for (int t = 0; t < ntx; t++) {
            int status = rnd(8) == 0 ? TXN_ABORTED : rnd(8) == 0 ? TXN_INDETERMINATE : TXN_COMMITTED;
            /* a snapshot: usually the latest commit, sometimes an older one */
            int snap = rnd(3) ? committed : (int)rnd((uint32_t)committed + 1);
            int64_t cur[LK][LMAX];
            int clen[LK];
            for (int k = 0; k < LK; k++) { clen[k] = len[snap][k]; memcpy(cur[k], lists[snap][k], sizeof cur[k]); }
            uint32_t bt = hb_txn(b, hb_session(b, (int64_t)rnd((uint32_t)nproc), NULL), t, (uint32_t)t + 1);
            hb_txn_status(b, bt, (txn_status)status);
            int nops = 1 + (int)rnd(LOPS);
            for (int i = 0; i < nops; i++) {
                int k = (int)rnd(LK);
                if (rnd(2) && clen[k] < LMAX) {
                    cur[k][clen[k]++] = next_value;
                    hb_op(b, bt, OP_APPEND, keys[k], next_value++, (uint32_t)t + 1);
                } else {
                    int n = clen[k];
                    if (n && rnd(12) == 0) n--;          /* a stale element dropped: maybe an anomaly */
                    hb_list_read(b, bt, keys[k], cur[k], (uint32_t)n, (uint32_t)t + 1);
                }
            }
            /* committed (and some indeterminate) transactions install their lists */
            if (status == TXN_COMMITTED || (status == TXN_INDETERMINATE && rnd(2))) {
                committed++;
                for (int k = 0; k < LK; k++) {
                    /* appends go after the latest state (a stale snapshot then overwrites nothing) */
                    memcpy(lists[committed][k], lists[committed - 1][k], sizeof lists[0][0]);
                    len[committed][k] = len[committed - 1][k];
                    for (int j = len[snap][k]; j < clen[k] && len[committed][k] < LMAX; j++)
                        lists[committed][k][len[committed][k]++] = cur[k][j];
                }
            }
            order[t] = bt;
        }
        /* arrival: sometimes a transaction arrives before the one ahead of it, even
         * before its own writer (a sub-history keeps the order of the rest) */
        for (int t = 0; t + 1 < ntx; t++)
            if (rnd(4) == 0) { uint32_t x = order[t]; order[t] = order[t + 1]; order[t + 1] = x; }
        check_stream(b, order, (uint32_t)ntx, &st);
        hb_free(b);
    }
    report_stats("list-append", &st);
    assert_true(st.failing >= 10);
    assert_true(st.waited >= 10);              /* readers ahead of their writers were exercised */
}

/* ---- the last model's version order ------------------------------------ */

/* A pair the model decides against arrival order: T1 and T2 write a
 * concurrently, then T3 reads a from T1 and b from T2 (T2 -WR-> T3), so
 * "T1 before T2" would close T3 -RW-> T2 -WR-> T3: the model puts T2, which
 * joined later, first.  The version order (the library's) and the export
 * at the end of input (--follow's final report) both have T2 before T1 and
 * re-check; an order by arrival alone would not. */
static void test_order_against_arrival(void **state) {
    (void)state;
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "hand");
    uint32_t ka = hb_key(b, 10), kb = hb_key(b, 11);
    uint32_t t1 = hb_txn(b, hb_session(b, 1, NULL), 1, 1);
    hb_op(b, t1, OP_WRITE, ka, 1, 1);
    uint32_t t2 = hb_txn(b, hb_session(b, 2, NULL), 2, 2);
    hb_op(b, t2, OP_WRITE, ka, 2, 2);
    hb_op(b, t2, OP_WRITE, kb, 2, 2);
    uint32_t t3 = hb_txn(b, hb_session(b, 3, NULL), 3, 3);
    hb_op(b, t3, OP_READ, ka, 1, 3);
    hb_op(b, t3, OP_READ, kb, 2, 3);
    uint32_t t4 = hb_txn(b, hb_session(b, 1, NULL), 4, 4);       /* after T1 in its session: last on a */
    hb_op(b, t4, OP_WRITE, ka, 4, 4);
    ic_error err;
    ic_error_clear(&err);
    history *h = hb_finish(b, &err);                               /* frees b */
    assert_non_null(h);
    incr_check *ic = incr_new(1, 1);
    uint32_t num, fresh;
    assert_int_equal(incr_update(ic, h, &num, &fresh), INCR_PASS);
    assert_int_equal(num, 4);
    assert_true(incr_complete(ic));
    for (int lv = 0; lv < 2; lv++) {
        version_order vo;
        memset(&vo, 0, sizeof vo);
        assert_true(incr_version_order(ic, h, lv, &vo));
        uint32_t k = 0;
        while (k < h->num_keys && h->key_ext[k] != 10) k++;
        assert_int_equal(vo.start[k + 1] - vo.start[k], 4);      /* INIT, T2, T1, T4 */
        const uint32_t *o = vo.txns.data + vo.start[k];
        assert_int_equal(h->txns[o[1]].ext_id, 2);
        assert_int_equal(h->txns[o[2]].ext_id, 1);
        assert_int_equal(h->txns[o[3]].ext_id, 4);
        char why[200] = "";
        assert_int_equal(vo_check(h, &vo, lv == LEVEL_SI, NULL, why, sizeof why), 1);
        version_order_free(&vo);
        incr_order out;
        assert_true(incr_export_order(ic, lv, &out));
        size_t i = 0;
        while (i < out.key_ext.len && out.key_ext.data[i] != 10) i++;
        assert_true(i < out.key_ext.len);
        assert_int_equal(out.start.data[i + 1] - out.start.data[i], 3);   /* INIT left out */
        assert_int_equal(out.txn_ext.data[out.start.data[i]], 2);
        assert_int_equal(out.txn_ext.data[out.start.data[i] + 1], 1);
        assert_int_equal(out.txn_ext.data[out.start.data[i] + 2], 4);
        incr_order_free(&out);
    }
    /* the engines dropped at the end (--follow's final report): the same
     * orders, from the values kept; a check after that falls back */
    incr_order before[2];
    for (int lv = 0; lv < 2; lv++) assert_true(incr_export_order(ic, lv, &before[lv]));
    assert_true(incr_drop_engines(ic));
    for (int lv = 0; lv < 2; lv++) {
        incr_order out;
        assert_true(incr_export_order(ic, lv, &out));
        assert_int_equal(out.txn_ext.len, before[lv].txn_ext.len);
        assert_memory_equal(out.txn_ext.data, before[lv].txn_ext.data, out.txn_ext.len * sizeof *out.txn_ext.data);
        assert_memory_equal(out.key_ext.data, before[lv].key_ext.data, out.key_ext.len * sizeof *out.key_ext.data);
        version_order vo;
        memset(&vo, 0, sizeof vo);
        assert_true(incr_version_order(ic, h, lv, &vo));
        char why[200] = "";
        assert_int_equal(vo_check(h, &vo, lv == LEVEL_SI, NULL, why, sizeof why), 1);
        version_order_free(&vo);
        incr_order_free(&out);
        incr_order_free(&before[lv]);
    }
    uint32_t num2, fresh2;
    assert_int_equal(incr_check_added(ic, &num2, &fresh2), INCR_FALLBACK);
    incr_free(ic);
    history_free(h);
}

/* A transaction id stored twice makes the incremental path fall back (the
 * batch check then reports it), whatever sessions the two come from. */
static void test_txn_id_twice(void **state) {
    (void)state;
    incr_check *ic = incr_new(1, 0);
    incr_add_key(ic, 7);
    incr_op w1 = { OP_WRITE, 0, 1, 1 }, w2 = { OP_WRITE, 0, 2, 2 }, w3 = { OP_WRITE, 0, 3, 3 };
    incr_txn a = { 5, 1, TXN_COMMITTED, &w1, 1 }, b = { 6, 2, TXN_COMMITTED, &w2, 1 }, c = { 5, 3, TXN_COMMITTED, &w3, 1 };
    assert_true(incr_add_txn(ic, &a));
    assert_true(incr_add_txn(ic, &b));
    assert_false(incr_add_txn(ic, &c));
    assert_non_null(strstr(incr_why(ic), "appears twice"));
    uint32_t num, fresh;
    assert_int_equal(incr_check_added(ic, &num, &fresh), INCR_FALLBACK);
    incr_free(ic);
}

/* A value written twice to one key makes the incremental path fall back,
 * wherever the first write sits in the write index: the index starts at 16
 * slots and doubles as n grows, so for some n the first write is still in
 * the old table, waiting to be moved, when the second one comes. */
static void test_value_written_twice(void **state) {
    (void)state;
    for (uint32_t n = 1; n <= 300; n++)
        for (uint32_t first = 0; first < n; first += n / 2 + 1) {
            incr_check *ic = incr_new(1, 0);
            incr_add_key(ic, 7);
            for (uint32_t i = 0; i < n; i++) {
                incr_op w = { OP_WRITE, 0, (int64_t)i + 1, i + 1 };
                incr_txn t = { (int64_t)i + 1, 1, TXN_COMMITTED, &w, 1 };
                assert_true(incr_add_txn(ic, &t));
            }
            incr_op again = { OP_WRITE, 0, (int64_t)first + 1, n + 1 };
            incr_txn t = { (int64_t)n + 1, 1, TXN_COMMITTED, &again, 1 };
            assert_false(incr_add_txn(ic, &t));
            assert_non_null(strstr(incr_why(ic), "written twice"));
            incr_free(ic);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simulator_prefixes),
        cmocka_unit_test(test_simulator_shuffled),
        cmocka_unit_test(test_simulator_longer),
        cmocka_unit_test(test_many_sessions),
        cmocka_unit_test(test_engine_thread),
        cmocka_unit_test(test_ops_freed),
        cmocka_unit_test(test_window_after_free),
        cmocka_unit_test(test_hand_pivot),
        cmocka_unit_test(test_hand_shared_bits),
        cmocka_unit_test(test_hand_frontier),
        cmocka_unit_test(test_hand_implied),
        cmocka_unit_test(test_wide_values),
        cmocka_unit_test(test_bulk_writer),
        cmocka_unit_test(test_library_grows),
        cmocka_unit_test(test_order_against_arrival),
        cmocka_unit_test(test_txn_id_twice),
        cmocka_unit_test(test_value_written_twice),
        cmocka_unit_test(test_list_prefixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
