/* test_polygraph.c — the checker's stages before the solver: units, chain
 * reachability, constraint scan and pruning, and the independent
 * version-order re-check (verify_model). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "par.h"
#include "frontend/formats/parse.h"
#include "frontend/checking/polygraph.h"
#include "frontend/recheck/verify_model.h"
#include "dep_holds.h"
#include "parse_helpers.h"

/* The index's base edges as one array (they are generated). */
static void collect_edge(void *ctx, const pg_edge *e) { vec_push(*(pg_edge_vec *)ctx, *e); }
static pg_edge_vec base_edges(const pg_index *ix) {
    pg_edge_vec v; vec_init(v);
    pg_index_base_each(ix, collect_edge, &v);
    assert_int_equal(v.len, pg_index_num_base(ix));
    return v;
}

static history *text(const char *s) { return load_text(s); }

static uint32_t txn_by_ext(const history *h, int64_t ext) {
    for (uint32_t t = 1; t < h->num_txns; t++) if (h->txns[t].ext_id == ext) return t;
    fail();
    return 0;
}

/* r-m-w chain 1 -> 2 -> 3 on key x, a blind writer 4: two units besides INIT's. */
static void rmw_chains_form_units(void **state) {
    (void)state;
    history *h = text("r(1,0,1,1)\nw(1,10,1,1)\nr(1,10,2,2)\nw(1,20,2,2)\nr(1,20,3,3)\nw(1,30,3,3)\nw(1,40,4,4)\nr(1,10,4,5)\n");
    pg_index ix; ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    assert_int_equal(ix.num_keys, 1);
    assert_int_equal(ix.key_unit_start[1] - ix.key_unit_start[0], 2);   /* INIT+1+2+3, and 4 */
    const pg_unit *u0 = &ix.units.data[0], *u1 = &ix.units.data[1];
    assert_int_equal(pg_unit_len(u0), 4);
    assert_int_equal(u0->head, 0);
    assert_int_equal(u0->last, txn_by_ext(h, 3));
    assert_int_equal(ix.members.data[u0->m_first + 2], txn_by_ext(h, 2));
    assert_int_equal(u1->head, txn_by_ext(h, 4));
    assert_int_equal(ix.num_links, 3);
    /* txn 5 read version 10 (inside the chain): a known RW edge 5 -> 2 */
    int found = 0;
    pg_edge_vec base = base_edges(&ix);
    vec_foreach(const pg_edge, e, base)
        if (PG_KIND(e->meta) == DEP_RW && e->from == txn_by_ext(h, 5) && e->to == txn_by_ext(h, 2)) found = 1;
    vec_free(base);
    assert_true(found);
    pg_index_free(&ix);
    history_free(h);
}

/* Released after a count of levels, the base edges live until the last
 * level has copied them, and every level gets the same known edges as
 * without the release. */
static void base_edges_freed_after_last_copy(void **state) {
    (void)state;
    history *h = text("r(1,0,1,1)\nw(1,10,1,1)\nr(1,10,2,2)\nw(1,20,2,2)\nw(2,5,1,3)\nr(2,5,2,4)\nw(1,40,3,5)\n");
    pg_index keep, rel; ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&keep, h, &err));
    assert_true(pg_index_build(&rel, h, &err));
    pg_index_release_base_after(&rel, 2);
    size_t nbase = pg_index_num_base(&keep);
    assert_true(nbase > 0);
    for (int split = 0; split < 2; split++) {
        polygraph a, b;
        pg_init(&a, &keep, split);
        pg_init(&b, &rel, split);
        assert_int_equal(a.known.len, b.known.len);
        assert_memory_equal(a.known.data, b.known.data, a.known.len * sizeof *a.known.data);
        /* after the first level's copy base is still there, after the second gone */
        assert_int_equal(rel.base_released, split);
        if (split) assert_null(rel.base_wr.data);
        assert_false(keep.base_released);
        assert_int_equal(pg_index_num_base(&keep), nbase);
        pg_free(&a); pg_free(&b);
    }
    pg_index_free(&keep); pg_index_free(&rel);
    history_free(h);
}

static void read_of_intermediate_write_is_refused(void **state) {
    (void)state;
    history *h = text("w(1,10,1,1)\nw(1,11,1,1)\nr(1,10,2,2)\n");
    pg_index ix; ic_error err; ic_error_clear(&err);
    assert_false(pg_index_build(&ix, h, &err));
    assert_true(err.set);
    assert_non_null(strstr(err.msg, "intermediate"));
    history_free(h);
}

/* Chain reachability agrees with a BFS on the known edges, with either
 * layout of the split graph's table; the half table's start nodes of every
 * class (no arc: an aborted writer; the fixed arc only; RW arcs besides,
 * from the covering edges) are met. */
