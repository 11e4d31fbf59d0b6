#!/bin/bash
# bench/hints.sh — the partial-order curve (Clark et al.'s Fig. 14, King
# Cobra): how the white-box check's work falls as 0, 25, 50, 75, 100 % of
# the version order is given (doc/checker.md, "Checking with a version
# order hint").
#
#   bench/hints.sh [SESSIONS TXNS]         (default 100 x 1000: 100k transactions)
#
# One generated SI history (isocheck gen --version-order-out, the store's
# own order, so every hint is true); each fraction keeps that share of
# every key's versions, in order (a seeded awk draw), the 0 % file lists
# nothing, so its white-box check is the black-box one.  For each
# fraction: the white-box SI stage times and counts from -v (constraints
# after the scan and after pruning, solver variables; no "solver:" line
# means the solver was not called) and the wall time of the whole run
# (both answers).  Results: build/bench/hints/ (raw), a table on stdout.
# env: ISOCHECK (build/isocheck), THREADS (2)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
I=${ISOCHECK:-$ROOT/build/isocheck}
S=${1:-100}; T=${2:-1000}
THREADS=${THREADS:-2}
OUT=$ROOT/build/bench/hints; mkdir -p "$OUT"
H=$OUT/h-$S-$T.txt
[ -s "$H" ] && [ -s "$H.vo" ] || "$I" gen --force --sessions "$S" --txns "$T" --level si --seed 7 \
    --version-order-out "$H.vo" -o "$H" || exit 2
echo "history: $H ($S sessions x $T transactions, isocheck gen --level si --seed 7)"
printf '| given | constraints (scan -> pruned) | solver vars | graph s | prune s | solve s | verify s | white-box | wall s (both answers) |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for pct in 0 25 50 75 100; do
  V=$OUT/vo-$pct.txt
  awk -v p="$pct" 'BEGIN { srand(11) } /^#/ { next } {
      printf "%s", $1; for (i = 2; i <= NF; i++) if (rand() * 100 < p) printf " %s", $i; printf "\n" }' "$H.vo" > "$V"
  t0=$(date +%s.%N)
  "$I" check -v --threads "$THREADS" --version-order "$V" "$H" > "$OUT/out-$pct.txt" 2> "$OUT/err-$pct.txt"
  rc=$?
  t1=$(date +%s.%N)
  w=$(sed -n '/^white-box si/,$p' "$OUT/err-$pct.txt")
  times=$(echo "$w" | sed -n 's/^\[si\] graph \([0-9.]*\)s  prune \([0-9.]*\)s  encode [0-9.]*s  solve \([0-9.]*\)s  verify \([0-9.]*\)s.*/\1 | \2 | \3 | \4/p' | head -1)
  cons=$(echo "$w" | sed -n 's/.*constraints \([0-9]*\) -> \([0-9]*\) after.*/\1 -> \2/p' | head -1)
  vars=$(echo "$w" | sed -n 's/^\[si\] solver: \([0-9]*\) vars.*/\1/p' | head -1)
  verdict=$(sed -n 's/^white-box \([A-Z]*\) si:.*/\1/p' "$OUT/out-$pct.txt")
  printf '| %s %% | %s | %s | %s | %s | %.2f |\n' "$pct" "$cons" "${vars:-0 (not called)}" "$times" "$verdict (exit $rc)" \
    "$(echo "$t1 - $t0" | bc)"
done
