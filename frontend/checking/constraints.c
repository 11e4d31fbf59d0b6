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
 * Edges already implied by the known graph are skipped.
 *
 * A key is scanned one of two ways (scan.h), with the same result when
 * the table holds every fact: by transitivity (scan_order.c: a few table
 * lookups a unit, bit sets of n^2 / 64 words), or, for keys of more than
 * pg_scan_order_max units, group by group (scan_key_groups below: per
 * unit and session of the key a lookup and two binary searches, then the
 * window; per unit and session a covering candidate tested).
 *
 * Keys are independent during the scan (it reads the reachability of its
 * start only), so ranges of keys are scanned by par_pool_run tasks into their
 * own outputs, combined in key order: the same constraints and edges, in
 * the same order, for every thread count.  So are the stages before it on
 * the level's pool: the base edges' copy (each edge at its place,
 * known_base.c) and the reader summaries (key ranges, built while the
 * first table's order is found on one thread). */
#include "frontend/checking/polygraph.h"
#include "frontend/checking/scan.h"
#include "frontend/checking/depgraph.h"
#include "frontend/checking/pred_rw.h"
#include "par.h"

#include <stdlib.h>
#include <string.h>

/* A transaction-level dependency as the level's node edge. */
static pg_edge pg_dep_edge(const polygraph *g, dep_kind kind, uint32_t key, uint32_t from, uint32_t to) {
    pg_edge e;
    e.meta = PG_META(kind, key == HISTORY_NONE ? (UINT32_MAX >> 3) : key);
    pg_dep_nodes(g, kind, from, to, &e.from, &e.to);
    return e;
}

void pg_add_dep(polygraph *g, dep_kind kind, uint32_t key, uint32_t from, uint32_t to) {
    vec_push(g->known, pg_dep_edge(g, kind, key, from, to));
}

uint32_t pg_chain_limit;
uint32_t pg_reach_delta_max = 0xFFFE;
/* Bytes the reachability table may take, counted as every row wide (2
 * bytes an entry): 100 sessions at 22M transactions under SI (22M commit
 * rows x 208 bytes, 4.6 GB) fit.  A session left untracked costs far more
 * than its column: its writers' pairs are no longer decided by
 * reachability (22M SI with 46 of 100 sessions tracked, under the old 4 GB
 * counted over both nodes of a transaction: over 4 GB of constraints and
 * covering edges in one scan task, out of memory). */
uint64_t pg_reach_budget = (uint64_t)6 << 30;
uint64_t pg_par_min_work = 1u << 15;
uint32_t pg_scan_order_max = 4096;

/* The index's own chains (no session order, or a clock) can be many: the
 * max_chains longest by sorting, ties to the lower index. */
typedef struct chain_len_at { uint32_t len, c; } chain_len_at;
static int cmp_chain_len(const void *a, const void *b) {
    const chain_len_at *x = a, *y = b;
    if (x->len != y->len) return x->len > y->len ? -1 : 1;
    return (x->c > y->c) - (x->c < y->c);
}
/* Without session order the index's chains are many and mostly short
 * (the D edges leave most transactions incomparable; doc/checker.md,
 * "The session level first"): a column costs a table entry per node and
 * tells about its chain's transactions only.  So at most
 * PG_PLAIN_TABLE bytes of table, at most 1024 chains, and only chains of
 * two transactions or more. */
#define PG_PLAIN_TABLE ((uint64_t)64 << 20)
static uint64_t plain_chains(const polygraph *g, uint64_t max_chains) {
    const pg_index *ix = g->ix;
    uint64_t cap = PG_PLAIN_TABLE / (2 * ((uint64_t)g->num_nodes + 1)), two = 0;
    cap = cap < 1024 ? cap : 1024;
    for (uint32_t c = 0; c < pg_num_sessions(ix); c++) two += pg_session_len(ix, c) >= 2;
    cap = cap < two ? cap : two;
    return max_chains < cap ? max_chains : cap;
}

static void largest_chains(polygraph *g, uint32_t ns, uint32_t max_chains) {
    chain_len_at *o = xmalloc((size_t)ns * sizeof *o);
    for (uint32_t i = 0; i < ns; i++) { o[i].len = pg_session_len(g->ix, i); o[i].c = i; g->chain_of_session[i] = UINT32_MAX; }
    qsort(o, ns, sizeof *o, cmp_chain_len);
    for (uint32_t i = 0; i < max_chains; i++) g->chain_of_session[o[i].c] = i;
    g->num_chains = max_chains;
    free(o);
}

void pg_init(polygraph *g, const pg_index *ix, int split) { pg_init_shape(g, ix, split, 0, 0); }

int pg_rw_lazy(const polygraph *g, uint32_t from_node, uint32_t key) {
    return g->rw_lazy && (!g->prw || pred_rw_has(g->prw, pg_node_txn(g, from_node), key));
}

/* A reader whose RW edges from it on key k block no side: rr's predicate-only ones. */
static inline int reader_lazy(const polygraph *g, uint32_t r, uint32_t k) {
    return g->prw && pred_rw_has(g->prw, r, k);
}

static void pg_init_common(polygraph *g, const pg_index *ix, int split, int ww_commit, int rw_lazy, pred_rw *prw,
                           struct par_pool *pool, int prio);

void pg_init_shape(polygraph *g, const pg_index *ix, int split, int ww_commit, int rw_lazy) {
    pg_init_shape_on(g, ix, split, ww_commit, rw_lazy, NULL, 0);
}
void pg_init_shape_on(polygraph *g, const pg_index *ix, int split, int ww_commit, int rw_lazy, struct par_pool *pool,
                      int prio) {
    pg_init_common(g, ix, split, ww_commit, rw_lazy, NULL, pool, prio);
}

void pg_init_rr(polygraph *g, const pg_index *ix) { pg_init_rr_on(g, ix, NULL, 0); }
void pg_init_rr_on(polygraph *g, const pg_index *ix, struct par_pool *pool, int prio) {
    pred_rw *prw = pred_rw_build(ix->h);
    pg_init_common(g, ix, 0, 0, prw != NULL, prw, pool, prio);
}

/* The tracked sessions (chain_of_session, num_chains). */
static void choose_chains(polygraph *g, const pg_index *ix, int split, int ww_commit) {
    const history *h = ix->h;
    uint32_t nt = ix->num_node_txns ? ix->num_node_txns : h->num_txns, ns = pg_num_sessions(ix);
    g->num_nodes = split ? 2 * nt : nt;
    /* Chains: every session, unless the table (2 bytes per node and chain,
     * plus a base per node) would pass pg_reach_budget; then the largest
     * sessions.  The budget does not depend on the thread count. */
    g->chain_of_session = xmalloc(((size_t)ns + 1) * sizeof *g->chain_of_session);
    /* rows: the commits only where the table will be half (reach.c's
     * half_table: the split graph, but pc's; it is half whenever the budget
     * binds) */
    uint64_t rows = split && !ww_commit && pg_reach_half_mode != PG_REACH_HALF_NEVER ? nt : g->num_nodes;
    uint64_t max_chains = pg_reach_budget / (2 * (rows + 1));
    max_chains = max_chains > 2 ? max_chains - 2 : 0;
    if (max_chains > 4096) max_chains = 4096;
    if (pg_chain_limit && max_chains > pg_chain_limit) max_chains = pg_chain_limit;
    if (ix->chain_sess && !ix->opts.session_order) max_chains = plain_chains(g, max_chains);
    if (max_chains < 1) max_chains = 1;
    if (ns <= max_chains) {
        for (uint32_t i = 0; i < ns; i++) g->chain_of_session[i] = i;
        g->num_chains = ns ? ns : 1;
    } else if (ix->chain_sess) {
        largest_chains(g, ns, (uint32_t)max_chains);
    } else {
        uint32_t *order = xmalloc((size_t)ns * sizeof *order);
        for (uint32_t i = 0; i < ns; i++) { order[i] = i; g->chain_of_session[i] = UINT32_MAX; }
        /* partial selection of the max_chains largest sessions */
        for (uint32_t i = 0; i < max_chains; i++) {
            uint32_t best = i;
            for (uint32_t j = i + 1; j < ns; j++)
                if (h->sessions[order[j]].num_txns > h->sessions[order[best]].num_txns) best = j;
            uint32_t t = order[i]; order[i] = order[best]; order[best] = t;
            g->chain_of_session[order[i]] = i;
        }
        free(order);
        g->num_chains = (uint32_t)max_chains;
    }
}

/* Base edge i, copied as the level's node edge (pg_index_base_fill). */
static void copy_base_at(void *ctx, uint64_t i, const pg_edge *e) {
    polygraph *g = ctx;
    g->known.data[i] = pg_dep_edge(g, PG_KIND(e->meta), PG_KEY(e->meta), e->from, e->to);
}

static void pg_init_common(polygraph *g, const pg_index *ix, int split, int ww_commit, int rw_lazy, pred_rw *prw,
                           struct par_pool *pool, int prio) {
    memset(g, 0, sizeof *g);
    g->ix = ix;
    g->prw = prw;
    g->split = split;
    g->ww_commit = ww_commit;
    g->rw_lazy = rw_lazy;
    g->threads = par_pool_threads(pool);
    g->pool = pool;
    g->prio = prio;
    choose_chains(g, ix, split, ww_commit);
    /* the base edges, in parts on the pool (known_base.c): each at its place */
    uint64_t nb = pg_index_num_base(ix);
    pg_known_reserve(g, nb + 16);
    pg_index_base_fill(ix, pg_threads_for(g, nb) > 1 ? pool : NULL, prio, copy_base_at, g);
    g->known.len = nb;
    pg_index_base_copied(ix);
}

/* Reader summaries: per unit, per chain, the latest reader node (T' in
 * the split graph, where its RW edges start), in the order the unit's
 * readers first touch the chains; and (SER) unit_slow, a reader of last(U)
 * that writes the key.  In key ranges on the pool, each into its own
 * list, joined in key order: the same summaries for every pool. */
typedef struct rsum_job {
    polygraph *g;
    const uint32_t *range;       /* task i: keys [range[i], range[i + 1]) */
    vec_u32 *out;                /* task i's pairs; rsum_start local to them until joined */
    size_t *at;                  /* task i's place in g->rsum (the join) */
} rsum_job;

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}
static int sorted_has(const uint32_t *a, size_t n, uint32_t x) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo < n && a[lo] == x;
}

