/* psi.c — parallel snapshot isolation's search (doc/checker.md, "psi").
 *
 * psi holds iff some version order makes D = SO ∪ WR ∪ WW acyclic and
 * leaves no RW edge r -> c with c D+ r (no cycle with fewer than two RW
 * edges).  That is not one acyclicity constraint, so the search is lazy:
 * the engine's graph holds the D edges only (the known ones, and each
 * constraint's WW edge under its variable), and every model is checked
 * for an RW edge closing a D path.  Such an edge r -> c (known, or a side
 * of the model) and one D path c ~> r found by breadth-first search give
 * the clause "not all of these guards": the literals guarding the path's
 * edges and the RW edge (a known edge has none).  Any model that keeps
 * all those guards has the same one-RW cycle, so the clause excludes only
 * non-models; if it is empty the cycle is made of known edges and the
 * level fails.  Each round adds the clauses of every violating RW edge it
 * finds (up to PSI_CLAUSES_PER_ROUND), then solves again; the number of
 * clauses is finite (one per guard set), so this terminates, and it
 * answers SAT only for a model with no violation: sound and complete.
 *
 * rr (g->prw, doc/checker.md "The level rr") is the same loop with other
 * edges: the engine's graph holds every edge but the predicate
 * anti-dependencies (a cycle without one is forbidden), and each model's
 * item RW edges r -> c are checked against paths c ~> r of the whole
 * graph, predicate anti-dependencies included (Adya's G2-item: a cycle
 * with an item anti-dependency, whatever else it has).  That graph may
 * have cycles (allowed ones), so the search is a plain breadth-first one.
 * An RW edge r -> c of a reader r that writes the key itself is no item
 * anti-dependency (pred_rw_rmw: r's own version is the next one, and c
 * follows it by WW edges), so it is an arc but not checked. */
#include "frontend/checking/check.h"
#include "frontend/checking/choice.h"
#include "frontend/checking/pred_rw.h"

#include <stdlib.h>
#include <string.h>

#define PSI_CLAUSES_PER_ROUND 256

void psi_take_rw(polygraph *g, pg_edge_vec *rw) {
    size_t keep = 0;
    for (size_t i = 0; i < g->known.len; i++) {
        pg_edge e = g->known.data[i];
        if (PG_KIND(e.meta) == DEP_RW && pg_rw_lazy(g, e.from, PG_KEY(e.meta))) vec_push(*rw, e);
        else g->known.data[keep++] = e;
    }
    g->known.len = keep;
}

typedef struct psi_arc { uint32_t to; int lit; } psi_arc;
typedef struct psi_rw { uint32_t from, to; int lit; } psi_rw;

typedef struct psi_graph {
    uint32_t n;
    uint32_t *start;             /* CSR of the model's D edges */
    psi_arc *arcs;
    VEC(psi_rw) rw;
    uint32_t *topo;              /* node -> position in a topological order */
} psi_graph;

static void psi_graph_free(psi_graph *pg) {
    free(pg->start); free(pg->arcs); free(pg->topo);
    vec_free(pg->rw);
}

typedef struct psi_tmp { uint32_t from, to; int lit; } psi_tmp;
typedef VEC(psi_tmp) psi_tmp_vec;

