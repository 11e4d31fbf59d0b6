#!/bin/bash
# bench/scaling.sh — scaling curves in the manner of the PolySI paper's
# Figure 7: time and peak memory of `isocheck check --level si` and
# `--level ser` (and PolySI at SI where it is installed, and the CNF-only
# path `isocheck encode --cnf=rank` + cadical where `encode` exists, both
# capped by a timeout)
# against sessions, transactions per session, operations per transaction,
# read fraction, keys and key distribution, on histories from
# `isocheck gen --level si` (PostgreSQL-like snapshot isolation); with
# --big also total size from 1k to 1M transactions.
#
#   bench/scaling.sh [--quick] [--big] [--real] [--no-peers] [--timeout S] [--seed N]
#     --quick     three points per axis (a smoke run)
#     --big       add the size sweep 1k, 10k, 100k, 1M transactions
#     --real      use the shared PostgreSQL fig7 histories where a point has one
#     --no-peers  skip PolySI
#     --timeout S per run (default 300; PolySI is dropped from an axis once it times out)
#     --replot    only redraw the plots and the table from an existing results.tsv
#     --stages    only bench/stages.sh (1M si,ser stage by stage: time, RSS
#                 and bytes per transaction; --sizes N for another size;
#                 BASE=..., H=..., MEM_CAP_KB as there)
#     --10m       only the "Scaling to 10M transactions" table: 1M and 10M
#                 transactions (gen --sessions 100 --txns N/100 --ops 8
#                 --keys N/10), SI and SER, one and two threads; stage times,
#                 wall, user+sys, peak RSS and the load average of every run.
#                 Histories go to $BIG_TMP (default /tmp/scaling-10m, ~2.3 GB)
#                 and are deleted afterwards; --sizes "N ..." to choose sizes.
#                 Every run is capped at $MEM_CAP_KB of virtual memory
#                 (ulimit -v; default 12000000: the machine is shared and has
#                 no swap; a capped run ends as ERROR "out of memory").
#                 BASE=path/to/isocheck adds the same runs of that binary
#                 (e.g. main's build) as rows marked "base".
#
# Writes bench/out/scaling/results.tsv, doc/scaling-time.{png,svg},
# doc/scaling-memory.{png,svg} (and doc/scaling-size.{png,svg} with --big),
# and the "Scaling" section of doc/benchmarks.md.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
ISOCHECK=${ISOCHECK:-$root/build/isocheck}
PEERS=${PEERS:-/work/shared/peers}
DATA=${DATA:-/work/shared/data}
OUT=${OUT:-$root/bench/out/scaling}
DOC=${DOC:-$root/doc}
quick=0; big=0; real=0; peers=1; limit=300; seed=1; replot=0; ten=0; sizes="1000000 10000000"
while [ $# -gt 0 ]; do case $1 in
  --quick) quick=1;; --big) big=1;; --real) real=1;; --no-peers) peers=0;;
  --timeout) limit=$2; shift;; --seed) seed=$2; shift;; --replot) replot=1;;
  --10m) ten=1;; --sizes) sizes=$2; shift;;
  --stages) stages=1;;
  *) echo "usage: $0 [--quick] [--big] [--real] [--no-peers] [--timeout S] [--seed N] | --10m [--sizes \"N ...\"] [--timeout S] | --stages [--sizes N]" >&2; exit 2;; esac; shift; done
[ -x "$ISOCHECK" ] || { echo "scaling: build isocheck first (make)" >&2; exit 2; }
if [ "${stages:-0}" = 1 ]; then
  n=1000000; [ "$sizes" != "1000000 10000000" ] && n=${sizes%% *}
  ISOCHECK=$ISOCHECK exec "$here/stages.sh" "$n" "${REPS:-2}"
fi

