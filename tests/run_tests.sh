#!/bin/sh
# run_tests.sh — `make test`: the layering and size checks, every cmocka
# suite (under ASan+UBSan, leaks checked) and every end-to-end case.
# Exit 0 when everything passed.
#
# The suites and the cases are one queue that TEST_JOBS workers (default 2:
# this machine has two cores) draw from, one item at a time, each item into
# its own log; the logs are printed when all are done, in the order of the
# old two jobs (every suite, then "== end-to-end" and every case, with the
# "N passed, N failed" line of tests/e2e/run.sh).  The queue starts with the
# items known to be long (HEAVY, longest first: test_online alone is a
# fifth of the wall time), so no worker is left with a long item at the
# end while the other idles; the rest follow in name order
# (suites, then cases).  TEST_JOBS=1 runs the queue on one worker.
# (Until stop 52 the suites were one job and the cases the other: about
# 540 and 270 CPU seconds, so on a quiet machine the suites' job alone set
# the wall time.)
#
# Usage: tests/run_tests.sh DEBUG_DIR TEST_BINARY...
dbg=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
logs=$(mktemp -d) || exit 2
trap 'rm -rf "$logs"' EXIT

# The items known to be long, longest first: wall seconds of stop 52's
# `make test` at load 8-12 (CPU seconds in brackets): test_online 339 (156),
# encode 296 (57), test_check_threads 195 (33), test_retire_time 118 (42),
# test_retire_free 216 (79; 33 since its 400 filler transactions), ...;
# "make-cases" is the SERIAL group below.
HEAVY="test_online encode test_check_threads test_retire_time test_retire_free make-cases shared_histories
test_retire_free_partial levels_forms convert_verdict test_engine test_levels_engine test_retire_lag
check_spill_limits test_retire_gadgets test_warm test_follow_chunks online_reader_thread"

# The cases that run make in the source tree (make all, jni, install into
# a DESTDIR): one item, "make-cases", so they run one after the other as
# before (two makes of build/jni at once would race).
SERIAL="examples library_names library_report man_install monosat_java monosat_junit polysi_gsat"

# Every item, "KEY u PATH" (a suite) or "KEY e NAME..." (cases, by name, run
# in that order by one worker); then the queue: HEAVY's items in its order,
# then the rest in name order, suites first.
for t in "$@"; do echo "$(basename "$t") u $t"; done > "$logs/items"
serial=
for c in "$root"/tests/e2e/*.case.sh; do
  [ -e "$c" ] || continue
  name=$(basename "$c" .case.sh)
  case " $(echo $SERIAL) " in *" $name "*) serial="$serial $name";; *) echo "$name e $name";; esac
done >> "$logs/items"
[ -z "$serial" ] || echo "make-cases e$serial" >> "$logs/items"
for h in $HEAVY; do grep "^$h " "$logs/items"; done | cut -d' ' -f2- > "$logs/queue"
for h in $HEAVY; do echo "$h"; done > "$logs/heavy"
awk 'NR == FNR { h[$1]; next } !($1 in h)' "$logs/heavy" "$logs/items" | cut -d' ' -f2- >> "$logs/queue"
total=$(wc -l < "$logs/queue")
echo 0 > "$logs/next"

# claim: prints the next item's number (1-based), or nothing when the queue
# is empty; mkdir is the lock (atomic).
claim() {
  until mkdir "$logs/lock" 2>/dev/null; do sleep 0.01; done
  n=$(( $(cat "$logs/next") + 1 ))
  echo $n > "$logs/next"
  rmdir "$logs/lock"
  [ $n -le $total ] && echo $n
}

# run_item N: runs item N into $logs/N.out, its exit status into $logs/N.rc.
run_item() {
  item=$(sed -n "$1p" "$logs/queue") t0=$(date +%s)
  if [ "${item%% *}" = u ]; then
    ASAN_OPTIONS=detect_leaks=1 "${item#u }" > "$logs/$1.out" 2>&1
  else
    cases=
    for c in ${item#e }; do cases="$cases $root/tests/e2e/$c.case.sh"; done
    GSAT=$dbg/gsat ISOCHECK=$dbg/isocheck sh "$root/tests/e2e/run.sh" $cases > "$logs/$1.out" 2>&1
  fi
  echo $? > "$logs/$1.rc"
  echo "$(( $(date +%s) - t0 )) $(basename "${item#? }")" > "$logs/$1.time"
}

worker() { while n=$(claim) && [ -n "$n" ]; do run_item "$n"; done; }

fail=0
echo "== layering"; sh "$root/tests/layering.sh" "$root" || fail=1
echo "== sizes"; sh "$root/tests/sizes.sh" "$root" || fail=1
start=$(date +%s)
pids=
j=0
while [ $j -lt "${TEST_JOBS:-2}" ]; do worker & pids="$pids $!"; j=$((j + 1)); done
for p in $pids; do wait $p; done

# The report, in the old order: the suites as given, then the cases.
for t in "$@"; do
  n=$(grep -n -x -F "u $t" "$logs/queue" | cut -d: -f1)
  echo "== $t"
  cat "$logs/$n.out"
  [ "$(cat "$logs/$n.rc" 2>/dev/null)" = 0 ] || { fail=1; echo "FAILED: $t"; }
done
echo "== end-to-end"
pass=0; efail=0; skip=0
for n in $(grep -n '^e ' "$logs/queue" | cut -d: -f1); do
  grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$n.out"
  pass=$((pass + $(grep -c '^\[ OK \]' "$logs/$n.out")))
  skip=$((skip + $(grep -c '^\[SKIP\]' "$logs/$n.out")))
  efail=$((efail + $(grep -c '^\[FAIL\]' "$logs/$n.out")))
  if [ "$(cat "$logs/$n.rc" 2>/dev/null)" != 0 ]; then
    fail=1
    grep -q '^\[FAIL\]' "$logs/$n.out" || { efail=$((efail + 1)); echo "[FAIL] $(sed -n "${n}p" "$logs/queue" | cut -c3-): no result"; }
  fi
done
echo "$pass passed, $efail failed$( [ $skip = 0 ] || echo ", $skip skipped")"
[ $efail = 0 ] || fail=1
echo "(tests took $(( $(date +%s) - start )) s of wall time on ${TEST_JOBS:-2} workers; the longest items, s:" \
  "$(cat "$logs"/*.time 2>/dev/null | sort -rn | head -6 | tr '\n' ' '| sed 's/ $//'))"
if [ $fail = 0 ]; then echo "make test: all suites passed"; else echo "make test: FAILURES"; exit 1; fi