static void reach_matches_bfs(void **state) {
    (void)state;
    uint64_t x = 12345;
    uint64_t classes[4] = {0, 0, 0, 0};
    for (int round = 0; round < 40; round++) {
        /* random serial execution: acyclic known graph */
        char buf[8192]; size_t n = 0;
        int vals[4] = {0, 0, 0, 0}, next = 1;
        for (int t = 1; t <= 14; t++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            int s = (int)(x % 4), k = (int)((x >> 8) % 4);
            n += (size_t)snprintf(buf + n, sizeof buf - n, "r(%d,%d,%d,%d)\n", k, vals[k], s, t);
            if ((x >> 16) & 1) { vals[k] = next++; n += (size_t)snprintf(buf + n, sizeof buf - n, "w(%d,%d,%d,%d)\n", k, vals[k], s, t); }
            int k2 = (int)((x >> 20) % 4);
            if (k2 != k && ((x >> 24) & 1)) { vals[k2] = next++; n += (size_t)snprintf(buf + n, sizeof buf - n, "w(%d,%d,%d,%d)\n", k2, vals[k2], s, t); }
            if (((x >> 28) & 7) == 0) n += (size_t)snprintf(buf + n, sizeof buf - n, "w(%d,%d,%d,-1)\n", k, 1000 + t, s);
        }
        history *h = text(buf);
        pg_index ix; ic_error err; ic_error_clear(&err);
        assert_true(pg_index_build(&ix, h, &err));
        for (int split = 0; split < 3; split++) {      /* 2: split, half table */
            polygraph g;
            pg_reach_half_mode = split == 2 ? PG_REACH_HALF_ALWAYS : PG_REACH_HALF_NEVER;
            pg_init(&g, &ix, split != 0);
            assert_true(pg_build_constraints(&g));
            assert_true(pg_reach(&g));
            assert_int_equal(g.reach_half, split == 2);
            uint32_t N = g.num_nodes;
            if (split == 2)
                for (uint32_t t = 0; t < N / 2; t++) {
                    assert_true(g.sclass[t] <= (PG_SOUT_OWN | PG_SOUT_MORE));
                    assert_int_equal(!!(g.sclass[t] & PG_SOUT_OWN), ix.in_graph[t]);
                    classes[g.sclass[t]]++;
                }
            for (uint32_t s = 0; s < N; s++) {
                if (!ix.in_graph[pg_node_txn(&g, s)]) continue;
                /* BFS over known edges (+ fixed edges when split) */
                uint8_t seen[64] = {0};
                uint32_t q[64], qh = 0, qt = 0;
                assert_true(N <= 64);
                q[qt++] = s; seen[s] = 1;
                while (qh < qt) {
                    uint32_t u = q[qh++];
                    vec_foreach(const pg_edge, e, g.known)
                        if (e->from == u && !seen[e->to]) { seen[e->to] = 1; q[qt++] = e->to; }
                    if (split && (u & 1) && ix.in_graph[u >> 1] && !seen[u - 1]) { seen[u - 1] = 1; q[qt++] = u - 1; }
                }
                for (uint32_t v = 0; v < N; v++)
                    if (pg_node_chain(&g, v) != HISTORY_NONE && ix.in_graph[pg_node_txn(&g, v)])   /* participants: a chain is a path through them */
                        assert_int_equal(pg_reaches(&g, s, v), seen[v]);
            }
            pg_free(&g);
            pg_reach_half_mode = PG_REACH_HALF_AUTO;
        }
        pg_index_free(&ix);
        history_free(h);
    }
    assert_true(classes[0] > 0);                                   /* no arc */
    assert_true(classes[PG_SOUT_OWN] > 0);                         /* the fixed arc only */
    assert_true(classes[PG_SOUT_OWN | PG_SOUT_MORE] > 0);          /* RW arcs besides */
}

/* Rows whose offsets pass a byte take the wide escape (polygraph.h): a
 * transaction of session 1 whose first reader in session 2 comes 300
 * transactions into that session reaches positions 0 (its own) and 300
 * (split: 600): its row is wide, holds exactly those, and every fact of
 * the table is the same as with every row wide (heads only,
 * pg_reach_narrow_mode never) and as with the narrow layout's largest byte
 * lowered to 1. */
static void reach_wide_rows_exact(void **state) {
    (void)state;
    char *buf = malloc(1 << 16);
    size_t n = 0;
    n += (size_t)snprintf(buf + n, (1 << 16) - n, "w(0,1,1,1000)\nr(0,1,1,1001)\nw(1,7,1,1001)\n");
    for (int t = 1; t <= 300; t++) n += (size_t)snprintf(buf + n, (1 << 16) - n, "w(%d,%d,2,%d)\n", 10 + t, t, t);
    n += (size_t)snprintf(buf + n, (1 << 16) - n, "r(0,1,2,301)\nr(1,7,2,302)\nw(5,5,2,302)\nr(5,5,1,1002)\n");
    history *h = text(buf);
    free(buf);
    pg_index ix; ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    uint32_t a = txn_by_ext(h, 1000), b = txn_by_ext(h, 301), c = txn_by_ext(h, 300);
    for (int split = 0; split < 3; split++) {
        polygraph g[3];
        static const uint32_t narrow_max[3] = { 0xFE, 0xFE, 1 };
        pg_reach_half_mode = split == 2 ? PG_REACH_HALF_ALWAYS : PG_REACH_HALF_NEVER;
        for (int i = 0; i < 3; i++) {
            pg_reach_narrow_max = narrow_max[i];
            pg_reach_narrow_mode = i == 1 ? PG_REACH_NARROW_NEVER : PG_REACH_NARROW_ALWAYS;
            pg_init(&g[i], &ix, split != 0);
            assert_true(pg_build_constraints(&g[i]));
            assert_true(pg_reach(&g[i]));
        }
        assert_int_equal(g[1].reach_stride, 4);
        assert_true(g[0].reach_stride > 4);
        pg_reach_narrow_max = 0xFE;
        pg_reach_narrow_mode = PG_REACH_NARROW_AUTO;
        /* a's row (its commit's on the split graph) is wide; its entries */
        uint32_t an = pg_node_t(&g[0], a), S = g[0].num_chains, c2 = pg_node_chain(&g[0], pg_node_t(&g[0], b));
        const uint8_t *row = pg_reach_row(&g[0], an);
        assert_true(pg_reach_head_wide(pg_load32(row)));
        assert_true(atomic_load(&g[0].reach_wide_len) >= 1);
        assert_int_equal(pg_reach_at(&g[0], an, c2), pg_node_pos(&g[0], pg_node_tp(&g[0], b)));
        assert_true(pg_reaches(&g[0], an, pg_node_t(&g[0], b)));
        assert_false(pg_reaches(&g[0], an, pg_node_t(&g[0], c)));
        /* the same 16-bit rows (frame and offsets) in every layout, and
         * the same facts */
        uint32_t rows = g[0].reach_half ? g[0].num_nodes / 2 : g[0].num_nodes;
        uint16_t r0[8], r1[8];
        assert_true(S <= 8);
        for (uint32_t r = 0; r < rows; r++)
            for (int i = 1; i < 3; i++) {
                assert_int_equal(pg_reach_row_get(&g[0], r, r0), pg_reach_row_get(&g[i], r, r1));
                assert_memory_equal(r0, r1, S * sizeof *r0);
            }
        for (uint32_t u = 0; u < g[0].num_nodes; u++)
            for (uint32_t v = 0; v < g[0].num_nodes; v++)
                for (int i = 1; i < 3; i++) assert_int_equal(pg_reaches(&g[0], u, v), pg_reaches(&g[i], u, v));
        for (int i = 0; i < 3; i++) pg_free(&g[i]);
    }
    pg_reach_half_mode = PG_REACH_HALF_AUTO;
    pg_index_free(&ix);
    history_free(h);
}

