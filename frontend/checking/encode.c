/* encode.c — the pruned polygraph as one acyclicity constraint of the
 * engine: known edges are unguarded, and constraint i's variable x guards
 * the edges of side u<v with x and those of side v<u with -x.  No clauses
 * and no composition variables: under SI the graph is the split graph
 * (doc/checker.md, "The split graph"), whose cycles are exactly those of D ; RW?.
 *
 * Nodes are numbered by the known graph's topological order (topo_pos of
 * the last pg_reach, which pruning leaves current), so every unguarded
 * edge goes forward in the engine's initial order and costs nothing to
 * insert into its Pearce–Kelly order.
 *
 * The encoder talks to a graph_sink, so the same code feeds the live
 * engine (check) or a recorder that exports GNF / CNF (isocheck encode);
 * for a recorder, every node and constraint variable gets a name. */
#include "frontend/checking/check.h"
#include "par.h"
#include "frontend/checking/choice.h"

static void add_deps(const polygraph *g, const graph_sink *k, int graph, const dep_edge_vec *deps, int lit, uint64_t *count) {
    vec_foreach(const dep_edge, e, *deps) {
        uint32_t a, b;
        pg_dep_nodes(g, (dep_kind)e->kind, e->from, e->to, &a, &b);
        if (e->kind == DEP_RW && g->rw_lazy && pg_rw_lazy(g, a, e->key)) continue;   /* psi, rr: checked on the models (psi.c) */
        gs_add_edge(k, graph, (int)g->topo_pos[a], (int)g->topo_pos[b], lit);
        (*count)++;
    }
}

static void name_constraint(const polygraph *g, const graph_sink *k, int x, pg_cons c) {
    const pg_index *ix = g->ix;
    const history *h = ix->h;
    const pg_unit *u = &ix->units.data[c.u], *v = &ix->units.data[c.v];
    char key[64], text[256];
    history_key_str(h, pg_unit_key(ix, c.u), key, sizeof key);
    snprintf(text, sizeof text, "key %s: writers T%lld..T%lld before T%lld..T%lld (true), after (false)", key,
             (long long)h->txns[u->head].ext_id, (long long)h->txns[u->last].ext_id,
             (long long)h->txns[v->head].ext_id, (long long)h->txns[v->last].ext_id);
    gs_name_vars(k, x, 1, text);
}

static void name_nodes(const polygraph *g, const graph_sink *k) {
    const pg_index *ix = g->ix;
    char text[256];
    snprintf(text, sizeof text, "%s graph, one acyclicity constraint; nodes in a topological order of the known edges%s",
             g->split ? "SI split" : "SER",
             g->split ? "; T' nodes: edges into T' are D edges, out of T' RW edges, T'->T fixed" : "");
    gs_comment(k, text);
    uint32_t nt = g->split ? g->num_nodes / 2 : g->num_nodes;
    for (uint32_t t = 0; t < nt; t++) {
        if (!ix->in_graph[t]) continue;
        long long id = t < ix->h->num_txns ? (long long)ix->h->txns[t].ext_id : (long long)(t - ix->h->num_txns);
        if (t == 0) snprintf(text, sizeof text, "node %u = INIT", g->topo_pos[pg_node_t(g, t)]);
        else if (t >= ix->h->num_txns) snprintf(text, sizeof text, "node %u = tick %lld", g->topo_pos[pg_node_t(g, t)], id);
        else snprintf(text, sizeof text, "node %u = T%lld", g->topo_pos[pg_node_t(g, t)], id);
        gs_comment(k, text);
        if (g->split) {
            if (t == 0) snprintf(text, sizeof text, "node %u = INIT'", g->topo_pos[pg_node_tp(g, t)]);
            else if (t >= ix->h->num_txns) snprintf(text, sizeof text, "node %u = tick %lld'", g->topo_pos[pg_node_tp(g, t)], id);
            else snprintf(text, sizeof text, "node %u = T%lld'", g->topo_pos[pg_node_tp(g, t)], id);
            gs_comment(k, text);
        }
    }
}

