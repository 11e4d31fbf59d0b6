#!/bin/bash
# bench/hints.sh — checking with the database's own order (doc/checker.md,
# "Checking with a version order hint", "Checking with a commit order or
# timestamps").
#
#   bench/hints.sh [SESSIONS TXNS]       the partial-order curve (default 100 x 1000: 100k transactions)
#   bench/hints.sh big [SESSIONS TXNS]   1M transactions (default 100 x 10000) with a complete order
#
# Curve (Clark et al.'s Fig. 14, King Cobra): one generated SI history
# (isocheck gen --version-order-out, the store's own order, so every hint
# is true); each fraction keeps that share of every key's versions, in
# order (a seeded awk draw); 0 % lists nothing.  For each fraction the
# white-box SI stage times and counts from -v (constraints after the scan
# and after pruning, solver variables; no "solver:" line means the solver
# was not called) and the wall time of the whole run (both answers); the
# first row is the black-box answer of the same run (no hint at all).
# 100 % is a complete order: checked by the version order alone (stage
# "version order": no pair scan, no solver).
#
# Big: --white-box-only (the hint's check alone), /usr/bin/time -v: wall
# seconds and peak memory of the whole process (loading included) for
#   - SI with the complete version order (gen --version-order-out),
#   - SI with the commit order (the simulator's: its text lists
#     transactions in commit order, ids ascending),
#   - SER with the commit order of a one-session run of the same size
#     (serial, so the order is a serialization: the replay runs to the end).
# Results: build/bench/hints/ (raw), tables on stdout; note `uptime`.
# env: ISOCHECK (build/isocheck), THREADS (2)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
I=${ISOCHECK:-$ROOT/build/isocheck}
THREADS=${THREADS:-2}
OUT=$ROOT/build/bench/hints; mkdir -p "$OUT"
echo "uptime: $(uptime)"

# the commit order of a generated text history: ids in order of appearance
commits() { awk -F'[(,)]' '$5 != last { print $5; last = $5 }' "$1"; }

big() {
  local S=${1:-100} T=${2:-10000}
  local H=$OUT/big-$S-$T.txt Hs=$OUT/big-serial-$((S * T)).txt
  [ -s "$H" ] && [ -s "$H.vo" ] || "$I" gen --force --sessions "$S" --txns "$T" --level si --seed 7 \
      --version-order-out "$H.vo" -o "$H" || exit 2
  [ -s "$Hs" ] || "$I" gen --force --sessions 1 --txns $((S * T)) --level ser --seed 7 -o "$Hs" || exit 2
  [ -s "$H.commits" ] || commits "$H" > "$H.commits"
  [ -s "$Hs.commits" ] || commits "$Hs" > "$Hs.commits"
  echo "histories: $H ($S x $T, SI), $Hs (1 session, SER)"
  printf '| level | hint | verdict | white-box check s | wall s (load included) | peak MB |\n|---|---|---|---|---|---|\n'
  run() {   # level hint-option hint-file history label
    local log=$OUT/big-$5.log
    /usr/bin/time -v "$I" check -v --white-box-only --threads "$THREADS" --level "$1" "$2" "$3" "$4" \
      > "$log.out" 2> "$log"
    local rc=$? wall mem wb v
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): \(.*\)/\1/p' "$log" | awk -F: '{ print $(NF-1) * 60 + $NF }')
    mem=$(sed -n 's/.*Maximum resident set size (kbytes): \([0-9]*\)/\1/p' "$log")
    wb=$(sed -n 's/^white-box: \([0-9.]*\)s.*/\1/p' "$log")
    v=$(sed -n 's/^white-box \([A-Z]*\) s[ei]r*:.*/\1/p' "$log.out" | paste -sd/)
    printf '| %s | %s | %s (exit %s) | %s | %s | %s |\n' "$1" "$5" "$v" "$rc" "$wb" "$wall" "$((mem / 1024))"
  }
  run si --version-order "$H.vo" "$H" "complete-version-order"
  run si --commit-order "$H.commits" "$H" "commit-order"
  run ser --commit-order "$Hs.commits" "$Hs" "commit-order-serial"
  run all --commit-order "$Hs.commits" "$Hs" "commit-order-serial-all"
  echo "uptime: $(uptime)"
}

if [ "${1:-}" = big ]; then shift; big "$@"; exit 0; fi

S=${1:-100}; T=${2:-1000}
H=$OUT/h-$S-$T.txt
[ -s "$H" ] && [ -s "$H.vo" ] || "$I" gen --force --sessions "$S" --txns "$T" --level si --seed 7 \
    --version-order-out "$H.vo" -o "$H" || exit 2
echo "history: $H ($S sessions x $T transactions, isocheck gen --level si --seed 7)"
printf '| given | constraints (scan -> pruned) | solver vars | graph s | prune s | solve s | verify s | white-box | wall s (both answers) |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
row() {   # label, -v stderr section, verdict, rc, wall
  local w=$2 times cons vars
  times=$(echo "$w" | sed -n 's/^\[si\] graph \([0-9.]*\)s  prune \([0-9.]*\)s  encode [0-9.]*s  solve \([0-9.]*\)s  verify \([0-9.]*\)s.*/\1 | \2 | \3 | \4/p' | head -1)
  cons=$(echo "$w" | sed -n 's/.*constraints \([0-9]*\) -> \([0-9]*\) after.*/\1 -> \2/p' | head -1)
  vars=$(echo "$w" | sed -n 's/^\[si\] solver: \([0-9]*\) vars.*/\1/p' | head -1)
  printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$cons" "${vars:-0 (not called)}" "$times" "$3 (exit $4)" "$5"
}
for pct in 0 25 50 75 100; do
  V=$OUT/vo-$pct.txt
  awk -v p="$pct" 'BEGIN { srand(11) } /^#/ { next } {
      printf "%s", $1; for (i = 2; i <= NF; i++) if (rand() * 100 < p) printf " %s", $i; printf "\n" }' "$H.vo" > "$V"
  t0=$(date +%s.%N)
  "$I" check -v --threads "$THREADS" --version-order "$V" "$H" > "$OUT/out-$pct.txt" 2> "$OUT/err-$pct.txt"
  rc=$?
  t1=$(date +%s.%N)
  wall=$(echo "$t1 - $t0" | bc)
  if [ "$pct" = 0 ]; then      # the black-box answer of the same run: the stages before "white-box si"
    row "black-box" "$(sed -n '/^white-box si/q;p' "$OUT/err-$pct.txt")" \
      "$(sed -n 's/^\([A-Z]*\) si:.*/\1/p' "$OUT/out-$pct.txt")" "$rc" "(same run)"
  fi
  row "$pct %" "$(sed -n '/^white-box si/,$p' "$OUT/err-$pct.txt")" \
    "$(sed -n 's/^white-box \([A-Z]*\) si:.*/\1/p' "$OUT/out-$pct.txt")" "$rc" "$(printf %.2f "$wall")"
done
echo "uptime: $(uptime)"
