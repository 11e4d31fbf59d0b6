#!/bin/sh
# End-to-end cases: every tests/e2e/*.case.sh, run with $GSAT and $ISOCHECK
# pointing at the binaries under test.  A case exits 0 when it passes and
# prints what went wrong otherwise; it exits 77 when it cannot run here
# (a missing JDK, say), printing why.  Ends with "N passed, N failed"
# (and "N skipped").  With arguments, runs only the cases named (paths of
# *.case.sh files): tests/run_tests.sh runs one case at a time this way.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${GSAT:=$root/build/debug/gsat}" "${ISOCHECK:=$root/build/debug/isocheck}"
DATA="${DATA:-$root/../shared/data}"
export GSAT ISOCHECK ROOT="$root" DATA
pass=0; fail=0; skip=0
[ $# -gt 0 ] || set -- "$here"/*.case.sh
for c in "$@"; do
  [ -e "$c" ] || continue
  name=$(basename "$c" .case.sh)
  out=$(sh "$c" 2>&1); rc=$?
  if [ $rc = 0 ]; then pass=$((pass+1)); echo "[ OK ] $name"
  elif [ $rc = 77 ]; then skip=$((skip+1)); echo "[SKIP] $name: $(echo "$out" | tail -1)"
  else fail=$((fail+1)); echo "[FAIL] $name"; echo "$out" | sed 's/^/    /' | head -40; fi
done
echo "$pass passed, $fail failed$( [ $skip = 0 ] || echo ", $skip skipped")"
[ $fail -eq 0 ]
