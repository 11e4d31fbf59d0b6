#!/bin/sh
# bench/explain_scan.sh — circular explanations in generated faulty
# histories: `isocheck gen` histories of each fault kind (small, medium
# and the 5x200 lost-update shape of issue 30), `check --level all --json`
# on each, and bench/explain_scan.py over the reports, which re-derives
# every explanation's edges from the history and counts those resting on
# their own claim, on no proven fact, or on a fact proven later.
#
#   bench/explain_scan.sh [SEEDS]      (default 40 seeds a shape: 480 histories)
#
# Exit 0 when no explanation is circular or unsupported and every read it
# relies on is shown.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/.." && pwd)
ISOCHECK=${ISOCHECK:-$root/build/isocheck}
seeds=${1:-40}
[ -x "$ISOCHECK" ] || { echo "explain_scan: build isocheck first (make)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "explain_scan: python3 not found" >&2; exit 2; }
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
set --
n=0
for shape in "4 12 6 0.1" "5 40 20 0.05" "5 200 50 0.01"; do
  for fault in lost-update long-fork causality intermediate-read; do
    s=1
    while [ $s -le "$seeds" ]; do
      h=$dir/h$n.txt
      # shellcheck disable=SC2086
      set -- "$@" "$h" "$h.json"
      sess=${shape%% *}; rest=${shape#* }; txns=${rest%% *}; rest=${rest#* }; keys=${rest%% *}; rate=${rest#* }
      "$ISOCHECK" gen --sessions "$sess" --txns "$txns" --keys "$keys" --fault "$fault" --fault-rate "$rate" \
        --seed "$s" -o "$h" --no-truth --force >/dev/null 2>"$dir/gen.err" || { echo "explain_scan: gen failed: $(cat "$dir/gen.err")" >&2; exit 2; }
      "$ISOCHECK" check --level all --json "$h" > "$h.json" 2>/dev/null
      [ $? -le 1 ] || { echo "explain_scan: check failed on $h" >&2; exit 2; }
      n=$((n + 1)); s=$((s + 1))
    done
  done
done
echo "$n histories"
python3 "$here/explain_scan.py" "$@"
