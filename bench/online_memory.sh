#!/bin/bash
# bench/online_memory.sh — memory of `isocheck check --follow --retire` over
# an unbounded-looking stream: `isocheck gen --fence-every F -o -` piped
# straight into the checker (no file), the checker's VmRSS and the bytes it
# has read (/proc/PID/io rchar, turned into transactions with the bytes per
# transaction of the same stream) sampled every second.  Prints a TSV
# (seconds, transactions read, RSS in MB) and an ASCII plot of RSS against
# transactions, then the totals from the checker's END line and
# /usr/bin/time (CPU = user+sys, peak RSS).  With gnuplot, also
# doc/online-memory.png (PLOT=0: none; the TSV is kept as OUT/memory.tsv).
# Usage:
#   [OUT=dir] [PLOT=0] bench/online_memory.sh [TXNS (default 1000000)] [extra gen options...]
# Default stream: 10 sessions x 8 ops, 100 keys uniform, 90% reads, a fence
# every 10 transactions per session (doc/benchmarks.md, "Bounded memory").
# LEVEL=sser (or strong-si): retiring by time instead, no fences: 20
# sessions x 8 ops, 10,000 keys zipf, `gen --times --level ser`, checked
# with --level LEVEL (doc/benchmarks.md, "Retiring by time"; the plot is
# doc/online-memory-LEVEL.png).
set -u
cd "$(dirname "$0")/.." || exit 2
ISO=${ISOCHECK:-build/isocheck}
TXNS=${1:-1000000}; shift || true
LEVEL=${LEVEL:-}
if [ -n "$LEVEL" ]; then
  SESS=20
  GEN=(gen --sessions $SESS --txns $((TXNS / SESS)) --ops 8 --keys 10000 --times --seed 7 --level ser "$@")
  CHECK=(check --follow --retire --level "$LEVEL" -)
  PNG=doc/online-memory-$LEVEL.png
else
  SESS=10
  GEN=(gen --sessions $SESS --txns $((TXNS / SESS)) --ops 8 --keys 100 --dist uniform --reads 0.9 --fence-every 10 --seed 3 --level si "$@")
  CHECK=(check --follow --retire -)
  PNG=doc/online-memory.png
fi
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
OUT=${OUT:-bench/out/online_memory}
mkdir -p "$OUT" || exit 2
echo "# load: $(uptime | sed 's/.*load average: //')"
echo "# stream: isocheck ${GEN[*]} -o - | isocheck ${CHECK[*]}"
mkfifo "$t/pipe" || exit 2
"$ISO" "${GEN[@]}" -o - --no-truth > "$t/pipe" &
/usr/bin/time -v -o "$t/time" "$ISO" "${CHECK[@]}" < "$t/pipe" > "$t/out" 2>&1 &
timer=$!
pid=
while [ -z "$pid" ] && kill -0 "$timer" 2>/dev/null; do pid=$(pgrep -P "$timer"); sleep 0.05; done
start=$(date +%s.%N)
echo -n > "$t/raw"
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/VmRSS/{print $2}' "/proc/$pid/status" 2>/dev/null)
  rch=$(awk '/rchar/{print $2}' "/proc/$pid/io" 2>/dev/null)
  [ -n "$rss" ] && [ -n "$rch" ] && echo "$(date +%s.%N) $rch $rss" >> "$t/raw"
  sleep 1
done
wait
# bytes read -> transactions: the checker reads the whole stream (TXNS transactions) before its final check
awk -v s="$start" -v n="$TXNS" '{ t[NR] = $1; r[NR] = $2; k[NR] = $3; if ($2 > m) m = $2 }
  END { print "seconds\ttransactions\trss_mb"
        for (i = 1; i <= NR; i++) printf "%.0f\t%.0f\t%.1f\n", t[i] - s, m ? r[i] * n / m : 0, k[i] / 1024 }' "$t/raw" > "$t/tsv"
cat "$t/tsv"
echo "# RSS (MB) against transactions read"
awk -F'\t' 'NR > 1 { n++; x[n] = $2; y[n] = $3; if ($3 > m) m = $3 }
  END { step = n > 40 ? int(n / 40) : 1
        for (i = 1; i <= n; i += step) { w = m > 0 ? int(50 * y[i] / m) : 0; bar = ""; for (j = 0; j < w; j++) bar = bar "#"
          printf "%10d %7.1f %s\n", x[i], y[i], bar } }' "$t/tsv"
grep -E '^END|^PASS|^FAIL|^DETECTED' "$t/out"
awk -F': ' '/User time/{u=$2} /System time/{s=$2} /Elapsed/{e=$2} /Maximum resident/{m=$2} END{printf "# checker: cpu %.1fs (user+sys), wall %s, peak RSS %.1f MB\n", u+s, e, m/1024}' "$t/time"
echo "# load: $(uptime | sed 's/.*load average: //')"
cp "$t/tsv" "$OUT/memory.tsv" || exit 2
if [ "${PLOT:-1}" != 0 ] && command -v gnuplot >/dev/null; then
  gnuplot -e "set terminal pngcairo size 900,500; set output '$PNG';
    set title 'check ${CHECK[*]}: resident memory over a $TXNS-transaction stream';
    set xlabel 'transactions read (millions)'; set ylabel 'RSS (MB)'; set yrange [0:*]; set grid; set key off;
    plot '$OUT/memory.tsv' using (\$2/1e6):3 skip 1 with lines lw 2" 2>"$OUT/gnuplot.err" &&
    echo "# plot: $PNG" || echo "online_memory: gnuplot failed, see $OUT/gnuplot.err" >&2
fi
