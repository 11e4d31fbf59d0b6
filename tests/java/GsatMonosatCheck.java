// GsatMonosatCheck.java — MonoSAT's own Java API (monosat.jar, unchanged)
// running on gsat's libmonosat.so (build/jni).  Run by
// tests/e2e/monosat_java.case.sh:
//   java -Djava.library.path=build/jni -cp monosat.jar:OUT GsatMonosatCheck
// Every check compares a computed answer with one known independently
// (truth tables, brute force over small graphs); prints "checks: N passed"
// and exits 0, or names the first failure and exits 1.

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import monosat.Graph;
import monosat.Lit;
import monosat.Logic;
import monosat.Solver;

public class GsatMonosatCheck {
  static int passed = 0;

  static void check(boolean ok, String what) {
    if (!ok) {
      System.out.println("FAILED: " + what);
      System.exit(1);
    }
    passed++;
  }

  static boolean holds(Runnable r, Class<? extends Throwable> expected, String mentions) {
    try {
      r.run();
    } catch (Throwable t) {
      return expected.isInstance(t) && t.getMessage() != null && t.getMessage().contains(mentions);
    }
    return false;
  }

  // The library answering is gsat's, not MonoSAT's.
  static void version() {
    check(Solver.getVersion().contains("gsat"), "getVersion names gsat: " + Solver.getVersion());
  }

  // Gates built with Logic's static helpers agree with their truth tables.
  static void gates() {
    Solver s = new Solver();
    Lit a = new Lit(s), b = new Lit(s), c = new Lit(s);
    Lit and = Logic.and(a, b), or = Logic.or(a, b), xor = Logic.xor(a, b), xnor = Logic.xnor(a, b);
    Lit nand = Logic.nand(a, b), nor = Logic.nor(a, b), impl = Logic.implies(a, b);
    Lit ite = Logic.ite(a, b, c), and3 = Logic.and(a, b, c), or3 = Logic.or(a, b, c);
    for (int x = 0; x < 8; x++) {
      boolean va = (x & 1) != 0, vb = (x & 2) != 0, vc = (x & 4) != 0;
      check(s.solve(va ? a : a.not(), vb ? b : b.not(), vc ? c : c.not()), "gate inputs are free");
      check(and.value() == (va && vb), "and");
      check(or.value() == (va || vb), "or");
      check(xor.value() == (va ^ vb), "xor");
      check(xnor.value() == (va == vb), "xnor");
      check(nand.value() == !(va && vb), "nand");
      check(nor.value() == !(va || vb), "nor");
      check(impl.value() == (!va || vb), "implies");
      check(ite.value() == (va ? vb : vc), "ite");
      check(and3.value() == (va && vb && vc), "and of three");
      check(or3.value() == (va || vb || vc), "or of three");
    }
    // simplification, as MonoSAT: constants and repeated inputs give inputs back
    check(Logic.and(Lit.True, a) == a, "and(True, a) is a");
    check(Logic.and(a, a.not()) == Lit.False, "and(a, not a) is False");
    check(Logic.or(Lit.True, a) == Lit.True, "or(True, a) is True");
    s.close();
  }

  // Assertions allow exactly their models.
  static void assertions() {
    Solver s = new Solver();
    Lit a = new Lit(s), b = new Lit(s);
    s.assertEqual(a, b);
    check(s.solve(a, b) && s.solve(a.not(), b.not()), "assertEqual allows equal values");
    check(!s.solve(a, b.not()) && !s.solve(a.not(), b), "assertEqual forbids different values");
    List<Lit> conflict = s.getConflictClause();
    check(conflict.size() == 2 && conflict.contains(a) && conflict.contains(b.not()),
        "conflict clause negates the failed assumptions: " + conflict);
    Lit[] many = new Lit[8];
    for (int i = 0; i < 8; i++) many[i] = new Lit(s);
    s.assertAtMostOne(many);                      // > 6 literals: at_most_one_lit
    check(s.solve(many[1]) && !s.solve(many[1], many[6]), "at most one of eight");
    s.assertOr(many);
    check(s.solve(), "at least one of eight");
    int trues = 0;
    for (Lit l : many) trues += l.value() ? 1 : 0;
    check(trues == 1, "exactly one true, found " + trues);
    s.close();
  }