/* The always-on edges for the live engine (s non-NULL), in the order
 * pg_encode_sink gives them (known edges, then the fixed T' -> T ones),
 * handed to the engine by a producer it asks for chunks, pass after pass
 * (gsat_graph_add_edges_each: the same edges, ids and answers as one call
 * each, and the engine (theory_keep_ends 0, check.c) puts them straight
 * into its order's arrays in O(edges + nodes)).  A chunk's ends are looked
 * up in topo_pos on the level's pool; the chunk buffer is all these edges
 * cost beside the order's arrays: 2M edges (16 MB) a chunk. */
enum { ENDS_CHUNK = 1 << 21 };

typedef struct ends_job {
    const polygraph *g;
    unsigned threads;
    size_t first, n, per;        /* the chunk asked, and its share per task */
    int *ends;
    uint32_t tp_at, tp_t;        /* the fixed T' -> T edges: tp_at's (counting from 0) is node tp_t's */
} ends_job;

static void ends_task(void *ctx, size_t task) {
    const ends_job *j = ctx;
    const uint32_t *ord = j->g->topo_pos;
    size_t a = task * j->per, b = a + j->per < j->n ? a + j->per : j->n;
    for (size_t i = a; i < b; i++) {
        const pg_edge *e = &j->g->known.data[j->first + i];
        if (i + 16 < b) {                        /* the positions are read at random: ask 16 edges ahead */
            __builtin_prefetch(&ord[e[16].from]);
            __builtin_prefetch(&ord[e[16].to]);
        }
        j->ends[2 * i] = (int)ord[e->from];
        j->ends[2 * i + 1] = (int)ord[e->to];
    }
}

/* Edges first .. first + count - 1: known ones on the pool, then the
 * fixed T' -> T ones in node order (asked in order within a pass: the
 * cursor goes back to node 0 when a pass starts again). */
static void ends_each(void *ctx, size_t first, size_t count, int *ends) {
    ends_job *j = ctx;
    const polygraph *g = j->g;
    size_t known = g->known.len, nk = first < known ? (first + count < known ? count : known - first) : 0;
    if (nk) {
        size_t ntasks = j->threads > 1 ? 4 * (size_t)j->threads : 1;
        j->first = first; j->n = nk; j->per = (nk + ntasks - 1) / ntasks; j->ends = ends;
        par_pool_run_prio(j->threads > 1 ? g->pool : NULL, g->prio, ntasks, ends_task, j);
    }
    size_t at = first + nk - known;               /* the first fixed T' -> T edge asked */
    if (nk == count) return;
    if (at < j->tp_at) j->tp_at = j->tp_t = 0;
    const pg_index *ix = g->ix;
    for (size_t i = nk; i < count; i++) {
        while (!ix->in_graph[j->tp_t] || j->tp_at < at) { j->tp_at += ix->in_graph[j->tp_t] != 0; j->tp_t++; }
        ends[2 * i] = (int)g->topo_pos[2 * j->tp_t + 1];
        ends[2 * i + 1] = (int)g->topo_pos[2 * j->tp_t];
        at++;
        j->tp_at++; j->tp_t++;
    }
}

static void always_on_bulk(const polygraph *g, gsat *s, int graph) {
    const pg_index *ix = g->ix;
    size_t n = g->known.len;
    if (g->split)
        for (uint32_t t = 0; t < g->num_nodes / 2; t++) n += ix->in_graph[t] != 0;
    ends_job job = { .g = g, .threads = pg_threads_for(g, g->known.len) };
    /* The nodes are the graph's own, so only 2^31 edges can make the call
     * refuse them: fatal, as in acyclic_add_edge one at a time. */
    if (gsat_graph_add_edges_each(s, graph, n, ENDS_CHUNK, ends_each, &job) < 0) xalloc_fail(SIZE_MAX);
}

