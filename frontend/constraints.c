/* constraints.c — one level's polygraph: the known edges as node edges of
 * the level's graph, and the either/or constraints between units of a key.
 *
 * Side "U before V" of a unit pair adds last(U) -WW-> head(V) and
 * r -RW-> head(V) for each reader r of last(U).  A side is blocked when one
 * of its edges x -> y closes a cycle with the known graph, i.e. y reaches x
 * (PolySI's pruning test; in the split graph this is exactly its corrected
 * RW rule, since an RW edge starts at the reader's T' node).
 *
 * The initial scan looks at every unit pair of a key once, with O(1 + number
 * of reader sessions) work per pair, and materializes only:
 *   - the undecided pairs, as constraints;
 *   - for a decided pair U<V, edges only when V is the first unit decided
 *     after U among the units whose head lies on V's head's session chain.
 *     Any other decided successor W of U on that chain is reached through
 *     V (head(V) reaches head(W) by session order, so V<W is decided too,
 *     and following first-successors strictly advances along the chain), so
 *     these covering edges give the known graph the same reachability as
 *     all decided edges would — at most (1 + readers) * sessions edges per
 *     unit instead of one per decided pair.
 * Edges already implied by the known graph are skipped. */
#include "frontend/polygraph.h"

#include <stdlib.h>
#include <string.h>

void pg_add_dep(polygraph *g, dep_kind kind, uint32_t key, uint32_t from, uint32_t to) {
    pg_edge e;
    e.meta = PG_META(kind, key == HISTORY_NONE ? (UINT32_MAX >> 3) : key);
    if (!g->split) { e.from = from; e.to = to; }
    else if (kind == DEP_RW) { e.from = 2 * from + 1; e.to = 2 * to; }
    else { e.from = 2 * from; e.to = 2 * to + 1; }
    vec_push(g->known, e);
}

void pg_init(polygraph *g, const pg_index *ix, int split) {
    memset(g, 0, sizeof *g);
    const history *h = ix->h;
    g->ix = ix;
    g->split = split;
    g->num_nodes = split ? 2 * h->num_txns : h->num_txns;
    g->num_chains = h->num_sessions ? h->num_sessions : 1;
    vec_reserve(g->known, ix->base.len + 16);
    vec_foreach(const dep_edge, e, ix->base) pg_add_dep(g, (dep_kind)e->kind, e->key, e->from, e->to);

    /* Reader summaries: per unit, per chain, the latest reader node
     * (T' in the split graph, where its RW edges start). */
    size_t nu = ix->units.len;
    g->rsum_start = xmalloc((nu + 1) * sizeof *g->rsum_start);
    g->unit_slow = xcalloc(nu ? nu : 1, 1);
    uint32_t *best = xmalloc((size_t)g->num_chains * sizeof *best);
    for (uint32_t c = 0; c < g->num_chains; c++) best[c] = UINT32_MAX;
    uint32_t *mark = xmalloc((size_t)h->num_txns * sizeof *mark);   /* txn -> key it writes, per key */
    for (uint32_t t = 0; t < h->num_txns; t++) mark[t] = UINT32_MAX;
    vec_u32 touched; vec_init(touched);
    for (uint32_t k = 0; k < ix->num_keys; k++) {
        for (uint32_t u = ix->key_unit_start[k]; u < ix->key_unit_start[k + 1]; u++) {
            const pg_unit *un = &ix->units.data[u];
            for (uint32_t m = 0; m < un->len; m++) mark[ix->members.data[un->m_first + m]] = k;
        }
        for (uint32_t u = ix->key_unit_start[k]; u < ix->key_unit_start[k + 1]; u++) {
            const pg_unit *un = &ix->units.data[u];
            g->rsum_start[u] = (uint32_t)g->rsum.len;
            vec_clear(touched);
            for (uint32_t j = 0; j < un->rd_num; j++) {
                uint32_t r = ix->readers.data[un->rd_first + j];
                if (mark[r] == k) g->unit_slow[u] = 1;
                uint32_t node = pg_node_tp(g, r), c = pg_node_chain(g, node), p = pg_node_pos(g, node);
                if (best[c] == UINT32_MAX) { vec_push(touched, c); best[c] = p; }
                else if (p > best[c]) best[c] = p;
            }
            for (size_t j = 0; j < touched.len; j++) {
                vec_push(g->rsum, touched.data[j]);
                vec_push(g->rsum, best[touched.data[j]]);
                best[touched.data[j]] = UINT32_MAX;
            }
        }
    }
    g->rsum_start[nu] = (uint32_t)g->rsum.len;
    vec_free(touched);
    free(best);
    free(mark);
}

void pg_free(polygraph *g) {
    vec_free(g->known);
    vec_free(g->cons);
    vec_free(g->rsum);
    free(g->reach);
    free(g->topo_pos);
    free(g->rsum_start);
    free(g->unit_slow);
    memset(g, 0, sizeof *g);
}

static inline int is_init_unit(const pg_index *ix, uint32_t u) {
    return ix->key_unit_start[ix->unit_key[u]] == u;
}

