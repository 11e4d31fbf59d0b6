/* test_pk_order.c — the Pearce–Kelly order against a DFS oracle on random
 * insertion / backtrack sequences (edges also removed out of stack order):
 * the order stays topological and a cycle is reported exactly when the new
 * edge's target reaches its source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"
#include "tests/task_runners.h"
#include "theory/pk_order.h"

static uint64_t rng_state;
static uint32_t rnd(void) {          /* xorshift64*, fixed seeds: reproducible */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}

typedef struct { int from, to, id; } edge_t;

/* Oracle: does `src` reach `dst` through the edges in e[0..m-1]? */
static int reaches(const edge_t *e, int m, int n, int src, int dst) {
    char *seen = calloc((size_t)n, 1);
    int *stack = malloc((size_t)n * sizeof *stack), sp = 0, found = 0;
    stack[sp++] = src; seen[src] = 1;
    while (sp && !found) {
        int w = stack[--sp];
        if (w == dst) { found = 1; break; }
        for (int i = 0; i < m; i++)
            if (e[i].from == w && !seen[e[i].to]) { seen[e[i].to] = 1; stack[sp++] = e[i].to; }
    }
    free(seen); free(stack);
    return found;
}

/* e[0..f) are frozen (edge id PK_FIXED), e[f..m) on the lists. */
static void check_order(const pk_order *pk, const edge_t *e, int f, int m) {
    int n = pk->num_nodes;
    char *used = calloc((size_t)n, 1);
    for (int v = 0; v < n; v++) {
        assert_in_range(pk->ord[v], 0, n - 1);
        assert_int_equal(pk->node_at[pk->ord[v]], v);
        assert_false(used[pk->ord[v]]);
        used[pk->ord[v]] = 1;
    }
    free(used);
    for (int i = 0; i < m; i++) assert_true(pk->ord[e[i].from] < pk->ord[e[i].to]);
    int arcs = 0;
    for (int v = 0; v < n; v++) arcs += pk->out[v].len;
    assert_int_equal(arcs, m - f);
    /* every list holds exactly its node's edges (the arena's moves and
     * compactions lose none), and the frozen arrays the frozen ones */
    for (int v = 0; v < n; v++) {
        for (int side = 0; side < 2; side++) {
            const pk_adj *a = side ? &pk->in[v] : &pk->out[v];
            const pk_arc *arcs_v = pk_arcs(pk, a);
            int want = 0;
            for (int i = f; i < m; i++) want += (side ? e[i].to : e[i].from) == v;
            assert_int_equal((int)a->len, want);
            for (int k = 0; k < (int)a->len; k++) {
                int found = 0;
                for (int i = f; i < m && !found; i++)
                    found = e[i].id == (int)arcs_v[k].edge && (side ? e[i].to : e[i].from) == v &&
                            (side ? e[i].from : e[i].to) == arcs_v[k].node;
                assert_true(found);
            }
            int nf, wantf = 0;
            const int *fx = side ? pk_fixed_in(pk, v, &nf) : pk_fixed_out(pk, v, &nf);
            for (int i = 0; i < f; i++) wantf += (side ? e[i].to : e[i].from) == v;
            assert_int_equal(nf, wantf);
            for (int k = 0, i = 0; k < nf; k++, i++) {    /* in the order they were given */
                while (i < f && (side ? e[i].to : e[i].from) != v) i++;
                assert_true(i < f);
                assert_int_equal(fx[k], side ? e[i].from : e[i].to);
            }
        }
    }
}

/* any_order: edges also leave from the middle (partial backtracking);
 * frozen: that many always-on edges (forward in the first order) frozen
 * into the arrays first */
