/* test_graph_parts.c — the graph stage's parts split over a pool give what
 * one thread gives, and what a plain computation from the index says.
 *
 * Simulated histories with every fault, few and many keys, many and few
 * sessions, a few edges pushed to the base's tail, for every searched
 * level's index (and SER's graph on pc's index, without read-modify-write
 * links: readers of a unit's last version that write its key, unit_slow)
 * and pools of 1 to 4 threads with every stage split (pg_par_min_work 0):
 *   - pg_index_base_fill gives every base edge exactly once, at the place
 *     pg_index_base_each gives it;
 *   - a level's graph built on a pool (pg_init_shape_on, pg_init_rr_on,
 *     then pg_build_constraints) has the same known edges, constraints,
 *     reader summaries and unit_slow as one built inline, and those
 *     summaries are, unit by unit, the pairs
 *     (chain, latest reader position) a plain loop over the unit's readers
 *     finds, in the order the readers first touch each chain, with
 *     unit_slow set (on SER's graph) exactly when a reader is one of the key's writers
 *     (a linear search of its units' members);
 *   - the base edges put aside and brought back on the pool are the same
 *     edges in the same order, in front of the others, and one changed
 *     edge of the prefix is reported.
 * And dg_topo_order's first-come order (its queue kept in the order it
 * fills) is a plain Kahn's, on random graphs with and without cycles, as
 * is dg_topo_order_from's from in-degrees counted by the caller, and
 * dg_topo_order_depth's, whose depths are the longest paths; the
 * first table's order (its arcs and in-degrees counted on the pool) is
 * the one-thread graph's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim_history.h"
#include "par.h"
#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "frontend/checking/depgraph.h"
#include "frontend/checking/polygraph.h"

typedef struct tally { int indexes, graphs, slow_units, summaries, tails; } tally;

static void collect(void *ctx, const pg_edge *e) { pg_edge_vec *v = ctx; vec_push(*v, *e); }

typedef struct placed { pg_edge *e; uint8_t *seen; uint64_t n; } placed;
static void place(void *ctx, uint64_t i, const pg_edge *e) {
    placed *p = ctx;
    assert_true(i < p->n);
    p->e[i] = *e;
    p->seen[i]++;                /* a place each: no two tasks write one slot */
}

static void fill_same_as_each(const pg_index *ix, par_pool *pool) {
    pg_edge_vec each; vec_init(each);
    pg_index_base_each(ix, collect, &each);
    assert_int_equal(each.len, pg_index_num_base(ix));
    placed p = { calloc(each.len + 1, sizeof *p.e), calloc(each.len + 1, 1), each.len };
    pg_index_base_fill(ix, pool, 0, place, &p);
    for (size_t i = 0; i < each.len; i++) {
        assert_int_equal(p.seen[i], 1);
        assert_true(p.e[i].from == each.data[i].from && p.e[i].to == each.data[i].to &&
                    p.e[i].meta == each.data[i].meta);
    }
    free(p.e); free(p.seen);
    vec_free(each);
}

/* Unit u's summaries by a plain loop: a pair per tracked chain, in first
 * touch order, the latest position; slow when a reader writes the key. */
static void summaries_by_loop(const polygraph *g, uint32_t u, vec_u32 *pairs, int *slow) {
    const pg_index *ix = g->ix;
    const pg_unit *U = &ix->units.data[u];
    uint32_t k = pg_unit_key(ix, u);
    uint32_t m0 = ix->units.data[ix->key_unit_start[k]].m_first, m1 = ix->units.data[ix->key_unit_start[k + 1]].m_first;
    vec_clear(*pairs);
    *slow = 0;
    for (uint32_t j = 0; j < pg_unit_rd_num(U); j++) {
        uint32_t r = ix->readers.data[U->rd_first + j];
        if (g->prw && pg_rw_lazy(g, pg_node_tp(g, r), k)) continue;
        for (uint32_t m = m0; m < m1 && !g->split; m++) if (ix->members.data[m] == r) *slow = 1;   /* SER's only */
        uint32_t node = pg_node_tp(g, r), c = pg_node_chain(g, node), p = pg_node_pos(g, node);
        if (c == HISTORY_NONE) continue;
        size_t i = 0;
        while (i < pairs->len && pairs->data[i] != c) i += 2;
        if (i == pairs->len) { vec_push(*pairs, c); vec_push(*pairs, p); }
        else if (p > pairs->data[i + 1]) pairs->data[i + 1] = p;
    }
}

