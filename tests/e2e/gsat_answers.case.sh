# gsat answers SAT (with a model that satisfies every clause), UNSAT, reads
# standard input, and uses the competition exit codes 10/20.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/sat.cnf" <<'CNF'
c satisfiable: exactly one of 1..3, 4 <-> 1
p cnf 4 6
1 2 3 0
-1 -2 0
-1 -3 0
-2 -3 0
-4 1 0
4 -1 0
CNF
"$GSAT" "$tmp/sat.cnf" > "$tmp/out"; rc=$?
[ $rc -eq 10 ] || { echo "exit $rc, want 10"; exit 1; }
head -1 "$tmp/out" | grep -qx 's SATISFIABLE' || { echo "no s line"; cat "$tmp/out"; exit 1; }
grep -q '^v .* 0$' "$tmp/out" || { echo "model not 0-terminated"; exit 1; }
# every clause satisfied by the printed model
awk 'FNR==NR { if ($1=="v") for (i=2;i<=NF;i++) val[$i]=1; next }
     /^[cp]/ { next }
     { ok=0; for (i=1;i<NF;i++) if ($i in val) ok=1; if (!ok) { print "clause falsified: " $0; bad=1 } }
     END { exit bad }' "$tmp/out" "$tmp/sat.cnf" || exit 1
# the model is complete: each variable once
n=$(grep '^v' "$tmp/out" | tr ' ' '\n' | grep -c '^-\?[1-4]$')
[ "$n" -eq 4 ] || { echo "model lists $n variables, want 4"; exit 1; }

"$GSAT" "$ROOT/examples/pigeonhole-5.cnf" > "$tmp/out"; rc=$?
[ $rc -eq 20 ] || { echo "pigeonhole: exit $rc, want 20"; exit 1; }
[ "$(cat "$tmp/out")" = "s UNSATISFIABLE" ] || { echo "pigeonhole output:"; cat "$tmp/out"; exit 1; }

"$GSAT" - < "$tmp/sat.cnf" > "$tmp/out"; rc=$?
[ $rc -eq 10 ] || { echo "stdin: exit $rc, want 10"; exit 1; }
head -1 "$tmp/out" | grep -qx 's SATISFIABLE' || exit 1

# long models wrap: 300 unit clauses
{ echo "p cnf 300 300"; i=1; while [ $i -le 300 ]; do echo "-$i 0"; i=$((i+1)); done; } > "$tmp/units.cnf"
"$GSAT" "$tmp/units.cnf" > "$tmp/out"; rc=$?
[ $rc -eq 10 ] || { echo "units: exit $rc"; exit 1; }
awk 'length($0) > 80 { print "line too long: " length($0); bad=1 } END { exit bad }' "$tmp/out" || exit 1
[ "$(grep -c '^v' "$tmp/out")" -gt 3 ] || { echo "model not wrapped"; exit 1; }
grep '^v' "$tmp/out" | tr ' ' '\n' | grep -q '^-300$' || { echo "-300 missing"; exit 1; }
exit 0
