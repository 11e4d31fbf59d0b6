/* test_list_diff.c — differential test of the checker on list-append (and
 * register) histories against the replaying oracle of tests/brute_list.h,
 * which shares no code with the checker.
 *
 * Thousands of random small histories (2-5 transactions, and 4-7 in a
 * larger tier; 1-3 keys, mostly lists, some registers) with reads before and after the transaction's own
 * appends and writes, aborted (:fail) and indeterminate (:info)
 * transactions.  Reads come from a random execution (serial, snapshot, or
 * arbitrary snapshots) in which each :info transaction did or did not
 * commit; some reads are then deliberately corrupted.  Most histories are
 * written as Elle EDN text and loaded by the real Elle reader; some are
 * built directly so that :info transactions keep their reads.
 *
 * Per history and level (SI, SER), as isocheck check does: the axioms
 * first (a violation must be a FAIL for the oracle too), then the checker.
 * The verdict must equal the oracle's.  A PASS must come with a version
 * order vo_check() accepts and a certificate that survives writing,
 * reading and cert_verify(); a FAIL with a cycle cycle_holds() confirms.
 * Then shuffled version orders: cert_build() may accept one only when the
 * oracle says PASS, and exactly when vo_check() does (two independent
 * by-definition checks of the same claim). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/checking/axioms.h"
#include "frontend/reports/cert_build.h"
#include "frontend/reports/cert_file.h"
#include "frontend/checking/check.h"
#include "frontend/recheck/verify_model.h"
#include "frontend/formats/parse.h"
#include "tests/brute_list.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {          /* xorshift64*, uniform-ish in [0, n) */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

/* ---- random histories ------------------------------------------------------ */

enum { MAXT = 7, MAXOPS = 4, MAXK = 3, MAXL = 32 };
enum { ST_OK, ST_FAIL, ST_INFO };

typedef struct gop {
    int write, key;
    int64_t value;                 /* written value; register read value (0: init) */
    int n; int64_t list[MAXL];     /* list read */
} gop;
typedef struct gtxn { int proc, status, nops, ran; gop ops[MAXOPS]; } gtxn;
typedef struct ghist { int ntx, nkeys, is_list[MAXK]; gtxn t[MAXT]; } ghist;

typedef struct gstore { int64_t reg[MAXK]; int n[MAXK]; int64_t el[MAXK][MAXL]; } gstore;

static void g_apply(const ghist *g, const gtxn *t, gstore *s) {
    for (int i = 0; i < t->nops; i++) {
        const gop *o = &t->ops[i];
        if (!o->write) continue;
        if (g->is_list[o->key]) { if (s->n[o->key] < MAXL) s->el[o->key][s->n[o->key]++] = o->value; }
        else s->reg[o->key] = o->value;
    }
}

/* Fill t's reads from state *from plus its own effects. */
static void g_read(const ghist *g, gtxn *t, const gstore *from) {
    gstore s = *from;
    for (int i = 0; i < t->nops; i++) {
        gop *o = &t->ops[i];
        if (o->write) {
            if (g->is_list[o->key]) { if (s.n[o->key] < MAXL) s.el[o->key][s.n[o->key]++] = o->value; }
            else s.reg[o->key] = o->value;
        } else if (g->is_list[o->key]) {
            o->n = s.n[o->key];
            memcpy(o->list, s.el[o->key], sizeof o->list);
        } else o->value = s.reg[o->key];
    }
}

