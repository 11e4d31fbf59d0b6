# Without axiom violations and without the solver path, check must not claim PASS.
out=$("$ISOCHECK" check "$ROOT/tests/data/hist/clean.txt"); rc=$?
if echo "$out" | grep -q '^PASS'; then
  [ $rc -eq 0 ] || { echo "PASS with exit $rc"; exit 1; }   # the solver path has landed
  exit 0
fi
[ $rc -eq 2 ] || { echo "exit $rc, want 2"; exit 1; }
echo "$out" | grep -q 'cycle checking is not available' || { echo "$out"; exit 1; }
exit 0