/* Units [u0, u1)'s members into w, ascending: by insertion while few
 * (most keys), else qsort. */
static void sorted_writers(const pg_index *ix, uint32_t u0, uint32_t u1, vec_u32 *w) {
    uint32_t m0 = ix->units.data[u0].m_first, m1 = ix->units.data[u1].m_first, n = m1 - m0;
    vec_resize(*w, n);
    uint32_t *a = w->data;
    memcpy(a, ix->members.data + m0, (size_t)n * sizeof *a);
    if (n > 48) { qsort(a, n, sizeof *a, cmp_u32); return; }
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = a[i], j = i;
        for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
        a[j] = x;
    }
}

/* How far ahead in the readers list a reader's transaction is asked for
 * (its chain and position: a cache miss each, at random over the
 * history).  A hint only. */
#define RSUM_AHEAD 16
static void rsum_task(void *ctx, size_t task) {
    const rsum_job *j = ctx;
    polygraph *g = j->g;
    const pg_index *ix = g->ix;
    vec_u32 *out = &j->out[task];
    uint32_t *best = xmalloc((size_t)g->num_chains * sizeof *best);
    for (uint32_t c = 0; c < g->num_chains; c++) best[c] = UINT32_MAX;
    vec_u32 touched, writers; vec_init(touched); vec_init(writers);
    const uint32_t *rd = ix->readers.data;
    size_t nrd = ix->readers.len;
    for (uint32_t k = j->range[task]; k < j->range[task + 1]; k++) {
        uint32_t u0 = ix->key_unit_start[k], u1 = ix->key_unit_start[k + 1];
        /* SER: the key's writers, its units' members, sorted (unit_slow) */
        if (!g->split) sorted_writers(ix, u0, u1, &writers);
        for (uint32_t u = u0; u < u1; u++) {
            const pg_unit *un = &ix->units.data[u];
            g->rsum_start[u] = (uint32_t)out->len;
            vec_clear(touched);
            for (uint32_t i = un->rd_first; i < un->rd_first + pg_unit_rd_num(un); i++) {
                if (i + RSUM_AHEAD < nrd) {
                    uint32_t a = rd[i + RSUM_AHEAD];
                    if (ix->chain_sess) { HISTORY_PREFETCH(&ix->chain_sess[a]); HISTORY_PREFETCH(&ix->chain_pos[a]); }
                    else HISTORY_PREFETCH(&ix->h->txns[a]);
                }
                uint32_t r = rd[i];
                if (reader_lazy(g, r, k)) continue;    /* rr: a predicate anti-dependency blocks nothing */
                if (!g->split && sorted_has(writers.data, writers.len, r)) g->unit_slow[u] = 1;
                uint32_t node = pg_node_tp(g, r), c = pg_node_chain(g, node), p = pg_node_pos(g, node);
                if (c == HISTORY_NONE) continue;       /* untracked: this test is skipped */
                if (best[c] == UINT32_MAX) { vec_push(touched, c); best[c] = p; }
                else if (p > best[c]) best[c] = p;
            }
            for (size_t t = 0; t < touched.len; t++) {
                vec_push(*out, touched.data[t]);
                vec_push(*out, best[touched.data[t]]);
                best[touched.data[t]] = UINT32_MAX;
            }
        }
    }
    vec_free(touched); vec_free(writers);
    free(best);
}

