/* test_monosat.c — MonoSAT's C API over gsat (include/monosat.h): literals
 * and constants, every gate and assertion against its truth table, graphs
 * with acyclicity against brute force, assumptions, conflict clauses and
 * cores, limits, decision hints, and the loud failures (bad literals,
 * unsupported arguments, an acyclicity literal that does not hold). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "monosat.h"
#include "cnf_util.h"

/* Errors go to a handler that records them (the default one aborts). */
static int errors;
static char last_error[600];
static void record_error(const char *message, void *data) {
    (void)data;
    errors++;
    snprintf(last_error, sizeof last_error, "%s", message);
}
static int setup(void **state) {
    (void)state;
    errors = 0;
    last_error[0] = 0;
    monosat_set_error_handler(record_error, NULL);
    return 0;
}

static int neg(int lit) { return lit ^ 1; }

/* Solve with the inputs fixed to the bits of a; 1 if SAT. */
static int solve_with(SolverPtr S, const int *in, int n, uint32_t a) {
    int as[16];
    for (int i = 0; i < n; i++) as[i] = ((a >> i) & 1) ? in[i] : neg(in[i]);
    return solveAssumptions(S, as, n);
}

static void constants_and_variables(void **state) {
    (void)state;
    SolverPtr S = newSolver();
    assert_int_equal(nVars(S), 1);                     /* variable 0 is True */
    assert_int_equal(true_lit(S), 0);
    assert_int_equal(getConstantModel_Literal(S, 0), 0);
    assert_int_equal(getConstantModel_Literal(S, 1), 1);
    assert_int_equal(getModel_Literal(S, 0), 2);       /* no model before a solve */
    assert_false(hasModel(S));
    int v = newVar(S);
    assert_int_equal(v, 1);
    assert_int_equal(nVars(S), 2);
    assert_int_equal(varToLit(v, false), 2);
    assert_int_equal(varToLit(v, true), 3);
    assert_int_equal(litToVar(3), 1);
    assert_true(solve(S));
    assert_true(hasModel(S));
    assert_int_equal(getModel_Literal(S, 0), 0);
    assert_int_not_equal(getModel_Literal(S, 2), getModel_Literal(S, 3));
    assert_true(addUnitClause(S, 3));
    assert_int_equal(getConstantModel_Literal(S, 2), 1);
    assert_true(ok(S));
    assert_false(addUnitClause(S, 2));                 /* contradiction at the top level */
    assert_false(ok(S));
    assert_false(solve(S));
    assert_int_equal(getConflictClause(S, NULL, 0), 0);
    assert_int_equal(errors, 0);
    assert_non_null(strstr(getVersion(), "gsat"));
    deleteSolver(S);
}

typedef int (*gate2)(SolverPtr, int, int);
typedef int (*gaten)(SolverPtr, int *, int);

static int eval2(const char *name, int a, int b) {
    if (!strcmp(name, "And")) return a && b;
    if (!strcmp(name, "Or")) return a || b;
    if (!strcmp(name, "Nand")) return !(a && b);
    if (!strcmp(name, "Nor")) return !(a || b);
    if (!strcmp(name, "Xor")) return a != b;
    if (!strcmp(name, "Xnor") || !strcmp(name, "Equal")) return a == b;
    if (!strcmp(name, "Implies")) return !a || b;
    return -1;
}

/* A gate's output literal agrees with its truth table under every input. */
static void two_input_gates_match_truth_tables(void **state) {
    (void)state;
    struct { const char *name; gate2 f; } gates[] = {
        {"And", And}, {"Or", Or}, {"Nand", Nand}, {"Nor", Nor}, {"Xor", Xor},
        {"Xnor", Xnor}, {"Equal", Equal}, {"Implies", Implies},
    };
    for (size_t k = 0; k < sizeof gates / sizeof *gates; k++) {
        SolverPtr S = newSolver();
        int in[2] = {2 * newVar(S), 2 * newVar(S)};
        /* each polarity combination of the inputs */
        for (int pol = 0; pol < 4; pol++) {
            int a = in[0] ^ (pol & 1), b = in[1] ^ (pol >> 1);
            int g = gates[k].f(S, a, b);
            assert_true(g >= 0);
            for (uint32_t x = 0; x < 4; x++) {
                assert_true(solve_with(S, in, 2, x));
                int va = ((x & 1) != 0) ^ (pol & 1), vb = ((x >> 1) & 1) ^ (pol >> 1);
                assert_int_equal(getModel_Literal(S, g) == 0, eval2(gates[k].name, va, vb));
            }
        }
        assert_int_equal(errors, 0);
        deleteSolver(S);
    }
}