/* One key, 400 writers in session order, each version read by a reader in
 * another session: every pair is decided by reachability, no constraint is
 * left and the covering edges stay linear in the number of writers. */
static void hot_key_session_order_is_linear(void **state) {
    (void)state;
    enum { W = 400 };
    static char buf[W * 48];
    size_t n = 0;
    for (int i = 1; i <= W; i++) {
        n += (size_t)snprintf(buf + n, sizeof buf - n, "w(1,%d,1,%d)\n", i, i);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "r(1,%d,%d,%d)\n", i, 2 + i % 3, W + i);
    }
    history *h = text(buf);
    pg_index ix; ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    polygraph g;
    pg_init(&g, &ix, 1);
    assert_true(pg_build_constraints(&g));
    assert_int_equal(g.pairs_total, (uint64_t)W * (W - 1) / 2);
    assert_int_equal(g.cons.len, 0);
    assert_true(g.edges_covering <= (uint64_t)W * 2 * g.num_chains);
    assert_true(pg_prune(&g, 100));
    pg_free(&g);
    pg_index_free(&ix);
    history_free(h);
}

/* The chain budget is counted over the rows the table will have: a half
 * table (SI's split graph) has one row a transaction, not two, so the
 * budget that fits every session's column for SER's graph fits it for
 * SI's too (22M SI tracked 46 of 100 sessions when both nodes counted). */
static void chain_budget_counts_table_rows(void **state) {
    (void)state;
    enum { S = 4, PER = 10 };
    static char buf[S * PER * 48];
    size_t n = 0;
    for (int i = 0; i < S * PER; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "w(%d,%d,%d,%d)\n", 1 + i % 7, 100 + i, 1 + i % S, 1 + i);
    history *h = text(buf);
    pg_index ix; ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    uint64_t saved = pg_reach_budget, rows = h->num_txns;
    pg_reach_half_id half = pg_reach_half_mode;
    struct { uint64_t chains; int split; pg_reach_half_id mode; uint32_t want; } cases[] = {
        { S, 1, PG_REACH_HALF_AUTO, S },       /* rows = transactions: every session */
        { S, 0, PG_REACH_HALF_AUTO, S },       /* SER: one node a transaction anyway */
        { S - 1, 1, PG_REACH_HALF_AUTO, S - 1 },   /* one column less: the largest S - 1 */
        { S, 1, PG_REACH_HALF_NEVER, 1 },      /* a full split table: two rows a transaction */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pg_reach_budget = 2 * (rows + 1) * (cases[i].chains + 2);
        pg_reach_half_mode = cases[i].mode;
        polygraph g;
        pg_init(&g, &ix, cases[i].split);
        assert_int_equal(g.num_chains, cases[i].want);
        uint32_t tracked = 0;
        for (uint32_t c = 0; c < pg_num_sessions(&ix); c++) tracked += g.chain_of_session[c] != UINT32_MAX;
        assert_int_equal(tracked, cases[i].want);
        assert_true(pg_build_constraints(&g));      /* and the graph is built on them */
        pg_free(&g);
    }
    pg_reach_budget = saved;
    pg_reach_half_mode = half;
    pg_index_free(&ix);
    history_free(h);
}

/* PolySI's pruning example shape: a side that closes a cycle is dropped. */
static void pruning_decides_forced_order(void **state) {
    (void)state;
    /* T1 and T2 write x blindly in different sessions; T3 after T2 in
     * session 2 reads T1's x: T2 must come first. */
    history *h = text("w(1,10,1,1)\nw(1,20,2,2)\nr(1,10,2,3)\n");
    pg_index ix; ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    for (int split = 0; split < 2; split++) {
        polygraph g;
        pg_init(&g, &ix, split);
        g.reach_keep = 1;                 /* the blocked tests below read the table */
        assert_true(pg_build_constraints(&g));
        assert_true(pg_prune(&g, 100));
        assert_int_equal(g.cons.len, 0);
        uint32_t u1 = ix.key_unit_start[0] + 1, u2 = u1 + 1;
        uint32_t t2 = txn_by_ext(h, 2);
        if (ix.units.data[u1].head == t2) { uint32_t t = u1; u1 = u2; u2 = t; }
        /* u1 (T1) before u2 (T2) is impossible */
        assert_true(pg_side_blocked(&g, u1, u2));
        assert_false(pg_side_blocked(&g, u2, u1));
        pg_free(&g);
    }
    pg_index_free(&ix);
    history_free(h);
}

static void make_vo(version_order *vo, uint32_t nkeys, const uint32_t *lists, const uint32_t *lens) {
    vo->num_keys = nkeys;
    vo->start = malloc((nkeys + 1) * sizeof *vo->start);
    vec_init(vo->txns);
    size_t off = 0;
    for (uint32_t k = 0; k < nkeys; k++) {
        vo->start[k] = (uint32_t)vo->txns.len;
        for (uint32_t i = 0; i < lens[k]; i++) vec_push(vo->txns, lists[off + i]);
        off += lens[k];
    }
    vo->start[nkeys] = (uint32_t)vo->txns.len;
}