/* Task i's pairs to their place (and its own list freed at once: the
 * summaries are not held twice while the join runs beside the table's
 * build, 30 MB at 1M SI), its units' starts made global. */
static void rsum_join_task(void *ctx, size_t task) {
    const rsum_job *j = ctx;
    polygraph *g = j->g;
    const pg_index *ix = g->ix;
    vec_u32 *out = &j->out[task];
    if (out->len) memcpy(g->rsum.data + j->at[task], out->data, out->len * sizeof *out->data);
    vec_free(*out);
    for (uint32_t u = ix->key_unit_start[j->range[task]]; u < ix->key_unit_start[j->range[task + 1]]; u++)
        g->rsum_start[u] += (uint32_t)j->at[task];
}

static void reader_sums(polygraph *g) {
    const pg_index *ix = g->ix;
    size_t nu = ix->units.len;
    g->rsum_start = xmalloc((nu + 1) * sizeof *g->rsum_start);
    g->unit_slow = xcalloc(nu ? nu : 1, 1);
    unsigned threads = pg_threads_for(g, ix->readers.len);
    vec_u32 range; vec_init(range);
    uint32_t ntasks = pg_key_ranges(ix, threads, &range);
    rsum_job job = { g, range.data, xcalloc(ntasks, sizeof *job.out), xcalloc(ntasks, sizeof *job.at) };
    par_pool *pool = threads > 1 ? g->pool : NULL;
    par_pool_run_prio(pool, g->prio, ntasks, rsum_task, &job);
    size_t total = 0;
    for (uint32_t i = 0; i < ntasks; i++) { job.at[i] = total; total += job.out[i].len; }
    vec_resize(g->rsum, total);
    par_pool_run_prio(pool, g->prio, ntasks, rsum_join_task, &job);
    g->rsum_start[nu] = (uint32_t)total;
    free(job.out); free(job.at);
    vec_free(range);
}

