/* test_online_reach.c — the online check's reachability summaries
 * (frontend/online/reach_summary.h) against brute-force reachability.
 *
 * Random DAGs built the way frontend/online/incr.c builds its graph: nodes arrive
 * on sessions, each with its session predecessor and a few earlier nodes
 * it reads from (INIT and repeats among them); some arrive late (between
 * two of their session, no sequence number), sessions appear as the DAG
 * grows (rows widened while a block is open), some sessions are much
 * slower than others (a chain jumps by more than a byte within a block:
 * escaped entries), more sessions than chains (no chain).  The expected
 * summary of d on chain c is the highest sequence number on c among the
 * ancestors of d (a bitset closure over the edges at arrival, nothing
 * shared with the module's row arithmetic); every entry of every row is
 * compared, by reach_get and reach_row, and reach_reaches
 * asked around it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/online/reach_summary.h"

static uint64_t rng;
static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

typedef struct cfg {
    uint32_t nodes, sessions;
    int skewed;                  /* session i picked with weight 2^-(i mod 6): slow and fast chains */
    uint32_t late_pct;           /* of the arrivals on a session that has members */
    uint32_t far_pct;            /* of the sources: uniform over all earlier nodes (else among the last 100) */
    uint32_t new_sess_pct;       /* chance that an arrival opens the next session */
    uint32_t odd_prev_pct;       /* a numbered arrival whose predecessor is not its session's last (not what the incremental check does) */
} cfg;

typedef struct world {
    uint32_t n, words;
    uint64_t *anc;               /* n x words: ancestors of each node, itself included */
    vec_u32 sess, seq;           /* per node */
    vec_u32 chain;               /* per session */
    VEC(vec_u32) members;        /* per session, in session order */
    vec_u32 counter;             /* per session: sequence numbers given */
} world;

/* The expected row of d: per chain, the highest sequence number among
 * d's ancestors on it. */
static void expected(const world *w, uint32_t d, uint32_t *best, uint32_t W) {
    memset(best, 0, W * sizeof *best);
    const uint64_t *a = w->anc + (size_t)d * w->words;
    for (uint32_t j = 0; j < w->words; j++)
        for (uint64_t bits = a[j]; bits; bits &= bits - 1) {
            uint32_t x = j * 64 + (uint32_t)__builtin_ctzll(bits);
            if (x == 0 || !w->seq.data[x]) continue;
            uint32_t c = w->chain.data[w->sess.data[x]];
            if (c != REACH_NONE && w->seq.data[x] > best[c]) best[c] = w->seq.data[x];
        }
}

static uint32_t pick_session(world *w, online_reach *r, const cfg *c) {
    uint32_t ns = (uint32_t)w->chain.len;
    if (ns == 0 || (ns < c->sessions && rnd(100) < c->new_sess_pct)) {
        vec_push(w->chain, reach_new_chain(r));
        vec_u32 m;
        vec_init(m);
        vec_push(w->members, m);
        vec_push(w->counter, 0u);
        return ns;
    }
    if (!c->skewed) return rnd(ns);
    for (;;) {
        uint32_t s = rnd(ns);
        if (rnd(1u << (s % 6)) == 0) return s;
    }
}

/* Build a DAG of c->nodes nodes into r and w; returns r's stats. */
static void build(online_reach *r, world *w, const cfg *c) {
    w->n = c->nodes;
    w->words = (c->nodes + 63) / 64;
    w->anc = calloc((size_t)w->n * w->words, sizeof *w->anc);
    assert_non_null(w->anc);
    w->anc[0] = 1;                                     /* INIT */
    vec_push(w->sess, UINT32_MAX);
    vec_push(w->seq, 0u);
    uint32_t src[12];
    for (uint32_t g = 1; g < c->nodes; g++) {
        uint32_t s = pick_session(w, r, c);
        vec_u32 *m = &w->members.data[s];
        size_t at = m->len;
        uint32_t seq = 0;
        if (m->len && rnd(100) < c->late_pct) at = rnd((uint32_t)m->len);   /* late: before member at */
        else seq = ++w->counter.data[s];
        uint32_t prev = at > 0 ? m->data[at - 1] : REACH_NONE;
        if (seq && m->len && rnd(100) < c->odd_prev_pct) prev = m->data[rnd((uint32_t)m->len)];
        uint32_t k = rnd(7), nsrc = 0;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t x = rnd(100) < c->far_pct || g <= 100 ? rnd(g) : g - 1 - rnd(100);
            src[nsrc++] = x;
            if (rnd(4) == 0) src[nsrc++] = x;          /* read twice from it (two keys) */
        }
        uint32_t got = reach_add_node(r, s, w->chain.data[s], seq, prev, src, nsrc);
        assert_int_equal(got, g);
        uint64_t *row = w->anc + (size_t)g * w->words;
        row[g / 64] |= 1ull << (g % 64);
        if (prev != REACH_NONE)
            for (uint32_t j = 0; j < w->words; j++) row[j] |= w->anc[(size_t)prev * w->words + j];
        for (uint32_t i = 0; i < nsrc; i++)
            for (uint32_t j = 0; j < w->words; j++) row[j] |= w->anc[(size_t)src[i] * w->words + j];
        vec_push(w->sess, s);
        vec_push(w->seq, seq);
        vec_push(*m, 0u);
        memmove(m->data + at + 1, m->data + at, (m->len - 1 - at) * sizeof *m->data);
        m->data[at] = g;
    }
}

