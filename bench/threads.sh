#!/bin/sh
# threads.sh — `isocheck check -v --level all` with --threads 1 and with
# --threads N on one history, back to back in one run: wall time, CPU
# (user+sys), peak RSS (/usr/bin/time), the load stage (-v's "load"), the
# load average before and after each run, and whether the outputs are
# byte-identical.  Usage: bench/threads.sh HISTORY [N] [REPS]
# (default N 2, REPS 1; runs alternate 1, N, 1, N, ...; build first: make)
root=$(cd "$(dirname "$0")/.." && pwd)
iso="$root/build/isocheck"
h=${1:?usage: bench/threads.sh HISTORY [N] [REPS]}
n=${2:-2}
reps=${3:-1}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GB; commit $(cd "$root" && git rev-parse --short HEAD)"
echo "history: $h ($(du -h "$h" | cut -f1))"
printf '%-10s %9s %9s %9s %9s %9s  %-16s %-16s\n' threads wall_s user_s sys_s cpu_s peak_MB "load before" "load after"
r=1
while [ $r -le "$reps" ]; do
  for t in 1 "$n"; do
    before=$(loadavg)
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$iso" check -v --level all --threads "$t" "$h" > "$tmp/out.$t" 2> "$tmp/err.$t"
    echo "exit $?" >> "$tmp/out.$t"
    after=$(loadavg)
    set -- $(tail -n 1 "$tmp/time")
    printf '%-10s %9.2f %9.2f %9.2f %9.2f %9.0f  %-16s %-16s\n' "$t" "$1" "$2" "$3" "$(echo "$2 + $3" | bc)" \
      "$(echo "$4 / 1024" | bc)" "$before" "$after"
    grep -o '^load [0-9.]*s  index [0-9.]*s' "$tmp/err.$t" | sed 's/^/           /'
  done
  r=$((r + 1))
done
if cmp -s "$tmp/out.1" "$tmp/out.$n"; then echo "output (stdout and exit code): identical"
else echo "output: DIFFERS"; diff "$tmp/out.1" "$tmp/out.$n" | head -5; fi
