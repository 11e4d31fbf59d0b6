/* walk.c — local search for phases (ProbSAT, Balint and Schöning 2012).
 *
 * Between restarts, on pure CNF (no theory, no assumptions), the saved
 * phases are improved by a bounded local search over the original
 * clauses: start from the saved phases, repeatedly pick an unsatisfied
 * clause and flip one of its variables, chosen with probability falling
 * polynomially with its break count (how many clauses it alone satisfies).
 * Level-0 facts stay fixed.  The phases become the best assignment seen
 * (fewest unsatisfied clauses).  When it satisfies every clause the search
 * that follows decides along it without a conflict (every implied literal
 * agrees with a model that agrees with the decisions), so the answer still
 * comes from the CDCL search and is checked as any other.
 *
 * Large random satisfiable formulas (planted, random 3-SAT at the
 * threshold) are where CDCL alone flounders and this finds models.  The
 * effort is bounded by walk_effort per mille of the propagations since the
 * last walk, counted in clause visits. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "solver/solver.h"

typedef struct walker {
    uint32_t nclauses;
    uint32_t *cl_start;       /* clause c: lits[cl_start[c] .. cl_start[c+1]) */
    lit_t *lits;
    uint32_t *occ_start;      /* literal l: occ[occ_start[l] .. occ_start[l+1]) */
    uint32_t *occ;
    uint32_t *true_count;     /* per clause */
    uint32_t *crit;           /* per clause: XOR of its true variables */
    uint32_t *unsat, *unsat_pos, nunsat;
    int8_t *val;              /* per variable: 1 true, 0 false */
    uint8_t *fixed;
    double prob[64];          /* by break count */
    uint64_t rng;
} walker;

static inline uint64_t next_rand(walker *w) {    /* 53 random bits */
    w->rng ^= w->rng << 13; w->rng ^= w->rng >> 7; w->rng ^= w->rng << 17;
    return w->rng >> 11;
}

static inline int lit_true(const walker *w, lit_t l) { return w->val[lvar(l)] == !(l & 1); }

static void unsat_add(walker *w, uint32_t c) { w->unsat_pos[c] = w->nunsat; w->unsat[w->nunsat++] = c; }
static void unsat_del(walker *w, uint32_t c) {
    uint32_t last = w->unsat[--w->nunsat], p = w->unsat_pos[c];
    w->unsat[p] = last;
    w->unsat_pos[last] = p;
}

/* Clauses not satisfied at level 0, their literals not false there. */
static int build(gsat *s, walker *w) {
    uint32_t nl = 2 * (s->nvars + 1), nc = 0;
    size_t total = 0;
    for (size_t i = 0; i < s->originals.len; i++) {
        const clause *c = CL(s, s->originals.data[i]);
        if (c->flags & CL_GARBAGE) continue;
        nc++;
        total += c->size;
    }
    w->nclauses = nc;
    w->cl_start = xmalloc(((size_t)nc + 1) * sizeof *w->cl_start);
    w->lits = xmalloc((total + 1) * sizeof *w->lits);
    w->occ_start = xcalloc((size_t)nl + 1, sizeof *w->occ_start);
    uint32_t k = 0, n = 0;
    for (size_t i = 0; i < s->originals.len; i++) {
        const clause *c = CL(s, s->originals.data[i]);
        if (c->flags & CL_GARBAGE) continue;
        uint32_t start = n;
        int sat = 0;
        for (uint32_t j = 0; j < c->size && !sat; j++) {
            lit_t l = c->lits[j];
            if (s->vals[l] > 0 && var_level(s, lvar(l)) == 0) sat = 1;
            else if (!(s->vals[l] < 0 && var_level(s, lvar(l)) == 0)) w->lits[n++] = l;
        }
        if (sat) { n = start; continue; }
        if (n == start) return 0;              /* false at level 0: not ours to judge */
        w->cl_start[k++] = start;
        for (uint32_t j = start; j < n; j++) w->occ_start[w->lits[j] + 1]++;
    }
    w->nclauses = k;
    w->cl_start[k] = n;
    for (uint32_t l = 0; l < nl; l++) w->occ_start[l + 1] += w->occ_start[l];
    w->occ = xmalloc(((size_t)n + 1) * sizeof *w->occ);
    uint32_t *fill = xmalloc(((size_t)nl + 1) * sizeof *fill);
    memcpy(fill, w->occ_start, ((size_t)nl + 1) * sizeof *fill);
    for (uint32_t c = 0; c < k; c++)
        for (uint32_t j = w->cl_start[c]; j < w->cl_start[c + 1]; j++) w->occ[fill[w->lits[j]]++] = c;
    free(fill);
    return 1;
}

static void free_walker(walker *w) {
    free(w->cl_start); free(w->lits); free(w->occ_start); free(w->occ);
    free(w->true_count); free(w->crit); free(w->unsat); free(w->unsat_pos);
    free(w->val); free(w->fixed);
}

