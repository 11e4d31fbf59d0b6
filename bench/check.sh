#!/bin/bash
# bench/check.sh — time `isocheck check` on the shared histories beside PolySI
# and VeriStrong, run on the same machine in the same run.
#
#   bench/check.sh [--all] [--no-peers] [--big] [--hot]
#     --all       every fig7 setting (default: the eleven of ../shared/data/README.md)
#     --no-peers  skip PolySI and VeriStrong
#     --hot       also the hot-key history (1 key, 5,000 installed writers)
#     --big       also a generated 1,000,000-transaction history (isocheck only)
#
# Prints a Markdown table: per history, isocheck's SI and SER verdicts, wall
# time and peak memory (/usr/bin/time), constraints before/after pruning
# (from -v), PolySI's verdict/time/memory (measured now, and the README's
# figure), VeriStrong (--pruning fast, SI), and the speedups.  Peers that
# are not built are reported as absent and skipped.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/.." && pwd)
ISOCHECK=${ISOCHECK:-$root/build/isocheck}
DATA=${DATA:-$root/../shared/data}
PEERS=${PEERS:-$root/../shared/peers}
[ -d "$DATA" ] || DATA=/work/shared/data
[ -d "$PEERS" ] || PEERS=/work/shared/peers
H=$DATA/polysi-histories
OUT=${OUT:-/tmp/isocheck-bench}; mkdir -p "$OUT"
all=0; peers=1; big=0; hot=0
for a in "$@"; do case $a in --all) all=1;; --no-peers) peers=0;; --big) big=1;; --hot) hot=1;;
  *) echo "usage: $0 [--all] [--no-peers] [--big] [--hot]" >&2; exit 2;; esac; done
[ -x "$ISOCHECK" ] || { echo "build isocheck first (make)" >&2; exit 2; }

have_polysi=0; have_vs=0
if [ $peers = 1 ]; then
  [ -f "${PEERS_DIR:-/opt/peers}/polysi/polysi.jar" ] && command -v java >/dev/null && have_polysi=1
  [ -x "${PEERS_DIR:-/opt/peers}/veristrong/build-release/checker" ] && have_vs=1
  [ $have_polysi = 1 ] || echo "note: PolySI is not built; its column shows the README figure only" >&2
  [ $have_vs = 1 ] || echo "note: VeriStrong is not built; skipped" >&2
fi

# measure LOG CMD... -> "verdict wall_s peak_mb"
measure() {
  local log=$1; shift
  /usr/bin/time -v -o "$log.time" "$@" > "$log" 2>&1
  local rc=$? v=ERROR
  grep -q '^PASS ' "$log" && v=PASS; grep -q '^FAIL' "$log" && v=FAIL
  grep -q 'ACCEPT ]]]]' "$log" && v=ACCEPT; grep -q 'REJECT ]]]]' "$log" && v=REJECT
  grep -q 'VERDICT: ACCEPT' "$log" && v=ACCEPT; grep -q 'VERDICT: REJECT' "$log" && v=REJECT
  [ $rc = 124 ] && v=TIMEOUT
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; printf "%.3f", s}' "$log.time")
  rss=$(awk -F': ' '/Maximum resident set size/{printf "%.0f", $2/1024}' "$log.time")
  echo "$v $wall $rss"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a+0 > 0 && b+0 > 0) printf "%.0fx", b/a; else printf "-" }'; }
# a timed-out peer gives a lower bound
bound() { case "$1" in TIMEOUT*) echo "> $2";; *) echo "$2";; esac; }

