#!/bin/bash
# bench/reads.sh — cost of reading every read fully (issue 13: list reads
# after own appends, participants to a fixpoint, the independent re-checks
# in frontend/recheck/): CPU time (user+sys) and peak memory
# of `isocheck check --level all --certificate` and `isocheck verify`, for
# this build and, when OLD points at another isocheck binary, for that one
# in the same run, alternating runs so that load changes hit both alike.
#
#   OLD=/path/to/old/isocheck bench/reads.sh [--reps N] [--txns N]
#
# Timed per binary: `check --level all`, `check --level si --certificate`
# and `verify` of that certificate (both histories satisfy SI).
#
# Histories: `isocheck gen --level si` registers (50 sessions, N
# transactions, 10 ops, 100,000 keys, seed 7) and a list-append one from
# bench/gen_list_history.py (N/5 transactions, 20 sessions, 1,000 keys,
# half the appends followed by a read of the same key).  Prints one line
# per binary and history with the median over the runs, and `uptime`.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/.." && pwd)
NEW=${NEW:-$root/build/isocheck}
OLD=${OLD:-}
reps=3; txns=100000
while [ $# -gt 0 ]; do case $1 in
  --reps) reps=$2; shift;; --txns) txns=$2; shift;;
  *) echo "usage: OLD=... $0 [--reps N] [--txns N]" >&2; exit 2;; esac; shift; done
[ -x "$NEW" ] || { echo "reads: build isocheck first (make)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$NEW" gen --sessions 50 --txns $((txns / 50)) --ops 10 --keys 100000 --level si --seed 7 --no-truth -o "$tmp/reg.txt" >/dev/null
python3 "$here/gen_list_history.py" --txns $((txns / 5)) --sessions 20 --keys 1000 --ops 8 --rmw 0.5 --seed 7 > "$tmp/list.edn"

# one run: "cpu_s peak_mb exit"
run() {
  /usr/bin/time -f '%U %S %M' -o "$tmp/t" "$@" > "$tmp/out" 2>&1
  local rc=$?
  tail -1 "$tmp/t" | awk -v rc=$rc '{printf "%.2f %.0f %d\n", $1 + $2, $3 / 1024, rc}'   # (time may add a status line first)
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }

echo "# $(date -u +%F) $(nproc) cores; load at start: $(uptime | sed 's/.*load average: //')"
for h in reg.txt list.edn; do
  fmt=""; case $h in *.edn) fmt="--format elle";; esac
  for b in NEW OLD; do eval "bin=\$$b"; [ -n "$bin" ] || continue; : > "$tmp/$b.all"; : > "$tmp/$b.si"; : > "$tmp/$b.verify"; done
  for r in $(seq "$reps"); do
    for b in NEW OLD; do
      eval "bin=\$$b"; [ -n "$bin" ] || continue
      run "$bin" check $fmt --level all "$tmp/$h" >> "$tmp/$b.all"
      rm -f "$tmp/c.$b"
      run "$bin" check $fmt --level si --certificate "$tmp/c.$b" "$tmp/$h" >> "$tmp/$b.si"
      [ -s "$tmp/c.$b" ] && run "$bin" verify $fmt "$tmp/$h" "$tmp/c.$b" >> "$tmp/$b.verify"
    done
  done
  for b in NEW OLD; do
    eval "bin=\$$b"; [ -n "$bin" ] || continue
    line="$h $b:"
    for what in all si verify; do
      f="$tmp/$b.$what"
      [ -s "$f" ] || { line="$line $what —;"; continue; }
      line="$line $what cpu $(awk '{print $1}' "$f" | median)s peak $(awk '{print $2}' "$f" | median)MB exit $(awk '{print $3}' "$f" | sort -u | tr '\n' ' ' | sed 's/ $//');"
    done
    echo "$line"
  done
done
echo "# load at end: $(uptime | sed 's/.*load average: //')"
