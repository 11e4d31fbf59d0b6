/* test_acyclic.c — the acyclicity theory inside the engine: random small
 * instances (guarded edges, clauses, several graphs, assumptions, edges
 * added between solves) checked against brute force, with theory
 * propagation off, windowed and bounded; models are checked; conflict
 * explanations are checked to be cycles (debug builds verify every
 * explanation against the enabled edges), and short; the random suites
 * again with chronological backtracking on every conflict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gsat.h"
#include "solver/solver.h"
#include "theory/acyclic.h"

static uint64_t rng;
static uint32_t rnd(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}
static int pick(int n) { return (int)(rnd() % (unsigned)n); }

#define MAXE 40
#define MAXC 24

typedef struct { int graph, from, to, lit; } tedge;
typedef struct {
    int vars, graphs, nodes[3];
    tedge e[MAXE]; int ne;
    int cl[MAXC][3], cw[MAXC]; int nc;
} instance;

static int lit_true(int lit, unsigned mask) { int v = lit > 0 ? lit : -lit; int b = (mask >> (v - 1)) & 1; return lit > 0 ? b : !b; }

/* Is graph g acyclic with the edges on under mask (first ne edges)? */
static int acyclic_under(const instance *in, int ne, unsigned mask, int (*val)(void *, int), void *ctx) {
    for (int g = 0; g < in->graphs; g++) {
        int n = in->nodes[g], indeg[8] = {0}, adj[8][MAXE], na[8] = {0}, removed = 0;
        for (int i = 0; i < ne; i++) {
            const tedge *e = &in->e[i];
            if (e->graph != g) continue;
            int on = e->lit == 0 || (val ? val(ctx, e->lit) > 0 : lit_true(e->lit, mask));
            if (!on) continue;
            if (e->from == e->to) return 0;
            adj[e->from][na[e->from]++] = e->to;
            indeg[e->to]++;
        }
        int queue[8], qh = 0, qt = 0;
        for (int v = 0; v < n; v++) if (!indeg[v]) queue[qt++] = v;
        while (qh < qt) {
            int v = queue[qh++]; removed++;
            for (int k = 0; k < na[v]; k++) if (--indeg[adj[v][k]] == 0) queue[qt++] = adj[v][k];
        }
        if (removed != n) return 0;
    }
    return 1;
}

static int clauses_under(const instance *in, int nc, unsigned mask) {
    for (int c = 0; c < nc; c++) {
        int sat = 0;
        for (int k = 0; k < in->cw[c]; k++) sat |= lit_true(in->cl[c][k], mask);
        if (!sat) return 0;
    }
    return 1;
}

/* Brute force: is there a model of the first ne edges / nc clauses that
 * makes every assumption true? */
static int brute(const instance *in, int ne, int nc, const int *as, int na) {
    for (unsigned mask = 0; mask < (1u << in->vars); mask++) {
        int ok = 1;
        for (int i = 0; i < na && ok; i++) ok = lit_true(as[i], mask);
        if (ok && clauses_under(in, nc, mask) && acyclic_under(in, ne, mask, NULL, NULL)) return 1;
    }
    return 0;
}

static int model_val(void *ctx, int lit) { return gsat_value(ctx, lit); }

static void check_model(gsat *s, const instance *in, int ne, int nc, const int *as, int na) {
    for (int c = 0; c < nc; c++) {
        int sat = 0;
        for (int k = 0; k < in->cw[c]; k++) sat |= gsat_value(s, in->cl[c][k]) > 0;
        assert_true(sat);
    }
    for (int i = 0; i < na; i++) assert_int_equal(gsat_value(s, as[i]), 1);
    assert_true(acyclic_under(in, ne, 0, model_val, s));
}

static void random_instance(instance *in) {
    memset(in, 0, sizeof *in);
    in->vars = 1 + pick(8);
    in->graphs = 1 + (pick(4) == 0);
    for (int g = 0; g < in->graphs; g++) in->nodes[g] = 2 + pick(5);
    in->ne = 1 + pick(MAXE / 2 + in->vars * 2 > MAXE ? MAXE : MAXE / 2 + in->vars * 2);
    for (int i = 0; i < in->ne; i++) {
        tedge *e = &in->e[i];
        e->graph = pick(in->graphs);
        e->from = pick(in->nodes[e->graph]);
        e->to = pick(in->nodes[e->graph]);
        if (e->from == e->to && pick(4)) e->to = (e->from + 1) % in->nodes[e->graph];
        int v = 1 + pick(in->vars);
        e->lit = pick(8) == 0 ? 0 : (pick(3) == 0 ? -v : v);
    }
    in->nc = pick(in->vars + 1);
    for (int c = 0; c < in->nc; c++) {
        in->cw[c] = 1 + pick(3);
        for (int k = 0; k < in->cw[c]; k++) { int v = 1 + pick(in->vars); in->cl[c][k] = pick(2) ? v : -v; }
    }
}

static void add_edges(gsat *s, const int *gid, const instance *in, int lo, int hi) {
    for (int i = lo; i < hi; i++) {
        const tedge *e = &in->e[i];
        assert_true(gsat_graph_add_edge(s, gid[e->graph], e->from, e->to, e->lit) >= 0);
    }
}

static int64_t total_conflicts, total_theory_conflicts, total_expl_lits, total_theory_props, total_chrono;
static int64_t total_partial, total_lists, total_rebuilt, total_eliminated, total_restored;   /* internal counters */
static int64_t total_learned_missed, total_missed;

static void solve_and_check(gsat *s, const instance *in, int ne, int nc, int *as, int na) {
    int expect = brute(in, ne, nc, as, na);
    int r = gsat_solve(s, as, na);
    assert_int_equal(r, expect ? GSAT_SAT : GSAT_UNSAT);
    if (r == GSAT_SAT) {
        check_model(s, in, ne, nc, as, na);
    } else if (na) {
        /* the failed assumptions alone must already be contradictory */
        int fa[4], nf = 0;
        for (int i = 0; i < na; i++) if (gsat_failed(s, as[i])) fa[nf++] = as[i];
        assert_false(brute(in, ne, nc, fa, nf));
    }
}