void pg_free(polygraph *g) {
    pg_reach_free(g);             /* the table, start arcs, reader summaries */
    vec_free(g->known);
    vec_free(g->cons);
    free(g->topo_pos);
    free(g->chain_of_session);
    pred_rw_free((pred_rw *)g->prw);
    memset(g, 0, sizeof *g);
}

static inline int is_init_unit(const pg_index *ix, uint32_t u) {
    return pg_unit_is_init(ix, u);
}

int pg_side_blocked(const polygraph *g, uint32_t u, uint32_t v) {
    const pg_index *ix = g->ix;
    if (is_init_unit(ix, v)) return 1;             /* INIT's unit comes first */
    const pg_unit *U = &ix->units.data[u], *V = &ix->units.data[v];
    uint32_t hv = V->head;
    /* WW last(U) -> head(V): blocked if head(V)'s target node reaches last(U) */
    if (U->last != 0 && pg_reaches(g, pg_node_ww_in(g, hv), pg_node_t(g, U->last))) return 1;
    /* RW r -> head(V): blocked if head(V) reaches some reader's source node */
    uint32_t from = pg_node_t(g, hv);
    if (g->unit_slow[u] && !g->split) {
        uint32_t k = pg_unit_key(ix, u);
        for (uint32_t j = 0; j < pg_unit_rd_num(U); j++) {
            uint32_t r = ix->readers.data[U->rd_first + j];
            if (r != hv && !reader_lazy(g, r, k) && pg_reaches(g, from, pg_node_tp(g, r))) return 1;
        }
        return 0;
    }
    const uint8_t *row = pg_reach_row(g, from);   /* a commit: it has a row */
    for (uint32_t j = g->rsum_start[u]; j < g->rsum_start[u + 1]; j += 2)
        if (pg_reach_row_at(g, row, g->rsum.data[j]) <= g->rsum.data[j + 1]) return 1;
    return 0;
}

void pg_side_deps(const polygraph *g, uint32_t u, uint32_t v, dep_edge_vec *out) {
    const pg_index *ix = g->ix;
    const pg_unit *U = &ix->units.data[u], *V = &ix->units.data[v];
    uint32_t k = pg_unit_key(ix, u);
    if (U->last != 0) { dep_edge e = { U->last, V->head, k, DEP_WW }; vec_push(*out, e); }
    for (uint32_t j = 0; j < pg_unit_rd_num(U); j++) {
        uint32_t r = ix->readers.data[U->rd_first + j];
        if (r == V->head) continue;
        dep_edge e = { r, V->head, k, DEP_RW };
        vec_push(*out, e);
    }
}