static void verify_model_checks_by_definition(void **state) {
    (void)state;
    /* write skew: SI holds under the (only) version order, SER does not */
    history *h = text("r(1,0,1,1)\nr(2,0,1,1)\nw(1,10,1,1)\nr(1,0,2,2)\nr(2,0,2,2)\nw(2,20,2,2)\n");
    uint32_t t1 = txn_by_ext(h, 1), t2 = txn_by_ext(h, 2);
    uint32_t k1 = 0, k2 = 1;
    if (h->key_ext[0] != 1) { k1 = 1; k2 = 0; }
    uint32_t lists[4], lens[2] = {2, 2};
    lists[k1 * 2] = 0; lists[k1 * 2 + 1] = t1;
    lists[k2 * 2] = 0; lists[k2 * 2 + 1] = t2;
    version_order vo;
    make_vo(&vo, 2, lists, lens);
    char why[300];
    dep_edge_vec cyc; vec_init(cyc);
    assert_int_equal(vo_check(h, &vo, 1, &cyc, why, sizeof why), 1);
    assert_int_equal(vo_check(h, &vo, 0, &cyc, why, sizeof why), 0);
    assert_int_equal(cyc.len, 2);
    assert_true(cycle_holds(h, &vo, 0, cyc.data, cyc.len, why, sizeof why));
    assert_false(cycle_holds(h, &vo, 1, cyc.data, cyc.len, why, sizeof why));   /* RW, RW: fine for SI */
    dep_edge bogus = { t1, t2, k1, DEP_WW };
    assert_false(dep_holds(h, &vo, &bogus, why, sizeof why));
    dep_edge rw = { t2, t1, k1, DEP_RW };
    assert_true(dep_holds(h, &vo, &rw, why, sizeof why));
    version_order_free(&vo);
    /* malformed: a writer missing, INIT not first */
    uint32_t bad1[4] = {0, 0, 0, 0}, badlens[2] = {1, 1};
    make_vo(&vo, 2, bad1, badlens);
    assert_int_equal(vo_check(h, &vo, 1, NULL, why, sizeof why), -1);
    version_order_free(&vo);
    lists[k1 * 2] = t1; lists[k1 * 2 + 1] = 0;
    make_vo(&vo, 2, lists, lens);
    assert_int_equal(vo_check(h, &vo, 1, NULL, why, sizeof why), -1);
    version_order_free(&vo);
    vec_free(cyc);
    history_free(h);
}

/* A list read after the reader's own append: the index records the
 * external prefix's read (WR, and the reader linked right after the
 * prefix's writer), and verify_model replays it the same way on its own. */
static void list_read_after_own_append(void **state) {
    (void)state;
    const char *s = "{:type :ok, :f :txn, :process 0, :index 1, :value [[:append 1 1] [:r 2 [1]]]}\n"
                    "{:type :ok, :f :txn, :process 1, :index 2, :value [[:append 2 1] [:append 1 2] [:r 1 [1 2]]]}\n";
    ic_error err; ic_error_clear(&err);
    history *h = load_history_mem(s, strlen(s), FORMAT_ELLE, "t.edn", &err);
    assert_non_null(h);
    uint32_t t1 = txn_by_ext(h, 1), t2 = txn_by_ext(h, 2);
    uint32_t k1 = h->op_key[h->txns[t1].first_op], k2 = h->op_key[h->txns[t1].first_op + 1];
    pg_index ix;
    assert_true(pg_index_build(&ix, h, &err));
    int wr12 = 0, wr21 = 0, ww12 = 0;
    pg_edge_vec base = base_edges(&ix);
    vec_foreach(const pg_edge, e, base) {
        wr12 += PG_KIND(e->meta) == DEP_WR && e->from == t1 && e->to == t2 && PG_KEY(e->meta) == k1;
        wr21 += PG_KIND(e->meta) == DEP_WR && e->from == t2 && e->to == t1 && PG_KEY(e->meta) == k2;
        ww12 += PG_KIND(e->meta) == DEP_WW && e->from == t1 && e->to == t2 && PG_KEY(e->meta) == k1;
    }
    assert_int_equal(wr12, 1);
    assert_int_equal(wr21, 1);
    assert_int_equal(ww12, 1);
    vec_free(base);
    /* key 1's INIT unit is INIT, txn 1, txn 2 */
    const pg_unit *u = &ix.units.data[ix.key_unit_start[k1]];
    assert_int_equal(pg_unit_len(u), 3);
    assert_int_equal(ix.members.data[u->m_first + 1], t1);
    assert_int_equal(ix.members.data[u->m_first + 2], t2);
    pg_index_free(&ix);

    uint32_t lists[5], lens[2] = { 0, 0 };
    uint32_t *l1 = k1 == 0 ? lists : lists + 2, *l2 = k1 == 0 ? lists + 3 : lists;
    l1[0] = 0; l1[1] = t1; l1[2] = t2;
    l2[0] = 0; l2[1] = t2;
    lens[k1] = 3; lens[k2] = 2;
    version_order vo;
    make_vo(&vo, 2, lists, lens);
    char why[300];
    dep_edge_vec cyc; vec_init(cyc);
    assert_int_equal(vo_check(h, &vo, 1, &cyc, why, sizeof why), 0);        /* the G1c cycle */
    assert_true(cycle_holds(h, &vo, 1, cyc.data, cyc.len, why, sizeof why));
    dep_edge wr = { t1, t2, k1, DEP_WR };
    assert_true(dep_holds(h, &vo, &wr, why, sizeof why));
    version_order_free(&vo);
    l1[1] = t2; l1[2] = t1;                          /* txn 2 first contradicts its [1 2] */
    make_vo(&vo, 2, lists, lens);
    assert_int_equal(vo_check(h, &vo, 1, NULL, why, sizeof why), -1);
    assert_string_equal(why, "T2's list read of key 0 disagrees with the version order");
    /* the keys replayed as separate tasks on a pool: the same message */
    par_pool *pool = par_pool_new(3);
    why[0] = 0;
    assert_int_equal(vo_check_on(h, &vo, 1, NULL, why, sizeof why, pool, 0), -1);
    assert_string_equal(why, "T2's list read of key 0 disagrees with the version order");
    par_pool_free(pool);
    version_order_free(&vo);
    vec_free(cyc);
    history_free(h);
}

static uint32_t key_by_ext(const history *h, int64_t ext) {
    for (uint32_t k = 0; k < h->num_keys; k++) if (h->key_ext[k] == ext) return k;
    fail();
    return 0;
}

/* The re-check's compact graph: a cycle that needs one edge of each kind
 * (A -SO-> B -WR x-> C -WW y-> D -RW z-> A), among transactions numbered
 * above 2^16 (70000 readers come first in session 1), D the last
 * transaction, so its start node T' is the split graph's last node.  An
 * arc dropped (any kind, the last node's, a key range's), an id or key
 * truncated, or an arc's kind or key mislabelled changes the answer or
 * the cycle reported; the order with C and D swapped is acyclic. */