/* Break one read of a committed transaction on purpose. */
static void g_corrupt(ghist *g) {
    int cand[MAXT * MAXOPS][2], nc = 0;
    for (int i = 0; i < g->ntx; i++)
        for (int j = 0; j < g->t[i].nops; j++)
            if (!g->t[i].ops[j].write && g->t[i].status != ST_FAIL) { cand[nc][0] = i; cand[nc][1] = j; nc++; }
    if (!nc) return;
    int c = (int)rnd((uint32_t)nc);
    gop *o = &g->t[cand[c][0]].ops[cand[c][1]];
    /* some value appended or written to this key by anyone (maybe aborted) */
    int64_t other[MAXT * MAXOPS]; int no = 0;
    for (int i = 0; i < g->ntx; i++)
        for (int j = 0; j < g->t[i].nops; j++)
            if (g->t[i].ops[j].write && g->t[i].ops[j].key == o->key) other[no++] = g->t[i].ops[j].value;
    if (!g->is_list[o->key]) { o->value = no && rnd(4) ? other[rnd((uint32_t)no)] : 0; return; }
    switch (rnd(4)) {
    case 0: if (o->n) o->n--; break;                                       /* drop the last element */
    case 1: if (o->n) { memmove(o->list, o->list + 1, (size_t)(o->n - 1) * sizeof *o->list); o->n--; } break;
    case 2: if (o->n >= 2) { int i = (int)rnd((uint32_t)o->n - 1); int64_t x = o->list[i]; o->list[i] = o->list[i + 1]; o->list[i + 1] = x; } break;
    default:                                                               /* an element that is not there */
        if (no && o->n < MAXL) {
            int64_t v = other[rnd((uint32_t)no)];
            int dup = 0;
            for (int i = 0; i < o->n; i++) dup |= o->list[i] == v;
            if (!dup) o->list[o->n++] = v;
        }
    }
}

static int larger;           /* 4-7 transactions instead of 2-5 */

static void random_ghist(ghist *g) {
    memset(g, 0, sizeof *g);
    int nproc = 1 + (int)rnd(3);
    g->ntx = larger ? 4 + (int)rnd(4) : 2 + (int)rnd(4);
    g->nkeys = 1 + (int)rnd(3);
    for (int k = 0; k < g->nkeys; k++) g->is_list[k] = rnd(5) != 0;
    int64_t next = 1;
    for (int i = 0; i < g->ntx; i++) {
        gtxn *t = &g->t[i];
        t->proc = (int)rnd((uint32_t)nproc);
        uint32_t st = rnd(10);
        t->status = st < 7 ? ST_OK : st < 8 ? ST_FAIL : ST_INFO;
        t->nops = 1 + (int)rnd(MAXOPS);
        for (int j = 0; j < t->nops; j++) {
            gop *o = &t->ops[j];
            if (j && t->ops[j - 1].write && rnd(2)) { o->key = t->ops[j - 1].key; o->write = 0; continue; }  /* read own append */
            o->key = (int)rnd((uint32_t)g->nkeys);
            o->write = rnd(2);
            if (o->write) o->value = next++;
        }
        t->ran = t->status == ST_OK || (t->status == ST_INFO && rnd(2));
    }
    if (g->t[0].status != ST_OK && g->t[1].status != ST_OK) { g->t[0].status = ST_OK; g->t[0].ran = 1; }   /* not empty */
    /* an execution: the transactions that ran, in a commit order that keeps
     * each process's order, each reading a snapshot of some prefix of it */
    int order[MAXT], n = 0, placed[MAXT] = { 0 };
    for (int left = 0; left < g->ntx; left++) {
        int ready[MAXT], nr = 0;
        for (int i = 0; i < g->ntx; i++) {
            if (placed[i]) continue;
            int ok = 1;
            for (int j = 0; j < i; j++) if (!placed[j] && g->t[j].proc == g->t[i].proc) ok = 0;
            if (ok) ready[nr++] = i;
        }
        int c = ready[rnd((uint32_t)nr)];
        placed[c] = 1;
        order[n++] = c;
    }
    uint32_t r = rnd(10), mode = r < 2 ? 0 : r < 5 ? 1 : 2;   /* 0 serial, 1 snapshots after the process's last commit, 2 any */
    gstore states[MAXT + 1];
    memset(&states[0], 0, sizeof states[0]);
    int pos = 0, last_commit[3] = { -1, -1, -1 };
    for (int i = 0; i < n; i++) {
        gtxn *t = &g->t[order[i]];
        int lo = mode == 1 ? last_commit[t->proc] + 1 : 0;
        int s = mode == 0 ? pos : lo + (int)rnd((uint32_t)(pos - lo + 1));
        g_read(g, t, &states[s]);
        states[pos + 1] = states[pos];
        if (t->ran) { g_apply(g, t, &states[pos + 1]); last_commit[t->proc] = pos; pos++; }
    }
    uint32_t bad = rnd(10);
    if (bad < 2) g_corrupt(g);
    if (bad == 0) g_corrupt(g);
}

