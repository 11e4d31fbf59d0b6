# Every example of tests/data/levels, checked through the command line at
# every level its header names: "# holds: L ..." must PASS (exit 0) and
# "# fails: L ..." must FAIL (exit 1) with a named reason (an anomaly line
# or the checker's cycle) — the whole pipeline (reader, #@time lines,
# axioms, each level's checker, the report), where test_levels_oracle and
# test_levels_engine check the checkers alone.
fail=0
for f in "$ROOT"/tests/data/levels/*.txt; do
  n=$(basename "$f")
  for l in $(sed -n 's/^# holds: //p' "$f"); do
    out=$("$ISOCHECK" check --level "$l" "$f" 2>&1); rc=$?
    [ $rc -eq 0 ] && echo "$out" | grep -q "^PASS $l:" || { echo "$n: $l should hold (exit $rc): $out"; fail=1; }
  done
  for l in $(sed -n 's/^# fails: //p' "$f"); do
    out=$("$ISOCHECK" check --level "$l" "$f" 2>&1); rc=$?
    [ $rc -eq 1 ] && echo "$out" | grep -q "^FAIL " && echo "$out" | grep -q "^  [1-9A-Za-z]" ||
      { echo "$n: $l should fail with a reason (exit $rc): $out"; fail=1; }
  done
done
exit $fail