/* < 0: the default; 0: backtrack chronologically after every conflict */
static int chrono_levels = -1;

static void run_random(int mode, int rounds, uint64_t seed) {
    rng = seed;
    total_conflicts = total_theory_conflicts = total_expl_lits = total_theory_props = total_chrono = 0;
    total_partial = total_lists = total_rebuilt = total_eliminated = total_restored = 0;
    total_learned_missed = total_missed = 0;
    int64_t total_merges = 0, total_builds = 0;
    int sat = 0, unsat = 0;
    for (int r = 0; r < rounds; r++) {
        instance in;
        random_instance(&in);
        gsat *s = gsat_new();
        assert_int_equal(gsat_set_option(s, "theory_propagate", mode), 1);
        /* every branching style: none, the saved phase, the smaller span */
        assert_int_equal(gsat_set_option(s, "theory_phase", (r & 1) ? 1 + ((r >> 4) & 1) : 0), 1);
        /* theory clauses of missed implications kept as learned clauses or not */
        assert_int_equal(gsat_set_option(s, "learn_missed", (r >> 1) & 1), 1);
        if (chrono_levels >= 0) assert_int_equal(gsat_set_option(s, "chrono_levels", chrono_levels), 1);
        /* always-on edges' ends dropped once frozen, or kept: the later
         * stages then freeze again from the arrays, or from the list */
        assert_int_equal(gsat_set_option(s, "theory_keep_ends", (r >> 2) & 1), 1);
        /* the guarded edges' arrays on both sides, or out-edges only */
        assert_int_equal(gsat_set_option(s, "theory_in_arrays", (r >> 3) & 1), 1);
        gsat_reserve_vars(s, in.vars);
        /* blocks of 1, 2 or 4 nodes (the default 4096 leaves every edge of
         * these small graphs on the lists): the order's frozen arcs and the
         * arrays of guarded edges then merge and rebuild block by block */
        if (r % 4) acyclic_set_block_shift(acyclic_of(s), (r % 4) - 1);
        int gid[3];
        for (int g = 0; g < in.graphs; g++) gid[g] = gsat_graph_new(s, in.nodes[g]);
        /* stage 1: half the edges and clauses */
        int ne1 = in.ne / 2, nc1 = in.nc / 2;
        add_edges(s, gid, &in, 0, ne1);
        for (int c = 0; c < nc1; c++) gsat_add_clause(s, in.cl[c], in.cw[c]);
        solve_and_check(s, &in, ne1, nc1, NULL, 0);
        /* stage 1b: a few more edges (the propagation scan then takes the
         * edges of the last solve from arrays, the new ones from lists) */
        int ne2 = ne1 + (in.ne - ne1) / 4;
        add_edges(s, gid, &in, ne1, ne2);
        solve_and_check(s, &in, ne2, nc1, NULL, 0);
        /* stage 2: everything, then under random assumptions */
        add_edges(s, gid, &in, ne2, in.ne);
        for (int c = nc1; c < in.nc; c++) gsat_add_clause(s, in.cl[c], in.cw[c]);
        solve_and_check(s, &in, in.ne, in.nc, NULL, 0);
        int as[3], na = pick(4);
        for (int i = 0; i < na; i++) { int v = 1 + pick(in.vars); as[i] = pick(2) ? v : -v; }
        solve_and_check(s, &in, in.ne, in.nc, as, na);
        if (brute(&in, in.ne, in.nc, NULL, 0)) sat++; else unsat++;
        gsat_stats st;
        gsat_get_stats(s, &st);
        acyclic_stats ast;
        acyclic_get_stats(acyclic_of(s), &ast);
        total_merges += ast.block_merges;
        total_builds += ast.block_builds;
        total_conflicts += st.conflicts;
        total_theory_conflicts += st.theory_conflicts;
        total_theory_props += st.theory_propagations;
        total_expl_lits += st.theory_explanation_lits;
        total_chrono += s->st.chrono_backtracks;
        total_partial += s->st.partial_backtracks;
        total_lists += s->st.partial_lists;
        total_rebuilt += s->st.partial_lists > 1;
        total_eliminated += s->st.simp_eliminated;
        total_restored += s->st.simp_restored;
        total_learned_missed += s->st.learned_missed;
        total_missed += s->st.missed_implications;
        if (!((r >> 1) & 1)) assert_int_equal(s->st.learned_missed, 0);
        gsat_free(s);
    }
    /* the generator produced both answers and the theory did real work */
    assert_true(sat > rounds / 10);
    assert_true(unsat > rounds / 10);
    if (mode == 0) { assert_true(total_theory_conflicts > 0); assert_int_equal(total_theory_props, 0); }
    else assert_true(total_theory_props > 0);
    /* missed implications happened and some became learned clauses */
    printf("mode %d: missed implications %lld, theory clauses kept %lld\n", mode,
           (long long)total_missed, (long long)total_learned_missed);
    assert_true(total_missed > 0 && total_learned_missed > 0);
    /* small blocks: merged and rebuilt (debug builds check both at every final check) */
    printf("mode %d: frozen blocks merged %lld, guarded blocks built %lld\n", mode, (long long)total_merges,
           (long long)total_builds);
    assert_true(total_merges > rounds && total_builds > rounds);
}

static void random_no_propagation(void **state) { (void)state; run_random(0, 1000, 0xA5A5A5A5ULL); }
static void random_window_propagation(void **state) { (void)state; run_random(1, 1000, 0x5EED1ULL); }
static void random_bounded_propagation(void **state) { (void)state; run_random(2, 1000, 0xBEEFULL); }

/* Bigger random instances (no brute force): SAT answers must come with
 * valid models, UNSAT answers must agree across the three modes. */