int pg_side_blocked(const polygraph *g, uint32_t u, uint32_t v) {
    const pg_index *ix = g->ix;
    if (is_init_unit(ix, v)) return 1;             /* INIT's unit comes first */
    const pg_unit *U = &ix->units.data[u], *V = &ix->units.data[v];
    uint32_t hv = V->head;
    /* WW last(U) -> head(V): blocked if head(V)'s target node reaches last(U) */
    if (U->last != 0 && pg_reaches(g, pg_node_tp(g, hv), pg_node_t(g, U->last))) return 1;
    /* RW r -> head(V): blocked if head(V) reaches some reader's source node */
    uint32_t from = pg_node_t(g, hv);
    if (g->unit_slow[u] && !g->split) {
        for (uint32_t j = 0; j < U->rd_num; j++) {
            uint32_t r = ix->readers.data[U->rd_first + j];
            if (r != hv && pg_reaches(g, from, pg_node_tp(g, r))) return 1;
        }
        return 0;
    }
    const uint32_t *row = g->reach + (size_t)from * g->num_chains;
    for (uint32_t j = g->rsum_start[u]; j < g->rsum_start[u + 1]; j += 2)
        if (row[g->rsum.data[j]] <= g->rsum.data[j + 1]) return 1;
    return 0;
}

void pg_side_deps(const polygraph *g, uint32_t u, uint32_t v, dep_edge_vec *out) {
    const pg_index *ix = g->ix;
    const pg_unit *U = &ix->units.data[u], *V = &ix->units.data[v];
    uint32_t k = ix->unit_key[u];
    if (U->last != 0) { dep_edge e = { U->last, V->head, k, DEP_WW }; vec_push(*out, e); }
    for (uint32_t j = 0; j < U->rd_num; j++) {
        uint32_t r = ix->readers.data[U->rd_first + j];
        if (r == V->head) continue;
        dep_edge e = { r, V->head, k, DEP_RW };
        vec_push(*out, e);
    }
}

/* Add side u<v as known edges, skipping those the known graph implies. */
static uint64_t add_side_known(polygraph *g, uint32_t u, uint32_t v, dep_edge_vec *scratch) {
    vec_clear(*scratch);
    pg_side_deps(g, u, v, scratch);
    uint64_t added = 0;
    vec_foreach(const dep_edge, e, *scratch) {
        uint32_t a = e->kind == DEP_RW ? pg_node_tp(g, e->from) : pg_node_t(g, e->from);
        uint32_t b = e->kind == DEP_RW ? pg_node_t(g, e->to) : pg_node_tp(g, e->to);
        if (g->reach && pg_reaches(g, a, b)) continue;
        pg_add_dep(g, (dep_kind)e->kind, e->key, e->from, e->to);
        added++;
    }
    return added;
}

uint64_t pg_add_side(polygraph *g, uint32_t u, uint32_t v) {
    dep_edge_vec scratch; vec_init(scratch);
    uint64_t n = add_side_known(g, u, v, &scratch);
    vec_free(scratch);
    return n;
}

int pg_build_constraints(polygraph *g) {
    const pg_index *ix = g->ix;
    const history *h = ix->h;
    if (!pg_reach(g)) { snprintf(g->fail_reason, sizeof g->fail_reason, "the known graph has a cycle"); return 0; }
    uint32_t S = g->num_chains;
    VEC(uint32_t) cand; vec_init(cand);       /* per local unit x chain: first decided successor */
    dep_edge_vec scratch; vec_init(scratch);
    size_t known_before = g->known.len;
    int ok = 1;
    for (uint32_t k = 0; k < ix->num_keys && ok; k++) {
        uint32_t s = ix->key_unit_start[k], e = ix->key_unit_start[k + 1], n = e - s;
        if (n < 2) continue;
        vec_resize(cand, (size_t)n * S);
        for (size_t i = 0; i < (size_t)n * S; i++) cand.data[i] = UINT32_MAX;
        for (uint32_t i = s; i < e && ok; i++) {
            for (uint32_t j = i + 1; j < e; j++) {
                int init = i == s;
                if (!init) g->pairs_total++;
                int bij = pg_side_blocked(g, i, j);
                int bji = init ? 1 : pg_side_blocked(g, j, i);
                uint32_t before, after;
                if (bij && bji) {
                    snprintf(g->fail_reason, sizeof g->fail_reason,
                             "key %u: both orders of two writers close a cycle", k);
                    ok = 0; break;
                }
                if (!bij && !bji) { pg_cons c = { i, j }; vec_push(g->cons, c); continue; }
                if (!init) g->pairs_decided_scan++;
                if (bji) { before = i; after = j; } else { before = j; after = i; }
                uint32_t hv = ix->units.data[after].head;
                uint32_t c = h->txns[hv].session, *slot = &cand.data[(size_t)(before - s) * S + c];
                if (*slot == UINT32_MAX || h->txns[ix->units.data[*slot].head].pos > h->txns[hv].pos) *slot = after;
            }
        }
        if (!ok) break;
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t c = 0; c < S; c++) {
                uint32_t v = cand.data[(size_t)i * S + c];
                if (v != UINT32_MAX) g->edges_covering += add_side_known(g, s + i, v, &scratch);
            }
    }
    (void)known_before;
    g->cons_initial = g->cons.len;
    vec_free(cand);
    vec_free(scratch);
    return ok;
}