static void random_sequences_in(int n, int steps, int rounds, uint64_t seed, int any_order, int frozen) {
    rng_state = seed;
    for (int r = 0; r < rounds; r++) {
        pk_order pk; pk_init(&pk);
        pk_add_nodes(&pk, n / 2);
        pk_add_nodes(&pk, n - n / 2);
        edge_t *e = malloc((size_t)(steps + frozen) * sizeof *e);
        int m = 0, cycles = 0, next_id = 0;
        int *ends = malloc((size_t)(2 * frozen + 1) * sizeof *ends);
        for (int i = 0; i < frozen; i++) {
            int a = (int)(rnd() % (unsigned)(n - 1)), b = a + 1 + (int)(rnd() % (unsigned)(n - 1 - a));
            ends[2 * i] = a; ends[2 * i + 1] = b;
            e[m++] = (edge_t){a, b, PK_FIXED};
        }
        if (frozen) assert_int_equal(pk_freeze(&pk, ends, (size_t)frozen), 1);
        free(ends);
        const int f = m;
        for (int s = 0; s < steps; s++) {
            if (any_order && m > f && rnd() % 6 == 0) {  /* one edge from anywhere */
                int i = f + (int)(rnd() % (unsigned)(m - f));
                pk_remove(&pk, e[i].from, e[i].to, e[i].id);
                memmove(&e[i], &e[i + 1], (size_t)(m - 1 - i) * sizeof *e);
                m--;
            } else if (m > f && rnd() % 8 == 0) {        /* backtrack a few edges */
                int k = 1 + (int)(rnd() % (unsigned)(m - f));
                while (k-- > 0) { m--; pk_remove(&pk, e[m].from, e[m].to, e[m].id); }
            } else {
                int a = (int)(rnd() % (unsigned)n), b = (int)(rnd() % (unsigned)n);
                int expect_cycle = a == b || reaches(e, m, n, b, a);
                int ok = pk_insert(&pk, a, b, next_id);
                assert_int_equal(ok, !expect_cycle);
                if (ok) e[m++] = (edge_t){a, b, next_id};
                else cycles++;
                next_id++;
            }
            check_order(&pk, e, f, m);
        }
        assert_true(cycles > 0);                         /* the test exercised both paths */
        assert_true(pk.searches > 0);
        free(e);
        pk_free(&pk);
    }
}

static void random_sequences(int n, int steps, int rounds, uint64_t seed) {
    random_sequences_in(n, steps, rounds, seed, 0, 0);
}

static void small_graphs(void **state) { (void)state; random_sequences(6, 300, 50, 0x9E3779B97F4A7C15ULL); }
static void medium_graphs(void **state) { (void)state; random_sequences(40, 600, 20, 12345); }
static void large_sparse(void **state) { (void)state; random_sequences(300, 900, 3, 777); }

static void removal_in_any_order(void **state) {
    (void)state;
    random_sequences_in(6, 300, 50, 4242, 1, 0);
    random_sequences_in(40, 600, 20, 4343, 1, 0);
}

/* Always-on arcs frozen into arrays: searches, cycles and reorders see
 * them (the oracle does), and the lists stay exact around them. */
static void with_frozen_arcs(void **state) {
    (void)state;
    random_sequences_in(8, 300, 40, 5151, 1, 6);
    random_sequences_in(40, 600, 10, 5252, 1, 40);
    random_sequences_in(40, 600, 10, 5353, 0, 80);
}

static void growing_nodes(void **state) {
    (void)state;
    pk_order pk; pk_init(&pk);
    pk_add_nodes(&pk, 2);
    assert_int_equal(pk_insert(&pk, 1, 0, 0), 1);
    assert_true(pk.ord[1] < pk.ord[0]);
    int first = pk_add_nodes(&pk, 100);
    assert_int_equal(first, 2);
    for (int i = 0; i < 100; i++) assert_int_equal(pk_insert(&pk, 2 + (i + 1) % 100, 2 + i, 1 + i), i < 99);
    pk_free(&pk);
}

/* Oracle: least total cost of a path src ~> dst (-1: none), costs per edge
 * id in cost[] (Bellman-Ford: small graphs). */