static void verify_model_graph_survives_compaction(void **state) {
    (void)state;
    enum { FILL = 70000 };
    size_t cap = (size_t)FILL * 32 + 256, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    for (int i = 1; i <= FILL; i++) len += (size_t)snprintf(src + len, cap - len, "r(9,0,1,%d)\n", i);
    len += (size_t)snprintf(src + len, cap - len,
                            "w(3,1,2,900001)\n"                  /* A: writes z */
                            "w(1,1,2,900002)\n"                  /* B: writes x, after A in session 2 */
                            "r(1,1,3,900003)\nw(2,1,3,900003)\n" /* C: reads B's x, writes y */
                            "w(2,2,4,900004)\nr(3,0,4,900004)\n" /* D: writes y after C, reads INIT's z */);
    ic_error err; ic_error_clear(&err);
    history *h = load_history_mem(src, len, FORMAT_TEXT, "t.txt", &err);
    free(src);
    assert_non_null(h);
    uint32_t A = txn_by_ext(h, 900001), B = txn_by_ext(h, 900002), C = txn_by_ext(h, 900003), D = txn_by_ext(h, 900004);
    uint32_t x = key_by_ext(h, 1), y = key_by_ext(h, 2), z = key_by_ext(h, 3), f = key_by_ext(h, 9);
    assert_true(A > 65536 && B > 65536 && C > 65536);
    assert_int_equal(D, h->num_txns - 1);
    uint32_t lists[8], lens[4];
    version_order vo;
    for (int swap = 0; swap < 2; swap++) {
        /* per key in key order: f: INIT; x: INIT B; y: INIT C D (or D C); z: INIT A */
        size_t o = 0;
        for (uint32_t k = 0; k < 4; k++) {
            lists[o++] = 0;
            if (k == x) lists[o++] = B;
            if (k == y) { lists[o++] = swap ? D : C; lists[o++] = swap ? C : D; }
            if (k == z) lists[o++] = A;
            lens[k] = k == f ? 1 : k == y ? 3 : 2;
        }
        make_vo(&vo, 4, lists, lens);
        for (int si = 0; si < 2; si++)
            for (unsigned threads = 1; threads <= 3; threads += 2) {
                par_pool *pool = threads > 1 ? par_pool_new(threads) : NULL;
                char why[300] = "";
                dep_edge_vec cyc; vec_init(cyc);
                int rc = vo_check_on(h, &vo, si, &cyc, why, sizeof why, pool, 0);
                par_pool_free(pool);
                if (swap) {
                    assert_int_equal(rc, 1);
                    vec_free(cyc);
                    continue;
                }
                assert_int_equal(rc, 0);
                assert_int_equal(cyc.len, 4);
                const dep_edge want[4] = { { A, B, HISTORY_NONE, DEP_SO }, { B, C, x, DEP_WR },
                                           { C, D, y, DEP_WW }, { D, A, z, DEP_RW } };
                for (int w = 0; w < 4; w++) {
                    int seen = 0;
                    vec_foreach(const dep_edge, e, cyc)
                        seen += e->from == want[w].from && e->to == want[w].to && e->key == want[w].key &&
                                e->kind == want[w].kind;
                    assert_int_equal(seen, 1);
                }
                assert_true(cycle_holds(h, &vo, si, cyc.data, cyc.len, why, sizeof why));
                vec_free(cyc);
            }
        version_order_free(&vo);
    }
    history_free(h);
}

/* The re-check indexes and replays the keys in ranges on a pool: on a
 * serial execution over many keys, the valid order passes and every
 * malformed or inconsistent order gets the same answer and the same
 * message on 1, 2 and 3 threads — the first bad key's, in key order, even
 * when a later range fails too. */
enum { RK_KEYS = 150, RK_SESS = 6, RK_TXNS = 900 };

static int recheck_cycles;       /* orders with a cycle seen */
static int holds_checked[2];     /* cycles that do not hold and that hold, on a pool and not */

static int recheck_all_pools(const history *h, const version_order *vo, int si, char *why0) {
    int rc0 = 0;
    dep_edge_vec c0; vec_init(c0);
    for (unsigned threads = 1; threads <= 3; threads++) {
        par_pool *pool = threads > 1 ? par_pool_new(threads) : NULL;
        char why[300] = "";
        dep_edge_vec cyc; vec_init(cyc);
        int rc = vo_check_on(h, vo, si, &cyc, why, sizeof why, pool, 0);
        par_pool_free(pool);
        if (threads == 1) {
            rc0 = rc; snprintf(why0, 300, "%s", why);
            c0 = cyc;
            if (rc == 0) { recheck_cycles++; assert_true(cycle_holds(h, vo, si, cyc.data, cyc.len, why, sizeof why)); }
            continue;
        }
        assert_int_equal(rc, rc0);
        if (rc < 0) assert_string_equal(why, why0);
        /* the same cycle, arc for arc: the graph's layout does not depend on the pool */
        assert_int_equal(cyc.len, c0.len);
        for (size_t i = 0; i < cyc.len; i++) assert_memory_equal(&cyc.data[i], &c0.data[i], sizeof cyc.data[i]);
        vec_free(cyc);
        if (rc != 0) continue;
        /* cycle_holds_level gathers the cycle's keys on the pool: the same answer and message,
         * for the cycle and for it with one edge's key or target changed */
        check_level_id lv = si ? LEVEL_SI : LEVEL_SER;
        for (size_t bad = 0; bad <= 2 * c0.len; bad++) {
            dep_edge_vec c1; vec_init(c1);
            vec_foreach(const dep_edge, e, c0) vec_push(c1, *e);
            if (bad && c1.data[(bad - 1) / 2].kind != DEP_SO) {
                dep_edge *e = &c1.data[(bad - 1) / 2];
                if (bad % 2) e->key = (e->key + 1) % RK_KEYS; else e->to = (e->to + 1) % RK_TXNS;
            }
            char w1[300] = "", wp[300] = "";
            int h1 = cycle_holds_level(h, vo, lv, c1.data, c1.len, w1, sizeof w1);
            par_pool *pool2 = par_pool_new(threads);
            int hp = cycle_holds_level_on(h, vo, lv, c1.data, c1.len, wp, sizeof wp, pool2, 0);
            par_pool_free(pool2);
            assert_int_equal(hp, h1);
            assert_string_equal(wp, w1);
            if (!bad) assert_int_equal(h1, 1);
            holds_checked[h1]++;
            vec_free(c1);
        }
    }
    vec_free(c0);
    return rc0;
}