static void assert_same_known(const polygraph *a, const polygraph *b) {
    assert_int_equal(a->num_chains, b->num_chains);
    assert_int_equal(a->known.len, b->known.len);
    assert_memory_equal(a->known.data, b->known.data, a->known.len * sizeof *a->known.data);
}

/* After pg_build_constraints (the summaries are built beside the first
 * table): the same summaries, constraints and known edges. */
static void assert_same_built(const polygraph *a, const polygraph *b, tally *tl) {
    const pg_index *ix = a->ix;
    assert_same_known(a, b);
    assert_int_equal(a->cons.len, b->cons.len);
    if (a->cons.len) assert_memory_equal(a->cons.data, b->cons.data, a->cons.len * sizeof *a->cons.data);
    /* the first table's order: the arcs and in-degrees counted by two
     * tasks on a pool (reach.c, build_adjacency), Kahn's from them */
    assert_int_equal(a->acyclic, b->acyclic);
    assert_int_equal(a->num_nodes, b->num_nodes);
    if (a->topo_pos) assert_memory_equal(a->topo_pos, b->topo_pos, a->num_nodes * sizeof *a->topo_pos);
    size_t nu = ix->units.len;
    assert_memory_equal(a->rsum_start, b->rsum_start, (nu + 1) * sizeof *a->rsum_start);
    assert_int_equal(a->rsum.len, b->rsum.len);
    if (a->rsum.len) assert_memory_equal(a->rsum.data, b->rsum.data, a->rsum.len * sizeof *a->rsum.data);
    if (nu) assert_memory_equal(a->unit_slow, b->unit_slow, nu);
    vec_u32 pairs; vec_init(pairs);
    for (uint32_t u = 0; u < nu; u++) {
        int slow;
        summaries_by_loop(b, u, &pairs, &slow);
        assert_int_equal(b->unit_slow[u], slow);
        assert_int_equal(b->rsum_start[u + 1] - b->rsum_start[u], pairs.len);
        if (pairs.len) assert_memory_equal(b->rsum.data + b->rsum_start[u], pairs.data, pairs.len * sizeof *pairs.data);
        tl->slow_units += slow;
        tl->summaries += (int)pairs.len / 2;
    }
    vec_free(pairs);
}

/* The base edges (the first n) aside and back on g's pool: the same
 * edges, in front of those added after them; a changed one is reported. */
static void aside_back(polygraph *g, size_t n) {
    pg_edge extra = { 0, 1, PG_META(DEP_WW, 0) };
    vec_push(g->known, extra);                   /* one more after the scan's */
    size_t all = g->known.len;
    pg_edge *copy = malloc(all * sizeof *copy);
    memcpy(copy, g->known.data, all * sizeof *copy);
    known_aside ka;
    pg_known_aside(g, n, &ka);
    assert_true(ka.aside);
    assert_int_equal(g->known.len, all - n);
    assert_true(pg_known_back(g, &ka));
    assert_int_equal(g->known.len, all);
    assert_memory_equal(g->known.data, copy, all * sizeof *copy);
    if (n) {                                     /* one edge of the prefix changed before it goes */
        g->known.data[n / 2].to ^= 2;
        pg_known_aside(g, n, &ka);
        assert_true(ka.aside);
        assert_false(pg_known_back(g, &ka));
    }
    free(copy);
}

