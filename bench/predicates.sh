#!/bin/bash
# bench/predicates.sh — predicate reads (issue 34), black-box: Elle closed-predicate
# histories of N transactions (default 2,500) over K keys (default 500), about half of
# the micro-ops predicate reads (bench/gen_pred_history.py: serializable by
# construction, so the checker does all of its work), checked at LEVELS (default
# si,ser; rr too: LEVELS=si,ser,rr) by the release build; the wall time, peak memory and
# verdicts of R runs (default 3).
#
#   [LEVELS=...] bench/predicates.sh [N] [K] [R]
#
# Target (issue 34): under 0.5 s for 2,500 transactions.  Results: build/bench/predicates/.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
N=${1:-2500}; K=${2:-500}; R=${3:-3}; LEVELS=${LEVELS:-si,ser}
OUT=$ROOT/build/bench/predicates; mkdir -p "$OUT"
ISO=$ROOT/build/isocheck
[ -x "$ISO" ] || make -C "$ROOT" -j2 build/isocheck > /dev/null || exit 1
H=$OUT/pred-$N-$K.edn
python3 "$ROOT/bench/gen_pred_history.py" "$N" "$K" 1 > "$H" || exit 1
echo "history: $N transactions, $K keys, $(wc -c < "$H") bytes; $(uptime | sed 's/.*load/load/')"
for i in $(seq 1 "$R"); do
  read -r v wall mb rc < <(run_measured "$OUT/run$i.log" 60 "$ISO" check --level "$LEVELS" "$H")
  echo "run $i: $v (exit $rc) ${wall} s ${mb} MB  $(tr '\n' ' ' < "$OUT/run$i.log" | cut -c1-120)"
done