/* Side u<v's edges that the known graph does not imply yet, into out
 * (reachability as of the last pg_reach; g is only read). */
uint64_t pg_side_edges(const polygraph *g, uint32_t u, uint32_t v, dep_edge_vec *scratch, pg_edge_vec *out) {
    vec_clear(*scratch);
    pg_side_deps(g, u, v, scratch);
    uint64_t added = 0;
    vec_foreach(const dep_edge, e, *scratch) {
        uint32_t a, b;
        pg_dep_nodes(g, (dep_kind)e->kind, e->from, e->to, &a, &b);
        /* rr: an RW edge counts as itself (an item one on a cycle fails rr
         * even when a path of other edges implies it), so it is kept */
        if (g->reach && pg_reaches(g, a, b) && !(g->prw && e->kind == DEP_RW)) continue;
        vec_push(*out, pg_dep_edge(g, (dep_kind)e->kind, e->key, e->from, e->to));
        added++;
    }
    return added;
}

/* Every edge of side u<v is implied by the known graph already (what
 * pg_side_edges would add nothing for), tested without building the
 * edges: most covering candidates of the scan are such. */
int scan_side_implied_at(const polygraph *g, uint32_t u, uint32_t v, uint32_t c, uint32_t p_in, uint32_t p_commit) {
    const pg_index *ix = g->ix;
    if (!g->reach) return 0;
    const pg_unit *U = &ix->units.data[u];
    uint32_t hv = ix->units.data[v].head;
    /* last(U) is no transaction of V: never its entry node itself */
    if (U->last != 0 && !scan_reaches_at(g, pg_node_t(g, U->last), c, p_in)) return 0;
    for (uint32_t j = 0; j < pg_unit_rd_num(U); j++) {
        uint32_t r = ix->readers.data[U->rd_first + j];
        /* r != hv: T'(r) is not T(hv) (SER: r is not hv) */
        if (r != hv && (g->prw || !scan_reaches_at(g, pg_node_tp(g, r), c, p_commit))) return 0;   /* rr: RW edges are kept */
    }
    return 1;
}

int scan_side_implied(const polygraph *g, uint32_t u, uint32_t v) {
    uint32_t hv = g->ix->units.data[v].head, x = pg_node_ww_in(g, hv), t = pg_node_t(g, hv);
    return scan_side_implied_at(g, u, v, pg_node_chain(g, x), pg_node_pos(g, x), pg_node_pos(g, t));
}

static int cmp_unit_at(const void *a, const void *b) {
    const unit_at *x = a, *y = b;
    if (x->session != y->session) return x->session < y->session ? -1 : 1;
    if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
    return (x->unit > y->unit) - (x->unit < y->unit);
}

int scan_pair_decide(const polygraph *g, uint32_t u, uint32_t v, uint32_t key, scan_out *out) {
    int buv = pg_side_blocked(g, u, v), bvu = pg_side_blocked(g, v, u);
    if (buv && bvu) {
        snprintf(out->fail_reason, sizeof out->fail_reason, "key %u: both orders of two writers close a cycle", key);
        return SCAN_FAIL;
    }
    if (!buv && !bvu) { pg_cons c = { u, v }; vec_push(out->cons, c); return SCAN_CONS; }
    return bvu ? SCAN_BEFORE : SCAN_AFTER;
}

/* Decide or record one window pair (u < v as unit indices). */
static int scan_pair(const polygraph *g, uint32_t u, uint32_t v, uint32_t key, uint32_t *cand, uint32_t s,
                     uint32_t G, const uint32_t *group_of_unit, scan_out *out) {
    const pg_index *ix = g->ix;
    int d = scan_pair_decide(g, u, v, key, out);
    if (d == SCAN_FAIL) return 0;
    if (d == SCAN_CONS) return 1;
    uint32_t before = d == SCAN_BEFORE ? u : v, after = d == SCAN_BEFORE ? v : u;
    uint32_t *slot = &cand[(size_t)(before - s) * G + group_of_unit[after - s]];
    if (*slot == UINT32_MAX || pg_txn_pos(ix, ix->units.data[*slot].head) > pg_txn_pos(ix, ix->units.data[after].head))
        *slot = after;
    return 1;
}

