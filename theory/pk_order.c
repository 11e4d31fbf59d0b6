/* pk_order.c — Pearce–Kelly incremental topological order (see pk_order.h). */
#include "theory/pk_order.h"

#include <assert.h>
#include <string.h>

void pk_init(pk_order *pk) {
    memset(pk, 0, sizeof *pk);
    vec_init(pk->stack); vec_init(pk->next); vec_init(pk->fwd); vec_init(pk->bwd);
    vec_init(pk->pos_buf); vec_init(pk->sort_buf);
}

void pk_free(pk_order *pk) {
    free(pk->arena);
    free(pk->out); free(pk->in); free(pk->ord); free(pk->node_at); free(pk->mark);
    free(pk->par_node); free(pk->par_edge);
    free(pk->fix_out_start); free(pk->fix_in_start); free(pk->fix_out); free(pk->fix_in);
    vec_free(pk->stack); vec_free(pk->next); vec_free(pk->fwd); vec_free(pk->bwd);
    vec_free(pk->pos_buf); vec_free(pk->sort_buf);
    memset(pk, 0, sizeof *pk);
}

int pk_add_nodes(pk_order *pk, int count) {
    int first = pk->num_nodes, need = first + count;
    if (need > pk->cap_nodes) {
        /* doubling, but a large add (a whole graph at once) at its exact size */
        int cap = pk->cap_nodes < 8 ? 16 : 2 * pk->cap_nodes;
        if (cap < need || cap < pk->cap_nodes) cap = need;
        pk->ord = xrealloc(pk->ord, (size_t)cap * sizeof *pk->ord);
        pk->node_at = xrealloc(pk->node_at, (size_t)cap * sizeof *pk->node_at);
        pk->mark = xrealloc(pk->mark, (size_t)cap * sizeof *pk->mark);
        pk->par_node = xrealloc(pk->par_node, (size_t)cap * sizeof *pk->par_node);
        pk->par_edge = xrealloc(pk->par_edge, (size_t)cap * sizeof *pk->par_edge);
        pk->out = xrealloc(pk->out, (size_t)cap * sizeof *pk->out);
        pk->in = xrealloc(pk->in, (size_t)cap * sizeof *pk->in);
        pk->cap_nodes = cap;
    }
    for (int n = first; n < need; n++) {
        pk->ord[n] = n;             /* new nodes go to the end of the order */
        pk->node_at[n] = n;
        pk->mark[n] = 0;
        pk->par_node[n] = pk->par_edge[n] = -1;
        pk->out[n] = (pk_adj){0};
        pk->in[n] = (pk_adj){0};
    }
    pk->num_nodes = need;
    return first;
}

uint32_t pk_new_stamp(pk_order *pk) {
    if (++pk->stamp == 0) {          /* wrapped: forget every old stamp */
        memset(pk->mark, 0, (size_t)pk->num_nodes * sizeof *pk->mark);
        pk->stamp = 1;
    }
    return pk->stamp;
}

/* The least lcap whose room holds len arcs (0: no room). */
static unsigned room_for(uint32_t len) {
    unsigned l = 0;
    while (len && ((size_t)1 << l) < len) l++;
    return len ? (l ? l : 1) : 0;
}

/* Copy every list into a fresh arena, in node order, dropping the room
 * lists left behind, each list in the least room that holds it (a list
 * that shrank — always-on arcs dropped at a freeze, edges taken back —
 * gives the rest back). */
static void arena_compact(pk_order *pk) {
    size_t cap = 2 * (pk->arena_len - pk->arena_dead) + 64, at = 0;
    pk_arc *fresh = xmalloc(cap * sizeof *fresh);
    for (int side = 0; side < 2; side++)
        for (int v = 0; v < pk->num_nodes; v++) {
            pk_adj *a = side ? &pk->in[v] : &pk->out[v];
            if (!a->lcap) continue;
            unsigned l = room_for(a->len);
            if (!l) { *a = (pk_adj){0}; continue; }
            memcpy(fresh + at, pk->arena + a->at, (size_t)a->len * sizeof *fresh);
            a->at = (uint32_t)at;
            a->lcap = l;
            at += (size_t)1 << l;
        }
    free(pk->arena);
    pk->arena = fresh;
    pk->arena_len = at;
    pk->arena_cap = cap;
    pk->arena_dead = 0;
}

