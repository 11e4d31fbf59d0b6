#!/bin/bash
# bench/online.sh — `isocheck check --follow` against a batch check of the
# same history: a generated history (isocheck gen, text) is streamed through
# a pipe in batches of BATCH transactions' lines (default 1,000), with a
# violation (a lost update on a key of its own) appended after the first
# FRACTION of it.  Prints, for the batch check and the follow run: CPU time
# (user+sys), wall time, peak memory, and for the follow run the detection
# time (stream start to the DETECTED line) minus the time the anomaly's
# lines were written (the detection latency).  Usage:
#   bench/online.sh [TXNS (default 20000)] [BATCH (default 1000)]
# Not run by make bench yet: the follow path re-parses and re-checks the
# settled part per batch, so its cost grows quadratically with TXNS.
set -u
cd "$(dirname "$0")/.." || exit 2
. bench/lib.sh
ISO=${ISOCHECK:-build/isocheck}
TXNS=${1:-20000}; BATCH=${2:-1000}
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
SESS=20
"$ISO" gen --sessions $SESS --txns $((TXNS / SESS)) --ops 8 --keys 10000 --seed 7 --level si -o "$t/h.txt" --force >/dev/null || exit 2
lines=$(wc -l < "$t/h.txt"); per=$((lines / (TXNS / BATCH)))
cut_at=$((lines / 2))
{ head -n $cut_at "$t/h.txt"
  printf 'w(999999,900001,901,90000001)\nr(999999,900001,901,90000002)\nw(999999,900002,901,90000002)\n'
  printf 'r(999999,900001,902,90000003)\nw(999999,900003,902,90000003)\nr(999998,0,901,90000004)\nr(999998,0,902,90000005)\n'
  tail -n +$((cut_at + 1)) "$t/h.txt"; } > "$t/s.txt"
cpu() { awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.2f", u+s}' "$1"; }
echo "load: $(uptime | sed 's/.*load average: //')"
/usr/bin/time -v -o "$t/batch.time" "$ISO" check "$t/s.txt" > "$t/batch.out"; echo "batch exit $?"
# the writer: BATCH transactions' worth of lines at a time, logging when the anomaly's lines go out
writer() {
  local n=0 start; start=$(date +%s.%N)
  while IFS= read -r l; do
    printf '%s\n' "$l"; n=$((n + 1))
    [ "$l" = 'r(999998,0,902,90000005)' ] && echo "$(date +%s.%N) $start" > "$t/anomaly.at"
    [ $((n % per)) = 0 ] && sleep 0.01
  done < "$t/s.txt"
}
writer | /usr/bin/time -v -o "$t/follow.time" "$ISO" check --follow - > "$t/follow.out"; echo "follow exit $?"
det=$(grep -m1 '^DETECTED' "$t/follow.out" | sed 's/DETECTED after \([0-9.]*\)s.*/\1/')
read -r at start < "$t/anomaly.at"
echo "transactions $TXNS, batches of $BATCH ($per lines)"
echo "batch : cpu $(cpu "$t/batch.time")s peak $(awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}' "$t/batch.time") MB"
echo "follow: cpu $(cpu "$t/follow.time")s peak $(awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}' "$t/follow.time") MB"
echo "detected at ${det:-never}s after the follow run started; the anomaly was written at $(awk -v a="$at" -v s="$start" 'BEGIN{printf "%.3f", a - s}')s after the writer started"
echo "load: $(uptime | sed 's/.*load average: //')"