  // PolySI's pattern: edges equal to known literals and to and-gates of
  // constraint literals, acyclicity asserted, constraints as assumptions.
  static void polysiPattern() {
    Solver s = new Solver();
    Graph g = new Graph(s);
    int[] n = new int[4];
    for (int i = 0; i < 4; i++) n[i] = g.addNode();
    Lit known = new Lit(s);                        // t0 -> t1, always
    Lit w12 = new Lit(s), w21 = new Lit(s);        // either t1 -> t2 or t2 -> t1
    s.setDecisionLiteral(w12, false);
    s.setDecisionLiteral(w21, false);
    Lit cons = Logic.or(Logic.and(w12, w21.not()), Logic.and(w21, w12.not()));
    Lit rw = new Lit(s);                           // t2 -> t3 read edge
    Lit comp = Logic.and(w12, rw);                 // t1 -> t3 through t2
    s.setDecisionLiteral(comp, false);
    s.assertEqual(known, g.addEdge(n[0], n[1]));
    s.assertEqual(w12, g.addEdge(n[1], n[2]));
    s.assertEqual(w21, g.addEdge(n[2], n[1]));
    s.assertEqual(rw, g.addEdge(n[2], n[3]));
    s.assertEqual(comp, g.addEdge(n[1], n[3]));
    Lit back = new Lit(s);                          // t3 -> t1 closes a cycle with w12 and rw
    s.assertEqual(back, g.addEdge(n[3], n[1]));
    s.assertTrue(g.acyclic());
    check(s.solve(known, cons, rw, back), "SAT: w21 chosen");
    check(w21.value() && !w12.value(), "the model chose the acyclic side");
    check(!s.solve(known, cons, rw, back, w12), "UNSAT with w12 forced");
    List<Lit> core = s.getConflictClause();
    check(core.contains(w12.not()) && core.contains(rw.not()) && core.contains(back.not()),
        "the conflict clause names the cycle's assumptions: " + core);
    s.close();
  }

  // Random graphs: gsat's answer and model against brute force.
  static void randomGraphs() {
    Random r = new Random(7);
    int sat = 0, unsat = 0;
    for (int round = 0; round < 80; round++) {
      Solver s = new Solver();
      Graph g = new Graph(s);
      int nodes = 3 + r.nextInt(3), edges = 6 + r.nextInt(7), vars = 5;
      for (int i = 0; i < nodes; i++) g.addNode();
      Lit[] v = new Lit[vars];
      for (int i = 0; i < vars; i++) v[i] = new Lit(s);
      int[] from = new int[edges], to = new int[edges], var = new int[edges];
      boolean[] pos = new boolean[edges];
      for (int e = 0; e < edges; e++) {
        from[e] = r.nextInt(nodes);
        to[e] = r.nextInt(nodes);
        var[e] = r.nextInt(vars);
        pos[e] = r.nextBoolean();
        s.assertEqual(pos[e] ? v[var[e]] : v[var[e]].not(), g.addEdge(from[e], to[e]));
      }
      int a0 = r.nextInt(vars), b0 = r.nextInt(vars);
      s.assertOr(v[a0], v[b0].not());
      s.assertTrue(g.acyclic());
      boolean want = false;
      for (int x = 0; x < (1 << vars) && !want; x++) {
        boolean clause = ((x >> a0) & 1) == 1 || ((x >> b0) & 1) == 0;
        if (clause && acyclic(nodes, from, to, var, pos, x)) want = true;
      }
      boolean got = s.solve();
      check(got == want, "random graph " + round + ": solve says " + got);
      if (got) {
        int x = 0;
        for (int i = 0; i < vars; i++) x |= v[i].value() ? 1 << i : 0;
        check(acyclic(nodes, from, to, var, pos, x), "the model's graph is acyclic");
        sat++;
      } else {
        unsat++;
      }
      s.close();
    }
    check(sat > 10 && unsat > 10, "both answers occurred: " + sat + " SAT, " + unsat + " UNSAT");
  }

