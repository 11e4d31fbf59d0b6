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
#   [KEYS=N] [SESS=N] [ISOCHECK=bin] [MAXAFTER=N] [OUT=dir] [CATCHUP=1] [RATE=1] [HIST=file]
#       bench/latency.sh [TXNS (1000000)] [POINTS (10)] [BATCH (1000)] [PAUSE (0.02)]
# Writes OUT/results.tsv (default bench/out/latency) and, with gnuplot,
# doc/online-latency.png.
#
# CATCHUP=1 (for big streams, e.g. the 10M one of issue 37:
#   TMPDIR=/work/big/me CATCHUP=1 RATE=1 KEYS=1000000 bench/latency.sh 10000000 2):
# no pacing and no batch files: for each point the history before it is
# written at full speed in one piece, the writer then waits until the
# checker has read every byte and is idle (its CPU time still for 0.3 s),
# and only then writes the violation and the next batch; so the latency is
# that of the check and the report alone, at that size, whatever the
# checker's rate (a paced stream faster than the checker only measures its
# backlog).  The write and the watch for the DETECTED and explanation lines
# are one python3 process on one clock (polled every 1 ms), not the
# checker's own times (its clock starts after its exec, which under load
# comes tens of ms after this script's clock: the paced mode's figures can
# come out too small, even negative, then).  The rate is measured apart:
# RATE=1 first follows the whole clean history at full speed, once from the
# file (`check -v --follow --idle-end 1 FILE`) and once through a pipe
# (`cat FILE | check -v --follow -`): transactions per second of the stream
# phase (its END line's time; the file run less its 1 s of idle end), the
# CPU of the stream phase (-v's parsing + checking), the whole run's wall,
# CPU and peak RSS (/usr/bin/time), and the load.  Big histories need
# TMPDIR on a disk with room (10M: 2.3 GB, twice without CATCHUP) and, on a
# shared host, the big-run lock and a memory bound (doc/benchmarks.md).
# HIST=FILE uses that history (generated with the same options) instead of
# generating it again.
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

if [ -n "${HIST:-}" ]; then ln -s "$(realpath "$HIST")" "$t/h.txt" || exit 2   # that history instead (it must be this shape)
else "$ISO" gen --sessions "$SESS" --txns $((TXNS / SESS)) --ops 8 --keys "$KEYS" --seed 7 --level si \
  -o "$t/h.txt" --force >/dev/null || { echo "latency: gen failed" >&2; exit 2; }; fi
lines=$(wc -l < "$t/h.txt"); nb=$((TXNS / BATCH)); per=$((lines / nb))
CATCHUP=${CATCHUP:-}
if [ -z "$CATCHUP" ]; then
  split -l "$per" -a 6 -d "$t/h.txt" "$t/clean."
  chunks=("$t"/clean.[0-9]*)
fi
printf 'w(999999,900001,901,90000001)\nr(999999,900001,901,90000002)\nw(999999,900002,901,90000002)\nr(999999,900001,902,90000003)\nw(999999,900003,902,90000003)\nr(999998,0,901,90000004)\nr(999998,0,902,90000005)\n' > "$t/bad"

if [ -n "${RATE:-}" ]; then
  # rate FORM: the clean history at full speed (FORM file or pipe)
  rate() {
    if [ "$1" = file ]; then
      /usr/bin/time -f "%e %U %S %M" -o "$t/r.time" "$ISO" check -v --follow --idle-end 1 "$t/h.txt" > "$t/r.out" 2> "$t/r.err"
    else
      cat "$t/h.txt" | /usr/bin/time -f "%e %U %S %M" -o "$t/r.time" "$ISO" check -v --follow - > "$t/r.out" 2> "$t/r.err"
    fi
    local idle=0; [ "$1" = file ] && idle=1
    local end cpu
    end=$(sed -n 's/^END after \([0-9.]*\)s.*/\1/p' "$t/r.out" | head -1)
    cpu=$(sed -n 's/.*follow: CPU \([0-9.]*\)s parsing, \([0-9.]*\)s checking.*/\1 \2/p' "$t/r.err" | head -1)
    awk -v f="$1" -v n="$TXNS" -v e="${end:-0}" -v i="$idle" -v c="${cpu:-0 0}" -v v="$(grep -m1 -E '^(PASS|FAIL|UNKNOWN)' "$t/r.out" | cut -c1-40)" \
        -v l="$(cut -d' ' -f1-3 /proc/loadavg)" '
      { split(c, p, " "); s = e - i; if (s <= 0) s = 1e-9
        printf "rate (%s): stream %.1f s wall = %.0f txns/s (CPU %.1f s: parsing %.1f, checking %.1f = %.0f txns per CPU s); whole run %.1f s wall, %.1f s CPU, peak %.0f MB; %s; load %s\n",
               f, s, n / s, p[1] + p[2], p[1], p[2], n / (p[1] + p[2] + 1e-9), $1, $2 + $3, $4 / 1024, v, l }' <(grep -v '^Command' "$t/r.time")
  }
  rate file
  rate pipe