/* Room for one more arc in list a: twice its room at the arena's end. */
static void adj_grow(pk_order *pk, pk_adj *a) {
    if (a->len == PK_MAX_DEGREE) xalloc_fail(SIZE_MAX);       /* no node has 2^27 enabled arcs */
    unsigned lcap = a->lcap + 1;
    size_t cap = (size_t)1 << lcap;
    if (pk->arena_len + cap > pk->arena_cap) {
        /* a list's earlier rooms add up to about its room, so up to half
         * is left behind; compacting costs a pass over the nodes, paid for
         * by an arena at least that long */
        if (pk->arena_dead > pk->arena_len / 4 && pk->arena_len >= (size_t)pk->num_nodes) arena_compact(pk);
        if (pk->arena_len + cap > pk->arena_cap) {
            size_t need = pk->arena_len + cap, c = pk->arena_cap ? 2 * pk->arena_cap : 64;
            if (c < need) c = need;
            pk->arena = xrealloc(pk->arena, c * sizeof *pk->arena);
            pk->arena_cap = c;
        }
    }
    if (pk->arena_len + cap > UINT32_MAX) xalloc_fail(SIZE_MAX);   /* offsets are 32-bit */
    memcpy(pk->arena + pk->arena_len, pk->arena + a->at, (size_t)a->len * sizeof *pk->arena);
    if (a->lcap) pk->arena_dead += (size_t)1 << a->lcap;
    a->at = (uint32_t)pk->arena_len;
    a->lcap = lcap;
    pk->arena_len += cap;
}

static inline void adj_push(pk_order *pk, pk_adj *a, int node, int edge, int cost) {
    if (a->len == (a->lcap ? 1u << a->lcap : 0)) adj_grow(pk, a);
    pk->arena[a->at + (uint32_t)a->len++] = (pk_arc){node, (unsigned)edge, (unsigned)cost};
}

void pk_sort_ints(int *a, int n, int *tmp) {
    if (n <= 48) {
        for (int i = 1; i < n; i++) {
            int x = a[i], j = i;
            while (j > 0 && a[j - 1] > x) { a[j] = a[j - 1]; j--; }
            a[j] = x;
        }
        return;
    }
    unsigned max = 0;
    for (int i = 0; i < n; i++) if ((unsigned)a[i] > max) max = (unsigned)a[i];
    int *src = a, *dst = tmp;
    for (int shift = 0; shift < 32 && (max >> shift); shift += 8) {
        int count[257] = {0};
        for (int i = 0; i < n; i++) count[(((unsigned)src[i] >> shift) & 255) + 1]++;
        for (int d = 0; d < 256; d++) count[d + 1] += count[d];
        for (int i = 0; i < n; i++) dst[count[((unsigned)src[i] >> shift) & 255]++] = src[i];
        int *t = src; src = dst; dst = t;
    }
    if (src != a) memcpy(a, src, (size_t)n * sizeof *a);
}

/* Nodes reachable from `start` through positions < ub, into pk->fwd, in
 * order of least path cost (0-1 BFS in Dial's layers: pk->stack holds the
 * current layer, cost-0 arcs extend it, cost-1 arcs feed pk->next; a node
 * joins fwd when settled).  par_node/par_edge record the tree.  Returns 0
 * once the node at position ub (the edge's source) is settled: its tree
 * path is then one of least cost.  (Stopping at the first arc into it, at
 * most one above the least, visits 15 % fewer nodes on the rw family but
 * gave it 7-40 % more conflicts on three seeds out of three.) */