/* The constraints' sides for the live engine, the engine's part being
 * serial: chunk r's edges (their nodes' positions and guards, in the
 * order the loop below adds them) are found on one thread while chunk
 * r - 1's are added to the engine on the other, two tasks of the level's
 * pool a round, so the engine gets the same edges in the same order
 * (whichever thread runs its task; with no free thread both run one
 * after the other).  Chunks of pg_par_min_work constraints (32768: two
 * buffers of about 1 MB; tests set it to 0, chunks of 2). */
static size_t side_chunk(void) { return pg_par_min_work ? (size_t)pg_par_min_work : 2; }
typedef VEC(gs_arc) side_arc_vec;
typedef struct side_job {
    const polygraph *g;
    const graph_sink *k;
    int graph, first;
    side_arc_vec buf[2];
    int load;                    /* the buffer task 0 adds to the engine (-1: none) */
    size_t c0, c1;               /* the constraints task 1 finds the sides of, into buf[fill] */
    int fill;
    uint64_t count;
} side_job;

static void side_task(void *ctx, size_t task) {
    side_job *j = ctx;
    const polygraph *g = j->g;
    if (task == 0) {
        if (j->load < 0) return;
        gs_add_arcs(j->k, j->graph, j->buf[j->load].data, j->buf[j->load].len);
        j->count += j->buf[j->load].len;
        return;
    }
    side_arc_vec *out = &j->buf[j->fill];
    vec_clear(*out);
    dep_edge_vec deps; vec_init(deps);
    for (size_t i = j->c0; i < j->c1; i++)
        for (int side = 0; side < 2; side++) {
            pg_cons c = g->cons.data[i];
            vec_clear(deps);
            pg_side_deps(g, side ? c.v : c.u, side ? c.u : c.v, &deps);
            vec_foreach(const dep_edge, e, deps) {
                uint32_t a, b;
                pg_dep_nodes(g, (dep_kind)e->kind, e->from, e->to, &a, &b);
                gs_arc x = { (int)g->topo_pos[a], (int)g->topo_pos[b], side ? -(j->first + (int)i) : j->first + (int)i };
                vec_push(*out, x);
            }
        }
    vec_free(deps);
}

static void sides_pipelined(const polygraph *g, const graph_sink *k, int graph, int first, uint64_t *count) {
    side_job j = { .g = g, .k = k, .graph = graph, .first = first };
    vec_init(j.buf[0]); vec_init(j.buf[1]);
    size_t n = g->cons.len, chunk = side_chunk(), chunks = (n + chunk - 1) / chunk;
    for (size_t r = 0; r <= chunks; r++) {
        j.load = r ? (int)((r - 1) & 1) : -1;
        j.fill = (int)(r & 1);
        j.c0 = r * chunk;
        j.c1 = j.c0 + chunk < n ? j.c0 + chunk : n;
        par_pool_run_prio(g->pool, g->prio, r < chunks ? 2 : 1, side_task, &j);
    }
    *count += j.count;
    vec_free(j.buf[0]); vec_free(j.buf[1]);
}

/* The engine's bulk passes (its two sides) as two tasks of the level's
 * pool: g outlives the solver (check.c frees it after gsat_free). */
static void pool_runner(void *ctx, size_t ntasks, void (*fn)(void *, size_t), void *fctx) {
    const polygraph *g = ctx;
    par_pool_run_prio(g->pool, g->prio, ntasks, fn, fctx);
}

