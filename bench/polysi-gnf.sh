#!/bin/bash
# bench/polysi-gnf.sh — gsat against MonoSAT on the exact problems PolySI gives
# MonoSAT (its constraints after its own pruning), for the shared histories.
#
# The GNF files come from PolySI patched to dump them (../shared/peers:
# polysi-gnf.patch, POLYSI_GNF=...); they are cached in GNF_DIR and reused.
# Without PolySI and without cached files there is nothing to compare: the
# script says so and exits 0.  MonoSAT absent: gsat alone.
#   env: GNF_DIR (default build/bench/polysi-gnf), TIMEOUT (default 600 s),
#        DOC (default doc/benchmarks.md; section "gsat vs MonoSAT on PolySI's problems"),
#        EXTRA_GNF "name=path ..." more GNF files already dumped (measured too),
#        ONLY_EXTRA=1 measure only those (no PolySI runs),
#        GSAT (default build/gsat), BASE_GSAT another gsat binary timed in the
#        same run (e.g. main's: its CPU and the ratio base/gsat get columns),
#        REPEAT (default 1) runs of each gsat, interleaved; the median CPU is
#        reported (MonoSAT runs once), SECTION the doc section's title.
# Times are CPU time (user+sys; the machine is shared), the ratio MonoSAT/gsat
# comes from the same run; the load average is printed with each row.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
PEERS=$ROOT/../shared/peers; DATA=$ROOT/../shared/data/polysi-histories
GNF_DIR=${GNF_DIR:-$ROOT/build/bench/polysi-gnf}; TIMEOUT=${TIMEOUT:-600}
DOC=${DOC:-$ROOT/doc/benchmarks.md}
MONOSAT=${MONOSAT:-/opt/peers/monosat-static/monosat}
GSAT=${GSAT:-$ROOT/build/gsat}; BASE_GSAT=${BASE_GSAT:-}; REPEAT=${REPEAT:-1}
SECTION=${SECTION:-"gsat vs MonoSAT on PolySI's problems"}
[ -x "$GSAT" ] || make -C "$ROOT" -s build/gsat
mkdir -p "$GNF_DIR"