  static boolean acyclic(int nodes, int[] from, int[] to, int[] var, boolean[] pos, int x) {
    int[] indeg = new int[nodes];
    boolean[] on = new boolean[from.length];
    for (int e = 0; e < from.length; e++) {
      on[e] = (((x >> var[e]) & 1) == 1) == pos[e];
      if (on[e]) indeg[to[e]]++;
    }
    boolean[] gone = new boolean[nodes];
    for (boolean progress = true; progress; ) {
      progress = false;
      for (int u = 0; u < nodes; u++) {
        if (gone[u] || indeg[u] > 0) continue;
        gone[u] = progress = true;
        for (int e = 0; e < from.length; e++) if (on[e] && from[e] == u) indeg[to[e]]--;
      }
    }
    for (boolean b : gone) if (!b) return false;
    return true;
  }

  // Cobra's one-shot pattern (assertTrue on edges and acyclicity), its
  // core pattern (acyclicity as an assumption, minimizeUnsatCore), limits.
  static void cobraPatternAndLimits() {
    Solver s = new Solver();
    Graph g = new Graph(s);
    for (int i = 0; i < 3; i++) g.addNode();
    Lit e01 = g.addEdge(0, 1), e12 = g.addEdge(1, 2), e20 = g.addEdge(2, 0);
    Lit acyc = Logic.and(g.acyclic(), Lit.True);
    check(acyc == g.acyclic(), "and(acyclic, True) is the acyclicity literal itself");
    List<Lit> lits = Arrays.asList(acyc, e01, e12, e20);
    check(!s.solve(lits), "a triangle is a cycle");
    List<Lit> core = s.minimizeUnsatCore(lits);
    check(core.size() == 4, "the core keeps all three edges and acyclicity: " + core);
    check(s.solve(acyc, e01, e12), "two edges are fine");
    s.close();

    Solver q = new Solver();
    Lit[][] p = new Lit[8][7];                      // pigeonhole 8 into 7: many conflicts
    for (int i = 0; i < 8; i++) {
      for (int j = 0; j < 7; j++) p[i][j] = new Lit(q);
      q.assertOr(p[i]);
    }
    for (int j = 0; j < 7; j++)
      for (int a = 0; a < 8; a++)
        for (int b = a + 1; b < 8; b++) q.assertOr(p[a][j].not(), p[b][j].not());
    q.setConflictLimit(5);
    check(q.solveLimited().equals(Optional.empty()), "solveLimited stops at the conflict limit");
    check(q.nConflicts() >= 5, "conflicts counted: " + q.nConflicts());
    q.close();
  }

  // Outside the layer: loud, named; acyclicity that does not hold: refused.
  static void loudFailures() {
    Solver s = new Solver();
    Graph g = new Graph(s);
    g.addNode();
    g.addNode();
    check(holds(() -> g.reaches(0, 1), UnsupportedOperationException.class, "reaches"),
        "reaches() throws UnsupportedOperationException naming it");
    check(holds(() -> new Lit(s, "named"), UnsupportedOperationException.class, "newNamedVar"),
        "named literals throw");
    Lit e = g.addEdge(0, 1);
    Lit acyc = g.acyclic();
    check(holds(() -> s.solve(e), IllegalStateException.class, "acyclicity literal"),
        "a solve without the acyclicity literal is refused");
    check(holds(() -> s.solve(acyc), IllegalStateException.class, "had an error before"),
        "and the solver stays refused");
    s.close();
  }

  public static void main(String[] args) {
    version();
    gates();
    assertions();
    polysiPattern();
    randomGraphs();
    cobraPatternAndLimits();
    loudFailures();
    System.out.println("checks: " + passed + " passed");
  }
}
