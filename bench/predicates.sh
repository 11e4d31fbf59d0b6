#!/bin/bash
# bench/predicates.sh — predicate reads (issue 34), two measurements:
#
# 1. Black-box: Elle closed-predicate histories of N transactions (default 2,500) over K
#    keys (default 500), about half of the micro-ops predicate reads
#    (bench/gen_pred_history.py: serializable by construction, so the checker does all of
#    its work), checked at LEVELS (default si,ser; rr too:
#    LEVELS=si,ser,rr) by the release build; the wall time, peak memory
#    and verdicts of R runs (default 3).  Target (issue 34): under 0.5 s for 2,500.
# 2. With a version order (BIG=100000 transactions, BIGK=50 keys, no deletes, so that the
#    text format holds it): `check --level si,ser --version-order VO` on the EDN history by
#    the base build (BASE, default /work/wt/base40/build/isocheck: this round's starting
#    point) and by this build, in one run, and by this build on the same history converted
#    to text (its rp lines: doc/formats.md "Predicate reads in text").  Target (issue 34):
#    under 5 s.  BIG=0 skips it.
#
#   [LEVELS=...] bench/predicates.sh [N] [K] [R]
#
# Results: build/bench/predicates/ (figures in doc/benchmarks.md, "Predicate reads").
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
N=${1:-2500}; K=${2:-500}; R=${3:-3}; LEVELS=${LEVELS:-si,ser}
BIG=${BIG:-100000}; BIGK=${BIGK:-50}
BASE=${BASE:-/work/wt/base40/build/isocheck}
OUT=$ROOT/build/bench/predicates; mkdir -p "$OUT"
ISO=$ROOT/build/isocheck
[ -x "$ISO" ] || make -C "$ROOT" -j2 build/isocheck > /dev/null || exit 1
H=$OUT/pred-$N-$K.edn
python3 "$ROOT/bench/gen_pred_history.py" "$N" "$K" 1 > "$H" || exit 1
echo "history: $N transactions, $K keys, $(wc -c < "$H") bytes; $(uptime | sed 's/.*load/load/')"
for i in $(seq 1 "$R"); do
  read -r v wall mb rc < <(run_measured "$OUT/run$i.log" 60 "$ISO" check --level "$LEVELS" "$H")
  cpu=$(awk -F': ' '/User time|System time/{s+=$2} END{printf "%.2f", s}' "$OUT/run$i.log.time")
  echo "run $i: $v (exit $rc) ${wall} s wall, ${cpu} s CPU, ${mb} MB  $(tr '\n' ' ' < "$OUT/run$i.log" | cut -c1-120)"
done
[ "$BIG" -gt 0 ] || exit 0
HB=$OUT/pred-vo-$BIG-$BIGK.edn VO=$OUT/pred-vo-$BIG-$BIGK.order
python3 "$ROOT/bench/gen_pred_history.py" "$BIG" "$BIGK" 1 nodelete "$VO" > "$HB" || exit 1
"$ISO" convert --to text -o "${HB%.edn}.txt" "$HB" 2> /dev/null || { echo "convert to text failed"; exit 1; }
echo "with a version order: $BIG transactions, $BIGK keys, EDN $(wc -c < "$HB") bytes, text $(wc -c < "${HB%.edn}.txt") bytes; $(uptime | sed 's/.*load/load/')"
for i in $(seq 1 "$R"); do
  for who in base new new-text; do
    case $who in base) bin=$BASE f=$HB ;; new) bin=$ISO f=$HB ;; new-text) bin=$ISO f=${HB%.edn}.txt ;; esac
    [ -x "$bin" ] || { echo "$who: no $bin"; continue; }
    read -r v wall mb rc < <(run_measured "$OUT/vo-$who-$i.log" 120 "$bin" check --level si,ser --version-order "$VO" "$f")
    cpu=$(awk -F': ' '/User time|System time/{s+=$2} END{printf "%.2f", s}' "$OUT/vo-$who-$i.log.time")
    echo "run $i $who: $v (exit $rc) ${wall} s wall, ${cpu} s CPU, ${mb} MB  $(grep -c '^white-box PASS' "$OUT/vo-$who-$i.log") white-box PASS"
  done
done
