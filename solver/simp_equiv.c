/* simp_equiv.c — equivalent-literal substitution.
 *
 * The binary clauses (a b) are the implications -a -> b and -b -> a; the
 * literals of one strongly connected component of that graph are all
 * equal (Tarjan's algorithm, iterative, started from the literals of
 * replaceable variables only).  A component holding l and -l makes the
 * formula unsatisfiable.  Each component keeps one
 * representative, chosen by its variable (so that the mirror component
 * -C chooses the negated one): a frozen variable first, then a decision
 * variable, then the smallest.  Every other member x whose variable may go
 * (not frozen, a decision variable, and so is the representative's: values
 * of non-decision variables must keep following from propagation) is
 * replaced by the representative r in every clause, and x = r goes on the
 * extension stack as (x -r) with witness x and (-x r) with witness -x.
 * Runs before the occurrence lists exist, on the watch lists (binary
 * clauses are flagged there): it rewrites the clause arena directly; units
 * it finds go on the trail for occ_propagate(). */
#include <stdlib.h>

#include "solver/proof.h"
#include "solver/simp_state.h"

typedef struct scc_state {
    const gsat *s;                /* its watch lists: the implication graph, see succ() */
    uint32_t *index, *low;        /* Tarjan: valid where visited */
    uint64_t *visited, *on_stack; /* bitmaps per literal */
    vec_uint stack, call_node, call_edge;
    lit_t *repr;                  /* per literal: its replacement, where mapped */
    uint64_t *mapped;             /* bitmap per literal */
    vec_uint replaced;            /* variables given a replacement */
} scc_state;

/* The successors of literal u are the other literals of the binary
 * clauses holding -u: the binary watchers of -u (watches are complete at
 * level 0 after simplification; learned binary clauses are implied too). */
static inline const watch_list *succ(const scc_state *g, lit_t u) { return watch_of(g->s, lneg(u)); }

/* The per-literal arrays are left uninitialised and only the bitmaps are
 * zeroed: memory is touched where the search goes, not per literal. */
static inline int bit(const uint64_t *b, lit_t l) { return (int)(b[l >> 6] >> (l & 63) & 1); }
static inline void bit_set(uint64_t *b, lit_t l) { b[l >> 6] |= (uint64_t)1 << (l & 63); }
static inline void bit_clear(uint64_t *b, lit_t l) { b[l >> 6] &= ~((uint64_t)1 << (l & 63)); }

static inline lit_t repr_of(const scc_state *g, lit_t l) { return bit(g->mapped, l) ? g->repr[l] : l; }

static int better_rep(const simp_run *r, uint32_t a, uint32_t b) {
    int sa = 2 * (r->frozen[a] != 0) + (r->s->decision[a] != 0);
    int sb = 2 * (r->frozen[b] != 0) + (r->s->decision[b] != 0);
    return sa != sb ? sa > sb : a < b;
}

/* The component is stack[from..]: pick its representative, map the rest. */
static int component(simp_run *r, scc_state *g, size_t from) {
    gsat *s = r->s;
    size_t n = g->stack.len - from;
    if (n < 2) return 1;
    uint32_t stamp = simp_next_stamp(r);
    lit_t rep = g->stack.data[from];
    for (size_t i = from; i < g->stack.len; i++) {
        lit_t l = g->stack.data[i];
        if (r->mark[lneg(l)] == stamp) {                        /* l = -l */
            lit_t u = lneg(l);
            proof_add(s, &u, 1);      /* RUP: l implies -l along the component's binary clauses */
            proof_empty(s);           /* and -l implies l */
            s->ok = 0;
            return 0;
        }
        r->mark[l] = stamp;
        if (better_rep(r, lvar(l), lvar(rep))) rep = l;
    }
    for (size_t i = from; i < g->stack.len; i++) {
        lit_t l = g->stack.data[i];
        uint32_t v = lvar(l);
        if (l == rep || r->frozen[v] || bit(g->mapped, l)) continue;
        if (!s->decision[v] || !s->decision[lvar(rep)]) continue;
        g->repr[l] = rep;
        g->repr[lneg(l)] = lneg(rep);
        bit_set(g->mapped, l);
        bit_set(g->mapped, lneg(l));
        vec_push(g->replaced, v);
    }
    return 1;
}

/* Could variable v be replaced?  Only components holding such a variable
 * matter, so the search starts from their literals only (on graph problems
 * most binary clauses tie frozen guards to non-decision edge variables). */
static int replaceable(const simp_run *r, uint32_t v) {
    const gsat *s = r->s;
    return !r->frozen[v] && s->decision[v] && !r->p->removed[v] && !s->vals[mklit(v, 0)];
}