static void check_index(pg_index *ix, level_shape s, tally *tl) {
    int split = s == SHAPE_SI || s == SHAPE_PC, ww = s == SHAPE_PC, lazy = s == SHAPE_PSI;
    polygraph one;
    if (s == SHAPE_RR) pg_init_rr(&one, ix);
    else pg_init_shape(&one, ix, split, ww, lazy);
    size_t one_initial = one.known.len;
    int ok_one = pg_build_constraints(&one);
    for (unsigned threads = 1; threads <= 4; threads++) {
        par_pool *pool = par_pool_new(threads);
        fill_same_as_each(ix, pool);
        polygraph g;
        if (s == SHAPE_RR) pg_init_rr_on(&g, ix, pool, 0);
        else pg_init_shape_on(&g, ix, split, ww, lazy, pool, 0);
        assert_int_equal(g.threads, threads);
        size_t initial = g.known.len;
        assert_int_equal(initial, one_initial);   /* the base edges, copied in parts */
        assert_memory_equal(g.known.data, one.known.data, initial * sizeof *g.known.data);
        int ok = pg_build_constraints(&g);
        assert_int_equal(ok, ok_one);
        assert_same_built(&one, &g, tl);
        if (!lazy) aside_back(&g, initial);
        tl->graphs++;
        pg_free(&g);
        par_pool_free(pool);
    }
    pg_free(&one);
}

static void check_history(history *h, tally *tl) {
    if (!(h = sim_clean(h))) return;
    for (int l = 0; l < LEVEL_COUNT; l++) {
        level_shape sh = level_shape_of((check_level_id)l);
        if (sh < SHAPE_PC) continue;
        pg_index ix;
        ic_error err; ic_error_clear(&err);
        if (!pg_index_build_opts(&ix, h, &err, NULL, pg_index_opts_for((check_level_id)l))) continue;
        tl->indexes++;
        check_index(&ix, sh, tl);
        /* SER's graph on pc's index (no read-modify-write links): readers
         * of a unit's last version that write the key (unit_slow) */
        if (!ix.opts.rmw_links) check_index(&ix, SHAPE_SER, tl);
        if (h->num_txns > 3) {                   /* edges after the session order: the tail */
            pg_edge a = { 1, 2, PG_META(DEP_RT, (UINT32_MAX >> 3)) }, b = { 2, 3, PG_META(DEP_WW, 0) };
            pg_index_base_push(&ix, a);
            pg_index_base_push(&ix, b);
            check_index(&ix, sh, tl);
            tl->tails++;
        }
        pg_index_free(&ix);
    }
    history_free(h);
}

static void parts_same_as_one_thread(void **state) {
    (void)state;
    uint64_t saved = pg_par_min_work;
    pg_par_min_work = 0;                         /* split even these small problems */
    tally tl = { 0 };
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (int f = 0; f < FAULT_COUNT; f++) {
            sim_level lv = seed % 2 ? SIM_SI : SIM_SER;
            check_history(sim_history(lv, (sim_fault)f, (sim_shape){ 12, 10, 5, 6 }, seed), &tl);      /* hot keys */
            check_history(sim_history(lv, (sim_fault)f, (sim_shape){ 30, 8, 5, 80 }, seed + 10), &tl);
            check_history(sim_history(lv, (sim_fault)f, (sim_shape){ 2, 60, 4, 40 }, seed + 20), &tl); /* long sessions */
        }
    pg_par_min_work = saved;
    fprintf(stderr, "graph parts: %d indexes, %d graphs, %d with a tail, %d slow units, %d reader summaries\n",
            tl.indexes, tl.graphs, tl.tails, tl.slow_units, tl.summaries);
    assert_true(tl.indexes > 30 && tl.graphs > 100 && tl.tails > 30 && tl.slow_units > 5 && tl.summaries > 1000);
}

/* Kahn's order as written in a textbook: a queue of its own, in-degrees
 * counted plainly; a node with in-degree left when the queue runs out is
 * taken (break) or the rest appended in index order. */