/* The initial scan of a key's unit pairs.  Units are grouped by the session
 * of their head, in session order.  For unit U and a session c, the units
 * V whose head's T' node U's head T' node reaches form a suffix of c's
 * group (session order is a path): they are certainly after U (V<U would
 * close a cycle through last(V) -> head(U)').  Symmetrically the units
 * certainly before U form a prefix.  Only the window in between is tested
 * pair by pair, so a key costs O(units * sessions * log + window pairs)
 * instead of O(units^2).  The first unit certainly or tested after U in
 * each session is U's covering candidate (see the file comment).
 * Reads g only; returns 0 (out->fail_reason set) when the key fails. */
uint32_t scan_groups(const polygraph *g, uint32_t k, scan_scratch *sc) {
    const pg_index *ix = g->ix;
    uint32_t s = ix->key_unit_start[k], e = ix->key_unit_start[k + 1], n = e - s;
    vec_clear(sc->sorted);
    for (uint32_t u = s + 1; u < e; u++) {
        uint32_t hd = ix->units.data[u].head;
        unit_at a = { pg_txn_session(ix, hd), pg_txn_pos(ix, hd), u };
        vec_push(sc->sorted, a);
    }
    if (sc->sorted.len > 48) qsort(sc->sorted.data, sc->sorted.len, sizeof *sc->sorted.data, cmp_unit_at);
    else
        for (size_t i = 1; i < sc->sorted.len; i++) {   /* most keys: by insertion */
            unit_at x = sc->sorted.data[i];
            size_t j = i;
            for (; j > 0 && cmp_unit_at(&sc->sorted.data[j - 1], &x) > 0; j--) sc->sorted.data[j] = sc->sorted.data[j - 1];
            sc->sorted.data[j] = x;
        }
    const unit_at *sorted = sc->sorted.data;
    vec_clear(sc->gstart); vec_clear(sc->gsess);
    vec_resize(sc->group_of, n); vec_resize(sc->idx_of, n);
    for (uint32_t i = 0; i < sc->sorted.len; i++) {
        if (i == 0 || sorted[i].session != sorted[i - 1].session) {
            vec_push(sc->gstart, i); vec_push(sc->gsess, sorted[i].session);
        }
        sc->group_of.data[sorted[i].unit - s] = (uint32_t)sc->gstart.len - 1;
        sc->idx_of.data[sorted[i].unit - s] = i;
    }
    uint32_t G = (uint32_t)sc->gstart.len;
    vec_push(sc->gstart, (uint32_t)sc->sorted.len);
    return G;
}

