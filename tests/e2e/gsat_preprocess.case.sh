# gsat's preprocessing end to end: on a circuit-like CNF (a chain of AND
# gates, equivalent copies of the inputs) -v reports eliminated and
# substituted variables, the model still satisfies every original clause
# and names every variable, and answers agree with --preprocess=0; on GNF
# the edge guards stay (the failed assumptions of --assume are the same);
# bad option values are refused.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }

# y_i = y_{i-1} & x_i (y_1 = x_1), z_i = x_i; x_1 implies the last gate
# (then every x is true); the UNSAT twin forces x_1 (by two clauses) and
# some z false.
n=30
gates() {
  i=1
  while [ $i -le $n ]; do
    x=$i; y=$((n + i)); py=$((n + i - 1)); z=$((2 * n + i))
    [ $i -eq 1 ] && py=1
    echo "-$y $py 0"; echo "-$y $x 0"; echo "$y -$py -$x 0"
    echo "-$z $x 0"; echo "$z -$x 0"
    i=$((i + 1))
  done
  echo "$((2 * n)) -1 0"
}
{ echo "p cnf $((3 * n)) $((5 * n + 1))"; gates; } > "$tmp/sat.cnf"
{ echo "p cnf $((3 * n)) $((5 * n + 4))"; gates; echo "1 2 0"; echo "1 -2 0"; echo "-$((2 * n + 7)) -$((2 * n + 9)) 0"; } > "$tmp/unsat.cnf"

"$GSAT" -v "$tmp/sat.cnf" > "$tmp/out"; rc=$?
[ $rc -eq 10 ] || fail "sat.cnf: exit $rc, want 10"
el=$(awk '$2=="simp_eliminated:" {print $3}' "$tmp/out")
su=$(awk '$2=="simp_substituted:" {print $3}' "$tmp/out")
[ "${el:-0}" -gt 0 ] || fail "-v: no variable eliminated ($(grep '^c simp' "$tmp/out"))"
[ "${su:-0}" -gt 0 ] || fail "-v: no variable substituted"
grep -q '^c simp_usec:' "$tmp/out" || fail "-v: no preprocessing time"
awk 'FNR==NR { if ($1=="v") for (i=2;i<=NF;i++) val[$i]=1; next }
     /^[cp]/ { next }
     { ok=0; for (i=1;i<NF;i++) if ($i in val) ok=1; if (!ok) { print "clause falsified: " $0; bad=1 } }
     END { exit bad }' "$tmp/out" "$tmp/sat.cnf" || fail "model falsifies a clause"
cnt=$(grep '^v' "$tmp/out" | tr ' ' '\n' | grep -c '^-\?[0-9][0-9]*$')
[ "$cnt" -eq $((3 * n + 1)) ] || fail "model lists $cnt values, want $((3 * n)) and the final 0"

"$GSAT" --preprocess=0 -v "$tmp/sat.cnf" > "$tmp/out0"; rc=$?
[ $rc -eq 10 ] || fail "--preprocess=0: exit $rc, want 10"
grep -q '^c simp_eliminated: *0$' "$tmp/out0" || fail "--preprocess=0 still eliminated"
for opt in "" --preprocess=0 --preprocess=2 --elim=0 --equiv=0 --subsume=0 --elim-bound=10; do
  "$GSAT" $opt "$tmp/unsat.cnf" > "$tmp/out"; rc=$?
  [ $rc -eq 20 ] || fail "unsat.cnf $opt: exit $rc, want 20"
done

# GNF: a three-edge cycle; assumption 5 = 1 & 6 with 6 = 2 | 7 and 7 -> 2
# (6 is eliminable, the guards 1, 2, 3 are not); --assume solves under
# the assumptions 5 3 7 (a cycle) and lists the failed ones
cat > "$tmp/c.gnf" <<'GNF'
digraph 3 3 0
edge 0 0 1 1
edge 0 1 2 2
edge 0 2 0 3
acyclic 0 4
4 0
-5 1 0
-5 6 0
5 -1 -6 0
-6 2 7 0
6 -2 0
6 -7 0
-7 2 0
solve 5 3 7
GNF
for p in 0 1; do
  "$GSAT" --assume --preprocess=$p -v "$tmp/c.gnf" > "$tmp/g$p"; rc=$?
  [ $rc -eq 20 ] || fail "c.gnf --preprocess=$p: exit $rc, want 20"
done
grep -q '^c simp_eliminated: *[1-9]' "$tmp/g1" || fail "c.gnf: nothing eliminated"
f0=$(grep '^c failed:' "$tmp/g0"); f1=$(grep '^c failed:' "$tmp/g1")
[ -n "$f1" ] && [ "$f0" = "$f1" ] || fail "failed assumptions differ: '$f0' / '$f1'"
sed 's/^solve 5 3 7$/solve 5 7/' "$tmp/c.gnf" > "$tmp/c1.gnf"
"$GSAT" "$tmp/c1.gnf" > "$tmp/out"; rc=$?
[ $rc -eq 10 ] || fail "c1.gnf: exit $rc, want 10"
grep -q '^v.* -3 ' "$tmp/out" || fail "c1.gnf: edge 2->0 must be off when 0->1->2 is on"

for bad in --preprocess=3 --elim-clause-limit=1 --simp-effort=0; do
  "$GSAT" $bad "$tmp/sat.cnf" > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc -eq 2 ] || fail "$bad: exit $rc, want 2"
done
exit 0
