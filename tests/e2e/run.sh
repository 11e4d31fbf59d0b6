#!/bin/sh
# End-to-end cases: every tests/e2e/*.case.sh, run with $GSAT and $ISOCHECK
# pointing at the binaries under test.  A case exits 0 when it passes and
# prints what went wrong otherwise.  Ends with "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${GSAT:=$root/build/debug/gsat}" "${ISOCHECK:=$root/build/debug/isocheck}"
export GSAT ISOCHECK ROOT="$root" DATA="$root/../shared/data"
pass=0; fail=0
for c in "$here"/*.case.sh; do
  [ -e "$c" ] || continue
  name=$(basename "$c" .case.sh)
  if out=$(sh "$c" 2>&1); then pass=$((pass+1)); echo "[ OK ] $name"
  else fail=$((fail+1)); echo "[FAIL] $name"; echo "$out" | sed 's/^/    /' | head -40; fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