/* Elle EDN, one completion per line. */
static char *ghist_edn(const ghist *g) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    static const char *type[] = { ":ok", ":fail", ":info" };
    for (int i = 0; i < g->ntx; i++) {
        const gtxn *t = &g->t[i];
        fprintf(f, "{:type %s, :f :txn, :process %d, :index %d, :value [", type[t->status], t->proc, i + 1);
        for (int j = 0; j < t->nops; j++) {
            const gop *o = &t->ops[j];
            if (j) fputc(' ', f);
            if (o->write) fprintf(f, "[%s %d %lld]", g->is_list[o->key] ? ":append" : ":w", o->key, (long long)o->value);
            else if (!g->is_list[o->key]) {
                if (o->value) fprintf(f, "[:r %d %lld]", o->key, (long long)o->value);
                else fprintf(f, "[:r %d nil]", o->key);
            } else {
                fprintf(f, "[:r %d [", o->key);
                for (int x = 0; x < o->n; x++) fprintf(f, x ? " %lld" : "%lld", (long long)o->list[x]);
                fputs("]]", f);
            }
        }
        fputs("]}\n", f);
    }
    fclose(f);
    return buf;
}

/* The same history through the builder, keeping the reads of :info
 * transactions (the Elle reader drops them). */
static history *ghist_build(const ghist *g) {
    history_builder *b = hb_new(FORMAT_SYNTHETIC, LOC_LINE, "built");
    uint32_t keys[MAXK];
    for (int k = 0; k < g->nkeys; k++) keys[k] = hb_key(b, k);
    for (int i = 0; i < g->ntx; i++) {
        const gtxn *t = &g->t[i];
        uint32_t bt = hb_txn(b, hb_session(b, t->proc, NULL), i + 1, (uint32_t)i + 1);
        hb_txn_status(b, bt, t->status == ST_OK ? TXN_COMMITTED : t->status == ST_FAIL ? TXN_ABORTED : TXN_INDETERMINATE);
        for (int j = 0; j < t->nops; j++) {
            const gop *o = &t->ops[j];
            if (o->write) hb_op(b, bt, g->is_list[o->key] ? OP_APPEND : OP_WRITE, keys[o->key], o->value, (uint32_t)i + 1);
            else if (g->is_list[o->key]) hb_list_read(b, bt, keys[o->key], o->list, (uint32_t)o->n, (uint32_t)i + 1);
            else hb_op(b, bt, OP_READ, keys[o->key], o->value ? o->value : VALUE_INIT, (uint32_t)i + 1);
        }
    }
    ic_error err; ic_error_clear(&err);
    history *h = hb_finish(b, &err);
    assert_non_null(h);
    return h;
}

/* ---- comparison -------------------------------------------------------------- */

typedef struct tally { int pass[2], fail[2], axioms, certs, shuffled, shuffled_ok, skipped, solved; } tally;