static void modes_agree_on_larger(void **state) {
    (void)state;
    rng = 4242;
    for (int r = 0; r < 30; r++) {
        int n = 12 + pick(20), vars = 10 + pick(30), m = 20 + pick(60);
        int ef[100], et[100], el[100];
        for (int i = 0; i < m; i++) {
            ef[i] = pick(n); et[i] = pick(n);
            if (ef[i] == et[i]) et[i] = (et[i] + 1) % n;
            int v = 1 + pick(vars);
            el[i] = pick(10) == 0 ? 0 : pick(2) ? v : -v;
        }
        int answer[3];
        for (int mode = 0; mode < 3; mode++) {
            gsat *s = gsat_new();
            gsat_set_option(s, "theory_propagate", mode);
            if (chrono_levels >= 0) gsat_set_option(s, "chrono_levels", chrono_levels);
            gsat_reserve_vars(s, vars);
            int g = gsat_graph_new(s, n);
            for (int i = 0; i < m; i++) gsat_graph_add_edge(s, g, ef[i], et[i], el[i]);
            answer[mode] = gsat_solve(s, NULL, 0);
            if (answer[mode] == GSAT_SAT) {
                /* the edges on in the model form a DAG: Kahn's algorithm */
                int indeg[40] = {0}, removed = 0, queue[40], qh = 0, qt = 0;
                for (int i = 0; i < m; i++) if (!el[i] || gsat_value(s, el[i]) > 0) indeg[et[i]]++;
                for (int v = 0; v < n; v++) if (!indeg[v]) queue[qt++] = v;
                while (qh < qt) {
                    int v = queue[qh++]; removed++;
                    for (int i = 0; i < m; i++)
                        if (ef[i] == v && (!el[i] || gsat_value(s, el[i]) > 0) && --indeg[et[i]] == 0) queue[qt++] = et[i];
                }
                assert_int_equal(removed, n);
            }
            gsat_free(s);
        }
        assert_int_equal(answer[0], answer[1]);
        assert_int_equal(answer[0], answer[2]);
    }
}

/* Chronological backtracking on every conflict: literals below the
 * current level stay on the trail, so the theory undoes edges by time and
 * is told the kept guards again, and kept implied literals must have been
 * explained before; brute force still decides every answer. */
static void random_always_chronological(void **state) {
    chrono_levels = 0;
    int64_t chrono = 0, partial = 0, lists = 0, rebuilt = 0, eliminated = 0, restored = 0;
    static const struct { int mode, rounds; uint64_t seed; } runs[] = {{1, 1000, 0xC4C4ULL}, {2, 500, 0xC5C5ULL}, {0, 500, 0xC6C6ULL}};
    for (int i = 0; i < 3; i++) {
        run_random(runs[i].mode, runs[i].rounds, runs[i].seed);
        chrono += total_chrono; partial += total_partial; lists += total_lists; rebuilt += total_rebuilt;
        eliminated += total_eliminated; restored += total_restored;
    }
    modes_agree_on_larger(state);
    chrono_levels = -1;
    /* chronological and partial backtracking ran, and so did preprocessing,
     * with variables eliminated at the first solve coming back as guards */
    assert_true(chrono > 100 && partial > 10 && eliminated > 500 && restored > 400);
    /* partial backtracking built its occurrence lists lazily, at most once
     * per partial backtrack; debug builds check the trail after each one */
    printf("partial backtracks %lld, occurrence lists built %lld, by %lld solvers more than once\n",
           (long long)partial, (long long)lists, (long long)rebuilt);
    assert_true(lists > 0 && lists <= partial);
}

/* Partial backtracking across arena compactions and level-0
 * simplifications, which drop its occurrence lists: random graphs with
 * clauses over the guards, solved again and again under assumptions with
 * frequent reductions and compactions.  Debug builds check the trail after
 * every partial backtrack and every model; the lists must have been built
 * again within one solver. */
static void partial_backtracking_across_compaction(void **state) {
    (void)state;
    rng = 0x0CC0ULL;
    int64_t rebuilt = 0, partial = 0, gcs = 0;
    for (int r = 0; r < 12; r++) {
        int n = 40, vars = 120, m = 360;
        gsat *s = gsat_new();
        assert_int_equal(gsat_set_option(s, "chrono_levels", 0), 1);
        assert_int_equal(gsat_set_option(s, "reduce_first", 100), 1);
        assert_int_equal(gsat_set_option(s, "reduce_inc", 0), 1);
        assert_int_equal(gsat_set_option(s, "gc_percent", 1), 1);
        gsat_reserve_vars(s, vars);
        int g = gsat_graph_new(s, n);
        for (int i = 0; i < m; i++) {
            int a = pick(n), b = pick(n), v = 1 + pick(vars);
            if (a == b) b = (b + 1) % n;
            gsat_graph_add_edge(s, g, a, b, pick(2) ? v : -v);
        }
        for (int c = 0; c < 200; c++) {
            int cl[3];
            for (int k = 0; k < 3; k++) { int v = 1 + pick(vars); cl[k] = pick(2) ? v : -v; }
            gsat_add_clause(s, cl, 3);
        }
        for (int k = 0; k < 20; k++) {
            int as[4];
            for (int i = 0; i < 4; i++) { int v = 1 + pick(vars); as[i] = pick(2) ? v : -v; }
            int res = gsat_solve(s, as, 4);
            assert_true(res == GSAT_SAT || res == GSAT_UNSAT);
        }
        rebuilt += s->st.partial_lists > 1;
        partial += s->st.partial_backtracks;
        gcs += s->st.gcs;
        gsat_free(s);
    }
    printf("partial backtracks %lld, compactions %lld, solvers that built the lists again %lld\n",
           (long long)partial, (long long)gcs, (long long)rebuilt);
    assert_true(partial > 100 && rebuilt > 0);
}

/* The conflict clause uses the path with the fewest guarded edges: a long
 * path of always-on edges beats a short path of guarded ones. */