/* Gates over equal, opposite or constant inputs give inputs or constants. */
static void gates_simplify_like_monosat(void **state) {
    (void)state;
    SolverPtr S = newSolver();
    int a = 2 * newVar(S), b = 2 * newVar(S), before = nVars(S);
    assert_int_equal(And(S, a, a), a);
    assert_int_equal(And(S, a, neg(a)), 1);
    assert_int_equal(And(S, 0, a), a);
    assert_int_equal(And(S, a, 1), 1);
    assert_int_equal(Or(S, a, neg(a)), 0);
    assert_int_equal(Or(S, 0, a), 0);
    assert_int_equal(Or(S, 1, b), b);
    assert_int_equal(Xor(S, a, a), 1);
    assert_int_equal(Xor(S, a, 0), neg(a));
    assert_int_equal(Xnor(S, a, neg(a)), 1);
    int two[2] = {0, a};
    assert_int_equal(Ands(S, two, 2), a);
    assert_int_equal(Ands(S, NULL, 0), 0);
    assert_int_equal(Ors(S, NULL, 0), 1);
    assert_int_equal(nVars(S), before);                /* no new variables */
    Assert(S, b);                                      /* b is a constant from now on */
    assert_int_equal(And(S, a, b), a);
    assert_int_equal(Or(S, a, b), 0);
    assert_int_equal(nVars(S), before);
    assert_int_equal(errors, 0);
    deleteSolver(S);
}

static int count_bits(uint32_t x) { int c = 0; for (; x; x >>= 1) c += x & 1; return c; }

/* n-ary gates and their _ forms with a given output, every input. */
static void n_ary_gates_match_truth_tables(void **state) {
    (void)state;
    for (int n = 1; n <= 4; n++) {
        SolverPtr S = newSolver();
        int in[4];
        for (int i = 0; i < n; i++) in[i] = 2 * newVar(S);
        int g_and = Ands(S, in, n), g_or = Ors(S, in, n), g_xor = Xors(S, in, n);
        int g_nand = Nands(S, in, n), g_nor = Nors(S, in, n), g_xnor = Xnors(S, in, n);
        int o_and = 2 * newVar(S), o_or = 2 * newVar(S);
        assert_int_equal(Ands_(S, in, n, o_and), o_and);
        assert_int_equal(Ors_(S, in, n, o_or), o_or);
        int ite_out = n >= 3 ? Ite(S, in[0], in[1], in[2]) : -1;
        int ite_given = n >= 3 ? 2 * newVar(S) : -1;
        if (n >= 3) assert_int_equal(Ite_(S, in[0], in[1], in[2], ite_given), ite_given);
        for (uint32_t x = 0; x < (1u << n); x++) {
            assert_true(solve_with(S, in, n, x));
            int all = x == (1u << n) - 1, any = x != 0, odd = count_bits(x) & 1;
            assert_int_equal(getModel_Literal(S, g_and) == 0, all);
            assert_int_equal(getModel_Literal(S, o_and) == 0, all);
            assert_int_equal(getModel_Literal(S, g_or) == 0, any);
            assert_int_equal(getModel_Literal(S, o_or) == 0, any);
            assert_int_equal(getModel_Literal(S, g_xor) == 0, odd);
            assert_int_equal(getModel_Literal(S, g_nand) == 0, !all);
            assert_int_equal(getModel_Literal(S, g_nor) == 0, !any);
            assert_int_equal(getModel_Literal(S, g_xnor) == 0, !odd);
            if (n >= 3) {
                int want = (x & 1) ? (x >> 1) & 1 : (x >> 2) & 1;
                assert_int_equal(getModel_Literal(S, ite_out) == 0, want);
                assert_int_equal(getModel_Literal(S, ite_given) == 0, want);
            }
        }
        assert_int_equal(errors, 0);
        deleteSolver(S);
    }
}