cases="fig7-uniform dbcop fig7/20_100_15_10000_0.5_uniform/hist-00000/history.bincode
fig7-zipf dbcop fig7/20_100_15_10000_0.5_zipf/hist-00000/history.bincode
GeneralRH dbcop fig8_9_10/25_400_8_10000_0.95_uniform/hist-00000/history.bincode
GeneralRW dbcop fig8_9_10/25_400_8_10000_0.5_uniform/hist-00000/history.bincode
GeneralWH dbcop fig8_9_10/25_400_8_10000_0.3_uniform/hist-00000/history.bincode
rubis cobra fig8_9_10/rubis-10000/hist-00000
twitter cobra fig8_9_10/twitter-10000/hist-00000
tpcc cobra fig8_9_10/tpcc-10000/hist-00000"
[ "${ONLY_EXTRA:-0}" = 1 ] && cases=""
for x in ${EXTRA_GNF:-}; do cases="$cases${cases:+
}${x%%=*} file ${x#*=}"; done

# CPU seconds (user+sys) from the /usr/bin/time -v file run_measured leaves
cpu_of() { awk -F': ' '/User time|System time/ { t += $2 } END { printf "%.2f", t }' "$1.time"; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

have_polysi=0; [ -f /opt/peers/polysi/polysi-gnf.jar ] && have_polysi=1
have_monosat=0; [ -x "$MONOSAT" ] && have_monosat=1
[ $have_monosat = 1 ] || echo "polysi-gnf: MonoSAT not built ($MONOSAT); timing gsat alone" >&2

rows=""; n=0
while read -r name fmt path; do
  [ -n "$name" ] || continue
  gnf=$GNF_DIR/$name.gnf
  [ "$fmt" = file ] && gnf=$path
  if [ ! -s "$gnf" ]; then
    if [ $have_polysi = 0 ]; then echo "polysi-gnf: no PolySI (../shared/peers/build.sh) and no cached $gnf; skipping $name" >&2; continue; fi
    echo "polysi-gnf: dumping PolySI's problem for $name" >&2
    POLYSI_GNF=$gnf timeout "$TIMEOUT" "$PEERS/polysi.sh" audit -t "$fmt" "$DATA/$path" > "$GNF_DIR/$name.polysi.log" 2>&1
    [ -s "$gnf" ] || { echo "polysi-gnf: PolySI wrote no GNF for $name" >&2; continue; }
  fi
  gws=""; bws=""; bv=""
  for ((k = 0; k < REPEAT; k++)); do
    if [ -n "$BASE_GSAT" ]; then
      run_measured "$GNF_DIR/$name.base" "$TIMEOUT" nice "$BASE_GSAT" -n "$gnf" > /dev/null
      bws="$bws $(cpu_of "$GNF_DIR/$name.base")"
      bv=$(grep -o '^s [A-Z]*' "$GNF_DIR/$name.base" | cut -c3-)
    fi
    read -r gv gw gm _ < <(run_measured "$GNF_DIR/$name.gsat" "$TIMEOUT" nice "$GSAT" -n "$gnf")
    gws="$gws $(cpu_of "$GNF_DIR/$name.gsat")"
  done
  gw=$(echo "$gws" | median)
  gv=$(grep -o '^s [A-Z]*' "$GNF_DIR/$name.gsat" | cut -c3-)
  base_cols=""
  if [ -n "$BASE_GSAT" ]; then
    bw=$(echo "$bws" | median)
    [ "$bv" = "$gv" ] || echo "polysi-gnf: ANSWERS DIFFER on $name: gsat $gv, base gsat $bv" >&2
    base_cols=" ${bw} s | $(awk -v a="$bw" -v b="$gw" 'BEGIN { if (b < 0.01) b = 0.01; printf "%.2fx", a / b }') |"
  fi
  mv="-"; mw="-"; mm="-"; ratio="-"
  if [ $have_monosat = 1 ]; then
    read -r mv mw mm _ < <(run_measured "$GNF_DIR/$name.monosat" "$TIMEOUT" nice "$MONOSAT" "$gnf")
    mw=$(cpu_of "$GNF_DIR/$name.monosat")
    mv=$(grep -o '^s [A-Z]*' "$GNF_DIR/$name.monosat" | cut -c3-); mv=${mv:-TIMEOUT/ERROR}
    [ "$mv" = "$gv" ] || [ "$mv" = TIMEOUT/ERROR ] || echo "polysi-gnf: ANSWERS DIFFER on $name: gsat $gv, MonoSAT $mv" >&2
    ratio=$(awk -v a="$mw" -v b="$gw" 'BEGIN { if (b < 0.01) b = 0.01; printf "%.0fx", a / b }')
  fi
  size=$(du -m "$gnf" | cut -f1)
  rows="$rows| $name | $size MB | $gv | ${gw} s | ${gm} MB |$base_cols $mv | ${mw} s | ${mm} MB | $ratio | $(cut -d' ' -f1-3 /proc/loadavg) |
"
  n=$((n+1))
done <<< "$cases"

[ $n -gt 0 ] || { echo "polysi-gnf: nothing measured" >&2; exit 0; }
{
  echo "$(machine_line); $(revision)."
  echo
  echo "Command: \`bench/polysi-gnf.sh\` (GNF dumped by PolySI with \`../shared/peers/polysi-gnf.patch\`,"
  echo "then \`build/gsat -n FILE.gnf\` and \`monosat FILE.gnf\` on the same file, one after the other,"
  echo "CPU time (user+sys, reading included) and peak memory from \`/usr/bin/time -v\`, both under \`nice\`;"
  echo "the ratio is from that one run, with the load average after it). These are PolySI's constraint"
  echo "problems, not isocheck's (isocheck's own are smaller; see \"Encodings\")."
  echo
  if [ -n "$BASE_GSAT" ]; then
    echo "Base gsat: \`$BASE_GSAT\`, run before each gsat run; CPU figures are medians of $REPEAT runs."
    echo
    echo "| history | GNF | gsat | gsat CPU | gsat peak | base CPU | base/gsat | MonoSAT | MonoSAT CPU | MonoSAT peak | MonoSAT/gsat | load avg |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  else
    [ "$REPEAT" = 1 ] || { echo "gsat CPU: median of $REPEAT runs."; echo; }
    echo "| history | GNF | gsat | gsat CPU | gsat peak | MonoSAT | MonoSAT CPU | MonoSAT peak | MonoSAT/gsat | load avg |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
  fi
  printf '%s' "$rows"
} | md_section "$DOC" "$SECTION"
echo "polysi-gnf: table in $DOC" >&2