static int least_cost(const edge_t *e, int m, int n, const int *cost, int src, int dst) {
    int *d = malloc((size_t)n * sizeof *d);
    for (int v = 0; v < n; v++) d[v] = -1;
    d[src] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < m; i++) {
            if (d[e[i].from] < 0) continue;
            int c = d[e[i].from] + cost[e[i].id];
            if (d[e[i].to] < 0 || c < d[e[i].to]) { d[e[i].to] = c; changed = 1; }
        }
    }
    int r = d[dst];
    free(d);
    return r;
}

/* A failed insertion's pk_cycle_path is a least-cost path of enabled
 * edges from the new edge's head to its tail. */
static void cycle_paths(void **state) {
    (void)state;
    rng_state = 31337;
    int checked = 0;
    for (int r = 0; r < 40; r++) {
        int n = 4 + (int)(rnd() % 30), steps = 400;
        pk_order pk; pk_init(&pk);
        pk_add_nodes(&pk, n);
        edge_t *e = malloc((size_t)steps * sizeof *e);
        int *cost = malloc((size_t)steps * sizeof *cost), m = 0;
        vec_int path; vec_init(path);
        for (int id = 0; id < steps; id++) {
            if (m > 0 && rnd() % 8 == 0) {               /* backtrack a few edges */
                int k = 1 + (int)(rnd() % (unsigned)m);
                while (k-- > 0) { m--; pk_remove(&pk, e[m].from, e[m].to, e[m].id); }
            }
            int a = (int)(rnd() % (unsigned)n), b = (int)(rnd() % (unsigned)n);
            if (a == b) continue;
            cost[id] = (int)(rnd() % 3) != 0;
            if (pk_insert_cost(&pk, a, b, id, cost[id])) { e[m++] = (edge_t){a, b, id}; continue; }
            int best = least_cost(e, m, n, cost, b, a);
            assert_true(best >= 0);
            vec_clear(path);
            pk_cycle_path(&pk, &path);
            int at = a, sum = 0;
            for (size_t i = 0; i < path.len; i++) {
                int j = 0;
                while (j < m && e[j].id != path.data[i]) j++;
                assert_true(j < m);                      /* an enabled edge */
                assert_int_equal(e[j].to, at);
                at = e[j].from;
                sum += cost[e[j].id];
            }
            assert_int_equal(at, b);
            assert_int_equal(sum, best);
            checked++;
        }
        vec_free(path);
        free(e); free(cost);
        pk_free(&pk);
    }
    assert_true(checked > 100);
}

static void sorts(void **state) {
    (void)state;
    rng_state = 99;
    for (int n = 0; n < 3000; n += 37) {
        int *a = malloc((size_t)(n + 1) * sizeof *a), *t = malloc((size_t)(n + 1) * sizeof *t);
        for (int i = 0; i < n; i++) a[i] = (int)(rnd() % (i & 1 ? 1000u : 1u << 30));
        pk_sort_ints(a, n, t);
        for (int i = 1; i < n; i++) assert_true(a[i - 1] <= a[i]);
        free(a); free(t);
    }
}

/* Node v's always-on arcs on one side as the searches see them: frozen,
 * then those on its list (PK_FIXED), into out; returns the count. */
static int fixed_seq(const pk_order *pk, int side, int v, int *out) {
    int nf, k = 0;
    const int *fx = side ? pk_fixed_in(pk, v, &nf) : pk_fixed_out(pk, v, &nf);
    for (int i = 0; i < nf; i++) out[k++] = fx[i];
    const pk_adj *a = side ? &pk->in[v] : &pk->out[v];
    const pk_arc *arcs = pk_arcs(pk, a);
    for (int i = 0; i < (int)a->len; i++) if (arcs[i].edge == PK_FIXED) out[k++] = arcs[i].node;
    return k;
}

/* pk_freeze in batches, with nodes added between them and other always-on
 * arcs put on the lists one at a time (merged block by block, blocks of 1
 * to 8 nodes here): per node and side, frozen then listed, exactly the
 * arcs one pk_freeze of every arc builds, in the order given. */