# ---- --10m: the large sizes, one and two threads -------------------------
if [ $ten = 1 ]; then
  [ "$limit" = 300 ] && limit=1800
  tmp=${BIG_TMP:-/tmp/scaling-10m}
  mkdir -p "$tmp" "$OUT"
  trap 'rm -rf "$tmp"' EXIT
  threads_arg() { echo "--threads $1"; }
  rows=$OUT/10m.tsv
  cap=${MEM_CAP_KB:-12000000}
  bins="new=$ISOCHECK"; [ -n "${BASE:-}" ] && bins="base=$BASE $bins"
  printf 'txns\tbinary\tlevel\tthreads\tverdict\twall_s\tcpu_s\tpeak_mb\tload1\tstages\n' > "$rows"
  for n in $sizes; do
    h=$tmp/h$n.txt
    echo "scaling: generating $n transactions" >&2
    "$ISOCHECK" gen --sessions 100 --txns $((n / 100)) --ops 8 --keys $((n / 10)) --seed "$seed" \
      -o "$h" --no-truth --force > /dev/null || { echo "scaling: gen failed for $n" >&2; exit 1; }
    for lvl in si ser; do
      for th in 1 2; do
       for bin in $bins; do
        name=${bin%%=*}; exe=${bin#*=}
        load1=$(cut -d' ' -f1 /proc/loadavg)
        log=$OUT/10m-$n-$name-$lvl-$th.log
        ( ulimit -v "$cap"; /usr/bin/time -f 'TIME %e %U %S %M' -o "$log.time" timeout "$limit" \
          "$exe" check -v --level "$lvl" $(threads_arg $th) "$h" > "$log" 2>&1 )
        rc=$?; v=ERROR; case $rc in 0) v=PASS;; 1) v=FAIL;; 124) v=TIMEOUT;; esac
        read -r _ wall usr sys rss < <(grep '^TIME' "$log.time")
        cpu=$(awk -v u="${usr:-0}" -v s="${sys:-0}" 'BEGIN{printf "%.1f", u + s}')
        st=$( { grep -o 'load [0-9.]*s  index [0-9.]*s' "$log"; grep -o "graph .*verify [0-9.]*s" "$log"; } | tr '\n' ' ')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$name" "$lvl" "$th" "$v" "${wall:-0}" "$cpu" \
          "$(( ${rss:-0} / 1024 ))" "$load1" "$st" >> "$rows"
        echo "scaling: $n $name $lvl threads=$th: $v wall ${wall}s cpu ${cpu}s peak $(( ${rss:-0} / 1024 )) MB (load $load1)" >&2
       done
      done
    done
    rm -f "$h"
  done
  {
    echo "Command: \`${BASE:+BASE=$BASE }bench/scaling.sh --10m --sizes \"$sizes\" --timeout $limit --seed $seed\` (memory cap $cap kB); $(revision); $(machine_line)."
    echo "Histories: \`isocheck gen --sessions 100 --txns N/100 --ops 8 --keys N/10\`; \`isocheck check -v --level L\` with"
    echo "1 and 2 threads. Stage times are wall seconds from \`-v\`; cpu is user+sys; load is the 1-minute"
    echo "load average when the run started (other jobs share this 2-core machine)."
    echo
    echo "| txns | binary | level | threads | verdict | wall s | cpu s | peak MB | load | stages |"
    echo "|---:|---|---|---:|---|---:|---:|---:|---:|---|"
    tail -n +2 "$rows" | awk -F'\t' '{printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10}'
  } | md_section "$DOC/benchmarks.md" "Scaling to 10M transactions"
  exit 0
fi
mkdir -p "$OUT" "$DOC"

res=$OUT/results.tsv
if [ $replot = 1 ]; then
  [ -s "$res" ] || { echo "scaling: no $res to replot" >&2; exit 2; }
  grep -q '^size' "$res" && big=1
else
# Does `isocheck check` give verdicts yet?
probe=$OUT/probe.txt
printf 'w(1,1,1,1)\nr(1,1,2,2)\n' > "$probe"
"$ISOCHECK" check --level si "$probe" > "$OUT/probe.log" 2>&1; prc=$?
if [ $prc != 0 ]; then
  echo "scaling: isocheck check gives no verdict on a trivial SI history (exit $prc: $(head -1 "$OUT/probe.log")); skipping" >&2
  exit 0