static void recheck_in_key_ranges_same_answers(void **state) {
    (void)state;
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
#define RND(n) (rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17, (uint32_t)(rng % (n)))
    size_t cap = (size_t)RK_TXNS * 4 * 48 + 64, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    int64_t cur[RK_KEYS + 1] = { 0 }, next = 1;
    /* writers per key in the serial order (external ids) */
    int64_t *wr = calloc((size_t)(RK_KEYS + 1) * RK_TXNS, sizeof *wr);
    uint32_t nw[RK_KEYS + 1] = { 0 };
    assert_non_null(wr);
    for (int t = 1; t <= RK_TXNS; t++) {
        int sess = 1 + (t - 1) * RK_SESS / RK_TXNS, nops = 1 + (int)RND(4), wrote[RK_KEYS + 1] = { 0 };
        for (int i = 0; i < nops; i++) {
            int k = 1 + (int)RND(RK_KEYS);
            if (RND(2)) {
                cur[k] = next++;
                len += (size_t)snprintf(src + len, cap - len, "w(%d,%lld,%d,%d)\n", k, (long long)cur[k], sess, t);
                if (!wrote[k]) { wrote[k] = 1; wr[(size_t)k * RK_TXNS + nw[k]++] = t; }
            } else len += (size_t)snprintf(src + len, cap - len, "r(%d,%lld,%d,%d)\n", k, (long long)cur[k], sess, t);
        }
    }
    /* every key written at least once (INIT aside) */
    for (int k = 1; k <= RK_KEYS; k++)
        if (!nw[k]) {
            len += (size_t)snprintf(src + len, cap - len, "w(%d,%lld,%d,%d)\n", k, (long long)next++, RK_SESS, RK_TXNS + k);
            wr[(size_t)k * RK_TXNS + nw[k]++] = RK_TXNS + k;
        }
    history *h = text(src);
    /* the same with a read of a value nobody wrote, in key ext 1's
     * transaction that comes last: the replay's fault, not the order's */
    len += (size_t)snprintf(src + len, cap - len, "r(1,777777777,%d,%d)\n", RK_SESS, RK_TXNS + RK_KEYS + 1);
    history *hbad = text(src);
    free(src);
    uint32_t nk = h->num_keys;
    assert_int_equal(nk, RK_KEYS);
    /* the serial order: per key INIT, then its writers as executed */
    version_order good;
    good.num_keys = nk;
    good.start = malloc(((size_t)nk + 1) * sizeof *good.start);
    vec_init(good.txns);
    for (uint32_t k = 0; k < nk; k++) {
        int64_t ext = h->key_ext[k];
        good.start[k] = (uint32_t)good.txns.len;
        vec_push(good.txns, 0u);
        for (uint32_t i = 0; i < nw[ext]; i++) vec_push(good.txns, txn_by_ext(h, wr[(size_t)ext * RK_TXNS + i]));
    }
    good.start[nk] = (uint32_t)good.txns.len;
    free(wr);
    char why[300];
    for (int si = 0; si < 2; si++) assert_int_equal(recheck_all_pools(h, &good, si, why), 1);

    /* keys with at least two writers, low and high in key order */
    uint32_t lo = UINT32_MAX, hi = UINT32_MAX;
    for (uint32_t k = 0; k < nk; k++)
        if (good.start[k + 1] - good.start[k] >= 3) { if (lo == UINT32_MAX) lo = k; hi = k; }
    assert_true(lo != UINT32_MAX && hi > lo + 20);
    char msg[300];
    for (int mut = 0; mut < 6; mut++) {
        version_order vo;
        vo.num_keys = nk;
        vo.start = malloc(((size_t)nk + 1) * sizeof *vo.start);
        memcpy(vo.start, good.start, ((size_t)nk + 1) * sizeof *vo.start);
        vec_init(vo.txns);
        vec_reserve(vo.txns, good.txns.len);
        memcpy(vo.txns.data, good.txns.data, good.txns.len * sizeof *vo.txns.data);
        vo.txns.len = good.txns.len;
        uint32_t *lt = vo.txns.data + vo.start[lo], *ht = vo.txns.data + vo.start[hi];
        switch (mut) {
        case 0: lt[2] = lt[1]; snprintf(msg, sizeof msg, "key %u: bad or repeated writer T%u in the version order", lo, lt[1]); break;
        case 1: lt[0] = lt[1]; lt[1] = 0; snprintf(msg, sizeof msg, "key %u: the version order does not start with INIT", lo); break;
        case 2: /* a writer of another key in the low key's list; the high key broken too */
            lt[1] = ht[1]; ht[2] = ht[1];
            snprintf(msg, sizeof msg, "key %u: bad or repeated writer T%u in the version order", lo, ht[1]); break;
        case 3: ht[1] = ht[2]; snprintf(msg, sizeof msg, "key %u: bad or repeated writer T%u in the version order", hi, ht[2]); break;
        case 4: /* the high key's slice empty: the keys before it are still looked at first */
            vo.start[hi + 1] = vo.start[hi]; lt[2] = lt[1];
            snprintf(msg, sizeof msg, "key %u: bad or repeated writer T%u in the version order", lo, lt[1]); break;
        default: /* the same, the low key sound: the empty slice is the first fault */
            vo.start[hi + 1] = vo.start[hi];
            snprintf(msg, sizeof msg, "key %u: the version order does not start with INIT", hi); break;
        }
        for (int si = 0; si < 2; si++) {
            assert_int_equal(recheck_all_pools(h, &vo, si, why), -1);
            assert_string_equal(why, msg);
        }
        version_order_free(&vo);
    }
    /* two writers of the low key swapped: a read disagrees or a cycle
     * appears (the serial order was the only one its reads allow, or not):
     * never a pass unless the swap is harmless, and the same on every pool */
    recheck_cycles = 0;
    for (uint32_t k = 0; k < nk; k++) {
        if (good.start[k + 1] - good.start[k] < 3) continue;
        uint32_t *t = good.txns.data + good.start[k], x = t[1];
        t[1] = t[2]; t[2] = x;
        for (int si = 0; si < 2; si++) (void)recheck_all_pools(h, &good, si, why);
        t[2] = t[1]; t[1] = x;
    }
    assert_true(recheck_cycles > 20);
    assert_true(holds_checked[0] > 20 && holds_checked[1] > 20);
    /* the bad read alone: the replay's message; with an index fault of a
     * later key too: the index's (the whole index is checked first) */
    {
        uint32_t k1 = key_by_ext(hbad, 1), tb = txn_by_ext(hbad, RK_TXNS + RK_KEYS + 1);
        for (int si = 0; si < 2; si++) {
            assert_int_equal(recheck_all_pools(hbad, &good, si, why), -1);
            snprintf(msg, sizeof msg, "T%u's read of key %u is no other participant's installed version", tb, k1);
            assert_string_equal(why, msg);
        }
        uint32_t last = nk - 1;
        while (good.start[last + 1] - good.start[last] < 3) last--;
        assert_true(last > k1 + 20);
        uint32_t *lt = good.txns.data + good.start[last], x = lt[2];
        lt[2] = lt[1];
        for (int si = 0; si < 2; si++) {
            assert_int_equal(recheck_all_pools(hbad, &good, si, why), -1);
            snprintf(msg, sizeof msg, "key %u: bad or repeated writer T%u in the version order", last, lt[1]);
            assert_string_equal(why, msg);
        }
        lt[2] = x;
    }
    version_order_free(&good);
    history_free(h);
    history_free(hbad);
#undef RND
}

