#!/bin/bash
# bench/detect.sh — detection power: on simulator runs with an injected
# fault (isocheck gen --fault F, ground truth in OUT.truth), the fraction
# of the histories in which the fault manifested that `isocheck check`
# rejects, per fault kind and history size (the PolySI paper's anomaly
# evaluation, on histories whose ground truth is known).  Control rows:
# fault-free runs, which must all pass at their own level.
#
#   bench/detect.sh [--quick] [--seeds N] [--rate R] [--timeout S] [--format dbcop|text|cobra|elle]
#
# Writes bench/out/detect/results.tsv and the "Detection power" section of
# doc/benchmarks.md.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
ISOCHECK=${ISOCHECK:-$root/build/isocheck}
OUT=${OUT:-$root/bench/out/detect}
DOC=${DOC:-$root/doc}
quick=0; seeds=20; rate=0.2; limit=120; fmt=dbcop
while [ $# -gt 0 ]; do case $1 in
  --quick) quick=1; seeds=5;; --seeds) seeds=$2; shift;; --rate) rate=$2; shift;;
  --timeout) limit=$2; shift;; --format) fmt=$2; shift;;
  *) echo "usage: $0 [--quick] [--seeds N] [--rate R] [--timeout S] [--format F]" >&2; exit 2;; esac; shift; done
[ -x "$ISOCHECK" ] || { echo "detect: build isocheck first (make)" >&2; exit 2; }
mkdir -p "$OUT" "$DOC"
probe=$OUT/probe.txt
printf 'w(1,1,1,1)\nr(1,1,2,2)\n' > "$probe"
"$ISOCHECK" check --level si "$probe" > "$OUT/probe.log" 2>&1; prc=$?
if [ $prc != 0 ]; then
  echo "detect: isocheck check gives no verdict on a trivial SI history (exit $prc: $(head -1 "$OUT/probe.log")); skipping" >&2
  exit 0
fi

# size name|gen options
sizes=(
  "200|--sessions 10 --txns 20 --ops 8 --keys 50 --dist zipf"
  "1000|--sessions 10 --txns 100 --ops 8 --keys 200 --dist zipf"
  "10000|--sessions 20 --txns 500 --ops 8 --keys 2000 --dist zipf"
)
[ $quick = 1 ] && sizes=("${sizes[@]:0:2}")
# name|gen level|gen fault|check level
cases=(
  "lost-update|si|lost-update|si"
  "long-fork|si|long-fork|si"
  "causality|si|causality|si"
  "aborted-read|si|aborted-read|si"
  "intermediate-read|si|intermediate-read|si"
  "control: si run, checked si|si|none|si"
  "control: ser run, checked ser|ser|none|ser"
  "si run, checked ser (write skew etc.)|si|none|ser"
)
res=$OUT/results.tsv
printf 'case\ttxns\tseed\tmanifested\tverdict\tanomaly\twall_s\n' > "$res"
ext=.$fmt; [ $fmt = cobra ] && ext=.cobra
for c in "${cases[@]}"; do
  IFS='|' read -r name glevel fault clevel <<< "$c"
  for sz in "${sizes[@]}"; do
    IFS='|' read -r txns opts <<< "$sz"
    for seed in $(seq 1 "$seeds"); do
      h=$OUT/$glevel-$fault-$txns-$seed$ext
      [ "$h.truth" -nt "$ISOCHECK" ] || nice "$ISOCHECK" gen $opts --level $glevel --fault $fault --fault-rate $rate --seed $seed --format $fmt --force -o "$h" >/dev/null 2>&1 \
        || { echo "detect: gen failed: $h" >&2; continue; }
      m=$(sed -n 's/.*"manifested": \([0-9]*\).*/\1/p' "$h.truth")
      read -r v w mem rc <<< "$(run_measured "$OUT/check.log" "$limit" nice "$ISOCHECK" check --level $clevel "$h")"
      an=$(sed -n -e 's/^FAIL: *\([^:]*\).*/\1/p' -e 's/^ *[0-9][0-9]*\. \([A-Za-z-]*\).*/\1/p' \
                  -e 's/^FAIL [a-z]*: .*cycle of.*/dependency cycle/p' "$OUT/check.log" | head -1)
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$txns" "$seed" "${m:-0}" "$v" "${an:--}" "$w" >> "$res"
    done
    printf '  %-40s %6s txns: done\n' "$name" "$txns" >&2
  done
done

{
  echo "Machine: $(machine_line); isocheck $(revision)."
  echo
  echo "Command: \`bench/detect.sh$([ $quick = 1 ] && echo ' --quick') --seeds $seeds --rate $rate --timeout $limit --format $fmt\`."
  echo "Each history: \`isocheck gen <size> --level L --fault F --fault-rate $rate --seed N --format $fmt\` (sizes: 10x20x8 ops on 50 keys,"
  echo "10x100x8 on 200 keys, 20x500x8 on 2000 keys, zipf 0.5), then \`isocheck check --level L'\`."
  echo "*Manifested*: the simulator's ground truth counted at least one occurrence of the fault (a write over a concurrent"
  echo "commit without first-committer-wins, a stale read, a read of an aborted or an overwritten write); *caught*: check exits 1. A manifested fault need not make the history"
  echo "violate the level (a stale read can have another explanation; a blind write over a concurrent commit that no read"
  echo "relates to the writer is invisible to any black-box checker), so detection below 100% is not by itself a miss."
  echo "Control rows must be all PASS at their own level."
  echo
  echo "| case | txns | histories | manifested | caught / manifested | FAIL, not manifested | errors/timeouts | anomaly reported most | mean check time |"
  echo "|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' 'NR > 1 {
      k = $1 SUBSEP $2
      if (!(k in n)) order[++cnt] = k
      n[k]++; nm = ($4 > 0); man[k] += nm
      if ($5 == "FAIL") { if (nm) caught[k]++; else fp[k]++; an[k, $6]++; if (an[k, $6] > best[k]) { best[k] = an[k, $6]; bestname[k] = $6 } }
      else if ($5 != "PASS") err[k]++
      t[k] += $7 }
    END { for (i = 1; i <= cnt; i++) { k = order[i]; split(k, p, SUBSEP)
        rate = man[k] ? sprintf("%d / %d (%.0f%%)", caught[k], man[k], 100 * caught[k] / man[k]) : "-"
        printf "| %s | %s | %d | %d | %s | %d | %d | %s | %.2f s |\n", p[1], p[2], n[k], man[k], rate, fp[k], err[k], (k in bestname) ? bestname[k] : "-", t[k] / n[k] } }' "$res"
} | md_section "$DOC/benchmarks.md" "Detection power"
echo "detect: results in $res, table in $DOC/benchmarks.md" >&2