/* Each assertion allows exactly the input assignments it describes. */
typedef void (*assert2)(SolverPtr, int, int);
typedef void (*assertn)(SolverPtr, int *, int);
static void assertions_allow_exactly_their_models(void **state) {
    (void)state;
    struct { const char *name; assert2 f; int (*ok)(int, int); } two[] = {
        {"AssertOr", AssertOr, NULL}, {"AssertAnd", AssertAnd, NULL}, {"AssertNand", AssertNand, NULL},
        {"AssertNor", AssertNor, NULL}, {"AssertXor", AssertXor, NULL}, {"AssertXnor", AssertXnor, NULL},
        {"AssertImplies", AssertImplies, NULL}, {"AssertEqual", AssertEqual, NULL},
    };
    for (size_t k = 0; k < sizeof two / sizeof *two; k++) {
        SolverPtr S = newSolver();
        int in[2] = {2 * newVar(S), 2 * newVar(S)};
        two[k].f(S, in[0], in[1]);
        const char *base = two[k].name + 6;             /* "Or", "And", ... */
        for (uint32_t x = 0; x < 4; x++)
            assert_int_equal(solve_with(S, in, 2, x), eval2(base, (int)(x & 1), (int)(x >> 1)));
        deleteSolver(S);
    }
    struct { assertn f; int kind; } many[] = {
        {AssertOrs, 0}, {AssertAnds, 1}, {AssertNands, 2}, {AssertNors, 3}, {AssertXors, 4},
        {AssertXnors, 5}, {AssertAllSame, 6}, {AssertAMO, 7}, {AssertExactlyOne, 8}, {at_most_one_lit, 7},
    };
    for (int n = 1; n <= 9; n++)
        for (size_t k = 0; k < sizeof many / sizeof *many; k++) {
            if (n > 4 && many[k].kind != 7 && many[k].kind != 8) continue;   /* the counters go further */
            SolverPtr S = newSolver();
            int in[9];
            for (int i = 0; i < n; i++) in[i] = 2 * newVar(S);
            many[k].f(S, in, n);
            for (uint32_t x = 0; x < (1u << n); x++) {
                int c = count_bits(x), full = (1u << n) - 1, want = 0;
                switch (many[k].kind) {
                case 0: want = c > 0; break;
                case 1: want = (int)x == full; break;
                case 2: want = (int)x != full; break;
                case 3: want = c == 0; break;
                case 4: want = c & 1; break;
                case 5: want = !(c & 1); break;
                case 6: want = x == 0 || (int)x == full; break;
                case 7: want = c <= 1; break;
                case 8: want = c == 1; break;
                }
                assert_int_equal(solve_with(S, in, n, x), want);
            }
            deleteSolver(S);
        }
    /* implications from a guard literal */
    SolverPtr S = newSolver();
    int in[3] = {2 * newVar(S), 2 * newVar(S), 2 * newVar(S)};
    AssertImpliesOr(S, in[0], in + 1, 2);
    int g = ImpliesOr(S, in + 1, 2), h = ImpliesAnd_(S, in + 1, 2, 2 * newVar(S));
    for (uint32_t x = 0; x < 8; x++) {
        int want = !(x & 1) || (x >> 1);
        assert_int_equal(solve_with(S, in, 3, x), want);
        if (want) {
            if (getModel_Literal(S, g) == 0) assert_true(x >> 1);
            if (getModel_Literal(S, h) == 0) assert_true((x >> 1) == 3);
        }
    }
    deleteSolver(S);
    assert_int_equal(errors, 0);
}

/* The either/or graph of examples/either_or_graph.c through MonoSAT's API,
 * acyclicity asserted: models, assumptions, conflict clause, core. */