/* The index's per-key part in key ranges on a pool: the same arrays as
 * one pass, field by field, on a history of many keys with read-modify-
 * write chains (units of several writers), blind writes and reads of
 * older versions. */
/* A key's WR base edges come sorted by reader (known_graph.c sorts them
 * by runs and merges, no qsort): on hot keys with up to a few hundred
 * readers a key, each key's WR edges are one block, strictly ascending by
 * reader, and they are exactly the reads of a written value, as the text
 * says (writer of the value read -> reader). */
static void base_wr_edges_sorted_by_reader(void **state) {
    (void)state;
    uint64_t rng = 0x5EEDull;
#define RND2(n) (rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17, (uint32_t)(rng % (n)))
    enum { KEYS = 4, TXNS = 1500 };
    size_t cap = (size_t)TXNS * 3 * 40 + 64, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    int64_t cur[KEYS + 1] = { 0 }, next = 1;
    int writer_of[TXNS * 2 + 2] = { 0 };               /* value -> the transaction (ext id) writing it */
    uint64_t expect = 0, sum = 0;                      /* WR pairs: count and a sum over (writer, reader) */
    for (int t = 1; t <= TXNS; t++) {
        int k = 1 + (int)RND2(KEYS), k2 = 1 + (int)((k + RND2(KEYS - 1)) % KEYS);
        len += (size_t)snprintf(src + len, cap - len, "r(%d,%lld,%d,%d)\n", k, (long long)cur[k], 1 + t % 7, t);
        if (cur[k]) { expect++; sum += (uint64_t)writer_of[cur[k]] * 100003u + (uint64_t)t; }
        if (RND2(8) == 0) {                            /* a few writers: many readers a version */
            cur[k2] = next++;
            writer_of[cur[k2]] = t;
            len += (size_t)snprintf(src + len, cap - len, "w(%d,%lld,%d,%d)\n", k2, (long long)cur[k2], 1 + t % 7, t);
        }
    }
#undef RND2
    history *h = text(src);
    free(src);
    pg_index ix;
    ic_error err; ic_error_clear(&err);
    assert_true(pg_index_build(&ix, h, &err));
    pg_edge_vec v = base_edges(&ix);
    uint64_t seen = 0, got = 0;
    uint32_t last_key = UINT32_MAX, last_reader = 0, blocks = 0;
    vec_foreach(const pg_edge, e, v) {
        if (PG_KIND(e->meta) != DEP_WR) continue;
        uint32_t k = PG_KEY(e->meta);
        if (k != last_key) { blocks++; last_key = k; }
        else assert_true(e->to > last_reader);         /* strictly ascending within the key */
        last_reader = e->to;
        seen++;
        got += (uint64_t)h->txns[e->from].ext_id * 100003u + (uint64_t)h->txns[e->to].ext_id;
    }
    assert_int_equal(blocks, KEYS);                    /* one block a key */
    assert_int_equal(seen, expect);
    assert_int_equal(got, sum);
    assert_true(expect > 1000);
    vec_free(v);
    pg_index_free(&ix);
    history_free(h);
}

