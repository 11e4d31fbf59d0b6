/* acyclic_presort.c — re-sorting the order once per solve for the edges
 * the solve is about to turn on (option theory_presort). */
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

/* Once per solve, before the first edge of the solve is inserted: re-sort
 * the order so that it also agrees with the edges the solve is about to
 * turn on: those whose guard is already true (level-0 facts not yet
 * reported) and those guarded by assumptions.  They arrive one at a time,
 * and inserting many edges against the order makes Pearce–Kelly reorder
 * large windows again and again; a sort is O(nodes + edges) once.
 * Kahn's algorithm over the enabled edges, which must stay respected, plus
 * those soon-on edges, respected when they can be: when every remaining
 * node waits on some predecessor, take one that waits on soon-on edges
 * only (the enabled edges are acyclic, so one exists). */
static int soon_on(const acyclic *a, const edge *ed, const uint8_t *assumed) {
    if (ed->pos >= 0 || !ed->lit || ed->from == ed->to) return 0;
    if (guard_value(a, ed->lit) > 0) return 1;
    return assumed && assumed[lit_index(ed->lit)];
}

void acyclic_presort(acyclic *a) {
    a->presort_due = 0;
    sync_fixed(a);
    uint8_t *assumed = NULL;
    if (a->assumed.len) {
        assumed = xcalloc(2 * (size_t)a->cap_vars, 1);
        for (size_t i = 0; i < a->assumed.len; i++) {
            int lit = a->assumed.data[i];
            if (lit_var(lit) < a->cap_vars) assumed[lit_index(lit)] = 1;
        }
    }
    size_t soft = 0;
    for (int id = 0; id < a->num_guarded; id++) soft += soon_on(a, &a->e[id], assumed);
    if (!soft) { free(assumed); return; }
    int n = a->pk.num_nodes;
    int *start = xcalloc((size_t)n + 2, sizeof *start), *head = xmalloc(soft * sizeof *head);
    int *indeg_all = xcalloc((size_t)n, sizeof *indeg_all), *indeg_hard = xcalloc((size_t)n, sizeof *indeg_hard);
    /* CSR of the soon-on edges by source */
    for (int id = 0; id < a->num_guarded; id++)
        if (soon_on(a, &a->e[id], assumed)) { start[a->e[id].from + 2]++; indeg_all[a->e[id].to]++; }
    for (int v = 0; v < n; v++) start[v + 2] += start[v + 1];
    for (int id = 0; id < a->num_guarded; id++)
        if (soon_on(a, &a->e[id], assumed)) head[start[a->e[id].from + 1]++] = a->e[id].to;
    free(assumed);
    for (int v = 0; v < n; v++) {
        int nf;
        const int *fixed = pk_fixed_out(&a->pk, v, &nf);
        for (int k = 0; k < nf; k++) { indeg_all[fixed[k]]++; indeg_hard[fixed[k]]++; }
        const pk_arc *arcs = pk_arcs(&a->pk, &a->pk.out[v]);
        for (int k = 0; k < a->pk.out[v].len; k++) { indeg_all[arcs[k].node]++; indeg_hard[arcs[k].node]++; }
    }
    int *q1 = xmalloc((size_t)n * sizeof *q1), *q2 = xmalloc((size_t)n * sizeof *q2), *order = xmalloc((size_t)n * sizeof *order);
    uint8_t *done = xcalloc((size_t)n, 1);
    int h1 = 0, t1 = 0, h2 = 0, t2 = 0, k = 0;
    for (int p = 0; p < n; p++) {             /* seeded in the current order: ties keep it */
        int v = a->pk.node_at[p];
        if (!indeg_all[v]) q1[t1++] = v;
        else if (!indeg_hard[v]) q2[t2++] = v;
    }
    while (k < n) {
        int v;
        if (h1 < t1) v = q1[h1++];
        else { assert(h2 < t2); v = q2[h2++]; }
        if (done[v]) continue;
        done[v] = 1;
        order[k++] = v;
        int nf;
        const int *fixed = pk_fixed_out(&a->pk, v, &nf);
        const pk_arc *arcs = pk_arcs(&a->pk, &a->pk.out[v]);
        for (int j = 0; j < nf + a->pk.out[v].len; j++) {   /* frozen arcs first, as inserted */
            int w = j < nf ? fixed[j] : arcs[j - nf].node;
            if (--indeg_hard[w] == 0 && indeg_all[w] > 1) q2[t2++] = w;
            if (--indeg_all[w] == 0) q1[t1++] = w;
        }
        for (int j = start[v]; j < start[v + 1]; j++)
            if (--indeg_all[head[j]] == 0) q1[t1++] = head[j];
    }
    for (int p = 0; p < n; p++) { a->pk.node_at[p] = order[p]; a->pk.ord[order[p]] = p; }
    free(start); free(head); free(indeg_all); free(indeg_hard); free(q1); free(q2); free(order); free(done);
    a->st.presorts++;
}

