#!/bin/bash
# bench/hints.sh — checking with the database's own order (doc/checker.md,
# "Checking with a version order hint", "Checking with a commit order or
# timestamps").
#
#   bench/hints.sh [SESSIONS TXNS]       the partial-order curve (default 100 x 1000: 100k transactions)
#   bench/hints.sh big [SESSIONS TXNS]   1M transactions (default 100 x 10000): every hint, si and ser
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
# Big (issue 33's speed goal: 1M transactions with a complete version order
# or commit timestamps in under 5 s and 1 GB on two cores): `isocheck gen
# --sessions S --txns T --ops 8 --keys 100000 --times --seed 7` at si and at
# ser, each with the store's own version order (--version-order-out) and
# commit order (--commit-order-out); --db-timestamps at ser on a one-session
# run of the same size (its commit timestamps are a serialization: a
# read-only transaction of a 100-session ser run serializes at its
# snapshot, not at its commit timestamp).  Each hint and level checked
# with --white-box-only (the hint's check alone; loading included) under
# /usr/bin/time: wall s, user + sys CPU s, peak MB; with BASE=<an older
# isocheck> each row runs BASE then this build, one after the other, and
# prints both (the ratio new/base of wall and CPU).
# Results: build/bench/hints/ (raw), tables on stdout; note `uptime`.
# env: ISOCHECK (build/isocheck), BASE (none), THREADS (2)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
I=${ISOCHECK:-$ROOT/build/isocheck}
THREADS=${THREADS:-2}
OUT=$ROOT/build/bench/hints; mkdir -p "$OUT"
echo "uptime: $(uptime)"

big() {
  local S=${1:-100} T=${2:-10000} lv
  for lv in si ser; do
    local H=$OUT/big-$lv-$S-$T.txt
    [ -s "$H" ] && [ -s "$H.vo" ] && [ -s "$H.co" ] || "$I" gen --force --sessions "$S" --txns "$T" --ops 8 --keys 100000 \
        --times --level "$lv" --seed 7 --version-order-out "$H.vo" --commit-order-out "$H.co" -o "$H" >/dev/null || exit 2
  done
  local Hs=$OUT/big-serial-$((S * T)).txt
  [ -s "$Hs" ] || "$I" gen --force --sessions 1 --txns $((S * T)) --ops 8 --keys 100000 --times --level ser --seed 7 \
      -o "$Hs" >/dev/null || exit 2
  echo "histories: $OUT/big-{si,ser}-$S-$T.txt ($S x $T, ops 8, keys 100000), $Hs (1 session, ser)"
  printf '| level | hint | binary | verdict | wall s | CPU s | peak MB |\n|---|---|---|---|---|---|---|\n'
  one() {   # binary label level hint-args... history
    local bin=$1 label=$2 lv=$3 log=$OUT/big-$2-$3-$4.log
    shift 3
    /usr/bin/time -f "%e %U %S %M" -o "$log.time" "$bin" check --white-box-only --threads "$THREADS" --level "$lv" "$@" \
      > "$log.out" 2> "$log"
    local rc=$? v
    v=$(sed -n 's/^white-box \([A-Z]*\) s[ei]r*:.*/\1/p' "$log.out" | paste -sd/)
    read -r wall user sys kb < "$log.time"
    printf '| %s | %s | %s | %s (exit %s) | %s | %.2f | %d |\n' "$lv" "$1" "$label" "$v" "$rc" "$wall" \
      "$(echo "$user + $sys" | bc)" "$((kb / 1024))"
  }
  run() {   # level hint-args... history
    [ -n "${BASE:-}" ] && one "$BASE" base "$@"
    one "$I" new "$@"
  }
  for lv in si ser; do
    local H=$OUT/big-$lv-$S-$T.txt
    run "$lv" --version-order "$H.vo" "$H"
    run "$lv" --commit-order "$H.co" "$H"
  done
  run si --db-timestamps "$OUT/big-si-$S-$T.txt"
  run ser --db-timestamps "$Hs"
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