/* The model's graph: known D edges, the chosen side of every constraint. */
static void psi_build(const polygraph *g, const gsat *s, int var0, const pg_edge_vec *rw_known, psi_graph *pg) {
    psi_tmp_vec d; vec_init(d);
    vec_init(pg->rw);
    int rr = g->prw != NULL;                     /* rr: arcs are every edge, item RW edges checked */
    vec_foreach(const pg_edge, e, g->known) {
        psi_tmp t = { e->from, e->to, 0 };
        vec_push(d, t);
        if (rr && PG_KIND(e->meta) == DEP_RW && !pred_rw_rmw(g->prw, e->from, PG_KEY(e->meta))) {
            psi_rw r = { e->from, e->to, 0 };
            vec_push(pg->rw, r);
        }
    }
    vec_foreach(const pg_edge, e, *rw_known) {
        if (rr) { psi_tmp t = { e->from, e->to, 0 }; vec_push(d, t); }
        else { psi_rw r = { e->from, e->to, 0 }; vec_push(pg->rw, r); }
    }
    dep_edge_vec side; vec_init(side);
    for (size_t i = 0; i < g->cons.len; i++) {
        int x = var0 + (int)i, lit = gsat_value(s, x) > 0 ? x : -x;
        pg_cons c = g->cons.data[i];
        vec_clear(side);
        if (lit > 0) pg_side_deps(g, c.u, c.v, &side); else pg_side_deps(g, c.v, c.u, &side);
        vec_foreach(const dep_edge, e, side) {
            int is_rw = e->kind == DEP_RW;
            int checked = is_rw && (!rr || (!pg_rw_lazy(g, e->from, e->key) && !pred_rw_rmw(g->prw, e->from, e->key)));
            if (checked) { psi_rw r = { e->from, e->to, lit }; vec_push(pg->rw, r); }
            if (!is_rw || rr) { psi_tmp t = { e->from, e->to, lit }; vec_push(d, t); }
        }
    }
    vec_free(side);
    if (g->choice)                               /* repeated values: the guarded edges the model keeps (choice.h) */
        vec_foreach(const pg_choice_edge, e, g->choice->edges) {
            if (gsat_value(s, e->lit) <= 0) continue;
            /* rr: every edge is an arc; an item RW edge (not a predicate-only reader's, not a
             * view's (rw 2), not a read-modify-write's) is checked as well, as the known ones above */
            int checked = e->rw == 1 && (!rr || (!pg_rw_lazy(g, e->from, e->key)
                                            && !pred_rw_rmw(g->prw, pg_node_txn(g, e->from), e->key)));
            if (checked) { psi_rw r = { e->from, e->to, e->lit }; vec_push(pg->rw, r); }
            if (!e->rw || rr) { psi_tmp t = { e->from, e->to, e->lit }; vec_push(d, t); }
        }
    uint32_t n = g->num_nodes;
    pg->n = n;
    pg->start = xcalloc((size_t)n + 1, sizeof *pg->start);
    pg->arcs = xmalloc((d.len ? d.len : 1) * sizeof *pg->arcs);
    vec_foreach(const psi_tmp, t, d) pg->start[t->from + 1]++;
    for (uint32_t u = 0; u < n; u++) pg->start[u + 1] += pg->start[u];
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, pg->start, ((size_t)n + 1) * sizeof *fill);
    vec_foreach(const psi_tmp, t, d) { psi_arc a = { t->to, t->lit }; pg->arcs[fill[t->from]++] = a; }
    vec_free(d);
    /* a topological order (Kahn): the engine kept D acyclic */
    uint32_t *indeg = fill;
    memset(indeg, 0, ((size_t)n + 1) * sizeof *indeg);
    for (uint32_t j = 0; j < pg->start[n]; j++) indeg[pg->arcs[j].to]++;
    uint32_t *queue = xmalloc((n ? n : 1) * sizeof *queue), qh = 0, qt = 0;
    pg->topo = xmalloc((n ? n : 1) * sizeof *pg->topo);
    for (uint32_t u = 0; u < n; u++) { pg->topo[u] = UINT32_MAX; if (!indeg[u]) queue[qt++] = u; }
    while (qh < qt) {
        uint32_t u = queue[qh];
        pg->topo[u] = qh++;
        for (uint32_t j = pg->start[u]; j < pg->start[u + 1]; j++)
            if (--indeg[pg->arcs[j].to] == 0) queue[qt++] = pg->arcs[j].to;
    }
    free(queue); free(fill);
}

/* A D path c ~> r (breadth first, only through nodes not after r in the
 * topological order): its arcs' guards into lits; 1 if there is one.
 * par, parc, stamp: scratch of n entries; *round: the stamp of this search. */
static int psi_path(const psi_graph *pg, uint32_t c, uint32_t r, uint32_t *par, int *parlit, uint32_t *stamp,
                    uint32_t round, uint32_t *queue, vec_int *lits, int cyclic) {
    /* cyclic (rr): the graph may have cycles, no topological bound */
    if (!cyclic && (pg->topo[c] == UINT32_MAX || pg->topo[r] == UINT32_MAX || pg->topo[c] > pg->topo[r])) return 0;
    uint32_t qh = 0, qt = 0, lim = cyclic ? UINT32_MAX : pg->topo[r];
    queue[qt++] = c; stamp[c] = round; par[c] = c;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        if (u == r) {
            for (uint32_t x = r; x != c; x = par[x]) if (parlit[x]) vec_push(*lits, -parlit[x]);
            return 1;
        }
        for (uint32_t j = pg->start[u]; j < pg->start[u + 1]; j++) {
            uint32_t v = pg->arcs[j].to;
            if (stamp[v] == round || (!cyclic && pg->topo[v] > lim)) continue;
            stamp[v] = round; par[v] = u; parlit[v] = pg->arcs[j].lit;
            queue[qt++] = v;
        }
    }
    return 0;
}