static void index_in_key_ranges_same_arrays(void **state) {
    (void)state;
    uint64_t rng = 0x1D3Eull;
#define RND(n) (rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17, (uint32_t)(rng % (n)))
    enum { KEYS = 300, TXNS = 3000, SESS = 8 };
    size_t cap = (size_t)TXNS * 6 * 48 + 64, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    int64_t cur[KEYS + 1] = { 0 }, prev[KEYS + 1] = { 0 }, next = 1;
    for (int t = 1; t <= TXNS; t++) {
        int sess = 1 + (int)RND(SESS), nops = 1 + (int)RND(5), done[KEYS + 1] = { 0 };
        for (int i = 0; i < nops; i++) {
            int k = 1 + (int)RND(KEYS);
            if (done[k]) continue;
            done[k] = 1;
            switch (RND(4)) {
            case 0:                                   /* read-modify-write: a link */
                len += (size_t)snprintf(src + len, cap - len, "r(%d,%lld,%d,%d)\n", k, (long long)cur[k], sess, t);
                /* fall through */
            case 1:
                prev[k] = cur[k]; cur[k] = next++;
                len += (size_t)snprintf(src + len, cap - len, "w(%d,%lld,%d,%d)\n", k, (long long)cur[k], sess, t);
                break;
            case 2:
                len += (size_t)snprintf(src + len, cap - len, "r(%d,%lld,%d,%d)\n", k, (long long)cur[k], sess, t);
                break;
            default:                                  /* an older version */
                len += (size_t)snprintf(src + len, cap - len, "r(%d,%lld,%d,%d)\n", k, (long long)prev[k], sess, t);
            }
        }
    }
    history *h = text(src);
    free(src);
    ic_error err; ic_error_clear(&err);
    pg_index one;
    assert_true(pg_index_build(&one, h, &err));
    assert_true(one.num_links > 100 && one.units.len > 1000);
    /* the compact units: key, INIT's unit, length and readers from the next unit */
    size_t members = 0, readers = 0;
    for (uint32_t k = 0; k < h->num_keys; k++)
        for (uint32_t u = one.key_unit_start[k]; u < one.key_unit_start[k + 1]; u++) {
            const pg_unit *U = &one.units.data[u];
            assert_int_equal(pg_unit_key(&one, u), k);
            assert_int_equal(pg_unit_is_init(&one, u), u == one.key_unit_start[k]);
            assert_int_equal(U->m_first, members);
            assert_int_equal(U->rd_first, readers);
            assert_true(pg_unit_len(U) >= 1);
            assert_int_equal(one.members.data[U->m_first], U->head);
            assert_int_equal(one.members.data[U->m_first + pg_unit_len(U) - 1], U->last);
            members += pg_unit_len(U);
            readers += pg_unit_rd_num(U);
        }
    assert_int_equal(members, one.members.len);
    assert_int_equal(readers, one.readers.len);
    for (unsigned threads = 2; threads <= 3; threads++) {
        par_pool *pool = par_pool_new(threads);
        pg_index ix;
        assert_true(pg_index_build_on(&ix, h, &err, pool));
        par_pool_free(pool);
        assert_int_equal(ix.num_writers, one.num_writers);
        assert_int_equal(ix.num_links, one.num_links);
        assert_int_equal(ix.num_ext_reads, one.num_ext_reads);
        assert_int_equal(ix.num_graph_txns, one.num_graph_txns);
        assert_memory_equal(ix.key_unit_start, one.key_unit_start, ((size_t)h->num_keys + 1) * sizeof *ix.key_unit_start);
        assert_int_equal(ix.units.len, one.units.len);
        assert_memory_equal(ix.units.data, one.units.data, one.units.len * sizeof *ix.units.data);
        assert_int_equal(ix.members.len, one.members.len);
        assert_memory_equal(ix.members.data, one.members.data, one.members.len * sizeof *ix.members.data);
        assert_int_equal(ix.readers.len, one.readers.len);
        assert_memory_equal(ix.readers.data, one.readers.data, one.readers.len * sizeof *ix.readers.data);
        pg_edge_vec x = base_edges(&ix), y = base_edges(&one);
        assert_int_equal(x.len, y.len);
        for (size_t i = 0; i < y.len; i++) {
            const pg_edge *a = &x.data[i], *b = &y.data[i];
            assert_true(a->from == b->from && a->to == b->to && a->meta == b->meta);
        }
        vec_free(x); vec_free(y);
        pg_index_free(&ix);
    }
    pg_index_free(&one);
    history_free(h);
    /* faults in the read pass: two reads of unwritten values (the earlier
     * transaction's is the error), then an intermediate write read early
     * and an unwritten value read late (the read pass's fault comes first) */
    for (int bad = 0; bad < 2; bad++) {
        len = 0;
        src = malloc(cap);
        assert_non_null(src);
        for (int t = 1; t <= TXNS; t++) {
            int k = 1 + t % KEYS, sess = 1 + t % SESS;
            if (bad == 0 && (t == 40 || t == TXNS - 40))          /* before the own write: external */
                len += (size_t)snprintf(src + len, cap - len, "r(%d,%d,%d,%d)\n", k, 1000000 + t, sess, t);
            if (bad == 1 && t == TXNS - 40) len += (size_t)snprintf(src + len, cap - len, "r(%d,%d,%d,%d)\n", k, 1000000 + t, sess, t);
            len += (size_t)snprintf(src + len, cap - len, "w(%d,%d,%d,%d)\n", k, 2 * t, sess, t);
            if (bad == 1 && t == 5) len += (size_t)snprintf(src + len, cap - len, "w(%d,%d,%d,%d)\n", k, 2 * t + 1, sess, t);
            if (bad == 1 && t == 50) len += (size_t)snprintf(src + len, cap - len, "r(%d,%d,%d,%d)\n", 1 + 5 % KEYS, 10, sess, t);
        }
        h = text(src);
        free(src);
        ic_error e1; ic_error_clear(&e1);
        pg_index bi;
        assert_false(pg_index_build(&bi, h, &e1));
        assert_non_null(strstr(e1.msg, "observes a value nobody wrote"));
        assert_non_null(strstr(e1.msg, bad ? "t.txt:2962:" : "t.txt:40:"));   /* the late read; the early one */
        for (unsigned threads = 2; threads <= 3; threads++) {
            par_pool *pool = par_pool_new(threads);
            ic_error e2; ic_error_clear(&e2);
            assert_false(pg_index_build_on(&bi, h, &e2, pool));
            par_pool_free(pool);
            assert_string_equal(e2.msg, e1.msg);
        }
        history_free(h);
    }
#undef RND
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rmw_chains_form_units),
        cmocka_unit_test(base_edges_freed_after_last_copy),
        cmocka_unit_test(read_of_intermediate_write_is_refused),
        cmocka_unit_test(reach_matches_bfs),
        cmocka_unit_test(reach_wide_rows_exact),
        cmocka_unit_test(hot_key_session_order_is_linear),
        cmocka_unit_test(pruning_decides_forced_order),
        cmocka_unit_test(chain_budget_counts_table_rows),
        cmocka_unit_test(verify_model_checks_by_definition),
        cmocka_unit_test(list_read_after_own_append),
        cmocka_unit_test(verify_model_graph_survives_compaction),
        cmocka_unit_test(recheck_in_key_ranges_same_answers),
        cmocka_unit_test(index_in_key_ranges_same_arrays),
        cmocka_unit_test(base_wr_edges_sorted_by_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
