/* acyclic_explain.c — the theory's clauses: conflict clauses of failed
 * insertions and the lazy reasons of implied guards, each with the fewest
 * guards the order's searches can find. */
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

/* Push onto out the negated guards of a path src ~> dst through edges with
 * trail index < limit, one with the fewest guarded edges (0-1 BFS, Dial
 * style: cost-0 edges extend the current layer, cost-1 edges the next).
 * Only nodes ordered between src and dst can lie on such a path.  Guards
 * already marked VF_SEEN are skipped, the others marked (the caller
 * clears the marks: unmark_seen).  Returns the literals added,
 * -1 if there is no such path. */
int acyclic_explain_path(acyclic *a, int src, int dst, int limit, vec_int *out) {
    sync_fixed(a);
    pk_order *pk = &a->pk;
    int *par_node = pk->par_node, *par_edge = pk->par_edge;   /* scratch between insertions */
    const int hi = pk->ord[dst], free_below = level0_end(a);
    uint32_t stamp = pk_new_stamp(pk), *seen = pk->mark;
    vec_clear(a->cur);
    vec_clear(a->next);
    seen[src] = stamp;
    par_node[src] = -1;
    vec_push(a->cur, ((reach){src, -1}));
    int found = src == dst;
    while (!found && (a->cur.len || a->next.len)) {
        if (!a->cur.len) {              /* next layer: settle what is not settled yet */
            for (size_t i = 0; i < a->next.len; i++) {
                reach r = a->next.data[i];
                if (seen[r.node] == stamp) continue;
                seen[r.node] = stamp;
                par_edge[r.node] = r.edge;
                par_node[r.node] = a->e[r.edge].from;
                if (r.node == dst) { found = 1; break; }
                vec_push(a->cur, r);
            }
            vec_clear(a->next);
            continue;
        }
        int w = vec_pop(a->cur).node, nf;
        const int *fixed = pk_fixed_out(pk, w, &nf);
        for (int i = 0; i < nf && !found; i++) {   /* always on: free */
            int z = fixed[i];
            if (seen[z] == stamp || pk->ord[z] > hi) continue;
            seen[z] = stamp;
            par_node[z] = w;
            par_edge[z] = PK_FIXED;
            if (z == dst) found = 1;
            else vec_push(a->cur, ((reach){z, PK_FIXED}));
        }
        const pk_adj *adj = &pk->out[w];
        const pk_arc *arcs = pk_arcs(pk, adj);
        for (int i = 0; i < adj->len && !found; i++) {
            int z = arcs[i].node, id = (int)arcs[i].edge;
            if (seen[z] == stamp || pk->ord[z] > hi) continue;
            if (id == PK_FIXED || a->e[id].pos < free_below) {
                if (id != PK_FIXED && a->e[id].pos >= limit) continue;
                seen[z] = stamp;
                par_node[z] = w;
                par_edge[z] = id;
                if (z == dst) found = 1;
                else vec_push(a->cur, ((reach){z, id}));
            } else if (a->e[id].pos < limit) {
                vec_push(a->next, ((reach){z, id}));
            }
        }
    }
    if (!found) return -1;
    int added = 0;
    for (int v = dst; v != src; v = par_node[v]) {
        if (par_edge[v] == PK_FIXED) continue;
        const edge *ed = &a->e[par_edge[v]];
        if (ed->pos >= free_below && !(a->vflag[lit_var(ed->lit)] & VF_SEEN)) {
            a->vflag[lit_var(ed->lit)] |= VF_SEEN;
            vec_push(*out, -ed->lit);
            added++;
        }
    }
    return added;
}

/* The conflict clause for an edge guarded by lit (0: always on) whose
 * insertion failed: its guard and the guards on the path Pearce-Kelly's
 * search found back from its head to its tail (a->cycle), those not on for
 * good. */
void acyclic_conflict_clause(acyclic *a, int lit, vec_int *out) {
    const int free_below = level0_end(a);
    const size_t from = out->len;
    int n = 0;
    if (lit) { vec_push(*out, -lit); a->vflag[lit_var(lit)] |= VF_SEEN; n++; }
    for (size_t i = 0; i < a->cycle.len; i++) {
        if (a->cycle.data[i] == PK_FIXED) continue;
        const edge *pe = &a->e[a->cycle.data[i]];
        if (pe->pos >= free_below && !(a->vflag[lit_var(pe->lit)] & VF_SEEN)) {
            a->vflag[lit_var(pe->lit)] |= VF_SEEN;
            vec_push(*out, -pe->lit);
            n++;
        }
    }
    unmark_seen(a, out, from);
    a->st.conflicts++;
    a->st.conflict_lits += n;
}

/* lit was implied because its edge u->v would close a cycle with a path
 * v ~> u of edges older than the implication; its reason is the one with
 * the fewest guards.  If no edge taken back could lie on that path, it
 * stands: an edge x->y can lie on one only if it is older and ord[v] <=
 * ord[x] < ord[y] <= ord[u].  Otherwise the path is searched: lit stays
 * (with that path as its reason) only if none of its guards was taken
 * back. */
int acyclic_th_implied_still(void *t, int lit, vec_int *reason) {
    acyclic *a = t;
    int id = a->implied_edge[lit_var(lit)];
    assert(id >= 0 && a->e[id].lit == -lit);
    const edge *ed = &a->e[id];
    const int *ord = a->pk.ord, lo = ord[ed->to], hi = ord[ed->from];
    const int limit = a->implied_limit[lit_var(lit)];
    size_t i = 0;
    for (; i < a->taken_back.len; i++) {
        const reach r = a->taken_back.data[i];       /* node: trail position, edge */
        const edge *g = &a->e[r.edge];
        if (r.node < limit && ord[g->from] >= lo && ord[g->to] <= hi) break;
    }
    if (i == a->taken_back.len) return 1;
    const size_t from = reason->len;
    vec_push(*reason, lit);
    a->vflag[lit_var(lit)] |= VF_SEEN;
    if (acyclic_explain_path(a, ed->to, ed->from, limit, reason) < 0) assert(0 && "an implied edge lost its cycle");
    unmark_seen(a, reason, from);
    for (size_t k = 1; k < reason->len; k++)
        if (a->vflag[lit_var(reason->data[k])] & VF_GONE) { vec_clear(*reason); return 0; }
    a->st.reasons++;
    a->st.reason_lits += (int64_t)reason->len;
    return 1;
}

void acyclic_th_reason(void *t, int lit, vec_int *out) {
    acyclic *a = t;
    flush_taken_back(a);
    int id = a->implied_edge[lit_var(lit)];
    assert(id >= 0 && a->e[id].lit == -lit);
    const edge *ed = &a->e[id];
    const size_t from = out->len;
    vec_push(*out, lit);
    a->vflag[lit_var(lit)] |= VF_SEEN;
    int n = acyclic_explain_path(a, ed->to, ed->from, a->implied_limit[lit_var(lit)], out);
    unmark_seen(a, out, from);
    assert(n >= 0);
    a->st.reasons++;
    a->st.reason_lits += n + 1;
}

void acyclic_th_conflict(void *t, vec_int *out) {
    acyclic *a = t;
    flush_taken_back(a);
    assert(a->conflict_edge >= 0);
    acyclic_conflict_clause(a, a->e[a->conflict_edge].lit, out);
    a->conflict_edge = -1;
}