static int search_forward(pk_order *pk, int start, int ub, uint32_t stamp) {
    vec_clear(pk->fwd);
    vec_clear(pk->stack);
    vec_clear(pk->next);
    pk->mark[start] = stamp;
    pk->par_node[start] = -1;
    vec_push(pk->stack, start);
    vec_push(pk->fwd, start);
    for (;;) {
        if (!pk->stack.len) {               /* next layer: settle what is new */
            if (!pk->next.len) return 1;
            for (size_t i = 0; i < pk->next.len; i += 3) {
                int z = pk->next.data[i];
                if (pk->mark[z] == stamp) continue;
                pk->mark[z] = stamp;
                pk->par_node[z] = pk->next.data[i + 1];
                pk->par_edge[z] = pk->next.data[i + 2];
                if (pk->ord[z] == ub) return 0;
                vec_push(pk->stack, z);
                vec_push(pk->fwd, z);
            }
            vec_clear(pk->next);
            continue;
        }
        int w = vec_pop(pk->stack), nf;
        const int *fixed = pk_fixed_out(pk, w, &nf);
        for (int i = 0; i < nf; i++) {      /* frozen arcs first: they were inserted first */
            int z = fixed[i], oz = pk->ord[z];
            if (oz > ub || pk->mark[z] == stamp) continue;
            pk->mark[z] = stamp;
            pk->par_node[z] = w;
            pk->par_edge[z] = PK_FIXED;
            if (oz == ub) return 0;
            vec_push(pk->stack, z);
            vec_push(pk->fwd, z);
        }
        const pk_adj *a = &pk->out[w];
        const pk_arc *arcs = pk_arcs(pk, a);
        for (int i = 0; i < a->len; i++) {
            int z = arcs[i].node, oz = pk->ord[z];
            if (oz > ub || pk->mark[z] == stamp) continue;
            if (arcs[i].cost) {
                vec_push(pk->next, z); vec_push(pk->next, w); vec_push(pk->next, (int)arcs[i].edge);
                continue;
            }
            pk->mark[z] = stamp;
            pk->par_node[z] = w;
            pk->par_edge[z] = (int)arcs[i].edge;
            if (oz == ub) return 0;
            vec_push(pk->stack, z);
            vec_push(pk->fwd, z);
        }
    }
}

void pk_cycle_path(const pk_order *pk, vec_int *path) {
    int v = pk->cycle_from;
    while (pk->par_node[v] >= 0 && v != pk->cycle_to) {
        vec_push(*path, pk->par_edge[v]);
        v = pk->par_node[v];
    }
    assert(v == pk->cycle_to);
}

/* Nodes reaching `start` through positions > lb, into pk->bwd. */
static void search_backward(pk_order *pk, int start, int lb, uint32_t stamp) {
    vec_clear(pk->bwd);
    vec_clear(pk->stack);
    pk->mark[start] = stamp;
    vec_push(pk->stack, start);
    vec_push(pk->bwd, start);
    while (pk->stack.len) {
        int w = vec_pop(pk->stack), nf;
        const int *fixed = pk_fixed_in(pk, w, &nf);
        for (int i = 0; i < nf; i++) {
            int z = fixed[i];
            if (pk->ord[z] > lb && pk->mark[z] != stamp) {
                pk->mark[z] = stamp;
                vec_push(pk->stack, z);
                vec_push(pk->bwd, z);
            }
        }
        const pk_adj *a = &pk->in[w];
        const pk_arc *arcs = pk_arcs(pk, a);
        for (int i = 0; i < a->len; i++) {
            int z = arcs[i].node;
            if (pk->ord[z] > lb && pk->mark[z] != stamp) {
                pk->mark[z] = stamp;
                vec_push(pk->stack, z);
                vec_push(pk->bwd, z);
            }
        }
    }
}

/* Turn a node set into its sorted positions, in place. */
static void nodes_to_sorted_positions(pk_order *pk, vec_int *set) {
    for (size_t i = 0; i < set->len; i++) set->data[i] = pk->ord[set->data[i]];
    vec_reserve(pk->sort_buf, set->len);
    pk_sort_ints(set->data, (int)set->len, pk->sort_buf.data);
}

/* Place bwd (in its old relative order) before fwd (likewise) on the union
 * of their positions. */
static void reorder(pk_order *pk) {
    vec_int *b = &pk->bwd, *f = &pk->fwd;
    nodes_to_sorted_positions(pk, b);
    nodes_to_sorted_positions(pk, f);
    size_t nb = b->len, nf = f->len, n = nb + nf;
    vec_resize(pk->pos_buf, n);
    int *pos = pk->pos_buf.data;
    size_t i = 0, j = 0, k = 0;
    while (i < nb && j < nf) pos[k++] = b->data[i] < f->data[j] ? b->data[i++] : f->data[j++];
    while (i < nb) pos[k++] = b->data[i++];
    while (j < nf) pos[k++] = f->data[j++];
    /* Positions back to nodes (node_at is still the old order). */
    for (i = 0; i < nb; i++) b->data[i] = pk->node_at[b->data[i]];
    for (j = 0; j < nf; j++) f->data[j] = pk->node_at[f->data[j]];
    k = 0;
    for (i = 0; i < nb; i++, k++) { int v = b->data[i]; pk->ord[v] = pos[k]; pk->node_at[pos[k]] = v; }
    for (j = 0; j < nf; j++, k++) { int v = f->data[j]; pk->ord[v] = pos[k]; pk->node_at[pos[k]] = v; }
}