int scan_key_groups(const polygraph *g, uint32_t k, scan_scratch *sc, scan_out *out) {
    const pg_index *ix = g->ix;
    uint32_t s = ix->key_unit_start[k], e = ix->key_unit_start[k + 1], n = e - s;
    if (n < 2) return 1;
    uint64_t m = n - 1;                           /* units besides INIT's */
    out->pairs_total += m * (m - 1) / 2;
    size_t cons_before = out->cons.len;
    uint32_t G = scan_groups(g, k, sc);
    const unit_at *sorted = sc->sorted.data;
    const uint32_t *gstart = sc->gstart.data, *gsess = sc->gsess.data;
    vec_resize(sc->cand, (size_t)n * G);
    uint32_t *cand = sc->cand.data;
    for (size_t i = 0; i < (size_t)n * G; i++) cand[i] = UINT32_MAX;
    /* Each unit's head's WW entry node against each group's chain, looked
     * up once: the searches below ask for it about twice per unit and group
     * (a split graph's start node without a row of its own costs a look at
     * each of its commits' rows). */
    vec_resize(sc->rin, (size_t)n * G);
    uint32_t *rin = sc->rin.data;
    for (uint32_t u = s + 1; u < e; u++) {
        uint32_t tp = pg_node_ww_in(g, ix->units.data[u].head);
        for (uint32_t gi = 0; gi < G; gi++) {
            uint32_t chain = g->chain_of_session[gsess[gi]];
            rin[(size_t)(u - s) * G + gi] = chain == UINT32_MAX ? UINT32_MAX : pg_reach_at(g, tp, chain);
        }
    }

    /* INIT's unit: first on the key.  Its order is fixed, but the side
     * INIT<V may still close a cycle (a violation). */
    for (uint32_t gi = 0; gi < G; gi++) cand[gi] = sorted[gstart[gi]].unit;
    for (uint32_t v = s + 1; v < e; v++)
        if (pg_side_blocked(g, s, v)) {
            snprintf(out->fail_reason, sizeof out->fail_reason, "key %u: a writer cannot come after the initial version", k);
            return 0;
        }
    for (uint32_t u = s + 1; u < e; u++) {
        uint32_t hu = ix->units.data[u].head, cu = pg_txn_session(ix, hu), iu = sc->idx_of.data[u - s];
        uint32_t tpu = pg_node_ww_in(g, hu);           /* T' (pc: T), where a WW edge into hu enters */
        uint32_t pu_tp = pg_node_pos(g, tpu), gu = sc->group_of.data[u - s];
        for (uint32_t gi = 0; gi < G; gi++) {
            uint32_t gs = gstart[gi], ge = gstart[gi + 1], c = gsess[gi];
            uint32_t a, b, chain = g->chain_of_session[c], chain_u = g->chain_of_session[cu];
            if (c == cu) { b = iu; a = iu + 1; }
            else if (chain == UINT32_MAX || chain_u == UINT32_MAX) { b = gs; a = ge; }   /* untracked: test all */
            else {
                /* suffix: first entry whose head's T' position >= ru[c] */
                uint32_t ru_chain = rin[(size_t)(u - s) * G + gi], lo = gs, hi = ge;
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    uint32_t p = g->split ? 2 * sorted[mid].pos + (uint32_t)g->ww_commit : sorted[mid].pos;
                    if (p >= ru_chain) hi = mid; else lo = mid + 1;
                }
                a = lo;
                /* prefix: entries whose head's T' reaches U's head's T' */
                lo = gs; hi = a;
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (rin[(size_t)(sorted[mid].unit - s) * G + gu] <= pu_tp) lo = mid + 1; else hi = mid;
                }
                b = lo;
            }
            if (a < ge) {
                uint32_t *slot = &cand[(size_t)(u - s) * G + gi];
                uint32_t v = sorted[a].unit;
                if (*slot == UINT32_MAX || pg_txn_pos(ix, ix->units.data[*slot].head) > pg_txn_pos(ix, ix->units.data[v].head))
                    *slot = v;
            }
            for (uint32_t j = b; j < a; j++) {
                uint32_t v = sorted[j].unit;
                if (v > u && !scan_pair(g, u, v, k, cand, s, G, sc->group_of.data, out)) return 0;
            }
        }
    }
    out->pairs_decided += m * (m - 1) / 2 - (out->cons.len - cons_before);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t gi = 0; gi < G; gi++) {
            uint32_t v = cand[(size_t)i * G + gi];
            if (v != UINT32_MAX && !scan_side_implied(g, s + i, v))
                out->edges_covering += pg_side_edges(g, s + i, v, &sc->deps, &out->edges);
        }
    return 1;
}

typedef struct scan_job {
    const polygraph *g;
    const uint32_t *range;       /* task i scans keys [range[i], range[i + 1]) */
    scan_out *out;
} scan_job;

/* Every cache line of node x's reachability row (when it has one). */
HISTORY_PREFETCH_FN void prefetch_row(const polygraph *g, uint32_t x) {
    if (!pg_reach_has_row(g, x)) return;
    const char *r = (const char *)pg_reach_row(g, x);
    for (size_t o = 0; o < g->reach_stride; o += 64) HISTORY_PREFETCH(r + o);
    HISTORY_PREFETCH(r + g->reach_stride - 1);
}

/* A key's scan reads the rows of its units' heads and lasts, which lie
 * all over the table (a few cache misses per unit, the scan's largest
 * cost at 1M): ask for key k's while the key before it is scanned.
 * Hints only. */
static void prefetch_key_rows(const polygraph *g, uint32_t k) {
    const pg_index *ix = g->ix;
    if (!g->reach || k >= ix->num_keys) return;
    for (uint32_t u = ix->key_unit_start[k] + 1; u < ix->key_unit_start[k + 1]; u++) {
        const pg_unit *U = &ix->units.data[u];
        prefetch_row(g, pg_node_ww_in(g, U->head));
        if (g->split) prefetch_row(g, pg_node_t(g, U->head));
        if (U->last != 0) prefetch_row(g, pg_node_t(g, U->last));
    }
}