static void dump(const history *h, const char *what) {
    fprintf(stderr, "%s on:\n", what);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        fprintf(stderr, "  T%u s%u %s:", t, h->txns[t].session,
                h->txns[t].status == TXN_COMMITTED ? "ok" : h->txns[t].status == TXN_ABORTED ? "fail" : "info");
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            unsigned k = h->op_kind[op] & OP_KIND_MASK;
            if (k == OP_LIST_READ) {
                uint32_t n;
                const int64_t *l = history_list(h, op, &n);
                fprintf(stderr, " r(%u,[", h->op_key[op]);
                for (uint32_t i = 0; i < n; i++) fprintf(stderr, i ? " %lld" : "%lld", (long long)l[i]);
                fprintf(stderr, "])");
            } else {
                int64_t v = history_op_value(h, op);
                fprintf(stderr, " %s(%u,%lld)", k == OP_READ ? "r" : k == OP_WRITE ? "w" : "app", h->op_key[op],
                        v == VALUE_INIT ? 0LL : (long long)v);
            }
        }
        fprintf(stderr, "\n");
    }
}

/* Write, read back and verify a certificate; CERT_OK or why not in msg. */
static cert_status cert_round_trip(const history *h, const version_order *vo, int si, char *msg, size_t n) {
    certificate c;
    cert_init(&c);
    ic_error err; ic_error_clear(&err);
    cert_status st = cert_build(h, vo, si, &c, &err);
    if (st == CERT_OK) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        cert_write(f, h, &c);
        fclose(f);
        certificate back;
        cert_init(&back);
        input r;
        input_from_mem(&r, buf, len, "cert");
        st = cert_read(&r, h, &back, &err);
        input_close(&r);
        if (st == CERT_OK) st = cert_verify(h, &back, si, &err, NULL);
        if (st == CERT_OK && !si) st = cert_verify(h, &back, 1, &err, NULL);     /* SER proves SI too */
        cert_free(&back);
        free(buf);
    }
    snprintf(msg, n, "%s", err.msg);
    cert_free(&c);
    return st;
}

/* Shuffle each key's versions after INIT. */
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

static void compare(history *h, tally *tl) {
    int expect[2] = { brute_list_check(h, 1), brute_list_check(h, 0) };
    if (expect[0] < 0 || expect[1] < 0) { tl->skipped++; history_free(h); return; }
    anomaly_list al;
    anomaly_list_init(&al);
    uint64_t violations = axioms_check(h, &al, 1);
    if (violations && (expect[0] != 0 || expect[1] != 0)) {
        dump(h, "the axioms fail a history the oracle passes");
        fprintf(stderr, "  %s: %s\n", anomaly_name(al.items.data[0].kind), al.items.data[0].detail);
    }
    anomaly_list_free(&al);
    if (violations) {
        assert_int_equal(expect[0], 0);
        assert_int_equal(expect[1], 0);
        tl->axioms++; tl->fail[0]++; tl->fail[1]++;
        history_free(h);
        return;
    }
    ic_error err; ic_error_clear(&err);
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    for (int l = 0; l < 2; l++) {
        int si = l == 0;
        check_result res;
        verdict v = check_level(&ix, si ? LEVEL_SI : LEVEL_SER, NULL, &res);
        if (v == VERDICT_UNKNOWN || (v == VERDICT_PASS) != (expect[l] == 1)) {
            fprintf(stderr, "level %s: checker %s (%s), oracle %s\n", si ? "si" : "ser",
                    v == VERDICT_PASS ? "PASS" : v == VERDICT_FAIL ? "FAIL" : "ERROR", res.msg, expect[l] ? "PASS" : "FAIL");
            dump(h, "disagreement");
        }
        assert_int_not_equal(v, VERDICT_UNKNOWN);
        assert_int_equal(v == VERDICT_PASS, expect[l] == 1);
        tl->solved += res.st.solver_called;
        char why[300];
        if (v == VERDICT_PASS) {
            assert_int_equal(vo_check(h, &res.vo, si, NULL, why, sizeof why), 1);
            char msg[700];
            cert_status st = cert_round_trip(h, &res.vo, si, msg, sizeof msg);
            if (st != CERT_OK) { fprintf(stderr, "certificate rejected: %s\n", msg); dump(h, "bad certificate"); }
            assert_int_equal(st, CERT_OK);
            tl->certs++;
            tl->pass[l]++;
        } else {
            assert_true(res.cycle.len >= 1);
            assert_true(cycle_holds(h, &res.vo, si, res.cycle.data, res.cycle.len, why, sizeof why));
            tl->fail[l]++;
        }
        /* other version orders: a certificate only where the oracle passes,
         * and exactly where the independent re-check agrees */
        for (int r = 0; r < 3 && res.vo.start; r++) {
            version_order sv;
            shuffle_vo(&res.vo, &sv);
            char msg[700];
            cert_status st = cert_round_trip(h, &sv, si, msg, sizeof msg);
            int vc = vo_check(h, &sv, si, NULL, why, sizeof why);
            if ((st == CERT_OK) != (vc == 1) || (st == CERT_OK && expect[l] != 1)) {
                fprintf(stderr, "level %s: shuffled order: certificate %s (%s), vo_check %d (%s), oracle %d\n", si ? "si" : "ser",
                        st == CERT_OK ? "accepted" : "rejected", msg, vc, why, expect[l]);
                dump(h, "shuffled version order");
            }
            assert_int_equal(st == CERT_OK, vc == 1);
            if (st == CERT_OK) assert_int_equal(expect[l], 1);
            tl->shuffled++;
            tl->shuffled_ok += st == CERT_OK;
            version_order_free(&sv);
        }
        check_result_free(&res);
    }
    pg_index_free(&ix);
    history_free(h);
}

