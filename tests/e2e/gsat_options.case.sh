# --help lists the option table; -v prints statistics as c lines; limits
# give s UNKNOWN (exit 0); table options change the search, not the answer.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$GSAT" --help > "$tmp/help"; rc=$?
[ $rc -eq 0 ] || { echo "--help exit $rc"; exit 1; }
for o in restart luby_unit minimize reduce_first time-limit conflict-limit; do
  grep -q -- "--$o" "$tmp/help" || { echo "--help lacks --$o"; exit 1; }
done
"$GSAT" -v "$ROOT/examples/pigeonhole-5.cnf" > "$tmp/out"; rc=$?
[ $rc -eq 20 ] || { echo "-v: exit $rc"; exit 1; }
for k in conflicts decisions propagations restarts learned "solve time"; do
  grep -q "^c $k" "$tmp/out" || { echo "-v lacks '$k'"; cat "$tmp/out"; exit 1; }
done
c=$(awk '$2=="conflicts:" {print $3}' "$tmp/out")
[ "$c" -gt 0 ] || { echo "zero conflicts reported"; exit 1; }
[ "$(tail -1 "$tmp/out")" = "s UNSATISFIABLE" ] || exit 1

# pigeonhole 10 is far beyond 50 conflicts
{ p=11; h=10; echo "p cnf $((p*h)) $((p + h*p*(p-1)/2))"
  i=0; while [ $i -lt $p ]; do j=0; l=""; while [ $j -lt $h ]; do l="$l $((i*h+j+1))"; j=$((j+1)); done; echo "$l 0"; i=$((i+1)); done
  j=0; while [ $j -lt $h ]; do a=0; while [ $a -lt $p ]; do b=$((a+1)); while [ $b -lt $p ]; do
    echo "-$((a*h+j+1)) -$((b*h+j+1)) 0"; b=$((b+1)); done; a=$((a+1)); done; j=$((j+1)); done; } > "$tmp/php10.cnf"
"$GSAT" --conflict-limit=50 "$tmp/php10.cnf" > "$tmp/out"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "s UNKNOWN" ] || { echo "conflict limit: exit $rc: $(cat "$tmp/out")"; exit 1; }
start=$(date +%s)
"$GSAT" --time-limit 1 "$tmp/php10.cnf" > "$tmp/out"; rc=$?
end=$(date +%s)
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "s UNKNOWN" ] || { echo "time limit: exit $rc: $(cat "$tmp/out")"; exit 1; }
[ $((end - start)) -le 10 ] || { echo "time limit not honoured: $((end-start)) s"; exit 1; }
for opt in --restart=0 --minimize=0 --phase=1 --simplify=0 --reduce-first=100; do
  "$GSAT" "$opt" "$ROOT/examples/pigeonhole-5.cnf" > "$tmp/out"; rc=$?
  [ $rc -eq 20 ] || { echo "$opt: exit $rc"; exit 1; }
done
exit 0
