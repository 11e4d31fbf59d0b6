#!/bin/bash
# bench/stages.sh — time and memory of `isocheck check -v --level si,ser` on
# one large generated history, stage by stage (issue 37: 1M si+ser under
# 8 s and 400 MB; bytes per transaction at each stage).  Also run as
# `bench/scaling.sh --stages`.
#
#   bench/stages.sh [N] [REPS]      N transactions (default 1000000), REPS runs of each binary
#     H=path        the history to check (default: generated, `isocheck gen --sessions 100
#                   --txns N/100 --ops 8 --keys N/10 --seed 1 --no-truth`, into $BIG_TMP,
#                   deleted afterwards; /work/big/h1m.txt is that command at 1M)
#     BASE=path     also run that binary, alternating with this tree's (base first)
#     LEVEL=L       the levels (default si,ser)
#     MEM_CAP_KB    ulimit -v of every run (default 12000000: the machine has no swap)
#
# Every run is sampled: VmRSS every 0.1 s.  The stage windows come from
# `-v`'s wall times laid end to end: load, index, then each level's graph +
# prune and encode + solve + verify in the order the run decides them (with
# si,ser: ser first, the strongest level, then si, which ser's FAIL leaves
# to search), then the interpretation (a failing level's comes right after
# it when `-v` says so: "right after the level").  A stage's figure is the highest RSS
# sampled in its window (bytes per transaction = that / N).  Prints one
# table row per run to stdout (markdown) and the samples to $OUT.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/.." && pwd)
N=${1:-1000000}; REPS=${2:-2}
ISOCHECK=${ISOCHECK:-$root/build/isocheck}
LEVEL=${LEVEL:-si,ser}
OUT=${OUT:-$root/bench/out/stages}
cap=${MEM_CAP_KB:-12000000}
mkdir -p "$OUT"
[ -x "$ISOCHECK" ] || { echo "stages: build isocheck first (make)" >&2; exit 2; }
h=${H:-}
if [ -z "$h" ]; then
  tmp=${BIG_TMP:-/tmp/stages-$$}; mkdir -p "$tmp"; trap 'rm -rf "$tmp"' EXIT
  h=$tmp/h$N.txt
  "$ISOCHECK" gen --sessions 100 --txns $((N / 100)) --ops 8 --keys $((N / 10)) --seed 1 --no-truth \
    -o "$h" --force > /dev/null || { echo "stages: gen failed" >&2; exit 1; }
fi
order=$(echo "$LEVEL" | tr ',' '\n' | awk '$0 == "ser" { print; next } { rest = rest " " $0 } END { print rest }' | xargs)

one_run() {   # name exe -> one markdown row
  local name=$1 exe=$2 log=$OUT/$1-$3 load1
  load1=$(cut -d' ' -f1 /proc/loadavg)
  ( ulimit -v "$cap"; exec /usr/bin/time -f 'TIME %e %U %S %M' -o "$log.time" "$exe" check -v --level "$LEVEL" "$h" ) \
    > "$log.out" 2> "$log.err" &
  local pid=$! t0 r p; t0=$(date +%s.%N)
  : > "$log.rss"
  while kill -0 $pid 2>/dev/null; do
    for p in $(pgrep -P $pid) $pid; do
      r=$(awk '/VmRSS/{print $2}' /proc/$p/status 2>/dev/null)
      [ -n "$r" ] && [ "$r" -gt 4096 ] && { echo "$(date +%s.%N) $t0 $r" | awk '{printf "%.2f %d\n", $1 - $2, $3 / 1024}' >> "$log.rss"; break; }
    done
    sleep 0.1
  done
  wait $pid; local rc=$?
  read -r _ wall usr sys peak < <(grep '^TIME' "$log.time")
  # stage windows: load, index, per level graph+prune | encode+solve+verify, interpret
  local bounds
  bounds=$(awk -v order="$order" '
    /^load [0-9.]+s  index/ { load = $2 + 0; index_ = $4 + 0 }
    /^\[[a-z-]+\] graph/ { l = substr($1, 2, length($1) - 2); g[l] = $3 + $5; s[l] = $7 + $9 + $11 }
    /^\[[a-z-]+\] interpret/ { l = substr($1, 2, length($1) - 2); it[l] = $3 + 0; early[l] = /right after the level/ }
    END {
      t = load; printf "load %.2f", t; t += index_; printf " index %.2f", t
      n = split(order, o, " ")
      for (i = 1; i <= n; i++) {
        t += g[o[i]]; printf " %s-graph %.2f", o[i], t; t += s[o[i]]; printf " %s-solve %.2f", o[i], t
        if (early[o[i]]) { t += it[o[i]]; printf " interpret %.2f", t }    # interpreted before the next level
      }
      late = 0; for (l in it) if (!early[l]) late += it[l]
      t += late; printf " interpret %.2f\n", t
    }' "$log.err")
  local cells
  # windows in time order (an interpretation may come right after its level);
  # the cells in the header's order, a name's highest sample over its windows
  cells=$(awk -v b="$bounds" -v n="$N" -v order="$order" '
    BEGIN { m = split(b, a, " "); k = 0; for (i = 1; i < m; i += 2) { name[++k] = a[i]; end[k] = a[i + 1] } }
    { for (i = 1; i <= k; i++) if ($1 <= end[i]) { if ($2 > hi[name[i]]) hi[name[i]] = $2; break } }
    END {
      c = 0; col[++c] = "load"; col[++c] = "index"
      q = split(order, o, " "); for (i = 1; i <= q; i++) { col[++c] = o[i] "-graph"; col[++c] = o[i] "-solve" }
      col[++c] = "interpret"
      for (i = 1; i <= c; i++) printf " %d (%d) |", hi[col[i]], hi[col[i]] * 1048576 / n
    }' "$log.rss")
  local v=ERROR; case $rc in 0) v=PASS;; 1) v=FAIL;; esac
  echo "| $name | $v | ${wall:-?} | $(awk -v u="${usr:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.2f", u + s }') | $(( ${peak:-0} / 1024 )) |$cells $load1 |"
  # the outputs compared across binaries: stdout, and -v's counts without times
  grep -v '^load \|graph [0-9.]*s\|interpret [0-9.]*s' "$log.err" | sed 's/[0-9.]*s (cpu [0-9.]*s)//' > "$log.counts"
}

hdr="| binary | verdict | wall s | cpu s | peak MB |"; sep="|---|---|---:|---:|---:|"
for s in load index; do hdr="$hdr $s MB (B/txn) |"; sep="$sep---:|"; done
for l in $order; do hdr="$hdr $l graph+prune MB (B/txn) | $l encode+solve+verify MB (B/txn) |"; sep="$sep---:|---:|"; done
echo "$hdr interpret MB (B/txn) | load avg |"; echo "$sep---:|---:|"
for r in $(seq 1 "$REPS"); do
  [ -n "${BASE:-}" ] && one_run base "$BASE" "$r"
  one_run new "$ISOCHECK" "$r"
done
if [ -n "${BASE:-}" ]; then
  for r in $(seq 1 "$REPS"); do
    cmp -s "$OUT/base-$r.out" "$OUT/new-$r.out" && cmp -s "$OUT/base-$r.counts" "$OUT/new-$r.counts" \
      && echo "run $r: stdout and -v counts identical" || echo "run $r: OUTPUTS DIFFER ($OUT/base-$r.* $OUT/new-$r.*)"
  done
fi