static void world_free(world *w) {
    free(w->anc);
    vec_free(w->sess); vec_free(w->seq); vec_free(w->chain); vec_free(w->counter);
    vec_foreach(vec_u32, m, w->members) vec_free(*m);
    vec_free(w->members);
}

/* Every entry of every row, both ways of reading it. */
static void compare_all(const online_reach *r, const world *w) {
    uint32_t W = reach_chains(r);
    uint32_t *row = malloc((W ? W : 1) * sizeof *row), *exp = malloc((W ? W : 1) * sizeof *exp);
    assert_non_null(row);
    assert_non_null(exp);
    for (uint32_t d = 0; d < w->n; d++) {
        reach_row(r, d, row);
        expected(w, d, exp, W);
        for (uint32_t c = 0; c < W; c++) {
            if (reach_get(r, d, c) != exp[c] || row[c] != exp[c])
                fail_msg("node %u chain %u: get %u row %u, expected %u", d, c, reach_get(r, d, c), row[c], exp[c]);
            /* the threshold form, at and around the entry */
            for (uint32_t q = exp[c] > 2 ? exp[c] - 2 : 0; q <= exp[c] + 2; q++)
                if (reach_reaches(r, d, w->sess.data[d], w->seq.data[d], c, q) != (exp[c] >= q))
                    fail_msg("node %u chain %u: reaches(%u) wrong, entry %u", d, c, q, exp[c]);
            uint32_t q = 1 + rnd(exp[c] + 300);
            if (reach_reaches(r, d, w->sess.data[d], w->seq.data[d], c, q) != (exp[c] >= q))
                fail_msg("node %u chain %u: reaches(%u) wrong, entry %u", d, c, q, exp[c]);
        }
    }
    free(row);
    free(exp);
}

static reach_stats run(const cfg *c, uint64_t seed) {
    rng = seed * 0x9e3779b97f4a7c15ULL + 1;
    online_reach *r = reach_new();
    world w;
    memset(&w, 0, sizeof w);
    build(r, &w, c);
    compare_all(r, &w);
    reach_stats st = *reach_get_stats(r);
    printf("  seed %llu: %llu blocks, %llu escapes, %llu solo rows, %llu sources merged, %llu skipped\n", (unsigned long long)seed,
           (unsigned long long)st.blocks, (unsigned long long)st.escapes, (unsigned long long)st.solo,
           (unsigned long long)st.merged, (unsigned long long)st.skipped);
    world_free(&w);
    reach_free(r);
    return st;
}

/* Sessions in order, no late arrival: every row in a block; most sources
 * recent, so most are dominated and skipped. */
static void test_in_order(void **state) {
    (void)state;
    cfg c = { 3000, 12, 0, 0, 10, 2, 0 };
    uint64_t skipped = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        reach_stats st = run(&c, seed);
        assert_int_equal(st.solo, 0);
        skipped += st.skipped;
    }
    assert_true(skipped > 0);
}

/* Slow and fast sessions, far sources: chains jump within a block
 * (escaped entries); sessions keep appearing (blocks widened). */
static void test_escapes(void **state) {
    (void)state;
    cfg c = { 4000, 20, 1, 0, 50, 1, 0 };
    uint64_t escapes = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) escapes += run(&c, seed).escapes;
    assert_true(escapes > 0);
}

/* Late arrivals: rows of their own (their session's numbered rows still
 * grow, so sources are still skipped). */
static void test_late(void **state) {
    (void)state;
    cfg c = { 2500, 10, 1, 8, 30, 2, 0 };
    uint64_t solo = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) solo += run(&c, seed).solo;
    assert_true(solo > 0);
}

/* A numbered node whose predecessor is not its session's last: a row of
 * its own, and no skipping from then on. */
static void test_odd_predecessor(void **state) {
    (void)state;
    cfg c = { 2500, 10, 1, 0, 30, 2, 3 };
    uint64_t solo = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) solo += run(&c, seed).solo;
    assert_true(solo > 0);
}

/* More sessions than chains: the later ones are never ancestors on any
 * chain, and the rows are at their widest. */
static void test_many_sessions(void **state) {
    (void)state;
    cfg c = { 3000, 150, 0, 0, 20, 20, 0 };
    online_reach *r = reach_new();
    world w;
    memset(&w, 0, sizeof w);
    rng = 77;
    build(r, &w, &c);
    assert_true(w.chain.len > 128);
    assert_int_equal(reach_chains(r), 128);
    assert_int_equal(w.chain.data[128], REACH_NONE);
    compare_all(r, &w);
    world_free(&w);
    reach_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_late),
        cmocka_unit_test(test_odd_predecessor),
        cmocka_unit_test(test_many_sessions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