static int encode(const polygraph *g, const graph_sink *k, gsat *s, uint64_t *guarded_edges,
                  void (*known_read)(void *), void *ctx) {
    const pg_index *ix = g->ix;
    if (gs_wants_names(k)) name_nodes(g, k);
    int graph = gs_graph_new(k, (int)g->num_nodes);
    const uint32_t *ord = g->topo_pos;
    if (s) {
        if (g->threads > 1 && g->pool) gsat_graph_set_runner(s, pool_runner, (void *)g);
        always_on_bulk(g, s, graph);
        if (known_read) known_read(ctx);         /* g->known is not read below */
    } else {
        vec_foreach(const pg_edge, e, g->known) gs_add_edge(k, graph, (int)ord[e->from], (int)ord[e->to], 0);
        if (g->split)
            for (uint32_t t = 0; t < g->num_nodes / 2; t++)
                if (ix->in_graph[t]) gs_add_edge(k, graph, (int)ord[2 * t + 1], (int)ord[2 * t], 0);
    }
    int first = gs_num_vars(k) + 1;
    if (g->cons.len) gs_reserve_vars(k, first - 1 + (int)g->cons.len);
    dep_edge_vec deps; vec_init(deps);
    uint64_t count = 0;
    if (s && !gs_wants_names(k) && !g->rw_lazy && g->threads > 1 && g->cons.len >= 2 * side_chunk())
        sides_pipelined(g, k, graph, first, &count);
    else for (size_t i = 0; i < g->cons.len; i++) {
        int x = first + (int)i;
        if (gs_wants_names(k)) name_constraint(g, k, x, g->cons.data[i]);
        vec_clear(deps);
        pg_side_deps(g, g->cons.data[i].u, g->cons.data[i].v, &deps);
        add_deps(g, k, graph, &deps, x, &count);
        vec_clear(deps);
        pg_side_deps(g, g->cons.data[i].v, g->cons.data[i].u, &deps);
        add_deps(g, k, graph, &deps, -x, &count);
    }
    vec_free(deps);
    if (g->choice) pg_choice_encode(g->choice, g, k, graph, first, &count);
    if (guarded_edges) *guarded_edges = count;
    return first;
}

int pg_encode_sink(const polygraph *g, const graph_sink *k, uint64_t *guarded_edges) {
    return encode(g, k, NULL, guarded_edges, NULL, NULL);
}

/* Edges pg_encode_sink adds: the known ones and the fixed T' -> T ones
 * (always on, *fixed), and both sides of every constraint (the same count
 * as pg_side_deps gives). */
static uint64_t edge_count(const polygraph *g, uint64_t *fixed) {
    const pg_index *ix = g->ix;
    uint64_t n = g->known.len;
    if (g->split)
        for (uint32_t t = 0; t < g->num_nodes / 2; t++) n += ix->in_graph[t] != 0;
    *fixed = n;
    for (size_t i = 0; i < g->cons.len; i++)
        for (int side = 0; side < 2; side++) {
            const pg_unit *U = &ix->units.data[side ? g->cons.data[i].v : g->cons.data[i].u];
            const pg_unit *V = &ix->units.data[side ? g->cons.data[i].u : g->cons.data[i].v];
            n += U->last != 0;
            for (uint32_t j = 0; j < pg_unit_rd_num(U); j++) n += ix->readers.data[U->rd_first + j] != V->head;
        }
    return n;
}

int pg_encode_then(const polygraph *g, gsat *s, uint64_t *guarded_edges, void (*known_read)(void *), void *ctx) {
    /* The guarded edges' records at their exact size: grown by doubling
     * they would reserve up to as much again (100M edges at 10M
     * transactions under SI).  The always-on ones come in chunks, which
     * the engine sizes itself (or freezes into its order: never listed). */
    uint64_t fixed, edges = edge_count(g, &fixed);
    if (edges <= INT32_MAX) gsat_graph_reserve_edges(s, 0, (int)(edges - fixed));
    graph_sink k = graph_sink_gsat(s);
    return encode(g, &k, s, guarded_edges, known_read, ctx);
}

int pg_encode(const polygraph *g, gsat *s, uint64_t *guarded_edges) {
    return pg_encode_then(g, s, guarded_edges, NULL, NULL);
}
