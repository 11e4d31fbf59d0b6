#!/bin/bash
# bench/latency.sh — detection latency of `check --follow` against the size
# of the history seen so far (issue 17: "a violation is detected less than
# 100 ms after the transaction that completes it arrives, at every point of
# that stream"; plot the latency against history size).
#
# One generated history (isocheck gen, text, SESS sessions (default 100),
# 8 ops per transaction, KEYS keys (default 100,000): the 1M stream of
# issue 17) is cut into batches of BATCH transactions.  For each of POINTS
# points spread over the stream, a run streams the batches through a pipe
# (a batch's lines written at once, then a pause of PAUSE s) with a lost
# update (5 transactions on keys of their own, complete within their batch,
# as in bench/online.sh) inserted at that point, and stops once the
# violation is reported (or MAXAFTER batches later).  The latency is
# measured from the moment the writer starts writing the batch that
# completes the violation to the DETECTED line ("proven"), and to the
# explanation ("reported"); both clocks start with the pipeline.  Also
# printed: the longest single check of the run, and how far behind the
# writer the checker was (bytes written but not yet read are not visible;
# the checks' count is).
#   [KEYS=N] [SESS=N] [ISOCHECK=bin] [MAXAFTER=N] [OUT=dir]
#       bench/latency.sh [TXNS (1000000)] [POINTS (10)] [BATCH (1000)] [PAUSE (0.02)]
# Writes OUT/results.tsv (default bench/out/latency) and, with gnuplot,
# doc/online-latency.png.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
ISO=${ISOCHECK:-build/isocheck}
TXNS=${1:-1000000}; POINTS=${2:-10}; BATCH=${3:-1000}; PAUSE=${4:-0.02}
SESS=${SESS:-100}; KEYS=${KEYS:-100000}; MAXAFTER=${MAXAFTER:-50}
OUT=${OUT:-$ROOT/bench/out/latency}
case "$TXNS$POINTS$BATCH" in *[!0-9]*) echo "latency: TXNS, POINTS and BATCH are whole numbers" >&2; exit 2;; esac
[ "$POINTS" -ge 1 ] && [ "$BATCH" -ge 1 ] && [ "$TXNS" -ge $((BATCH * POINTS)) ] ||
  { echo "latency: need TXNS >= BATCH * POINTS and both >= 1" >&2; exit 2; }
[ -x "$ISO" ] || { echo "latency: build isocheck first (make)" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
t=$(mktemp -d) || exit 2
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$t"' EXIT
now() { date +%s.%N; }

"$ISO" gen --sessions "$SESS" --txns $((TXNS / SESS)) --ops 8 --keys "$KEYS" --seed 7 --level si \
  -o "$t/h.txt" --force >/dev/null || { echo "latency: gen failed" >&2; exit 2; }
lines=$(wc -l < "$t/h.txt"); nb=$((TXNS / BATCH)); per=$((lines / nb))
split -l "$per" -a 6 -d "$t/h.txt" "$t/clean."
chunks=("$t"/clean.[0-9]*)
printf 'w(999999,900001,901,90000001)\nr(999999,900001,901,90000002)\nw(999999,900002,901,90000002)\nr(999999,900001,902,90000003)\nw(999999,900003,902,90000003)\nr(999998,0,901,90000004)\nr(999998,0,902,90000005)\n' > "$t/bad"

res=$OUT/results.tsv
echo "machine: $(nproc) cores; $SESS sessions, $KEYS keys; $TXNS transactions in batches of $BATCH, pause ${PAUSE}s; $ISO"
printf 'txns_before\tproven_ms\treported_ms\tlongest_check_s\tchecks\tload1\n' > "$res"
printf '%-12s %-10s %-10s %-14s %-8s %s\n' "txns before" proven reported "longest check" checks "load (1 5 15)"
fail=0
for i in $(seq 1 "$POINTS"); do
  bad=$(( (i * ${#chunks[@]}) / POINTS - 1 ))       # the violation goes in front of this batch
  before=$(( bad * BATCH ))
  rm -f "$t/f.out" "$t/f.err" "$t/pipe"; mkfifo "$t/pipe" || exit 2
  "$ISO" check -v --follow - < "$t/pipe" > "$t/f.out" 2> "$t/f.err" & pid=$!
  exec 3> "$t/pipe"
  start=$(now); at=
  for ((c = 0; c < ${#chunks[@]}; c++)); do
    if [ $c = $bad ]; then at=$(now); cat "$t/bad" "${chunks[$c]}" >&3 || break
    else cat "${chunks[$c]}" >&3 || break; fi
    sleep "$PAUSE"
    if [ -n "$at" ]; then
      grep -q 'explained at' "$t/f.err" 2>/dev/null && break
      [ $c -ge $((bad + MAXAFTER)) ] && break
    fi
  done
  exec 3>&-
  # the report is out, or the stream is: give the checker MAXAFTER pauses more, then stop it
  for ((k = 0; k < 200; k++)); do grep -q 'explained at' "$t/f.err" 2>/dev/null && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
  kill $pid 2>/dev/null; wait $pid 2>/dev/null; pid=
  det=$(sed -n 's/^DETECTED after \([0-9.]*\)s.*/\1/p' "$t/f.out" | head -1)
  expl=$(sed -n 's/.*explained at \([0-9.]*\)s.*/\1/p' "$t/f.err" | head -1)
  ms() { awk -v d="${1:-0}" -v a="$at" -v s="$start" 'BEGIN{ if (d == 0) print "never"; else printf "%.0f", (d - (a - s)) * 1000 }'; }
  p=$(ms "$det"); r=$(ms "$expl")
  longest=$(sed -n 's/.*longest check \([0-9.]*\)s.*/\1/p' "$t/f.err" | head -1)
  checks=$(sed -n 's/.*follow: \([0-9]*\) checks of the settled part.*/\1/p' "$t/f.err" | head -1)
  load=$(cut -d' ' -f1 /proc/loadavg)
  [ "$p" = never ] && fail=1
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$before" "$p" "$r" "${longest:--}" "${checks:--}" "$load" >> "$res"
  printf '%-12s %-10s %-10s %-14s %-8s %s\n' "$before" "${p}ms" "${r}ms" "${longest:--}s" "${checks:--}" "$(cut -d' ' -f1-3 /proc/loadavg)"
done
[ $fail = 0 ] || echo "latency: a violation was not detected (see the rows marked never)" >&2
echo "results: $res"

if command -v gnuplot >/dev/null; then
  gnuplot -e "set terminal pngcairo size 900,500; set output '$ROOT/doc/online-latency.png';
    set title 'check --follow: detection latency ($SESS sessions, batches of $BATCH, pause ${PAUSE}s)';
    set xlabel 'transactions before the violation'; set ylabel 'ms after its batch began to arrive';
    set key top left; set yrange [0:*]; set grid;
    plot '$res' using 1:2 skip 1 with linespoints title 'proven (DETECTED)',
         '$res' using 1:3 skip 1 with linespoints title 'reported (explained)',
         100 with lines dashtype 2 title 'goal: 100 ms'" 2>"$OUT/gnuplot.err" &&
    echo "plot: doc/online-latency.png" || echo "latency: gnuplot failed, see $OUT/gnuplot.err" >&2
else
  echo "latency: gnuplot not installed; no plot" >&2
fi
exit $fail