int pk_insert(pk_order *pk, int from, int to, int edge) { return pk_insert_cost(pk, from, to, edge, 1); }

int pk_insert_cost(pk_order *pk, int from, int to, int edge, int cost) {
    assert(from >= 0 && from < pk->num_nodes && to >= 0 && to < pk->num_nodes);
    assert(cost == 0 || cost == 1);
    pk->cycle_from = from;
    pk->cycle_to = to;
    pk->inserts++;
    pk->searched = 0;
    vec_clear(pk->fwd);
    vec_clear(pk->bwd);
    if (from == to) { pk->cycles++; return 0; }
    int ub = pk->ord[from], lb = pk->ord[to];
    if (lb < ub) {
        pk->searches++;
        pk->searched = 1;
        uint32_t sf = pk_new_stamp(pk);
        pk->fwd_stamp = sf;
        if (!search_forward(pk, to, ub, sf)) {
            pk->visited += (int64_t)pk->fwd.len;
            pk->cycles++;
            return 0;
        }
        uint32_t sb = pk_new_stamp(pk);
        search_backward(pk, from, lb, sb);
        pk->visited += (int64_t)(pk->fwd.len + pk->bwd.len);
        reorder(pk);
    }
    adj_push(pk, &pk->out[from], to, edge, cost);
    adj_push(pk, &pk->in[to], from, edge, cost);
    return 1;
}

/* Drop the arc of `edge` from a: the last one when edges leave in stack
 * order, else found from the end and the rest shifted down (insertion
 * order is kept, so stack-order removals stay O(1) afterwards). */
static void adj_remove(pk_order *pk, pk_adj *a, int edge) {
    pk_arc *arcs = pk_arcs(pk, a);
    int i = a->len - 1;
    while (i >= 0 && arcs[i].edge != (unsigned)edge) i--;
    assert(i >= 0);
    memmove(&arcs[i], &arcs[i + 1], (size_t)(a->len - 1 - i) * sizeof *arcs);
    a->len--;
}

void pk_remove(pk_order *pk, int from, int to, int edge) {
    adj_remove(pk, &pk->out[from], edge);
    adj_remove(pk, &pk->in[to], edge);
}

/* Drop the PK_FIXED arcs of a list, keeping the others' order. */
static void adj_drop_fixed(pk_order *pk, pk_adj *a) {
    pk_arc *arcs = pk_arcs(pk, a);
    int k = 0;
    for (int i = 0; i < a->len; i++)
        if (arcs[i].edge != PK_FIXED) arcs[k++] = arcs[i];
    a->len = k;
    if (!k && a->lcap) { pk->arena_dead += (size_t)1 << a->lcap; *a = (pk_adj){0}; }
}

/* Drop the PK_FIXED arcs of every list (they are frozen now); when that
 * leaves the arena over twice the rooms its lists need, compact it — a
 * pass like the freeze's own, and the lists of the always-on arcs since
 * the last freeze would otherwise keep their rooms for good. */
static void drop_fixed_all(pk_order *pk) {
    size_t need = 0;
    for (int v = 0; v < pk->num_nodes; v++) {
        adj_drop_fixed(pk, &pk->out[v]);
        adj_drop_fixed(pk, &pk->in[v]);
        need += (size_t)1 << room_for(pk->out[v].len);
        need += (size_t)1 << room_for(pk->in[v].len);
    }
    need -= 2 * (size_t)pk->num_nodes;                /* empty lists counted 1 each */
    if (pk->arena_len > 2 * need + 4096) arena_compact(pk);
}

/* Counting sort of the ends by tail (out) and by head (in); within a node
 * the arcs keep the order of ends, the order they were inserted in. */