static int plain_kahn(const dg_graph *g, int break_cycles, uint32_t *order) {
    uint32_t n = g->n, *indeg = calloc(n + 1, sizeof *indeg), *queue = malloc((n + 1) * sizeof *queue);
    uint8_t *done = calloc(n + 1, 1);
    uint32_t qh = 0, qt = 0, k = 0;
    int acyclic = 1;
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) indeg[g->adj[j]]++;
    for (uint32_t u = 0; u < n; u++) if (!indeg[u]) { queue[qt++] = u; done[u] = 1; }
    while (k < n) {
        if (qh == qt) {
            acyclic = 0;
            uint32_t x = 0;
            while (done[x]) x++;
            if (!break_cycles) {
                for (; x < n; x++) if (!done[x]) order[k++] = x;
                break;
            }
            queue[qt++] = x; done[x] = 1;
        }
        uint32_t u = queue[qh++];
        order[k++] = u;
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
            uint32_t v = g->adj[j];
            if (!done[v] && --indeg[v] == 0) { queue[qt++] = v; done[v] = 1; }
        }
    }
    free(indeg); free(queue); free(done);
    return acyclic;
}

/* Random graphs, mostly forward arcs (a few backward: cycles), some nodes
 * with many arcs: dg_topo_order's first-come order is the plain one, with
 * and without breaking cycles. */
static void topo_order_same_as_plain_kahn(void **state) {
    (void)state;
    uint64_t x = 88172645463325252ULL;
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
    int cyclic = 0, depths = 0;
    for (int round = 0; round < 300; round++) {
        uint32_t n = 1 + (uint32_t)(RND() % 400), m = (uint32_t)(RND() % (4 * n + 1));
        dg_arc_vec arcs; vec_init(arcs);
        for (uint32_t i = 0; i < m; i++) {
            uint32_t a = (uint32_t)(RND() % n), b = (uint32_t)(RND() % n);
            if (RND() % 64 && a > b) { uint32_t t = a; a = b; b = t; }   /* mostly forward */
            if (a == b && RND() % 2) continue;
            if (RND() % 8 == 0) a = 0;                                  /* a node of many arcs */
            dg_arc e = { a, b, DG_NONE };
            vec_push(arcs, e);
        }
        dg_graph g;
        dg_build(&g, n, arcs.data, arcs.len, 0);
        for (int brk = 0; brk < 2; brk++) {
            uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
            int ra = dg_topo_order(&g, 0, brk, a), rb = plain_kahn(&g, brk, b);
            assert_int_equal(ra, rb);
            assert_memory_equal(a, b, n * sizeof *a);
            cyclic += !ra;
            if (!brk) {      /* the in-degrees counted by the caller: the same order */
                uint32_t *indeg = calloc(n + 1, sizeof *indeg);
                for (uint32_t j = 0; j < g.start[n]; j++) indeg[g.adj[j]]++;
                memset(a, 0xFF, n * sizeof *a);
                assert_int_equal(dg_topo_order_from(&g, indeg, a), rb);
                assert_memory_equal(a, b, n * sizeof *a);
                /* with the depths beside the in-degrees: the same order,
                 * and each node's depth the longest path to it (relaxed
                 * plainly along the order) */
                uint32_t *deg = malloc(2 * (n + 1) * sizeof *deg), *depth = calloc(n + 1, sizeof *depth);
                for (uint32_t v = 0; v < n; v++) { deg[2 * v] = 0; deg[2 * v + 1] = 12345; }
                for (uint32_t j = 0; j < g.start[n]; j++) deg[2 * g.adj[j]]++;
                memset(a, 0xFF, n * sizeof *a);
                assert_int_equal(dg_topo_order_depth(&g, deg, a), rb);
                assert_memory_equal(a, b, n * sizeof *a);
                if (rb) {
                    for (uint32_t i = 0; i < n; i++)
                        for (uint32_t j = g.start[b[i]]; j < g.start[b[i] + 1]; j++)
                            if (depth[g.adj[j]] < depth[b[i]] + 1) depth[g.adj[j]] = depth[b[i]] + 1;
                    for (uint32_t v = 0; v < n; v++) assert_int_equal(deg[2 * v + 1], depth[v]);
                    depths++;
                }
                free(deg); free(depth);
                free(indeg);
            }
            free(a); free(b);
        }
        dg_free(&g);
        vec_free(arcs);
    }
#undef RND
    assert_true(cyclic > 50 && cyclic < 550);
    assert_true(depths > 50);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parts_same_as_one_thread),
        cmocka_unit_test(topo_order_same_as_plain_kahn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
