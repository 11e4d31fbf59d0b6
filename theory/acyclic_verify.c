/* acyclic_verify.c — independent checks of the theory's whole state
 * (acyclic_verify, acyclic_verify_order in acyclic.h) and of a conflict's
 * path.  Debug builds only: the engine checks at every final check, the
 * tests between solves. */
#include "fatal.h"
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

#ifdef GSAT_DEBUG
/* Is `eid` (a guarded id or PK_FIXED) an enabled edge from -> to? */
static int is_enabled_arc(const acyclic *a, int from, int to, int eid) {
    if (eid != PK_FIXED) {
        const edge *ed = &a->e[eid];
        return ed->from == from && ed->to == to && ed->pos >= 0 && a->trail.data[ed->pos] == eid;
    }
    int nf;
    const int *fixed = pk_fixed_out(&a->pk, from, &nf);
    for (int i = 0; i < nf; i++) if (fixed[i] == to) return 1;
    const pk_adj *adj = &a->pk.out[from];
    const pk_arc *arcs = pk_arcs(&a->pk, adj);
    for (int i = 0; i < adj->len; i++) if (arcs[i].node == to && arcs[i].edge == PK_FIXED) return 1;
    return 0;
}

/* The path of a->cycle runs through enabled edges from `from` back to `to`. */
void acyclic_check_cycle_path(const acyclic *a, int from, int to) {
    int at = from;
    for (size_t i = 0; i < a->cycle.len; i++) {
        int prev = a->pk.par_node[at];
        if (prev < 0 || a->pk.par_edge[at] != a->cycle.data[i] || !is_enabled_arc(a, prev, at, a->cycle.data[i]))
            internal_error("gsat", "acyclicity conflict path broken");
        at = prev;
    }
    if (at != to) internal_error("gsat", "acyclicity conflict path incomplete");
}

/* The always-on arcs in the order on one side (frozen, then those on the
 * lists), as (from, to) pairs. */
static void order_fixed_pairs(const acyclic *a, int side, vec_int *out) {
    for (int v = 0; v < a->pk.num_nodes; v++) {
        int nf;
        const int *fx = side ? pk_fixed_in(&a->pk, v, &nf) : pk_fixed_out(&a->pk, v, &nf);
        for (int i = 0; i < nf; i++) { vec_push(*out, side ? fx[i] : v); vec_push(*out, side ? v : fx[i]); }
        const pk_adj *adj = side ? &a->pk.in[v] : &a->pk.out[v];
        const pk_arc *arcs = pk_arcs(&a->pk, adj);
        for (int i = 0; i < (int)adj->len; i++)
            if (arcs[i].edge == PK_FIXED) { vec_push(*out, side ? arcs[i].node : v); vec_push(*out, side ? v : arcs[i].node); }
    }
}