static void freeze_in_batches(void **state) {
    (void)state;
    rng_state = 99;
    int merges = 0;
    for (int round = 0; round < 60; round++) {
        pk_order inc, whole;
        pk_init(&inc); pk_init(&whole);
        inc.blk_shift = (int)(rnd() % 4);
        int n = 2 + (int)(rnd() % 30), total = 0;
        pk_add_nodes(&inc, n);
        int *ends = malloc(2 * 4000 * sizeof *ends), *batch = malloc(2 * 4000 * sizeof *batch);
        int batches = 1 + (int)(rnd() % 6);
        for (int b = 0; b < batches; b++) {
            if (b && rnd() % 2) { int more = 1 + (int)(rnd() % 10); pk_add_nodes(&inc, more); n += more; }
            int k = (int)(rnd() % 60), nb = 0;
            for (int i = 0; i < k; i++) {          /* forward in the order (nodes never move here) */
                int x = (int)(rnd() % (unsigned)n), y = (int)(rnd() % (unsigned)n);
                if (x > y) { int t = x; x = y; y = t; }
                if (rnd() % 10 == 0) y = x;           /* a self-loop: skipped */
                if (x != y && rnd() % 2) {
                    /* one at a time, onto the lists; first what waits in
                     * the batch, to keep the order they were given in */
                    assert_int_equal(pk_freeze(&inc, batch, (size_t)nb), 1);
                    nb = 0;
                    assert_int_equal(pk_insert_cost(&inc, x, y, PK_FIXED, 0), 1);
                } else {
                    batch[2 * nb] = x; batch[2 * nb + 1] = y;
                    nb++;
                }
                ends[2 * total] = x; ends[2 * total + 1] = y;
                total++;
            }
            assert_int_equal(pk_freeze(&inc, batch, (size_t)nb), 1);
        }
        merges += (int)inc.block_merges;
        pk_add_nodes(&whole, n);
        assert_int_equal(pk_freeze(&whole, ends, (size_t)total), 1);
        size_t arcs = 0;
        for (int i = 0; i < total; i++) arcs += ends[2 * i] != ends[2 * i + 1];
        assert_int_equal(pk_fixed_count(&inc), arcs);
        assert_int_equal(pk_fixed_count(&whole), arcs);
        int *x = malloc(8000 * sizeof *x);
        for (int v = 0; v < n; v++)
            for (int side = 0; side < 2; side++) {
                int na = fixed_seq(&inc, side, v, x), nb;
                const int *y = side ? pk_fixed_in(&whole, v, &nb) : pk_fixed_out(&whole, v, &nb);
                assert_int_equal(na, nb);
                if (na) assert_memory_equal(x, y, (size_t)na * sizeof *x);
            }
        free(x);
        /* one against the order: refused, nothing changes */
        if (n >= 2) {
            int back[2] = { n - 1, 0 };
            size_t before = pk_fixed_count(&inc);
            assert_int_equal(pk_freeze(&inc, back, 1), 0);
            assert_int_equal(pk_fixed_count(&inc), before);
        }
        free(ends); free(batch);
        pk_free(&inc); pk_free(&whole);
    }
    assert_true(merges > 100);                     /* the lists were merged into blocks often */
}

/* pk_freeze_each: the arcs a producer gives in chunks (of 1 to 9 arcs,
 * blocks of 1 to 8 nodes), after earlier frozen and listed arcs: per node
 * and side exactly the arrays of one pk_freeze of the same arcs, with
 * two passes asked, in order; an arc out of range (-1) or not forward (0)
 * changes nothing.  A chunk's two sides run in order, on a runner that
 * runs the last task first, or on two threads (pk_run_fn). */
typedef struct each_src { const int *ends; size_t asked, next; int passes; } each_src;
static void each_ends(void *ctx, size_t first, size_t count, int *buf) {
    each_src *s = ctx;
    if (first == 0) { s->passes++; s->next = 0; }
    assert_int_equal(first, s->next);              /* in order within a pass */
    memcpy(buf, s->ends + 2 * first, 2 * count * sizeof *buf);
    s->next = first + count;
    s->asked += count;
}