fi
have_cnf=0
if [ $peers = 1 ] && "$ISOCHECK" encode --help >/dev/null 2>&1 && command -v cadical >/dev/null; then have_cnf=1
else echo "scaling: no isocheck encode or cadical; no CNF-only column" >&2; fi
have_polysi=0
if [ $peers = 1 ] && [ -f "${PEERS_DIR:-/opt/peers}/polysi/polysi.jar" ] && command -v java >/dev/null; then have_polysi=1
else echo "scaling: PolySI not available; isocheck only" >&2; fi

# Baseline = the fig7 baseline 20_100_15_10000_0.5_uniform; one axis varies.
# axis|values (full)|values (quick)
axes=(
  "sessions|5 10 15 20 25 30|5 20 30"
  "txns|10 50 100 150 200 250|10 100 250"
  "ops|5 10 15 20 25 30|5 15 30"
  "reads|0 0.25 0.5 0.75 1|0 0.5 1"
  "keys|1000 2000 4000 6000 8000 10000|1000 4000 10000"
  "dist|uniform zipf hotspot|uniform zipf hotspot"
)
printf 'axis\tx\ttxns\ttool\tlevel\tverdict\twall_s\tpeak_mb\n' > "$res"

point() {   # axis x -> sets S T O R K D
  S=20 T=100 O=15 R=0.5 K=10000 D=uniform
  case $1 in sessions) S=$2;; txns) T=$2;; ops) O=$2;; reads) R=$2;; keys) K=$2;; dist) D=$2;; size) S=20; T=$(( $2 / 20 )); K=$(( $2 * 10 ));; esac
}

run_point() {   # axis x polysi_on cnf_on -> rows in results.tsv; echoes "polysi-verdict cnf-verdict"
  local axis=$1 x=$2 pon=$3 con=$4 h fmt name pv=- cv=-
  point "$axis" "$x"
  name=${S}_${T}_${O}_${K}_${R}_${D}
  h=$OUT/$name.txt; fmt=text
  if [ $real = 1 ] && [ -f "$DATA/polysi-histories/fig7/$name/hist-00000/history.bincode" ]; then
    h=$DATA/polysi-histories/fig7/$name/hist-00000/history.bincode; fmt=dbcop
  elif [ ! "$h" -nt "$ISOCHECK" ]; then
    nice "$ISOCHECK" gen --level si --sessions $S --txns $T --ops $O --keys $K --reads $R --dist $D --seed $seed --force -o "$h" >/dev/null 2>&1 \
      || { echo "scaling: gen failed for $name" >&2; return; }
  fi
  local txns=$((S * T)) v w m rc
  for level in si ser; do
    read -r v w m rc <<< "$(run_measured "$OUT/$name.$level.log" "$limit" nice "$ISOCHECK" check --level $level "$h")"
    printf '%s\t%s\t%s\tisocheck\t%s\t%s\t%s\t%s\n' "$axis" "$x" $txns $level $v $w $m >> "$res"
    printf '  %-8s %-8s %-9s %-8s %6ss %6sMB\n' "$axis" "$x" "isocheck" "$level $v" "$w" "$m" >&2
  done
  if [ "$pon" = 1 ]; then
    read -r v w m rc <<< "$(run_measured "$OUT/$name.polysi.log" "$limit" nice "$PEERS/polysi.sh" audit -t $fmt "$h")"
    printf '%s\t%s\t%s\tpolysi\tsi\t%s\t%s\t%s\n' "$axis" "$x" $txns $v $w $m >> "$res"
    printf '  %-8s %-8s %-9s %-8s %6ss %6sMB\n' "$axis" "$x" "polysi" "si $v" "$w" "$m" >&2
    pv=$v
  fi
  if [ "$con" = 1 ]; then
    read -r v w m rc <<< "$(run_measured "$OUT/$name.cnf.log" "$limit" nice "$here/cnf_check.sh" "$h" si rank cadical)"
    printf '%s\t%s\t%s\tcnf\tsi\t%s\t%s\t%s\n' "$axis" "$x" $txns $v $w $m >> "$res"
    printf '  %-8s %-8s %-9s %-8s %6ss %6sMB\n' "$axis" "$x" "cnf" "si $v" "$w" "$m" >&2
    cv=$v
  fi
  echo "$pv $cv"
}