static int cmp_pair(const void *x, const void *y) {
    const int *p = x, *q = y;
    return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

/* The always-on arcs in the order are the ones it should hold: both sides
 * alike, and (ends kept) exactly the first fixed_in_pk listed edges. */
static int verify_fixed_arcs(const acyclic *a) {
    vec_int out, in;
    vec_init(out); vec_init(in);
    order_fixed_pairs(a, 0, &out);
    order_fixed_pairs(a, 1, &in);
    int ok = out.len == in.len && out.len == 2 * a->fixed_in_pk && out.len == 2 * pk_fixed_count(&a->pk);
    if (ok && out.len) {
        qsort(out.data, out.len / 2, 2 * sizeof *out.data, cmp_pair);
        qsort(in.data, in.len / 2, 2 * sizeof *in.data, cmp_pair);
        ok = !memcmp(out.data, in.data, out.len * sizeof *out.data);
        if (ok && !a->fixed_base) {
            vec_clear(in);
            for (size_t i = 0; i < 2 * a->fixed_in_pk; i++) vec_push(in, a->fixed[i]);
            qsort(in.data, in.len / 2, 2 * sizeof *in.data, cmp_pair);
            ok = !memcmp(out.data, in.data, out.len * sizeof *out.data);
        }
    }
    vec_free(out); vec_free(in);
    return ok;
}

int acyclic_verify_order(const acyclic *a) {
    const int *ord = a->pk.ord;
    int on = 0;
    for (size_t i = 0; i < a->trail.len; i++) {
        const edge *ed = &a->e[a->trail.data[i]];
        if (ed->pos != (int)i) continue;                   /* a hole */
        on++;
        if (ord[ed->from] >= ord[ed->to]) return 0;
    }
    /* every always-on edge respects the order (frozen, listed, and those
     * not in it yet), and every arc on a list */
    for (int v = 0; v < a->pk.num_nodes; v++) {
        int nf;
        const int *heads = pk_fixed_out(&a->pk, v, &nf);
        for (int i = 0; i < nf; i++) if (ord[v] >= ord[heads[i]]) return 0;
    }
    for (size_t f = a->fixed_base; f < a->num_fixed; f++)
        if (ord[a->fixed[2 * (f - a->fixed_base)]] >= ord[a->fixed[2 * (f - a->fixed_base) + 1]]) return 0;
    /* every enabled edge is on the trail once, every always-on one in the
     * order once */
    int64_t arcs = 0;
    for (int v = 0; v < a->pk.num_nodes; v++)
        for (int k = 0; k < a->pk.out[v].len; k++) {
            const pk_arc *arc = &pk_arcs(&a->pk, &a->pk.out[v])[k];
            if (ord[v] >= ord[arc->node]) return 0;
            if (arc->edge != PK_FIXED) arcs++;
        }
    for (int id = 0; id < a->num_guarded; id++)
        if (a->e[id].pos >= 0 && (a->e[id].pos >= (int)a->trail.len || a->trail.data[a->e[id].pos] != id)) return 0;
    if (arcs != on || !verify_fixed_arcs(a)) return 0;
    /* the guarded edges of each node, each side kept: its fresh list (ids
     * from its block's build on) then its block's arcs (older ids), newest
     * first (strictly descending: no edge twice), each with this node as
     * its end on that side and the right other end, as many as the records
     * give it (so every edge once); the pool's live entries are those on
     * the lists, its dead ones counted */
    if (a->pk.num_nodes) {
        int *deg = xcalloc((size_t)a->pk.num_nodes, sizeof *deg);
        for (int side = 0; side < a->sides; side++) {
            const gcsr *g = &a->gc[side];
            size_t live = 0, dead = 0;
            for (size_t p = 0; p < g->pool.len; p++) dead += g->pool.data[p].edge < 0;
            memset(deg, 0, (size_t)a->pk.num_nodes * sizeof *deg);
            for (int id = 0; id < a->num_guarded; id++)
                if (a->e[id].lit && a->e[id].from != a->e[id].to) deg[side ? a->e[id].to : a->e[id].from]++;
            int ok = dead == g->pool_dead;
            for (int v = 0; v < a->pk.num_nodes && ok; v++) {
                int n, old, k = 0, last = INT_MAX;
                const reach *r = gcsr_arcs(a, side, v, &n, &old);
                for (int p = g->head[v]; p >= 0 && ok; p = g->pool.data[p].next, k++, live++) {
                    int id = g->pool.data[p].edge;
                    ok = p < (int)g->pool.len && id >= old && id < last && id < a->num_guarded &&
                         (side ? a->e[id].to : a->e[id].from) == v;
                    last = id;
                }
                for (int i = 0; i < n && ok; i++, k++) {
                    int id = r[i].edge;
                    ok = id < old && id < last && id >= 0 && (side ? a->e[id].to : a->e[id].from) == v &&
                         r[i].node == (side ? a->e[id].from : a->e[id].to);
                    last = id;
                }
                ok = ok && k == deg[v];
            }
            if (!ok || live + dead != g->pool.len) { free(deg); return 0; }
        }
        free(deg);
    }
    for (int v = 0; v < a->pk.num_nodes; v++)
        if (a->pk.node_at[ord[v]] != v) return 0;
    /* no clause is being built: every VF_SEEN mark was cleared */
    for (int v = 0; v < a->cap_vars; v++)
        if (a->vflag[v] & VF_SEEN) return 0;
    return 1;
}

int acyclic_verify(const acyclic *a) {
    int n = a->pk.num_nodes;
    if (!acyclic_verify_order(a)) return 0;
    /* every edge that should be on is on, and only those */
    for (int id = 0; id < a->num_guarded; id++) {
        const edge *ed = &a->e[id];
        if (ed->from == ed->to) { if (ed->pos >= 0) return 0; continue; }
        int should = ed->lit == 0 || guard_value(a, ed->lit) > 0;
        if (should != (ed->pos >= 0)) return 0;
    }
    /* independent DFS over the on-edges (the always-on ones: those in the
     * order, which verify_fixed_arcs matched to the fixed list when it is
     * kept, and the listed ones not in it yet; ids num_guarded + their
     * index in fe): colour 0 new, 1 open, 2 done */
    vec_int fev;
    vec_init(fev);
    order_fixed_pairs(a, 0, &fev);
    for (size_t f = a->fixed_in_pk > a->fixed_base ? a->fixed_in_pk : a->fixed_base; f < a->num_fixed; f++) {
        vec_push(fev, a->fixed[2 * (f - a->fixed_base)]);
        vec_push(fev, a->fixed[2 * (f - a->fixed_base) + 1]);
    }
    const int *fe = fev.data;
    size_t m = (size_t)a->num_guarded + fev.len / 2;
    int *head = malloc(((size_t)n + 1) * sizeof *head), *nxt = malloc((m + 1) * sizeof *nxt);
    unsigned char *colour = calloc((size_t)n + 1, 1);
    int *stack = malloc(((size_t)n + 1) * sizeof *stack), *it = malloc(((size_t)n + 1) * sizeof *it);
    if (!head || !nxt || !colour || !stack || !it) xalloc_fail((size_t)n);
    for (int v = 0; v < n; v++) head[v] = -1;
    for (size_t id = 0; id < m; id++) {
        int from;
        if (id < (size_t)a->num_guarded) {
            if (a->e[id].pos < 0) continue;
            from = a->e[id].from;
        } else {
            from = fe[2 * (id - (size_t)a->num_guarded)];
        }
        nxt[id] = head[from];
        head[from] = (int)id;
    }
    int ok = 1;
    for (int r = 0; r < n && ok; r++) {
        if (colour[r]) continue;
        int sp = 0;
        stack[sp] = r; it[sp] = head[r]; sp++; colour[r] = 1;
        while (sp && ok) {
            int top = sp - 1, id = it[top];
            if (id < 0) { colour[stack[top]] = 2; sp--; continue; }
            it[top] = nxt[id];
            int z = id < a->num_guarded ? a->e[id].to : fe[2 * ((size_t)id - (size_t)a->num_guarded) + 1];
            if (colour[z] == 1) ok = 0;
            else if (colour[z] == 0) { colour[z] = 1; stack[sp] = z; it[sp] = head[z]; sp++; }
        }
    }
    free(head); free(nxt); free(colour); free(stack); free(it); vec_free(fev);
    return ok;
}
#endif
