#!/bin/sh
# load.sh — history loading time and peak memory (`isocheck stats`, and
# `isocheck check` = load + axioms) on the largest shared history and on a
# synthetic 1M-transaction x 15-op text history, next to `cat` of the same
# bytes as the I/O floor.  Usage: bench/load.sh [TXNS]   (build first: make)
root=$(cd "$(dirname "$0")/.." && pwd)
iso="$root/build/isocheck"
txns=${1:-1000000}
big="${TMPDIR:-/tmp}/isocheck-load-$txns.txt"
[ -s "$big" ] || nice "$root/bench/gen_text_history.sh" "$txns" 15 100 100000 > "$big"
tpcc="$root/../shared/data/polysi-histories/fig8_9_10/tpcc-10000/hist-00000"
measure() {  # label command...
  label=$1; shift
  /usr/bin/time -f "%e %M" "$@" > /dev/null 2> "${TMPDIR:-/tmp}/isocheck-load.time"
  set -- $(tail -n 1 "${TMPDIR:-/tmp}/isocheck-load.time")
  printf '%-34s %7.2f s %9d KB\n' "$label" "$1" "$2"
}
for h in "$tpcc" "$big"; do
  [ -e "$h" ] || continue
  echo "== $h ($(du -sh "$h" | cut -f1))"
  measure "cat (I/O floor)" sh -c "cat '$h'/* '$h' 2>/dev/null"
  measure "isocheck stats (load)" "$iso" stats "$h"
  measure "isocheck check (load + axioms)" "$iso" check "$h"
done
