/* pk_order.c — Pearce–Kelly incremental topological order (see pk_order.h). */
#include "theory/pk_order.h"
#include "io/bigmem.h"

#include <assert.h>
#include <string.h>

/* The arena before its first room: never NULL, so that pk_arcs of an
 * empty list (at 0, len 0) is a valid pointer, not NULL + 0 (undefined in
 * C).  Nothing is ever written to it (arena_cap 0). */
static pk_arc no_arena[1];

void pk_init(pk_order *pk) {
    memset(pk, 0, sizeof *pk);
    pk->arena = no_arena;
    vec_init(pk->stack); vec_init(pk->next); vec_init(pk->fwd); vec_init(pk->bwd);
    vec_init(pk->pos_buf); vec_init(pk->sort_buf);
    pk->blk_shift = PK_BLOCK_SHIFT;
}

void pk_free(pk_order *pk) {
    if (pk->arena_cap) free(pk->arena);
    free(pk->out); free(pk->in); free(pk->ord); free(pk->node_at); free(pk->mark);
    free(pk->par_node); free(pk->par_edge);
    for (int side = 0; side < 2; side++) {
        pk_frozen *f = &pk->fix[side];
        for (int b = 0; b < f->nblk; b++) free(f->blk[b].arcs);
        free(f->blk); free(f->start); free(f->listed);
    }
    for (int l = 0; l < 32; l++) vec_free(pk->free_room[l]);
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

/* Room of 2^l arcs left behind: onto its free list. */
static void room_free(pk_order *pk, uint32_t at, unsigned l) {
    vec_push(pk->free_room[l], at);
    pk->free_mask |= 1u << l;
    pk->arena_dead += (size_t)1 << l;
}

/* A room of 2^l arcs: the least free one that is large enough (split, its
 * upper halves freed), else at the arena's end.  Nothing is ever compacted:
 * a pass over every node would make one call slow on a large graph.  May
 * move the arena. */
static uint32_t room_alloc(pk_order *pk, unsigned l) {
    unsigned k = l;
    while (k < 32 && !((pk->free_mask >> k) & 1)) k++;
    if (k < 32) {
        uint32_t at = vec_pop(pk->free_room[k]);
        if (!pk->free_room[k].len) pk->free_mask &= ~(1u << k);
        pk->arena_dead -= (size_t)1 << k;
        while (k > l) { k--; room_free(pk, at + (1u << k), k); }
        return at;
    }
    size_t cap = (size_t)1 << l;
    if (pk->arena_len + cap > UINT32_MAX) xalloc_fail(SIZE_MAX);   /* offsets are 32-bit */
    if (pk->arena_len + cap > pk->arena_cap) {
        size_t need = pk->arena_len + cap, c = pk->arena_cap ? 2 * pk->arena_cap : 64;
        if (c < need) c = need;
        pk->arena = xrealloc(pk->arena_cap ? pk->arena : NULL, c * sizeof *pk->arena);
        pk->arena_cap = c;
    }
    uint32_t at = (uint32_t)pk->arena_len;
    pk->arena_len += cap;
    return at;
}

/* List a into a room of 2^l arcs (l > 0, room for its arcs). */
static void adj_move(pk_order *pk, pk_adj *a, unsigned l) {
    uint32_t at = room_alloc(pk, l);
    memcpy(pk->arena + at, pk->arena + a->at, (size_t)a->len * sizeof *pk->arena);
    if (a->lcap) room_free(pk, a->at, a->lcap);
    a->at = at;
    a->lcap = l;
}

/* Room for one more arc in list a: twice its room. */
static void adj_grow(pk_order *pk, pk_adj *a) {
    if (a->len == PK_MAX_DEGREE) xalloc_fail(SIZE_MAX);       /* no node has 2^27 enabled arcs */
    adj_move(pk, a, a->lcap + 1u);
}

static void fix_cover(pk_order *pk, int v);
static void fix_listed(pk_order *pk, int side, int v);

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

/* The searches below read each visited node's arc list: a room somewhere
 * in a large arena, the cost of a large graph's searches (a cache miss per
 * node).  A node's list header is asked for when the node is stacked, and
 * the arcs of the node on top of the stack when another is taken off: by
 * the time a node is taken, its arcs are on their way.  A hint only: no
 * effect on what is computed (nothing where the compiler has no prefetch). */
#if defined(__GNUC__) || defined(__clang__)
#define PK_PREFETCH(p) __builtin_prefetch(p)
#else
#define PK_PREFETCH(p) ((void)(p))
#endif
static inline void prefetch_top(const pk_order *pk, const pk_adj *side) {
    if (pk->stack.len) PK_PREFETCH(pk_arcs(pk, &side[pk->stack.data[pk->stack.len - 1]]));
}

/* Nodes reachable from `start` through positions < ub, into pk->fwd, in
 * order of least path cost (0-1 BFS in Dial's layers: pk->stack holds the
 * current layer, cost-0 arcs extend it, cost-1 arcs feed pk->next; a node
 * joins fwd when settled).  par_node/par_edge record the tree.  Returns 0
 * once the node at position ub (the edge's source) is settled, not at the
 * first arc into it: its tree path is then one of least cost, the fewest
 * guards for the conflict clause (doc/acyclicity.md: what stopping
 * earlier costs in conflicts). */
static int search_forward(pk_order *pk, int start, int ub, uint32_t stamp) {
    /* the arrays in locals: the pushes' stores cannot make the compiler
     * read them again for every arc (same search, fewer loads) */
    const int *const ord = pk->ord;
    uint32_t *const mark = pk->mark;
    int *const par_node = pk->par_node, *const par_edge = pk->par_edge;
    const pk_adj *const out = pk->out;
    vec_clear(pk->fwd);
    vec_clear(pk->stack);
    vec_clear(pk->next);
    mark[start] = stamp;
    par_node[start] = -1;
    vec_push(pk->stack, start);
    vec_push(pk->fwd, start);
    for (;;) {
        if (!pk->stack.len) {               /* next layer: settle what is new */
            if (!pk->next.len) return 1;
            for (size_t i = 0; i < pk->next.len; i += 3) {
                int z = pk->next.data[i];
                if (mark[z] == stamp) continue;
                mark[z] = stamp;
                par_node[z] = pk->next.data[i + 1];
                par_edge[z] = pk->next.data[i + 2];
                if (ord[z] == ub) return 0;
                PK_PREFETCH(&out[z]);
                vec_push(pk->stack, z);
                vec_push(pk->fwd, z);
            }
            vec_clear(pk->next);
            continue;
        }
        int w = vec_pop(pk->stack), nf;
        prefetch_top(pk, out);
        size_t before = pk->stack.len;
        const int *fixed = pk_fixed_out(pk, w, &nf);
        for (int i = 0; i < nf; i++) {      /* frozen arcs first: they were inserted first */
            int z = fixed[i], oz = ord[z];
            if (oz > ub || mark[z] == stamp) continue;
            mark[z] = stamp;
            par_node[z] = w;
            par_edge[z] = PK_FIXED;
            if (oz == ub) return 0;
            vec_push(pk->stack, z);
            vec_push(pk->fwd, z);
        }
        const pk_arc *arcs = pk_arcs(pk, &out[w]);
        const int len = (int)out[w].len;
        for (int i = 0; i < len; i++) {
            int z = arcs[i].node, oz = ord[z];
            if (oz > ub || mark[z] == stamp) continue;
            if (arcs[i].cost) {
                vec_push(pk->next, z); vec_push(pk->next, w); vec_push(pk->next, (int)arcs[i].edge);
                continue;
            }
            mark[z] = stamp;
            par_node[z] = w;
            par_edge[z] = (int)arcs[i].edge;
            if (oz == ub) return 0;
            PK_PREFETCH(&out[z]);
            vec_push(pk->stack, z);
            vec_push(pk->fwd, z);
        }
        /* w stacked nodes: the next one taken is the last of them, whose
         * arcs the prefetch above (the top before) did not ask for */
        if (pk->stack.len > before) prefetch_top(pk, out);
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
    const int *const ord = pk->ord;
    uint32_t *const mark = pk->mark;
    const pk_adj *const in = pk->in;
    vec_clear(pk->bwd);
    vec_clear(pk->stack);
    mark[start] = stamp;
    vec_push(pk->stack, start);
    vec_push(pk->bwd, start);
    while (pk->stack.len) {
        int w = vec_pop(pk->stack), nf;
        prefetch_top(pk, in);
        size_t before = pk->stack.len;
        const int *fixed = pk_fixed_in(pk, w, &nf);
        for (int i = 0; i < nf; i++) {
            int z = fixed[i];
            if (ord[z] > lb && mark[z] != stamp) {
                mark[z] = stamp;
                vec_push(pk->stack, z);
                vec_push(pk->bwd, z);
            }
        }
        const pk_arc *arcs = pk_arcs(pk, &in[w]);
        const int len = (int)in[w].len;
        for (int i = 0; i < len; i++) {
            int z = arcs[i].node;
            if (ord[z] > lb && mark[z] != stamp) {
                mark[z] = stamp;
                PK_PREFETCH(&in[z]);
                vec_push(pk->stack, z);
                vec_push(pk->bwd, z);
            }
        }
        if (pk->stack.len > before) prefetch_top(pk, in);
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
    if (edge == PK_FIXED) {                /* always on: counted for its blocks' merges */
        fix_cover(pk, from > to ? from : to);
        fix_listed(pk, 0, from);
        fix_listed(pk, 1, to);
    }
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

/* ---- frozen always-on arcs ------------------------------------------------ */

/* Words of the listed bits of cap blocks (zeroed as the blocks grow). */
#define LISTED_WORDS(cap, shift) ((((size_t)(cap) << (shift)) + 63) / 64)

/* Blocks on both sides up to the one of node v (empty: every slot 0). */
static void fix_cover(pk_order *pk, int v) {
    int need = (v >> pk->blk_shift) + 1;
    size_t slots = ((size_t)1 << pk->blk_shift) + 1;
    for (int side = 0; side < 2; side++) {
        pk_frozen *f = &pk->fix[side];
        if (f->nblk >= need) continue;
        if (need > f->cap_blk) {
            int cap = f->cap_blk ? 2 * f->cap_blk : 4;
            if (cap < need) cap = need;
            f->blk = xrealloc(f->blk, (size_t)cap * sizeof *f->blk);
            f->start = xrealloc(f->start, (size_t)cap * slots * sizeof *f->start);
            f->listed = xrealloc(f->listed, LISTED_WORDS(cap, pk->blk_shift) * sizeof *f->listed);
            memset(f->listed + LISTED_WORDS(f->cap_blk, pk->blk_shift), 0,
                   (LISTED_WORDS(cap, pk->blk_shift) - LISTED_WORDS(f->cap_blk, pk->blk_shift)) * sizeof *f->listed);
            f->cap_blk = cap;
        }
        memset(f->blk + f->nblk, 0, (size_t)(need - f->nblk) * sizeof *f->blk);
        memset(f->start + (size_t)f->nblk * slots, 0, (size_t)(need - f->nblk) * slots * sizeof *f->start);
        f->nblk = need;
    }
}

/* Merge block b of one side: per node, its frozen arcs, then the
 * always-on arcs on its list (dropped from the list, whose room shrinks
 * to the least power of two that holds the rest: the arena's rooms stay
 * near their lists' size at the end of a long stream; the move costs
 * what the merge already reads), then, with add (per node of the block: new
 * arcs to come), room for add[i] arcs whose first index goes to cur[i]
 * (cur may be add).  O(block nodes + block arcs); one block's arrays are
 * held twice for a moment, nothing else. */
static void merge_block(pk_order *pk, int side, int b, const uint32_t *add, uint32_t *cur) {
    pk_frozen *f = &pk->fix[side];
    pk_fblock *k = &f->blk[b];
    const int nodes = 1 << pk->blk_shift, first = b << pk->blk_shift;
    const int last = pk->num_nodes - first < nodes ? pk->num_nodes - first : nodes;   /* nodes that exist */
    uint32_t *st = f->start + (size_t)b * ((size_t)nodes + 1);
    size_t total = (size_t)k->len + k->pending;
    if (add) for (int i = 0; i < last; i++) total += add[i];
    if (total >= UINT32_MAX) xalloc_fail(SIZE_MAX);   /* a block's arcs are counted in 32 bits (unreachable in practice) */
    int *arcs = total ? xmalloc(total * sizeof *arcs) : NULL;
    uint32_t at = 0, listed = 0;
    for (int i = 0; i < nodes; i++) {
        uint32_t s = st[i], e = st[i + 1];           /* st[i + 1] is rewritten next round, after this read */
        st[i] = at;
        if (e > s) memcpy(arcs + at, k->arcs + s, (size_t)(e - s) * sizeof *arcs);
        at += e - s;
        int v = first + i;
        if (i < last && ((f->listed[v >> 6] >> (v & 63)) & 1)) {   /* its list holds always-on arcs */
            f->listed[v >> 6] &= ~((uint64_t)1 << (v & 63));
            pk_adj *a = side ? &pk->in[v] : &pk->out[v];
            pk_arc *l = pk_arcs(pk, a);
            int keep = 0;
            for (int j = 0; j < (int)a->len; j++) {
                if (l[j].edge == PK_FIXED) { arcs[at++] = l[j].node; listed++; }
                else l[keep++] = l[j];
            }
            a->len = (uint32_t)keep;
            if (!keep) { room_free(pk, a->at, a->lcap); *a = (pk_adj){0}; }
            else if (room_for((uint32_t)keep) < a->lcap) adj_move(pk, a, room_for((uint32_t)keep));
        }
        if (add && i < last) { uint32_t c = add[i]; cur[i] = at; at += c; }
    }
    st[nodes] = at;
    assert(at == total && listed == k->pending);
    (void)listed;
    free(k->arcs);
    f->total += (size_t)at - k->len;
    k->arcs = arcs;
    k->len = at;
    k->pending = 0;
    pk->block_merges++;
}

/* An always-on arc went onto node v's list on one side: merge v's block
 * once enough wait there (a quarter of its frozen arcs and of its nodes:
 * the merge's cost, O(nodes + arcs of the block), is then O(1) an arc). */
static void fix_listed(pk_order *pk, int side, int v) {
    int b = v >> pk->blk_shift;
    pk_frozen *f = &pk->fix[side];
    pk_fblock *k = &f->blk[b];
    f->listed[v >> 6] |= (uint64_t)1 << (v & 63);
    if (++k->pending > (k->len >> 2) + ((1u << pk->blk_shift) >> 2)) merge_block(pk, side, b, NULL, NULL);
}

/* One pass of pk_freeze_each's producer over the n arcs: each node's new
 * arcs counted on both sides, out-arcs into cnt[0] and in-arcs into cnt[1],
 * every arc checked first (fill 0: -1 an id out of range, 0 not forward),
 * or each arc written on both sides into the slots cnt names (fill 1).
 * A chunk's two sides are two tasks on the order's runner (pk_run): each
 * reads the chunk and writes only its own side's counters and arrays. */
typedef struct freeze_pass {
    pk_order *pk; size_t n; int lim; void (*each)(void *, size_t, size_t, int *); void *ctx; int *buf; size_t chunk;
    uint32_t *cnt[2];
    size_t c;                    /* arcs in buf */
    int fill, ok[2];             /* ok: the check's answer, the same from either side */
} freeze_pass;

static int chunk_check(const int *e, size_t c, int lim) {
    for (size_t i = 0; i < c; i++) {
        if (e[2 * i] < 0 || e[2 * i + 1] < 0 || e[2 * i] >= lim || e[2 * i + 1] >= lim) return -1;
        if (e[2 * i] >= e[2 * i + 1]) return 0;
    }
    return 1;
}

/* Side 0 keys an arc by its tail and stores its head, side 1 the reverse. */
static void freeze_side(void *ctx, size_t side) {
    freeze_pass *p = ctx;
    const int *e = p->buf;
    const size_t c = p->c, k = side, o = 1 - side;
    uint32_t *cn = p->cnt[side];
    if (!p->fill) {
        if ((p->ok[side] = chunk_check(e, c, p->lim)) < 1) return;   /* checked before any count */
        for (size_t i = 0; i < c; i++) {
            if (i + 16 < c) __builtin_prefetch(&cn[e[2 * (i + 16) + k]]);   /* nodes at random */
            cn[e[2 * i + k]]++;
        }
        return;
    }
    const int shift = p->pk->blk_shift;
    pk_frozen *f = &p->pk->fix[side];
    for (size_t i = 0; i < c; i++) {
        if (i + 16 < c) __builtin_prefetch(&cn[e[2 * (i + 16) + k]]);
        if (i + 8 < c) {                         /* the slot, from the counter asked 8 arcs ago */
            int v8 = e[2 * (i + 8) + k];
            __builtin_prefetch(&f->blk[v8 >> shift].arcs[cn[v8]], 1);
        }
        int v = e[2 * i + k];
        f->blk[v >> shift].arcs[cn[v]++] = e[2 * i + o];
    }
}

static int freeze_run(freeze_pass *p, int fill) {
    p->fill = fill;
    for (size_t first = 0; first < p->n; first += p->chunk) {
        size_t c = p->n - first < p->chunk ? p->n - first : p->chunk;
        p->each(p->ctx, first, c, p->buf);
        p->c = c;
        p->ok[0] = p->ok[1] = 1;
        pk_run(p->pk, 2, freeze_side, p);
        if (p->ok[0] < 1) return p->ok[0];
    }
    return 1;
}

/* Two passes: both sides counted (every arc checked), every touched block
 * merged with room for its new arcs (side 0's blocks, then side 1's, as
 * one side after the other would), both sides filled.  A side's arcs land
 * in the order of the arcs, as one pk_freeze puts them. */
int pk_freeze_each(pk_order *pk, size_t n, int lim, void (*each)(void *, size_t, size_t, int *), void *ctx,
                   int *buf, size_t chunk) {
    if (!n) return 1;
    if (lim > pk->num_nodes || !pk->num_nodes || !chunk) return -1;
    const int shift = pk->blk_shift, nodes = 1 << shift;
    size_t nblk = ((size_t)(pk->num_nodes - 1) >> shift) + 1;
    /* read and written at random, node by node: huge pages (io/bigmem.h),
     * one fault and one TLB entry per 2 MB (at 22M si, 176 MB each) */
    uint32_t *const cnt[2] = { big_calloc(nblk * (size_t)nodes, sizeof(uint32_t)),
                               big_calloc(nblk * (size_t)nodes, sizeof(uint32_t)) };
    freeze_pass p = { pk, n, lim, each, ctx, buf, chunk, { cnt[0], cnt[1] }, 0, 0, { 1, 1 } };
    int ok = freeze_run(&p, 0);                /* every arc checked and counted: nothing changed yet */
    if (ok == 1 && pk_fixed_count(pk) + n >= UINT32_MAX) ok = 0;   /* a block's offsets are 32-bit */
    if (ok == 1) {
        fix_cover(pk, pk->num_nodes - 1);
        for (int side = 0; side < 2; side++) {
            pk_frozen *f = &pk->fix[side];
            uint32_t *c = cnt[side];
            for (int b = 0; b < f->nblk && (size_t)b < nblk; b++) {
                int any = 0;
                for (int i = 0; i < nodes && !any; i++) any = c[((size_t)b << shift) + (size_t)i] != 0;
                if (any) merge_block(pk, side, b, c + ((size_t)b << shift), c + ((size_t)b << shift));
            }
        }
        freeze_run(&p, 1);
    }
    free(cnt[0]); free(cnt[1]);
    return ok;
}

size_t pk_fixed_count(const pk_order *pk) {
    size_t n = pk->fix[0].total;
    for (int b = 0; b < pk->fix[0].nblk; b++) n += pk->fix[0].blk[b].pending;
    return n;
}

int pk_freeze(pk_order *pk, const int *ends, size_t n) {
    size_t added = 0;
    for (size_t i = 0; i < n; i++) {
        int a = ends[2 * i], b = ends[2 * i + 1];
        if (a == b) continue;
        assert(a >= 0 && a < pk->num_nodes && b >= 0 && b < pk->num_nodes);
        if (pk->ord[a] >= pk->ord[b]) return 0;      /* not respecting the order: the caller inserts them */
        added++;
    }
    if (!added) return 1;
    if (pk_fixed_count(pk) + added >= UINT32_MAX) return 0;   /* a block's offsets are 32-bit */
    fix_cover(pk, pk->num_nodes - 1);
    const int shift = pk->blk_shift, nodes = 1 << shift;
    /* cnt, per node of every block: new arcs of this side, then where they go */
    uint32_t *cnt = xmalloc((size_t)pk->fix[0].nblk * (size_t)nodes * sizeof *cnt);
    uint8_t *touched = xmalloc((size_t)pk->fix[0].nblk);
    for (int side = 0; side < 2; side++) {
        pk_frozen *f = &pk->fix[side];
        memset(cnt, 0, (size_t)f->nblk * (size_t)nodes * sizeof *cnt);
        memset(touched, 0, (size_t)f->nblk);
        for (size_t i = 0; i < n; i++) {
            int a = ends[2 * i], b = ends[2 * i + 1];
            if (a == b) continue;
            int v = side ? b : a;
            cnt[v]++;
            touched[v >> shift] = 1;
        }
        for (int b = 0; b < f->nblk; b++)
            if (touched[b]) merge_block(pk, side, b, cnt + ((size_t)b << shift), cnt + ((size_t)b << shift));
        for (size_t i = 0; i < n; i++) {
            int a = ends[2 * i], b = ends[2 * i + 1];
            if (a == b) continue;
            int v = side ? b : a;
            f->blk[v >> shift].arcs[cnt[v]++] = side ? a : b;
        }
    }
    free(cnt);
    free(touched);
    return 1;
}
