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
        if (frozen) assert_int_equal(pk_freeze_fixed(&pk, ends, (size_t)frozen), 1);
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

/* pk_freeze_more in batches, with nodes added between them and arcs of
 * the next batch on the lists meanwhile, builds exactly the arrays one
 * pk_freeze_fixed of every arc builds (each node's arcs in the order
 * given), and drops the listed always-on arcs. */
static void freeze_in_batches(void **state) {
    (void)state;
    rng_state = 99;
    for (int round = 0; round < 40; round++) {
        pk_order inc, whole;
        pk_init(&inc); pk_init(&whole);
        int n = 2 + (int)(rnd() % 30), total = 0;
        pk_add_nodes(&inc, n);
        int *ends = malloc(2 * 4000 * sizeof *ends);
        int batches = 1 + (int)(rnd() % 6);
        for (int b = 0; b < batches; b++) {
            if (b && rnd() % 2) { int more = 1 + (int)(rnd() % 10); pk_add_nodes(&inc, more); n += more; }
            int k = (int)(rnd() % 60), from = total;
            for (int i = 0; i < k; i++) {          /* forward in the order (nodes never move here) */
                int x = (int)(rnd() % (unsigned)n), y = (int)(rnd() % (unsigned)n);
                if (x > y) { int t = x; x = y; y = t; }
                if (rnd() % 10 == 0) y = x;           /* a self-loop: skipped */
                ends[2 * total] = x; ends[2 * total + 1] = y;
                total++;
                if (x != y && rnd() % 2) assert_int_equal(pk_insert_cost(&inc, x, y, PK_FIXED, 0), 1);
            }
            assert_int_equal(pk_freeze_more(&inc, ends + 2 * from, (size_t)(total - from)), 1);
            for (int v = 0; v < n; v++) { assert_int_equal(inc.out[v].len, 0); assert_int_equal(inc.in[v].len, 0); }
        }
        pk_add_nodes(&whole, n);
        assert_int_equal(pk_freeze_fixed(&whole, ends, (size_t)total), 1);
        assert_int_equal(inc.fix_nodes, whole.fix_nodes);
        for (int v = 0; v < n; v++)
            for (int side = 0; side < 2; side++) {
                int na, nb;
                const int *x = side ? pk_fixed_in(&inc, v, &na) : pk_fixed_out(&inc, v, &na);
                const int *y = side ? pk_fixed_in(&whole, v, &nb) : pk_fixed_out(&whole, v, &nb);
                assert_int_equal(na, nb);
                if (na) assert_memory_equal(x, y, (size_t)na * sizeof *x);
            }
        /* one against the order: refused, nothing changes */
        if (n >= 2) {
            int back[2] = { n - 1, 0 }, before = (int)inc.fix_out_start[n];
            assert_int_equal(pk_freeze_more(&inc, back, 1), 0);
            assert_int_equal((int)inc.fix_out_start[n], before);
        }
        free(ends);
        pk_free(&inc); pk_free(&whole);
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
        cmocka_unit_test(growing_nodes),
        cmocka_unit_test(sorts),
    };
    return cmocka_run_group_tests_name("pk_order", tests, NULL, NULL);
}