int pk_freeze_fixed(pk_order *pk, const int *ends, size_t n) {
    size_t arcs = 0;
    for (size_t i = 0; i < n; i++) {
        int a = ends[2 * i], b = ends[2 * i + 1];
        if (a == b) continue;
        if (pk->ord[a] >= pk->ord[b]) return 0;      /* not respecting the order: the caller inserts them */
        arcs++;
    }
    if (arcs >= UINT32_MAX) return 0;
    free(pk->fix_out_start); free(pk->fix_in_start); free(pk->fix_out); free(pk->fix_in);
    int nodes = pk->num_nodes;
    uint32_t *os = xcalloc((size_t)nodes + 2, sizeof *os), *is = xcalloc((size_t)nodes + 2, sizeof *is);
    int *out = xmalloc((arcs ? arcs : 1) * sizeof *out), *in = xmalloc((arcs ? arcs : 1) * sizeof *in);
    for (size_t i = 0; i < n; i++) {
        int a = ends[2 * i], b = ends[2 * i + 1];
        if (a == b) continue;
        assert(a < nodes && b < nodes);
        os[a + 2]++;
        is[b + 2]++;
    }
    for (int v = 0; v < nodes; v++) { os[v + 2] += os[v + 1]; is[v + 2] += is[v + 1]; }
    for (size_t i = 0; i < n; i++) {
        int a = ends[2 * i], b = ends[2 * i + 1];
        if (a == b) continue;
        out[os[a + 1]++] = b;
        in[is[b + 1]++] = a;
    }
    pk->fix_out_start = os; pk->fix_in_start = is;
    pk->fix_out = out; pk->fix_in = in;
    pk->fix_nodes = nodes;
    drop_fixed_all(pk);
    return 1;
}

/* One side of pk_freeze_more: node v's arcs move up from old(v) to
 * old(v) + (new arcs of the nodes before v), back to front so that
 * nothing is overwritten before it moved, then the new ones are appended
 * in the order of ends.  *arr grows by realloc: no second copy of the
 * frozen arcs is ever held. */
static void merge_side(uint32_t **startp, int **arr, int old_nodes, int nodes, const int *ends, size_t n, int by_head,
                       size_t added) {
    const uint32_t *start = *startp;
    uint32_t old_total = start[old_nodes];
#define OLD_AT(v) ((v) < old_nodes ? start[v] : old_total)
    uint32_t *nb = xcalloc((size_t)nodes + 2, sizeof *nb), *cur = xmalloc(((size_t)nodes + 1) * sizeof *cur);
    for (size_t i = 0; i < n; i++) {
        int a = ends[2 * i], b = ends[2 * i + 1];
        if (a != b) nb[(by_head ? b : a) + 1]++;
    }
    for (int v = 0; v < nodes; v++) nb[v + 1] += nb[v];   /* nb[v]: new arcs of the nodes before v */
    *arr = xrealloc(*arr, ((size_t)old_total + added + 1) * sizeof **arr);
    int *x = *arr;
    for (int v = nodes - 1; v >= 0; v--) {
        uint32_t s = OLD_AT(v), e = OLD_AT(v + 1);
        if (e > s && nb[v]) memmove(x + s + nb[v], x + s, (size_t)(e - s) * sizeof *x);
        cur[v] = e + nb[v];                           /* after v's old arcs, moved */
    }
    for (size_t i = 0; i < n; i++) {
        int a = ends[2 * i], b = ends[2 * i + 1];
        if (a == b) continue;
        x[cur[by_head ? b : a]++] = by_head ? a : b;
    }
    for (int v = 0; v < nodes; v++) nb[v] += OLD_AT(v);   /* the new starts */
#undef OLD_AT
    nb[nodes] = nb[nodes + 1] = old_total + (uint32_t)added;
    free(cur);
    free(*startp);
    *startp = nb;
}

int pk_freeze_more(pk_order *pk, const int *ends, size_t n) {
    if (!pk->fix_nodes) return pk_freeze_fixed(pk, ends, n);
    size_t added = 0, had = pk->fix_out_start[pk->fix_nodes];
    for (size_t i = 0; i < n; i++) {
        int a = ends[2 * i], b = ends[2 * i + 1];
        if (a == b) continue;
        if (pk->ord[a] >= pk->ord[b]) return 0;      /* not respecting the order: the caller inserts them */
        added++;
    }
    if (had + added >= UINT32_MAX) return 0;
    int nodes = pk->num_nodes;
    merge_side(&pk->fix_out_start, &pk->fix_out, pk->fix_nodes, nodes, ends, n, 0, added);
    merge_side(&pk->fix_in_start, &pk->fix_in, pk->fix_nodes, nodes, ends, n, 1, added);
    pk->fix_nodes = nodes;
    drop_fixed_all(pk);
    return 1;
}
