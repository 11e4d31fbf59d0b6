#!/bin/bash
# bench/ladder.sh — the whole ladder against the two session searches: on
# the eleven histories of bench/check.sh (bench/compare.sh's list), CPU
# (user+sys) and peak memory of `check --level ladder` and of
# `check --level all` (si, ser) with the same binary, one run each,
# interleaved; then the ratio per history and in total.  The issue-32 goal:
# the ladder in at most 2x `--level all`.  With LEVELS=1 it also times each
# of si, si-plain, ser, ser-plain alone.  With BASE=BINARY the same runs of
# that binary are interleaved with them (columns base_all, base_lad, and
# its ratio), so a change is measured against its base in one run.
#
# FLAGS are given to every run (FLAGS="--max-anomalies 10": the ladder lists
# as many anomalies per failing level as `all` does).
#
#   [BIN=build/isocheck] [BASE=...] [FLAGS=...] [THREADS=1] [LEVELS=1] bench/ladder.sh [HISTORY...]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
BIN=${BIN:-$root/build/isocheck}; T=${THREADS:-1}
D=${DATA:-$root/../shared/data}/polysi-histories
[ -d "$D" ] || D=/work/shared/data/polysi-histories
W=$(mktemp -d /tmp/ladder.XXXXXX); trap 'rm -rf "$W"' EXIT
if [ $# -gt 0 ]; then hist="$*"; else
  hist="$D/violations/galera/galera.txt $D/violations/yugabyte/yugabyte.txt $D/violations/dgraph/history.bincode"
  for s in 20_100_15_10000_0.5_uniform 20_100_15_10000_0.5_zipf; do hist="$hist $(ls -d $D/fig7/$s/hist-00000/history.bincode)"; done
  for s in 0.95 0.5 0.3; do hist="$hist $(ls -d $D/fig8_9_10/25_400_8_10000_${s}_uniform/hist-00000/history.bincode 2>/dev/null || ls -d $D/fig8_9_10/*_${s}_*/hist-00000/* | head -1)"; done
  for s in rubis tpcc twitter; do hist="$hist $D/fig8_9_10/$s-10000/hist-00000"; done
fi
echo "== start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) bin $BIN${BASE:+ base $BASE} threads $T flags '${FLAGS:-}'"
run() {   # [B=binary] run LEVEL HISTORY -> "cpu MB" (and the verdict lines in $W/out)
  /usr/bin/time -f "%U %S %M" -o $W/t "${B:-$BIN}" check --level "$1" --threads $T ${FLAGS:-} "$2" > $W/out 2>/dev/null
  read -r u s m < <(grep -E '^[0-9.]+ [0-9.]+ [0-9]+$' $W/t | tail -1)   # a killed run: its "terminated" line is skipped
  echo "$(echo "${u:-0} + ${s:-0}" | bc) $((${m:-0} / 1024))"
}
printf "%-34s %8s %8s %6s %7s %9s" history all_cpu lad_cpu ratio all_MB ladder_MB
[ -n "${BASE:-}" ] && printf " %8s %8s %6s %7s %9s" base_all base_lad b_ratio b_allMB b_ladMB
echo
ta=0; tl=0; tba=0; tbl=0
for h in $hist; do
  name=$(echo "$h" | sed "s|$D/||; s|/hist-00000.*||")
  read -r ca ma < <(run all "$h")
  read -r cl ml < <(run ladder "$h")
  ta=$(echo "$ta + $ca" | bc); tl=$(echo "$tl + $cl" | bc)
  printf "%-34s %8s %8s %6s %7d %9d" "$name" "$ca" "$cl" "$(echo "scale=2; $cl / ($ca + 0.001)" | bc)" "$ma" "$ml"
  if [ -n "${BASE:-}" ]; then
    read -r cba mba < <(B=$BASE run all "$h")
    read -r cbl mbl < <(B=$BASE run ladder "$h")
    tba=$(echo "$tba + $cba" | bc); tbl=$(echo "$tbl + $cbl" | bc)
    printf " %8s %8s %6s %7d %9d" "$cba" "$cbl" "$(echo "scale=2; $cbl / ($cba + 0.001)" | bc)" "$mba" "$mbl"
  fi
  echo
  if [ -n "${LEVELS:-}" ]; then
    line="   "
    for l in si si-plain ser ser-plain; do
      read -r c m < <(run $l "$h"); v=$(grep -oE "^(PASS|FAIL|UNKNOWN)" $W/out | head -1)
      line="$line $l ${c}s ${m}MB $v;"
    done
    echo "$line"
  fi
done
echo "total CPU: all $ta s, ladder $tl s, ladder/all $(echo "scale=2; $tl / $ta" | bc)"
[ -n "${BASE:-}" ] && echo "base total CPU: all $tba s, ladder $tbl s, ladder/all $(echo "scale=2; $tbl / $tba" | bc)"
echo "== done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