# name|format|path|readme figure
list=(
  "galera|text|$H/violations/galera/galera.txt|REJECT 0.25 s 65 MB"
  "yugabyte|text|$H/violations/yugabyte/yugabyte.txt|REJECT 0.25 s 67 MB"
  "dgraph|dbcop|$H/violations/dgraph/history.bincode|REJECT 0.80 s 149 MB"
)
if [ $all = 1 ]; then
  for d in "$H"/fig7/*/; do n=$(basename "$d"); fig=""
    [ "$n" = 20_100_15_10000_0.5_uniform ] && fig="ACCEPT 2.31 s 240 MB"
    [ "$n" = 20_100_15_10000_0.5_zipf ] && fig="ACCEPT 4.26 s 451 MB"
    list+=("fig7 $n|dbcop|$d/hist-00000/history.bincode|$fig"); done
else
  list+=("fig7 20_100_15_10000_0.5_uniform|dbcop|$H/fig7/20_100_15_10000_0.5_uniform/hist-00000/history.bincode|ACCEPT 2.31 s 240 MB"
         "fig7 20_100_15_10000_0.5_zipf|dbcop|$H/fig7/20_100_15_10000_0.5_zipf/hist-00000/history.bincode|ACCEPT 4.26 s 451 MB")
fi
list+=(
  "GeneralRH (0.95 reads)|dbcop|$H/fig8_9_10/25_400_8_10000_0.95_uniform/hist-00000/history.bincode|ACCEPT 4.12 s 434 MB"
  "GeneralRW (0.5 reads)|dbcop|$H/fig8_9_10/25_400_8_10000_0.5_uniform/hist-00000/history.bincode|ACCEPT 22.6 s 1.6 GB"
  "GeneralWH (0.3 reads)|dbcop|$H/fig8_9_10/25_400_8_10000_0.3_uniform/hist-00000/history.bincode|ACCEPT 65.6 s 1.8 GB"
  "rubis-10000|cobra|$H/fig8_9_10/rubis-10000/hist-00000|ACCEPT 2.67 s 727 MB"
  "tpcc-10000|cobra|$H/fig8_9_10/tpcc-10000/hist-00000|ACCEPT 27.7 s 3.2 GB"
  "twitter-10000|cobra|$H/fig8_9_10/twitter-10000/hist-00000|ACCEPT 4.05 s 798 MB"
)
if [ $hot = 1 ]; then
  f=$OUT/hotkey.txt
  [ -s "$f" ] || python3 "$here/gen_si_history.py" --hot-key --txns 20000 --sessions 25 --ops 2 --reads 0.5 --seed 3 > "$f"
  w=$("$ISOCHECK" check -v --level si "$f" 2>&1 | sed -n 's/.* \([0-9]*\) writes installed.*/\1/p')
  list+=("hot key (1 key, $w installed writers)|text|$f|")
fi
if [ $big = 1 ]; then
  f=$OUT/big-1m.txt
  [ -s "$f" ] || nice python3 "$here/gen_si_history.py" --txns 1000000 --sessions 25 --keys 100000 --ops 8 --reads 0.5 --seed 7 > "$f"
  list+=("generated 1M txns (25 sessions, 100k keys, 8 ops)|text|$f|")
fi

echo "| history | isocheck SI | SI time | SI peak | constraints (pruned) | isocheck SER | SER time | PolySI (now) | PolySI (README) | VeriStrong SI | vs PolySI | vs VeriStrong |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
i=0
for entry in "${list[@]}"; do
  IFS='|' read -r name fmt path fig <<< "$entry"
  i=$((i+1))
  read -r sv st sm <<< "$(measure "$OUT/$i.si" "$ISOCHECK" check --level si -v "$path")"
  cons=$(sed -n 's/.*constraints \([0-9]*\) -> \([0-9]*\) after.*/\1 -> \2/p' "$OUT/$i.si" | head -1)
  read -r rv rt rm <<< "$(measure "$OUT/$i.ser" "$ISOCHECK" check --level ser "$path")"
  pcol="-"; vcol="-"; pt=""; vt=""
  if [ $have_polysi = 1 ] && [[ "$name" != generated* ]]; then
    read -r pv pt pm <<< "$(measure "$OUT/$i.polysi" timeout 600 "$PEERS/polysi.sh" audit -t "$fmt" "$path")"
    pcol="$pv ${pt} s ${pm} MB"
  fi
  if [ $have_vs = 1 ] && [[ "$name" != generated* ]]; then
    read -r vv vt vm <<< "$(measure "$OUT/$i.vs" timeout 600 "$PEERS/veristrong.sh" si "$fmt" "$path" --pruning fast)"
    vcol="$vv ${vt} s ${vm} MB"
  fi
  figt=$(echo "$fig" | awk '{print $2}')
  ref=${pt:-$figt}
  echo "| $name | $sv | ${st} s | ${sm} MB | ${cons:--} | $rv | ${rt} s | $pcol | ${fig:--} | $vcol | $(bound "$pcol" "$(ratio "$st" "$ref")") | $(bound "$vcol" "$(ratio "$st" "$vt")") |"
done