static void freeze_each_same_as_one_freeze(void **state) {
    (void)state;
    rng_state = 4242;
    for (int round = 0; round < 200; round++) {
        pk_order each, whole;
        pk_init(&each); pk_init(&whole);
        each.blk_shift = whole.blk_shift = (int)(rnd() % 4);
        each.run = round % 3 == 1 ? run_reversed : round % 3 == 2 ? run_threads : NULL;
        int n = 2 + (int)(rnd() % 40);
        pk_add_nodes(&each, n); pk_add_nodes(&whole, n);
        int pre = (int)(rnd() % 20), k = 1 + (int)(rnd() % 80);
        int *ends = malloc(2 * (size_t)(pre + k) * sizeof *ends);
        for (int i = 0; i < pre + k; i++) {
            int x = (int)(rnd() % (unsigned)(n - 1)), y = x + 1 + (int)(rnd() % (unsigned)(n - 1 - x));
            ends[2 * i] = x; ends[2 * i + 1] = y;
        }
        for (int i = 0; i < pre; i++) {                /* earlier arcs: frozen or listed, the same in both */
            if (rnd() % 2) {
                assert_int_equal(pk_freeze(&each, ends + 2 * i, 1), 1);
                assert_int_equal(pk_freeze(&whole, ends + 2 * i, 1), 1);
            } else {
                assert_int_equal(pk_insert_cost(&each, ends[2 * i], ends[2 * i + 1], PK_FIXED, 0), 1);
                assert_int_equal(pk_insert_cost(&whole, ends[2 * i], ends[2 * i + 1], PK_FIXED, 0), 1);
            }
        }
        const int *mine = ends + 2 * pre;
        size_t chunk = 1 + rnd() % 9;
        int *buf = malloc(2 * chunk * sizeof *buf);
        each_src src = { mine, 0, 0, 0 };
        if (rnd() % 4 == 0) {                          /* refused: nothing changes */
            int *bad = malloc(2 * (size_t)k * sizeof *bad);
            memcpy(bad, mine, 2 * (size_t)k * sizeof *bad);
            int at = (int)(rnd() % (unsigned)k), out = rnd() % 2;
            if (out) bad[2 * at + 1] = n; else { bad[2 * at] = bad[2 * at + 1]; }
            each_src b = { bad, 0, 0, 0 };
            size_t before = pk_fixed_count(&each);
            assert_int_equal(pk_freeze_each(&each, (size_t)k, n, each_ends, &b, buf, chunk), out ? -1 : 0);
            assert_int_equal(pk_fixed_count(&each), before);
            free(bad);
        }
        assert_int_equal(pk_freeze_each(&each, (size_t)k, n, each_ends, &src, buf, chunk), 1);
        assert_int_equal(src.passes, 2);
        assert_int_equal(src.asked, 2 * (size_t)k);
        assert_int_equal(pk_freeze(&whole, mine, (size_t)k), 1);
        assert_int_equal(pk_fixed_count(&each), pk_fixed_count(&whole));
        int *x = malloc(2 * (size_t)(pre + k + 1) * sizeof *x), *y = malloc(2 * (size_t)(pre + k + 1) * sizeof *y);
        for (int v = 0; v < n; v++)
            for (int side = 0; side < 2; side++) {
                int na = fixed_seq(&each, side, v, x), nb = fixed_seq(&whole, side, v, y);
                assert_int_equal(na, nb);
                if (na) assert_memory_equal(x, y, (size_t)na * sizeof *x);
            }
        free(x); free(y); free(buf); free(ends);
        pk_free(&each); pk_free(&whole);
    }
    assert_true(runner_calls > 200);               /* each chunk of each pass, in two rounds of three */
}