static void scan_task(void *ctx, size_t task) {
    const scan_job *j = ctx;
    scan_out *out = &j->out[task];
    const pg_index *ix = j->g->ix;
    scan_scratch sc;
    memset(&sc, 0, sizeof sc);
    prefetch_key_rows(j->g, j->range[task]);
    for (uint32_t k = j->range[task]; k < j->range[task + 1]; k++) {
        prefetch_key_rows(j->g, k + 1);
        uint32_t units = ix->key_unit_start[k + 1] - ix->key_unit_start[k];
        int ok = units - 1 <= pg_scan_order_max ? scan_key_order(j->g, k, &sc, out) : scan_key_groups(j->g, k, &sc, out);
        if (!ok) { out->failed = 1; break; }
    }
    scan_scratch_free(&sc);
}

void scan_scratch_free(scan_scratch *sc) {
    vec_free(sc->cand); vec_free(sc->rin); vec_free(sc->sorted); vec_free(sc->gstart); vec_free(sc->gsess);
    vec_free(sc->group_of); vec_free(sc->idx_of); vec_free(sc->deps);
    vec_free(sc->ord); vec_free(sc->bits); vec_free(sc->rank_of); vec_free(sc->list); vec_free(sc->keys);
}

/* Key ranges of about equal numbers of units, a few per thread so that
 * uneven ones balance; one range when single-threaded. */
uint32_t pg_key_ranges(const pg_index *ix, unsigned threads, vec_u32 *range) {
    uint32_t nk = ix->num_keys, ntasks = threads > 1 ? 8 * threads : 1;
    if (ntasks > nk) ntasks = nk ? nk : 1;
    uint64_t total = ix->units.len, per = total / ntasks + 1;
    vec_clear(*range);
    vec_push(*range, 0u);
    for (uint32_t k = 0; k < nk; k++)
        if ((uint64_t)ix->key_unit_start[k + 1] >= per * range->len && range->len < ntasks) vec_push(*range, k + 1);
    if (vec_last(*range) != nk) vec_push(*range, nk);
    return (uint32_t)range->len - 1;
}

/* The table and the reader summaries are independent: on a pool they are
 * built at once, the summaries' tasks filling in while the table's build
 * runs on one thread (its order). */
typedef struct start_job { polygraph *g; int acyclic; } start_job;
static void start_task(void *ctx, size_t i) {
    start_job *j = ctx;
    if (i == 0) j->acyclic = pg_reach(j->g);
    else if (!j->g->rsum_start) reader_sums(j->g);
}

int pg_build_constraints(polygraph *g) {
    const pg_index *ix = g->ix;
    start_job sj = { g, 0 };
    par_pool_run_prio(pg_threads_for(g, ix->units.len) > 1 ? g->pool : NULL, g->prio, 2, start_task, &sj);
    if (!sj.acyclic) {
        const pg_index_opts *o = &ix->opts;            /* the level's known edges: the plain levels have no SO */
        snprintf(g->fail_reason, sizeof g->fail_reason, "the known graph (%s%sWR%s) has a cycle", o->session_order ? "SO, " : "",
                 o->real_time ? "RT, " : "", o->rmw_links ? ", read-modify-write chains" : "");
        g->fail_stage = "known graph";
        return 0;
    }
    pg_reach_keep_scratch(g, 0);               /* the scan reads no adjacency (45 MB at 1M SI) */
    vec_u32 range; vec_init(range);
    unsigned threads = pg_threads_for(g, ix->units.len);
    uint32_t ntasks = pg_key_ranges(ix, threads, &range);
    scan_out *out = xcalloc(ntasks, sizeof *out);
    scan_job job = { g, range.data, out };
    par_pool_run_prio(threads > 1 ? g->pool : NULL, g->prio, ntasks, scan_task, &job);
    /* Combine in key order, up to and including the first failing range
     * (which stopped at its failing key, as a scan of all keys would). */
    int ok = 1;
    for (uint32_t i = 0; i < ntasks; i++) {
        scan_out *o = &out[i];
        if (ok) {
            vec_reserve(g->cons, g->cons.len + o->cons.len);
            vec_foreach(const pg_cons, c, o->cons) g->cons.data[g->cons.len++] = *c;
            pg_known_reserve(g, o->edges.len);
            vec_foreach(const pg_edge, e, o->edges) g->known.data[g->known.len++] = *e;
            g->pairs_total += o->pairs_total;
            g->pairs_decided_scan += o->pairs_decided;
            g->edges_covering += o->edges_covering;
            if (o->failed) {
                ok = 0;
                snprintf(g->fail_reason, sizeof g->fail_reason, "%s", o->fail_reason);
                g->fail_stage = "pruning";
            }
        }
        vec_free(o->cons); vec_free(o->edges);
    }
    free(out);
    vec_free(range);
    g->cons_initial = g->cons.len;
    return ok;
}