sweep() {   # axis values...
  local axis=$1; shift
  local pon=$have_polysi con=$have_cnf pv cv
  for x in "$@"; do
    read -r pv cv <<< "$(run_point "$axis" "$x" $pon $con)"
    [ "$pv" = TIMEOUT ] && pon=0     # bigger points would time out too
    [ "$cv" = TIMEOUT ] && con=0
  done
}

echo "scaling: histories and logs in $OUT" >&2
for a in "${axes[@]}"; do
  IFS='|' read -r axis full q <<< "$a"
  [ $quick = 1 ] && vals=$q || vals=$full
  sweep "$axis" $vals
done
[ $big = 1 ] && sweep size 1000 10000 100000 1000000
fi   # replot

# ---- plots ----
# filtered AXIS TOOL LEVEL -> gnuplot data source: x, txns, time, memory of the runs with a verdict
filtered() { echo "\"< awk -F'\\\\t' '\$1==\\\"$1\\\" && \$4==\\\"$2\\\" && \$5==\\\"$3\\\" && \$6 ~ /PASS|FAIL|ACCEPT|REJECT/ {print \$2, \$3, \$7, \$8}' $res\""; }
series=("isocheck si isocheck SI" "isocheck ser isocheck SER" "polysi si PolySI SI" "cnf si CNF (rank) + CaDiCaL SI")
plot_axis() {   # axis column(3 time, 4 memory) xcolumn
  local axis=$1 col=$2 xc=$3 sep="plot " s tool level title
  for s in "${series[@]}"; do
    read -r tool level title <<< "$s"
    printf '%s%s using %s:($%s < 0.01 ? 0.01 : $%s) with linespoints title "%s"' "$sep" "$(filtered "$axis" "$tool" "$level")" "$xc" "$col" "$col" "$title"
    sep=", \\"$'\n'"     "
  done
  echo
}
if command -v gnuplot >/dev/null; then
  for kind in time memory; do
    col=3; ylab="time (s)"; [ $kind = memory ] && { col=4; ylab="peak memory (MB)"; }
    for term in png svg; do
      if [ $term = png ]; then t="pngcairo size 1500,850 font ',10'"; else t="svg size 1500,850 font 'sans,10'"; fi
      {
        echo "set terminal $t"
        echo "set output \"$DOC/scaling-$kind.$term\""
        echo "set multiplot layout 2,3 title \"isocheck check scaling ($kind), isocheck gen --level si histories; baseline 20 sessions x 100 txns x 15 ops, 10k keys, 50% reads, uniform\""
        echo "set key top left; set grid; set ylabel \"$ylab (log scale)\"; set logscale y"
        for axis in sessions txns ops reads keys; do
          echo "set xlabel \"$axis\""
          plot_axis $axis $col 1
        done
        echo "set xlabel \"distribution\"; set xrange [-0.5:2.5]; set xtics (\"uniform\" 0, \"zipf\" 1, \"hotspot\" 2)"
        echo "d(s) = s eq \"uniform\" ? 0 : s eq \"zipf\" ? 1 : 2"
        plot_axis dist $col '(d(strcol(1)))'
        echo "unset multiplot"
      } > "$OUT/scaling-$kind.$term.gp"
      gnuplot "$OUT/scaling-$kind.$term.gp" 2>"$OUT/gnuplot.err" || echo "scaling: gnuplot failed, see $OUT/gnuplot.err" >&2
    done
  done
  if [ $big = 1 ]; then
    for term in png svg; do
      if [ $term = png ]; then t="pngcairo size 900,500 font ',10'"; else t="svg size 900,500 font 'sans,10'"; fi
      {
        echo "set terminal $t"
        echo "set output \"$DOC/scaling-size.$term\""
        echo "set logscale xy; set grid; set key top left"
        echo "set xlabel \"transactions (20 sessions, 15 ops, keys = 10 x txns, 50% reads, uniform)\"; set ylabel \"time (s)\""
        plot_axis size 3 2
      } > "$OUT/scaling-size.$term.gp"
      gnuplot "$OUT/scaling-size.$term.gp" 2>>"$OUT/gnuplot.err" || echo "scaling: gnuplot failed, see $OUT/gnuplot.err" >&2
    done
  fi