static int tarjan(simp_run *r, scc_state *g) {
    uint32_t nl = 2 * (r->s->nvars + 1), counter = 0;
    for (lit_t root = 2; root < nl; root++) {
        /* replaceable() first: it reads arrays the run has touched already,
         * the search's arrays are touched only where it goes */
        if (!replaceable(r, lvar(root))) { root |= 1u; continue; }
        if (bit(g->visited, root) || !succ(g, root)->len) continue;
        bit_set(g->visited, root);
        g->index[root] = g->low[root] = ++counter;
        vec_push(g->stack, root); bit_set(g->on_stack, root);
        vec_push(g->call_node, root); vec_push(g->call_edge, 0);
        while (g->call_node.len) {
            lit_t u = vec_last(g->call_node);
            uint32_t e = vec_last(g->call_edge);
            const watch_list *ws = succ(g, u);
            uint32_t e0 = e, n = ws->len;
            while (e < n && !(ws->data[e].cref & WATCH_BIN)) e++;   /* long clauses: no edges */
            r->steps += e - e0;
            if (e < n) {
                vec_last(g->call_edge) = e + 1;
                r->steps++;
                lit_t w = ws->data[e].blocker;
                if (!bit(g->visited, w)) {
                    bit_set(g->visited, w);
                    g->index[w] = g->low[w] = ++counter;
                    vec_push(g->stack, w); bit_set(g->on_stack, w);
                    vec_push(g->call_node, w); vec_push(g->call_edge, 0);
                } else if (bit(g->on_stack, w) && g->index[w] < g->low[u]) {
                    g->low[u] = g->index[w];
                }
                continue;
            }
            g->call_node.len--; g->call_edge.len--;
            if (g->low[u] == g->index[u]) {
                size_t from = g->stack.len;
                do from--; while (g->stack.data[from] != u);
                if (!component(r, g, from)) return 0;
                for (size_t i = from; i < g->stack.len; i++) bit_clear(g->on_stack, g->stack.data[i]);
                g->stack.len = from;
            }
            if (g->call_node.len) {
                lit_t parent = vec_last(g->call_node);
                if (g->low[u] < g->low[parent]) g->low[parent] = g->low[u];
            }
        }
    }
    return 1;
}

/* Rewrite the clauses with g->repr; 0 on the empty clause.  The new
 * clause is made beside the old one (s->tlits), so that a proof trace
 * (solver/proof.h) adds it, RUP by the equivalences traced before, and
 * then deletes the old one as it was. */
static int substitute(simp_run *r, scc_state *g) {
    gsat *s = r->s;
    for (size_t i = 0; i < s->originals.len && s->ok; i++) {
        cref_t c = s->originals.data[i];
        clause *cl = CL(s, c);
        if (cl->flags & CL_GARBAGE) continue;
        int touched = 0;
        for (uint32_t k = 0; k < cl->size && !touched; k++) touched = bit(g->mapped, cl->lits[k]);
        r->steps += cl->size;
        if (!touched) continue;
        uint32_t stamp = simp_next_stamp(r);
        int taut = 0;
        vec_clear(s->tlits);
        for (uint32_t k = 0; k < cl->size && !taut; k++) {
            lit_t l = repr_of(g, cl->lits[k]);
            if (r->mark[l] == stamp) continue;
            if (r->mark[lneg(l)] == stamp) taut = 1;
            r->mark[l] = stamp;
            vec_push(s->tlits, l);
        }
        uint32_t n = (uint32_t)s->tlits.len;
        if (!taut) proof_add(s, s->tlits.data, n);
        if (taut || n == 1) {
            lit_t unit = s->tlits.data[0];
            arena_free_clause(s, c);  /* traces the deletion of the clause as it was */
            s->st.simp_removed_clauses++;
            if (!taut) occ_unit(r, unit);
            continue;
        }
        proof_delete(s, cl->lits, cl->size);
        memcpy(cl->lits, s->tlits.data, n * sizeof *cl->lits);
        s->ca.wasted += cl->size - n;
        cl->size = n;
    }
    return s->ok;
}

int equiv_run(simp_run *r) {
    gsat *s = r->s;
    size_t nl = 2 * ((size_t)s->nvars + 1);
    scc_state g;
    memset(&g, 0, sizeof g);
    g.s = s;
    size_t words = nl / 64 + 1;
    g.index = xmalloc(nl * sizeof *g.index);
    g.low = xmalloc(nl * sizeof *g.low);
    g.repr = xmalloc(nl * sizeof *g.repr);
    g.visited = xcalloc(words, sizeof *g.visited);
    g.on_stack = xcalloc(words, sizeof *g.on_stack);
    g.mapped = xcalloc(words, sizeof *g.mapped);

    int ok = tarjan(r, &g);
    simp *p = r->p;
    for (size_t i = 0; ok && i < g.replaced.len; i++) {
        uint32_t v = g.replaced.data[i];
        lit_t x = mklit(v, 0), rep = g.repr[x], cl[2];
        p->ext_begin[v] = p->ext.len;
        cl[0] = x; cl[1] = lneg(rep);
        simp_ext_push(p, cl, 2, x);
        cl[0] = lneg(x); cl[1] = rep;
        simp_ext_push(p, cl, 2, lneg(x));
        p->ext_end[v] = p->ext.len;
        simp_mark_removed(r, v, SIMP_SUBSTITUTED);
    }
    if (ok && g.replaced.len && s->proof_fn)
        for (size_t i = 0; i < g.replaced.len; i++) {   /* the equivalences, RUP along the binary clauses */
            lit_t x = mklit(g.replaced.data[i], 0), rep = g.repr[x], cl[2] = { x, lneg(rep) };
            proof_add(s, cl, 2);
            cl[0] = lneg(x); cl[1] = rep;
            proof_add(s, cl, 2);
        }
    if (ok && g.replaced.len) ok = substitute(r, &g);

    free(g.index); free(g.low); free(g.repr);
    free(g.visited); free(g.on_stack); free(g.mapped);
    vec_free(g.stack); vec_free(g.call_node); vec_free(g.call_edge); vec_free(g.replaced);
    return ok && s->ok;
}
