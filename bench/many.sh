#!/bin/sh
# many.sh — many histories on one machine: the built-in serial run
# `isocheck check --json H1 H2 ...` against examples/check-many-parallel.sh
# with 1 and 2 jobs, back to back in one run, REPS times: wall time (and
# its ratio to the serial run's), CPU (user+sys of everything started), the
# load average before each run, and whether the merged counts and exit code
# equal the serial run's (a difference is printed and the script exits 1).
# usage: [ISOCHECK=build/isocheck] bench/many.sh LIST [LEVEL] [REPS]
#   LIST: one history a line (as `isocheck check` takes it); LEVEL default si;
#   REPS default 1 (rows alternate serial, then GNU parallel -j 1, -j 2,
#   -j 2 with --threads 1, and xargs -P 2 with --threads 1).
# exit: 0 all runs agree, 1 a run disagrees, 2 bad usage or no isocheck.
root=$(cd "$(dirname "$0")/.." && pwd)
list=${1:?usage: bench/many.sh LIST [LEVEL] [REPS]}
level=${2:-si} reps=${3:-1}
ISOCHECK=${ISOCHECK:-$root/build/isocheck}
[ -x "$ISOCHECK" ] || { echo "many.sh: $ISOCHECK: build it first (make)" >&2; exit 2; }
[ -r "$list" ] || { echo "many.sh: $list: cannot read" >&2; exit 2; }
export ISOCHECK
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
parallel --version 2>/dev/null | grep -q 'GNU parallel' || { echo "many.sh: GNU parallel needed (apt-get install -y parallel)" >&2; exit 2; }
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(getconf _NPROCESSORS_ONLN) cores; commit $(git -C "$root" rev-parse --short HEAD)"
echo "histories: $(grep -c . "$list") from $list, --level $level"
printf '%-40s %8s %8s %8s  %-16s %s\n' run wall_s ratio cpu_s "load before" counts
counts() { tail -1 "$1" | sed 's/.*"summary": \({[^}]*}\), "exit": \([0-9]*\).*/\1 exit \2/'; }
# one run: NAME CMD...; wall from date, CPU from the shell's children times
measure() {
  name=$1; shift
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  t0=$(date +%s.%N)
  sh -c '"$@" >"$OUT" 2>/dev/null; times >"$OUT.times"' sh "$@"
  t1=$(date +%s.%N)
  wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
  cpu=$(awk 'NR == 2 { split($0, a, /[ ms]+/); printf "%.2f", a[1] * 60 + a[2] + a[3] * 60 + a[4] }' "$OUT.times")
  c=$(counts "$OUT")
  [ -n "$serial_wall" ] && ratio=$(echo "$wall $serial_wall" | awk '{ printf "%.2f", $1 / $2 }') || ratio=1.00
  printf '%-40s %8s %8s %8s  %-16s %s\n' "$name" "$wall" "$ratio" "$cpu" "$load" "$c"
}
ex="$root/examples/check-many-parallel.sh"
bad=0 r=0
while [ $r -lt "$reps" ]; do
  r=$((r + 1)); serial_wall=
  OUT=$tmp/serial; export OUT
  # shellcheck disable=SC2046  # one history a word, as check-many-parallel.sh -l takes them
  measure "isocheck check (serial)" sh -c 'exec "$ISOCHECK" check --json --level "$1" $(cat "$2")' sh "$level" "$list"
  serial_wall=$wall want=$(counts "$tmp/serial")
  for v in "parallel:1" "parallel:2" "parallel:2 --threads 1" "xargs:2 --threads 1"; do
    OUT=$tmp/par CHECK_MANY_RUNNER=${v%%:*} j=${v#*:}
    export CHECK_MANY_RUNNER
    set -- "$ex" -j "${j%% *}" -a "--level $level${j#?}" -l "$list"
    measure "$CHECK_MANY_RUNNER -j $j" sh "$@"
    [ "$(counts "$tmp/par")" = "$want" ] || { echo "  differs from the serial run: $want"; bad=1; }
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $bad