fi

res=$OUT/results.tsv
echo "machine: $(nproc) cores; $SESS sessions, $KEYS keys; $TXNS transactions in batches of $BATCH, pause ${PAUSE}s; $ISO${CATCHUP:+; CATCHUP: the history before each point at full speed, then the checker idle}"
printf 'txns_before\tproven_ms\treported_ms\tlongest_check_s\tchecks\tload1\n' > "$res"
printf '%-12s %-10s %-10s %-14s %-8s %s\n' "txns before" proven reported "longest check" checks "load (1 5 15)"
fail=0
# caught_up BYTES: wait until the checker has read BYTES and its CPU time stood still for 0.3 s
caught_up() {
  local hz c0 c1; hz=$(getconf CLK_TCK)
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$(awk '/^rchar/{print $2}' "/proc/$pid/io" 2>/dev/null)" -ge "$1" ] 2>/dev/null; then
      c0=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null); sleep 0.3
      c1=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null)
      [ "$c0" = "$c1" ] && return 0
    else sleep 0.2; fi
  done
  return 1
}
for i in $(seq 1 "$POINTS"); do
  if [ -n "$CATCHUP" ]; then bad=$(( (i * nb) / POINTS - 1 )); else bad=$(( (i * ${#chunks[@]}) / POINTS - 1 )); fi
  before=$(( bad * BATCH ))                          # the violation goes in front of batch `bad`
  rm -f "$t/f.out" "$t/f.err" "$t/pipe"; mkfifo "$t/pipe" || exit 2
  "$ISO" check -v --follow - < "$t/pipe" > "$t/f.out" 2> "$t/f.err" & pid=$!
  exec 3> "$t/pipe"
  start=$(now); at=
  if [ -n "$CATCHUP" ]; then
    head -n $((bad * per)) "$t/h.txt" >&3
    caught_up "$(head -n $((bad * per)) "$t/h.txt" | wc -c)"
    at=$(now)
    awk -v a="$at" -v s="$start" -v n="$before" -v c="$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$pid/stat")" \
        -v m="$(awk '/VmHWM/{printf "%.0f", $2 / 1024}' "/proc/$pid/status")" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" \
        'BEGIN { w = a - s - 0.3; printf "prefix: %d txns through a pipe at full speed, the checker idle after %.1f s (%.0f txns/s of wall), %s s CPU (%.0f txns per CPU s), peak %d MB; load %s\n", n, w, n / w, c, (c > 0 ? n / c : 0), m, l }'
    # the violation and the next batch written, and the output watched, by one process on one clock
    # (the checker's own clock starts after its exec: under load tens of ms after this script's)
    tail -n +$((bad * per + 1)) "$t/h.txt" | head -n "$per" > "$t/next"
    lat=$(python3 - "$t/bad" "$t/next" "$t/f.out" "$t/f.err" $((MAXAFTER / 5 + 1)) <<'PY'
import os, sys, time
data = open(sys.argv[1], 'rb').read() + open(sys.argv[2], 'rb').read()
t0 = time.monotonic()
os.write(3, data)
found = {b'DETECTED': None, b'explained at': None}
limit = t0 + float(sys.argv[5])
while time.monotonic() < limit and None in found.values():
    for word, f in ((b'DETECTED', sys.argv[3]), (b'explained at', sys.argv[4])):
        if found[word] is None:
            try:
                with open(f, 'rb') as h:
                    if word in h.read(): found[word] = time.monotonic()
            except OSError:
                pass
    time.sleep(0.001)
print(' '.join('never' if v is None else '%.0f' % ((v - t0) * 1000) for v in found.values()))
PY
)
    chunks=()
  fi
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
  if [ -n "$CATCHUP" ]; then p=${lat% *}; r=${lat#* }; else p=$(ms "$det"); r=$(ms "$expl"); fi
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
