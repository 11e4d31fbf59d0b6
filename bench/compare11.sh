#!/bin/bash
# bench/compare11.sh BASE_ISOCHECK NEW_ISOCHECK — the eleven shared histories of
# bench/compare.sh (its first section alone): check --level all --threads 2, min CPU of 3, same verdicts.
set -u
B=${1:?BASE_ISOCHECK}; N=${2:?NEW_ISOCHECK}
root=$(cd "$(dirname "$0")/.." && pwd)
D=${DATA:-$root/../shared/data}/polysi-histories
[ -d "$D" ] || D=/work/shared/data/polysi-histories
hist="$D/violations/galera/galera.txt $D/violations/yugabyte/yugabyte.txt $D/violations/dgraph/history.bincode"
for s in 20_100_15_10000_0.5_uniform 20_100_15_10000_0.5_zipf; do hist="$hist $(ls -d $D/fig7/$s/hist-00000/history.bincode)"; done
for s in 0.95 0.5 0.3; do hist="$hist $(ls -d $D/fig8_9_10/25_400_8_10000_${s}_uniform/hist-00000/history.bincode)"; done
for s in rubis tpcc twitter; do hist="$hist $D/fig8_9_10/$s-10000/hist-00000"; done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
tb=0; tn=0
for h in $hist; do
  bc=999; nc=999
  for r in 1 2 3; do for w in b n; do bin=$B; [ $w = n ] && bin=$N
    /usr/bin/time -f "%U %S %M" -o /tmp/cmp.t $bin check --level all --threads 2 "$h" > /tmp/cmp.$w 2>/dev/null
    read u s m < <(tail -1 /tmp/cmp.t); c=$(echo "$u + $s" | bc)
    if [ $w = b ]; then bc=$(echo "if ($c < $bc) $c else $bc" | bc); else nc=$(echo "if ($c < $nc) $c else $nc" | bc); fi
  done; done
  same=$(diff -q <(grep -E "^(PASS|FAIL)" /tmp/cmp.b | cut -c1-20) <(grep -E "^(PASS|FAIL)" /tmp/cmp.n | cut -c1-20) >/dev/null && echo yes || echo NO)
  tb=$(echo "$tb + $bc" | bc); tn=$(echo "$tn + $nc" | bc)
  printf "%-60s %6s %6s %s\n" "$(echo $h | sed "s|$D/||")" $bc $nc $same
done
echo "total base $tb new $tn"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