/* Always-on arcs arriving one at a time and in batches (merged into the
 * frozen blocks as they fill, blocks of 1 to 8 nodes), guarded arcs
 * inserted and taken back, nodes added: after EVERY step, each insertion
 * is refused exactly when the oracle finds a path back, the order is
 * topological for every arc, and per node and side the always-on arcs
 * seen by the searches (frozen, then listed) are exactly those given, in
 * the order given, and the lists hold exactly the guarded arcs on. */
typedef struct { int from, to; } pair_t;

static void check_fixed_exact(const pk_order *pk, const pair_t *fx, int nfx, const edge_t *e, int m) {
    int n = pk->num_nodes, *got = malloc((size_t)(nfx + 1) * sizeof *got);
    for (int v = 0; v < n; v++)
        for (int side = 0; side < 2; side++) {
            int k = fixed_seq(pk, side, v, got), j = 0;
            for (int i = 0; i < nfx; i++) {
                if ((side ? fx[i].to : fx[i].from) != v) continue;
                assert_true(j < k);
                assert_int_equal(got[j], side ? fx[i].from : fx[i].to);
                j++;
            }
            assert_int_equal(j, k);
            /* the guarded arcs: as many on the list as enabled */
            const pk_adj *a = side ? &pk->in[v] : &pk->out[v];
            const pk_arc *arcs = pk_arcs(pk, a);
            int want = 0, have = 0;
            for (int i = 0; i < m; i++) want += (side ? e[i].to : e[i].from) == v;
            for (int i = 0; i < (int)a->len; i++) {
                if (arcs[i].edge == PK_FIXED) continue;
                have++;
                int found = 0;
                for (int q = 0; q < m && !found; q++)
                    found = e[q].id == (int)arcs[i].edge && (side ? e[q].to : e[q].from) == v &&
                            (side ? e[q].from : e[q].to) == arcs[i].node;
                assert_true(found);
            }
            assert_int_equal(have, want);
        }
    for (int i = 0; i < nfx; i++) assert_true(pk->ord[fx[i].from] < pk->ord[fx[i].to]);
    for (int i = 0; i < m; i++) assert_true(pk->ord[e[i].from] < pk->ord[e[i].to]);
    for (int v = 0; v < n; v++) assert_int_equal(pk->node_at[pk->ord[v]], v);
    assert_int_equal(pk_fixed_count(pk), (size_t)nfx);
    free(got);
}

/* Oracle over both kinds: does src reach dst? */
static int reaches_all(const pair_t *fx, int nfx, const edge_t *e, int m, int n, int src, int dst) {
    edge_t *all = malloc((size_t)(nfx + m + 1) * sizeof *all);
    for (int i = 0; i < nfx; i++) all[i] = (edge_t){fx[i].from, fx[i].to, PK_FIXED};
    memcpy(all + nfx, e, (size_t)m * sizeof *e);
    int r = reaches(all, nfx + m, n, src, dst);
    free(all);
    return r;
}