static void graph_with_asserted_acyclicity(void **state) {
    (void)state;
    SolverPtr S = newSolver();
    GraphTheorySolver_long G = newGraph(S);
    for (int i = 0; i < 4; i++) assert_int_equal(newNode(S, G), i);
    int ab = newEdge(S, G, 0, 1, 1), cd = newEdge(S, G, 2, 3, 1);
    int bc = newEdge(S, G, 1, 2, 1), cb = newEdge(S, G, 2, 1, 7);
    int da = newEdge(S, G, 3, 0, 1), ad = newEdge(S, G, 0, 3, 1);
    assert_int_equal(nEdges(S, G), 6);
    assert_int_equal(nNodes(S, G), 4);
    assert_int_equal(getEdgeLiteralN(S, G, 3), cb);
    assert_int_equal(getEdge_from(S, G, cb), 2);
    assert_int_equal(getEdge_to(S, G, cb), 1);
    assert_int_equal(getEdge_weight_const(S, G, cb), 7);
    assert_false(edgeHasBVWeight(S, G, cb));
    int x = 2 * newVar(S), y = 2 * newVar(S), z = 2 * newVar(S);
    Assert(S, ab); Assert(S, cd);
    AssertEqual(S, bc, x); AssertEqual(S, cb, neg(x));   /* x: b before c */
    AssertXnor(S, da, y); AssertXor(S, ad, y);           /* y: d before a */
    int acyc = acyclic_directed(S, G);
    assert_int_equal(acyclic_directed(S, G), acyc);      /* the same literal every time */
    Assert(S, acyc);
    assert_true(solve(S));
    assert_false(getModel_Literal(S, x) == 0 && getModel_Literal(S, y) == 0);
    int both[3] = {x, y, z};
    assert_false(solveAssumptions(S, both, 3));
    int n = getConflictClause(S, NULL, 0);
    assert_int_equal(n, 2);
    int confl[4] = {-1, -1, -1, -1};
    assert_int_equal(getConflictClause(S, confl, 4), 2);
    assert_true((confl[0] == neg(x) && confl[1] == neg(y)) || (confl[0] == neg(y) && confl[1] == neg(x)));
    int core[3] = {z, x, y};
    assert_int_equal(minimizeUnsatCore(S, core, 3), 2);
    assert_true((core[0] == x && core[1] == y) || (core[0] == y && core[1] == x));
    int sat_set[2] = {x, z};
    assert_int_equal(minimizeUnsatCore(S, sat_set, 2), -1);
    /* edges added after the first solve join the gsat graph */
    int db = newEdge(S, G, 3, 1, 1);
    Assert(S, x);
    int w[1] = {db};
    assert_false(solveAssumptions(S, w, 1));             /* with x: b -> c -> d -> b */
    assert_true(solve(S));
    assert_int_equal(getModel_Literal(S, db), 1);
    assert_int_equal(errors, 0);
    deleteSolver(S);
}

/* Random small graphs with random edge literals and clauses: the answer
 * and the model agree with brute force over the variables. */
typedef struct graph_case { int n_nodes, n_edges, from[12], to[12], lit[12]; } graph_case;

static int graph_acyclic(const graph_case *gc, uint32_t a) {
    /* repeatedly remove nodes without incoming enabled edges */
    int indeg[8] = {0}, removed[8] = {0}, left = gc->n_nodes;
    for (int e = 0; e < gc->n_edges; e++) {
        int l = gc->lit[e], on = ((a >> (l >> 1)) & 1) ^ (l & 1);
        if (on) indeg[gc->to[e]]++;
    }
    for (int progress = 1; progress;) {
        progress = 0;
        for (int v = 0; v < gc->n_nodes; v++) {
            if (removed[v] || indeg[v]) continue;
            removed[v] = 1; left--; progress = 1;
            for (int e = 0; e < gc->n_edges; e++) {
                int l = gc->lit[e], on = ((a >> (l >> 1)) & 1) ^ (l & 1);
                if (on && gc->from[e] == v) indeg[gc->to[e]]--;
            }
        }
    }
    return left == 0;
}

