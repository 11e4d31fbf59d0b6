/* test_recheck_rank.c — the re-check's proposed rank
 * (vo_check_level_ranked_on, verify_model.h; vm_graph.c, vg_ranked) is a
 * hint trusted for nothing.  On small random histories (tests/levels_gen.h)
 * and version orders (the checker's, and shuffled ones), at ser, si,
 * ser-plain, si-plain and pc, the graph's arcs are rebuilt here by the
 * dependencies' definition (vm_dep_holds over every pair, the full WW and
 * RW relations: the same reachability as the re-check's arcs):
 *   - an acyclic graph with the rank of a topological order of those arcs
 *     is answered by the rank (no search), with INIT's nodes ranked
 *     anywhere (the checker's graph leaves INIT out);
 *   - a cyclic graph, with the rank of a topological order of every arc
 *     but one (each arc in turn, of every kind), and with random ranks,
 *     is answered 0 with the very cycle found without a rank, never 1;
 *   - any rank, or one of the wrong length, gives the unranked answer.
 * All of it without a pool and on a pool of three threads (review47: the
 * rank's pass over the key ranges in groups on the pool, vg_ranked, is the
 * path run_check takes; a group left out would answer 1 for a cycle). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/checking/check.h"
#include "frontend/recheck/vm_internal.h"
#include "tests/levels_gen.h"
#include "par.h"

static const check_level_id levels[] = { LEVEL_SER, LEVEL_SI, LEVEL_SER_PLAIN, LEVEL_SI_PLAIN, LEVEL_PC };
#define NLEVELS (sizeof levels / sizeof *levels)

enum { MAXN = 2 * (MAXT + 1), MAXE = 4096 };
typedef struct arcs { uint32_t n, m; uint32_t a[MAXE], b[MAXE]; } arcs;

static void add(arcs *E, uint32_t x, uint32_t y) {
    assert_true(E->m < MAXE);
    E->a[E->m] = x; E->b[E->m] = y; E->m++;
}

/* Every dependency that holds under vo, as arcs of the level's graph (the
 * split graph's numbering under si and pc); 0 if vo is no version order. */
static int graph_arcs(const history *h, const version_order *vo, check_level_id l, arcs *E) {
    vm m;
    char why[300];
    if (!vm_build(&m, h, vo, NULL, NULL, 0, NULL, why, sizeof why)) { vm_free(&m); return 0; }
    vm_mode md = vm_mode_of(l);
    E->n = md.si ? 2 * h->num_txns : h->num_txns;
    E->m = 0;
    for (uint32_t t = 0; t < h->num_txns && md.si; t++) if (m.part[t]) add(E, 2 * t + 1, 2 * t);
    static const dep_kind kinds[] = { DEP_SO, DEP_WR, DEP_WW, DEP_RW };
    for (uint32_t a = 0; a < h->num_txns; a++)
        for (uint32_t b = 0; b < h->num_txns; b++)
            for (size_t q = 0; q < 4; q++) {
                if (kinds[q] == DEP_SO && !md.so) continue;
                for (uint32_t k = 0; k < (kinds[q] == DEP_SO ? 1 : h->num_keys); k++) {
                    dep_edge e = { a, b, kinds[q] == DEP_SO ? HISTORY_NONE : k, (uint8_t)kinds[q] };
                    if (a == b || !vm_dep_holds(&m, &e, why, sizeof why)) continue;
                    if (!md.si) add(E, a, b);
                    else if (kinds[q] == DEP_RW) add(E, 2 * a + 1, 2 * b);
                    else if (kinds[q] == DEP_WW && md.ww_commit) add(E, 2 * a, 2 * b);
                    else add(E, 2 * a, 2 * b + 1);
                    if (kinds[q] == DEP_SO) break;
                }
            }
    vm_free(&m);
    return 1;
}

/* A topological order of E's arcs but arc skip (UINT32_MAX: none) into
 * rank (Kahn, the smallest ready node first); 0 if they have a cycle. */
static int topo_rank(const arcs *E, uint32_t skip, uint32_t *rank) {
    uint32_t indeg[MAXN] = { 0 }, done[MAXN] = { 0 }, pos = 0;
    for (uint32_t j = 0; j < E->m; j++) if (j != skip) indeg[E->b[j]]++;
    for (;;) {
        uint32_t u = UINT32_MAX;
        for (uint32_t x = 0; x < E->n && u == UINT32_MAX; x++) if (!done[x] && !indeg[x]) u = x;
        if (u == UINT32_MAX) break;
        done[u] = 1; rank[u] = pos++;
        for (uint32_t j = 0; j < E->m; j++) if (j != skip && E->a[j] == u) indeg[E->b[j]]--;
    }
    return pos == E->n;
}

static void same_cycle(const dep_edge_vec *x, const dep_edge_vec *y) {
    assert_int_equal(x->len, y->len);
    for (size_t i = 0; i < x->len; i++) {
        assert_int_equal(x->data[i].from, y->data[i].from);
        assert_int_equal(x->data[i].to, y->data[i].to);
        assert_int_equal(x->data[i].key, y->data[i].key);
        assert_int_equal(x->data[i].kind, y->data[i].kind);
    }
}

