#!/bin/bash
# bench/compare.sh — one binary against another in the same run: the
# eleven histories of bench/check.sh (check --level all --threads 2, three
# times alternating, the minimum CPU of each, same verdicts), a subset of
# bench/sat.sh's suite and three GNF problems (gsat, twice alternating, the
# minimum, same answers), then the 1M stream of bench/online.sh with the
# other binary as its BASE.  For "the same speed" claims of a refactoring.
#
#   BASE=DIR [NEW=DIR] bench/compare.sh      DIR holds isocheck and gsat (NEW: build/)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
B=${BASE:?BASE=DIR with the other isocheck and gsat}; N=${NEW:-$root/build}
D=${DATA:-$root/../shared/data}/polysi-histories
[ -d "$D" ] || D=/work/shared/data/polysi-histories
W=$(mktemp -d /tmp/compare.XXXXXX); trap 'rm -rf "$W"' EXIT
python3 bench/gen_cnf.py "$W/suite" >/dev/null
cc -O2 -o "$W/gen_gnf" bench/gen_gnf.c || exit 2
"$W/gen_gnf" rw 60000 120000 1 > "$W/rw60k.gnf"; "$W/gen_gnf" rw 30000 60000 2 > "$W/rw30k.gnf"
"$W/gen_gnf" triple 20000 40000 1 > "$W/tri20k.gnf"
echo "== start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
# 1. the eleven histories of bench/check.sh, both levels, 3 rounds alternating, CPU user+sys
hist="$D/violations/galera/galera.txt $D/violations/yugabyte/yugabyte.txt $D/violations/dgraph/history.bincode"
for s in 20_100_15_10000_0.5_uniform 20_100_15_10000_0.5_zipf; do hist="$hist $(ls -d $D/fig7/$s/hist-00000/history.bincode)"; done
for s in 0.95 0.5 0.3; do hist="$hist $(ls -d $D/fig8_9_10/25_400_8_10000_${s}_uniform/hist-00000/history.bincode 2>/dev/null || ls -d $D/fig8_9_10/*_${s}_*/hist-00000/* | head -1)"; done
for s in rubis tpcc twitter; do hist="$hist $D/fig8_9_10/$s-10000/hist-00000"; done
printf "%-34s %10s %10s %7s %9s %9s  %s\n" history base_cpu new_cpu ratio base_MB new_MB same
tb=0; tn=0
for h in $hist; do
  name=$(echo "$h" | sed "s|$D/||; s|/hist-00000.*||")
  bc=999; nc=999; bm=0; nm=0
  for r in 1 2 3; do
    for which in base new; do
      bin=$B/isocheck; [ $which = new ] && bin=$N/isocheck
      /usr/bin/time -f "%U %S %M" -o $W/t $bin check --level all --threads 2 "$h" > $W/$which.out 2>/dev/null
      read u s m < <(tail -1 $W/t); c=$(echo "$u + $s" | bc)
      if [ $which = base ]; then bc=$(echo "if ($c < $bc) $c else $bc" | bc); bm=$m; else nc=$(echo "if ($c < $nc) $c else $nc" | bc); nm=$m; fi
    done
  done
  same=$(diff -q <(grep -E "^(PASS|FAIL)" $W/base.out) <(grep -E "^(PASS|FAIL)" $W/new.out) >/dev/null && echo yes || echo NO)
  tb=$(echo "$tb + $bc" | bc); tn=$(echo "$tn + $nc" | bc)
  printf "%-34s %10s %10s %7s %9d %9d  %s\n" "$name" "$bc" "$nc" "$(echo "scale=2; $nc / ($bc + 0.001)" | bc)" $((bm/1024)) $((nm/1024)) "$same"
done
echo "total CPU (min of 3): base $tb s, new $tn s, new/base $(echo "scale=3; $tn / $tb" | bc)"
echo "== check done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
# 2. the engine: a subset of bench/sat.sh's CNF suite plus the rw GNF family, min of 3
printf "%-28s %10s %10s %7s  %s\n" instance base_cpu new_cpu ratio answers
tb=0; tn=0
for f in $W/suite/factoring/fact-1000003.cnf $W/suite/factoring/fact-1048573.cnf $W/suite/factoring/fact-4194301.cnf $W/suite/planted/*.cnf $W/suite/parity/*.cnf $W/suite/random3/r3-250-*.cnf $W/rw60k.gnf $W/rw30k.gnf $W/tri20k.gnf; do
  bc=999; nc=999
  for r in 1 2; do
    for which in base new; do
      bin=$B/gsat; [ $which = new ] && bin=$N/gsat
      /usr/bin/time -f "%U %S" -o $W/t timeout 60 $bin "$f" > $W/g$which.out 2>/dev/null
      read u s < <(tail -1 $W/t); c=$(echo "$u + $s" | bc)
      if [ $which = base ]; then bc=$(echo "if ($c < $bc) $c else $bc" | bc); else nc=$(echo "if ($c < $nc) $c else $nc" | bc); fi
    done
  done
  a=$(grep -h "^s " $W/gbase.out | head -1 | cut -c3-); b=$(grep -h "^s " $W/gnew.out | head -1 | cut -c3-)
  tb=$(echo "$tb + $bc" | bc); tn=$(echo "$tn + $nc" | bc)
  printf "%-28s %10s %10s %7s  %s\n" "$(basename $f)" "$bc" "$nc" "$(echo "scale=2; $nc / ($bc + 0.001)" | bc)" "$a / $b"
done
echo "total CPU (min of 2): base $tb s, new $tn s, new/base $(echo "scale=3; $tn / $tb" | bc)"
echo "== engine done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
# 3. the 1M stream against the base binary
KEYS=100000 SESS=100 BASE=$B/isocheck bench/online.sh 1000 0.02 1000000 2>&1 | tail -40
echo "== end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
