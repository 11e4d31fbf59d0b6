# MonoSAT's own JUnit tests (its sources' api/java/tests) against gsat's
# libmonosat.so.  The tests inside the layer's subset (listed below) must
# pass; every other test must fail loudly — an UnsupportedOperationException
# or IllegalStateException from gsat naming what is missing — and never
# with a wrong answer (an AssertionError).  Needs a JDK, monosat.jar and
# MonoSAT's sources ($MONOSAT_SRC, default: the peers' copy); skipped
# (exit 77) without them.
JAR=${MONOSAT_JAR:-/opt/peers/monosat-java/monosat.jar}
SRC=${MONOSAT_SRC:-/opt/peers/src/sambayless+monosat}
T="$SRC/src/monosat/api/java/tests"
command -v java >/dev/null 2>&1 && command -v javac >/dev/null 2>&1 || { echo "skipped: no java/javac"; exit 77; }
[ -f "$JAR" ] || { echo "skipped: no monosat.jar (set MONOSAT_JAR)"; exit 77; }
[ -f "$T/junit-4.12.jar" ] && [ -f "$T/hamcrest-core-1.3.jar" ] || { echo "skipped: no MonoSAT Java tests under $T (set MONOSAT_SRC)"; exit 77; }
nice make -s -C "$ROOT" jni >/dev/null 2>&1 || { echo "skipped: make jni failed (no JDK headers?)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CP="$JAR:$T/junit-4.12.jar:$T/hamcrest-core-1.3.jar"
javac -nowarn -d "$tmp" -cp "$CP" "$T"/monosat/*.java "$ROOT/tests/java/RunJUnitMethods.java" 2>"$tmp/javac.err" ||
  { echo "MonoSAT's tests do not compile:"; head "$tmp/javac.err"; exit 1; }
(cd "$tmp" && java -Djava.library.path="$ROOT/build/jni" -cp "$CP:$tmp" RunJUnitMethods monosat.SolverTest monosat.LitTest \
   monosat.LogicTest monosat.ResourceLimitTest monosat.GraphTest monosat.PseudoBooleanTest monosat.BitVectorTest) >"$tmp/out" 2>&1
grep -q "^PASS\|^FAIL" "$tmp/out" || { echo "the runner did not run:"; head "$tmp/out"; exit 1; }
# the subset: solver, literals, the Logic helpers, assumptions and cores, graphs without weights
for t in SolverTest#version SolverTest#getLits SolverTest#testSolve SolverTest#testConstraints \
         SolverTest#testTryWithResources SolverTest#testMultipleSolvers SolverTest#testOrUnsat SolverTest#testAddClause \
         SolverTest#test_AMO SolverTest#testOk LitTest#testGlobals LitTest#testNewLits LitTest#testMaybeValues \
         LitTest#testDefaultValues LitTest#testConstLits LitTest#testComparable LogicTest#test_AMO LogicTest#test_newLit \
         LogicTest#test_solve LogicTest#test_testSolveAssumps LogicTest#test_ite LogicTest#test_not LogicTest#test_and \
         LogicTest#test_ands LogicTest#test_or LogicTest#test_ors LogicTest#test_nand LogicTest#test_nands LogicTest#test_nor \
         LogicTest#test_nors LogicTest#test_xor LogicTest#test_xors LogicTest#test_xnor LogicTest#test_xnors \
         LogicTest#test_assertTrue LogicTest#test_assertFalse LogicTest#test_assertAnd LogicTest#test_assertAnds \
         LogicTest#test_assertOr LogicTest#test_assertOrs LogicTest#test_assertNand LogicTest#test_assertNands \
         LogicTest#test_assertNor LogicTest#test_assertNors LogicTest#test_assertXor LogicTest#test_assertXors \
         LogicTest#test_assertXnor LogicTest#test_assertXnors LogicTest#test_assertEqual LogicTest#test_assertAtMostOne \
         LogicTest#test_unsatCore LogicTest#test_Constant GraphTest#addNode GraphTest#nNodes GraphTest#addEdge \
         GraphTest#nEdges GraphTest#edgeLits PseudoBooleanTest#test_AMO PseudoBooleanTest#test_NEQ; do
  grep -q "^PASS monosat.$t$" "$tmp/out" || { echo "in the subset but not passing: $t"; grep "monosat.$t" "$tmp/out"; exit 1; }
done
bad=$(grep "^FAIL" "$tmp/out" | grep -v ": java.lang.\(UnsupportedOperationException\|IllegalStateException\): gsat: ")
[ -z "$bad" ] || { echo "tests failing other than loudly (a wrong answer?):"; echo "$bad" | head -20; exit 1; }
