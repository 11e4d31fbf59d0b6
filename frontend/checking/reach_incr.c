/* reach_incr.c — the reachability table renewed in place after edges are
 * appended (reach.c decides when; contract in reach_rows.h).
 *
 * The table is the least fixpoint of row[u] = min(own position, rows of
 * u's successors); on a DAG that is unique.  After edges are appended to a
 * graph whose table is known, only the new edges' sources and their
 * ancestors can get smaller rows: relax those backwards, the node latest
 * in the (new) topological order first, so that every node's successors
 * are final when it is relaxed and it is visited once.  The result equals
 * a full recomputation; when too many nodes change, that is done instead.
 * In the split graph the rows are the commits', and a commit's successors
 * are reached through start nodes (see has_row). */
#include "frontend/checking/polygraph.h"
#include "frontend/checking/depgraph.h"
#include "frontend/checking/reach_rows.h"

#include <stdlib.h>
#include <string.h>


typedef struct node_heap { uint32_t *node; uint32_t len; const uint32_t *key; } node_heap;

static void heap_push_node(node_heap *hp, uint32_t u) {
    uint32_t i = hp->len++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (hp->key[hp->node[p]] >= hp->key[u]) break;
        hp->node[i] = hp->node[p];
        i = p;
    }
    hp->node[i] = u;
}

static uint32_t heap_pop_node(node_heap *hp) {
    uint32_t top = hp->node[0], x = hp->node[--hp->len], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= hp->len) break;
        if (c + 1 < hp->len && hp->key[hp->node[c + 1]] > hp->key[hp->node[c]]) c++;
        if (hp->key[hp->node[c]] <= hp->key[x]) break;
        hp->node[i] = hp->node[c];
        i = c;
    }
    if (hp->len) hp->node[i] = x;
    return top;
}

typedef struct incr {
    polygraph *g;
    const dg_graph *dg;
    const uint32_t *pstart, *pred;
    uint8_t *queued;
    uint16_t *val;               /* 3 rows' 16-bit forms */
    node_heap hp;
    uint8_t *bit;                /* a row's parity bytes */
} incr;

static void incr_push(incr *in, uint32_t u) {
    if (in->queued[u]) return;
    in->queued[u] = 1;
    heap_push_node(&in->hp, u);
}

/* Row node p gets src's row (src a row node); queued if it changed. */
static void incr_relax(incr *in, uint32_t p, uint32_t src) {
    polygraph *g = in->g;
    if (reach_rows_relax(g, row_of(g, p), row_of(g, src), in->val, in->bit)) incr_push(in, p);
}

/* Row node a gets what node x (a successor of a) contributes. */
static void incr_from(incr *in, uint32_t a, uint32_t x) {
    polygraph *g = in->g;
    if (has_row(g, x)) { incr_relax(in, a, x); return; }
    uint32_t c = pg_node_chain(g, x);
    if (reach_rows_relax_own(g, row_of(g, a), c, c == HISTORY_NONE ? 0 : pg_node_pos(g, x), in->val, in->bit)) incr_push(in, a);
    for (uint32_t f = in->dg->start[x]; f < in->dg->start[x + 1]; f++) incr_relax(in, a, in->dg->adj[f]);
}

/* The row nodes whose rows take row node x's: its row predecessors,
 * directly or through a start node. */
static void incr_spread(incr *in, uint32_t x) {
    polygraph *g = in->g;
    for (uint32_t j = in->pstart[x]; j < in->pstart[x + 1]; j++) {
        uint32_t s = in->pred[j];
        if (has_row(g, s)) { incr_relax(in, s, x); continue; }
        for (uint32_t k = in->pstart[s]; k < in->pstart[s + 1]; k++) incr_relax(in, in->pred[k], x);
    }
}

/* Returns 0 (table unfinished: recompute it) when more than limit rows
 * would change. */
int reach_update_incrementally(polygraph *g, const dg_graph *dg, uint32_t limit) {
    uint32_t N = g->num_nodes, S = g->num_chains;
    size_t M = dg->start[N];
    /* predecessors: the reverse adjacency */
    uint32_t *pstart = xcalloc((size_t)N + 1, sizeof *pstart), *pred = xmalloc((M + 1) * sizeof *pred);
    for (size_t j = 0; j < M; j++) pstart[dg->adj[j] + 1]++;
    for (uint32_t u = 0; u < N; u++) pstart[u + 1] += pstart[u];
    uint32_t *fill = xmalloc(((size_t)N + 1) * sizeof *fill);
    memcpy(fill, pstart, ((size_t)N + 1) * sizeof *fill);
    for (uint32_t u = 0; u < N; u++)
        for (uint32_t j = dg->start[u]; j < dg->start[u + 1]; j++) pred[fill[dg->adj[j]]++] = u;
    free(fill);
    incr in = { g, dg, pstart, pred, xcalloc(N ? N : 1, 1), xmalloc((3 * (size_t)S + 1) * sizeof(uint16_t)),
                { xmalloc((N ? N : 1) * sizeof(uint32_t)), 0, g->topo_pos }, xmalloc((size_t)S + 8) };
    for (size_t i = g->reach_edges; i < g->known.len; i++) {
        if (no_arc(g, &g->known.data[i])) continue;
        uint32_t a = g->known.data[i].from, b = g->known.data[i].to;
        if (has_row(g, a)) incr_from(&in, a, b);
        else   /* an RW arc a' -> b: the commits with an arc into a' get b's row */
            for (uint32_t k = pstart[a]; k < pstart[a + 1]; k++) incr_relax(&in, pred[k], b);
    }
    uint32_t visited = 0;
    int ok = 1;
    while (in.hp.len) {
        if (++visited > limit) { ok = 0; break; }
        uint32_t x = heap_pop_node(&in.hp);
        in.queued[x] = 0;
        incr_spread(&in, x);
    }
    free(in.hp.node); free(in.queued); free(pstart); free(pred); free(in.val); free(in.bit);
    return ok;
}
