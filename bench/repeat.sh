#!/bin/bash
# bench/repeat.sh — histories whose written values repeat (issue 35).
#   1. VeriStrong's Cobra logs twitter-10k, rubis-10k, tpcc-10k (from
#      CzxingcHen/VeriStrong history/fig13-14-15-table1; not in the repo):
#      looked for in $VS (default /work/notes/vs); missing ones are named and
#      skipped.  SER's verdict, wall time and peak memory (VeriStrong on this
#      machine: twitter-10k 147 s / 727 MB, rubis-10k no answer in 300 s).
#   2. Generated histories (isocheck gen --repeat-values F, SER store, so
#      every one passes ser): 1 %, 10 %, 50 % of writes repeat an earlier
#      value of the key, at 10k and 100k transactions.
#   3. A history without a repeated value, this binary against $BASE (default
#      /work/base/isocheck) in the same run: it must not get slower.
#   4. Lists (issue 35, repeated appends): bench/gen_list_history.py at 10k
#      transactions (an SI store), 0 %, 1 %, 10 %, 50 % of appends repeating a
#      value of their key; si and the weak levels rc,ra,cc (this binary; the
#      0 % history against $BASE too: it must not get slower; REPS runs each,
#      the best kept).
# Usage: bench/repeat.sh [ISOCHECK]   (one run each; note the load: uptime;
#        LISTS_ONLY=1: part 4 only)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ISO=${1:-$here/../build/isocheck}
VS=${VS:-/work/notes/vs}
BASE=${BASE:-/work/base/isocheck}
LIMIT=${LIMIT:-600}
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
echo "# $(uptime)"
echo "# revision $(cd "$here/.." && revision)"
printf '%-28s %-8s %9s %8s\n' history verdict wall_s peak_mb
if [ "${LISTS_ONLY:-0}" != 1 ]; then
for d in twitter-10k rubis-10k tpcc-10k; do
  if [ ! -d "$VS/$d" ]; then echo "$d: not found in $VS (VeriStrong's history/fig13-14-15-table1; set VS)"; continue; fi
  set -- $(run_measured "$t/log" "$LIMIT" "$ISO" check --level ser "$VS/$d")
  printf '%-28s %-8s %9s %8s\n' "$d" "$1" "$2" "$3"
done
for n in 10000 100000; do
  for f in 0.01 0.1 0.5; do
    s=$((n / 500))
    "$ISO" gen --level ser --sessions 20 --txns $((n / 20)) --ops 8 --keys $((n / 5)) --repeat-values $f --seed 1 \
      -o "$t/g.txt" --force > /dev/null || exit 1
    set -- $(run_measured "$t/log" "$LIMIT" "$ISO" check --level ser "$t/g.txt")
    printf '%-28s %-8s %9s %8s\n' "gen ${n} repeat $f" "$1" "$2" "$3"
  done
done
"$ISO" gen --level ser --sessions 20 --txns 5000 --ops 8 --keys 20000 --seed 1 -o "$t/u.txt" --force > /dev/null || exit 1
for b in "$ISO" "$BASE"; do
  [ -x "$b" ] || { echo "$b: not found"; continue; }
  set -- $(run_measured "$t/log" "$LIMIT" "$b" check --level all "$t/u.txt")
  printf '%-28s %-8s %9s %8s\n' "unique 100k ($(basename "$(dirname "$b")"))" "$1" "$2" "$3"
done
fi
REPS=${REPS:-3}
best() {   # best wall of REPS runs: "verdict wall peak"
  local b=9e9 v=ERROR m=0 r
  for _ in $(seq "$REPS"); do
    r=($(run_measured "$t/log" "$LIMIT" "$@"))
    v=${r[0]}; m=${r[2]}
    b=$(awk -v a="$b" -v c="${r[1]}" 'BEGIN { print (c < a ? c : a) }')
  done
  echo "$v $b $m"
}
for f in 0 0.01 0.1 0.5; do
  python3 "$here/gen_list_history.py" --txns 10000 --keys 2000 --repeat $f --seed 1 > "$t/l$f.edn" || exit 1
  for lv in si rc,ra,cc; do
    set -- $(best "$ISO" check --level $lv "$t/l$f.edn")
    printf '%-28s %-8s %9s %8s\n' "list 10k repeat $f ($lv)" "$1" "$2" "$3"
    if [ "$f" = 0 ] && [ -x "$BASE" ]; then
      set -- $(best "$BASE" check --level $lv "$t/l$f.edn")
      printf '%-28s %-8s %9s %8s\n' "list 10k repeat 0 ($lv, base)" "$1" "$2" "$3"
    fi
  done
done
