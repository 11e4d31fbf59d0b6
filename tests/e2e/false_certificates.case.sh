# Certificates that isocheck wrote for false PASSes (before issue 13:
# list reads after the transaction's own appends were not read as reads of
# the snapshot) must be rejected by `isocheck verify` (exit 1, INVALID with
# the broken condition), and `check` must now fail those histories.
# tests/data/false-certs/NAME.LEVEL.cert belongs to tests/data/anomalies/NAME.edn.
fail=0; n=0
for c in "$ROOT"/tests/data/false-certs/*.cert; do
  base=$(basename "$c" .cert); name=${base%.*}; lv=${base##*.}
  h="$ROOT/tests/data/anomalies/$name.edn"
  [ -e "$h" ] || { echo "$c: no history $h"; fail=1; continue; }
  n=$((n+1))
  out=$("$ISOCHECK" verify --format elle "$h" "$c" 2>&1); rc=$?
  [ $rc -eq 1 ] || { echo "$c: verify exit $rc, expected 1: $out"; fail=1; continue; }
  echo "$out" | grep -q "^INVALID $lv: certificate: .*$base.cert:[0-9]*: " || { echo "$c: unexpected message: $out"; fail=1; }
  out=$("$ISOCHECK" check --format elle --level "$lv" "$h" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -q "^FAIL $lv:" || { echo "$h [$lv]: check exit $rc, expected FAIL: $out"; fail=1; }
done
[ $n -ge 6 ] || { echo "only $n false certificates checked"; fail=1; }
exit $fail