/* Flip v; returns the clause visits it cost. */
static uint64_t flip(walker *w, uint32_t v) {
    lit_t now_true = mklit(v, w->val[v]);        /* val 1 -> negative becomes true */
    w->val[v] ^= 1;
    uint64_t ticks = 0;
    for (uint32_t i = w->occ_start[now_true]; i < w->occ_start[now_true + 1]; i++) {
        uint32_t c = w->occ[i];
        if (w->true_count[c]++ == 0) unsat_del(w, c);
        w->crit[c] ^= v;
        ticks++;
    }
    lit_t now_false = lneg(now_true);
    for (uint32_t i = w->occ_start[now_false]; i < w->occ_start[now_false + 1]; i++) {
        uint32_t c = w->occ[i];
        if (--w->true_count[c] == 0) unsat_add(w, c);
        w->crit[c] ^= v;
        ticks++;
    }
    return ticks;
}

/* How many clauses v alone satisfies. */
static uint32_t break_count(const walker *w, uint32_t v) {
    lit_t t = mklit(v, !w->val[v]);              /* v's literal that is true now */
    uint32_t b = 0;
    for (uint32_t i = w->occ_start[t]; i < w->occ_start[t + 1]; i++) {
        uint32_t c = w->occ[i];
        b += w->true_count[c] == 1 && w->crit[c] == v;
    }
    return b;
}

int walk_phases(gsat *s) {
    assert(decision_level(s) == 0 && !s->ntheories);
    s->st.walks++;
    walker w;
    memset(&w, 0, sizeof w);
    if (!build(s, &w)) { free_walker(&w); return 0; }
    uint32_t nv = s->nvars + 1;
    w.val = xmalloc(nv);
    w.fixed = xcalloc(nv, 1);
    for (uint32_t v = 1; v < nv; v++) {
        if (s->vals[mklit(v, 0)] != 0) { w.val[v] = s->vals[mklit(v, 0)] > 0; w.fixed[v] = 1; }
        else w.val[v] = !s->polarity[v];
    }
    w.true_count = xcalloc((size_t)w.nclauses + 1, sizeof *w.true_count);
    w.crit = xcalloc((size_t)w.nclauses + 1, sizeof *w.crit);
    w.unsat = xmalloc(((size_t)w.nclauses + 1) * sizeof *w.unsat);
    w.unsat_pos = xmalloc(((size_t)w.nclauses + 1) * sizeof *w.unsat_pos);
    uint32_t maxlen = 0;
    for (uint32_t c = 0; c < w.nclauses; c++) {
        uint32_t len = w.cl_start[c + 1] - w.cl_start[c];
        if (len > maxlen) maxlen = len;
        for (uint32_t j = w.cl_start[c]; j < w.cl_start[c + 1]; j++)
            if (lit_true(&w, w.lits[j])) { w.true_count[c]++; w.crit[c] ^= lvar(w.lits[j]); }
        if (!w.true_count[c]) unsat_add(&w, c);
    }
    /* ProbSAT's polynomial break weights; cb by clause length */
    double cb = maxlen <= 3 ? 2.06 : maxlen == 4 ? 3.0 : maxlen == 5 ? 3.7 : 5.1;
    for (int b = 0; b < 64; b++) w.prob[b] = pow(0.9 + b, -cb);
    w.rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)s->st.walks * 0x2545F4914F6CDD1Dull;
    if (s->opt.seed) w.rng ^= solver_seed_mix((uint64_t)s->opt.seed, 0x5EEDull);   /* never 0: mixed, then or-ed */

    int64_t budget = s->st.propagations - s->walk_props;
    budget = budget * s->opt.walk_effort / 1000;
    if (budget < 100000) budget = 100000;
    vec_uint since_best;                    /* flips since the best assignment */
    vec_init(since_best);
    uint32_t best = w.nunsat;
    uint64_t ticks = 0;
    double weights[64];
    uint32_t cand[64];
    while (w.nunsat && (int64_t)ticks < budget) {
        uint32_t c = w.unsat[(uint32_t)(next_rand(&w) % w.nunsat)];
        uint32_t n = 0;
        double sum = 0;
        for (uint32_t j = w.cl_start[c]; j < w.cl_start[c + 1] && n < 64; j++) {
            uint32_t v = lvar(w.lits[j]);
            if (w.fixed[v]) continue;
            uint32_t b = break_count(&w, v);
            ticks += w.occ_start[mklit(v, !w.val[v]) + 1] - w.occ_start[mklit(v, !w.val[v])];
            cand[n] = v;
            weights[n] = w.prob[b < 64 ? b : 63];
            sum += weights[n++];
        }
        if (!n) break;                         /* only fixed variables: hopeless */
        double r = (double)next_rand(&w) / 9007199254740992.0 * sum;
        uint32_t k = 0;
        while (k + 1 < n && r >= weights[k]) r -= weights[k++];
        ticks += flip(&w, cand[k]);
        s->st.walk_flips++;
        if (w.nunsat < best) { best = w.nunsat; vec_clear(since_best); }
        else vec_push(since_best, cand[k]);
    }
    /* back to the best assignment: undo the flips made since */
    while (since_best.len) w.val[vec_pop(since_best)] ^= 1;
    vec_free(since_best);
    for (uint32_t v = 1; v < nv; v++)
        if (!w.fixed[v]) s->polarity[v] = (uint8_t)!w.val[v];
    s->walk_props = s->st.propagations;
    free_walker(&w);
    if (best == 0) s->st.walk_models++;
    return best == 0;
}
