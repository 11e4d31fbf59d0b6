/* test_workload.c — the workload generator and MVCC simulator: determinism,
 * parameters, unique values, level guarantees checked by small independent
 * checks on the recorded history, faults that manifest, and every format
 * gen writes parsing back to the same model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vec.h"
#include "frontend/formats/parse.h"
#include "frontend/history/u64map.h"
#include "frontend/formats/write.h"
#include "workload/gen_writer.h"
#include "workload/spool.h"
#include "workload/workload.h"
#include "history_helpers.h"

/* ---- a sink that keeps everything (for the independent checks) ---- */
typedef struct cap_txn { uint32_t session, first, n; int committed; } cap_txn;
typedef struct capture { VEC(cap_txn) txns; VEC(sim_op) ops; } capture;

static int cap_txn_fn(void *ctx, uint32_t session, uint32_t pos, int64_t id, int committed,
                      const sim_op *ops, uint32_t n, ic_error *err) {
    (void)pos; (void)id; (void)err;
    capture *c = ctx;
    cap_txn t = { session, (uint32_t)c->ops.len, n, committed };
    vec_push(c->txns, t);
    for (uint32_t i = 0; i < n; i++) vec_push(c->ops, ops[i]);
    return 1;
}

static sim_truth run_capture(const workload_params *p, capture *c) {
    vec_init(c->txns); vec_init(c->ops);
    sim_sink sink = { c, cap_txn_fn };
    sim_truth t;
    ic_error err; ic_error_clear(&err);
    assert_true(sim_run(p, &sink, &t, NULL, NULL, &err));
    return t;
}

static void cap_free(capture *c) { vec_free(c->txns); vec_free(c->ops); }

static workload_params small(sim_level level, sim_fault fault) {
    workload_params p;
    workload_defaults(&p);
    p.sessions = 8; p.txns_per_session = 60; p.ops_per_txn = 8; p.keys = 200;
    p.level = level; p.fault = fault;
    p.seed = 7;
    return p;
}