else
  echo "scaling: gnuplot not installed; no plots" >&2
fi

# ---- doc/benchmarks.md ----
{
  echo "Machine: $(machine_line); isocheck $(revision)."
  echo
  echo "Command: \`bench/scaling.sh$([ $quick = 1 ] && echo ' --quick')$([ $big = 1 ] && echo ' --big')$([ $real = 1 ] && echo ' --real')$([ $peers = 0 ] && echo ' --no-peers') --timeout $limit --seed $seed\`."
  echo "Histories: \`isocheck gen --level si --sessions S --txns T --ops O --keys K --reads R --dist D --seed $seed\`$([ $real = 1 ] && echo ', or the shared PostgreSQL fig7 history of the same setting where one exists')."
  echo "One axis varies around the baseline 20 sessions x 100 txns x 15 ops, 10k keys, 50% reads, uniform."
  echo "Each cell: verdict, wall time, peak memory (\`/usr/bin/time -v\`); all runs on this machine in this run, one after another;"
  echo "The machine is shared with other jobs (\`nice\`d runs), so absolute times are noisy; PolySI and isocheck ran back to back"
  echo "on the same history. TIMEOUT after ${limit} s. Ratio = PolySI time / isocheck SI time (a lower bound, \"> N\", when isocheck took under 0.05 s). CNF: \`bench/cnf_check.sh H si rank cadical\`"
  echo "(\`isocheck encode --level si --cnf=rank\` then CaDiCaL; SAT = PASS), where \`isocheck encode\` exists."
  echo
  echo "![time](scaling-time.png) ![memory](scaling-memory.png)"
  [ $big = 1 ] && echo && echo "![size](scaling-size.png)"
  echo
  echo "| axis | value | txns | isocheck SI | isocheck SER | PolySI SI | PolySI / isocheck | CNF + CaDiCaL SI |"
  echo "|---|---|---|---|---|---|---|---|"
  awk -F'\t' 'NR > 1 {
      k = $1 SUBSEP $2
      if (!(k in seen)) { seen[k] = 1; order[++n] = k; ax[k] = $1; xv[k] = $2; tx[k] = $3 }
      cell[k, $4 "-" $5] = $6 " " $7 " s " $8 " MB"; t[k, $4 "-" $5] = $7; v[k, $4 "-" $5] = $6 }
    END { for (i = 1; i <= n; i++) { k = order[i]
        si = (k SUBSEP "isocheck-si") in cell ? cell[k, "isocheck-si"] : "-"
        ser = (k SUBSEP "isocheck-ser") in cell ? cell[k, "isocheck-ser"] : "-"
        p = (k SUBSEP "polysi-si") in cell ? cell[k, "polysi-si"] : "-"
        c = (k SUBSEP "cnf-si") in cell ? cell[k, "cnf-si"] : "-"
        r = "-"
        if (p != "-" && v[k, "polysi-si"] != "TIMEOUT") {
          if (t[k, "isocheck-si"] >= 0.05) r = sprintf("%.0fx", t[k, "polysi-si"] / t[k, "isocheck-si"])
          else r = sprintf("> %.0fx", t[k, "polysi-si"] / 0.05)    # below the timer resolution
        }
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", ax[k], xv[k], tx[k], si, ser, p, r, c } }' "$res"
} | md_section "$DOC/benchmarks.md" "Scaling"
echo "scaling: results in $res; plots and table in $DOC" >&2
