#!/bin/bash
# bench/follow_phases.sh — the two phases of `isocheck check --follow`: the
# stream (the incremental state grows) and the final phase (the state freed,
# every byte parsed again by the batch parser, the final check or re-check).
# FILE is piped whole (cat, no pauses) into `BIN check -v --follow -` for each
# binary given, one after the other; VmRSS is read every 0.2 s and split at
# the END line.  Prints per binary: wall, CPU (user+sys) and peak RSS of the
# whole run (/usr/bin/time), the sampled peaks of both phases, the verdict.
# ENV (e.g. ISOCHECK_FOLLOW_BATCH=1: the final phase is a whole batch check)
# is set for the checker.  A 1M history needs ~2 GB: hold /work/big.lock and
# cap memory on a shared host.
#   [ENV="VAR=value ..."] bench/follow_phases.sh FILE BIN...
set -u
[ $# -ge 2 ] || { echo "usage: [ENV=...] $0 FILE BIN..." >&2; exit 2; }
IN=$1; shift
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
echo "# $IN; env: ${ENV:-none}; load $(uptime | sed 's/.*load average: //')"
for bin in "$@"; do
  # shellcheck disable=SC2086
  cat "$IN" | env ${ENV:-} /usr/bin/time -f "%e %U %S %M" -o "$t/time" "$bin" check -v --follow - > "$t/out" 2> "$t/err" &
  tp=$! pid=
  while [ -z "$pid" ] && kill -0 "$tp" 2>/dev/null; do pid=$(pgrep -P "$tp"); sleep 0.05; done
  s=0; f=0
  while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
    r=$(awk '/VmRSS/{printf "%.0f", $2 / 1024}' "/proc/$pid/status" 2>/dev/null)
    if [ -n "$r" ]; then
      if grep -q '^END after' "$t/out"; then [ "$r" -gt "$f" ] && f=$r; else [ "$r" -gt "$s" ] && s=$r; fi
    fi
    sleep 0.2
  done
  wait "$tp"
  verdict=$(sed -n '/^END/,$p' "$t/out" | grep -m1 -E '^(PASS|FAIL|UNKNOWN)' | cut -c1-60)
  awk -v b="$bin" -v s="$s" -v f="$f" -v v="$verdict" \
    '{ printf "%s: wall %.1fs, CPU %.2fs, peak %.0f MB; stream %d MB, final phase %d MB (0.2 s samples); %s\n", b, $1, $2 + $3, $4 / 1024, s, f, v }' \
    <(grep -v '^Command' "$t/time")
done
echo "# load $(uptime | sed 's/.*load average: //')"