static void explanation_prefers_fixed_edges(void **state) {
    (void)state;
    gsat *s = gsat_new();
    gsat_set_option(s, "theory_propagate", 0);
    int g = gsat_graph_new(s, 12);
    /* fixed path 1 -> 2 -> ... -> 10 -> 0 */
    for (int v = 1; v < 10; v++) gsat_graph_add_edge(s, g, v, v + 1, 0);
    gsat_graph_add_edge(s, g, 10, 0, 0);
    /* guarded short path 1 -> 11 -> 0 (vars 2, 3) and the closing edge 0 -> 1 (var 1) */
    gsat_graph_add_edge(s, g, 1, 11, 2);
    gsat_graph_add_edge(s, g, 11, 0, 3);
    gsat_graph_add_edge(s, g, 0, 1, 1);
    int as[3] = {2, 3, 1};
    assert_int_equal(gsat_solve(s, as, 3), GSAT_UNSAT);
    assert_true(gsat_failed(s, 1));
    assert_false(gsat_failed(s, 2));
    assert_false(gsat_failed(s, 3));
    gsat_stats st;
    gsat_get_stats(s, &st);
    assert_int_equal(st.theory_conflicts, 1);
    assert_int_equal(st.theory_explanation_lits, 1);   /* just "not var 1" */
    /* without the assumption on 1 it is satisfiable, with 1 false */
    assert_int_equal(gsat_solve(s, as, 2), GSAT_SAT);
    assert_int_equal(gsat_value(s, 1), -1);
    gsat_free(s);
}

/* Theory propagation: a path v ~> u forces the guard of u -> v off, and
 * the lazy reason is that path. */
static void propagation_forces_edges_off(void **state) {
    (void)state;
    for (int mode = 1; mode <= 2; mode++) {
        gsat *s = gsat_new();
        gsat_set_option(s, "theory_propagate", mode);
        int g = gsat_graph_new(s, 4);
        /* against the initial order, so that every insertion reorders */
        gsat_graph_add_edge(s, g, 3, 2, 1);
        gsat_graph_add_edge(s, g, 2, 1, 2);
        gsat_graph_add_edge(s, g, 1, 0, 3);
        gsat_graph_add_edge(s, g, 0, 3, 4);     /* closes 3->2->1->0->3 */
        gsat_add_clause(s, (int[]){4, 5}, 2);    /* 4 or 5 */
        /* 6 implies 1, 2, 3: they turn on during the search (an assumption
         * or a unit on an edge would let the order be presorted instead) */
        for (int v = 1; v <= 3; v++) gsat_add_clause(s, (int[]){-6, v}, 2);
        int as[1] = {6};
        assert_int_equal(gsat_solve(s, as, 1), GSAT_SAT);
        assert_int_equal(gsat_value(s, 4), -1);
        assert_int_equal(gsat_value(s, 5), 1);
        gsat_stats st;
        gsat_get_stats(s, &st);
        assert_true(st.theory_propagations >= 1);
        assert_int_equal(st.theory_conflicts, 0);
        gsat_free(s);
    }
}