static void fixed_merges_against_oracle(void **state) {
    (void)state;
    rng_state = 20261126;
    int64_t merges = 0, fixed_cycles = 0, searched = 0;
    for (int round = 0; round < 30; round++) {
        pk_order pk; pk_init(&pk);
        pk.blk_shift = (int)(rnd() % 4);
        int n = 4 + (int)(rnd() % 20), steps = 400, m = 0, nfx = 0, next_id = 0;
        pk_add_nodes(&pk, n);
        edge_t *e = malloc((size_t)steps * sizeof *e);
        pair_t *fx = malloc((size_t)steps * 8 * sizeof *fx);
        int *ends = malloc((size_t)steps * 16 * sizeof *ends);
        for (int s = 0; s < steps; s++) {
            unsigned op = rnd() % 16;
            if (op == 0) {                                 /* nodes arrive */
                int more = 1 + (int)(rnd() % 4);
                pk_add_nodes(&pk, more);
                n += more;
            } else if (op <= 2 && m > 0) {                 /* backtrack guarded arcs */
                int k = 1 + (int)(rnd() % (unsigned)m);
                while (k-- > 0) { m--; pk_remove(&pk, e[m].from, e[m].to, e[m].id); }
            } else if (op == 3 && m > 0) {                 /* one from the middle */
                int i = (int)(rnd() % (unsigned)m);
                pk_remove(&pk, e[i].from, e[i].to, e[i].id);
                memmove(&e[i], &e[i + 1], (size_t)(m - 1 - i) * sizeof *e);
                m--;
            } else if (op <= 5) {                          /* a batch forward in the order */
                int k = (int)(rnd() % 8), nb = 0;
                for (int i = 0; i < k; i++) {
                    int x = (int)(rnd() % (unsigned)n), y = (int)(rnd() % (unsigned)n);
                    if (x == y) continue;
                    if (pk.ord[x] > pk.ord[y]) { int t = x; x = y; y = t; }
                    ends[2 * nb] = x; ends[2 * nb + 1] = y; nb++;
                    fx[nfx++] = (pair_t){x, y};
                }
                assert_int_equal(pk_freeze(&pk, ends, (size_t)nb), 1);
            } else if (op <= 10) {                         /* one always-on arc, any way */
                int x = (int)(rnd() % (unsigned)n), y = (int)(rnd() % (unsigned)n);
                int expect_cycle = x == y || reaches_all(fx, nfx, e, m, n, y, x);
                int ok = pk_insert_cost(&pk, x, y, PK_FIXED, 0);
                assert_int_equal(ok, !expect_cycle);
                searched += pk.searched;
                if (ok) fx[nfx++] = (pair_t){x, y};
                else fixed_cycles++;
            } else {                                       /* a guarded arc */
                int x = (int)(rnd() % (unsigned)n), y = (int)(rnd() % (unsigned)n);
                int expect_cycle = x == y || reaches_all(fx, nfx, e, m, n, y, x);
                int ok = pk_insert(&pk, x, y, next_id);
                assert_int_equal(ok, !expect_cycle);
                if (ok) e[m++] = (edge_t){x, y, next_id};
                next_id++;
            }
            check_fixed_exact(&pk, fx, nfx, e, m);
        }
        merges += pk.block_merges;
        free(e); free(fx); free(ends);
        pk_free(&pk);
    }
    assert_true(merges > 200);
    assert_true(fixed_cycles > 20);
    assert_true(searched > 20);
}

/* An order without arcs (none yet, or all frozen) has empty lists whose
 * arcs pointer is still a valid pointer: searches add its offset to it,
 * and NULL + 0 is undefined in C (a UBSan finding, issue 30). */
static void empty_lists_are_valid(void **state) {
    (void)state;
    for (int round = 0; round < 2; round++) {
        pk_order pk; pk_init(&pk);
        pk_add_nodes(&pk, 3);
        if (round) {
            int ends[] = { 0, 1, 1, 2 };
            assert_int_equal(pk_freeze(&pk, ends, 2), 1);
        }
        for (int v = 0; v < 3; v++) {
            assert_int_equal(pk.out[v].len, 0);
            assert_non_null(pk_arcs(&pk, &pk.out[v]));
            assert_non_null(pk_arcs(&pk, &pk.in[v]));
        }
        assert_int_equal(pk_insert(&pk, 2, 0, 0), !round);   /* round 1: closes 0->1->2->0 */
        pk_free(&pk);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_graphs),
        cmocka_unit_test(cycle_paths),
        cmocka_unit_test(medium_graphs),
        cmocka_unit_test(large_sparse),
        cmocka_unit_test(removal_in_any_order),
        cmocka_unit_test(with_frozen_arcs),
        cmocka_unit_test(freeze_in_batches),
        cmocka_unit_test(freeze_each_same_as_one_freeze),
        cmocka_unit_test(fixed_merges_against_oracle),
        cmocka_unit_test(growing_nodes),
        cmocka_unit_test(empty_lists_are_valid),
        cmocka_unit_test(sorts),
    };
    return cmocka_run_group_tests_name("pk_order", tests, NULL, NULL);
}