/* rr: the strongly connected component of every node of the model's
 * graph (iterative Tarjan) into comp; an item RW edge r -> c closes a path
 * iff comp[r] == comp[c], so only those are searched. */
static void psi_scc(const psi_graph *pg, uint32_t *comp) {
    uint32_t n = pg->n, idx = 0, nc = 0;
    uint32_t *index = xmalloc((n ? n : 1) * sizeof *index), *low = xmalloc((n ? n : 1) * sizeof *low);
    uint32_t *it = xmalloc((n ? n : 1) * sizeof *it);
    uint8_t *on = xcalloc(n ? n : 1, 1);
    vec_u32 stack, call; vec_init(stack); vec_init(call);
    for (uint32_t u = 0; u < n; u++) index[u] = UINT32_MAX;
    for (uint32_t s0 = 0; s0 < n; s0++) {
        if (index[s0] != UINT32_MAX) continue;
        vec_push(call, s0);
        index[s0] = low[s0] = idx++; it[s0] = pg->start[s0]; vec_push(stack, s0); on[s0] = 1;
        while (call.len) {
            uint32_t u = vec_last(call);
            if (it[u] < pg->start[u + 1]) {
                uint32_t v = pg->arcs[it[u]++].to;
                if (index[v] == UINT32_MAX) {
                    index[v] = low[v] = idx++; it[v] = pg->start[v]; vec_push(stack, v); on[v] = 1;
                    vec_push(call, v);
                } else if (on[v] && index[v] < low[u]) low[u] = index[v];
                continue;
            }
            call.len--;
            if (call.len) { uint32_t p = vec_last(call); if (low[u] < low[p]) low[p] = low[u]; }
            if (low[u] != index[u]) continue;
            uint32_t w;
            do { w = stack.data[--stack.len]; on[w] = 0; comp[w] = nc; } while (w != u);
            nc++;
        }
    }
    vec_free(stack); vec_free(call);
    free(index); free(low); free(it); free(on);
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int psi_solve(const polygraph *g, gsat *s, int var0, const pg_edge_vec *rw_known, uint32_t *rounds) {
    uint32_t n = g->num_nodes;
    uint32_t *par = xmalloc((n ? n : 1) * sizeof *par), *stamp = xcalloc(n ? n : 1, sizeof *stamp);
    uint32_t *queue = xmalloc((n ? n : 1) * sizeof *queue);
    int *parlit = xmalloc((n ? n : 1) * sizeof *parlit);
    uint32_t *comp = g->prw ? xmalloc((n ? n : 1) * sizeof *comp) : NULL;
    uint32_t search = 0;
    vec_int lits; vec_init(lits);
    int r;
    for (;;) {
        r = gsat_solve(s, NULL, 0);
        (*rounds)++;
        if (r != GSAT_SAT) break;
        psi_graph pg;
        psi_build(g, s, var0, rw_known, &pg);
        int added = 0, empty = 0;
        if (comp) psi_scc(&pg, comp);
        for (size_t i = 0; i < pg.rw.len && added < PSI_CLAUSES_PER_ROUND && !empty; i++) {
            const psi_rw *e = &pg.rw.data[i];
            if (comp && comp[e->from] != comp[e->to]) continue;
            vec_clear(lits);
            if (!psi_path(&pg, e->to, e->from, par, parlit, stamp, ++search, queue, &lits, g->prw != NULL)) continue;
            if (e->lit) vec_push(lits, -e->lit);
            if (lits.len > 1) qsort(lits.data, lits.len, sizeof *lits.data, cmp_int);
            size_t m = 0;                        /* a side's edges share its literal */
            for (size_t j = 0; j < lits.len; j++) if (!m || lits.data[m - 1] != lits.data[j]) lits.data[m++] = lits.data[j];
            lits.len = m;
            if (!lits.len) empty = 1;            /* known edges alone: the level fails */
            gsat_add_clause(s, lits.data, (int)lits.len);
            added++;
        }
        psi_graph_free(&pg);
        if (empty) { r = GSAT_UNSAT; break; }
        if (!added) break;                       /* a model without a violation */
    }
    vec_free(lits);
    free(par); free(stamp); free(queue); free(parlit); free(comp);
    return r;
}
