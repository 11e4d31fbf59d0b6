# MonoSAT's Java API (monosat.jar, unchanged) on gsat's libmonosat.so
# (`make jni`): tests/java/GsatMonosatCheck.java checks gates, assertions,
# PolySI's and Cobra's ways of using graphs, random graphs against brute
# force, limits and the loud failures.  Needs a JDK (java, javac, jni.h)
# and monosat.jar ($MONOSAT_JAR, default: the peers' build); skipped
# (exit 77, with the reason) when one is missing.
JAR=${MONOSAT_JAR:-/opt/peers/monosat-java/monosat.jar}
command -v java >/dev/null 2>&1 && command -v javac >/dev/null 2>&1 || { echo "skipped: no java/javac"; exit 77; }
[ -f "$JAR" ] || { echo "skipped: no monosat.jar (set MONOSAT_JAR; /work/shared/peers/build.sh makes one)"; exit 77; }
nice make -s -C "$ROOT" jni >/tmp/monosat_java.$$.log 2>&1 || {
  if grep -q "no jni.h" /tmp/monosat_java.$$.log; then rm -f /tmp/monosat_java.$$.log; echo "skipped: no jni.h (JDK headers)"; exit 77; fi
  cat /tmp/monosat_java.$$.log; rm -f /tmp/monosat_java.$$.log; exit 1; }
rm -f /tmp/monosat_java.$$.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -nowarn -d "$tmp" -cp "$JAR" "$ROOT/tests/java/GsatMonosatCheck.java" || { echo "GsatMonosatCheck does not compile"; exit 1; }
out=$(java -Djava.library.path="$ROOT/build/jni" -cp "$JAR:$tmp" GsatMonosatCheck 2>&1)
echo "$out" | grep -q "^checks: [0-9]* passed$" || { echo "$out" | tail -20; exit 1; }
