#!/bin/sh
# threads.sh — `isocheck check -v --level all` with --threads 1 and with
# --threads N on one history, back to back in one run: wall time, CPU
# (user+sys), peak RSS (/usr/bin/time), the load and index stages (-v),
# the load average before and after each run, and whether the outputs are
# byte-identical.  Usage: [BASE=other/isocheck] bench/threads.sh HISTORY [N] [REPS]
# (default N 2, REPS 1; runs alternate 1, N, 1, N, ...; build first: make).
# With BASE set, that binary (say main's build) runs 1 and N too in each
# repetition, so that both are measured in the same run; all outputs must
# be identical.
root=$(cd "$(dirname "$0")/.." && pwd)
iso="$root/build/isocheck"
h=${1:?usage: [BASE=other/isocheck] bench/threads.sh HISTORY [N] [REPS]}
n=${2:-2}
reps=${3:-1}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GB; commit $(cd "$root" && git rev-parse --short HEAD)"
echo "history: $h ($(du -h "$h" | cut -f1))"
[ -n "$BASE" ] && echo "base: $BASE"
printf '%-6s %-8s %9s %9s %9s %9s %9s  %-16s %-16s\n' binary threads wall_s user_s sys_s cpu_s peak_MB "load before" "load after"
r=1
while [ $r -le "$reps" ]; do
  for b in new ${BASE:+base}; do
    bin=$iso; [ "$b" = base ] && bin=$BASE
    for t in 1 "$n"; do
      before=$(loadavg)
      /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$bin" check -v --level all --threads "$t" "$h" > "$tmp/out.$b.$t" 2> "$tmp/err.$b.$t"
      echo "exit $?" >> "$tmp/out.$b.$t"
      after=$(loadavg)
      set -- $(tail -n 1 "$tmp/time")
      printf '%-6s %-8s %9.2f %9.2f %9.2f %9.2f %9.0f  %-16s %-16s\n' "$b" "$t" "$1" "$2" "$3" "$(echo "$2 + $3" | bc)" \
        "$(echo "$4 / 1024" | bc)" "$before" "$after"
      grep -o '^load [0-9.]*s  index [0-9.]*s' "$tmp/err.$b.$t" | sed 's/^/                /'
      if ! cmp -s "$tmp/out.new.1" "$tmp/out.$b.$t"; then
        echo "output of $b --threads $t: DIFFERS from new --threads 1"; diff "$tmp/out.new.1" "$tmp/out.$b.$t" | head -5
      fi
    done
  done
  r=$((r + 1))
done
echo "outputs (stdout and exit code) compared with new --threads 1 after every run (a difference is printed)"
