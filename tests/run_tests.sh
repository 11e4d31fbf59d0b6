#!/bin/sh
# run_tests.sh — `make test`: the layering and size checks, every cmocka
# suite (under ASan+UBSan, leaks checked) and the end-to-end cases.  The suites and the
# end-to-end cases run side by side (two jobs: this machine has two cores),
# each into its own log, printed when both are done; TEST_JOBS=1 runs them
# one after the other.  Exit 0 when everything passed.
#
# Usage: tests/run_tests.sh DEBUG_DIR TEST_BINARY...
dbg=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
logs=$(mktemp -d) || exit 2
trap 'rm -rf "$logs"' EXIT

units() {
  fail=0
  for t in "$@"; do
    echo "== $t"
    ASAN_OPTIONS=detect_leaks=1 "$t" || { fail=1; echo "FAILED: $t"; }
  done
  return $fail
}
e2e() { echo "== end-to-end"; GSAT=$dbg/gsat ISOCHECK=$dbg/isocheck "$root/tests/e2e/run.sh"; }

fail=0
echo "== layering"; sh "$root/tests/layering.sh" "$root" || fail=1
echo "== sizes"; sh "$root/tests/sizes.sh" "$root" || fail=1
start=$(date +%s)
if [ "${TEST_JOBS:-2}" = 1 ]; then
  units "$@" || fail=1
  e2e || fail=1
else
  units "$@" > "$logs/units" 2>&1 & upid=$!
  e2e > "$logs/e2e" 2>&1 & epid=$!
  wait $upid || fail=1
  cat "$logs/units"
  wait $epid || fail=1
  cat "$logs/e2e"
fi
echo "(tests took $(( $(date +%s) - start )) s of wall time)"
if [ $fail = 0 ]; then echo "make test: all suites passed"; else echo "make test: FAILURES"; exit 1; fi