static void random_graphs_match_brute_force(void **state) {
    (void)state;
    int sat = 0, unsat = 0;
    for (uint64_t seed = 1; seed <= 150; seed++) {
        rng r = {seed * 0x2545f4914f6cdd1dull};
        SolverPtr S = newSolver();
        const int nv = 7;                        /* user variables 1..7 (bit v of a) */
        for (int i = 0; i < nv; i++) newVar(S);
        graph_case gc = {4 + rng_int(&r, 3), 6 + rng_int(&r, 7), {0}, {0}, {0}};
        GraphTheorySolver_long G = newGraph(S);
        for (int i = 0; i < gc.n_nodes; i++) newNode(S, G);
        cnf f;                                    /* the clauses again, for brute force: */
        cnf_init(&f, nv + 1);                     /* DIMACS v+1 = MonoSAT v = bit v (bit 0: True) */
        for (int e = 0; e < gc.n_edges; e++) {
            gc.from[e] = rng_int(&r, gc.n_nodes);
            gc.to[e] = rng_int(&r, gc.n_nodes);
            gc.lit[e] = 2 * (1 + rng_int(&r, nv)) + rng_int(&r, 2);
            int el = newEdge(S, G, gc.from[e], gc.to[e], 1);
            if (rng_int(&r, 2)) AssertEqual(S, el, gc.lit[e]);     /* tied both ways */
            else { AssertImplies(S, el, gc.lit[e]); AssertImplies(S, gc.lit[e], el); }
        }
        for (int k = 0; k < 3; k++) {             /* a few clauses over the user variables */
            int c[2], d[2];
            for (int i = 0; i < 2; i++) { c[i] = 2 * (1 + rng_int(&r, nv)) + rng_int(&r, 2); d[i] = (c[i] & 1) ? -(c[i] >> 1) - 1 : (c[i] >> 1) + 1; }
            addClause(S, c, 2);
            cnf_add(&f, d, 2);
        }
        Assert(S, acyclic_directed(S, G));
        int want = 0;
        for (uint32_t a = 0; a < (1u << (nv + 1)) && !want; a += 2) {     /* bit 0 is True: skip odd */
            uint32_t a1 = a | 1u;
            if (cnf_satisfied_by_bits(&f, a1) && graph_acyclic(&gc, a1)) want = 1;
        }
        int got = solve(S);
        assert_int_equal(got, want);
        if (got) {
            uint32_t m = 1;
            for (int v = 1; v <= nv; v++) if (getModel_Literal(S, 2 * v) == 0) m |= 1u << v;
            assert_true(graph_acyclic(&gc, m));
            assert_true(cnf_satisfied_by_bits(&f, m));
            sat++;
        } else {
            unsat++;
        }
        cnf_free(&f);
        deleteSolver(S);
    }
    assert_int_equal(errors, 0);
    assert_true(sat > 20 && unsat > 20);
}

/* Cobra's way: acyclicity as an assumption.  Solves that assume it are
 * answered; one that does not is refused, loudly, and so is every later one. */
static void acyclicity_by_assumption_and_refusal(void **state) {
    (void)state;
    SolverPtr S = newSolver();
    GraphTheorySolver_long G = newGraph(S);
    newNode(S, G); newNode(S, G);
    int e01 = newEdge(S, G, 0, 1, 1), e10 = newEdge(S, G, 1, 0, 1);
    int acyc = acyclic_directed(S, G);
    int both[3] = {acyc, e01, e10};
    assert_false(solveAssumptions(S, both, 3));
    assert_int_equal(getConflictClause(S, NULL, 0), 3);
    int one[2] = {acyc, e01};
    assert_true(solveAssumptions(S, one, 2));
    assert_int_equal(getModel_Literal(S, e10), 1);
    int core[3] = {e01, acyc, e10};
    assert_int_equal(minimizeUnsatCore(S, core, 3), 3);     /* the acyclicity literal stays */
    assert_int_equal(errors, 0);
    /* without it: an error naming the call and the literal, no answer */
    assert_false(solve(S));
    assert_int_equal(errors, 1);
    assert_int_equal(strncmp(last_error, "solve: ", 7), 0);  /* the call the caller made */
    assert_non_null(strstr(last_error, "acyclicity literal"));
    assert_false(solveAssumptions(S, one, 2));             /* refused from now on */
    assert_int_equal(errors, 2);
    assert_non_null(strstr(last_error, "had an error before"));
    assert_int_equal(solveLimited(S), 2);
    assert_int_equal(errors, 3);
    assert_false(ok(S));
    deleteSolver(S);

    /* asserted false: reified acyclicity is refused too */
    S = newSolver();
    G = newGraph(S);
    newNode(S, G);
    Assert(S, neg(acyclic_directed(S, G)));
    assert_false(solve(S));
    assert_int_equal(errors, 4);
    assert_non_null(strstr(last_error, "reified"));
    deleteSolver(S);
}