static void self_loops_negative_guards_shared_guards(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int g = gsat_graph_new(s, 3);
    assert_int_equal(gsat_graph_add_edge(s, g, 1, 1, 7), 0);        /* self-loop: 7 false */
    assert_int_equal(gsat_graph_add_edge(s, g, 0, 1, -1), 1);       /* on when 1 is false */
    assert_int_equal(gsat_graph_add_edge(s, g, 1, 2, 2), 2);
    assert_int_equal(gsat_graph_add_edge(s, g, 2, 0, 2), 3);        /* same guard as 1 -> 2 */
    assert_int_equal(gsat_graph_add_edge(s, g, 5, 0, 2), -1);       /* bad node */
    assert_int_equal(gsat_graph_add_edge(s, 9, 0, 1, 2), -1);       /* bad graph */
    assert_int_equal(gsat_solve(s, (int[]){7}, 1), GSAT_UNSAT);
    assert_int_equal(gsat_solve(s, (int[]){-1, 2}, 2), GSAT_UNSAT);
    assert_int_equal(gsat_solve(s, (int[]){2}, 1), GSAT_SAT);
    assert_int_equal(gsat_value(s, 1), 1);
    assert_int_equal(gsat_value(s, 7), -1);
    /* nodes added later join the same graph */
    assert_int_equal(gsat_graph_add_nodes(s, g, 2), 3);
    gsat_graph_add_edge(s, g, 0, 3, 0);
    gsat_graph_add_edge(s, g, 3, 4, 0);
    gsat_graph_add_edge(s, g, 4, 0, 8);
    assert_int_equal(gsat_solve(s, (int[]){8}, 1), GSAT_UNSAT);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    assert_int_equal(gsat_value(s, 8), -1);
    /* an always-on cycle makes everything unsatisfiable */
    gsat_graph_add_edge(s, g, 4, 3, 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_free(s);
}

/* Two graphs are independent constraints: a cycle across their node ids
 * means nothing, a cycle inside one is a conflict. */
static void graphs_are_independent(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int a = gsat_graph_new(s, 2), b = gsat_graph_new(s, 2);
    assert_true(a != b);
    gsat_graph_add_edge(s, a, 0, 1, 1);
    gsat_graph_add_edge(s, b, 1, 0, 1);      /* same guard, other graph: fine */
    assert_int_equal(gsat_solve(s, (int[]){1}, 1), GSAT_SAT);
    gsat_graph_add_edge(s, b, 0, 1, 2);
    assert_int_equal(gsat_solve(s, (int[]){1, 2}, 2), GSAT_UNSAT);
    assert_int_equal(gsat_solve(s, (int[]){1}, 1), GSAT_SAT);
    assert_int_equal(gsat_value(s, 2), -1);
    gsat_free(s);
}

/* Drive the theory by hand (as the engine would) on random graphs whose
 * edges each have their own guard: every conflict clause must be a cycle
 * of enabled edges through the new edge with the fewest guarded edges
 * possible, and every implied literal's reason a real path. */
typedef struct { int n, m, from[64], to[64], lit[64]; unsigned char on[64]; } hgraph;

/* Fewest guarded edges on a path src ~> dst using enabled edges (and only
 * those whose guard is in allowed[] when allowed != NULL); -1 if none.
 * Bellman-Ford style relaxation: the graphs are tiny. */
static int cheapest_path(const hgraph *h, int src, int dst, const unsigned char *allowed) {
    int dist[16];
    for (int v = 0; v < h->n; v++) dist[v] = 1000;
    dist[src] = 0;
    for (int round = 0; round < h->n; round++)
        for (int i = 0; i < h->m; i++) {
            if (!h->on[i]) continue;
            if (allowed && h->lit[i] && !allowed[i]) continue;
            int c = dist[h->from[i]] + (h->lit[i] != 0);
            if (c < dist[h->to[i]]) dist[h->to[i]] = c;
        }
    return dist[dst] >= 1000 ? -1 : dist[dst];
}

/* The callbacks the engine calls theory t through. */
static const theory_ops *ops_of(const gsat *s, const void *t) {
    for (int i = 0; i < s->ntheories; i++)
        if (s->theories[i].t == t) return s->theories[i].ops;
    fail_msg("theory not attached");
    return NULL;
}

static void explanations_are_cycles(void **state) {
    (void)state;
    rng = 777;
    int conflicts = 0, implied = 0;
    for (int r = 0; r < 300; r++) {
        hgraph h;
        memset(&h, 0, sizeof h);
        h.n = 3 + pick(8);
        h.m = 4 + pick(40);
        gsat *s = gsat_new();
        gsat_set_option(s, "theory_propagate", 1 + pick(2));
        gsat_set_option(s, "theory_keep_ends", r & 1);
        gsat_set_option(s, "theory_in_arrays", (r >> 1) & 1);
        int g = gsat_graph_new(s, h.n), fixed_on = 1;
        for (int i = 0; i < h.m; i++) {
            h.from[i] = pick(h.n);
            h.to[i] = (h.from[i] + 1 + pick(h.n - 1)) % h.n;
            h.lit[i] = pick(6) == 0 && fixed_on ? 0 : i + 1;
            if (!h.lit[i]) {             /* keep the always-on edges acyclic */
                h.on[i] = 1;
                if (cheapest_path(&h, h.to[i], h.from[i], NULL) >= 0) h.lit[i] = i + 1;
                h.on[i] = 0;
            }
            gsat_reserve_vars(s, i + 1);
            gsat_graph_add_edge(s, g, h.from[i], h.to[i], h.lit[i]);
            h.on[i] = h.lit[i] == 0;
        }
        acyclic *a = acyclic_of(s);
        const theory_ops *ops = ops_of(s, a);
        int order[64], level = 0, lim[64];
        for (int i = 0; i < h.m; i++) order[i] = i;
        for (int i = h.m - 1; i > 0; i--) { int j = pick(i + 1), t = order[i]; order[i] = order[j]; order[j] = t; }
        vec_int out; vec_init(out);
        for (int k = 0; k < h.m; k++) {
            int id = order[k];
            if (!h.lit[id]) continue;
            ops->new_level(a);
            lim[level++] = k;
            int expect_conflict = cheapest_path(&h, h.to[id], h.from[id], NULL);
            int confl = ops->assigned(a, h.lit[id]);
            assert_int_equal(confl, expect_conflict >= 0);
            if (confl) {
                conflicts++;
                vec_clear(out);
                ops->conflict(a, &out);
                unsigned char allowed[64] = {0};
                int has_own = 0;
                for (size_t i = 0; i < out.len; i++) {
                    int e = -out.data[i] - 1;
                    assert_true(e >= 0 && e < h.m && (h.on[e] || e == id));  /* an enabled edge, or the new one */
                    if (e == id) has_own = 1; else allowed[e] = 1;
                }
                assert_true(has_own);
                /* those guards (plus always-on edges) close the cycle, and no
                 * cycle through the new edge needs fewer */
                int c = cheapest_path(&h, h.to[id], h.from[id], allowed);
                assert_true(c >= 0);
                assert_int_equal((int)out.len - 1, expect_conflict);
                /* undo this level: the edge was not inserted */
                ops->backtrack(a, --level);
                continue;
            }
            h.on[id] = 1;
            vec_clear(out);
            ops->propagate(a, &out);
            for (size_t i = 0; i < out.len; i++) {
                int lit = out.data[i], e = -lit - 1;
                assert_true(lit < 0 && e >= 0 && e < h.m && !h.on[e]);
                assert_true(cheapest_path(&h, h.to[e], h.from[e], NULL) >= 0);
                vec_int why; vec_init(why);
                ops->reason(a, lit, &why);
                assert_int_equal(why.data[0], lit);
                unsigned char allowed[64] = {0};
                for (size_t j = 1; j < why.len; j++) {
                    int f = -why.data[j] - 1;
                    assert_true(f >= 0 && f < h.m && h.on[f]);
                    allowed[f] = 1;
                }
                assert_true(cheapest_path(&h, h.to[e], h.from[e], allowed) >= 0);
                vec_int again; vec_init(again);          /* asked again: the same clause */
                ops->reason(a, lit, &again);
                assert_int_equal(again.len, why.len);
                assert_memory_equal(again.data, why.data, why.len * sizeof *why.data);
                vec_free(again);
                vec_free(why);
                implied++;
            }
            assert_true(acyclic_verify_order(a));
            if (pick(6) == 0 && level > 0) {          /* backtrack a few levels */
                int to = pick(level);
                for (int kk = lim[to]; kk <= k; kk++) if (h.lit[order[kk]]) h.on[order[kk]] = 0;
                ops->backtrack(a, to);
                level = to;
            }
        }
        vec_free(out);
        ops->backtrack(a, 0);
        gsat_free(s);
    }
    assert_true(conflicts > 100);
    assert_true(implied > 100);
}

/* Two theories that were given the same edges the same way: the same edge
 * ids, ends and guards, the same counts; returns the first one's stats. */
static acyclic_stats same_edges(acyclic *a0, acyclic *a1) {
    assert_int_equal(acyclic_num_edges(a1), acyclic_num_edges(a0));
    for (int e = 0; e < acyclic_num_edges(a0); e++) {
        int f0, t0, l0, f1, t1, l1;
        acyclic_edge_ends(a0, e, &f0, &t0, &l0);
        acyclic_edge_ends(a1, e, &f1, &t1, &l1);
        assert_int_equal(f1, f0); assert_int_equal(t1, t0); assert_int_equal(l1, l0);
    }
    acyclic_stats st0, st1;
    acyclic_get_stats(a0, &st0);
    acyclic_get_stats(a1, &st1);
    assert_int_equal(st1.edges, st0.edges);
    assert_int_equal(st1.inserts, st0.inserts);
    return st0;
}

/* gsat_graph_add_edges: always-on edges in batches give the same edge ids,
 * ends, answers and counts as one gsat_graph_add_edge each — on new graphs
 * (numbered forward: the batch path), with backward edges and self-loops
 * among them, on a second graph whose nodes do not start at 0, and after a
 * solve or a backward edge has reordered the nodes (the per-edge path). */
static void batch_edges_same_as_one_by_one(void **state) {
    (void)state;
    rng = 0xBA7C4ULL;
    int sat = 0, unsat = 0, reordered = 0;
    for (int r = 0; r < 400; r++) {
        int graphs = 1 + pick(2), nodes[2] = { 3 + pick(40), 3 + pick(40) }, vars = 1 + pick(6);
        gsat *s[2] = { gsat_new(), gsat_new() };
        int gid[2][2];
        for (int k = 0; k < 2; k++) {
            assert_int_equal(gsat_set_option(s[k], "theory_keep_ends", r & 1), 1);
            gsat_reserve_vars(s[k], vars);
            for (int g = 0; g < graphs; g++) gid[k][g] = gsat_graph_new(s[k], nodes[g]);
        }
        int back = pick(3);                      /* 0: every always-on edge forward */
        for (int stage = 0; stage < 3; stage++) {
            int batches = 1 + pick(3);
            for (int b = 0; b < batches; b++) {
                int g = pick(graphs), n = pick(3 * nodes[g]), ends[256];
                if (n > 128) n = 128;
                for (int i = 0; i < n; i++) {
                    int x = pick(nodes[g]), y = pick(nodes[g]);
                    if (x > y && (!back || pick(12))) { int t = x; x = y; y = t; }
                    if (x == y && pick(8)) y = (x + 1) % nodes[g];
                    ends[2 * i] = x; ends[2 * i + 1] = y;
                }
                int id0 = -2;
                for (int i = 0; i < n; i++) {
                    int id = gsat_graph_add_edge(s[0], gid[0][g], ends[2 * i], ends[2 * i + 1], 0);
                    if (i == 0) id0 = id;
                }
                int id1 = gsat_graph_add_edges(s[1], gid[1][g], ends, (size_t)n);
                if (n) assert_int_equal(id1, id0);
                /* a guarded edge or two between the batches, one call each */
                for (int i = pick(3); i > 0; i--) {
                    int x = pick(nodes[g]), y = pick(nodes[g]), v = 1 + pick(vars), lit = pick(2) ? v : -v;
                    for (int k = 0; k < 2; k++) gsat_graph_add_edge(s[k], gid[k][g], x, y, lit);
                }
            }
            int bad[2] = { 0, nodes[0] };
            assert_int_equal(gsat_graph_add_edges(s[1], gid[1][0], bad, 1), -1);     /* nothing added */
            int a0 = gsat_solve(s[0], NULL, 0), a1 = gsat_solve(s[1], NULL, 0);
            assert_int_equal(a1, a0);
            if (a0 == GSAT_SAT)
                for (int v = 1; v <= vars; v++) assert_int_equal(gsat_value(s[1], v), gsat_value(s[0], v));
            if (a0 != GSAT_SAT) break;
        }
        acyclic *a[2] = { acyclic_of(s[0]), acyclic_of(s[1]) };
        acyclic_stats st0 = same_edges(a[0], a[1]);
        acyclic_stats st1;
        acyclic_get_stats(a[1], &st1);
        assert_int_equal(st1.pk_searches, st0.pk_searches);
        reordered += st0.pk_searches > 0;
        gsat_stats g0, g1;
        gsat_get_stats(s[0], &g0);
        gsat_get_stats(s[1], &g1);
        assert_int_equal(g1.conflicts, g0.conflicts);
        assert_int_equal(g1.decisions, g0.decisions);
        if (gsat_solve(s[0], NULL, 0) == GSAT_SAT) sat++; else unsat++;
        gsat_free(s[0]); gsat_free(s[1]);
    }
    assert_true(sat > 20 && unsat > 20 && reordered > 20);
}

/* gsat_graph_add_edges_each: the same edge ids, ends, answers and counts
 * as one gsat_graph_add_edge each, on a new graph (forward: straight into
 * the order's arrays, ends kept or not) and with backward edges or
 * self-loops among them or a graph already used (chunk by chunk); a bad
 * node id adds nothing. */
typedef struct each_ends_src { const int *ends; } each_ends_src;
static void each_ends_of(void *ctx, size_t first, size_t count, int *out) {
    const each_ends_src *e = ctx;
    memcpy(out, e->ends + 2 * first, 2 * count * sizeof *out);
}

static void each_edges_same_as_one_by_one(void **state) {
    (void)state;
    rng = 0xEAC4ULL;
    int sat = 0, unsat = 0, direct = 0;
    for (int r = 0; r < 300; r++) {
        int nodes = 3 + pick(60), vars = 1 + pick(6), back = pick(3) == 0, used = pick(4) == 0, keep = pick(2);
        gsat *s[2] = { gsat_new(), gsat_new() };
        int gid[2];
        for (int k = 0; k < 2; k++) {
            assert_int_equal(gsat_set_option(s[k], "theory_keep_ends", keep), 1);
            gsat_reserve_vars(s[k], vars);
            gid[k] = gsat_graph_new(s[k], nodes);
            if (used) gsat_graph_add_edge(s[k], gid[k], 0, nodes - 1, 0);
        }
        int n = pick(4 * nodes) + 1, *ends = malloc(2 * (size_t)n * sizeof *ends);
        for (int i = 0; i < n; i++) {
            int x = pick(nodes), y = pick(nodes);
            if (x > y && (!back || pick(12))) { int t = x; x = y; y = t; }
            if (x == y && (!back || pick(8))) y = x + 1 < nodes ? x + 1 : x, x = y == x ? x - 1 : x;
            ends[2 * i] = x; ends[2 * i + 1] = y;
        }
        int id0 = -2;
        for (int i = 0; i < n; i++) {
            int id = gsat_graph_add_edge(s[0], gid[0], ends[2 * i], ends[2 * i + 1], 0);
            if (i == 0) id0 = id;
        }
        int bad[2] = { 0, nodes };
        each_ends_src b = { bad }, src = { ends };
        assert_int_equal(gsat_graph_add_edges_each(s[1], gid[1], 1, 1, each_ends_of, &b), -1);
        assert_int_equal(gsat_graph_add_edges_each(s[1], gid[1], (size_t)n, 1 + (size_t)pick(10), each_ends_of, &src), id0);
        acyclic *a[2] = { acyclic_of(s[0]), acyclic_of(s[1]) };
        for (int i = pick(4); i > 0; i--) {
            int x = pick(nodes), y = pick(nodes), v = 1 + pick(vars), lit = pick(2) ? v : -v;
            for (int k = 0; k < 2; k++) gsat_graph_add_edge(s[k], gid[k], x, y, lit);
        }
        int a0 = gsat_solve(s[0], NULL, 0), a1 = gsat_solve(s[1], NULL, 0);
        assert_int_equal(a1, a0);
        if (a0 == GSAT_SAT) { sat++; for (int v = 1; v <= vars; v++) assert_int_equal(gsat_value(s[1], v), gsat_value(s[0], v)); }
        else unsat++;
        same_edges(a[0], a[1]);
        direct += !back && !used && !keep;
        free(ends);
        gsat_free(s[0]); gsat_free(s[1]);
    }
    assert_true(sat > 20 && unsat > 5 && direct > 50);
}

/* acyclic_edge_ends against what was added: guarded and always-on edges
 * mixed in runs longer than the records' rank blocks (512 edge ids) and
 * shorter, self-loops (records that are never on), batches; again after a
 * solve (the always-on ones frozen into the order). */
static void edge_ends_of_mixed_runs(void **state) {
    (void)state;
    rng = 0xE1D5ULL;
    for (int r = 0; r < 6; r++) {
        gsat *s = gsat_new();
        int nodes = 40, vars = 30, m = 0, cap = 8192;
        int *ef = malloc((size_t)cap * sizeof *ef), *et = malloc((size_t)cap * sizeof *et), *el = malloc((size_t)cap * sizeof *el);
        assert_non_null(ef); assert_non_null(et); assert_non_null(el);
        gsat_reserve_vars(s, vars);
        int g = gsat_graph_new(s, nodes);
        while (m < cap - 1200) {
            int run = pick(4) == 0 ? 513 + pick(700) : 1 + pick(40), guarded = pick(2);
            if (!guarded && pick(2)) {                      /* a batch of always-on edges */
                int ends[2 * 128], n = run > 128 ? 128 : run;
                for (int i = 0; i < n; i++) {
                    int x = pick(nodes - 1), y = x + 1 + pick(nodes - 1 - x);   /* forward: no cycle */
                    ends[2 * i] = x; ends[2 * i + 1] = y;
                    ef[m + i] = x; et[m + i] = y; el[m + i] = 0;
                }
                assert_int_equal(gsat_graph_add_edges(s, g, ends, (size_t)n), m);
                m += n;
                continue;
            }
            for (int i = 0; i < run; i++, m++) {
                int x = pick(nodes), y = pick(nodes), v = 1 + pick(vars), lit = pick(2) ? v : -v;
                if (!guarded) { if (x > y) { int t = x; x = y; y = t; } if (x == y && pick(4)) y = (x + 1) % nodes; }
                if (!guarded && x > y) x = y;                   /* forward or a self-loop */
                if (!guarded) lit = 0;
                ef[m] = x; et[m] = y; el[m] = lit;
                assert_int_equal(gsat_graph_add_edge(s, g, x, y, lit), m);
            }
        }
        acyclic *a = acyclic_of(s);
        for (int round = 0; round < 2; round++) {
            assert_int_equal(acyclic_num_edges(a), m);
            for (int e = 0; e < m; e++) {
                int f, t, l;
                acyclic_edge_ends(a, e, &f, &t, &l);
                assert_int_equal(f, ef[e]); assert_int_equal(t, et[e]); assert_int_equal(l, el[e]);
            }
            gsat_solve(s, NULL, 0);
        }
        free(ef); free(et); free(el);
        gsat_free(s);
    }
}

/* Many guarded edges out of old nodes between solves, in blocks of 2 and
 * 4 nodes: the fresh lists, the blocks' rebuilds and the pool's
 * compaction all run (counted), the arrays are checked against the
 * records after every solve (acyclic_verify_order), and every answer and
 * model agrees with a solver in blocks of 4096 nodes (all on the lists)
 * with arrays of both sides: the same search, also when the other keeps
 * out-edges only (theory_in_arrays 0: its scans from the forward set
 * take the hits in the order a scan from the backward set would). */
static void fresh_edges_on_old_nodes(void **state) {
    (void)state;
    rng = 0xF4E5ULL;
    int64_t compactions = 0, builds = 0;
    for (int r = 0; r < 20; r++) {
        gsat *s[2] = { gsat_new(), gsat_new() };
        int nodes = 60, vars = 400, g[2];
        for (int k = 0; k < 2; k++) {
            gsat_reserve_vars(s[k], vars);
            if (k) acyclic_set_block_shift(acyclic_of(s[k]), 1 + (r & 1));
            if (k) assert_int_equal(gsat_set_option(s[k], "theory_in_arrays", (r >> 1) & 1), 1);
            g[k] = gsat_graph_new(s[k], nodes);
        }
        for (int stage = 0; stage < 12; stage++) {
            int n = 20 + pick(120);
            for (int i = 0; i < n; i++) {
                int x = pick(stage < 2 ? nodes : 8), y = pick(nodes), v = 1 + pick(vars), lit = pick(2) ? v : -v;
                if (x == y) continue;
                for (int k = 0; k < 2; k++) gsat_graph_add_edge(s[k], g[k], x, y, lit);
            }
            int as[2] = { 1 + pick(vars), -(1 + pick(vars)) };
            int na = pick(3), a0 = gsat_solve(s[0], as, na), a1 = gsat_solve(s[1], as, na);
            assert_int_equal(a1, a0);
            /* (debug builds run acyclic_verify at every final check; between
             * solves a level-0 fact may not be told to the theory yet) */
            assert_true(acyclic_verify_order(acyclic_of(s[0])));
            assert_true(acyclic_verify_order(acyclic_of(s[1])));
            if (a0 == GSAT_SAT)
                for (int v = 1; v <= vars; v++) assert_int_equal(gsat_value(s[1], v), gsat_value(s[0], v));
        }
        acyclic_stats st;
        acyclic_get_stats(acyclic_of(s[1]), &st);
        compactions += st.pool_compactions;
        builds += st.block_builds;
        gsat_free(s[0]); gsat_free(s[1]);
    }
    assert_true(builds > 100);
    assert_true(compactions > 10);
}

/* Empty adjacency before any arc exists (issue 30, a UBSan finding in a
 * fuzz target): the order has no list room yet, so a search reading an
 * empty list computed NULL + 0, undefined in C.  (1) Branching: only
 * always-on edges (frozen, none on the lists) and a guard whose two
 * values both turn on a backward edge, so the phase heuristic searches
 * the order (th_phase, closes_cycle); both values close a cycle.  (2)
 * Propagation: after a first solve, guarded edges on new nodes of a
 * block not built yet, and an insertion that reorders, so the scan reads
 * that block's missing arrays.  gcc's UBSan has no such check: clang's
 * (-fsanitize=pointer-overflow) stops on both without the fix;
 * test_pk_order's empty_lists_are_valid fails under any compiler. */
static void empty_adjacency_is_valid(void **state) {
    (void)state;
    gsat *s = gsat_new();
    int x = gsat_new_var(s), g = gsat_graph_new(s, 3);
    assert_true(gsat_graph_add_edge(s, g, 0, 1, 0) >= 0);
    assert_true(gsat_graph_add_edge(s, g, 1, 2, 0) >= 0);
    assert_true(gsat_graph_add_edge(s, g, 2, 0, x) >= 0);
    assert_true(gsat_graph_add_edge(s, g, 1, 0, -x) >= 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_UNSAT);
    gsat_free(s);

    s = gsat_new();
    acyclic_set_block_shift(acyclic_of(s), 1);
    int y = gsat_new_var(s), z = gsat_new_var(s);
    g = gsat_graph_new(s, 2);
    assert_true(gsat_graph_add_edge(s, g, 0, 1, y) >= 0);
    assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
    /* nodes 2..5, blocks 1 (2, 3) and 2 (4, 5); no guarded edge leaves
     * 2 or 3, so block 1's out-arrays are never built; z's edge 5->2 goes
     * against the order, and its window (2, 3 forward; 5, 4 backward) is
     * scanned from 2 and 3's out-edges */
    int h = gsat_graph_new(s, 4);
    assert_true(gsat_graph_add_edge(s, h, 0, 1, 0) >= 0);
    assert_true(gsat_graph_add_edge(s, h, 2, 3, 0) >= 0);
    assert_true(gsat_graph_add_edge(s, h, 3, 0, z) >= 0);
    int assume[] = { z };
    assert_int_equal(gsat_solve(s, assume, 1), GSAT_SAT);
    assert_int_equal(gsat_value(s, z), 1);
    assert_true(acyclic_verify_order(acyclic_of(s)));
    gsat_free(s);
}

/* Branching when both values of a guard turn on an edge against the
 * order (acyclic_phase.c): x's edge 5->4 spans one position of the order,
 * -x's edge 9->0 nine, and the engine's saved phase (false) offers -x.
 * theory_phase 2, the default, takes x, the smaller window; theory_phase
 * 1 keeps the saved phase.  Neither closes a cycle, so the model shows the
 * value branched on.  A second guard y whose spans tie (3->1 and 8->6)
 * keeps the saved phase under both styles. */
static void phase_prefers_the_smaller_span(void **state) {
    (void)state;
    for (int style = 1; style <= 2; style++) {
        gsat *s = gsat_new();
        assert_int_equal(gsat_set_option(s, "theory_phase", style), 1);
        int x = gsat_new_var(s), y = gsat_new_var(s), g = gsat_graph_new(s, 10);
        assert_true(gsat_graph_add_edge(s, g, 5, 4, x) >= 0);
        assert_true(gsat_graph_add_edge(s, g, 9, 0, -x) >= 0);
        assert_true(gsat_graph_add_edge(s, g, 3, 1, y) >= 0);
        assert_true(gsat_graph_add_edge(s, g, 8, 6, -y) >= 0);
        assert_int_equal(gsat_solve(s, NULL, 0), GSAT_SAT);
        assert_int_equal(gsat_value(s, x), style == 2 ? 1 : -1);
        assert_int_equal(gsat_value(s, y), -1);
        gsat_stats st;
        gsat_get_stats(s, &st);
        assert_int_equal(st.conflicts, 0);
        gsat_free(s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_edges_same_as_one_by_one),
        cmocka_unit_test(each_edges_same_as_one_by_one),
        cmocka_unit_test(edge_ends_of_mixed_runs),
        cmocka_unit_test(fresh_edges_on_old_nodes),
        cmocka_unit_test(empty_adjacency_is_valid),
        cmocka_unit_test(random_no_propagation),
        cmocka_unit_test(random_window_propagation),
        cmocka_unit_test(random_bounded_propagation),
        cmocka_unit_test(modes_agree_on_larger),
        cmocka_unit_test(random_always_chronological),
        cmocka_unit_test(partial_backtracking_across_compaction),
        cmocka_unit_test(explanation_prefers_fixed_edges),
        cmocka_unit_test(propagation_forces_edges_off),
        cmocka_unit_test(self_loops_negative_guards_shared_guards),
        cmocka_unit_test(graphs_are_independent),
        cmocka_unit_test(explanations_are_cycles),
        cmocka_unit_test(phase_prefers_the_smaller_span),
    };
    return cmocka_run_group_tests_name("acyclic", tests, NULL, NULL);
}