static void run(int histories, int built, uint64_t seed, tally *tl) {
    rng_state = seed;
    for (int i = 0; i < histories; i++) {
        ghist g;
        random_ghist(&g);
        history *h;
        if (built) h = ghist_build(&g);
        else {
            char *text = ghist_edn(&g);
            ic_error err; ic_error_clear(&err);
            h = load_history_mem(text, strlen(text), FORMAT_ELLE, "gen.edn", &err);
            if (!h) fprintf(stderr, "%s: %s\n%s", err.file, err.msg, text);
            assert_non_null(h);
            free(text);
        }
        compare(h, tl);
    }
}

static void report(const char *name, const tally *tl) {
    fprintf(stderr, "%s: SI %d pass %d fail, SER %d pass %d fail (%d by the axioms), %d certificates verified, "
            "%d shuffled orders (%d certified), %d skipped, %d solver calls\n", name, tl->pass[0], tl->fail[0], tl->pass[1], tl->fail[1],
            tl->axioms, tl->certs, tl->shuffled, tl->shuffled_ok, tl->skipped, tl->solved);
}

static void elle_histories_agree(void **state) {
    (void)state;
    tally tl; memset(&tl, 0, sizeof tl);
    run(3000, 0, 0x6a09e667f3bcc908ULL, &tl);
    report("elle", &tl);
    /* the generator must exercise every outcome */
    assert_true(tl.pass[0] > 300 && tl.pass[1] > 300);
    assert_true(tl.fail[0] - tl.axioms > 200 && tl.fail[1] - tl.axioms > 200);
    assert_true(tl.axioms > 100);
    assert_true(tl.pass[0] > tl.pass[1]);          /* some SI-only histories */
    assert_true(tl.shuffled_ok > 100);
}

static void built_histories_agree(void **state) {
    (void)state;
    tally tl; memset(&tl, 0, sizeof tl);
    run(1000, 1, 0xbb67ae8584caa73bULL, &tl);
    report("built (info reads kept)", &tl);
    assert_true(tl.pass[0] > 100 && tl.fail[0] - tl.axioms > 50);
}

/* 4-7 transactions: longer lists, more writers per key, more solver work. */
static void larger_histories_agree(void **state) {
    (void)state;
    tally tl; memset(&tl, 0, sizeof tl);
    larger = 1;
    run(1000, 0, 0x3c6ef372fe94f82bULL, &tl);
    larger = 0;
    report("larger elle", &tl);
    assert_true(tl.pass[0] > 100 && tl.fail[0] - tl.axioms > 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elle_histories_agree),
        cmocka_unit_test(built_histories_agree),
        cmocka_unit_test(larger_histories_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