/* Clauses that contradict each other, then the acyclicity literal
 * asserted: an inconsistent solver takes no more clauses, so the literal
 * never becomes fixed, yet every solve is UNSAT, with no error.  Checked
 * with the recording handler and, in a child, with the default one (which
 * aborts on any error). */
static void contradiction_before_acyclicity(SolverPtr S, int assume) {
    int x = 2 * newVar(S);
    addUnitClause(S, x);
    addUnitClause(S, neg(x));
    GraphTheorySolver_long G = newGraph(S);
    newNode(S, G); newNode(S, G);
    newEdge(S, G, 0, 1, 1);
    int acyc = acyclic_directed(S, G);
    if (!assume) Assert(S, acyc);
    int n = assume ? 1 : 0;
    assert_false(n ? solveAssumptions(S, &acyc, 1) : solve(S));
    assert_int_equal(n ? solveAssumptionsLimited(S, &acyc, 1) : solveLimited(S), 1);
    assert_int_equal(getConflictClause(S, NULL, 0), 0);   /* no assumption needed */
    assert_false(ok(S));
}

static void contradictory_clauses_then_acyclicity_is_unsat(void **state) {
    (void)state;
    for (int assume = 0; assume < 2; assume++) {
        SolverPtr S = newSolver();
        contradiction_before_acyclicity(S, assume);
        assert_int_equal(errors, 0);
        deleteSolver(S);
    }
    monosat_set_error_handler(NULL, NULL);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        SolverPtr S = newSolver();
        int x = 2 * newVar(S);
        addUnitClause(S, x);
        addUnitClause(S, neg(x));
        GraphTheorySolver_long G = newGraph(S);
        newNode(S, G);
        Assert(S, acyclic_directed(S, G));
        _exit(solve(S) ? 3 : 0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    monosat_set_error_handler(record_error, NULL);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void bad_arguments_fail_loudly(void **state) {
    (void)state;
    SolverPtr S = newSolver();
    assert_false(addUnitClause(S, 2 * 5));                 /* variable 5 does not exist */
    assert_int_equal(errors, 1);
    assert_non_null(strstr(last_error, "addClause"));
    deleteSolver(S);

    S = newSolver();
    assert_int_equal(And(S, 0, -3), -1);
    assert_non_null(strstr(last_error, "And:"));
    assert_null(newGraph_Named(S, "w", 8));
    assert_non_null(strstr(last_error, "bit-vector"));
    GraphTheorySolver_long G = newGraph_Named(S, "g1", -1);
    assert_ptr_equal(getGraph(S, "g1"), G);
    assert_string_equal(getGraphName(S, G), "g1");
    assert_null(getGraph(S, "nope"));
    assert_int_equal(newNode_Named(S, G, "n"), -1);
    assert_non_null(strstr(last_error, "node names"));
    assert_int_equal(newEdge(S, G, 0, 1, 1), -1);          /* no nodes yet */
    assert_int_equal(nNodes(S, (GraphTheorySolver_long)(uintptr_t)99), 0);
    assert_non_null(strstr(last_error, "not a graph"));
    setPropagationLimit(S, -1);                            /* "none" is fine */
    int before = errors;
    setPropagationLimit(S, 100);
    assert_int_equal(errors, before + 1);
    assert_non_null(strstr(last_error, "propagation"));
    deleteSolver(S);

    errors = 0;
    S = newSolver_arg("monosat --restart=0 -theory_propagate=2");
    assert_non_null(S);
    assert_int_equal(errors, 0);
    deleteSolver(S);
    assert_null(newSolver_arg("monosat -decide-theories"));
    assert_int_equal(errors, 1);
    assert_non_null(strstr(last_error, "decide-theories"));
    char *argv[] = {"monosat", "--no_such_option=1"};
    assert_null(newSolver_args(2, argv));
    assert_int_equal(errors, 2);
    assert_non_null(strstr(last_error, "no_such_option"));
}

/* Limits bind solveLimited only; hints are kept and reported back. */
static void limits_and_hints(void **state) {
    (void)state;
    SolverPtr S = newSolver();
    int p[7][6];
    for (int i = 0; i < 7; i++) {
        for (int j = 0; j < 6; j++) p[i][j] = 2 * newVar(S);
        addClause(S, p[i], 6);
    }
    for (int j = 0; j < 6; j++)
        for (int a = 0; a < 7; a++)
            for (int b = a + 1; b < 7; b++) addBinaryClause(S, neg(p[a][j]), neg(p[b][j]));
    setConflictLimit(S, 10);
    assert_int_equal(solveLimited(S), 2);
    assert_int_equal(solveLimited(S), 2);                  /* per call */
    assert_true(nConflicts(S) >= 20);
    assert_false(solve(S));                                /* solve() ignores limits */
    assert_int_equal(solveLimited(S), 1);
    assert_true(nPropagations(S) > 0);
    deleteSolver(S);

    S = newSolver();
    int v = newVar(S);
    assert_true(isDecisionVar(S, v));
    setDecisionVar(S, v, false);
    assert_false(isDecisionVar(S, v));
    setDecisionPolarity(S, v, true);
    assert_true(getDecisionPolarity(S, v));
    assert_int_equal(getDecisionPriority(S, v), 0);
    assert_string_equal(getLiteralName(S, 2 * v, 0), "");
    assert_false(hasLiteralWithName(S, "x"));
    assert_int_equal(errors, 0);
    deleteSolver(S);
}

/* The per-call paths (clauses, variables, edges) have a common way and an
 * out-of-line one (errors, long clauses, growing records): every check
 * still fails loudly, and records stay right past the first room. */
static void per_call_paths_check_and_grow(void **state) {
    (void)state;
    SolverPtr S = newSolver();
    int x = 2 * newVar(S), y = 2 * newVar(S);          /* variables 1, 2 */
    int before = errors;
    assert_false(addClause(S, (int[]){x, -3}, 2));       /* negative literal */
    assert_int_equal(errors, before + 1);
    assert_non_null(strstr(last_error, "addClause: literal -3"));
    assert_false(addBinaryClause(S, x, 2 * nVars(S)));   /* one past the last variable */
    assert_non_null(strstr(last_error, "literal 6 "));
    assert_false(addClause(S, (int[]){x}, -1));
    assert_non_null(strstr(last_error, "bad literal array (-1"));
    assert_false(addClause(S, NULL, 2));
    assert_non_null(strstr(last_error, "bad literal array (2"));
    assert_int_equal(errors, before + 4);
    deleteSolver(S);

    /* long clauses (past the scratch buffer) are checked just as well */
    S = newSolver();
    enum { LONG = 300 };
    int c[LONG];
    for (int i = 0; i < LONG; i++) c[i] = 2 * newVar(S) + 1;     /* all negative */
    assert_true(addClause(S, c, LONG));
    for (int i = 0; i < LONG - 1; i++) assert_true(addUnitClause(S, c[i] ^ 1));
    assert_true(solve(S));
    assert_int_equal(getModel_Literal(S, c[LONG - 1]), 0);     /* the one left must hold */
    c[LONG - 1] = -8;
    before = errors;
    assert_false(addClause(S, c, LONG));
    assert_int_equal(errors, before + 1);
    assert_non_null(strstr(last_error, "literal -8"));
    deleteSolver(S);

    /* the empty clause is no error: it makes the solver unsatisfiable */
    errors = 0;
    S = newSolver();
    assert_false(addClause(S, NULL, 0));
    assert_int_equal(errors, 0);
    assert_false(ok(S));
    deleteSolver(S);

    /* thousands of variables and edges, past the first room of each */
    S = newSolver();
    for (int i = 0; i < 30000; i++) newVar(S);
    GraphTheorySolver_long G = newGraph(S), H = newGraph(S);
    int a = newNode(S, G), b = newNode(S, G), h0 = newNode(S, H), h1 = newNode(S, H);
    enum { EDGES = 25000 };
    static int lit[EDGES];
    for (int i = 0; i < EDGES; i++) {
        lit[i] = newEdge(S, G, i % 2 ? b : a, i % 2 ? a : b, i);
        assert_int_equal(lit[i], 2 * (30001 + i));
    }
    int hl = newEdge(S, H, h0, h1, 1);
    assert_int_equal(nVars(S), 30001 + EDGES + 1);
    assert_int_equal(nEdges(S, G), EDGES);
    for (int i = 0; i < EDGES; i += 997) {
        assert_int_equal(getEdgeLiteralN(S, G, i), lit[i]);
        assert_int_equal(getEdge_from(S, G, lit[i]), i % 2 ? b : a);
        assert_int_equal(getEdge_to(S, G, lit[i]), i % 2 ? a : b);
        assert_int_equal(getEdge_weight_const(S, G, lit[i]), i);
    }
    errors = 0;
    assert_int_equal(getEdge_from(S, G, hl), -1);              /* H's edge, asked of G */
    assert_non_null(strstr(last_error, "not an edge of this graph"));
    assert_int_equal(getEdge_to(S, G, lit[7] ^ 1), -1);        /* negated */
    assert_int_equal(getEdge_to(S, G, 2), -1);                 /* a plain variable */
    assert_int_equal(getEdge_to(S, G, -2), -1);
    assert_int_equal(newEdge(S, G, -1, a, 1), -1);
    assert_non_null(strstr(last_error, "edge -1 -> 0: no such node"));
    assert_int_equal(newEdge(S, G, a, 2, 1), -1);
    assert_int_equal(errors, 6);
    deleteSolver(S);

    /* the same, solved: one edge each way, tied to variables of the caller */
    errors = 0;
    S = newSolver();
    int u = 2 * newVar(S), w = 2 * newVar(S);
    G = newGraph(S);
    a = newNode(S, G), b = newNode(S, G);
    for (int i = 0; i < EDGES; i++) {
        lit[i] = newEdge(S, G, i % 2 ? b : a, i % 2 ? a : b, 1);
        AssertEqual(S, lit[i], i % 2 ? w : u);
    }
    Assert(S, acyclic_directed(S, G));
    assert_true(solveAssumptions(S, (int[]){u}, 1));
    assert_int_equal(getModel_Literal(S, w), 1);               /* b -> a would close a cycle */
    assert_int_equal(getModel_Literal(S, lit[EDGES - 1]), 1);
    assert_false(solveAssumptions(S, (int[]){u, w}, 2));
    assert_int_equal(errors, 0);
    (void)x; (void)y;
    deleteSolver(S);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(constants_and_variables, setup),
        cmocka_unit_test_setup(two_input_gates_match_truth_tables, setup),
        cmocka_unit_test_setup(gates_simplify_like_monosat, setup),
        cmocka_unit_test_setup(n_ary_gates_match_truth_tables, setup),
        cmocka_unit_test_setup(assertions_allow_exactly_their_models, setup),
        cmocka_unit_test_setup(graph_with_asserted_acyclicity, setup),
        cmocka_unit_test_setup(random_graphs_match_brute_force, setup),
        cmocka_unit_test_setup(acyclicity_by_assumption_and_refusal, setup),
        cmocka_unit_test_setup(contradictory_clauses_then_acyclicity_is_unsat, setup),
        cmocka_unit_test_setup(bad_arguments_fail_loudly, setup),
        cmocka_unit_test_setup(limits_and_hints, setup),
        cmocka_unit_test_setup(per_call_paths_check_and_grow, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