/* ---- temporary files ---- */
static char tmpdir[64];
static int setup_dir(void **state) {
    (void)state;
    strcpy(tmpdir, "/tmp/test_workload.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}
static int teardown_dir(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}
static const char *tpath(const char *name) {
    static char buf[4][256];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", tmpdir, name);
    return buf[i];
}

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len + 1);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

static void gen_stream(const workload_params *p, history_format fmt, const char *path) {
    ic_error err; ic_error_clear(&err);
    gen_writer *w = gen_writer_open(fmt, path, p, NULL, &err);
    assert_non_null(w);
    sim_sink sink = gen_writer_sink(w);
    sim_truth t;
    int ok = sim_run(p, &sink, &t, NULL, NULL, &err);
    assert_true(gen_writer_close(w, ok, &err));
}

static history *gen_model(const workload_params *p, int committed_only) {
    ic_error err; ic_error_clear(&err);
    model_sink *m = model_sink_new("gen", p->sessions, committed_only);
    sim_sink sink = model_sink_sink(m);
    sim_truth t;
    assert_true(sim_run(p, &sink, &t, NULL, NULL, &err));
    history *h = model_sink_finish(m, &err);
    if (!h) fail_msg("builder rejected the generated history: %s", err.msg);
    return h;
}

/* ---- tests ---- */

static void same_seed_same_bytes(void **state) {
    (void)state;
    workload_params p = small(SIM_SI, FAULT_NONE);
    for (int f = 0; f < 2; f++) {
        history_format fmt = f ? FORMAT_DBCOP : FORMAT_TEXT;
        gen_stream(&p, fmt, tpath("a"));
        gen_stream(&p, fmt, tpath("b"));
        p.seed = 8;
        gen_stream(&p, fmt, tpath("c"));
        p.seed = 7;
        size_t na, nb, nc;
        unsigned char *a = slurp(tpath("a"), &na), *b = slurp(tpath("b"), &nb), *c = slurp(tpath("c"), &nc);
        assert_true(na > 1000);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
        assert_true(na != nc || memcmp(a, c, na) != 0);
        free(a); free(b); free(c);
    }
}

static void counts_and_read_fraction(void **state) {
    (void)state;
    for (int retry = 0; retry < 2; retry++) {
        workload_params p = small(SIM_SI, FAULT_NONE);
        p.retry = retry;
        p.read_fraction = 0.3;
        p.long_fraction = 0.1; p.long_ops = 40;
        capture c;
        sim_truth t = run_capture(&p, &c);
        uint64_t committed[8] = { 0 }, attempts = 0, longs = 0, reads = 0, ops = 0;
        vec_foreach(cap_txn, x, c.txns) {
            attempts++;
            committed[x->session] += (uint64_t)x->committed;
            assert_true(x->n == 8 || x->n == 40);
            if (retry && !x->committed) continue;   /* retries repeat long, write-heavy programs more */
            longs += x->n == 40;
            for (uint32_t i = 0; i < x->n; i++) reads += !c.ops.data[x->first + i].write, ops++;
        }
        assert_int_equal(t.txns, attempts);
        assert_int_equal(t.committed + t.aborted, attempts);
        if (!retry) assert_int_equal(t.ops, ops);
        if (retry) {
            for (int s = 0; s < 8; s++) assert_int_equal(committed[s], 60);
            assert_true(t.aborted > 0);
        } else {
            assert_int_equal(attempts, 8 * 60);
        }
        double rf = (double)reads / (double)ops, lf = (double)longs / (double)(retry ? t.committed : attempts);
        assert_true(fabs(rf - 0.3) < 0.03);
        assert_true(fabs(lf - 0.1) < 0.04);
        cap_free(&c);
    }
}

static void key_distributions(void **state) {
    (void)state;
    enum { N = 200000, K = 1000 };
    uint32_t *cnt = calloc(K, sizeof *cnt);
    rng r;
    keydist d;
    /* uniform: every key near N/K */
    rng_seed(&r, 1, 1);
    keydist_init(&d, KEYDIST_UNIFORM, K, 0);
    for (int i = 0; i < N; i++) cnt[keydist_sample(&d, &r)]++;
    for (int k = 0; k < K; k++) assert_true(cnt[k] > 120 && cnt[k] < 290);
    keydist_free(&d);
    /* zipf s=1: P(key k) = 1/((k+1) H_K) */
    memset(cnt, 0, K * sizeof *cnt);
    keydist_init(&d, KEYDIST_ZIPF, K, 1.0);
    for (int i = 0; i < N; i++) cnt[keydist_sample(&d, &r)]++;
    double H = 0;
    for (int k = 1; k <= K; k++) H += 1.0 / k;
    for (int k = 0; k < 4; k++) assert_true(fabs(cnt[k] / (double)N - 1.0 / ((k + 1) * H)) < 0.01);
    assert_true(cnt[0] > 1.8 * cnt[1] && cnt[1] > 1.3 * cnt[2]);
    keydist_free(&d);
    /* hotspot: 80% on the first 20% */
    memset(cnt, 0, K * sizeof *cnt);
    keydist_init(&d, KEYDIST_HOTSPOT, K, 0);
    uint64_t hot = 0;
    for (int i = 0; i < N; i++) hot += keydist_sample(&d, &r) < K / 5;
    assert_true(fabs(hot / (double)N - 0.8) < 0.01);
    keydist_free(&d);
    free(cnt);
}

static void written_values_unique(void **state) {
    (void)state;
    workload_params p = small(SIM_RC, FAULT_INTERMEDIATE_READ);
    p.fault_rate = 0.5;
    capture c;
    run_capture(&p, &c);
    u64map seen; u64map_init(&seen);
    uint64_t writes = 0;
    vec_foreach(sim_op, o, c.ops)
        if (o->write) {
            assert_true(o->value > 0);
            assert_int_equal(u64map_get(&seen, (uint64_t)o->value), UINT32_MAX);
            u64map_put(&seen, (uint64_t)o->value, 1);
            writes++;
        }
    assert_true(writes > 1000);
    u64map_free(&seen);
    cap_free(&c);
}

/* Independent lost-update check: two committed transactions that both read
 * value v of key k (as their first access to k) and both wrote k. */
static uint64_t count_lost_updates(const capture *c) {
    u64map first_rmw;            /* (key, value read) -> already seen */
    u64map_init(&first_rmw);
    uint64_t lost = 0;
    vec_foreach(cap_txn, x, c->txns) {
        if (!x->committed) continue;
        const sim_op *o = c->ops.data + x->first;
        for (uint32_t i = 0; i < x->n; i++) {
            if (o[i].write) continue;
            int first = 1, wrote = 0;
            for (uint32_t j = 0; j < i; j++) if (o[j].key == o[i].key) first = 0;
            for (uint32_t j = i + 1; j < x->n; j++) if (o[j].key == o[i].key && o[j].write) wrote = 1;
            if (!first || !wrote) continue;
            uint64_t h = (uint64_t)o[i].key * 0x9e3779b97f4a7c15ULL ^ (uint64_t)o[i].value;
            if (u64map_get(&first_rmw, h) != UINT32_MAX) lost++;
            else u64map_put(&first_rmw, h, 1);
        }
    }
    u64map_free(&first_rmw);
    return lost;
}

/* Independent SI witness with commit order as version order: every
 * committed transaction's external reads all hold in one prefix of the
 * commit order that includes its session's earlier commits.  Returns the
 * number of transactions for which no such prefix exists. */
static uint64_t count_si_witness_failures(const capture *c, uint32_t sessions, int writers_at_commit) {
    /* Installed versions in commit order: a committed txn's last write per key. */
    typedef struct inst { int64_t key, value; uint32_t pos; } inst;
    VEC(inst) installs; vec_init(installs);
    u64map at;                   /* value -> commit position (1-based) that installed it */
    u64map_init(&at);
    uint32_t pos = 0;
    int64_t maxkey = 0;
    vec_foreach(cap_txn, x, c->txns) {
        if (!x->committed) continue;
        pos++;
        const sim_op *o = c->ops.data + x->first;
        for (uint32_t i = 0; i < x->n; i++) {
            if (!o[i].write) continue;
            int last = 1;
            for (uint32_t j = i + 1; j < x->n; j++) if (o[j].write && o[j].key == o[i].key) last = 0;
            if (!last) continue;
            inst in = { o[i].key, o[i].value, pos };
            vec_push(installs, in);
            u64map_put(&at, (uint64_t)o[i].value, pos);
            if (o[i].key > maxkey) maxkey = o[i].key;
        }
    }
    /* value -> position of its key's next version; key -> first version's position */
    u64map next_of, init_next;
    u64map_init(&next_of); u64map_init(&init_next);
    uint32_t *latest = malloc(((size_t)maxkey + 1) * sizeof *latest);
    for (int64_t k = 0; k <= maxkey; k++) latest[k] = UINT32_MAX;
    for (size_t i = 0; i < installs.len; i++) {
        uint32_t prev = latest[installs.data[i].key];
        if (prev != UINT32_MAX) u64map_put(&next_of, (uint64_t)installs.data[prev].value, installs.data[i].pos);
        else u64map_put(&init_next, (uint64_t)installs.data[i].key, installs.data[i].pos);
        latest[installs.data[i].key] = (uint32_t)i;
    }
    free(latest);
    uint32_t *session_last = calloc(sessions, sizeof *session_last);
    uint64_t failures = 0;
    pos = 0;
    vec_foreach(cap_txn, x, c->txns) {
        if (!x->committed) continue;
        pos++;
        uint32_t lo = session_last[x->session], hi = pos - 1;   /* prefix length in [lo, hi] */
        const sim_op *o = c->ops.data + x->first;
        int reads_only = 1;
        for (uint32_t i = 0; i < x->n; i++) if (o[i].write) reads_only = 0;
        for (uint32_t i = 0; i < x->n; i++) {
            if (o[i].write) continue;
            int own = 0;
            for (uint32_t j = 0; j < i; j++) if (o[j].key == o[i].key) own = 1;
            if (own) continue;
            uint32_t from, until;
            if (o[i].value == 0) {
                from = 0;
                until = u64map_get(&init_next, (uint64_t)o[i].key);
            } else {
                from = u64map_get(&at, (uint64_t)o[i].value);
                if (from == UINT32_MAX) { lo = 1; hi = 0; break; }   /* aborted / intermediate */
                until = u64map_get(&next_of, (uint64_t)o[i].value);
            }
            /* value holds in prefixes of length [from, until - 1] */
            if (from > lo) lo = from;
            if (until != UINT32_MAX && until - 1 < hi) hi = until - 1;
        }
        /* ser: a writer's reads must hold just before its commit */
        if (writers_at_commit && !reads_only && hi != pos - 1) lo = hi + 1;
        if (lo > hi) failures++;
        session_last[x->session] = pos;
    }
    free(session_last);
    vec_free(installs);
    u64map_free(&at); u64map_free(&next_of); u64map_free(&init_next);
    return failures;
}

static void levels_keep_their_guarantees(void **state) {
    (void)state;
    for (int hot = 0; hot < 2; hot++) {
        workload_params p = small(SIM_SI, FAULT_NONE);
        if (hot) { p.keys = 20; p.read_fraction = 0.5; }
        capture c;
        /* si: no lost update, SI witness holds for every transaction */
        sim_truth t = run_capture(&p, &c);
        assert_int_equal(count_lost_updates(&c), 0);
        assert_int_equal(count_si_witness_failures(&c, p.sessions, 0), 0);
        assert_int_equal(t.manifested, 0);
        cap_free(&c);
        /* ser: writers' reads hold at their commit point */
        p.level = SIM_SER;
        run_capture(&p, &c);
        assert_int_equal(count_lost_updates(&c), 0);
        assert_int_equal(count_si_witness_failures(&c, p.sessions, 1), 0);
        cap_free(&c);
        /* rc on a hot key set: lost updates happen (RC allows them) */
        if (hot) {
            p.level = SIM_RC;
            run_capture(&p, &c);
            assert_true(count_lost_updates(&c) > 0);
            assert_true(count_si_witness_failures(&c, p.sessions, 0) > 0);
            cap_free(&c);
        }
    }
}

static void lost_update_fault_manifests(void **state) {
    (void)state;
    workload_params p = small(SIM_SI, FAULT_LOST_UPDATE);
    p.keys = 20; p.fault_rate = 0.5;
    capture c;
    sim_truth t = run_capture(&p, &c);
    assert_true(t.faulted_txns > 0);
    assert_true(t.lost_updates > 0);
    assert_true(t.concurrent_overwrites >= t.lost_updates);
    assert_int_equal(t.manifested, t.concurrent_overwrites);
    uint64_t seen = count_lost_updates(&c);
    assert_true(seen > 0);
    assert_true(seen <= t.lost_updates);
    cap_free(&c);
}

static void snapshot_faults_manifest(void **state) {
    (void)state;
    sim_fault faults[] = { FAULT_CAUSALITY, FAULT_LONG_FORK };
    for (int i = 0; i < 2; i++) {
        workload_params p = small(SIM_SI, faults[i]);
        p.keys = 50; p.fault_rate = 0.5; p.read_fraction = 0.7;
        capture c;
        sim_truth t = run_capture(&p, &c);
        assert_true(t.stale_reads > 0);
        assert_int_equal(t.manifested, t.stale_reads);
        assert_true(count_si_witness_failures(&c, p.sessions, 0) > 0);
        cap_free(&c);
        p.fault_rate = 0;            /* rate 0: the level's guarantees again */
        t = run_capture(&p, &c);
        assert_int_equal(t.stale_reads, 0);
        assert_int_equal(count_si_witness_failures(&c, p.sessions, 0), 0);
        cap_free(&c);
    }
}

static void dirty_read_faults_manifest(void **state) {
    (void)state;
    for (int i = 0; i < 2; i++) {
        workload_params p = small(SIM_SI, i ? FAULT_INTERMEDIATE_READ : FAULT_ABORTED_READ);
        p.keys = 20; p.fault_rate = 0.5;
        capture c;
        sim_truth t = run_capture(&p, &c);
        /* independently: values written by aborted txns / overwritten in their txn */
        u64map aborted_w, inter_w;
        u64map_init(&aborted_w); u64map_init(&inter_w);
        vec_foreach(cap_txn, x, c.txns) {
            const sim_op *o = c.ops.data + x->first;
            for (uint32_t a = 0; a < x->n; a++) {
                if (!o[a].write) continue;
                if (!x->committed) u64map_put(&aborted_w, (uint64_t)o[a].value, 1);
                for (uint32_t b = a + 1; b < x->n; b++)
                    if (x->committed && o[b].write && o[b].key == o[a].key) { u64map_put(&inter_w, (uint64_t)o[a].value, 1); break; }
            }
        }
        uint64_t ar = 0, ir = 0;
        vec_foreach(cap_txn, x, c.txns) {
            const sim_op *o = c.ops.data + x->first;
            for (uint32_t a = 0; a < x->n; a++) {
                if (o[a].write || o[a].value == 0) continue;
                int own = 0;
                for (uint32_t b = 0; b < a; b++) if (o[b].write && o[b].value == o[a].value) own = 1;
                if (own) continue;
                ar += u64map_get(&aborted_w, (uint64_t)o[a].value) != UINT32_MAX;
                ir += u64map_get(&inter_w, (uint64_t)o[a].value) != UINT32_MAX;
            }
        }
        if (i == 0) { assert_true(t.aborted_reads > 0); assert_true(ar >= t.aborted_reads); assert_int_equal(t.manifested, t.aborted_reads); }
        else {
            /* the fault's dirty reads whose writer then aborted are aborted
             * reads: manifested too (issue 30: "manifested": 0 beside
             * "aborted_reads": 1 for a history that fails) */
            assert_true(t.intermediate_reads > 0); assert_true(ir >= t.intermediate_reads);
            assert_true(t.aborted_reads > 0); assert_true(ar >= t.aborted_reads);
            assert_int_equal(t.manifested, t.intermediate_reads + t.aborted_reads);
        }
        u64map_free(&aborted_w); u64map_free(&inter_w);
        cap_free(&c);
    }
}

/* ---- formats: everything gen writes parses back to the same model ---- */
static void assert_same_history(const char *what, const history *a, const history *b, int reads_of_aborted) {
    assert_int_equal(a->num_sessions, b->num_sessions);
    assert_int_equal(a->num_txns, b->num_txns);
    for (uint32_t s = 0; s < a->num_sessions; s++) {
        /* sessions match by id (text creates them in order of appearance) */
        const history_session *sa = &a->sessions[s], *sb = NULL;
        for (uint32_t u = 0; u < b->num_sessions; u++)
            if (b->format == FORMAT_COBRA ? u == s : b->sessions[u].ext_id == sa->ext_id) sb = &b->sessions[u];
        assert_non_null(sb);
        assert_int_equal(sa->num_txns, sb->num_txns);
        for (uint32_t i = 0; i < sa->num_txns; i++) {
            const history_txn *ta = &a->txns[sa->first_txn + i], *tb = &b->txns[sb->first_txn + i];
            assert_int_equal(ta->status, tb->status);
            uint32_t ia = ta->first_op, ib = tb->first_op, ea = ia + ta->num_ops, eb = ib + tb->num_ops;
            int skip_reads = ta->status == TXN_ABORTED && !reads_of_aborted;
            for (;;) {
                if (skip_reads) {
                    while (ia < ea && history_op_kind(a, ia) == OP_READ) ia++;
                    while (ib < eb && history_op_kind(b, ib) == OP_READ) ib++;
                }
                if (ia == ea || ib == eb) break;
                if (history_op_kind(a, ia) != history_op_kind(b, ib) || a->key_ext[a->op_key[ia]] != b->key_ext[b->op_key[ib]] ||
                    history_op_value(a, ia) != history_op_value(b, ib))
                    fail_msg("%s: session %u txn %u: op %u differs: %d %lld %lld vs %d %lld %lld", what, s, i, ia - ta->first_op,
                             history_op_kind(a, ia), (long long)a->key_ext[a->op_key[ia]], (long long)history_op_value(a, ia),
                             history_op_kind(b, ib), (long long)b->key_ext[b->op_key[ib]], (long long)history_op_value(b, ib));
                ia++; ib++;
            }
            assert_int_equal(ia, ea);
            assert_int_equal(ib, eb);
        }
    }
}

static void formats_parse_back(void **state) {
    (void)state;
    workload_params p = small(SIM_SI, FAULT_ABORTED_READ);
    p.keys = 30; p.fault_rate = 0.3;      /* aborted transactions and aborted reads */
    ic_error err; ic_error_clear(&err);
    history *model = gen_model(&p, 0), *committed = gen_model(&p, 1);
    assert_true(model->num_txns > committed->num_txns);

    gen_stream(&p, FORMAT_TEXT, tpath("h.txt"));
    gen_stream(&p, FORMAT_DBCOP, tpath("h.dbcop"));
    assert_true(history_write(model, FORMAT_COBRA, tpath("cobra"), &err));
    assert_true(history_write(model, FORMAT_ELLE, tpath("h.edn"), &err));
    assert_true(history_write(model, FORMAT_DBCOP, tpath("h2.dbcop"), &err));

    history *h = load_history(tpath("h.txt"), FORMAT_AUTO, &err);
    if (!h) fail_msg("%s", err.msg);
    assert_int_equal(h->format, FORMAT_TEXT);
    assert_same_history("text", committed, h, 1);
    history_free(h);
    const char *others[] = { "h.dbcop", "cobra", "h.edn" };
    for (int i = 0; i < 3; i++) {
        h = load_history(tpath(others[i]), FORMAT_AUTO, &err);
        if (!h) fail_msg("%s: %s", others[i], err.msg);
        assert_same_history(others[i], model, h, i != 2);      /* elle drops reads of :fail */
        history_free(h);
    }
    /* the streaming dbcop writer and frontend/formats/write_dbcop.c agree byte for byte */
    size_t n1, n2;
    unsigned char *d1 = slurp(tpath("h.dbcop"), &n1), *d2 = slurp(tpath("h2.dbcop"), &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(d1, d2, n1);
    free(d1); free(d2);
    history_free(model);
    history_free(committed);
}

/* Many streams with tiny buffers: every stream comes back byte for byte,
 * across chunk boundaries and interleaved flushes. */
static void spool_keeps_streams_apart(void **state) {
    (void)state;
    enum { N = 7, BYTES = 5000 };
    ic_error err; ic_error_clear(&err);
    spool *sp = spool_new(N, tmpdir, 64, &err);
    assert_non_null(sp);
    unsigned char *want[N];
    size_t len[N] = { 0 };
    rng r; rng_seed(&r, 3, 3);
    for (int i = 0; i < N; i++) want[i] = malloc(BYTES);
    for (;;) {
        int s = (int)rng_below(&r, N);
        size_t n = 1 + rng_below(&r, 150);
        if (len[s] + n > BYTES) break;
        unsigned char chunk[150];
        for (size_t j = 0; j < n; j++) chunk[j] = (unsigned char)(s * 31 + len[s] + j);
        spool_write(sp, (unsigned)s, chunk, n);
        memcpy(want[s] + len[s], chunk, n);
        len[s] += n;
    }
    assert_true(spool_ok(sp));
    for (int i = N - 1; i >= 0; i--) {            /* any order */
        char *buf; size_t blen;
        FILE *f = open_memstream(&buf, &blen);
        assert_true(spool_copy(sp, (unsigned)i, f));
        fclose(f);
        assert_int_equal(blen, len[i]);
        assert_memory_equal(buf, want[i], len[i]);
        free(buf);
        free(want[i]);
    }
    spool_free(sp);
}

static void bad_params_rejected(void **state) {
    (void)state;
    workload_params p;
    ic_error err;
    workload_defaults(&p);
    assert_true(workload_preset(&p, "general-wh"));
    assert_int_equal(p.sessions, 25); assert_int_equal(p.txns_per_session, 400); assert_int_equal(p.ops_per_txn, 8);
    assert_true(fabs(p.read_fraction - 0.3) < 1e-9);
    assert_int_equal(p.dist, KEYDIST_UNIFORM);
    assert_false(workload_preset(&p, "nope"));
    ic_error_clear(&err); assert_true(workload_validate(&p, &err));
    p.read_fraction = 1.5;
    ic_error_clear(&err); assert_false(workload_validate(&p, &err));
    assert_non_null(strstr(err.msg, "read fraction"));
    workload_defaults(&p); p.sessions = 0;
    ic_error_clear(&err); assert_false(workload_validate(&p, &err));
    assert_int_equal(sim_fault_parse("long-fork"), FAULT_LONG_FORK);
    assert_int_equal(sim_fault_parse("bogus"), -1);
    assert_int_equal(sim_level_parse("rc"), SIM_RC);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_same_bytes),
        cmocka_unit_test(counts_and_read_fraction),
        cmocka_unit_test(key_distributions),
        cmocka_unit_test(written_values_unique),
        cmocka_unit_test(levels_keep_their_guarantees),
        cmocka_unit_test(lost_update_fault_manifests),
        cmocka_unit_test(snapshot_faults_manifest),
        cmocka_unit_test(dirty_read_faults_manifest),
        cmocka_unit_test(formats_parse_back),
        cmocka_unit_test(spool_keeps_streams_apart),
        cmocka_unit_test(bad_params_rejected),
    };
    return cmocka_run_group_tests_name("workload", tests, setup_dir, teardown_dir);
}