typedef struct tally { unsigned by_rank, cyclic_near, cyclic_random, invalid; } tally;

static par_pool *pool;          /* the re-check's pool (NULL: one thread) */

/* One (history, version order, level): every rank against the answer without one. */
static void one(const history *h, const version_order *vo, check_level_id l, tally *tl) {
    static arcs E;
    char why[300] = "", why2[300] = "";
    dep_edge_vec c0, c1; vec_init(c0); vec_init(c1);
    int rc0 = vo_check_level_on(h, vo, l, &c0, why, sizeof why, pool, 0), by = 0;
    uint32_t rank[MAXN];
    if (rc0 == -1) {                                     /* no version order, or a read against it */
        for (uint32_t x = 0; x < MAXN; x++) rank[x] = x;
        uint32_t n = vm_mode_of(l).si ? 2 * h->num_txns : h->num_txns;
        assert_int_equal(vo_check_level_ranked_on(h, vo, l, rank, n, &by, &c1, why2, sizeof why2, pool, 0), -1);
        assert_string_equal(why, why2);
        tl->invalid++;
        vec_free(c0); vec_free(c1);
        return;
    }
    assert_true(graph_arcs(h, vo, l, &E));
    int acyclic = topo_rank(&E, UINT32_MAX, rank);
    assert_int_equal(acyclic, rc0);                      /* the definition's arcs agree with the search */
    if (acyclic) {
        rank[0] = 1000 + rnd(50);                        /* INIT's nodes: anywhere */
        if (vm_mode_of(l).si) rank[1] = 1000 + rnd(50);
        assert_int_equal(vo_check_level_ranked_on(h, vo, l, rank, E.n, &by, &c1, why2, sizeof why2, pool, 0), 1);
        assert_int_equal(by, 1);
        tl->by_rank++;
        assert_int_equal(vo_check_level_ranked_on(h, vo, l, rank, E.n + 1, &by, &c1, why2, sizeof why2, pool, 0), 1);
        assert_int_equal(by, 0);                         /* not the graph's node count: the search */
    } else {
        for (uint32_t j = 0; j < E.m; j++) {             /* every arc but arc j up the rank */
            if (!topo_rank(&E, j, rank)) continue;
            vec_clear(c1);
            assert_int_equal(vo_check_level_ranked_on(h, vo, l, rank, E.n, &by, &c1, why2, sizeof why2, pool, 0), 0);
            assert_int_equal(by, 0);
            same_cycle(&c0, &c1);
            tl->cyclic_near++;
        }
    }
    for (int i = 0; i < 4; i++) {                        /* random ranks */
        for (uint32_t x = 0; x < E.n; x++) rank[x] = rnd(3 * E.n);
        vec_clear(c1);
        assert_int_equal(vo_check_level_ranked_on(h, vo, l, rank, E.n, &by, &c1, why2, sizeof why2, pool, 0), rc0);
        same_cycle(&c0, &c1);
        tl->cyclic_random += !acyclic;
    }
    vec_free(c0); vec_free(c1);
}

static void shuffle_vo(const version_order *in, version_order *out) {
    out->num_keys = in->num_keys;
    out->start = malloc(((size_t)in->num_keys + 1) * sizeof *out->start);
    assert_non_null(out->start);
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

static void random_ranks_on(unsigned threads) {
    pool = par_pool_new(threads);
    rng_state = 0x9e3779b97f4a7c15ULL;
    tally tl = { 0, 0, 0, 0 };
    int64_t inv[MAXT + 1], cmp[MAXT + 1];
    for (int it = 0; it < 600; it++) {
        history *h = random_history(inv, cmp, 0);
        pg_index ix;
        ic_error err; ic_error_clear(&err);
        if (!pg_index_build(&ix, h, &err)) { history_free(h); continue; }   /* refused before any level */
        for (size_t li = 0; li < NLEVELS; li++) {
            check_result r;
            check_level(&ix, levels[li], NULL, &r);
            if (r.vo.start) {
                one(h, &r.vo, levels[li], &tl);
                version_order bad;
                shuffle_vo(&r.vo, &bad);
                one(h, &bad, levels[li], &tl);
                version_order_free(&bad);
            }
            check_result_free(&r);
        }
        pg_index_free(&ix);
        history_free(h);
    }
    par_pool_free(pool);
    pool = NULL;
    fprintf(stderr, "%u threads: by rank %u, cyclic with all arcs but one up the rank %u, cyclic with random ranks %u, "
            "invalid %u\n", threads, tl.by_rank, tl.cyclic_near, tl.cyclic_random, tl.invalid);
    assert_true(tl.by_rank >= 100);
    assert_true(tl.cyclic_near >= 100);
    assert_true(tl.cyclic_random >= 100);
}

static void random_ranks(void **state) {
    (void)state;
    random_ranks_on(1);
    random_ranks_on(3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_ranks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
