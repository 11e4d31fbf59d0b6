/* acyclic_phase.c — the order-guided branching phase (option
 * theory_phase): which value of a guard to try first. */
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

/* Does v reach u through enabled edges?  Only nodes ordered between them
 * can be on such a path; gives up (-1) after `budget` nodes. */
static int reaches(acyclic *a, int v, int u, int budget) {
    sync_fixed(a);
    const int *ord = a->pk.ord;
    int hi = ord[u];
    uint32_t stamp = pk_new_stamp(&a->pk), *seen = a->pk.mark;
    vec_clear(a->stack);
    vec_push(a->stack, v);
    seen[v] = stamp;
    int visited = 0;
    while (a->stack.len) {
        int w = vec_pop(a->stack), nf;
        if (++visited > budget) return -1;
        const int *fixed = pk_fixed_out(&a->pk, w, &nf);
        for (int i = 0; i < nf; i++) {
            int z = fixed[i];
            if (z == u) return 1;
            if (ord[z] < hi && seen[z] != stamp) { seen[z] = stamp; vec_push(a->stack, z); }
        }
        const pk_adj *adj = &a->pk.out[w];
        const pk_arc *arcs = pk_arcs(&a->pk, adj);
        for (int i = 0; i < adj->len; i++) {
            int z = arcs[i].node;
            if (z == u) return 1;
            if (ord[z] < hi && seen[z] != stamp) { seen[z] = stamp; vec_push(a->stack, z); }
        }
    }
    return 0;
}

/* Branching on a guard: rank a literal 0 if it turns on edges that all
 * agree with the current order (inserted in O(1), no cycle possible), 1 if
 * it turns on nothing, 2 if some edge goes against the order.  Keep the
 * engine's choice (the saved phase) unless its negation ranks better.
 * When both go against the order, theory_phase 2 (the default) takes the
 * value whose backward edges span fewer positions of the order (the
 * largest ord[from] - ord[to] among them: the widest window Pearce-Kelly
 * will reorder, an upper bound of what moves; the windows of one value's
 * edges mostly overlap, so their sum counts positions twice and did worse),
 * the saved phase on a tie; theory_phase 1 keeps the saved phase.  Then
 * check (a search of the order window, the one Pearce–Kelly would do on
 * insertion, bounded by theory_phase_budget) whether the value taken
 * closes a cycle now, and if so take the other.
 * The smaller span disturbs less of the order the earlier insertions
 * built, and fewer later insertions go against it: on the rw family
 * (bench/gen_gnf.c) it saves a quarter of the conflicts at 50k nodes and
 * a tenth at 100k (doc/benchmarks.md, "rw42"). */
static int lit_rank(const acyclic *a, int lit, int64_t *span) {
    int id = a->guard_head[lit_index(lit)], rank = 0;
    *span = 0;
    if (id < 0) return 1;
    const int *ord = a->pk.ord;
    for (; id >= 0; id = a->e[id].next_guarded) {
        const edge *ed = &a->e[id];
        if (ord[ed->from] > ord[ed->to] && ed->pos < 0) {
            rank = 2;
            if (ord[ed->from] - ord[ed->to] > *span) *span = ord[ed->from] - ord[ed->to];
        }
    }
    return rank;
}

static int closes_cycle(acyclic *a, int lit) {
    int budget = (int)OPTION(a, theory_phase_budget);
    if (budget <= 0) return 0;
    const int *ord = a->pk.ord;
    for (int id = a->guard_head[lit_index(lit)]; id >= 0; id = a->e[id].next_guarded) {
        const edge *ed = &a->e[id];
        if (ord[ed->from] > ord[ed->to] && ed->pos < 0 && reaches(a, ed->to, ed->from, budget) == 1) return 1;
    }
    return 0;
}

int acyclic_th_phase(void *t, int lit) {
    acyclic *a = t;
    const int64_t style = OPTION(a, theory_phase);
    if (!style) return 0;                                  /* no opinion */
    flush_taken_back(a);
    if (lit_var(lit) >= a->cap_vars) return 0;
    int64_t span_mine, span_other;
    int mine = lit_rank(a, lit, &span_mine), other = lit_rank(a, -lit, &span_other);
    if (other < mine) lit = -lit;
    else if (mine == 2 && other == 2) {
        if (style >= 2 && span_other < span_mine) lit = -lit;
        if (closes_cycle(a, lit)) lit = -lit;
    }
    prefetch_guard_ends(a, lit);               /* the value taken is assigned next */
    return lit;
}
